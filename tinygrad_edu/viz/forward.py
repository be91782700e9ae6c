"""``draw_graph``: the computation as you would draw it on paper, tensors and the operations between them.

``make_dot`` shows the *backward* graph, the nodes backward will run. This is the *forward* view of the same
graph: every tensor is a box with its name, shape, value (when small) and ``.grad`` (once computed), and every
operation a small oval between its inputs and its result::

    x ──> (*) ──> y ──> (*) ──> z          y = 2 * x;  z = y * y

* leaves (requires_grad=True, made by you, not by an op): light blue. Backward fills their ``.grad``.
* intermediate results: white. Their ``.grad`` stays None unless you call ``retain_grad()``.
* the root, the tensor you call backward on: green.
* inputs that need no gradient (``requires_grad=False``): grey and dashed. They get no node in the backward
  graph (``None`` in ``next_functions``), but an op may have saved their value to compute other gradients.

Intermediate tensors are not stored in the graph (a node never holds its own output: that would make a
reference cycle), so name the ones you want to see: ``draw_graph(z, params={"x": x, "y": y})``, or simply
``draw_graph(z, params=locals())``. Unnamed intermediates are drawn as small empty circles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._tensor import Tensor
from ..autograd.graph import AccumulateGrad, Node
from .diagram import (
    LEAF,
    NO_GRAD,
    OUTPUT,
    Diagram,
    Ids,
    op_short_name,
    outputs_of,
    saved_attributes,
    saved_tensors_of,
    shape_str,
    tensor_names,
    value_str,
    with_prefix,
)

# How an op is written on paper; others are written by name (``mean``, ``exp``...).
SYMBOLS = {"Add": "+", "Sub": "−", "Rsub": "−", "Mul": "×", "Div": "÷", "Neg": "−", "Pow": "**",
           "Mm": "@", "Mv": "@", "Dot": "@", "Bmm": "@", "Addmm": "@ +"}

LEGEND = ("blue: leaves (requires_grad=True)   white: intermediate results   green: root   "
          "grey, dashed: requires_grad=False")

_BOX = {"shape": "box", "style": "filled,rounded"}
_STYLES = {
    "leaf": {**_BOX, "fillcolor": LEAF},
    "intermediate": {**_BOX, "fillcolor": "white"},
    "root": {**_BOX, "fillcolor": OUTPUT, "penwidth": "2"},
    "no_grad": {"shape": "box", "style": "filled,rounded,dashed", "fillcolor": NO_GRAD, "fontcolor": "gray40",
                "color": "gray60"},
    "unnamed": {"shape": "circle", "label": "", "width": "0.15", "style": "filled", "fillcolor": "white",
                "tooltip": "an intermediate tensor: name it in params to see it"},
}


def draw_graph(output: Tensor | tuple[Tensor, ...], params: Mapping[str, Any] | None = None,
               label: str | None = None) -> Diagram:
    """Draw the forward computation that produced ``output``: tensors as boxes, ops between them.

    Args:
        output: the root tensor (or a tuple of them).
        params: names for the tensors you want to see, ``{"x": x, "y": y}``, or ``locals()``: entries that are
            not tensors, and names starting with ``_``, are skipped.
        label: the name shown for ``output`` when ``params`` does not name it (default ``"output"``).
    """
    outputs = outputs_of(output, "draw_graph")
    drawing = _ForwardDrawing(tensor_names(params, strict=False, who="draw_graph"), params)
    for t in outputs:
        drawing.add_root(t, label or "output")
    return drawing.dot


_NOT_NUMBERS = ("[saved tensor]", "[saved tensors]", "[freed]", "[modified in place]")


def _saved_names(node: Node) -> tuple[str, ...]:
    """The names of a built-in node's saved tensors, in the order it saved them (``("self", "other")``)."""
    return getattr(getattr(type(node), "_forward_cls", None), "saved_names", ())


