"""The tensor functions PyTorch has beyond the everyday ones, each against PyTorch: sgn, copysign, sinc, i0,
nan_to_num, clamp_min, fmax and the other element-wise odds and ends; nansum, nanmean, count_nonzero, logcumsumexp,
quantiles, cov and corrcoef; searchsorted, bucketize and histogram; ravel, the splits, broadcast_tensors,
cartesian_prod, block_diag and the other shapes; addbmm, addr, vdot and chain_matmul.

Each case is run with tinygrad_edu and, when torch is installed, with torch (``_oracle.as_pytorch``); the
expected text is spelled out, so each test means something without torch. Gradients are checked against finite
differences (``gradcheck``, ``gradgradcheck``) and against torch's, and the nodes each op records against torch's.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle

import tinygrad_edu as tg
from tinygrad_edu.autograd import gradcheck, gradgradcheck

Case = tuple[Callable[[ModuleType], Any], tuple]

CASES: dict[str, Case] = {
    "sgn": (
        lambda lib: (lib.sgn(lib.tensor([-2.0, 0.0, 3.5])), lib.tensor([-2, 0, 3]).sgn()),
        (None, "(tensor([-1.,  0.,  1.]), tensor([-1,  0,  1]))", []),
    ),
    "positive": (
        lambda lib: lib.positive(lib.tensor([1.0, -2.0])),
        (None, "tensor([ 1., -2.])", []),
    ),
    "positive of bools": (
        lambda lib: lib.positive(lib.tensor([True])),
        ("RuntimeError", "The `+` operator, on a bool tensor is not supported.", []),
    ),
    "negative and fix": (
        lambda lib: (lib.negative(lib.tensor([1.0, -2.0])), lib.fix(lib.tensor([-1.5, 2.7]))),
        (None, "(tensor([-1.,  2.]), tensor([-1.,  2.]))", []),
    ),
    "clamp_min, clamp_max": (
        lambda lib: (lib.clamp_min(lib.tensor([1.0, 5.0, float("nan")]), 2.0), lib.tensor([1, 5]).clamp_max(2.5)),
        (None, "(tensor([2., 5., nan]), tensor([1.0000, 2.5000]))", []),
    ),
    "clamp_min tensor": (
        lambda lib: lib.tensor([1.0, 5.0]).clamp_min(lib.tensor([2.0, 3.0])),
        (None, "tensor([2., 5.])", []),
    ),
    "fmax, fmin": (
        lambda lib: (
            lib.fmax(lib.tensor([1.0, float("nan"), 3.0]), lib.tensor([2.0, 1.0, float("nan")])),
            lib.fmin(lib.tensor([1.0, float("nan")]), lib.tensor([2.0, 0.5])),
        ),
        (None, "(tensor([2., 1., 3.]), tensor([1.0000, 0.5000]))", []),
    ),
    "copysign": (
        lambda lib: (
            lib.copysign(lib.tensor([1.0, -2.0, 3.0]), lib.tensor([-1.0, 1.0, -0.0])),
            lib.copysign(lib.tensor([1, 2]), -1),
        ),
        (None, "(tensor([-1.,  2., -3.]), tensor([-1., -2.]))", []),
    ),
    "float_power": (
        lambda lib: (
            lib.float_power(lib.tensor([2, 3]), 2),
            lib.tensor([4.0]).float_power(0.5),
            lib.float_power(2, lib.tensor([1.0, 3.0])),
        ),
        (
            None,
            (
                '(tensor([4., 9.], dtype=tinygrad_edu.float64), tensor([2.], dtype=tinygrad_edu.float64), tensor([2.'
                ', 8.], dtype=tinygrad_edu.float64))'
            ),
            [],
        ),
    ),
    "float_power_ needs float64": (
        lambda lib: lib.tensor([2.0]).float_power_(2),
        (
            "RuntimeError",
            "the base given to float_power_ has dtype Float but the operation's result requires dtype Double",
            [],
        ),
    ),
    "ldexp": (
        lambda lib: (
            lib.ldexp(lib.tensor([1.0, 3.0]), lib.tensor([2, -1])),
            lib.ldexp(lib.tensor([1]), lib.tensor([3])),
        ),
        (None, "(tensor([4.0000, 1.5000]), tensor([8.]))", []),
    ),
    "frexp": (
        lambda lib: lib.frexp(lib.tensor([8.0, 0.3, -5.0, 0.0])),
        (
            None,
            (
                'tinygrad_edu.return_types.frexp(\nmantissa=tensor([ 0.5000,  0.6000, -0.6250,  0.0000]),\nexponent=t'
                'ensor([ 4, -1,  3,  0], dtype=tinygrad_edu.int32))'
            ),
            [],
        ),
    ),
    "frexp of integers": (
        lambda lib: lib.frexp(lib.tensor([1])),
        ("RuntimeError", "tinygrad_edu.frexp() only supports floating-point dtypes", []),
    ),
    "logaddexp2": (
        lambda lib: lib.logaddexp2(lib.tensor([1.0, 1000.0]), lib.tensor([1.0, 1000.0])),
        (None, "tensor([   2., 1001.])", []),
    ),
    "logaddexp2 of integers": (
        lambda lib: lib.logaddexp2(lib.tensor([1]), lib.tensor([2])),
        ("NotImplementedError", "\"logaddexp2_cpu\" not implemented for 'Long'", []),
    ),
    "nextafter": (
        lambda lib: (
            lib.nextafter(lib.tensor([1.0, 2.0], dtype=lib.float64), lib.tensor([2.0, 1.0], dtype=lib.float64))
            - lib.tensor([1.0, 2.0], dtype=lib.float64)
        ),
        (None, "tensor([ 2.2204e-16, -2.2204e-16], dtype=tinygrad_edu.float64)", []),
    ),
    "heaviside": (
        lambda lib: lib.heaviside(lib.tensor([-1.5, 0.0, 2.0]), lib.tensor([0.5])),
        (None, "tensor([0.0000, 0.5000, 1.0000])", []),
    ),
    "heaviside, dtypes differ": (
        lambda lib: lib.heaviside(lib.tensor([1.0]), lib.tensor([2])),
        ("RuntimeError", "heaviside is not yet implemented for tensors with different dtypes.", []),
    ),
    "heaviside, backward": (
        lambda lib: lib.heaviside(lib.tensor([1.0], requires_grad=True), lib.tensor([2.0])).sum().backward(),
        ("RuntimeError", "derivative for aten::heaviside is not implemented", []),
    ),
    "heaviside, node": (
        lambda lib: lib.heaviside(lib.tensor([1.0], requires_grad=True), lib.tensor([2.0])).grad_fn.name(),
        (None, "'tinygrad_edu::autograd::NotImplemented'", []),
    ),
    "gcd, lcm": (
        lambda lib: (
            lib.gcd(lib.tensor([12, -18, 0]), lib.tensor([8, 12, 5])),
            lib.lcm(lib.tensor([4, -6]), lib.tensor([6, 4])),
        ),
        (None, "(tensor([4, 6, 5]), tensor([12, 12]))", []),
    ),
    "gcd of floats": (
        lambda lib: lib.gcd(lib.tensor([1.0]), lib.tensor([2.0])),
        ("NotImplementedError", "\"gcd_cpu\" not implemented for 'Float'", []),
    ),
    "shifts": (
        lambda lib: (
            lib.bitwise_left_shift(lib.tensor([1, -3]), 2),
            lib.tensor([16, -16]).bitwise_right_shift(lib.tensor([2, 3])),
        ),
        (None, "(tensor([  4, -12]), tensor([ 4, -2]))", []),
    ),
    "shift of floats": (
        lambda lib: lib.bitwise_left_shift(lib.tensor([1.0]), 2),
        ("NotImplementedError", "\"lshift_cpu\" not implemented for 'Float'", []),
    ),
    "sinc": (
        lambda lib: (lib.sinc(lib.tensor([0.0, 0.5, 1.0, -1.5])), lib.sinc(lib.tensor([0, 2]))),
        (None, "(tensor([ 1.0000e+00,  6.3662e-01, -2.7828e-08, -2.1221e-01]), tensor([1.0000e+00, 2.7828e-08]))", []),
    ),
    "i0": (
        lambda lib: (lib.i0(lib.tensor([0.0, 1.0, -2.5, 10.0])), lib.i0(lib.tensor([0, 1]))),
        (None, "(tensor([1.0000e+00, 1.2661e+00, 3.2898e+00, 2.8157e+03]), tensor([1.0000, 1.2661]))", []),
    ),
    "mvlgamma": (
        lambda lib: (lib.mvlgamma(lib.tensor([2.5, 3.0]), 2), lib.tensor([1.5]).mvlgamma(3)),
        (None, "(tensor([0.8570, 1.5502]), tensor([2.1687]))", []),
    ),
    "mvlgamma out of domain": (
        lambda lib: lib.mvlgamma(lib.tensor([0.5]), 2),
        (None, "tensor([inf])", []),
    ),
    "nan_to_num": (
        lambda lib: (
            lib.nan_to_num(lib.tensor([float("nan"), float("inf"), -float("inf"), 1.5])),
            lib.tensor([float("nan"), float("inf")]).nan_to_num(nan=2.0, posinf=9.0),
            lib.nan_to_num(lib.tensor([1, 2])),
        ),
        (None, "(tensor([ 0.0000e+00,  3.4028e+38, -3.4028e+38,  1.5000e+00]), tensor([2., 9.]), tensor([1, 2]))", []),
    ),
    "nan_to_num_": (
        lambda lib: lib.tensor([float("nan"), 1.0]).nan_to_num_(-1.0),
        (None, "tensor([-1.,  1.])", []),
    ),
    "isposinf, isneginf, isreal": (
        lambda lib: (
            lib.isposinf(lib.tensor([float("inf"), -float("inf"), 1.0])),
            lib.tensor([float("inf"), -float("inf")]).isneginf(),
            lib.isreal(lib.tensor([1, 2])),
            lib.isposinf(lib.tensor([3])),
        ),
        (None, "(tensor([ True, False, False]), tensor([False,  True]), tensor([True, True]), tensor([False]))", []),
    ),
    "renorm": (
        lambda lib: (
            lib.tensor([[1.0, 2.0, 2.0], [0.3, 0.4, 0.0]]).renorm(2, 0, 1.0),
            lib.renorm(lib.tensor([[3.0, -4.0], [1.0, 1.0]]), 1, 1, 2.0),
        ),
        (
            None,
            (
                '(tensor([[0.3333, 0.6667, 0.6667],\n        [0.3000, 0.4000, 0.0000]]), tensor([[ 1.5000, -1.6000],'
                '\n        [ 0.5000,  0.4000]]))'
            ),
            [],
        ),
    ),
    "renorm, p <= 0": (
        lambda lib: lib.renorm(lib.ones(2, 2), -1, 0, 1),
        ("RuntimeError", "renorm: non-positive-norm not supported", []),
    ),
    "renorm, maxnorm < 0": (
        lambda lib: lib.renorm(lib.ones(2, 2), 2, 0, -1),
        ("RuntimeError", "renorm: expected maxnorm to be >= 0 but got -1", []),
    ),
    "nansum": (
        lambda lib: (
            lib.nansum(lib.tensor([[1.0, float("nan")], [3.0, 4.0]])),
            lib.tensor([[1.0, float("nan")], [3.0, 4.0]]).nansum(1),
            lib.tensor([[1.0, float("nan")]]).nansum(0, keepdim=True),
            lib.nansum(lib.tensor([1, 2])),
        ),
        (None, "(tensor(8.), tensor([1., 7.]), tensor([[1., 0.]]), tensor(3))", []),
    ),
    "nanmean": (
        lambda lib: (
            lib.nanmean(lib.tensor([[1.0, float("nan")], [3.0, 4.0]])),
            lib.tensor([[1.0, float("nan")], [3.0, 4.0]]).nanmean(dim=1),
            lib.tensor([float("nan")]).nanmean(),
        ),
        (None, "(tensor(2.6667), tensor([1.0000, 3.5000]), tensor(nan))", []),
    ),
    "nanmean of integers": (
        lambda lib: lib.nanmean(lib.tensor([1, 2])),
        ("RuntimeError", "nanmean(): expected input to have floating point or complex dtype but got Long", []),
    ),
    "count_nonzero": (
        lambda lib: (
            lib.count_nonzero(lib.tensor([[0, 1, 2], [0, 0, 3]])),
            lib.tensor([[0.0, 1.0], [2.0, 0.0]]).count_nonzero(0),
            lib.count_nonzero(lib.tensor([[0, 1, 2], [0, 0, 3]]), dim=(0, 1)),
        ),
        (None, "(tensor(3), tensor([1, 1]), tensor(3))", []),
    ),
    "count_nonzero, bad dim": (
        lambda lib: lib.count_nonzero(lib.ones(2), 3),
        ("IndexError", "Dimension out of range (expected to be in range of [-1, 0], but got 3)", []),
    ),
    "logcumsumexp": (
        lambda lib: (
            lib.logcumsumexp(lib.tensor([0.0, 1.0, 2.0, 1000.0]), 0),
            lib.tensor([[0.0, 0.0], [1.0, -float("inf")]]).logcumsumexp(dim=1),
        ),
        (
            None,
            (
                '(tensor([   0.0000,    1.3133,    2.4076, 1000.0000]), tensor([[0.0000, 0.6931],\n        [1.0000, '
                '1.0000]]))'
            ),
            [],
        ),
    ),
    "logcumsumexp of integers": (
        lambda lib: lib.logcumsumexp(lib.tensor([1, 2]), 0),
        ("NotImplementedError", "\"logcumsumexp_out_cpu\" not implemented for 'Long'", []),
    ),
    "quantile": (
        lambda lib: (
            lib.quantile(lib.tensor([0.0, 1.0, 2.0, 3.0, 10.0]), 0.3),
            lib.tensor([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]]).quantile(lib.tensor([0.25, 0.5]), dim=1),
            lib.tensor([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]]).quantile(0.5, dim=0, keepdim=True),
        ),
        (
            None,
            (
                '(tensor(1.2000), tensor([[1.5000, 1.5000],\n        [2.0000, 3.0000]]), tensor([[2.5000, 2.5000, '
                '2.5000]]))'
            ),
            [],
        ),
    ),
    "quantile, interpolations": (
        lambda lib: (
            [
                lib.quantile(lib.tensor([0.0, 1.0, 2.0, 3.0]), lib.tensor([0.4, 0.5, 0.9]), interpolation=m)
                for m in ("linear", "lower", "higher", "midpoint", "nearest")
            ]
        ),
        (
            None,
            (
                '[tensor([1.2000, 1.5000, 2.7000]), tensor([1., 1., 2.]), tensor([2., 2., 3.]), tensor([1.5000, 1.50'
                '00, 2.5000]), tensor([1., 2., 3.])]'
            ),
            [],
        ),
    ),
    "quantile, keepdim without dim": (
        lambda lib: lib.quantile(lib.tensor([[1.0, 2.0], [3.0, 4.0]]), 0.5, keepdim=True),
        (None, "tensor([[2.5000]])", []),
    ),
    "quantile with a nan": (
        lambda lib: (
            lib.quantile(lib.tensor([1.0, float("nan"), 3.0]), 0.5),
            lib.nanquantile(lib.tensor([1.0, float("nan"), 3.0]), 0.5),
            lib.nanquantile(lib.tensor([[float("nan"), float("nan")], [1.0, 2.0]]), 0.25, dim=1),
        ),
        (None, "(tensor(nan), tensor(2.), tensor([   nan, 1.2500]))", []),
    ),
    "quantile of integers": (
        lambda lib: lib.quantile(lib.tensor([1, 2]), 0.5),
        ("RuntimeError", "quantile() input tensor must be either float or double dtype", []),
    ),
    "quantile, q too big": (
        lambda lib: lib.quantile(lib.tensor([1.0, 2.0]), 1.5),
        ("RuntimeError", "quantile() q must be in the range [0, 1] but got 1.5", []),
    ),
    "quantile, q tensor too big": (
        lambda lib: lib.quantile(lib.tensor([1.0, 2.0]), lib.tensor([0.5, 1.5])),
        ("RuntimeError", "quantile() q values must be in the range [0, 1]", []),
    ),
    "quantile, q dtype": (
        lambda lib: lib.quantile(lib.tensor([1.0, 2.0]), lib.tensor([0.5], dtype=lib.float64)),
        ("RuntimeError", "quantile() q tensor must be same dtype as the input tensor", []),
    ),
    "quantile, interpolation": (
        lambda lib: lib.quantile(lib.tensor([1.0, 2.0]), 0.5, interpolation="cubic"),
        (
            "RuntimeError",
            "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got cubic",
            [],
        ),
    ),
    "quantile, empty": (
        lambda lib: lib.quantile(lib.tensor([]), 0.5),
        ("RuntimeError", "quantile() input tensor must be non-empty", []),
    ),
    "cov": (
        lambda lib: (
            lib.cov(lib.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.5]])),
            lib.cov(lib.tensor([1.0, 2.0, 4.0]), correction=0),
            lib.tensor([[0, 1, 2], [2, 1, 0]]).cov(),
        ),
        (
            None,
            (
                '(tensor([[ 1.0000, -0.7500],\n        [-0.7500,  0.5833]]), tensor(1.5556), tensor([[ 1., -1.],\n '
                '       [-1.,  1.]]))'
            ),
            [],
        ),
    ),
    "cov, weights": (
        lambda lib: lib.cov(
            lib.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.5]]),
            fweights=lib.tensor([1, 2, 1]),
            aweights=lib.tensor([0.5, 1.0, 2.0]),
        ),
        (None, "tensor([[ 0.6429, -0.4286],\n        [-0.4286,  0.3036]])", []),
    ),
    "cov, too few observations": (
        lambda lib: lib.cov(lib.tensor([[1.0], [2.0]])),
        (
            None,
            "tensor([[nan, nan],\n        [nan, nan]])",
            [
                (
                    'UserWarning: cov(): degrees of freedom is <= 0. Correction should be strictly less than the num'
                    'ber of observations.'
                )
            ],
        ),
    ),
    "cov, 3-d": (
        lambda lib: lib.cov(lib.ones(2, 2, 2)),
        (
            "RuntimeError",
            "cov(): expected input to have two or fewer dimensions but got an input with 3 dimensions",
            [],
        ),
    ),
    "cov, float fweights": (
        lambda lib: lib.cov(lib.ones(2, 2), fweights=lib.tensor([1.0, 2.0])),
        ("RuntimeError", "cov(): expected fweights to have integral dtype but got fweights with Float dtype", []),
    ),
    "cov, integer aweights": (
        lambda lib: lib.cov(lib.ones(2, 2), aweights=lib.tensor([1, 2])),
        ("RuntimeError", "cov(): expected aweights to have floating point dtype but got aweights with Long dtype", []),
    ),
    "cov, negative fweights": (
        lambda lib: lib.cov(lib.ones(2, 2), fweights=lib.tensor([1, -2])),
        ("RuntimeError", "cov(): fweights cannot be negative", []),
    ),
    "cov, fweights count": (
        lambda lib: lib.cov(lib.ones(2, 2), fweights=lib.tensor([1, 2, 3])),
        (
            "RuntimeError",
            "cov(): expected fweights to have the same numel as there are observations in the input but got 3 != 2",
            [],
        ),
    ),
    "corrcoef": (
        lambda lib: (
            lib.corrcoef(lib.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.5], [1.0, 1.0, 3.0]])),
            lib.tensor([1.0, 2.0, 4.0]).corrcoef(),
        ),
        (
            None,
            (
                '(tensor([[ 1.0000, -0.9820,  0.8660],\n        [-0.9820,  1.0000, -0.7559],\n        [ 0.8660, -0'
                '.7559,  1.0000]]), tensor(1.))'
            ),
            [],
        ),
    ),
    "corrcoef, 3-d": (
        lambda lib: lib.corrcoef(lib.ones(2, 2, 2)),
        (
            "RuntimeError",
            "corrcoef(): expected input to have two or fewer dimensions but got an input with 3 dimensions",
            [],
        ),
    ),
    "cosine_similarity": (
        lambda lib: lib.cosine_similarity(lib.tensor([[1.0, 0.0], [1.0, 1.0]]), lib.tensor([[1.0, 1.0], [2.0, 2.0]])),
        (None, "tensor([0.7071, 1.0000])", []),
    ),
    "cumulative_trapezoid": (
        lambda lib: (
            lib.cumulative_trapezoid(lib.tensor([1.0, 4.0, 9.0, 16.0])),
            lib.cumulative_trapezoid(lib.tensor([1.0, 4.0, 9.0]), dx=0.5),
            lib.cumulative_trapezoid(lib.tensor([[1.0, 4.0], [2.0, 2.0]]), lib.tensor([0.0, 2.0]), dim=1),
            lib.cumulative_trapezoid(lib.tensor([1.0, 4.0, 9.0]), x=lib.tensor([0.0, 1.0, 3.0])),
        ),
        (
            None,
            (
                '(tensor([ 2.5000,  9.0000, 21.5000]), tensor([1.2500, 4.5000]), tensor([[5.],\n        [4.]]), te'
                'nsor([ 2.5000, 15.5000]))'
            ),
            [],
        ),
    ),
    "gradient": (
        lambda lib: lib.gradient(lib.tensor([1.0, 4.0, 9.0, 16.0, 25.0])),
        (None, "(tensor([3., 4., 6., 8., 9.]),)", []),
    ),
    "gradient, spacing and edge_order": (
        lambda lib: lib.gradient(lib.tensor([1.0, 4.0, 9.0, 16.0, 25.0]), spacing=2.0, edge_order=2),
        (None, "(tensor([1., 2., 3., 4., 5.]),)", []),
    ),
    "gradient, 2-d": (
        lambda lib: (
            lib.gradient(lib.tensor([[1.0, 2.0, 4.0], [2.0, 5.0, 9.0]]), dim=1),
            lib.gradient(lib.tensor([[1.0, 2.0, 4.0], [2.0, 5.0, 9.0], [0.0, 1.0, 1.0]]), spacing=[1.0, 2.0]),
        ),
        (
            None,
            (
                '((tensor([[1.0000, 1.5000, 2.0000],\n        [3.0000, 3.5000, 4.0000]]),), (tensor([[ 1.0000,  3.0'
                '000,  5.0000],\n        [-0.5000, -0.5000, -1.5000],\n        [-2.0000, -4.0000, -8.0000]]), tens'
                'or([[0.5000, 0.7500, 1.0000],\n        [1.5000, 1.7500, 2.0000],\n        [0.5000, 0.2500, 0.0000'
                ']])))'
            ),
            [],
        ),
    ),
    "gradient, coordinates": (
        lambda lib: (
            lib.gradient(lib.tensor([1.0, 4.0, 9.0, 16.0]), spacing=(lib.tensor([0.0, 1.0, 1.5, 3.5]),)),
            lib.gradient(lib.tensor([1.0, 4.0, 9.0, 16.0]), spacing=(lib.tensor([0.0, 1.0, 1.5, 3.5]),), edge_order=2),
        ),
        (None, "((tensor([3.0000, 7.6667, 8.7000, 3.5000]),), (tensor([-1.6667,  7.6667,  8.7000, -1.7000]),))", []),
    ),
    "gradient, edge_order": (
        lambda lib: lib.gradient(lib.tensor([1.0, 2.0, 3.0]), edge_order=3),
        ("RuntimeError", "tinygrad_edu.gradient only supports edge_order=1 and edge_order=2.", []),
    ),
    "gradient, too short": (
        lambda lib: lib.gradient(lib.tensor([1.0, 2.0]), edge_order=2),
        ("RuntimeError", "tinygrad_edu.gradient expected each dimension size to be at least edge_order+1", []),
    ),
    "searchsorted": (
        lambda lib: (
            lib.searchsorted(lib.tensor([1, 3, 5, 7, 9]), lib.tensor([3, 6, 9])),
            lib.searchsorted(lib.tensor([1, 3, 5, 7, 9]), lib.tensor([3, 6, 9]), right=True),
            lib.searchsorted(lib.tensor([1.0, 3.0]), 3.0, side="right"),
            lib.searchsorted(lib.tensor([1, 3]), lib.tensor([3]), out_int32=True),
        ),
        (None, "(tensor([1, 3, 4]), tensor([2, 3, 5]), tensor(2), tensor([1], dtype=tinygrad_edu.int32))", []),
    ),
    "searchsorted, rows": (
        lambda lib: lib.searchsorted(lib.tensor([[1, 3, 5], [2, 4, 6]]), lib.tensor([[3, 6], [1, 7]])),
        (None, "tensor([[1, 3],\n        [0, 3]])", []),
    ),
    "searchsorted, sorter": (
        lambda lib: lib.searchsorted(lib.tensor([5, 1, 3]), lib.tensor([2, 4]), sorter=lib.tensor([1, 2, 0])),
        (None, "tensor([1, 2])", []),
    ),
    "searchsorted, side and right": (
        lambda lib: lib.searchsorted(lib.tensor([1, 3]), lib.tensor([2]), right=True, side="left"),
        (
            "RuntimeError",
            (
                "tinygrad_edu.searchsorted(): side and right can't be set to opposites, got side of left while righ"
                't was True'
            ),
            [],
        ),
    ),
    "bucketize": (
        lambda lib: (
            lib.bucketize(lib.tensor([[1, 6], [9, 3]]), lib.tensor([1, 3, 5, 7, 9])),
            lib.bucketize(lib.tensor([3, 9]), lib.tensor([1, 3, 5, 7, 9]), right=True),
            lib.bucketize(4, lib.tensor([1, 3, 5])),
        ),
        (None, "(tensor([[0, 3],\n        [4, 1]]), tensor([2, 5]), tensor(2))", []),
    ),
    "bucketize, 2-d boundaries": (
        lambda lib: lib.bucketize(lib.tensor([2]), lib.tensor([[1, 2]])),
        ("RuntimeError", "boundaries tensor must be 1 dimension, but got dim(2)", []),
    ),
    "histogram": (
        lambda lib: lib.histogram(lib.tensor([1.0, 2.0, 1.0]), bins=4, range=(0.0, 3.0)),
        (
            None,
            (
                'tinygrad_edu.return_types.histogram(\nhist=tensor([0., 2., 1., 0.]),\nbin_edges=tensor([0.0000, 0.7'
                '500, 1.5000, 2.2500, 3.0000]))'
            ),
            [],
        ),
    ),
    "histogram, data's range": (
        lambda lib: lib.histogram(lib.tensor([1.0, 2.0, 1.0, 2.5, 0.5]), 3),
        (
            None,
            (
                'tinygrad_edu.return_types.histogram(\nhist=tensor([3., 0., 2.]),\nbin_edges=tensor([0.5000, 1.166'
                '7, 1.8333, 2.5000]))'
            ),
            [],
        ),
    ),
    "histogram, edges and weights": (
        lambda lib: lib.histogram(
            lib.tensor([1.0, 2.0, 1.0, 5.0]),
            bins=lib.tensor([0.0, 1.0, 2.0, 4.0]),
            weight=lib.tensor([1.0, 2.0, 4.0, 8.0]),
        ),
        (
            None,
            "tinygrad_edu.return_types.histogram(\nhist=tensor([0., 5., 2.]),\nbin_edges=tensor([0., 1., 2., 4.]))",
            [],
        ),
    ),
    "histogram, density": (
        lambda lib: lib.tensor([1.0, 2.0, 1.0]).histogram(bins=4, range=(0.0, 3.0), density=True),
        (
            None,
            (
                'tinygrad_edu.return_types.histogram(\nhist=tensor([0.0000, 0.8889, 0.4444, 0.0000]),\nbin_edges=tens'
                'or([0.0000, 0.7500, 1.5000, 2.2500, 3.0000]))'
            ),
            [],
        ),
    ),
    "histogram, one value": (
        lambda lib: lib.histogram(lib.tensor([2.0, 2.0]), 2),
        (
            None,
            "tinygrad_edu.return_types.histogram(\nhist=tensor([0., 2.]),\nbin_edges=tensor([1.5000, 2.0000, 2.5000]))",
            [],
        ),
    ),
    "histogram of integers": (
        lambda lib: lib.histogram(lib.tensor([1, 2]), 3),
        ("NotImplementedError", "\"histogramdd\" not implemented for 'Long'", []),
    ),
    "argwhere": (
        lambda lib: (lib.argwhere(lib.tensor([[0, 1], [2, 0]])), lib.tensor([0.0, 3.0]).argwhere()),
        (None, "(tensor([[0, 1],\n        [1, 0]]), tensor([[1]]))", []),
    ),
    "unique_consecutive": (
        lambda lib: (
            lib.unique_consecutive(lib.tensor([1, 1, 2, 2, 3, 1, 1, 2])),
            lib.unique_consecutive(lib.tensor([1, 1, 2, 2, 3, 1]), return_inverse=True, return_counts=True),
            lib.tensor([3, 3, 1]).unique_consecutive(return_counts=True),
        ),
        (
            None,
            (
                '(tensor([1, 2, 3, 1, 2]), (tensor([1, 2, 3, 1]), tensor([0, 0, 1, 1, 2, 3]), tensor([2, 2, 1, 1]))'
                ', (tensor([3, 1]), tensor([2, 1])))'
            ),
            [],
        ),
    ),
    "unique_consecutive, dim": (
        lambda lib: lib.unique_consecutive(lib.tensor([[1, 1], [1, 1], [2, 3], [1, 1]]), dim=0, return_counts=True),
        (None, "(tensor([[1, 1],\n        [2, 3],\n        [1, 1]]), tensor([2, 1, 1]))", []),
    ),
    "ravel": (
        lambda lib: (lib.ravel(lib.tensor([[1, 2], [3, 4]])), lib.tensor([[1, 2], [3, 4]]).t().ravel()),
        (None, "(tensor([1, 2, 3, 4]), tensor([1, 3, 2, 4]))", []),
    ),
    "adjoint": (
        lambda lib: (lib.adjoint(lib.tensor([[1, 2], [3, 4]])), lib.ones(2, 3, 1).adjoint().shape),
        (None, "(tensor([[1, 3],\n        [2, 4]]), tinygrad_edu.Size([2, 1, 3]))", []),
    ),
    "adjoint of a vector": (
        lambda lib: lib.adjoint(lib.ones(2)),
        ("RuntimeError", "tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.", []),
    ),
    "hsplit, vsplit, dsplit": (
        lambda lib: (
            lib.hsplit(lib.arange(8.0).view(2, 4), 2),
            lib.arange(6).vsplit([1]),
            lib.dsplit(lib.arange(8).view(1, 2, 4), 2)[1],
            lib.hsplit(lib.arange(4), 2),
        ),
        (
            "RuntimeError",
            "tinygrad_edu.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!",
            [],
        ),
    ),
    "hsplit, not divisible": (
        lambda lib: lib.hsplit(lib.ones(2, 3), 2),
        (
            "RuntimeError",
            (
                'tinygrad_edu.hsplit attempted to split along dimension 1, but the size of the dimension 3 is not '
                'divisible by the split_size 2!'
            ),
            [],
        ),
    ),
    "hsplit of a 0-d tensor": (
        lambda lib: lib.hsplit(lib.tensor(1.0), 2),
        (
            "RuntimeError",
            "tinygrad_edu.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 dimensions!",
            [],
        ),
    ),
    "vsplit of a vector": (
        lambda lib: lib.vsplit(lib.ones(3), 3),
        (
            "RuntimeError",
            "tinygrad_edu.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!",
            [],
        ),
    ),
    "dsplit of a matrix": (
        lambda lib: lib.dsplit(lib.ones(2, 2), 2),
        (
            "RuntimeError",
            "tinygrad_edu.dsplit requires a tensor with at least 3 dimension, but got a tensor with 2 dimensions!",
            [],
        ),
    ),
    "row_stack": (
        lambda lib: lib.row_stack([lib.tensor([1, 2]), lib.tensor([3, 4])]),
        (None, "tensor([[1, 2],\n        [3, 4]])", []),
    ),
    "broadcast_shapes": (
        lambda lib: (lib.broadcast_shapes((2, 1), (3,), (1, 1, 1)), lib.broadcast_shapes(2, (3, 1))),
        (None, "(tinygrad_edu.Size([1, 2, 3]), tinygrad_edu.Size([3, 2]))", []),
    ),
    "broadcast_shapes, mismatch": (
        lambda lib: lib.broadcast_shapes((2,), (3,)),
        (
            "RuntimeError",
            (
                'Attempting to broadcast a dimension of length 3 at -1! Mismatching argument at index 1 had (3,);'
                ' but expected shape should be broadcastable to [2]'
            ),
            [],
        ),
    ),
    "broadcast_tensors": (
        lambda lib: lib.broadcast_tensors(lib.tensor([[1], [2]]), lib.tensor([3, 4, 5])),
        (None, "(tensor([[1, 1, 1],\n        [2, 2, 2]]), tensor([[3, 4, 5],\n        [3, 4, 5]]))", []),
    ),
    "diagflat": (
        lambda lib: (lib.diagflat(lib.tensor([[1, 2], [3, 4]])), lib.tensor([1.0, 2.0]).diagflat(1)),
        (
            None,
            (
                '(tensor([[1, 0, 0, 0],\n        [0, 2, 0, 0],\n        [0, 0, 3, 0],\n        [0, 0, 0, 4]]), te'
                'nsor([[0., 1., 0.],\n        [0., 0., 2.],\n        [0., 0., 0.]]))'
            ),
            [],
        ),
    ),
    "tril_indices, triu_indices": (
        lambda lib: (lib.tril_indices(3, 3), lib.triu_indices(3, 4, 1), lib.tril_indices(4, 3, -1, dtype=lib.int32)),
        (
            None,
            (
                '(tensor([[0, 1, 1, 2, 2, 2],\n        [0, 0, 1, 0, 1, 2]]), tensor([[0, 0, 0, 1, 1, 2],\n        '
                '[1, 2, 3, 2, 3, 3]]), tensor([[1, 2, 2, 3, 3, 3],\n        [0, 0, 1, 0, 1, 2]], dtype=tinygrad_e'
                'du.int32))'
            ),
            [],
        ),
    ),
    "cartesian_prod": (
        lambda lib: (
            lib.cartesian_prod(lib.tensor([1, 2]), lib.tensor([3, 4, 5])),
            lib.cartesian_prod(lib.tensor([1, 2])),
        ),
        (
            None,
            (
                '(tensor([[1, 3],\n        [1, 4],\n        [1, 5],\n        [2, 3],\n        [2, 4],\n        [2, 5'
                ']]), tensor([1, 2]))'
            ),
            [],
        ),
    ),
    "cartesian_prod of a matrix": (
        lambda lib: lib.cartesian_prod(lib.ones(2, 2)),
        ("RuntimeError", "Expect a 1D vector, but got shape [2, 2]", []),
    ),
    "combinations": (
        lambda lib: (
            lib.combinations(lib.tensor([1, 2, 3])),
            lib.combinations(lib.tensor([1, 2, 3]), r=3),
            lib.combinations(lib.tensor([1, 2]), with_replacement=True),
        ),
        (
            None,
            (
                '(tensor([[1, 2],\n        [1, 3],\n        [2, 3]]), tensor([[1, 2, 3]]), tensor([[1, 1],\n        '
                '[1, 2],\n        [2, 2]]))'
            ),
            [],
        ),
    ),
    "block_diag": (
        lambda lib: lib.block_diag(lib.tensor([[1, 2], [3, 4]]), lib.tensor([5.0, 6.0]), lib.tensor(7)),
        (
            None,
            (
                'tensor([[1., 2., 0., 0., 0.],\n        [3., 4., 0., 0., 0.],\n        [0., 0., 5., 6., 0.],\n     '
                '   [0., 0., 0., 0., 7.]])'
            ),
            [],
        ),
    ),
    "narrow_copy": (
        lambda lib: (lib.narrow_copy(lib.arange(6).view(2, 3), 1, 1, 2), lib.arange(5).narrow_copy(0, -2, 2)),
        (None, "(tensor([[1, 2],\n        [4, 5]]), tensor([3, 4]))", []),
    ),
    "masked_scatter": (
        lambda lib: (
            lib.zeros(2, 3).masked_scatter(
                lib.tensor([[True, False, True], [False, True, False]]), lib.arange(1.0, 7.0).view(2, 3)
            ),
            lib.zeros(2, 2).masked_scatter(lib.tensor([True, False]), lib.ones(4)),
        ),
        (None, "(tensor([[1., 0., 2.],\n        [0., 3., 0.]]), tensor([[1., 0.],\n        [1., 0.]]))", []),
    ),
    "masked_scatter_": (
        lambda lib: lib.zeros(3).masked_scatter_(lib.tensor([False, True, True]), lib.tensor([5.0, 6.0])),
        (None, "tensor([0., 5., 6.])", []),
    ),
    "masked_scatter, integer mask": (
        lambda lib: lib.masked_scatter(lib.ones(3), lib.tensor([1, 0, 1]), lib.zeros(3)),
        ("RuntimeError", "masked_scatter_ only supports boolean masks, but got mask with dtype Long", []),
    ),
    "masked_scatter, short source": (
        lambda lib: lib.ones(3).masked_scatter(lib.tensor([True, True, True]), lib.zeros(2)),
        ("RuntimeError", "Number of elements of source < number of ones in mask", []),
    ),
    "put": (
        lambda lib: (
            lib.zeros(2, 3).put(lib.tensor([1, -1]), lib.tensor([9.0, 8.0])),
            lib.ones(4).put(lib.tensor([0, 0]), lib.tensor([1.0, 2.0]), accumulate=True),
        ),
        (None, "(tensor([[0., 9., 0.],\n        [0., 0., 8.]]), tensor([4., 1., 1., 1.]))", []),
    ),
    "put_": (
        lambda lib: lib.zeros(3).put_(lib.tensor([2]), lib.tensor([4.0])),
        (None, "tensor([0., 0., 4.])", []),
    ),
    "put, out of range": (
        lambda lib: lib.ones(3).put(lib.tensor([5]), lib.zeros(1)),
        ("IndexError", "out of range: tried to access index 5 on a tensor of 3 elements.", []),
    ),
    "put, sizes": (
        lambda lib: lib.ones(3).put(lib.tensor([1]), lib.zeros(2)),
        (
            "IndexError",
            (
                'put_(): Expected source and index to have the same number of elements, but got source.numel() = '
                '2, index.numel() = 1'
            ),
            [],
        ),
    ),
    "addbmm": (
        lambda lib: lib.addbmm(lib.ones(2, 2), lib.arange(8.0).view(2, 2, 2), lib.ones(2, 2, 2), beta=0.5, alpha=2),
        (None, "tensor([[20.5000, 20.5000],\n        [36.5000, 36.5000]])", []),
    ),
    "addr": (
        lambda lib: (
            lib.addr(lib.zeros(2, 3), lib.tensor([1.0, 2.0]), lib.tensor([1.0, 0.0, -1.0])),
            lib.ones(2, 2).addr(lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0]), beta=2, alpha=0.5),
        ),
        (
            None,
            (
                '(tensor([[ 1.,  0., -1.],\n        [ 2.,  0., -2.]]), tensor([[3.5000, 4.0000],\n        [5.0000, '
                '6.0000]]))'
            ),
            [],
        ),
    ),
    "vdot": (
        lambda lib: (
            lib.vdot(lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])),
            lib.tensor([1, 2]).vdot(lib.tensor([3, 4])),
        ),
        (None, "(tensor(11.), tensor(11))", []),
    ),
    "vdot of matrices": (
        lambda lib: lib.vdot(lib.ones(2, 2), lib.ones(2, 2)),
        ("RuntimeError", "1D tensors expected, but got 2D and 2D tensors", []),
    ),
    "vdot, sizes": (
        lambda lib: lib.vdot(lib.ones(2), lib.ones(3)),
        (
            "RuntimeError",
            (
                'inconsistent tensor size, expected tensor [2] and src [3] to have the same number of elements, bu'
                't got 2 and 3 elements respectively'
            ),
            [],
        ),
    ),
    "chain_matmul": (
        lambda lib: lib.chain_matmul(lib.ones(2, 3), lib.ones(3, 4), lib.ones(4, 1)),
        (
            None,
            "tensor([[12.],\n        [12.]])",
            [
                (
                    'UserWarning: tinygrad_edu.chain_matmul is deprecated and will be removed in a future PyTorch rel'
                    'ease. Use tinygrad_edu.linalg.multi_dot instead, which accepts a list of two or more tensors ra'
                    'ther than multiple parameters.'
                )
            ],
        ),
    ),
    "chain_matmul of a vector": (
        lambda lib: lib.chain_matmul(lib.ones(2)),
        ("RuntimeError", "Tensor dimension is 1, expected 2 instead.", []),
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_as_pytorch_does(name: str) -> None:
    fn, expected = CASES[name]
    as_pytorch(fn, expected)


# -- gradients: against finite differences, twice, and against PyTorch's ----------------------------------------------
def _inputs(lib: ModuleType, *shapes: tuple[int, ...]) -> list[Any]:
    rng = np.random.default_rng(0)
    return [lib.tensor(rng.uniform(0.1, 1.0, shape), dtype=lib.float64, requires_grad=True) for shape in shapes]


GRADIENTS: dict[str, tuple[Callable[..., Any], tuple[tuple[int, ...], ...]]] = {
    "sgn": (lambda lib, x: lib.sgn(x - 0.5), ((4, 3),)),
    "clamp_min": (lambda lib, x: x.clamp_min(0.5), ((4, 3),)),
    "clamp_max": (lambda lib, x: lib.clamp_max(x, 0.5), ((4, 3),)),
    "clamp_min, tensor": (lambda lib, x, m: x.clamp_min(m), ((4, 3), (3,))),
    "clamp_max, tensor": (lambda lib, x, m: x.clamp_max(m), ((4, 3), (4, 3))),
    "fmax": (lambda lib, x, y: lib.fmax(x, y), ((4, 3), (4, 3))),
    "fmin": (lambda lib, x, y: lib.fmin(x, y), ((4, 3), (3,))),
    "copysign": (lambda lib, x, y: lib.copysign(x, y - 0.5), ((4, 3), (4, 3))),
    "copysign, number": (lambda lib, x: lib.copysign(x, -1.0), ((4, 3),)),
    "float_power": (lambda lib, x, y: lib.float_power(x, y), ((4, 3), (4, 3))),
    "float_power, number": (lambda lib, x: lib.float_power(x, 2.5), ((4, 3),)),
    # (positive exponents: PyTorch's gradient takes 2**e in e's integer dtype, 0 for a negative e)
    "ldexp": (lambda lib, x: lib.ldexp(x, lib.tensor([1, 2, 3])), ((4, 3),)),
    "frexp": (lambda lib, x: lib.frexp(x * 10).mantissa, ((4, 3),)),
    "logaddexp2": (lambda lib, x, y: lib.logaddexp2(x, y), ((4, 3), (3,))),
    "sinc": (lambda lib, x: lib.sinc(x * 3 - 1), ((4, 3),)),
    "i0": (lambda lib, x: lib.i0(x * 4 - 2), ((4, 3),)),
    "mvlgamma": (lambda lib, x: lib.mvlgamma(x + 2, 3), ((4, 3),)),
    "nan_to_num": (lambda lib, x: lib.nan_to_num(x.log()), ((4, 3),)),
    "renorm": (lambda lib, x: x.renorm(2, 0, 0.9), ((4, 3),)),
    "renorm, p = 1, dim 1": (lambda lib, x: x.renorm(1, 1, 1.5), ((4, 3),)),
    "renorm, p = 3": (lambda lib, x: lib.renorm(x, 3, 1, 0.8), ((4, 3),)),
    "nansum": (lambda lib, x: x.nansum(1), ((4, 3),)),
    "nansum, all": (lambda lib, x: lib.nansum(x * 2), ((4, 3),)),
    "nanmean": (lambda lib, x: x.nanmean(0, keepdim=True), ((4, 3),)),
    "logcumsumexp": (lambda lib, x: lib.logcumsumexp(x * 3, 0), ((4, 3),)),
    "logcumsumexp, dim 1": (lambda lib, x: (x * 3).logcumsumexp(1), ((4, 3),)),
    "quantile": (lambda lib, x: x.quantile(0.3), ((4, 3),)),
    "quantile, dim": (lambda lib, x: lib.quantile(x, lib.tensor([0.2, 0.7], dtype=lib.float64), dim=0), ((4, 3),)),
    "quantile, midpoint": (lambda lib, x: x.quantile(0.4, dim=1, interpolation="midpoint"), ((4, 3),)),
    "nanquantile": (lambda lib, x: x.nanquantile(0.6, dim=1, keepdim=True), ((4, 3),)),
    "cov": (lambda lib, x: lib.cov(x), ((3, 5),)),
    "cov, weights": (lambda lib, x, a: lib.cov(x, fweights=lib.tensor([1, 2, 1, 1, 3]), aweights=a), ((3, 5), (5,))),
    "corrcoef": (lambda lib, x: lib.corrcoef(x), ((3, 5),)),
    "cosine_similarity": (lambda lib, x, y: lib.cosine_similarity(x, y), ((4, 3), (4, 3))),
    "cumulative_trapezoid": (lambda lib, y, x: lib.cumulative_trapezoid(y, x.cumsum(0)), ((4, 3), (3,))),
    "gradient": (lambda lib, x: lib.gradient(x, spacing=0.5, edge_order=2)[1], ((4, 3),)),
    "gradient, coordinates": (lambda lib, x, c: lib.gradient(x, spacing=(c.cumsum(0),))[0], ((4,), (4,))),
    "ravel": (lambda lib, x: x.t().ravel(), ((4, 3),)),
    "hsplit": (lambda lib, x: lib.hsplit(x, [1])[1], ((4, 3),)),
    "broadcast_tensors": (lambda lib, x, y: lib.stack(lib.broadcast_tensors(x, y)), ((4, 3), (3,))),
    "diagflat": (lambda lib, x: lib.diagflat(x, -1), ((2, 3),)),
    "cartesian_prod": (lambda lib, x, y: lib.cartesian_prod(x, y), ((3,), (2,))),
    "combinations": (lambda lib, x: lib.combinations(x, 3), ((4,),)),
    "block_diag": (lambda lib, x, y: lib.block_diag(x, y), ((2, 3), (3,))),
    "narrow_copy": (lambda lib, x: x.narrow_copy(1, 1, 2), ((4, 3),)),
    "masked_scatter": (lambda lib, x, s: x.masked_scatter(x > 0.5, s), ((4, 3), (13,))),
    "put": (lambda lib, x, s: x.put(lib.tensor([1, 5, 1]), s, accumulate=True), ((4, 3), (3,))),
    "put, replacing": (lambda lib, x, s: x.put(lib.tensor([1, 5, 2]), s), ((4, 3), (3,))),
    "addbmm": (lambda lib, i, a, b: lib.addbmm(i, a, b, beta=0.5, alpha=2), ((3,), (2, 4, 2), (2, 2, 3))),
    "addr": (lambda lib, i, a, b: lib.addr(i, a, b, beta=2, alpha=0.5), ((4, 3), (4,), (3,))),
    "vdot": (lambda lib, x, y: lib.vdot(x, y), ((5,), (5,))),
    "multi_dot": (lambda lib, a, b, c, d: lib.linalg.multi_dot([a, b, c, d]), ((2, 3), (3, 4), (4, 2), (2, 5))),
}


@pytest.mark.parametrize("name", GRADIENTS)
def test_gradients_are_right(name: str) -> None:
    fn, shapes = GRADIENTS[name]
    inputs = _inputs(tg, *shapes)
    assert gradcheck(lambda *xs: fn(tg, *xs), inputs)
    assert gradgradcheck(lambda *xs: fn(tg, *xs), inputs)


def _grads_and_nodes(lib: ModuleType, name: str) -> tuple[list[np.ndarray], list[str]]:
    """The gradients of the output (weighted, so no two entries count alike) and its nodes, breadth first."""
    fn, shapes = GRADIENTS[name]
    inputs = _inputs(lib, *shapes)
    out = fn(lib, *inputs)
    weights = lib.tensor(np.arange(1.0, out.numel() + 1.0).reshape(tuple(out.shape)), dtype=lib.float64)
    grads = lib.autograd.grad((out * weights).sum(), inputs)
    nodes, queue, seen = [], [out.grad_fn], set()
    while queue:
        node = queue.pop(0)
        if node is None or id(node) in seen or type(node).__name__ == "AccumulateGrad":
            continue
        seen.add(id(node))
        nodes.append(type(node).__name__)
        queue += [n for n, _ in node.next_functions]
    return [np.array(g.detach().numpy(force=True)) for g in grads], nodes


# nn.functional's cosine_similarity (which torch.cosine_similarity is) records its own chain of nodes, not PyTorch's:
# its gradients are compared, its nodes not.
OWN_NODES = {"cosine_similarity"}


@pytest.mark.parametrize("name", GRADIENTS)
def test_gradients_and_nodes_are_pytorchs(name: str) -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("torch is not installed")
    ours, nodes = _grads_and_nodes(tg, name)
    theirs, torch_nodes = _grads_and_nodes(torch, name)
    if name not in OWN_NODES:
        assert nodes == torch_nodes
    for mine, expected in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(mine, expected, rtol=1e-10, atol=1e-12)


NODES = {  # the node each op records, spelled out (the test above checks them against torch's)
    "sgn": "SgnBackward0",
    "clamp_min": "ClampMinBackward0",
    "clamp_min, tensor": "ClampMinBackward1",
    "fmax": "FmaxBackward0",
    "copysign": "CopysignBackward0",
    "copysign, number": "CopysignBackward1",
    "ldexp": "LdexpBackward0",
    "frexp": "FrexpBackward0",
    "logaddexp2": "Logaddexp2Backward0",
    "sinc": "SincBackward0",
    "i0": "I0Backward0",
    "mvlgamma": "MvlgammaBackward0",
    "nan_to_num": "NanToNumBackward0",
    "renorm": "RenormBackward0",
    "nansum": "NansumBackward0",
    "nanmean": "DivBackward0",
    "logcumsumexp": "LogcumsumexpBackward0",
    "quantile": "SqueezeBackward4",
    "cov": "SqueezeBackward0",
    "corrcoef": "ClampBackward1",
    "block_diag": "BlockDiagBackward0",
    "narrow_copy": "NarrowCopyBackward0",
    "masked_scatter": "MaskedScatterBackward0",
    "put": "PutBackward0",
    "addbmm": "AddbmmBackward0",
    "addr": "AddrBackward0",
    "vdot": "VdotBackward0",
    "cartesian_prod": "StackBackward0",
    "ravel": "ViewBackward0",
}


@pytest.mark.parametrize("name", NODES)
def test_node_names(name: str) -> None:
    fn, shapes = GRADIENTS[name]
    assert type(fn(tg, *_inputs(tg, *shapes)).grad_fn).__name__ == NODES[name]
