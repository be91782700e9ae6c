"""Convolutions: ``F.conv1d``/``conv2d``/``conv3d`` and the transposed ``F.conv_transpose1d``/``2d``/``3d`` (each one
``ConvolutionBackward0`` node, as in PyTorch) and the layers ``nn.Conv1d``/``Conv2d``/``Conv3d``, their lazy twins
(``nn.LazyConv2d``) and ``nn.ConvTranspose1d``/``2d``/``3d``.

A convolution slides a small kernel over the input. With one input channel, one output channel, stride 1 and no
padding (a 2-d "cross-correlation", which deep learning calls convolution)::

    y[i, j] = sum over (u, v) of  x[i + u, j + v] * w[u, v]   (+ b)

In general, with C input channels, O output channels (each with its own (C, kh, kw) kernel), a ``stride`` s (the
step between windows), zero ``padding`` p around the input and a ``dilation`` d (gaps between the kernel's taps)::

    y[n, o, i, j] = b[o] + sum over c, u, v of  xp[n, c, i*s + u*d, j*s + v*d] * w[o, c, u, v]

where xp is x with p zeros on every side; the output has (H + 2p - d(kh - 1) - 1) // s + 1 rows. ``groups`` splits
the channels into independent convolutions side by side (groups = C: one kernel per channel, "depthwise").

How it is computed here (the classic "im2col"): every window of the input is read as one row of a matrix, ``cols``
(numpy's ``sliding_window_view`` gives the windows without copying; one copy lays them out as rows). Then the whole
convolution is ONE matrix product, ``cols @ w.reshape(O, -1).T``: each output pixel is a window times each kernel.

A *transposed* convolution (``conv_transpose2d``, the "deconvolution" of a DCGAN's generator, which makes a map
larger) is the adjoint of a convolution: the map x -> conv_transpose(x, w) is exactly the map g -> dL/dinput of a
convolution with the same weight, stride, padding and dilation. Each input pixel paints a copy of the kernel, scaled
by its value, onto the output, ``stride`` cells apart; overlaps add up. So it needs no kernel of its own: its forward
is the convolution's input gradient (``_input_grad``), and its own gradients are the convolution's forward
(d/dx) and weight gradient (d/dw) with the roles of input and output swapped (see ``_grads``). The output has
(H - 1) s - 2p + d (k - 1) + 1 + output_padding rows; ``output_padding`` (less than the stride or the dilation)
picks one of the s sizes whose convolution would give back H.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .._dtype import CPP_NAMES, LEGACY_NAMES, float32, from_numpy
from .._tensor import Tensor, _wrap
from ..core.function import Function
from ..ops import unrecorded
from . import init
from .module import Module
from .padding import pad as _pad
from .parameter import Parameter, UninitializedParameter

Ints = int | Sequence[int]


# ------------------------------------------------------------------------------------------------ numpy kernels
def _windows(a: np.ndarray, kernel: Sequence[int], stride: Sequence[int], dilation: Sequence[int]) -> np.ndarray:
    """All the windows of ``a`` (..., *spatial), already padded: a view (..., *out, *kernel), no copy.

    ``sliding_window_view`` gives every window of the dilated kernel's span (d (k - 1) + 1 cells) at every
    position; keeping every s-th position is the stride, every d-th cell of a window the dilation."""
    n = len(kernel)
    span = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    view = sliding_window_view(a, span, axis=tuple(range(a.ndim - n, a.ndim)))
    return view[(Ellipsis, *(slice(None, None, s) for s in stride), *(slice(None, None, d) for d in dilation))]


def _padded(a: np.ndarray, padding: Sequence[int]) -> np.ndarray:
    return np.pad(a, [(0, 0), (0, 0), *((p, p) for p in padding)]) if any(padding) else a


def _cols(a: np.ndarray, kernel: Sequence[int], params: tuple) -> tuple[np.ndarray, tuple[int, ...]]:
    """im2col: the windows as rows, shaped (groups, N * out pixels, C/groups * kernel size), and the output's
    spatial shape. (A group's rows hold only its own channels: each group is its own matrix product.)"""
    stride, padding, dilation, groups = params[:4]
    n = len(kernel)
    win = _windows(_padded(a, padding), kernel, stride, dilation)  # (N, C, *out, *kernel)
    out = win.shape[2:2 + n]
    win = win.reshape(a.shape[0], groups, a.shape[1] // groups, *out, *kernel)  # (splitting C: still a view)
    win = np.moveaxis(win, 2, 2 + n)  # (N, G, *out, C/G, *kernel)
    return np.moveaxis(win, 1, 0).reshape(groups, -1, a.shape[1] // groups * math.prod(kernel)), out  # (the copy)


def _conv(a: np.ndarray, w: np.ndarray, b: np.ndarray | None, params: tuple) -> np.ndarray:
    """The forward: ``cols @ W.T`` per group, then laid out as (N, O, *out) (contiguous, as PyTorch's is)."""
    groups = params[3]
    cols, out = _cols(a, w.shape[2:], params)
    wm = w.reshape(groups, w.shape[0] // groups, -1)
    y = cols @ wm.transpose(0, 2, 1)  # (G, N * P, O/G)
    y = y.reshape(groups, a.shape[0], -1, w.shape[0] // groups).transpose(1, 0, 3, 2)  # (N, G, O/G, P)
    y = np.ascontiguousarray(y).reshape(a.shape[0], w.shape[0], *out)
    if b is not None:
        y += b.reshape(-1, *[1] * len(out))
    return y


def _input_grad(g: np.ndarray, w: np.ndarray, shape: tuple[int, ...], params: tuple) -> np.ndarray:
    """dx, "col2im": each window's gradient, ``g @ W`` (the same product, transposed), is added back where the
    window was read. One addition per kernel offset (kh * kw of them), each a strided slice covering every output
    pixel at once; overlapping windows add up. Then the padding is cropped off."""
    stride, padding, dilation, groups = params[:4]
    kernel, n = w.shape[2:], w.ndim - 2
    out, (batch, c) = g.shape[2:], shape[:2]
    gm = g.reshape(batch, groups, -1, math.prod(out)).transpose(1, 0, 3, 2).reshape(groups, -1, g.shape[1] // groups)
    cols = gm @ w.reshape(groups, w.shape[0] // groups, -1)  # (G, N * P, C/G * kernel)
    cols = cols.reshape(groups, batch, *out, c // groups, *kernel)
    cols = np.moveaxis(np.moveaxis(cols, 0, 1), 2 + n, 2).reshape(batch, c, *out, *kernel)  # (N, C, *out, *kernel)
    return _col2im(cols, shape[2:], stride, padding, dilation)


def _col2im(cols: np.ndarray, spatial: Sequence[int], stride: Sequence[int], padding: Sequence[int],
            dilation: Sequence[int]) -> np.ndarray:
    """The windows' values, (N, C, *out, *kernel), each added back onto the cells of ``spatial`` it was read from
    (the adjoint of taking the windows; ``F.fold`` is this too). One addition per kernel offset, each a strided slice
    covering every window at once; overlapping windows add up. Then the padding is cropped off."""
    n = len(spatial)
    out, kernel = cols.shape[2:2 + n], cols.shape[2 + n:]
    gx = np.zeros((*cols.shape[:2], *(s + 2 * p for s, p in zip(spatial, padding))), cols.dtype)
    for offset in np.ndindex(*kernel):
        where = tuple(slice(k * d, k * d + s * (o - 1) + 1, s) for k, d, s, o in zip(offset, dilation, stride, out))
        gx[(slice(None), slice(None), *where)] += cols[(Ellipsis, *offset)]
    return gx[(slice(None), slice(None), *(slice(p, p + s) for p, s in zip(padding, spatial)))]


def _weight_grad(a: np.ndarray, g: np.ndarray, kernel: Sequence[int], params: tuple) -> np.ndarray:
    """dw = the windows' transpose times g: each kernel tap's gradient sums g times the input it multiplied, over
    the batch and every output pixel (one matrix product per group)."""
    groups = params[3]
    cols, out = _cols(a, kernel, params)
    gm = g.reshape(a.shape[0], groups, -1, math.prod(out)).transpose(1, 2, 0, 3).reshape(
        groups, g.shape[1] // groups, -1)  # (G, O/G, N * P)
    return (gm @ cols).reshape(g.shape[1], a.shape[1] // groups, *kernel)


def _transposed(a: np.ndarray, w: np.ndarray, b: np.ndarray | None, params: tuple) -> np.ndarray:
    """The transposed convolution's forward: the input gradient of the convolution that maps the (larger) output
    back to ``a``, with ``output_padding`` more cells (zeros before the bias) at the far end of each dimension."""
    stride, padding, dilation, groups, _, output_padding = params
    n = w.ndim - 2
    size = [(i - 1) * s - 2 * p + d * (k - 1) + 1 + o
            for i, s, p, d, k, o in zip(a.shape[2:], stride, padding, dilation, w.shape[2:], output_padding)]
    y = np.ascontiguousarray(_input_grad(a, w, (a.shape[0], w.shape[1] * groups, *size), params))
    if b is not None:
        y += b.reshape(-1, *[1] * n)
    return y


def _grads(g: np.ndarray, a: np.ndarray, w: np.ndarray, params: tuple, mask: tuple) -> tuple:
    """(dx, dw, db) as arrays, None where ``mask`` says no gradient is wanted.

    A transposed convolution y = T(x, w) is the input gradient of the convolution C(., w), so (``<a, b>`` the sum
    of a * b) <g, T(x, w)> = <C(g, w), x>: dx is the convolution of g, and dw is the convolution's weight gradient
    with g as the input and x as the output's gradient. (With output_padding >= stride, allowed when the dilation
    is larger, the convolution of g sees windows past those of x's cells: they are cropped from dx, and meet
    zeros appended to x in dw.)"""
    total = g.sum(axis=(0, *range(2, g.ndim))) if mask[2] else None
    if params[4]:
        stride, padding, dilation = params[:3]
        windows = [(n + 2 * p - d * (k - 1) - 1) // s + 1
                   for n, s, p, d, k in zip(g.shape[2:], stride, padding, dilation, w.shape[2:])]
        extra = [(0, n - i) for n, i in zip(windows, a.shape[2:])]
        dx = dw = None
        if mask[0]:
            dx = _conv(g, w, None, params)
            dx = np.ascontiguousarray(dx[(slice(None), slice(None), *(slice(0, i) for i in a.shape[2:]))])
        if mask[1]:
            dw = _weight_grad(g, np.pad(a, [(0, 0), (0, 0), *extra]) if any(e for _, e in extra) else a, w.shape[2:],
                              params)
        return dx, dw, total
    return (_input_grad(g, w, a.shape, params) if mask[0] else None,
            _weight_grad(a, g, w.shape[2:], params) if mask[1] else None, total)


# ------------------------------------------------------------------------------------------------ the ops
def _no_bias(like: Tensor) -> Tensor:
    """A stand-in for a missing bias: an empty tensor needing no gradient. The node keeps an edge for it, ``(None,
    0)``, so that ``next_functions`` is always (input, weight, bias), as PyTorch's is."""
    return _wrap(np.zeros(0, like._array.dtype))


class Convolution(Function):
    """y = conv(x, w) + b (see the module's docstring), for 1, 2 or 3 spatial dimensions; or, with ``transposed``,
    y = conv_transpose(x, w) + b, whose gradients are those below with conv and conv_transpose swapped.

    The gradients, for g = d(root)/dy:

        dx = conv_transpose(g, w)   each output pixel's g times the kernel, added back onto the window it read
        dw = sum over n and pixels of g[n, o, pixel] * window(x)[n, c, pixel, tap]   (windows^T @ g)
        db = sum of g over the batch and the pixels

    All three come from one op, :class:`ConvolutionBackward` (PyTorch's ``convolution_backward``); it is a Function
    too, so ``create_graph=True`` can differentiate the gradients again. The node keeps what PyTorch's keeps:
    ``_saved_input``, ``_saved_weight``, ``_saved_stride``, ``_saved_padding``, ``_saved_dilation``,
    ``_saved_groups``, ``_saved_transposed``, ``_saved_output_padding``, ``_saved_bias_sym_sizes_opt``.
    """

    node_name = "ConvolutionBackward0"
    saved_names = ("input", "weight")

    @staticmethod
    def forward(ctx: Any, x: Tensor, w: Tensor, b: Tensor, stride: tuple, padding: tuple, dilation: tuple,
                groups: int, transposed: bool, output_padding: tuple) -> np.ndarray:
        params = (stride, padding, dilation, groups, transposed, output_padding)
        channels = w._array.shape[1] * groups if transposed else w._array.shape[0]  # (the output's)
        bias = b._array if b._array.size or channels == 0 else None
        ctx.save_for_backward(x, w)
        ctx.params, ctx.has_bias = params, bias is not None
        (ctx._saved_stride, ctx._saved_padding, ctx._saved_dilation, ctx._saved_groups, ctx._saved_transposed,
         ctx._saved_output_padding) = params
        ctx._saved_bias_sym_sizes_opt = tuple(b._array.shape) if bias is not None else None
        return (_transposed if transposed else _conv)(x._array, w._array, bias, params)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, w = ctx.saved_tensors
        mask = (ctx.needs_input_grad[0], ctx.needs_input_grad[1], ctx.needs_input_grad[2] and ctx.has_bias)
        if unrecorded():  # speed: the arrays themselves, without the op's bookkeeping
            grads = tuple(None if d is None else _wrap(d) for d in _grads(g._array, x._array, w._array,
                                                                            ctx.params, mask))
        else:
            grads = ConvolutionBackward.apply(g, x, w, ctx.params, mask)
        return (*grads, None, None, None, None, None, None)


class ConvolutionBackward(Function):
    """The three gradients of a convolution as one op with three outputs (dx, dw, db), from (g, x, w).

    Its own derivative, for create_graph=True: each output is linear in g and in one of x, w, so given gradients
    ggx, ggw, ggb for dx, dw, db (``<a, b>`` the sum of a * b; conv_transpose is conv's adjoint):

        d/dg = conv(ggx, w) + conv(x, ggw) + ggb    (<ggx, conv_transpose(g, w)> = <conv(ggx, w), g> ...)
        d/dx = conv_transpose(g, ggw)               (dw depends on x: <ggw, windows(x)^T g>)
        d/dw = the weight gradient of (ggx, g)      (dx depends on w)

    written with :class:`Convolution` and this op again, so every order of derivative is there. The same lines
    serve a transposed convolution: there conv and conv_transpose trade places in every formula, and so they do in
    the ops these lines call, which carry ``transposed`` in ``params``.
    """

    node_name = "ConvolutionBackwardBackward0"
    saved_names = ("grad_output", "input", "weight")

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, w: Tensor, params: tuple, mask: tuple) -> tuple:
        ctx.save_for_backward(g, x, w)
        ctx.params, ctx.mask = params, mask
        return _grads(g._array, x._array, w._array, params, mask)

    @staticmethod
    def backward(ctx: Any, ggx: Tensor | None, ggw: Tensor | None, ggb: Tensor | None) -> tuple:
        g, x, w = ctx.saved_tensors
        params = ctx.params
        dg = dx = dw = None
        if ctx.needs_input_grad[0]:
            terms = []
            if ggx is not None or ggb is not None:
                terms.append(Convolution.apply(ggx if ggx is not None else x.new_zeros(x.shape), w,
                                               ggb if ggb is not None else _no_bias(w), *params))
            if ggw is not None:
                terms.append(Convolution.apply(x, ggw, _no_bias(w), *params))
            dg = terms[0] if len(terms) == 1 else terms[0] + terms[1] if terms else None
        if ctx.needs_input_grad[1] and ggw is not None:
            dx = ConvolutionBackward.apply(g, x, ggw, params, (True, False, False))[0]
        if ctx.needs_input_grad[2] and ggx is not None:
            dw = ConvolutionBackward.apply(g, ggx, w, params, (False, True, False))[1]
        return dg, dx, dw, None, None


# ------------------------------------------------------------------------------------------------ the functions
def _tuple(value: Ints, n: int) -> tuple[int, ...]:
    return (value,) * n if isinstance(value, int) else tuple(value)


def _shape(shape: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"  # (PyTorch prints sizes in messages as [1, 3, 32, 32])


def _check_param(name: str, value: tuple, n: int) -> None:
    if len(value) not in (1, n):
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} values to match the "
                           f"convolution dimensions, but got {name}={_shape(value)}")


def _short(t: Tensor) -> str:
    return LEGACY_NAMES[from_numpy(t._array.dtype)].removesuffix("Tensor")  # Float, Double, Long...


def _check(x: Tensor, w: Tensor, b: Tensor | None, params: tuple) -> None:
    """PyTorch's checks, in its order, with its messages (``x`` already has its batch dimension)."""
    stride, padding, dilation, groups, transposed = params[:5]
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if not transposed and any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {_shape(dilation)}")
    ws, xs = w._array.shape, x._array.shape
    if ws[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {_shape(ws)} instead")
    if ws[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{_shape(ws)}] instead")
    if transposed:
        _check_transposed(x, w, b, params)
        return
    if xs[1] != ws[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {_shape(ws)}, expected input{_shape(xs)} to have "
                           f"{ws[1] * groups} channels, but got {xs[1]} channels instead")
    if b is not None and (b._array.ndim != 1 or b._array.shape[0] != ws[0]):
        raise RuntimeError(f"Given weight of size {_shape(ws)}, expected bias to be 1-dimensional with {ws[0]} "
                           f"elements, but got bias of size {_shape(b._array.shape)} instead")
    padded = [s + 2 * p for s, p in zip(xs[2:], padding)]
    spans = [d * (k - 1) + 1 for k, d in zip(ws[2:], dilation)]
    if any(p < k for p, k in zip(padded, spans)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, spans))}). Kernel size can't be greater than actual input size")
    if w._array.dtype != x._array.dtype:
        raise RuntimeError(f"expected scalar type {_short(x)} but found {_short(w)}")
    if b is not None and b._array.dtype != x._array.dtype:
        raise RuntimeError(f"Input type ({CPP_NAMES[x._array.dtype]}) and bias type ({CPP_NAMES[b._array.dtype]}) "
                           "should be the same")


def _named(name: str, values: Sequence[int], sep: str) -> str:
    """PyTorch's transposed-convolution messages name each dimension: ``stride_height: 2 stride_width: 2`` (a 1-d
    one is computed as 2-d, with a height of 1, and says so)."""
    values = (1 if name != "output_padding" else 0, *values) if len(values) == 1 else tuple(values)
    words = ("depth", "height", "width")[3 - len(values):]
    return sep.join(f"{name}_{word}: {v}" for word, v in zip(words, values))


def _check_transposed(x: Tensor, w: Tensor, b: Tensor | None, params: tuple) -> None:
    """The rest of PyTorch's checks of a transposed convolution (its weight is (in, out / groups, *kernel))."""
    stride, padding, dilation, groups, _, output_padding = params
    ws, xs = w._array.shape, x._array.shape
    if xs[1] != ws[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {_shape(ws)}, expected input{_shape(xs)} to have "
                           f"{ws[0]} channels, but got {xs[1]} channels instead")
    if b is not None and (b._array.ndim != 1 or b._array.shape[0] != ws[1] * groups):
        raise RuntimeError(f"Given transposed=1, weight of size {_shape(ws)}, expected bias to be 1-dimensional with "
                           f"{ws[1] * groups} elements, but got bias of size {_shape(b._array.shape)} instead")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {_named('dilation', dilation, ', ')}")
    if any(o >= s and o >= d for o, s, d in zip(output_padding, stride, dilation)):
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                           + " ".join(_named(name, v, " ") for name, v in
                                      (("output_padding", output_padding), ("stride", stride), ("dilation", dilation))))
    size = [(i - 1) * s - 2 * p + d * (k - 1) + 1 + o
            for i, s, p, d, k, o in zip(xs[2:], stride, padding, dilation, ws[2:], output_padding)]
    if any(v < 1 for v in size):
        prefix = (1,) if len(size) == 1 else ()
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, (*prefix, *xs[2:])))}). Calculated "
                           f"output size per channel: ({' x '.join(map(str, (*prefix, *size)))}). Output size is too "
                           "small")
    if w._array.dtype != x._array.dtype:
        raise RuntimeError(f"expected scalar type {_short(x)} but found {_short(w)}")


