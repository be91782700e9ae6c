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
from test_nn_layers_more import check_against_pytorch, check_gradients, check_initial_weights

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
    "3-d pooling": (lambda lib: (lib.nn.MaxPool3d(2), lib.nn.MaxPool3d((2, 1, 2), stride=1, padding=1),
                                 lib.nn.AvgPool3d(2), lib.nn.AvgPool3d(3, 2, 1, True, False, 2)),
        ok("(MaxPool3d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False), MaxPool3d(kernel_size=(2, "
           "1, 2), stride=1, padding=1, dilation=1, ceil_mode=False), AvgPool3d(kernel_size=2, stride=2, padding=0), "
           "AvgPool3d(kernel_size=3, stride=2, padding=1))")),
    "adaptive and power-average pooling": (
        lambda lib: (lib.nn.AdaptiveMaxPool1d(3), lib.nn.AdaptiveMaxPool2d((2, None), True),
                     lib.nn.AdaptiveAvgPool3d(2), lib.nn.LPPool1d(2, 3), lib.nn.LPPool2d(1.5, (2, 3), 1, True)),
        ok("(AdaptiveMaxPool1d(output_size=3), AdaptiveMaxPool2d(output_size=(2, None)), AdaptiveAvgPool3d("
           "output_size=2), LPPool1d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False), LPPool2d(norm_type="
           "1.5, kernel_size=(2, 3), stride=1, ceil_mode=True))")),
    "losses": (lambda lib: (lib.nn.HingeEmbeddingLoss(), lib.nn.MultiLabelSoftMarginLoss(),
                            lib.nn.MultiLabelMarginLoss(), lib.nn.TripletMarginWithDistanceLoss()),
        ok("(HingeEmbeddingLoss(), MultiLabelSoftMarginLoss(), MultiLabelMarginLoss(), TripletMarginWithDistanceLoss(\n"
           "  (distance_function): PairwiseDistance()\n"
           "))")),
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
    "pooling nodes": (
        lambda lib: [y.grad_fn.name() for y in (
            _f(lib).max_pool3d(_x(lib, 1, 1, 2, 2, 2), 2), _f(lib).avg_pool3d(_x(lib, 1, 2, 2, 2), 2),
            _f(lib).adaptive_avg_pool3d(_x(lib, 1, 3, 3, 3), 2), _f(lib).adaptive_avg_pool3d(_x(lib, 1, 3, 3, 3), 1),
            _f(lib).adaptive_max_pool2d(_x(lib, 1, 3, 3), 2), _f(lib).lp_pool2d(_x(lib, 1, 2, 2), 2, 2))],
        ok("['MaxPool3DWithIndicesBackward0', 'AvgPool3DBackward0', 'AdaptiveAvgPool3DBackward0', 'MeanBackward1', "
           "'AdaptiveMaxPool2DBackward0', 'PowBackward0']")),
    "adaptive_max_pool1d: the 2-d op, and its indices": (
        lambda lib: (lambda y: (_chain(y[0]), y[1], y[0].grad_fn.next_functions[0][0]._saved_result1))(
            _f(lib).adaptive_max_pool1d(lib.tensor([[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]], requires_grad=True), 3,
                                        return_indices=True)),
        ok("(['SqueezeBackward1', 'AdaptiveMaxPool2DBackward0', 'UnsqueezeBackward0', "
           "'tinygrad_edu::autograd::AccumulateGrad'], tensor([[2, 4, 5]]), tensor([[[2, 4, 5]]]))")),
    "loss nodes": (
        lambda lib: [y.grad_fn.name() for y in (
            _f(lib).multilabel_margin_loss(_x(lib, 2, 3), lib.tensor([[0, -1, 1], [2, 1, -1]])),
            _f(lib).multilabel_margin_loss(_x(lib, 2, 3), lib.tensor([[0, -1, 1], [2, 1, -1]]), reduction="none"),
            _f(lib).hinge_embedding_loss(_x(lib, 3), lib.tensor([1.0, -1.0, 1.0]), reduction="sum"),
            _f(lib).multilabel_soft_margin_loss(_x(lib, 2, 3), lib.ones(2, 3)),
            _f(lib).triplet_margin_with_distance_loss(_x(lib, 2, 3), _x(lib, 2, 3), _x(lib, 2, 3), reduction="none"))],
        ok("['MultilabelMarginLossBackward0', 'MultilabelMarginLossBackward0', 'SumBackward0', 'MeanBackward0', "
           "'ClampMinBackward0']")),
    "local_response_norm pools 4-d inputs with avg_pool3d": (
        lambda lib: (lambda y: [n.name() for n, _ in y.grad_fn.next_functions[1][0].next_functions[0][0]
                                .next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions])(
            _f(lib).local_response_norm(_x(lib, 1, 4, 2, 3), 2)),
        ok("['AvgPool3DBackward0']")),
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

