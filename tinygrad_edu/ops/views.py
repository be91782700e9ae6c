"""In-place changes to views: how autograd rewrites the base's history (PyTorch's ``CopySlices``).

A view (``b[0]``, ``b[:, 1]``, ``b.view(-1)``, ``b.t()`` ...) shares its base's numbers, so changing the view in
place changes the base too. Autograd must then record the change in the *base's* history::

    b = x.clone()              # b.grad_fn: CloneBackward0
    v = b[0]                   # v.grad_fn: SelectBackward0 -> CloneBackward0
    v.mul_(2)                  # the op's node, MulBackward0, takes v's old history as its input...

                CloneBackward0 <--- CopySlices   (b.grad_fn: b's new history)
                                       | wraps
                                  MulBackward0   (what was done to the part of b that v covers)
                                       ^
                v.grad_fn:   AsStridedBackward0 (v is again "the part of b" it covers, now of b's new history)

``CopySlices``' backward takes d(root)/d(b), hands the part v covers to the op's node (``MulBackward0``), and puts
what comes back (d/d(v's old value)) in that part: the rest of b was untouched, its gradient goes straight through.
Every view of b made before the change is out of date too (they share b's version counter): the next time one is
used, its history is rebuilt the same way, as ``AsStridedBackward0`` of b's new history (``regrow``, which the core
calls from ``gradient_edge``, as ``rebase`` for a Function's ``mark_dirty``).

A view is described by where its numbers sit in its base's memory: sizes, strides and offset, counted in elements
(PyTorch's ``as_strided``). ``AsStrided`` reads those elements out of a base-shaped gradient, ``AsStridedScatter``
writes them back; each is the other's derivative, so create_graph works through in-place changes too.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .. import _checks as C
from .. import _messages as M
from .._hooks import new_history
from ..core.function import (
    MADE_IN,
    Function,
    InferenceCounter,
    Tensors,
    _is_one_of,
    _sequence_nr,
    gradient_edge,
    learners_gradients,
    wrap,
)
from ..core.grad_mode import GradMode
from ..core.tensor import Tensor


class Geometry:
    """Where a view's elements sit in its base's memory (sizes, strides and offset in elements, as PyTorch saves
    them), and where the base's own do: enough to take a view's part out of a base-shaped array, or put it back."""

    def __init__(self, base: np.ndarray, view: np.ndarray) -> None:
        low, high = np.lib.array_utils.byte_bounds(base)
        size = base.itemsize

        def where(a: np.ndarray) -> tuple:
            start = (a.__array_interface__["data"][0] - low) // size
            return a.shape, tuple(s // size for s in a.strides), start

        self.span, self.base, self.view = (high - low) // size, where(base), where(view)

    @staticmethod
    def _indices(shape: tuple, strides: tuple, offset: int) -> np.ndarray:
        """The position in memory of each element of an array of this shape, strides and offset."""
        grid = np.indices(shape, dtype=np.intp) if shape else np.zeros((0,), dtype=np.intp)
        return offset + sum((g * s for g, s in zip(grid, strides)), np.zeros(shape, dtype=np.intp))

    def memory(self, base_like: np.ndarray) -> np.ndarray:
        """A flat memory holding ``base_like`` (an array of the base's shape) where the base's elements sit."""
        flat = np.zeros(self.span, dtype=base_like.dtype)
        flat[self._indices(*self.base)] = base_like
        return flat

    def part(self, flat: np.ndarray) -> np.ndarray:
        return flat[self._indices(*self.view)]

    def whole(self, flat: np.ndarray) -> np.ndarray:
        return flat[self._indices(*self.base)]


class AsStrided(Function):
    """The part of a base-shaped tensor that a view covers: ``d input = as_strided_scatter(zeros, grad)`` (summed
    where the view covers an element more than once, as an expanded view does)."""

    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx: Any, input: Tensor, geometry: Geometry) -> np.ndarray:
        ctx.geometry = geometry
        return geometry.part(geometry.memory(input._array))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        g = ctx.geometry
        zeros = wrap(np.zeros(g.base[0], dtype=grad._array.dtype))
        return AsStridedScatter.apply(zeros, grad, g, True), None


class AsStridedScatter(Function):
    """``input`` with the part a view covers replaced by ``src`` (or, with ``add``, ``src`` added into it)."""

    node_name = "AsStridedScatterBackward0"

    @staticmethod
    def forward(ctx: Any, input: Tensor, src: Tensor, geometry: Geometry, add: bool = False) -> np.ndarray:
        ctx.geometry, ctx.add = geometry, add
        flat, where = geometry.memory(input._array), geometry._indices(*geometry.view)
        if add:
            np.add.at(flat, where, src._array)
        else:
            flat[where] = src._array
        return geometry.whole(flat)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        g, d_input = ctx.geometry, None
        if ctx.needs_input_grad[0]:  # replaced: the part gets no gradient; added: all of it does
            d_input = grad if ctx.add else AsStridedScatter.apply(grad, wrap(np.zeros(g.view[0], grad._array.dtype)), g)
        return d_input, AsStrided.apply(grad, g) if ctx.needs_input_grad[1] else None, None, None


class CopySlicesFunction(Function):
    """The node of a base whose view was changed in place: ``fn``, the in-place op's node, applies to the part of
    the base the view covers (d/d(the view's old value) goes back into that part); the rest passes through."""

    node_name = "CopySlices"

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        g, fn = ctx.geometry, ctx.fn
        part = AsStrided.apply(grad, g)
        res = learners_gradients(fn, [part]) if fn._learners else fn.apply(part)
        first = res[0] if res[0] is not None else wrap(np.zeros(g.view[0], grad._array.dtype))
        return (AsStridedScatter.apply(grad, first, g), *res[1:])


# PyTorch writes this node by hand in C++: name() gives its C++ name, a tensor's repr shows the class name.
CopySlicesFunction._backward_cls.name = lambda node: "tinygrad_edu::autograd::CopySlices"
# What it saved is what ``fn`` saved: freed with it after backward.
CopySlicesFunction._backward_cls._release_variables = lambda node: node.fn._release_variables()


def _node(cls: type[Function], edges: tuple, geometry: Geometry) -> Any:
    """A node of ``cls`` linked to ``edges``, made by hand: its forward already happened (in place, in memory)."""
    node = cls._backward_cls()
    node._seq = next(_sequence_nr)  # (newer than every node it leads to)
    node.next_functions, node.geometry, node.needs_input_grad = edges, geometry, (True,)
    if cls is AsStrided:
        node._input_is_tensor = (True, False)
    view = geometry.view  # what PyTorch's AsStridedBackward0 shows
    node._saved_size, node._saved_stride, node._saved_storage_offset = view
    return node


def rebase(view: Tensor, fn: Any) -> None:
    """``view`` was changed in place by the op whose node is ``fn`` (its first input: the view's old value): the
    base's history becomes ``CopySlices`` (base's old history, and fn's other inputs), the view's a part of it."""
    base = view._base
    node = _node(CopySlicesFunction, (gradient_edge(base), *fn.next_functions[1:]), Geometry(base._array, view._array))
    node.fn = fn
    new_history(base, node, 0)  # (a base that retains its grad: .grad is now CopySlices' gradient)
    regrow(view)


def regrow(view: Tensor) -> None:
    """A view whose base changed in place since its history was recorded: its history is now the part it covers of
    the base's (``AsStridedBackward0``), if the base has one and the view was made while recording; with view replay
    on, the ops that made the view, made again on the base's new history (``replayed``). A view made otherwise (in
    no_grad mode, by a custom Function...) with a history or a base that requires grad is refused, as PyTorch refuses
    it when its history is asked for: which history should it have?"""
    base = view._base
    if refused(view):
        raise RuntimeError(M.view_inplace(view._view_made, view.grad_fn, view._output_nr, indirect=True))
    view._view_version = view._version_counter[0]
    if base._requires_grad and view._view_made is None:
        edge = gradient_edge(base)
        replay = replayed(view, edge) if REPLAY[0] else None
        new_history(view, replay or _node(AsStrided, (edge,), Geometry(base._array, view._array)), 0)


def refused(view: Tensor) -> bool:
    """Whether ``view``'s history, asked for, would be refused (``regrow``): PyTorch prints ``grad_fn=<Invalid>``."""
    return view._view_version != view._version_counter[0] and view._view_made is not None and (
        view.grad_fn is not None or view._base._requires_grad)


def as_view(out: Tensor, of: Tensor, made: Any = None) -> None:
    """``out``, a view of ``of``'s base: its version counter, the version its history is for, how it was made (None:
    while recording, which allows changing it in place; see ``_checks.check_view_inplace`` for the others). A view of
    an inference tensor is one too, untracked (as in ``Function.apply``)."""
    if type(of._version_counter) is InferenceCounter:
        out._version_counter = of._version_counter
        return
    out._base = base = of if of._base is None else of._base
    out._version_counter, out._view_version = base._version_counter, base._version_counter[0]
    out._requires_grad = out._requires_grad or base._requires_grad  # (a view of a tensor that requires grad does)
    out._view_made = made or MADE_IN[GradMode.enabled, GradMode.inference] or of._view_made


def custom_outputs(ctx: Any, args: tuple, raw: tuple, results: list, record: bool) -> None:
    """What a learner's Function returned that shares an input's storage, as PyTorch sees it (``_wrap_outputs``):

    * an input returned as it is becomes a view of it (``x.view_as(x)``, so that the output is a tensor of its
      own), or, if it requires grad and this output gets no history, a detached alias;
    * every view (of an input, or of a tensor forward made) is marked "made inside a custom Function": changing it
      in place is refused, since autograd would rewrite the history around the learner's backward;
    * with several differentiable outputs, each view is "one of several views" instead;
    * ``ctx._is_pure_view = True`` says the one output is a plain view of the one input: it may then be changed in
      place, and autograd replays the view rather than the learner's backward.

    ``results`` (the outputs as the node will hold them) are changed in place; ``raw`` are forward's own."""
    T = Tensors.cls  # noqa: N806
    pure = getattr(ctx, "_is_pure_view", False)
    if pure and (len(raw) != 1 or sum(isinstance(a, T) for a in args) != 1):
        raise RuntimeError(M.PURE_VIEW)
    made, differentiable = None if pure else "custom", 0
    for i, o in enumerate(raw):
        if not isinstance(o, T) or _is_one_of(o, ctx._dirty):
            continue
        diff = record and o._array.dtype.kind == "f" and not _is_one_of(o, ctx._non_differentiable)
        differentiable += diff
        if _is_one_of(o, args) and o._requires_grad and not diff:
            results[i] = o.detach()
        elif _is_one_of(o, args):
            results[i] = wrap(o._array)
            as_view(results[i], o)
        if results[i] is not o and _is_one_of(o, ctx._non_differentiable):  # (it stands for o)
            ctx._non_differentiable = (*ctx._non_differentiable, results[i])
        if results[i]._base is not None:
            results[i]._view_made = made
    for r in results if differentiable > 1 else ():
        if isinstance(r, T) and r._base is not None:
            r._view_made = "multi"


REPLAY = [False]  # autograd._force_original_view_tracking's switch (off: PyTorch's default)


def replayed(view: Tensor, edge: tuple) -> Any:
    """View replay: the view's history made again on top of its base's new one (``ViewBackward0`` <- ``CopySlices``
    rather than ``AsStridedBackward0`` <- ``CopySlices``), as PyTorch does with ``_force_original_view_tracking``.
    The view's own history is a chain of view nodes down to its base (``x.clone().t()[1]``: SelectBackward0 <-
    TBackward0 <- CloneBackward0); each is copied, linked to the copy below it, the lowest to ``edge``. A view
    node's backward needs only what it kept (sizes, dims), not its input, so the copies compute the same gradients.
    None when the history is not such a chain (one of several views, a learner's Function, already AsStrided)."""
    chain, node = [], view.grad_fn
    while getattr(getattr(node, "_forward_cls", None), "is_view", False):
        if getattr(node, "_num_outputs", 1) != 1:
            return None
        chain.append(node)
        node = node.next_functions[0][0]
    for old in reversed(chain):
        new = object.__new__(type(old))
        new.__dict__.update({k: v for k, v in old.__dict__.items() if "hook" not in k})  # (not the old one's hooks)
        new._seq, new.next_functions = next(_sequence_nr), (edge, *old.next_functions[1:])
        edge = (new, 0)
    return edge[0] if chain else None


def base_requires_grad(t: Tensor) -> bool:
    """Whether ``t`` is a view of a tensor that requires grad (made in no_grad, it does not itself; PyTorch counts it
    as requiring grad, so that changing it in place with grad mode on is refused)."""
    return t._base is not None and t._base._requires_grad


def check_inplace(t: Tensor) -> None:
    """PyTorch's refusals of a recorded in-place change: of a leaf that requires grad, or of certain views."""
    if t._base is not None:
        C.check_view_inplace(t)
    elif t.grad_fn is None and t._requires_grad:
        raise RuntimeError(M.LEAF_INPLACE)


Tensors.views = sys.modules[__name__]
