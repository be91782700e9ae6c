"""Seeing the graph: make_dot, draw_graph, autograd.trace_backward and the BackwardStepper widget.

Diagrams are checked on their DOT text (node labels, colours, edges), parsed back into a small graph; SVG
rendering is checked when Graphviz's ``dot`` is installed, and the fallback without it by hiding ``dot``.
The recorded backward steps are checked against independent evidence of what the engine did: node hooks
that log their calls, and ``autograd.grad``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _oracle import oracle

import tinygrad_edu as torch
from tinygrad_edu import autograd, nn
from tinygrad_edu.autograd.graph import AccumulateGrad
from tinygrad_edu.viz import Diagram, draw_graph, make_dot
from tinygrad_edu.viz.diagram import INSTALL_HINT
from tinygrad_edu.viz.steps import BackwardFilm

HAS_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot is not installed")


# -- reading DOT back -------------------------------------------------------------------------------------------

_ATTR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^\s\]]+)', re.S)


def _attrs(text: str | None) -> dict[str, str]:
    return {k: v[1:-1] if v.startswith('"') else v for k, v in _ATTR.findall(text or "")}


class Parsed:
    """A Diagram read back: ``nodes[name] = attrs`` and ``edges = [(tail, head, attrs)]``, in DOT order."""

    def __init__(self, dot: Diagram) -> None:
        self.nodes: dict[str, dict[str, str]] = {}
        self.edges: list[tuple[str, str, dict[str, str]]] = []
        for statement in dot.body:
            edge = re.match(r"\t(\w+) -> (\w+)(?: \[(.*)\])?\n$", statement, re.S)
            if edge:
                self.edges.append((edge[1], edge[2], _attrs(edge[3])))
                continue
            node = re.match(r"\t(\w+) \[(.*)\]\n$", statement, re.S)
            assert node, f"unexpected DOT statement {statement!r}"
            self.nodes.setdefault(node[1], {}).update(_attrs(node[2]))

    def label(self, name: str) -> str:
        return self.nodes[name].get("label", name)

    def named(self, label: str) -> list[str]:
        return [n for n in self.nodes if self.label(n) == label]

    def one(self, label: str) -> str:
        found = self.named(label)
        assert len(found) == 1, (label, [self.label(n) for n in self.nodes])
        return found[0]

    def labels(self) -> list[str]:
        return [self.label(n) for n in self.nodes]

    def edge_labels(self) -> list[tuple[str, str]]:
        return [(self.label(a), self.label(b)) for a, b, _ in self.edges]

    def colour(self, name: str) -> str | None:
        return self.nodes[name].get("fillcolor")


def parsed(dot: Diagram) -> Parsed:
    assert isinstance(dot, Diagram)
    return Parsed(dot)


# -- make_dot -----------------------------------------------------------------------------------------------


def seed_chain() -> tuple[Any, Any, Any]:
    """The notes' chain rule example: y = 2x, z = y*y."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = 2 * x
    z = y * y
    return x, y, z


def test_make_dot_seed_chain_rule_example() -> None:
    x, _, z = seed_chain()
    g = parsed(make_dot(z, params={"x": x}))
    assert sorted(g.labels()) == sorted(["(3,)", "MulBackward0", "MulBackward0", "AccumulateGrad", "x\n(3,)"])
    leaf, acc, out = g.one("x\n(3,)"), g.one("AccumulateGrad"), g.one("(3,)")
    assert g.colour(leaf) == "lightblue" and g.colour(out) == "darkolivegreen1"
    assert g.colour(acc) is None  # op boxes: the default grey fill
    # edges go from inputs towards the output: x -> AccumulateGrad -> 2*x -> y*y (twice: y is used twice) -> z
    outer, inner = g.named("MulBackward0")  # drawn from the output up: y*y first
    edges = [(a, b) for a, b, _ in g.edges]
    assert edges.count((inner, outer)) == 2
    assert (leaf, acc) in edges and (acc, inner) in edges and (outer, out) in edges
    assert len(edges) == 5


def test_make_dot_is_deterministic_and_named_by_a_counter() -> None:
    sources = []
    for _ in range(3):
        x, _, z = seed_chain()
        sources.append(make_dot(z, params={"x": x}, show_saved=True, show_attrs=True).source)
    assert sources[0] == sources[1] == sources[2]
    names = [n for n in re.findall(r"^\t(\w+) \[", sources[0], re.M) if n not in ("graph", "node")]
    assert names and all(re.fullmatch(r"n\d+", n) for n in names)
    assert "0x" not in sources[0]


def test_make_dot_readme_example_and_its_pytorch_twin() -> None:
    def program(lib: Any) -> Any:
        x = lib.ones(2, 2, requires_grad=True)
        y = x + 2
        z = y * y * 3
        return x, z.mean()

    x, out = program(torch)
    g = parsed(make_dot(out, params={"x": x}))
    assert [label for label in g.labels() if not label.startswith(("(", "x"))] == \
        ["MeanBackward0", "MulBackward0", "MulBackward0", "AddBackward0", "AccumulateGrad"]
    assert g.colour(g.one("x\n(2, 2)")) == "lightblue" and g.colour(g.one("()")) == "darkolivegreen1"
    expected = [("MeanBackward0", [1]), ("MulBackward0", [2, -1]), ("MulBackward0", [3, 3]), ("AddBackward0", [4, -1]),
                ("AccumulateGrad", [])]  # -1: an input that needs no grad (the 2 and the 3)
    assert _structure(out) == expected
    if oracle() is not None:
        assert _structure(program(oracle())[1]) == expected
    assert repr(make_dot(out)) == "<Diagram backward_graph: 7 nodes, 7 edges>"


