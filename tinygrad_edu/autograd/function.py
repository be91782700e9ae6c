"""``tinygrad_edu.autograd.function``: ``Function``, the one mechanism behind every op (``tinygrad_edu/core/
function.py``), and ``once_differentiable``. A learner's Function's node class lives here by name, as in PyTorch:
``<class 'tinygrad_edu.autograd.function.MyExpBackward'>``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from ..core.function import BackwardCFunction, Function, FunctionCtx, FunctionMeta, wrap
from ..core.grad_mode import GradMode, no_grad
from ..core.tensor import Tensor

__all__ = ["BackwardCFunction", "DelayedError", "Function", "FunctionCtx", "FunctionMeta", "InplaceFunction",
           "once_differentiable"]

F = TypeVar("F", bound=Callable[..., Any])


class InplaceFunction(Function):
    """PyTorch's base for Functions that may work in place: the same as Function, with an ``inplace`` flag its old
    style instances carried (``InplaceFunction(inplace=True)``)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace


# -- boxed_grads_call ----------------------------------------------------------------------------------------------
def _box_gradients(cls: type, **kwargs: Any) -> None:
    """``boxed_grads_call = True`` on a Function: its backward receives the gradients as one list, ``backward(ctx,
    grads)``, which it may empty as it goes (so a large gradient can be freed before the others are used), as
    PyTorch 2.13 calls it. The engine passes its own list (the only references to the gradients, so emptying it
    frees them: ``_boxed_backward``, the backward as written); called by hand (``grad_fn.apply(g1, g2)``), the
    backward gets them boxed in a new list. Also PyTorch's other name for backward, ``vjp``: a Function may define
    either, not both."""
    if "vjp" in cls.__dict__:
        cls.backward = cls.__dict__["vjp"] if "backward" not in cls.__dict__ else staticmethod(_both_backward_and_vjp)
    backward = cls.__dict__.get("backward")
    if cls.boxed_grads_call and isinstance(backward, staticmethod):  # (its own, or a boxed parent's, switch)
        unboxed = backward.__func__
        cls._boxed_backward = staticmethod(unboxed)
        cls.backward = staticmethod(functools.wraps(unboxed)(lambda ctx, *grads: unboxed(ctx, list(grads))))


def _both_backward_and_vjp(ctx: Any, *grads: Any) -> Any:
    raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not allowed. You should only "
                       "implement one of them.")


Function.__init_subclass__ = classmethod(_box_gradients)


# -- once_differentiable -----------------------------------------------------------------------------------------
class DelayedError(Function):
    """A node that fails when backward reaches it: ``once_differentiable`` puts it on the gradients it
    returns while a graph is being built, so that differentiating them again explains why it cannot."""

    node_name = "Error"

    @staticmethod
    def forward(ctx: Any, *tensors: Tensor | None) -> tuple:
        return tuple(None if t is None else t._array for t in tensors)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor | None) -> tuple:
        raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")


def once_differentiable(backward: F) -> F:
    """Decorate a custom Function's ``backward`` that is not itself differentiable (say, it computes on
    numpy arrays): it runs without recording, and under ``create_graph=True`` the gradients it returns
    lead to a node that raises if anything tries to differentiate through them."""

    @functools.wraps(backward)
    def wrapper(ctx: Any, *grad_outputs: Any) -> Any:
        with no_grad():
            outputs = backward(ctx, *grad_outputs)
        if not GradMode.enabled or not any(isinstance(g, Tensor) and g._requires_grad for g in grad_outputs):
            return outputs  # no graph being built through this backward: nothing to guard
        many = isinstance(outputs, tuple)
        outs = outputs if many else (outputs,)  # (a None gradient goes in as a tensor needing none: an edge to None)
        guarded = DelayedError.apply(*[wrap(np.zeros(())) if g is None else wrap(g._array).requires_grad_()
                                       for g in outs])
        guarded = tuple(None if g is None else d for g, d in zip(outs, guarded))
        return guarded if many else guarded[0]

    return wrapper  # type: ignore[return-value]
