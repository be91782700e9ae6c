"""Case (d): memory growth over many training steps of a small MLP; after warm-up it should be zero.

Three numbers:

* **traced growth**: bytes allocated through Python and numpy (``tracemalloc``) and still alive after
  the steps, compared with after the warm-up. Anything kept per step (a graph, a saved array, a hook)
  shows up here.
* **RSS growth**: the process's resident memory, from the operating system. Noisier (the allocator keeps
  freed pages), but it would show a leak outside Python's view.
* **cyclic garbage per step**: objects only the garbage collector can free, counted with the collector
  off. A graph with reference cycles is freed late, in bulk; tinygrad_edu's graphs have none.
"""

from __future__ import annotations

import gc
import os
import tracemalloc
from collections.abc import Callable

from .mlp import make_data, make_model, tinygrad_step


def _rss() -> int | None:
    """Resident set size in bytes (Linux), or None where /proc is not available."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def _small_step() -> Callable[[], object]:
    x, y = make_data(32, 20, 4)
    return tinygrad_step(make_model(20, 32, 4), x, y)


def measure_growth(steps: int, warmup: int = 300) -> dict[str, int | float | None]:
    """Run ``warmup`` steps, then ``steps`` more; return the memory the later steps added.

    The warm-up is a few hundred steps because each parameter's version counter (bumped by every
    optimizer step) is a Python int: small ints (up to 256) are shared constants, larger ones take
    32 bytes of their own. That happens once per parameter, not once per step.
    """
    step = _small_step()
    tracemalloc.start()
    try:
        for _ in range(warmup):
            step()
        gc.collect()
        traced0, rss0 = tracemalloc.get_traced_memory()[0], _rss()
        for _ in range(steps):
            step()
        gc.collect()
        traced1, rss1 = tracemalloc.get_traced_memory()[0], _rss()
    finally:
        tracemalloc.stop()

    cycle_steps = min(steps, 200)
    gc.collect()
    gc.disable()
    try:
        for _ in range(cycle_steps):
            step()
        garbage = gc.collect()  # what only the collector could free
    finally:
        gc.enable()
    return {"steps": steps, "traced": traced1 - traced0,
            "rss": None if rss0 is None or rss1 is None else rss1 - rss0,
            "cyclic_per_step": garbage / cycle_steps}

