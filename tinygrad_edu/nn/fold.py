"""Sliding blocks: ``F.unfold``/``nn.Unfold`` (im2col) and ``F.fold``/``nn.Fold`` (col2im), and the pixel shuffles
``F.pixel_shuffle``/``nn.PixelShuffle`` and ``F.pixel_unshuffle``/``nn.PixelUnshuffle``.

``unfold`` lays every kh x kw window of (N, C, H, W) out as a column: (N, C * kh * kw, L), L the number of windows,
placed as a convolution places them (``stride``, ``padding``, ``dilation``). It is the first half of a convolution
computed as a matrix product (``conv.py`` does exactly this): ``w.view(O, -1) @ unfold(x)`` is conv2d's output, L
columns of it. ``fold`` is its adjoint: each column's values added back onto the cells their window covered
(overlaps add up), into an ``output_size`` map. So each is the other's gradient: d unfold / dx applied to g is
fold(g), and d fold applied to g is unfold(g) (``Im2ColBackward0`` and ``Col2ImBackward0``).

``pixel_shuffle(x, r)`` moves r * r channels into an r x r block of pixels, (N, C r^2, H, W) -> (N, C, H r, W r): the
"sub-pixel convolution" that upsamples in super-resolution networks. ``pixel_unshuffle`` undoes it. Both only move
numbers, so each one's gradient is the other applied to g.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..core.function import Function
from .conv import _col2im, _padded, _windows
from .module import Module

Ints = int | Sequence[int]


def _pair(value: Ints) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else (int(value[0]), int(value[1]))


def _blocks(spatial: Sequence[int], params: tuple) -> list[int]:
    """How many windows fit along each dimension (as a convolution's output size)."""
    kernel, dilation, padding, stride = params
    return [(n + 2 * p - d * (k - 1) - 1) // s + 1 for n, k, d, p, s in zip(spatial, kernel, dilation, padding, stride)]


def _unfold(a: np.ndarray, params: tuple) -> np.ndarray:
    kernel, dilation, padding, stride = params
    win = _windows(_padded(a, padding), kernel, stride, dilation)  # (N, C, oh, ow, kh, kw), a view
    win = win.transpose(0, 1, 4, 5, 2, 3)  # (N, C, kh, kw, oh, ow): channel, then tap, as PyTorch's rows are
    return win.reshape(a.shape[0], -1, win.shape[-2] * win.shape[-1])  # (the one copy)


def _fold(a: np.ndarray, size: tuple[int, int], params: tuple) -> np.ndarray:
    kernel, dilation, padding, stride = params
    out = _blocks(size, params)
    cols = a.reshape(a.shape[0], -1, *kernel, *out).transpose(0, 1, 4, 5, 2, 3)  # (N, C, oh, ow, kh, kw)
    return np.ascontiguousarray(_col2im(cols, size, stride, padding, dilation))


class Im2Col(Function):
    """unfold: every window as a column (see the module's docstring). Its gradient is fold(g) into the input's
    size, an op itself (``Col2Im``), so it can be differentiated again. The node keeps ``_saved_kernel_size``,
    ``_saved_dilation``, ``_saved_padding``, ``_saved_stride``."""

    node_name = "Im2ColBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, params: tuple) -> np.ndarray:
        ctx.params, ctx.size = params, x._array.shape[-2:]
        ctx._saved_kernel_size, ctx._saved_dilation, ctx._saved_padding, ctx._saved_stride = params
        return _unfold(x._array, params)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return Col2Im.apply(g, ctx.size, ctx.params), None


class Col2Im(Function):
    """fold: each column's values added back onto its window's cells in an ``output_size`` map. Its gradient is
    unfold(g) (``Im2Col``): a cell's gradient is read back by every window that covered it."""

    node_name = "Col2ImBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, size: tuple[int, int], params: tuple) -> np.ndarray:
        ctx.params = params
        ctx._saved_kernel_size, ctx._saved_dilation, ctx._saved_padding, ctx._saved_stride = params
        return _fold(x._array, size, params)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return Im2Col.apply(g, ctx.params), None, None


def _text(values: Sequence[int]) -> str:
    return "(" + ", ".join(map(str, values)) + ")"


def unfold(input: Tensor, kernel_size: Ints, dilation: Ints = 1, padding: Ints = 0, stride: Ints = 1) -> Tensor:
    """Every ``kernel_size`` window of (N, C, H, W) (or (C, H, W)) as a column: (N, C * kh * kw, L), L windows in
    rows of the map, left to right (see the module's docstring)."""
    a = input._array
    if a.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(a.ndim, 1)}, {max(a.ndim, 1) - 1}]"
                         ", but got 2)")
    if a.ndim > 4:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got: "
                           f"[{', '.join(map(str, a.shape))}]")
    params = (_pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))
    blocks = _blocks(a.shape[-2:], params)
    if min(blocks) < 1:
        raise RuntimeError(f"Given input with spatial size {_text(a.shape[-2:])}, kernel_size={_text(params[0])}, "
                           f"dilation={_text(params[1])}, padding={_text(params[2])}, calculated shape of the array "
                           f"of sliding blocks as {_text(blocks)}, but its components must be at least one.")
    if a.ndim == 3:
        return Im2Col.apply(input.unsqueeze(0), params).squeeze(0)
    return Im2Col.apply(input, params)


