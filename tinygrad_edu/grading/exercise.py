"""``with exercise("leaf-1", points=2): ...``: one graded part of an exercise notebook, and its verdict.

A check cell is one ``with exercise(...)`` block of checks. How the block ends decides what the learner
sees, always a few readable lines and never a stack trace:

* no error: ``✔ leaf-1 passed (2/2 points)``
* the answer is not there yet: ``✘ leaf-1 not attempted yet``, and what to do. That is a name the checks
  need that no cell has defined, or a function or class of the learner's that still holds the placeholder
  ``...`` release put in its body (or, in notebooks released before, the placeholder
  ``raise NotImplementedError()``). This verdict is *printed*, not raised: "Run all" on an untouched
  notebook runs every cell, and every check says what it is waiting for.
* a check failed (``CheckFailed``): ``✘ leaf-1 failed``, and the check's expected / got / hint
* the learner's code raised, in this cell, or in the cell that should have defined a name this cell needs:
  the error in one line, the line of the learner's code it came from, and what usually causes it (for
  PyTorch's common errors: no graph, a freed graph, an unused input ...)

The last two raise ``ExerciseFailed`` after the block, so the cell counts as failed for "Run all", for
nbval and for the grader. IPython asks an exception for ``_render_traceback_()`` before formatting a
traceback: it returns just the report. ``KeyboardInterrupt`` and ``SystemExit`` pass through untouched.

Two more things make exercises robust to running cells in any order:

* A check cell leaves the notebook's names as it found them. The inputs its checks build (``x``, ``p``,
  ``result`` ...) are removed or put back when the block ends, so running one exercise's check never
  changes what another exercise's cells see.
* In IPython, importing this module starts watching cells (``post_run_cell``): when a cell raises before
  it (re)defines a name (the statement that raised, and those after it, did not run), the error is kept
  for that name. A check that uses such a name
  reports that error (the name is missing, or holds a value an earlier run left), not "not attempted",
  and not a verdict on a stale value that grading, in a fresh kernel, would never see.
"""

from __future__ import annotations

import ast
import dis
import inspect
import linecache
import os
import re
import sys
import sysconfig
import textwrap
import traceback
import types
from collections.abc import Callable
from types import TracebackType
from typing import Any

from ._style import FAIL, PASS, colour_enabled, field, paint
from .checks import CheckFailed

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")

# The placeholder release writes where an answer goes (notebook.py); `...` goes under it in a function body.
PLACEHOLDER_COMMENT = "# YOUR CODE HERE"


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
    """The answer this check needs is not there yet. Printed by ``exercise``, not raised (see above)."""

    verdict, style = "not attempted yet", "todo"


# Frames from these folders are the library's or Python's; the learner's code is everything else.
_NOT_LEARNER = tuple(os.path.join(os.path.realpath(p), "") for p in {
    os.path.dirname(os.path.dirname(__file__)),
    *(sysconfig.get_paths()[k] for k in ("stdlib", "purelib", "platlib")),
})


def _is_learners(filename: str) -> bool:
    return not os.path.realpath(filename).startswith(_NOT_LEARNER)


def _learner_frame(tb: TracebackType | None) -> tuple[int, traceback.FrameSummary] | None:
    """The deepest frame of the learner's own code (index 0 is the check cell itself)."""
    frames = traceback.extract_tb(tb)
    for i in range(len(frames) - 1, -1, -1):
        if _is_learners(frames[i].filename):
            return i, frames[i]
    return None


# -- what usually causes an error --------------------------------------------------------------------------
_ERROR_HINTS = (
    ("does not require grad and does not have a grad_fn",
     "there is no graph to differentiate: the tensor was computed without recording one. Does the input require "
     "grad (requires_grad=True)? Under no_grad(), switch recording back on with torch.enable_grad(). For a second "
     "derivative, compute the first with create_graph=True (torch.autograd.grad(y, x, create_graph=True)), so "
     "that it has a graph of its own."),
    ("Only Tensors of floating point and complex dtype can require gradients",
     "only floating point tensors can require grad: write the numbers as floats (2.0, not 2)."),
    ("only one element tensors can be converted to Python scalars",
     "a function for one number (math.cos, math.radians, float(), .item()) got a tensor of several: use the "
     "tensor's own operations instead (torch.cos, torch.deg2rad, ...)."),
    ("returned an incorrect number of gradients",
     "backward returns one gradient per input of forward, in the same order (None for an input that needs none)."),
    ("backward through the graph a second time",
     "backward() frees the graph it ran through. To run backward through it again, pass retain_graph=True to the "
     "first backward() (or grad()); if this happened because you ran a cell a second time, run the cell that "
     "builds the graph (the setup cell above) again first."),
    ("appears to not have been used in the graph",
     "an input that the output does not depend on: pass allow_unused=True to get None for it instead of this "
     "error."),
    ("grad can be implicitly created only for scalar outputs",
     "backward() without an argument needs one number: reduce the result (.sum()), or pass gradient=..."),
    ("leaf Variable that requires grad is being used in an in-place operation",
     "update a parameter in place inside `with torch.no_grad():`, so that the update is not recorded."),
    ("has been modified by an inplace operation",
     "a tensor that backward needs was changed in place after it was saved: change a copy (.clone()), or make "
     "the change after backward()."),
    ("Inference tensors cannot be saved for backward",
     "a tensor made under inference_mode() cannot be saved by a recorded operation: use a .clone() of it."),
    ("Jacobian mismatch",
     "gradcheck compared the backward with numerical differences and they differ: the backward is wrong. "
     "gradcheck(..., raise_exception=False) returns False instead of raising."),
)


