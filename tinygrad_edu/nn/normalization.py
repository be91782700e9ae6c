"""Layer normalization: ``F.layer_norm`` (one Function, PyTorch's ``NativeLayerNormBackward0``) and ``nn.LayerNorm``.

Each sample is normalised over its last dimensions (``normalized_shape``, e.g. the features of a token):

    mean = E[x],  var = E[(x - mean)**2]  (the biased variance),  rstd = 1 / sqrt(var + eps)
    y = (x - mean) * rstd * weight + bias

so every sample leaves with mean 0 and variance 1 (before the learnable ``weight`` and ``bias``), whatever the
batch: unlike batch norm, nothing depends on the other samples, which is why transformers use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._dtype import float32
from .._tensor import Tensor, _wrap
from ..core.function import Function
from ..ops import elementwise
from . import init
from .module import Module, Parameter, typename


def _normalized_dims(x: Tensor, n: int) -> tuple[int, ...]:
    return tuple(range(x._array.ndim - n, x._array.ndim))


class NativeLayerNorm(Function):
    """y = x_hat * w + b with x_hat = (x - mean) * rstd, mean and rstd over the last dims (n of them, m elements).

    The derivatives (sums over the normalised dims, ``E`` their mean; gw = g * w, or g without weight):

        dx = rstd * (gw - E[gw] - x_hat * E[gw * x_hat])
        dw = sum over the other dims of g * x_hat         db = sum over the other dims of g

    dx has two correction terms because every x moves the mean (all x_hat shift together: - E[gw]) and the
    spread (x_hat scales: - x_hat E[gw x_hat]). backward recomputes mean and rstd with tensor ops from the saved
    input, so that ``create_graph=True`` differentiates them too (they depend on x). The node keeps mean and
    rstd as PyTorch's does, ``grad_fn._saved_result1`` and ``_saved_result2``, shaped (batch dims, 1, ..., 1).
    """

    node_name = "NativeLayerNormBackward0"
    saved_names = ("input", "weight", "bias", "result1", "result2")

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, normalized_shape: tuple,
                eps: float) -> np.ndarray:
        a = x._array
        dims = _normalized_dims(x, len(normalized_shape))
        # float64 for the moments (their sums lose no precision), the results rounded once to the input's dtype
        a64 = a.astype(np.float64)
        mean = a64.mean(axis=dims, keepdims=True)
        centred = a64 - mean
        rstd = 1 / np.sqrt((centred * centred).mean(axis=dims, keepdims=True) + eps)
        out = centred * rstd
        if weight is not None:
            out = out * weight._array
        if bias is not None:
            out = out + bias._array
        ctx.save_for_backward(x, weight, bias, _wrap(mean.astype(a.dtype)), _wrap(rstd.astype(a.dtype)))
        ctx._saved_normalized_shape, ctx.eps = normalized_shape, eps
        return out.astype(a.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, w, _, _, _ = ctx.saved_tensors
        dims = _normalized_dims(x, len(ctx._saved_normalized_shape))
        batch_dims = tuple(range(x._array.ndim - len(dims)))
        centred = x - x.mean(dims, keepdim=True)
        rstd = ((centred * centred).mean(dims, keepdim=True) + ctx.eps).rsqrt()
        x_hat = centred * rstd
        dx = dw = db = None
        if ctx.needs_input_grad[0]:
            gw = g if w is None else g * w
            dx = rstd * (gw - gw.mean(dims, keepdim=True) - x_hat * (gw * x_hat).mean(dims, keepdim=True))
        if ctx.needs_input_grad[1]:
            dw = (g * x_hat).sum(batch_dims) if batch_dims else g * x_hat
        if ctx.needs_input_grad[2]:
            db = g.sum(batch_dims) if batch_dims else g
        return dx, dw, db, None, None


def _as_shape(normalized_shape: int | Sequence[int]) -> tuple[int, ...]:
    return (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)


def _shape_text(shape: Sequence[int]) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"  # PyTorch prints shapes in its messages as [2, 3]


def layer_norm(input: Tensor, normalized_shape: Sequence[int], weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise each sample over its last ``len(normalized_shape)`` dimensions (see :class:`NativeLayerNorm`)."""
    if not isinstance(normalized_shape, (tuple, list)) or not all(isinstance(s, int) for s in normalized_shape):
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                        f"{typename(normalized_shape)}")
    shape = tuple(normalized_shape)
    n = len(shape)
    if n == 0:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t._array.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{_shape_text(t._array.shape)} and normalized_shape = {_shape_text(shape)}")
    if input._array.shape[input._array.ndim - n:] != shape or input._array.ndim < n:
        raise RuntimeError(f"Given normalized_shape={_shape_text(shape)}, expected input with shape "
                           f"[*, {_shape_text(shape)[1:]}, but got input of size{_shape_text(input._array.shape)}")
    elementwise._check_float_kernel(input._array, "LayerNormKernelImpl")
    return NativeLayerNorm.apply(input, weight, bias, shape, eps)


class LayerNorm(Module):
    """Normalises each sample over its last dimensions (``normalized_shape``), then scales and shifts it by the
    learnable ``weight`` (starts at 1) and ``bias`` (starts at 0), one per normalised element.
    ``elementwise_affine=False`` leaves them out; ``bias=False`` keeps only the weight."""

    def __init__(self, normalized_shape: int | Sequence[int], eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.normalized_shape = _as_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        np_dtype = (dtype or float32).np
        if elementwise_affine:
            self.weight = Parameter(_wrap(np.ones(self.normalized_shape, np_dtype)))
        else:
            self.register_parameter("weight", None)  # "no weight" is recorded, so self.weight reads None
        if elementwise_affine and bias:
            self.bias = Parameter(_wrap(np.zeros(self.normalized_shape, np_dtype)))
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        """Weight back to 1, bias back to 0."""
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


__all__ = ["LayerNorm", "NativeLayerNorm", "layer_norm"]