def _same_padding(w: Tensor, stride: tuple, dilation: tuple) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """padding='same': the output as large as the input, so d (k - 1) cells of padding per dimension. When that is
    odd the extra cell goes on the right (or bottom), which the convolution's symmetric padding cannot do: PyTorch
    then pads the input first (``F.pad``, a ``ConstantPadNdBackward0`` node) and warns. Returns the symmetric
    padding and that extra ``F.pad`` (None if not needed)."""
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    totals = [d * (k - 1) for k, d in zip(w._array.shape[2:], dilation)]
    if all(t % 2 == 0 for t in totals):
        return tuple(t // 2 for t in totals), None
    warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of "
                  "the input be created", UserWarning, stacklevel=4)
    extra: list[int] = []
    for t in reversed(totals):  # (F.pad lists the last dimension first)
        extra += [0, t % 2]
    return tuple(t // 2 for t in totals), tuple(extra)


def _convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Ints, padding: Ints | str,
                 dilation: Ints, groups: int, dims: int, output_padding: Ints | None = None) -> Tensor:
    """conv1d/2d/3d, and conv_transpose1d/2d/3d when ``output_padding`` is given: checks, the unbatched case (a
    batch of one, squeezed after), 'same'/'valid', the op."""
    x = input
    transposed = output_padding is not None
    if x._array.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to "
                           f"conv{'_transpose' if transposed else ''}{dims}d, but got input of size: "
                           f"{_shape(x._array.shape)}")
    if weight._array.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    unbatched = x._array.ndim == dims + 1
    if unbatched:  # (PyTorch's graph: UnsqueezeBackward0 -> ConvolutionBackward0 -> SqueezeBackward1)
        x = x.unsqueeze(0)
    n = weight._array.ndim - 2  # (the weight decides how many dimensions; an int option is expanded to dims first)
    stride_t, dilation_t = _tuple(stride, dims), _tuple(dilation, dims)
    extra = None
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        _check_param("stride", stride_t, n)
        _check_param("dilation", dilation_t, n)
        stride_t, dilation_t = stride_t * (n // len(stride_t)), dilation_t * (n // len(dilation_t))
        padding_t, extra = _same_padding(weight, stride_t, dilation_t) if padding == "same" else ((0,) * n, None)
    else:
        padding_t = _tuple(padding, dims)
    extra_t = _tuple(output_padding or 0, dims)
    named = [("stride", stride_t), ("padding", padding_t), ("dilation", dilation_t)]
    for name, value in named + [("output_padding", extra_t)] * transposed:
        _check_param(name, value, n)
    stride_t, padding_t, dilation_t, extra_t = (v * (n // len(v)) for v in (stride_t, padding_t, dilation_t, extra_t))
    if extra is not None:
        x = _pad(x, extra)
    params = (stride_t, padding_t, dilation_t, groups, transposed, extra_t)
    _check(x, weight, bias, params)
    y = Convolution.apply(x, weight, bias if bias is not None else _no_bias(weight), *params)
    return y.squeeze(0) if unbatched else y


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Ints = 1, padding: Ints | str = 0,
           dilation: Ints = 1, groups: int = 1) -> Tensor:
    """Slide ``weight`` (O, C/groups, k) along a signal ``input`` (N, C, L) or (C, L): (N, O, L_out)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Ints = 1, padding: Ints | str = 0,
           dilation: Ints = 1, groups: int = 1) -> Tensor:
    """Slide ``weight`` (O, C/groups, kh, kw) over images ``input`` (N, C, H, W) or (C, H, W): (N, O, H_out, W_out),
    H_out = (H + 2 padding - dilation (kh - 1) - 1) // stride + 1. ``padding`` may also be 'valid' (none) or 'same'
    (the output as large as the input; stride 1 only)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2)


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Ints = 1, padding: Ints | str = 0,
           dilation: Ints = 1, groups: int = 1) -> Tensor:
    """Slide ``weight`` (O, C/groups, kd, kh, kw) through volumes ``input`` (N, C, D, H, W) or (C, D, H, W)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3)


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Ints = 1, padding: Ints = 0,
                     output_padding: Ints = 0, groups: int = 1, dilation: Ints = 1) -> Tensor:
    """The adjoint of conv1d: each cell of ``input`` (N, C, L) paints ``weight`` (C, O/groups, k), scaled by its
    value, onto an output (N, O, (L - 1) stride - 2 padding + dilation (k - 1) + 1 + output_padding)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1, output_padding)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Ints = 1, padding: Ints = 0,
                     output_padding: Ints = 0, groups: int = 1, dilation: Ints = 1) -> Tensor:
    """The adjoint of conv2d, which makes a map larger (a DCGAN's generator: 4x4 -> 8x8 with kernel 4, stride 2,
    padding 1): ``input`` (N, C, H, W), ``weight`` (C, O/groups, kh, kw), output (N, O, H_out, W_out) with
    H_out = (H - 1) stride - 2 padding + dilation (kh - 1) + 1 + output_padding. Its gradient with respect to
    ``input`` is ``conv2d`` of the output's gradient with the same weight."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2, output_padding)


def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Ints = 1, padding: Ints = 0,
                     output_padding: Ints = 0, groups: int = 1, dilation: Ints = 1) -> Tensor:
    """The adjoint of conv3d, on volumes (N, C, D, H, W); ``weight`` (C, O/groups, kd, kh, kw)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3, output_padding)


