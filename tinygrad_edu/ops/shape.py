"""Shape operations: views, transposes, reshapes, concatenation, indexing, and ``sum_to``.

Most of these move no numbers: numpy hands back a *view* of the same memory, and so do we (``is_view``),
sharing the version counter so in-place changes through either are seen. Their backward only moves
the gradient back to the input's layout: the inverse reshape, the inverse permutation, a sum over
expanded dimensions, a scatter into zeros for indexing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._dtype import LEGACY_NAMES, promote_types
from .._tensor import Tensor, _wrap
from ..autograd.function import Function
from ..autograd.grad_mode import GradMode


def sum_to(grad: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Sum a gradient of a broadcast result back down to an input's ``shape``.

    Broadcasting stretched the input: an input of shape ``(3, 1)`` added to one of shape ``(2, 3, 4)``
    was used as if it were ``(2, 3, 4)``: prepended dimension 0 (size 2) and its size-1 dimension 2
    repeated 4 times. Every copy contributed to the output, so the input's gradient is the *sum* of the
    copies' gradients: sum over dim 0 (dropping it) and over dim 2 (keeping it as size 1)::

        sum_to(g, (3, 1))   # g.shape == (2, 3, 4)  ->  g.sum((0, 2), keepdim=True).reshape(3, 1)
    """
    gshape = grad._array.shape
    if gshape == shape:
        return grad
    lead = len(gshape) - len(shape)
    dims = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape) if n == 1 and gshape[lead + i] != 1)
    if not GradMode.enabled:  # nothing is recorded (backward without create_graph): numpy's sum, not two ops
        return _wrap(grad._array.sum(axis=dims, keepdims=True).reshape(shape))
    out = grad.sum(dims, keepdim=True) if dims else grad
    return out.reshape(shape) if lead else out