ERRORS.update({
    "multilabel_margin_loss: target size": (
        lambda lib: _f(lib).multilabel_margin_loss(lib.zeros(3, 4), lib.zeros(3, 3, dtype=lib.long)),
        err("RuntimeError", "inconsistent target size: [3, 3] for input of size: [3, 4]")),
    "multilabel_margin_loss: float target": (
        lambda lib: lib.nn.MultiLabelMarginLoss()(lib.zeros(3, 4), lib.zeros(3, 4)),
        err("RuntimeError", "expected scalar type Long but found Float")),
    "multilabel_soft_margin_loss: reduction": (
        lambda lib: _f(lib).multilabel_soft_margin_loss(lib.zeros(3, 4), lib.ones(3, 4), reduction="bad"),
        err("ValueError", "bad is not valid")),
    "triplet_margin_with_distance_loss: margin": (
        lambda lib: _f(lib).triplet_margin_with_distance_loss(lib.zeros(2, 3), lib.zeros(2, 3), lib.zeros(2, 3),
                                                              margin=0),
        err("ValueError", "margin must be greater than 0, got 0")),
    "TripletMarginWithDistanceLoss: margin": (lambda lib: lib.nn.TripletMarginWithDistanceLoss(margin=-1),
        err("ValueError", "TripletMarginWithDistanceLoss: expected margin to be greater than 0, got -1 instead")),
    "triplet_margin_with_distance_loss: dims": (
        lambda lib: _f(lib).triplet_margin_with_distance_loss(lib.zeros(2, 3), lib.zeros(2, 3), lib.zeros(3)),
        err("RuntimeError", "The anchor, positive, and negative tensors are expected to have the same number of "
            "dimensions, but got: anchor 2D, positive 2D, and negative 1D inputs")),
    "max_pool3d: 3-d input": (lambda lib: _f(lib).max_pool3d(lib.ones(2, 2, 2), 2),
        err("RuntimeError", "non-empty 4D or 5D (batch mode) tensor expected for input")),
    "max_pool3d: output too small": (lambda lib: _f(lib).max_pool3d(lib.ones(1, 1, 1, 2, 2), 2),
        err("RuntimeError", "Given input size: (1x1x2x2). Calculated output size: (1x0x1x1). Output size is too "
            "small")),
    "max_pool3d: kernel of two": (lambda lib: _f(lib).max_pool3d(lib.ones(1, 1, 2, 2, 2), (2, 2)),
        err("RuntimeError", "max_pool3d: kernel_size must either be a single int, or a tuple of three ints")),
    "avg_pool3d: kernel of two": (lambda lib: _f(lib).avg_pool3d(lib.ones(1, 1, 2, 2, 2), (2, 2)),
        err("RuntimeError", "avg_pool3d: kernel_size must be a single int, or a tuple of three ints")),
    "pooling: stride, padding of two": (
        lambda lib: [_error(f, lib.ones(1, 1, 2, 2, 2), 1, *args) for f in (
            _f(lib).avg_pool3d, _f(lib).max_pool3d) for args in (((1, 1),), (1, (1, 1)))],
        ok("['avg_pool3d: stride must be omitted, a single int, or a tuple of three ints', 'avg_pool3d: padding must "
           "be a single int, or a tuple of three ints', 'max_pool3d: stride must either be omitted, a single int, or "
           "a tuple of three ints', 'max_pool3d: padding must either be a single int, or a tuple of three ints']")),
    "avg_pool3d: smaller than the kernel": (lambda lib: lib.nn.AvgPool3d(2)(lib.ones(1, 1, 1, 2, 2)),
        err("RuntimeError", "input image (T: 1 H: 2 W: 2) smaller than kernel size (kT: 2 kH: 2 kW: 2)")),
    "avg_pool3d: padding": (lambda lib: _f(lib).avg_pool3d(lib.ones(1, 1, 2, 2, 2), 2, padding=2),
        err("RuntimeError", "pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and "
            "dilation=1")),
    "adaptive_max_pool2d: 2-d input": (lambda lib: lib.nn.AdaptiveMaxPool2d(2)(lib.ones(2, 2)),
        err("RuntimeError", "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [2, 2]")),
    "adaptive_max_pool2d: empty": (lambda lib: _f(lib).adaptive_max_pool2d(lib.ones(1, 0, 2), 2),
        err("RuntimeError", "adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
            "but input has sizes [1, 0, 2] with dimension 1 being empty")),
    "adaptive_max_pool1d: 4-d input": (lambda lib: _f(lib).adaptive_max_pool1d(lib.ones(2, 2, 2, 2), 2),
        err("RuntimeError", "Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' (while "
            "checking arguments for adaptive_max_pool1d)")),
    "adaptive_avg_pool3d: 2-d input": (lambda lib: _f(lib).adaptive_avg_pool3d(lib.ones(2, 2), 2),
        err("RuntimeError", "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got [2, 2]")),
    "lp_pool2d: 2-d input": (lambda lib: _f(lib).lp_pool2d(lib.ones(2, 2), 2, 2),
        err("IndexError", "Dimension out of range (expected to be in range of [-2, 1], but got -3)")),
})

