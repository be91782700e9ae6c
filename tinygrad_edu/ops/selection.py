"""Choosing between values: ``where``, ``maximum``/``minimum``, comparisons, sorting; copies (``clone``, ``to``).

============  ==========================================================
where         dx = g where cond, else 0;   dy = g where not cond, else 0
maximum       dx = g where x > y (half of g where x == y);  dy likewise
clone / to    dx = g (converted back to x's dtype)
comparisons   ``==``, ``<`` ... return bool tensors; they have no gradient
sort / topk   dx = g put back at the positions the values came from (``indices``), 0 elsewhere
isclose       a bool tensor, and nonzero int64 positions: no gradient
cummax, mode  (values, indices); dx = g put back at ``indices`` (summed where one element is chosen twice)
index_put     dx = g, 0 where overwritten (not with accumulate);  dvalues = g[indices]
bincount      counts (int64) or summed weights; histc: counts per bin: no gradient
============  ==========================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _messages as M
from .._checks import broadcast_shapes
from .._checks import wrap_dim as _dim
from .._dtype import LEGACY_NAMES, number_dtype, promoted
from .._printing import return_type
from ..core.function import RESULT, Function, broadcast_from
from ..core.function import wrap as _wrap
from ..core.grad_mode import GradMode
from ..core.tensor import Tensor
from . import numpy_names
from .elementwise import Maximum, Minimum, NotDifferentiable, maximum, minimum, zero_where  # noqa: F401
from .reduce import MaxDim, _ScatterAlong, picked
from .shape import Index, _to_numpy_key


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
        broadcast_from(ctx, None, x, y)
        return np.where(c, *promoted(x, y))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (cond,) = ctx.saved_tensors
        zero = _wrap(np.zeros_like(g._array))  # not g * 0, which is nan where g is infinite
        dx = where(cond, g, zero) if ctx.needs_input_grad[1] else None
        return None, dx, where(cond, zero, g) if ctx.needs_input_grad[2] else None


def where(condition: Tensor, x: Any = None, y: Any = None) -> Any:
    """Elementwise ``x if condition else y``. A number takes the other's dtype unless it is of a higher kind
    (``where(c, int_tensor, 0.5)`` is float32); two numbers give float32 (or int64 for two ints). With the
    condition alone, ``where(c)`` is ``nonzero(c, as_tuple=True)``: one tensor of positions per dimension."""
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    if not isinstance(x, Tensor):
        other = y._array.dtype if isinstance(y, Tensor) else np.dtype(np.float32 if isinstance(y, float) else np.int64)
        x = _wrap(np.asarray(x, dtype=number_dtype(x, other)))
    if not isinstance(y, Tensor):
        y = _wrap(np.asarray(y, dtype=number_dtype(y, x._array.dtype)))
    return Where.apply((condition,), x, y)


def compare(op: Any, x: Tensor, y: Any) -> Tensor:
    """``x == y``, ``x < y`` ...: a bool tensor, never part of the graph."""
    try:
        return _wrap(np.asarray(op(x._array, _array(y))))
    except ValueError:  # (shapes that do not broadcast: PyTorch's message)
        broadcast_shapes(x._array.shape, np.shape(_array(y)))
        raise


def isclose(x: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """Element-wise ``|x - other| <= atol + rtol * |other|``: equal up to rounding (a bool tensor, no gradient).

    Two infinities of the same sign are close; nan is close to nan only with ``equal_nan=True``.
    """
    if not isinstance(other, Tensor):
        raise TypeError(f"isclose(): argument 'other' (position 2) must be Tensor, not {M.typename(other)}")
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
sort_return = return_type("sort", "values", "indices")
topk_return = return_type("topk", "values", "indices")


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


@numpy_names
def sort(x: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> sort_return:
    """``x.sort()``: (values, indices) along dim (the last by default). The sort is always stable here."""
    return sort_return(*Sort.apply(x, dim, descending))


@numpy_names
def argsort(x: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    """The indices of :func:`sort`."""
    return sort(x, dim, descending).indices


@numpy_names
def topk(x: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> topk_return:
    """The k largest (``largest=False``: smallest) values along dim, with their indices, always in sorted order."""
    return topk_return(*Topk.apply(x, dim, largest, k))


# ---------------------------------------------------------------------------- gather, scatter, index_select ...
def _index_array(op: str, index: Any) -> np.ndarray:
    """The numbers of an index tensor (int32 or int64), refused with PyTorch's message otherwise."""
    if not isinstance(index, Tensor):
        raise TypeError(f"{op}(): argument 'index' must be Tensor, not {type(index).__name__}")
    a = index._array
    if a.dtype not in (np.int32, np.int64):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index")
    return a.astype(np.int64, copy=False)


def _positions(index: np.ndarray, dim: int) -> tuple[np.ndarray, ...]:
    """Where each element of ``index`` points in the other tensor: at its own coordinates, except along ``dim``,
    where the coordinate is the index's value. So ``a[_positions(index, 1)][i, j] == a[i, index[i, j]]``:
    reading there is gather, writing there is scatter. (Open grids: arrays that broadcast, not copies.)"""
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


def _1d(a: np.ndarray) -> np.ndarray:
    """A 0-d array seen as 1-d (a view): gather and scatter take a 0-d tensor or index as one of size 1."""
    return a.reshape(1) if a.ndim == 0 else a


def _check_along(op: str, shape: tuple[int, ...], dim: int, index: np.ndarray,
                 src_shape: tuple[int, ...] | None = None) -> None:
    """gather/scatter's rules: index has x's number of dims, is no larger than x apart from ``dim`` (nor than
    src, when there is one), and its values are in range along ``dim`` (negative values are refused)."""
    shape, index = shape or (1,), _1d(index)
    src_shape = None if src_shape is None else src_shape or (1,)
    if index.ndim != len(shape):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for d, n in enumerate(index.shape):
        too_big = d != dim and n > shape[d]
        if src_shape is not None and (too_big or n > src_shape[d]):
            raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self {list(shape)} apart "
                               f"from dimension {dim} and to be no larger size than src {list(src_shape)}")
        if too_big:
            raise RuntimeError(f"Size does not match at dimension {d} expected index {list(index.shape)} to be no "
                               f"larger than self {list(shape)} apart from dimension {dim}")
    bad = (index < 0) | (index >= shape[dim])
    if bad.any():
        raise RuntimeError(f"index {index[bad][0]} is out of bounds for dimension {dim} with size {shape[dim]}")