def _structure(out: Any) -> list[tuple[str, list[int]]]:
    """The backward graph as (node type name, positions of its children in the walk), depth first: comparable
    between tinygrad_edu and PyTorch."""
    order, seen, stack = [], {}, [out.grad_fn]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        order.append(node)
        stack.extend(reversed([c for c, _ in node.next_functions if c is not None]))
    index = {id(n): i for i, n in enumerate(order)}
    return [(type(n).__name__, [index[id(c)] if c is not None else -1 for c, _ in n.next_functions]) for n in order]


@pytest.mark.skipif(oracle() is None, reason="PyTorch (the oracle) is not installed")
@pytest.mark.parametrize("name", ["matmul_bias_bce", "pow_exp_log", "linear_mse", "shared_parents", "broadcast"])
def test_make_dot_draws_the_nodes_pytorch_has(name: str) -> None:
    """Same program, same backward graph (node names and wiring) as PyTorch 2.13's, which torchviz draws."""
    def program(lib: Any) -> Any:
        lib.manual_seed(0)
        if name == "matmul_bias_bce":  # the notes' autograd example
            x, y = lib.ones(5), lib.zeros(3)
            w, b = lib.randn(5, 3, requires_grad=True), lib.randn(3, requires_grad=True)
            z = lib.matmul(x, w) + b
            return w, lib.nn.functional.binary_cross_entropy_with_logits(z, y)
        if name == "pow_exp_log":
            a = lib.tensor([1.0, 2.0], requires_grad=True)
            return a, ((a ** 2).exp() + (a * 3).log()).sum()
        if name == "linear_mse":
            model = lib.nn.Linear(3, 2)
            return model.weight, lib.nn.MSELoss()(model(lib.ones(4, 3)), lib.zeros(4, 2))
        if name == "shared_parents":  # fan-in, from the design notes
            a = lib.tensor([1.0, 2.0], requires_grad=True)
            b = a + a
            return a, (b + b).sum()
        a = lib.ones(3, 1, requires_grad=True)
        return a, (a * lib.ones(4, requires_grad=True)).mean()

    _, out = program(torch)
    g = parsed(make_dot(out))
    assert [label for label in g.labels() if not label.startswith("(")] == [t for t, _ in _structure(out)]
    assert _structure(out) == _structure(program(oracle())[1])


def test_make_dot_show_saved_and_after_backward_freed() -> None:
    x, _, z = seed_chain()
    g = parsed(make_dot(z, params={"x": x}, show_saved=True))
    saved = [n for n in g.nodes if g.colour(n) == "orange"]
    assert sorted(g.label(n) for n in saved) == ["other\n()", "other\n(3,)", "self\n(3,)"]  # 2*x saved the 2 only
    for n in saved:  # attached to their node by an undirected edge from it
        (tail, _, attrs), = [e for e in g.edges if e[1] == n]
        assert g.label(tail) == "MulBackward0" and attrs == {"dir": "none"}
    assert "other\n" not in make_dot(z, params={"x": x}).source  # only with show_saved

    z.sum().backward()
    g = parsed(make_dot(z, params={"x": x}, show_saved=True))
    freed = [n for n in g.nodes if "(freed)" in g.label(n)]
    # (2 * x never saved x: that slot stays empty, as PyTorch's _saved_self stays None)
    assert sorted(g.label(n) for n in freed) == ["other\n(freed)", "other\n(freed)", "self\n(freed)"]
    assert all(g.nodes[n]["style"] == "filled,dashed" for n in freed)
    assert not [n for n in g.nodes if g.colour(n) == "orange"]


def test_a_saved_tensor_changed_in_place_is_drawn_as_such() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    y = a * a
    a.add_(1)  # y's node saved a: backward would now raise
    g = parsed(make_dot(y, show_saved=True))
    assert sorted(lbl for lbl in g.labels() if "modified" in lbl) == ["other\n(modified in place)",
                                                                        "self\n(modified in place)"]
    assert "×\nMulBackward0" in parsed(draw_graph(y, params={"x": x})).labels()  # still drawn
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_make_dot_names_a_saved_tensor_that_params_names() -> None:  # the notes: x * y saves y (_saved_other)
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.tensor([4.0, 5.0, 6.0], requires_grad=False)
    loss = (x * y).sum()
    g = parsed(make_dot(loss, params={"x": x, "y": y}, show_saved=True))
    assert "other = y\n(3,)" in g.labels()
    assert g.named("y\n(3,)") == []  # y needs no grad: no node of its own, only as a saved value


