"""The engine: runs the backward graph from the roots to the leaves.

The algorithm, in four steps (PyTorch's engine does the same, in C++ and on many threads):

1. **Count dependencies.** Walk the graph from the roots once (with a stack, not recursion: a 100 000-op chain
   is fine) and count, for every node, how many edges lead into it.
2. **Send the roots' gradients** (``gradient``, or 1 for a scalar) along the roots' edges, as a node sends its own.
3. **Run a node when all its gradients have arrived** (its count reached 0). Among the nodes that are ready,
   run the newest first (highest sequence number), which is PyTorch's order. A node's ``apply`` turns
   d(root)/d(its outputs) into d(root)/d(its inputs); each is sent into the buffer of the node on the matching
   edge, where gradients arriving from several paths are *summed*, and that node's count goes down by one.
4. **Free each node's saved tensors** after it ran, unless ``retain_graph``.

``AccumulateGrad`` nodes (leaves) add what reaches them into ``.grad``. ``autograd.grad`` instead *captures*
the gradient arriving at each input and leaves ``.grad`` alone. Hooks, capturing, anomaly detection and a
learner's Function (whose gradients are checked) take a slower path (``_run_node``); the loop is the algorithm.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _checks as C
from .. import _hooks, _steal
from .. import _messages as M
from .._quiet import Quiet, quiet_off, quiet_on
from .function import AccumulateGrad, Node, SavedTensor, Tensors, gradient_edge, learners_gradients, wrap
from .grad_mode import GradMode, Speed

if TYPE_CHECKING:
    from .tensor import Tensor

Edge = tuple[Node, int]

#: Called as ``watcher(node, grads, grad_inputs, retain_graph)`` after each node runs, when set: how
#: ``autograd.trace_backward()`` (outside the core) watches the engine work.
watcher: Callable[..., None] | None = None


def backward(tensors: Tensor | Sequence[Tensor], grad_tensors: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, grad_variables: Any = None, inputs: Any = None) -> None:
    """Accumulate d(tensors)/d(leaves), weighted by ``grad_tensors``, into the leaves' ``.grad`` (``z.backward()``
    is ``autograd.backward(z)``; with ``inputs``, only those tensors get ``.grad``)."""
    outputs = tuple(tensors) if isinstance(tensors, (tuple, list)) else (tensors,)
    usual = (grad_tensors, inputs, create_graph) == (None, None, False)  # d(results)/d(leaves), nothing else asked
    if not usual or any(getattr(t, "grad_fn", None) is None or t._array.size != 1 for t in outputs):  # (scalars?)
        return _backward(outputs, grad_tensors, retain_graph, create_graph, inputs)  # (checked; weights, inputs...)
    ones = [wrap(np.ones(t._array.shape, t._array.dtype)) for t in outputs]  # a scalar's gradient: d(itself)/d(itself)
    run_backward([(t.grad_fn, t._output_nr) for t in outputs], ones, bool(retain_graph), False)


def _backward(outputs: tuple, grad_tensors: Any, retain_graph: bool | None, create_graph: bool, inputs: Any) -> None:
    """``backward`` with gradients given (checked), ``inputs``, or ``create_graph``."""
    inputs = None if inputs is None else C.backward_inputs(_as_tuple(inputs), Tensors.cls)  # (some; tensors)
    roots, root_grads = _roots(outputs, grad_tensors)
    if create_graph:  # x.grad then holds a graph that leads back to x: a cycle only the garbage collector frees
        M.warn_once("create_graph", M.CREATE_GRAPH_CYCLE)
    capture = None if inputs is None else _retaining(inputs)
    run_backward(roots, root_grads, create_graph if retain_graph is None else retain_graph, create_graph, capture)


def grad(outputs: Tensor | Sequence[Tensor], inputs: Tensor | Sequence[Tensor], grad_outputs: Any = None,
         retain_graph: bool | None = None, create_graph: bool = False, allow_unused: bool = False,
         materialize_grads: bool = False) -> tuple[Tensor | None, ...]:
    """Return d(outputs)/d(inputs) (weighted by ``grad_outputs``) without touching any ``.grad``. With
    ``create_graph=True`` the computation of the gradient is recorded, so it can be differentiated again.
    ``allow_unused=True`` returns None for inputs the outputs do not depend on (an error otherwise)."""
    ins = C.some_inputs(_as_tuple(inputs))  # (PyTorch's order: that there are inputs, the outputs, then the inputs)
    roots, root_grads = _roots(_as_tuple(outputs), grad_outputs)
    C.inputs_require_grad(ins, Tensors.cls)  # (each a tensor that requires grad)
    captured = run_backward(roots, root_grads, create_graph if retain_graph is None else retain_graph, create_graph,
                            capture=[gradient_edge(t) for t in ins], accumulate=False)
    for i, (t, g) in enumerate(zip(ins, captured)):
        if g is None and not allow_unused:
            raise RuntimeError(M.UNUSED_INPUT.format(i))
        if g is None and materialize_grads:
            captured[i] = wrap(np.zeros_like(t._array)).requires_grad_(create_graph)  # (as PyTorch's zeros_like)
    return tuple(captured)


def run_backward(roots: list[Edge], root_grads: list[Tensor], retain_graph: bool, create_graph: bool,
                 capture: list[Edge] | None = None, accumulate: bool = True) -> list[Tensor | None]:
    """The algorithm of the module docstring. Returns the gradients that reached the ``capture`` edges (the
    inputs of ``autograd.grad``, or of ``backward(inputs=...)``); with those, only nodes leading to them run."""
    deps = _count_dependencies(roots)  # step 1
    buffers, ready, order = {}, [], itertools.count()  # ready: a heap, newest first (of equals, the first ready)
    sums = set() if Speed.tricks and not create_graph else None  # speed: gradients added in place (_steal.added)
    slow = None if capture is None and not GradMode.anomaly and watcher is None else \
        _Pass(retain_graph, capture, deps, accumulate, roots)  # capture, anomaly...: nodes take _run_node (but fast)
    prev = GradMode.enabled, Quiet.token  # (formulas are recorded only for create_graph; speed: numpy's warnings
    GradMode.enabled, Quiet.token = create_graph, Quiet.token or (quiet_on() if Speed.tricks else None)  # off once)
    try:
        edges, inputs = roots, root_grads  # step 2: the roots' gradients, sent along edges as a node sends its own
        while True:
            for (nxt, nr), g in zip(edges, inputs if len(inputs) >= len(edges) else (*inputs, *[None] * len(edges))):
                if nxt is not None:
                    if g is not None:  # into the buffer of the node on that edge: by two paths, their sum
                        buf = buffers.get(nxt) or buffers.setdefault(nxt, [None] * nxt._num_outputs)
                        buf[nr] = g if buf[nr] is None else _steal.added(buf[nr], g, nxt, sums)
                    deps[nxt] = left = deps[nxt] - 1
                    if left == 0:  # all its gradients are in: it is ready
                        heapq.heappush(ready, (-nxt._seq, next(order), nxt))
            if not ready:
                break
            node = heapq.heappop(ready)[2]  # step 3 (inputs and g emptied: no stale reference, see function._unshared)
            grads, edges, inputs, g = buffers.pop(node, None), node.next_functions, (), None
            if grads is not None and not node._slow and (slow is None or node in slow.fast):
                inputs = node.apply(*grads)
                if not retain_graph:  # step 4
                    node._release_variables()
            elif grads is not None:
                inputs = _run_node(node, grads, slow or _Pass(retain_graph))
    finally:  # (numpy's warnings back, if this pass turned them off: then prev[1] is None, what quiet_off returns)
        GradMode.enabled, Quiet.token = prev[0], prev[1] if Quiet.token is prev[1] else quiet_off(Quiet.token)
    return [] if slow is None else slow.captured


def _as_tuple(x: Any) -> tuple:
    return () if x is None else (x,) if isinstance(x, Tensors.cls) else (*x.values(),) if type(x) is dict else tuple(x)


def _roots(outputs: tuple[Tensor, ...], grads: Any) -> tuple[list[Edge], list[Tensor]]:
    """The roots' edges and starting gradients: 1 for a scalar root, when none is given (else checked)."""
    C.check_roots(outputs, grads, Tensors.cls)  # PyTorch's messages for gradients of the wrong type or shape
    grads = _as_tuple(grads) if grads is not None else (None,) * len(outputs)
    return [gradient_edge(t) for t in outputs], [wrap(np.ones_like(t._array)) if g is None else g
                                                for t, g in zip(outputs, grads)]


