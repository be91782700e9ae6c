"""What every benchmark shares: timing, seeding, optional competitors, and the result record."""

from __future__ import annotations

import gc
import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import numpy as np

SEED = 0


@dataclass
class Result:
    """One measured line: ``seconds`` is the median over ``runs`` repeats, ``best`` the fastest."""

    case: str
    library: str
    seconds: float
    best: float
    runs: int
    ops: int | None = None  # for per-op cases: how many ops one run records (forward), to report time per op
    note: str = ""


TURN = 0.01  # seconds: about how long one library runs at each of its turns (see measure)


def measure(fns: dict[str, Callable[[], object]], repeat: int, warmup: int = 1) -> dict[str, tuple[float, float]]:
    """Time each function over ``repeat`` rounds (after ``warmup`` untimed calls); return (median, min) seconds per
    call each.

    The functions take turns within each round, so a spell of machine noise (another process, a CPU slowing
    down) falls on all of them alike rather than on whichever was running at the time. A turn is as many calls
    in a row as last about ``TURN`` (one, for a function slower than that; the last warm-up call says how long one
    takes), and a round's time for that function is the turn's average per call. A library's code and data are
    then in the CPU's caches, as in a training loop, where the same step runs again and again. With one call per
    turn, each library would be timed right after the others had pushed it out of the caches, and its time would
    depend on how many others are installed: on the tiny MLP, torch's step measured 145 µs so (95 to 100 µs in
    turns), and 195 µs with HIPS autograd and MyGrad in the run.

    The garbage collector stays on, as in a real program: a library that makes many Python objects per
    op pays for their collection too. But everything alive before timing (modules, torch's large heap)
    is frozen out of the collector's view, so what a collection costs does not depend on which other
    libraries happen to be imported.
    """
    gc.collect()
    gc.freeze()
    try:
        calls = {}
        for name, fn in fns.items():
            took = TURN  # (no warm-up call to learn from: one call per turn)
            for _ in range(warmup):
                start = time.perf_counter()
                fn()
                took = time.perf_counter() - start
            calls[name] = max(1, round(TURN / took))
        times: dict[str, list[float]] = {name: [] for name in fns}
        for _ in range(repeat):
            for name, fn in fns.items():
                start = time.perf_counter()
                for _ in range(calls[name]):
                    fn()
                times[name].append((time.perf_counter() - start) / calls[name])
    finally:
        gc.unfreeze()
    return {name: (statistics.median(t), min(t)) for name, t in times.items()}


def seed_all(seed: int = SEED) -> np.random.Generator:
    """Seed Python's, numpy's and (if imported) torch's generators; return a fresh numpy Generator."""
    random.seed(seed)
    np.random.seed(seed)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.manual_seed(seed)
    return np.random.default_rng(seed)


def optional(name: str) -> ModuleType | None:
    """Import a competitor if it is installed (torch, micrograd, HIPS autograd, mygrad); None otherwise.
    Never a dependency of tinygrad_edu (``make bench`` installs them into the environment)."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    if name == "torch":
        module.set_num_threads(1)  # same footing as numpy's single BLAS thread (see benchmarks/__init__.py)
    return module