# ------------------------------------------------------------------------------------------------ the layers
# (sets, as PyTorch's: its messages print them, in the order a set of these strings has in this process)
_PADDING_STRINGS = {"same", "valid"}
_MODES = {"zeros", "reflect", "replicate", "circular"}


class _ConvNd(Module):
    """What Conv1d, Conv2d and Conv3d share: PyTorch's attributes (``in_channels``, ``kernel_size`` as a tuple,
    ``padding``, ``padding_mode`` ...), the weight (out, in / groups, *kernel_size) and bias (out,), and their
    initialisation, drawn in PyTorch's order so that after ``manual_seed`` the numbers are PyTorch's."""

    dims = 2
    _function = staticmethod(conv2d)
    _transposed = False  # (a transposed convolution's weight is (in, out / groups, *kernel_size))

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Ints, stride: Ints = 1,
                 padding: Ints | str = 0, dilation: Ints = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        n = self.dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {_PADDING_STRINGS}")
            if padding == "same" and any(s != 1 for s in _tuple(stride, n)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _MODES:
            raise ValueError(f"padding_mode must be one of {_MODES}, but got padding_mode={padding_mode!r}")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _tuple(kernel_size, n), _tuple(stride, n)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, n)
        self.dilation = _tuple(dilation, n)
        self.transposed, self.output_padding = self._transposed, (0,) * n
        self.groups, self.padding_mode = groups, padding_mode
        # F.pad's amounts for the non-zero modes: last dimension first, each (left, right)
        if self.padding == "same":
            totals = [d * (k - 1) for k, d in zip(self.kernel_size, self.dilation)]
            self._reversed_padding_repeated_twice = [a for t in reversed(totals) for a in (t // 2, t - t // 2)]
        else:
            amounts = (0,) * n if self.padding == "valid" else self.padding
            self._reversed_padding_repeated_twice = tuple(p for a in reversed(amounts) for p in (a, a))
        np_dtype = (dtype or float32).np
        shape = (in_channels, out_channels // groups) if self._transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(_wrap(np.empty((*shape, *self.kernel_size), np_dtype)))
        if bias:
            self.bias = Parameter(_wrap(np.empty(out_channels, np_dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # As Linear's: kaiming_uniform_ with a = sqrt(5) is U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = in/groups *
        # kernel taps; then the bias, with the same bound. The weight first: PyTorch's order of draws.
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        if self.padding_mode != "zeros":  # the input padded first by F.pad, then a convolution without padding
            return self._function(_pad(input, self._reversed_padding_repeated_twice, self.padding_mode),
                                  self.weight, self.bias, self.stride, 0, self.dilation, self.groups)
        return self._function(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * self.dims:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * self.dims:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * self.dims:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """Convolution over signals: (N, in_channels, L) -> (N, out_channels, L_out); weight (out, in / groups, k)."""

    dims = 1
    _function = staticmethod(conv1d)


class Conv2d(_ConvNd):
    """Convolution over images: (N, in_channels, H, W) -> (N, out_channels, H_out, W_out), weight (out, in / groups,
    kh, kw), bias (out,). ``nn.Conv2d(1, 6, 5)``: 6 learned 5x5 filters over a grey image."""

    dims = 2
    _function = staticmethod(conv2d)


class Conv3d(_ConvNd):
    """Convolution over volumes (N, in_channels, D, H, W); weight (out, in / groups, kd, kh, kw)."""

    dims = 3
    _function = staticmethod(conv3d)


class _LazyConvNd(_ConvNd):
    """A convolution that learns ``in_channels`` from its first input (dim 1 of a batch, dim 0 unbatched): until
    then its weight and bias are ``UninitializedParameter``s and it prints ``in_channels`` as 0; then it becomes the
    plain layer, with PyTorch's initialisation (as ``LazyLinear`` does)."""

    _becomes: type

    def __init__(self, out_channels: int, kernel_size: Ints, stride: Ints = 1, padding: Ints | str = 0,
                 dilation: Ints = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, 1, bias, padding_mode, device, dtype)
        self.out_channels, self.groups = out_channels, groups  # (checked once in_channels is known)
        self.weight = UninitializedParameter(dtype=self.weight._array.dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=self.bias._array.dtype)

    def reset_parameters(self) -> None:
        if self.in_channels and not isinstance(self.weight, UninitializedParameter):  # (nothing to initialise yet)
            super().reset_parameters()

    def forward(self, input: Tensor) -> Tensor:
        if isinstance(self.weight, UninitializedParameter):
            ndim = input._array.ndim
            if ndim not in (self.dims + 1, self.dims + 2):
                raise RuntimeError(f"Expected {self.dims + 1}D (unbatched) or {self.dims + 2}D (batched) input to "
                                   f"{type(self).__name__}, but got input of size: {input.shape}")
            self.in_channels = input._array.shape[1 if ndim == self.dims + 2 else 0]
            if self.in_channels % self.groups:
                raise ValueError("in_channels must be divisible by groups")
            self.weight.materialize((self.out_channels, self.in_channels // self.groups, *self.kernel_size))
            if isinstance(self.bias, UninitializedParameter):
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()
        self.__class__ = self._becomes  # (PyTorch's cls_to_become)
        return self.forward(input)


class LazyConv1d(_LazyConvNd):
    """A ``Conv1d`` whose ``in_channels`` is read from its first input."""

    dims, _becomes = 1, Conv1d
    _function = staticmethod(conv1d)


class LazyConv2d(_LazyConvNd):
    """A ``Conv2d`` whose ``in_channels`` is read from its first input (d2l: ``nn.LazyConv2d(1, kernel_size=3,
    padding=1)``)."""

    dims, _becomes = 2, Conv2d
    _function = staticmethod(conv2d)


class LazyConv3d(_LazyConvNd):
    """A ``Conv3d`` whose ``in_channels`` is read from its first input."""

    dims, _becomes = 3, Conv3d
    _function = staticmethod(conv3d)


class _ConvTransposeNd(_ConvNd):
    """What ConvTranspose1d, 2d and 3d share: a transposed convolution's layer, (N, in, *size) -> (N, out, *larger).
    Its weight is (in_channels, out_channels / groups, *kernel_size), initialised as a convolution's (the fan-in
    PyTorch computes from that shape: out / groups times the kernel's taps), in PyTorch's order of draws.
    ``forward(input, output_size=...)`` picks the output_padding that gives that size."""

    _transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Ints, stride: Ints = 1, padding: Ints = 0,
                 output_padding: Ints = 0, groups: int = 1, bias: bool = True, dilation: Ints = 1,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, _tuple(padding, self.dims), dilation, groups,
                         bias, padding_mode, device, dtype)
        self.output_padding = _tuple(output_padding, self.dims)

    def _output_padding(self, input: Tensor, output_size: Sequence[int] | None) -> tuple[int, ...]:
        """``output_padding``, or the one that makes the output ``output_size`` (its spatial sizes, or all of them):
        each size must lie between the smallest output, (H - 1) s - 2p + d (k - 1) + 1, and s - 1 more."""
        if output_size is None:
            return self.output_padding
        n, ndim = self.dims, input._array.ndim
        batch = 2 if ndim == n + 2 else 1
        size = output_size[batch:] if len(output_size) == batch + n else output_size
        if len(size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {ndim}D input, output_size must have {n} or {batch + n} elements "
                             f"(got {len(size)})")
        smallest = [(input._array.shape[batch + i] - 1) * self.stride[i] - 2 * self.padding[i]
                    + self.dilation[i] * (self.kernel_size[i] - 1) + 1 for i in range(n)]
        largest = [m + s - 1 for m, s in zip(smallest, self.stride)]
        if any(not lo <= v <= hi for v, lo, hi in zip(size, smallest, largest)):
            raise ValueError(f"requested an output size of {size}, but valid sizes range from {smallest} to "
                             f"{largest} (for an input of {input.size()[2:]})")
        return tuple(v - m for v, m in zip(size, smallest))

    def forward(self, input: Tensor, output_size: Sequence[int] | None = None) -> Tensor:
        return self._function(input, self.weight, self.bias, self.stride, self.padding,
                              self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """Transposed convolution over signals: (N, in, L) -> (N, out, (L - 1) stride - 2 padding + dilation (k - 1)
    + output_padding + 1); weight (in, out / groups, k)."""

    dims = 1
    _function = staticmethod(conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    """Transposed convolution over images, the upsampling layer of a DCGAN generator: ``nn.ConvTranspose2d(64, 32,
    4, 2, 1)`` doubles H and W. Weight (in, out / groups, kh, kw), bias (out,) (see ``F.conv_transpose2d``)."""

    dims = 2
    _function = staticmethod(conv_transpose2d)


class ConvTranspose3d(_ConvTransposeNd):
    """Transposed convolution over volumes (N, in, D, H, W); weight (in, out / groups, kd, kh, kw)."""

    dims = 3
    _function = staticmethod(conv_transpose3d)
