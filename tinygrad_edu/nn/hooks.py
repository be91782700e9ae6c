"""Module hooks: code of your own that runs around a layer's forward, and around its backward.

``Module.register_*_hook`` (in ``module.py``) files hooks here; ``call_with_hooks`` runs a call of a module
that has some, in PyTorch's order::

    forward pre-hooks   hook(module, args)              may return new args
    forward             module.forward(*args, **kwargs)
    forward hooks       hook(module, args, output)      may return a new output

Forward hooks are plain function calls. Backward hooks are harder: a module is not a node of the backward
graph (a Linear records two or three nodes; a whole network records hundreds), so nothing in the graph
says "the gradients of this module's inputs are ready". PyTorch's answer, reproduced here, is to *add*
nodes that mark the module's borders: an identity Function, ``BackwardHookFunction``, is applied to the
tensors going into ``forward`` and to the tensors coming out of it. Each application records one
``BackwardHookFunctionBackward`` node::

    out.grad_fn                         BackwardHookFunctionBackward   <- gradients of the outputs arrive here
      .next_functions[0][0]             AddmmBackward0                 (the module's own nodes)
        ... BackwardHookFunctionBackward                               <- gradients of the inputs leave here
              AccumulateGrad (x)

The node at the outputs sees ``grad_output`` and runs the backward *pre*-hooks; the node at the inputs
sees ``grad_input`` and runs the full backward hooks with both. Both are ordinary node hooks
(``Node.register_hook``), so what a hook returns replaces gradients exactly as a node hook's does.

Side effects worth knowing, the same as in PyTorch: with backward hooks, ``forward`` receives *views* of
its input tensors and the caller gets views of its outputs (new tensors over the same numbers), and
changing those views in place is an error, because the in-place change would bypass the identity node.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

from .._tensor import Tensor, _wrap
from ..core.function import Function
from ..core.grad_mode import GradMode

_NO_INPUT_GRAD_WARNING = (
    "Full backward hook is firing when gradients are computed with respect to module outputs since no inputs "
    "require gradients. See "
    "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook "
    "for more details."
)


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _your_line() -> int:
    """The ``stacklevel`` that makes a warning point at the first line outside tinygrad_edu (your
    ``model(x)`` or ``loss.backward()``), however deep inside the library it is raised."""
    frame, level = sys._getframe(1), 1  # level 1: the function calling warnings.warn
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


class Hook:
    """One registration: the function and how to call it. (A record per registration, so that removing one
    handle removes exactly that registration, even when the same function was registered twice.)"""

    __slots__ = ("always_call", "fn", "with_kwargs")

    def __init__(self, fn: Callable[..., Any], with_kwargs: bool = False, always_call: bool = False) -> None:
        self.fn, self.with_kwargs, self.always_call = fn, with_kwargs, always_call


class ModuleHooks:
    """The hooks of one module, by kind, each list in calling order. False when all four are empty, so
    ``Module.__call__`` needs a single truth test to know it can go straight to ``forward``."""

    __slots__ = ("backward", "backward_pre", "forward", "forward_pre")

    def __init__(self) -> None:
        self.forward_pre: list[Hook] = []
        self.forward: list[Hook] = []
        self.backward_pre: list[Hook] = []
        self.backward: list[Hook] = []

    def __bool__(self) -> bool:
        return bool(self.forward_pre or self.forward or self.backward_pre or self.backward)


# ------------------------------------------------------------------------------------------------ forward
def call_with_hooks(module: Any, hooks: ModuleHooks, args: tuple, kwargs: dict) -> Any:
    """``module(*args, **kwargs)`` for a module that has hooks."""
    # Snapshots: a hook that registers or removes hooks changes the next call, not this one.
    forward_hooks = tuple(hooks.forward)
    ran: set[Hook] = set()  # forward hooks already run, so always_call hooks are not run twice on an error
    result = None
    try:
        for h in tuple(hooks.forward_pre):
            if h.with_kwargs:
                new = h.fn(module, args, kwargs)
                if new is not None:
                    if not (isinstance(new, tuple) and len(new) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                           f"but got {new}.")
                    args, kwargs = new
            else:
                new = h.fn(module, args)
                if new is not None:
                    args = new if isinstance(new, tuple) else (new,)  # a single new input is allowed
        backward = None
        if hooks.backward or hooks.backward_pre:
            backward = BackwardHook(module, [h.fn for h in hooks.backward], [h.fn for h in hooks.backward_pre])
            args = backward.wrap_inputs(args)
        result = module.forward(*args, **kwargs)
        for h in forward_hooks:
            ran.add(h)
            new = h.fn(module, args, kwargs, result) if h.with_kwargs else h.fn(module, args, result)
            if new is not None:
                result = new
        if backward is not None:
            if not isinstance(result, (Tensor, tuple)):
                warnings.warn("For backward hooks to be called, module output should be a Tensor or a tuple of "
                              f"Tensors but received {type(result)}", UserWarning, stacklevel=_your_line())
            result = backward.wrap_outputs(result)
        return result
    except Exception:
        # forward (or a hook) failed: the always_call hooks still run, e.g. to undo what a pre-hook set up.
        # Their own errors would hide the real one, so they become warnings.
        for h in forward_hooks:
            if h.always_call and h not in ran:
                try:
                    new = h.fn(module, args, kwargs, result) if h.with_kwargs else h.fn(module, args, result)
                    if new is not None:
                        result = new
                except Exception as e:
                    warnings.warn("module forward hook with ``always_call=True`` raised an exception that was "
                                  f"silenced as another error was raised in forward: {e}", UserWarning,
                                  stacklevel=_your_line())
        raise


# ------------------------------------------------------------------------------------------------ backward
class BackwardHookFunction(Function):
    """The identity on any number of tensors: d(input_i) = d(output_i). It computes nothing; it is there
    for its node, the border post where a module's backward hooks are attached."""

    @staticmethod
    def forward(ctx: Any, *tensors: Tensor) -> tuple[Tensor, ...]:
        views = tuple([_view(t) for t in tensors])
        # A tensor that needs no gradient stays one: its view gets no grad_fn (and its grad_input is zeros).
        ctx.mark_non_differentiable(*[v for v, t in zip(views, tensors) if not t._requires_grad])
        return views

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple[Tensor, ...]:
        return grads


