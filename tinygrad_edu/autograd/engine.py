"""The engine: runs the backward graph from the roots to the leaves.

The algorithm, in four steps (PyTorch's engine does the same, in C++ and on many threads):

1. **Count dependencies.** Walk the graph from the roots once (iteratively: a 100 000-op chain is
   fine) and count, for every node, how many edges lead into it.
2. **Start with the roots' gradients** (``gradient``, or 1 for a scalar) in their input buffers.
3. **Run a node when all its gradients have arrived** (its count reached 0). Among the nodes that are
   ready, run the newest first (highest ``_sequence_nr``), which is PyTorch's order. A node's ``apply``
   turns d(root)/d(its outputs) into d(root)/d(its inputs); each goes into the buffer of the node on
   the matching edge, where gradients arriving from several paths are *summed*.
4. **Free each node's saved tensors** after it ran, unless ``retain_graph``.

``AccumulateGrad`` nodes (leaves) add what reaches them into ``.grad``. ``autograd.grad`` instead
*captures* the gradient arriving at each input and leaves ``.grad`` alone.
"""

from __future__ import annotations

import heapq
import os
import sys
import traceback
import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .._tensor import Tensor, _wrap, warn_once
from .function import BackwardCFunction, restore_float_errors, silence_float_errors, unsilenced
from .grad_mode import GradMode
from .graph import AccumulateGrad, Node, check_hook_grad, check_node_hook_grads, gradient_edge

Edge = tuple[Node, int]


def _as_tuple(x: Any) -> tuple:
    if x is None:
        return ()
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _make_grads(outputs: tuple[Tensor, ...], grads: tuple) -> list[Tensor]:
    """The starting gradients: given ones are checked against their output's shape; None means 1.

    As in PyTorch, outputs and gradients are paired with ``zip``: extra gradients are ignored, too few
    is an error (reported after the pairs have been checked).
    """
    result = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if out._requires_grad and out._array.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            # (An output that needs no grad, e.g. an integer tensor, gets its error when the graph is entered:
            # "element 0 of tensors does not require grad ...", as in PyTorch.)
            g = _wrap(np.ones_like(out._array))
        elif not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
        elif g._array.shape != out._array.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] has a "
                               f"shape of {out.shape}.")
        result.append(g)
    if len(result) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(result)} gradients")
    return result


def _root_edges(outputs: tuple[Tensor, ...]) -> list[Edge]:
    edges = []
    for i, t in enumerate(outputs):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(gradient_edge(t))
    return edges


