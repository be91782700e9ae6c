"""Shape operations: transposes, squeezes, concatenation, indexing, splitting, flipping, diagonals.

Most of these move no numbers: numpy hands back a *view* of the same memory, and so do we (``is_view``),
sharing the version counter so in-place changes through either are seen. Their backward only moves
the gradient back to the input's layout: the inverse reshape, the inverse permutation, a sum over
expanded dimensions, a scatter into zeros for indexing. (view, reshape, expand, unsqueeze and squeeze(dim) are in
the core's derivative table, ``tinygrad_edu/core/derivatives.py``: the core's own backward formulas use them.)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np

from .._checks import each_once, index_message, tensor_list
from .._checks import wrap_dim as _dim
from .._dtype import promote_types
from .._messages import warn_once
from ..core.derivatives import Expand, ReshapeAlias, SqueezeDim, UnsafeView, Unsqueeze, View  # noqa: F401  (in the table)
from ..core.function import Function
from ..core.function import wrap as _wrap
from ..core.tensor import Tensor, _shape_arg
from . import numpy_names, unrecorded
from .views import as_view


class Permute(Function):
    """Reorder dimensions. dx = g permuted by the inverse permutation."""

    node_name = "PermuteBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple[int, ...]) -> np.ndarray:
        nd = x._array.ndim
        if len(dims) != nd:  # checked before the dims themselves, as PyTorch does
            raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
                               f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal "
                               f"to len(dims) = {len(dims)}")
        dims = tuple(_dim(d, nd) for d in dims)
        if len(set(dims)) != nd:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        ctx.dims = dims
        return x._array.transpose(dims)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g.permute(tuple(np.argsort(ctx.dims))), None


class Transpose(Function):
    """Swap two dimensions. dx = g with the same two dimensions swapped back."""

    node_name = "TransposeBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, d0: int, d1: int) -> np.ndarray:
        nd = x._array.ndim
        ctx.d0, ctx.d1 = _dim(d0, nd), _dim(d1, nd)
        return np.swapaxes(x._array, ctx.d0, ctx.d1) if nd else x._array.view()

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g.transpose(ctx.d0, ctx.d1), None, None


class T(Function):
    """The matrix transpose ``x.t()`` of a tensor with at most 2 dimensions. dx = g.t()."""

    node_name = "TBackward0"
    is_view = True
    silent = True  # (a view computes nothing: no floating-point warning to turn off)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        if x._array.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x._array.ndim}D")
        return x._array.T

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        if unrecorded():  # speed: the transposed view itself, not an op
            out = _wrap(g._array.T)
            as_view(out, g)
            return out
        return g.t()


class Squeeze(Function):
    """Remove size-1 dimensions (all of them, or the given one). dx = g.reshape(x.shape)."""

    node_name = "SqueezeBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int | tuple | None = None) -> np.ndarray:
        a = x._array
        ctx.in_shape = a.shape
        if dim is None:
            return a.squeeze()
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        dims = tuple(d for d in (_dim(d, a.ndim) for d in dims) if a.ndim and a.shape[d] == 1)
        return a.squeeze(dims) if dims else a.view()

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g.reshape(ctx.in_shape), None


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"


@numpy_names
def squeeze(x: Tensor, dim: int | tuple | None = None) -> Tensor:
    if dim is None:
        return Squeeze.apply(x)
    if isinstance(dim, int):  # (the core's entry, which unsqueeze's backward uses)
        return SqueezeDim.apply(x, _dim(dim, x._array.ndim))
    return SqueezeDims.apply(x, dim)


@numpy_names
def unsqueeze(x: Tensor, dim: int) -> Tensor:
    """Insert a size-1 dimension at ``dim`` (in the core's table: its backward formulas use it)."""
    return Unsqueeze.apply(x, _dim(dim, x._array.ndim + 1))


class Repeat(Function):
    """Tile the input: ``x.repeat(2, 3)`` lays out 2 copies of a 2-d x down dim 0 and 3 across dim 1.

    Every element appears once per copy, so its gradient is the sum of g over its copies. View g of shape
    (r0 * n0, r1 * n1) as (r0, n0, r1, n1) and sum the copy axes 0 and 2. More repeats than x has dims
    (``x.repeat(4, 1, 1)`` on a 2-d x) treat x as having leading dims of size 1, which the sum removes.
    """

    node_name = "RepeatBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, repeats: tuple[int, ...]) -> np.ndarray:
        a = x._array
        if len(repeats) < a.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions "
                               "of tensor")
        ctx.in_shape, ctx.repeats = a.shape, repeats
        return np.tile(a, repeats)  # np.tile also prepends size-1 dims when there are more repeats than dims

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        shape = (1,) * (len(ctx.repeats) - len(ctx.in_shape)) + ctx.in_shape
        if not shape:  # a 0-d x repeated with no sizes: a plain copy
            return g, None
        split = tuple(n for pair in zip(ctx.repeats, shape) for n in pair)  # (r0, n0, r1, n1, ...)
        return g.reshape(split).sum(tuple(range(0, len(split), 2))).reshape(ctx.in_shape), None