def _error_hint(error: BaseException, line: str = "") -> str:
    """What usually causes ``error`` (``line``: the learner's line it came from, if known)."""
    text = str(error)
    if isinstance(error, RecursionError):
        return "the recursion went too deep: walk the graph with a loop and a stack (a list) instead."
    if isinstance(error, KeyboardInterrupt):
        return "the cell was interrupted before it finished: run it again (an endless loop?)."
    if isinstance(error, SyntaxError):
        return "the cell is not valid Python, so none of it ran: fix the line shown, then run the cell again."
    for pattern, hint in _ERROR_HINTS:
        if pattern in text:
            return hint
    if "NoneType" in text:
        if ".grad_fn" in line:
            return ("a grad_fn is None here: a leaf (a tensor no recorded operation made) has grad_fn None. Check "
                    "for None before using it.")
        if re.search(r"\.grad\b", line):
            return ("a .grad is None here: backward() fills .grad only for leaves that require grad. A tensor made "
                    "by an operation is not a leaf: a parameter rebound with p = p - ... is one (update it in place, "
                    "under torch.no_grad(): p -= ...), and an intermediate keeps its gradient only if .retain_grad() "
                    "was called on it before backward(). Also check that backward() ran.")
        return ("a value is None where something else was expected: does a function forget to `return`, or is "
                "it a .grad that backward() never filled?")
    return "this error came from running the code, not from a comparison: fix it, run your answer cell again, " \
        "then this cell."


def _one_line(error: BaseException) -> str:
    text = error.msg if isinstance(error, SyntaxError) and error.msg else str(error)  # without the cell's file name
    lines = text.strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


# -- watching the cells that run (IPython) -----------------------------------------------------------------
_WATCH = "_tinygrad_edu_watch"  # the shell attribute that holds what the watcher learned (kept across re-imports)
_CHECK_CELL = re.compile(r"\s*with\s+exercise\s*\(")


def _shell() -> Any:
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


def _bound(nodes: list[ast.AST]) -> set[str]:
    """The names statements bind in the scope they run in (assignments, defs, classes, imports, loop variables)."""
    names: set[str] = set()
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
              ast.DictComp, ast.GeneratorExp)
    todo = list(nodes)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        if not isinstance(node, scopes):
            todo.extend(ast.iter_child_nodes(node))
    return names


def _defined_names(source: str, before_line: int | None = None) -> set[str]:
    """The names a cell binds at its top level; with ``before_line``, only by the statements that end before it
    (those that ran in full, when the cell raised at that line)."""
    try:
        statements = ast.parse(source).body
    except SyntaxError:  # magics, or the cell's own syntax error: read the plain `name = ` and `def name` lines
        return set() if before_line else \
            set(re.findall(r"^(?:def |class )?([A-Za-z_]\w*)\s*(?:=[^=]|\(|:)", source, re.M))
    if before_line is not None:
        statements = [s for s in statements if (s.end_lineno or s.lineno) < before_line]
    return _bound(statements)


def _after_cell(result: Any) -> None:
    """IPython's post_run_cell callback. A cell that raised before it (re)defined a name leaves that name
    missing, or holding a value from an earlier run: remember the error for it. The names the cell did
    define, by the statements that ran in full, are forgotten."""
    try:
        watch = getattr(_shell(), _WATCH)
        source = result.info.raw_cell if result.info is not None else ""
        if not source or _CHECK_CELL.match(source):
            return
        error = result.error_before_exec or result.error_in_exec
        defined = _defined_names(source)
        ran = defined
        if error is not None:  # the cell's own code is the learner's module-level frame in the traceback
            frames = [f for f in traceback.extract_tb(error.__traceback__)
                      if _is_learners(f.filename) and f.name == "<module>"]
            ran = _defined_names(source, frames[0].lineno) if frames and result.error_in_exec else set()
        for name in defined:
            if name in ran:
                watch["errors"].pop(name, None)
            else:
                watch["errors"][name] = error
    except Exception:  # watching must never disturb the learner's cells
        pass


