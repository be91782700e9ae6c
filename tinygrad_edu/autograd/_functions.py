"""``tinygrad_edu.autograd._functions``: the Python-written Functions PyTorch keeps in ``torch.autograd._functions``
(private, but PyTorch's own tests and older code reach for them). Each is an ordinary ``autograd.Function``, the
kind a learner writes: its node is ``ResizeBackward``, named as PyTorch names a custom Function's node.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..core.tensor import Tensor
from .function import Function

__all__ = ["Resize"]


class Resize(Function):
    """``Resize.apply(x, sizes)``: x with another shape of the same number of elements (old PyTorch's differentiable
    ``resize``, now ``reshape``). Its derivative only reshapes back: ``dx = g.view(x's shape)``."""

    @staticmethod
    def forward(ctx: Any, tensor: Tensor, sizes: Sequence[int]) -> Tensor:
        numel = math.prod(sizes)
        if tensor.numel() != numel:
            raise RuntimeError(f"requested resize to {'x'.join(map(str, sizes))} ({numel} elements in total), but the "
                               f"given tensor has a size of {'x'.join(map(str, tensor.shape))} ({tensor.numel()} "
                               "elements). autograd's resize can only change the shape of a given tensor, while "
                               "preserving the number of elements. ")
        ctx.input_sizes = tensor.shape
        return tensor.contiguous().view(*sizes)

    @staticmethod
    def backward(ctx: Any, grad_output: Tensor) -> tuple:
        return grad_output.contiguous().view(ctx.input_sizes), None