def broadcast_shapes(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape two shapes broadcast to (align on the right; a 1 stretches), with PyTorch's message if none."""
    nd = max(len(a), len(b))
    a, b = (1,) * (nd - len(a)) + tuple(a), (1,) * (nd - len(b)) + tuple(b)
    for d in range(nd - 1, -1, -1):  # PyTorch checks from the last dimension, and reports the first misfit
        m, n = a[d], b[d]
        if m != n and m != 1 and n != 1:
            raise RuntimeError(f"The size of tensor a ({m}) must match the size of tensor b ({n}) at non-singleton "
                               f"dimension {d}")
    return tuple(n if m == 1 else m for m, n in zip(a, b))


def _dim(d: int, ndim: int) -> int:
    """Wrap a negative dim (-1 is the last) and check its range, with PyTorch's message."""
    n = max(ndim, 1)
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d % n


def _shape_arg(shape: Sequence[Any]) -> tuple[int, ...]:
    """Accept both ``view(2, 3)`` and ``view((2, 3))``."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def _infer(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if (-1 in shape and (known == 0 or numel % known)) or (-1 not in shape and known != numel):
        raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
    return tuple(numel // known if s == -1 else s for s in shape)


class View(Function):
    """Same numbers, new shape, same memory. dx = g.reshape(x.shape)."""

    node_name = "ViewBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, shape: tuple[int, ...]) -> np.ndarray:
        a = x._array
        ctx.in_shape = a.shape
        out = _reshaped_view(a, _infer(shape, a.size))
        if out is None:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one dimension spans "
                "across two contiguous subspaces). Use .reshape(...) instead."
            )
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g.reshape(ctx.in_shape), None


def _reshaped_view(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """``a`` seen with a new shape, sharing its memory; None when its layout needs a copy for that."""
    try:
        return np.reshape(a, shape, copy=False)  # numpy refuses (instead of copying) when the layout does not allow it
    except ValueError:
        return None


class ReshapeAlias(View):
    """A reshape of a non-contiguous tensor whose strides still allow a view (e.g. ``x.t().reshape(3, 2, 1)``)."""

    node_name = "ReshapeAliasBackward0"


class UnsafeView(Function):
    """A reshape that had to copy (the input was not contiguous)."""

    node_name = "UnsafeViewBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, shape: tuple[int, ...]) -> np.ndarray:
        ctx.in_shape = x._array.shape
        return x._array.reshape(_infer(shape, x._array.size))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g.reshape(ctx.in_shape), None


def reshape(x: Tensor, *shape: Any) -> Tensor:
    """A view when the memory layout allows it, otherwise a copy, recorded as PyTorch records them:

    * contiguous input: ``ViewBackward0``;
    * non-contiguous, but the strides allow the new shape: ``ReshapeAliasBackward0`` (still a view);
    * otherwise: a contiguous copy (``CloneBackward0``), then ``UnsafeViewBackward0`` on the copy.
    """
    shape = _shape_arg(shape)
    a = x._array
    if a.flags.c_contiguous or a.size <= 1:
        return View.apply(x, shape)
    if _reshaped_view(a, _infer(shape, a.size)) is not None:
        return ReshapeAlias.apply(x, shape)
    return UnsafeView.apply(x.contiguous(), shape)


def view(x: Tensor, *shape: Any) -> Tensor:
    return View.apply(x, _shape_arg(shape))


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

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        if x._array.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x._array.ndim}D")
        return x._array.T

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
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


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"


def squeeze(x: Tensor, dim: int | tuple | None = None) -> Tensor:
    if dim is None:
        return Squeeze.apply(x)
    return (SqueezeDim if isinstance(dim, int) else SqueezeDims).apply(x, dim)


class Unsqueeze(Function):
    """Insert a size-1 dimension at ``dim``. dx = g.squeeze(dim)."""

    node_name = "UnsqueezeBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> np.ndarray:
        ctx.dim = _dim(dim, x._array.ndim + 1)
        return np.expand_dims(x._array, ctx.dim)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g.squeeze(ctx.dim), None


class Expand(Function):
    """Broadcast size-1 dimensions to a larger size without copying. dx = sum_to(g, x.shape)."""

    node_name = "ExpandBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, shape: tuple[int, ...]) -> np.ndarray:
        a = x._array
        ctx.in_shape = a.shape
        lead = len(shape) - a.ndim
        if lead < 0:
            raise RuntimeError(f"expand(tinygrad_edu.{LEGACY_NAMES[x.dtype]}{{[{', '.join(map(str, a.shape))}]}}, "
                               f"size=[{', '.join(map(str, shape))}]): the number of sizes provided ({len(shape)}) "
                               f"must be greater or equal to the number of dimensions in the tensor ({a.ndim})")
        target = tuple(a.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
        for i, n in enumerate(a.shape):
            if n != 1 and n != target[lead + i]:
                raise RuntimeError(f"The expanded size of the tensor ({target[lead + i]}) must match the existing size "
                                   f"({n}) at non-singleton dimension {lead + i}.  Target sizes: "
                                   f"[{', '.join(map(str, shape))}].  Tensor sizes: [{', '.join(map(str, a.shape))}]")
        return np.broadcast_to(a, target)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return sum_to(g, ctx.in_shape), None


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


def unbind(x: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    return Unbind.apply(x, dim)


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    return Cat.apply(dim, *tensors)


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    return Stack.apply(dim, *tensors)


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
        try:
            out = x._array[key]
            if isinstance(out, np.generic):  # one element: numpy gives a scalar (a copy); with "..." a 0-d view
                out = x._array[(*key, Ellipsis) if isinstance(key, tuple) else (key, Ellipsis)]
            return out
        except IndexError as e:
            raise IndexError(str(e).replace("axis", "dimension")) from None

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return IndexGrad.apply(g, ctx.in_shape, ctx.key), None


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
    dim = _dim(dim, x._array.ndim)
    return Select.apply(x, (slice(None),) * dim + (index,))


def narrow(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    dim = _dim(dim, x._array.ndim)
    return Slice.apply(x, (slice(None),) * dim + (slice(start, start + length),))
