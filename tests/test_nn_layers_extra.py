"""More of ``torch.nn`` that tutorials and PyTorch's API pages reach for: the distance and shrink layers, ``pdist``,
``Bilinear``, ``RReLU``; 3-d, adaptive max and power-average pooling; the multi-label, hinge and triplet losses;
and ``EmbeddingBag``.

As in ``test_nn_layers_more``: printed cases run with tinygrad_edu and, when torch is installed, with torch
(``_oracle.as_pytorch``), the expected outcome spelled out next to each; values and gradients checked by finite
differences (``gradcheck``/``gradgradcheck``, float64, tiny cases) and against torch's when it is there (float64 to
1e-12 relative, float32 to 1e-5).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, err, ok, oracle
from test_conv_pool import _chain, _x

import tinygrad_edu as tg


def _f(lib: ModuleType) -> Any:
    return lib.nn.functional


def _seeded(lib: ModuleType, seed: int = 0) -> Any:
    """``lib.nn.functional`` after ``manual_seed(seed)``: a random op gives the same draws every call."""
    lib.manual_seed(seed)
    return lib.nn.functional


# -- reprs -----------------------------------------------------------------------------------------------------------
REPRS = {
    "distances, softmin, softshrink": (
        lambda lib: (lib.nn.CosineSimilarity(), lib.nn.CosineSimilarity(0, 1e-6), lib.nn.PairwiseDistance(1.0),
                     lib.nn.Softmin(1), lib.nn.Softmin(), lib.nn.Softshrink(), lib.nn.Softshrink(0.25)),
        ok("(CosineSimilarity(), CosineSimilarity(), PairwiseDistance(), Softmin(dim=1), Softmin(dim=None), "
           "Softshrink(0.5), Softshrink(0.25))")),
    "RReLU": (lambda lib: (lib.nn.RReLU(), lib.nn.RReLU(0.1, 0.3, inplace=True)),
        ok("(RReLU(lower=0.125, upper=0.3333333333333333), RReLU(lower=0.1, upper=0.3, inplace=True))")),
    "Bilinear": (lambda lib: (lib.nn.Bilinear(4, 5, 2), lib.nn.Bilinear(1, 2, 3, bias=False)),
        ok("(Bilinear(in1_features=4, in2_features=5, out_features=2, bias=True), Bilinear(in1_features=1, "
           "in2_features=2, out_features=3, bias=False))")),
}


# -- nodes -----------------------------------------------------------------------------------------------------------
NODES = {
    "softshrink, pdist, rrelu": (
        lambda lib: (_chain(_f(lib).softshrink(_x(lib, 3))), _chain(_f(lib).pdist(_x(lib, 3, 2))),
                     _chain(_f(lib).rrelu(_x(lib, 3))), _chain(_seeded(lib).rrelu(_x(lib, 3), training=True)),
                     _chain(_f(lib).rrelu_(_x(lib, 3).clone()))[0]),
        ok("(['SoftshrinkBackward0', 'tinygrad_edu::autograd::AccumulateGrad'], ['PdistBackward0', "
           "'tinygrad_edu::autograd::AccumulateGrad'], ['RreluWithNoiseBackward0', "
           "'tinygrad_edu::autograd::AccumulateGrad'], ['RreluWithNoiseBackward0', "
           "'tinygrad_edu::autograd::AccumulateGrad'], 'RreluWithNoiseBackward1')")),
    "bilinear: reshape, _trilinear, view back, bias": (
        lambda lib: (lambda y: (_chain(y), [n.name() for n, _ in y.grad_fn.next_functions[0][0].next_functions[0][0]
                                            .next_functions]))(
            _f(lib).bilinear(_x(lib, 2, 3, 4), _x(lib, 2, 3, 5), _x(lib, 6, 4, 5), _x(lib, 6))),
        ok("(['AddBackward0', 'ViewBackward0', 'TrilinearBackward0', 'ViewBackward0', "
           "'tinygrad_edu::autograd::AccumulateGrad'], ['ViewBackward0', 'tinygrad_edu::autograd::AccumulateGrad', "
           "'ViewBackward0'])")),
    "distance layers compose": (
        lambda lib: (_chain(lib.nn.PairwiseDistance()(_x(lib, 2, 3), _x(lib, 2, 3))),
                     _chain(lib.nn.Softmin(1)(_x(lib, 2, 3)))),
        ok("(['NormBackward1', 'AddBackward1', 'SubBackward0', 'tinygrad_edu::autograd::AccumulateGrad'], "
           "['SoftmaxBackward0', 'NegBackward0', 'tinygrad_edu::autograd::AccumulateGrad'])")),
}


# -- errors ----------------------------------------------------------------------------------------------------------
def _bil(lib: ModuleType, x1: tuple, x2: tuple, w: tuple, b: tuple | None = None) -> Any:
    return _f(lib).bilinear(lib.zeros(*x1), lib.zeros(*x2), lib.zeros(*w), None if b is None else lib.zeros(*b))


ERRORS = {
    "softshrink: negative lambda": (lambda lib: _f(lib).softshrink(lib.ones(2), -0.5),
        err("RuntimeError", "lambda must be in range [0, 3.40282e+38] for input dtype Float, but found -0.5")),
    "softshrink: negative lambda, float64": (lambda lib: lib.nn.Softshrink(-2)(lib.ones(2, dtype=lib.float64)),
        err("RuntimeError", "lambda must be in range [0, 1.79769e+308] for input dtype Double, but found -2")),
    "softshrink: integers": (lambda lib: _f(lib).softshrink(lib.ones(2, dtype=lib.long)),
        err("NotImplementedError", "\"softshrink_check\" not implemented for 'Long'")),
    "pdist: 3-d": (lambda lib: lib.pdist(lib.ones(3, 2, 2)),
        err("RuntimeError", "pdist only supports 2D tensors, got: 3D")),
    "pdist: negative p": (lambda lib: _f(lib).pdist(lib.ones(3, 2), -1),
        err("RuntimeError", "pdist only supports non-negative p values")),
    "pdist: integers": (lambda lib: _f(lib).pdist(lib.ones(3, 2, dtype=lib.long)),
        err("RuntimeError", "pdist only supports floating-point dtypes")),
    "rrelu: lower > upper": (lambda lib: lib.nn.RReLU(0.5, 0.1)(lib.ones(2)),
        err("RuntimeError", "Lower bound should be less than or equal to the upper bound")),
    "rrelu: integers": (lambda lib: (_f(lib).rrelu(lib.ones(2, dtype=lib.long)), 0),
        err("NotImplementedError", "\"leaky_relu_cpu\" not implemented for 'Long'")),
    "rrelu: integers, training": (lambda lib: _f(lib).rrelu(lib.ones(2, dtype=lib.long), training=True),
        err("NotImplementedError", "\"rrelu_with_noise_out_cpu\" not implemented for 'Long'")),
    "bilinear: dims": (lambda lib: _bil(lib, (2, 3), (2,), (4, 3, 2)),
        err("RuntimeError", "bilinear(): input dimensions do not match: got 2 and 1")),
    "bilinear: batch": (lambda lib: _bil(lib, (2, 3), (1, 2), (4, 3, 2)),
        err("RuntimeError", "bilinear(): input batch dimensions do not match at dim 0: got 2 and 1")),
    "bilinear: input1": (lambda lib: _bil(lib, (2, 3), (2, 2), (4, 2, 2)),
        err("RuntimeError", "bilinear(): input1 size does not match weight size: got 3 but expected 2")),
    "bilinear: input2": (lambda lib: _bil(lib, (2, 3), (2, 3), (4, 3, 2)),
        err("RuntimeError", "bilinear(): input2 size does not match weight size: got 3 but expected 2")),
    "bilinear: bias": (lambda lib: _bil(lib, (2, 3), (2, 2), (4, 3, 2), (3,)),
        err("RuntimeError", "bilinear(): bias size does not match weight size: got 3 but expected 4")),
}

GROUPS = {"reprs": REPRS, "nodes": NODES, "errors": ERRORS}


@pytest.mark.parametrize(("group", "name"), [(g, n) for g, cases in GROUPS.items() for n in cases])
def test_as_pytorch(group: str, name: str) -> None:
    fn, expected = GROUPS[group][name]
    as_pytorch(fn, expected)


# -- values and gradients: finite differences, and PyTorch's numbers -------------------------------------------------
# A case: a function of (lib, *inputs) and the shapes of its inputs (all requiring grad), seeded normal numbers.
CASES: dict[str, tuple[Callable[..., Any], list[tuple[int, ...]]]] = {
    "cosine_similarity, pairwise_distance layers": (
        lambda lib, a, b: lib.nn.CosineSimilarity(0)(a, b) * lib.nn.PairwiseDistance(3, keepdim=True)(a, b),
        [(3, 4), (3, 4)]),
    "softmin layer": (lambda lib, x: lib.nn.Softmin(0)(x), [(3, 4)]),
    "softshrink": (lambda lib, x: _f(lib).softshrink(x, 0.3), [(4, 5)]),
    "pdist": (lambda lib, x: _f(lib).pdist(x), [(5, 3)]),
    "pdist, p = 1, 3, inf": (lambda lib, x: _f(lib).pdist(x, 1) + _f(lib).pdist(x, 3) * _f(lib).pdist(x, np.inf),
                             [(4, 3)]),
    "pdist, p = 0.5": (lambda lib, x: _f(lib).pdist(x, 0.5), [(4, 3)]),
    "bilinear": (lambda lib, a, b, w, c: _f(lib).bilinear(a, b, w, c), [(2, 3, 4), (2, 3, 2), (5, 4, 2), (5,)]),
    "bilinear, one pair, no bias": (lambda lib, a, b, w: _f(lib).bilinear(a, b, w), [(4,), (3,), (2, 4, 3)]),
    "rrelu, evaluation": (lambda lib, x: _f(lib).rrelu(x, 0.1, 0.4), [(3, 5)]),
    "rrelu, training": (lambda lib, x: _seeded(lib, 3).rrelu(x, training=True), [(4, 5)]),
    "RReLU layer, training": (lambda lib, x: (lib.manual_seed(1), lib.nn.RReLU(0.2, 0.6)(x))[1], [(2, 3, 4)]),
}


def _inputs(lib: ModuleType, shapes: list[tuple[int, ...]], dtype: str) -> list[Any]:
    rng = np.random.default_rng(0)
    return [lib.tensor(rng.standard_normal(s), dtype=getattr(lib, dtype), requires_grad=True) for s in shapes]


def _values_and_grads(lib: ModuleType, name: str, dtype: str) -> list[np.ndarray]:
    fn, shapes = CASES[name]
    inputs = _inputs(lib, shapes, dtype)
    y = fn(lib, *inputs)
    g = lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)), dtype=getattr(lib, dtype))
    y.backward(g)
    return [y.detach().numpy(), *(t.grad.numpy() for t in inputs)]


@pytest.mark.parametrize("name", CASES)
def test_gradcheck(name: str) -> None:
    """The backward of every case, and its own backward, against finite differences (float64)."""
    fn, shapes = CASES[name]
    inputs = tuple(_inputs(tg, shapes, "float64"))
    assert tg.autograd.gradcheck(lambda *a: fn(tg, *a), inputs)
    assert tg.autograd.gradgradcheck(lambda *a: fn(tg, *a), inputs)


@pytest.mark.parametrize(("dtype", "rtol"), [("float64", 1e-12), ("float32", 1e-5)])
@pytest.mark.parametrize("name", CASES)
def test_values_and_gradients_are_pytorchs(name: str, dtype: str, rtol: float) -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")
    ours, theirs = (_values_and_grads(lib, name, dtype) for lib in (tg, torch))
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol)


def test_rrelu_draws_pytorchs_slopes_bit_for_bit() -> None:
    """After the same seed, training mode's random slopes are PyTorch's, float32 and float64."""
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")
    for dtype in ("float32", "float64"):
        out = []
        for lib in (tg, torch):
            lib.manual_seed(11)
            x = lib.randn(5, 7, dtype=getattr(lib, dtype))
            out.append(lib.nn.functional.rrelu(x, 0.05, 0.9, training=True).numpy())
        assert np.array_equal(*out)


def test_rrelu_evaluation_is_leaky_relu_at_the_mean_slope() -> None:
    x = tg.tensor([-2.0, -0.5, 0.0, 1.5])
    assert tg.equal(tg.nn.functional.rrelu(x, 0.1, 0.3), tg.nn.functional.leaky_relu(x, 0.2))
    model = tg.nn.RReLU(0.1, 0.3).eval()
    assert tg.equal(model(x), tg.nn.functional.leaky_relu(x, 0.2))


def test_pdist_is_the_upper_triangle_of_cdist() -> None:
    x = tg.tensor(np.random.default_rng(2).standard_normal((5, 3)))
    full = tg.cdist(x, x)
    rows, cols = np.triu_indices(5, 1)
    np.testing.assert_allclose(tg.pdist(x).numpy(), full.numpy()[rows, cols], rtol=1e-12)


LAYERS: dict[str, Callable[[ModuleType], Any]] = {
    "Bilinear": lambda lib: lib.nn.Bilinear(4, 3, 5),
    "Bilinear, no bias": lambda lib: lib.nn.Bilinear(2, 6, 3, bias=False),
}


@pytest.mark.parametrize("name", LAYERS)
def test_initial_weights_are_pytorchs_bit_for_bit(name: str) -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")
    tg.manual_seed(7)
    torch.manual_seed(7)
    ours, theirs = LAYERS[name](tg), LAYERS[name](torch)
    for (key, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters(), strict=True):
        assert a.shape == b.shape and np.array_equal(a.detach().numpy(), b.detach().numpy()), key
