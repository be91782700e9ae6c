"""Case (i): a 1,000,000-op chain, forward and backward, each library in a fresh process: its time and its peak
memory (the child process's maximum resident set size), against torch's.

Every op of the chain is recorded, so the graph holds a million nodes and their saved tensors at once: the engine
must walk it without recursion, and free it without recursion either (a chain freed node by node from its head).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .common import Result

_PROGRAM = """
import resource, time
import {lib} as torch
x = torch.tensor([1.0], requires_grad=True)
start = time.perf_counter()
y = x
for _ in range({n}):
    y = y * 1.0000001
y.sum().backward()
del y
print(time.perf_counter() - start, float(x.grad[0]), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _run_child(lib: str, n: int) -> tuple[float, float, float] | None:
    """(seconds, gradient, peak MB) of the chain in a fresh process, or None if the library is not installed."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", _PROGRAM.format(lib=lib, n=n)], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parent.parent, env=env, check=False)
    if done.returncode != 0:
        if "No module named" in done.stderr:
            return None
        raise RuntimeError(done.stderr)
    seconds, grad, peak = (float(v) for v in done.stdout.split())
    return seconds, grad, peak / 1024  # (ru_maxrss: kB on Linux)


def run_million_chain(quick: bool) -> list[Result]:
    n = 20_000 if quick else 1_000_000
    case = f"i. {n:,}-op chain, forward + backward, fresh process"
    results = []
    for lib in ("tinygrad_edu", "torch"):
        measured = _run_child(lib, n)
        if measured is not None:
            seconds, grad, peak = measured
            note = f"peak memory {peak:,.0f} MB; gradient {grad:.4f}"
            results.append(Result(case, lib, seconds, seconds, 1, n, note))
    return results
