"""Case (f): second derivatives, grad of grad, on a vector of 1000 numbers.

The function is the per-op case's chain, ten links of ``y = exp(tanh(y * w + b))`` (40 ops), summed; ``w`` and
``b`` are constants. One run computes the gradient with a recorded graph (``create_graph=True``), then the
gradient of its sum: ``d/dx sum(df/dx)``, the diagonal of the Hessian summed over rows (a Hessian-vector
product with a vector of ones). It measures how expensive the backward formulas are when they are recorded:
every op of every formula becomes a node of the second graph.

HIPS autograd does the same as ``grad(lambda x: sum(grad(f)(x)))``; MyGrad has no higher derivatives.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

import tinygrad_edu as tg

from .common import Result, measure, optional, seed_all

LINKS = 10
SIZE = 1000


def _inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = seed_all()
    return tuple(rng.uniform(lo, hi, SIZE).astype(np.float32) for lo, hi in ((0.5, 1.0), (0.5, 1.0), (0.0, 0.5)))


def _f(x: Any, w: Any, b: Any, exp: Callable, tanh: Callable) -> Any:
    y = x
    for _ in range(LINKS):
        y = exp(tanh(y * w + b))
    return y.sum()


def library_second(lib: ModuleType) -> Callable[[], Any]:
    """grad of grad through ``lib`` (tinygrad_edu or torch, the same code): returns d/dx sum(df/dx)."""
    xa, wa, ba = _inputs()
    w, b = lib.tensor(wa), lib.tensor(ba)

    def run() -> Any:
        x = lib.tensor(xa, requires_grad=True)
        (g,) = lib.autograd.grad(_f(x, w, b, lib.exp, lib.tanh), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        return gg

    return run


def torch_second() -> Callable[[], Any] | None:
    torch = optional("torch")
    return None if torch is None else library_second(torch)


def hips_second() -> Callable[[], Any] | None:
    autograd, anp = optional("autograd"), optional("autograd.numpy")
    if autograd is None or anp is None:
        return None
    xa, wa, ba = _inputs()

    def f(x: Any) -> Any:
        y = x
        for _ in range(LINKS):
            y = anp.exp(anp.tanh(y * wa + ba))
        return anp.sum(y)

    second = autograd.grad(lambda x: anp.sum(autograd.grad(f)(x)))
    return lambda: second(xa)


def run_second_order(quick: bool) -> list[Result]:
    repeat = 3 if quick else 40
    case = f"f. second derivatives (grad of grad, x of shape ({SIZE},), {4 * LINKS}-op function)"
    fns = {"tinygrad_edu": library_second(tg), "torch": torch_second(), "HIPS autograd": hips_second()}
    timings = measure({library: fn for library, fn in fns.items() if fn is not None}, repeat, warmup=1)
    return [Result(case, library, median, best, repeat) for library, (median, best) in timings.items()]