def test_make_dot_show_attrs() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    label = parsed(make_dot(x ** 2, show_attrs=True)).one(
        "PowBackward0\n------------------------\nexponent:              2\nself    : [saved tensor]")
    assert label
    cut = parsed(make_dot(x ** 1.2345678, show_attrs=True, max_attr_chars=5))
    assert "PowBackward0\n---------------\nexponent: 1....\nself    : [s..." in cut.labels()  # values cut at 5
    plain = parsed(make_dot(x ** 2))
    assert "PowBackward0" in plain.labels()
    y = x ** 2
    y.sum().backward()
    assert any("self    : [freed]" in lbl for lbl in parsed(make_dot(y, show_attrs=True)).labels())


def test_make_dot_linear_layer_as_the_notes_call_it() -> None:  # seed 001
    torch.manual_seed(0)
    model = nn.Linear(3, 2)
    input_tensor = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = model(input_tensor)
    g = parsed(make_dot(y, params=dict(list(model.named_parameters()) + [("input", input_tensor)])))  # noqa: RUF005
    for label in ("weight\n(2, 3)", "bias\n(2,)", "input\n(1, 3)"):
        assert g.colour(g.one(label)) == "lightblue"
    assert g.colour(g.one("(1, 2)")) == "darkolivegreen1"
    assert sorted(g.labels()) == sorted(["(1, 2)", "AddmmBackward0", "AccumulateGrad", "bias\n(2,)",
                                         "AccumulateGrad", "input\n(1, 3)", "TBackward0", "AccumulateGrad",
                                         "weight\n(2, 3)"])
    assert ("TBackward0", "AddmmBackward0") in g.edge_labels()
    assert ("weight\n(2, 3)", "AccumulateGrad") in g.edge_labels()


class line(autograd.Function):  # noqa: N801  (the notes' name)
    @staticmethod
    def forward(ctx: Any, w: Any, x: Any, b: Any) -> Any:
        ctx.save_for_backward(w, x, b)
        return w * x + b

    @staticmethod
    def backward(ctx: Any, grad_out: Any) -> Any:
        w, x, _ = ctx.saved_tensors
        return grad_out * x, grad_out * w, grad_out


def test_make_dot_custom_function_shows_its_saved_tensors() -> None:  # seed 004
    w, x, b = (torch.rand(2, 2, requires_grad=True) for _ in range(3))
    out = line.apply(w, x, b)
    g = parsed(make_dot(out, params={"w": w, "x": x, "b": b}))
    node = g.one("lineBackward")
    saved = [n for n in g.nodes if g.colour(n) == "orange"]  # always shown for a Function you wrote
    assert [g.label(n) for n in saved] == ["saved_tensors[0] = w\n(2, 2)", "saved_tensors[1] = x\n(2, 2)",
                                           "saved_tensors[2] = b\n(2, 2)"]
    assert all((node, n) in [(a, c) for a, c, _ in g.edges] for n in saved)
    assert [g.label(a) for a, c, _ in g.edges if c == node and g.label(a) == "AccumulateGrad"] == ["AccumulateGrad"] * 3
    out.backward(torch.ones(2, 2))
    assert "saved_tensors\n(freed)" in parsed(make_dot(out)).labels()


def test_make_dot_several_outputs_share_their_graph() -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a.exp()
    g = parsed(make_dot((h.sum(), (h * a).mean()), params={"a": a}))
    assert len(g.named("ExpBackward0")) == 1 and len(g.named("AccumulateGrad")) == 1
    outputs = [n for n in g.nodes if g.colour(n) == "darkolivegreen1"]
    assert [g.label(n) for n in outputs] == ["()", "()"]
    assert [g.label(a) for a, b, _ in g.edges if b in outputs] == ["SumBackward0", "MeanBackward0"]


def test_make_dot_view_output_draws_its_base() -> None:
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    base = x * 2
    view = base[0]
    g = parsed(make_dot(view))
    base_node = [n for n in g.nodes if g.colour(n) == "darkolivegreen3"]
    assert [g.label(n) for n in base_node] == ["(2, 2)"]
    assert [(g.label(a), attrs) for a, b, attrs in g.edges if b == g.one("(2,)")] == \
        [("SelectBackward0", {}), ("(2, 2)", {"style": "dotted"})]


def test_make_dot_a_200_node_graph_and_a_deep_chain() -> None:
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    y = x
    for i in range(200):
        y = y * 1.01 if i % 2 else y + 0.5
    g = parsed(make_dot(y, params={"x": x}))
    assert len(g.named("MulBackward0")) == 100 and len(g.named("AddBackward0")) == 100
    assert len(g.edges) == 202  # 200 between ops and into the output, + x -> AccumulateGrad, + into the first op
    assert make_dot(y, params={"x": x}).source == make_dot(y, params={"x": x}).source
    size = float(make_dot(y).graph_attr["size"].split(",")[0])
    assert size > 12  # the page grows with the graph

    deep = x
    for _ in range(5000):  # no recursion: a deep graph draws as well as a wide one
        deep = deep + 1
    assert len(parsed(make_dot(deep)).named("AddBackward0")) == 5000


def test_make_dot_of_a_leaf_and_bad_arguments() -> None:
    x = torch.tensor([1.0], requires_grad=True)
    assert parsed(make_dot(x, params={"x": x})).labels() == ["x\n(1,)"]
    with pytest.raises(TypeError, match=r"make_dot: params must map names to tensors, but params\['lr'\] is a float"):
        make_dot(x * 2, params={"x": x, "lr": 0.1})
    with pytest.raises(TypeError, match="params must be a dict mapping names to tensors"):
        make_dot(x * 2, params=[x])
    with pytest.raises(TypeError, match="make_dot draws the graph behind a tensor .* not a list"):
        make_dot([[1.0]])
    with pytest.raises(TypeError, match="not a ndarray"):
        make_dot(np.ones(2))


