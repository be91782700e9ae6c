"""More math against PyTorch 2.13: amax/amin, the float tests (isinf, isfinite) and logical ops, atan2, hypot,
logaddexp, fmod, lerp, erf/erfc/erfinv, exp2, deg2rad/rad2deg, true_divide; the fused products addmm, baddbmm,
addcmul, addcdiv; outer/ger, inner, tensordot, kron, cross, einsum; dist and cdist; cumprod, diff, median,
std_mean/var_mean, logspace, trapezoid; lgamma, digamma, polygamma.

Each check runs the same function with both libraries through ``_oracle`` (PyTorch only when installed); the
expected text is spelled out here, PyTorch's own output, so each test means something without torch. What
the text cannot show (derivatives in float64) is checked against finite differences with gradcheck.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg
from tinygrad_edu.autograd import gradcheck, gradgradcheck

# ------------------------------------------------------------------------------------------------ the table
A = [-2.0, -0.5, 0.0, 0.5, 3.0]
B = [1.5, -1.0, 2.0, -0.25, 0.5]
U = [-0.9, -0.5, 0.0, 0.5, 0.9]
TIES = [1.0, 3.0, 3.0, -1.0, 0.0]
SIGNS = [1.0, -1.0, 2.0, 0.0, 1.0]
M23 = [[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]]
A24 = [[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 2.0]]
B43 = [[0.5, 1.0, -1.0], [2.0, 0.0, 1.0], [-1.0, 0.5, 0.0], [1.0, 1.0, 1.0]]
V3 = [1.0, -2.0, 0.5]
W3 = [0.5, 1.0, 3.0]
C = [[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]
D = [[0.0, 1.0, -1.0], [2.0, 1.0, 0.5]]
P = [[[1.0, 0.0], [2.0, -1.0]], [[0.5, 1.0], [-1.0, 3.0]]]
Q = [[[0.5, -1.0], [1.0, 2.0]], [[2.0, 0.0], [1.0, 1.0]]]
UP = [0.7, -0.3, -1.2, 0.4, -0.5, 0.9, 0.1, -0.8, 0.6, 0.2, -1.1, 0.3]  # the incoming gradient: mixed signs

# name: (the op, as a function of the library and two inputs x, y; x's values; y's values)
CASES: dict[str, tuple[Any, Any, Any]] = {
    "atan2": (lambda lib, x, y: lib.atan2(x, y), A, B),
    "arctan2 method": (lambda lib, x, y: x.arctan2(y), A, B),
    "hypot": (lambda lib, x, y: lib.hypot(x, y), A, B),
    "logaddexp": (lambda lib, x, y: lib.logaddexp(x, y), A, B),
    "fmod number": (lambda lib, x, y: lib.fmod(x, 1.5), A, B),
    "fmod tensor": (lambda lib, x, y: x.fmod(y), A, B),
    "lerp number": (lambda lib, x, y: lib.lerp(x, y, 0.3), A, B),
    "lerp tensor": (lambda lib, x, y: x.lerp(y, y.sigmoid()), A, B),
    "erf": (lambda lib, x, y: lib.erf(x), A, B),
    "erfc": (lambda lib, x, y: x.erfc(), A, B),
    "erfinv": (lambda lib, x, y: lib.erfinv(x), U, B),
    "exp2": (lambda lib, x, y: lib.exp2(x), A, B),
    "deg2rad": (lambda lib, x, y: x.deg2rad() * y, A, B),
    "rad2deg": (lambda lib, x, y: lib.rad2deg(x) * y, A, B),
    "true_divide": (lambda lib, x, y: lib.true_divide(x, y), A, B),
    "amax": (lambda lib, x, y: x.reshape(1, 5).expand(2, 5).amax(), TIES, B),
    "amax dim keepdim": (lambda lib, x, y: lib.amax(x.reshape(1, 5) * y.reshape(5, 1), 1, keepdim=True), TIES, SIGNS),
    "amin dims": (lambda lib, x, y: (x.reshape(5, 1) * y).amin((0, -1)), TIES, SIGNS),
    "amin dim": (lambda lib, x, y: lib.amin(x.reshape(5, 1) * y, dim=0), [1.0, 3.0, -3.0, -1.0, 0.0], SIGNS),
    "addmm": (lambda lib, x, y: lib.addmm(x, y, lib.tensor(B43)), M23, A24),
    "addmm beta alpha": (lambda lib, x, y: lib.addmm(x, y, lib.tensor(B43), beta=0.5, alpha=2), M23, A24),
    "addmm row bias": (lambda lib, x, y: x[0].addmm(y, lib.tensor(B43)), M23, A24),
    "addmm mat2": (lambda lib, x, y: lib.addmm(lib.tensor(M23)[0], y.t(), x, alpha=-1), M23, [[1.0, 2.0], [0.0, -1.0]]),
    "addcmul": (lambda lib, x, y: lib.addcmul(x, x, y, value=2), V3, W3),
    "addcmul broadcast": (lambda lib, x, y: x.addcmul(y.reshape(3, 1), x), V3, W3),
    "addcdiv": (lambda lib, x, y: lib.addcdiv(x, x, y, value=0.5), V3, W3),
    "addcdiv default": (lambda lib, x, y: x.addcdiv(y, y.exp()), V3, W3),
    "baddbmm": (lambda lib, x, y: lib.baddbmm(x, x, y, beta=2, alpha=0.5), P, Q),
    "baddbmm default": (lambda lib, x, y: x.baddbmm(y, x), P, Q),
    "outer": (lambda lib, x, y: lib.outer(x, y), V3, W3),
    "ger": (lambda lib, x, y: x.ger(y), V3, [2.0, -1.0]),
    "inner vectors": (lambda lib, x, y: lib.inner(x, y), V3, W3),
    "inner matrices": (lambda lib, x, y: x.inner(y), C, D),
    "cross": (lambda lib, x, y: lib.cross(x, y, dim=1), C, D),
    "cross dim 0": (lambda lib, x, y: x.t().cross(y.t(), dim=0), C, D),
    "kron": (lambda lib, x, y: lib.kron(x, y), C, [[1.0, -1.0]]),
    "kron vector": (lambda lib, x, y: x.kron(y), V3, [2.0, 0.5]),
    "tensordot": (lambda lib, x, y: lib.tensordot(x, y, dims=([1], [0])), A24, B43),
    "tensordot int": (lambda lib, x, y: lib.tensordot(x, y, dims=1), A24, B43),
    "tensordot 2": (lambda lib, x, y: lib.tensordot(x, y, dims=([0, 2], [0, 1])), P, Q),
    "dist": (lambda lib, x, y: lib.dist(x * y, y.detach()), C, D),
    "dist p3": (lambda lib, x, y: x.dist(y, 3), C, D),
    "dist broadcast": (lambda lib, x, y: x.dist(y), C, [1.0, 0.0, -2.0]),
    "cdist": (lambda lib, x, y: lib.cdist(x, y), C, D),
    "cdist batched": (lambda lib, x, y: lib.cdist(x, y), P, Q),
}
# einsum is one node here (see ops/linalg.py's Einsum): its result's node is PyTorch's, the nodes of its
# gradients (PyTorch's SqueezeBackward1, PermuteBackward0 ...) are not, so only their values are compared
# (VALUES_ONLY below)
EINSUM: dict[str, tuple[Any, Any, Any]] = {
    "einsum mm": (lambda lib, x, y: lib.einsum("ij,jk->ik", x, y), A24, B43),
    "einsum bmm": (lambda lib, x, y: lib.einsum("bij,bjk->bik", x, y), P, Q),
    "einsum mv": (lambda lib, x, y: lib.einsum("ij,j->i", x, y), C, W3),
    "einsum dot": (lambda lib, x, y: lib.einsum("i,i->", x, y), V3, W3),
    "einsum outer": (lambda lib, x, y: lib.einsum("i,j->ij", x, y), V3, W3),
    "einsum implicit": (lambda lib, x, y: lib.einsum("ij,kj", x, y), C, D),
    "einsum trace": (lambda lib, x, y: lib.einsum("ii", x) * y, [[1.0, 2.0], [3.0, 4.0]], 0.5),
    "einsum diagonal": (lambda lib, x, y: lib.einsum("ii->i", x) * y, [[1.0, 2.0], [3.0, 4.0]], [0.5, -1.0]),
    "einsum sum": (lambda lib, x, y: lib.einsum("ij->i", x) * y, C, [2.0, -1.0]),
    "einsum transpose": (lambda lib, x, y: lib.einsum("ij->ji", x) * y, C, [2.0, -1.0]),
    "einsum list": (lambda lib, x, y: lib.einsum("i,i->i", [x, y]), V3, W3),
    "einsum ellipsis": (lambda lib, x, y: lib.einsum("...ij,...jk", x, y), P, Q),
    "einsum three": (lambda lib, x, y: lib.einsum("i,ij,j->", y, x, y), [[1.0, 2.0], [-1.0, 0.5]], [1.0, -2.0]),
}
X24 = [[2.0, 0.0, 3.0, 0.5], [1.0, -2.0, 0.0, 4.0]]
NZ = [[2.0, -1.0, 3.0, 0.5], [1.0, -2.0, 0.25, 4.0]]
MORE: dict[str, tuple[Any, Any, Any]] = {
    "cumprod": (lambda lib, x, y: x.cumprod(1), NZ, 0.0),
    "cumprod zeros": (lambda lib, x, y: x.cumprod(1), X24, 0.0),
    "cumprod dim 0": (lambda lib, x, y: lib.cumprod(x, 0), X24, 0.0),
    "cumprod two zeros": (lambda lib, x, y: x.cumprod(0), [1.5, 0.0, 2.0, 0.0, 3.0], 0.0),
    "diff": (lambda lib, x, y: x.diff(), X24, 0.0),
    "diff n2": (lambda lib, x, y: lib.diff(x, n=2, dim=1), X24, 0.0),
    "diff prepend": (lambda lib, x, y: x.diff(dim=0, prepend=y.reshape(1, 4), append=x * 2), X24,
                     [1.0, 2.0, 3.0, 4.0]),
    "median": (lambda lib, x, y: x.median(), X24, 0.0),
    "median ties": (lambda lib, x, y: lib.median(x), [1.0, 2.0, 2.0, 3.0], 0.0),
    "median dim": (lambda lib, x, y: x.median(1).values, X24, 0.0),
    "median dim keepdim": (lambda lib, x, y: lib.median(x, 0, keepdim=True)[0], X24, 0.0),
    "std_mean": (lambda lib, x, y: lib.std_mean(x, 1)[0] * 2 + lib.std_mean(x, 1)[1], X24, 0.0),
    "std_mean std": (lambda lib, x, y: lib.std_mean(x.exp())[0], NZ, 0.0),
    "var_mean": (lambda lib, x, y: lib.var_mean(x, correction=0, keepdim=True)[0] - lib.var_mean(x)[1], X24, 0.0),
    "var_mean dim": (lambda lib, x, y: lib.var_mean(x, 0)[0], X24, 0.0),
    "trapezoid": (lambda lib, x, y: lib.trapezoid(x), X24, 0.0),
    "trapezoid dx": (lambda lib, x, y: lib.trapezoid(x, dx=0.5, dim=0), X24, 0.0),
    "trapz x": (lambda lib, x, y: lib.trapz(x, y), X24, [0.0, 1.0, 3.0, 4.0]),
    "lgamma": (lambda lib, x, y: x.lgamma(), [0.25, 0.5, 1.0, 2.5, 7.0], 0.0),
    "lgamma negative": (lambda lib, x, y: lib.lgamma(x), [-0.5, -1.5, -2.25, -3.75, 0.1], 0.0),
    "digamma": (lambda lib, x, y: lib.digamma(x), [0.25, 0.5, 1.0, 2.5, 7.0], 0.0),
    "polygamma 1": (lambda lib, x, y: lib.polygamma(1, x), [0.25, 0.5, 1.0, 2.5, 7.0], 0.0),
    "polygamma 3": (lambda lib, x, y: x.polygamma(3), [0.5, 1.0, 2.5, 7.0, 20.0], 0.0),
}
ALL = {**CASES, **EINSUM, **MORE}
# PyTorch computes cumprod's gradient for inputs with zeros with in-place ops (its node: CopySlices)
VALUES_ONLY = {*EINSUM, "cumprod zeros", "cumprod dim 0", "cumprod two zeros"}
FIRST_ONLY = {"cdist", "cdist batched"}  # PyTorch does not differentiate cdist's gradient (see below)


def transcript(lib: ModuleType, name: str) -> str:
    """The result, the gradients for UP (create_graph=True, so they show the node of the backward formula's last
    op), and the second derivatives d/dx, d/dy of the sum of the gradients' squares."""
    fn, a, b = ALL[name]
    x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
    out = fn(lib, x, y)
    g = lib.tensor((UP * 4)[: out.numel()]).reshape(out.shape)
    grads = lib.autograd.grad(out, (x, y), g, create_graph=True, allow_unused=True)
    shown = grads if name not in VALUES_ONLY else [None if t is None else t.detach() for t in grads]
    lines = [repr(out), *map(repr, shown)]
    live = [t for t in grads if t is not None and t.requires_grad]
    if live and name not in FIRST_ONLY:
        second = lib.autograd.grad(sum((t * t).sum() for t in live), (x, y), allow_unused=True)
        lines += ["None" if t is None else np.array2string(t.numpy(), precision=4) for t in second]
    return "\n".join(lines)


