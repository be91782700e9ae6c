"""The oracle shared by the tests that compare tinygrad_edu with PyTorch, message for message.

Each check is written once, as a function of the library module ``lib`` (``tinygrad_edu`` or ``torch``). The
test asserts what tinygrad_edu does (the expected text is spelled out, so it means something without torch)
and, when torch is installed, that PyTorch does exactly the same: same exception type, same message with
"torch." read as "tinygrad_edu.", same warnings, same printed result.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import tinygrad_edu as tg


@functools.cache
def oracle() -> ModuleType | None:
    """PyTorch, if installed (it is only ever the yardstick, never a dependency)."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def normalise(text: str) -> str:
    """PyTorch's text as tinygrad_edu writes it: our module name, no object addresses, no C++ source locations."""
    text = re.sub(r" \(Triggered internally at [^)]*\)", "", text)
    text = re.sub(r" at 0x[0-9a-f]+", " at 0x...", text)
    return re.sub(r"(?<![\w/#])torch(?=[.:])", "tinygrad_edu", text)  # not in "pytorch.org" or URL anchors


Outcome = tuple[str | None, str, list[str]]


def ok(text: str) -> Outcome:
    """What a case prints when it runs without an error or a warning."""
    return None, text, []


def err(kind: str, message: str) -> Outcome:
    """An error, with PyTorch's type and message, and no warning."""
    return kind, message, []


def outcome(fn: Callable[[ModuleType], Any], lib: ModuleType) -> Outcome:
    """What ``fn(lib)`` did: (exception type or None, message or repr of the result, warnings as "Category: text")."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(lib)
        except Exception as e:
            kind, text = type(e).__name__, str(e)
        else:
            kind, text = None, repr(result)
    return kind, normalise(text), [f"{w.category.__name__}: {normalise(str(w.message))}" for w in caught]


def as_pytorch(fn: Callable[[ModuleType], Any], expected: Outcome | None = None) -> Outcome:
    """Run ``fn`` with tinygrad_edu (checking ``expected`` if given) and, if torch is installed, with torch too."""
    ours = outcome(fn, tg)
    if expected is not None:
        assert ours == expected
    torch = oracle()
    if torch is not None:
        assert ours == outcome(fn, torch)
    return ours


def raises(fn: Callable[[ModuleType], Any], exc: type[Exception], message: str) -> None:
    """``fn`` raises ``exc(message)`` with no warning, in tinygrad_edu and in PyTorch."""
    as_pytorch(fn, (exc.__name__, message, []))


class Text(str):
    """A string whose repr is itself: a case's outcome is the repr of what it returns, here lines of text."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def node_names(fn: Any) -> list[str]:
    """The node names of a graph, depth first from ``fn`` (each node once, in the order next_functions gives)."""
    seen, out, stack = set(), [], [fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        out.append(type(node).__name__)
        stack.extend(n for n, _ in reversed(node.next_functions))
    return out