def _zeros(shape: tuple[int, ...], dtype: np.dtype) -> Tensor:
    """A constant tensor of zeros (no history): where a backward formula scatters a gradient into."""
    return _wrap(np.zeros(shape, dtype))


class Gather(Function):
    """``x.gather(dim, index)``: each output element picks one element of x along ``dim``:
    ``out[i][j] = x[i][index[i][j]]`` for dim 1 (the output has index's shape).

    dx = zeros like x with g *added* where each picked element came from (``scatter_add``: an element picked
    twice gets both gradients).
    """

    node_name = "GatherBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, index: np.ndarray) -> np.ndarray:
        ctx.shape, ctx.dim, ctx.index = x._array.shape, dim, index
        return _1d(x._array)[_positions(_1d(index), dim)].reshape(index.shape)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return ScatterAdd.apply(_zeros(ctx.shape, g._array.dtype), ctx.dim, ctx.index, g), None, None


class ScatterAdd(Function):
    """``x.scatter_add(dim, index, src)``: a copy of x with each element of src *added* at the place index
    names (``out[i][index[i][j]] += src[i][j]`` for dim 1); only the part of src of index's shape is used.

    dx = g (x passes through);  dsrc = g.gather(dim, index) (each src element went to one place). With a src
    larger than index, that has the wrong shape: PyTorch's backward then fails, and so does ours.
    """

    node_name = "ScatterAddBackward0"
    _np_op = staticmethod(np.add.at)  # numpy's unbuffered add: a place named twice gets both additions

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, index: np.ndarray, src: Tensor) -> np.ndarray:
        out = x._array.copy()
        used = tuple(slice(0, n) for n in _1d(index).shape)
        ctx._forward_cls._np_op(_1d(out), _positions(_1d(index), dim), _1d(src._array)[used])
        ctx.dim, ctx.index, ctx.src_shape = dim, index, src._array.shape
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dx = ctx._forward_cls._grad_x(ctx, g) if ctx.needs_input_grad[0] else None
        dsrc = None
        if ctx.needs_input_grad[3]:
            if ctx.src_shape != ctx.index.shape:  # PyTorch's formula gives index's shape and stops there
                raise RuntimeError(f"Function {type(ctx).__name__} returned an invalid gradient at index 1 - got "
                                   f"{list(ctx.index.shape)} but expected shape compatible with {list(ctx.src_shape)}")
            dsrc = Gather.apply(g, ctx.dim, ctx.index)
        return dx, None, None, dsrc

    @staticmethod
    def _grad_x(ctx: Any, g: Tensor) -> Tensor:
        return g


class Scatter(ScatterAdd):
    """``x.scatter(dim, index, src)``: a copy of x with src's elements written at the places index names
    (``out[i][index[i][j]] = src[i][j]`` for dim 1). If a place is named twice, which write wins is not
    specified (as in PyTorch).

    dx = g with 0 at the overwritten places;  dsrc = g.gather(dim, index).
    """

    node_name = "ScatterBackward0"

    @staticmethod
    def _np_op(out: np.ndarray, positions: tuple, values: np.ndarray) -> None:
        out[positions] = values

    @staticmethod
    def _grad_x(ctx: Any, g: Tensor) -> Tensor:
        return ScatterValue.apply(g, ctx.dim, ctx.index, 0)


class ScatterValue(Function):
    """``x.scatter(dim, index, value)`` with a number: value written at the places index names.
    dx = g with 0 at those places (their old values are gone)."""

    node_name = "ScatterBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, index: np.ndarray, value: Any) -> np.ndarray:
        out = x._array.copy()
        _1d(out)[_positions(_1d(index), dim)] = value
        ctx.dim, ctx.index = dim, index
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return ScatterValue.apply(g, ctx.dim, ctx.index, 0), None, None, None


