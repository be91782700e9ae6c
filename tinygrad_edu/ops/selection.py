"""Choosing between values: ``where``, ``maximum``/``minimum``, comparisons; and copies (``clone``, ``to``).

============  ==========================================================
where         dx = g where cond, else 0;   dy = g where not cond, else 0
maximum       dx = g where x > y (half of g where x == y);  dy likewise
clone / to    dx = g (converted back to x's dtype)
comparisons   ``==``, ``<`` ... return bool tensors; they have no gradient
============  ==========================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.function import Function
from .shape import sum_to


def _array(v: Any) -> Any:
    return v._array if isinstance(v, Tensor) else v


class Where(Function):
    node_name = "WhereBackward0"
    saved_names = ("condition",)

    @staticmethod
    def forward(ctx: Any, cond: Tensor, x: Tensor, y: Tensor) -> np.ndarray:
        c = cond._array
        if c.dtype != np.bool_:
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                               f"{cond.dtype.name.capitalize()}")
        ctx.save_for_backward(cond)
        ctx.shapes = (x._array.shape, y._array.shape)
        return np.where(c, x._array, y._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (cond,) = ctx.saved_tensors
        zero = g * 0
        dx = sum_to(where(cond, g, zero), ctx.shapes[0]) if ctx.needs_input_grad[1] else None
        dy = sum_to(where(cond, zero, g), ctx.shapes[1]) if ctx.needs_input_grad[2] else None
        return None, dx, dy


def where(condition: Tensor, x: Any, y: Any) -> Tensor:
    """Elementwise ``x if condition else y`` (numbers are turned into tensors of the other's dtype)."""
    if not isinstance(x, Tensor):
        x = _wrap(np.asarray(x, dtype=y._array.dtype if isinstance(y, Tensor) else np.float32))
    if not isinstance(y, Tensor):
        y = _wrap(np.asarray(y, dtype=x._array.dtype))
    return Where.apply(condition, x, y)


class Maximum(Function):
    node_name = "MaximumBackward0"
    saved_names = ("self", "other")
    _pick = staticmethod(np.greater)
    _op = staticmethod(np.maximum)

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        ctx.save_for_backward(x, y)
        ctx.shapes = (x._array.shape, y._array.shape)
        return ctx._forward_cls._op(x._array, y._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        a, b = x._array, y._array
        # where the two are equal, each gets half the gradient (PyTorch's convention)
        wx = ctx._forward_cls._pick(a, b) + 0.5 * (a == b)
        dx = sum_to(g * _wrap(wx.astype(g._array.dtype)), ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        dy = sum_to(g * _wrap((1 - wx).astype(g._array.dtype)), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return dx, dy


class Minimum(Maximum):
    node_name = "MinimumBackward0"
    _pick = staticmethod(np.less)
    _op = staticmethod(np.minimum)


def maximum(x: Tensor, y: Tensor) -> Tensor:
    return Maximum.apply(x, y)


def minimum(x: Tensor, y: Tensor) -> Tensor:
    return Minimum.apply(x, y)


class Clone(Function):
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        return x._array.copy()

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return g


class ToCopy(Function):
    """Convert to another dtype. The gradient is converted back to the input's dtype."""

    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, np_dtype: np.dtype) -> np.ndarray:
        ctx.in_dtype = x.dtype
        return x._array.astype(np_dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g.to(ctx.in_dtype), None


def compare(op: Any, x: Tensor, y: Any) -> Tensor:
    """``x == y``, ``x < y`` ...: a bool tensor, never part of the graph."""
    return _wrap(np.asarray(op(x._array, _array(y))))