@needs_dot
def test_make_dot_renders_svg_inline() -> None:
    x, _, z = seed_chain()
    bundle = make_dot(z, params={"x": x})._repr_mimebundle_()
    svg = bundle["image/svg+xml"]
    assert svg.startswith("<?xml") and "</svg>" in svg
    assert ">MulBackward0</text>" in svg and ">AccumulateGrad</text>" in svg and "<title>n0</title>" in svg
    assert 'fill="lightblue"' in svg
    from IPython.core.formatters import DisplayFormatter

    data, _ = DisplayFormatter().format(make_dot(z))  # what Jupyter does with the last value of a cell
    assert "image/svg+xml" in data and "image/png" in data


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) in pixels, from a PNG's header."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and png[12:16] == b"IHDR"
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def svg_size(svg: str) -> tuple[int, int]:
    """(width, height) in CSS pixels (96 per inch) of an SVG that Graphviz sized in points (72 per inch)."""
    width, height = re.search(r'<svg width="([0-9.]+)pt" height="([0-9.]+)pt"', svg).groups()
    return round(float(width) * 96 / 72), round(float(height) * 96 / 72)


@needs_dot
def test_a_diagram_is_also_a_png_of_the_same_drawing() -> None:
    """JupyterLab shows SVG only in a trusted notebook: the PNG beside it is what an untrusted one shows. It is
    dot's drawing of the same DOT source, at the size the SVG is shown."""
    x, _, z = seed_chain()
    dot = make_dot(z, params={"x": x})
    bundle = dot._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "image/png"}
    assert bundle["image/png"] == dot.pipe(format="png")
    (width, height), (svg_width, svg_height) = png_size(bundle["image/png"]), svg_size(bundle["image/svg+xml"])
    assert abs(width - svg_width) <= 1 and abs(height - svg_height) <= 1  # (dot rounds pixels its own way)
    assert set(dot._repr_mimebundle_(include=["image/svg+xml"])) == {"image/svg+xml"}
    assert set(draw_graph(z)._repr_mimebundle_()) == {"image/svg+xml", "image/png"}


@needs_dot
def test_without_png_output_a_diagram_is_still_an_svg(monkeypatch: pytest.MonkeyPatch) -> None:
    import graphviz

    pipe = graphviz.Digraph.pipe

    def no_png(self: Any, format: str | None = None, **kwargs: Any) -> Any:
        if format == "png":
            raise graphviz.CalledProcessError(1, ["dot", "-Tpng"], stderr=b'Format: "png" not recognized.')
        return pipe(self, format=format, **kwargs)

    monkeypatch.setattr(graphviz.Digraph, "pipe", no_png)
    x, _, z = seed_chain()
    assert set(make_dot(z, params={"x": x})._repr_mimebundle_()) == {"image/svg+xml"}


# -- without Graphviz's dot ---------------------------------------------------------------------------------------


@pytest.fixture
def no_dot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no dot on the PATH
    assert shutil.which("dot") is None


def test_without_dot_a_diagram_shows_its_source_and_how_to_install(no_dot: None) -> None:
    x, _, z = seed_chain()
    dot = make_dot(z, params={"x": x})
    assert dot.source.startswith("digraph backward_graph {")
    bundle = dot._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"] == f"{INSTALL_HINT}\n\n{dot.source}"
    assert "apt-get install graphviz" in INSTALL_HINT and "brew install graphviz" in INSTALL_HINT
    assert "<pre>digraph backward_graph {" in bundle["text/html"] and "-&gt;" in bundle["text/html"]
    from IPython.core.formatters import DisplayFormatter

    data, _ = DisplayFormatter().format(draw_graph(z))  # no traceback on the way
    assert data["text/plain"].startswith(INSTALL_HINT)
    assert dot.html().startswith("<p>Graphviz&#x27;s dot program is not installed")


@needs_dot
def test_a_graph_dot_refuses_shows_why_and_its_source() -> None:
    dot = Diagram()
    dot.body.append("\tthis is { not dot\n")
    bundle = dot._repr_mimebundle_()
    assert bundle["text/plain"].startswith("Graphviz's dot could not draw this diagram: ")
    assert "syntax error" in bundle["text/plain"] and "this is { not dot" in bundle["text/plain"]


# -- draw_graph -----------------------------------------------------------------------------------------------


def linear_model() -> dict[str, Any]:
    w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    b = torch.tensor([0.1], requires_grad=True)
    x = torch.tensor([1.0, 2.0, 3.0])
    target = torch.tensor([1.0, 1.0, 1.0])
    y = w * x + b
    loss = ((y - target) ** 2).mean()
    return {"w": w, "b": b, "x": x, "target": target, "y": y, "loss": loss}