@numpy_names
def gather(x: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """Pick elements of x along ``dim`` at the positions ``index`` holds: ``out[i][j] = x[i][index[i][j]]``
    (dim 1). index has x's number of dimensions and is no larger than x apart from ``dim``."""
    idx = _index_array("gather", index)
    dim = _dim(dim, x._array.ndim)
    _check_along("gather", x._array.shape, dim, idx)
    return Gather.apply(x, dim, idx)


def scatter(x: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
            reduce: str | None = None) -> Tensor:
    """The reverse of gather: a copy of x with ``src`` (a tensor, or one number) written at the positions
    ``index`` names along ``dim``; with ``reduce="add"`` or ``"multiply"``, added to them or multiplying them."""
    if src is None:
        src = value
    idx = _index_array("scatter", index)
    dim = _dim(dim, x._array.ndim)
    if reduce is not None:
        return _scatter_reduced(x, dim, idx, src, reduce)
    if isinstance(src, Tensor):
        if src._array.dtype != x._array.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        _check_along("scatter", x._array.shape, dim, idx, src._array.shape)
        return Scatter.apply(x, dim, idx, src)
    _check_along("scatter", x._array.shape, dim, idx)
    return ScatterValue.apply(x, dim, idx, src)


class ScatterReduced(Function):
    """``x.scatter(dim, index, src, reduce="add" | "multiply")``: src's elements (or one number) added to the places
    index names along ``dim``, or multiplying them (a place named twice gets both). PyTorch gives it no derivative:
    its node, ``NotImplemented``, raises if a backward pass reaches it (``scatter_reduce`` is the one to learn with)."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, index: np.ndarray, src: Any, reduce: str) -> np.ndarray:
        out = x._array.copy()
        values = _1d(src._array)[tuple(slice(0, n) for n in _1d(index).shape)] if isinstance(src, Tensor) else src
        (np.add.at if reduce == "add" else np.multiply.at)(_1d(out), _positions(_1d(index), dim), values)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        raise RuntimeError("derivative for aten::scatter is not implemented")


ScatterReduced._backward_cls.name = NotDifferentiable._backward_cls.name  # (the C++ name, as PyTorch's prints)


def _scatter_reduced(x: Tensor, dim: int, idx: np.ndarray, src: Any, reduce: str) -> Tensor:
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    if isinstance(src, Tensor):
        M.warn_once("scatter reduce", "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
                    "removed in a future PyTorch release. Use torch.scatter_reduce instead for more reduction "
                    "options.", stacklevel=4)
        if src._array.dtype != x._array.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        _check_along("scatter", x._array.shape, dim, idx, src._array.shape)
    else:
        _check_along("scatter", x._array.shape, dim, idx)
    return ScatterReduced.apply(x, dim, idx, src, reduce)


def scatter_add(x: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """Like scatter, but adding: ``out[i][index[i][j]] += src[i][j]`` (dim 1); places named twice get both."""
    idx = _index_array("scatter", index)  # (PyTorch's message names scatter)
    dim = _dim(dim, x._array.ndim)
    if src._array.dtype != x._array.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    _check_along("scatter_add", x._array.shape, dim, idx, src._array.shape)
    return ScatterAdd.apply(x, dim, idx, src)


def _along_first(a: np.ndarray, dim: int) -> np.ndarray:
    """``a`` seen with ``dim`` moved to the front (a view: writing to it writes to a)."""
    return np.moveaxis(a, dim, 0) if a.ndim else a.reshape(1)


def _vector_index(op: str, index: Tensor) -> np.ndarray:
    """A 1-D (or 0-d) int32/int64 index for index_select, index_add_, index_fill_, index_reduce_. Each words its
    refusals its own way in PyTorch (index_fill_ even takes int64 only), and so do we."""
    if not isinstance(index, Tensor):
        raise TypeError(f"{op}(): argument 'index' must be Tensor, not {type(index).__name__}")
    a = index._array
    if op == "index_fill_" and a.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    long = op in ("index_add_", "index_reduce_")  # (these two say more)
    if a.dtype not in (np.int32, np.int64):
        name = LEGACY_NAMES[index.dtype].removesuffix("Tensor")
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index but got: {name}"
                           if long else f"{op}(): Expected dtype int32 or int64 for index")
    if a.ndim > 1:
        if op == "index_fill_":
            raise RuntimeError("Index has to be a vector/scalar")
        raise IndexError(f"{op}(): Index is supposed to be a vector, but got dim: {a.ndim} with type: "
                         f"{LEGACY_NAMES[index.dtype].removesuffix('Tensor')} and size: {list(a.shape)}"
                         if long else f"{op}(): Index is supposed to be a vector")
    return a.reshape(-1).astype(np.int64, copy=False)


class IndexSelect(Function):
    """``x.index_select(dim, index)``: the slices of x along ``dim`` at the positions of the 1-D ``index``
    (a copy; a position may repeat). dx = zeros with g's slices *added* back (``index_add``)."""

    node_name = "IndexSelectBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, index: np.ndarray) -> np.ndarray:
        a = x._array
        ctx.shape, ctx.dim, ctx.index = a.shape, dim, index
        return np.take(a, index, axis=dim) if a.ndim else a.copy()  # (a 0-d x: the index can only be [0])

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return IndexAdd.apply(_zeros(ctx.shape, g._array.dtype), ctx.dim, ctx.index, g, 1), None, None


@numpy_names
def index_select(x: Tensor, dim: int, index: Tensor) -> Tensor:
    """The slices of x along ``dim`` at the (non-negative) positions in the 1-D tensor ``index``."""
    idx = _vector_index("index_select", index)
    dim = _dim(dim, x._array.ndim)
    n = x._array.shape[dim] if x._array.ndim else 1
    if x._array.ndim == 0 and len(idx) != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {len(idx)} value(s)")
    if ((idx < 0) | (idx >= n)).any():
        raise IndexError("index out of range in self")
    return IndexSelect.apply(x, dim, idx)


class IndexAdd(Function):
    """``x.index_add(dim, index, source, alpha=1)``: a copy of x with ``alpha * source``'s i-th slice along dim
    added to slice ``index[i]`` (repeated positions add up).

    dx = g;  dsource = alpha * g.index_select(dim, index).
    """

    node_name = "IndexAddBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, index: np.ndarray, source: Tensor, alpha: Any) -> np.ndarray:
        out = x._array.copy()
        src = source._array if alpha == 1 else alpha * source._array
        np.add.at(_along_first(out, dim), index, _along_first(src, dim))
        ctx.dim, ctx.index, ctx.alpha, ctx.src_shape = dim, index, alpha, source._array.shape
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        ds = None
        if ctx.needs_input_grad[3]:
            ds = IndexSelect.apply(g, ctx.dim, ctx.index)
            ds = ds.expand(ctx.src_shape)  # (a 0-d source needs it; PyTorch always records it)
            ds = ds if ctx.alpha == 1 else ds * ctx.alpha
        return g if ctx.needs_input_grad[0] else None, None, None, ds, None


def index_add(x: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
    """A copy of x with source's slices along ``dim`` added at the positions ``index`` holds."""
    idx = _vector_index("index_add_", index)
    dim = _dim(dim, x._array.ndim)
    if source._array.dtype != x._array.dtype:
        names = [LEGACY_NAMES[t.dtype].removesuffix("Tensor") for t in (x, source)]
        raise RuntimeError(f"index_add_(): self ({names[0]}) and source ({names[1]}) must have the same scalar type")
    n_src = source._array.shape[dim] if source._array.ndim else 1
    if len(idx) != n_src:
        raise RuntimeError(f"index_add_(): Number of indices ({len(idx)}) should be equal to source.size(dim): "
                           f"({n_src}), for dim: {dim}")
    n = x._array.shape[dim] if x._array.ndim else 1
    bad = (idx < 0) | (idx >= n)
    if bad.any():
        raise RuntimeError(f"index {idx[bad][0]} is out of bounds for dimension {dim} with size {n}")
    return IndexAdd.apply(x, dim, idx, source, alpha)


class IndexFill(Function):
    """``x.index_fill(dim, index, value)``: a copy of x with the slices at ``index`` along dim set to a number.
    dx = g with those slices 0 (their old values are gone)."""

    node_name = "IndexFillBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, index: np.ndarray, value: Any) -> np.ndarray:
        out = x._array.copy()
        _along_first(out, dim)[index] = value._array if isinstance(value, Tensor) else value
        ctx.dim, ctx.index = dim, index
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dx = IndexFill.apply(g, ctx.dim, ctx.index, 0) if ctx.needs_input_grad[0] else None
        return dx, None, None, None


class IndexFillTensor(IndexFill):
    """``x.index_fill(dim, index, value)`` with a 0-d tensor value: dx as above, and
    dvalue = the sum of g over the filled slices (value went into every element there)."""

    node_name = "IndexFillBackward1"

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dx = IndexFill.apply(g, ctx.dim, ctx.index, 0) if ctx.needs_input_grad[0] else None
        dv = IndexSelect.apply(g, ctx.dim, ctx.index).sum() if ctx.needs_input_grad[3] else None
        return dx, None, None, dv


def index_fill(x: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    """A copy of x with the slices along ``dim`` at the positions ``index`` holds set to ``value``."""
    idx = _vector_index("index_fill_", index)
    dim = _dim(dim, x._array.ndim)
    n = x._array.shape[dim] if x._array.ndim else 1
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        raise IndexError(f"index {idx[bad][0]} is out of bounds for dimension {dim} with size {n}")
    if isinstance(value, Tensor):
        if value._array.ndim:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._array.ndim} dimension(s).")
        return IndexFillTensor.apply(x, dim, idx, value)
    return IndexFill.apply(x, dim, idx, value)


class MaskedSelect(Function):
    """``x.masked_select(mask)``: the elements of x where the (broadcast) bool mask is True, as a 1-D copy,
    in reading order. dx = zeros with g put back at the mask's places (summed over broadcast copies of x)."""

    node_name = "MaskedSelectBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, mask: np.ndarray) -> np.ndarray:
        shape = broadcast_shapes(mask.shape, x._array.shape)  # (in this order for PyTorch's message)
        ctx.mask = np.broadcast_to(mask, shape)
        broadcast_from(ctx, x)
        return np.broadcast_to(x._array, shape)[ctx.mask]

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return MaskedScatter.apply(g, ctx.mask), None


class MaskedScatter(Function):
    """masked_select's backward: zeros of the mask's shape with g's elements placed, in order, where the mask
    is True. Its own backward selects them again."""

    node_name = "MaskedScatterBackward0"

    @staticmethod
    def forward(ctx: Any, g: Tensor, mask: np.ndarray) -> np.ndarray:
        ctx.mask = mask
        out = np.zeros(mask.shape, g._array.dtype)
        out[mask] = g._array
        return out

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        return MaskedSelect.apply(gg, ctx.mask), None


def masked_select(x: Tensor, mask: Tensor) -> Tensor:
    """The elements of x where ``mask`` (a bool tensor broadcastable with x) is True, as a 1-D tensor."""
    if mask._array.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    return MaskedSelect.apply(x, mask._array)


class Take(Function):
    """``x.take(index)``: x read as if flattened to 1-D, at the positions ``index`` holds (the result has
    index's shape; negative positions count from the end). dx = zeros with g added back at those places."""

    node_name = "TakeBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, index: np.ndarray) -> np.ndarray:
        a = x._array
        ctx.shape, ctx.index = a.shape, index
        return a.reshape(-1)[index]

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return Put.apply(g, ctx.shape, ctx.index), None


class Put(Function):
    """take's backward: zeros of ``shape`` with g *added* at the flat positions ``index`` (a position taken
    twice gets both gradients). Its own backward takes them again."""

    node_name = "PutBackward0"

    @staticmethod
    def forward(ctx: Any, g: Tensor, shape: tuple[int, ...], index: np.ndarray) -> np.ndarray:
        ctx.index = index
        out = np.zeros(int(np.prod(shape)), g._array.dtype)
        np.add.at(out, index.reshape(-1), g._array.reshape(-1))
        return out.reshape(shape)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        return Take.apply(gg, ctx.index), None, None


def take(x: Tensor, index: Tensor) -> Tensor:
    """The elements of x (read as 1-D) at the positions ``index`` holds, in index's shape."""
    idx = index._array
    if idx.dtype != np.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{LEGACY_NAMES[index.dtype].removesuffix('Tensor')}")
    n = x._array.size
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        raise IndexError(f"out of range: tried to access index {idx[bad].reshape(-1)[0]} on a tensor of {n} "
                         "elements.")
    return Take.apply(x, idx)


# ------------------------------------------------------------------------------------------------ unique
class Unique(Function):
    """``x.unique()``: the distinct values, sorted. Not differentiable (as in PyTorch, whose node only
    raises): which element a value "came from" is not a smooth function of x."""

    node_name = "Unique2Backward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, return_inverse: bool, return_counts: bool, dim: int | None) -> tuple:
        values, inverse, counts = np.unique(x._array, return_inverse=True, return_counts=True, axis=dim)
        if dim is None:
            inverse = inverse.reshape(x._array.shape)
        inverse, counts = _wrap(inverse.astype(np.int64)), _wrap(counts.astype(np.int64))
        ctx.mark_non_differentiable(inverse, counts)
        return values, inverse, counts

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple:
        raise NotImplementedError(f"the derivative for '{ctx._forward_cls._aten}' is not implemented.")

    _aten = "_unique2"  # PyTorch's name for the op, in its message


class UniqueDim(Unique):
    """``x.unique(dim=d)``: the distinct slices along d (PyTorch records another node for it)."""

    node_name = "UniqueDimBackward0"
    _aten = "unique_dim"


def unique(x: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
           dim: int | None = None) -> Any:
    """The distinct values of x, in increasing order (always sorted here); with ``return_inverse`` also where
    each element of x is among them (x == values[inverse]), with ``return_counts`` how often each occurs.
    ``dim`` makes the distinct items whole slices along that dimension."""
    if dim is not None:
        dim = _dim(dim, x._array.ndim)
    values, inverse, counts = (Unique if dim is None else UniqueDim).apply(x, return_inverse, return_counts, dim)
    out = (values, *([inverse] if return_inverse else []), *([counts] if return_counts else []))
    return out[0] if len(out) == 1 else out


class Trace(Function):
    """The sum of a matrix's diagonal. dx = zeros with g on the diagonal (PyTorch's recipe: ``index_fill`` of a
    flat vector of zeros at every (columns + 1)-th place, then a view as the matrix)."""

    node_name = "TraceBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        a = x._array
        if a.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
        if a.dtype == np.bool_:
            raise NotImplementedError("\"trace\" not implemented for 'Bool'")
        ctx.shape = a.shape
        return np.asarray(np.trace(a), dtype=np.int64 if a.dtype.kind in "iu" else a.dtype)  # integers sum in int64

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        rows, cols = ctx.shape
        flat = _wrap(np.zeros(rows * cols, g._array.dtype))
        places = _wrap(np.arange(0, min(rows, cols) * (cols + 1), cols + 1, dtype=np.int64))
        return index_fill(flat, 0, places, g).view(rows, cols)


class DelayedErrorFunction(Function):
    """The identity, whose backward raises the message it was made with: an error that waits until something
    differentiates through it (PyTorch's ``DelayedError``; its node is ``Error``)."""

    node_name = "Error"

    @staticmethod
    def forward(ctx: Any, message: str, *tensors: Tensor) -> tuple:
        ctx.message = message
        return tuple(t._array for t in tensors)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor | None) -> tuple:
        raise RuntimeError(ctx.message)


class ScatterReduce(Function):
    """``x.scatter_reduce(dim, index, src, reduce)``: each src element is combined, by ``reduce`` ("sum", "prod",
    "mean", "amax", "amin"), into the place index names along ``dim``; with ``include_self=False`` the places
    named start from src's elements alone (x's old value there is left out). Places not named keep x's value.

    The gradient (as PyTorch's), each value's share of g at its place:

    - sum: dx = g where x was included, dsrc = g.gather(dim, index); mean: the same, divided by how many values
      each place averaged;
    - prod: each value gets g times the product of the *other* values at its place: result / value where the value
      is not 0; where it is, the product recomputed with that 0 taken as 1 (so a single zero gets the product of
      the rest, and a place with two zeros gives 0 to all). That recomputed product depends on src in a way
      PyTorch does not differentiate: when two zeros of src meet at a place, differentiating dsrc again raises
      (its node is ``Error``);
    - amax, amin: g shared equally among the values equal to the result (x's and src's; x's counted in the share
      even when left out, as PyTorch counts it).
    """

    node_name = "ScatterReduceBackward0"
    saved_names = ("self", "src", "result")
    _UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}
    _START = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}
    _TWO_ZEROS = ("scatter_reduce(): Double backward is unsupported for src when >1 zeros in src are scattered to the "
                  "same position in self")

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, index: np.ndarray, src: Tensor, reduce: str,
                include_self: bool) -> np.ndarray:
        out, positions = x._array.copy(), _positions(_1d(index), dim)
        values = _1d(src._array)[tuple(slice(0, n) for n in _1d(index).shape)]
        named = np.zeros(out.shape, dtype=np.int64)
        np.add.at(_1d(named), positions, 1)
        if not include_self:
            _1d(out)[positions] = ScatterReduce._START[reduce]
        ScatterReduce._UFUNCS[reduce].at(_1d(out), positions, values)
        if reduce == "mean":
            count = named + include_self
            out = np.where(named > 0, out / np.maximum(count, 1), out).astype(out.dtype)
        ctx.save_for_backward(x, src, RESULT)  # (the result itself: create_graph differentiates through it)
        ctx.dim, ctx.index, ctx.reduce, ctx.include_self, ctx.named = dim, index, reduce, include_self, named
        ctx._saved_dim, ctx._saved_reduce, ctx._saved_include_self = dim, reduce, include_self  # (what PyTorch shows)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, src, result = ctx.saved_tensors
        named = _wrap(ctx.named > 0)
        kept = _wrap(np.ones(ctx.named.shape, dtype=bool)) if ctx.include_self else ~named  # x's value still in
        reduce, dim, index = ctx.reduce, ctx.dim, ctx.index
        if reduce in ("sum", "mean"):
            per_value = g / _wrap((ctx.named + ctx.include_self).clip(1).astype(g._array.dtype)) \
                if reduce == "mean" else g
            dx, dsrc = per_value.masked_fill(~kept, 0), Gather.apply(per_value, dim, index)
        elif reduce == "prod":
            def again(x: Tensor, src: Tensor) -> Tensor:  # the product again, with some values taken as 1
                return ctx._forward_cls.apply(x, dim, index, src, "prod", ctx.include_self)

            nonzero_x = x.masked_fill(x == 0, 1)
            dx = g * again(nonzero_x, src) / nonzero_x
            dx = dx if ctx.include_self else dx.masked_fill(~kept, 0)
            src_zero = src == 0
            zeros = ScatterAdd.apply(_zeros(x._array.shape, g._array.dtype), dim, index,
                                     _wrap(src_zero._array.astype(g._array.dtype)))
            zeros_there = Gather.apply(zeros, dim, index)  # how many zeros of src share each value's place
            alone = src_zero & (zeros_there == 1)
            dsrc = where(alone, Gather.apply(g * again(x, src.masked_fill(alone, 1)), dim, index),
                         Gather.apply(g * result, dim, index) / src.masked_fill(src_zero, 1))
            if GradMode.enabled and (zeros_there._array > 1).any():
                dsrc = DelayedErrorFunction.apply(ctx._forward_cls._TWO_ZEROS, dsrc)[0]
        else:  # amax, amin: shared among the values that are the result (x's counted even if left out: PyTorch's)
            x_is = x == result
            src_is = src == Gather.apply(result, dim, index)
            ties = _wrap(x_is._array.astype(g._array.dtype))
            ties = ScatterAdd.apply(ties, dim, index, _wrap(src_is._array.astype(g._array.dtype)))
            share = g / ties.masked_fill(ties == 0, 1)
            dx = share.masked_fill(~(x_is & kept), 0)
            dsrc = Gather.apply(share, dim, index).masked_fill(~src_is, 0)
        return (dx if ctx.needs_input_grad[0] else None, None, None, dsrc if ctx.needs_input_grad[3] else None,
                None, None)


