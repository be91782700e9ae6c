"""Element-wise operations: arithmetic, powers, exp/log, activations.

Binary ops broadcast: ``(3, 1) + (4,) -> (3, 4)``. The gradient that comes back has the broadcast
shape, so each input's gradient is summed back down to the input's own shape with ``sum_to``.

Binary ops also promote, as PyTorch does: inputs of different dtypes are computed in the common one
(``int64 * float32`` is float32, see ``_dtype.result_type``), with no conversion node in the graph; each
input's gradient is converted back to its own dtype (:func:`grad_for`).

Derivatives, one line each (``g`` is the incoming gradient d(root)/d(out)), as in PyTorch's
``derivatives.yaml``:

=======================  =============================================================
add     out = x + a*y     dx = g                 dy = a * g
sub     out = x - a*y     dx = g                 dy = -a * g
rsub    out = c - x       dx = -g
mul     out = x * y       dx = g * y             dy = g * x
div     out = x / y       dx = g / y             dy = -g * x / y**2
neg     out = -x          dx = -g
recip   out = 1 / x       dx = -g * out**2
pow     out = x ** p      dx = g * p * x**(p-1)                     (PowBackward0, p a number; 0 if p = 0)
pow     out = x ** y      dx = g * y * x**(y-1)  dy = g * out * ln x  (PowBackward1)
pow     out = c ** y      dy = g * out * ln c                       (PowBackward2, c a number)
        (where the power is flat, the formula's 0 * inf = nan is replaced by PyTorch's 0: dx where y = 0,
        dy where x = 0 and y >= 0)
exp     out = e**x        dx = g * out
log     out = ln x        dx = g / x
sqrt    out = x**0.5      dx = g / (2 * out)
abs     out = |x|         dx = g * sign(x)       (0 at x = 0, as in PyTorch)
sin     out = sin x       dx = g * cos x
cos     out = cos x       dx = -g * sin x
tanh    out = tanh x      dx = g * (1 - out**2)
sigmoid out = 1/(1+e^-x)  dx = g * out * (1 - out)
relu    out = max(x, 0)   dx = g * (out > 0)     (0 at x = 0)
clamp   out = min(max(x, lo), hi)   dx = g where lo <= x <= hi, else 0
remainder  out = x - y * floor(x / y)   dx = g      dy = -g * floor(x / y)
floor_divide  out = floor(x / y)   no derivative (as in PyTorch: a backward through it raises)
=======================  =============================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import LEGACY_NAMES, from_numpy, number_dtype, result_type, wrapped_result_type
from .._tensor import Tensor, _wrap
from ..autograd.function import Function, ieee
from .shape import broadcast_shapes, sum_to

# IEEE arithmetic, as in PyTorch: 1/0 = inf, 0 * inf = nan, exp(1000) = inf, log(-1) = nan, all silently (numpy
# would warn about each). Forwards that can meet these run under ``@ieee``; neg, abs, sign, relu, clamp and tanh
# cannot (they pass inf and nan through without numpy complaining), so they skip its cost.


# ctx.meta when both inputs have the same shape and dtype, hence the result's: their gradients need no change.
_AS_THE_RESULT = (None, None)


def promoted(ctx: Any, x: Tensor, y: Tensor) -> tuple[np.ndarray, np.ndarray]:
    """Both inputs' numbers in their promoted dtype (``int64 * float32`` computes in float32), remembering
    each input's shape and dtype in ``ctx.meta`` for :func:`grad_for`."""
    a, b = x._array, y._array
    if a.dtype == b.dtype:  # the usual case, nothing to promote: skip the rules below (every binary op runs this)
        ctx.meta = _AS_THE_RESULT if a.shape == b.shape else ((a.shape, a.dtype), (b.shape, b.dtype))
        return a, b
    ctx.meta = ((a.shape, a.dtype), (b.shape, b.dtype))
    if y._wrapped_number:  # x * 2: the number's type matters only if of a higher kind
        dt = wrapped_result_type(a.dtype, b.dtype)
    elif x._wrapped_number:  # 2 - x, reflected
        dt = wrapped_result_type(b.dtype, a.dtype)
    else:
        dt = result_type(a, b)
    return a.astype(dt, copy=False), b.astype(dt, copy=False)


