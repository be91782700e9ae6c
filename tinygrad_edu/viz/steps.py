"""The frames of :class:`~tinygrad_edu.viz.BackwardStepper`: the backward graph, drawn once per engine step.

Nothing here simulates backward. :class:`BackwardFilm` runs the real ``autograd.backward`` inside
``autograd.trace_backward()``, which records each node the engine runs, in the engine's order, with the
gradients it received and sent, the hooks that ran and whether its saved tensors were freed. Frame ``k``
draws the graph as it is after ``k`` steps (frame 0: before backward):

* boxes that have run are grey, with the step they ran at; the one running now is gold;
* edges are labelled with the gradient that went up them (its numbers, for small tensors), in red for
  the step running now; the arrows point the way gradients flow, from the output to the leaves;
* each leaf shows its ``.grad`` as it is at that moment (a copy taken when its AccumulateGrad ran);
* saved tensors (orange) turn into dashed "freed" boxes when backward frees them (unless retain_graph).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._tensor import Tensor, _wrap
from ..autograd.engine import BackwardStep, backward, trace_backward
from ..autograd.graph import AccumulateGrad, Node
from .diagram import (
    LEAF,
    OUTPUT,
    SAVED,
    Diagram,
    Ids,
    Unreadable,
    grad_text,
    outputs_of,
    saved_tensors_of,
    shape_str,
    tensor_names,
    with_prefix,
    wrap_caption,
)
from .dot import FREED_STYLE, NODE_STYLE

PENDING, DONE, CURRENT = "white", "gray80", "gold"
NOW = "red"  # what the current step does


class BackwardFilm:
    """Run backward on ``output`` while recording it; then :meth:`diagram` draws the graph after any step.

    Args:
        output: the tensor (or tuple of tensors) to call backward on.
        gradient: as in ``output.backward(gradient)``: needed when output is not a scalar.
        retain_graph, inputs: as in ``backward``.
        params: names for the leaves, ``{"x": x}`` (or ``locals()``).
    """

    def __init__(self, output: Tensor | Sequence[Tensor], gradient: Tensor | Sequence[Tensor] | None = None,
                 retain_graph: bool | None = None, inputs: Tensor | Sequence[Tensor] | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        self.outputs = outputs_of(output, "BackwardStepper")
        self.names = tensor_names(params, strict=False, who="BackwardStepper")
        self.retain_graph = bool(retain_graph)
        self._graph = _Graph(self.outputs)  # drawn before backward: it frees the saved tensors we show
        self._grads_before = {id(node): _copy(node.variable._grad) for node in self._graph.nodes
                              if isinstance(node, AccumulateGrad)}
        with trace_backward() as steps:
            backward(output, gradient, retain_graph=retain_graph, inputs=inputs)
        #: what the engine did, one :class:`~tinygrad_edu.autograd.BackwardStep` per node it ran, in its order
        self.steps: tuple[BackwardStep, ...] = tuple(steps)
        self._html: dict[int, str] = {}

    def __len__(self) -> int:
        """The number of steps (frames are 0 .. len)."""
        return len(self.steps)

    def html(self, k: int) -> str:
        """Frame ``k`` as HTML (an inline SVG), drawn once and remembered."""
        if k not in self._html:
            self._html[k] = self.diagram(k).html()
        return self._html[k]

    def diagram(self, k: int) -> Diagram:
        """The graph after ``k`` steps of backward (0: before it starts), with a caption saying what step k did."""
        if not 0 <= k <= len(self.steps):
            raise IndexError(f"step {k} is out of range: this backward has steps 0 (before it) to {len(self.steps)}")
        graph, ids = self._graph, self._graph.ids
        last_run = {}  # node id -> the latest step (1-based) at which it ran, up to k
        for j, step in enumerate(self.steps[:k], start=1):
            last_run[id(step.node)] = j
        current = self.steps[k - 1] if k else None
        dot = Diagram(name="backward_steps", node_attr=NODE_STYLE, edge_attr={"fontname": "monospace"},
                      graph_attr={"label": wrap_caption(self.caption(k)), "labelloc": "t", "labeljust": "l",
                                  "fontname": "monospace", "fontsize": "10"})
        for t in self.outputs:
            dot.node(ids(t), self._tensor_label(t, with_grad=False), fillcolor=OUTPUT)
        for node in graph.nodes:
            j = last_run.get(id(node))
            step = self.steps[j - 1] if j else None
            now = current is not None and current.node is node
            self._draw_node(dot, node, step, j, now)
        for child, node, i in graph.edges:  # child -> node, as make_dot draws them; arrows show gradients going up
            j = last_run.get(id(node))
            dot.edge(ids(child), ids(node), **_flow(self.steps[j - 1].grad_inputs[i] if j else _NOT_YET, j == k))
        for node, t in graph.output_edges:  # where backward starts: 1 for a scalar, or backward's gradient argument
            j = last_run.get(id(node))
            dot.edge(ids(node), ids(t), **_flow(self.steps[j - 1].grad_outputs[t.output_nr] if j else _NOT_YET, j == k))
        return dot

    def _draw_node(self, dot: Diagram, node: Node, step: BackwardStep | None, j: int | None, now: bool) -> None:
        ids = self._graph.ids
        lines = [type(node).__name__]
        if step is not None:
            lines.append(f"step {j}")
            lines += [f"hook {_hook_name(fn)} ran" for fn in step.hooks]
        fill = CURRENT if now else DONE if step is not None else PENDING
        dot.node(ids(node), "\n".join(lines), fillcolor=fill, **({"penwidth": "2", "color": NOW} if now else {}))
        if isinstance(node, AccumulateGrad):
            leaf = node.variable
            grad = step.grad if step is not None else self._grads_before[id(node)]
            dot.node(ids(leaf), self._tensor_label(leaf, grad=grad), fillcolor=LEAF,
                     **({"penwidth": "2", "color": NOW} if now else {}))
            dot.edge(ids(leaf), ids(node), dir="none")
        for name, shape in self._graph.saved[id(node)]:
            sid = ids(node, name)
            if step is not None and step.released:
                dot.node(sid, f"{name}\n(freed)", **FREED_STYLE)
            elif isinstance(shape, Unreadable):  # already unreadable before this backward
                dot.node(sid, f"{name}\n({shape.why})", **FREED_STYLE)
            else:
                dot.node(sid, f"{name}\n{shape}", fillcolor=SAVED)
            dot.edge(ids(node), sid, dir="none", color="gray60")

    def _tensor_label(self, t: Tensor, with_grad: bool = True, grad: Tensor | None = None) -> str:
        lines = [self.names[id(t)]] if id(t) in self.names else []
        lines.append(shape_str(t))
        if with_grad:
            lines += with_prefix("grad", grad_text(grad))
        return "\n".join(lines)

    # -- captions ----------------------------------------------------------------------------------------
    def caption(self, k: int) -> str:
        """What step ``k`` did, in words, one fact a line (step 0: what is about to happen)."""
        n = len(self.steps)
        if k == 0:
            return (f"Step 0 of {n}: before backward. The engine will run {n} nodes, one per step, each once all "
                    "its gradients have arrived.\nGold: the node running now. Grey: done. Red: the gradients it "
                    "sends now.")
        step = self.steps[k - 1]
        node = step.node
        lines = [f"Step {k} of {n}: {type(node).__name__} runs."]
        arrivals = self._arrivals(k)
        for nr, g in enumerate(step.grad_outputs):
            came = arrivals.get(nr, [])
            if len(came) > 1:
                lines.append(f"  {len(came)} gradients arrived by different paths and were summed: "
                             + " + ".join(_flat(grad_text(c)) for c in came))
            if g is not None:
                where = " (where backward starts)" if not came and any(e[0] is node for e in self._graph.output_edges) \
                    else ""
                lines.append(f"  received{where}: {_flat(grad_text(g))}")
        if step.hooks:
            lines.append("  hooks that ran: " + ", ".join(_hook_name(fn) for fn in step.hooks))
        if isinstance(node, AccumulateGrad):
            before = self._grad_before_step(k)
            lines.append(f"  {self._leaf_name(node.variable)}.grad is now {_flat(grad_text(step.grad))} "
                         f"(it was {_flat(grad_text(before))})")
        for i, ((child, _), g) in enumerate(zip(node.next_functions, step.grad_inputs)):
            if child is None:
                lines.append(f"  input {i} needs no gradient: nothing is sent to it")
            else:
                lines.append(f"  sends {_flat(grad_text(g))} to {self._node_name(child)} (input {i})")
        saved = self._graph.saved[id(node)]
        if saved and step.released:
            lines.append(f"  frees its saved tensors: {', '.join(name for name, _ in saved)}")
        elif saved and self.retain_graph:
            lines.append("  keeps its saved tensors (retain_graph=True): backward can run through it again")
        if k == n:
            lines.append("Backward is done.")
        return "\n".join(lines)

    def _arrivals(self, k: int) -> dict[int, list[Tensor]]:
        """The gradients sent to step k's node since it last ran, by output number: more than one means the
        node's output was used more than once (y * y, a shared subexpression), and the engine summed them."""
        node = self.steps[k - 1].node
        start = max((j for j in range(k - 1) if self.steps[j].node is node), default=-1) + 1
        arrivals: dict[int, list[Tensor]] = {}
        for step in self.steps[start:k - 1]:
            for (child, nr), g in zip(step.node.next_functions, step.grad_inputs):
                if child is node and g is not None:
                    arrivals.setdefault(nr, []).append(g)
        return arrivals

    def _grad_before_step(self, k: int) -> Tensor | None:
        """The leaf's .grad just before step k (an AccumulateGrad step) added into it."""
        node = self.steps[k - 1].node
        earlier = [s for s in self.steps[:k - 1] if s.node is node]
        return earlier[-1].grad if earlier else self._grads_before.get(id(node))

    def _leaf_name(self, t: Tensor) -> str:
        return self.names.get(id(t)) or f"the leaf of shape {shape_str(t)}"

    def _node_name(self, node: Node) -> str:
        if isinstance(node, AccumulateGrad):
            return f"AccumulateGrad ({self._leaf_name(node.variable)})"
        return type(node).__name__


