"""Programs in the style of PyTorch's autograd tutorials print the same with tinygrad_edu as with PyTorch.

Each ``tests/tutorials/<name>.py`` does ``import torch`` and prints; ``<name>.out`` beside it is what PyTorch 2.13
printed for it. Every program runs here twice, each time in a process of its own (``tests/tutorials/_runner.py``
imports the library once and forks a child per program; the two libraries' runs go side by side):

* with tinygrad_edu standing in for torch: its stdout must equal ``<name>.out``,
  so the promise is checked even where PyTorch is not installed;
* with the real torch, when it is importable: its stdout must equal ``<name>.out`` too, so the recording cannot
  drift from what PyTorch really prints.

Before comparing, object addresses (``at 0x7f...``) are blanked, and tinygrad_edu's own module name in its repr
(``tinygrad_edu.Size``, ``tinygrad_edu.float32``) is read as ``torch``: the stand-in answers to ``torch`` but
keeps its own name. Record the files again after changing a program, with PyTorch installed:

    .venv/bin/python tests/test_tutorials.py [name ...]
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PROGRAMS_DIR = HERE / "tutorials"
RUNNER = PROGRAMS_DIR / "_runner.py"
PROGRAMS = sorted(p for p in PROGRAMS_DIR.glob("*.py") if not p.name.startswith("_"))
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
OUR_NAME = re.compile(r"(?<![\w.])tinygrad_edu(?=\.|::)")


def sanitize(text: str) -> str:
    """Blank object addresses and read ``tinygrad_edu.X`` / ``tinygrad_edu::X`` as ``torch.X`` / ``torch::X``."""
    return OUR_NAME.sub("torch", ADDRESS.sub(" at 0x...", text))


@dataclass
class Result:
    returncode: int
    stdout: str  # sanitized
    stderr: str


def start(library: str, programs: list[Path], outdir: str) -> subprocess.Popen:
    """Start running ``programs`` with ``library`` as torch, in the background, results in ``outdir``."""
    # One thread each: the tensors are tiny, and the two libraries' runs share the machine's cores.
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONWARNINGS": "ignore", "OMP_NUM_THREADS": "1"}
    return subprocess.Popen([sys.executable, str(RUNNER), library, outdir, *map(str, programs)], env=env,
                            cwd=PROGRAMS_DIR)


def collect(process: subprocess.Popen, programs: list[Path], outdir: str) -> dict[str, Result]:
    """Wait for ``process`` and read each program's exit code and output."""
    assert process.wait(timeout=600) == 0, "the runner itself failed"
    results = {}
    for program in programs:
        base = Path(outdir, program.stem)
        results[program.stem] = Result(int(Path(f"{base}.rc").read_text()),
                                       sanitize(Path(f"{base}.stdout").read_text()), Path(f"{base}.stderr").read_text())
    return results


def run_all(libraries: list[str], programs: list[Path]) -> dict[str, dict[str, Result]]:
    """Each library's results for each program; the libraries run side by side."""
    with tempfile.TemporaryDirectory() as tmp:
        dirs = {lib: tempfile.mkdtemp(dir=tmp) for lib in libraries}
        processes = {lib: start(lib, programs, dirs[lib]) for lib in libraries}
        return {lib: collect(processes[lib], programs, dirs[lib]) for lib in libraries}


@pytest.fixture(scope="module")
def printed() -> dict[str, dict[str, Result]]:
    libraries = ["tinygrad_edu"] + (["torch"] if importlib.util.find_spec("torch") is not None else [])
    return run_all(libraries, PROGRAMS)


def recorded(program: Path) -> str:
    return program.with_suffix(".out").read_text()


def check(result: Result, program: Path) -> None:
    assert result.returncode == 0, f"{program.name} exited with {result.returncode}:\n{result.stderr}"
    assert result.stdout == recorded(program)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_tinygrad_edu_prints_what_torch_printed(program: Path, printed: dict[str, dict[str, Result]]) -> None:
    check(printed["tinygrad_edu"][program.stem], program)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_recording_is_what_torch_prints(program: Path, printed: dict[str, dict[str, Result]]) -> None:
    if "torch" not in printed:
        pytest.skip("PyTorch is not installed")
    check(printed["torch"][program.stem], program)


def test_every_program_has_a_recording_and_a_docstring() -> None:
    assert PROGRAMS, "no programs found"
    for program in PROGRAMS:
        assert program.with_suffix(".out").exists(), f"{program.name} has no recorded output"
        assert program.read_text().startswith('"""'), f"{program.name} should say what it checks in a docstring"
    for out in PROGRAMS_DIR.glob("*.out"):
        assert out.with_suffix(".py").exists(), f"{out.name} belongs to no program"


def test_sanitize() -> None:
    text = "<AddBackward0 object at 0x7f91b90594e0> tinygrad_edu.Size([2]) tinygrad_edu_x pytinygrad_edu.y"
    assert sanitize(text) == "<AddBackward0 object at 0x...> torch.Size([2]) tinygrad_edu_x pytinygrad_edu.y"
    assert sanitize("[tinygrad_edu.FloatTensor [3]] tinygrad_edu::autograd::AccumulateGrad") == (
        "[torch.FloatTensor [3]] torch::autograd::AccumulateGrad")


def record(names: list[str]) -> None:
    """Write ``<name>.out`` from the real torch for the named programs (all when none is named)."""
    chosen = [p for p in PROGRAMS if not names or p.stem in names]
    unknown = set(names) - {p.stem for p in chosen}
    if unknown:
        raise SystemExit(f"no such program: {', '.join(sorted(unknown))}")
    for stem, result in run_all(["torch"], chosen)["torch"].items():
        if result.returncode != 0:
            raise SystemExit(f"{stem}.py failed with torch:\n{result.stderr}")
        (PROGRAMS_DIR / f"{stem}.out").write_text(result.stdout)
        print(f"recorded {stem}.out")


if __name__ == "__main__":
    record(sys.argv[1:])