def grad_for(g: Tensor, meta: tuple[tuple[int, ...], np.dtype] | None) -> Tensor:
    """A gradient of a broadcast, promoted result, made an input's: summed down to its shape (see ``sum_to``)
    and converted to its dtype (a float32 input gets a float32 gradient from a float64 result)."""
    if meta is None:  # the input had the result's shape and dtype
        return g
    shape, dtype = meta
    g = sum_to(g, shape)
    return g if g._array.dtype == dtype else g.to(dtype)


class Add(Function):
    node_name = "AddBackward0"

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor, y: Tensor, alpha: float = 1) -> np.ndarray:
        a, b = promoted(ctx, x, y)
        ctx.alpha = alpha
        return a + (b if alpha == 1 else alpha * b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dx = grad_for(g, ctx.meta[0]) if ctx.needs_input_grad[0] else None
        dy = grad_for(g if ctx.alpha == 1 else g * ctx.alpha, ctx.meta[1]) if ctx.needs_input_grad[1] else None
        return dx, dy, None


class Sub(Function):
    node_name = "SubBackward0"

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor, y: Tensor, alpha: float = 1) -> np.ndarray:
        a, b = promoted(ctx, x, y)
        ctx.alpha = alpha
        return a - (b if alpha == 1 else alpha * b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dx = grad_for(g, ctx.meta[0]) if ctx.needs_input_grad[0] else None
        dy = grad_for(-g if ctx.alpha == 1 else g * -ctx.alpha, ctx.meta[1]) if ctx.needs_input_grad[1] else None
        return dx, dy, None


class Rsub(Function):
    """``c - x`` for a number c: PyTorch records it as rsub ("reversed subtraction")."""

    node_name = "RsubBackward1"

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor, c: float) -> np.ndarray:
        return (c - x._array).astype(x._array.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return -g, None


class Mul(Function):
    node_name = "MulBackward0"
    saved_names = ("self", "other")
    pack_order = (1, 0)  # other first, as PyTorch packs them

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        # Save only what backward will use: y is needed for x's gradient, x for y's.
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y if ctx.needs_input_grad[0] else None)
        a, b = promoted(ctx, x, y)
        return a * b

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dx = grad_for(g * y, ctx.meta[0]) if ctx.needs_input_grad[0] else None
        dy = grad_for(g * x, ctx.meta[1]) if ctx.needs_input_grad[1] else None
        return dx, dy


class Div(Function):
    node_name = "DivBackward0"
    saved_names = ("self", "other")
    pack_order = (1, 0)  # other first, as PyTorch packs them

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y)
        a, b = promoted(ctx, x, y)
        if a.dtype.kind != "f":  # true division: integers divide into PyTorch's default float type
            a, b = a.astype(np.float32), b.astype(np.float32)
        return a / b  # 1/0 = inf, 0/0 = nan

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dx = grad_for(g / y, ctx.meta[0]) if ctx.needs_input_grad[0] else None
        dy = grad_for(-g * ((x / y) / y), ctx.meta[1]) if ctx.needs_input_grad[1] else None
        return dx, dy


class Neg(Function):
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        if x._array.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                               "invert a mask, use the `~` or `logical_not()` operator instead.")
        return -x._array

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return -g