class Cat(Function):
    """Concatenate along ``dim``. Each input's gradient is its slice of g."""

    node_name = "CatBackward0"

    @staticmethod
    def forward(ctx: Any, dim: int, *xs: Tensor) -> np.ndarray:
        if not xs:
            raise ValueError("tinygrad_edu.cat(): expected a non-empty list of Tensors")
        arrays = [x._array for x in xs]
        for i, a in enumerate(arrays):
            if a.ndim == 0:
                raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
        dim = _dim(dim, arrays[0].ndim)
        for i, a in enumerate(arrays):
            if a.ndim != arrays[0].ndim:
                raise RuntimeError(f"Tensors must have same number of dimensions: got {arrays[0].ndim} and {a.ndim}")
            for d in range(a.ndim):
                if d != dim and a.shape[d] != arrays[0].shape[d]:
                    raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. Expected size "
                                       f"{arrays[0].shape[d]} but got size {a.shape[d]} for tensor number {i} in "
                                       "the list.")
        ctx.dim, ctx.sizes, ctx.dtypes = dim, [a.shape[dim] for a in arrays], [a.dtype for a in arrays]
        return np.concatenate(_promoted_all(arrays), axis=dim)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        grads, start = [], 0
        for i, n in enumerate(ctx.sizes):
            grads.append(_as_dtype(g.narrow(ctx.dim, start, n), ctx.dtypes[i]) if ctx.needs_input_grad[i + 1]
                         else None)
            start += n
        return (None, *grads)


def _promoted_all(arrays: list[np.ndarray]) -> list[np.ndarray]:
    """The arrays in their common dtype (PyTorch's promotion: ``cat([int64, float32])`` is float32)."""
    dt = arrays[0].dtype
    for a in arrays[1:]:
        dt = promote_types(dt, a.dtype)
    return [a.astype(dt, copy=False) for a in arrays]


def _as_dtype(g: Tensor, dtype: np.dtype) -> Tensor:
    """A gradient in its input's dtype (the result, and so g, may be of a wider one)."""
    return g if g._array.dtype == dtype else g.to(dtype)


class Stack(Function):
    """Stack equal-shaped tensors along a new dimension. Each input's gradient is g.select(dim, i)."""

    node_name = "StackBackward0"

    @staticmethod
    def forward(ctx: Any, dim: int, *xs: Tensor) -> np.ndarray:
        if not xs:
            raise RuntimeError("stack expects a non-empty TensorList")
        for i, x in enumerate(xs):
            if x._array.shape != xs[0]._array.shape:
                raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(xs[0].shape)} at entry "
                                   f"0 and {list(x.shape)} at entry {i}")
        ctx.dim = _dim(dim, xs[0]._array.ndim + 1)
        ctx.dtypes = [x._array.dtype for x in xs]
        return np.stack(_promoted_all([x._array for x in xs]), axis=ctx.dim)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (None, *[_as_dtype(g.select(ctx.dim, i), ctx.dtypes[i]) if need else None
                        for i, need in enumerate(ctx.needs_input_grad[1:])])


