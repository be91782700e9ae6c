"""PyTorch's less-travelled tensor functions: element-wise odds and ends (sgn, copysign, sinc, i0, nan_to_num,
clamp_min, fmax ...), reductions that skip nans or count (nansum, nanmean, count_nonzero, logcumsumexp), quantiles,
covariance, binning (searchsorted, bucketize, histogram), cutting and combining shapes (ravel, hsplit, block_diag,
cartesian_prod, tril_indices ...) and a few fused products (addbmm, addr, vdot, chain_matmul).

Where PyTorch gives an op a node of its own (``NansumBackward0``, ``SincBackward0`` ...) it is a ``Function`` here,
its math in the docstring and its backward written with Tensor ops, so that it can be differentiated again. Where
PyTorch builds an op from others (cov, corrcoef, quantile, cartesian_prod, ravel ...), it is built here from the
same ops in the same order, so that ``grad_fn`` shows the same nodes.
"""

from __future__ import annotations

import builtins
import functools
import itertools
import math
import warnings
from typing import Any

import numpy as np

from .. import _checks
from .. import _messages as M
from .._dtype import CPP_NAMES, LEGACY_NAMES, float64, from_numpy, number_dtype, promote_types, promoted
from .._printing import Size, return_type
from ..core.function import Function, broadcast_from, wrap
from ..core.tensor import Tensor, _as_tensor
from . import elementwise as ew
from . import numpy_names, selection
from .elementwise import NotDifferentiable, _check_float_kernel, broadcasting
from .shape import _dim, cat, stack, vstack

_float = ew._float


def _short(a: np.ndarray) -> str:
    """PyTorch's short name of a dtype in kernel messages: 'Long', 'Float', 'Bool' ..."""
    return LEGACY_NAMES[from_numpy(a.dtype)].removesuffix("Tensor")


