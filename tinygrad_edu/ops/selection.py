"""Choosing between values: ``where``, ``maximum``/``minimum``, comparisons, sorting; copies (``clone``, ``to``).

============  ==========================================================
where         dx = g where cond, else 0;   dy = g where not cond, else 0
maximum       dx = g where x > y (half of g where x == y);  dy likewise
clone / to    dx = g (converted back to x's dtype)
comparisons   ``==``, ``<`` ... return bool tensors; they have no gradient
sort / topk   dx = g put back at the positions the values came from (``indices``), 0 elsewhere
isclose       a bool tensor, and nonzero int64 positions: no gradient
============  ==========================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import LEGACY_NAMES, number_dtype
from .._tensor import Tensor, _wrap
from ..autograd.function import Function
from .elementwise import grad_for, promoted, zero_where
from .reduce import _ScatterAlong, max_return
from .shape import _dim, broadcast_shapes


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
    pack_order = (1, 0)  # other first, as PyTorch packs them
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


def isclose(x: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """Element-wise ``|x - other| <= atol + rtol * |other|``: equal up to rounding (a bool tensor, no gradient).

    Two infinities of the same sign are close; nan is close to nan only with ``equal_nan=True``.
    """
    if not isinstance(other, Tensor):
        raise TypeError(f"isclose(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    if x.dtype != other.dtype:
        names = [LEGACY_NAMES[t.dtype].removesuffix("Tensor") for t in (x, other)]
        raise RuntimeError(f"{names[0]} did not match {names[1]}")
    for name, value in (("rtol", rtol), ("atol", atol)):
        if value < 0:
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got {value:g}")
    broadcast_shapes(x._array.shape, other._array.shape)
    return _wrap(np.asarray(np.isclose(x._array, other._array, rtol, atol, equal_nan)))


def nonzero(x: Tensor, *, as_tuple: bool = False) -> Tensor | tuple[Tensor, ...]:
    """The positions of the non-zero elements: an int64 tensor with one row per element found and one column
    per dimension; ``as_tuple=True`` gives one 1-D tensor per dimension instead (what ``x[...]`` takes)."""
    a = x._array
    if as_tuple:
        return tuple(_wrap(i.astype(np.int64)) for i in np.nonzero(np.atleast_1d(a)))  # a 0-d x counts as 1-D
    return _wrap(np.argwhere(a).astype(np.int64))  # shape (number found, ndim)


# ------------------------------------------------------------------------------------------------ sort, topk
class sort_return(max_return):  # noqa: N801  (PyTorch's torch.return_types.sort)
    _name = "sort"


class topk_return(max_return):  # noqa: N801
    _name = "topk"


def _order(a: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """The indices that sort ``a`` along dim, equal values kept in their order (a stable sort); nan counts as
    the largest value, as in PyTorch."""
    if not descending:
        return np.argsort(a, axis=dim, kind="stable")  # numpy puts nan last too
    if a.dtype.kind != "f":
        return np.argsort(~a, axis=dim, kind="stable")  # ~a reverses the order of bools and integers, exactly
    return np.lexsort((-a, ~np.isnan(a)), axis=dim)  # first the nans, then the rest from the largest down


class Sort(Function):
    """``x.sort(dim)``: (values, indices). Sorting only moves values: each goes back where it came from, so
    dx = g put back at the positions ``indices`` (the same scatter as max's)."""

    node_name = "SortBackward0"
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, descending: bool, k: int | None = None) -> tuple:
        a = x._array
        dim = _dim(dim, a.ndim)
        if k is not None and not 0 <= k <= (a.shape[dim] if a.ndim else 1):
            raise RuntimeError("selected index k out of range")
        if a.ndim == 0:
            order, values = np.zeros((), np.int64), a.copy()
        else:
            order = _order(a, dim, descending)
            if k is not None:
                order = np.take(order, np.arange(k), axis=dim)
            values = np.take_along_axis(a, order, dim)
        indices = _wrap(order.astype(np.int64))
        ctx.save_for_backward(indices)
        ctx.shape, ctx.dim = a.shape, dim
        ctx.mark_non_differentiable(indices)
        return values, indices

    @staticmethod
    def backward(ctx: Any, g: Tensor, _: Any) -> tuple:
        (indices,) = ctx.saved_tensors
        return _ScatterAlong.apply(g, ctx.shape, ctx.dim, indices._array), None, None, None


class Topk(Sort):
    """``x.topk(k)``: the k largest values along dim, largest first, and their indices. dx as for sort."""

    node_name = "TopkBackward0"


def sort(x: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> sort_return:
    """``x.sort()``: (values, indices) along dim (the last by default). The sort is always stable here."""
    return sort_return(*Sort.apply(x, dim, descending))


def argsort(x: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    """The indices of :func:`sort`."""
    return sort(x, dim, descending).indices


def topk(x: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> topk_return:
    """The k largest (``largest=False``: smallest) values along dim, with their indices, always in sorted order."""
    return topk_return(*Topk.apply(x, dim, largest, k))
