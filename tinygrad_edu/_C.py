# ruff: noqa: N999  (PyTorch's module name: torch._C)
"""``tinygrad_edu._C``: the few names of PyTorch's private C++ namespace (``torch._C``) that autograd code and
PyTorch's own tests reach for, each doing what PyTorch's does (beside the rest of the library: read last, or never).

- ``_functions``: graph nodes made by hand: ``UndefinedGrad()(x)`` (an identity whose backward sends no gradient
  at all, not even zeros), ``DelayedError(message, n)(x)`` (an identity whose backward raises ``message``), and
  the classes ``AccumulateGrad`` and ``CopySlices`` (for ``isinstance``).
- ``_WeakTensorRef(t)``: a weak reference to a tensor, ``expired()`` once the tensor is gone.
- ``_current_autograd_node()``: the node backward is running, asked from inside it (a hook, an unpack hook).
- ``_LinAlgError``: the exception of a matrix that cannot be factored or inverted (``linalg.inv`` of a singular
  matrix ...), a RuntimeError; ``tinygrad_edu.linalg.LinAlgError`` is this class, as in PyTorch.
- ``_autograd``: whether saved-tensor hooks may be registered now, setting version counters by hand, and the class
  of ``grad_fn._raw_saved_self``.
"""

from __future__ import annotations

import weakref
from types import SimpleNamespace
from typing import Any

from ._hooks import RawSavedTensor, Running
from .autograd.function import Function
from .autograd.graph import Node, saved_tensors_hooks_enabled
from .core.function import AccumulateGrad
from .core.grad_mode import is_grad_enabled
from .core.tensor import Tensor
from .ops.selection import DelayedErrorFunction
from .ops.views import CopySlicesFunction

__all__ = ["_LinAlgError", "_WeakTensorRef", "_autograd", "_current_autograd_node", "_functions", "is_grad_enabled"]


class _UndefinedGradFunction(Function):
    """The identity, whose backward sends an undefined gradient (None) to each input."""

    node_name = "UndefinedGradBackward"

    @staticmethod
    def forward(ctx: Any, *tensors: Tensor) -> tuple:
        return tuple(t._array for t in tensors)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor | None) -> tuple:
        return (None,) * len(grads)


class UndefinedGrad:
    """``UndefinedGrad()(*tensors)``: the tensors again, through a node that sends back no gradient."""

    def __call__(self, *tensors: Tensor) -> Tensor | tuple[Tensor, ...]:
        out = _UndefinedGradFunction.apply(*tensors)
        return out[0] if len(tensors) == 1 else out


class DelayedError:
    """``DelayedError(message, num_inputs)(*tensors)``: the tensors again, through a node whose backward raises
    ``RuntimeError(message)``: an error that waits until something differentiates through it."""

    def __init__(self, message: str, num_inputs: int) -> None:
        self.message, self.num_inputs = message, num_inputs

    def __call__(self, *tensors: Tensor) -> Tensor | tuple[Tensor, ...]:
        out = DelayedErrorFunction.apply(self.message, *tensors)
        return out[0] if len(tensors) == 1 else out


Node.register(UndefinedGrad)  # (node classes in PyTorch, made by hand here: registered, as PyTorch does)
Node.register(DelayedError)
_functions = SimpleNamespace(UndefinedGrad=UndefinedGrad, DelayedError=DelayedError, AccumulateGrad=AccumulateGrad,
                             CopySlices=CopySlicesFunction._backward_cls)


class _LinAlgError(RuntimeError):
    """A linear-algebra routine could not finish: the matrix is singular, or not positive-definite (PyTorch's
    ``torch.linalg.LinAlgError``, whose class lives in ``torch._C`` under this name)."""


class _WeakTensorRef:
    """A weak reference to a tensor: ``expired()`` once nothing else keeps it alive."""

    def __init__(self, tensor: Tensor) -> None:
        self._ref = weakref.ref(tensor)

    def expired(self) -> bool:
        return self._ref() is None


def _current_autograd_node() -> Any:
    """The node the engine is running now (None outside a backward pass): what a hook, an unpack hook or a custom
    Function's backward can ask, to register a hook on that very node."""
    return Running.node


def _unsafe_set_version_counter(tensors: tuple, versions: tuple) -> None:
    """Set each tensor's version by hand (what ``autograd._unsafe_preserve_version_counter`` restores with)."""
    for t, v in zip(tensors, versions):
        if v < 0:
            raise RuntimeError(f"Cannot set a version_counter to a value below 0: {v}")
        t._version_counter[0] = v


_autograd = SimpleNamespace(_saved_tensors_hooks_is_enabled=saved_tensors_hooks_enabled,
                            _unsafe_set_version_counter=_unsafe_set_version_counter,
                            SavedTensor=RawSavedTensor)  # (grad_fn._raw_saved_self's class)