def _pair(x: Any, y: Any, name: str) -> tuple[Tensor, Tensor]:
    """Both operands as tensors (a number is wrapped, as for ``x * 2``), checked to broadcast."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return ew._tensor_pair(x, y)


def _where(mask: np.ndarray, g: Tensor) -> Tensor:
    """g where ``mask`` holds, 0 elsewhere (a product with a constant 0/1 tensor, recorded under create_graph)."""
    return g * wrap(mask.astype(g._array.dtype))


# ------------------------------------------------------------------------------------------------ sgn, positive
class Sgn(Function):
    """sgn(x) = x / |x| (0 at 0): for real numbers the sign, -1, 0 or 1. Flat wherever it has a derivative: dx = 0
    (PyTorch's formula, (g - sgn² g) / |x|, is 0 for a real x)."""

    node_name = "SgnBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        a = x._array
        return a.copy() if a.dtype == np.bool_ else np.sign(a)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return wrap(np.zeros_like(g._array))


def sgn(input: Tensor) -> Tensor:
    return Sgn.apply(input)


def positive(input: Tensor) -> Tensor:
    """``+x``: x itself (PyTorch returns the same tensor); refused for a bool tensor."""
    if input._array.dtype == np.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


# ------------------------------------------------------------------------------------------------ clamp_min, fmax
class ClampMin(Function):
    """max(x, c) for a number c, nan kept:  dx = g where x >= c, 0 below."""

    node_name = "ClampMinBackward0"
    saved_names = ("self",)
    kernel = staticmethod(np.maximum)

    @staticmethod
    def forward(ctx: Any, x: Tensor, c: Any) -> np.ndarray:
        a = x._array
        dt = number_dtype(c, a.dtype)
        ctx.save_for_backward(x)
        ctx._saved_bound = c
        return ctx._forward_cls.kernel(a.astype(dt, copy=False), np.asarray(c, dtype=dt))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        op = np.greater_equal if ctx._forward_cls.kernel is np.maximum else np.less_equal
        return _where(op(x._array, ctx._saved_bound), g), None


class ClampMax(ClampMin):
    """min(x, c) for a number c, nan kept:  dx = g where x <= c, 0 above."""

    node_name = "ClampMaxBackward0"
    kernel = staticmethod(np.minimum)


class ClampMinTensor(Function):
    """max(x, m) with m a tensor:  dx = g where x >= m,  dm = g where x < m."""

    node_name = "ClampMinBackward1"
    saved_names = ("self", "min")
    kernel, keeps_x = staticmethod(np.maximum), staticmethod(np.greater_equal)

    @staticmethod
    def forward(ctx: Any, x: Tensor, m: Tensor) -> np.ndarray:
        ctx.save_for_backward(x, m)
        a, b = broadcasting(ctx, x, m)
        return ctx._forward_cls.kernel(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, m = ctx.saved_tensors
        keep = np.broadcast_to(ctx._forward_cls.keeps_x(x._array, m._array), g._array.shape)
        return (_where(keep, g) if ctx.needs_input_grad[0] else None,
                _where(~keep, g) if ctx.needs_input_grad[1] else None)


class ClampMaxTensor(ClampMinTensor):
    """min(x, m) with m a tensor:  dx = g where x <= m,  dm = g where x > m."""

    node_name = "ClampMaxBackward1"
    saved_names = ("self", "max")
    kernel, keeps_x = staticmethod(np.minimum), staticmethod(np.less_equal)


def clamp_min(input: Tensor, min: Any) -> Tensor:
    """``x.clamp_min(m)`` is ``x.clamp(min=m)`` with PyTorch's node of its own, ClampMinBackward0 (1: m a tensor)."""
    if isinstance(min, Tensor):
        return ClampMinTensor.apply(*ew._tensor_pair(input, min))
    return ClampMin.apply(input, min)


def clamp_max(input: Tensor, max: Any) -> Tensor:
    """``x.clamp_max(m)`` is ``x.clamp(max=m)``: ClampMaxBackward0 (1: m a tensor)."""
    if isinstance(max, Tensor):
        return ClampMaxTensor.apply(*ew._tensor_pair(input, max))
    return ClampMax.apply(input, max)


class Fmax(ClampMinTensor):
    """The larger of x and y, a nan ignored if the other is a number (``maximum`` keeps it). The gradient goes to
    the one chosen (x on ties):  dx = g where x >= y or y is nan,  dy = g elsewhere."""

    node_name = "FmaxBackward0"
    saved_names = ("self", "other")
    kernel = staticmethod(np.fmax)
    keeps_x = staticmethod(lambda a, b: np.greater_equal(a, b) | np.isnan(b))


class Fmin(Fmax):
    """The smaller of x and y, a nan ignored if the other is a number:  dx = g where x <= y or y is nan,
    dy = g elsewhere."""

    node_name = "FminBackward0"
    kernel = staticmethod(np.fmin)
    keeps_x = staticmethod(lambda a, b: np.less_equal(a, b) | np.isnan(b))


def fmax(input: Tensor, other: Tensor) -> Tensor:
    return Fmax.apply(*ew._tensor_pair(input, other, "fmax"))


def fmin(input: Tensor, other: Tensor) -> Tensor:
    return Fmin.apply(*ew._tensor_pair(input, other, "fmin"))


# ------------------------------------------------------------------------------------------------ signs and powers
class Copysign(Function):
    """|x| with the sign of y (of -0. too). Away from 0 it is x or -x:  dx = g * out / x (0 where x = 0); the
    sign of y is flat: dy = 0."""

    node_name = "CopysignBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> Tensor:
        a, b = broadcasting(ctx, x, y)
        if a.dtype.kind != "f":
            a, b = a.astype(np.float32), b.astype(np.float32)
        result = wrap(np.copysign(a, b))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        ratio = result / x
        ratio = ratio.masked_fill(wrap(np.broadcast_to(x._array == 0, ratio._array.shape)), 0)
        dy = wrap(np.zeros(g._array.shape, g._array.dtype)) if ctx.needs_input_grad[1] else None
        return g * ratio if ctx.needs_input_grad[0] else None, dy


class CopysignScalar(Copysign):
    """``copysign(x, c)`` with a number c: as :class:`Copysign`, one input."""

    node_name = "CopysignBackward1"

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return Copysign.backward(ctx, g)[0], None


def copysign(input: Tensor, other: Any) -> Tensor:
    """|input| with the sign of other (a tensor or a number); integers give float32."""
    if isinstance(other, Tensor):
        return Copysign.apply(*ew._tensor_pair(input, other))
    return CopysignScalar.apply(input, _as_tensor(other))


def float_power(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` computed in float64, whatever the dtypes: PyTorch converts both (ToCopyBackward0) and
    takes the power (PowBackward0, 1 or 2)."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError(f"float_power(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    base = input.to(float64) if isinstance(input, Tensor) else float(input)
    return base ** (exponent.to(float64) if isinstance(exponent, Tensor) else float(exponent))


def float_power_(input: Tensor, exponent: Any) -> Tensor:
    if input._array.dtype != np.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {_short(input._array)} but the operation's "
                           "result requires dtype Double")
    return input.pow_(exponent.to(float64) if isinstance(exponent, Tensor) else float(exponent))


class Ldexp(Function):
    """x * 2**e:  dx = g * 2**e,  de = g * x * ln 2 * 2**e."""

    node_name = "LdexpBackward0"
    saved_names = ("other", "self")

    @staticmethod
    def forward(ctx: Any, x: Tensor, e: Tensor) -> np.ndarray:
        ctx.save_for_backward(e, x)
        a, b = broadcasting(ctx, x, e)
        dt = a.dtype if a.dtype.kind == "f" else np.dtype(np.float32)
        return a.astype(dt) * np.exp2(b.astype(dt))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        e, x = ctx.saved_tensors
        power = 2.0 ** e.to(from_numpy(g._array.dtype))
        return (g * power if ctx.needs_input_grad[0] else None,
                g * x * math.log(2.0) * power if ctx.needs_input_grad[1] else None)


def ldexp(input: Tensor, other: Tensor) -> Tensor:
    return Ldexp.apply(*_pair(input, other, "ldexp"))


class Frexp(Function):
    """x = mantissa * 2**exponent, |mantissa| in [0.5, 1): the mantissa is x scaled by a power of two that is
    flat between jumps:  dx = g / 2**exponent. The exponent (int32) has no gradient."""

    node_name = "FrexpBackward0"
    saved_names = ("exponent",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> tuple:
        mantissa, exponent = np.frexp(x._array)
        exp = wrap(exponent.astype(np.int32))
        ctx.mark_non_differentiable(exp)
        ctx.save_for_backward(exp)
        return mantissa, exp

    @staticmethod
    def backward(ctx: Any, g: Tensor, _: Any) -> Tensor:
        (exponent,) = ctx.saved_tensors
        return g / exponent.exp2()


frexp_return = return_type("frexp", "mantissa", "exponent")


def frexp(input: Tensor) -> frexp_return:
    """(mantissa, exponent) with input = mantissa * 2**exponent, as C's frexp."""
    if input._array.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes".replace("torch.", "tinygrad_edu."))
    return frexp_return(*Frexp.apply(input))


class Logaddexp2(Function):
    """log2(2**x + 2**y) without overflow:  dx = g / (1 + 2**(y - x)),  dy = g / (1 + 2**(x - y))."""

    node_name = "Logaddexp2Backward0"
    saved_names = ("self", "other")
    pack_order = (1, 0)

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        ctx.save_for_backward(x, y)
        a, b = broadcasting(ctx, x, y)
        _check_float_kernel(a, "logaddexp2_cpu")
        return np.logaddexp2(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return (g / (2.0 ** (y - x) + 1) if ctx.needs_input_grad[0] else None,
                g / (2.0 ** (x - y) + 1) if ctx.needs_input_grad[1] else None)


def logaddexp2(input: Tensor, other: Tensor) -> Tensor:
    return Logaddexp2.apply(*ew._tensor_pair(input, other, "logaddexp2"))


class Nextafter(Function):
    """The next float after x in the direction of y: x moved by one unit in the last place, so dx = g (PyTorch's
    gradient); y only gives the direction: dy = 0."""

    node_name = "NextafterBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = broadcasting(ctx, x, y)
        _check_float_kernel(a, "nextafter_cpu")
        return np.nextafter(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dy = wrap(np.zeros(g._array.shape, g._array.dtype)) if ctx.needs_input_grad[1] else None
        return g if ctx.needs_input_grad[0] else None, dy


def nextafter(input: Tensor, other: Tensor) -> Tensor:
    return Nextafter.apply(*ew._tensor_pair(input, other, "nextafter"))


class Heaviside(Function):
    """The step function: 0 for x < 0, 1 for x > 0, and ``values`` where x = 0. PyTorch gives it no derivative
    (its node raises if a backward pass reaches it)."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx: Any, op: str, x: Tensor, y: Tensor) -> np.ndarray:
        ctx.op = op
        a, b = x._array, y._array
        if a.dtype != b.dtype:
            raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
        broadcast_from(ctx, x, y)
        return np.where(a == 0, b, a > 0).astype(a.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        raise RuntimeError("derivative for aten::heaviside is not implemented")


Heaviside._backward_cls.name = NotDifferentiable._backward_cls.name


def heaviside(input: Tensor, values: Tensor) -> Tensor:
    x, v = ew._tensor_pair(input, values, "heaviside")
    return Heaviside.apply("heaviside", x, v)


# ------------------------------------------------------------------------------------------------ gcd, lcm, shifts
def _integer_pair(name: str, x: Tensor, other: Any) -> tuple[np.ndarray, np.ndarray]:
    y = _as_tensor(other)
    ew._check_broadcast(x, y)
    a, b = promoted(x, y)
    if a.dtype.kind not in "iu":
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_short(a)}'")
    return a, b


def gcd(input: Tensor, other: Tensor) -> Tensor:
    """The greatest common divisor, element-wise, of integers (no gradient)."""
    return wrap(np.gcd(*_integer_pair("gcd", input, other)))


def lcm(input: Tensor, other: Tensor) -> Tensor:
    """The least common multiple, element-wise, of integers (no gradient)."""
    return wrap(np.lcm(*_integer_pair("lcm", input, other)))


def bitwise_left_shift(input: Any, other: Any) -> Tensor:
    return _as_tensor(input) << other


def bitwise_right_shift(input: Any, other: Any) -> Tensor:
    return _as_tensor(input) >> other


# ------------------------------------------------------------------------------------------------ sinc, i0, mvlgamma
class Sinc(Function):
    """sin(pi x) / (pi x), 1 at 0:  dx = g * (pi x cos(pi x) - sin(pi x)) / (pi x²), 0 at x = 0."""

    node_name = "SincBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        a = _float(x._array)
        t = a * a.dtype.type(math.pi)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(a == 0, a.dtype.type(1), np.sin(t) / t)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        pi_x, pi_x2 = x * math.pi, x * x * math.pi
        out = g * (pi_x * pi_x.cos() - pi_x.sin()) / pi_x2
        return out.masked_fill(wrap(pi_x2._array == 0), 0)


def sinc(input: Tensor) -> Tensor:
    return Sinc.apply(input)


def _i1(a: np.ndarray) -> np.ndarray:
    """The modified Bessel function I1, by its series sum (x/2)^(2k+1) / (k! (k+1)!), in float64: all terms are
    positive, so the sum loses nothing to cancellation; it runs until the terms stop counting."""
    x = a.astype(np.float64)
    half, term = x / 2, x / 2
    total, k = term.copy(), 0
    with np.errstate(over="ignore", invalid="ignore"):
        while np.any(np.abs(term) > 1e-17 * np.abs(total)) and k < 2000:
            k += 1
            term = term * half * half / (k * (k + 1))
            total = total + term
    return total.astype(a.dtype)


class I0(Function):
    """The modified Bessel function of the first kind, order 0: sum (x/2)^(2k) / (k!)².  dx = g * I1(x)."""

    node_name = "I0Backward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        a = _float(x._array)
        return np.i0(a).astype(a.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g * I1.apply(x)


class I1(Function):
    """The modified Bessel function I1 (i0's derivative):  dx = g * (I0(x) - I1(x) / x), 1/2 at x = 0."""

    node_name = "SpecialI1Backward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = wrap(_i1(_float(x._array)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        x, result = ctx.saved_tensors
        a = x._array
        eps = np.finfo(a.dtype).eps
        big = np.abs(a) > eps
        safe = wrap(np.where(big, a, eps).astype(a.dtype))
        grad = I0.apply(safe) - result * safe.reciprocal()
        return g * grad.masked_fill(wrap(~big), 0.5)


def i0(input: Tensor) -> Tensor:
    return I0.apply(input)


class Mvlgamma(Function):
    """The multivariate log-gamma function of dimension p: p(p-1)/4 ln(pi) + sum over j < p of lgamma(x - j/2).
    dx = g * sum over j of digamma(x - j/2)."""

    node_name = "MvlgammaBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, p: int) -> np.ndarray:
        a = _float(x._array)
        ctx.save_for_backward(x)
        ctx._saved_p = p
        shifted = a[..., None] - (np.arange(p, dtype=np.float64) / 2).astype(a.dtype)
        return (ew._lgamma(shifted).sum(-1) + p * (p - 1) / 4 * math.log(math.pi)).astype(a.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        steps = wrap((np.arange(ctx._saved_p, dtype=np.float64) / 2).astype(g._array.dtype))
        return g * (x.unsqueeze(-1) - steps).digamma().sum(-1), None


def mvlgamma(input: Tensor, p: int) -> Tensor:
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return Mvlgamma.apply(input, p)


# ------------------------------------------------------------------------------------------------ nan_to_num, tests
class NanToNum(Function):
    """nan, inf and -inf replaced by numbers (by default 0 and the dtype's largest and smallest): where x was
    finite the output is x, elsewhere a constant:  dx = g * isfinite(x)."""

    node_name = "NanToNumBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, nan: float, posinf: float | None, neginf: float | None) -> np.ndarray:
        ctx.save_for_backward(x)
        a = x._array
        if a.dtype.kind != "f":
            return a.copy()
        return np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return _where(np.isfinite(x._array), g), None, None, None


def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None) -> Tensor:
    return NanToNum.apply(input, nan, posinf, neginf)


def isposinf(input: Tensor) -> Tensor:
    return wrap(np.isposinf(input._array) if input._array.dtype.kind == "f" else np.zeros(input._array.shape, bool))


def isneginf(input: Tensor) -> Tensor:
    return wrap(np.isneginf(input._array) if input._array.dtype.kind == "f" else np.zeros(input._array.shape, bool))


def isreal(input: Tensor) -> Tensor:
    """Whether each element has no imaginary part: all of them, for the real dtypes here."""
    return wrap(np.ones(input._array.shape, dtype=bool))


# ------------------------------------------------------------------------------------------------ renorm
class Renorm(Function):
    """Each slice of x along ``dim`` whose p-norm n is above ``maxnorm`` scaled down to it: out = x * f with
    f = maxnorm / (n + 1e-7) there, 1 elsewhere. Where scaled, both x and f move with x:

        dx = f g - (f / (n + 1e-7)) * dn/dx * sum(x g)    (summed over the slice),    dn/dx = sgn(x) |x|^(p-1) / n^(p-1)
    """

    node_name = "RenormBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, p: float, dim: int, maxnorm: float) -> np.ndarray:
        a = x._array
        ctx.save_for_backward(x)
        ctx._saved_p, ctx._saved_dim, ctx._saved_maxnorm = p, dim, maxnorm
        norm = _slice_norms(a, p, dim)
        t = a.dtype.type
        factor = np.where(norm > maxnorm, t(maxnorm) / (norm + t(1e-7)), t(1))
        return a * factor

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        p, dim, maxnorm = ctx._saved_p, ctx._saved_dim, ctx._saved_maxnorm
        dims = tuple(d for d in range(x.ndim) if d != dim)
        if p == math.inf:  # (the largest |x|: its gradient shared among the elements that reach it)
            norm = x.abs().amax(dims, keepdim=True)
            hit = wrap((np.abs(x._array) == norm._array).astype(g._array.dtype))
            dn = x.sgn() * hit / hit.sum(dims, keepdim=True)
        else:
            norm = x.abs().pow(p).sum(dims, keepdim=True).pow(1 / p) if p != 1 else x.abs().sum(dims, keepdim=True)
            dn = x.sgn() if p == 1 else x * x.abs().pow(p - 2) / norm.pow(p - 1)
        invnorm = (norm + 1e-7).reciprocal()
        factor = invnorm * maxnorm
        sums = (x * g).sum(dims, keepdim=True)
        scaled = factor * g - factor * invnorm * dn * sums
        return selection.where(wrap(norm._array > maxnorm), scaled, g), None, None, None


def _slice_norms(a: np.ndarray, p: float, dim: int) -> np.ndarray:
    dims = tuple(d for d in range(a.ndim) if d != dim)
    if p == math.inf:
        return np.abs(a).max(axis=dims, keepdims=True)
    return (np.abs(a) ** a.dtype.type(p)).sum(axis=dims, keepdims=True) ** a.dtype.type(1 / p)


def renorm(input: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    """Each slice along ``dim`` with a p-norm above ``maxnorm`` scaled down to norm ``maxnorm`` (RenormBackward0)."""
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if input._array.ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input._array.ndim} dimensions")
    _check_float_kernel(input._array, "renorm_out")
    return Renorm.apply(input, p, _dim(dim, input._array.ndim), maxnorm)


# ------------------------------------------------------------------------------------------------ sums that skip nans
def _reduced_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """The dims a reduction runs over: all for None or (), else each wrapped."""
    if dim is None or (isinstance(dim, (tuple, list)) and not len(dim)):
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
    return tuple(sorted(_dim(d, builtins.max(ndim, 1)) for d in dims)) if ndim else ()


class Nansum(Function):
    """The sum with nans counted as 0:  dx = g (broadcast back over the summed dims) where x is not nan, 0 where
    it is."""

    node_name = "NansumBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple[int, ...], keepdim: bool, dtype: Any) -> np.ndarray:
        a = x._array
        ctx.save_for_backward(x)
        ctx.dims, ctx.keepdim = dims, keepdim
        out_dtype = dtype.np if dtype is not None else (np.dtype(np.int64) if a.dtype.kind in "biu" else a.dtype)
        summed = np.nansum(a, axis=dims, keepdims=keepdim) if a.dtype.kind == "f" else a.sum(axis=dims,
                                                                                           keepdims=keepdim)
        return np.asarray(summed).astype(out_dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        shape = x._array.shape
        if not ctx.keepdim and ctx.dims:
            g = g.reshape([1 if d in ctx.dims else n for d, n in enumerate(shape)])
        return _where(~np.isnan(x._array), g.expand(shape)), None, None, None


@numpy_names
def nansum(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """The sum of the elements that are not nan (NansumBackward0)."""
    return Nansum.apply(input, _reduced_dims(dim, input._array.ndim), keepdim, dtype)


@numpy_names
def nanmean(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """The mean of the elements that are not nan: PyTorch's nansum divided by their count (DivBackward0)."""
    if input._array.dtype.kind != "f":
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                           f"{_short(input._array)}")
    count = wrap(~np.isnan(input._array)).sum(dim, keepdim) if dim is not None else \
        wrap(np.asarray((~np.isnan(input._array)).sum(keepdims=keepdim)))
    return nansum(input, dim, keepdim, dtype=dtype) / count


def count_nonzero(input: Tensor, dim: Any = None) -> Tensor:
    """How many elements are not zero, in all or along ``dim`` (an int or a tuple): int64, no gradient."""
    a = input._array
    dims = None if dim is None else _reduced_dims(dim, a.ndim)
    return wrap(np.asarray(np.count_nonzero(a, axis=dims), dtype=np.int64))


class Logcumsumexp(Function):
    """The running log-sum-exp along ``dim``: out[i] = ln(e**x[0] + ... + e**x[i]). Each out[j] for j >= i moves
    with x[i] by softmax weight e**(x[i] - out[j]):  dx[i] = sum over j >= i of g[j] e**(x[i] - out[j]), computed
    as PyTorch does, in logs, for the positive and negative parts of g apart (a reversed logcumsumexp)."""

    node_name = "LogcumsumexpBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> Tensor:
        a = x._array
        _check_float_kernel(a, "logcumsumexp_out_cpu")
        result = wrap(np.logaddexp.accumulate(a, axis=dim) if a.ndim and a.size else a.copy())
        ctx.save_for_backward(x, result)
        ctx._saved_dim = dim
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        if not x._array.ndim:
            return g, None
        dim = ctx._saved_dim
        lowest = float(np.finfo(g._array.dtype).min)

        def reverse_logcumsumexp(t: Tensor) -> Tensor:
            return Logcumsumexp.apply(t.flip(dim), dim).flip(dim)

        log_abs = g.abs().log()
        positive = selection.where(g > 0, log_abs, lowest)
        negative = selection.where(g < 0, log_abs, lowest)
        return ((reverse_logcumsumexp(positive - result) + x).exp()
                - (reverse_logcumsumexp(negative - result) + x).exp()), None


@numpy_names
def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    return Logcumsumexp.apply(input, _dim(dim, builtins.max(input._array.ndim, 1)))


# ------------------------------------------------------------------------------------------------ quantiles
class _SqueezeLast(Function):
    """PyTorch's in-place ``squeeze_(-1)`` inside quantile: the last dim (of size 1) dropped; dx = g unsqueezed."""

    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        return x._array.reshape(x._array.shape[:-1])

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return g.unsqueeze(-1)


class _UnsqueezeFirst(Function):
    """PyTorch's in-place ``unsqueeze_(0)`` inside quantile."""

    node_name = "UnsqueezeBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        return x._array[None]

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return g.squeeze(0)


class _SwapEnds(Function):
    """PyTorch's in-place ``transpose_(0, -1)`` inside quantile."""

    node_name = "TransposeBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        return np.swapaxes(x._array, 0, -1)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return g.transpose(0, -1)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(name: str, input: Tensor, q: Any, dim: int | None, keepdim: bool, interpolation: str,
              ignore_nan: bool) -> Tensor:
    """PyTorch's quantile_compute: the sorted values, the rank of each q among them (q * (n - 1)), and the values
    at the ranks below and above, interpolated (GatherBackward0, LerpBackward1)."""
    a = input._array
    if a.dtype.kind != "f":
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    if not a.size:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if isinstance(q, Tensor):
        if q._array.ndim > 1:
            raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
        if q._array.dtype != a.dtype:
            raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
        qa = q._array
        if np.any((qa < 0) | (qa > 1)):
            raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    else:
        if not 0 <= q <= 1:
            raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q:g}")
        qa = np.asarray(q, dtype=a.dtype)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest, but "
                           f"got {interpolation}")
    out_shape: list[int] = []
    if dim is not None and a.ndim:
        d = _dim(dim, a.ndim)
        out_shape = list(a.shape)
        if keepdim:
            out_shape[d] = 1
        else:
            del out_shape[d]
        ordered = (input if d == a.ndim - 1 else input.unsqueeze(-1).transpose(d, -1)).sort()[0]
    else:
        if dim is not None:
            _dim(dim, 1)
        if keepdim:
            out_shape = [1] * a.ndim
        ordered = input.flatten().sort()[0]
    out_shape.insert(0, qa.size if qa.ndim else 1)
    ordered = ordered.view([*out_shape[1:], ordered.shape[-1]])
    s = ordered._array
    last = s.shape[-1] - 1
    if ignore_nan:
        ranks = qa.reshape(-1) * (np.sum(~np.isnan(s), axis=-1, keepdims=True) - 1).astype(a.dtype)
        ranks = np.where(ranks < 0, a.dtype.type(0), ranks)
    else:
        ranks = np.where(np.isnan(s).any(-1, keepdims=True), a.dtype.type(last), qa.reshape(-1) * a.dtype.type(last))
    ranks = {"lower": np.floor, "higher": np.ceil, "nearest": np.rint}.get(interpolation, lambda r: r)(ranks)
    below = ranks.astype(np.int64)
    values = ordered.gather(-1, wrap(below))
    if interpolation in ("linear", "midpoint"):
        weights = np.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below.astype(a.dtype)
        values = values.lerp(ordered.gather(-1, wrap(np.ceil(ranks).astype(np.int64))), wrap(weights))
    if qa.ndim == 0:
        return _SqueezeLast.apply(values)
    return _SqueezeLast.apply(_SwapEnds.apply(_UnsqueezeFirst.apply(values)))


@numpy_names
def quantile(input: Tensor, q: Any, dim: int | None = None, keepdim: bool = False, *,
             interpolation: str = "linear") -> Tensor:
    """The q-th quantiles (q in [0, 1], a number or a 1-d tensor) of all elements or along ``dim``; a nan
    anywhere in a row makes its quantiles nan. ``interpolation`` between the two nearest sorted values: 'linear',
    'lower', 'higher', 'midpoint' or 'nearest'."""
    return _quantile("quantile", input, q, dim, keepdim, interpolation, False)


@numpy_names
def nanquantile(input: Tensor, q: Any, dim: int | None = None, keepdim: bool = False, *,
                interpolation: str = "linear") -> Tensor:
    """quantile with the nans left out (a row of nans only gives nan)."""
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, True)


# ------------------------------------------------------------------------------------------------ cov, corrcoef
def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """The covariance matrix of the variables in the rows of ``input`` (observations in the columns), as PyTorch
    builds it: the weighted means taken off, then ``mm(x, (x * w).t()) / (sum(w) - correction)`` squeezed."""
    a = input._array
    if a.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with {a.ndim} "
                           "dimensions")
    if a.dtype == np.bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if a.ndim < 2 else input
    n = x.shape[1]
    w = None
    for name, weights in (("fweights", fweights), ("aweights", aweights)):
        if weights is None:
            continue
        wa = weights._array
        if wa.ndim > 1:
            raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                               f"{wa.ndim} dimensions")
        if name == "fweights" and wa.dtype.kind not in "iu":
            raise RuntimeError(f"cov(): expected fweights to have integral dtype but got fweights with "
                               f"{_short(wa)} dtype")
        if name == "aweights" and wa.dtype.kind != "f":
            raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got aweights with "
                               f"{_short(wa)} dtype")
        if wa.size != n:
            raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in the "
                               f"input but got {wa.size} != {n}")
        if n and wa.min() < 0:
            raise RuntimeError(f"cov(): {name} cannot be negative")
        w = weights if w is None else w * weights
    w_sum = w.sum() if w is not None else wrap(np.asarray(n, dtype=np.int64))
    if w is not None and not w_sum._array:
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is not None and aweights is not None and correction != 0:
        norm_factor = w_sum - _times((w * aweights).sum(), correction) / w_sum
    else:
        norm_factor = w_sum - correction
    if norm_factor._array <= 0:
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=2)
        norm_factor = wrap(np.zeros_like(norm_factor._array))
    x = x - avg.unsqueeze(1)
    c = x.mm((x * w if w is not None else x).t())
    return (c / norm_factor).squeeze()


def corrcoef(input: Tensor) -> Tensor:
    """Pearson's correlation coefficients of the rows: cov divided by the standard deviations of both rows,
    clipped to [-1, 1] (PyTorch's ops: DivBackward0 twice, ClampBackward1)."""
    if input._array.ndim > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{input._array.ndim} dimensions")
    c = cov(input)
    if c._array.ndim == 0:
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)


# ------------------------------------------------------------------------------------------------ areas, slopes
def cumulative_trapezoid(y: Tensor, x: Tensor | None = None, *, dx: float | None = None, dim: int = -1) -> Tensor:
    """The running area under y by the trapezoid rule: spacing ``dx`` (1 by default) or the points ``x``."""
    d = _dim(dim, builtins.max(y._array.ndim, 1))
    if x is not None and dx is not None:
        raise TypeError("cumulative_trapezoid() received an invalid combination of arguments")
    n = y.shape[d]
    left, right = y.narrow(d, 0, builtins.max(n - 1, 0)), y.narrow(d, builtins.min(1, n), builtins.max(n - 1, 0))
    if x is None:
        return _times(left + right, (1.0 if dx is None else dx) / 2.0).cumsum(d)
    if x._array.ndim == 1:
        if x.shape[0] != n:
            raise RuntimeError(f"trapezoid: There must be one `x` value for each sample point, but got "
                               f"{x.shape[0]} x values and {n} y values along dimension {d}")
        x = x.view([-1 if i == d else 1 for i in range(y._array.ndim)])
    m = x.shape[d]
    step = x.narrow(d, builtins.min(1, m), builtins.max(m - 1, 0)) - x.narrow(d, 0, builtins.max(m - 1, 0))
    return ew.DivScalar.apply(((left + right) * step).cumsum(d), 2.0)


def _times(t: Tensor, c: float) -> Tensor:
    """``t * c`` as PyTorch's C++ formulas record it (MulBackward1)."""
    return ew.MulScalar.apply(t, c)


def gradient(input: Tensor, *, spacing: Any = 1, dim: Any = None, edge_order: int = 1) -> tuple[Tensor, ...]:
    """The slope of ``input`` along each dim (or ``dim``), by central differences inside and one-sided ones
    (``edge_order`` 1 or 2) at the ends; ``spacing``: a number, one per dim, or the coordinates (1-d tensors)."""
    a = input._array
    dims = list(range(a.ndim)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    dims = [_dim(d, a.ndim) for d in dims]
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.".replace(
            "torch.", "tinygrad_edu."))
    for d in dims:
        if a.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1".replace(
                "torch.", "tinygrad_edu."))
    spacings = list(spacing) if isinstance(spacing, (list, tuple)) else [spacing] * len(dims)
    if len(spacings) != len(dims):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           f"arguments to have the same length, but got a spacing argument of length "
                           f"{len(spacings)} and a dim argument of length {len(dims)}.".replace(
                               "torch.", "tinygrad_edu."))
    out = []
    for d, h in zip(dims, spacings, strict=True):
        def s(start: int, stop: int | None = None, d: int = d) -> Tensor:
            n = a.shape[d]
            begin = start % n if start < 0 else start
            end = n if stop is None else stop % n if stop < 0 else stop
            return input.narrow(d, begin, end - begin)

        if isinstance(h, Tensor):
            out.append(_gradient_coordinates(input, s, h, d, edge_order))
            continue
        h = float(h)
        center = ew.DivScalar.apply(s(2) - s(0, -2), h)
        if edge_order == 1:
            prepend = ew.DivScalar.apply(s(1, 2) - s(0, 1), h)
            append = ew.DivScalar.apply(s(-1) - s(-2, -1), h)
        else:
            prepend = ew.DivScalar.apply(_times(s(0, 1), -1.5) + _times(s(1, 2), 2)
                                         - _times(s(2, 3), 0.5), h)
            append = ew.DivScalar.apply(_times(s(-3, -2), 0.5) - _times(s(-2, -1), 2)
                                        + _times(s(-1), 1.5), h)
        out.append(cat([prepend, ew.DivScalar.apply(center, 2.0), append], d))
    return tuple(out)


def _gradient_coordinates(input: Tensor, s: Any, coordinates: Tensor, d: int, edge_order: int) -> Tensor:
    shape = [1] * input._array.ndim
    shape[d] = -1
    h = coordinates.diff(1, 0)
    dx1, dx2 = h[:-1], h[1:]
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * s(0, -2) + b * s(1, -1) + c * s(2)
    if edge_order == 1:
        prepend = (s(1, 2) - s(0, 1)) / h[0]
        append = (s(-1) - s(-2, -1)) / h[-1]
    else:
        a = -(2.0 * h[0] + h[1]) / (h[0] * (h[0] + h[1]))
        b = (h[0] + h[1]) / (h[0] * h[1])
        c = (-h[0]) / (h[1] * (h[0] + h[1]))
        prepend = a * s(0, 1) + b * s(1, 2) + c * s(2, 3)
        a = h[-1] / (h[-2] * (h[-1] + h[-2]))
        b = -(h[-1] + h[-2]) / (h[-1] * h[-2])
        c = (2 * h[-1] + h[-2]) / (h[-1] * (h[-1] + h[-2]))
        append = a * s(-3, -2) + b * s(-2, -1) + c * s(-1)
    return cat([prepend, center, append], d)


# ------------------------------------------------------------------------------------------------ binning
def _search(boundaries: np.ndarray, values: np.ndarray, right: bool) -> np.ndarray:
    side = "right" if right else "left"
    if boundaries.ndim <= 1:
        return np.searchsorted(boundaries, values, side=side)
    rows_b = boundaries.reshape(-1, boundaries.shape[-1])
    rows_v = values.reshape(-1, values.shape[-1])
    return np.stack([np.searchsorted(b, v, side=side) for b, v in zip(rows_b, rows_v, strict=True)]).reshape(
        values.shape)


def searchsorted(sorted_sequence: Tensor, input: Any, *, out_int32: bool = False, right: bool = False,
                 side: str | None = None, sorter: Tensor | None = None) -> Tensor:
    """Where each value of ``input`` would go in the sorted innermost rows of ``sorted_sequence`` to keep them
    sorted: the first such place, or the last with ``right=True`` (``side='right'``). int64 (``out_int32``: int32)."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("tinygrad_edu.searchsorted(): side and right can't be set to opposites, got side of "
                               "left while right was True")
        right = side == "right"
    b = sorted_sequence._array
    if sorter is not None:
        b = np.take_along_axis(b, sorter._array, -1)
    scalar = not isinstance(input, Tensor)
    v = np.asarray(input) if scalar else input._array
    if b.ndim > 1 and (v.ndim != b.ndim or v.shape[:-1] != b.shape[:-1]):
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           f"dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor [{', '.join(map(str, b.shape))}] and input value tensor "
                           f"[{', '.join(map(str, v.shape))}]".replace("torch.", "tinygrad_edu."))
    out = _search(b, v, right)
    return wrap(np.asarray(out, dtype=np.int32 if out_int32 else np.int64))


def bucketize(input: Any, boundaries: Tensor, *, out_int32: bool = False, right: bool = False) -> Tensor:
    """The bucket of each value: its place among the 1-d sorted ``boundaries`` (``right``: a value equal to a
    boundary goes after it)."""
    if boundaries._array.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries._array.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


histogram_return = return_type("histogram", "hist", "bin_edges")


def histogram(input: Tensor, bins: Any = 100, *, range: Any = None, weight: Tensor | None = None,
              density: bool = False) -> histogram_return:
    """(hist, bin_edges): ``bins`` equal bins over ``range`` (default: the data's smallest and largest values) or
    the edges ``bins`` (a 1-d tensor); the last bin includes its right edge. ``weight``: each element counts its
    weight; ``density``: the counts divided by their total and the bin widths. Not differentiable."""
    a = input._array
    if a.dtype.kind != "f":
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{_short(a)}'")
    t = a.dtype.type
    if isinstance(bins, Tensor):
        edges = bins._array.astype(a.dtype)
        if edges.ndim != 1:
            raise RuntimeError(f"torch.histogramdd(): bins tensor should have one dimension, but got "
                               f"{edges.ndim} dimensions in the bins tensor for dimension 0".replace(
                                   "torch.", "tinygrad_edu."))
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogramdd(): bins must be > 0, but got {bins} for dimension 0".replace(
                "torch.", "tinygrad_edu."))
        if range is not None:
            lo, hi = t(range[0]), t(range[1])
        elif a.size:
            lo, hi = a.min(), a.max()
        else:
            lo, hi = t(0), t(0)
        if lo > hi:
            raise RuntimeError(f"torch.histogramdd(): min should not exceed max, but got min {lo:g} max {hi:g} for "
                               "dimension 0".replace("torch.", "tinygrad_edu."))
        if lo == hi:
            lo, hi = lo - t(0.5), hi + t(0.5)
        i = np.arange(bins + 1)
        step = (hi - lo) / t(bins)
        edges = np.where(i < (bins + 1) // 2, lo + step * i.astype(a.dtype), hi - step * (bins - i).astype(a.dtype))
    n = edges.size - 1
    flat = a.reshape(-1)
    keep = (flat >= edges[0]) & (flat <= edges[-1])
    pos = np.minimum(np.searchsorted(edges, flat[keep], side="right") - 1, n - 1)
    w = None if weight is None else weight._array.reshape(-1)[keep].astype(np.float64)
    hist = np.bincount(pos, weights=w, minlength=n).astype(a.dtype)
    if density:
        hist = hist / (hist.sum() * np.diff(edges))
    return histogram_return(wrap(hist.astype(a.dtype)), wrap(edges.astype(a.dtype)))


def argwhere(input: Tensor) -> Tensor:
    """The index of each nonzero element, one row each (``nonzero``)."""
    return selection.nonzero(input)


def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Any:
    """Each run of equal consecutive elements (rows along ``dim``) kept once; ``return_inverse``: the run each
    element belongs to; ``return_counts``: how long each run is. No gradient."""
    a = input._array
    if dim is None:
        flat = a.reshape(-1)
        starts = np.ones(flat.size, dtype=bool)
        starts[1:] = flat[1:] != flat[:-1]
        values = flat[starts]
        inverse = (np.cumsum(starts) - 1).reshape(a.shape)
    else:
        d = _dim(dim, builtins.max(a.ndim, 1))
        moved = np.moveaxis(a, d, 0).reshape(a.shape[d], -1)
        starts = np.ones(moved.shape[0], dtype=bool)
        starts[1:] = np.any(moved[1:] != moved[:-1], axis=1)
        values = np.compress(starts, a, axis=d)
        inverse = np.cumsum(starts) - 1
    counts = np.diff(np.append(np.flatnonzero(starts), starts.size))
    out = [wrap(values)]
    if return_inverse:
        out.append(wrap(inverse.astype(np.int64)))
    if return_counts:
        out.append(wrap(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


# ------------------------------------------------------------------------------------------------ shapes
def ravel(input: Tensor) -> Tensor:
    """The elements in one row, in order: ``contiguous().view(-1)`` (a copy first if x is not contiguous)."""
    return input.contiguous().view(-1)


def adjoint(input: Tensor) -> Tensor:
    """The conjugate transpose of the last two dims; for real numbers the transpose (TransposeBackward0)."""
    if input._array.ndim < 2:
        raise RuntimeError(f"tensor.adjoint() is only supported on matrices or batches of matrices. Got "
                           f"{input._array.ndim}-D tensor.")
    return input.transpose(-2, -1)


def _split_along(name: str, dim: int, least: int, input: Tensor, sections: Any) -> tuple[Tensor, ...]:
    nd = input._array.ndim
    if nd < least:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {least} dimension, but got a tensor with "
                           f"{nd} dimensions!".replace("torch.", "tinygrad_edu."))
    if isinstance(sections, (int, np.integer)):
        size = input._array.shape[dim]
        if sections == 0 or size % sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension "
                               f"{size} is not divisible by the split_size {sections}!".replace(
                                   "torch.", "tinygrad_edu."))
    return input.tensor_split(sections, dim)


def hsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    """Split into columns: along dim 1 (dim 0 for a 1-d tensor), into equal parts or at the indices given."""
    return _split_along("hsplit", 1 if input._array.ndim > 1 else 0, 1, input, indices_or_sections)


def vsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    return _split_along("vsplit", 0, 2, input, indices_or_sections)


def dsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    return _split_along("dsplit", 2, 3, input, indices_or_sections)


def broadcast_shapes(*shapes: Any) -> Size:
    """The shape that tensors of these shapes broadcast to (PyTorch's error if they do not)."""
    out: list[int] = []
    for i, s in enumerate(shapes):
        s = (s,) if isinstance(s, (int, np.integer)) else tuple(s)
        out = [1] * (len(s) - len(out)) + out
        for k in range(-1, -len(s) - 1, -1):
            if s[k] != 1 and out[k] not in (1, s[k]):
                raise RuntimeError(f"Attempting to broadcast a dimension of length {s[k]} at {k}! Mismatching "
                                   f"argument at index {i} had {s}; but expected shape should be broadcastable to "
                                   f"[{', '.join(map(str, out))}]")
            out[k] = out[k] if s[k] == 1 else s[k]
    return Size(out)


def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    """Each tensor expanded to the common shape (ExpandBackward0), a tensor already of that shape as it is."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape: tuple[int, ...] = ()
    for t in tensors:  # (pairwise, as tensors broadcast: "The size of tensor a (2) must match ...")
        shape = _checks.broadcast_shapes(shape, t._array.shape)
    return tuple(t if t._array.shape == shape else t.expand(shape) for t in tensors)


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """A square matrix with the elements of x (flattened) on its ``offset``-th diagonal."""
    return input.contiguous().view(-1).diag(offset)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 layout: Any = None) -> Tensor:
    """The (row, column) indices of the lower triangle of a row x col matrix, a 2 x N tensor, row by row."""
    r, c = np.tril_indices(row, offset, col)
    return wrap(np.stack([r, c]).astype(np.int64 if dtype is None else dtype.np).reshape(2, -1))


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 layout: Any = None) -> Tensor:
    """The (row, column) indices of the upper triangle of a row x col matrix, a 2 x N tensor, row by row."""
    r, c = np.triu_indices(row, offset, col)
    return wrap(np.stack([r, c]).astype(np.int64 if dtype is None else dtype.np).reshape(2, -1))


def _vectors(name: str, tensors: tuple) -> None:
    for t in tensors:
        if t._array.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape [{', '.join(map(str, t._array.shape))}]")


def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Every combination of one element from each 1-d tensor, one row each (as ``itertools.product``), built as
    PyTorch builds it: a meshgrid of the vectors, each flattened, stacked as columns."""
    _vectors("cartesian_prod", tensors)
    if len(tensors) == 1:
        return tensors[0]
    grids = _meshgrid(tensors)
    return stack([g.flatten() for g in grids], 1)


def _meshgrid(tensors: tuple) -> list[Tensor]:
    shape = [t._array.shape[0] for t in tensors]
    grids = []
    for i, t in enumerate(tensors):
        view = [1] * len(tensors)
        view[i] = -1
        grids.append(t.view(view).expand(shape))
    return grids


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """Every r elements of the 1-d tensor in order (``itertools.combinations``; ``with_replacement``: an element
    may repeat), one row each: PyTorch's meshgrid of r copies, the places in order picked by masked_select."""
    _vectors("combinations", (input,))
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return wrap(np.empty(0, input._array.dtype))
    n = input._array.shape[0]
    grids = _meshgrid((input,) * r)
    index = np.indices((n,) * r)
    mask = np.ones((n,) * r, dtype=bool)
    for a, b in itertools.pairwise(index):
        mask &= (a <= b) if with_replacement else (a < b)
    return stack([g.masked_select(wrap(mask)) for g in grids], 1)


def row_stack(tensors: Any) -> Tensor:
    """``vstack``'s older name."""
    return vstack(tensors)


class BlockDiag(Function):
    """The matrices (a 1-d tensor is a row, a 0-d one a 1 x 1 block) on the diagonal of one matrix, zeros
    elsewhere, in their common dtype. Each input's gradient is its block of g."""

    node_name = "BlockDiagBackward0"

    @staticmethod
    def forward(ctx: Any, *tensors: Tensor) -> np.ndarray:
        blocks = [t._array.reshape(1, -1) if t._array.ndim < 2 else t._array for t in tensors]
        for i, t in enumerate(tensors):
            if t._array.ndim > 2:
                raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                                   f"{t._array.ndim} dimensions".replace("torch.", "tinygrad_edu."))
        dt = functools.reduce(promote_types, [b.dtype for b in blocks]) if blocks else np.dtype(np.float32)
        out = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)), dtype=dt)
        ctx.places, r, c = [], 0, 0
        for t, b in zip(tensors, blocks, strict=True):
            out[r:r + b.shape[0], c:c + b.shape[1]] = b
            ctx.places.append((r, c, b.shape, t._array.shape, t._array.dtype))
            r, c = r + b.shape[0], c + b.shape[1]
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return tuple(g[r:r + shape[0], c:c + shape[1]].reshape(own).to(from_numpy(dt)) if need else None
                     for (r, c, shape, own, dt), need in zip(ctx.places, ctx.needs_input_grad, strict=True))


def block_diag(*tensors: Tensor) -> Tensor:
    return BlockDiag.apply(*tensors)


class NarrowCopy(Function):
    """``x.narrow(dim, start, length)`` as a new tensor (not a view):  dx = g in that slice, 0 elsewhere."""

    node_name = "NarrowCopyBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, start: int, length: int) -> np.ndarray:
        ctx.shape, ctx.dim, ctx.start, ctx.length = x._array.shape, dim, start, length
        key = (slice(None),) * dim + (slice(start, start + length),)
        return x._array[key].copy()

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        n, d = ctx.shape[ctx.dim], ctx.dim
        before = [*ctx.shape[:d], ctx.start, *ctx.shape[d + 1:]]
        after = [*ctx.shape[:d], n - ctx.start - ctx.length, *ctx.shape[d + 1:]]
        zeros = [wrap(np.zeros(s, g._array.dtype)) for s in (before, after)]
        return cat([zeros[0], g, zeros[1]], d), None, None, None


def narrow_copy(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    a = input._array
    d = _dim(dim, builtins.max(a.ndim, 1))
    input.narrow(d, start, length)  # (narrow's checks and messages)
    start = start + a.shape[d] if start < 0 else start
    return NarrowCopy.apply(input, d, start, length)


class MaskedScatter(Function):
    """x with the places where ``mask`` holds filled, in order, by the first elements of ``source``:
    dx = g with 0 at those places;  dsource = g's elements at those places, in order (zeros for the rest)."""

    node_name = "MaskedScatterBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, mask: Tensor, source: Tensor) -> np.ndarray:
        a, m, src = x._array, mask._array, source._array
        if m.dtype != np.bool_:
            raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {_short(m)}")
        if a.dtype != src.dtype:
            raise RuntimeError(f"masked_scatter_: expected self and source to have same dtypes but got "
                               f"{_short(a)} and {_short(src)}")
        shape = np.broadcast_shapes(a.shape, m.shape)
        m = np.broadcast_to(m, shape)
        count = int(m.sum())
        if count > src.size:
            raise RuntimeError("Number of elements of source < number of ones in mask")
        broadcast_from(ctx, x)
        out = np.array(np.broadcast_to(a, shape))
        out[m] = src.reshape(-1)[:count]
        ctx.mask, ctx.source_shape = m, src.shape
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        m = wrap(ctx.mask)
        dx = g.masked_fill(m, 0) if ctx.needs_input_grad[0] else None
        ds = None
        if ctx.needs_input_grad[2]:
            picked = g.masked_select(m)
            size = int(np.prod(ctx.source_shape))
            ds = cat([picked, wrap(np.zeros(size - picked.shape[0], g._array.dtype))], 0).view(ctx.source_shape)
        return dx, None, ds


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    return MaskedScatter.apply(input, mask, source)


class Put(Function):
    """x with the elements at the flat ``index`` replaced by (``accumulate``: increased by) ``source``:
    dx = g (0 at the replaced places unless accumulating);  dsource = g at the indices (``take``)."""

    node_name = "PutBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, index: Tensor, source: Tensor, accumulate: bool) -> np.ndarray:
        a, idx, src = x._array, index._array, source._array
        if idx.size != src.size:
            raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                             f"source.numel() = {src.size}, index.numel() = {idx.size}")
        flat_idx = idx.reshape(-1)
        for i in flat_idx:
            if not -a.size <= i < a.size:
                raise IndexError(f"out of range: tried to access index {i} on a tensor of {a.size} elements.")
        flat_idx = np.where(flat_idx < 0, flat_idx + a.size, flat_idx)
        out = a.copy().reshape(-1)
        if accumulate:
            np.add.at(out, flat_idx, src.reshape(-1))
        else:
            out[flat_idx] = src.reshape(-1)
        ctx.index, ctx.accumulate, ctx.source_shape = flat_idx, accumulate, src.shape
        return out.reshape(a.shape)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dx = None
        if ctx.needs_input_grad[0]:
            if ctx.accumulate:
                dx = g
            else:
                keep = np.ones(g._array.size, dtype=bool)
                keep[ctx.index] = False
                dx = _where(keep.reshape(g._array.shape), g)
        ds = g.reshape(-1)[wrap(ctx.index)].reshape(ctx.source_shape) if ctx.needs_input_grad[2] else None
        return dx, None, ds, None


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    return Put.apply(input, index, source, accumulate)


# ------------------------------------------------------------------------------------------------ products
class Addbmm(Function):
    """beta * input + alpha * sum over b of batch1[b] @ batch2[b]:
    dinput = beta g (summed down),  dbatch1[b] = alpha g @ batch2[b]ᵀ,  dbatch2[b] = alpha batch1[b]ᵀ @ g."""

    node_name = "AddbmmBackward0"
    saved_names = ("batch1", "batch2")

    @staticmethod
    def forward(ctx: Any, input: Tensor, b1: Tensor, b2: Tensor, beta: float, alpha: float) -> np.ndarray:
        a, x, y = input._array, b1._array, b2._array
        if x.ndim != 3:
            raise RuntimeError("batch1 must be a 3D tensor")
        if y.ndim != 3:
            raise RuntimeError("batch2 must be a 3D tensor")
        if x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
            raise RuntimeError(f"Incompatible matrix sizes for bmm ({x.shape[1]}x{x.shape[2]} and "
                               f"{y.shape[1]}x{y.shape[2]})")
        ctx.save_for_backward(b1, b2)
        ctx._saved_beta, ctx._saved_alpha = beta, alpha
        broadcast_from(ctx, input)
        product = np.einsum("bij,bjk->ik", x, y) if x.shape[0] else np.zeros((x.shape[1], y.shape[2]), x.dtype)
        t = product.dtype.type
        base = np.zeros_like(product) if beta == 0 else np.broadcast_to(a, product.shape) * t(beta)
        return base + product * t(alpha)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        b1, b2 = ctx.saved_tensors
        beta, alpha = ctx._saved_beta, ctx._saved_alpha
        n = b1.shape[0]
        gb = g.unsqueeze(0).expand(n, *g.shape)
        return (g * beta if ctx.needs_input_grad[0] else None,
                gb.bmm(b2.transpose(1, 2)) * alpha if ctx.needs_input_grad[1] else None,
                b1.transpose(1, 2).bmm(gb) * alpha if ctx.needs_input_grad[2] else None, None, None)


def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    return Addbmm.apply(input, batch1, batch2, beta, alpha)


class Addr(Function):
    """beta * input + alpha * outer(vec1, vec2):  dinput = beta g,  dvec1 = alpha g @ vec2,
    dvec2 = alpha gᵀ @ vec1."""

    node_name = "AddrBackward0"
    saved_names = ("vec1", "vec2")

    @staticmethod
    def forward(ctx: Any, input: Tensor, v1: Tensor, v2: Tensor, beta: float, alpha: float) -> np.ndarray:
        a, x, y = input._array, v1._array, v2._array
        if x.ndim != 1 or y.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {x.ndim}-D" if x.ndim != 1 else
                               f"addr: Expected 1-D argument vec2, but got {y.ndim}-D")
        ctx.save_for_backward(v1, v2)
        ctx._saved_beta, ctx._saved_alpha = beta, alpha
        broadcast_from(ctx, input)
        product = np.outer(x, y)
        dt = np.result_type(a.dtype, product.dtype)
        t = dt.type
        base = np.zeros(product.shape, dt) if beta == 0 else np.broadcast_to(a, product.shape) * t(beta)
        return (base + product.astype(dt) * t(alpha)).astype(dt)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        v1, v2 = ctx.saved_tensors
        beta, alpha = ctx._saved_beta, ctx._saved_alpha
        return (g * beta if ctx.needs_input_grad[0] else None,
                g.mv(v2) * alpha if ctx.needs_input_grad[1] else None,
                g.t().mv(v1) * alpha if ctx.needs_input_grad[2] else None, None, None)


def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    return Addr.apply(input, vec1, vec2, beta, alpha)


class Vdot(Function):
    """The dot product of two 1-d tensors (the first conjugated, which changes nothing for real numbers):
    dx = g * y,  dy = g * x."""

    node_name = "VdotBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = x._array, y._array
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
        if a.dtype != b.dtype:
            raise RuntimeError(f"vdot : expected both vectors to have same dtype, but found {_short(a)} and "
                               f"{_short(b)}")
        if a.shape != b.shape:
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.size}] and src [{b.size}] to have the "
                               f"same number of elements, but got {a.size} and {b.size} elements respectively")
        ctx.save_for_backward(x, y)
        return np.asarray(np.dot(a, b))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return (g * y if ctx.needs_input_grad[0] else None, g * x if ctx.needs_input_grad[1] else None)


def vdot(input: Tensor, other: Tensor) -> Tensor:
    return Vdot.apply(input, other)


def chain_matmul(*matrices: Tensor) -> Tensor:
    """The product of the matrices, in the order of multiplications that costs least (``linalg.multi_dot``, which
    PyTorch now recommends: it warns that chain_matmul is deprecated)."""
    M.warn_once("chain_matmul", "tinygrad_edu.chain_matmul is deprecated and will be removed in a future PyTorch "
                "release. Use tinygrad_edu.linalg.multi_dot instead, which accepts a list of two or more tensors "
                "rather than multiple parameters.")
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    for m in matrices:
        if m._array.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {m._array.ndim}, expected 2 instead.")
    if len(matrices) == 1:
        return matrices[0].clone()
    return multi_dot(list(matrices))


def multi_dot(tensors: list[Tensor] | tuple[Tensor, ...]) -> Tensor:
    """The product of a chain of matrices (the first may be a row vector, the last a column), multiplied in the
    cheapest order (PyTorch's: fewest multiplications, ties to the left)."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    first, last = tensors[0], tensors[-1]
    if first.dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {first.dim()}D")
    if last.dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last.dim()}D")
    for i, t in enumerate(tensors[1:-1], 1):
        if t.dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    for i, t in enumerate(tensors[1:], 1):
        if t.dtype != first.dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{CPP_NAMES[first._array.dtype]} and tensor {i} {CPP_NAMES[t._array.dtype]}")
    mats = list(tensors)
    if first.dim() == 1:
        mats[0] = first.unsqueeze(0)
    if last.dim() == 1:
        mats[-1] = last.unsqueeze(-1)
    for i in range(n - 1):
        if mats[i].shape[-1] != mats[i + 1].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes {list(tensors[i].shape)} and "
                               f"{list(tensors[i + 1].shape)} cannot be multiplied")
    out_shape = tuple(s for s, keep in ((mats[0].shape[0], first.dim() == 2), (mats[-1].shape[1], last.dim() == 2))
                      if keep)
    dims = [m.shape[0] for m in mats] + [mats[-1].shape[1]]
    if n == 2:
        result = mats[0].mm(mats[1])
    elif n == 3:
        a, b, c, d = dims
        left_first = a * b * c + a * c * d <= b * c * d + a * b * d  # (AB)C costs no more than A(BC)
        result = mats[0].mm(mats[1]).mm(mats[2]) if left_first else mats[0].mm(mats[1].mm(mats[2]))
    else:
        cost = [[0] * n for _ in range(n)]
        split = [[0] * n for _ in range(n)]
        for length in range(1, n):
            for i in range(n - length):
                j = i + length
                cost[i][j] = math.inf
                for k in range(i, j):
                    q = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                    if q < cost[i][j]:
                        cost[i][j], split[i][j] = q, k

        def chain(i: int, j: int) -> Tensor:
            return mats[i] if i == j else chain(i, split[i][j]).mm(chain(split[i][j] + 1, j))

        result = chain(0, n - 1)
    return result.view(out_shape)
