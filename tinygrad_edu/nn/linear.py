"""Layers that hold weights or reshape: ``Linear`` (and ``LazyLinear``), ``Bilinear``, ``Identity``, ``Flatten``,
``Unflatten``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._creation import _size  # (sizes checked with PyTorch's messages: Linear(3, 2.5))
from .._dtype import float32
from .._tensor import Tensor, _wrap
from ..core.function import Function
from ..ops.linalg import einsum, linear
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


class Trilinear(Function):
    """The bilinear form of each pair of rows, one number per output: ``y[b, o] = sum_ij x1[b, i] W[o, i, j]
    x2[b, j]``, i.e. ``x1_b^T W_o x2_b`` (PyTorch's ``_trilinear`` in the case ``F.bilinear`` uses).

    Linear in each of its three inputs, so each gradient is the same sum with that input left out::

        dx1[b, i] = sum_oj g[b, o] W[o, i, j] x2[b, j]      dW[o, i, j] = sum_b g[b, o] x1[b, i] x2[b, j]
        dx2[b, j] = sum_oi g[b, o] W[o, i, j] x1[b, i]

    (written with ``einsum``, so create_graph records them)."""

    node_name = "TrilinearBackward0"
    saved_names = ("i1", "i2", "i3")

    @staticmethod
    def forward(ctx: Any, x1: Tensor, w: Tensor, x2: Tensor) -> np.ndarray:
        ctx.save_for_backward(x1, w, x2)
        return np.einsum("bi,oij,bj->bo", x1._array, w._array, x2._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x1, w, x2 = ctx.saved_tensors
        need = ctx.needs_input_grad
        return (einsum("bo,oij,bj->bi", g, w, x2) if need[0] else None,
                einsum("bo,bi,bj->oij", g, x1, x2) if need[1] else None,
                einsum("bo,oij,bi->bj", g, w, x1) if need[2] else None)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``y = x1^T W x2 + b`` for each pair of rows: input1 (*, in1), input2 (*, in2), weight (out, in1, in2), bias
    (out,) give (*, out). As in PyTorch the leading dimensions are flattened, the form taken (``TrilinearBackward0``)
    and the result viewed back (``ViewBackward0``), then the bias added."""
    a1, a2, w = input1._array, input2._array, weight._array
    if a1.ndim != a2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {a1.ndim} and {a2.ndim}")
    for i in range(a1.ndim - 1):
        if a1.shape[i] != a2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got {a1.shape[i]} and "
                               f"{a2.shape[i]}")
    if a1.shape[-1] != w.shape[1]:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {a1.shape[-1]} but expected "
                           f"{w.shape[1]}")
    if a2.shape[-1] != w.shape[2]:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {a2.shape[-1]} but expected "
                           f"{w.shape[2]}")
    if bias is not None and bias._array.shape[0] != w.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias._array.shape[0]} but "
                           f"expected {w.shape[0]}")
    flat = Trilinear.apply(input1.reshape(-1, a1.shape[-1]), weight, input2.reshape(-1, a2.shape[-1]))
    out = flat.reshape(*a1.shape[:-1], w.shape[0])
    return out + bias if bias is not None else out


class Bilinear(Module):
    """``y = x1^T W x2 + b``: two inputs mixed multiplicatively (every feature of one times every feature of the
    other, weighted), e.g. to score a pair. ``weight`` (out_features, in1_features, in2_features) and ``bias``
    (out_features,) start uniform in [-1/sqrt(in1_features), 1/sqrt(in1_features)], as in PyTorch."""

    def __init__(self, in1_features: int, in2_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        np_dtype = (dtype or float32).np
        self.weight = Parameter(_wrap(np.empty(_size((out_features, in1_features, in2_features), "empty"), np_dtype)))
        if bias:
            self.bias = Parameter(_wrap(np.empty(_size((out_features,), "empty"), np_dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


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
