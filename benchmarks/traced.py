"""Case (g): how much of the library a learner steps through, traced on one small program.

The program makes ``x`` of shape (2, 3) and ``w`` of shape (3,) with ``torch.tensor(..., requires_grad=True)``
(so ``x * w`` broadcasts, and both get gradients), then runs ``y = torch.tanh((x * w).sum(1)).mean()`` and
``y.backward()``. A debugger that steps into every call shows each library line it runs; this counts them
as ``sys.settrace`` sees them: the distinct (file, line) pairs of the library executed, a function's ``def``
line counted when it is entered, and the files they are in. Three figures:

* **backward**: the lines ``y.backward()`` runs;
* **forward**: the lines the program runs before that, the two tensors' creation included;
* the forward alone, on tensors that exist already (for reference).

The program runs once untraced before: the figures are a second run's, without what is computed once per process.

Not a timing: the same code gives the same figures on every machine. ``tests/test_project.py`` holds the
library to the figures reached (backward 149 lines in 4 files, forward 117 in 4, the forward alone 101 in 3).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import tinygrad_edu as torch

PACKAGE = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep


@dataclass
class Traced:
    """The library lines one piece of code ran: ``lines`` (file, line number) pairs."""

    what: str
    lines: set[tuple[str, int]]
    result: Any = None

    @property
    def files(self) -> list[str]:
        """The library files those lines are in, relative to the package."""
        return sorted({os.path.relpath(f, PACKAGE) for f, _ in self.lines})


def trace(what: str, fn: Callable[[], Any]) -> Traced:
    """Run ``fn`` and collect the library lines it executed (``call`` and ``line`` events)."""
    lines: set[tuple[str, int]] = set()

    def tracer(frame: Any, event: str, arg: Any) -> Callable:
        filename = frame.f_code.co_filename
        if event in ("call", "line") and filename.startswith(PACKAGE):
            lines.add((filename, frame.f_lineno))
        return tracer

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        result = fn()
    finally:
        sys.settrace(old)
    return Traced(what, lines, result)


def _leaves() -> tuple[torch.Tensor, torch.Tensor]:
    return (torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True),
            torch.tensor([0.1, 0.2, 0.3], requires_grad=True))


def trace_program() -> list[Traced]:
    """The three figures of the module docstring: backward, forward, the forward on existing tensors. The program
    runs once untraced first, so that what a process computes once and keeps (a cache) is not counted."""
    def forward() -> Any:
        x, w = _leaves()
        return torch.tanh((x * w).sum(1)).mean()

    forward().backward()

    traced_forward = trace("forward", forward)
    backward = trace("backward", traced_forward.result.backward)
    x, w = _leaves()
    on_existing = trace("forward on existing x and w", lambda: torch.tanh((x * w).sum(1)).mean())
    return [backward, traced_forward, on_existing]


def traced_table(traced: list[Traced]) -> str:
    lines = ["| g. traced `torch.tanh((x * w).sum(1)).mean().backward()` | library lines | files | which files |",
             "| --- | ---: | ---: | --- |"]
    for t in traced:
        lines.append(f"| {t.what} | {len(t.lines)} | {len(t.files)} | {', '.join(t.files)} |")
    return "\n".join(lines)
