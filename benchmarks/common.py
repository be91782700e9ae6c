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


def measure(fns: dict[str, Callable[[], object]], repeat: int, warmup: int = 1) -> dict[str, tuple[float, float]]:
    """Time each function ``repeat`` times (after ``warmup`` untimed calls); return (median, min) seconds each.

    The functions take turns, one call each per round, so a spell of machine noise (another process, a
    CPU slowing down) falls on all of them alike rather than on whichever was running at the time.

    The garbage collector stays on, as in a real program: a library that makes many Python objects per
    op pays for their collection too. But everything alive before timing (modules, torch's large heap)
    is frozen out of the collector's view, so what a collection costs does not depend on which other
    libraries happen to be imported.
    """
    gc.collect()
    gc.freeze()
    try:
        for fn in fns.values():
            for _ in range(warmup):
                fn()
        times: dict[str, list[float]] = {name: [] for name in fns}
        for _ in range(repeat):
            for name, fn in fns.items():
                start = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - start)
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
