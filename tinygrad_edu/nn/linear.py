"""Layers that hold weights or reshape: ``Linear`` (and ``LazyLinear``), ``Identity``, ``Flatten``, ``Unflatten``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._creation import _size  # (sizes checked with PyTorch's messages: Linear(3, 2.5))
from .._dtype import float32
from .._tensor import Tensor, _wrap
from ..ops.linalg import linear
from . import init
from .module import Module
from .parameter import Parameter, UninitializedParameter


class Linear(Module):
    """An affine map ``y = x W^T + b``: ``in_features`` numbers in, ``out_features`` out.

    ``weight`` has shape (out_features, in_features), one row per output, and ``bias`` (out_features,).
    Both start uniform in [-1/sqrt(in_features), 1/sqrt(in_features)] (PyTorch's default, see
    ``init.kaiming_uniform_``). On a batch (N, in_features) the forward is a single ``AddmmBackward0`` node.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        np_dtype = (dtype or float32).np
        self.weight = Parameter(_wrap(np.empty(_size((out_features, in_features), "empty"), np_dtype)))
        if bias:
            self.bias = Parameter(_wrap(np.empty(out_features, np_dtype)))
        else:
            self.register_parameter("bias", None)  # "no bias" is recorded, so self.bias reads None
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # a = sqrt(5) makes kaiming's bound gain * sqrt(3 / fan_in) exactly 1 / sqrt(fan_in).
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class LazyLinear(Linear):
    """A ``Linear`` that learns ``in_features`` from its first input (``nn.LazyLinear(10)``): until then its weight
    and bias are ``UninitializedParameter``s, printed ``<UninitializedParameter>``; the first forward gives them
    their shapes and PyTorch's initialisation, and the module becomes a ``Linear`` (the same parameter objects, so
    an optimizer made before still holds them). ``load_state_dict`` gives them the saved shapes instead."""

    def __init__(self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, out_features, bias, device, dtype)
        self.weight = UninitializedParameter(dtype=self.weight._array.dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=self.bias._array.dtype)

    def reset_parameters(self) -> None:
        if self.in_features and not isinstance(self.weight, UninitializedParameter):  # (nothing to initialise yet)
            super().reset_parameters()

    def forward(self, input: Tensor) -> Tensor:
        self.in_features = input.shape[-1]
        if isinstance(self.weight, UninitializedParameter):
            self.weight.materialize((self.out_features, self.in_features))
            if isinstance(self.bias, UninitializedParameter):
                self.bias.materialize((self.out_features,))
            self.reset_parameters()
        self.__class__ = Linear  # (PyTorch's cls_to_become)
        return Linear.forward(self, input)


class Identity(Module):
    """Returns its input unchanged (a placeholder, e.g. to switch a layer off). Arguments are ignored."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Flatten(Module):
    """Merges dimensions ``start_dim..end_dim`` into one: (N, 1, 28, 28) -> (N, 784) by default."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """The inverse of Flatten: splits dimension ``dim`` into ``unflattened_size``, e.g. (N, 784) -> (N, 1, 28, 28)."""

    def __init__(self, dim: int, unflattened_size: tuple[int, ...] | list[int]) -> None:
        super().__init__()
        if not isinstance(dim, int):
            raise TypeError(f"invalid argument type: dim is {type(dim).__name__}, expected int")
        if not isinstance(unflattened_size, (tuple, list)) or not all(isinstance(s, int) for s in unflattened_size):
            raise TypeError("unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        shape = input._array.shape
        dim = self.dim + len(shape) if self.dim < 0 else self.dim
        sizes = list(self.unflattened_size)
        if dim >= len(shape) or dim < 0:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-len(shape)}, {len(shape) - 1}], "
                             f"but got {self.dim})")
        known = math.prod(s for s in sizes if s != -1)
        if sizes.count(-1) == 1 and known and shape[dim] % known == 0:
            sizes[sizes.index(-1)] = shape[dim] // known
        if math.prod(sizes) != shape[dim] or sizes.count(-1):
            raise RuntimeError(f"unflatten: Provided sizes {list(self.unflattened_size)} don't multiply up to the "
                               f"size of dim {self.dim} ({shape[dim]}) in the input tensor")
        return input.view(*shape[:dim], *sizes, *shape[dim + 1:])

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` by another name: PyTorch gives ``MultiheadAttention.out_proj`` this class so that its dynamic
    quantization leaves the layer alone (the attention reads ``out_proj.weight`` directly, not through forward).
    Here nothing is quantized; the name is kept because ``print(model)`` shows it."""