def _error(fn: Callable[..., Any], *args: Any) -> str:
    """The message of the RuntimeError ``fn(*args)`` raises."""
    try:
        fn(*args)
    except RuntimeError as e:
        return str(e)
    return "no error"


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
    "max_pool3d": (lambda lib, x: _f(lib).max_pool3d(x, 2), [(1, 2, 4, 4, 4)]),
    "max_pool3d, overlapping, padding, ceil_mode": (
        lambda lib, x: _f(lib).max_pool3d(x, (2, 3, 2), (1, 2, 2), 1, ceil_mode=True), [(2, 1, 3, 5, 4)]),
    "max_pool3d, dilation, unbatched": (lambda lib, x: _f(lib).max_pool3d(x, 2, 1, dilation=(1, 2, 1)),
                                        [(2, 3, 5, 3)]),
    "avg_pool3d": (lambda lib, x: _f(lib).avg_pool3d(x, 2), [(1, 2, 4, 4, 4)]),
    "avg_pool3d, padding, ceil_mode, count_include_pad=False": (
        lambda lib, x: _f(lib).avg_pool3d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False), [(2, 1, 4, 5, 3)]),
    "AvgPool3d, divisor_override, unbatched": (lambda lib, x: lib.nn.AvgPool3d((1, 2, 2), 1, divisor_override=3)(x),
                                               [(2, 3, 3, 3)]),
    "adaptive_avg_pool3d": (lambda lib, x: _f(lib).adaptive_avg_pool3d(x, (2, 3, None)), [(2, 1, 5, 4, 3)]),
    "AdaptiveAvgPool3d, unbatched": (lambda lib, x: lib.nn.AdaptiveAvgPool3d(2)(x), [(2, 3, 5, 4)]),
    "adaptive_max_pool2d": (lambda lib, x: _f(lib).adaptive_max_pool2d(x, (3, 2)), [(2, 2, 5, 7)]),
    "AdaptiveMaxPool2d, larger output, None": (lambda lib, x: lib.nn.AdaptiveMaxPool2d((7, None))(x), [(1, 4, 3)]),
    "adaptive_max_pool1d": (lambda lib, x: _f(lib).adaptive_max_pool1d(x, 4), [(2, 3, 9)]),
    "lp_pool2d": (lambda lib, x: _f(lib).lp_pool2d(x, 2, (2, 3), stride=1), [(2, 2, 4, 5)]),
    "LPPool1d, p = 3, ceil_mode": (lambda lib, x: lib.nn.LPPool1d(3, 2, ceil_mode=True)(x.abs() + 0.5), [(2, 3, 7)]),
    "hinge_embedding_loss": (
        lambda lib, x: _f(lib).hinge_embedding_loss(x, lib.tensor([[1.0, -1, -1, 1], [-1, 1, -1, -1]]), 0.7,
                                                    reduction="none"), [(2, 4)]),
    "multilabel_soft_margin_loss, weight": (
        lambda lib, x, w: lib.nn.MultiLabelSoftMarginLoss(w)(x, lib.tensor([[1.0, 0, 1, 0], [0, 0, 1, 1]])),
        [(2, 4), (4,)]),
    "multilabel_margin_loss": (
        lambda lib, x: _f(lib).multilabel_margin_loss(x, lib.tensor([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 2, 0, 0]]),
                                                      reduction="none"), [(3, 4)]),
    "MultiLabelMarginLoss, one sample": (
        lambda lib, x: lib.nn.MultiLabelMarginLoss()(x, lib.tensor([2, 0, -1, 1, 1])), [(5,)]),
    "triplet_margin_with_distance_loss, swap": (
        lambda lib, a, p, n: lib.nn.TripletMarginWithDistanceLoss(swap=True, margin=2.0)(a, p, n),
        [(3, 4), (3, 4), (3, 4)]),
    "triplet_margin_with_distance_loss, cosine distance": (
        lambda lib, a, p, n: _f(lib).triplet_margin_with_distance_loss(
            a, p, n, distance_function=lambda u, v: 1 - _f(lib).cosine_similarity(u, v), reduction="sum"),
        [(3, 4), (3, 4), (3, 4)]),
}


@pytest.mark.parametrize("name", CASES)
def test_gradcheck(name: str) -> None:
    check_gradients(CASES[name])


@pytest.mark.parametrize(("dtype", "rtol"), [("float64", 1e-12), ("float32", 1e-5)])
@pytest.mark.parametrize("name", CASES)
def test_values_and_gradients_are_pytorchs(name: str, dtype: str, rtol: float) -> None:
    check_against_pytorch(name, dtype, rtol, CASES)


def test_max_pool3d_indices_are_pytorchs() -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")
    a = np.random.default_rng(3).standard_normal((2, 2, 5, 4, 6)).round(1)  # (rounded: ties, PyTorch's first)
    a[0, 0, 1, 1, 1] = np.nan
    ours, theirs = (lib.nn.functional.max_pool3d(lib.tensor(a), (2, 3, 2), 2, 1, ceil_mode=True,
                                                 return_indices=True) for lib in (tg, torch))
    np.testing.assert_array_equal(ours[0].numpy(), theirs[0].numpy())
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())


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
    check_initial_weights(LAYERS[name])
