"""The engine: runs the backward graph from the roots to the leaves.

The algorithm, in four steps (PyTorch's engine does the same, in C++ and on many threads):

1. **Count dependencies.** Walk the graph from the roots once (with a stack, not recursion: a 100 000-op chain
   is fine) and count, for every node, how many edges lead into it.
2. **Start with the roots' gradients** (``gradient``, or 1 for a scalar) in their input buffers.
3. **Run a node when all its gradients have arrived** (its count reached 0). Among the nodes that are ready,
   run the newest first (highest sequence number), which is PyTorch's order. A node's ``apply`` turns
   d(root)/d(its outputs) into d(root)/d(its inputs); each goes into the buffer of the node on the matching
   edge, where gradients arriving from several paths are *summed*.
4. **Free each node's saved tensors** after it ran, unless ``retain_graph``.

``AccumulateGrad`` nodes (leaves) add what reaches them into ``.grad``. ``autograd.grad`` instead *captures*
the gradient arriving at each input and leaves ``.grad`` alone.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _checks as C
from .. import _messages as M
from .function import (
    AccumulateGrad,
    BackwardCFunction,
    Node,
    Quiet,
    Tensors,
    aloud,
    gradient_edge,
    sum_to_shape,
    wrap,
)
from .grad_mode import GradMode, Speed

if TYPE_CHECKING:
    from .tensor import Tensor

Edge = tuple[Node, int]

#: Called as ``watcher(node, grads, grad_inputs, retain_graph)`` after each node runs, when set: how
#: ``autograd.trace_backward()`` (outside the core) watches the engine work.
watcher: Callable[..., None] | None = None


def backward(tensors: Tensor | Sequence[Tensor], grad_tensors: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, grad_variables: Any = None, inputs: Any = None) -> None:
    """Accumulate d(tensors)/d(leaves), weighted by ``grad_tensors``, into the leaves' ``.grad``.

    ``autograd.backward(z)`` is ``z.backward()``. With ``inputs``, only those tensors get ``.grad``."""
    outputs = _as_tuple(tensors)
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError(M.BACKWARD_INPUTS_EMPTY)
    roots, root_grads = _roots(outputs, grad_tensors)
    if create_graph:  # x.grad then holds a graph that leads back to x: a cycle only the garbage collector frees
        M.warn_once("create_graph", M.CREATE_GRAPH_CYCLE)
    retain_graph = create_graph if retain_graph is None else retain_graph
    if inputs is None:
        run_backward(roots, root_grads, retain_graph, create_graph)
        return
    # Only the given inputs get .grad: leaves through their AccumulateGrad; any other input is made to retain its
    # grad (for good, as in PyTorch; a tensor that needs no grad cannot, and raises).
    for t in inputs:
        if t.grad_fn is not None or not t._requires_grad:
            t.retain_grad()
    run_backward(roots, root_grads, retain_graph, create_graph, capture=[gradient_edge(t) for t in inputs])


def grad(outputs: Tensor | Sequence[Tensor], inputs: Tensor | Sequence[Tensor], grad_outputs: Any = None,
         retain_graph: bool | None = None, create_graph: bool = False, allow_unused: bool = False,
         materialize_grads: bool = False) -> tuple[Tensor | None, ...]:
    """Return d(outputs)/d(inputs) (weighted by ``grad_outputs``) without touching any ``.grad``.

    ``create_graph=True`` records the computation of the gradient, so it can be differentiated again.
    ``allow_unused=True`` returns None for inputs the outputs do not depend on (an error otherwise)."""
    ins = _as_tuple(inputs)
    if not ins:
        raise RuntimeError(M.GRAD_INPUTS_EMPTY)
    roots, root_grads = _roots(_as_tuple(outputs), grad_outputs)
    if any(not t._requires_grad for t in ins):
        raise RuntimeError(M.INPUT_NEEDS_NO_GRAD)
    retain_graph = create_graph if retain_graph is None else retain_graph
    captured = run_backward(roots, root_grads, retain_graph, create_graph,
                            capture=[gradient_edge(t) for t in ins], accumulate=False)
    for i, (t, g) in enumerate(zip(ins, captured)):
        if g is None and not allow_unused:
            raise RuntimeError(M.UNUSED_INPUT.format(i))
        if g is None and materialize_grads:
            captured[i] = wrap(np.zeros_like(t._array))
    return tuple(captured)


def run_backward(roots: list[Edge], root_grads: list[Tensor], retain_graph: bool, create_graph: bool,
                 capture: list[Edge] | None = None, accumulate: bool = True) -> list[Tensor | None]:
    """The algorithm of the module docstring. Returns the gradients that reached the ``capture`` edges (the
    inputs of ``autograd.grad``, or of ``backward(inputs=...)``); with those, only nodes leading to them run."""
    deps = _count_dependencies(roots)  # step 1
    captured: list[Tensor | None] = [None] * len(capture or ())
    needed = None if capture is None else _needed(deps, capture, accumulate)
    if needed is not None and not needed and not accumulate and not any(node in deps for node, _ in capture):
        return captured  # autograd.grad of inputs the outputs do not depend on: nothing to run
    buffers: dict[Node, list] = {}
    for (node, nr), g in zip(roots, root_grads):  # step 2
        buf = buffers.setdefault(node, [None] * node._num_outputs)
        buf[nr] = g if buf[nr] is None else buf[nr] + g
    tick = 0  # ties (leaves' AccumulateGrad nodes) go in the order they became ready
    ready = []
    for node, count in deps.items():
        if count == 0:
            ready.append((-node._seq, tick, node))
            tick += 1
    heapq.heapify(ready)
    prev_mode, GradMode.enabled = GradMode.enabled, create_graph  # formulas are recorded only for create_graph
    quiet = Speed.tricks and not Quiet.on  # speed: numpy's warnings off once for the pass, not in every op
    if quiet:
        Quiet.enter()
    try:
        while ready:  # step 3
            node = heapq.heappop(ready)[2]
            grads = buffers.pop(node, None) or [None] * node._num_outputs
            if node._tensor_pre_hooks or node._retain_grad:  # (most nodes have none)
                grads = _tensor_hooks(node, grads)
            if capture:
                _capture(node, grads, capture, captured)
            inputs: tuple = ()
            if (needed is None or node in needed) and _any_gradient(grads):
                inputs = _run_node(node, grads) if not GradMode.anomaly else \
                    C.report_anomaly(node, grads, _run_node, GradMode.anomaly_check_nan)
                if watcher is not None:
                    watcher(node, grads, inputs, retain_graph)
                if not retain_graph:  # step 4
                    node._release_variables()
            for i, (nxt, nr) in enumerate(node.next_functions):
                if nxt is None:
                    continue
                g = inputs[i] if i < len(inputs) else None
                if g is not None:
                    buf = buffers.get(nxt) or buffers.setdefault(nxt, [None] * nxt._num_outputs)
                    buf[nr] = g if buf[nr] is None else _sum(buf[nr], g)
                    g = None  # the buffer holds it now: no stray reference (see _unshared)
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(ready, (-nxt._seq, tick, nxt))
                    tick += 1
    finally:
        GradMode.enabled = prev_mode
        if quiet:
            Quiet.exit()
            Quiet.state = None
    return captured


def _as_tuple(x: Any) -> tuple:
    if x is None:
        return ()
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _roots(outputs: tuple[Tensor, ...], grads: Any) -> tuple[list[Edge], list[Tensor]]:
    """The roots' edges and starting gradients: given ones are checked against their output's shape; None means 1.
    (Paired with ``zip``, as in PyTorch: extra gradients are ignored, too few is an error.)"""
    grads = _as_tuple(grads) if grads is not None else (None,) * len(outputs)
    root_grads = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if out._requires_grad and out._array.size != 1:
                raise RuntimeError(M.IMPLICIT_GRAD)
            g = wrap(np.ones_like(out._array))
        elif not isinstance(g, Tensors.cls):
            raise TypeError(M.GRAD_TYPE.format(type(g).__name__))
        elif g._array.shape != out._array.shape:
            raise RuntimeError(M.GRAD_SHAPE.format(i, g.shape, out.shape))
        root_grads.append(g)
    if len(root_grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(root_grads)} gradients")
    for i, t in enumerate(outputs):
        if not t._requires_grad:
            raise RuntimeError(M.NO_GRAD_FN.format(i))
    return [gradient_edge(t) for t in outputs], root_grads


def _count_dependencies(roots: list[Edge]) -> dict[Node, int]:
    """Step 1: for every node reachable from the roots, how many edges lead into it."""
    deps: dict[Node, int] = {node: 0 for node, _ in roots}
    stack = list(deps)
    while stack:  # an explicit stack, not recursion: depth is unlimited
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:
                continue
            if nxt in deps:
                deps[nxt] += 1
            else:
                deps[nxt] = 1
                stack.append(nxt)
    return deps


def _needed(deps: dict[Node, int], capture: list[Edge], accumulate: bool) -> set[Node]:
    """The nodes worth running when gradients are wanted only for some inputs: those from which one of them
    can be reached (and, for ``backward(inputs=...)``, the inputs' own AccumulateGrad)."""
    targets = {node for node, _ in capture}
    remaining, order = dict(deps), [node for node, count in deps.items() if count == 0]
    for node in order:  # (the list grows: Kahn's order, every node after all the nodes that lead to it)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                remaining[nxt] -= 1
                if remaining[nxt] == 0:
                    order.append(nxt)
    needed: set[Node] = set()
    for node in reversed(order):  # a node after everything it leads to: one pass decides
        for nxt, _ in node.next_functions:
            if nxt is not None and (nxt in needed or nxt in targets):
                needed.add(node)
                break
    if accumulate:
        needed |= {node for node in targets if isinstance(node, AccumulateGrad)}
    return needed


def _any_gradient(grads: list) -> bool:
    """Did any gradient reach this node? (A plain loop: cheaper than ``any()`` over a generator.)"""
    for g in grads:  # noqa: SIM110
        if g is not None:
            return True
    return False


def _capture(node: Node, grads: list, capture: list[Edge], captured: list) -> None:
    for i, (target, nr) in enumerate(capture):
        if target is node and grads[nr] is not None:
            captured[i] = grads[nr] if captured[i] is None else captured[i] + grads[nr]


def _sum(a: Tensor, b: Tensor) -> Tensor:
    """Two gradients for one output arrived by different paths: the gradient is their sum."""
    if Speed.tricks and not GradMode.enabled and a._array.shape == b._array.shape and a._array.dtype == b._array.dtype:
        return wrap(a._array + b._array)  # speed: nothing to record or promote, so numpy's add, not the op
    return a + b


# -- Hooks -------------------------------------------------------------------------------------------------------
def _tensor_hooks(node: Node, grads: list) -> list:
    """Hooks registered on the tensors this node produced (register_hook, retain_grad)."""
    for nr, fns in (node._tensor_pre_hooks or {}).items():
        for fn in list(fns):
            if grads[nr] is not None:
                new = aloud(fn, grads[nr])
                if new is not None:
                    grads[nr] = C.hook_grad(fn, grads[nr], new)
    for nr, ref in (node._retain_grad or {}).items():
        t, g = ref(), grads[nr]
        if t is not None and g is not None:
            t._grad = wrap(g._array.copy()) if t._grad is None and not GradMode.enabled else \
                (g if t._grad is None else t._grad + g)
    return grads


# -- Running one node ----------------------------------------------------------------------------------------------
def _run_node(node: Node, grads: list) -> tuple:
    """Run ``node`` between its pre- and post-hooks."""
    if node._pre_hooks:
        for fn in list(node._pre_hooks):
            new = aloud(fn, tuple(grads))
            if new is not None:
                grads = list(C.node_hook_grads(fn, tuple(grads), new))
    if isinstance(node, BackwardCFunction):
        inputs = _call_function_node(node, grads)
    elif type(node) is AccumulateGrad:
        steal = Speed.tricks and _unshared(grads)  # (asked first: an argument list under way holds a reference too)
        inputs = node.apply(grads[0], steal)
    else:
        inputs = node.apply(*grads)
    if node._post_hooks:
        for fn in list(node._post_hooks):
            new = aloud(fn, inputs, tuple(grads))
            if new is not None:
                inputs = C.node_hook_grads(fn, inputs, new)
    return inputs


def _call_function_node(node: BackwardCFunction, grads: list) -> tuple:
    """Run a Function's backward: fill in missing output gradients, then keep one gradient per tensor input."""
    if len(grads) > 1 and node.materialize_grads and any(g is None for g in grads):
        grads = [wrap(np.zeros(*meta)) if g is None else g for g, meta in zip(grads, node._output_meta)]
    if not node._check_shapes:  # a built-in op: one gradient per forward argument, kept for the tensor ones
        result = node._forward_cls.backward(node, *grads)
        if type(result) is not tuple:  # (one gradient, for a one-input op)
            result = (result,)
        if node._input_is_tensor is None:  # every argument was a tensor (a formula may add trailing Nones)
            n = len(node.next_functions)
            return result if len(result) == n else result[:n]
        return tuple([g for g, tensor_arg in zip(result, node._input_is_tensor) if tensor_arg])
    result = aloud(node.apply, *grads)  # a learner's backward: their code, with their numpy settings
    inputs = C.learner_grads(node, result, Tensors.cls)  # one per tensor input, None or one that fits it (checked)
    return tuple(None if g is None else (g if g._array.shape == shape else sum_to_shape(g, shape)).to(dtype)
                 for g, (shape, dtype) in zip(inputs, node._input_meta))  # summed down if broadcast, in its dtype


# -- speed: "stealing" a gradient --------------------------------------------------------------------------------
def _references(obj: object) -> int:
    return sys.getrefcount(obj)


def _call_overhead() -> int:
    probe = object()
    holders = [probe]  # noqa: F841  (two known references: this local and that list)
    return _references(probe) - 2


# How many references ``_references`` counts on top of an object's real holders (those of the call itself):
# measured once, on an object with two known holders, rather than assumed (Python versions count differently).
_CALL_REFERENCES = _call_overhead()


def _unshared(grads: list) -> bool:
    """Whether the gradient ``grads[0]`` is held by nobody but this list, and its memory by nobody but that
    gradient: then AccumulateGrad may keep it as ``.grad`` without copying it (PyTorch "steals" it too). Anybody
    else's reference (a hook that kept it, the caller's own ``gradient``, another tensor over the same memory)
    shows in the reference counts. Each count below lists the holders expected."""
    g = grads[0]
    if g is None or _references(g) - _CALL_REFERENCES > 2:  # the list, and ``g`` here
        return False
    a, view_of = g._array, g._base  # (a gradient made by a view op, e.g. a transpose, views another tensor)
    if _references(a) - _CALL_REFERENCES > 2:  # g, and ``a`` here
        return False
    if view_of is not None and _references(view_of) - _CALL_REFERENCES > 2:  # g's _base, and ``view_of`` here
        return False
    memory = a.base  # the array that owns the numbers, when ``a`` is a view of it
    if memory is None:
        return True
    holders = 2 + (view_of is not None and view_of._array is memory)  # a's base, ``memory`` here, view_of's array
    return type(memory) is np.ndarray and memory.base is None and _references(memory) - _CALL_REFERENCES <= holders