def test_draw_graph_leaf_intermediate_root_and_no_grad() -> None:
    t = linear_model()
    g = parsed(draw_graph(t["loss"], params=t))
    w, b, x = g.one("w\n(3,)\n[ 0.5000, -1.0000,  2.0000]"), g.one("b\n(1,)\n[0.1000]"), g.one("x\n(3,)\n[1., 2., 3.]")
    y, loss = g.one("y\n(3,)\n[ 0.6000, -1.9000,  6.1000]"), g.one("loss\n()\n11.5267")
    assert g.colour(w) == g.colour(b) == "lightblue"
    assert g.colour(y) == "white" and g.colour(loss) == "darkolivegreen1" and g.nodes[loss]["penwidth"] == "2"
    assert g.colour(x) == "gray92" and "dashed" in g.nodes[x]["style"]
    mul, add = g.one("×\nMulBackward0"), g.one("+\nAddBackward0")
    edges = [(a, c) for a, c, _ in g.edges]
    assert (w, mul) in edges and (x, mul) in edges and (b, add) in edges and (add, y) in edges
    (unnamed,) = [c for a, c in edges if a == mul]  # w * x was not named: an empty circle between the ops
    assert g.nodes[unnamed]["shape"] == "circle" and (unnamed, add) in edges
    pow_op = g.one("**\nPowBackward0\nexponent=2")
    sub = g.one("−\nSubBackward0")
    assert (y, sub) in edges and g.one("requires_grad=False") and (g.one("requires_grad=False"), sub) in edges
    assert any(a == pow_op for a, _ in edges) and (g.one("mean\nMeanBackward0"), loss) in edges
    assert "green: root" in draw_graph(t["loss"]).graph_attr["label"]


def test_draw_graph_shows_grads_after_backward_and_takes_locals() -> None:
    t = linear_model()
    t["loss"].backward()
    scope = {**t, "_": t["w"], "_5": t["b"], "lr": 0.1, "model": object()}  # like locals() in IPython
    g = parsed(draw_graph(t["loss"], params=scope))
    w_grad = t["w"].grad.numpy()
    assert np.allclose(w_grad, np.array([-0.4, -2.9, 5.1]) * [1, 2, 3] * 2 / 3)  # d(mean((y - t)**2))/dw
    assert g.one("w\n(3,)\n[ 0.5000, -1.0000,  2.0000]\ngrad [-0.2667, -3.8667, 10.2000]")
    assert g.one("b\n(1,)\n[0.1000]\ngrad [1.2000]")
    assert g.one("y\n(3,)\n[ 0.6000, -1.9000,  6.1000]")  # an intermediate keeps no .grad
    # backward freed what w * x saved, so x can no longer be matched to its input: the box says so
    assert g.one("requires_grad=False\n(value freed by backward)") and g.named("x\n(3,)\n[1., 2., 3.]") == []
    assert not [lbl for lbl in g.labels() if lbl.startswith(("_", "lr"))]


def test_draw_graph_retained_grad_matrix_values_and_label() -> None:
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    y.retain_grad()
    out = (y * y * 3).mean()
    out.backward()
    g = parsed(draw_graph(out, params={"x": x, "y": y}, label="out"))
    assert g.one("y\n(2, 2)\n[[3., 3.],\n [3., 3.]]\ngrad\n[[4.5000, 4.5000],\n [4.5000, 4.5000]]")
    assert g.colour(g.one("out\n()\n27.")) == "darkolivegreen1"
    assert g.one("x\n(2, 2)\n[[1., 1.],\n [1., 1.]]\ngrad\n[[4.5000, 4.5000],\n [4.5000, 4.5000]]")
    big = torch.ones(5, 5, requires_grad=True)
    assert "big\n(5, 5)" in parsed(draw_graph(big * 2, params={"big": big})).labels()  # too big: no numbers
    leaf = parsed(draw_graph(big, params={"big": big}))
    assert leaf.labels() == ["big\n(5, 5)"] and leaf.colour(leaf.one("big\n(5, 5)")) == "darkolivegreen1"


def test_draw_graph_linear_layer_finds_its_input_among_the_saved_tensors() -> None:
    torch.manual_seed(0)
    model = nn.Linear(3, 2)
    inp = torch.ones(1, 3)  # needs no grad: None in next_functions, but addmm saved it (_saved_mat1)
    g = parsed(draw_graph(model(inp), params={**dict(model.named_parameters()), "inp": inp}))
    addmm, t = g.one("@ +\nAddmmBackward0"), g.one("t\nTBackward0")
    inp_box = g.one("inp\n(1, 3)\n[[1., 1., 1.]]")
    assert g.colour(inp_box) == "gray92"
    assert [g.label(a).split("\n")[0] for a, b, _ in g.edges if b == addmm] == ["bias", "inp", ""]
    assert [g.label(a).split("\n")[0] for a, b, _ in g.edges if b == t] == ["weight"]


def test_draw_graph_seed_chain_names_a_wrapped_number() -> None:
    x, y, z = seed_chain()
    g = parsed(draw_graph(z, params={"x": x, "y": y, "z": z}))
    two = g.one("()\n2")  # the 2 of 2 * x: a wrapped number (int64, as PyTorch saves it), needing no grad
    assert g.colour(two) == "gray92"
    assert [g.label(a) for a, b, _ in g.edges if b == g.one("y\n(3,)\n[2., 4., 6.]")] == ["×\nMulBackward0"]
    muls = g.named("×\nMulBackward0")
    assert [g.label(a) for a, b, _ in g.edges if b == muls[0]] == ["y\n(3,)\n[2., 4., 6.]"] * 2
    assert draw_graph(z, params={"x": x}).source == draw_graph(z, params={"x": x}).source


