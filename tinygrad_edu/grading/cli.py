"""``tinygrad-edu`` (or ``python -m tinygrad_edu.grading``): release exercise notebooks, grade submissions.

Exit codes: 0 when the command did its job (grading completed, even if every learner got 0 points),
1 when ``release --check`` finds ``exercises/`` stale, 2 when the command was misused (a missing folder,
a solution notebook that breaks the format, no submissions found).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

EPILOG = """\
examples:
  tinygrad-edu release                      write exercises/ from solutions/
  tinygrad-edu release --check              exit 1 if exercises/ is not what release would write
  tinygrad-edu grade submissions/ --csv grades.csv --json grades.json
  tinygrad-edu grade alice.ipynb bob.ipynb --timeout 10 --save graded/
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tinygrad-edu", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Release the course's exercise notebooks from their solutions, and grade learners' "
                    "submissions. See 'Exercises and grading' in README.md.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{release,grade}")

    release = commands.add_parser(
        "release", help="write exercises/ from solutions/ (answers and hidden tests removed)",
        description="Write each solutions/NN_topic.ipynb as exercises/NN_topic.ipynb: answer regions replaced by "
                    "placeholders, hidden tests removed, outputs cleared, check cells tagged and checksummed.")
    release.add_argument("--source", type=Path, default=Path("solutions"),
                         help="folder of solution notebooks (default: solutions)")
    release.add_argument("--dest", type=Path, default=Path("exercises"),
                         help="folder to write the exercise notebooks to (default: exercises)")
    release.add_argument("--check", action="store_true",
                         help="write nothing; list stale, missing or unexpected files and exit 1 if there are any")

    grade = commands.add_parser(
        "grade", help="run submissions with the original checks and report points",
        description="Execute each submission in a fresh kernel with the original check cells (hidden tests "
                    "included) put back, and report points per exercise and in total.")
    grade.add_argument("submissions", nargs="+", type=Path, metavar="SUBMISSION",
                       help="a submitted .ipynb, or a folder searched for them (recursively)")
    grade.add_argument("--source", type=Path, default=Path("solutions"),
                       help="folder of the solution notebooks the submissions came from (default: solutions)")
    grade.add_argument("--timeout", type=float, default=30,
                       help="seconds a cell may run before it is interrupted (default: 30)")
    grade.add_argument("--csv", type=Path, metavar="FILE", help="also write the results as CSV")
    grade.add_argument("--json", type=Path, metavar="FILE",
                       help="also write the results as JSON (with each failed check's report and the written answers)")
    grade.add_argument("--save", type=Path, metavar="DIR",
                       help="save each executed, graded notebook in DIR (as NAME.graded.ipynb), to give feedback")
    grade.add_argument("--jobs", type=int, default=1, metavar="N",
                       help="grade N submissions at a time, each in its own kernel (default: 1)")
    grade.add_argument("--quiet", action="store_true", help="do not print progress, only the table")
    return parser


def _release(args: argparse.Namespace) -> int:
    from .notebook import FormatError
    from .release import release

    try:
        problems = release(args.source, args.dest, check=args.check)
    except (FileNotFoundError, FormatError) as error:
        print(f"tinygrad-edu release: {error}", file=sys.stderr)
        return 2
    for line in problems:
        print(line, file=sys.stderr if args.check else sys.stdout)
    if args.check:
        if problems:
            print(f"{args.dest}/ is not what release makes of {args.source}/: run `tinygrad-edu release`",
                  file=sys.stderr)
            return 1
        print(f"{args.dest}/ is up to date with {args.source}/")
    else:
        print(f"released {args.source}/ into {args.dest}/")
    return 0


def _grade(args: argparse.Namespace) -> int:
    try:
        import nbclient  # noqa: F401  (the grader runs notebooks with it)
    except ModuleNotFoundError:
        print("tinygrad-edu grade needs nbclient (it comes with jupyterlab or nbval: "
              "pip install -e '.[dev]')", file=sys.stderr)
        return 2
    from . import notebook
    from .grade import collect, grade_all
    from .release import solution_paths
    from .report import table, to_csv, to_json

    if not args.source.is_dir():
        print(f"tinygrad-edu grade: no folder of solution notebooks at {args.source} (use --source)", file=sys.stderr)
        return 2
    try:  # a broken solution notebook is the instructor's to fix before grading anyone
        for path in solution_paths(args.source):
            notebook.parse(notebook.read(path), f"{args.source}/{path.name}")
    except notebook.FormatError as error:
        print(f"tinygrad-edu grade: {error}", file=sys.stderr)
        return 2
    if args.timeout <= 0 or args.jobs < 1:
        print("tinygrad-edu grade: --timeout must be a positive number of seconds, --jobs at least 1",
              file=sys.stderr)
        return 2
    try:
        if not collect(args.submissions):
            print("tinygrad-edu grade: no .ipynb files found in " + ", ".join(map(str, args.submissions)),
                  file=sys.stderr)
            return 2
    except FileNotFoundError as error:
        print(f"tinygrad-edu grade: {error}", file=sys.stderr)
        return 2

    def progress(result: object) -> None:
        if not args.quiet:
            r = result
            verdict = "not graded" if r.error else f"{r.points:g}/{r.max_points:g} points"
            print(f"graded {r.path}: {verdict} ({r.seconds:.1f} s)", file=sys.stderr)

    results = grade_all(args.submissions, args.source, args.timeout, args.save, progress, args.jobs)
    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    print(table(results, colour=colour), end="")
    if args.csv:
        args.csv.write_text(to_csv(results), encoding="utf-8")
    if args.json:
        args.json.write_text(to_json(results), encoding="utf-8")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = _parser().parse_args(argv)
    return _release(args) if args.command == "release" else _grade(args)
