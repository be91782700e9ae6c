"""``tinygrad_edu.autograd.forward_ad``: forward-mode automatic differentiation (``torch.autograd.forward_ad`` twin).

Reverse mode (``backward``) records the forward pass and then runs it backwards, giving vᵀJ for one weight vector v
per pass. Forward mode records nothing: every tensor can carry a *tangent* (its directional derivative, a dual
number's ε part), and each op computes its output's tangent right away from its inputs' tangents, J·t, by the rule
in its derivative-table entry. One forward pass gives J·t for one direction t::

    with forward_ad.dual_level():
        x = forward_ad.make_dual(primal, tangent)    # x carries t = tangent
        y = f(x)                                     # each op: y's tangent = J_op · (its inputs' tangents)
        value, jvp = forward_ad.unpack_dual(y)       # f(primal), J·tangent

Tangents exist only inside a ``dual_level`` (one at a time, as in PyTorch): leaving it forgets them all. The step
that moves tangents through an op is one function of the core, ``core/function.py``'s ``forward_tangents``; the
rules are in ``core/derivatives.py``. A tangent is not a node of the graph: ``make_dot`` and the stepper draw
only what reverse mode recorded.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _messages as M
from .._decorators import Decorating
from ..core.function import Function, Tensors, tangent, wrap
from ..core.grad_mode import GradMode, Speed
from ..core.tensor import Tensor
from ..ops.shape import Alias
from .engine import grad

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual", "dual_level"]  # noqa: RUF022

_current_level = -1  # the number of the open level (-1: none), as PyTorch counts them


class _State:
    tricks: list[bool] = []  # the speed switch as it was when the level was entered (put back on exit)


def enter_dual_level() -> int:
    """Enter a new forward grad level: inside it, ``make_dual`` attaches tangents and ops carry them. Only one
    level can be open at a time. Returns the level's number."""
    global _current_level
    if GradMode.dual is not None:
        raise RuntimeError(M.NESTED_FORWARD_AD)
    GradMode.dual = object()  # a new level: tangents attached at an older level are not seen in it
    _State.tricks.append(Speed.tricks)
    Speed.tricks = False  # the speed tricks compute on arrays, around the ops: with tangents, every op must run
    _current_level += 1
    return _current_level


def exit_dual_level(*, level: int | None = None) -> None:
    """Exit the forward grad level: every tangent attached at it is forgotten."""
    global _current_level
    level = _current_level if level is None else level
    if level != _current_level:
        raise RuntimeError(M.EXIT_NOT_LAST_LEVEL)
    if level < 0:
        raise RuntimeError(M.DUAL_LEVEL_NEGATIVE)
    GradMode.dual = None
    Speed.tricks = _State.tricks.pop()
    _current_level = level - 1


