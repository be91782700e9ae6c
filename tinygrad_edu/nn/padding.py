"""``F.pad`` and the padding layers (``nn.ZeroPad2d``, ``nn.ReflectionPad2d``, ...): widen (or, with negative
amounts, crop) the last dimensions of a tensor.

``pad`` lists (left, right) amounts starting from the *last* dimension: ``(1, 2)`` adds 1 column on the left and 2
on the right; ``(1, 2, 3, 4)`` also adds 3 rows on top and 4 at the bottom. What goes into the new cells is the
``mode``::

    x = [a b c]      constant (value v): v a b c v      reflect: b a b c b      (mirror, the edge not repeated)
                     replicate:          a a b c c      circular: c a b c a     (wrap around)

The gradient of a padding takes back what each output cell got from the input: for ``constant`` it is the gradient
cropped (the new cells came from no input), for the others each input cell collects the gradients of all the cells
that copied it (an edge cell of ``replicate`` many times over).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..core.function import Function
from .module import Module

_COMBINATIONS = ("Supported combinations for non-constant padding:\n"
                 "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                 "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                 "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def _pairs(pad: Sequence[int]) -> list[tuple[int, int]]:
    """``(l0, r0, l1, r1, ...)`` (last dimension first) as one (left, right) pair per dimension, first dimension
    first: the order of numpy's ``np.pad``."""
    return [(pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)][::-1]


class ConstantPadNd(Function):
    """Pad with a constant (negative amounts crop). Its gradient is the same padding with the amounts negated
    and the value 0: the gradient cropped back to the input's cells (and zeros where the input was cropped)."""

    node_name = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, pad: tuple[int, ...], value: float) -> np.ndarray:
        ctx.pad = pad
        a = x._array
        lead = a.ndim - len(pad) // 2
        pairs = [(0, 0)] * lead + _pairs(pad)
        if any(n + min(lo, 0) + min(hi, 0) < 0 for n, (lo, hi) in zip(a.shape, pairs)):  # cropped past nothing
            raise RuntimeError("narrow(): length must be non-negative.")
        # Crop first (the negative amounts), then add the new cells (the positive ones).
        cropped = a[tuple(slice(max(-lo, 0), n - max(-hi, 0)) for n, (lo, hi) in zip(a.shape, pairs))]
        widths = [(max(lo, 0), max(hi, 0)) for lo, hi in pairs]
        fill = value if np.isnan(value) or a.dtype.kind == "f" else int(value)
        return np.pad(cropped, widths, constant_values=np.asarray(fill).astype(a.dtype))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return ConstantPadNd.apply(g, tuple(-p for p in ctx.pad), 0.0), None, None


def _source_index(n: int, lo: int, hi: int, mode: str) -> np.ndarray:
    """For each output position along one dimension, the input position whose value it copies."""
    j = np.arange(-lo, n + hi)
    if mode == "replicate":
        return np.clip(j, 0, n - 1)
    period = 2 * (n - 1)  # reflect: ... 2 1 [0 1 2 3] 2 1 0 1 ... has period 2 (n - 1)
    j = np.abs(j) % period if period else np.zeros_like(j)
    return np.where(j >= n, period - j, j)


def _gather(a: np.ndarray, indices: list[np.ndarray]) -> np.ndarray:
    """Copy along the last ``len(indices)`` dimensions, output cell i taking input cell ``indices[k][i]``."""
    for k, idx in enumerate(indices):
        a = np.take(a, idx, axis=a.ndim - len(indices) + k)
    return a


