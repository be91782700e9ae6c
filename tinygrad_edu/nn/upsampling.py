"""Resizing feature maps: ``F.interpolate`` and its layers ``nn.Upsample``, ``nn.UpsamplingNearest2d`` and
``nn.UpsamplingBilinear2d`` (the decoder half of a U-Net, a generator that grows its image).

Every mode here is *separable*: resizing (N, C, H, W) to (N, C, H', W') resizes along W, then along H, each time
the same rule on one axis. Along one axis of n cells made into m, output cell j reads:

* ``nearest``: cell floor(j * scale), with scale = n / m (or 1 / scale_factor when that was given);
  ``nearest-exact``: cell floor((j + 0.5) * scale), the nearest centre;
* ``linear`` (``bilinear`` on two axes, ``trilinear`` on three): the source position s of j's centre, then
  ``(1 - t) x[floor s] + t x[floor s + 1]`` with t = s - floor s. With ``align_corners=True`` the corner cells of
  input and output are aligned, s = j (n - 1) / (m - 1); otherwise their edges are, s = (j + 0.5) scale - 0.5
  (at least 0).

So each axis is a linear map: out = A x, with at most two non-zeros in each row of A. The gradient is the
transposed map, A^T g: each output's gradient goes back, weighted by the same (1 - t) and t, to the cells it read
(and adds up where several outputs read one cell). A^T is linear in g, and its adjoint is A again: the gradient's
gradient is the resize itself. The numbers are computed as PyTorch's CPU kernels compute them (the scale and the
source positions in float32 for a float32 tensor), so float64 results agree to the last bits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from ..core.function import Function
from ..ops import unrecorded
from .module import Module
from .pooling import adaptive_avg_pool1d, adaptive_avg_pool2d

# The node of each (mode, number of spatial dimensions), as PyTorch names them.
_NODE_NAMES = {("nearest", 1): "UpsampleNearest1D", ("nearest", 2): "UpsampleNearest2D",
               ("nearest", 3): "UpsampleNearest3D", ("nearest-exact", 1): "UpsampleNearestExact1D",
               ("nearest-exact", 2): "UpsampleNearestExact2D", ("nearest-exact", 3): "UpsampleNearestExact3D",
               ("linear", 1): "UpsampleLinear1D", ("bilinear", 2): "UpsampleBilinear2D",
               ("trilinear", 3): "UpsampleTrilinear3D"}


# ------------------------------------------------------------------------------------------------ one axis
def _scale(n: int, m: int, scale: float | None, dtype: Any) -> Any:
    """input cells per output cell: 1 / scale_factor if given (PyTorch computes it in double, then rounds to the
    kernel's type), else n / m."""
    return dtype.type(1.0 / scale) if scale is not None and scale > 0 else dtype.type(n) / dtype.type(m)


def _axis(n: int, m: int, mode: str, align_corners: bool, scale: float | None, dtype: np.dtype) -> list[tuple]:
    """The rule along one axis of n cells resized to m: a list of (source index per output, weight per output or
    None), whose weighted sum is the output (one term for the nearest modes, two for linear)."""
    j = np.arange(m)
    if mode in ("nearest", "nearest-exact"):
        f32 = np.dtype(np.float32)  # (PyTorch's nearest kernels compute the position in float, whatever the dtype)
        if mode == "nearest" and m == n:
            index = j
        elif mode == "nearest" and m == 2 * n:
            index = j >> 1
        else:
            offset = f32.type(0.5) if mode == "nearest-exact" else f32.type(0)
            index = np.minimum(np.floor((j.astype(f32) + offset) * _scale(n, m, scale, f32)).astype(np.int64), n - 1)
        return [(index, None)]
    opmath = dtype if dtype.kind == "f" and dtype.itemsize >= 4 else np.dtype(np.float32)
    if align_corners:
        step = opmath.type(n - 1) / opmath.type(m - 1) if m > 1 else opmath.type(0)
        source = step * j.astype(opmath)
    else:
        source = _scale(n, m, scale, opmath) * (j.astype(opmath) + opmath.type(0.5)) - opmath.type(0.5)
        source = np.maximum(source, opmath.type(0))
    low = np.minimum(np.floor(source).astype(np.int64), n - 1)
    t = np.clip(source - low.astype(opmath), 0, 1).astype(dtype)
    high = low + (low < n - 1)
    return [(low, dtype.type(1) - t), (high, t)]


def _shaped(weight: np.ndarray, axis: int, ndim: int) -> np.ndarray:
    return weight.reshape((-1,) + (1,) * (ndim - 1 - axis))


def _resize(a: np.ndarray, rules: list[list[tuple]]) -> np.ndarray:
    """Apply each spatial axis's rule, the last axis first (which gives PyTorch's nesting of the sums:
    (1 - t_h) (row h0, resized along W) + t_h (row h1, resized along W))."""
    for k in reversed(range(len(rules))):
        axis = a.ndim - len(rules) + k
        out = None
        for index, weight in rules[k]:
            term = np.take(a, index, axis=axis)
            term = term if weight is None else term * _shaped(weight, axis, a.ndim)
            out = term if out is None else out + term
        a = out
    return a


def _spread(g: np.ndarray, shape: tuple[int, ...], rules: list[list[tuple]]) -> np.ndarray:
    """The adjoint of ``_resize``: along each axis, each output's gradient added (weighted) onto the cells it read."""
    for k in range(len(rules)):
        axis = g.ndim - len(rules) + k
        out = np.zeros((*g.shape[:axis], shape[axis], *g.shape[axis + 1:]), g.dtype)
        moved = np.moveaxis(out, axis, 0)  # (a view: np.add.at adds into out)
        for index, weight in rules[k]:
            term = g if weight is None else g * _shaped(weight, axis, g.ndim)
            np.add.at(moved, index, np.moveaxis(term, axis, 0))
        g = out
    return g


# ------------------------------------------------------------------------------------------------ the op
class Resize(Function):
    """out = the input resized (see the module's docstring): one op per mode and number of spatial dimensions
    (``UpsampleNearest2DBackward0``, ``UpsampleBilinear2DBackward0`` ...), keeping PyTorch's ``_saved_output_size``,
    ``_saved_align_corners`` (linear modes) and ``_saved_scales_h``/``_saved_scales_w`` (or ``_saved_scales``,
    ``_saved_scales_d``): the scale factors given, or None. Its gradient is ``ResizeBackward``."""

    saved_names = ()

    @staticmethod
    def forward(ctx: Any, x: Tensor, size: tuple[int, ...], mode: str, align_corners: bool,
                scales: tuple[float | None, ...]) -> np.ndarray:
        a = x._array
        rules = [_axis(n, m, mode, align_corners, s, a.dtype) for n, m, s in zip(a.shape[2:], size, scales)]
        ctx.rules, ctx.shape, ctx.options = rules, a.shape, (size, mode, align_corners, scales)
        ctx._saved_output_size = tuple(size)
        if mode not in ("nearest", "nearest-exact"):
            ctx._saved_align_corners = align_corners
        names = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}[len(size)]
        for name, s in zip(names, scales):
            setattr(ctx, f"_saved_{name}", s)
        return np.ascontiguousarray(_resize(a, rules))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        if unrecorded():
            return _wrap(_spread(g._array, ctx.shape, ctx.rules)), None, None, None, None
        size, mode = ctx.options[:2]
        return _BACKWARD_OPS[mode, len(size)].apply(g, ctx.shape, ctx.options), None, None, None, None