class Unbind(Function):
    """Split along ``dim`` into one view per index (``list(x)`` and ``for row in x`` give these).

    Each output is ``x.select(dim, i)``; together their gradients are ``stack(gs, dim)`` (an output that got
    no gradient contributes zeros).
    """

    node_name = "UnbindBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> tuple[np.ndarray, ...]:
        a = x._array
        if a.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        ctx.dim = dim = _dim(dim, a.ndim)
        return tuple(a[(slice(None),) * dim + (i,)] for i in range(a.shape[dim]))

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple:
        return Stack.apply(ctx.dim, *grads), None


@numpy_names
def unbind(x: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    return Unbind.apply(x, dim)


@numpy_names
def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    if isinstance(tensors, Tensor):  # cat(a, b): the tensors go in one list, cat([a, b])
        tensor_list("cat", tensors, Tensor)
    try:
        return Cat.apply(dim, *tensors)
    except AttributeError:  # (a number or a list among them)
        tensor_list("cat", tensors, Tensor)
        raise


@numpy_names
def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    if isinstance(tensors, Tensor):
        tensor_list("stack", tensors, Tensor)
    try:
        return Stack.apply(dim, *tensors)
    except AttributeError:
        tensor_list("stack", tensors, Tensor)
        raise


# ---------------------------------------------------------------------------------------------- indexing
class Index(Function):
    """``x[key]`` with integer-array or boolean keys (advanced indexing, which copies).

    dx = zeros like x with g *added* at ``key`` (np.add.at: an index may repeat, and then its gradient
    is the sum of all its uses).
    """

    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, key: Any) -> np.ndarray:
        ctx.in_shape, ctx.key = x._array.shape, key
        save_indices(ctx, key)
        try:
            out = x._array[key]
            if isinstance(out, np.generic):  # one element: numpy gives a scalar (a copy); with "..." a 0-d view
                out = x._array[(*key, Ellipsis) if isinstance(key, tuple) else (key, Ellipsis)]
            return out
        except IndexError as e:
            raise IndexError(index_message(str(e), x._array.shape, key)) from None

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        ctx.saved_tensors  # noqa: B018  (the indices: freed after a backward, as PyTorch's, so a second one raises)
        return IndexGrad.apply(g, ctx.in_shape, ctx.key), None


def save_indices(ctx: Any, key: Any) -> None:
    """Save an advanced key's index arrays, as PyTorch saves ``indices``: a second backward through the node then
    finds them freed and says so (basic keys, ints and slices, are not saved: a view's node can run again)."""
    arrays = [k for k in (key if isinstance(key, tuple) else (key,)) if isinstance(k, np.ndarray)]
    if arrays:
        ctx.save_for_backward(*[_wrap(a) for a in arrays])


class Select(Index):
    """``x[i]`` / ``x.select(dim, i)``: one index along one dimension (a view)."""

    node_name = "SelectBackward0"
    is_view = True


class Slice(Index):
    """``x[a:b:c]`` / ``x.narrow(dim, start, length)``: a range along one dimension (a view)."""

    node_name = "SliceBackward0"
    is_view = True


class IndexGrad(Function):
    """The backward of indexing (zeros with g scattered in), itself differentiable: its backward indexes."""

    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx: Any, g: Tensor, shape: tuple, key: Any) -> np.ndarray:
        ctx.key = key
        out = np.zeros(shape, dtype=g._array.dtype)
        np.add.at(out, key, g._array)
        return out

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        return Index.apply(gg, ctx.key), None, None


def _to_numpy_key(k: Any) -> Any:
    if isinstance(k, Tensor):
        return k._array
    if isinstance(k, list):
        return np.asarray([_to_numpy_key(i) for i in k])
    return k