def _watch_cells() -> None:
    """Start watching cells, once per IPython session (this module is imported again by the grader)."""
    shell = _shell()
    if shell is None or hasattr(shell, _WATCH):
        return
    setattr(shell, _WATCH, {"errors": {}})
    shell.events.register("post_run_cell", _after_cell)


def _watched() -> dict:
    return getattr(_shell(), _WATCH, None) or {"errors": {}}


_watch_cells()


# -- what the check cell uses ------------------------------------------------------------------------------
def _used_names(code: types.CodeType) -> set[str]:
    """The global names ``code`` and the functions and lambdas inside it read (not attribute names)."""
    names, todo = set(), [code]
    while todo:
        c = todo.pop()
        names.update(i.argval for i in dis.get_instructions(c) if i.opname in ("LOAD_NAME", "LOAD_GLOBAL"))
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return names


def _failing_statement_names(code: types.CodeType | None, tb: TracebackType | None) -> set[str] | None:
    """The names used by the statement of the check cell (``code``) where ``tb`` failed; None if unknown."""
    while tb is not None and tb.tb_frame.f_code is not code:
        tb = tb.tb_next
    source = "".join(linecache.getlines(code.co_filename)) if tb is not None and code is not None else ""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    line = tb.tb_lineno if tb is not None else 0
    blocks = (ast.With, ast.For, ast.While, ast.If, ast.Try, ast.FunctionDef, ast.ClassDef)
    statements = [s for s in ast.walk(tree) if isinstance(s, ast.stmt) and not isinstance(s, blocks)
                  and s.lineno <= line <= (s.end_lineno or s.lineno)]
    if not statements:
        return None
    innermost = min(statements, key=lambda s: (s.end_lineno or s.lineno) - s.lineno)
    return {n.id for n in ast.walk(innermost) if isinstance(n, ast.Name)}


