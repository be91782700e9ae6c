"""Gradients written in PyTorch's order of operations, so they agree with PyTorch's to the last bit.

``-g * x / (y * y)`` and ``-g * ((x / y) / y)`` are the same derivative of x / y, but in float32 they round
differently for about half of all inputs: visible as soon as a learner prints ``x.grad[0].item()``. Each case
below spells out the formula PyTorch 2.13 uses (from its ``derivatives.yaml``), evaluated with numpy, and
checks that tinygrad_edu's gradient is exactly that, bit for bit; with torch installed, that torch's is too
(which is what shows the formula is PyTorch's). Formulas that read the op's own result (sigmoid, cumsum...)
are given each library's forward values, so a last-bit difference in a transcendental function (exp, log)
does not hide the order of the arithmetic after it.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
import pytest
from _oracle import oracle

import tinygrad_edu as tg

N = 400
rng = np.random.default_rng(7)
X = rng.uniform(-3, 3, N).astype(np.float32)
Y = rng.uniform(0.2, 3, N).astype(np.float32)  # positive: a divisor, a probability's scale
P = rng.uniform(0.01, 0.99, N).astype(np.float32)  # probabilities
G = rng.uniform(-2, 2, N).astype(np.float32)  # the incoming gradient, of both signs
W = rng.uniform(0.2, 2, N).astype(np.float32)
f32 = np.float32

# name: (forward(lib, x, y), the gradient PyTorch computes as a numpy formula of (x, y, g, out, lib), which input)
Case = tuple[Callable, Callable, int]
CASES: dict[str, Case] = {
    "div, in the divisor": (lambda lib, x, y: x / y, lambda x, y, g, out, lib: -g * ((x / y) / y), 1),
    "div, in the dividend": (lambda lib, x, y: x / y, lambda x, y, g, out, lib: g / y, 0),
    "reciprocal": (lambda lib, x, y: y.reciprocal(), lambda x, y, g, out, lib: -g * (out * out), 1),
    "number ** x": (lambda lib, x, y: 2 ** x, lambda x, y, g, out, lib: g * (out * f32(np.log(2))), 0),
    "sigmoid": (lambda lib, x, y: x.sigmoid(), lambda x, y, g, out, lib: g * (1 - out) * out, 0),
    "tanh (1 - y*y fused: rounded once)": (
        lambda lib, x, y: x.tanh(),
        lambda x, y, g, out, lib: g * (1 - out.astype(np.float64) ** 2).astype(f32), 0),
    "mse_loss, mean": (lambda lib, x, y: lib.nn.functional.mse_loss(x, y),
                       lambda x, y, g, out, lib: f32(2 / N) * (x - y) * g, 0),
    "mse_loss, none": (lambda lib, x, y: lib.nn.functional.mse_loss(x, y, reduction="none"),
                       lambda x, y, g, out, lib: 2 * (x - y) * g, 0),
    "bce_with_logits, mean, weight": (
        lambda lib, x, y: lib.nn.functional.binary_cross_entropy_with_logits(x, y / 3, lib.tensor(W)),
        lambda x, y, g, out, lib: (_sigmoid(lib, x) - y / 3) * g * W / f32(N), 0),
    "bce_with_logits, in the target": (
        lambda lib, x, y: lib.nn.functional.binary_cross_entropy_with_logits(x, y / 3, lib.tensor(W), reduction="sum"),
        lambda x, y, g, out, lib: -x * g * W / f32(3), 1),  # (/ 3: the target is y / 3)
    "bce_with_logits, pos_weight": (
        lambda lib, x, y: lib.nn.functional.binary_cross_entropy_with_logits(x, y / 3, pos_weight=lib.tensor(W)),
        lambda x, y, g, out, lib: ((W * (y / 3) + 1 - y / 3) * _sigmoid(lib, x) - W * (y / 3)) * g / f32(N), 0),
    "binary_cross_entropy": (  # x: probabilities here
        lambda lib, x, y: lib.nn.functional.binary_cross_entropy(x, y / 3, lib.tensor(W)),
        lambda x, y, g, out, lib: g * (x - y / 3) / np.maximum((1 - x) * x, f32(1e-12)) * W / f32(N), 0),
    "norm": (lambda lib, x, y: x.norm(), lambda x, y, g, out, lib: x / out * g, 0),
    "cumsum": (lambda lib, x, y: x.cumsum(0),
               lambda x, y, g, out, lib: np.cumsum(g[::-1], dtype=np.float64)[::-1].astype(f32), 0),
}


def _sigmoid(lib: ModuleType, x: np.ndarray) -> np.ndarray:
    """The library's own sigmoid values (exp may differ in the last bit between libraries)."""
    return lib.tensor(x).sigmoid().numpy()


def _check(lib: ModuleType, case: Case) -> None:
    forward, formula, which = case
    xs = P if forward is CASES["binary_cross_entropy"][0] else X
    x, y = lib.tensor(xs, requires_grad=True), lib.tensor(Y, requires_grad=True)
    out = forward(lib, x, y)
    g = lib.tensor(G) if out.dim() else lib.tensor(f32(1.7))
    grads = lib.autograd.grad(out, (x, y), g, allow_unused=True)
    expected = formula(xs, Y, g.numpy(), out.detach().numpy(), lib)
    got = grads[which].numpy()
    assert got.dtype == np.float32
    assert np.array_equal(got, np.broadcast_to(expected, got.shape)), f"{np.mean(got == expected):.3f} equal"


@pytest.mark.parametrize("name", CASES)
def test_gradient_is_pytorchs_formula_to_the_last_bit(name: str) -> None:
    _check(tg, CASES[name])
    torch = oracle()
    if torch is not None:  # the formula spelled out above is PyTorch's own
        _check(torch, CASES[name])


def test_cumsum_keeps_float32_running_totals_in_float64() -> None:
    """PyTorch adds float32 running totals in float64 and rounds each once: 0.1 added 1000 times is 100.0,
    not the 99.999... a float32 accumulator drifts to."""
    out = tg.full((1000,), 0.1).cumsum(0)
    assert out.dtype == tg.float32 and out[-1].item() == f32(100.0)
    assert np.array_equal(out.numpy(), np.cumsum(np.full(1000, f32(0.1)), dtype=np.float64).astype(f32))
    torch = oracle()
    if torch is not None:
        assert np.array_equal(out.numpy(), torch.full((1000,), 0.1).cumsum(0).numpy())