def getitem(x: Tensor, key: Any) -> Tensor:
    """Python indexing. Plain ints and slices give views, one SelectBackward0/SliceBackward0 per
    dimension as in PyTorch; tensors, lists and masks give IndexBackward0 (a copy)."""
    keys = key if isinstance(key, tuple) else (key,)
    keys = tuple(_to_numpy_key(k) for k in keys)
    steps = [k.step for k in keys if isinstance(k, slice) and k.step is not None]
    if any(step <= 0 for step in steps):
        if 0 in steps:
            raise ValueError("slice step cannot be zero")  # (Python's own words, as PyTorch lets them through)
        # (a tensor's strides are never negative in PyTorch: x[::-1] has no view to give; x.flip(0) is the copy)
        raise ValueError("step must be greater than zero")
    if x._array.ndim == 0 and keys and keys[0] is not None and keys[0] is not Ellipsis:
        first = keys[0]  # a 0-d tensor has no dimension to index; only a bool (mask) key adds one
        if isinstance(first, slice):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if isinstance(first, (int, np.integer)) and not isinstance(first, (bool, np.bool_)):
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                             "in C++ to convert a 0-dim tensor to a number")
        if not isinstance(first, (bool, np.bool_)) and getattr(first, "dtype", None) != np.bool_:
            raise IndexError("too many indices for tensor of dimension 0")
    if not all(isinstance(k, (int, np.integer, slice)) or k is None or k is Ellipsis for k in keys):
        return Index.apply(x, keys if isinstance(key, tuple) else keys[0])
    # Basic indexing: apply one dimension at a time, exactly as PyTorch records it.
    n_real = sum(1 for k in keys if k is not None and k is not Ellipsis)
    if n_real > x._array.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x._array.ndim}")
    out, dim = x, 0
    for position, k in enumerate(keys):
        if k is Ellipsis:
            dim += x._array.ndim - n_real
        elif k is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif isinstance(k, slice):
            if k != slice(None):
                out = Slice.apply(out, (slice(None),) * dim + (k,))
            dim += 1
        else:
            size = out._array.shape[dim]
            if not -size <= k < size:  # (PyTorch's message counts the key's place in the index, not dimensions)
                raise IndexError(f"index {k} is out of bounds for dimension {position} with size {size}")
            out = Select.apply(out, (slice(None),) * dim + (int(k),))
    if out is x:  # x[:] or x[...]: PyTorch returns a new view, recorded as AliasBackward0
        out = Alias.apply(x)
    return out


class Alias(Function):
    node_name = "AliasBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        return x._array.view()

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return g


def select(x: Tensor, dim: int, index: int) -> Tensor:
    if x._array.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _dim(dim, x._array.ndim)
    size = x._array.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(x._array.shape)} at "
                         f"dimension {dim}")
    return Select.apply(x, (slice(None),) * dim + (index,))