# -- autograd.trace_backward: the record, checked against what the engine visibly did ---------------------------


def _all_nodes(*outputs: Any) -> list[Any]:
    seen, stack, order = set(), [t.grad_fn for t in outputs], []
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(c for c, _ in node.next_functions)
    return order


def _spy(*outputs: Any) -> list[tuple[Any, str, tuple]]:
    """Node hooks on every node that log (node, "pre"/"post", gradients) as the engine calls them."""
    log: list[tuple[Any, str, tuple]] = []
    for node in _all_nodes(*outputs):
        node.register_prehook(lambda grads, node=node: log.append((node, "pre", grads)))
        node.register_hook(lambda grad_inputs, grads, node=node: log.append((node, "post", grad_inputs)))
    return log


def _same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return np.array_equal(a.detach().numpy(), b.detach().numpy())


def _check_against_spy(steps: list, log: list) -> None:
    pre = [(node, grads) for node, kind, grads in log if kind == "pre"]
    post = [(node, grads) for node, kind, grads in log if kind == "post"]
    assert [s.node for s in steps] == [node for node, _ in pre] == [node for node, _ in post]
    for step, (_, received), (_, sent) in zip(steps, pre, post):
        assert all(_same(a, b) for a, b in zip(step.grad_outputs, received, strict=True))
        n = len(step.node.next_functions)
        assert all(_same(a, b) for a, b in zip(step.grad_inputs, (tuple(sent) + (None,) * n)[:n], strict=True))


def test_trace_is_the_engine_order_and_gradients_with_fan_in() -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a + a  # shared parents: the classic fan-in case
    c = (b + b) * a
    out = c.sum()
    log = _spy(out)
    with autograd.trace_backward() as steps:
        out.backward()
    _check_against_spy(steps, log)
    assert [type(s.node).__name__ for s in steps] == \
        ["SumBackward0", "MulBackward0", "AddBackward0", "AddBackward0", "AccumulateGrad"]
    (acc,) = [s for s in steps if isinstance(s.node, AccumulateGrad)]  # ran once, with both paths summed
    assert _same(acc.grad, a.grad) and _same(acc.grad_outputs[0], autograd.grad((( a + a) * 2 * a).sum(), a)[0])
    assert acc.grad is not a.grad  # a copy


def test_trace_weighted_non_scalar_backward_and_leaf_snapshots() -> None:
    x = torch.ones(2, 2, requires_grad=True)
    z = (x + 2) * (x + 2) * 3
    weights = torch.tensor([[1.0, 0.5], [0.0, 2.0]])
    log = _spy(z)
    with autograd.trace_backward() as steps:
        z.backward(weights, retain_graph=True)
        z.backward(weights)
    assert len(steps) == 2 * len(log) // 4
    _check_against_spy(steps, log)
    root_steps = [s for s in steps if s.node is z.grad_fn]
    assert len(root_steps) == 2 and all(_same(s.grad_outputs[0], weights) for s in root_steps)
    first, second = [s for s in steps if isinstance(s.node, AccumulateGrad)]
    expected = autograd.grad(((x + 2) * (x + 2) * 3), x, weights)[0]
    assert _same(first.grad, expected)  # a snapshot: the second pass added into x.grad in place afterwards
    assert np.allclose(second.grad.numpy(), 2 * expected.numpy()) and _same(second.grad, x.grad)


def test_trace_records_released_saved_tensors_as_the_graph_shows() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    out = (y + 1).sum()
    with autograd.trace_backward() as steps:
        out.backward(retain_graph=True)
    assert not any(s.released for s in steps)
    assert y.grad_fn._saved_self is x  # still readable
    with autograd.trace_backward() as steps:
        out.backward()
    released = {type(s.node).__name__: s.released for s in steps}
    assert released == {"SumBackward0": False, "AddBackward0": False, "MulBackward0": True, "AccumulateGrad": False}
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.grad_fn._saved_self  # noqa: B018  (reading it is the point)


def test_trace_records_the_hooks_that_ran() -> None:
    calls: list[str] = []

    def on_y(grad: Any) -> Any:
        calls.append("on_y")
        return grad * 2

    def on_x(grad: Any) -> None:
        calls.append("on_x")

    def before(grads: tuple) -> None:
        calls.append("before")

    def after(grad_inputs: tuple, grads: tuple) -> None:
        calls.append("after")

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    out = y.sum()
    y.register_hook(on_y)
    x.register_hook(on_x)
    y.grad_fn.register_prehook(before)
    y.grad_fn.register_hook(after)
    with autograd.trace_backward() as steps:
        out.backward()
    assert calls == ["on_y", "before", "after", "on_x"]
    assert [[fn.__name__ for fn in s.hooks] for s in steps] == [[], ["on_y", "before", "after"], ["on_x"]]
    assert _same(steps[1].grad_outputs[0], torch.tensor([2.0, 2.0]))  # what arrived, after y's hook doubled it
    assert x.grad.tolist() == [6.0, 6.0]


