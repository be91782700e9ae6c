"""``tinygrad_edu.autograd.backward`` and ``grad`` as PyTorch's, around the core's engine (``tinygrad_edu/core/
engine.py``), and ``trace_backward()``, which records the engine's steps for the lessons' pictures."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from .. import _messages as M
from ..core import engine as core_engine
from ..core.engine import _as_tuple
from ..core.function import AccumulateGrad, Node, wrap
from ..core.tensor import Tensor
from ..ops.shape import stack
from .graph import GradientEdge, edge_meta

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
    if materialize_grads and allow_unused is False:
        raise ValueError(M.MATERIALIZE_UNUSED)
    if allow_unused is None:
        allow_unused = materialize_grads
    ins, outs = _inputs_tuple(inputs, "grad"), _as_places(outputs)
    if not ins:
        raise RuntimeError(M.GRAD_INPUTS_EMPTY)
    if not only_inputs:
        warnings.warn(M.ONLY_INPUTS, FutureWarning, stacklevel=2)
    grad_outputs = _in_outputs_dtypes(outs, grad_outputs)
    if is_grads_batched:
        result = _grad_batched(outs, ins, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads)
    elif any(isinstance(x, GradientEdge) for x in outs + ins):
        result = _through_edges(outs, grad_outputs, retain_graph, create_graph, ins, accumulate=False)
        for i, (x, g) in enumerate(zip(ins, result)):
            if g is None and materialize_grads:
                if isinstance(x, GradientEdge):
                    raise RuntimeError("materialize_grads cannot be used when the given input is a GradientEdge")
                result[i] = wrap(np.zeros_like(x._array))
            elif g is None and not allow_unused:
                raise RuntimeError(M.UNUSED_INPUT.format(i))
        result = tuple(result)
    else:
        result = core_engine.grad(outs, ins, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads)
    return dict(zip(inputs.keys(), result)) if type(inputs) is dict else result


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None, create_graph: bool = False,
             grad_variables: Any = None, inputs: Any = None) -> None:
    """Accumulate d(tensors)/d(leaves), weighted by ``grad_tensors``, into the leaves' ``.grad``; with ``inputs``
    (tensors, GradientEdges, or a dict of tensors such as ``dict(model.named_parameters())``), only into those."""
    ins = None if inputs is None else _inputs_tuple(inputs, "backward")
    if ins is not None and not ins:
        raise RuntimeError(M.BACKWARD_INPUTS_EMPTY)
    outs = _as_places(tensors)
    if any(isinstance(x, GradientEdge) for x in outs + (ins or ())):
        _through_edges(outs, grad_tensors, retain_graph, create_graph, ins, accumulate=True)
    else:
        core_engine.backward(outs, grad_tensors, retain_graph, create_graph, grad_variables, ins)


def _edge_of(x: Tensor | GradientEdge, accumulate: bool) -> tuple[Node, int]:
    """Where an input's gradient is captured; for ``backward(inputs=...)`` a tensor also keeps its ``.grad``."""
    if isinstance(x, GradientEdge):
        return (x.node, x.output_nr)
    return core_engine._retaining((x,))[0] if accumulate else core_engine.gradient_edge(x)


def _in_outputs_dtypes(outs: tuple, grad_outputs: Any) -> Any:
    """A float gradient given for a float output of another dtype is converted to the output's, as PyTorch's engine
    converts what reaches each node (a float32 vector for a float64 output gives a float64 gradient)."""
    if grad_outputs is None:
        return None
    grads = _as_tuple(grad_outputs)
    return tuple(g.to(o.dtype) if isinstance(g, Tensor) and isinstance(o, Tensor) and g.dtype != o.dtype
                 and g.dtype.is_floating_point and o.dtype.is_floating_point else g for o, g in zip(outs, grads)) + \
        grads[len(outs):]


def _as_places(x: Any) -> tuple:
    """Outputs as a tuple: a tensor or a GradientEdge alone, or a sequence of them."""
    return (x,) if isinstance(x, (Tensor, GradientEdge)) else tuple(x)


def _inputs_tuple(inputs: Any, fn: str) -> tuple:
    """``inputs`` as PyTorch takes them: a tensor or GradientEdge, a sequence of them, or a dict (its values; grad()
    then returns a dict with the same keys). Other mappings are refused, as PyTorch refuses them."""
    if isinstance(inputs, (Tensor, GradientEdge)):
        return (inputs,)
    if type(inputs) is dict:
        return tuple(inputs.values())
    if isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `{fn}()` must be a dict, not {type(inputs).__name__}. "
                        "Other Mapping types are not supported.")
    return tuple(inputs)


def _through_edges(outs: tuple, grad_outputs: Any, retain_graph: bool | None, create_graph: bool,
                   ins: tuple | None, accumulate: bool) -> list[Tensor | None]:
    """A backward pass whose roots or inputs include GradientEdges: the engine works on edges anyway, so a tensor
    is only turned into its edge here, and an edge's starting gradient is checked against the tensor it came from."""
    grads = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outs)
    roots, root_grads = [], []
    for i, (out, g) in enumerate(zip(outs, grads)):
        if not isinstance(out, GradientEdge):
            edges, starts = core_engine._roots((out,), None if g is None else (g,))
            roots, root_grads = roots + edges, root_grads + starts
            continue
        shape, dtype = edge_meta(out) or (None, None)
        if g is None:
            if shape is None or any(n != 1 for n in shape):
                raise RuntimeError(M.IMPLICIT_GRAD)
            g = wrap(np.ones(shape, dtype=dtype.np))
        elif shape is not None and tuple(g.shape) != shape:
            raise RuntimeError(M.GRAD_SHAPE.format(i, g.shape, type(g.shape)(shape)))
        roots.append((out.node, out.output_nr))
        root_grads.append(g)
    capture = None if ins is None else [_edge_of(x, accumulate) for x in ins]
    retain = create_graph if retain_graph is None else retain_graph
    return core_engine.run_backward(roots, root_grads, retain, create_graph, capture, accumulate)


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
    for i, (out, b) in enumerate(zip(_as_tuple(outputs), batches)):
        if isinstance(out, Tensor) and tuple(b.shape[1:]) != tuple(out.shape):
            raise RuntimeError(M.BATCHED_GRAD_SHAPE.format(i, b.shape[2:], out.shape))  # ([2:]: as PyTorch prints it)
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