def narrow(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    """``length`` elements along ``dim`` from ``start`` (which may count from the end), as a view."""
    dim = _dim(dim, x._array.ndim)
    size = x._array.shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    start %= max(size, 1)  # a slice would read a negative start + length as counted from the end too
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return Slice.apply(x, (slice(None),) * dim + (slice(start, start + length),))


# ------------------------------------------------------------------------------- split, flip, roll, rot90 ...
class Split(Function):
    """``x.split(size, dim)`` / ``x.chunk(n, dim)``: consecutive pieces along ``dim``, each a view of x.
    The gradient of x is the pieces' gradients laid side by side again (cat; a piece that got none gives 0)."""

    node_name = "SplitBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, sizes: tuple[int, ...], dim: int) -> tuple[np.ndarray, ...]:
        ctx.dim, starts = dim, np.cumsum((0, *sizes))
        a = x._array
        return tuple(a[(slice(None),) * dim + (slice(s, s + n),)] for s, n in zip(starts, sizes))

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple:
        return Cat.apply(ctx.dim, *grads), None, None


class SplitWithSizes(Split):
    """``x.split([2, 3], dim)``: pieces of the given sizes (which must add up to x's size along dim)."""

    node_name = "SplitWithSizesBackward0"


def split(x: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple[Tensor, ...]:
    """Cut x along ``dim`` into pieces of ``split_size`` (the last may be smaller), or of the listed sizes."""
    if x._array.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = _dim(dim, x._array.ndim)
    n = x._array.shape[dim]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = tuple(int(s) for s in split_size_or_sections)
        if sum(sizes) != n or any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
                               f"dimension {dim}), but got split_sizes={list(sizes)}")
        return SplitWithSizes.apply(x, sizes, dim)
    size = int(split_size_or_sections)
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
    if size == 0 and n:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
    count = max(-(-n // size), 1) if size else 1
    sizes = tuple(min(size, n - i * size) for i in range(count))
    return Split.apply(x, sizes, dim)


@numpy_names
def chunk(x: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """Cut x along ``dim`` into ``chunks`` pieces of equal size, rounded up (so there may be fewer pieces)."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if x._array.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    n = x._array.shape[_dim(dim, x._array.ndim)]
    return split(x, -(-n // chunks), dim)


def _dims_arg(dims: Sequence[Any], ndim: int) -> tuple[int, ...]:
    """``flip(0, 1)``, ``flip((0, 1))`` or ``flip([0, 1])``: the dims wrapped, each at most once."""
    return each_once(tuple(_dim(d, ndim) for d in _shape_arg(dims)))


class Flip(Function):
    """Reverse the order of the elements along ``dims`` (a copy). dx = g flipped back along the same dims."""

    node_name = "FlipBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple[int, ...]) -> np.ndarray:
        ctx.dims = dims
        return np.flip(x._array, dims).copy() if x._array.ndim else x._array.copy()  # (a 0-d x: dim 0 is itself)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return Flip.apply(g, ctx.dims), None


def flip(x: Tensor, *dims: Any) -> Tensor:
    if not dims:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    return Flip.apply(x, _dims_arg(dims, x._array.ndim))


def fliplr(x: Tensor) -> Tensor:
    """Left to right: flip dim 1."""
    if x._array.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return Flip.apply(x, (1,))


def flipud(x: Tensor) -> Tensor:
    """Up to down: flip dim 0."""
    if x._array.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return Flip.apply(x, (0,))


class Roll(Function):
    """Shift the elements along ``dims`` by ``shifts``, those pushed off the end coming back at the start (with
    no dims: along x read as 1-D). dx = g rolled back by -shifts."""

    node_name = "RollBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, shifts: tuple[int, ...], dims: tuple[int, ...] | None) -> np.ndarray:
        ctx.shifts, ctx.dims = shifts, dims
        return np.roll(x._array, shifts if dims is not None else shifts[0], dims)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return Roll.apply(g, tuple(-s for s in ctx.shifts), ctx.dims), None, None


def roll(x: Tensor, shifts: int | Sequence[int], dims: int | Sequence[int] | None = None) -> Tensor:
    shifts = tuple(shifts) if isinstance(shifts, (list, tuple)) else (int(shifts),)
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return Roll.apply(x, shifts, None)
    dims = tuple(dims) if isinstance(dims, (list, tuple)) else (dims,)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    return Roll.apply(x, shifts, tuple(_dim(d, x._array.ndim) for d in dims))


class Rot90(Function):
    """Rotate by 90 degrees ``k`` times in the plane of ``dims``, from the first axis towards the second
    (a copy). dx = g rotated back: k times the other way."""

    node_name = "Rot90Backward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, k: int, dims: tuple[int, int]) -> np.ndarray:
        ctx.k, ctx.dims = k, dims
        return np.rot90(x._array, k, dims).copy()

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return Rot90.apply(g, -ctx.k, ctx.dims), None, None


def rot90(x: Tensor, k: int = 1, dims: Sequence[int] = (0, 1)) -> Tensor:
    nd = x._array.ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if nd < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {nd}")
    d0, d1 = _dim(dims[0], nd), _dim(dims[1], nd)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    return Rot90.apply(x, k % 4, (d0, d1))


def tile(x: Tensor, *dims: Any) -> Tensor:
    """``repeat`` that accepts fewer sizes than x has dims (the missing leading ones count as 1)."""
    reps = _shape_arg(dims)
    return Repeat.apply(x, (1,) * (x._array.ndim - len(reps)) + reps)


def repeat_interleave(x: Tensor, repeats: Any, dim: int | None = None, *, output_size: int | None = None) -> Tensor:
    """Repeat each element (each slice along ``dim``) ``repeats`` times in place: [a, b] -> [a, a, b, b].

    With no dim x is read as 1-D first. PyTorch's recipe, and so its graph: a new axis after dim, expanded to
    ``repeats``, copied, and merged with dim (``ViewBackward0 <- CloneBackward0 <- ExpandBackward0 <-
    UnsqueezeBackward0``). A tensor of repeats (one per slice) picks the slices with ``index_select``.
    """
    if dim is None:
        x, dim = x.reshape(-1), 0
    dim = _dim(dim, x._array.ndim)
    if isinstance(repeats, Tensor) and repeats._array.size != 1:
        r = repeats._array
        if (r < 0).any():
            raise RuntimeError("repeats can not be negative")
        if r.ndim != 1 or len(r) != x._array.shape[dim]:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{r.size} and input.size({dim}) = {x._array.shape[dim]}")
        return x.index_select(dim, _wrap(np.repeat(np.arange(len(r)), r)))
    r = int(repeats)
    if r < 0:
        raise RuntimeError("Repeats must be non-negative")
    sh = x._array.shape
    wide = x.unsqueeze(dim + 1).expand(*sh[:dim + 1], r, *sh[dim + 1:])
    return wide.clone().view(*sh[:dim], sh[dim] * r, *sh[dim + 1:])


def unflatten(x: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    """Split dimension ``dim`` into several of the given sizes (one may be -1): the inverse of flatten."""
    dim = _dim(dim, x._array.ndim)
    n, sizes = x._array.shape[dim], tuple(int(s) for s in sizes)
    known = int(np.prod([s for s in sizes if s != -1]))
    if (-1 in sizes and (known == 0 or n % known)) or (-1 not in sizes and known != n):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} ({n}) "
                           "in the input tensor")
    sizes = tuple(n // known if s == -1 else s for s in sizes)
    return x.reshape(*x._array.shape[:dim], *sizes, *x._array.shape[dim + 1:])


def movedim(x: Tensor, source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor:
    """Move dims ``source`` to positions ``destination``, the others keeping their order (a permute)."""
    src = tuple(source) if isinstance(source, (list, tuple)) else (source,)
    dst = tuple(destination) if isinstance(destination, (list, tuple)) else (destination,)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should contain "
                           f"the same number of dims as destination ({list(dst)} dims)")
    nd = x._array.ndim
    src, dst = tuple(_dim(d, nd) for d in src), tuple(_dim(d, nd) for d in dst)
    for name, ds in (("source", src), ("destination", dst)):
        for d in ds:
            if ds.count(d) > 1:
                raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(ds)})")
    order = [None] * nd
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(nd) if d not in src)
    return Permute.apply(x, tuple(o if o is not None else next(rest) for o in order))


# ------------------------------------------------------------------------------------ triangles, diagonals
class Tril(Function):
    """Keep the lower triangle of the last two dims (``j <= i + diagonal``), zeros above.
    dx = g.tril(diagonal): the gradient passes where the value was kept."""

    node_name = "TrilBackward0"
    _np = staticmethod(np.tril)

    @staticmethod
    def forward(ctx: Any, x: Tensor, k: int) -> np.ndarray:
        if x._array.ndim < 2:
            raise RuntimeError(f"{ctx._forward_cls.__name__.lower()}: input tensor must have at least 2 dimensions")
        ctx.k = k
        return ctx._forward_cls._np(x._array, k)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return ctx._forward_cls.apply(g, ctx.k), None


class Triu(Tril):
    """Keep the upper triangle (``j >= i + diagonal``), zeros below. dx = g.triu(diagonal)."""

    node_name = "TriuBackward0"
    _np = staticmethod(np.triu)


def _diagonal_view(a: np.ndarray, offset: int, d1: int, d2: int) -> np.ndarray:
    """The diagonal of ``a`` in the plane (d1, d2) as a writable view (numpy's own is read-only): the other
    dims first, the diagonal last. Stepping along it moves one row and one column: the two strides added."""
    b = np.moveaxis(a, (d1, d2), (-2, -1))
    b = b[..., :, offset:] if offset >= 0 else b[..., -offset:, :]
    n = max(min(b.shape[-2], b.shape[-1]), 0)
    return np.lib.stride_tricks.as_strided(b, (*b.shape[:-2], n), (*b.strides[:-2], b.strides[-2] + b.strides[-1]),
                                           writeable=a.flags.writeable)


def _plane(nd: int, d1: int, d2: int) -> tuple[int, int]:
    d1, d2 = _dim(d1, nd), _dim(d2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {d1}, {d2}")
    return d1, d2


class Diagonal(Function):
    """``x.diagonal(offset, dim1, dim2)``: the elements ``x[i, i + offset]`` of the plane (dim1, dim2), as a
    view, in a new last dim. dx = zeros with g written back on that diagonal."""

    node_name = "DiagonalBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, offset: int, d1: int, d2: int) -> np.ndarray:
        ctx.shape, ctx.args = x._array.shape, (offset, d1, d2)
        return _diagonal_view(x._array, offset, d1, d2)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return DiagonalGrad.apply(g, ctx.shape, *ctx.args), None, None, None


class DiagonalCopy(Diagonal):
    """``x.diag()`` of a matrix: its diagonal as a copy (PyTorch names this node with a "_copy" suffix)."""

    node_name = "DiagonalBackward0_copy"
    is_view = False

    @staticmethod
    def forward(ctx: Any, x: Tensor, offset: int, d1: int, d2: int) -> np.ndarray:
        return Diagonal.forward(ctx, x, offset, d1, d2).copy()


class DiagonalGrad(Function):
    """Zeros of ``shape`` with g on the diagonal (offset, d1, d2): diagonal's backward. Its own backward
    reads the diagonal again."""

    node_name = "DiagonalBackwardBackward0"

    @staticmethod
    def forward(ctx: Any, g: Tensor, shape: tuple[int, ...], offset: int, d1: int, d2: int) -> np.ndarray:
        ctx.args = (offset, d1, d2)
        out = np.zeros(shape, g._array.dtype)
        _diagonal_view(out, offset, d1, d2)[...] = g._array
        return out

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        return Diagonal.apply(gg, *ctx.args), None, None, None, None


class DiagEmbed(Function):
    """``x.diag_embed(offset, dim1, dim2)``: each vector along x's last dim becomes the diagonal of a square
    matrix of zeros in the plane (dim1, dim2) of the result. dx = g.diagonal(offset, dim1, dim2)."""

    node_name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, offset: int, d1: int, d2: int) -> np.ndarray:
        a = x._array
        n = a.shape[-1] + abs(offset)
        shape = list(a.shape[:-1])
        for d in sorted((d1, d2)):
            shape.insert(d, n)
        out = np.zeros(shape, a.dtype)
        _diagonal_view(out, offset, d1, d2)[...] = a
        ctx.args = (offset, d1, d2)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return Diagonal.apply(g, *ctx.args), None, None, None


def diagonal(x: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    return Diagonal.apply(x, offset, *_plane(x._array.ndim, dim1, dim2))


def diag_embed(x: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    return DiagEmbed.apply(x, offset, *_plane(x._array.ndim + 1, dim1, dim2))


def diag(x: Tensor, diagonal: int = 0) -> Tensor:
    """A vector becomes a diagonal matrix (``diag_embed``); a matrix gives its diagonal as a vector (a copy)."""
    nd = x._array.ndim
    if nd == 1:
        return DiagEmbed.apply(x, diagonal, 0, 1)
    if nd == 2:
        return DiagonalCopy.apply(x, diagonal, 0, 1)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {nd}D")


# ---------------------------------------------------------------------------------------------- stacking
def _at_least(x: Tensor, nd: int) -> Tensor:
    """x with size-1 dims added up to ``nd`` dims, as numpy's atleast_2d/3d place them."""
    a = x._array
    if a.ndim >= nd:
        return x
    if a.ndim == 0:
        return x.reshape((1,) * nd)
    if nd == 2 or a.ndim == 2:  # (n,) -> (1, n); (m, n) -> (m, n, 1)
        return x.unsqueeze(0) if nd == 2 else x.unsqueeze(-1)
    return x.unsqueeze(0).unsqueeze(-1)  # (n,) -> (1, n, 1)


def _tensor_list(name: str, tensors: Sequence[Tensor]) -> list[Tensor]:
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return list(tensors)


def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """Side by side: vectors end to end (dim 0), anything larger along dim 1."""
    ts = [_at_least(t, 1) for t in _tensor_list("hstack", tensors)]
    return cat(ts, 0 if ts[0]._array.ndim == 1 else 1)


def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """One above the other (dim 0), vectors taken as rows."""
    return cat([_at_least(t, 2) for t in _tensor_list("vstack", tensors)], 0)


def dstack(tensors: Sequence[Tensor]) -> Tensor:
    """In depth (dim 2), after making each at least 3-d: (n,) -> (1, n, 1), (m, n) -> (m, n, 1)."""
    return cat([_at_least(t, 3) for t in _tensor_list("dstack", tensors)], 2)


def column_stack(tensors: Sequence[Tensor]) -> Tensor:
    """Vectors as the columns of a matrix (dim 1); matrices are placed side by side."""
    ts = _tensor_list("column_stack", tensors)
    return cat([t.reshape(t._array.size, 1) if t._array.ndim <= 1 else t for t in ts], 1)


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    """Coordinate grids from 1-D tensors: with ``indexing="ij"`` grid k varies along dim k; with "xy" (the
    plotting convention) the first two swap, so grid 0 varies along the columns. Each grid is a broadcast
    view (``expand``) of its vector: no copies."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warn_once("meshgrid", "tinygrad_edu.meshgrid: in an upcoming release, it will be required to pass the "
                  "indexing argument.")  # (once per process, as PyTorch warns)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'tinygrad_edu.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t._array.ndim > 1:
            raise RuntimeError(f"tinygrad_edu.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    sizes = [t._array.size for t in tensors]
    axes = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) >= 2:
        axes[0], axes[1] = 1, 0
        sizes[0], sizes[1] = sizes[1], sizes[0]
    return tuple(t.reshape(*(-1 if d == ax else 1 for d in range(len(sizes)))).expand(*sizes)
                 for t, ax in zip(tensors, axes))


def atleast_1d(*tensors: Any) -> Any:
    """Each tensor with at least 1 dimension: a 0-d tensor becomes shape (1,), others are returned as they are.
    Several tensors (or one list of them) give a tuple."""
    return _each_at_least(tensors, 1)


def atleast_2d(*tensors: Any) -> Any:
    """Each tensor with at least 2 dimensions: () -> (1, 1), (n,) -> (1, n)."""
    return _each_at_least(tensors, 2)


def atleast_3d(*tensors: Any) -> Any:
    """Each tensor with at least 3 dimensions: () -> (1, 1, 1), (n,) -> (1, n, 1), (m, n) -> (m, n, 1)."""
    return _each_at_least(tensors, 3)


def _each_at_least(tensors: tuple, nd: int) -> Any:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(_at_least(t, nd) for t in tensors[0])
    if len(tensors) == 1:
        return _at_least(tensors[0], nd)
    return tuple(_at_least(t, nd) for t in tensors)


def tensor_split(x: Tensor, indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Views of x cut along ``dim``: into n pieces as equal as can be (the first ``size % n`` one longer:
    ``tensor_split(arange(7), 3)`` is 3, 2, 2), or at the given positions (``[1, 4]``: x[:1], x[1:4], x[4:]).
    Unlike ``split``, each piece is a slice of its own (SliceBackward0), as in PyTorch."""
    if x._array.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    dim = _dim(dim, x._array.ndim)
    size = x._array.shape[dim]
    if isinstance(indices_or_sections, Tensor):  # (a 0-d tensor: a number of sections; 1-d: positions)
        a = indices_or_sections._array
        indices_or_sections = int(a) if a.ndim == 0 else a.tolist()
    if isinstance(indices_or_sections, (int, np.integer)):
        n = int(indices_or_sections)
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        lengths = [size // n + (1 if i < size % n else 0) for i in range(n)]
        bounds = np.concatenate([[0], np.cumsum(lengths)]).tolist()
    else:
        bounds = [0, *(int(i) for i in indices_or_sections), size]
    pieces = []
    for start, stop in pairwise(bounds):
        start, stop, _ = slice(start, stop).indices(size)  # (Python's slices: -1 counts from the end)
        pieces.append(Slice.apply(x, (slice(None),) * dim + (slice(start, max(start, stop)),)))
    return tuple(pieces)
