"""The exercise notebook format: how a solution notebook marks answers, checks and hidden tests.

A notebook in ``solutions/`` is an ordinary notebook with three kinds of marked cells:

* an **answer cell** (code or markdown) contains a region ``### BEGIN SOLUTION`` ... ``### END SOLUTION``
  (each marker on a line of its own). Release replaces each region of a code cell with the comment
  ``# YOUR CODE HERE``, and, where Python needs a statement (an indented region: a function body), the
  statement ``...`` under it; a region of a markdown cell becomes ``YOUR ANSWER HERE``. Everything outside
  the regions is kept: scaffolding, ``def`` lines. The placeholder raises nothing, so "Run all" on an
  untouched notebook runs to the end, and the checks recognise it (a name no cell defined, or a function
  whose body still holds ``...``) and say "not attempted yet" (``exercise.py``).
* a **check cell** is a code cell that is exactly one ``with exercise("<id>", points=<n>):`` block. Its
  lines between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS`` are removed from what learners
  get, and kept for grading.
* every other cell is released as it is (without outputs).

Each answer cell belongs to the exercise whose check cell comes next; its id is ``<id>-answer`` (then
``<id>-answer-2`` ...). So a written (markdown) answer, too, must be followed by a check cell.

The released notebook records, in cell metadata under ``"tinygrad_edu"``: for a check cell its
``grade_id``, ``points`` and ``checksum`` (sha256 of the source learners get, so the grader can tell an
edited check cell), and for an answer cell its ``grade_id`` and ``"solution": true``. Check cells are
tagged ``check`` and marked read-only for JupyterLab (``editable``/``deletable`` false); answer cells are
tagged ``answer``. The notebook's metadata names its source (``solutions/05_leaf_tensors.ipynb``).

Release output is byte-stable: sorted keys, fixed indentation, no outputs, execution counts or
machine-specific metadata, so ``release --check`` can compare files exactly.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .exercise import _ID, PLACEHOLDER_COMMENT

SOLUTION = ("### BEGIN SOLUTION", "### END SOLUTION")
HIDDEN = ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
MARKDOWN_PLACEHOLDER = "YOUR ANSWER HERE"
META = "tinygrad_edu"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}

# A line that looks like a marker but is not exactly one would otherwise leak an answer: refuse it.
_MARKER_LIKE = re.compile(r"^\s*#+\s*(BEGIN|END)\s+[A-Z]")


class FormatError(ValueError):
    """A solution notebook breaks the format; the message says where and how to fix it."""


def source_text(source: Any) -> str:
    """A cell's source as one string (notebook files store a list of lines or a string)."""
    text = "".join(source) if isinstance(source, list) else str(source)
    return text.replace("\r\n", "\n")


def checksum(source: str) -> str:
    """The fingerprint of a check cell's released source."""
    return hashlib.sha256(source_text(source).encode("utf-8")).hexdigest()


def code_placeholder(indent: str) -> tuple[str, ...]:
    """What replaces an answer region indented by ``indent``: the comment alone at a cell's top level (where
    a ``...`` would be shown as the cell's output, ``Ellipsis``), the comment and ``...`` in a block."""
    return (PLACEHOLDER_COMMENT, "...") if indent else (PLACEHOLDER_COMMENT,)


def _replace_regions(source: str, markers: tuple[str, str], placeholder: Callable[[str], tuple[str, ...]],
                     where: str) -> str:
    """``source`` with each region between the two markers replaced by ``placeholder(indent)``, indented."""
    begin, end = markers
    out: list[str] = []
    opened = 0  # line number of the open region's BEGIN, 0 if none is open
    for n, line in enumerate(source.split("\n"), 1):
        mark = line.strip()
        if mark == begin:
            if opened:
                raise FormatError(f"{where}, line {n}: {begin} inside a region opened on line {opened}")
            opened = n
            indent = line[: len(line) - len(line.lstrip())]
            out.extend(indent + p for p in placeholder(indent))
        elif mark == end:
            if not opened:
                raise FormatError(f"{where}, line {n}: {end} without a {begin} before it")
            opened = 0
        elif not opened:
            out.append(line)
    if opened:
        raise FormatError(f"{where}, line {opened}: {begin} is never closed by {end}")
    return "\n".join(out)


