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
  tinygrad-edu grade class/ --jobs 2 --memory 2048 --submission-timeout 300 --csv grades.csv
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
    grade.add_argument("--submission-timeout", type=float, default=600, metavar="SECONDS",
                       help="seconds one submission may take in all, after which its remaining cells do not run "
                            "(default: 600)")
    grade.add_argument("--memory", type=int, default=4096, metavar="MB",
                       help="address space each kernel may use, in MB (default: 4096)")
    grade.add_argument("--sandbox", choices=("auto", "sealed", "basic"), default="auto",
                       help="how kernels are sealed off: 'sealed' (Linux namespaces), 'basic' (a private folder), "
                            "or 'auto': sealed where this machine allows it (default). See README, Grading")
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
    from .grade import collect, grade_all, write_file
    from .release import solution_paths
    from .report import table, to_csv, to_json
    from .sandbox import Limits, SandboxUnavailable, detect

    if not args.source.is_dir():
        print(f"tinygrad-edu grade: no folder of solution notebooks at {args.source} (use --source)", file=sys.stderr)
        return 2
    try:  # a broken solution notebook is the instructor's to fix before grading anyone
        for path in solution_paths(args.source):
            notebook.parse(notebook.read(path), f"{args.source}/{path.name}")
    except notebook.FormatError as error:
        print(f"tinygrad-edu grade: {error}", file=sys.stderr)
        return 2
    if args.timeout <= 0 or args.submission_timeout <= 0 or args.jobs < 1 or args.memory < 256:
        print("tinygrad-edu grade: --timeout and --submission-timeout must be positive numbers of seconds, --jobs "
              "at least 1, --memory at least 256 (MB)", file=sys.stderr)
        return 2
    try:
        found = collect(args.submissions)
        if not found:
            print("tinygrad-edu grade: no .ipynb files found in " + ", ".join(map(str, args.submissions)),
                  file=sys.stderr)
            return 2
    except FileNotFoundError as error:
        print(f"tinygrad-edu grade: {error}", file=sys.stderr)
        return 2
    refused = _refused_outputs(args, [path for path, _ in found])
    if refused:
        print(f"tinygrad-edu grade: {refused}", file=sys.stderr)
        return 2
    try:
        isolation = detect(args.sandbox)
    except SandboxUnavailable as error:
        print(f"tinygrad-edu grade: {error}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(f"grading {len(found)} notebook(s), {isolation.describe()}", file=sys.stderr)

    def progress(result: object) -> None:
        if not args.quiet:
            r = result
            verdict = "not graded" if r.error else f"{r.points:g}/{r.max_points:g} points"
            print(f"graded {r.path}: {verdict} ({r.seconds:.1f} s)", file=sys.stderr)

    limits = Limits(memory_mb=args.memory, cell_seconds=args.timeout, submission_seconds=args.submission_timeout)
    outputs = [p for p in (args.csv, args.json) if p is not None]
    try:
        results = grade_all(args.submissions, args.source, args.timeout, args.save, progress, args.jobs, limits,
                            isolation, outputs)
    except SandboxUnavailable as error:
        print(f"tinygrad-edu grade: {error}", file=sys.stderr)
        return 2
    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    print(table(results, colour=colour), end="")
    # Written now that every kernel, and every process it started, is gone: nothing rewrites them after us.
    if args.csv:
        write_file(args.csv, to_csv(results))
    if args.json:
        write_file(args.json, to_json(results, isolation))
    return 0


def _refused_outputs(args: argparse.Namespace, submissions: list[Path]) -> str | None:
    """Why an output path cannot be used, if it cannot: the grader overwrites only files it wrote itself."""
    from .grade import is_graded_notebook
    from .report import is_ours

    inputs = {p.resolve() for p in submissions}
    source = args.source.resolve()
    for option, path in (("--csv", args.csv), ("--json", args.json), ("--save", args.save)):
        if path is None:
            continue
        resolved = path.resolve()
        if resolved == source or source in resolved.parents:
            return f"{option} {path} is inside the solutions folder {args.source}: write grading outputs elsewhere"
        if resolved in inputs:
            return f"{option} {path} is one of the submissions: it would be overwritten"
        if option == "--save":
            if path.exists() and not path.is_dir():
                return f"--save {path} is a file, not a folder"
            continue
        if path.is_dir() or (os.path.lexists(path) and (path.is_symlink() or not is_ours(path, option[2:]))):
            return (f"{option} {path} exists and was not written by tinygrad-edu grade: choose another path, or "
                    "move that file away")
        if path.suffix == ".ipynb" and is_graded_notebook(path):
            return f"{option} {path} is a graded notebook"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = _parser().parse_args(argv)
    return _release(args) if args.command == "release" else _grade(args)
