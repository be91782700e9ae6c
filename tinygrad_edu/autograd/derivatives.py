"""The derivative table as a learner reads it, taken from the real one (``tinygrad_edu/core/derivatives.py``).

``derivative_table()`` lists every entry's node and its backward formulas, one line per input, as written in the
source; ``entry_source("MulBackward0")`` gives an entry's whole text. Both read the core's own file, so what the
docs and lessons show cannot drift from what runs.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterable
from dataclasses import dataclass

from ..core import derivatives

_OPTIONS = {"broadcast", "floating", "view", "saved", "refusal", "jvp"}  # derivative()'s keywords that are not formulas


@dataclass(frozen=True)
class Entry:
    """One entry of the table: the node's name, its formulas (input name -> source text), and the entry's source."""

    node: str
    formulas: dict[str, str]
    source: str


def entries() -> list[Entry]:
    """The table's entries, in the order of the file, read from its source."""
    source = inspect.getsource(derivatives)
    found = []
    for statement in ast.parse(source).body:
        call = getattr(statement, "value", None)
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "derivative"):
            continue
        formulas = {kw.arg: ast.get_source_segment(source, kw.value.body) for kw in call.keywords
                    if kw.arg not in _OPTIONS and isinstance(kw.value, ast.Lambda)}
        found.append(Entry(call.args[0].value, formulas, ast.get_source_segment(source, statement)))
    return found


def entry_source(node: str) -> str:
    """The source of the entry whose node is ``node`` (``"MulBackward0"``)."""
    for entry in entries():
        if entry.node == node:
            return entry.source
    raise KeyError(f"no entry for {node} in the derivative table")


def derivative_table(nodes: Iterable[str] | None = None) -> str:
    """The table as text, one line per formula: ``MulBackward0    self: grad * other``. ``nodes``: only those."""
    wanted = None if nodes is None else set(nodes)
    lines = []
    for entry in entries():
        if wanted is None or entry.node in wanted:
            for name, text in entry.formulas.items():
                lines.append(f"{entry.node:27} {name + ':':12} {' '.join(text.split())}")
    return "\n".join(lines)