class ResizeBackward(Function):
    """The resize's gradient as an op: A^T g (see the module's docstring). Its own gradient is the resize again."""

    @staticmethod
    def forward(ctx: Any, g: Tensor, shape: tuple[int, ...], options: tuple) -> np.ndarray:
        size, mode, align_corners, scales = options
        rules = [_axis(n, m, mode, align_corners, s, g._array.dtype) for n, m, s in zip(shape[2:], size, scales)]
        ctx.options = options
        return _spread(g._array, shape, rules)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        size, mode, align_corners, scales = ctx.options
        return _upsample(gg, size, mode, align_corners, scales), None, None


# One op per mode and dimension, named as PyTorch's nodes (the same code: only the name differs).
_OPS = {key: type(name, (Resize,), {"node_name": f"{name}Backward0", "__module__": __name__})
        for key, name in _NODE_NAMES.items()}
_BACKWARD_OPS = {key: type(f"{name}Backward", (ResizeBackward,),
                           {"node_name": f"{name}BackwardBackward0", "__module__": __name__})
                 for key, name in _NODE_NAMES.items()}


def _upsample(x: Tensor, size: tuple[int, ...], mode: str, align_corners: bool,
              scales: tuple[float | None, ...]) -> Tensor:
    return _OPS[mode, len(size)].apply(x, tuple(size), mode, align_corners, tuple(scales))