class _ForwardDrawing:
    def __init__(self, names: dict[int, str], params: Mapping[str, Any] | None) -> None:
        self.dot = Diagram(name="forward_graph",
                           graph_attr={"rankdir": "LR", "label": LEGEND, "fontsize": "9", "fontcolor": "gray30"},
                           node_attr={"fontname": "monospace", "fontsize": "10", "height": "0.3"})
        self.ids = Ids()
        self.names = names
        self.drawn: set[Any] = set()  # DOT names of what is drawn, and (name, "from") once its op's edge is
        # The named tensors that an op produced, by (node, output number): how a node finds its output.
        self.results: dict[tuple[int, int], Tensor] = {}
        for value in (params or {}).values():
            if isinstance(value, Tensor) and value.grad_fn is not None and id(value) in names:
                self.results.setdefault((id(value.grad_fn), value.output_nr), value)
        self.roots: set[int] = set()

    def add_root(self, t: Tensor, label: str) -> None:
        self.roots.add(id(t))
        if id(t) not in self.names:
            self.names[id(t)] = label
        if t.grad_fn is None:  # nothing computed it: a lone leaf (or a tensor that needs no grad)
            self._tensor(t, "root")
            return
        self.results[(id(t.grad_fn), t.output_nr)] = t
        self._result(t.grad_fn, t.output_nr)
        self._walk(t.grad_fn)

    def _walk(self, root: Node) -> None:
        """Every op reachable from ``root`` (iteratively: a graph may be very deep), inputs first-to-last."""
        stack = [root]
        seen: set[int] = set()
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            op = self._op(node)
            no_grad = self._no_grad_inputs(node)
            for i, (child, nr) in enumerate(node.next_functions):
                if child is None:
                    tid = no_grad[i]
                elif isinstance(child, AccumulateGrad):
                    tid = self._tensor(child.variable, "leaf")
                else:
                    tid = self._result(child, nr)
                self.dot.edge(tid, op)
            stack.extend(reversed([c for c, _ in node.next_functions
                                   if c is not None and not isinstance(c, AccumulateGrad)]))

    def _op(self, node: Node) -> str:
        oid = self.ids(node)
        short = op_short_name(node)
        lines = [SYMBOLS.get(short, short.lower()), type(node).__name__]
        tensor_slots = _saved_names(node)
        lines += [f"{key}={value}" for key, value in saved_attributes(node)  # numbers such as exponent=2
                  if key not in tensor_slots and value not in _NOT_NUMBERS]
        self.dot.node(oid, "\n".join(lines), shape="ellipse", fontsize="9", margin="0.02")
        return oid

    def _result(self, node: Node, nr: int) -> str:
        """The tensor that output ``nr`` of ``node`` is: a named one, or an empty circle; linked from the op."""
        t = self.results.get((id(node), nr))
        if t is not None:
            tid = self._tensor(t, "root" if id(t) in self.roots else "intermediate")
        else:
            tid = self.ids(node, ("output", nr))
            if tid not in self.drawn:
                self.drawn.add(tid)
                self.dot.node(tid, **_STYLES["unnamed"])
        if (tid, "from") not in self.drawn:
            self.drawn.add((tid, "from"))
            self.dot.edge(self.ids(node), tid)
        return tid

    def _no_grad_inputs(self, node: Node) -> dict[int, str]:
        """A box for each input of ``node`` that needs no grad (``None`` in next_functions).

        Its value is known only if the op saved it (``x * y`` saves y to compute x's gradient); the saved
        tensors that need no grad are matched to these inputs in order, when their numbers agree.
        """
        slots = [i for i, (child, _) in enumerate(node.next_functions) if child is None]
        if not slots:
            return {}
        order = {name: i for i, name in enumerate(_saved_names(node))}  # the order they were saved in
        saved = [t for _, t in sorted(saved_tensors_of(node), key=lambda pair: order.get(pair[0], len(order)))
                 if isinstance(t, Tensor) and not t.requires_grad]
        boxes = {}
        for k, i in enumerate(slots):
            if len(saved) == len(slots):
                boxes[i] = self._tensor(saved[k], "no_grad")
            else:  # not saved (x + y needs no value of y), or freed: we know only that something was there
                tid = boxes[i] = self.ids(node, ("input", i))
                freed = "\n(value freed by backward)" if node._freed else ""
                self.dot.node(tid, "requires_grad=False" + freed, **_STYLES["no_grad"])
        return boxes

    def _tensor(self, t: Tensor, kind: str) -> str:
        tid = self.ids(t)
        if tid in self.drawn:
            return tid
        self.drawn.add(tid)
        lines = [self.names[id(t)]] if id(t) in self.names else []
        lines.append(shape_str(t))
        value = value_str(t)
        if value is not None:
            lines += value.split("\n")
        if t._grad is not None:  # (read directly: .grad of a non-leaf warns; here it was retained on purpose)
            lines += with_prefix("grad", value_str(t._grad) or shape_str(t._grad))
        self.dot.node(tid, "\n".join(lines), **_STYLES[kind])
        return tid
