"""Element-wise operations outside the core's derivative table: remainders, rounding, erf, the gamma family,
two-argument functions (atan2, hypot, ...), fused products (addcmul), masked_fill.

The element-wise ops whose derivatives are the idea (arithmetic, powers, exp/log, trigonometry, activations) are
entries of the derivative table, ``tinygrad_edu/core/derivatives.py``; their Functions are re-exported here. The
ones below are Function classes of their own. Binary ops broadcast and promote as PyTorch's: inputs of different
dtypes compute in the common one (``promoted``), and the mechanism sums each input's gradient back down to its shape
and converts it back to its dtype (``broadcast_from``, as for the table's ops): their backwards do not.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._checks import broadcast_shapes
from .._dtype import LEGACY_NAMES, floating, from_numpy, number_dtype, promoted
from ..core.derivatives import (  # noqa: F401  (re-exported: the table's element-wise ops)
    Abs,
    Acos,
    Add,
    Asin,
    Atan,
    Clamp,
    Cos,
    Cosh,
    Deg2rad,
    Div,
    DivScalar,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log1p,
    Log2,
    Log10,
    MaskedFill,
    Maximum,
    Minimum,
    Mul,
    MulScalar,
    Neg,
    Pow,
    PowTensor,
    Rad2deg,
    Reciprocal,
    Relu,
    RPow,
    Rsqrt,
    Rsub,
    Sigmoid,
    SigmoidBackward,
    Sign,
    Sin,
    Sinh,
    Sqrt,
    Sub,
    Tan,
    Tanh,
    TanhBackward,
    ThresholdBackward,
    zero_where,
)
from ..core.function import Function, broadcast_from, wrap
from ..core.tensor import Tensor, _as_tensor

_wrap, _float = wrap, floating


def broadcasting(ctx: Any, x: Tensor, y: Tensor) -> list[np.ndarray]:
    """The two inputs (forward's first two arguments) broadcast together: their numbers in their promoted dtype
    (``int64 * float32`` computes in float32), and the mechanism told to undo both in backward."""
    broadcast_from(ctx, x, y)
    return promoted(x, y)


def _operands(x: Tensor, y: Any) -> tuple[Tensor, Tensor]:
    """Both operands as tensors (a number becomes a wrapped number, as for ``x * 2``)."""
    return x, _as_tensor(y)


def _check_broadcast(x: Tensor, y: Tensor) -> None:
    if x._array.shape != y._array.shape:
        broadcast_shapes(x._array.shape, y._array.shape)  # raises PyTorch's error if they do not broadcast


# ------------------------------------------------------------------------------------------------ remainder, //
def _check_integer_divisor(a: np.ndarray, b: Any) -> None:
    if a.dtype.kind in "biu" and np.asarray(b).dtype.kind in "biu" and np.any(np.asarray(b) == 0):
        raise RuntimeError("ZeroDivisionError")  # PyTorch's message, word for word (a float divisor 0 gives nan)


def _number_operand(a: np.ndarray, c: Any) -> tuple[np.ndarray, np.ndarray]:
    """An array and a Python number in their common dtype: ``int_tensor % 2.5`` computes in float32."""
    dt = number_dtype(c, a.dtype)
    return a.astype(dt, copy=False), np.asarray(c, dtype=dt)


def python_remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a % b with the sign of b, as PyTorch computes it: C's fmod (the sign of a), moved by one b when the signs
    differ. A zero stays fmod's zero, which has a's sign: ``-2. % 2`` is -0., where numpy's remainder gives 0."""
    if a.dtype.kind != "f":
        return np.remainder(a, b)  # (integers have no -0)
    m = np.fmod(a, b)
    return np.where((m != 0) & ((b < 0) != (m < 0)), m + b, m)


class Remainder(Function):
    """``x % c`` with c a number: what is left after taking out the largest multiple of c not above x,
    ``x - c * floor(x / c)``. It has the sign of c, as Python's % (``-7 % 3 == 2``). Between the jumps it is
    x minus a constant: dx = g."""

    node_name = "RemainderBackward0"

    @staticmethod
    # x % 0.0 is nan
    def forward(ctx: Any, x: Tensor, c: Any) -> np.ndarray:
        a, b = _number_operand(x._array, c)
        _check_integer_divisor(a, b)
        return python_remainder(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g, None


class RemainderTensor(Function):
    """``x % y`` with both tensors: out = x - y * floor(x / y), so dx = g and dy = -g * floor(x / y) (floor
    is flat between its jumps)."""

    node_name = "RemainderBackward1"
    saved_names = ("self", "other")
    pack_order = (1, 0)  # other first, as PyTorch packs them

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = broadcasting(ctx, x, y)
        _check_integer_divisor(a, b)
        ctx.save_for_backward(*(x, y) if ctx.needs_input_grad[1] else (None, None))  # (only dy needs them)
        return python_remainder(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dx = g if ctx.needs_input_grad[0] else None
        if not ctx.needs_input_grad[1]:
            return dx, None
        x, y = ctx.saved_tensors
        return dx, -g * _wrap(np.floor_divide(*promoted(x, y)))


class NotDifferentiable(Function):
    """An op PyTorch gives no derivative: ``x // y`` (floor_divide) and ``c % x`` (a number's remainder by a
    tensor). As in PyTorch, the result still requires grad and records a node, ``NotImplemented``, which
    raises only if a backward pass reaches it: ``(x // 2).sum().backward()`` fails, ``x // 2`` used as a
    constant (after ``.detach()``) does not."""

    node_name = "NotImplemented"

    @staticmethod
    # 1.0 // 0 is inf
    def forward(ctx: Any, op: str, x: Any, y: Any) -> np.ndarray:
        ctx.op = op
        if isinstance(x, Tensor) and isinstance(y, Tensor):
            a, b = promoted(x, y)
        elif isinstance(x, Tensor):
            a, b = _number_operand(x._array, y)
        else:
            b, a = _number_operand(y._array, x)
        _check_integer_divisor(a, b)
        if op == "floor_divide" and a.dtype.kind == "b":
            raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
        return np.floor_divide(a, b) if op == "floor_divide" else python_remainder(a, b)

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
    # frac(inf) = inf - inf = nan
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
        broadcast_from(ctx, x)  # (against the mask)
        a, m = x._array, mask._array
        shape = np.broadcast_shapes(a.shape, m.shape)
        return np.where(m, np.asarray(value).astype(a.dtype), np.broadcast_to(a, shape))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (mask,) = ctx.saved_tensors
        return MaskedFill.apply(g, mask._array), None, None


class MaskedFillTensor(Function):
    """``x.masked_fill(mask, v)`` with v a 0-d tensor: as with a number for x, and v, copied into every
    masked place, collects their gradients:  dv = sum of g where mask holds."""

    node_name = "MaskedFillBackward1"
    saved_names = ("mask",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, mask: Tensor, value: Tensor) -> np.ndarray:
        ctx.save_for_backward(mask)
        broadcast_from(ctx, x, None, value)  # (x against the mask; the value into every masked place)
        a, m = x._array, mask._array
        shape = np.broadcast_shapes(a.shape, m.shape)
        return np.where(m, value._array.astype(a.dtype), np.broadcast_to(a, shape))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (mask,) = ctx.saved_tensors
        m = np.broadcast_to(mask._array, g._array.shape)
        dx = MaskedFill.apply(g, m) if ctx.needs_input_grad[0] else None
        return dx, None, g[_wrap(m)].sum() if ctx.needs_input_grad[2] else None


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


def _tensor_pair(x: Any, y: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """Both operands of a binary op as tensors, checked to broadcast. A number is wrapped as for ``x * 2``,
    unless the op (``name``) takes tensors only, as PyTorch's atan2, hypot, logaddexp and logical ops do."""

    if name is not None and not isinstance(y, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {type(y).__name__}")
    x, y = _operands(x, y)
    _check_broadcast(x, y)
    return x, y


def _float_only(a: np.ndarray, kernel: str) -> np.ndarray:
    """The array, for an op PyTorch implements for floating-point dtypes only (hypot, logaddexp, lerp)."""
    _check_float_kernel(a, kernel)
    return a


class Atan2(Function):
    """atan2(y, x), the angle of the point (x, y) from the positive x axis, in (-pi, pi]: unlike atan(y / x)
    it knows the quadrant (``atan2(1, -1)`` is 3 pi / 4, atan(-1) is -pi / 4). With r2 = x**2 + y**2:

        d/dy = x / r2,   d/dx = -y / r2        (``self`` is y, ``other`` is x, as in PyTorch)

    At the origin (r2 = 0, 1 / r2 = inf) PyTorch takes 1 / r2 as 0: the gradient is 0, not nan.
    """

    node_name = "Atan2Backward0"
    saved_names = ("self", "other")
    pack_order = (1, 0)  # other first, as PyTorch packs them

    @staticmethod
    def forward(ctx: Any, y: Tensor, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(y, x)
        a, b = broadcasting(ctx, y, x)
        return np.arctan2(_float(a), _float(b))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        y, x = ctx.saved_tensors
        recip = (y * y + x * x).reciprocal()
        recip = recip.masked_fill(recip.isinf(), 0)
        return (g * x * recip if ctx.needs_input_grad[0] else None,
                g * -y * recip if ctx.needs_input_grad[1] else None)


class Hypot(Function):
    """sqrt(x**2 + y**2), the hypotenuse, computed without overflow for large x, y.
    dx = g * x / out,  dy = g * y / out."""

    node_name = "HypotBackward0"
    saved_names = ("self", "other", "result")
    pack_order = (1, 0, 2)  # other first, as PyTorch packs them

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> Tensor:
        a, b = broadcasting(ctx, x, y)
        result = _wrap(np.hypot(_float_only(a, "hypot_cpu"), b))
        ctx.save_for_backward(x if ctx.needs_input_grad[0] else None, y if ctx.needs_input_grad[1] else None, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y, result = ctx.saved_tensors
        return (g * x / result if ctx.needs_input_grad[0] else None,
                g * y / result if ctx.needs_input_grad[1] else None)


class Logaddexp(Function):
    """ln(e**x + e**y) without overflow: max + ln(1 + e**-|x - y|). The softmax weights of the two:
    dx = g / (1 + e**(y - x)),  dy = g / (1 + e**(x - y))."""

    node_name = "LogaddexpBackward0"
    saved_names = ("self", "other")
    pack_order = (1, 0)  # other first, as PyTorch packs them

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        ctx.save_for_backward(x, y)
        a, b = broadcasting(ctx, x, y)
        return np.logaddexp(_float_only(a, "logaddexp_cpu"), b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return (g / ((y - x).exp() + 1) if ctx.needs_input_grad[0] else None,
                g / ((x - y).exp() + 1) if ctx.needs_input_grad[1] else None)


class Fmod(Function):
    """``fmod(x, c)`` for a number c: C's remainder, with the sign of x (``fmod(-7, 3) == -1``, where
    ``-7 % 3 == 2``): x - c * trunc(x / c). Between its jumps it is x minus a constant:  dx = g."""

    node_name = "FmodBackward0"

    @staticmethod
    # fmod(x, 0.0) is nan
    def forward(ctx: Any, x: Tensor, c: Any) -> np.ndarray:
        a, b = _number_operand(x._array, c)
        _check_integer_divisor(a, b)
        ctx._saved_other = c
        return np.fmod(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g, None


class FmodTensor(Function):
    """``fmod(x, y)`` with both tensors: x - y * trunc(x / y), so dx = g, dy = -g * trunc(x / y)."""

    node_name = "FmodBackward1"
    saved_names = ("self", "other")
    pack_order = (1, 0)  # other first, as PyTorch packs them

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        ctx.save_for_backward(*(x, y) if ctx.needs_input_grad[1] else (None, None))  # (only dy needs them)
        a, b = broadcasting(ctx, x, y)
        _check_integer_divisor(a, b)
        return np.fmod(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dy = -g * DivTrunc.apply(*ctx.saved_tensors) if ctx.needs_input_grad[1] else None
        return g if ctx.needs_input_grad[0] else None, dy


class DivTrunc(Function):
    """x / y rounded toward 0 (``x.div(y, rounding_mode="trunc")``; fmod's gradient uses it too). A staircase
    in both inputs: the gradient is zeros, as for trunc."""

    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = broadcasting(ctx, x, y)
        if a.dtype.kind == "f":
            return np.trunc(a / b)
        _check_integer_divisor(a, b)
        if a.dtype.kind == "b":
            raise NotImplementedError("\"div_trunc_cpu\" not implemented for 'Bool'")
        q = np.floor_divide(a, b)  # exact for integers of any size (a float quotient would round big ones)
        return q + ((q < 0) & (q * b != a)).astype(q.dtype)  # rounded down below 0: one step back toward 0

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return _zero_gradient(g), _zero_gradient(g)  # (zeros with no history; the mechanism: each input's shape)


class DivFloor(Function):
    """x / y rounded down (``x.div(y, rounding_mode="floor")``, Python's ``//``): floor(-3.5) = -4. Computed from
    the remainder, as Python and PyTorch do, so that ``7.0 // 0.7`` is 9 (the true quotient, just under 10) and a
    zero quotient keeps the sign of x / y. A staircase: its gradient is zeros, as for DivTrunc."""

    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = broadcasting(ctx, x, y)
        _check_integer_divisor(a, b)
        if a.dtype.kind == "b":
            raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
        return np.floor_divide(a, b)  # (numpy's float floor division is that same remainder-based recipe)

    backward = DivTrunc.backward


class Lerp(Function):
    """Linear interpolation from start to end: ``start + w * (end - start)``, w a number (0 gives start, 1 end).
    d/dstart = g * (1 - w),  d/dend = g * w."""

    node_name = "LerpBackward0"

    @staticmethod
    def forward(ctx: Any, start: Tensor, end: Tensor, weight: float) -> np.ndarray:
        a, b = broadcasting(ctx, start, end)
        _check_float_kernel(a, "lerp_kernel_scalar")
        ctx._saved_weight = weight
        w = a.dtype.type(weight)
        # PyTorch's formula, exact at both ends: from start for w < 1/2, back from end above
        return np.where(abs(weight) < 0.5, a + w * (b - a), b - (b - a) * (1 - w))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        w = ctx._saved_weight
        return g * (1 - w) if ctx.needs_input_grad[0] else None, g * w if ctx.needs_input_grad[1] else None, None


class LerpTensor(Function):
    """``lerp(start, end, w)`` with w a tensor:  d/dstart = g (1 - w),  d/dend = g w,  d/dw = g (end - start)."""

    node_name = "LerpBackward1"
    saved_names = ("end", "self", "weight")

    @staticmethod
    def forward(ctx: Any, start: Tensor, end: Tensor, weight: Tensor) -> np.ndarray:
        a, b, w = start._array, end._array, weight._array
        if not (a.dtype == b.dtype == w.dtype):
            other = b if a.dtype != b.dtype else w
            raise RuntimeError(f"expected dtype {_C_TYPE_NAMES.get(a.dtype.name, a.dtype.name)} for "
                               f"`{'end' if other is b else 'weight'}` but got dtype "
                               f"{_C_TYPE_NAMES.get(other.dtype.name, other.dtype.name)}")
        _check_float_kernel(a, "lerp_kernel_tensor")
        ctx.save_for_backward(start, end, weight)
        broadcast_from(ctx, start, end, weight)
        return np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        start, end, weight = ctx.saved_tensors
        return (g * (1 - weight) if ctx.needs_input_grad[0] else None, g * weight if ctx.needs_input_grad[1] else None,
                g * (end - start) if ctx.needs_input_grad[2] else None)


def _elementwise_math(fn: Any, a: np.ndarray) -> np.ndarray:
    """A function of the math module applied to each element, computed in float64 and rounded once to a's
    dtype (numpy has no erf): correctly rounded float32 results, at the cost of one Python call per element."""
    if not a.size:
        return a.copy()
    with np.errstate(all="ignore"):  # (a nan element: numpy warns about what the function gives for it, nan)
        out = np.frompyfunc(fn, 1, 1)(a.astype(np.float64))  # (for a 0-d a, one Python float)
        return np.asarray(out, dtype=np.float64).astype(a.dtype)


_TWO_OVER_SQRT_PI = 1.1283791670955126  # 2 / sqrt(pi): erf'(x) = 2/sqrt(pi) e^(-x**2)


class Asinh(Function):
    """asinh x = ln(x + sqrt(x**2 + 1)), the inverse of sinh.  dx = g / sqrt(x**2 + 1)."""

    node_name = "AsinhBackward0"
    saved_names = ("self",)
    ufunc = staticmethod(np.arcsinh)
    rule = staticmethod(lambda g, x: g * (x.pow(2) + 1).rsqrt())  # (PyTorch's formula, op for op)

    @staticmethod
    # acosh below 1 and atanh outside (-1, 1) are nan, atanh(+-1) is +-inf: silently, as in PyTorch
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return ctx._forward_cls.ufunc(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return ctx._forward_cls.rule(g, *ctx.saved_tensors)


class Acosh(Asinh):
    """acosh x = ln(x + sqrt(x**2 - 1)) for x >= 1, the inverse of cosh there.  dx = g / sqrt(x**2 - 1)."""

    node_name = "AcoshBackward0"
    ufunc = staticmethod(np.arccosh)
    rule = staticmethod(lambda g, x: g * (x.pow(2) - 1).rsqrt())


class Atanh(Asinh):
    """atanh x = ln((1 + x) / (1 - x)) / 2 for -1 < x < 1, the inverse of tanh.  dx = g / (1 - x**2)."""

    node_name = "AtanhBackward0"
    ufunc = staticmethod(np.arctanh)
    rule = staticmethod(lambda g, x: g / (1 - x.pow(2)))


class InplaceNoDerivative(Function):
    """``x.asinh_()``, ``x.acosh_()``, ``x.atanh_()``: PyTorch computes them in place but gives the in-place versions
    no derivative: their node (``AsinhBackward1`` ...) raises if a backward pass reaches it."""

    node_name = "AsinhBackward1"
    op: type[Function] = Asinh

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        return ctx._forward_cls.op.ufunc(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        name = ctx._forward_cls.op.node_name.removesuffix("Backward0").lower()
        raise NotImplementedError(f"the derivative for 'inplace version of {name}' is not implemented.")


class AcoshInplace(InplaceNoDerivative):
    node_name, op = "AcoshBackward1", Acosh


class AtanhInplace(InplaceNoDerivative):
    node_name, op = "AtanhBackward1", Atanh


class Erf(Function):
    """The error function, erf x = 2/sqrt(pi) * (integral of e^(-t**2) from 0 to x): -1 at -inf, 1 at +inf;
    the normal distribution's CDF is (1 + erf(x / sqrt 2)) / 2.  dx = g * 2/sqrt(pi) * e^(-x**2)."""

    node_name = "ErfBackward0"
    saved_names = ("self",)
    sign = 1.0

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        f = ctx._forward_cls
        return _elementwise_math(math.erf if f.sign > 0 else math.erfc, _float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return MulScalar.apply((-x.pow(2)).exp(), ctx._forward_cls.sign * _TWO_OVER_SQRT_PI) * g


class Erfc(Erf):
    """1 - erf x, accurate where erf x is near 1 (erfc(5) = 1.5e-12, where 1 - erf(5) rounds to 0).
    dx = -g * 2/sqrt(pi) * e^(-x**2)."""

    node_name = "ErfcBackward0"
    sign = -1.0


def _erfinv(a: np.ndarray) -> np.ndarray:
    """The inverse of erf on (-1, 1) (+-inf at +-1, nan outside), in float64: a start from Winitzki's closed-form
    approximation (good to 2e-3), then Newton's method on erf(y) = a, each step squaring the error."""
    x = a.astype(np.float64)
    with np.errstate(all="ignore"):
        ln = np.log1p(-x * x)
        k = 4.330746750799873  # 2 / (pi * 0.147)
        y = np.copysign(np.sqrt(np.sqrt((k + ln / 2) ** 2 - ln / 0.147) - (k + ln / 2)), x)
        inner = np.abs(x) < 1
        for _ in range(3):
            err = _elementwise_math(math.erf, y) - x
            y = np.where(inner, y - err / (_TWO_OVER_SQRT_PI * np.exp(-y * y)), y)
    y[np.abs(x) == 1] = np.copysign(np.inf, x[np.abs(x) == 1])
    y[(np.abs(x) > 1) | np.isnan(x)] = np.nan
    return y.astype(a.dtype)


class Erfinv(Function):
    """erf's inverse: the y in (-inf, inf) with erf y = x, for x in [-1, 1] (nan outside).
    dx = g * sqrt(pi)/2 * e^(y**2)   (1 / erf'(y))."""

    node_name = "ErfinvBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return _erfinv(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return MulScalar.apply(Erfinv.apply(x).pow(2).exp(), 0.886226925452758) * g  # sqrt(pi) / 2


def atan2(input: Tensor, other: Any) -> Tensor:
    """``tinygrad_edu.atan2(y, x)``: the angle of the point (x, y) (see :class:`Atan2`)."""
    return Atan2.apply(*_tensor_pair(input, other, "atan2"))


def hypot(input: Tensor, other: Any) -> Tensor:
    """``tinygrad_edu.hypot(x, y)``: sqrt(x**2 + y**2)."""
    return Hypot.apply(*_tensor_pair(input, other, "hypot"))


def logaddexp(input: Tensor, other: Any) -> Tensor:
    """``tinygrad_edu.logaddexp(x, y)``: ln(e**x + e**y), without overflow."""
    return Logaddexp.apply(*_tensor_pair(input, other, "logaddexp"))


def fmod(input: Tensor, other: Any) -> Tensor:
    """``tinygrad_edu.fmod(x, y)``: the remainder with the sign of x (C's fmod; ``%`` has the sign of y)."""
    if isinstance(other, (Tensor, np.ndarray)):
        return FmodTensor.apply(*_tensor_pair(input, other))
    return Fmod.apply(input, other)


def lerp(input: Tensor, end: Tensor, weight: Any) -> Tensor:
    """``tinygrad_edu.lerp(start, end, weight)``: start + weight * (end - start)."""
    if isinstance(weight, Tensor):
        # (only checked here: PyTorch's message if the three do not broadcast)
        broadcast_shapes(broadcast_shapes(input._array.shape, end._array.shape), weight._array.shape)
        return LerpTensor.apply(input, end, weight)
    _tensor_pair(input, end)
    return Lerp.apply(input, end, weight)


def _bool_result(fn: Any, x: Tensor, *others: Any) -> Tensor:
    """A test or logical op: a bool tensor, computed directly on the numbers (no gradient flows through it)."""
    if others:
        x, y = _tensor_pair(x, others[0], fn.__name__)
        return _wrap(np.asarray(fn(x._array, y._array)))
    return _wrap(np.asarray(fn(x._array)))


def isinf(x: Tensor) -> Tensor:
    """Where x is +inf or -inf (never, for an integer tensor)."""
    return _bool_result(np.isinf, x)


def isfinite(x: Tensor) -> Tensor:
    """Where x is neither inf nor nan."""
    return _bool_result(np.isfinite, x)


def logical_and(x: Tensor, other: Any) -> Tensor:
    """True where both are nonzero (any dtype: a nonzero number counts as True)."""
    return _bool_result(np.logical_and, x, other)


def logical_or(x: Tensor, other: Any) -> Tensor:
    """True where either is nonzero."""
    return _bool_result(np.logical_or, x, other)


def logical_xor(x: Tensor, other: Any) -> Tensor:
    """True where exactly one of the two is nonzero."""
    return _bool_result(np.logical_xor, x, other)


class ClampTensor(Function):
    """``clamp(x, min, max)`` with tensor bounds (either may be None), all three broadcast. Each output element is
    one of x, min or max, and the gradient goes to the one it came from:

        dx   = g where min <= x <= max
        dmin = g where x < min (and min < max)
        dmax = g where x > max, or where max < min (then max wins: clamp is min(max(x, min), max))"""

    node_name = "ClampBackward0"
    saved_names = ("self", "min", "max")
    pack_order = (2, 1, 0)  # max, min, self: as PyTorch packs them

    @staticmethod
    def forward(ctx: Any, x: Tensor, lo: Tensor | None, hi: Tensor | None) -> np.ndarray:
        ctx.save_for_backward(x, lo, hi)
        bounds = [b for b in (lo, hi) if b is not None]
        broadcast_from(ctx, x, *bounds)
        dt = np.result_type(x._array, *[b._array for b in bounds])
        out = x._array.astype(dt)
        if lo is not None:
            out = np.maximum(out, lo._array.astype(dt))
        return np.minimum(out, hi._array.astype(dt)) if hi is not None else out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, lo, hi = (None if t is None else t._array for t in ctx.saved_tensors)
        above_lo = True if lo is None else x >= lo
        below_hi = True if hi is None else x <= hi
        to_x = np.logical_and(above_lo, below_hi)
        to_lo = None if lo is None else (x < lo) & (True if hi is None else lo < hi)
        to_hi = None if hi is None else (x > hi) | (False if lo is None else hi < lo)
        return tuple(None if mask is None or not need else g * wrap(np.asarray(mask, dtype=g._array.dtype))
                     for mask, need in zip((to_x, to_lo, to_hi), ctx.needs_input_grad))


class Addcmul(Function):
    """``input + value * tensor1 * tensor2`` in one op (optimizers' update rules use it), all three broadcast:
    dinput = g,  dtensor1 = g * (tensor2 * value),  dtensor2 = g * (tensor1 * value)."""

    node_name = "AddcmulBackward0"
    saved_names = ("tensor1", "tensor2")  # (and _saved_value)
    divide = False

    @staticmethod
    def forward(ctx: Any, input: Tensor, t1: Tensor, t2: Tensor, value: float) -> np.ndarray:
        a, b, c = input._array, t1._array, t2._array
        if ctx._forward_cls.divide and b.dtype.kind in "biu" and c.dtype.kind in "biu":
            raise RuntimeError("Integer division with addcdiv is no longer supported, and in a future  release "
                               "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
                               "behavior can be implemented as (input + value * tinygrad_edu.trunc(tensor1 / "
                               "tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
                               "tensor2) for float inputs. The "
                               "future addcdiv behavior is just the latter implementation: (input + value * tensor1 "
                               "/ tensor2), for all dtypes.")
        # tensor1 only for tensor2's gradient; tensor2 for tensor1's (and, dividing, tensor2's too): as PyTorch saves
        ctx.save_for_backward(t1 if ctx.needs_input_grad[2] else None,
                              t2 if ctx.needs_input_grad[1] or ctx._forward_cls.divide else None)
        ctx._saved_value = value
        broadcast_from(ctx, input, t1, t2)
        dt = np.result_type(a, b, c)
        v = np.asarray(value).astype(dt)
        return a + v * (b / c if ctx._forward_cls.divide else b * c)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        t1, t2 = ctx.saved_tensors
        v = ctx._saved_value
        if ctx._forward_cls.divide:
            d1 = g * (t2.reciprocal() * v) if ctx.needs_input_grad[1] else None
            d2 = -g * (t1 * v / (t2 * t2)) if ctx.needs_input_grad[2] else None
        else:
            d1 = g * (t2 * v) if ctx.needs_input_grad[1] else None
            d2 = g * (t1 * v) if ctx.needs_input_grad[2] else None
        return g if ctx.needs_input_grad[0] else None, d1, d2, None


class Addcdiv(Addcmul):
    """``input + value * tensor1 / tensor2``:  dinput = g,  dtensor1 = g * (value / tensor2),
    dtensor2 = -g * (value * tensor1 / tensor2**2)."""

    node_name = "AddcdivBackward0"
    divide = True


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """``tinygrad_edu.addcmul(x, a, b, value=v)``: x + v * a * b (see :class:`Addcmul`)."""
    broadcast_shapes(broadcast_shapes(input._array.shape, tensor1._array.shape), tensor2._array.shape)
    return Addcmul.apply(input, tensor1, tensor2, value)


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """``tinygrad_edu.addcdiv(x, a, b, value=v)``: x + v * a / b (see :class:`Addcdiv`)."""
    broadcast_shapes(broadcast_shapes(input._array.shape, tensor1._array.shape), tensor2._array.shape)
    return Addcdiv.apply(input, tensor1, tensor2, value)


# ------------------------------------------------------------------------------------------------ lgamma, digamma
# numpy has none of these: each is computed in float64 (math.lgamma; digamma and the Hurwitz zeta function by a
# recurrence that moves x up to where an asymptotic series converges fast) and rounded once to the input's dtype,
# which gives float32 results within a float32 step of PyTorch's.
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)  # B_2, B_4, ..., B_16


def _lgamma(a: np.ndarray) -> np.ndarray:
    """ln |Gamma(x)|: inf at the poles 0, -1, -2 ... (where math.lgamma refuses)."""
    def one(v: float) -> float:
        return math.inf if v <= 0 and v.is_integer() else math.lgamma(v)

    return _elementwise_math(one, a)


def _digamma(a: np.ndarray) -> np.ndarray:
    """psi(x) = d/dx ln Gamma(x), in float64: for x < 0 the reflection psi(x) = psi(1 - x) - pi / tan(pi x);
    then psi(x) = psi(x + 1) - 1/x until x >= 10, and there ln x - 1/(2x) - sum B_2k / (2k x**2k)."""
    x = a.astype(np.float64)
    with np.errstate(all="ignore"):
        reflected = x < 0
        shift = np.where(reflected, -np.pi / np.tan(np.pi * x), 0.0)
        x = np.where(reflected, 1 - x, x)
        total = np.zeros_like(x)
        for _ in range(10):  # x + 10 >= 10 for every x >= 0
            small = x < 10
            total -= np.where(small, 1 / x, 0.0)
            x = np.where(small, x + 1, x)
        inv2 = 1 / (x * x)
        series = sum(b / (2 * k) * inv2 ** k for k, b in enumerate(_BERNOULLI, 1))
        out = np.log(x) - 0.5 / x - series + total + shift
    out = np.where(a == 0, np.copysign(np.inf, -a.astype(np.float64)), out)  # psi(+-0) = -+inf, as PyTorch
    out = np.where(reflected & (a == np.floor(a)), np.nan, out)  # the poles -1, -2 ...
    return np.where(np.isposinf(a), np.inf, out).astype(a.dtype)


def _polygamma(n: int, a: np.ndarray) -> np.ndarray:
    """The n-th derivative of digamma (n >= 1): (-1)**(n+1) n! zeta(n + 1, x), with the Hurwitz zeta function
    zeta(s, x) = sum_k (x + k)**-s summed directly while x + k < 10 + s, the rest by Euler-Maclaurin."""
    if n == 0:
        return _digamma(a)
    s = n + 1
    x = a.astype(np.float64)
    with np.errstate(all="ignore"):
        total = np.zeros_like(x)
        for _ in range(int(np.clip(np.ceil(10 + s - np.nanmin(x, initial=np.inf)), 0, 100_000))):
            small = x < 10 + s
            if not small.any():
                break
            total += np.where(small, x ** -s, 0.0)
            x = np.where(small, x + 1, x)
        tail = x ** (1 - s) / (s - 1) + 0.5 * x ** -s
        rising = float(s)  # s (s+1) ... (s + 2k - 2), the factor of the k-th Euler-Maclaurin term
        for k, b in enumerate(_BERNOULLI, 1):
            tail += b / math.factorial(2 * k) * rising * x ** (-s - 2 * k + 1)
            rising *= (s + 2 * k - 1) * (s + 2 * k)
        zeta = total + tail
        out = (-1) ** (n + 1) * math.factorial(n) * zeta
    return out.astype(a.dtype)


class Lgamma(Function):
    """ln |Gamma(x)|, Gamma the factorial moved one place and filled in between (Gamma(n + 1) = n!); lgamma
    grows without overflow (lgamma(1000) = 5905.2, Gamma(1000) overflows any float).  dx = g * digamma(x)."""

    node_name = "LgammaBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return _lgamma(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g * Polygamma.apply(x, 0)


class Polygamma(Function):
    """The derivatives of ln Gamma beyond the first: polygamma(0, x) = digamma(x) = Gamma'(x) / Gamma(x),
    polygamma(n, x) its n-th derivative.  dx = g * polygamma(n + 1, x)."""

    node_name = "PolygammaBackward0"
    saved_names = ("self",)  # (and _saved_n)

    @staticmethod
    def forward(ctx: Any, x: Tensor, n: int) -> np.ndarray:
        if n < 0:
            raise RuntimeError("polygamma(n, x) does not support negative n.")
        ctx.save_for_backward(x)
        ctx._saved_n = n
        return _polygamma(n, _float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return g * Polygamma.apply(x, ctx._saved_n + 1), None


class Digamma(Polygamma):
    """psi(x) = d/dx ln Gamma(x), polygamma(0, x), recorded under its own name.  dx = g * polygamma(1, x)."""

    node_name = "DigammaBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, n: int = 0) -> np.ndarray:
        return Polygamma.forward(ctx, x, 0)


def maximum(x: Tensor, y: Tensor) -> Tensor:
    return Maximum.apply(x, y)


def minimum(x: Tensor, y: Tensor) -> Tensor:
    return Minimum.apply(x, y)


# ------------------------------------------------------------------------------------------------ xlogy, logit
class Xlogy(Function):
    """``xlogy(x, y)`` = x * log(y), and 0 where x = 0 (unless y is nan): the term p * log(p) of an entropy, whose
    limit at p = 0 is 0. dx = g * log(y) (0 where y = 0);  dy = g * x / y."""

    node_name = "XlogyBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = (_float(v) for v in broadcasting(ctx, x, y))
        ctx.save_for_backward(x, y)
        return np.where((a == 0) & ~np.isnan(b), a.dtype.type(0), a * np.log(b))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        # dx = g * log(y), taken as 0 where y = 0 (PyTorch's formula, xlogy(y != 0, y): log(0) would give -inf)
        dx = zero_where(np.broadcast_to(y._array == 0, g.shape), g * y.log()) if ctx.needs_input_grad[0] else None
        return dx, g * x / y if ctx.needs_input_grad[1] else None


class XlogyNumberBase(Xlogy):
    """``xlogy(c, y)`` with a number c: only y has a gradient (its node has one edge in PyTorch)."""

    node_name = "XlogyBackward1"

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return Xlogy.backward(ctx, g)


class XlogyNumberOther(Xlogy):
    """``xlogy(x, c)`` with a number c."""

    node_name = "XlogyBackward2"

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return Xlogy.backward(ctx, g)


def xlogy(input: Any, other: Any) -> Tensor:
    """``tinygrad_edu.xlogy(x, y)``: x * log(y), 0 where x is 0 (see :class:`Xlogy`); either may be a number."""
    if isinstance(input, Tensor) and isinstance(other, Tensor):
        _check_broadcast(input, other)
        return Xlogy.apply(input, other)
    if isinstance(input, Tensor):
        return XlogyNumberOther.apply(input, _as_tensor(other))
    if isinstance(other, Tensor):
        return XlogyNumberBase.apply(_as_tensor(input), other)
    raise TypeError(f"xlogy(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")


class Logit(Function):
    """The inverse of the sigmoid: logit(p) = log(p / (1 - p)), the log-odds of a probability. With ``eps``, p is
    first clamped to [eps, 1 - eps] (so 0 and 1 give finite numbers). dp = g / (p * (1 - p)): 0 where the clamp
    was active, nan outside [0, 1] without eps."""

    node_name = "LogitBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, eps: float | None) -> np.ndarray:
        a = _float(x._array)
        ctx.save_for_backward(x)
        ctx.eps = eps
        if eps is not None:
            t = a.dtype.type
            a = np.clip(a, t(eps), t(1) - t(eps))
        return np.log(a / (1 - a))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        a, eps = x._array, ctx.eps
        grad = g / (x * (1 - x))
        if eps is None:
            outside = (a < 0) | (a > 1)
            return (masked_fill(grad, _wrap(outside), math.nan) if outside.any() else grad), None
        return zero_where((a < eps) | (a > 1 - eps), grad), None


def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """``tinygrad_edu.logit(p, eps=None)``: log(p / (1 - p)) (see :class:`Logit`)."""
    return Logit.apply(input, eps)