def _view(t: Tensor) -> Tensor:
    """A new tensor over ``t``'s numbers: same storage, same version counter, ``_base`` set (a view)."""
    v = _wrap(t._array)
    v._version_counter = t._version_counter
    v._base = t._base if t._base is not None else t
    return v


def _inplace_error(output_nr: int, views: int) -> str:
    """PyTorch's refusal of an in-place change to a view made by a custom Function: the change would be
    recorded on the view's base, behind the back of the Function's own backward (here, the hook node)."""
    head = f"Output {output_nr} of BackwardHookFunction is a view and is being modified inplace. "
    if views > 1:
        return head + ("This view is the output of a function that returns multiple views. Such functions do not "
                       "allow the output views to be modified inplace. You should replace the inplace operation "
                       "by an out-of-place one.")
    return head + ("This view was created inside a custom Function (or because an input was returned as-is) and the "
                   "autograd logic to handle view+inplace would override the custom backward associated with the "
                   "custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix this "
                   "by cloning the output of the custom Function.")


class BackwardHook:
    """The backward hooks of *one* call of a module.

    ``wrap_inputs`` and ``wrap_outputs`` put a ``BackwardHookFunction`` node on each side of the call. In
    backward, the gradients reach the output node first: its hook collects ``grad_output`` (``None`` in the
    places of outputs that are not tensors, or got no gradient), lets the pre-hooks replace it, and keeps it
    here. Later the gradients reach the input node: its hook calls the full backward hooks with
    ``grad_input`` (``None`` for arguments that are not tensors) and the ``grad_output`` kept.
    """

    def __init__(self, module: Any, hooks: list[Callable], pre_hooks: list[Callable]) -> None:
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.n_inputs = self.n_outputs = 0
        self.input_tensors: list[int] | None = None  # positions of the tensor arguments; None: no node
        self.output_tensors: list[int] | None = None
        self.grad_outputs: Any = None  # from the output node to the input node

    def wrap_inputs(self, args: tuple) -> tuple:
        self.n_inputs = len(args)
        args, self.input_tensors = self._wrap(args, self._input_hook())
        return args

    def wrap_outputs(self, result: Any) -> Any:
        one = not isinstance(result, tuple)
        outputs = (result,) if one else result
        self.n_outputs = len(outputs)
        outputs, self.output_tensors = self._wrap(outputs, self._output_hook())
        return outputs[0] if one else outputs

    @staticmethod
    def _wrap(values: tuple, hook: Callable) -> tuple[tuple, list[int] | None]:
        """Pass the tensors among ``values`` through one BackwardHookFunction and attach ``hook`` to its
        node. Nothing to do (no node) when none of them requires grad, or grad mode is off."""
        positions = [i for i, v in enumerate(values) if isinstance(v, Tensor)]
        if not (GradMode.enabled and any(values[i]._requires_grad for i in positions)):
            return values, None
        views = BackwardHookFunction.apply(*[values[i] for i in positions])
        differentiable = [v for v in views if v.grad_fn is not None]
        for v in differentiable:
            v._inplace_error = _inplace_error(v._output_nr, len(differentiable))
        differentiable[0].grad_fn.register_hook(hook)
        items = list(values)
        for i, v in zip(positions, views):
            items[i] = v
        return (tuple(items) if type(values) is tuple else type(values)(*items)), positions  # (a namedtuple stays one)

    @staticmethod
    def _spread(positions: list[int], grads: tuple, n: int) -> tuple:
        """The gradients of the tensors at ``positions`` among ``n`` values, None for the others."""
        spread: list = [None] * n
        for i, g in zip(positions, grads):
            spread[i] = g
        return tuple(spread)

    def _output_hook(self) -> Callable:
        def hook(grad_inputs: tuple, grad_outputs: tuple) -> tuple:  # (named "hook": errors quote the name)
            grads = self._spread(self.output_tensors, grad_outputs, self.n_outputs)
            for pre_hook in self.pre_hooks:
                new = pre_hook(self.module, grads)
                if new is not None:
                    if len(new) != len(grads):
                        raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                           f"got {len(new)}, but expected {len(grads)}")
                    grads = new
            self.grad_outputs = grads
            if self.input_tensors is None:
                # No input needs a gradient, so no input node will ever run: call the hooks now, with a
                # grad_input of Nones. (The first layer of a network, fed plain data, is this case.)
                warnings.warn(_NO_INPUT_GRAD_WARNING, UserWarning, stacklevel=_your_line())
                no_grads = (None,) * self.n_inputs
                for user_hook in self.hooks:
                    new = user_hook(self.module, no_grads, grads)
                    if new is not None and not (isinstance(new, tuple) and all(g is None for g in new)):
                        raise RuntimeError("Backward hook for Modules where no input requires gradient should "
                                           "always return None or None for all gradients.")
                self.grad_outputs = None
            return tuple([grads[i] for i in self.output_tensors])  # the node passes these on, as its grad_inputs

        return hook

    def _input_hook(self) -> Callable:
        def hook(grad_inputs: tuple, grad_outputs: tuple) -> tuple | None:  # (named "hook": errors quote the name)
            if self.grad_outputs is None:  # a gradient that did not come through the module's outputs
                return None
            grads = self._spread(self.input_tensors, grad_inputs, self.n_inputs)
            for user_hook in self.hooks:
                new = user_hook(self.module, grads, self.grad_outputs)
                if new is not None:
                    if len(new) != len(grads):
                        raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                           f"got {len(new)}, but expected {len(grads)}")
                    grads = new
            self.grad_outputs = None  # used once: a second backward through the graph needs a second pass out
            return tuple([grads[i] for i in self.input_tensors])

        return hook