def fold(input: Tensor, output_size: Ints, kernel_size: Ints, dilation: Ints = 1, padding: Ints = 0,
         stride: Ints = 1) -> Tensor:
    """Columns (N, C * kh * kw, L) (or (C * kh * kw, L)) back into an ``output_size`` map (N, C, H, W), each
    column's values added onto its window's cells: the adjoint of ``unfold``. fold(unfold(x)) is x times the number
    of windows that cover each cell."""
    a = input._array
    if a.ndim not in (2, 3) or 0 in a.shape[-2:]:
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: [{', '.join(map(str, a.shape))}]")
    size = _pair(output_size)
    params = (_pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))
    taps = math.prod(params[0])
    if a.shape[-2] % taps:
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={a.shape[-2]} and kernel_size={_text(params[0])}.")
    blocks = _blocks(size, params)
    if math.prod(blocks) != a.shape[-1]:
        raise RuntimeError(f"Given output_size={_text(size)}, kernel_size={_text(params[0])}, dilation="
                           f"{_text(params[1])}, padding={_text(params[2])}, stride={_text(params[3])}, expected size "
                           f"of input's dimension 2 to match the calculated number of sliding blocks {blocks[0]} * "
                           f"{blocks[1]} = {math.prod(blocks)}, but got input.size(2)={a.shape[-1]}.")
    if a.ndim == 2:
        return Col2Im.apply(input.unsqueeze(0), size, params).squeeze(0)
    return Col2Im.apply(input, size, params)


class Unfold(Module):
    """Extract sliding windows as columns (see ``F.unfold``)."""

    def __init__(self, kernel_size: Ints, dilation: Ints = 1, padding: Ints = 0, stride: Ints = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class Fold(Module):
    """Add columns back into a map of ``output_size`` (see ``F.fold``)."""

    def __init__(self, output_size: Ints, kernel_size: Ints, dilation: Ints = 1, padding: Ints = 0,
                 stride: Ints = 1) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


# ------------------------------------------------------------------------------------------------ pixel shuffles
def _shuffle(a: np.ndarray, r: int) -> np.ndarray:
    """(*, C r^2, H, W) -> (*, C, H r, W r): channel c r^2 + i r + j goes to pixel (h r + i, w r + j) of channel c."""
    *lead, c, h, w = a.shape
    b = a.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    b = b.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)  # (*, C, H, r, W, r)
    return np.ascontiguousarray(b).reshape(*lead, c // (r * r), h * r, w * r)


def _unshuffle(a: np.ndarray, r: int) -> np.ndarray:
    """The inverse of ``_shuffle``: (*, C, H r, W r) -> (*, C r^2, H, W)."""
    *lead, c, h, w = a.shape
    b = a.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    b = b.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)  # (*, C, r, r, H, W)
    return np.ascontiguousarray(b).reshape(*lead, c * r * r, h // r, w // r)


class PixelShuffling(Function):
    """pixel_shuffle: it only moves numbers, so its gradient moves them back: its inverse applied to g (and the
    inverse's gradient is this op again, so every order of derivative is there)."""

    node_name = "PixelShuffleBackward0"
    _move, _saved = staticmethod(_shuffle), "_saved_upscale_factor"

    @staticmethod
    def forward(ctx: Any, x: Tensor, r: int) -> np.ndarray:
        op = ctx._forward_cls  # (this class or the inverse: the same lines serve both)
        ctx.r = r
        setattr(ctx, op._saved, r)
        return op._move(x._array, r)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return _INVERSE[ctx._forward_cls].apply(g, ctx.r), None


class PixelUnshuffling(PixelShuffling):
    """pixel_unshuffle; its gradient is pixel_shuffle(g)."""

    node_name = "PixelUnshuffleBackward0"
    _move, _saved = staticmethod(_unshuffle), "_saved_downscale_factor"


_INVERSE = {PixelShuffling: PixelUnshuffling, PixelUnshuffling: PixelShuffling}


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(*, C r^2, H, W) -> (*, C, H r, W r), r = ``upscale_factor``: each group of r^2 channels becomes an r x r
    block of pixels."""
    a, r = input._array, upscale_factor
    if a.ndim < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with {a.ndim} "
                           "dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    if a.shape[-3] % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={a.shape[-3]} is not divisible by {r * r}")
    return PixelShuffling.apply(input, r)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """(*, C, H r, W r) -> (*, C r^2, H, W), r = ``downscale_factor``: the inverse of ``pixel_shuffle``."""
    a, r = input._array, downscale_factor
    if a.ndim < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{a.ndim} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    for name, dim in (("height", -2), ("width", -1)):
        if a.shape[dim] % r:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                               f"input.size({dim})={a.shape[dim]} is not divisible by {r}")
    return PixelUnshuffling.apply(input, r)


class PixelShuffle(Module):
    """Channels into blocks of pixels (see ``F.pixel_shuffle``)."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """Blocks of pixels into channels (see ``F.pixel_unshuffle``)."""

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"