def _count_dependencies(roots: list[Edge]) -> dict[Node, int]:
    """Step 1: for every node reachable from the roots, how many edges lead into it (the roots' own included)."""
    deps, stack = {}, [roots]  # (stack: the edges still to follow)
    while stack:  # an explicit stack, not recursion: depth is unlimited
        for nxt, _ in stack.pop():
            if nxt is not None:
                deps[nxt] = count = deps.get(nxt, 0) + 1
                if count == 1:  # (met for the first time: its own edges next)
                    stack.append(nxt.next_functions)
    return deps


# -- The slower path: hooks, capturing the gradients of autograd.grad, anomaly detection, a watcher -------------------
class _Pass:
    """What the slower path needs: which gradients to capture, which nodes lead to them (``fast``: of those, the ones
    that capture nothing, which take the usual path, as in ``backward()``, unless anomaly mode or a watcher is on)."""

    def __init__(self, retain_graph: bool, capture: list[Edge] | None = None, deps: dict | None = None,
                 accumulate: bool = True, roots: list | None = None) -> None:
        self.retain_graph, self.capture, self.captured = retain_graph, capture, [None] * len(capture or ())
        self.needed = None if capture is None else _needed(deps, capture, accumulate)
        self.fast = set() if not capture or GradMode.anomaly or watcher else self.needed - {n for n, _ in capture}
        if self.needed == set() and not accumulate and not any(node in deps for node, _ in capture):
            roots.clear()  # autograd.grad of inputs the outputs do not depend on: nothing to run, nothing to send


