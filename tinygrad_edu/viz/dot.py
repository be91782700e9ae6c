"""``make_dot``: the backward graph behind a tensor, drawn as torchviz draws PyTorch's.

The picture, top to bottom, follows the forward pass (edges go from inputs towards the output) but shows
what backward will walk: one grey box per node, named as its ``grad_fn`` is (``MulBackward0``), an
``AccumulateGrad`` box above every leaf that requires grad, and the tensors themselves:

* light blue: leaves that require grad, named by ``params`` (their ``.grad`` is what backward fills);
* green: the output(s) you drew; a darker green for the base tensor of an output that is a view;
* orange: tensors saved for backward (``show_saved=True``; always for the Functions you write).
"""

from __future__ import annotations

from collections.abc import Mapping

from .._tensor import Tensor
from ..autograd.graph import AccumulateGrad, Node
from .diagram import (
    BASE,
    LEAF,
    OUTPUT,
    SAVED,
    Diagram,
    Ids,
    Unreadable,
    is_user_function,
    outputs_of,
    saved_attributes,
    saved_tensors_of,
    shape_str,
    tensor_names,
)

NODE_STYLE = {"style": "filled", "shape": "box", "fontsize": "10", "height": "0.2", "fontname": "monospace"}
FREED_STYLE = {"style": "filled,dashed", "fillcolor": "white", "fontcolor": "gray40"}


def make_dot(var: Tensor | tuple[Tensor, ...], params: Mapping[str, Tensor] | None = None, show_attrs: bool = False,
             show_saved: bool = False, max_attr_chars: int = 50) -> Diagram:
    """Draw the backward graph behind ``var`` (a tensor, or a tuple of tensors): torchviz's ``make_dot``.

    Args:
        var: the output tensor, or a tuple of outputs drawn together.
        params: ``{name: tensor}`` naming the leaves, e.g. ``dict(model.named_parameters())``.
        show_attrs: show each node's non-tensor saved attributes, e.g. ``exponent: 2`` of ``x ** 2``.
        show_saved: show the tensors each node saved for backward (orange; a dashed box once backward freed them).
        max_attr_chars: longer attribute values are cut to this many characters.

    Returns a :class:`~tinygrad_edu.viz.diagram.Diagram` (a ``graphviz.Digraph``): it displays itself in
    Jupyter, ``.source`` is its DOT text, ``.render(...)`` writes a file.
    """
    outputs = outputs_of(var, "make_dot")
    names = tensor_names(params, strict=True, who="make_dot")
    drawing = _Drawing(names, show_attrs, show_saved, max_attr_chars)
    for t in outputs:
        drawing.add_tensor(t, OUTPUT)
    dot = drawing.dot
    size = max(12.0, 0.15 * len(dot.body))  # grow the page with the graph, so that big graphs stay legible
    dot.graph_attr["size"] = f"{size:g},{size:g}"
    return dot


class _Drawing:
    """One make_dot call: the Diagram being filled, the names given so far, what is already drawn."""

    def __init__(self, names: dict[int, str], show_attrs: bool, show_saved: bool, max_attr_chars: int) -> None:
        self.dot = Diagram(name="backward_graph", node_attr=NODE_STYLE, graph_attr={"size": "12,12"})
        self.ids = Ids()
        self.names = names
        self.drawn: set[str] = set()
        self.show_attrs, self.show_saved, self.max_attr_chars = show_attrs, show_saved, max_attr_chars

    def add_tensor(self, t: Tensor, colour: str) -> None:
        """An output (or the base of a view) and, above it, the graph that produced it."""
        tid = self.ids(t)
        if tid in self.drawn:
            return
        self.drawn.add(tid)
        self.dot.node(tid, self._tensor_label(t), fillcolor=colour)
        if t.grad_fn is not None:
            self.add_graph(t.grad_fn)
            self.dot.edge(self.ids(t.grad_fn), tid)
        if t._is_view():  # a view shares its base's storage: draw the base too, linked by a dotted line
            self.add_tensor(t._base, BASE)
            self.dot.edge(self.ids(t._base), tid, style="dotted")

    def add_graph(self, root: Node) -> None:
        """Every node reachable from ``root``, depth first (with an explicit stack: a graph may be very deep)."""
        stack = [root]
        while stack:
            node = stack.pop()
            nid = self.ids(node)
            if nid in self.drawn:
                continue
            self.drawn.add(nid)
            self._add_saved(node, nid)
            if isinstance(node, AccumulateGrad):  # the leaf whose .grad this node fills
                leaf = node.variable
                lid = self.ids(leaf)
                if lid not in self.drawn:
                    self.drawn.add(lid)
                    self.dot.node(lid, self._tensor_label(leaf), fillcolor=LEAF)
                self.dot.edge(lid, nid)
            self.dot.node(nid, self._node_label(node))
            children = [child for child, _ in node.next_functions if child is not None]
            for child in children:  # one edge per input, so x * x has two edges from x's node
                self.dot.edge(self.ids(child), nid)
            stack.extend(reversed(children))  # reversed: the first input is drawn first

    def _add_saved(self, node: Node, nid: str) -> None:
        """The tensors the node saved: with show_saved, or always for a Function you wrote (as torchviz does)."""
        if not (self.show_saved or is_user_function(node)):
            return
        for name, t in saved_tensors_of(node):
            if not self.show_saved and not name.startswith("saved_tensors"):
                continue
            sid = self.ids(node, name)
            if isinstance(t, Unreadable):  # freed by backward (or modified in place): a dashed box says so
                self.dot.node(sid, f"{name}\n({t.why})", **FREED_STYLE)
            else:
                label = name if id(t) not in self.names else f"{name} = {self.names[id(t)]}"
                self.dot.node(sid, f"{label}\n{shape_str(t)}", fillcolor=SAVED)
            self.dot.edge(nid, sid, dir="none")

    def _tensor_label(self, t: Tensor) -> str:
        name = self.names.get(id(t))
        return f"{name}\n{shape_str(t)}" if name else shape_str(t)

    def _node_label(self, node: Node) -> str:
        name = type(node).__name__  # what printing grad_fn shows: <MulBackward0 object at ...>
        attrs = saved_attributes(node) if self.show_attrs else []
        return attribute_table(name, attrs, self.max_attr_chars) if attrs else name


def attribute_table(title: str, attrs: list[tuple[str, str]], max_chars: int) -> str:
    """A node's name over a two-column table of its attributes, values cut to ``max_chars`` characters::

        PowBackward0
        ------------
        exponent:  2
        self    : [saved tensor]
    """
    max_chars = max(max_chars, 3)  # room for "..."
    key_width = max(len(key) for key, _ in attrs)
    value_width = min(max(len(value) for _, value in attrs), max_chars)

    def cut(value: str) -> str:
        return value if len(value) <= value_width else value[:value_width - 3] + "..."

    rows = [f"{key:<{key_width}}: {cut(value):>{value_width}}" for key, value in attrs]
    rule = "-" * max(key_width + value_width + 2, len(title))
    return "\n".join([title, rule, *rows])

