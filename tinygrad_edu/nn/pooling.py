"""Pooling: ``F.max_pool1d``/``2d``/``3d``, ``F.avg_pool1d``/``2d``/``3d``, ``F.adaptive_avg_pool1d``/``2d``/``3d``,
``F.adaptive_max_pool1d``/``2d``, ``F.lp_pool1d``/``2d``/``3d`` and their layers (``nn.MaxPool2d`` ...), each one
Function with PyTorch's node name (the power-average pools composed, as in PyTorch). The 3-d forms are the 2-d
machinery over one more dimension.

A pooling layer summarises each window of a feature map by one number, channel by channel (no weights): the
largest (max pooling: "is the feature anywhere here?") or the mean (average pooling). The windows are placed as a
convolution's are: ``kernel_size``, ``stride`` (by default the kernel size: windows side by side), ``padding`` and,
for max pooling, ``dilation``. With ``ceil_mode=True`` a last, partial window is kept at the bottom and right edges.

PyTorch has 2-d kernels only: the 1-d forms are the 2-d ones on the input with a dimension of size 1 added
(``UnsqueezeBackward0 -> MaxPool2DWithIndicesBackward0 -> SqueezeBackward1``), and so are they here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from ..core.function import Function
from ..ops import unrecorded
from .conv import _windows
from .module import Module

Ints = int | Sequence[int]


# ------------------------------------------------------------------------------------------------ shared
def _out_size(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """How many windows fit along a dimension of n cells (PyTorch's pooling_output_shape): floor (or ceil) of
    (n + 2p - span) / s, plus one; with ceil_mode, a last window must still start inside the input or left pad."""
    out = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def _padded(a: np.ndarray, params: tuple, out: tuple[int, ...], value: Any) -> np.ndarray:
    """``a`` padded on its last two (or three) dims: ``padding`` cells before; after, as many as the windows reach
    (the padding, or more with ceil_mode's last window, or fewer when the last cells are in no window)."""
    kernel, stride, padding, dilation = params[:4]
    widths = [(0, 0)] * (a.ndim - len(kernel))
    for n, k, s, p, d, o in zip(a.shape[-len(kernel):], kernel, stride, padding, dilation, out):
        widths.append((p, max((o - 1) * s + d * (k - 1) + 1 - n - p, 0)))
    return np.pad(a, widths, constant_values=value) if any(w != (0, 0) for w in widths) else a


def _pool_windows(a: np.ndarray, params: tuple, out: tuple[int, ...], value: Any) -> np.ndarray:
    """The windows (..., out_h, out_w, kh, kw) of the padded input (a view); in 3-d (..., out_d, out_h, out_w,
    kd, kh, kw)."""
    kernel, stride, _, dilation = params[:4]
    win = _windows(_padded(a, params, out, value), kernel, stride, dilation)
    return win[(Ellipsis, *(slice(o) for o in out), *(slice(None),) * len(kernel))]


def _add_windows(gw: np.ndarray, shape: tuple[int, ...], params: tuple) -> np.ndarray:
    """The adjoint of taking windows: each window's gradient (..., out_h, out_w, kh, kw), or one number per window
    for every cell of it (..., out_h, out_w), added back onto the cells it covered. One strided slice per kernel
    offset (kh * kw additions, each covering every window); overlapping windows add. Then the padding cropped."""
    kernel, stride, padding, dilation = params[:4]
    n = len(kernel)
    per_cell = gw.ndim == len(shape) + n  # (a gradient per cell of each window, or one per window)
    out = gw.shape[-2 * n:-n] if per_cell else gw.shape[-n:]
    big = _padded(np.zeros(shape, gw.dtype), params, out, 0)  # (zeros, or np.pad's new array of them)
    for offset in np.ndindex(*kernel):
        cells = tuple(slice(i * d, i * d + s * (o - 1) + 1, s) for i, d, s, o in zip(offset, dilation, stride, out))
        big[(Ellipsis, *cells)] += gw[(Ellipsis, *offset)] if per_cell else gw
    return big[(Ellipsis, *(slice(p, p + m) for p, m in zip(padding, shape[-n:])))]


def _shape_text(shape: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def _pair(value: Ints | None, name: str, op: str, default: tuple[int, ...] | None = None,
          n: int = 2) -> tuple[int, ...]:
    """``value`` as n ints (an int repeated, a 1-tuple repeated), with PyTorch's message for another length."""
    if value is None or (isinstance(value, (tuple, list)) and len(value) == 0 and default is not None):
        return default  # type: ignore[return-value]
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        ints = f"a tuple of {('two', 'three')[n - 2]} ints"
        verb = "be either" if name == "dilation" else "be" if op == "avg_pool3d" else "either be"
        omitted = "omitted, " if name == "stride" else ""
        raise RuntimeError(f"{op}: {name} must {verb} {omitted}a single int, or {ints}")
    return value


def _check_shape(a: np.ndarray, params: tuple, out: tuple[int, ...]) -> None:
    """PyTorch's pool2d_shape_check (pool3d_shape_check): the dilation, the input's sizes, an output of at least
    one cell."""
    kernel, dilation, n = params[0], params[3], len(params[0])
    if min(dilation) <= 0:
        names = ("dilationT", "dilationH", "dilationW")[3 - n:]
        raise RuntimeError("dilation should be greater than zero, but got " +
                           " ".join(f"{name}: {d}" for name, d in zip(names, dilation)))
    if 0 in a.shape[a.ndim - n - 1:]:  # (only the batch may be empty)
        raise RuntimeError(f"Expected {n + 1}D or {n + 2}D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{_shape_text(a.shape)}")
    if n == 3 and len(params) > 6 and any(m < k for m, k in zip(a.shape[-3:], kernel)):  # (average pooling's own)
        raise RuntimeError("input image (T: {} H: {} W: {}) smaller than kernel size (kT: {} kH: {} kW: {})".format(
            *a.shape[-3:], *kernel))
    if min(out) < 1:
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, a.shape[-n - 1:]))}). Calculated output size: "
                           f"({'x'.join(map(str, (a.shape[-n - 1], *out)))}). Output size is too small")


