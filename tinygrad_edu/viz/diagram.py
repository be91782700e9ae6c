"""What every diagram here shares: a ``graphviz.Digraph`` that always displays, and how tensors are labelled.

Graphviz's ``dot`` program lays the graphs out. When it is not installed, a diagram is still a complete
``graphviz.Digraph`` (``.source`` is its DOT text); displaying it in Jupyter shows how to install Graphviz,
followed by the DOT source, instead of a traceback.

Diagrams are deterministic: nodes are named ``n0, n1, ...`` in the order they are met, never by ``id()``,
so the same code gives the same DOT text on every run (the stored notebooks compare it).
"""

from __future__ import annotations

import html
import re
import textwrap
from typing import Any

import graphviz

from .._printing import _tensor_str
from .._tensor import Tensor

INSTALL_HINT = (
    "Graphviz's dot program is not installed, so this diagram is shown as DOT text. To see it drawn, install "
    "Graphviz (Debian/Ubuntu: sudo apt-get install graphviz | Fedora: sudo dnf install graphviz | macOS: brew "
    "install graphviz | conda: conda install -c conda-forge graphviz) and run the cell again."
)

#: tensors with at most this many elements show their numbers; larger ones show only their shape
SMALL = 16

# Colours, as torchviz draws PyTorch's graphs (what learners meet elsewhere), plus the stepper's own.
LEAF = "lightblue"  # leaves that require grad: their .grad is filled by backward
OUTPUT = "darkolivegreen1"  # the tensor(s) the graph was drawn from
BASE = "darkolivegreen3"  # the base of an output that is a view
SAVED = "orange"  # tensors saved for backward
NO_GRAD = "gray92"  # tensors that need no gradient (requires_grad=False)


#: What a diagram shows itself as. JupyterLab draws SVG only in a trusted notebook, and a notebook cloned or
#: downloaded is not trusted until someone runs it or trusts it (``jupyter trust``): it would show the text line
#: instead. A PNG of the same drawing is shown either way; SVG, sharper, wherever the notebook is trusted.
FORMATS = ("image/svg+xml", "image/png")


class Diagram(graphviz.Digraph):
    """A ``graphviz.Digraph`` that displays as SVG and PNG, or, without Graphviz's ``dot``, as an install hint + DOT
    text."""

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict[str, Any]:
        bundle: dict[str, Any] = {}
        for mimetype in FORMATS if include is None else include:
            try:
                bundle.update(super()._repr_mimebundle_([mimetype], exclude, **kwargs))
            except graphviz.ExecutableNotFound:
                return self._as_text(INSTALL_HINT)
            except graphviz.CalledProcessError as error:
                if mimetype == "image/png" and bundle:  # a Graphviz built without PNG output: the SVG alone
                    continue
                # dot is there but refused the graph: say why, show the DOT
                return self._as_text(f"Graphviz's dot could not draw this diagram: {_stderr(error)}")
        return bundle

    def __repr__(self) -> str:  # (the default would show an address, which changes from run to run)
        edges = sum(" -> " in line for line in self.body)
        return f"<{type(self).__name__} {self.name}: {len(self.body) - edges} nodes, {edges} edges>"

    def _as_text(self, message: str) -> dict[str, str]:
        return {"text/plain": f"{message}\n\n{self.source}",
                "text/html": f"<p>{html.escape(message)}</p>\n<pre>{html.escape(self.source)}</pre>"}

    def html(self) -> str:
        """An HTML fragment showing the diagram: an ``<svg>`` element (without the XML prolog, doctype and
        Graphviz's version comment), or the install hint and DOT text when ``dot`` is missing."""
        bundle = self._repr_mimebundle_(include=["image/svg+xml"])
        svg = bundle.get("image/svg+xml")
        return svg[svg.index("<svg"):] if svg else bundle["text/html"]


def _stderr(error: graphviz.CalledProcessError) -> str:
    stderr = error.stderr.decode(errors="replace") if isinstance(error.stderr, bytes) else str(error.stderr or "")
    return stderr.strip() or str(error)


class Ids:
    """Stable DOT names: ``n0, n1, ...`` in the order things are first met (never ``id()``, which changes
    from run to run). ``ids(thing)`` names an object (compared by identity, and kept alive so that its id
    cannot be reused meanwhile); ``ids(thing, part)`` names a part of it, such as one saved tensor of a node.
    """

    def __init__(self) -> None:
        self._names: dict[tuple[int, Any], str] = {}
        self._alive: list[Any] = []

    def __call__(self, thing: Any, part: Any = None) -> str:
        key = (id(thing), part)
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = f"n{len(self._names)}"
            self._alive.append(thing)
        return name


def shape_str(t: Tensor) -> str:
    """``(2, 3)``, ``(3,)`` or ``()``: a shape as Python writes a tuple, as torchviz labels tensors."""
    return str(tuple(t._array.shape))


def value_str(t: Tensor) -> str | None:
    """The numbers of a small tensor, printed as tinygrad_edu prints them (``[1., 2., 3.]``); None if large."""
    array = t._array
    if array.size > SMALL or array.size == 0:
        return None
    return _tensor_str(array, 0) if array.ndim else _tensor_str(array, 0).strip()


def grad_text(t: Tensor | None) -> str:
    """A gradient for a label: its numbers when small, else its shape; ``None`` when there is none."""
    if t is None:
        return "None"
    return value_str(t) or f"tensor of shape {shape_str(t)}"