# What PyTorch prints for each (see transcript)
EXPECTED = {
    'atan2': (
        'tensor([-0.9273, -2.6779,  0.0000,  2.0344,  1.4056], grad_fn=<Atan2Backward0>)\n'
        'tensor([ 0.1680,  0.2400, -0.6000, -0.3200, -0.0270], grad_fn=<MulBackward0>)\n'
        'tensor([ 0.2240, -0.1200,  0.0000, -0.6400,  0.1622], grad_fn=<MulBackward0>)\n'
        '[ 0.0502  0.0576  0.     -1.6384 -0.0175]\n'
        '[-0.0376  0.1152 -0.36    0.8192 -0.0029]'
    ),
    'arctan2 method': (
        'tensor([-0.9273, -2.6779,  0.0000,  2.0344,  1.4056], grad_fn=<Atan2Backward0>)\n'
        'tensor([ 0.1680,  0.2400, -0.6000, -0.3200, -0.0270], grad_fn=<MulBackward0>)\n'
        'tensor([ 0.2240, -0.1200,  0.0000, -0.6400,  0.1622], grad_fn=<MulBackward0>)\n'
        '[ 0.0502  0.0576  0.     -1.6384 -0.0175]\n'
        '[-0.0376  0.1152 -0.36    0.8192 -0.0029]'
    ),
    'hypot': (
        'tensor([2.5000, 1.1180, 2.0000, 0.5590, 3.0414], grad_fn=<HypotBackward0>)\n'
        'tensor([-0.5600,  0.1342, -0.0000,  0.3578, -0.4932], grad_fn=<DivBackward0>)\n'
        'tensor([ 0.4200,  0.2683, -1.2000, -0.1789, -0.0822], grad_fn=<DivBackward0>)\n'
        '[0.0000e+00 0.0000e+00 0.0000e+00 0.0000e+00 1.4901e-08]\n'
        '[-1.4901e-08  0.0000e+00  0.0000e+00  0.0000e+00  1.8626e-09]'
    ),
    'logaddexp': (
        'tensor([ 1.5298, -0.0259,  2.1269,  0.8869,  3.0789],\n'
        '       grad_fn=<LogaddexpBackward0>)\n'
        'tensor([ 0.0205, -0.1867, -0.1430,  0.2717, -0.4621], grad_fn=<DivBackward0>)\n'
        'tensor([ 0.6795, -0.1133, -1.0570,  0.1283, -0.0379], grad_fn=<DivBackward0>)\n'
        '[-0.0262  0.0104 -0.2303  0.025   0.0297]\n'
        '[ 0.0262 -0.0104  0.2303 -0.025  -0.0297]'
    ),
    'fmod number': (
        'tensor([-0.5000, -0.5000,  0.0000,  0.5000,  0.0000], grad_fn=<FmodBackward0>)\n'
        'tensor([ 0.7000, -0.3000, -1.2000,  0.4000, -0.5000])\n'
        'None'
    ),
    'fmod tensor': (
        'tensor([-0.5000, -0.5000,  0.0000,  0.0000,  0.0000], grad_fn=<FmodBackward1>)\n'
        'tensor([ 0.7000, -0.3000, -1.2000,  0.4000, -0.5000])\n'
        'tensor([0.7000, 0.0000, 0.0000, 0.8000, 3.0000], grad_fn=<MulBackward0>)\n'
        '[0. 0. 0. 0. 0.]\n'
        '[0. 0. 0. 0. 0.]'
    ),
    'lerp number': (
        'tensor([-0.9500, -0.6500,  0.6000,  0.2750,  2.2500], grad_fn=<LerpBackward0>)\n'
        'tensor([ 0.4900, -0.2100, -0.8400,  0.2800, -0.3500])\n'
        'tensor([ 0.2100, -0.0900, -0.3600,  0.1200, -0.1500])'
    ),
    'lerp tensor': (
        'tensor([ 0.8615, -0.6345,  1.7616,  0.1716,  1.4439], grad_fn=<LerpBackward1>)\n'
        'tensor([ 0.1277, -0.2193, -0.1430,  0.2249, -0.1888], grad_fn=<MulBackward0>)\n'
        'tensor([ 0.9377, -0.0512, -1.3089,  0.1013, -0.0175], grad_fn=<AddBackward0>)\n'
        '[-0.1958 -0.006  -0.3298 -0.0199 -0.0041]\n'
        '[-0.0703 -0.0152  0.1212 -0.0062 -0.0336]'
    ),
    'erf': (
        'tensor([-0.9953, -0.5205,  0.0000,  0.5205,  1.0000], grad_fn=<ErfBackward0>)\n'
        'tensor([ 1.4467e-02, -2.6363e-01, -1.3541e+00,  3.5151e-01, -6.9627e-05],\n'
        '       grad_fn=<MulBackward0>)\n'
        'None\n'
        '[ 1.6743e-03  1.3901e-01 -0.0000e+00 -2.4712e-01 -5.8174e-08]\n'
        'None'
    ),
    'erfc': (
        'tensor([1.9953e+00, 1.5205e+00, 1.0000e+00, 4.7950e-01, 2.2090e-05],\n'
        '       grad_fn=<ErfcBackward0>)\n'
        'tensor([-1.4467e-02,  2.6363e-01,  1.3541e+00, -3.5151e-01,  6.9627e-05],\n'
        '       grad_fn=<MulBackward0>)\n'
        'None\n'
        '[ 1.6743e-03  1.3901e-01 -0.0000e+00 -2.4712e-01 -5.8174e-08]\n'
        'None'
    ),
    'erfinv': (
        'tensor([-1.1631, -0.4769,  0.0000,  0.4769,  1.1631],\n'
        '       grad_fn=<ErfinvBackward0>)\n'
        'tensor([ 2.3996, -0.3338, -1.0635,  0.4450, -1.7140], grad_fn=<MulBackward0>)\n'
        'None\n'
        '[-91.8347  -0.2365   0.       0.4204  46.8544]\n'
        'None'
    ),
    'exp2': (
        'tensor([0.2500, 0.7071, 1.0000, 1.4142, 8.0000], grad_fn=<Exp2Backward0>)\n'
        'tensor([ 0.1213, -0.1470, -0.8318,  0.3921, -2.7726], grad_fn=<MulBackward1>)\n'
        'None\n'
        '[ 0.0204  0.03    0.9591  0.2131 10.6568]\n'
        'None'
    ),
    'deg2rad': (
        'tensor([-0.0524,  0.0087,  0.0000, -0.0022,  0.0262], grad_fn=<MulBackward0>)\n'
        'tensor([ 0.0183,  0.0052, -0.0419, -0.0017, -0.0044], grad_fn=<MulBackward1>)\n'
        'tensor([-0.0244,  0.0026, -0.0000,  0.0035, -0.0262], grad_fn=<MulBackward0>)\n'
        '[-5.9705e-04 -2.7416e-05  0.0000e+00  4.8739e-05  4.5693e-04]\n'
        '[ 4.4779e-04 -5.4831e-05  1.7546e-03 -2.4369e-05  7.6154e-05]'
    ),
    'rad2deg': (
        'tensor([-171.8873,   28.6479,    0.0000,   -7.1620,   85.9437],\n'
        '       grad_fn=<MulBackward0>)\n'
        'tensor([  60.1606,   17.1887, -137.5099,   -5.7296,  -14.3239],\n'
        '       grad_fn=<MulBackward1>)\n'
        'tensor([-80.2141,   8.5944,  -0.0000,  11.4592, -85.9437],\n'
        '       grad_fn=<MulBackward0>)\n'
        '[-6434.3003  -295.4526     0.       525.249   4924.21  ]\n'
        '[ 4825.7256  -590.9052 18908.965   -262.6245   820.7016]'
    ),
    'true_divide': (
        'tensor([-1.3333,  0.5000,  0.0000, -2.0000,  6.0000], grad_fn=<DivBackward0>)\n'
        'tensor([ 0.4667,  0.3000, -0.6000, -1.6000, -1.0000], grad_fn=<DivBackward0>)\n'
        'tensor([ 0.6222, -0.1500,  0.0000, -3.2000,  6.0000], grad_fn=<MulBackward0>)\n'
        '[-0.3872 -0.09    0.     40.96   24.    ]\n'
        '[-1.3228e+00  2.7000e-01 -3.6000e-01  1.8432e+02 -2.9200e+02]'
    ),
    'amax': (
        'tensor(3., grad_fn=<AmaxBackward0>)\n'
        'tensor([0.0000, 0.3500, 0.3500, 0.0000, 0.0000])\n'
        'None'
    ),
    'amax dim keepdim': (
        'tensor([[3.],\n'
        '        [1.],\n'
        '        [6.],\n'
        '        [0.],\n'
        '        [3.]], grad_fn=<AmaxBackward0>)\n'
        'tensor([ 0.0000, -1.1000, -1.1000,  0.3000,  0.0000], grad_fn=<ViewBackward0>)\n'
        'tensor([ 2.1000,  0.3000, -3.6000,  0.4800, -1.5000], grad_fn=<ViewBackward0>)\n'
        '[ 0.0768  6.6168  6.6168 -0.1032  0.0768]\n'
        '[-1.54  -0.18   2.64  -0.304  1.1  ]'
    ),
    'amin dims': (
        'tensor(-3., grad_fn=<AminBackward0>)\n'
        'tensor([ 0.0000, -0.3500, -0.3500,  0.0000,  0.0000], grad_fn=<ViewBackward0>)\n'
        'tensor([0.0000, 2.1000, 0.0000, 0.0000, 0.0000], grad_fn=<ViewBackward0>)\n'
        '[0.   1.47 1.47 0.   0.  ]\n'
        '[ 0.   -0.49  0.    0.    0.  ]'
    ),
    'amin dim': (
        'tensor([-3., -3., -6.,  0., -3.], grad_fn=<AminBackward0>)\n'
        'tensor([ 0.0000,  0.3000, -2.2000,  0.0000,  0.0000], grad_fn=<ViewBackward0>)\n'
        'tensor([-2.1000, -0.9000,  3.6000,  0.0000,  1.5000], grad_fn=<ViewBackward0>)\n'
        '[  0.     0.54 -13.08   0.     0.  ]\n'
        '[-3.08  -0.18   5.28  -0.304  2.2  ]'
    ),
    'addmm': (
        'tensor([[-0.5000,  3.2500,  2.0000],\n'
        '        [ 6.5000,  1.5000,  2.5000]], grad_fn=<AddmmBackward0>)\n'
        'tensor([[ 0.7000, -0.3000, -1.2000],\n'
        '        [ 0.4000, -0.5000,  0.9000]])\n'
        'tensor([[ 1.2500,  0.2000, -0.8500, -0.8000],\n'
        '        [-1.2000,  1.7000, -0.6500,  0.8000]])'
    ),
    'addmm beta alpha': (
        'tensor([[-1.7500,  8.0000,  1.0000],\n'
        '        [10.7500,  3.0000,  5.7500]], grad_fn=<AddmmBackward0>)\n'
        'tensor([[ 0.3500, -0.1500, -0.6000],\n'
        '        [ 0.2000, -0.2500,  0.4500]])\n'
        'tensor([[ 2.5000,  0.4000, -1.7000, -1.6000],\n'
        '        [-2.4000,  3.4000, -1.3000,  1.6000]])'
    ),
    'addmm row bias': (
        'tensor([[-0.5000,  3.2500,  2.0000],\n'
        '        [ 5.5000,  0.5000,  5.0000]], grad_fn=<AddmmBackward0>)\n'
        'tensor([[ 1.1000, -0.8000, -0.3000],\n'
        '        [ 0.0000,  0.0000,  0.0000]])\n'
        'tensor([[ 1.2500,  0.2000, -0.8500, -0.8000],\n'
        '        [-1.2000,  1.7000, -0.6500,  0.8000]])'
    ),
    'addmm mat2': (
        'tensor([[ 0.0000,  0.0000,  0.0000],\n'
        '        [ 1.0000,  1.0000, -2.5000]], grad_fn=<AddmmBackward0>)\n'
        'tensor([[-1.5000,  1.3000, -0.6000],\n'
        '        [ 0.4000, -0.5000,  0.9000]], grad_fn=<MulBackward1>)\n'
        'tensor([[ 1.7500, -2.5000],\n'
        '        [-1.6500, -0.1500]], grad_fn=<TBackward0>)\n'
        '[[-0.45 -1.45  8.7 ]\n'
        ' [ 2.43 -1.14 -3.69]]\n'
        '[[ 1.44  3.58]\n'
        ' [ 1.3  -2.44]]'
    ),
    'addcmul': (
        'tensor([ 2.0000, -6.0000,  3.5000], grad_fn=<AddcmulBackward0>)\n'
        'tensor([ 1.4000, -0.9000, -8.4000], grad_fn=<AddBackward0>)\n'
        'tensor([ 1.4000,  1.2000, -1.2000], grad_fn=<MulBackward0>)\n'
        '[ 3.92 -1.44  5.76]\n'
        '[ 3.92  1.08 40.32]'
    ),
    'addcmul broadcast': (
        'tensor([[ 1.5000, -3.0000,  0.7500],\n'
        '        [ 2.0000, -4.0000,  1.0000],\n'
        '        [ 4.0000, -8.0000,  2.0000]], grad_fn=<AddcmulBackward0>)\n'
        'tensor([ 2.2500, -4.6500,  2.4000], grad_fn=<AddBackward0>)\n'
        'tensor([0.7000, 1.8500, 2.0000], grad_fn=<ViewBackward0>)\n'
        '[ 2.86 -5.47  4.05]\n'
        '[ 0.18 10.77 10.77]'
    ),
    'addcdiv': (
        'tensor([ 2.0000, -3.0000,  0.5833], grad_fn=<AddcdivBackward0>)\n'
        'tensor([ 1.4000, -0.4500, -1.4000], grad_fn=<AddBackward0>)\n'
        'tensor([-1.4000, -0.3000,  0.0333], grad_fn=<MulBackward0>)\n'
        '[ 3.92   -0.09    0.0044]\n'
        '[-19.6     -0.495   -0.1881]'
    ),
    'addcdiv default': (
        'tensor([ 1.3033, -1.6321,  0.6494], grad_fn=<AddcdivBackward0>)\n'
        'tensor([ 0.7000, -0.3000, -1.2000])\n'
        'tensor([0.2123, 0.0000, 0.1195], grad_fn=<AddBackward0>)\n'
        'None\n'
        '[-0.2704  0.     -0.0143]'
    ),
    'baddbmm': (
        'tensor([[[ 2.2500, -0.5000],\n'
        '         [ 4.0000, -4.0000]],\n'
        '\n'
        '        [[ 2.0000,  2.5000],\n'
        '         [-1.5000,  7.5000]]], grad_fn=<BaddbmmBackward0>)\n'
        'tensor([[[ 1.7250, -0.5500],\n'
        '         [-2.9000,  0.6000]],\n'
        '\n'
        '        [[-1.5000,  2.0000],\n'
        '         [ 0.3000, -1.9500]]], grad_fn=<AddBackward0>)\n'
        'tensor([[[-0.8500,  0.2500],\n'
        '         [ 0.6000, -0.2000]],\n'
        '\n'
        '        [[-0.1750,  0.6250],\n'
        '         [-0.1000, -0.7500]]], grad_fn=<MulBackward1>)\n'
        '[[[-0.67    0.48  ]\n'
        '  [ 1.12   -0.8   ]]\n'
        '\n'
        ' [[ 0.65   -0.625 ]\n'
        '  [-0.5175  0.59  ]]]\n'
        '[[[ 4.6875 -1.6775]\n'
        '  [-1.105   0.405 ]]\n'
        '\n'
        ' [[ 0.78   -1.59  ]\n'
        '  [-1.195   3.36  ]]]'
    ),
    'baddbmm default': (
        'tensor([[[-0.5000,  1.0000],\n'
        '         [ 7.0000, -3.0000]],\n'
        '\n'
        '        [[ 1.5000,  3.0000],\n'
        '         [-1.5000,  7.0000]]], grad_fn=<BaddbmmBackward0>)\n'
        'tensor([[[-0.1500, -0.0500],\n'
        '         [-4.3000,  1.5000]],\n'
        '\n'
        '        [[-1.4000,  1.9000],\n'
        '         [ 0.2000, -1.6000]]], grad_fn=<AddBackward0>)\n'
        'tensor([[[ 0.7000,  1.7000],\n'
        '         [-1.2000, -2.8000]],\n'
        '\n'
        '        [[ 0.6500,  3.2000],\n'
        '         [-0.7500, -2.5000]]], grad_fn=<BmmBackward0>)\n'
        '[[[ 3.86 -1.38]\n'
        '  [ 9.1  -3.26]]\n'
        '\n'
        ' [[-0.8   2.37]\n'
        '  [-3.7   9.76]]]\n'
        '[[[-0.18 -6.92]\n'
        '  [ 0.32 11.52]]\n'
        '\n'
        ' [[ 4.82 -3.08]\n'
        '  [-3.32  2.6 ]]]'
    ),
    'outer': (
        'tensor([[ 0.5000,  1.0000,  3.0000],\n'
        '        [-1.0000, -2.0000, -6.0000],\n'
        '        [ 0.2500,  0.5000,  1.5000]], grad_fn=<MulBackward0>)\n'
        'tensor([-3.5500,  2.4000,  1.0500], grad_fn=<ViewBackward0>)\n'
        'tensor([-0.0500,  0.3000, -2.7000], grad_fn=<ViewBackward0>)\n'
        '[ 6.23 -5.2  -3.73]\n'
        '[-2.84 -1.95 14.1 ]'
    ),
    'ger': (
        'tensor([[ 2.0000, -1.0000],\n'
        '        [-4.0000,  2.0000],\n'
        '        [ 1.0000, -0.5000]], grad_fn=<MulBackward0>)\n'
        'tensor([ 1.7000, -2.8000, -1.9000], grad_fn=<ViewBackward0>)\n'
        'tensor([ 2.8500, -0.6500], grad_fn=<ViewBackward0>)\n'
        '[ 4.38 -7.36 -4.02]\n'
        '[11.   -6.68]'
    ),
    'inner vectors': (
        'tensor(0., grad_fn=<ViewBackward0>)\n'
        'tensor([0.3500, 0.7000, 2.1000], grad_fn=<PermuteBackward0>)\n'
        'tensor([ 0.7000, -1.4000,  0.3500], grad_fn=<PermuteBackward0>)\n'
        '[ 0.98 -1.96  0.49]\n'
        '[0.49 0.98 2.94]'
    ),
    'inner matrices': (
        'tensor([[-1.0000,  5.5000],\n'
        '        [-1.5000, -0.5000]], grad_fn=<ViewBackward0>)\n'
        'tensor([[-0.6000,  0.4000, -0.8500],\n'
        '        [ 0.8000, -0.8000,  1.4000]], grad_fn=<PermuteBackward0>)\n'
        'tensor([[ 1.9000,  0.8000, -0.3000],\n'
        '        [-0.7000, -0.4000, -0.1000]], grad_fn=<PermuteBackward0>)\n'
        '[[ 3.08  1.36 -0.36]\n'
        ' [-5.12 -2.24  0.64]]\n'
        '[[-2.76  2.48 -4.55]\n'
        ' [ 1.   -0.88  1.63]]'
    ),
    'cross': (
        'tensor([[-5.0000,  1.0000,  1.0000],\n'
        '        [-1.7500,  4.5000, -2.0000]], grad_fn=<LinalgCrossBackward0>)\n'
        'tensor([[-1.5000, -0.7000, -0.7000],\n'
        '        [ 1.1500, -1.6000, -1.4000]], grad_fn=<LinalgCrossBackward0>)\n'
        'tensor([[ 1.5000, -3.3000,  1.7000],\n'
        '        [-1.4500, -1.7000, -0.3000]], grad_fn=<LinalgCrossBackward0>)\n'
        '[[ 8.94  5.98  3.72]\n'
        ' [-3.36  2.37  2.81]]\n'
        '[[-1.26  4.58 -1.88]\n'
        ' [ 4.28  3.19 -0.13]]'
    ),
    'cross dim 0': (
        'tensor([[-5.0000, -1.7500],\n'
        '        [ 1.0000,  4.5000],\n'
        '        [ 1.0000, -2.0000]], grad_fn=<LinalgCrossBackward0>)\n'
        'tensor([[-1.7000, -0.7000, -0.7000],\n'
        '        [ 0.7000, -1.9500,  1.1000]], grad_fn=<TBackward0>)\n'
        'tensor([[-2.6000, -2.6000,  2.6000],\n'
        '        [ 0.3500, -0.3000,  0.2500]], grad_fn=<TBackward0>)\n'
        '[[ 8.84  1.04  9.88]\n'
        ' [-0.74 -0.78  0.1 ]]\n'
        '[[ 0.98  2.68 -5.06]\n'
        ' [ 4.39  1.92  0.61]]'
    ),
    'kron': (
        'tensor([[ 1.0000, -1.0000,  2.0000, -2.0000,  3.0000, -3.0000],\n'
        '        [-1.0000,  1.0000,  0.5000, -0.5000,  2.0000, -2.0000]],\n'
        '       grad_fn=<UnsafeViewBackward0>)\n'
        'tensor([[ 1.0000, -1.6000, -1.4000],\n'
        '        [ 0.9000,  0.4000, -1.4000]], grad_fn=<ViewBackward0>)\n'
        'tensor([[-5.2000,  4.7000]], grad_fn=<ViewBackward0>)\n'
        '[[-10.1   16.24  13.66]\n'
        ' [ -8.56  -4.36  14.26]]\n'
        '[[10.38 -6.52]]'
    ),
    'kron vector': (
        'tensor([ 2.0000,  0.5000, -4.0000, -1.0000,  1.0000,  0.2500],\n'
        '       grad_fn=<UnsafeViewBackward0>)\n'
        'tensor([ 1.2500, -2.2000, -0.5500], grad_fn=<ViewBackward0>)\n'
        'tensor([ 2.8500, -0.6500], grad_fn=<ViewBackward0>)\n'
        '[ 4.38 -7.36 -4.02]\n'
        '[ 7.58 -3.5 ]'
    ),
    'tensordot': (
        'tensor([[-1.0000,  4.2500,  0.0000],\n'
        '        [ 5.0000,  1.5000,  3.0000]], grad_fn=<ViewBackward0>)\n'
        'tensor([[ 1.2500,  0.2000, -0.8500, -0.8000],\n'
        '        [-1.2000,  1.7000, -0.6500,  0.8000]], grad_fn=<PermuteBackward0>)\n'
        'tensor([[ 0.7000, -0.3000, -1.2000],\n'
        '        [-1.0000,  0.1000,  3.3000],\n'
        '        [-0.0500,  0.3500, -1.5000],\n'
        '        [ 2.9000, -1.9000, -1.8000]], grad_fn=<PermuteBackward0>)\n'
        '[[ 4.04 -9.38  3.32  9.52]\n'
        ' [-1.3   5.04 -3.09  0.98]]\n'
        '[[ 0.79  0.45 -5.16]\n'
        ' [ 1.64 -1.82  2.58]\n'
        ' [-1.71  1.16  0.87]\n'
        ' [-0.48 -0.32  3.36]]'
    ),
    'tensordot int': (
        'tensor([[-1.0000,  4.2500,  0.0000],\n'
        '        [ 5.0000,  1.5000,  3.0000]], grad_fn=<ViewBackward0>)\n'
        'tensor([[ 1.2500,  0.2000, -0.8500, -0.8000],\n'
        '        [-1.2000,  1.7000, -0.6500,  0.8000]], grad_fn=<PermuteBackward0>)\n'
        'tensor([[ 0.7000, -0.3000, -1.2000],\n'
        '        [-1.0000,  0.1000,  3.3000],\n'
        '        [-0.0500,  0.3500, -1.5000],\n'
        '        [ 2.9000, -1.9000, -1.8000]], grad_fn=<PermuteBackward0>)\n'
        '[[ 4.04 -9.38  3.32  9.52]\n'
        ' [-1.3   5.04 -3.09  0.98]]\n'
        '[[ 0.79  0.45 -5.16]\n'
        ' [ 1.64 -1.82  2.58]\n'
        ' [-1.71  1.16  0.87]\n'
        ' [-0.48 -0.32  3.36]]'
    ),
    'tensordot 2': (
        'tensor([[ 2.5000,  0.0000],\n'
        '        [ 1.0000, -1.0000]], grad_fn=<ViewBackward0>)\n'
        'tensor([[[ 0.6500,  0.1000],\n'
        '         [-1.0000, -0.4000]],\n'
        '\n'
        '        [[ 1.4000,  0.4000],\n'
        '         [-2.4000, -0.8000]]], grad_fn=<PermuteBackward0>)\n'
        'tensor([[[-1.7000,  0.5000],\n'
        '         [ 1.2000, -0.4000]],\n'
        '\n'
        '        [[ 1.5500, -0.5500],\n'
        '         [-2.9000,  0.9000]]], grad_fn=<PermuteBackward0>)\n'
        '[[[-2.68  1.92]\n'
        '  [ 4.48 -3.2 ]]\n'
        '\n'
        ' [[ 2.5  -4.6 ]\n'
        '  [-4.16  7.68]]]\n'
        '[[[ 3.31 -1.19]\n'
        '  [ 1.1  -0.38]]\n'
        '\n'
        ' [[ 7.72 -2.76]\n'
        '  [ 2.48 -0.88]]]'
    ),
    'dist': (
        'tensor(4.6368, grad_fn=<DistBackward0>)\n'
        'tensor([[ 0.0000,  0.1510,  0.3019],\n'
        '        [-1.2077, -0.0755,  0.0377]], grad_fn=<MulBackward0>)\n'
        'tensor([[ 0.0000,  0.3019, -0.9058],\n'
        '        [ 0.6039, -0.0377,  0.1510]], grad_fn=<MulBackward0>)\n'
        '[[ 0.      0.0511  0.9228]\n'
        ' [-0.4092  0.1112  0.0042]]\n'
        '[[ 0.     -0.0345 -1.3097]\n'
        ' [ 1.2985  0.0641 -0.0685]]'
    ),
    'dist p3': (
        'tensor(4.5868, grad_fn=<DistBackward0>)\n'
        'tensor([[ 0.0333,  0.0333,  0.5324],\n'
        '        [-0.2994, -0.0083,  0.0749]], grad_fn=<MulBackward0>)\n'
        'tensor([[-0.0333, -0.0333, -0.5324],\n'
        '        [ 0.2994,  0.0083, -0.0749]], grad_fn=<NegBackward0>)\n'
        '[[-0.0227 -0.0227  0.0615]\n'
        ' [ 0.0451  0.0068 -0.0412]]\n'
        '[[ 0.0227  0.0227 -0.0615]\n'
        ' [-0.0451 -0.0068  0.0412]]'
    ),
    'dist broadcast': (
        'tensor(7.0178, grad_fn=<DistBackward0>)\n'
        'tensor([[ 0.0000,  0.1995,  0.4987],\n'
        '        [-0.1995,  0.0499,  0.3990]], grad_fn=<MulBackward0>)\n'
        'tensor([ 0.1995, -0.2494, -0.8977], grad_fn=<ViewBackward0>)\n'
        '[[-0.0398 -0.024  -0.0053]\n'
        ' [ 0.0339  0.0313  0.0316]]\n'
        '[ 0.0059 -0.0073 -0.0264]'
    ),
    'cdist': (
        'tensor([[4.2426, 2.8723],\n'
        '        [3.2016, 3.3912]], grad_fn=<CdistBackward0>)\n'
        'tensor([[ 0.2694,  0.0605,  0.3988],\n'
        '        [ 0.0210,  0.1284, -0.9475]], grad_fn=<CdistBackwardBackward0>)\n'
        'tensor([[-0.5398, -0.3524,  0.4645],\n'
        '        [ 0.2494,  0.1634,  0.0842]], grad_fn=<CdistBackwardBackward0>)'
    ),
    'cdist batched': (
        'tensor([[[1.1180, 2.0000],\n'
        '         [1.5000, 3.1623]],\n'
        '\n'
        '        [[1.8028, 0.5000],\n'
        '         [4.2426, 2.8284]]], grad_fn=<CdistBackward0>)\n'
        'tensor([[[ 0.3130,  0.9261],\n'
        '         [-1.0735, -0.3795]],\n'
        '\n'
        '        [[-0.4840, -0.2774],\n'
        '         [ 0.4950, -0.4950]]], grad_fn=<CdistBackwardBackward0>)\n'
        'tensor([[[ 0.8870, -0.6261],\n'
        '         [-0.1265,  0.0795]],\n'
        '\n'
        '        [[-0.3453,  0.2066],\n'
        '         [ 0.3343,  0.5657]]], grad_fn=<CdistBackwardBackward0>)'
    ),
    'einsum mm': (
        'tensor([[-1.0000,  4.2500,  0.0000],\n'
        '        [ 5.0000,  1.5000,  3.0000]], grad_fn=<ViewBackward0>)\n'
        'tensor([[ 1.2500,  0.2000, -0.8500, -0.8000],\n'
        '        [-1.2000,  1.7000, -0.6500,  0.8000]])\n'
        'tensor([[ 0.7000, -0.3000, -1.2000],\n'
        '        [-1.0000,  0.1000,  3.3000],\n'
        '        [-0.0500,  0.3500, -1.5000],\n'
        '        [ 2.9000, -1.9000, -1.8000]])\n'
        '[[ 4.04 -9.38  3.32  9.52]\n'
        ' [-1.3   5.04 -3.09  0.98]]\n'
        '[[ 0.79  0.45 -5.16]\n'
        ' [ 1.64 -1.82  2.58]\n'
        ' [-1.71  1.16  0.87]\n'
        ' [-0.48 -0.32  3.36]]'
    ),
    'einsum bmm': (
        'tensor([[[ 0.5000, -1.0000],\n'
        '         [ 0.0000, -4.0000]],\n'
        '\n'
        '        [[ 2.0000,  1.0000],\n'
        '         [ 1.0000,  3.0000]]], grad_fn=<ViewBackward0>)\n'
        'tensor([[[ 0.6500,  0.1000],\n'
        '         [-1.0000, -0.4000]],\n'
        '\n'
        '        [[-1.0000,  0.4000],\n'
        '         [ 0.2000, -0.7000]]])\n'
        'tensor([[[-1.7000,  0.5000],\n'
        '         [ 1.2000, -0.4000]],\n'
        '\n'
        '        [[-0.3500,  1.2500],\n'
        '         [-0.2000, -1.5000]]])\n'
        '[[[-2.68  1.92]\n'
        '  [ 4.48 -3.2 ]]\n'
        '\n'
        ' [[ 2.6  -2.5 ]\n'
        '  [-2.07  2.36]]]\n'
        '[[[ 3.31 -1.19]\n'
        '  [ 1.1  -0.38]]\n'
        '\n'
        ' [[ 1.04 -2.12]\n'
        '  [-0.54  1.84]]]'
    ),
    'einsum mv': (
        'tensor([11.5000,  6.0000], grad_fn=<ViewBackward0>)\n'
        'tensor([[ 0.3500,  0.7000,  2.1000],\n'
        '        [-0.1500, -0.3000, -0.9000]])\n'
        'tensor([1.0000, 1.2500, 1.5000])\n'
        '[[ 1.4   1.75  2.1 ]\n'
        ' [-0.6  -0.75 -0.9 ]]\n'
        '[0.58 1.16 3.48]'
    ),
    'einsum dot': (
        'tensor(0., grad_fn=<ViewBackward0>)\n'
        'tensor([0.3500, 0.7000, 2.1000])\n'
        'tensor([ 0.7000, -1.4000,  0.3500])\n'
        '[ 0.98 -1.96  0.49]\n'
        '[0.49 0.98 2.94]'
    ),
    'einsum outer': (
        'tensor([[ 0.5000,  1.0000,  3.0000],\n'
        '        [-1.0000, -2.0000, -6.0000],\n'
        '        [ 0.2500,  0.5000,  1.5000]], grad_fn=<MulBackward0>)\n'
        'tensor([-3.5500,  2.4000,  1.0500])\n'
        'tensor([-0.0500,  0.3000, -2.7000])\n'
        '[ 6.23 -5.2  -3.73]\n'
        '[-2.84 -1.95 14.1 ]'
    ),
    'einsum implicit': (
        'tensor([[-1.0000,  5.5000],\n'
        '        [-1.5000, -0.5000]], grad_fn=<ViewBackward0>)\n'
        'tensor([[-0.6000,  0.4000, -0.8500],\n'
        '        [ 0.8000, -0.8000,  1.4000]])\n'
        'tensor([[ 1.9000,  0.8000, -0.3000],\n'
        '        [-0.7000, -0.4000, -0.1000]])\n'
        '[[ 3.08  1.36 -0.36]\n'
        ' [-5.12 -2.24  0.64]]\n'
        '[[-2.76  2.48 -4.55]\n'
        ' [ 1.   -0.88  1.63]]'
    ),
    'einsum trace': (
        'tensor(2.5000, grad_fn=<MulBackward0>)\n'
        'tensor([[0.3500, 0.0000],\n'
        '        [0.0000, 0.3500]])\n'
        'tensor(3.5000)\n'
        '[[4.9 0. ]\n'
        ' [0.  4.9]]\n'
        '0.98'
    ),
    'einsum diagonal': (
        'tensor([ 0.5000, -4.0000], grad_fn=<MulBackward0>)\n'
        'tensor([[0.3500, 0.0000],\n'
        '        [0.0000, 0.3000]])\n'
        'tensor([ 0.7000, -1.2000])\n'
        '[[0.98 0.  ]\n'
        ' [0.   0.72]]\n'
        '[ 0.49 -0.18]'
    ),
    'einsum sum': (
        'tensor([12.0000, -1.5000], grad_fn=<MulBackward0>)\n'
        'tensor([[1.4000, 1.4000, 1.4000],\n'
        '        [0.3000, 0.3000, 0.3000]])\n'
        'tensor([ 4.2000, -0.4500])\n'
        '[[5.88 5.88 5.88]\n'
        ' [0.27 0.27 0.27]]\n'
        '[ 5.88 -0.54]'
    ),
    'einsum transpose': (
        'tensor([[ 2.0000,  1.0000],\n'
        '        [ 4.0000, -0.5000],\n'
        '        [ 6.0000, -2.0000]], grad_fn=<MulBackward0>)\n'
        'tensor([[ 1.4000, -2.4000, -1.0000],\n'
        '        [ 0.3000, -0.4000, -0.9000]])\n'
        'tensor([-3.2000,  2.3000])\n'
        '[[-4.48  7.68  3.2 ]\n'
        ' [-1.38  1.84  4.14]]\n'
        '[ 8.72 -2.12]'
    ),
    'einsum list': (
        'tensor([ 0.5000, -2.0000,  1.5000], grad_fn=<MulBackward0>)\n'
        'tensor([ 0.3500, -0.3000, -3.6000])\n'
        'tensor([ 0.7000,  0.6000, -0.6000])\n'
        '[ 0.98 -0.36  1.44]\n'
        '[0.49 0.18 8.64]'
    ),
    'einsum ellipsis': (
        'tensor([[[ 0.5000, -1.0000],\n'
        '         [ 0.0000, -4.0000]],\n'
        '\n'
        '        [[ 2.0000,  1.0000],\n'
        '         [ 1.0000,  3.0000]]], grad_fn=<ViewBackward0>)\n'
        'tensor([[[ 0.6500,  0.1000],\n'
        '         [-1.0000, -0.4000]],\n'
        '\n'
        '        [[-1.0000,  0.4000],\n'
        '         [ 0.2000, -0.7000]]])\n'
        'tensor([[[-1.7000,  0.5000],\n'
        '         [ 1.2000, -0.4000]],\n'
        '\n'
        '        [[-0.3500,  1.2500],\n'
        '         [-0.2000, -1.5000]]])\n'
        '[[[-2.68  1.92]\n'
        '  [ 4.48 -3.2 ]]\n'
        '\n'
        ' [[ 2.6  -2.5 ]\n'
        '  [-2.07  2.36]]]\n'
        '[[[ 3.31 -1.19]\n'
        '  [ 1.1  -0.38]]\n'
        '\n'
        ' [[ 1.04 -2.12]\n'
        '  [-0.54  1.84]]]'
    ),
    'einsum three': (
        'tensor(1., grad_fn=<ViewBackward0>)\n'
        'tensor([[ 0.7000, -1.4000],\n'
        '        [-1.4000,  2.8000]])\n'
        'tensor([ 0.0000, -0.7000])\n'
        '[[ 0.   -0.98]\n'
        ' [-0.98  3.92]]\n'
        '[  8.82 -20.58]'
    ),
    'cumprod': (
        'tensor([[ 2.0000, -2.0000, -6.0000, -3.0000],\n'
        '        [ 1.0000, -2.0000, -0.5000, -2.0000]], grad_fn=<CumprodBackward0>)\n'
        'tensor([[ 4.0000, -6.6000,  2.0000, -2.4000],\n'
        '        [-0.7500,  0.1250,  6.2000,  0.4000]], grad_fn=<DivBackward0>)\n'
        'None\n'
        '[[ 53.32   -45.92    38.24   -44.48  ]\n'
        ' [ 77.2313 -38.7875  -8.795   19.19  ]]\n'
        'None'
    ),
    'cumprod zeros': (
        'tensor([[ 2.,  0.,  0.,  0.],\n'
        '        [ 1., -2., -0., -0.]], grad_fn=<CumprodBackward0>)\n'
        'tensor([[ 0.7000, -6.6000,  0.0000,  0.0000],\n'
        '        [-2.3000,  0.9000,  6.2000,  0.0000]])\n'
        'None\n'
        '[[ 43.56  -4.62  26.4  -31.68]\n'
        ' [ 78.5  -42.58 -34.1   19.84]]\n'
        'None'
    ),
    'cumprod dim 0': (
        'tensor([[2.0000, 0.0000, 3.0000, 0.5000],\n'
        '        [2.0000, -0.0000, 0.0000, 2.0000]], grad_fn=<CumprodBackward0>)\n'
        'tensor([[ 0.2000, -2.1000, -1.2000, -2.8000],\n'
        '        [-1.0000,  0.0000,  0.3000, -0.4000]])\n'
        'None\n'
        '[[ 1.    0.    0.06  0.64]\n'
        ' [-0.2  -3.78 -0.24  4.48]]\n'
        'None'
    ),
    'cumprod two zeros': (
        'tensor([1.5000, 0.0000, 0.0000, 0.0000, 0.0000], grad_fn=<CumprodBackward0>)\n'
        'tensor([ 0.7000, -4.0500,  0.0000,  0.0000,  0.0000])\n'
        'None\n'
        '[21.87 -3.78 14.58 26.73  0.  ]\n'
        'None'
    ),
    'diff': (
        'tensor([[-2.0000,  3.0000, -2.5000],\n'
        '        [-3.0000,  2.0000,  4.0000]], grad_fn=<SubBackward0>)\n'
        'tensor([[-0.7000,  1.0000,  0.9000, -1.2000],\n'
        '        [-0.4000,  0.9000, -1.4000,  0.9000]])\n'
        'None'
    ),
    'diff n2': (
        'tensor([[ 5.0000, -5.5000],\n'
        '        [ 5.0000,  2.0000]], grad_fn=<SubBackward0>)\n'
        'tensor([[ 0.7000, -1.7000,  1.3000, -0.3000],\n'
        '        [-1.2000,  2.8000, -2.0000,  0.4000]])\n'
        'None'
    ),
    'diff prepend': (
        'tensor([[ 1.0000, -2.0000,  0.0000, -3.5000],\n'
        '        [-1.0000, -2.0000, -3.0000,  3.5000],\n'
        '        [ 3.0000,  2.0000,  6.0000, -3.0000],\n'
        '        [-2.0000, -4.0000, -6.0000,  7.0000]], grad_fn=<SubBackward0>)\n'
        'tensor([[ 1.0000, -0.2000, -1.1000,  1.0000],\n'
        '        [ 0.3000,  0.1000, -1.2000, -0.3000]])\n'
        'tensor([-0.7000,  0.3000,  1.2000, -0.4000])'
    ),
    'median': (
        'tensor(0.5000, grad_fn=<MedianBackward0>)\n'
        'tensor([[0.0000, 0.0000, 0.0000, 0.7000],\n'
        '        [0.0000, 0.0000, 0.0000, 0.0000]])\n'
        'None'
    ),
    'median ties': (
        'tensor(2., grad_fn=<MedianBackward0>)\n'
        'tensor([0.0000, 0.3500, 0.3500, 0.0000])\n'
        'None'
    ),
    'median dim': (
        'tensor([0.5000, 0.0000], grad_fn=<MedianBackward1>)\n'
        'tensor([[ 0.0000,  0.0000,  0.0000,  0.7000],\n'
        '        [ 0.0000,  0.0000, -0.3000,  0.0000]])\n'
        'None'
    ),
    'median dim keepdim': (
        'tensor([[ 1.0000, -2.0000,  0.0000,  0.5000]], grad_fn=<MedianBackward1>)\n'
        'tensor([[ 0.0000,  0.0000,  0.0000,  0.4000],\n'
        '        [ 0.7000, -0.3000, -1.2000,  0.0000]])\n'
        'None'
    ),
    'std_mean': (
        'tensor([4.1288, 5.7500], grad_fn=<AddBackward0>)\n'
        'tensor([[ 0.3868, -0.2910,  0.7258, -0.1216],\n'
        '        [-0.0950,  0.1450, -0.0150, -0.3350]], grad_fn=<AddBackward0>)\n'
        'None\n'
        '[[ 1.4901e-08  0.0000e+00  2.9802e-08  0.0000e+00]\n'
        ' [-6.9849e-10  3.7253e-09  9.3132e-10 -3.7253e-09]]\n'
        'None'
    ),
    'std_mean std': (
        'tensor(18.8145, grad_fn=<StdMeanBackward0>)\n'
        'tensor([[-1.4293e-01, -2.0844e-02,  9.6690e-01, -8.2194e-02],\n'
        '        [-1.2006e-01, -7.8355e-03, -6.6502e-02,  1.2644e+01]],\n'
        '       grad_fn=<MulBackward0>)\n'
        'None\n'
        '[[-3.5036e+00  1.6382e-01 -3.6500e+01  4.6742e-01]\n'
        ' [ 3.9424e-01  6.4165e-02  4.2383e-01  3.6017e+02]]\n'
        'None'
    ),
    'var_mean': (
        'tensor([[2.0898]], grad_fn=<SubBackward0>)\n'
        'tensor([[ 0.0766, -0.2734,  0.2516, -0.1859],\n'
        '        [-0.0984, -0.6234, -0.2734,  0.4266]], grad_fn=<AddBackward0>)\n'
        'None\n'
        '[[ 0.0574 -0.0651  0.1187 -0.0345]\n'
        ' [-0.0038 -0.1876 -0.0651  0.1799]]\n'
        'None'
    ),
    'var_mean dim': (
        'tensor([0.5000, 2.0000, 4.5000, 6.1250], grad_fn=<VarMeanBackward0>)\n'
        'tensor([[ 0.7000, -0.6000, -3.6000, -1.4000],\n'
        '        [-0.7000,  0.6000,  3.6000,  1.4000]], grad_fn=<MulBackward0>)\n'
        'None\n'
        '[[  1.96   0.72  17.28  -2.24]\n'
        ' [ -1.96  -0.72 -17.28   2.24]]\n'
        'None'
    ),
    'trapezoid': (
        'tensor([4.2500, 0.5000], grad_fn=<MulBackward1>)\n'
        'tensor([[ 0.3500,  0.7000,  0.7000,  0.3500],\n'
        '        [-0.1500, -0.3000, -0.3000, -0.1500]])\n'
        'None'
    ),
    'trapezoid dx': (
        'tensor([ 0.7500, -0.5000,  0.7500,  1.1250], grad_fn=<MulBackward1>)\n'
        'tensor([[ 0.1750, -0.0750, -0.3000,  0.1000],\n'
        '        [ 0.1750, -0.0750, -0.3000,  0.1000]])\n'
        'None'
    ),
    'trapz x': (
        'tensor([ 5.7500, -0.5000], grad_fn=<DivBackward1>)\n'
        'tensor([[ 0.3500,  1.0500,  1.0500,  0.3500],\n'
        '        [-0.1500, -0.4500, -0.4500, -0.1500]], grad_fn=<AddBackward0>)\n'
        'tensor([-0.8500, -0.5000,  0.7250,  0.6250], grad_fn=<ViewBackward0>)\n'
        '[[ 0.245   1.1025  0.7875 -0.07  ]\n'
        ' [-0.105  -0.4725 -0.3375  0.03  ]]\n'
        '[-1.16 -0.58  0.58  1.16]'
    ),
    'lgamma': (
        'tensor([1.2880, 0.5724, 0.0000, 0.2847, 6.5793], grad_fn=<LgammaBackward0>)\n'
        'tensor([-2.9592,  0.5891,  0.6927,  0.2813, -0.9364], grad_fn=<MulBackward0>)\n'
        'None\n'
        '[-71.2469  -1.7441  -2.7345   0.1103   0.1438]\n'
        'None'
    ),
    'lgamma negative': (
        'tensor([ 1.2655,  0.8600,  0.5555, -1.3173,  2.2527],\n'
        '       grad_fn=<LgammaBackward0>)\n'
        'tensor([ 0.0255, -0.2109, -4.9903, -0.6770,  5.2119], grad_fn=<MulBackward0>)\n'
        'None\n'
        '[ 3.1951e-01  1.1871e+00  2.3210e+02 -1.0563e+01 -5.2866e+02]\n'
        'None'
    ),
    'digamma': (
        'tensor([-4.2275, -1.9635, -0.5772,  0.7032,  1.8728],\n'
        '       grad_fn=<DigammaBackward0>)\n'
        'tensor([12.0381, -1.4804, -1.9739,  0.1961, -0.0768], grad_fn=<MulBackward0>)\n'
        'None\n'
        '[-2.1796e+03 -1.4948e+01 -1.1389e+01 -3.7064e-02 -1.8065e-03]\n'
        'None'
    ),
    'polygamma 1': (
        'tensor([17.1973,  4.9348,  1.6449,  0.4904,  0.1535],\n'
        '       grad_fn=<PolygammaBackward0>)\n'
        'tensor([-9.0529e+01,  5.0486e+00,  2.8849e+00, -9.4482e-02,  1.1765e-02],\n'
        '       grad_fn=<MulBackward0>)\n'
        'None\n'
        '[-1.9503e+05 -2.9507e+02 -4.4963e+01 -1.6924e-02 -8.4689e-05]\n'
        'None'
    ),
    'polygamma 3': (
        'tensor([9.7409e+01, 6.4939e+00, 2.2391e-01, 7.1982e-03, 2.6937e-04],\n'
        '       grad_fn=<PolygammaBackward0>)\n'
        'tensor([-5.4003e+02,  7.4659e+00,  3.7651e-01, -1.3187e-03,  2.0703e-05],\n'
        '       grad_fn=<MulBackward0>)\n'
        'None\n'
        '[-5.8148e+06 -5.4687e+02 -5.2281e-01 -2.1199e-06 -1.7565e-10]\n'
        'None'
    ),
}