def test_trace_with_autograd_grad_inputs_and_nesting() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    out = (x * w).sum()
    with autograd.trace_backward() as outer:
        with autograd.trace_backward() as inner:
            (gx,) = autograd.grad(out, x, retain_graph=True)
        out.backward(inputs=[w])
    assert [type(s.node).__name__ for s in inner] == ["SumBackward0", "MulBackward0"]  # grad() fills no .grad
    assert _same(gx, w) and x.grad is None
    assert [type(s.node).__name__ for s in outer] == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
    assert outer[2].node.variable is w
    before = len(outer)
    (x * w).sum().backward()  # outside the block: nothing is recorded any more
    assert len(outer) == before and autograd.engine._active_trace is None


# -- the stepper's frames -----------------------------------------------------------------------------------------


def test_film_steps_are_the_engines_and_frames_follow_them() -> None:
    x, _, z = seed_chain()
    out = z.sum()
    log = _spy(out)
    film = BackwardFilm(out, params={"x": x})
    _check_against_spy(list(film.steps), log)
    assert len(film) == 4 and _same(x.grad, torch.tensor([8.0, 16.0, 24.0]))  # backward really ran

    frames = [parsed(film.diagram(k)) for k in range(5)]
    for k, g in enumerate(frames):
        gold = [n for n in g.nodes if g.colour(n) == "gold"]
        if k == 0:
            assert gold == [] and all(g.colour(n) == "white" for n in g.nodes if g.label(n).endswith("Backward0"))
            continue
        node = film.steps[k - 1].node
        assert [g.label(n).split("\n")[0] for n in gold] == [type(node).__name__]
        assert g.label(gold[0]).split("\n")[1] == f"step {k}"
        red = [(g.label(a).split("\n")[0], attrs["label"]) for a, b, attrs in g.edges if attrs.get("color") == "red"]
        grads = [gi for gi, (child, _) in zip(film.steps[k - 1].grad_inputs, node.next_functions) if child is not None]
        if k == 1:  # the root also shows the gradient backward starts with, on the edge to the output
            assert red[-1] == ("SumBackward0", " 1.")
            red = red[:-1]
        assert [label for _, label in red] == [" " + _text(g_) for g_ in grads]
    # the leaf's .grad as it is at each frame; the freed saved tensors of the nodes that ran
    leaf = [frames[k].label(n) for k in range(5) for n in frames[k].nodes if frames[k].label(n).startswith("x\n")]
    assert leaf == ["x\n(3,)\ngrad None"] * 4 + ["x\n(3,)\ngrad [ 8., 16., 24.]"]
    assert sum("(freed)" in lbl for lbl in frames[1].labels()) == 0
    assert sum("(freed)" in lbl for lbl in frames[2].labels()) == 2 and sum("(freed)" in lbl for lbl in
                                                                          frames[3].labels()) == 3
    caption = film.caption(3)
    assert "2 gradients arrived by different paths and were summed: [2., 4., 6.] + [2., 4., 6.]" in caption
    assert "received: [ 4.,  8., 12.]" in caption and "frees its saved tensors: other" in caption
    assert "x.grad is now [ 8., 16., 24.] (it was None)" in film.caption(4) and "Backward is done." in film.caption(4)
    assert frames[3].nodes and film.diagram(3).graph_attr["label"].startswith("Step 3 of 4: MulBackward0 runs.\\l")
    with pytest.raises(IndexError, match="step 5 is out of range"):
        film.diagram(5)


def _text(t: Any) -> str:
    from tinygrad_edu.viz.diagram import grad_text

    return grad_text(t)


def test_film_weighted_retained_and_hooked_backward() -> None:
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    seen: list[Any] = []
    y.register_hook(lambda grad: seen.append(grad))
    weights = torch.tensor([[1.0, 0.5], [0.0, 2.0]])
    film = BackwardFilm(z, gradient=weights, retain_graph=True, params={"x": x})
    assert len(seen) == 1 and _same(x.grad, autograd.grad(z, x, weights, retain_graph=True)[0])
    last = parsed(film.diagram(len(film)))
    assert not [lbl for lbl in last.labels() if "(freed)" in lbl]  # retain_graph: nothing freed
    assert sum(1 for n in last.nodes if last.colour(n) == "orange") == 3
    assert "keeps its saved tensors (retain_graph=True)" in film.caption(1)
    assert "received (where backward starts): [[1.0000, 0.5000], [0.0000, 2.0000]]" in film.caption(1)
    add_step = next(k for k, s in enumerate(film.steps, 1) if type(s.node).__name__ == "AddBackward0")
    assert "hook <lambda> ran" in film.diagram(add_step).source and "hooks that ran: <lambda>" in film.caption(add_step)
    again = BackwardFilm(z, gradient=weights, params={"x": x})  # retained: a second pass adds into x.grad
    leaf_step = len(again)
    assert "x\n(2, 2)\ngrad\n[[18.,  9.],\n [ 0., 36.]]" in parsed(again.diagram(0)).labels()  # the first pass
    assert "x.grad is now [[36., 18.], [ 0., 72.]] (it was [[18.,  9.], [ 0., 36.]])" in again.caption(leaf_step)
    assert _same(x.grad, torch.tensor([[36.0, 18.0], [0.0, 72.0]]))
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        BackwardFilm(z, gradient=weights)