class _Graph:
    """The backward graph behind the outputs, walked once, in the order make_dot draws it."""

    def __init__(self, outputs: tuple[Tensor, ...]) -> None:
        self.ids = Ids()
        self.nodes: list[Node] = []
        self.edges: list[tuple[Node, Node, int]] = []  # (child, node, input number of node)
        self.output_edges: list[tuple[Node, Tensor]] = []
        self.saved: dict[int, list[tuple[str, Any]]] = {}  # node id -> (name, shape or Unreadable) of what it saved
        for t in outputs:
            self.ids(t)
            if t.grad_fn is not None:
                self._walk(t.grad_fn)
                self.output_edges.append((t.grad_fn, t))

    def _walk(self, root: Node) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            if id(node) in self.saved:
                continue
            self.ids(node)
            self.nodes.append(node)
            self.saved[id(node)] = [(name, t if isinstance(t, Unreadable) else shape_str(t))
                                    for name, t in saved_tensors_of(node)]  # (not the tensors: no need to keep them)
            children = []
            for i, (child, _) in enumerate(node.next_functions):
                if child is not None:
                    self.edges.append((child, node, i))
                    children.append(child)
            stack.extend(reversed(children))


_NOT_YET = object()  # no gradient has gone along this edge yet


def _flow(g: Any, now: bool) -> dict[str, str]:
    """How an edge looks: grey until a gradient goes along it, then labelled with it (in red at that step;
    dotted when the gradient was None). ``dir=back`` turns the arrow the way gradients flow."""
    if g is _NOT_YET:
        return {"dir": "back", "color": "gray70"}
    attrs = {"dir": "back", "label": " " + grad_text(g), "fontsize": "9", "color": NOW if now else "gray30",
             "fontcolor": NOW if now else "black"}
    if now:
        attrs["penwidth"] = "2"
    if g is None:
        attrs["style"] = "dotted"
    return attrs


def _copy(t: Tensor | None) -> Tensor | None:
    return None if t is None else _wrap(t._array.copy())


def _flat(text: str) -> str:
    """A matrix's rows on one line, for captions."""
    return text.replace("\n", "")


def _hook_name(fn: Any) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__