@pytest.mark.parametrize("name", list(ALL))
def test_values_gradients_and_second_derivatives_as_pytorch(name: str) -> None:
    as_pytorch(lambda lib: transcript(lib, name), (None, repr(EXPECTED[name]), []))


# ------------------------------------------------------------------------------------------------ finite differences
# float64 inputs away from kinks, ties and jumps (fmod's, amax's), and inside erfinv's (-1, 1)
SMOOTH = {name: (fn, [v * 0.9 + 0.05 * i for i, v in enumerate(a)] if isinstance(a, list) and not
                 isinstance(a[0], list) else a, b) for name, (fn, a, b) in ALL.items()}
SMOOTH["amax"] = (CASES["amax"][0], [1.0, 3.0, 2.5, -1.0, 0.0], B)
SMOOTH["amax dim keepdim"] = (CASES["amax dim keepdim"][0], [1.0, 3.0, 2.5, -1.0, 0.0], [1.0, -1.0, 2.0, 0.3, 1.5])
SMOOTH["amin dims"] = (CASES["amin dims"][0], [1.0, 3.0, 2.5, -1.0, 0.2], [1.0, -1.0, 2.0, 0.3, 1.5])
SMOOTH["amin dim"] = (CASES["amin dim"][0], [1.0, 3.0, -3.0, -1.0, 0.2], [1.0, -1.0, 2.0, 0.3, 1.5])
SMOOTH["erfinv"] = (CASES["erfinv"][0], [-0.85, -0.45, 0.05, 0.5, 0.8], B)
SMOOTH["fmod tensor"] = (CASES["fmod tensor"][0], [-2.0, -0.6, 0.1, 0.4, 3.1], B)