def _holds_placeholder(fn: types.FunctionType) -> bool:
    """Whether the body of the learner's function still holds the placeholder statement ``...``."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    return any(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and node.value.value is Ellipsis
               for node in ast.walk(tree))


def _unanswered(code: types.CodeType, namespace: dict) -> str | None:
    """The name of a function or class of the learner's, used by ``code`` (directly or through the learner's
    other functions), that still holds the placeholder; None if there is none."""
    seen: set[int] = set()
    todo = [(name, namespace) for name in sorted(_used_names(code))]
    while todo:
        name, space = todo.pop(0)
        obj = space.get(name)
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        functions = []
        if isinstance(obj, types.FunctionType):
            functions = [obj]
        elif isinstance(obj, type):
            functions = [getattr(f, "__func__", f) for f in vars(obj).values()]
        for fn in functions:
            if isinstance(fn, types.FunctionType) and _is_learners(fn.__code__.co_filename):
                if _holds_placeholder(fn):
                    return name
                todo += [(n, fn.__globals__) for n in sorted(_used_names(fn.__code__))]
    return None


def _todo(message: str) -> Callable[[bool], list[str]]:
    return lambda colour: field("todo", message, colour)


class Exercise:
    """The context manager behind ``exercise(grade_id, points)``."""

    def __init__(self, grade_id: str, points: float = 1) -> None:
        if not isinstance(grade_id, str) or not _ID.match(grade_id):
            raise ValueError(f"exercise id must be letters, digits, '-', '_' or '.', starting with a letter or "
                             f"digit, got {grade_id!r}")
        if isinstance(points, bool) or not isinstance(points, (int, float)) or not points > 0:
            raise ValueError(f"points of exercise {grade_id!r} must be a positive number, got {points!r}")
        self.grade_id, self.points = grade_id, points
        self._code: types.CodeType | None = None
        self._namespace: dict = {}
        self._saved: dict | None = None

    def __enter__(self) -> Exercise:
        caller = sys._getframe(1)
        self._code, self._namespace = caller.f_code, caller.f_globals
        if caller.f_code.co_name == "<module>":  # a notebook cell: its names are the notebook's names
            self._saved = dict(caller.f_globals)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> bool:
        try:
            return self._verdict(exc, tb)
        finally:
            self._restore_names()

    def _restore_names(self) -> None:
        """Put the notebook's names back as they were before the block (see the module docstring)."""
        if self._saved is None:
            return
        space, saved = self._namespace, self._saved
        for name in [n for n in space if n not in saved]:
            del space[name]
        for name, value in saved.items():
            if space.get(name, saved) is not value:
                space[name] = value
        self._saved = None

    def _not_attempted(self, message: str) -> bool:
        print("\n".join(NotAttempted(self.grade_id, self.points, _todo(message)).render(colour_enabled())))
        return True  # printed, and the error (if any) swallowed: "Run all" goes on

    def _verdict(self, exc: BaseException | None, tb: TracebackType | None) -> bool:
        if exc is not None and not isinstance(exc, Exception):  # KeyboardInterrupt, SystemExit: not ours to judge
            return False
        # A name this check uses, whose cell raised before defining it: the check cannot judge that answer
        # (the name is missing, or holds what an earlier run left), so it reports the error instead.
        errors = _watched()["errors"]
        stale = sorted(n for n in _used_names(self._code) if n in errors) if self._code is not None else []
        if stale and exc is not None:  # unless the check failed on a statement that uses none of them
            involved = _failing_statement_names(self._code, tb)
            stale = [n for n in stale if involved is None or n in involved]
        if stale:
            name = exc.name if isinstance(exc, NameError) and getattr(exc, "name", None) in stale else stale[0]
            if type(errors[name]) is not NotImplementedError or str(errors[name]):
                raise ExerciseFailed(self.grade_id, self.points, self._raised_in_cell(name, errors[name])) from None
            exc = errors[name]  # the placeholder of notebooks released before `...`: not attempted, below
        if exc is None:
            print(pass_line(self.grade_id, self.points))
            return False
        found = _learner_frame(tb)
        if isinstance(exc, NameError) and not isinstance(exc, UnboundLocalError) and (found is None or found[0] == 0):
            return self._not_attempted(self._undefined(getattr(exc, "name", None) or "a name"))
        if type(exc) is NotImplementedError and not str(exc):  # the placeholder of notebooks released before
            return self._not_attempted("your code still raises NotImplementedError(): replace `raise "
                                       "NotImplementedError()` with your answer, run that cell, then run this cell "
                                       "again.")
        unanswered = _unanswered(self._code, self._namespace) if self._code is not None else None
        if unanswered:
            return self._not_attempted(f"`{unanswered}` still holds the placeholder `...`: write your answer in its "
                                       "place, run that cell, then run this cell again.")
        if isinstance(exc, CheckFailed):
            raise ExerciseFailed(self.grade_id, self.points, exc.lines) from None
        where, line = None, ""
        if found is not None:
            index, frame = found
            line = frame.line or ""
            shown = f": {line.strip()}" if line else ""
            where = f"this check cell, line {frame.lineno}{shown}" if index == 0 else f"in {frame.name}(){shown}"

        def details(colour: bool) -> list[str]:
            lines = field("error", _one_line(exc), colour, "fail")
            if where:
                lines += field("where", where, colour)
            return lines + field("hint", _error_hint(exc, line), colour, "hint")

        raise ExerciseFailed(self.grade_id, self.points, details) from None

    def _undefined(self, name: str) -> str:
        return (f"`{name}` is not defined. Write your answer in the answer cell above (where it says "
                f"`{PLACEHOLDER_COMMENT}`) and run it, and the cells above it, then run this cell again.")

    @staticmethod
    def _raised_in_cell(name: str, raised: BaseException) -> Callable[[bool], list[str]]:
        """The report for a name the check needs, whose cell raised before defining it."""
        frames = [f for f in traceback.extract_tb(raised.__traceback__) if _is_learners(f.filename)]
        if isinstance(raised, SyntaxError):
            line = (raised.text or "").strip()
            where = f"the cell that defines `{name}`, line {raised.lineno}" + (f": {line}" if line else "")
        elif frames:
            cell, deepest = next((f for f in frames if f.name == "<module>"), frames[0]), frames[-1]
            line = (deepest.line or "").strip()
            where = f"the cell that defines `{name}`, line {cell.lineno}" + (
                f": {line}" if deepest is cell else f", in {deepest.name}(): {line}")
        else:
            line, where = "", f"the cell that defines `{name}`"
        message = f"{_one_line(raised)} (the cell stopped there, before it defined `{name}`)"

        def details(colour: bool) -> list[str]:
            return field("error", message, colour, "fail") + field("where", where, colour) + \
                field("hint", _error_hint(raised, line), colour, "hint")

        return details


def exercise(grade_id: str, points: float = 1) -> Exercise:
    """Mark a check cell: ``with exercise("leaf-1", points=2): check_...(...)``.

    ``grade_id`` names the part (unique in its notebook); ``points`` is what passing it is worth. Release
    and the grader read both from the source code, so write them as literals.
    """
    return Exercise(grade_id, points)