def with_prefix(prefix: str, text: str) -> list[str]:
    """``"grad [1., 2.]"`` on one line, or the prefix on its own line above a matrix's rows."""
    return [f"{prefix} {text}"] if "\n" not in text else [prefix, *text.split("\n")]


def tensor_names(params: Any, *, strict: bool, who: str) -> dict[int, str]:
    """``{id(tensor): name}`` from a ``{name: tensor}`` mapping (first name wins).

    ``strict`` (make_dot, like torchviz): every value must be a tensor. Otherwise (draw_graph, which accepts
    ``locals()``): values that are not tensors, and names starting with ``_`` (IPython's ``_``, ``_5``...), are
    skipped.
    """
    if params is None:
        return {}
    if not hasattr(params, "items"):
        raise TypeError(f"{who}: params must be a dict mapping names to tensors, e.g. "
                        f"dict(model.named_parameters()), not {type(params).__name__}")
    names: dict[int, str] = {}
    for name, value in params.items():
        if not isinstance(value, Tensor):
            if strict:
                raise TypeError(f"{who}: params must map names to tensors, but params[{name!r}] is a "
                                f"{type(value).__name__}")
            continue
        if not strict and str(name).startswith("_"):
            continue
        names.setdefault(id(value), str(name))
    return names


def outputs_of(var: Any, who: str) -> tuple[Tensor, ...]:
    """The tensor(s) to draw from: one tensor, or a tuple/list of tensors (several outputs at once)."""
    outputs = tuple(var) if isinstance(var, (tuple, list)) else (var,)
    for t in outputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"{who} draws the graph behind a tensor (or a tuple of tensors), not a "
                            f"{type(t).__name__}")
    if not outputs:
        raise ValueError(f"{who}: got an empty tuple, nothing to draw")
    return outputs


def wrap_caption(text: str, width: int = 100) -> str:
    """A long caption as left-justified DOT lines (``\\l`` ends a left-justified line)."""
    lines = []
    for paragraph in text.split("\n"):
        indent = " " * (len(paragraph) - len(paragraph.lstrip()) + 2)  # continued lines sit under the first
        lines += textwrap.wrap(paragraph, width, subsequent_indent=indent) or [""]
    return "".join(line.replace("\\", "\\\\") + "\\l" for line in lines)


def op_short_name(node: Any) -> str:
    """``MulBackward0`` -> ``Mul``; ``ExpBackward`` (a Function you wrote, ``Exp``) -> ``Exp``."""
    return re.sub(r"Backward\d*$", "", type(node).__name__)


# -- what a node saved -------------------------------------------------------------------------------------------

class Unreadable:
    """Stands for a saved value that can no longer be read: backward freed it (reading it raises PyTorch's
    "backward through the graph a second time" error), or it was modified in place since it was saved."""

    def __init__(self, why: str) -> None:
        self.why = why

    def __repr__(self) -> str:
        return f"[{self.why}]"


FREED = Unreadable("freed")
MODIFIED = Unreadable("modified in place")

SAVED_PREFIX = "_saved_"  # PyTorch exposes what a node saved as grad_fn._saved_self, ._saved_exponent...


def is_user_function(node: Any) -> bool:
    """Is this the node of a ``Function`` written outside the library (``class Exp(Function)``)?"""
    forward_cls = getattr(type(node), "_forward_cls", None)
    return forward_cls is not None and not forward_cls.__module__.startswith("tinygrad_edu.")


def _saved_attribute_values(node: Any) -> list[tuple[str, Any]]:
    """``(name, value)`` for each ``_saved_*`` attribute, by name (``_saved_self`` -> ``self``); FREED for
    those that backward freed."""
    result = []
    for attr in sorted(dir(node)):
        if not attr.startswith(SAVED_PREFIX):
            continue
        try:
            value = getattr(node, attr)
        except RuntimeError:  # freed by backward, or changed in place (PyTorch raises the same way)
            value = FREED if node._freed else MODIFIED
        result.append((attr[len(SAVED_PREFIX):], value))
    return result


def saved_tensors_of(node: Any) -> list[tuple[str, Any]]:
    """The tensors ``node`` saved for backward, as ``(name, tensor)``; an :class:`Unreadable` instead of the tensor
    once backward freed it (FREED), or if it was modified in place since (MODIFIED).

    Built-in ops name them as PyTorch does (``self``, ``other``: the node's ``_saved_self``, ``_saved_other``);
    a Function you write has ``saved_tensors[0]``, ``saved_tensors[1]``...
    """
    result = []
    if is_user_function(node):
        try:
            tensors = node.saved_tensors
        except RuntimeError:
            result.append(("saved_tensors", FREED if node._freed else MODIFIED))
        else:
            result += [(f"saved_tensors[{i}]", t) for i, t in enumerate(tensors) if isinstance(t, Tensor)]
    for name, value in _saved_attribute_values(node):
        if isinstance(value, (Tensor, Unreadable)):
            result.append((name, value))
        elif isinstance(value, tuple):
            result += [(f"{name}[{i}]", t) for i, t in enumerate(value) if isinstance(t, Tensor)]
    return result


def saved_attributes(node: Any) -> list[tuple[str, str]]:
    """The node's ``_saved_*`` attributes as text, by name: numbers as they are, tensors as ``[saved tensor]``."""
    result = []
    for name, value in _saved_attribute_values(node):
        if isinstance(value, Tensor):
            text = "[saved tensor]"
        elif isinstance(value, tuple) and any(isinstance(t, Tensor) for t in value):
            text = "[saved tensors]"
        else:
            text = str(value)
        result.append((name, text))
    return result