class _Float64:
    """tinygrad_edu, with the constants a case makes (``lib.tensor(B43)``) in float64 like its inputs."""

    def __getattr__(self, name: str) -> Any:
        return getattr(tg, name)

    @staticmethod
    def tensor(data: Any, **kwargs: Any) -> Any:
        return tg.tensor(data, dtype=tg.float64, **kwargs)


@pytest.mark.parametrize("name", list(ALL))
def test_derivatives_match_finite_differences(name: str) -> None:
    fn, a, b = SMOOTH[name]
    lib = _Float64()
    x = tg.tensor(a, dtype=tg.float64, requires_grad=True)
    y = tg.tensor(b, dtype=tg.float64, requires_grad=True)
    inputs = (x, y) if "dist" not in name else (x,)  # (dist's y is detached in one case: x alone, for all)
    f = (lambda t, u: fn(lib, t, u)) if len(inputs) == 2 else (lambda t: fn(lib, t, y.detach()))
    assert gradcheck(f, inputs)
    if name not in FIRST_ONLY:
        assert gradgradcheck(f, inputs)


def test_cdist_is_differentiated_once_as_in_pytorch() -> None:
    """PyTorch computes cdist's gradient with one op it gives no derivative: create_graph records it, and a
    backward through it raises."""
    def second(lib: ModuleType) -> Any:
        x = lib.tensor(C, requires_grad=True)
        (gx,) = lib.autograd.grad(lib.cdist(x, lib.tensor(D)).sum(), x, create_graph=True)
        assert type(gx.grad_fn).__name__ == "CdistBackwardBackward0"
        return gx.sum().backward()

    raises(second, NotImplementedError, "the derivative for '_cdist_backward' is not implemented.")


