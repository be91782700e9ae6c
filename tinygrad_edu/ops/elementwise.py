"""Element-wise operations: arithmetic, powers, exp/log, activations.

Binary ops broadcast: ``(3, 1) + (4,) -> (3, 4)``. The gradient that comes back has the broadcast
shape, so each input's gradient is summed back down to the input's own shape with ``sum_to``.

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
pow     out = x ** p      dx = g * p * x**(p-1)                     (PowBackward0, p a number)
pow     out = x ** y      dx = g * y * x**(y-1)  dy = g * out * ln x  (PowBackward1)
pow     out = c ** y      dy = g * out * ln c                       (PowBackward2, c a number)
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
=======================  =============================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.function import Function
from .shape import sum_to


class Add(Function):
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor, alpha: float = 1) -> np.ndarray:
        ctx.shapes, ctx.alpha = (x._array.shape, y._array.shape), alpha
        return x._array + (y._array if alpha == 1 else alpha * y._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        sx, sy = ctx.shapes
        dx = sum_to(g, sx) if ctx.needs_input_grad[0] else None
        dy = sum_to(g if ctx.alpha == 1 else g * ctx.alpha, sy) if ctx.needs_input_grad[1] else None
        return dx, dy, None


class Sub(Function):
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor, alpha: float = 1) -> np.ndarray:
        ctx.shapes, ctx.alpha = (x._array.shape, y._array.shape), alpha
        return x._array - (y._array if alpha == 1 else alpha * y._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        sx, sy = ctx.shapes
        dx = sum_to(g, sx) if ctx.needs_input_grad[0] else None
        dy = sum_to(-g if ctx.alpha == 1 else g * -ctx.alpha, sy) if ctx.needs_input_grad[1] else None
        return dx, dy, None


class Rsub(Function):
    """``c - x`` for a number c: PyTorch records it as rsub ("reversed subtraction")."""

    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor, c: float) -> np.ndarray:
        return (c - x._array).astype(x._array.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return -g, None


class Mul(Function):
    node_name = "MulBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        # Save only what backward will use: y is needed for x's gradient, x for y's.
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y if ctx.needs_input_grad[0] else None)
        ctx.shapes = (x._array.shape, y._array.shape)
        return x._array * y._array

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dx = sum_to(g * y, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        dy = sum_to(g * x, ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return dx, dy


class Div(Function):
    node_name = "DivBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y)
        ctx.shapes = (x._array.shape, y._array.shape)
        out = x._array / y._array
        return out if out.dtype == x._array.dtype or x._array.dtype.kind == "f" else out.astype(np.float32)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dx = sum_to(g / y, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        dy = sum_to(-g * x / (y * y), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return dx, dy


class Neg(Function):
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        return -x._array

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return -g


class Reciprocal(Function):
    node_name = "ReciprocalBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = _wrap(np.reciprocal(_float(x._array)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return -g * result * result


class Pow(Function):
    """``x ** p`` with p a number."""

    node_name = "PowBackward0"
    saved_names = ("self",)

    @staticmethod
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
        if p == 0:
            return g * 0, None
        return g * (p * x ** (p - 1)), None


class PowTensor(Function):
    """``x ** y`` with both tensors."""

    node_name = "PowBackward1"
    saved_names = ("self", "exponent", "result")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> Tensor:
        result = _wrap(np.power(x._array, y._array))
        ctx.save_for_backward(x, y, result)
        ctx.shapes = (x._array.shape, y._array.shape)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y, result = ctx.saved_tensors
        dx = sum_to(g * y * x ** (y - 1), ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        dy = sum_to(g * result * _log_or_zero(x, y), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return dx, dy


def _log_or_zero(x: Tensor, y: Tensor) -> Tensor:
    """ln x, but 0 where x == 0 and y >= 0: there 0**y is flat in y and PyTorch defines the gradient as 0."""
    mask = (x._array == 0) & (y._array >= 0)
    if not mask.any():
        return x.log()
    from .selection import where

    return where(_wrap(mask), x * 0, x.log())


class RPow(Function):
    """``c ** y`` with c a number (the base) and y a tensor."""

    node_name = "PowBackward2"
    saved_names = ("exponent", "result")

    @staticmethod
    def forward(ctx: Any, c: float, y: Tensor) -> Tensor:
        result = _wrap(np.power(np.asarray(c, dtype=_float(y._array).dtype), y._array))
        ctx.save_for_backward(y, result)
        ctx._saved_self = c
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        _, result = ctx.saved_tensors
        return None, g * result * float(np.log(ctx._saved_self))


def _float(a: np.ndarray) -> np.ndarray:
    """Integer inputs to exp, log, sqrt ... give float32 results, as in PyTorch."""
    return a if a.dtype.kind == "f" else a.astype(np.float32)


class Exp(Function):
    node_name = "ExpBackward0"
    saved_names = ("result",)

    @staticmethod
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
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        with np.errstate(divide="ignore", invalid="ignore"):  # log(0) = -inf, log(-1) = nan, as in PyTorch
            return np.log(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return g / x


class Sqrt(Function):
    node_name = "SqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        with np.errstate(invalid="ignore"):
            result = _wrap(np.sqrt(_float(x._array)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return g / (2 * result)


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
        return g * 0


class Sin(Function):
    node_name = "SinBackward0"
    saved_names = ("self",)

    @staticmethod
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
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.cos(_float(x._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return -g * x.sin()


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
        return g * (1 - result * result)


class Sigmoid(Function):
    node_name = "SigmoidBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        a = _float(x._array)
        # 1/(1+e^-x) overflows for very negative x; e^x/(1+e^x) is the same number and safe there.
        e = np.exp(-np.abs(a))
        result = _wrap(np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype, copy=False))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return g * result * (1 - result)


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
        return g * (result > 0)


class Clamp(Function):
    node_name = "ClampBackward1"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, lo: float | None = None, hi: float | None = None) -> np.ndarray:
        if lo is None and hi is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(x)
        ctx._saved_min, ctx._saved_max = lo, hi
        return np.clip(x._array, lo, hi).astype(x._array.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        a, lo, hi = x._array, ctx._saved_min, ctx._saved_max
        keep = np.ones(a.shape, dtype=bool)
        if lo is not None:
            keep &= a >= lo
        if hi is not None:
            keep &= a <= hi
        return g * _wrap(keep), None, None