def _output_shape(a: np.ndarray, params: tuple) -> tuple[int, ...]:
    kernel, stride, padding, dilation, ceil_mode = params[:5]
    out = []
    for n, k, s, p, d in zip(a.shape[-len(kernel):], kernel, stride, padding, dilation):
        if s == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad should be at least zero, but got pad={p}")  # (not reached through PyTorch's API)
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} "
                               f"and dilation={d}")
        out.append(_out_size(n, k, s, p, d, ceil_mode))
    return tuple(out)


# ------------------------------------------------------------------------------------------------ max pooling
def _first_valid(start: np.ndarray, d: int) -> np.ndarray:
    """The first cell of each window inside the input (a window starting in the padding: its first tap past it)."""
    return np.where(start < 0, start + (-start + d - 1) // d * d, start)


class MaxPool2DWithIndices(Function):
    """out = the largest value of each window, and ``indices``, where it was: the flat position h * W + w in its
    (H, W) plane (what ``return_indices=True`` gives, and ``nn.MaxUnpool2d`` would take); in 3-d
    (d * H + h) * W + w in its (D, H, W) volume.

    The gradient: the maximum is the only cell of the window that moves the output (d max / dx_i is 1 at the
    argmax, 0 elsewhere), so each g goes to its window's argmax, and a cell that is the maximum of several
    overlapping windows adds their g's. PyTorch's tie rule: the first maximum in the window (row by row); a NaN is
    the maximum (the last NaN). The node keeps ``_saved_self`` and the indices, ``_saved_result1``.
    """

    node_name = "MaxPool2DWithIndicesBackward0"
    saved_names = ("self", "result1")

    @staticmethod
    def forward(ctx: Any, x: Tensor, params: tuple) -> tuple:
        a = x._array
        kernel, stride, padding, dilation = params[:4]
        out = _output_shape(a, params)
        low = -np.inf if a.dtype.kind == "f" else np.iinfo(a.dtype).min  # (padding is never the maximum)
        n = len(kernel)
        flat = _pool_windows(a, params, out, low).reshape(*a.shape[:-n], *out, -1)  # (the one copy)
        result, arg = _max_and_where(flat)
        starts = [(np.arange(o) * s - p).reshape([-1 if i == k else 1 for i in range(n)])
                  for k, (o, s, p) in enumerate(zip(out, stride, padding))]  # each window's first cell, per dim
        cells = [s + i * d for s, i, d in zip(starts, np.unravel_index(arg, kernel), dilation)]
        outside = np.any([(c < 0) | (c >= m) for c, m in zip(cells, a.shape[-n:])], axis=0)
        if outside.any():  # a window of -inf: PyTorch points at its first cell inside the input
            cells = [np.where(outside, _first_valid(s, d), c) for s, c, d in zip(starts, cells, dilation)]
        indices = np.ravel_multi_index(np.broadcast_arrays(*cells), a.shape[-n:]).astype(np.int64)
        ctx.save_for_backward(x, _wrap(indices))
        ctx.params = params
        ctx._saved_kernel_size, ctx._saved_stride, ctx._saved_padding, ctx._saved_dilation, ctx._saved_ceil_mode = \
            kernel, params[5], padding, dilation, params[4]
        return result, indices

    @staticmethod
    def backward(ctx: Any, g: Tensor, _: Any = None) -> tuple:
        x, indices = ctx.saved_tensors
        kernel, stride, _, dilation = ctx.params[:4]
        layout = (len(kernel), any(s < d * (k - 1) + 1 for k, s, d in zip(kernel, stride, dilation)))
        return _scattered(ctx._forward_cls._backward, g, x, indices, layout), None


def _max_and_where(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The maximum of each row of candidates (last axis) and its position: the first maximum (numpy's argmax,
    PyTorch's tie rule), or, where there are NaNs, the last NaN (PyTorch's kernels take each NaN they meet)."""
    arg = flat.argmax(-1)  # numpy's argmax: the first maximum, and the first NaN
    result = np.take_along_axis(flat, arg[..., None], -1)[..., 0]
    if flat.dtype.kind == "f" and np.isnan(result).any():
        last = flat.shape[-1] - 1 - np.isnan(flat[..., ::-1]).argmax(-1)
        arg = np.where(np.isnan(result), last, arg)
    return result, arg


def _scattered(op: Any, g: Tensor, x: Tensor, indices: Tensor, layout: tuple[int, bool]) -> Tensor:
    """A max pooling's gradient: g scattered to the argmaxes, by the op (recorded with create_graph) or, in a
    plain backward, on the arrays directly."""
    if unrecorded():  # speed: the arrays themselves, without the op's bookkeeping
        return _wrap(_scatter(g._array, indices._array, x._array.shape, layout))
    return op.apply(g, x, (indices,), layout)


def _scatter(g: np.ndarray, indices: np.ndarray, shape: tuple[int, ...], layout: tuple[int, bool]) -> np.ndarray:
    """Each g added at its index, plane by plane (a flat index per (sample, channel) plane, or volume in 3-d).
    ``layout``: (the number of pooled dims, whether windows may overlap)."""
    n, overlap = layout
    plane = math.prod(shape[-n:])
    gx = np.zeros(shape, g.dtype).reshape(-1)
    where = (indices.reshape(-1, math.prod(indices.shape[-n:])) +
             (np.arange(gx.size // plane if plane else 0) * plane)[:, None]).reshape(-1)
    if not overlap:
        gx[where] = g.reshape(-1)  # windows do not overlap: every index once, a plain assignment
    else:
        np.add.at(gx, where, g.reshape(-1))  # (overlapping windows: one cell may be several windows' maximum)
    return gx.reshape(shape)


class MaxPool2DWithIndicesBackward(Function):
    """max pooling's gradient as an op, from (g, x): g scattered to the argmaxes (added where they repeat).
    Linear in g, so its own derivative gathers: d/dg = ggx at the indices; x only gave the positions (no
    gradient)."""

    node_name = "MaxPool2DWithIndicesBackwardBackward0"
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, consts: tuple, layout: tuple[int, bool]) -> np.ndarray:
        # (the indices come in a tuple: as in PyTorch, they are no input of the node, so no edge)
        (indices,) = consts
        ctx.save_for_backward(indices)
        ctx.n = layout[0]
        return _scatter(g._array, indices._array, x._array.shape, layout)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        (indices,) = ctx.saved_tensors
        picked = gg.flatten(-ctx.n).gather(-1, indices.flatten(-ctx.n))
        return picked.view(indices.shape), None, None, None


class MaxPool3DWithIndicesBackward(MaxPool2DWithIndicesBackward):
    node_name = "MaxPool3DWithIndicesBackwardBackward0"


class MaxPool3DWithIndices(MaxPool2DWithIndices):
    """max_pool3d: the same op over (D, H, W) volumes."""

    node_name = "MaxPool3DWithIndicesBackward0"
    _backward = MaxPool3DWithIndicesBackward


MaxPool2DWithIndices._backward = MaxPool2DWithIndicesBackward


def _max_pool2d(input: Tensor, kernel_size: Ints, stride: Ints | None, padding: Ints, dilation: Ints,
                ceil_mode: bool, n: int = 2) -> tuple[Tensor, Tensor]:
    """max pooling over the last n = 2 (or 3) dims, checked as PyTorch checks it."""
    op = f"max_pool{n}d"
    kernel = _pair(kernel_size, "kernel_size", op, n=n)
    strides = _pair(stride, "stride", op, kernel, n)
    params = (kernel, strides, _pair(padding, "padding", op, n=n), _pair(dilation, "dilation", op, n=n),
              bool(ceil_mode), () if stride is None or stride == [] else strides)
    a = input._array
    if a.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"non-empty {n + 1}D or {n + 2}D (batch mode) tensor expected for input")
    _check_shape(a, params, _output_shape(a, params))
    return (MaxPool2DWithIndices, MaxPool3DWithIndices)[n - 2].apply(input, params)


def max_pool2d(input: Tensor, kernel_size: Ints, stride: Ints | None = None, padding: Ints = 0, dilation: Ints = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """The maximum of each window of (N, C, H, W) or (C, H, W): ``F.max_pool2d(x, 2)`` halves H and W. With
    ``return_indices=True`` also where each maximum was (flat h * W + w in its plane)."""
    out, indices = _max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, indices) if return_indices else out


def max_pool3d(input: Tensor, kernel_size: Ints, stride: Ints | None = None, padding: Ints = 0, dilation: Ints = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """The maximum of each window of a volume (N, C, D, H, W) or (C, D, H, W), e.g. a video or a 3-d scan. With
    ``return_indices=True`` also where each maximum was (flat (d * H + h) * W + w in its volume)."""
    out, indices = _max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, n=3)
    return (out, indices) if return_indices else out


def _check_max_pool1d(a: np.ndarray, kernel: Sequence[int], stride: Sequence[int], padding: Sequence[int],
                      dilation: Sequence[int], ceil_mode: bool) -> None:
    """PyTorch's own checks of max_pool1d without indices (it has a 1-d kernel for that case)."""
    if a.ndim not in (2, 3) or 0 in a.shape[-2:]:
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{_shape_text(a.shape)}")
    for name, v in (("kernel_size", kernel), ("stride", stride), ("padding", padding), ("dilation", dilation)):
        if len(v) > 1:
            raise RuntimeError(f"max_pool1d() {name} must be {'' if name == 'kernel_size' else 'None, '}an int, list "
                               f"of ints, or tuple of ints of size 1 but got size {len(v)}")
    k, s, p, d = kernel[0], (stride or kernel)[0], padding[0], dilation[0]
    for name, v, ok in (("kernel_size", k, k > 0), ("stride", s, s > 0)):
        if not ok:
            raise RuntimeError(f"max_pool1d() {name} must be greater than zero, but got {v}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    out = _out_size(a.shape[-1], k, s, p, d, ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")


def _single(value: Ints | None) -> tuple[int, ...]:
    return () if value is None else (value,) if isinstance(value, int) else tuple(value)


def max_pool1d(input: Tensor, kernel_size: Ints, stride: Ints | None = None, padding: Ints = 0, dilation: Ints = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """The maximum of each window of a signal (N, C, L) or (C, L): the 2-d op on (N, C, 1, L)."""
    kernel, strides, pads, dils = _single(kernel_size), _single(stride), _single(padding), _single(dilation)
    if not return_indices:
        _check_max_pool1d(input._array, kernel, strides, pads, dils, ceil_mode)
    out, indices = _max_pool2d(input.unsqueeze(-2), (1, *kernel), (1, *(strides or kernel)), (0, *pads), (1, *dils),
                               ceil_mode)
    return (out.squeeze(-2), indices.squeeze(-2)) if return_indices else out.squeeze(-2)


# ------------------------------------------------------------------------------------------------ average pooling
def _divisor(shape: tuple[int, ...], params: tuple, out: tuple[int, ...], dtype: Any) -> np.ndarray | int:
    """What each window's sum is divided by: ``divisor_override``, or the window's size, counting the padding's
    cells (``count_include_pad``) or only the input's; a ceil_mode window past the padding counts only up to it."""
    kernel, stride, padding, _, _, _, count_include_pad, divisor_override = params
    if divisor_override is not None:
        return divisor_override
    sizes = []
    for n, k, s, p, o in zip(shape[-len(kernel):], kernel, stride, padding, out):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)
        sizes.append(end - start if count_include_pad else np.minimum(end, n) - np.maximum(start, 0))
    product = sizes[0]
    for size in sizes[1:]:
        product = np.multiply.outer(product, size)  # (a window's size: the product of its extents)
    return product.astype(dtype if np.dtype(dtype).kind == "f" else np.int64)


def _divide(total: np.ndarray, divisor: np.ndarray | int) -> np.ndarray:
    if total.dtype.kind == "f":
        return total / np.asarray(divisor, total.dtype)
    return (np.abs(total) // divisor * np.sign(total)).astype(total.dtype)  # integers: C++'s division, truncated


class AvgPool2D(Function):
    """out = the mean of each window: its sum divided by the window's size (see ``_divisor``).

    The gradient: every cell of a window moved its mean by 1/size, so each cell gets g / size from every window
    it lies in (added up where windows overlap; 0 for cells in none). The node keeps ``_saved_self``,
    ``_saved_kernel_size``, ``_saved_stride``, ``_saved_padding``, ``_saved_ceil_mode``,
    ``_saved_count_include_pad``, ``_saved_divisor_override``."""

    node_name = "AvgPool2DBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, params: tuple) -> np.ndarray:
        a = x._array
        out = _output_shape(a, params)
        ctx.save_for_backward(x)
        ctx.params = params
        ctx._saved_kernel_size, ctx._saved_stride, ctx._saved_padding = params[0], params[5], params[2]
        ctx._saved_ceil_mode, ctx._saved_count_include_pad, ctx._saved_divisor_override = params[4], *params[6:]
        n = len(params[0])
        total = _pool_windows(a, params, out, 0).sum(tuple(range(-n, 0)))
        return _divide(total, _divisor(a.shape, params, out, a.dtype))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        if unrecorded():
            return _wrap(_avg_spread(g._array, x._array.shape, ctx.params)), None
        return ctx._forward_cls._backward.apply(g, x, ctx.params), None


def _avg_spread(g: np.ndarray, shape: tuple[int, ...], params: tuple) -> np.ndarray:
    out = g.shape[-len(params[0]):]
    return _add_windows(g / np.asarray(_divisor(shape, params, out, g.dtype), g.dtype), shape, params)


class AvgPool2DBackward(Function):
    """average pooling's gradient as an op, from (g, x): g / size spread over each window. Linear in g, and its
    adjoint is the pooling itself: d/dg = avg_pool2d(ggx). (x gave only the shape: no gradient.)"""

    node_name = "AvgPool2DBackwardBackward0"

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, params: tuple) -> np.ndarray:
        ctx.params = params
        return _avg_spread(g._array, x._array.shape, params)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        return ctx._forward_cls._forward.apply(gg, ctx.params), None, None


class AvgPool3DBackward(AvgPool2DBackward):
    node_name = "AvgPool3DBackwardBackward0"


class AvgPool3D(AvgPool2D):
    """avg_pool3d: the same op over (D, H, W) volumes."""

    node_name = "AvgPool3DBackward0"
    _backward = AvgPool3DBackward


AvgPool2D._backward, AvgPool2DBackward._forward, AvgPool3DBackward._forward = AvgPool2DBackward, AvgPool2D, AvgPool3D


def avg_pool2d(input: Tensor, kernel_size: Ints, stride: Ints | None = None, padding: Ints = 0,
               ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """The mean of each window of (N, C, H, W) or (C, H, W). Padding counts as zeros in the mean unless
    ``count_include_pad=False``; ``divisor_override`` divides every window's sum by that number instead."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2)


def _avg_pool(input: Tensor, kernel_size: Ints, stride: Ints | None, padding: Ints, ceil_mode: bool,
              count_include_pad: bool, divisor_override: int | None, n: int) -> Tensor:
    """average pooling over the last n = 2 (or 3) dims, checked as PyTorch checks it."""
    op = f"avg_pool{n}d"
    kernel = _pair(kernel_size, "kernel_size", op, n=n)
    strides = _pair(stride, "stride", op, kernel, n)
    a = input._array
    if a.ndim < n + 1:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(a.ndim, 1)}, "
                         f"{max(a.ndim, 1) - 1}], but got {-n - 1})")
    if a.ndim > n + 2:
        raise RuntimeError(f"non-empty {n + 1}D or {n + 2}D (batch mode) tensor expected for input")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    params = (kernel, strides, _pair(padding, "padding", op, n=n), (1,) * n, bool(ceil_mode),
              () if stride is None or stride == [] else strides, bool(count_include_pad), divisor_override)
    _check_shape(a, params, _output_shape(a, params))
    return (AvgPool2D, AvgPool3D)[n - 2].apply(input, params)


def avg_pool3d(input: Tensor, kernel_size: Ints, stride: Ints | None = None, padding: Ints = 0,
               ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """The mean of each window of a volume (N, C, D, H, W) or (C, D, H, W) (see ``avg_pool2d``)."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3)


def avg_pool1d(input: Tensor, kernel_size: Ints, stride: Ints | None = None, padding: Ints = 0,
               ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    """The mean of each window of a signal (N, C, L) or (C, L): the 2-d op on (N, C, 1, L)."""
    if input._array.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input._array.ndim}-dimensional tensor for argument "
                           "#1 'self' (while checking arguments for avg_pool1d)")
    kernel, strides, pads = _single(kernel_size), _single(stride), _single(padding)
    out = avg_pool2d(input.unsqueeze(-2), (1, *kernel), (1, *(strides or kernel)), (0, *pads), ceil_mode,
                     count_include_pad)
    return out.squeeze(-2)


# ------------------------------------------------------------------------------------------------ adaptive
def _averaging(n: int, out: int, dtype: Any) -> np.ndarray:
    """The (out, n) matrix that averages window i of a dimension: cells floor(i n / out) to ceil((i + 1) n / out),
    each weighted 1 / (its window's length). Windows cover the dimension and may overlap by one cell."""
    i = np.arange(out)
    start, end = i * n // out, -(-(i + 1) * n // out)
    cells = np.arange(n)
    inside = (cells >= start[:, None]) & (cells < end[:, None])
    return (inside / (end - start)[:, None]).astype(dtype)


def _along(a: np.ndarray, mats: list[np.ndarray]) -> np.ndarray:
    """``a`` with matrix k applied along its k-th pooled dim (the last len(mats) dims): M_1 ... x ... M_n."""
    n = len(mats)
    for k, m in enumerate(mats):
        a = np.moveaxis(np.moveaxis(a, k - n, -1) @ m.T, -1, k - n)
    return a


class AdaptiveAvgPool2D(Function):
    """The mean over windows chosen to give exactly ``output_size`` (out_h, out_w) cells, whatever the input's
    size. Averaging rows then columns is linear, two matrix products: out = A_h @ x @ A_w^T (``_averaging``); in
    3-d a third along the depth.

    The gradient is the transposed products: dx = A_h^T @ g @ A_w, each cell getting g / window size from every
    window it lies in. The node keeps ``_saved_self``."""

    node_name = "AdaptiveAvgPool2DBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, output_size: tuple[int, ...]) -> np.ndarray:
        a = x._array
        dtype = a.dtype if a.dtype.kind == "f" else np.float64
        n = len(output_size)
        mats = [_averaging(m, o, dtype) for m, o in zip(a.shape[-n:], output_size)]
        ctx.save_for_backward(x)
        ctx.output_size = output_size
        if n == 2:
            return (mats[0] @ a @ mats[1].T).astype(a.dtype)
        return _along(a, mats).astype(a.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        n = len(ctx.output_size)
        if unrecorded():
            return _wrap(_adaptive_spread(g._array, x._array.shape, n)), None
        return ctx._forward_cls._backward.apply(g, x, n), None


def _adaptive_spread(g: np.ndarray, shape: tuple[int, ...], n: int) -> np.ndarray:
    mats = [_averaging(m, o, g.dtype) for m, o in zip(shape[-n:], g.shape[-n:])]
    if n == 2:
        return mats[0].T @ g @ mats[1]
    return _along(g, [m.T for m in mats])


class AdaptiveAvgPool2DBackward(Function):
    """adaptive average pooling's gradient as an op, from (g, x): A_h^T g A_w. Its own derivative is the pooling
    again: d/dg = adaptive_avg_pool2d(ggx)."""

    node_name = "AdaptiveAvgPool2DBackwardBackward0"

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, n: int) -> np.ndarray:
        ctx.output_size = g._array.shape[-n:]
        return _adaptive_spread(g._array, x._array.shape, n)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        return ctx._forward_cls._forward.apply(gg, ctx.output_size), None, None


class AdaptiveAvgPool3DBackward(AdaptiveAvgPool2DBackward):
    node_name = "AdaptiveAvgPool3DBackwardBackward0"


class AdaptiveAvgPool3D(AdaptiveAvgPool2D):
    """adaptive_avg_pool3d: the same op over (D, H, W) volumes (three averaging matrices)."""

    node_name = "AdaptiveAvgPool3DBackward0"
    _backward = AdaptiveAvgPool3DBackward


AdaptiveAvgPool2D._backward = AdaptiveAvgPool2DBackward
AdaptiveAvgPool2DBackward._forward, AdaptiveAvgPool3DBackward._forward = AdaptiveAvgPool2D, AdaptiveAvgPool3D


def adaptive_avg_pool2d(input: Tensor, output_size: Ints | Sequence[int | None]) -> Tensor:
    """Average-pool (N, C, H, W) or (C, H, W) down to exactly ``output_size`` (an int, or (out_h, out_w); None
    keeps that dimension). To (1, 1) it is the mean over H and W (``MeanBackward1``, as in PyTorch)."""
    a = input._array
    size = (output_size, output_size) if isinstance(output_size, int) or output_size is None else tuple(output_size)
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if a.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {_shape_text(a.shape)}")
    for dim in range(a.ndim - 3, a.ndim):
        if a.shape[dim] == 0:
            raise RuntimeError("adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {_shape_text(a.shape)} with dimension {dim} being empty")
    size = tuple(a.shape[-2 + i] if s is None else s for i, s in enumerate(size))
    if size == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    return AdaptiveAvgPool2D.apply(input, size)


def adaptive_avg_pool1d(input: Tensor, output_size: Ints) -> Tensor:
    """Average-pool a signal (N, C, L) or (C, L) down to ``output_size`` cells: the 2-d op on (N, C, 1, L)."""
    if input._array.ndim not in (2, 3):
        raise RuntimeError(f"adaptive_avg_pool1d() argument 'self' (position 1) must be 2D or 3D, but got "
                           f"{input._array.ndim}D")
    (size,) = _single(output_size)
    return AdaptiveAvgPool2D.apply(input.unsqueeze(-2), (1, size)).squeeze(-2)


def adaptive_avg_pool3d(input: Tensor, output_size: Ints | Sequence[int | None]) -> Tensor:
    """Average-pool a volume (N, C, D, H, W) or (C, D, H, W) down to exactly ``output_size`` (an int, or (d, h, w);
    None keeps that dimension). To (1, 1, 1) it is the mean over D, H and W (``MeanBackward1``, as in PyTorch)."""
    a = input._array
    size = (output_size,) * 3 if isinstance(output_size, int) or output_size is None else tuple(output_size)
    if len(size) != 3:
        raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
    if a.ndim not in (4, 5):
        raise RuntimeError(f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {_shape_text(a.shape)}")
    for dim in range(a.ndim - 4, a.ndim):
        if a.shape[dim] == 0:
            raise RuntimeError("adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {_shape_text(a.shape)} with dimension {dim} being empty")
    size = tuple(a.shape[-3 + i] if s is None else s for i, s in enumerate(size))
    if size == (1, 1, 1):
        return input.mean((-1, -2, -3), keepdim=True)
    return AdaptiveAvgPool3D.apply(input, size)


class AdaptiveMaxPool2D(Function):
    """The maximum over the windows adaptive average pooling averages (cells floor(i n / out) to
    ceil((i + 1) n / out) of each dim, see ``_averaging``), and where it was: the flat h * W + w in its plane.

    The gradient goes to each window's argmax, as max pooling's (windows may overlap by one cell: a cell that is
    two windows' maximum adds both g's). The node keeps ``_saved_self`` and the indices, ``_saved_result1``."""

    node_name = "AdaptiveMaxPool2DBackward0"
    saved_names = ("self", "result1")

    @staticmethod
    def forward(ctx: Any, x: Tensor, output_size: tuple[int, int]) -> tuple:
        a = x._array
        (h, w), (oh, ow) = a.shape[-2:], output_size
        result = np.empty((*a.shape[:-2], oh, ow), a.dtype)
        indices = np.empty((*a.shape[:-2], oh, ow), np.int64)
        rows = [(i * h // oh, -(-(i + 1) * h // oh)) for i in range(oh)]
        cols = [(j * w // ow, -(-(j + 1) * w // ow)) for j in range(ow)]
        for i, (r0, r1) in enumerate(rows):  # (one window at a time: their sizes differ)
            for j, (c0, c1) in enumerate(cols):
                window = a[..., r0:r1, c0:c1].reshape(*a.shape[:-2], -1)
                result[..., i, j], arg = _max_and_where(window)
                indices[..., i, j] = (r0 + arg // (c1 - c0)) * w + c0 + arg % (c1 - c0)
        ctx.save_for_backward(x, _wrap(indices))
        return result, indices

    @staticmethod
    def backward(ctx: Any, g: Tensor, _: Any = None) -> tuple:
        x, indices = ctx.saved_tensors
        return _scattered(AdaptiveMaxPool2DBackward, g, x, indices, (2, True)), None


class AdaptiveMaxPool2DBackward(MaxPool2DWithIndicesBackward):
    node_name = "AdaptiveMaxPool2DBackwardBackward0"


def adaptive_max_pool2d(input: Tensor, output_size: Ints | Sequence[int | None],
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Max-pool (N, C, H, W) or (C, H, W) down to exactly ``output_size`` (an int, or (out_h, out_w); None keeps
    that dimension). With ``return_indices=True`` also where each maximum was (flat h * W + w in its plane)."""
    a = input._array
    size = (output_size, output_size) if isinstance(output_size, int) or output_size is None else tuple(output_size)
    if a.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {_shape_text(a.shape)}")
    for dim in range(a.ndim - 3, a.ndim):
        if a.shape[dim] == 0:
            raise RuntimeError("adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {_shape_text(a.shape)} with dimension {dim} being empty")
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    size = tuple(a.shape[-2 + i] if s is None else s for i, s in enumerate(size))
    out, indices = AdaptiveMaxPool2D.apply(input, size)
    return (out, indices) if return_indices else out


def adaptive_max_pool1d(input: Tensor, output_size: Ints,
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Max-pool a signal (N, C, L) or (C, L) down to ``output_size`` cells: the 2-d op on (N, C, 1, L)."""
    if input._array.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input._array.ndim}-dimensional tensor for argument "
                           "#1 'self' (while checking arguments for adaptive_max_pool1d)")
    (size,) = _single(output_size)
    out, indices = AdaptiveMaxPool2D.apply(input.unsqueeze(-2), (1, size))
    return (out.squeeze(-2), indices.squeeze(-2)) if return_indices else out.squeeze(-2)


def _lp_pool(input: Tensor, norm_type: float, kernel_size: Ints, stride: Ints | None, ceil_mode: bool,
             n: int) -> Tensor:
    """The power-average pool over n dims, composed as PyTorch composes it: avg_pool of x**p times the window's
    size, then the 1/p power (a negative window sum, possible for odd p, is clamped to 0 first by sign * relu(abs)).
    p = +-inf is the limit, the max (min) of |x| over each window: max pooling of |x| (minus that of -|x|)."""
    avg, top = {1: (avg_pool1d, max_pool1d), 2: (avg_pool2d, max_pool2d), 3: (avg_pool3d, max_pool3d)}[n]
    if norm_type == math.inf:
        return top(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -math.inf:
        return -top(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    window = math.prod(_pair(kernel_size, "kernel_size", f"avg_pool{n}d", n=n)) if n > 1 else kernel_size
    out = avg(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return (out.sign() * out.abs().relu()).mul(window).pow(1.0 / norm_type)


def lp_pool3d(input: Tensor, norm_type: float, kernel_size: Ints, stride: Ints | None = None,
              ceil_mode: bool = False) -> Tensor:
    """The power-average pool of a volume (N, C, D, H, W) or (C, D, H, W): (sum of x**p over each window) ** (1/p)
    (see ``lp_pool2d``)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size: Ints, stride: Ints | None = None,
              ceil_mode: bool = False) -> Tensor:
    """The power-average pool: (sum of x**p over each window) ** (1/p). p = 1 is sum pooling, p -> inf tends to
    max pooling (and p = inf is max pooling of |x|)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride: Ints | None = None,
              ceil_mode: bool = False) -> Tensor:
    """The power-average pool of a signal (N, C, L) or (C, L) (see ``lp_pool2d``)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


# ------------------------------------------------------------------------------------------------ the layers
class _MaxPoolNd(Module):
    _function: Any

    def __init__(self, kernel_size: Ints, stride: Ints | None = None, padding: Ints = 0, dilation: Ints = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor) -> Any:
        return type(self)._function(input, self.kernel_size, self.stride, self.padding, self.dilation,
                                    ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """The maximum of each window of a signal (N, C, L) (see ``F.max_pool1d``)."""

    _function = staticmethod(max_pool1d)


class MaxPool2d(_MaxPoolNd):
    """The maximum of each window of a feature map (N, C, H, W): ``nn.MaxPool2d(2)`` halves H and W, keeping each
    2x2 block's strongest response (see ``F.max_pool2d``)."""

    _function = staticmethod(max_pool2d)


class MaxPool3d(_MaxPoolNd):
    """The maximum of each window of a volume (N, C, D, H, W) (see ``F.max_pool3d``)."""

    _function = staticmethod(max_pool3d)


class AvgPool1d(Module):
    """The mean of each window of a signal (N, C, L) (see ``F.avg_pool1d``)."""

    def __init__(self, kernel_size: Ints, stride: Ints | None = None, padding: Ints = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(Module):
    """The mean of each window of a feature map (N, C, H, W) (see ``F.avg_pool2d``)."""

    def __init__(self, kernel_size: Ints, stride: Ints | None = None, padding: Ints = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return type(self)._function(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                    self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    _function = staticmethod(avg_pool2d)


class AvgPool3d(AvgPool2d):
    """The mean of each window of a volume (N, C, D, H, W) (see ``F.avg_pool3d``)."""

    _function = staticmethod(avg_pool3d)


class AdaptiveAvgPool1d(Module):
    """Average-pool a signal to ``output_size`` cells, whatever its length (see ``F.adaptive_avg_pool1d``)."""

    def __init__(self, output_size: Ints) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return adaptive_avg_pool1d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2d(AdaptiveAvgPool1d):
    """Average-pool a feature map to ``output_size`` (e.g. (7, 7), or 1 for a global average), whatever its size:
    a network then takes images of any size (see ``F.adaptive_avg_pool2d``)."""

    def forward(self, input: Tensor) -> Tensor:
        return adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(AdaptiveAvgPool1d):
    """Average-pool a volume to ``output_size`` (d, h, w), whatever its size (see ``F.adaptive_avg_pool3d``)."""

    def forward(self, input: Tensor) -> Tensor:
        return adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool1d(Module):
    """Max-pool a signal to ``output_size`` cells, whatever its length (see ``F.adaptive_max_pool1d``)."""

    _function = staticmethod(adaptive_max_pool1d)

    def __init__(self, output_size: Ints, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input: Tensor) -> Any:
        return type(self)._function(input, self.output_size, self.return_indices)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool2d(AdaptiveMaxPool1d):
    """Max-pool a feature map to ``output_size``, whatever its size (see ``F.adaptive_max_pool2d``)."""

    _function = staticmethod(adaptive_max_pool2d)


class LPPool1d(Module):
    """The power-average pool of a signal: (sum of x**p over each window) ** (1/p) (see ``F.lp_pool1d``)."""

    _function = staticmethod(lp_pool1d)

    def __init__(self, norm_type: float, kernel_size: Ints, stride: Ints | None = None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input: Tensor) -> Tensor:
        return type(self)._function(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool2d(LPPool1d):
    """The power-average pool of a feature map (see ``F.lp_pool2d``)."""

    _function = staticmethod(lp_pool2d)


class LPPool3d(LPPool1d):
    """The power-average pool of a volume (see ``F.lp_pool3d``)."""

    _function = staticmethod(lp_pool3d)