# ------------------------------------------------------------------------------------------------ amax and max
def _tied_grads(lib: ModuleType) -> str:
    x = lib.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]], requires_grad=True)
    x.amax(1).sum().backward()
    by_amax = x.grad.clone()
    x.grad = None
    x.max(1).values.sum().backward()
    return f"{by_amax}\n{x.grad}"


def test_amax_shares_the_gradient_among_ties_where_max_dim_picks_one() -> None:
    as_pytorch(_tied_grads, (None, "'tensor([[0.0000, 0.5000, 0.5000],\\n        [0.3333, 0.3333, 0.3333]])\\n"
                                   "tensor([[0., 1., 0.],\\n        [1., 0., 0.]])'", []))


AMAX = [
    (lambda lib: lib.tensor([[1, 5], [7, 2]]).amax(0), "tensor([7, 5])"),
    (lambda lib: lib.tensor([[1, 5], [7, 2]]).amin(-1, keepdim=True), "tensor([[1],\n        [2]])"),
    (lambda lib: lib.tensor(3.0).amax(), "tensor(3.)"),
    (lambda lib: lib.tensor(3.0).amax(0), "tensor(3.)"),
    (lambda lib: lib.tensor([[1.0, float("nan")], [0.0, 2.0]]).amax(1), "tensor([nan, 2.])"),
    (lambda lib: lib.zeros(2, 0).amax(0), "tensor([])"),
    (lambda lib: lib.amax(lib.ones(2, 3, 4), (0, 2)), "tensor([1., 1., 1.])"),
]