def _run_node(node: Node, grads: list, run: _Pass) -> tuple:
    """Run ``node`` with everything around it, in PyTorch's order:

    1. the hooks of the tensors it produced (``register_hook``), then ``retain_grad`` (``_hooks.tensor_pre_hooks``);
       a leaf's hooks are its AccumulateGrad's. They run even for a node ``autograd.grad`` only captures;
    2. capture (``autograd.grad``'s inputs, ``backward(inputs=...)``), and only now skip a node that leads nowhere;
    3. the node's pre-hooks (``grad_fn.register_prehook``), each given what the one before returned;
    4. the node (an AccumulateGrad adds into ``.grad``), then a leaf's post-accumulate hooks, ``.grad`` complete;
    5. the node's post-hooks (``grad_fn.register_hook``), given its results and its incoming gradients."""
    needed = run.needed is None or node in run.needed
    if not needed and all(target is not node for target, _ in run.capture):  # it leads to no input: PyTorch does not
        return ()  # even queue it, so not even its tensors' hooks run
    with _hooks.Running(node, SavedTensor.hooks):  # (meanwhile _C._current_autograd_node() is node)
        if node._tensor_pre_hooks or node._retain_grad:
            grads = _hooks.tensor_pre_hooks(node, grads)
        if run.capture:
            for i, (target, nr) in enumerate(run.capture):
                if target is node and grads[nr] is not None:
                    run.captured[i] = grads[nr] if run.captured[i] is None else run.captured[i] + grads[nr]
        if not needed:  # (captured: its own gradient is wanted, the ones it would send are not)
            return ()
        inputs = _between_hooks(node, grads) if not GradMode.anomaly else \
            C.report_anomaly(node, grads, _between_hooks, GradMode.anomaly_check_nan)
        if watcher is not None:
            watcher(node, grads, inputs, run.retain_graph)
        if not run.retain_graph:
            node._release_variables()
        return inputs


def _between_hooks(node: Node, grads: list) -> tuple:
    """Steps 3 to 5 of ``_run_node``: ``node.apply`` between its own hooks."""
    grads = _hooks.node_pre_hooks(node, grads) if node._pre_hooks else grads
    given, had_post_hooks = grads, bool(node._post_hooks)
    if node._num_outputs > 1 and node.materialize_grads:  # outputs that got no gradient get zeros (hooks see None)
        given = [wrap(np.zeros(*meta)) if g is None and meta else g for g, meta in zip(grads, node._output_meta)]
    inputs = node.apply(*given) if not node._learners else learners_gradients(node, given)
    if type(node) is AccumulateGrad and node.variable._post_accumulate_hooks:
        _hooks.post_accumulate_hooks(node.variable)
    grads = tuple(grads) if had_post_hooks else ()  # (a post-hook registered while the node ran, by an unpack hook,
    return _hooks.node_post_hooks(node, inputs, grads) if node._post_hooks else inputs  # gets none, as in PyTorch)


def _retaining(inputs: tuple) -> list[Edge]:
    """``backward(inputs=...)``: only those get ``.grad``: leaves through their AccumulateGrad, any other input by
    retaining its grad (for good, as in PyTorch; a tensor that needs no grad cannot, and raises)."""
    for t in inputs:
        if t.grad_fn is not None or not t._requires_grad:
            t.retain_grad()
    return [gradient_edge(t) for t in inputs]


def _needed(deps: dict[Node, int], capture: list[Edge], accumulate: bool) -> set[Node]:
    """The nodes worth running when gradients are wanted only for some inputs: those from which one of them can be
    reached, and for ``backward(inputs=...)`` the inputs' own nodes (which run with their hooks, as in PyTorch)."""
    targets, users = {node for node, _ in capture}, {}  # users: for each node, the nodes whose edges lead to it
    for node in deps:
        for nxt, _ in node.next_functions:
            users.setdefault(nxt, []).append(node)
    needed, todo = set(), list(targets)  # walk the edges backwards from the targets: whoever reaches one is needed
    while todo:
        for user in users.get(todo.pop(), ()):
            if user not in needed:
                needed.add(user)
                todo.append(user)
    return needed | targets if accumulate else needed
