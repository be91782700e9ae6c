"""``as_strided`` and ``as_strided_``: a view described directly by where its elements sit in memory.

Every view (``x[1]``, ``x.t()``, ``x.view(-1)``) is, underneath, sizes and strides over its base's storage: element
``(i, j)`` of a view with strides ``(s0, s1)`` and storage offset ``o`` is storage element ``o + i*s0 + j*s1``.
``as_strided(size, stride, storage_offset)`` lets you write those numbers yourself::

    x = torch.arange(6.).reshape(2, 3)     # storage 0 1 2 3 4 5
    x.as_strided((2, 2), (1, 2))           # [[0, 2], [1, 3]]: down by 1 element, right by 2

Its gradient puts g back where each element came from in memory, and reads out the part the input covers:
``d input = as_strided(as_strided_scatter(zeros, g))`` (``AsStridedBackward0``; elements read twice add up).
``as_strided_`` does the same to a tensor in place: the tensor itself now describes other memory (a new
version, as for any in-place change), and its history gains ``AsStridedBackward1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._checks import wrap_dim
from ..core.function import Function, gradient_edge, wrap
from ..core.grad_mode import GradMode
from ..core.tensor import Tensor
from . import views
from .views import AsStrided, AsStridedScatter, Geometry


def _storage(t: Tensor) -> np.ndarray:
    """The array that owns ``t``'s memory, at the root of numpy's ``.base`` chain (what ``storage_offset`` counts
    from)."""
    root = t._array
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root


def _strided(t: Tensor, size: Sequence[int], stride: Sequence[int], storage_offset: int | None) -> np.ndarray:
    """An array over ``t``'s storage with these sizes, strides and offset (in elements), PyTorch's refusals first."""
    size, stride = tuple(int(n) for n in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}")
    offset = t.storage_offset() if storage_offset is None else int(storage_offset)
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    root, item = _storage(t), t._array.itemsize
    needed = 0 if 0 in size else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if needed > root.size:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                           f"itemsize {item} requiring a storage size of {needed * item} are out of bounds for storage "
                           f"of size {root.size * item}")
    memory = root.ravel(order="K")  # (an owner's memory is one block: a view, in memory order, whose base is root)
    return np.ndarray(size, root.dtype, buffer=memory, offset=offset * item, strides=tuple(s * item for s in stride))


def _base_array(t: Tensor) -> np.ndarray:
    return (t if t._base is None else t._base)._array


class AsStridedView(Function):
    """``x.as_strided(size, stride, storage_offset)``: a view of x's storage. g goes back to the memory each
    element was read from, and x gets the part of that memory it covers (0 where the view did not read)."""

    node_name = "AsStridedBackward0"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, size: Sequence[int], stride: Sequence[int], offset: int | None) -> np.ndarray:
        out = _strided(x, size, stride, offset)
        base = _base_array(x)
        ctx.read, ctx.input = Geometry(base, out), Geometry(base, x._array)
        ctx._saved_size, ctx._saved_stride = out.shape, tuple(s // out.itemsize for s in out.strides)
        ctx._saved_storage_offset = offset if offset is not None else x.storage_offset()
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return _strided_grad(g, ctx.read, ctx.input), None, None, None


def _strided_grad(g: Tensor, read: Geometry, input: Geometry) -> Tensor:
    """g (of the elements ``read`` names) put back in memory, then the part ``input`` covers read out."""
    whole = AsStridedScatter.apply(wrap(np.zeros(read.base[0], g._array.dtype)), g, read, True)
    return AsStrided.apply(whole, input)


class AsStridedInPlace(Function):
    """The node ``as_strided_`` adds to a tensor's history (``AsStridedBackward1``): made by hand, since the
    tensor itself changes; its backward is as_strided's (its geometry: the elements read now, and before)."""

    node_name = "AsStridedBackward1"

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (_strided_grad(g, ctx.geometry, ctx.before),)


def as_strided(x: Tensor, size: Sequence[int], stride: Sequence[int], storage_offset: int | None = None) -> Tensor:
    """A view of x's storage with the given sizes, strides and offset, counted in elements (see the module)."""
    return AsStridedView.apply(x, size, stride, storage_offset)


class Unfold(AsStridedView):
    """``x.unfold(dimension, size, step)``: every window of ``size`` elements along ``dimension``, ``step`` apart, as
    a new last dimension: ``arange(1., 8).unfold(0, 2, 1)`` is [[1, 2], [2, 3], ...]. A view, as_strided's: the
    windows overlap in memory when step < size, so an element read by two windows gets both their gradients."""

    node_name = "UnfoldBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, size: Sequence[int], stride: Sequence[int], window: tuple) -> np.ndarray:
        out = AsStridedView.forward(ctx, x, size, stride, None)
        ctx._saved_dimension, ctx._saved_size, ctx._saved_step = window  # (what PyTorch's node shows)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return AsStridedView.backward(ctx, g)


def unfold(x: Tensor, dimension: int, size: int, step: int) -> Tensor:
    a = x._array
    d = wrap_dim(dimension, a.ndim)
    length = a.shape[d] if a.ndim else 1
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    strides = [s // a.itemsize for s in a.strides] or [1]
    shape, along = [*a.shape] or [1], strides[d]
    shape[d], strides[d] = (length - size) // step + 1, along * step
    return Unfold.apply(x, (*shape, size), (*strides, along), (d, size, step))


def as_strided_(x: Tensor, size: Sequence[int], stride: Sequence[int], storage_offset: int | None = None) -> Tensor:
    """``as_strided`` in place: x itself now reads the memory these sizes, strides and offset describe. Refused as
    any in-place change of x would be (a leaf that requires grad, a view made in no_grad, one of several views)."""
    recording = GradMode.enabled and (x._requires_grad or views.base_requires_grad(x))
    if recording:
        views.check_inplace(x)
    new = _strided(x, size, stride, storage_offset)
    if recording:
        base = _base_array(x)
        node = views._node(AsStridedInPlace, (gradient_edge(x),), Geometry(base, new))
        node.before = Geometry(base, x._array)
        x.grad_fn, x._output_nr, x._requires_grad = node, 0, True
    x._array = new
    x._version_counter[0] += 1
    if x._base is not None:  # (its history is right for this new version: nothing to rebuild)
        x._view_version = x._version_counter[0]
    return x