@pytest.mark.parametrize("case", range(len(AMAX)))
def test_amax_amin_values_as_pytorch(case: int) -> None:
    fn, text = AMAX[case]
    as_pytorch(fn, (None, text, []))


# ------------------------------------------------------------------------------------------------ tests and logic
INF, NAN = float("inf"), float("nan")
BOOLS = [
    (lambda lib: lib.tensor([1.0, INF, -INF, NAN]).isinf(), "tensor([False,  True,  True, False])"),
    (lambda lib: lib.isfinite(lib.tensor([1.0, INF, -INF, NAN])), "tensor([ True, False, False, False])"),
    (lambda lib: lib.isnan(lib.tensor([1.0, NAN])), "tensor([False,  True])"),
    (lambda lib: lib.tensor([1, 2]).isinf(), "tensor([False, False])"),
    (lambda lib: lib.tensor([1, 2]).isfinite(), "tensor([True, True])"),
    (lambda lib: lib.logical_and(lib.tensor([1.0, 0.0, 2.0]), lib.tensor([True, True, False])),
     "tensor([ True, False, False])"),
    (lambda lib: lib.tensor([0, 3]).logical_or(lib.tensor([[0], [1]])),
     "tensor([[False,  True],\n        [ True,  True]])"),
    (lambda lib: lib.logical_xor(lib.tensor([0.0, 1.0, 2.0]), lib.tensor([0.0, 0.0, -1.0])),
     "tensor([False,  True, False])"),
    (lambda lib: lib.logical_not(lib.tensor([0.0, 0.5])), "tensor([ True, False])"),
    (lambda lib: lib.tensor([1.0, 0.0, 2.0]).logical_and_(lib.tensor([1.0, 1.0, 0.0])), "tensor([1., 0., 0.])"),
    (lambda lib: lib.tensor([0, 2]).logical_not_(), "tensor([1, 0])"),
    (lambda lib: lib.tensor([1.0, 2.0], requires_grad=True).isinf(), "tensor([False, False])"),
]


@pytest.mark.parametrize("case", range(len(BOOLS)))
def test_tests_and_logical_ops_give_bools_as_pytorch(case: int) -> None:
    fn, text = BOOLS[case]
    as_pytorch(fn, (None, text, []))


# ------------------------------------------------------------------------------------------------ special values
SPECIAL = [
    (lambda lib: lib.atan2(lib.tensor([0.0, 0.0, -0.0, 1.0, -1.0]), lib.tensor([0.0, -0.0, -1.0, 0.0, -INF])),
     "tensor([ 0.0000,  3.1416, -3.1416,  1.5708, -3.1416])"),
    (lambda lib: lib.atan2(lib.tensor([1, 2]), lib.tensor([1, 0])), "tensor([0.7854, 1.5708])"),
    (lambda lib: lib.hypot(lib.tensor([3.0, 1e30, INF]), lib.tensor([4.0, 1e30, NAN])),
     "tensor([5.0000e+00, 1.4142e+30,        inf])"),
    (lambda lib: lib.logaddexp(lib.tensor([1000.0, -INF, INF]), lib.tensor([1000.0, -INF, 1.0])),
     "tensor([1000.6932,      -inf,       inf])"),
    (lambda lib: lib.fmod(lib.tensor([-7, 7, -7]), 3), "tensor([-1,  1, -1])"),
    (lambda lib: lib.tensor([-7.0, 7.0, 5.0]).fmod(lib.tensor([3.0, -3.0, 0.0])), "tensor([-1.,  1., nan])"),
    (lambda lib: lib.tensor([-7, 7]) % 3, "tensor([2, 1])"),
    (lambda lib: lib.erf(lib.tensor([-INF, -3.0, 0.0, 1e-8, INF, NAN])),
     "tensor([-1.0000e+00, -9.9998e-01,  0.0000e+00,  1.1284e-08,  1.0000e+00,\n                nan])"),
    (lambda lib: lib.erfc(lib.tensor([-INF, 5.0, 10.0, INF])),
     "tensor([2.0000e+00, 1.5375e-12, 1.4013e-45, 0.0000e+00])"),
    (lambda lib: lib.erfinv(lib.tensor([-1.0, 1.0, 1.5, 0.999999, -0.3, NAN])),
     "tensor([   -inf,     inf,     nan,  3.4571, -0.2725,     nan])"),
    (lambda lib: lib.erf(lib.tensor([1, 2])), "tensor([0.8427, 0.9953])"),
    (lambda lib: lib.exp2(lib.tensor([-1, 0, 10])), "tensor([5.0000e-01, 1.0000e+00, 1.0240e+03])"),
    (lambda lib: lib.exp2(lib.tensor([200.0, -200.0])), "tensor([inf, 0.])"),
    (lambda lib: lib.deg2rad(lib.tensor([180, 90])), "tensor([3.1416, 1.5708])"),
    (lambda lib: lib.tensor([True]).rad2deg(), "tensor([57.2958])"),
    (lambda lib: lib.tensor([3.1415927], dtype=lib.float64).rad2deg(),
     "tensor([180.0000], dtype=tinygrad_edu.float64)"),
    (lambda lib: lib.true_divide(lib.tensor([1, 2]), 2), "tensor([0.5000, 1.0000])"),
    (lambda lib: lib.lerp(lib.tensor([0.0, 1e8]), lib.tensor([1.0, 1.0]), 1.0), "tensor([1., 1.])"),
    (lambda lib: lib.addmm(lib.tensor([[NAN]]), lib.ones(1, 2), lib.ones(2, 1), beta=0), "tensor([[2.]])"),
    (lambda lib: lib.addcdiv(lib.tensor([1.0]), lib.tensor([1.0]), lib.tensor([0.0])), "tensor([inf])"),
    (lambda lib: lib.kron(lib.tensor([1, 2]), lib.tensor([[1, 10]])), "tensor([[ 1, 10,  2, 20]])"),
    (lambda lib: lib.outer(lib.tensor([1, 2]), lib.tensor([1.5])), "tensor([[1.5000],\n        [3.0000]])"),
    (lambda lib: lib.inner(lib.tensor(2.0), lib.tensor([1.0, 3.0])), "tensor([2., 6.])"),
    (lambda lib: lib.dist(lib.tensor([1.0, 2.0]), lib.tensor([1.0, 2.0])), "tensor(0.)"),
    (lambda lib: lib.dist(lib.tensor([1.0, 2.0]), lib.tensor([4.0, -2.0]), 0), "tensor(2.)"),
    (lambda lib: lib.tensordot(lib.ones(2, 3, 4), lib.ones(3, 4, 5)).shape, "tinygrad_edu.Size([2, 5])"),
    (lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(4), dims=0).shape, "tinygrad_edu.Size([2, 3, 4])"),
    (lambda lib: lib.einsum("bi , bi -> b", lib.ones(2, 3), lib.ones(2, 3)), "tensor([3., 3.])"),
]


@pytest.mark.parametrize("case", range(len(SPECIAL)))
def test_special_values_and_dtypes_as_pytorch(case: int) -> None:
    fn, text = SPECIAL[case]
    as_pytorch(fn, (None, text, []))


