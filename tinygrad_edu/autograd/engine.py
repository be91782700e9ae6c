"""``tinygrad_edu.autograd.backward`` and ``grad`` as PyTorch's, around the core's engine (``tinygrad_edu/core/
engine.py``), and ``trace_backward()``, which records the engine's steps for the lessons' pictures."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple

from .. import _messages as M
from ..core import engine as core_engine
from ..core.engine import _as_tuple, backward
from ..core.function import AccumulateGrad, Node, wrap
from ..core.tensor import Tensor
from ..ops.shape import stack

__all__ = ["BackwardStep", "BackwardTrace", "backward", "grad", "trace_backward"]


def grad(outputs: Tensor | Sequence[Tensor], inputs: Tensor | Sequence[Tensor],
         grad_outputs: Tensor | Sequence[Tensor | None] | None = None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple[Tensor | None, ...]:
    """Return d(outputs)/d(inputs) (weighted by ``grad_outputs``) without touching any ``.grad``.

    ``create_graph=True`` records the computation of the gradient, so it can be differentiated again.
    ``allow_unused=True`` returns None for inputs the outputs do not depend on (an error otherwise).
    ``only_inputs`` is deprecated and ignored, as in PyTorch.
    """
    if not only_inputs:
        warnings.warn(M.ONLY_INPUTS, FutureWarning, stacklevel=2)
    if is_grads_batched:
        return _grad_batched(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                             materialize_grads)
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and allow_unused is False:
        raise ValueError(M.MATERIALIZE_UNUSED)
    return core_engine.grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads)


def _grad_batched(outputs: Tensor | Sequence[Tensor], inputs: Tensor | Sequence[Tensor], grad_outputs: Any,
                  retain_graph: bool | None, create_graph: bool, allow_unused: bool | None,
                  materialize_grads: bool) -> tuple[Tensor | None, ...]:
    """``grad(..., is_grads_batched=True)``: dimension 0 of each ``grad_outputs`` tensor is a batch of vectors,
    and the result stacks one vector-Jacobian product per vector: ``grad(y, x, torch.eye(n),
    is_grads_batched=True)`` is the whole Jacobian of y in one call. PyTorch vectorizes the batch (vmap); here
    it is one backward pass per vector, keeping the graph for the next one."""
    batches = _as_tuple(grad_outputs) if grad_outputs is not None else ()
    if len(batches) != len(_as_tuple(outputs)) or not all(isinstance(b, Tensor) and b.dim() > 0 for b in batches):
        raise RuntimeError("is_grads_batched=True needs grad_outputs: for each output, a tensor whose first "
                           "dimension is the batch (e.g. torch.eye(n) for all n rows of a Jacobian)")
    n = batches[0].shape[0]
    rows = [grad(outputs, inputs, [b[k] for b in batches], retain_graph=retain_graph if k == n - 1 else True,
                 create_graph=create_graph, allow_unused=allow_unused, materialize_grads=materialize_grads)
            for k in range(n)]
    return tuple(None if rows[0][j] is None else stack([row[j] for row in rows]) for j in range(len(rows[0])))


# -- Watching the engine work: trace_backward() (tinygrad_edu only; PyTorch has no such recorder) -------------


class BackwardStep(NamedTuple):
    """One node run by the engine, as :class:`trace_backward` records it.

    The tensors are copies taken at that moment: later steps may add into the same arrays in place
    (``.grad`` does), and the record must still show what happened then.
    """

    node: Node
    #: the gradients that arrived, d(root)/d(the node's outputs), after the tensors' hooks ran
    grad_outputs: tuple[Tensor | None, ...]
    #: the gradients it sent on, d(root)/d(its inputs): one per entry of ``node.next_functions``
    grad_inputs: tuple[Tensor | None, ...]
    #: the hooks that ran, in order: hooks of the tensors it produced, its pre-hooks, its post-hooks
    hooks: tuple[Any, ...]
    #: whether its saved tensors were freed right after it ran (they are, unless retain_graph=True)
    released: bool
    #: for an AccumulateGrad node, the leaf's ``.grad`` just after it accumulated; None otherwise
    grad: Tensor | None


def _copies(grads: Sequence[Tensor | None], n: int) -> tuple[Tensor | None, ...]:
    """Detached copies of ``grads``, padded with None to ``n`` entries."""
    out = [None if g is None else wrap(g._array.copy()) for g in grads]
    return tuple(out + [None] * (n - len(out)))


class BackwardTrace(list):
    """The :class:`BackwardStep` of every node the engine ran, in the order it ran them."""

    def record(self, node: Node, grads: list, grad_inputs: tuple, retain_graph: bool) -> None:
        """Called by the engine right after ``node`` ran, before its saved tensors are freed."""
        hooks: list = []
        if node._tensor_pre_hooks:  # a tensor's hooks run when a gradient for it arrives
            for nr, fns in node._tensor_pre_hooks.items():
                if grads[nr] is not None:
                    hooks += fns
        hooks += node._pre_hooks or ()
        hooks += node._post_hooks or ()
        grad = node.variable._grad if isinstance(node, AccumulateGrad) else None
        self.append(BackwardStep(node, _copies(grads, len(grads)), _copies(grad_inputs, len(node.next_functions)),
                                 tuple(hooks), not retain_graph and bool(node._saved),
                                 None if grad is None else wrap(grad._array.copy())))


class trace_backward:  # noqa: N801  (used like no_grad: a context manager with a lower-case name)
    """Record each node the engine runs inside the ``with`` block, with the gradients it received and sent.

    A tinygrad_edu extra for seeing backward at work (PyTorch has nothing like it)::

        with tinygrad_edu.autograd.trace_backward() as steps:
            loss.backward()
        [step.node.name() for step in steps]    # the nodes, in the order the engine ran them

    Every ``backward()`` and ``autograd.grad()`` inside the block is recorded, into the innermost open
    trace. When no trace is open the engine pays one ``is not None`` check per node.
    """

    def __init__(self) -> None:
        self.steps = BackwardTrace()
        self._outer: BackwardTrace | None = None

    def __enter__(self) -> BackwardTrace:
        global _active_trace
        self._outer, _active_trace = _active_trace, self.steps
        core_engine.watcher = self.steps.record  # the engine calls it after each node
        return self.steps

    def __exit__(self, *exc: object) -> None:
        global _active_trace
        _active_trace = self._outer
        core_engine.watcher = None if self._outer is None else self._outer.record


_active_trace: BackwardTrace | None = None  # the innermost open trace
