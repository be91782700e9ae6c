"""How long grading a class takes: ``tinygrad-edu grade`` on N honest ``00_welcome`` submissions.

    python -m benchmarks.grading                       # 30 submissions, --jobs 2, 3 rounds
    python -m benchmarks.grading --baseline ../old     # also the grader of another checkout, for a before/after
    python -m benchmarks.grading --output FILE         # also write the markdown table to FILE

Three ways are timed, taking turns in each round (so a noisy minute on the shared machine hits them alike):

* **grader**: this checkout's ``python -m tinygrad_edu.grading grade DIR --jobs J --quiet`` (sealed kernels,
  the grader's own cells around each check), as an instructor runs it;
* **floor**: the same notebooks executed as they are, J at a time, each in a plain kernel (nbclient, no
  sandbox, no checks put back): what running the learners' code costs at the least;
* **baseline** (with ``--baseline PATH``): the grader of another checkout of the project, same command.

The ratios (grader / floor, grader / baseline) use the fastest round of each. No test looks at them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


def honest_class(folder: Path, count: int, notebook: str = "00_welcome") -> list[Path]:
    """``count`` copies of the released notebook, answered the way a learner would (the solution's code)."""
    released = json.loads((ROOT / "exercises" / f"{notebook}.ipynb").read_text())
    solution = json.loads((ROOT / "solutions" / f"{notebook}.ipynb").read_text())
    answers = {c["id"]: "".join(c["source"]) for c in solution["cells"]}
    for cell in released["cells"]:
        if cell["metadata"].get("tinygrad_edu", {}).get("solution"):
            lines = answers[cell["id"]].split("\n")
            cell["source"] = "\n".join(line for line in lines if line.strip() not in SOLUTION_MARKERS)
    paths = []
    for i in range(count):
        path = folder / f"learner{i:02d}" / f"{notebook}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(released))
        paths.append(path)
    return paths


def time_grader(checkout: Path, folder: Path, jobs: int) -> float:
    """Seconds for one ``grade`` run of ``checkout`` over ``folder``; every submission must get full marks."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tinygrad_edu.grading", "grade", str(folder), "--jobs", str(jobs),
                           "--quiet", "--source", str(ROOT / "solutions")], cwd=checkout, env=env,
                          capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    graded = [line for line in done.stdout.splitlines() if line.startswith(str(folder))]
    if not graded or not all(line.rstrip().endswith("10/10") for line in graded):
        raise RuntimeError(f"{checkout}: not every honest submission got full marks:\n{done.stdout}")
    return seconds


def time_floor(paths: list[Path], jobs: int) -> float:
    """Seconds to execute the notebooks as they are, ``jobs`` at a time, each in a plain kernel."""
    import nbformat
    from nbclient import NotebookClient

    def run(path: Path) -> None:
        nb = nbformat.read(path, as_version=4)
        with tempfile.TemporaryDirectory() as cwd:
            NotebookClient(nb, timeout=60, allow_errors=True, resources={"metadata": {"path": cwd}}).execute()

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(run, paths))
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.grading", description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout of the project, whose grader to time too")
    parser.add_argument("--output", type=Path, help="also write the markdown table to this file")
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {"grader": [], "floor": []}
    if args.baseline:
        times["baseline"] = []
    with tempfile.TemporaryDirectory(prefix="tinygrad-edu-bench-") as tmp:
        folder = Path(tmp) / "class"
        paths = honest_class(folder, args.submissions)
        for round_ in range(args.rounds):
            times["grader"].append(time_grader(ROOT, folder, args.jobs))
            times["floor"].append(time_floor(paths, args.jobs))
            if args.baseline:
                times["baseline"].append(time_grader(args.baseline.resolve(), folder, args.jobs))
            print(f"round {round_ + 1}: " + ", ".join(f"{k} {v[-1]:.1f} s" for k, v in times.items()), file=sys.stderr)
    if args.baseline:  # name the baseline by its commit
        commit = subprocess.run(["git", "-C", str(args.baseline), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip() or str(args.baseline)
        times[f"baseline ({commit})"] = times.pop("baseline")
    best = {k: min(v) for k, v in times.items()}
    lines = [f"Grading {args.submissions} honest 00_welcome submissions, --jobs {args.jobs}, fastest of {args.rounds} "
             f"rounds ({os.cpu_count()} CPUs):", "", "| way | fastest | all rounds | ratio |",
             "| --- | ---: | --- | ---: |"]
    for name, values in times.items():
        ratio = "" if name == "grader" else f"grader / {name.split()[0]}: {best['grader'] / best[name]:.2f}×"
        lines.append(f"| {name} | {best[name]:.1f} s | {', '.join(f'{v:.1f}' for v in values)} | {ratio} |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.output:
        args.output.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
