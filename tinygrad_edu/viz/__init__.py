"""``tinygrad_edu.viz``: seeing the graph.

* :func:`make_dot`: the backward graph, as torchviz draws PyTorch's (``from torchviz import make_dot`` twin).
* :func:`draw_graph`: the forward picture drawn on paper: tensors (names, values, grads) and the ops between them.
* :class:`BackwardStepper`: a widget that steps through backward, one node at a time, as the engine ran it.

Every diagram is a ``graphviz.Digraph`` that shows itself in JupyterLab as SVG, or as its DOT text with a
hint on installing Graphviz when the ``dot`` program is missing.
"""

from typing import Any

from .diagram import Diagram
from .dot import make_dot
from .forward import draw_graph

__all__ = ["BackwardStepper", "Diagram", "draw_graph", "make_dot"]


def __getattr__(name: str) -> Any:
    if name == "BackwardStepper":  # imported on first use: it needs ipywidgets, which takes a while to load
        from .stepper import BackwardStepper

        return BackwardStepper
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