class dual_level(Decorating):  # noqa: N801  (PyTorch's name)
    """``with dual_level():`` opens a forward grad level for the block (the level's number is what ``as`` gets),
    and closes it after, forgetting all its tangents. Nested levels are refused, as in PyTorch."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: object) -> None:
        exit_dual_level()


class UnpackedDualTensor(NamedTuple):
    """What :func:`unpack_dual` returns: the primal value and the tangent (None if the tensor has none)."""

    primal: Tensor
    tangent: Tensor | None


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A new tensor, a view of ``tensor``, that carries ``tangent`` at the current level: the direction in which
    everything computed from it is differentiated. Backward-differentiable too (its node is ViewBackward0)."""
    if (_current_level if level is None else level) < 0:
        raise RuntimeError(M.NO_DUAL_LEVEL)
    if tensor._array.dtype.kind not in "fc":
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype!r}")
    if not isinstance(tangent, Tensor):
        raise AttributeError(f"'{type(tangent).__name__}' object has no attribute 'is_floating_point'")
    if tangent._array.dtype.kind not in "fc":
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype!r}")
    if tangent._array.shape != tensor._array.shape:
        raise RuntimeError(M.tangent_size(tensor._array.shape, tangent._array.shape))
    level_token, GradMode.dual = GradMode.dual, None  # (the view itself gets no tangent from tensor's)
    try:
        dual = tensor.view_as(tensor)
    finally:
        GradMode.dual = level_token
    dual._fw = (level_token, tangent)
    return dual


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)``: a view of ``tensor`` without its tangent, and the tangent (None if it has none, or
    outside a dual level, where the primal is ``tensor`` itself)."""
    if (_current_level if level is None else level) < 0:
        return UnpackedDualTensor(tensor, None)
    t, level_token = tangent(tensor), GradMode.dual
    GradMode.dual = None
    try:
        primal = _Identity.apply(tensor)
    finally:
        GradMode.dual = level_token
    return UnpackedDualTensor(primal, t)


class _Identity(Alias):
    """The primal ``unpack_dual`` returns: a view of the tensor (as ``x[:]``'s alias), with the tensor's history
    (PyTorch's node prints as ``<Identity>``) and no tangent."""

    node_name = "Identity"


class _AsGiven:
    """A tensor ``save_for_forward`` kept, as ``jvp`` reads it from ``ctx.saved_tensors``: itself (jvp runs right
    after forward, so there is no version to check)."""

    __slots__ = ("tensor",)

    def __init__(self, tensor: Tensor) -> None:
        self.tensor = tensor

    def unpack(self, node: Any) -> Tensor:
        return self.tensor


# -- How forward mode runs a Function's rule (the core calls ``cls._jvp``; a derivative entry has its own) ----------
def _function_jvp(cls: type[Function], ctx: Any, args: tuple, outputs: tuple, tangents: list) -> Any:
    """A Function's ``jvp(ctx, *tangents)``, as PyTorch calls it: a tensor input without a tangent gets zeros (a
    number None; a built-in's jvp gets None for both), and ``ctx.saved_tensors`` gives what forward kept with
    ``ctx.save_for_forward``. A built-in op that has no ``jvp`` of its own gets :func:`transposed_jvp`."""
    if cls._builtin and cls.jvp is Function.jvp:
        if ctx._dirty:  # (running it again, as transposed_jvp does, would change its input a second time)
            raise NotImplementedError(M.FORWARD_AD_INPLACE.format(cls._backward_cls.__name__))
        return transposed_jvp(cls, args, outputs, tangents)
    if not cls._builtin:  # (a built-in's rule skips the inputs that have no tangent: None)
        tangents = [wrap(np.zeros_like(a._array)) if t is None and isinstance(a, Tensors.cls) else t
                    for a, t in zip(args, tangents)]
    kept, ctx._saved = ctx._saved, tuple([None if t is None else _AsGiven(t) for t in ctx._for_forward])
    dirty = {id(a): (t, t._version_counter[0]) for a, t in zip(args, tangents) if t is not None and any(
        a is d for d in ctx._dirty)}  # (an input changed in place: its tangent must be changed in place too)
    try:
        results = cls.jvp(ctx, *tangents)
    finally:
        ctx._saved = kept
    for o, t in zip(outputs, results if isinstance(results, (tuple, list)) else (results,)):
        if id(o) in dirty and (t is None or t._version_counter[0] == dirty[id(o)][1]):
            raise RuntimeError(M.JVP_NOT_INPLACE)
        if id(o) in dirty and t is not dirty[id(o)][0]:
            raise RuntimeError(M.JVP_NOT_AS_IS)
    return results


def transposed_jvp(cls: type[Function], args: tuple, outputs: tuple, tangents: list) -> tuple:
    """J·t for a built-in op with no rule of its own, from its backward: the backward pass g(u) = Jᵀu is linear in u,
    with Jacobian Jᵀ, so the backward pass of g for t gives tᵀJᵀ = (J·t)ᵀ (the double-backward trick of
    ``autograd.functional.jvp``). It runs the op again and two backward passes: correct, not fast."""
    with_tangent = [i for i, t in enumerate(tangents) if t is not None]
    xs = list(args)
    # (inputs to differentiate, below: each through a view of its own, so that what reaches it is its gradient alone
    # and not also another input's that shares its node; connected to it if it requires grad: forward-over-reverse)
    prev, GradMode.enabled = GradMode.enabled, True
    try:
        for i in with_tangent:
            xs[i] = Alias.apply(args[i]) if args[i].requires_grad else args[i].detach().requires_grad_(True)
        ys = cls.apply(*xs)
        ys = [y for y in (ys if isinstance(ys, tuple) else (ys,))]
        floats = [y for y in ys if isinstance(y, Tensor) and y.requires_grad]
        us = [wrap(np.zeros_like(y._array)).requires_grad_(True) for y in floats]
        g = grad(floats, [xs[i] for i in with_tangent], us, create_graph=True, allow_unused=True)
        pairs = [(gi, tangents[i]) for gi, i in zip(g, with_tangent) if gi is not None and gi.requires_grad]
        differentiable = prev and any(args[i].requires_grad or tangents[i].requires_grad for i in with_tangent)
        jv = grad([p for p, _ in pairs], us, [t for _, t in pairs], create_graph=differentiable,
                  allow_unused=True, materialize_grads=True) if pairs else [None] * len(us)
    finally:
        GradMode.enabled = prev
    found = iter(jv)
    return tuple(next(found) if isinstance(y, Tensor) and y.requires_grad else None for y in ys)


Function._jvp = classmethod(_function_jvp)
