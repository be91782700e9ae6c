"""Normalization layers: layer norm, batch norm, instance norm and group norm, each one Function with PyTorch's node
name, and RMS norm, composed of tensor ops as in PyTorch.

All three standardise x over some dimensions, then scale and shift it by learnable per-feature ``weight``/``bias``:

    mean = E[x],  var = E[(x - mean)**2]  (the biased variance),  rstd = 1 / sqrt(var + eps)
    y = (x - mean) * rstd * weight + bias

They differ only in *which* elements share a mean:

* **layer norm** (``NativeLayerNormBackward0``): each sample over its last dims (the features of a token); nothing
  depends on the other samples, which is why transformers use it.
* **batch norm** (``NativeBatchNormBackward0``): each channel over the batch and the spatial dims, so a sample's
  output depends on the rest of its batch. In training it uses the batch's statistics and keeps a running
  average of them in the module's *buffers* (``running_mean``, ``running_var``); in eval it uses those running
  averages instead, so one sample alone gives the same answer as inside any batch.
* **instance norm**: each (sample, channel) over the spatial dims; computed as PyTorch does, as batch norm of the
  input viewed as one sample with batch*channels channels (its graph: ``ViewBackward0`` <-
  ``NativeBatchNormBackward0``).
* **group norm** (``NativeGroupNormBackward0``): each sample over a group of channels and the spatial dims.
* **RMS norm**: each sample over its last dims, like layer norm but divided by the root mean square, not centred.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._dtype import float32, int64
from .._printing import Size
from .._tensor import Tensor, _wrap
from ..core.function import Function
from ..ops import elementwise
from . import init
from .module import Module, Parameter, typename
from .padding import pad as _pad
from .parameter import UninitializedBuffer, UninitializedParameter
from .pooling import avg_pool2d as _avg_pool2d
from .pooling import avg_pool3d as _avg_pool3d


def _normalized_dims(x: Tensor, n: int) -> tuple[int, ...]:
    return tuple(range(x._array.ndim - n, x._array.ndim))


def _moments(a: np.ndarray, dims: tuple[int, ...], eps: float) -> tuple[np.ndarray, np.ndarray]:
    """mean and rstd = 1/sqrt(var + eps) over ``dims`` (kept, size 1), in float64: their sums lose no precision."""
    a64 = a.astype(np.float64)
    mean = a64.mean(axis=dims, keepdims=True)
    centred = a64 - mean
    return mean, 1 / np.sqrt((centred * centred).mean(axis=dims, keepdims=True) + eps)


def _standardized(x: Tensor, dims: tuple[int, ...], eps: float) -> tuple[Tensor, Tensor]:
    """x_hat and rstd recomputed with tensor ops (so that create_graph differentiates them: they depend on x)."""
    centred = x - x.mean(dims, keepdim=True)
    rstd = ((centred * centred).mean(dims, keepdim=True) + eps).rsqrt()
    return centred * rstd, rstd


def _standardized_input_grad(gw: Tensor, x_hat: Tensor, rstd: Tensor, dims: tuple[int, ...]) -> Tensor:
    """dx = rstd * (gw - E[gw] - x_hat * E[gw * x_hat]) when x's own mean and variance were used (E over ``dims``).

    Two correction terms, because every x moves the mean (all x_hat shift together: - E[gw]) and the spread
    (x_hat scales: - x_hat E[gw x_hat])."""
    return rstd * (gw - gw.mean(dims, keepdim=True) - x_hat * (gw * x_hat).mean(dims, keepdim=True))


class NativeLayerNorm(Function):
    """y = x_hat * w + b with x_hat = (x - mean) * rstd, mean and rstd over the last dims (n of them, m elements).

    The derivatives (sums over the normalised dims, ``E`` their mean; gw = g * w, or g without weight):

        dx = rstd * (gw - E[gw] - x_hat * E[gw * x_hat])       (``_standardized_input_grad``)
        dw = sum over the other dims of g * x_hat         db = sum over the other dims of g

    backward recomputes mean and rstd with tensor ops from the saved input, so that ``create_graph=True``
    differentiates them too (they depend on x). The node keeps mean and
    rstd as PyTorch's does, ``grad_fn._saved_result1`` and ``_saved_result2``, shaped (batch dims, 1, ..., 1).
    """

    node_name = "NativeLayerNormBackward0"
    saved_names = ("input", "weight", "bias", "result1", "result2")

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, normalized_shape: tuple,
                eps: float) -> np.ndarray:
        a = x._array
        mean, rstd = _moments(a, _normalized_dims(x, len(normalized_shape)), eps)  # (rounded once, at the end)
        out = (a - mean) * rstd
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
        x_hat, rstd = _standardized(x, dims, ctx.eps)
        dx = dw = db = None
        if ctx.needs_input_grad[0]:
            dx = _standardized_input_grad(g if w is None else g * w, x_hat, rstd, dims)
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


def _channel_dims(ndim: int) -> tuple[int, ...]:
    """The dims batch norm averages over: all but the channels (dim 1): the batch, then the spatial dims."""
    return (0, *range(2, ndim))


def _per_channel(t: Tensor, ndim: int) -> Tensor:
    """A (C,) tensor shaped (1, C, 1, ...) so that it broadcasts along dim 1 of an ``ndim``-dim input."""
    return t.reshape(1, -1, *[1] * (ndim - 2))


class NativeBatchNorm(Function):
    """y = x_hat * w + b with x_hat = (x - mean) * rstd, one mean and rstd per channel (dim 1).

    Training: mean and var are the batch's own, over every dim but the channels; the running statistics, if given,
    move towards them in place (``running = (1 - momentum) * running + momentum * batch``, with the *unbiased*
    batch variance, n/(n-1) times the biased one). Eval: mean and var are the running statistics, constants.

    The derivatives (``E`` the mean over the batch and spatial dims; gw = g * w, or g without weight):

        training:  dx = rstd * (gw - E[gw] - x_hat * E[gw * x_hat])   (x moves its own mean and variance)
        eval:      dx = gw * rstd                                    (the statistics do not depend on x)
        dw = sum of g * x_hat        db = sum of g                   (over the batch and spatial dims)

    The running statistics get no gradient. The node keeps what PyTorch's keeps: ``_saved_input``,
    ``_saved_weight``, ``_saved_running_mean``/``_saved_running_var`` (the buffers themselves),
    ``_saved_result1``/``_saved_result2`` (the batch's mean and rstd; empty in eval), ``_saved_training``,
    ``_saved_eps``.
    """

    node_name = "NativeBatchNormBackward0"
    saved_names = ("input", "weight", "running_mean", "running_var", "result1", "result2")

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, running: tuple,
                training: bool, momentum: float, eps: float) -> np.ndarray:
        # (the running statistics come in a tuple: as in PyTorch, they are no differentiable inputs, so no edges)
        running_mean, running_var = running
        a, dims = x._array, _channel_dims(x._array.ndim)
        shape = (1, -1, *[1] * (a.ndim - 2))
        if training:
            mean, rstd = _moments(a, dims, eps)
            saved = _wrap(mean.reshape(-1).astype(a.dtype)), _wrap(rstd.reshape(-1).astype(a.dtype))
            n = a.size // max(a.shape[1], 1)
            # (PyTorch updates the buffers without counting a new version: nothing saved them for a gradient)
            for buffer, batch in ((running_mean, mean), (running_var, (1 / rstd**2 - eps) * n / max(n - 1, 1))):
                if buffer is not None:
                    b = buffer._array
                    b[...] = ((1 - momentum) * b + momentum * batch.reshape(-1)).astype(b.dtype)
        else:  # (running_mean and running_var: checked by batch_norm, present)
            mean = running_mean._array.astype(np.float64).reshape(shape)
            rstd = 1 / np.sqrt(running_var._array.astype(np.float64).reshape(shape) + eps)
            saved = _wrap(np.zeros(0, a.dtype)), _wrap(np.zeros(0, a.dtype))
        out = (a - mean) * rstd
        if weight is not None:
            out = out * weight._array.reshape(shape)
        if bias is not None:
            out = out + bias._array.reshape(shape)
        ctx.save_for_backward(x, weight, running_mean, running_var, *saved)
        ctx._saved_training, ctx._saved_eps = training, eps
        return out.astype(a.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, w, running_mean, running_var, _, _ = ctx.saved_tensors
        ndim, dims, eps = x.dim(), _channel_dims(x.dim()), ctx._saved_eps
        if ctx._saved_training:
            x_hat, rstd = _standardized(x, dims, eps)
        else:
            rstd = (_per_channel(running_var, ndim) + eps).rsqrt()
            x_hat = (x - _per_channel(running_mean, ndim)) * rstd
        dx = dw = db = None
        if ctx.needs_input_grad[0]:
            gw = g if w is None else g * _per_channel(w, ndim)
            dx = _standardized_input_grad(gw, x_hat, rstd, dims) if ctx._saved_training else gw * rstd
        if ctx.needs_input_grad[1]:
            dw = (g * x_hat).sum(dims)
        if ctx.needs_input_grad[2]:
            db = g.sum(dims)
        return dx, dw, db, None, None, None, None


def _check_dtypes(input: Tensor, *params: Tensor | None) -> None:
    """PyTorch's CPU kernels take weight, bias and running statistics of the input's dtype only."""
    for p in params:
        if p is not None and p._array.dtype != input._array.dtype:
            if input._array.dtype == np.float32:
                raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None, weight: Tensor | None = None,
               bias: Tensor | None = None, training: bool = False, momentum: float = 0.1,
               eps: float = 1e-5) -> Tensor:
    """Normalise each channel (dim 1) of ``input`` over the batch and spatial dims (see :class:`NativeBatchNorm`).

    ``training=True`` uses the batch's statistics and updates ``running_mean``/``running_var`` in place (if given);
    ``training=False`` uses them instead (then they are required)."""
    if training:
        size = input._array.shape
        if int(np.prod(size)) // max(size[1] if len(size) > 1 else 1, 1) <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {Size(size)}")
    stats = (("running_mean", running_mean), ("running_var", running_var))
    for name, t in stats if not training else ():
        if t is None:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    channels = input._array.shape[1] if input._array.ndim > 1 else 0
    for name, t in (*stats, ("weight", weight), ("bias", bias)):
        if t is not None and t._array.size != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t._array.size}")
    elementwise._check_float_kernel(input._array, "batch_norm")
    _check_dtypes(input, weight, bias, running_mean, running_var)
    return NativeBatchNorm.apply(input, weight, bias, (running_mean, running_var), training, momentum, eps)


def instance_norm(input: Tensor, running_mean: Tensor | None = None, running_var: Tensor | None = None,
                  weight: Tensor | None = None, bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel of each sample over its spatial dims (dims 2, 3, ...).

    As PyTorch computes it: the input of shape (N, C, *spatial) is viewed as one sample of N*C channels and batch
    normalised; weight, bias and the running statistics are repeated N times to match, and the running statistics
    that come back are averaged over the N samples."""
    size = input._array.shape
    if use_input_stats and int(np.prod(size[2:], dtype=np.int64)) <= 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {Size(size)}")
    n, c = size[:2]
    repeated = [t.repeat(n) if t is not None else None for t in (running_mean, running_var, weight, bias)]
    out = batch_norm(input.reshape(1, n * c, *size[2:]), *repeated[:2], *repeated[2:], use_input_stats, momentum, eps)
    for buffer, new in zip((running_mean, running_var), repeated[:2]):
        if buffer is not None and use_input_stats:
            buffer._array[...] = new._array.reshape(n, c).mean(0)
    return out.view(size)


class _NormBase(Module):
    """What batch norm and instance norm layers share: ``num_features`` learnable weights (start at 1) and biases
    (start at 0) if ``affine``, and, if ``track_running_stats``, three *buffers*: ``running_mean`` (starts at 0),
    ``running_var`` (starts at 1) and ``num_batches_tracked`` (an int64 count). Buffers are state, not parameters:
    no optimizer updates them and no gradient reaches them, but ``state_dict()`` saves them and ``.double()``
    converts them."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        np_dtype = (dtype or float32).np
        self.register_parameter("weight", Parameter(_wrap(np.ones(num_features, np_dtype))) if affine else None)
        self.register_parameter("bias", Parameter(_wrap(np.zeros(num_features, np_dtype))) if affine and bias
                                else None)
        tracked = track_running_stats
        self.register_buffer("running_mean", _wrap(np.zeros(num_features, np_dtype)) if tracked else None)
        self.register_buffer("running_var", _wrap(np.ones(num_features, np_dtype)) if tracked else None)
        self.register_buffer("num_batches_tracked", _wrap(np.zeros((), int64.np)) if tracked else None)

    def reset_running_stats(self) -> None:
        """Running mean back to 0, running variance back to 1, the count of batches back to 0."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """The running statistics reset, weight back to 1, bias back to 0."""
        self.reset_running_stats()
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def _check_input_dim(self, input: Tensor) -> None:
        dims = self._input_dims
        if input.dim() not in dims:
            raise ValueError(f"expected {' or '.join(f'{d}D' for d in dims)} input (got {input.dim()}D input)")

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    """Batch norm layer: in ``train()`` mode, normalise with the batch's statistics and update the running ones
    (``momentum`` the weight of the new batch; ``momentum=None``: a plain average over all batches seen, counted by
    ``num_batches_tracked``); in ``eval()`` mode, normalise with the running statistics (or, without
    ``track_running_stats``, with the batch's own, always)."""

    _input_dims: tuple[int, ...] = ()

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # the cumulative average: the k-th batch weighs 1/k
                factor = 1.0 / float(self.num_batches_tracked.item())
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return batch_norm(input, self.running_mean if keep else None, self.running_var if keep else None,
                          self.weight, self.bias, use_batch, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch norm over (N, C) or (N, C, L) inputs: one mean and variance per feature C."""

    _input_dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch norm over (N, C, H, W) images: one mean and variance per channel C, over the batch and the pixels."""

    _input_dims = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch norm over (N, C, D, H, W) volumes: one mean and variance per channel C."""

    _input_dims = (5,)


class _LazyBatchNorm(_BatchNorm):
    """A batch norm layer that learns ``num_features`` from its first input (``nn.LazyBatchNorm1d()``): until then
    its weight and bias are ``UninitializedParameter``s and its running statistics ``UninitializedBuffer``s; the
    first forward gives them the input's channel count and their starting values, and the module becomes the
    plain layer (``cls_to_become``), as ``LazyLinear`` does."""

    cls_to_become: type[_BatchNorm]

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, eps, momentum, affine, track_running_stats, device, dtype)
        np_dtype = (dtype or float32).np
        for name in ("weight", "bias") if affine else ():
            setattr(self, name, UninitializedParameter(dtype=np_dtype))
        for name in ("running_mean", "running_var") if track_running_stats else ():
            setattr(self, name, UninitializedBuffer(dtype=np_dtype))

    def reset_parameters(self) -> None:
        if self.num_features:  # (nothing to initialise before the first input)
            super().reset_parameters()

    def forward(self, input: Tensor) -> Tensor:
        if self.num_features == 0:
            self.num_features = input.shape[1]  # the channels: (N, C, ...)
            for t in (self.weight, self.bias, self.running_mean, self.running_var):
                if t is not None:
                    t.materialize((self.num_features,))
            self.reset_parameters()
        self.__class__ = self.cls_to_become
        return self.forward(input)


class LazyBatchNorm1d(_LazyBatchNorm):
    cls_to_become = BatchNorm1d
    _input_dims = BatchNorm1d._input_dims


class LazyBatchNorm2d(_LazyBatchNorm):
    cls_to_become = BatchNorm2d
    _input_dims = BatchNorm2d._input_dims


class LazyBatchNorm3d(_LazyBatchNorm):
    cls_to_become = BatchNorm3d
    _input_dims = BatchNorm3d._input_dims


class _InstanceNorm(_NormBase):
    """Instance norm layer: each sample's channels normalised over their own spatial dims. Unlike batch norm,
    ``affine`` and ``track_running_stats`` are off by default; a sample without its batch dim is accepted too."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = False,
                 track_running_stats: bool = False, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        unbatched = input.dim() == self._input_dims[0]
        channel_dim = 0 if unbatched else 1
        if input.shape[channel_dim] != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={channel_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.shape[channel_dim]}.")
            warnings.warn(f"input's size at dim={channel_dim} does not match num_features. You can silence this "
                          "warning by not passing in num_features, which is not used because affine=False",
                          stacklevel=2)
        x = input.unsqueeze(0) if unbatched else input
        out = instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                            self.training or not self.track_running_stats,
                            0.0 if self.momentum is None else self.momentum, self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    """Instance norm over (N, C, L) inputs (or one (C, L) sample)."""

    _input_dims = (2, 3)


class InstanceNorm2d(_InstanceNorm):
    """Instance norm over (N, C, H, W) images (or one (C, H, W) image): each image's channels on their own."""

    _input_dims = (3, 4)


class InstanceNorm3d(_InstanceNorm):
    """Instance norm over (N, C, D, H, W) volumes (or one (C, D, H, W) volume)."""

    _input_dims = (4, 5)



# ------------------------------------------------------------------------------------------------ group norm
def _grouped(t: Tensor, groups: int) -> Tensor:
    """(N, C, *spatial) viewed as (N, groups, C / groups * spatial): each row one group of one sample."""
    return t.reshape(t.shape[0], groups, -1)


class NativeGroupNorm(Function):
    """Group norm: the channels split into ``group`` groups, each (sample, group) standardised over its channels and
    spatial cells together; then y = x_hat * w + b, one weight and bias per channel. (One group: layer norm over
    (C, *spatial); C groups: instance norm.) The same derivatives as layer norm's, on the grouped view:

        dx = rstd * (gw - E[gw] - x_hat * E[gw * x_hat])   (E over each group's row; gw = g * w per channel)
        dw = sum over the batch and the cells of g * x_hat      db = sum of g likewise

    The node keeps PyTorch's ``_saved_input``, ``_saved_weight``, ``_saved_N``, ``_saved_C``, ``_saved_HxW``,
    ``_saved_group``, ``_saved_eps``, and mean and rstd per (sample, group), ``_saved_result1``/``_saved_result2``.
    """

    node_name = "NativeGroupNormBackward0"
    saved_names = ("input", "weight", "result1", "result2")

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, groups: int,
                eps: float) -> np.ndarray:
        a = x._array
        n, c = a.shape[:2]
        rows = a.reshape(n, groups, -1)
        mean, rstd = _moments(rows, (2,), eps)
        out = ((rows - mean) * rstd).reshape(a.shape)
        shape = (1, -1, *[1] * (a.ndim - 2))
        if weight is not None:
            out = out * weight._array.reshape(shape)
        if bias is not None:
            out = out + bias._array.reshape(shape)
        ctx.save_for_backward(x, weight, _wrap(mean.reshape(n, groups).astype(a.dtype)),
                              _wrap(rstd.reshape(n, groups).astype(a.dtype)))
        ctx._saved_N, ctx._saved_C, ctx._saved_group, ctx._saved_eps = n, c, groups, eps
        ctx._saved_HxW = int(np.prod(a.shape[2:], dtype=np.int64))
        return out.astype(a.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, w, _, _ = ctx.saved_tensors
        groups, ndim = ctx._saved_group, x.dim()
        x_hat, rstd = _standardized(_grouped(x, groups), (2,), ctx._saved_eps)
        dims = _channel_dims(ndim)
        dx = dw = db = None
        if ctx.needs_input_grad[0]:
            gw = g if w is None else g * _per_channel(w, ndim)
            dx = _standardized_input_grad(_grouped(gw, groups), x_hat, rstd, (2,)).reshape(x.shape)
        if ctx.needs_input_grad[1]:
            dw = (g * x_hat.reshape(x.shape)).sum(dims)
        if ctx.needs_input_grad[2]:
            db = g.sum(dims)
        return dx, dw, db, None, None


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Normalise each group of ``num_groups`` channel groups of each sample (see :class:`NativeGroupNorm`):
    (N, C, *) with C divisible by num_groups."""
    shape = input._array.shape
    if len(shape) < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {len(shape)}")
    if shape[1] % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {_shape_text(shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t._array.ndim != 1 or t._array.size != shape[1]):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, but "
                               f"got {name} of shape {_shape_text(t._array.shape)} and input of shape "
                               f"{_shape_text(shape)}")
    elementwise._check_float_kernel(input._array, "GroupNormKernelImpl")
    return NativeGroupNorm.apply(input, weight, bias, num_groups, eps)


class GroupNorm(Module):
    """Group norm layer (Wu and He, 2018): statistics per sample and group of channels, so that, unlike batch norm,
    a sample's output does not depend on its batch (small batches train as well as large ones). ``affine``: one
    learnable weight (starts at 1) and bias (starts at 0) per channel."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        np_dtype = (dtype or float32).np
        self.register_parameter("weight", Parameter(_wrap(np.ones(num_channels, np_dtype))) if affine else None)
        self.register_parameter("bias", Parameter(_wrap(np.zeros(num_channels, np_dtype))) if affine and bias
                                else None)

    reset_parameters = LayerNorm.reset_parameters  # (weight back to 1, bias back to 0)

    def forward(self, input: Tensor) -> Tensor:
        return group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


# ------------------------------------------------------------------------------------------------ RMS norm
def rms_norm(input: Tensor, normalized_shape: Sequence[int], weight: Tensor | None = None,
             eps: float | None = None) -> Tensor:
    """x / sqrt(mean(x**2) + eps) over the last ``len(normalized_shape)`` dims, times ``weight``: layer norm without
    the centring (and without a bias), as in LLaMA's blocks. ``eps`` defaults to the dtype's machine epsilon.

    Composed of tensor ops, as PyTorch composes it on the CPU (its graph: ``MulBackward0`` <- ``RsqrtBackward0``
    <- ``AddBackward0`` <- ``MeanBackward1`` <- ``PowBackward0``), so the gradient needs no formula of its own."""
    shape = _as_shape(normalized_shape)
    n = len(shape)
    if weight is not None and tuple(weight._array.shape) != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{_shape_text(weight._array.shape)} and normalized_shape = {_shape_text(shape)}")
    if input._array.shape[input._array.ndim - n:] != shape or input._array.ndim < n:  # (no ", " after the star:
        raise RuntimeError(f"Given normalized_shape={_shape_text(shape)}, expected input with shape "  # PyTorch's)
                           f"[*{_shape_text(shape)[1:]}, but got input of size{_shape_text(input._array.shape)}")
    if eps is None:
        eps = float(np.finfo(input._array.dtype).eps)
    dims = _normalized_dims(input, n)
    out = input * (input.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    return out if weight is None else out * weight


class RMSNorm(Module):
    """RMS norm layer: each sample divided by the root mean square of its last dims (``normalized_shape``), times a
    learnable ``weight`` (starts at 1) if ``elementwise_affine``. ``eps=None``: the dtype's machine epsilon."""

    def __init__(self, normalized_shape: int | Sequence[int], eps: float | None = None,
                 elementwise_affine: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.normalized_shape = _as_shape(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        np_dtype = (dtype or float32).np
        self.register_parameter("weight", Parameter(_wrap(np.ones(self.normalized_shape, np_dtype)))
                                if elementwise_affine else None)

    def reset_parameters(self) -> None:
        """Weight back to 1."""
        if self.weight is not None:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


# ------------------------------------------------------------------------------------------------ local response norm
def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """AlexNet's normalisation across channels: each x[n, c] divided by (k + alpha * mean of x**2 over the ``size``
    channels around c) ** beta (missing channels at the ends count as 0). Composed as PyTorch composes it: the
    squares padded along the channels, average-pooled with a (size, 1) window (avg_pool2d for a 3-d input; for 4 or
    more dims the cells flattened into (N, 1, C, H, rest) and a (size, 1, 1) avg_pool3d), then ``input / div``."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = _pad(div.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        div = _avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.shape
        div = _pad(div.view(sizes[0], 1, sizes[1], sizes[2], -1), (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = _avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1).view(sizes)
    return input / div.mul(alpha).add(k).pow(beta)


class LocalResponseNorm(Module):
    """Normalise each channel by its neighbours' energy (see ``F.local_response_norm``)."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
           "LayerNorm", "NativeBatchNorm", "NativeLayerNorm", "batch_norm", "instance_norm", "layer_norm"]
__all__ += ["GroupNorm", "LocalResponseNorm", "NativeGroupNorm", "RMSNorm", "group_norm", "local_response_norm",
            "rms_norm"]
