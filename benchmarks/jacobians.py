"""Case (h): a whole Jacobian, by forward mode (``jacfwd``) and by reverse mode (``jacrev``), wide and tall.

f(x) = tanh(W x), from R^n to R^m, twice: **wide** (n = 1000 inputs, m = 10 outputs) and **tall** (n = 10,
m = 1000). ``jacfwd`` builds J column by column, one forward pass with a tangent per input (n passes);
``jacrev`` row by row, one backward pass per output (m passes). So on the wide function reverse mode should win
by about n / m, and on the tall one forward mode: the rule the lesson on forward mode measures. The floor is
numpy by hand: J = diag(1 - y²) W, all at once.

tinygrad_edu's ``func.jacfwd`` / ``jacrev`` run their passes one after another (a Python loop); torch's
``torch.func`` versions batch them with ``vmap`` into a few large ops, so torch's times say how fast one can go,
and the ratio jacfwd / jacrev in each library says which way round is cheaper.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

import tinygrad_edu as tg

from .common import Result, measure, optional, seed_all

SHAPES = {"wide": (1000, 10), "tall": (10, 1000)}  # (inputs n, outputs m)
QUICK_SHAPES = {"wide": (100, 10), "tall": (10, 100)}


def _inputs(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    rng = seed_all()
    return rng.normal(0, 1 / np.sqrt(n), (m, n)).astype(np.float32), rng.normal(size=n).astype(np.float32)


def library_jacobian(lib: ModuleType, how: str, n: int, m: int) -> Callable[[], Any]:
    """``lib.func.jacfwd`` or ``jacrev`` (the same code for tinygrad_edu and torch) of tanh(W x) at x."""
    wa, xa = _inputs(n, m)
    w, x = lib.tensor(wa), lib.tensor(xa)
    transform = getattr(lib.func, how)
    jac = transform(lambda v: lib.tanh(w @ v))

    def run() -> Any:
        with warnings.catch_warnings():  # (torch.func's vmap in torch 2.13 warns that torch.jit.script is deprecated)
            warnings.filterwarnings("ignore", "`torch.jit.script` is deprecated", DeprecationWarning)
            return jac(x)

    return run


def numpy_jacobian(n: int, m: int) -> Callable[[], Any]:
    wa, xa = _inputs(n, m)

    def run() -> np.ndarray:
        y = np.tanh(wa @ xa)
        return (1 - y * y)[:, None] * wa

    return run


def check(n: int = 30, m: int = 4) -> None:
    """Both transforms give the numpy Jacobian (what the timed code computes is right)."""
    expected = numpy_jacobian(n, m)()
    for how in ("jacfwd", "jacrev"):
        np.testing.assert_allclose(library_jacobian(tg, how, n, m)().numpy(), expected, rtol=1e-5, atol=1e-6)


def run_jacobians(quick: bool) -> list[Result]:
    repeat = 2 if quick else 7
    results = []
    torch = optional("torch")
    for name, (n, m) in (QUICK_SHAPES if quick else SHAPES).items():
        fns: dict[str, Callable[[], Any]] = {"numpy (by hand)": numpy_jacobian(n, m)}
        for how in ("jacfwd", "jacrev"):
            fns[f"tinygrad_edu {how}"] = library_jacobian(tg, how, n, m)
            if torch is not None:
                fns[f"torch {how}"] = library_jacobian(torch, how, n, m)
        timings = measure(fns, repeat, warmup=1)
        case = f"h. Jacobian of tanh(W x), {name}: {n} -> {m}"
        for label, (median, best) in timings.items():
            library, _, how = label.rpartition(" ") if label.endswith(("jacfwd", "jacrev")) else (label, "", "")
            results.append(Result(case, library, median, best, repeat, note=how))
    return results


def jacobian_table(results: list[Result]) -> str:
    """Per shape and library: jacfwd's and jacrev's best times and their ratio (which way round is cheaper)."""
    lines = ["| h. Jacobian of tanh(W x) | library | jacfwd (min) | jacrev (min) | jacfwd / jacrev |",
             "| --- | --- | ---: | ---: | ---: |"]
    for case in dict.fromkeys(r.case for r in results if r.case.startswith("h.")):
        for library in ("tinygrad_edu", "torch"):
            times = {r.note: r.best for r in results if r.case == case and r.library == library}
            if {"jacfwd", "jacrev"} <= set(times):
                lines.append(f"| {case.removeprefix('h. Jacobian of tanh(W x), ')} | {library} | "
                             f"{times['jacfwd'] * 1e3:.2f} ms | {times['jacrev'] * 1e3:.2f} ms | "
                             f"{times['jacfwd'] / times['jacrev']:.2f} |")
    return "\n".join(lines)
