"""Grading results for people and for spreadsheets: a terminal table, CSV and JSON.

The table has one row per submission and one column per exercise part, grouped by notebook. A cell
shows the points, and for a part that did not pass, a symbol saying why (listed under the table, and
spelled out in the notes of each submission)::

    05_leaf_tensors (11 points)
    submission   leaf-1  leaf-2  leaf-3  total
    alice.ipynb  2/2     0/2 ✘   4/4     6/11
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ._style import paint
from .exercise import format_points
from .grade import SubmissionResult

CSV_HEADER = ["submission", "notebook", "exercise", "points", "max_points", "status", "edited", "deleted", "note"]
GENERATOR = "tinygrad-edu grade"

SYMBOLS = {"failed": "✘", "not attempted": "·", "error": "!", "timeout": "T", "not run": "-"}
LEGEND = "✘ failed   · not attempted   ! error in the check   T timed out   - not run"


def _cell(points: float, max_points: float, status: str, colour: bool) -> tuple[str, int]:
    """A table cell (maybe coloured) and its printed width."""
    text = f"{format_points(points)}/{format_points(max_points)}"
    if status != "passed":
        text += f" {SYMBOLS.get(status, '?')}"
    style = {"passed": "pass", "not attempted": "todo"}.get(status, "fail")
    return paint(text, style, colour), len(text)


def table(results: Sequence[SubmissionResult], colour: bool = False) -> str:
    """The results as aligned text: one table per notebook, then each submission's notes."""
    out: list[str] = []
    notebooks = sorted({r.notebook for r in results if r.notebook}) + ([None] if any(not r.notebook for r in
                                                                                    results) else [])
    for name in notebooks:
        rows = [r for r in results if r.notebook == name]
        ids = [e.grade_id for e in rows[0].exercises] if name else []
        total = format_points(rows[0].max_points) if name else "?"
        out.append(paint(f"{name} ({total} points)" if name else "not graded", "label", colour))
        header = ["submission", *ids, "total"]
        body = []
        for r in rows:
            cells = [_cell(e.points, e.max_points, e.status, colour) for e in r.exercises]
            total_text = "not graded" if r.error else f"{format_points(r.points)}/{format_points(r.max_points)}"
            body.append([(r.path, len(r.path)), *cells, (total_text, len(total_text))])
        widths = [max([len(h)] + [row[i][1] for row in body]) for i, h in enumerate(header)]
        out.append("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
        for row in body:
            out.append("  ".join(text + " " * (w - n) for (text, n), w in zip(row, widths)).rstrip())
        out.append("")
    out.append(LEGEND)
    for r in results:
        lines = ([f"not graded: {r.error}"] if r.error else []) + r.notes
        if lines:
            out.append("")
            out.append(paint(r.path, "label", colour))
            out += [f"  {line}" for line in lines]
    return "\n".join(out) + "\n"


def to_csv(results: Sequence[SubmissionResult]) -> str:
    """One row per submission and exercise, then a ``total`` row per submission (for spreadsheets)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for r in results:
        for e in r.exercises:
            writer.writerow([r.path, r.notebook or "", e.grade_id, format_points(e.points),
                             format_points(e.max_points), e.status, int(e.edited), int(e.deleted), ""])
        writer.writerow([r.path, r.notebook or "", "total", format_points(r.points), format_points(r.max_points),
                         "not graded" if r.error else "graded", "", "", r.error or "; ".join(r.notes)])
    return buffer.getvalue()


def to_json(results: Sequence[SubmissionResult], isolation: Any = None) -> str:
    """Everything the grader knows, per submission: points, statuses, failure reports, notes, written answers;
    and how the kernels were sealed off (``isolation``, a ``sandbox.Isolation``)."""
    data = {"generator": GENERATOR, "isolation": isolation.as_dict() if isolation is not None else None,
            "submissions": [{
        "submission": r.path, "notebook": r.notebook, "points": r.points, "max_points": r.max_points,
        "error": r.error, "notes": r.notes, "seconds": round(r.seconds, 2), "written_answers": r.written,
        "file_name_says": r.file_name_says, "saved": r.saved,
        "exercises": [{"exercise": e.grade_id, "points": e.points, "max_points": e.max_points, "status": e.status,
                       "edited": e.edited, "deleted": e.deleted, "report": e.report} for e in r.exercises],
    } for r in results]}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def is_ours(path: Path, kind: str) -> bool:
    """Is the file at ``path`` a ``kind`` ("csv" or "json") output of an earlier grading run (so it may be
    replaced)? Anything else is never overwritten."""
    try:
        with open(path, encoding="utf-8") as f:
            if kind == "csv":
                return next(csv.reader([f.readline()]), None) == CSV_HEADER
            data = json.load(f)
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and data.get("generator") == GENERATOR and isinstance(data.get("submissions"), list)