def _check_markers(source: str, allowed: tuple[str, ...], where: str, what: str) -> None:
    for n, line in enumerate(source.split("\n"), 1):
        if _MARKER_LIKE.match(line) and line.strip() not in allowed:
            known = (*SOLUTION, *HIDDEN)
            reason = f"{what} cannot hold {line.strip()!r}" if line.strip() in known else \
                f"{line.strip()!r} looks like a marker but is not one of {', '.join(known)}"
            raise FormatError(f"{where}, line {n}: {reason}")


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except SyntaxError:
        return False
    return True


def _literal(node: ast.expr | None, default: Any = None) -> Any:
    if node is None:
        return default
    if not isinstance(node, ast.Constant):
        raise ValueError
    return node.value


def find_exercise(source: str, where: str) -> tuple[str, float] | None:
    """``(grade_id, points)`` if ``source`` is a check cell (a ``with exercise(...)`` block), else None."""
    if not re.search(r"\bexercise\s*\(", source):
        return None
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise FormatError(f"{where}: a cell that calls exercise(...) must be valid Python: {error.msg} "
                          f"(line {error.lineno})") from None
    calls = [item.context_expr for node in ast.walk(tree) if isinstance(node, (ast.With, ast.AsyncWith))
             for item in node.items if isinstance(item.context_expr, ast.Call)
             and getattr(item.context_expr.func, "id", getattr(item.context_expr.func, "attr", None)) == "exercise"]
    if not calls:
        return None
    if len(calls) > 1 or len(tree.body) != 1 or not isinstance(tree.body[0], ast.With):
        raise FormatError(f"{where}: a check cell is exactly one `with exercise(...):` block (one exercise "
                          "part per cell, and nothing outside the block, so every line of it is judged)")
    call = calls[0]
    keywords = {k.arg: k.value for k in call.keywords}
    try:
        grade_id = _literal(call.args[0] if call.args else keywords.get("grade_id"))
        points = _literal(call.args[1] if len(call.args) > 1 else keywords.get("points"), 1)
    except ValueError:
        raise FormatError(f"{where}: write the exercise id and points as literals, e.g. "
                          "exercise(\"leaf-1\", points=2): release reads them without running the cell") from None
    if not isinstance(grade_id, str) or not _ID.match(grade_id):
        raise FormatError(f"{where}: exercise id must be a string of letters, digits, '-', '_' or '.', "
                          f"got {grade_id!r}")
    if isinstance(points, bool) or not isinstance(points, (int, float)) or not points > 0:
        raise FormatError(f"{where}: points of exercise {grade_id!r} must be a positive number, got {points!r}")
    return grade_id, points


@dataclass
class Cell:
    """One cell of a solution notebook, as the source has it and as learners get it."""

    index: int
    cell_type: str
    cell_id: str
    source: str  # with answers and hidden tests
    released: str  # what learners get
    kind: str = "plain"  # "answer", "check" or "plain"
    grade_id: str | None = None
    points: float | None = None
    tags: list[str] = field(default_factory=list)
    attachments: dict | None = None

    @property
    def checksum(self) -> str:
        return checksum(self.released)


