"""Helpers the distributions share, as PyTorch's ``torch.distributions.utils``: parameters broadcast together
(``broadcast_all``), probabilities to logits and back, and ``lazy_property`` (a Categorical made from probs
computes its logits the first time they are asked for, and keeps them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import update_wrapper
from typing import Any

from .._creation import empty, tensor
from .._dtype import finfo
from .._functions import broadcast_tensors, get_default_dtype
from .._tensor import Tensor
from ..core.grad_mode import enable_grad
from ..nn import functional as F

__all__ = ["broadcast_all", "clamp_probs", "lazy_property", "logits_to_probs", "probs_to_logits"]

euler_constant = 0.57721566490153286060  # the Euler-Mascheroni constant
_Number = (int, float, bool)  # (torch.types._Number: what counts as a number parameter)


def broadcast_all(*values: Tensor | float) -> tuple[Tensor, ...]:
    """The values as tensors of one shape: numbers become tensors of the first tensor's dtype (the default float
    type if there is none), and all are broadcast together (``broadcast_tensors``)."""
    if not all(isinstance(v, (Tensor, *_Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, tinygrad_edu.Tensor or objects "
                         "implementing __torch_function__.")
    if not all(isinstance(v, Tensor) for v in values):
        dtype = next((v.dtype for v in values if isinstance(v, Tensor)), get_default_dtype())
        values = tuple(v if isinstance(v, Tensor) else tensor(v, dtype=dtype) for v in values)
    return broadcast_tensors(*values)  # type: ignore[arg-type]


def _standard_normal(shape: Sequence[int], dtype: Any, device: Any) -> Tensor:
    """Standard normal numbers of ``shape``: an empty tensor filled by ``normal_()``, as PyTorch draws them for
    ``rsample`` (the same numbers as ``randn(shape)``)."""
    return empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value: Tensor, dim: int) -> Tensor:
    """``value`` summed over its ``dim`` rightmost dimensions."""
    if dim == 0:
        return value
    return value.reshape((*value.shape[:-dim], -1)).sum(-1)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """Probabilities from logits: the sigmoid for a binary (Bernoulli) one, the softmax along the last dimension
    for categories."""
    if is_binary:
        return logits.sigmoid()
    return F.softmax(logits, dim=-1)


def clamp_probs(probs: Tensor) -> Tensor:
    """Probabilities kept eps (the dtype's) away from 0 and 1, so that their logits are finite."""
    eps = finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """Logits from probabilities (clamped first): log p - log(1 - p) for a binary one, log p for categories."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return ps_clamped.log() - (-ps_clamped).log1p()
    return ps_clamped.log()


class lazy_property:  # noqa: N801  (PyTorch's name)
    """A property computed once, the first time it is read, with gradients recorded (even under ``no_grad``),
    then stored on the instance under its own name, where later reads find it."""

    def __init__(self, wrapped: Callable[[Any], Any]) -> None:
        self.wrapped = wrapped
        update_wrapper(self, wrapped)  # type: ignore[arg-type]

    def __get__(self, instance: Any, obj_type: Any = None) -> Any:
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):  # noqa: N801
    """What a lazy property looks like on the class: a property too (for documentation tools)."""

    def __init__(self, wrapped: Callable[[Any], Any]) -> None:
        property.__init__(self, wrapped)