def backward(tensors: Tensor | Sequence[Tensor], grad_tensors: Tensor | Sequence[Tensor | None] | None = None,
             retain_graph: bool | None = None, create_graph: bool = False, grad_variables: Any = None,
             inputs: Tensor | Sequence[Tensor] | None = None) -> None:
    """Accumulate d(tensors)/d(leaves), weighted by ``grad_tensors``, into the leaves' ``.grad``.

    ``autograd.backward(z)`` is ``z.backward()``. With ``inputs``, only those tensors get ``.grad``.
    """
    outputs = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) if grad_tensors is not None else (None,) * len(outputs)
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    if retain_graph is None:
        retain_graph = create_graph
    root_grads = _make_grads(outputs, grads)
    roots = _root_edges(outputs)
    if create_graph:  # x.grad then holds a graph that leads back to x: a cycle only the garbage collector frees
        warn_once("create_graph", "Using backward() with create_graph=True will create a reference cycle between the "
                  "parameter and its gradient which can cause a memory leak. We recommend using autograd.grad when "
                  "creating the graph to avoid this. If you have to use this function, make sure to reset the .grad "
                  "fields of your parameters to None after use to break the cycle and avoid the leak.")
    if inputs is None:
        run_backward(roots, root_grads, retain_graph, create_graph)
        return
    # Only the given inputs get .grad: leaves through their AccumulateGrad; any other input is made to
    # retain its grad (for good, as in PyTorch; a tensor that needs no grad cannot, and raises).
    for t in inputs:
        if t.grad_fn is not None or not t._requires_grad:
            t.retain_grad()
    run_backward(roots, root_grads, retain_graph, create_graph, capture=[gradient_edge(t) for t in inputs],
                 accumulate=True)


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
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use tinygrad_edu.autograd.backward.",
                      FutureWarning, stacklevel=2)
    if is_grads_batched:
        return _grad_batched(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                             materialize_grads)
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    outs = _as_tuple(outputs)
    ins = _as_tuple(inputs)
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outs)
    if retain_graph is None:
        retain_graph = create_graph
    root_grads = _make_grads(outs, grads)
    roots = _root_edges(outs)
    for t in ins:
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    captured = run_backward(roots, root_grads, retain_graph, create_graph,
                            capture=[gradient_edge(t) for t in ins], accumulate=False)
    result = []
    for i, (t, g) in enumerate(zip(ins, captured)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the "
                                   "graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                g = _wrap(np.zeros_like(t._array))
        result.append(g)
    return tuple(result)


def _grad_batched(outputs: Tensor | Sequence[Tensor], inputs: Tensor | Sequence[Tensor], grad_outputs: Any,
                  retain_graph: bool | None, create_graph: bool, allow_unused: bool | None,
                  materialize_grads: bool) -> tuple[Tensor | None, ...]:
    """``grad(..., is_grads_batched=True)``: dimension 0 of each ``grad_outputs`` tensor is a batch of vectors,
    and the result stacks one vector-Jacobian product per vector: ``grad(y, x, torch.eye(n),
    is_grads_batched=True)`` is the whole Jacobian of y in one call. PyTorch vectorizes the batch (vmap); here
    it is one backward pass per vector, keeping the graph for the next one."""
    from ..ops.shape import stack  # (ops sit above autograd in the package's layers: imported when used)

    batches = _as_tuple(grad_outputs) if grad_outputs is not None else ()
    if len(batches) != len(_as_tuple(outputs)) or not all(isinstance(b, Tensor) and b.dim() > 0 for b in batches):
        raise RuntimeError("is_grads_batched=True needs grad_outputs: for each output, a tensor whose first "
                           "dimension is the batch (e.g. torch.eye(n) for all n rows of a Jacobian)")
    n = batches[0].shape[0]
    rows = [grad(outputs, inputs, [b[k] for b in batches], retain_graph=retain_graph if k == n - 1 else True,
                 create_graph=create_graph, allow_unused=allow_unused, materialize_grads=materialize_grads)
            for k in range(n)]
    return tuple(None if rows[0][j] is None else stack([row[j] for row in rows]) for j in range(len(rows[0])))


def _walk(roots: list[Edge]) -> tuple[dict[Node, int], list[Node]]:
    """Step 1: dependency counts for every node reachable from the roots, and the nodes in topological order."""
    deps: dict[Node, int] = {}
    order: list[Node] = []
    stack = []
    for node, _ in roots:
        if node not in deps:
            deps[node] = 0
            stack.append(node)
    while stack:  # an explicit stack, not recursion: depth is unlimited
        node = stack.pop()
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            if nxt in deps:
                deps[nxt] += 1
            else:
                deps[nxt] = 1
                stack.append(nxt)
    return deps, order


def _needed(order: list[Node], targets: set[Node]) -> set[Node]:
    """Nodes from which some target can be reached: the only ones worth running when inputs are given."""
    needed: set[Node] = set()
    changed = True
    while changed:  # converges in a pass or two on DAGs listed roots-first; cheap compared with running them
        changed = False
        for node in reversed(order):
            if node in needed:
                continue
            if any(n is not None and (n in needed or n in targets) for n, _ in node.next_functions):
                needed.add(node)
                changed = True
    return needed


def run_backward(roots: list[Edge], root_grads: list[Tensor], retain_graph: bool, create_graph: bool,
                 capture: list[Edge] | None = None, accumulate: bool = True,
                 trace: BackwardTrace | None = None) -> list[Tensor | None]:
    """Run the graph. Returns the gradients captured at the ``capture`` edges (autograd.grad's inputs).

    ``trace`` (default: the one ``with trace_backward()`` opened, if any) gets one step per node run.
    """
    if trace is None:
        trace = _active_trace
    deps, order = _walk(roots)
    needed = None
    captures: dict[Edge, list[int]] = {}
    captured: list[Tensor | None] = []
    if capture is not None:
        for i, edge in enumerate(capture):
            captures.setdefault(edge, []).append(i)
        captured = [None] * len(capture)
        targets = {node for node, _ in capture}
        needed = _needed(order, targets)
        if accumulate:  # backward(inputs=...): leaves among the inputs still accumulate into .grad
            needed |= {node for node in targets if isinstance(node, AccumulateGrad)}
        elif not needed and not any(node in deps for node in targets):
            return captured

    buffers: dict[Node, list] = {}
    for (node, nr), g in zip(roots, root_grads):
        buf = buffers.get(node) or buffers.setdefault(node, [None] * node._num_outputs)
        buf[nr] = g if buf[nr] is None else buf[nr] + g

    heap: list = []
    tick = 0
    for node, count in deps.items():
        if count == 0:
            heap.append((-node._seq, tick, node))
            tick += 1
    heapq.heapify(heap)

    run_all = needed is None and accumulate  # (the usual backward(): every node runs)
    prev_mode = GradMode.enabled
    GradMode.enabled = create_graph  # backward formulas are recorded only when create_graph=True
    float_errors = silence_float_errors()  # once for the whole pass, not in each op of each formula
    try:
        while heap:
            node = heapq.heappop(heap)[2]
            grads = buffers.pop(node, None) or [None] * node._num_outputs
            if node._tensor_pre_hooks or node._retain_grad:  # (checked here: most nodes have none)
                grads = _call_tensor_hooks(node, grads)
            if captures:
                for nr, g in enumerate(grads):
                    for i in captures.get((node, nr), ()):
                        captured[i] = g if captured[i] is None else captured[i] + g
            run = run_all or ((needed is None or node in needed)
                              and (accumulate or not isinstance(node, AccumulateGrad)))
            inputs: tuple = ()
            if run and _any_gradient(grads):
                inputs = _call_node(node, grads)
                if trace is not None:  # (one check per node; nothing more unless trace_backward() is on)
                    trace.record(node, grads, inputs, retain_graph)
                if not retain_graph:
                    node._release_variables()
            for i, (nxt, nr) in enumerate(node.next_functions):
                if nxt is None:
                    continue
                g = inputs[i] if i < len(inputs) else None
                if g is not None:
                    buf = buffers.get(nxt)
                    if buf is None:
                        buf = buffers[nxt] = [None] * nxt._num_outputs
                    buf[nr] = g if buf[nr] is None else _sum_gradients(buf[nr], g, create_graph)
                    g = None  # the buffer holds it now: no stray reference (AccumulateGrad counts them)
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(heap, (-nxt._seq, tick, nxt))
                    tick += 1
    finally:
        restore_float_errors(float_errors)
        GradMode.enabled = prev_mode
    return captured


def _any_gradient(grads: list) -> bool:
    """Did any gradient reach this node? (A plain loop: cheaper than ``any()`` over a generator, and
    this runs once per node.)"""
    for g in grads:  # noqa: SIM110  (see above: deliberately not any())
        if g is not None:
            return True
    return False


def _sum_gradients(a: Tensor, b: Tensor, create_graph: bool) -> Tensor:
    """Two gradients for one output arrived by different paths: the gradient is their sum.

    Without create_graph the sum is not recorded, so when both have the same shape and dtype (they do,
    unless a hook changed one) numpy adds them directly: a tensor ``a + b`` would give the same numbers
    after the dispatch every op pays. This happens once per extra use of a tensor, e.g. of each weight.
    """
    if not create_graph and a._array.shape == b._array.shape and a._array.dtype == b._array.dtype:
        return _wrap(a._array + b._array)  # (inf + -inf is nan, silently as in PyTorch: see silence_float_errors)
    return a + b


def _call_tensor_hooks(node: Node, grads: list) -> list:
    """Hooks registered on the tensors this node produced (register_hook, retain_grad)."""
    hooks = node._tensor_pre_hooks
    if hooks:
        for nr, fns in hooks.items():
            for fn in list(fns):
                if grads[nr] is not None:
                    new = unsilenced(fn, grads[nr])
                    if new is not None:
                        grads[nr] = check_hook_grad(fn, grads[nr], new)
    if node._retain_grad:
        for nr, ref in node._retain_grad.items():
            t, g = ref(), grads[nr]
            if t is not None and g is not None:
                t._grad = _wrap(g._array.copy()) if t._grad is None and not GradMode.enabled else \
                    (g if t._grad is None else t._grad + g)
    return grads


def _call_node(node: Node, grads: list) -> tuple:
    if GradMode.anomaly:
        return _call_node_reporting(node, grads)
    return _run_node(node, grads)


def _call_node_reporting(node: Node, grads: list) -> tuple:
    """Anomaly detection: if the node fails (or, with check_nan, returns nan), show where its forward ran,
    then let the error go on."""
    try:
        inputs = _run_node(node, grads)
        if GradMode.anomaly_check_nan:
            for i, g in enumerate(inputs):
                if g is not None and np.isnan(g._array).any():
                    raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
        return inputs
    except Exception:
        stack = getattr(node, "_forward_stack", None)
        if stack:  # the learner's lines only: frames inside tinygrad_edu would hide them
            package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            user = [frame for frame in stack if not os.path.abspath(frame.filename).startswith(package + os.sep)]
            warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
                          + "".join(traceback.format_list(user)), UserWarning, stacklevel=2)
        raise