def scatter_reduce(x: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """See :class:`ScatterReduce`."""
    if reduce not in ScatterReduce._UFUNCS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    idx = _index_array("scatter_reduce", index)
    dim = _dim(dim, x._array.ndim)
    _check_along("scatter_reduce", x._array.shape, dim, idx, src._array.shape)
    out = ScatterReduce.apply(x, dim, idx, src, reduce, include_self)
    if out.grad_fn is not None:
        out.grad_fn._saved_index = index
    return out
class IndexReduce(ScatterReduce):
    """``x.index_reduce(dim, index, source, reduce)``: source's i-th slice along ``dim`` combined, by ``reduce``
    ("prod", "mean", "amax", "amin"), into x's slice ``index[i]``; ``include_self=False`` leaves x's old values out
    of the slices index names. It is scatter_reduce with the 1-D index spread over source's shape (each element of
    source's slice i goes to slice index[i]), and so is its gradient (see :class:`ScatterReduce`)."""

    node_name = "IndexReduceBackward0"
    saved_names = ("self", "source", "result")
    _TWO_ZEROS = ("index_reduce(): Double backward is unsupported for source when >1 zeros in source are scattered to "
                  "the same position in self")


def index_reduce(x: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *,
                 include_self: bool = True) -> Tensor:
    """A copy of x with source's slices along ``dim`` combined into the slices ``index`` names (see
    :class:`IndexReduce`). PyTorch calls it beta, and warns once."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    idx = _vector_index("index_reduce_", index)
    a, src = x._array, source._array
    dim = _dim(dim, a.ndim)
    if src.ndim and dim >= src.ndim:
        raise RuntimeError(f"index_reduce_(): Indexing dim {dim} is out of bounds of the source tensor with dim "
                           f"{src.ndim}")
    n_src = src.shape[dim] if src.ndim else 1
    if len(idx) != n_src:
        raise RuntimeError(f"index_reduce_(): Number of indices ({len(idx)}) should be equal to source.size(dim): "
                           f"({n_src}), for dim: {dim}")
    if src.ndim != a.ndim or any(m != n for d, (m, n) in enumerate(zip(a.shape, src.shape)) if d != dim):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. Got "
                           f"self.shape = {list(a.shape)} source.shape = {list(src.shape)}")
    if src.dtype != a.dtype:
        names = [LEGACY_NAMES[t.dtype].removesuffix("Tensor") for t in (x, source)]
        raise RuntimeError(f"index_reduce_(): self ({names[0]}) and source ({names[1]}) must have the same scalar "
                           "type")
    if ((idx < 0) | (idx >= (a.shape[dim] if a.ndim else 1))).any():
        raise IndexError("index out of range in self")
    M.warn_once("index_reduce", "index_reduce() is in beta and the API may change at any time.")
    along = [1] * src.ndim
    if src.ndim:
        along[dim] = -1
    spread = np.broadcast_to(idx.reshape(along), src.shape)  # source[..., i, ...] goes to x[..., index[i], ...]
    out = IndexReduce.apply(x, dim, spread, source, reduce, include_self)
    if out.grad_fn is not None:
        out.grad_fn._saved_index = index
    return out




# ----------------------------------------------------------------------------- take_along_dim, index_copy, index_put
def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """``out[i][j] = input[i][indices[i][j]]`` along ``dim`` (numpy's take_along_axis): what ``argsort`` or
    ``argmax(keepdim=True)`` found, taken. Unlike ``gather``, the two broadcast against each other in the other
    dimensions. Without ``dim``, both are flattened first. It is ``gather``, and records GatherBackward0."""
    if not isinstance(indices, Tensor) or indices._array.dtype != np.int64:
        name = LEGACY_NAMES[indices.dtype].removesuffix("Tensor") if isinstance(indices, Tensor) else "?"
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got {name}")
    if dim is None:
        return gather(input.reshape(-1), 0, indices.reshape(-1))
    a, i = input._array, indices._array
    if a.ndim != i.ndim:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, but "
                           f"got {a.ndim} dimensions for input, and {i.ndim} dimensions for indices")
    dim = _dim(dim, a.ndim)
    common = list(broadcast_shapes(tuple(1 if d == dim else n for d, n in enumerate(a.shape)),
                                   tuple(1 if d == dim else n for d, n in enumerate(i.shape))))
    x_shape, i_shape = [*common], [*common]
    x_shape[dim], i_shape[dim] = a.shape[dim], i.shape[dim]
    input = input if tuple(x_shape) == a.shape else input.expand(x_shape)
    indices = indices if tuple(i_shape) == i.shape else indices.expand(i_shape)
    return gather(input, dim, indices)


class IndexCopy(Function):
    """``x.index_copy(dim, index, source)``: a copy of x whose slices ``index[i]`` along dim are source's i-th
    slices. The old values there are gone: dx = g with those slices 0; dsource = g's slices at ``index``."""

    node_name = "IndexCopyBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, index: np.ndarray, source: Tensor) -> np.ndarray:
        out = x._array.copy()
        _along_first(out, dim)[index] = _along_first(source._array, dim)
        ctx.dim, ctx.index, ctx.src_shape = dim, index, source._array.shape
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dx = IndexFill.apply(g, ctx.dim, ctx.index, 0) if ctx.needs_input_grad[0] else None
        ds = IndexSelect.apply(g, ctx.dim, ctx.index).reshape(ctx.src_shape) if ctx.needs_input_grad[3] else None
        return dx, None, None, ds


def index_copy(x: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """A copy of x with source's slices along ``dim`` written at the positions ``index`` holds."""
    if isinstance(index, Tensor) and index._array.dtype != np.int64:
        name = LEGACY_NAMES[index.dtype].removesuffix("Tensor")
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {name}")
    idx = _vector_index("index_copy_", index)
    dim = _dim(dim, x._array.ndim)
    if source._array.dtype != x._array.dtype:
        names = [LEGACY_NAMES[t.dtype].removesuffix("Tensor") for t in (x, source)]
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{names[0]} and (source) {names[1]}")
    n_src = source._array.shape[dim] if source._array.ndim else 1
    if len(idx) != n_src:
        raise IndexError(f"index_copy_(): Number of indices ({len(idx)}) should be equal to source.size(dim) "
                         f"({n_src})")
    n = x._array.shape[dim] if x._array.ndim else 1
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        raise IndexError(f"index_copy_(): index {idx[bad][0]} is out of bounds for dimension {dim} with size {n}")
    return IndexCopy.apply(x, dim, idx % max(n, 1), source)  # (a negative position counts from the end)


class IndexPut(Function):
    """``x.index_put(indices, values, accumulate=False)``: a copy of x with ``x[indices] = values`` done (or
    ``+=`` with accumulate, where a repeated position adds up). dvalues = g[indices] (the mechanism sums it back to
    values' shape); dx = g, with the overwritten places 0 unless accumulating."""

    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, key: tuple, values: Tensor, accumulate: bool) -> np.ndarray:
        out = x._array.copy()
        v = values._array.astype(out.dtype, copy=False)
        if accumulate:
            np.add.at(out, key, v)
        else:
            out[key] = v
        ctx.key, ctx.accumulate = key, accumulate
        broadcast_from(ctx, None, None, values)  # (values was spread over x[key]: the mechanism sums dvalues back)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dx = None
        if ctx.needs_input_grad[0]:
            dx = g if ctx.accumulate else IndexPut.apply(g, ctx.key, _wrap(np.zeros((), g._array.dtype)), False)
        dv = Index.apply(g, ctx.key) if ctx.needs_input_grad[2] else None
        return dx, None, dv, None


def index_put(x: Tensor, indices: Any, values: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of x with ``x[indices] = values`` (``indices``: a tuple of index tensors, one per leading dimension);
    with ``accumulate=True``, ``x[indices] += values`` where a position given twice gets both values."""
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"index_put(): argument 'indices' (position 1) must be tuple of Tensors, not "
                        f"{type(indices).__name__}")
    if not isinstance(values, Tensor):
        raise TypeError(f"index_put(): argument 'values' (position 2) must be Tensor, not {type(values).__name__}")
    if values._array.dtype != x._array.dtype:
        names = [LEGACY_NAMES[t.dtype].removesuffix("Tensor") for t in (values, x)]
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got {names[1]} for the "
                           f"destination and {names[0]} for the source.")
    key = tuple(_to_numpy_key(k) for k in indices)
    if x._array[key].shape != np.broadcast_shapes(x._array[key].shape, values._array.shape):
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(values._array.shape)} cannot be broadcast "
                           f"to indexing result of shape {list(x._array[key].shape)}")
    return IndexPut.apply(x, key, values, accumulate)


# ------------------------------------------------------------------------ cummax/cummin, kthvalue, mode (named pairs)
cummax_return = return_type("cummax", "values", "indices")
cummin_return = return_type("cummin", "values", "indices")
kthvalue_return = return_type("kthvalue", "values", "indices")
mode_return = return_type("mode", "values", "indices")


class Cummax(Function):
    """The running maximum along ``dim``, ``out[i] = max(x[0..i])``, and where it was found (of equal values, the
    latest; once a nan is met it is the maximum from there on). Each output is one of x's elements, so
    dx = the outputs' gradients added up at the positions ``indices`` names (scatter_add)."""

    node_name = "CummaxBackward0"
    saved_names = ("indices",)
    _accumulate = staticmethod(np.maximum.accumulate)  # (numpy's maximum keeps a nan, as PyTorch's cummax does)

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> tuple:
        a = x._array
        dim = _dim(dim, a.ndim)
        b = _1d(a)
        values = ctx._forward_cls._accumulate(b, axis=dim) if b.size else b.copy()
        # The latest position where x equals the running value: the running value changes only at such a
        # position, so the running maximum of those positions is the index (nan equals nan here).
        hit = (b == values) | (np.isnan(b) & np.isnan(values)) if b.dtype.kind == "f" else b == values
        steps = np.arange(b.shape[dim]).reshape([-1 if d == dim else 1 for d in range(b.ndim)])
        idx = np.maximum.accumulate(np.where(hit, steps, 0), axis=dim) if b.size else np.zeros(b.shape, np.int64)
        indices = _wrap(idx.astype(np.int64).reshape(a.shape))
        ctx.save_for_backward(indices)
        ctx.dim, ctx.shape = dim, a.shape
        ctx.mark_non_differentiable(indices)
        return values.reshape(a.shape), indices

    @staticmethod
    def backward(ctx: Any, g: Tensor, _: Any) -> tuple:
        (indices,) = ctx.saved_tensors
        return ScatterAdd.apply(_zeros(ctx.shape, g._array.dtype), ctx.dim, indices._array, g), None


class Cummin(Cummax):
    """The running minimum along ``dim`` and where it was found: as :class:`Cummax`, with min."""

    node_name = "CumminBackward0"
    _accumulate = staticmethod(np.minimum.accumulate)


@numpy_names
def cummax(input: Tensor, dim: int) -> cummax_return:
    """(values, indices): the largest value so far along ``dim``, and its position."""
    return cummax_return(*Cummax.apply(input, dim))


@numpy_names
def cummin(input: Tensor, dim: int) -> cummin_return:
    """(values, indices): the smallest value so far along ``dim``, and its position."""
    return cummin_return(*Cummin.apply(input, dim))


class Kthvalue(MaxDim):
    """The k-th smallest value along ``dim`` (k = 1: the minimum), with its position: (values, indices). Of
    equal values, the one a stable sort puts k-th (what PyTorch gives in the cases tried). The gradient goes to
    that position, as for max(dim)."""

    node_name = "KthvalueBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, keepdim: bool, k: int = 1) -> tuple:
        a = x._array
        dim = _dim(dim, a.ndim)
        idx = np.take(np.argsort(a, axis=dim, kind="stable"), [k - 1], axis=dim) if a.ndim else np.zeros((), np.int64)
        return picked(ctx, a, idx, dim, keepdim)

    @staticmethod
    def backward(ctx: Any, g: Tensor, _: Any) -> tuple:
        return (*MaxDim.backward(ctx, g, _), None)  # (the gradient goes to the chosen index, as for max(dim))


class Mode(MaxDim):
    """The most frequent value along ``dim`` (of several, the smallest) and the position of its last
    occurrence: (values, indices). The gradient goes to that position."""

    node_name = "ModeBackward0"

    @staticmethod
    def _arg(a: np.ndarray, axis: int) -> np.ndarray:
        b = np.moveaxis(a, axis, -1)
        flat = b.reshape(-1, b.shape[-1])
        out = np.empty(flat.shape[0], np.int64)
        for row, values in enumerate(flat):  # (a loop over the slices: numpy has no per-row mode)
            uniques, counts = np.unique(values, return_counts=True)  # (sorted: argmax takes the smallest of ties)
            best = uniques[np.argmax(counts)]
            same = (values == best) | (np.isnan(values) & np.isnan(best)) if values.dtype.kind == "f" else \
                values == best
            out[row] = np.flatnonzero(same)[-1]
        return out.reshape(b.shape[:-1])


@numpy_names
def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> kthvalue_return:
    """(values, indices): the k-th smallest element along ``dim`` (k counts from 1), and its position."""
    a = input._array
    d = _dim(dim, a.ndim)
    if not 1 <= k <= (a.shape[d] if a.ndim else 1):
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    return kthvalue_return(*Kthvalue.apply(input, dim, keepdim, k))


@numpy_names
def mode(input: Tensor, dim: int = -1, keepdim: bool = False) -> mode_return:
    """(values, indices): the value that occurs most often along ``dim`` (the smallest of several), and the
    position of its last occurrence."""
    a = input._array
    d = _dim(dim, a.ndim)
    if a.ndim and a.shape[d] == 0:
        raise IndexError(f"mode(): Expected reduction dim {d} to have non-zero size.")
    return mode_return(*Mode.apply(input, dim, keepdim))


# ------------------------------------------------------------------------------------------------ counting
def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value 0, 1, ..., max occurs in a 1-d tensor of non-negative integers (int64), or, with
    ``weights``, the sum of the weights of each value's occurrences (float64 unless the weights are float32 or
    float16, as in PyTorch). ``minlength`` pads the result with zeros. Not differentiable."""
    a = input._array
    if a.dtype.kind not in "biu":
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{LEGACY_NAMES[input.dtype][:-6]}'")
    if a.ndim != 1 or (a.size and a.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is None:
        return _wrap(np.bincount(a, minlength=minlength).astype(np.int64))
    w = weights._array
    if w.ndim != 1 or w.shape[0] != a.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    out = w.dtype if w.dtype in (np.float32, np.float16) else np.dtype(np.float64)
    return _wrap(np.bincount(a, weights=w.astype(np.float64), minlength=minlength).astype(out))


def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    """A histogram: ``bins`` equal-width bins between ``min`` and ``max`` (when both are 0, the data's
    smallest and largest values), each counting the elements that fall in it; a value equal to ``max`` counts in
    the last bin, values outside are left out. The counts have x's float dtype. Not differentiable."""
    a = input._array
    if a.dtype.kind != "f":
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{LEGACY_NAMES[input.dtype][:-6]}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    t = a.dtype.type
    lo, hi = t(min), t(max)
    if lo == hi and a.size:
        finite = a[np.isfinite(a)]
        lo, hi = (finite.min(), finite.max()) if finite.size else (t(0), t(0))
    if lo == hi:  # (one value: a bin of width 2 around it, as PyTorch widens it)
        lo, hi = lo - t(1), hi + t(1)
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    # The edges as PyTorch's linspace computes them (from the left end for the first half, back from the right end
    # for the rest); each value's bin by linear interpolation, moved one bin if the edges say otherwise.
    i = np.arange(bins + 1)
    step = (hi - lo) / t(bins)
    edges = np.where(i < (bins + 1) // 2, lo + step * i.astype(a.dtype), hi - step * (bins - i).astype(a.dtype))
    x = a.reshape(-1)
    x = x[(x >= lo) & (x <= hi)]  # (nan compares false: left out too)
    pos = np.minimum(((x - lo) * t(bins) / (hi - lo)).astype(np.int64), bins - 1)
    pos = np.where(edges[pos] > x, pos - 1, np.where((pos + 1 < bins) & (edges[np.minimum(pos + 1, bins)] <= x),
                                                        pos + 1, pos))
    return _wrap(np.bincount(pos, minlength=bins).astype(a.dtype))