@dataclass
class ExerciseNotebook:
    """A parsed solution notebook: its cells, classified, and what release makes of it."""

    name: str
    cells: list[Cell]
    kernelspec: dict

    @property
    def checks(self) -> list[Cell]:
        return [c for c in self.cells if c.kind == "check"]

    @property
    def answers(self) -> list[Cell]:
        return [c for c in self.cells if c.kind == "answer"]

    @property
    def max_points(self) -> float:
        return sum(c.points or 0 for c in self.checks)

    def released(self, source_label: str) -> dict:
        """The learners' notebook, as a JSON-ready dict (``source_label`` is recorded as its source)."""
        cells = []
        for c in self.cells:
            tags = [t for t in c.tags if t not in ("answer", "check")]
            metadata: dict[str, Any] = {}
            if c.kind == "check":
                tags.append("check")
                metadata.update(deletable=False, editable=False)
                metadata[META] = {"checksum": c.checksum, "grade_id": c.grade_id, "points": c.points}
            elif c.kind == "answer":
                tags.append("answer")
                metadata[META] = {"grade_id": c.grade_id, "solution": True}
            if tags:
                metadata["tags"] = tags
            cell: dict[str, Any] = {"cell_type": c.cell_type, "id": c.cell_id, "metadata": metadata,
                                    "source": c.released.splitlines(keepends=True)}
            if c.cell_type == "code":
                cell.update(execution_count=None, outputs=[])
            if c.attachments:
                cell["attachments"] = c.attachments
            cells.append(cell)
        metadata = {"kernelspec": self.kernelspec, "language_info": {"name": "python"},
                    META: {"source": source_label}}
        return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def parse(nb: Any, name: str) -> ExerciseNotebook:
    """Classify the cells of a solution notebook (a dict read from JSON); ``name`` is used in errors."""
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise FormatError(f"{name}: not a Jupyter notebook (no list of cells)")
    cells: list[Cell] = []
    pending: list[Cell] = []  # answer cells waiting for the check cell of their exercise
    seen: dict[str, Cell] = {}
    for i, raw in enumerate(nb["cells"]):
        if not isinstance(raw, dict):
            raise FormatError(f"{name}, cell {i + 1}: not a notebook cell")
        where = f"{name}, cell {i + 1}"
        cell_type = raw.get("cell_type", "raw")
        source = source_text(raw.get("source", ""))
        metadata = raw.get("metadata") or {}
        cell = Cell(i, cell_type, str(raw.get("id") or f"cell-{i}"), source, source,
                    tags=list(metadata.get("tags", [])), attachments=raw.get("attachments"))
        found = find_exercise(source, where) if cell_type == "code" else None
        if found:
            _check_markers(source, HIDDEN, where, "a check cell")
            cell.kind, (cell.grade_id, cell.points) = "check", found
            cell.released = _replace_regions(source, HIDDEN, lambda indent: (), where)
            try:
                visible = ast.parse(cell.released)
            except SyntaxError as error:
                raise FormatError(f"{where}: without its hidden tests, check cell {cell.grade_id!r} is not valid "
                                  f"Python ({error.msg}): keep at least one visible line in the with block") from None
            if len(visible.body) != 1:
                raise FormatError(f"{where}: hidden tests must be inside the with block of {cell.grade_id!r}")
            if cell.grade_id in seen:
                raise FormatError(f"{where}: exercise id {cell.grade_id!r} is already used by cell "
                                  f"{seen[cell.grade_id].index + 1}: ids must be unique in a notebook")
            seen[cell.grade_id] = cell
            for n, answer in enumerate(pending, 1):
                answer.grade_id = f"{cell.grade_id}-answer" + (f"-{n}" if n > 1 else "")
            pending = []
        elif cell_type in ("code", "markdown"):
            _check_markers(source, SOLUTION, where, "an answer cell (hidden tests belong in a check cell)")
            placeholder = code_placeholder if cell_type == "code" else lambda indent: (MARKDOWN_PLACEHOLDER,)
            cell.released = _replace_regions(source, SOLUTION, placeholder, where)
            if cell.released != source:
                cell.kind = "answer"
                pending.append(cell)
                # `pass` stands only as a whole statement: the region must hold whole statements.
                if cell_type == "code" and _parses(source) and \
                        not _parses(_replace_regions(source, SOLUTION, lambda indent: ("pass",), where)):
                    raise FormatError(f"{where}: with its answer replaced by the placeholder the cell is not valid "
                                      "Python: a solution region must hold whole statements")
        cells.append(cell)
    if pending:
        raise FormatError(f"{name}, cell {pending[0].index + 1}: an answer cell must be followed by the check cell "
                          "of its exercise (a written answer too: pair it with a check)")
    return ExerciseNotebook(name, cells, nb.get("metadata", {}).get("kernelspec") or KERNELSPEC)


def read(path: Path) -> Any:
    """A notebook file's JSON (a FormatError, not a crash, if it is not JSON)."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise FormatError(f"{path}: not a notebook (not UTF-8 text)") from None
    except json.JSONDecodeError as error:
        raise FormatError(f"{path}: not a notebook (invalid JSON: {error.msg}, line {error.lineno})") from None


def dumps(nb: dict) -> str:
    """A notebook as text, the same way every time (sorted keys, one-space indentation, as Jupyter writes)."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