def _scatter_add(g: np.ndarray, indices: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray:
    """The adjoint of ``_gather``: each input cell sums the gradients of the output cells that copied it."""
    for k in reversed(range(len(indices))):
        axis = g.ndim - len(indices) + k
        out_shape = list(g.shape)
        out_shape[axis] = shape[axis]
        out = np.zeros(out_shape, dtype=g.dtype)
        np.add.at(out, (slice(None),) * axis + (indices[k],), g)
        g = out
    return g


def _indices(shape: tuple[int, ...], pad: tuple[int, ...], mode: str) -> list[np.ndarray]:
    return [_source_index(n, lo, hi, mode) for n, (lo, hi) in zip(shape[-(len(pad) // 2):], _pairs(pad))]


class _IndexPad(Function):
    """reflect and replicate: every output cell copies one input cell (``_source_index``); the gradient sums."""

    @staticmethod
    def forward(ctx: Any, x: Tensor, pad: tuple[int, ...], mode: str) -> np.ndarray:
        a = x._array
        ctx.shape, ctx.pad, ctx.mode, ctx._saved_padding = a.shape, pad, mode, pad
        return _gather(a, _indices(a.shape, pad, mode))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        backward_fn = _PAD_BACKWARD[ctx.mode][len(ctx.pad) // 2 - 1]
        return backward_fn.apply(g, ctx.pad, ctx.mode, ctx.shape), None, None


class _IndexPadBackward(Function):
    """The gradient of reflect/replicate padding, a Function itself so that ``create_graph`` can differentiate it:
    its own gradient is the padding again (a gather and its scatter-add are each other's transpose)."""

    @staticmethod
    def forward(ctx: Any, g: Tensor, pad: tuple[int, ...], mode: str, shape: tuple[int, ...]) -> np.ndarray:
        ctx.pad, ctx.mode, ctx._saved_padding = pad, mode, pad
        return _scatter_add(g._array, _indices(shape, pad, mode), shape)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        return _PAD_FORWARD[ctx.mode][len(ctx.pad) // 2 - 1].apply(gg, ctx.pad, ctx.mode), None, None, None


def _named(base: type, name: str) -> type:
    return type(name.removesuffix("0"), (base,), {"node_name": name})


# PyTorch's node names: ReflectionPad2DBackward0 for a 2-d reflection, ReflectionPad2DBackwardBackward0 for its
# gradient's node (seen with create_graph=True).
_KINDS = (("reflect", "Reflection"), ("replicate", "Replication"))
_PAD_FORWARD = {mode: [_named(_IndexPad, f"{kind}Pad{d}DBackward0") for d in (1, 2, 3)] for mode, kind in _KINDS}
_PAD_BACKWARD = {mode: [_named(_IndexPadBackward, f"{kind}Pad{d}DBackwardBackward0") for d in (1, 2, 3)]
                 for mode, kind in _KINDS}


def _circular(x: Tensor, pairs: list[tuple[int, int]]) -> Tensor:
    """Wrap-around padding, one dimension at a time, as slice assignments into a tensor of zeros (so its node is
    ``CopySlices``, as in PyTorch): the middle is the input (cropped by negative amounts), the left margin copies
    the input's last cells, the right margin its first ones."""
    lead = x.dim() - len(pairs)
    for k, (lo, hi) in enumerate(pairs):
        axis = lead + k
        n = x.shape[axis]

        def at(sl: slice, axis: int = axis) -> tuple:
            return (slice(None),) * axis + (sl,)

        x = x[at(slice(max(-lo, 0), n - max(-hi, 0)))]  # crop first
        lo, hi, n = max(lo, 0), max(hi, 0), x.shape[axis]
        shape = list(x.shape)
        shape[axis] = n + lo + hi
        out = x.new_zeros(shape)
        out[at(slice(lo, lo + n))] = x
        if lo:
            out[at(slice(0, lo))] = x[at(slice(n - lo, n))]
        if hi:
            out[at(slice(lo + n, lo + n + hi))] = x[at(slice(0, hi))]
        x = out
    return x


def pad(input: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None) -> Tensor:
    """Pad the last ``len(pad) // 2`` dimensions of ``input`` (amounts listed from the last dimension, left then
    right); ``mode`` is 'constant' (with ``value``, 0 by default; any number of dimensions, negative amounts crop),
    'reflect', 'replicate' or 'circular' (the last 1, 2 or 3 dimensions of an input with one or two more)."""
    pad = tuple(pad)
    for i, p in enumerate(pad):
        if not isinstance(p, (int, np.integer)) or isinstance(p, bool):
            raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, but found element of type "
                            f"{type(p).__name__} at pos {i}")
    pad = tuple(int(p) for p in pad)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    ndim = input._array.ndim
    if len(pad) // 2 > ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {ndim}")
    if mode == "constant":
        return ConstantPadNd.apply(input, pad, 0.0 if value is None else float(value))
    if value is not None:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    dims = len(pad) // 2
    if not 1 <= dims <= 3 or ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {ndim}D input tensor.\n"
                                  + _COMBINATIONS)
    shape = list(input._array.shape)
    if mode == "reflect":  # a mirror needs a cell beyond each one it reflects: each amount below the size
        for k in range(dims):
            axis = ndim - 1 - k
            lo, hi = pad[2 * k], pad[2 * k + 1]
            if not (lo < shape[axis] and hi < shape[axis]):
                raise RuntimeError(f"Argument #{4 + 2 * k}: Padding size should be less than the corresponding input "
                                   f"dimension, but got: padding ({lo}, {hi}) at dimension {axis} of input {shape}")
    if mode == "circular":
        for k in range(dims):
            if max(pad[2 * k], pad[2 * k + 1]) > shape[ndim - 1 - k]:
                raise RuntimeError("Padding value causes wrapping around more than once.")
        return _circular(input, _pairs(pad))
    return _PAD_FORWARD[mode][dims - 1].apply(input, pad, mode)


# ------------------------------------------------------------------------------------------------ the layers
def _expand(padding: int | Sequence[int], dims: int) -> tuple[int, ...]:
    """One amount for every side (an int), or the amounts as given (left, right, top, bottom, ...)."""
    return (padding,) * (2 * dims) if isinstance(padding, int) else tuple(padding)


class _PadNd(Module):
    """A padding layer: ``F.pad(input, self.padding, mode)``, with the amounts given once, at construction."""

    mode = "constant"
    dims = 1

    def __init__(self, padding: int | Sequence[int]) -> None:
        super().__init__()
        self.padding = _expand(padding, self.dims)

    def forward(self, input: Tensor) -> Tensor:
        return pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding: int | Sequence[int], value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _CircularPadNd(_PadNd):
    mode = "circular"

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (self.dims + 1, self.dims + 2):  # (a batch of) channels of signals
            raise ValueError(f"expected {self.dims + 1}D or {self.dims + 2}D input (got {input.dim()}D input)")
        return pad(input, self.padding, "circular")


def _layer(name: str, base: type, dims: int, doc: str, mode: str = "constant") -> type:
    return type(name, (base,), {"dims": dims, "mode": mode, "__doc__": doc, "__module__": __name__})


ConstantPad1d = _layer("ConstantPad1d", _ConstantPadNd, 1, "Pad the last dimension with ``value``.")
ConstantPad2d = _layer("ConstantPad2d", _ConstantPadNd, 2, "Pad the last 2 dimensions with ``value``.")
ConstantPad3d = _layer("ConstantPad3d", _ConstantPadNd, 3, "Pad the last 3 dimensions with ``value``.")


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding: int | Sequence[int]) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


ZeroPad1d = type("ZeroPad1d", (_ZeroPadNd, ConstantPad1d), {"__doc__": "Pad the last dimension with zeros."})
ZeroPad2d = type("ZeroPad2d", (_ZeroPadNd, ConstantPad2d),
                 {"__doc__": "Pad the last 2 dimensions with zeros (a border around an image)."})
ZeroPad3d = type("ZeroPad3d", (_ZeroPadNd, ConstantPad3d), {"__doc__": "Pad the last 3 dimensions with zeros."})

_MIRROR = "by mirroring the input at its edges (the edge not repeated)"
ReflectionPad1d = _layer("ReflectionPad1d", _PadNd, 1, f"Pad the last dimension {_MIRROR}.", "reflect")
ReflectionPad2d = _layer("ReflectionPad2d", _PadNd, 2, f"Pad the last 2 dimensions {_MIRROR}.", "reflect")
ReflectionPad3d = _layer("ReflectionPad3d", _PadNd, 3, f"Pad the last 3 dimensions {_MIRROR}.", "reflect")
_COPY = "by repeating the input's edge values"
ReplicationPad1d = _layer("ReplicationPad1d", _PadNd, 1, f"Pad the last dimension {_COPY}.", "replicate")
ReplicationPad2d = _layer("ReplicationPad2d", _PadNd, 2, f"Pad the last 2 dimensions {_COPY}.", "replicate")
ReplicationPad3d = _layer("ReplicationPad3d", _PadNd, 3, f"Pad the last 3 dimensions {_COPY}.", "replicate")
_WRAP = "by wrapping around (the other end's values)"
CircularPad1d = _layer("CircularPad1d", _CircularPadNd, 1, f"Pad the last dimension {_WRAP}.", "circular")
CircularPad2d = _layer("CircularPad2d", _CircularPadNd, 2, f"Pad the last 2 dimensions {_WRAP}.", "circular")
CircularPad3d = _layer("CircularPad3d", _CircularPadNd, 3, f"Pad the last 3 dimensions {_WRAP}.", "circular")
