"""How check results look: symbols and words first, colour only on top.

Meaning never depends on colour: a result always says ``✔``/``✘`` and "passed"/"failed", and a failed
check always labels its lines ``expected``, ``got`` and ``hint``. Colour is added with ANSI escape
codes, which Jupyter renders in printed output and in tracebacks, unless the ``NO_COLOR`` environment
variable is set to anything non-empty (https://no-color.org).
"""

from __future__ import annotations

import os
import re
import textwrap

import numpy as np

PASS, FAIL = "✔", "✘"

_CODES = {"pass": "32", "fail": "31", "todo": "33", "label": "1", "hint": "36", "dim": "2"}
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def colour_enabled() -> bool:
    """True unless ``NO_COLOR`` is set to a non-empty value (read on every call, so it can be changed live)."""
    return not os.environ.get("NO_COLOR")


def paint(text: str, style: str, colour: bool | None = None) -> str:
    """``text`` wrapped in the ANSI code of ``style`` ("pass", "fail", "todo", "label", "hint", "dim")."""
    if colour is None:
        colour = colour_enabled()
    return f"\x1b[{_CODES[style]}m{text}\x1b[0m" if colour else text


def strip_ansi(text: str) -> str:
    """The text without colour codes (what a terminal without colour, or a test, should compare)."""
    return _ANSI.sub("", text)


def show(value: object, limit: int = 300) -> str:
    """A value as the learner would see it printed, on as few lines as is readable, cut at ``limit``."""
    text = np.array2string(value, precision=4, separator=", ") if isinstance(value, np.ndarray) else repr(value)
    return text if len(text) <= limit else text[: limit - 4] + " ..."


_VALUES = {"check", "expected", "got", "where"}
_CODE = re.compile(r"`[^`]+`")  # shown as they are; other labels hold prose, wrapped


def field(label: str, text: str, colour: bool, style: str | None = None, width: int = 100) -> list[str]:
    """``  label:    text`` lines, continuation lines indented under the text (wrapped at ``width``)."""
    head = f"  {label + ':':<10}"
    lines: list[str] = []
    for i, paragraph in enumerate(text.splitlines() or [""]):
        # Values (tensors, lists) keep their own line breaks; prose is wrapped.
        # Code in backticks stays on one line: its spaces become no-break spaces while wrapping.
        whole = _CODE.sub(lambda m: m.group(0).replace(" ", "\xa0"), paragraph)
        wrapped = None if label in _VALUES else [piece.replace("\xa0", " ") for piece in
                                                 textwrap.wrap(whole, width - len(head), break_on_hyphens=False)]
        for j, piece in enumerate(wrapped or [paragraph]):
            body = paint(piece, style, colour) if style else piece
            first = i == 0 and j == 0
            lines.append((paint(head, "label", colour) if first else " " * len(head)) + body)
    return lines
