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

from .._dtype import LEGACY_NAMES, number_dtype
from .._tensor import Tensor, _wrap
from ..autograd.function import Function
from .elementwise import grad_for, promoted, zero_where
from .shape import broadcast_shapes


def _array(v: Any) -> Any:
    return v._array if isinstance(v, Tensor) else v


class Where(Function):
    node_name = "WhereBackward0"
    saved_names = ("condition",)

    @staticmethod
    def forward(ctx: Any, condition: tuple[Tensor], x: Tensor, y: Tensor) -> np.ndarray:
        # The (bool) condition arrives wrapped in a tuple: an argument that is not a Tensor gets no edge, so
        # next_functions holds the edges of x and y only, as in PyTorch.
        (cond,) = condition
        c = cond._array
        if c.dtype != np.bool_:
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                               f"{LEGACY_NAMES[cond.dtype].removesuffix('Tensor')}")
        ctx.save_for_backward(cond)
        broadcast_shapes(broadcast_shapes(c.shape, x._array.shape), y._array.shape)
        return np.where(c, *promoted(ctx, x, y))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (cond,) = ctx.saved_tensors
        zero = _wrap(np.zeros_like(g._array))  # not g * 0, which is nan where g is infinite
        dx = grad_for(where(cond, g, zero), ctx.meta[0]) if ctx.needs_input_grad[1] else None
        dy = grad_for(where(cond, zero, g), ctx.meta[1]) if ctx.needs_input_grad[2] else None
        return None, dx, dy


def where(condition: Tensor, x: Any, y: Any) -> Tensor:
    """Elementwise ``x if condition else y``. A number takes the other's dtype unless it is of a higher kind
    (``where(c, int_tensor, 0.5)`` is float32); two numbers give float32 (or int64 for two ints)."""
    if not isinstance(x, Tensor):
        other = y._array.dtype if isinstance(y, Tensor) else np.dtype(np.float32 if isinstance(y, float) else np.int64)
        x = _wrap(np.asarray(x, dtype=number_dtype(x, other)))
    if not isinstance(y, Tensor):
        y = _wrap(np.asarray(y, dtype=number_dtype(y, x._array.dtype)))
    return Where.apply((condition,), x, y)


class Maximum(Function):
    node_name = "MaximumBackward0"
    saved_names = ("self", "other")
    _pick = staticmethod(np.greater)
    _op = staticmethod(np.maximum)

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        ctx.save_for_backward(x, y)
        broadcast_shapes(x._array.shape, y._array.shape)
        return ctx._forward_cls._op(*promoted(ctx, x, y))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        a, b = x._array, y._array
        # where the two are equal, each gets half the gradient (PyTorch's convention)
        wx = ctx._forward_cls._pick(a, b) + 0.5 * (a == b)
        wy = 1 - wx  # (masked where 0, not multiplied by 0: an infinite g must give 0, not nan)
        dx = grad_for(zero_where(wx == 0, g * _wrap(wx.astype(g._array.dtype))), ctx.meta[0]) \
            if ctx.needs_input_grad[0] else None
        dy = grad_for(zero_where(wy == 0, g * _wrap(wy.astype(g._array.dtype))), ctx.meta[1]) \
            if ctx.needs_input_grad[1] else None
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