class Reciprocal(Function):
    node_name = "ReciprocalBackward0"
    saved_names = ("result",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = _wrap(np.reciprocal(_float(x._array)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return -g * (result * result)


class Pow(Function):
    """``x ** p`` with p a number."""

    node_name = "PowBackward0"
    saved_names = ("self",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor, p: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx._saved_exponent = p
        if x._array.dtype.kind != "f" and (isinstance(p, float) or p < 0):
            if p < 0 and not isinstance(p, float):
                raise RuntimeError("Integers to negative integer powers are not allowed.")
            return np.power(x._array.astype(np.float32), p)
        return np.power(x._array, p)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        p = ctx._saved_exponent
        if p == 0:  # x**0 is constant: a zero gradient with no history, as PyTorch returns (not g * 0)
            return _wrap(np.zeros(x._array.shape, dtype=g._array.dtype)), None
        return g * (p * x ** (p - 1)), None


def _power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """``base ** exponent`` element-wise. numpy refuses negative integer exponents of integers; PyTorch
    gives the integer part of the true power: 1 for a base of 1, +-1 for -1, and 0 otherwise."""
    if exponent.dtype.kind == "f" or base.dtype.kind == "f" or not np.any(exponent < 0):
        return np.power(base, exponent)
    base, exponent = np.broadcast_arrays(base, exponent)
    out = np.power(base, np.maximum(exponent, 0))
    negative = exponent < 0
    out[negative] = np.where(base == 1, 1, np.where(base == -1, 1 - 2 * (exponent % 2), 0))[negative]
    return out


class PowTensor(Function):
    """``x ** y`` with both tensors."""

    node_name = "PowBackward1"
    saved_names = ("self", "exponent", "result")
    pack_order = (1, 0, 2)  # the exponent first, as PyTorch packs them

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor, y: Tensor) -> Tensor:
        result = _wrap(_power(*promoted(ctx, x, y)))  # 0**-1 = inf, (-1)**0.5 = nan
        ctx.save_for_backward(x, y, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y, result = ctx.saved_tensors
        dx = grad_for(g * zero_where(y._array == 0, y * x ** (y - 1)), ctx.meta[0]) if ctx.needs_input_grad[0] \
            else None
        dy = grad_for(g * result * _log_or_zero(x, y), ctx.meta[1]) if ctx.needs_input_grad[1] else None
        return dx, dy


def zero_where(mask: np.ndarray, t: Tensor) -> Tensor:
    """``t`` with exactly 0 where ``mask`` holds (and still differentiable in t).

    For gradients that are 0 on part of the input: where the function is flat (relu below 0, clamp outside
    its bounds, x**0 in x, 0**y in y), PyTorch *masks* the incoming gradient instead of multiplying it by 0,
    so an infinite incoming gradient (from ``log(relu(x))``, say) gives 0 there, not inf * 0 = nan.
    """
    if not mask.any():
        return t
    return MaskedFill.apply(t, mask)


class MaskedFill(Function):
    """``t`` with 0 where ``mask`` holds: ``t.masked_fill(mask, 0)`` in PyTorch. The gradient is masked the
    same way. (One op: relu's backward runs it every step, and a ``where`` with a tensor of zeros costs
    several.)"""

    node_name = "MaskedFillBackward0"

    @staticmethod
    def forward(ctx: Any, t: Tensor, mask: np.ndarray) -> np.ndarray:
        ctx.mask = mask
        a = t._array
        return np.where(mask if mask.shape == a.shape else np.broadcast_to(mask, a.shape), a.dtype.type(0), a)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return zero_where(ctx.mask, g), None


def _log_or_zero(x: Tensor, y: Tensor) -> Tensor:
    """ln x, but 0 where x == 0 and y >= 0: there 0**y is flat in y and PyTorch defines the gradient as 0."""
    return zero_where((x._array == 0) & (y._array >= 0), x.log())


class RPow(Function):
    """``c ** y`` with c a number (the base) and y a tensor."""

    node_name = "PowBackward2"
    saved_names = ("exponent", "result")

    @staticmethod
    @ieee
    def forward(ctx: Any, c: float, y: Tensor) -> Tensor:
        result = _wrap(_power(np.asarray(c, dtype=y._array.dtype), y._array))
        ctx.save_for_backward(y, result)
        ctx._saved_self = c
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        y, result = ctx.saved_tensors
        with np.errstate(all="ignore"):  # (a fresh one: a numpy errstate object cannot be entered twice)
            log_c = float(np.log(ctx._saved_self))
        dy = g * (result * log_c)
        return None, zero_where(y._array >= 0, dy) if ctx._saved_self == 0 else dy  # 0**y is flat for y >= 0


def _float(a: np.ndarray) -> np.ndarray:
    """Integer inputs to exp, log, sqrt ... give float32 results, as in PyTorch."""
    return a if a.dtype.kind == "f" else a.astype(np.float32)


class Exp(Function):
    node_name = "ExpBackward0"
    saved_names = ("result",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = _wrap(np.exp(_float(x._array)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return g * result


class Log(Function):
    node_name = "LogBackward0"
    saved_names = ("self",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.log(_float(x._array))  # log(0) = -inf, log(-1) = nan

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g / x


class Sqrt(Function):
    node_name = "SqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = _wrap(np.sqrt(_float(x._array)))  # sqrt(-1) = nan
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return g / (2 * result)


class Rsqrt(Function):
    """1 / sqrt x, the reciprocal square root.  out = x**-1/2, so dx = g * -1/2 x**-3/2 = -g/2 * out**3."""

    node_name = "RsqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> Tensor:
        a = _float(x._array)
        result = _wrap(1 / np.sqrt(a))  # rsqrt(0) = inf, rsqrt(-0.) = -inf, rsqrt(-1) = nan
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return g * -0.5 * result ** 3


class Log1p(Function):
    """ln(1 + x), accurate for tiny x: ``log(1 + 1e-10)`` in float32 is log(1) = 0 (1 + 1e-10 rounds to 1),
    ``log1p(1e-10)`` is 1e-10.  dx = g / (1 + x)."""

    node_name = "Log1PBackward0"
    saved_names = ("self",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.log1p(_float(x._array))  # log1p(-1) = -inf, log1p(-2) = nan

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g / (x + 1)


class Expm1(Function):
    """e**x - 1, accurate for tiny x (where e**x rounds to 1 and the difference to 0).
    dx = g * e**x = g * (out + 1)."""

    node_name = "Expm1Backward0"
    saved_names = ("result",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = _wrap(np.expm1(_float(x._array)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return g * (result + 1)


class Log2(Function):
    """log2 x = ln x / ln 2.  dx = g / (x ln 2)."""

    node_name = "Log2Backward0"
    saved_names = ("self",)
    ln_base = 0.6931471805599453  # ln 2

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.log2(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g / (x * ctx._forward_cls.ln_base)


class Log10(Log2):
    """log10 x = ln x / ln 10.  dx = g / (x ln 10)."""

    node_name = "Log10Backward0"
    ln_base = 2.302585092994046  # ln 10

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.log10(_float(x._array))


class Abs(Function):
    node_name = "AbsBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.abs(x._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g * x.sign()


class Sign(Function):
    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        return np.sign(x._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return _wrap(np.zeros_like(g._array))  # flat: zeros with no history, as PyTorch (not g * 0, which is -0.)


class Sin(Function):
    node_name = "SinBackward0"
    saved_names = ("self",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.sin(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g * x.cos()


class Cos(Function):
    node_name = "CosBackward0"
    saved_names = ("self",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.cos(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return -g * x.sin()


class Tan(Function):
    """tan x = sin x / cos x.  d/dx tan x = 1 / cos**2 x = 1 + tan**2 x, so dx = g * (1 + out**2)."""

    node_name = "TanBackward0"
    saved_names = ("result",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = _wrap(np.tan(_float(x._array)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return g * (result * result + 1)


class Atan(Function):
    """arctan x, the angle in (-pi/2, pi/2) whose tangent is x.  dx = g / (1 + x**2)."""

    node_name = "AtanBackward0"
    saved_names = ("self",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.arctan(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g / (x * x + 1)


class Asin(Function):
    """arcsin x for x in [-1, 1] (nan outside).  dx = g / sqrt(1 - x**2): infinite at x = +-1, where the
    curve stands vertical."""

    node_name = "AsinBackward0"
    saved_names = ("self",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.arcsin(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g * (1 - x * x).rsqrt()


class Acos(Function):
    """arccos x = pi/2 - arcsin x, so its derivative is arcsin's negated:  dx = -g / sqrt(1 - x**2)."""

    node_name = "AcosBackward0"
    saved_names = ("self",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.arccos(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g * -(1 - x * x).rsqrt()


class Sinh(Function):
    """sinh x = (e**x - e**-x) / 2.  Its derivative is cosh x (and cosh's is sinh):  dx = g * cosh x."""

    node_name = "SinhBackward0"
    saved_names = ("self",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.sinh(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g * x.cosh()


class Cosh(Function):
    """cosh x = (e**x + e**-x) / 2, the shape of a hanging chain.  dx = g * sinh x."""

    node_name = "CoshBackward0"
    saved_names = ("self",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.cosh(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g * x.sinh()


class Tanh(Function):
    node_name = "TanhBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = _wrap(np.tanh(_float(x._array)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return TanhBackward.apply(g, result)  # g * (1 - result * result), as one op


class TanhBackward(Function):
    """tanh's gradient ``g * (1 - y**2)`` (y = tanh x) as a single op, PyTorch's ``tanh_backward``: one
    dispatch rather than three for every tanh in a backward pass. Differentiable itself, for create_graph:
    d/dg = 1 - y**2 (this op again), d/dy = -2 g y."""

    node_name = "TanhBackwardBackward0"

    @staticmethod
    @ieee
    def forward(ctx: Any, g: Tensor, y: Tensor) -> np.ndarray:
        ctx.save_for_backward(g if ctx.needs_input_grad[1] else None, y)
        a = y._array
        return g._array * (1 - a * a)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, y = ctx.saved_tensors
        dg = TanhBackward.apply(gg, y) if ctx.needs_input_grad[0] else None
        dy = gg * (-2 * y * g) if ctx.needs_input_grad[1] else None
        return dg, dy


class Sigmoid(Function):
    node_name = "SigmoidBackward0"
    saved_names = ("result",)

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor) -> Tensor:
        a = _float(x._array)
        # For very negative x, e^-x overflows to inf and 1/(1+inf) is exactly 0: the right limit, and what
        # PyTorch gives (float32 sigmoid(-100) is 0, not the tiny denormal e^x/(1+e^x) would be).
        result = _wrap(1 / (1 + np.exp(-a)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return SigmoidBackward.apply(g, result)  # g * result * (1 - result), as one op


class SigmoidBackward(Function):
    """sigmoid's gradient ``g * (1 - s) * s`` (s = sigmoid x) as a single op, PyTorch's ``sigmoid_backward``
    (see TanhBackward). d/dg = s (1 - s) (this op again), d/ds = g (1 - 2 s)."""

    node_name = "SigmoidBackwardBackward0"

    @staticmethod
    @ieee
    def forward(ctx: Any, g: Tensor, s: Tensor) -> np.ndarray:
        ctx.save_for_backward(g if ctx.needs_input_grad[1] else None, s)
        a = s._array
        return g._array * (1 - a) * a

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, s = ctx.saved_tensors
        dg = SigmoidBackward.apply(gg, s) if ctx.needs_input_grad[0] else None
        ds = gg * g * (1 - 2 * s) if ctx.needs_input_grad[1] else None
        return dg, ds


class Relu(Function):
    node_name = "ReluBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = _wrap(np.maximum(x._array, 0, dtype=x._array.dtype))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return ThresholdBackward.apply(g, result, 0)


class ThresholdBackward(Function):
    """relu's gradient as an op (PyTorch's ``threshold_backward(g, result, 0)``): g where the result is above
    the threshold, exactly 0 elsewhere. Masked, not ``g * mask``: an infinite g must give 0 there, not nan.
    (PyTorch's test is ``result <= threshold``, so at a nan result the gradient passes.)

    Recorded only with create_graph. Its own derivatives, as PyTorch defines them: the same mask applied to
    the incoming gradient (the op is linear in g), and 0 in the result, which only decides where the mask
    is: so the second derivative of relu is 0, and asking for it gives zeros, not an error.
    """

    node_name = "ThresholdBackwardBackward0"
    saved_names = ("self",)  # (and _saved_threshold, a number)

    @staticmethod
    def forward(ctx: Any, g: Tensor, result: Tensor, threshold: float) -> np.ndarray:
        ctx.save_for_backward(result)
        ctx._saved_threshold = threshold
        mask = result._array <= threshold
        a = g._array
        return np.where(mask, a.dtype.type(0), a) if mask.any() else a

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        (result,) = ctx.saved_tensors
        dg = ThresholdBackward.apply(gg, result, ctx._saved_threshold) if ctx.needs_input_grad[0] else None
        return dg, (_wrap(np.zeros_like(gg._array)) if ctx.needs_input_grad[1] else None), None


class Clamp(Function):
    node_name = "ClampBackward1"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, lo: float | None = None, hi: float | None = None) -> np.ndarray:
        if lo is None and hi is None:
            raise RuntimeError("tinygrad_edu.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(x)
        ctx._saved_min, ctx._saved_max = lo, hi
        a = x._array
        if a.dtype.kind != "f" and (isinstance(lo, float) or isinstance(hi, float)):
            a = a.astype(np.float32)  # float bounds make an int tensor's result float32 (PyTorch's promotion)
        return np.clip(a, lo, hi).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        a, lo, hi = x._array, ctx._saved_min, ctx._saved_max
        keep = np.ones(a.shape, dtype=bool)
        if lo is not None:
            keep &= a >= lo
        if hi is not None:
            keep &= a <= hi
        return zero_where(~keep, g), None, None  # masked, not g * keep: an infinite g must give 0, not nan


# ------------------------------------------------------------------------------------------------ remainder, //
def _check_integer_divisor(a: np.ndarray, b: Any) -> None:
    if a.dtype.kind in "biu" and np.asarray(b).dtype.kind in "biu" and np.any(np.asarray(b) == 0):
        raise RuntimeError("ZeroDivisionError")  # PyTorch's message, word for word (a float divisor 0 gives nan)


def _number_operand(a: np.ndarray, c: Any) -> tuple[np.ndarray, np.ndarray]:
    """An array and a Python number in their common dtype: ``int_tensor % 2.5`` computes in float32."""
    dt = number_dtype(c, a.dtype)
    return a.astype(dt, copy=False), np.asarray(c, dtype=dt)


class Remainder(Function):
    """``x % c`` with c a number: what is left after taking out the largest multiple of c not above x,
    ``x - c * floor(x / c)``. It has the sign of c, as Python's % (``-7 % 3 == 2``). Between the jumps it is
    x minus a constant: dx = g."""

    node_name = "RemainderBackward0"

    @staticmethod
    @ieee  # x % 0.0 is nan
    def forward(ctx: Any, x: Tensor, c: Any) -> np.ndarray:
        a, b = _number_operand(x._array, c)
        _check_integer_divisor(a, b)
        return np.remainder(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g, None


class RemainderTensor(Function):
    """``x % y`` with both tensors: out = x - y * floor(x / y), so dx = g and dy = -g * floor(x / y) (floor
    is flat between its jumps)."""

    node_name = "RemainderBackward1"

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = promoted(ctx, x, y)
        _check_integer_divisor(a, b)
        ctx.quotient = np.floor_divide(a, b) if ctx.needs_input_grad[1] else None
        return np.remainder(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dx = grad_for(g, ctx.meta[0]) if ctx.needs_input_grad[0] else None
        dy = grad_for(-g * _wrap(ctx.quotient), ctx.meta[1]) if ctx.needs_input_grad[1] else None
        return dx, dy


class NotDifferentiable(Function):
    """An op PyTorch gives no derivative: ``x // y`` (floor_divide) and ``c % x`` (a number's remainder by a
    tensor). As in PyTorch, the result still requires grad and records a node, ``NotImplemented``, which
    raises only if a backward pass reaches it: ``(x // 2).sum().backward()`` fails, ``x // 2`` used as a
    constant (after ``.detach()``) does not."""

    node_name = "NotImplemented"

    @staticmethod
    @ieee  # 1.0 // 0 is inf
    def forward(ctx: Any, op: str, x: Any, y: Any) -> np.ndarray:
        ctx.op = op
        if isinstance(x, Tensor) and isinstance(y, Tensor):
            a, b = promoted(ctx, x, y)
        elif isinstance(x, Tensor):
            a, b = _number_operand(x._array, y)
        else:
            b, a = _number_operand(y._array, x)
        _check_integer_divisor(a, b)
        if op == "floor_divide" and a.dtype.kind == "b":
            raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
        return np.floor_divide(a, b) if op == "floor_divide" else np.remainder(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        raise RuntimeError(f"derivative for aten::{ctx.op} is not implemented")


# PyTorch's node for these is written in C++: name() gives the C++ name, a tensor's repr the class name.
NotDifferentiable._backward_cls.name = lambda node: "tinygrad_edu::autograd::NotImplemented"


def floor_divide(x: Any, y: Any) -> Tensor:
    """``x // y``: x / y rounded down (``-7 // 2 == -4``, as Python's //). Not differentiable (see above)."""
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        raise TypeError(f"floor_divide(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return NotDifferentiable.apply("floor_divide", x, y)


def remainder(x: Any, y: Any) -> Tensor:
    """``x % y``, with the sign of y (Python's %, not C's fmod)."""
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        return RemainderTensor.apply(x, y)
    if isinstance(x, Tensor):
        return Remainder.apply(x, y)
    if isinstance(y, Tensor):
        return NotDifferentiable.apply("remainder", x, y)
    raise TypeError(f"remainder(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")


# ------------------------------------------------------------------------------------------------ rounding
def _zero_gradient(g: Tensor) -> Tensor:
    """The gradient of a function that is flat wherever it has a derivative (floor, round ...): zeros, as a
    constant with no history, as PyTorch returns (``g * 0`` would give nan for an infinite g, and -0. for a
    negative one)."""
    return _wrap(np.zeros_like(g._array))


def _check_float_kernel(a: np.ndarray, kernel: str) -> None:
    """The error PyTorch gives for an op it implements for floating-point tensors only."""
    if a.dtype.kind != "f":
        name = LEGACY_NAMES[from_numpy(a.dtype)].removesuffix("Tensor")  # "Long", "Bool" ...
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")


class Floor(Function):
    """The largest whole number not above x: floor(2.7) = 2, floor(-2.7) = -3. A staircase: flat between
    the integers (dx = 0 there) and with no derivative at them; PyTorch gives 0 everywhere."""

    node_name = "FloorBackward0"
    rounding = staticmethod(np.floor)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        a = x._array
        if a.dtype == np.bool_:  # PyTorch rounds integers (a copy) but not bools
            _check_float_kernel(a, ctx._forward_cls.node_name.removesuffix("Backward0").lower() + "_vml_cpu")
        # an integer is already whole: the same numbers, the same dtype
        return a.copy() if a.dtype.kind != "f" else ctx._forward_cls.rounding(a)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return _zero_gradient(g)


class Ceil(Floor):
    """The smallest whole number not below x: ceil(2.1) = 3, ceil(-2.7) = -2.  dx = 0."""

    node_name = "CeilBackward0"
    rounding = staticmethod(np.ceil)


class Trunc(Floor):
    """x with its fractional part dropped, rounding toward 0: trunc(2.7) = 2, trunc(-2.7) = -2.  dx = 0."""

    node_name = "TruncBackward0"
    rounding = staticmethod(np.trunc)


class Round(Floor):
    """The nearest whole number, halves to the even one (banker's rounding, as numpy and PyTorch):
    round(0.5) = 0, round(1.5) = 2, round(2.5) = 2.  dx = 0."""

    node_name = "RoundBackward0"
    rounding = staticmethod(np.rint)


class RoundDecimals(Function):
    """x rounded to ``decimals`` decimal places (negative: to tens, hundreds ...), computed as PyTorch
    does, in the tensor's own precision: ``rint(x * 10**d) / 10**d`` (``rint(x / 10**-d) * 10**-d`` for
    d < 0). Halves go to even, and a float32 x is not exactly the decimal it prints as: 0.15 is
    0.1500000059604644775390625, so it rounds to 0.2.  dx = 0."""

    node_name = "RoundBackward1"

    @staticmethod
    @ieee
    def forward(ctx: Any, x: Tensor, decimals: int) -> np.ndarray:
        a = x._array
        _check_float_kernel(a, "round_cpu")
        ctx._saved_decimals = decimals
        scale = a.dtype.type(10.0 ** abs(decimals))
        return np.rint(a * scale) / scale if decimals >= 0 else np.rint(a / scale) * scale

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return _zero_gradient(g), None


class Frac(Function):
    """The fractional part, with x's sign: frac(x) = x - trunc(x), frac(2.5) = 0.5, frac(-2.5) = -0.5.
    Between the integers it is x minus a constant:  dx = g."""

    node_name = "FracBackward0"

    @staticmethod
    @ieee  # frac(inf) = inf - inf = nan
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        a = x._array
        _check_float_kernel(a, "frac_cpu")
        return a - np.trunc(a)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return g


def round_to(x: Tensor, *, decimals: int | None = None) -> Tensor:
    """``x.round()``: the nearest whole number (RoundBackward0); ``x.round(decimals=d)``: d decimal places
    (RoundBackward1, PyTorch's other formula, chosen even for d = 0)."""
    if decimals is None:
        return Round.apply(x)
    if not isinstance(decimals, (int, np.integer)) or isinstance(decimals, bool):
        raise TypeError(f"round(): argument 'decimals' must be int, not {type(decimals).__name__}")
    return RoundDecimals.apply(x, int(decimals))


# ------------------------------------------------------------------------------------------------ masked_fill
class MaskedFillScalar(Function):
    """``x.masked_fill(mask, v)`` with v a number: v where the (bool) mask holds, x elsewhere. The filled
    places no longer depend on x:  dx = g with 0 where mask holds (``g.masked_fill(mask, 0)``)."""

    node_name = "MaskedFillBackward0"
    saved_names = ("mask",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, mask: Tensor, value: Any) -> np.ndarray:
        ctx.save_for_backward(mask)
        ctx.meta = x._array.shape
        a, m = x._array, mask._array
        shape = np.broadcast_shapes(a.shape, m.shape)
        return np.where(m, np.asarray(value).astype(a.dtype), np.broadcast_to(a, shape))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (mask,) = ctx.saved_tensors
        return sum_to(MaskedFill.apply(g, mask._array), ctx.meta), None, None


class MaskedFillTensor(Function):
    """``x.masked_fill(mask, v)`` with v a 0-d tensor: as with a number for x, and v, copied into every
    masked place, collects their gradients:  dv = sum of g where mask holds."""

    node_name = "MaskedFillBackward1"
    saved_names = ("mask",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, mask: Tensor, value: Tensor) -> np.ndarray:
        ctx.save_for_backward(mask)
        ctx.meta = (x._array.shape, value._array.dtype)
        a, m = x._array, mask._array
        shape = np.broadcast_shapes(a.shape, m.shape)
        return np.where(m, value._array.astype(a.dtype), np.broadcast_to(a, shape))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (mask,) = ctx.saved_tensors
        m = np.broadcast_to(mask._array, g._array.shape)
        dx = sum_to(MaskedFill.apply(g, m), ctx.meta[0]) if ctx.needs_input_grad[0] else None
        dv = g[_wrap(m)].sum().to(ctx.meta[1]) if ctx.needs_input_grad[2] else None
        return dx, None, dv


# How PyTorch's messages name a dtype by its C++ type.
_C_TYPE_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
                 "uint8": "unsigned char", "float32": "float", "float64": "double", "float16": "c10::Half"}


def masked_fill(x: Tensor, mask: Any, value: Any) -> Tensor:
    """``x.masked_fill(mask, value)``: ``value`` (a number or a 0-d tensor) where the bool ``mask`` is True,
    x elsewhere. The mask broadcasts against x (a row mask can blank whole columns)."""
    if not isinstance(mask, Tensor) or not isinstance(value, (Tensor, int, float, bool, np.number, np.bool_)):
        names = ", ".join(type(a).__name__ for a in (mask, value))
        marked = ", ".join(type(a).__name__ if ok else f"!{type(a).__name__}!" for a, ok in
                           ((mask, isinstance(mask, Tensor)), (value, isinstance(value, Tensor))))
        raise TypeError(f"masked_fill() received an invalid combination of arguments - got ({names}), but expected "
                        f"one of:\n * (Tensor mask, Tensor value)\n      didn't match because some of the arguments "
                        f"have invalid types: ({marked})\n * (Tensor mask, Number value)\n      didn't match because "
                        f"some of the arguments have invalid types: ({marked})\n")
    if mask._array.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{_C_TYPE_NAMES.get(mask._array.dtype.name, mask._array.dtype.name)}")
    if isinstance(value, Tensor) and value._array.ndim:
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value._array.ndim} dimension(s).")
    if mask._array.shape != x._array.shape:
        broadcast_shapes(mask._array.shape, x._array.shape)  # PyTorch's error if they do not broadcast
    if isinstance(value, Tensor):
        return MaskedFillTensor.apply(x, mask, value)
    return MaskedFillScalar.apply(x, mask, value)