# -- the widget -----------------------------------------------------------------------------------------------


def test_stepper_widget_controls_move_through_the_frames() -> None:
    import ipywidgets as widgets

    from tinygrad_edu.viz import BackwardStepper

    x, _, z = seed_chain()
    stepper = BackwardStepper(z.sum(), params={"x": x})
    assert isinstance(stepper, widgets.VBox)
    film = stepper.film
    assert stepper.step == 0 and stepper.view.value == film.html(0)
    assert stepper.prev_button.disabled and not stepper.next_button.disabled
    stepper.next_button.click()
    assert stepper.step == 1 and stepper.view.value == film.html(1) != film.html(0)
    assert not stepper.prev_button.disabled
    stepper.slider.value = 4
    assert stepper.view.value == film.html(4) and stepper.next_button.disabled
    stepper.next_button.click()  # at the end: stays
    assert stepper.step == 4
    stepper.prev_button.click()
    assert stepper.step == 3 and stepper.view.value == film.html(3)
    stepper.play.value = 2  # Play drives the slider
    assert stepper.slider.value == 2 and stepper.view.value == film.html(2)
    assert stepper.slider.max == stepper.play.max == 4

    stepper.slider.value = 0
    bundle = stepper._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == stepper.model_id
    assert bundle["text/plain"].startswith("BackwardStepper: 4 steps of backward, showing step 0")
    if HAS_DOT:
        assert bundle["image/svg+xml"] == film.html(0) and bundle["image/svg+xml"].startswith("<svg")
        assert ">Step 0 of 4: before backward." in film.html(0)
        assert bundle["image/png"] == film.diagram(0).pipe(format="png")


def test_stepper_play_stops_at_the_end_and_the_learners_moves_stop_it() -> None:
    """Play ticks in the browser, each tick setting play.value. It must not still be playing once the last step
    shows (a Prev pressed then would be undone by its next tick), and Prev, Next or the slider stop it."""
    from tinygrad_edu.viz import BackwardStepper

    x, _, z = seed_chain()
    stepper = BackwardStepper(z.sum(), params={"x": x})
    stepper.play.playing = True
    for k in range(1, 5):
        assert stepper.play.playing
        stepper.play.value = k  # a tick
        assert stepper.step == k and stepper.view.value == stepper.film.html(k)
    assert not stepper.play.playing  # stopped at the last step, not one tick later
    stepper.prev_button.click()
    assert stepper.step == stepper.play.value == 3
    for press, expected in [(stepper.prev_button.click, 2), (stepper.next_button.click, 3),
                            (lambda: setattr(stepper.slider, "value", 1), 1)]:
        stepper.play.playing = True
        press()
        assert not stepper.play.playing and stepper.step == stepper.play.value == expected


def test_stepper_without_dot_shows_the_source(no_dot: None) -> None:
    from tinygrad_edu.viz import BackwardStepper

    x, _, z = seed_chain()
    stepper = BackwardStepper(z.sum(), params={"x": x})
    assert stepper.view.value.startswith("<p>Graphviz&#x27;s dot program is not installed")
    assert "<pre>digraph backward_steps {" in stepper.view.value
    bundle = stepper._repr_mimebundle_()
    assert "image/svg+xml" not in bundle and bundle["text/html"] == stepper.view.value


def test_stepper_is_loaded_only_when_asked_for() -> None:
    import subprocess
    import sys

    code = ("import sys, tinygrad_edu.viz as v; assert 'ipywidgets' not in sys.modules; "
            "v.BackwardStepper; assert 'ipywidgets' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
    import tinygrad_edu.viz as viz

    with pytest.raises(AttributeError, match="has no attribute 'Stepper'"):
        viz.Stepper  # noqa: B018


# -- the stored notebook's SVG, compared across Graphviz versions ---------------------------------------------------


@needs_dot
def test_sanitized_svg_ignores_layout_numbers_but_not_labels() -> None:
    from nbval.plugin import get_sanitize_patterns

    patterns = get_sanitize_patterns((Path(__file__).parent / "nbval_sanitize.cfg").read_text())

    def sanitized(dot: Diagram) -> str:
        text = dot._repr_mimebundle_()["image/svg+xml"]
        for regex, replace in patterns:
            text = re.sub(regex, replace, text)
        return text

    x, _, z = seed_chain()
    plain, spread = make_dot(z, params={"x": x}), make_dot(z, params={"x": x})
    spread.graph_attr.update(nodesep="2", ranksep="1.5")  # another layout, as another Graphviz version may make
    assert plain._repr_mimebundle_() != spread._repr_mimebundle_()
    assert sanitized(plain) == sanitized(spread)
    assert "graphviz version" not in sanitized(plain) and ">MulBackward0</text>" in sanitized(plain)
    assert sanitized(make_dot(z, params={"y": x})) != sanitized(plain)  # a different label still shows
    text = "tensor([1., 2.], grad_fn=<MulBackward0>) width 3, d=2, points: [1, 2]"  # other outputs: untouched
    for regex, replace in patterns:
        text = re.sub(regex, replace, text)
    assert text == "tensor([1., 2.], grad_fn=<MulBackward0>) width 3, d=2, points: [1, 2]"