def test_erf_is_correctly_rounded_in_float32() -> None:
    """math.erf in float64, rounded once: within one float32 step of PyTorch's kernel everywhere (and equal to
    it for almost every input)."""
    a = np.random.default_rng(0).standard_normal(2000).astype(np.float32) * 3
    ours = tg.tensor(a).erf().numpy()
    exact = np.array([math.erf(v) for v in a.astype(np.float64)])
    assert np.abs(ours - exact).max() <= np.spacing(np.float32(1)) / 2
    torch = oracle()
    if torch is not None:
        theirs = torch.erf(torch.from_numpy(a)).numpy()
        assert np.abs(ours - theirs).max() <= np.spacing(np.float32(1))
        assert (ours != theirs).mean() < 0.05


def test_erfinv_inverts_erf() -> None:
    y = np.linspace(-0.999, 0.999, 401)
    x = tg.tensor(y, dtype=tg.float64)
    assert np.allclose(x.erfinv().erf().numpy(), y, rtol=0, atol=1e-15)
    torch = oracle()
    if torch is not None:
        f32 = y.astype(np.float32)
        assert np.allclose(tg.tensor(f32).erfinv().numpy(), torch.erfinv(torch.from_numpy(f32)).numpy(), rtol=2e-6)


# ------------------------------------------------------------------------------------------------ nodes and in place
def _nodes(lib: ModuleType) -> str:
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = lib.ones(2, 2, 2, requires_grad=True)
    results = [lib.addmm(x, x, x), lib.addmm(x, x, x, alpha=2), x.addcmul(x, x), x.addcdiv(x, x), lib.baddbmm(b, b, b),
               v.outer(v), v.inner(v), v.cross(v, dim=0), x.kron(x), lib.tensordot(x, x), v.dist(v),
               lib.cdist(x, x), lib.einsum("ij,jk", x, x), lib.einsum("i,j", v, v), lib.einsum("ij->j", x),
               lib.einsum("ij->ji", x), x.amax(), x.amin(0), x.erf(), x.exp2(), x.deg2rad(), lib.lerp(x, x, x)]
    return " ".join(type(r.grad_fn).__name__ for r in results)


def test_node_names_as_pytorch() -> None:
    as_pytorch(_nodes, (None, "'AddmmBackward0 AddmmBackward0 AddcmulBackward0 AddcdivBackward0 BaddbmmBackward0 "
                              "MulBackward0 ViewBackward0 LinalgCrossBackward0 UnsafeViewBackward0 ViewBackward0 "
                              "DistBackward0 CdistBackward0 ViewBackward0 MulBackward0 SumBackward1 PermuteBackward0 "
                              "AmaxBackward0 AminBackward0 ErfBackward0 Exp2Backward0 Deg2RadBackward0 "
                              "LerpBackward1'", []))


def test_addmm_with_the_default_scales_is_the_linear_layers_node() -> None:
    from tinygrad_edu.ops import linalg

    x = tg.ones(2, 3, requires_grad=True)
    assert tg.addmm(tg.zeros(4), x, tg.ones(3, 4)).grad_fn._forward_cls is linalg.Addmm
    assert tg.addmm(tg.zeros(4), x, tg.ones(3, 4), beta=2).grad_fn._forward_cls is linalg.AddmmScaled


INPLACE = ["erf_", "erfc_", "exp2_", "deg2rad_", "rad2deg_"]


def _in_place(lib: ModuleType, op: str) -> str:
    leaf = lib.tensor([0.25, -0.5, 0.75], requires_grad=True)
    x = leaf * 1
    getattr(x, op)()
    x.sum().backward()
    return f"{x}\n{leaf.grad}"


@pytest.mark.parametrize("op", INPLACE)
def test_in_place_forms_as_pytorch(op: str) -> None:
    as_pytorch(lambda lib: _in_place(lib, op))
    as_pytorch(lambda lib: getattr(lib, op)(lib.tensor([0.5])))


BINARY_INPLACE = [
    (lambda lib, x, y: x.atan2_(y), "tensor([ 0.4636, -0.4636,  2.8198], grad_fn=<Atan2Backward0>)"),
    (lambda lib, x, y: x.hypot_(y), "tensor([1.1180, 2.2361, 3.1623], grad_fn=<HypotBackward0>)"),
    (lambda lib, x, y: x.fmod_(y), "tensor([ 0.5000, -1.0000,  1.0000], grad_fn=<FmodBackward1>)"),
    (lambda lib, x, y: x.lerp_(y, 0.5), "tensor([ 0.7500,  0.5000, -1.0000], grad_fn=<LerpBackward0>)"),
    (lambda lib, x, y: x.true_divide_(y), "tensor([ 0.5000, -0.5000, -0.3333], grad_fn=<DivBackward0>)"),
    (lambda lib, x, y: x.addcmul_(x, y, value=2), "tensor([ 1.5000, -5.0000, -5.0000], grad_fn=<AddcmulBackward0>)"),
    (lambda lib, x, y: x.addcdiv_(x, y), "tensor([ 1.0000, -1.5000,  0.6667], grad_fn=<AddcdivBackward0>)"),
    (lambda lib, x, y: (x.reshape(1, 3) * 1).addmm_(lib.tensor([[2.0]]), y.reshape(1, 3), beta=2),
     "tensor([[ 3.,  2., -4.]], grad_fn=<AddmmBackward0>)"),
]


@pytest.mark.parametrize("case", range(len(BINARY_INPLACE)))
def test_binary_in_place_forms_as_pytorch(case: int) -> None:
    fn, text = BINARY_INPLACE[case]

    def run(lib: ModuleType) -> Any:
        x = lib.tensor([0.5, -1.0, 1.0], requires_grad=True) * 1
        return fn(lib, x, lib.tensor([1.0, 2.0, -3.0]))

    as_pytorch(run, (None, text, []))


# ------------------------------------------------------------------------------------------------ errors
def _x(lib: ModuleType) -> Any:
    return lib.tensor([1.0, 2.0], requires_grad=True)


