"""``with exercise("leaf-1", points=2): ...``: one graded part of an exercise notebook, and its verdict.

A check cell is one ``with exercise(...)`` block of checks. How the block ends decides what the learner
sees, always a few readable lines and never a stack trace:

* no error: ``✔ leaf-1 passed (2/2 points)``
* a check failed (``CheckFailed``): ``✘ leaf-1 failed (0/2 points)`` and the check's expected / got / hint
* a name the checks need is not defined, or the code still raises the placeholder's
  ``NotImplementedError()``: ``✘ leaf-1 not attempted yet``, and what to run
* any other error: its type and message, and the line of the learner's code it came from

The last three raise an exception (``ExerciseFailed`` or its subclass ``NotAttempted``) after the block,
so the cell still counts as failed for "Run all", for nbval and for the grader. IPython asks an
exception for ``_render_traceback_()`` before formatting a traceback: these return just the report.
``KeyboardInterrupt`` and ``SystemExit`` pass through untouched.
"""

from __future__ import annotations

import os
import re
import sysconfig
import traceback
from collections.abc import Callable
from types import TracebackType

from ._style import FAIL, PASS, colour_enabled, field, paint
from .checks import CheckFailed

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


def format_points(points: float) -> str:
    """2 -> '2', 1.5 -> '1.5'."""
    return f"{points:g}"


def pass_line(grade_id: str, points: float, colour: bool | None = None) -> str:
    """What a passing check cell prints (the grader looks for this line too)."""
    return paint(f"{PASS} {grade_id} passed", "pass", colour) + f" ({format_points(points)}/{format_points(points)} " \
        "points)"


class ExerciseFailed(Exception):  # noqa: N818  (a verdict on the learner's answer, not a bug: no "Error")
    """A check cell did not pass. ``str()`` is the plain report; in IPython the coloured report replaces
    the traceback."""

    verdict, style = "failed", "fail"

    def __init__(self, grade_id: str, points: float, details: Callable[[bool], list[str]]) -> None:
        self.grade_id, self.points, self._details = grade_id, points, details
        super().__init__("\n".join(self.render(colour=False)))

    def render(self, colour: bool) -> list[str]:
        head = paint(f"{FAIL} {self.grade_id} {self.verdict}", self.style, colour)
        return [f"{head} (0/{format_points(self.points)} points)", *self._details(colour)]

    def _render_traceback_(self) -> list[str]:
        return self.render(colour_enabled())


class NotAttempted(ExerciseFailed):
    """The answer this check needs is not there yet (the answer cell still raises NotImplementedError)."""

    verdict, style = "not attempted yet", "todo"


# Frames from these folders are the library's or Python's; the learner's code is everything else.
_NOT_LEARNER = tuple(os.path.join(os.path.realpath(p), "") for p in {
    os.path.dirname(os.path.dirname(__file__)),
    *(sysconfig.get_paths()[k] for k in ("stdlib", "purelib", "platlib")),
})


def _learner_frame(tb: TracebackType | None) -> tuple[int, traceback.FrameSummary] | None:
    """The deepest frame of the learner's own code (index 0 is the check cell itself)."""
    frames = traceback.extract_tb(tb)
    for i in range(len(frames) - 1, -1, -1):
        if not os.path.realpath(frames[i].filename).startswith(_NOT_LEARNER):
            return i, frames[i]
    return None


def _error_hint(error: Exception) -> str:
    text = str(error)
    if isinstance(error, RecursionError):
        return "the recursion went too deep: walk the graph with a loop and a stack (a list) instead."
    if "backward through the graph a second time" in text:
        return ("backward() frees the graph it ran through: compute the forward pass again, or pass "
                "retain_graph=True to the first backward().")
    if "NoneType" in text:
        return ("a value is None where something else was expected: does a function forget to `return`, or is "
                "it a .grad that backward() never filled?")
    return "this error came from running the code, not from a comparison: fix it, run your answer cell again, " \
        "then this cell."


class Exercise:
    """The context manager behind ``exercise(grade_id, points)``."""

    def __init__(self, grade_id: str, points: float = 1) -> None:
        if not isinstance(grade_id, str) or not _ID.match(grade_id):
            raise ValueError(f"exercise id must be letters, digits, '-', '_' or '.', starting with a letter or "
                             f"digit, got {grade_id!r}")
        if isinstance(points, bool) or not isinstance(points, (int, float)) or not points > 0:
            raise ValueError(f"points of exercise {grade_id!r} must be a positive number, got {points!r}")
        self.grade_id, self.points = grade_id, points

    def __enter__(self) -> Exercise:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> bool:
        if exc is None:
            print(pass_line(self.grade_id, self.points))
            return False
        if not isinstance(exc, Exception):  # KeyboardInterrupt, SystemExit: not ours to judge
            return False
        if isinstance(exc, CheckFailed):
            raise ExerciseFailed(self.grade_id, self.points, exc.lines) from None
        found = _learner_frame(tb)
        in_check_cell = found is None or found[0] == 0
        if isinstance(exc, NameError) and not isinstance(exc, UnboundLocalError) and in_check_cell:
            name = getattr(exc, "name", None) or "a name"
            message = (f"`{name}` is not defined. Run the cells above this one, your answer cell included "
                       "(replace `raise NotImplementedError()` with your answer), then run this cell again.")
            raise NotAttempted(self.grade_id, self.points, lambda colour: field("todo", message, colour)) from None
        if type(exc) is NotImplementedError and not str(exc):  # the placeholder release puts in answer cells
            message = ("your code still raises NotImplementedError(): replace `raise NotImplementedError()` with "
                       "your answer, run that cell, then run this cell again.")
            raise NotAttempted(self.grade_id, self.points, lambda colour: field("todo", message, colour)) from None
        where = None
        if found is not None:
            index, frame = found
            line = f": {frame.line.strip()}" if frame.line else ""
            where = f"this check cell, line {frame.lineno}{line}" if index == 0 else f"in {frame.name}(){line}"

        def details(colour: bool) -> list[str]:
            lines = field("error", f"{type(exc).__name__}: {exc}", colour, "fail")
            if where:
                lines += field("where", where, colour)
            return lines + field("hint", _error_hint(exc), colour, "hint")

        raise ExerciseFailed(self.grade_id, self.points, details) from None


def exercise(grade_id: str, points: float = 1) -> Exercise:
    """Mark a check cell: ``with exercise("leaf-1", points=2): check_...(...)``.

    ``grade_id`` names the part (unique in its notebook); ``points`` is what passing it is worth. Release
    and the grader read both from the source code, so write them as literals.
    """
    return Exercise(grade_id, points)