def _run_node(node: Node, grads: list) -> tuple:
    if node._pre_hooks:
        for fn in list(node._pre_hooks):
            new = unsilenced(fn, tuple(grads))
            if new is not None:
                grads = list(check_node_hook_grads(fn, tuple(grads), new))
    if isinstance(node, BackwardCFunction):
        inputs = _call_function_node(node, grads)
    elif type(node) is AccumulateGrad:
        unshared = _unshared(grads)  # (asked first: an argument list under way holds a reference too)
        inputs = node.accumulate(grads[0], unshared)
    else:
        inputs = node.apply(*grads)
    if node._post_hooks:
        for fn in list(node._post_hooks):
            new = unsilenced(fn, inputs, tuple(grads))
            if new is not None:
                inputs = check_node_hook_grads(fn, inputs, new)
    return inputs


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
    gradient: then an AccumulateGrad may keep it as ``.grad`` without copying (``AccumulateGrad.accumulate``).
    Anybody else's reference (a hook that kept it, the caller's own ``gradient`` tensor, another tensor over
    the same memory) shows in the reference counts. Each count below lists the holders expected."""
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


def _call_function_node(node: BackwardCFunction, grads: list) -> tuple:
    """Run a Function's backward: fill in missing output gradients, then check what it returned."""
    if len(grads) > 1 and node.materialize_grads and any(g is None for g in grads):
        grads = [_wrap(np.zeros(shape, dtype)) if g is None else g
                 for g, (shape, dtype) in zip(grads, node._output_meta)]
    if not node._check_shapes:  # a built-in op: one gradient per forward argument, to keep for the tensors
        result = node.apply(*grads)
        is_tensor = node._input_is_tensor
        if is_tensor is None:  # every argument was a tensor (a formula may add trailing Nones: dropped)
            n = len(node.next_functions)
            return result if len(result) == n else result[:n]
        return tuple([g for g, tensor_arg in zip(result, is_tensor) if tensor_arg])
    result = unsilenced(node.apply, *grads)  # a learner's Function: their code, run with their numpy settings
    is_tensor = node._input_is_tensor or (True,) * len(node.next_functions)
    if len(result) != len(is_tensor):
        if len(result) > len(is_tensor) and all(g is None for g in result[len(is_tensor):]):
            result = result[:len(is_tensor)]
        else:
            raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients "
                               f"(expected {len(is_tensor)}, got {len(result)})")
    inputs = []
    for i, (g, tensor_arg) in enumerate(zip(result, is_tensor)):
        if not tensor_arg:
            if g is not None:
                raise RuntimeError(f"function {node.name()} returned a gradient different than None at position "
                                   f"{i + 1}, but the corresponding forward input was not a Variable")
            continue
        if g is not None and node._check_shapes:
            g = _check_grad(node, len(inputs), g)
        inputs.append(g)
    return tuple(inputs)


def _check_grad(node: BackwardCFunction, index: int, g: Any) -> Tensor:
    """A custom backward's gradient must have its input's shape (or broadcast to it, then it is summed)."""
    if not isinstance(g, Tensor):
        raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
    shape, dtype = node._input_meta[index]
    if g._array.shape != shape:
        from ..ops.shape import sum_to

        try:
            np.broadcast_shapes(g._array.shape, shape)
            ok = np.broadcast_shapes(g._array.shape, shape) == g._array.shape
        except ValueError:
            ok = False
        if not ok:
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {index} - got "
                               f"[{', '.join(map(str, g._array.shape))}] but expected shape compatible with "
                               f"[{', '.join(map(str, shape))}]")
        g = sum_to(g, shape)
    if g._array.dtype != dtype:
        g = g.to(dtype)
    return g


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
    out = [None if g is None else _wrap(g._array.copy()) for g in grads]
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
                                 None if grad is None else _wrap(grad._array.copy())))


_active_trace: BackwardTrace | None = None


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
        return self.steps

    def __exit__(self, *exc: object) -> None:
        global _active_trace
        _active_trace = self._outer