ERRORS = [
    (lambda lib: lib.tensor([1.0, 2.0]).amax(5), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 5)"),
    (lambda lib: lib.tensor([1.0, 2.0]).amax((0, 0)), RuntimeError, "dim 0 appears multiple times in the list of dims"),
    (lambda lib: lib.tensor([]).amax(), RuntimeError, "amax(): Expected reduction dim to be specified for "
     "input.numel() == 0. Specify the reduction dim with the 'dim' argument."),
    (lambda lib: lib.zeros(2, 0).amin(1), IndexError, "amin(): Expected reduction dim 1 to have non-zero size."),
    (lambda lib: lib.hypot(lib.tensor([1, 2]), lib.tensor([1, 2])), NotImplementedError,
     "\"hypot_cpu\" not implemented for 'Long'"),
    (lambda lib: lib.logaddexp(lib.tensor([1, 2]), lib.tensor([1, 2])), NotImplementedError,
     "\"logaddexp_cpu\" not implemented for 'Long'"),
    (lambda lib: lib.lerp(lib.tensor([1, 2]), lib.tensor([1, 2]), 0.5), NotImplementedError,
     "\"lerp_kernel_scalar\" not implemented for 'Long'"),
    (lambda lib: lib.lerp(_x(lib), _x(lib), lib.tensor([1, 2])), RuntimeError,
     "expected dtype float for `weight` but got dtype long int"),
    (lambda lib: lib.atan2(_x(lib), lib.ones(3)), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    (lambda lib: lib.fmod(lib.tensor([1, 2]), 0), RuntimeError, "ZeroDivisionError"),
    (lambda lib: lib.logaddexp(_x(lib), 2.0), TypeError, "logaddexp(): argument 'other' (position 2) must be Tensor, "
     "not float"),
    (lambda lib: _x(lib).hypot(2.0), TypeError, "hypot(): argument 'other' (position 1) must be Tensor, not float"),
    (lambda lib: _x(lib).arctan2(1), TypeError, "arctan2(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda lib: lib.logical_and(_x(lib), 1), TypeError,
     "logical_and(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda lib: lib.addmm(lib.ones(2, 2), lib.ones(2, 2, dtype=lib.float64), lib.ones(2, 2)), RuntimeError,
     "mat1 and mat2 must have the same dtype, but got Double and Float"),
    (lambda lib: lib.addmm(lib.ones(2, 2), lib.ones(2, 2, dtype=lib.float64), lib.ones(2, 2), beta=2), RuntimeError,
     "mat1 and mat2 must have the same dtype, but got Double and Float"),
    (lambda lib: lib.baddbmm(lib.ones(2, 2, 2, dtype=lib.float64), lib.ones(2, 2, 2), lib.ones(2, 2, 2)), RuntimeError,
     "Input dtypes must be the same, got: input double, batch1: float, batch2: float"),
    (lambda lib: lib.logical_and(_x(lib), lib.ones(3)), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    (lambda lib: lib.addmm(lib.ones(3), lib.ones(2, 3), lib.ones(2, 3)), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
    (lambda lib: lib.addmm(lib.ones(3), lib.ones(2, 2), lib.ones(2, 2)), RuntimeError,
     "The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 1.  "
     "Target sizes: [2, 2].  Tensor sizes: [3]"),
    (lambda lib: lib.addmm(lib.ones(2, 2, dtype=lib.int32), lib.ones(2, 2), lib.ones(2, 2)), RuntimeError,
     "self and mat2 must have the same dtype, but got Int and Float"),
    (lambda lib: lib.baddbmm(lib.ones(2, 2, 2), lib.ones(2, 2, 3), lib.ones(2, 2, 2)), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 2]."),
    (lambda lib: lib.addcmul(lib.ones(3), lib.ones(2), lib.ones(3)), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"),
    (lambda lib: lib.outer(lib.ones(3, 1), lib.ones(2)), RuntimeError,
     "outer: Expected 1-D argument self, but got 2-D"),
    (lambda lib: lib.inner(lib.ones(2, 3), lib.ones(2)), RuntimeError,
     "inner() the last dimension must match on both input tensors but got shapes [2, 3] and [2]"),
    (lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(2, 3), dims=([1], [0])), RuntimeError,
     "contracted dimensions need to match, but first has size 3 in dim 1 and second has size 2 in dim 0"),
    (lambda lib: lib.cross(lib.ones(3, 2), lib.ones(3, 2), dim=1), RuntimeError,
     "linalg.cross: inputs dimension 1 must have length 3. Got 2 and 2"),
    (lambda lib: lib.einsum("ij,jk", lib.ones(2, 3), lib.ones(2, 3)), RuntimeError,
     "einsum(): subscript j has size 2 for operand 1 which does not broadcast with previously seen size 3"),
    (lambda lib: lib.einsum("ij,jk->ik", lib.ones(2, 3)), RuntimeError,
     "einsum(): fewer operands were provided than specified in the equation"),
    (lambda lib: lib.einsum("...ij", lib.ones(2)), RuntimeError,
     "einsum(): the number of subscripts in the equation (2) is more than the number of dimensions (1) for operand 0"),
    (lambda lib: lib.einsum("i->j", lib.ones(2)), RuntimeError,
     "einsum(): output subscript j does not appear in the equation for any input operand"),
    (lambda lib: lib.dist(lib.tensor([1, 2]), lib.tensor([1, 2])), RuntimeError,
     "norm(): input dtype should be either floating point or complex. Got Long instead."),
    (lambda lib: lib.cdist(lib.ones(3, 2), lib.ones(4, 3)), RuntimeError,
     "X1 and X2 must have the same number of columns. X1: 2 X2: 3"),
    (lambda lib: lib.cdist(lib.ones(2), lib.ones(4, 3)), RuntimeError,
     "cdist only supports at least 2D tensors, X1 got: 1D"),
    (lambda lib: lib.cdist(lib.tensor([[1, 2]]), lib.tensor([[1, 2]])), RuntimeError,
     "cdist only supports floating-point dtypes, X1 got: Long"),
    (lambda lib: lib.addcdiv(lib.tensor([1]), lib.tensor([1]), lib.tensor([1])), RuntimeError,
     "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
     "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
     "tinygrad_edu.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
     "tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * "
     "tensor1 / tensor2), for all dtypes."),
    (lambda lib: _x(lib).erf_(), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    (lambda lib: lib.tensor([1, 2]).erf_(), RuntimeError,
     "result type Float can't be cast to the desired output type Long"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_as_pytorch(case: int) -> None:
    raises(*ERRORS[case])


def test_cross_without_dim_warns_as_pytorch() -> None:
    as_pytorch(lambda lib: lib.cross(lib.tensor([[1.0, 0.0, 0.0]]), lib.tensor([[0.0, 1.0, 0.0]])),
               (None, "tensor([[0., 0., 1.]])", ["UserWarning: Using tinygrad_edu.cross without specifying the dim arg "
                "is deprecated.\nPlease either pass the dim explicitly or simply use tinygrad_edu.linalg.cross.\nThe "
                "default value of dim will change to agree with that of linalg.cross in a future release."]))


# ------------------------------------------------------------------------------------------------ cumprod ... logspace
MORE_VALUES = [
    (lambda lib: lib.tensor([[2.0, 0.0, 5.0], [1.0, 3.0, 3.0]]).median(1),
     "tinygrad_edu.return_types.median(\nvalues=tensor([2., 3.]),\nindices=tensor([0, 1]))"),
    (lambda lib: lib.tensor([3.0, 1.0, 1.0, 3.0]).median(0),  # the lower middle value, the later of two ties
     "tinygrad_edu.return_types.median(\nvalues=tensor(1.),\nindices=tensor(2))"),
    (lambda lib: lib.tensor([1.0, NAN, 2.0, NAN]).median(0),
     "tinygrad_edu.return_types.median(\nvalues=tensor(nan),\nindices=tensor(1))"),
    (lambda lib: lib.tensor([1.0, NAN]).median(), "tensor(nan)"),
    (lambda lib: lib.tensor([4, 1, 3, 2]).median(), "tensor(2)"),
    (lambda lib: lib.tensor(5.0).median(0),
     "tinygrad_edu.return_types.median(\nvalues=tensor(5.),\nindices=tensor(0))"),
    (lambda lib: lib.tensor([1, 5, 2]).cumprod(0), "tensor([ 1,  5, 10])"),
    (lambda lib: lib.tensor([True, True, False]).cumprod(0), "tensor([1, 1, 0])"),
    (lambda lib: lib.tensor([1.0, 2.0, 3.0]).cumprod_(0), "tensor([1., 2., 6.])"),
    (lambda lib: lib.tensor([[1, 5], [2, 2]]).cumprod(1, dtype=lib.float64),
     "tensor([[1., 5.],\n        [2., 4.]], dtype=tinygrad_edu.float64)"),
    (lambda lib: lib.tensor([True, False, False]).diff(), "tensor([ True, False])"),
    (lambda lib: lib.tensor([1, 4, 9, 16]).diff(n=2), "tensor([2, 2])"),
    (lambda lib: lib.tensor([1.0, 2.0]).diff(n=5), "tensor([])"),
    (lambda lib: lib.std_mean(lib.tensor([[1.0, 2.0], [3.0, 5.0]], requires_grad=True), 0),
     "(tensor([1.4142, 2.1213], grad_fn=<StdMeanBackward0>), tensor([2.0000, 3.5000], grad_fn=<StdMeanBackward0>))"),
    (lambda lib: lib.var_mean(lib.tensor([1.0, 2.0, 4.0]), unbiased=False), "(tensor(1.5556), tensor(2.3333))"),
    (lambda lib: lib.logspace(0, 2, 3), "tensor([  1.,  10., 100.])"),
    (lambda lib: lib.logspace(0, 1, 3, base=2), "tensor([1.0000, 1.4142, 2.0000])"),
    (lambda lib: lib.logspace(0, 2, 3, dtype=lib.int64), "tensor([  1,  10, 100])"),
    (lambda lib: lib.logspace(-1, 1, 5, dtype=lib.float64)[1:4],
     "tensor([0.3162, 1.0000, 3.1623], dtype=tinygrad_edu.float64)"),
    (lambda lib: lib.trapezoid(lib.tensor([1.0, 2.0, 3.0]), lib.tensor([0.0, 1.0, 3.0])), "tensor(6.5000)"),
    (lambda lib: lib.trapz(lib.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=0), "tensor([2., 3.])"),
    (lambda lib: lib.trapezoid(lib.tensor([1, 2, 3])), "tensor(4.)"),
]


@pytest.mark.parametrize("case", range(len(MORE_VALUES)))
def test_more_values_as_pytorch(case: int) -> None:
    fn, text = MORE_VALUES[case]
    as_pytorch(fn, (None, text, []))


def test_var_mean_warns_when_nothing_is_left_to_divide_by() -> None:
    as_pytorch(lambda lib: lib.var_mean(lib.tensor([1.0]), 0),
               (None, "(tensor(nan), tensor(1.))", ["UserWarning: var_mean(): degrees of freedom is <= 0. Correction "
                "should be strictly less than the reduction factor (input numel divided by output numel)."]))


MORE_ERRORS = [
    (lambda lib: lib.tensor(1.0).diff(), RuntimeError, "diff expects input to be at least one-dimensional"),
    (lambda lib: lib.tensor([1.0, 2.0]).diff(n=-1), RuntimeError, "order must be non-negative but got -1"),
    (lambda lib: lib.zeros(2, 0).median(1), IndexError, "median(): Expected reduction dim 1 to have non-zero size."),
    (lambda lib: lib.var_mean(lib.tensor([1, 2])), RuntimeError,
     "var_mean only support floating point and complex dtypes"),
    (lambda lib: lib.tensor([1.0, 2.0]).cumprod(2), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 2)"),
    (lambda lib: lib.logspace(0, 1, -1), RuntimeError, "number of steps must be non-negative"),
    (lambda lib: lib.tensor([1.0]).median(5), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 5)"),
]


@pytest.mark.parametrize("case", range(len(MORE_ERRORS)))
def test_more_errors_as_pytorch(case: int) -> None:
    raises(*MORE_ERRORS[case])


def test_median_sends_the_gradient_to_its_index_or_shares_it_among_ties() -> None:
    def grads(lib: ModuleType) -> str:
        x = lib.tensor([[1.0, 2.0, 2.0, 3.0], [4.0, 0.0, 4.0, 1.0]], requires_grad=True)
        (by_dim,) = lib.autograd.grad(x.median(1).values.sum(), x)
        (all_ties,) = lib.autograd.grad(x[0].median(), x)
        return f"{by_dim}\n{all_ties}"

    as_pytorch(grads, (None, "'tensor([[0., 1., 0., 0.],\\n        [0., 0., 0., 1.]])\\n"
                             "tensor([[0.0000, 0.5000, 0.5000, 0.0000],\\n        [0.0000, 0.0000, 0.0000, 0.0000]])'",
                       []))


def test_std_mean_with_only_the_mean_used() -> None:
    """An output nobody uses adds nothing to the gradient: here 3 / n for each element, a constant."""
    def grad(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0, 4.0], requires_grad=True)
        (gx,) = lib.autograd.grad(lib.std_mean(x)[1] * 3, x, create_graph=True)
        return gx

    as_pytorch(grad, (None, "tensor([1., 1., 1.])", []))


def test_cumprod_gradient_with_zeros_is_exact_and_fast_without_create_graph() -> None:
    x = tg.tensor([[1.5, 0.0, 2.0, 0.0, 3.0]] * 2, dtype=tg.float64, requires_grad=True)
    x.cumprod(1).sum().backward()
    expected = [1 + 0, 1.5 * (1 + 2 + 0 + 0), 0, 0, 0]  # after the first zero, nothing changes the outputs
    assert np.allclose(x.grad.numpy(), [expected] * 2)
    assert gradgradcheck(lambda t: t.cumprod(1), (x,))


def test_lgamma_digamma_polygamma_are_correctly_rounded() -> None:
    """Computed in float64 and rounded once: within half a float32 step of the float64 values (PyTorch's own
    float32 kernels are further off near digamma's zero at 1.4616 and near the poles)."""
    a = np.concatenate([np.linspace(-9.93, 9.87, 397), np.linspace(0.01, 90, 300)]).astype(np.float32)  # no poles
    exact = {"lgamma": [math.lgamma(v) for v in a.astype(np.float64)]}
    ours = {"lgamma": tg.tensor(a).lgamma().numpy(), "digamma": tg.tensor(a).digamma().numpy(),
            "polygamma": tg.polygamma(2, tg.tensor(a)).numpy()}
    step = np.spacing(np.abs(np.asarray(exact["lgamma"], dtype=np.float32)))
    assert np.all(np.abs(ours["lgamma"] - np.asarray(exact["lgamma"])) <= step / 2)
    wide = tg.tensor(a.astype(np.float64))
    for name, f64 in (("digamma", wide.digamma()), ("polygamma", tg.polygamma(2, wide))):
        near = f64.numpy()
        assert np.all(np.abs(ours[name] - near) <= np.spacing(np.abs(near).astype(np.float32)) * 0.51), name
    torch = oracle()
    if torch is not None:
        reference = torch.from_numpy(a.astype(np.float64))
        assert np.allclose(wide.digamma().numpy(), torch.digamma(reference).numpy(), rtol=1e-13, atol=1e-13)
        assert np.allclose(tg.polygamma(2, wide).numpy(), torch.polygamma(2, reference).numpy(), rtol=1e-12)


GAMMA_SPECIAL = [
    (lambda lib: lib.tensor([0.0, -0.0, -1.0, INF, -INF, NAN, 1e-8, 3.0]).lgamma(),
     "tensor([    inf,     inf,     inf,     inf,     inf,     nan, 18.4207,  0.6931])"),
    (lambda lib: lib.tensor([0.0, -0.0, -1.0, INF, NAN, 1e-8, 3.0]).digamma(),
     "tensor([       -inf,         inf,         nan,         inf,         nan,\n"
     "        -1.0000e+08,  9.2278e-01])"),
    (lambda lib: lib.tensor([1, 2]).lgamma(), "tensor([0., 0.])"),
    (lambda lib: lib.tensor([1, 2]).digamma(), "tensor([-0.5772,  0.4228])"),
    (lambda lib: lib.tensor([0.5, 2.0]).polygamma_(1), "tensor([4.9348, 0.6449])"),
]


@pytest.mark.parametrize("case", range(len(GAMMA_SPECIAL)))
def test_gamma_special_values_as_pytorch(case: int) -> None:
    fn, text = GAMMA_SPECIAL[case]
    as_pytorch(fn, (None, text, []))


def test_polygamma_of_a_negative_order_raises_as_pytorch() -> None:
    raises(lambda lib: lib.polygamma(-1, lib.tensor([1.0])), RuntimeError,
           "polygamma(n, x) does not support negative n.")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_common_powers_are_products_as_in_pytorch(dtype: str) -> None:
    """``x ** 3`` is ``x * x * x``, ``x ** -2`` is ``1 / (x * x)``, ``x ** -0.5`` is ``1 / sqrt(x)`` (and 2, -1 are
    ``x * x`` and ``1 / x``), as PyTorch's pow kernel computes them: not ``pow``, which rounds once and so differs in
    the last bit for about a third of float32 cubes. Bit for bit, values and the cube's gradient, against the
    products written out and, when installed, against PyTorch."""
    x = (np.random.default_rng(0).standard_normal(2000) * 3).astype(dtype)
    x[:4] = [0.0, -0.0, np.inf, -np.inf]
    one = x.dtype.type(1)
    with np.errstate(all="ignore"):
        spelled = {2: x * x, 3: x * x * x, -1: one / x, -2: one / (x * x), -0.5: one / np.sqrt(x)}
    torch = oracle()
    for exponent, expected in spelled.items():
        got = (tg.tensor(x) ** exponent).numpy()
        np.testing.assert_array_equal(got, expected, err_msg=f"x ** {exponent}")
        if torch is not None:
            np.testing.assert_array_equal(got, (torch.from_numpy(x) ** exponent).numpy(), err_msg=f"x ** {exponent}")
    leaf = tg.tensor(x[4:], requires_grad=True)
    (leaf ** 3).sum().backward()
    np.testing.assert_array_equal(leaf.grad.numpy(), (x[4:] * x[4:]) * x.dtype.type(3))
    if torch is not None:
        theirs = torch.tensor(x[4:], requires_grad=True)
        (theirs ** 3).sum().backward()
        np.testing.assert_array_equal(leaf.grad.numpy(), theirs.grad.numpy())