# ------------------------------------------------------------------------------------------------ the function
_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
_LINEAR = {"linear": 1, "bilinear": 2, "trilinear": 3}


def interpolate(input: Tensor, size: int | Sequence[int] | None = None,
                scale_factor: float | Sequence[float] | None = None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """Resize (N, C, L), (N, C, H, W) or (N, C, D, H, W) to ``size`` or by ``scale_factor`` (the output then has
    floor(n * scale_factor) cells). ``mode``: 'nearest' (copy the nearest cell), 'nearest-exact', 'linear' (1-d),
    'bilinear' (2-d), 'trilinear' (3-d), or 'area' (adaptive average pooling). ``align_corners`` (linear modes
    only) aligns the corner cells' centres instead of the edges. With ``recompute_scale_factor=True`` the kernel
    uses the ratio of the sizes rather than the given factor."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dims = input._array.ndim - 2
    spatial = list(input._array.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dims:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {spatial} and output size of {size}. Please provide "
                                 "input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) "
                                 "format.")
            output = [int(v) for v in size]
        else:
            output = [int(size)] * dims
        scales: list[float | None] = [None] * dims
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dims:
                raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got "
                                 f"input with spatial dimensions of {spatial} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 "scale_factor in (s1, s2, ...,sK) format.")
            scales = [float(f) for f in scale_factor]
        else:
            scales = [float(scale_factor)] * dims
        output = [math.floor(n * s) for n, s in zip(spatial, scales)]  # (in double, as PyTorch computes it)
        if recompute_scale_factor or mode == "area":  # the kernel then sees only the sizes
            scales = [None] * dims
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if antialias:
        raise NotImplementedError("tinygrad_edu's interpolate has no antialias: call it with antialias=False")
    if mode in ("nearest", "nearest-exact") and 1 <= dims <= 3:
        return _upsample(input, tuple(output), mode, False, tuple(scales))
    if mode == "area" and dims in (1, 2):
        return (adaptive_avg_pool1d if dims == 1 else adaptive_avg_pool2d)(input, tuple(output))
    if mode in _LINEAR and dims == _LINEAR[mode]:
        return _upsample(input, tuple(output), mode, bool(align_corners), tuple(scales))
    if mode in _LINEAR and 1 <= dims <= 3:
        raise NotImplementedError(f"Got {dims + 2}D input, but {mode} mode needs {_LINEAR[mode] + 2}D input")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {dims + 2}D) for the "
                              f"modes: {_MODES} (got {mode})")


# ------------------------------------------------------------------------------------------------ the layers
class Upsample(Module):
    """Resize each sample's feature maps (see ``F.interpolate``): ``nn.Upsample(scale_factor=2, mode='nearest')``
    doubles H and W by copying each cell into a 2x2 block; ``mode='bilinear'`` blends its neighbours instead."""

    def __init__(self, size: int | Sequence[int] | None = None, scale_factor: float | Sequence[float] | None = None,
                 mode: str = "nearest", align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):  # (stored as floats, as PyTorch stores them: the repr shows 2.0)
            self.scale_factor: Any = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                           recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return f"{info}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """``nn.Upsample(size, scale_factor, mode='nearest')`` for images (N, C, H, W)."""

    def __init__(self, size: int | Sequence[int] | None = None,
                 scale_factor: float | Sequence[float] | None = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``nn.Upsample(size, scale_factor, mode='bilinear', align_corners=True)`` for images (N, C, H, W)."""

    def __init__(self, size: int | Sequence[int] | None = None,
                 scale_factor: float | Sequence[float] | None = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
