"""Grade submissions: run each sealed off, with the original check cells, and count points.

For each submitted notebook:

1. **Find its original** among the solution notebooks (read once, before any kernel starts): by the
   source recorded in its metadata at release, else by its file name (``alice/05_leaf_tensors.ipynb``),
   else by a solution name contained in its file name (``05_leaf_tensors-Copy1.ipynb``). When the
   metadata and the file name disagree, the metadata wins and the mismatch is reported.
2. **Rebuild it for grading.** The learner's cells are kept in their order, but every check cell is
   replaced by the original, hidden tests included. A check cell is recognised by its metadata, else
   by its cell id, else by its ``with exercise("<id>")`` line. One whose source differs from what
   release wrote is reported *edited*; one that is missing is reported *deleted* and put back after
   the learner's cell that matches the original cell before it. Either way the original is graded.
3. **Execute** it in a fresh kernel sealed off by ``sandbox.py`` (a private folder, limits, no access
   to the course files; every process it starts ends with it). The grader's first cell takes a
   snapshot of Python and IPython; before each check cell a grader cell puts back what the learner's
   cells changed (builtins, modules' functions, input and AST transformers, display and exception
   hooks, the check functions and the notebook's imports) and loads the check, which reaches the
   kernel encrypted, so no learner hook sees its text (``_kernel.py``). A cell that runs too long is
   interrupted and the run goes on; one that cannot be interrupted, a dead kernel (``os._exit``, a
   crash, memory) or the submission's time limit ends the run: the checks not yet run get no points.
4. **Count**: a check cell earns its points if it ran without error, printed its own ``✔ <id> passed``
   line *and* the one-time token the grader gave it, and the code it called changed nothing of the
   snapshot while it ran.

What holds where, and what is only best effort, is in the README ("Grading") and ``sandbox.py``.
"""

from __future__ import annotations

import ast
import json
import logging
import math
import os
import re
import secrets
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import _kernel, notebook, sandbox
from ._style import FAIL, PASS, strip_ansi

TIMEOUT_NAME = "CellTimeout"
GRADED_MARK = "graded"  # notebook metadata["tinygrad_edu"]["graded"]: a notebook the grader wrote (--save)
GUARD_SOURCE = """\
# Inserted by the grader: Python, IPython and the check functions put back as they were before the first cell,
# then the check below loaded (its source is not shown to the code it runs)."""
MAX_OUTPUT = 1_000_000  # characters of output kept per cell, of every kind: a print loop must not eat the grader
MAX_SUBMISSION_OUTPUT = 20 * MAX_OUTPUT  # and per submission
TRUNCATED = f"[the grader kept the first {MAX_OUTPUT:,} characters of this cell's output]\n"
ERROR_KEPT = 2000  # characters of an error's message and traceback kept once a cell's room is used up
CUT = "[the grader cut the rest of this traceback]"


@dataclass
class ExerciseResult:
    """The outcome of one check cell."""

    grade_id: str
    max_points: float
    points: float = 0
    status: str = "not run"  # passed, failed, not attempted, error, timeout, not run
    edited: bool = False
    deleted: bool = False
    report: str = ""  # what the check printed when it failed (no colour)


@dataclass
class SubmissionResult:
    """The outcome of one submission: points per exercise, and what the instructor should know."""

    path: str
    notebook: str | None = None  # the solution notebook it was graded against
    exercises: list[ExerciseResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str | None = None  # set when the submission could not be graded at all
    written: dict[str, str] = field(default_factory=dict)  # markdown answers, by answer id, to read
    seconds: float = 0.0
    file_name_says: str | None = None  # the solution its file name names, when its metadata names another
    saved: str | None = None  # where its graded notebook was saved (--save)

    @property
    def points(self) -> float:
        return sum(e.points for e in self.exercises)

    @property
    def max_points(self) -> float:
        return sum(e.max_points for e in self.exercises)


# -- finding the original ---------------------------------------------------------------------------------
def _by_file_name(name: str, stems: list[str]) -> str | None:
    stem = Path(name).stem
    if stem in stems:
        return stem
    contained = [s for s in stems if s in stem]
    return max(contained, key=len) if contained else None


def match_original(name: str, nb: Any, stems: list[str]) -> tuple[str | None, str | None]:
    """``(solution stem, stem its file name says if that differs)`` for a submission (see the module docstring)."""
    meta = nb.get("metadata") if isinstance(nb, dict) else None
    recorded = (meta or {}).get(notebook.META, {}).get("source") if isinstance(meta, dict) else None
    recorded = Path(recorded).stem if isinstance(recorded, str) and Path(recorded).stem in stems else None
    by_name = _by_file_name(name, stems)
    if recorded is None:
        return by_name, None
    return recorded, by_name if by_name not in (None, recorded) else None


def find_original(path: Path, nb: Any, source: Path) -> Path | None:
    """The solution notebook a submission comes from, or None."""
    stem, _ = match_original(Path(path).name, nb, [p.stem for p in sorted(Path(source).glob("*.ipynb"))])
    return None if stem is None else Path(source) / f"{stem}.ipynb"


def _read(data: bytes | Path) -> Any:
    """A submission's JSON (a FormatError, not a crash, if it is not JSON)."""
    if isinstance(data, Path):
        data = data.read_bytes()
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise notebook.FormatError("not a notebook (not UTF-8 text)") from None
    except json.JSONDecodeError as error:
        raise notebook.FormatError(f"not a notebook (invalid JSON: {error.msg}, line {error.lineno})") from None


# -- rebuilding the notebook ------------------------------------------------------------------------------
@dataclass
class _Planned:
    """A cell of the notebook as it is graded."""

    role: str  # "learner", "guard" or "check"
    source: str  # as the saved notebook shows it (a check: the original, hidden tests included)
    cell_type: str = "code"
    grade_id: str | None = None
    learner_number: int | None = None  # 1-based position in the submission, for the notes
    outputs: list = field(default_factory=list)
    reply: dict | None = None
    ran: bool = False
    token: str | None = None  # a check's one-time token, printed when it passed


def _learner_cells(nb: Any) -> list[dict]:
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list) or nb.get("nbformat") != 4:
        raise notebook.FormatError("not a Jupyter notebook (nbformat 4 with a list of cells)")
    cells = []
    for raw in nb["cells"]:
        raw = raw if isinstance(raw, dict) else {}
        meta = raw.get("metadata") if isinstance(raw.get("metadata"), dict) else {}
        ours = meta.get(notebook.META) if isinstance(meta.get(notebook.META), dict) else {}
        cell_type = raw.get("cell_type") if raw.get("cell_type") in ("code", "markdown") else "raw"
        cells.append({"cell_type": cell_type, "source": notebook.source_text(raw.get("source", "")),
                      "id": raw.get("id"), "grade_id": ours.get("grade_id")})
    return cells


def _match(cells: list[dict], original: notebook.ExerciseNotebook) -> dict[int, int]:
    """learner cell position -> original cell index, by grade_id, else cell id, else a check's own line."""
    by_grade = {c.grade_id: c.index for c in original.cells if c.grade_id}
    by_id = {c.cell_id: c.index for c in original.cells}
    matched: dict[int, int] = {}
    taken: set[int] = set()
    for pos, cell in enumerate(cells):
        index = by_grade.get(cell["grade_id"]) if cell["grade_id"] else by_id.get(cell["id"])
        if index is not None and index not in taken:
            matched[pos] = index
            taken.add(index)
    for check in original.checks:  # a check cell re-made by copy and paste: known by its with-line
        if check.index in taken:
            continue
        for pos, cell in enumerate(cells):
            if pos in matched or cell["cell_type"] != "code":
                continue
            try:
                found = notebook.find_exercise(cell["source"], "submission")
            except notebook.FormatError:
                found = None
            if found and found[0] == check.grade_id:
                matched[pos] = check.index
                taken.add(check.index)
                break
    return matched


def plan(nb: Any, original: notebook.ExerciseNotebook, result: SubmissionResult) -> list[_Planned]:
    """The cells to run: the learner's, with the original check cells (each after a guard cell)."""
    cells = _learner_cells(nb)
    matched = _match(cells, original)
    kinds = {c.index: c for c in original.cells}
    results = {r.grade_id: r for r in result.exercises}

    # Where each deleted check goes: after the learner's cell that matches the nearest original cell before it.
    position_of = {index: pos for pos, index in matched.items()}
    after: dict[int, list[notebook.Cell]] = {}
    for check in original.checks:
        if check.index in position_of:
            continue
        results[check.grade_id].deleted = True
        result.notes.append(f"check cell {check.grade_id} was deleted: the original was put back")
        before = [position_of[i] for i in range(check.index) if i in position_of]
        after.setdefault(max(before) if before else len(cells) - 1, []).append(check)

    def original_check(check: notebook.Cell) -> list[_Planned]:
        return [_Planned("guard", GUARD_SOURCE, grade_id=check.grade_id),
                _Planned("check", check.source, grade_id=check.grade_id, token=secrets.token_hex(16))]

    planned: list[_Planned] = []
    for pos, cell in enumerate(cells):
        origin = kinds.get(matched.get(pos, -1))
        if origin is not None and origin.kind == "check":
            if cell["source"] not in (origin.released, origin.source):
                results[origin.grade_id].edited = True
                result.notes.append(f"check cell {origin.grade_id} was edited: graded with the original")
            planned += original_check(origin)
        elif cell["grade_id"] in results or (cell["cell_type"] == "code" and _is_stray_check(cell, results)):
            pass  # a second copy of a check cell: the original already runs once
        else:
            if origin is not None and origin.kind == "answer" and origin.cell_type == "markdown":
                result.written[origin.grade_id] = cell["source"]
            planned.append(_Planned("learner", cell["source"], cell["cell_type"], learner_number=pos + 1))
        for check in after.get(pos, []):
            planned += original_check(check)
    for check in after.get(-1, []):  # an empty submission
        planned += original_check(check)
    return planned


def _is_stray_check(cell: dict, results: dict[str, ExerciseResult]) -> bool:
    try:
        found = notebook.find_exercise(cell["source"], "submission")
    except notebook.FormatError:
        return False
    return bool(found) and found[0] in results


def imported_names(original: notebook.ExerciseNotebook) -> list[tuple[str, str, str | None]]:
    """``(name, module, attribute)`` for each name the check cells read that the notebook's own cells (not
    the learner's answers) bind by an import: put back before each check, whatever the learner rebound."""
    used = set()
    for check in original.checks:
        used |= {n.id for n in ast.walk(ast.parse(check.source)) if isinstance(n, ast.Name)}
    found = {}
    for cell in original.cells:
        if cell.kind != "plain" or cell.cell_type != "code":
            continue
        try:
            body = ast.parse(cell.source).body
        except SyntaxError:
            continue
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    name = alias.asname or alias.name.split(".")[0]
                    found[name] = (name, alias.name if alias.asname else name, None)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    if alias.name != "*":
                        found[alias.asname or alias.name] = (alias.asname or alias.name, node.module, alias.name)
    return [found[name] for name in sorted(found) if name in used]


# -- running it -------------------------------------------------------------------------------------------
def _size(kind: str, content: dict) -> int:
    if kind == "stream":
        return len(content.get("text", ""))
    if kind == "error":
        return len(str(content.get("evalue", ""))) + sum(len(line) for line in content.get("traceback", []))
    return sum(len(str(v)) for v in content.get("data", {}).values()) + len(str(content.get("metadata", "")))


def _client_class() -> type:
    """nbclient's NotebookClient, keeping at most MAX_OUTPUT characters of output of any kind per cell (and
    MAX_SUBMISSION_OUTPUT per submission); a check's verdict and token are always kept."""
    from nbclient import NotebookClient
    from nbformat.v4 import new_output

    class Client(NotebookClient):
        tokens: dict[int, str]  # cell index -> the check's token

        def output(self, outs: list, msg: dict, display_id: str | None, cell_index: int) -> Any:
            kind, content = msg["msg_type"], msg.get("content", {})
            if kind not in ("stream", "display_data", "execute_result", "error"):
                return super().output(outs, msg, display_id, cell_index)
            used, total = self.__dict__.setdefault("_used", {}), self.__dict__.get("_total", 0)
            room = max(0, min(MAX_OUTPUT - used.get(cell_index, 0), MAX_SUBMISSION_OUTPUT - total))
            size = _size(kind, content)
            if size <= room:
                used[cell_index] = used.get(cell_index, 0) + size
                self._total = total + size
                return super().output(outs, msg, display_id, cell_index)
            used[cell_index] = MAX_OUTPUT
            self._total = total + room
            kept = self._shorten(kind, content, room, self.tokens.get(cell_index))
            if kept is not None:
                super().output(outs, {**msg, "content": kept}, display_id if kind != "error" else None, cell_index)
            if kind != "error" and (not outs or outs[-1].get("text") != TRUNCATED):
                outs.append(new_output("stream", name="stderr", text=TRUNCATED))
            return None

        @staticmethod
        def _shorten(kind: str, content: dict, room: int, token: str | None) -> dict | None:
            if kind == "stream":
                text = content.get("text", "")
                verdicts = [line for line in text[room:].splitlines(keepends=True)
                            if PASS in line or (token and token in line)][:10]  # a check's verdict is always kept
                kept = text[:room] + "".join(line[:300] for line in verdicts)
                return {**content, "text": kept} if kept else None
            if kind == "error":  # always kept (the verdict of a check is its error), but short
                keep = max(room, ERROR_KEPT)
                evalue = str(content.get("evalue", ""))[:keep // 2]
                traceback, left = [], keep - len(evalue)
                for line in content.get("traceback", []):
                    traceback.append(line[:max(left, 0)])
                    left -= len(line)
                    if left < 0:
                        traceback.append(CUT)
                        break
                return {**content, "evalue": evalue, "traceback": traceback}
            plain = str(content.get("data", {}).get("text/plain", ""))
            return {**content, "data": {"text/plain": plain[:room]}, "metadata": {}} if room and plain else None

        def _update_display_id(self, display_id: str, msg: dict) -> None:
            if _size(msg["msg_type"], msg.get("content", {})) <= MAX_OUTPUT:  # a huge update is dropped
                super()._update_display_id(display_id, msg)

    return Client


def _to_notebook(planned: list[_Planned]) -> Any:
    """The graded notebook as it is saved: the learner's cells, and each check as the original."""
    import nbformat

    cells = []
    for p in planned:
        if p.cell_type == "code":
            cell = nbformat.v4.new_code_cell(p.source)
            cell.outputs = [_without_token(o, p.token) for o in p.outputs]
        elif p.cell_type == "markdown":
            cell = nbformat.v4.new_markdown_cell(p.source)
        else:
            cell = nbformat.v4.new_raw_cell(p.source)
        if p.role != "learner":
            cell.metadata[notebook.META] = {"grader": p.role, "grade_id": p.grade_id}
        cells.append(cell)
    return nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": notebook.KERNELSPEC, "language_info": {"name": "python"}, notebook.META: {GRADED_MARK: True}})


def _without_token(output: Any, token: str | None) -> Any:
    if token and output.get("output_type") == "stream" and token in output.get("text", ""):
        output = output.copy()
        output["text"] = output["text"].replace(token + "\n", "").replace(token, "")
    return output


def _stdout(p: _Planned) -> str:
    return strip_ansi("".join(o.get("text", "") for o in p.outputs if o.get("output_type") == "stream"
                              and o.get("name") == "stdout"))


def judge(p: _Planned, exercise: ExerciseResult) -> None:
    """Set an exercise's status and points from how its check cell ran."""
    if not p.ran:
        return
    errors = [o for o in p.outputs if o.get("output_type") == "error"]
    stdout = _stdout(p)
    if errors and errors[0].get("ename") == "CheckNotPrepared":
        exercise.status = "error"
        exercise.report = f"the grader could not prepare this check: {errors[0].get('evalue')}"
    elif errors or p.reply.get("status") == "error":
        ename = p.reply.get("ename")
        if ename != TIMEOUT_NAME and errors:  # the kernel's own report, unless the grader had to interrupt
            ename = errors[0].get("ename")
        exercise.status = {"NotAttempted": "not attempted", "ExerciseFailed": "failed", "CheckTampered": "failed",
                           TIMEOUT_NAME: "timeout"}.get(ename, "error")
        if exercise.status in ("not attempted", "failed") and errors:
            exercise.report = strip_ansi("\n".join(errors[0].get("traceback", [])))
        else:
            exercise.report = f"{ename}: {errors[0].get('evalue') if errors else p.reply.get('evalue')}"
    elif re.search(rf"^{FAIL} {re.escape(exercise.grade_id)} not attempted yet \(", stdout, re.M):
        exercise.status, exercise.report = "not attempted", stdout.strip()  # printed, so that Run all goes on
    elif not re.search(rf"^{PASS} {re.escape(exercise.grade_id)} passed \(", stdout, re.M):
        exercise.status = "failed"
        exercise.report = "the check ran without error but did not print its pass line: was print or the output " \
                          "changed by an earlier cell?"
    elif p.token is None or p.token not in stdout:
        exercise.status = "failed"
        exercise.report = "a pass line was printed, but not by the grader's run of the check: did an earlier cell " \
                          "replace how cells run?"
    else:
        exercise.status, exercise.points = "passed", exercise.max_points


class Grader:
    """One grading run: the solutions (read once), the sandbox, and the course files to keep unchanged."""

    def __init__(self, source: Path, timeout: float = 30, limits: sandbox.Limits | None = None,
                 isolation: sandbox.Isolation | None = None, jobs: int = 1, hidden: list[Path] = (),
                 submissions: dict[Path, bytes] | None = None) -> None:
        self.source, self.timeout = Path(source), timeout
        self.limits = limits or sandbox.Limits(cell_seconds=timeout)
        self.isolation = isolation or sandbox.detect()
        self.watched = sandbox.Watched()
        self.watched.add(self.source)
        self.watched.add(sandbox.LIBRARY)
        for path in submissions or {}:
            self.watched.add(path)
        self.originals: dict[str, tuple[notebook.ExerciseNotebook, list]] = {}
        for path in sorted(self.source.glob("*.ipynb")):
            if path.name.startswith("."):
                continue
            try:
                nb = json.loads(self.watched.data(path).decode("utf-8"))
            except (KeyError, UnicodeDecodeError, json.JSONDecodeError):
                continue
            parsed = notebook.parse(nb, f"{self.source.name}/{path.name}")
            self.originals[path.stem] = (parsed, imported_names(parsed))
        library = {p.relative_to(sandbox.LIBRARY): self.watched.data(p) for p in self.watched.files
                   if p.is_relative_to(sandbox.LIBRARY) and "__pycache__" not in p.parts}
        self.run = sandbox.Run(self.isolation, self.limits, jobs, [self.source, *hidden], library)
        self._lock = threading.Lock()
        self._running: set[str] = set()
        # In basic mode a kernel runs as this very user: keep it from reading this process's memory, open files
        # and working folder through /proc (and from attaching to it) while grading lasts.
        self._undumpable = self.isolation.mode == "basic" and not self.isolation.root and sandbox.set_dumpable(False)

    def close(self) -> None:
        if self._undumpable:
            sandbox.set_dumpable(True)
        self.run.close()

    def grade(self, path: Path, name: str | None = None, data: bytes | None = None) -> tuple[SubmissionResult, Any]:
        """Grade one submission (``data``: its bytes, read before grading started). Never raises for a bad
        submission: what went wrong is in the result's ``error`` and ``notes``. Returns the result and the
        graded notebook (None if it did not run)."""
        path = Path(path)
        result = SubmissionResult(name or str(path))
        started = time.perf_counter()
        try:
            nb = _read(path if data is None else data)
        except (OSError, notebook.FormatError) as error:
            nb, result.error = None, str(error).replace(f"{path}: ", "")
        stem, says = match_original(path.name, nb, list(self.originals))
        if stem is None:
            result.error = result.error or f"no notebook in {self.source}/ matches it (by its metadata or file name)"
            return result, None
        original, rebind = self.originals[stem]
        result.notebook = stem
        result.exercises = [ExerciseResult(c.grade_id, c.points) for c in original.checks]
        if says:
            result.file_name_says = says
            result.notes.append(f"its metadata says it is {stem} but its file name says {says}: graded as {stem}")
        if result.error:
            return result, None
        ran = None
        try:
            planned = plan(nb, original, result)
            with self._lock:
                self._running.add(result.path)
            try:
                with self.run.kernel(path.name, data if data is not None else b"") as kernel:
                    ran = self.execute(planned, result, kernel, rebind)
            finally:
                with self._lock:
                    self._running.discard(result.path)
                    others = len(self._running)
                    changed = self.watched.changed(restore=True)
                if changed:
                    at_once = f" (with {others} other submission(s) at the same time)" if others else ""
                    result.notes.append(f"while it was graded{at_once}, course files changed and were put back: "
                                        + "; ".join(changed))
        except notebook.FormatError as error:
            result.error = str(error)
            return result, None
        except Exception as error:  # the grader must go on with the next submission, whatever happened here
            result.error = f"grading stopped: {type(error).__name__}: {error}"
            return result, None
        finally:
            result.seconds = time.perf_counter() - started
        by_id = {e.grade_id: e for e in result.exercises}
        for p in planned:
            if p.role == "check":
                judge(p, by_id[p.grade_id])
        return result, ran

    def execute(self, planned: list[_Planned], result: SubmissionResult, kernel: sandbox.Kernel,
                rebind: list) -> Any:
        """Run the planned cells in the kernel; fills in outputs and replies. Returns the notebook to save."""
        import nbformat
        from nbclient.exceptions import DeadKernelError

        key, name = secrets.token_bytes(32), f"_TinygradEduGrader_{secrets.token_hex(8)}"
        # Found without a single name lookup: a learner's cell can rebind any name, even builtins, but not this.
        find = f"[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == {name!r}][0]"
        sent = []
        for p in planned:
            if p.role == "check":
                payload = {"grade_id": p.grade_id, "source": p.source, "token": p.token, "rebind": rebind}
                sent.append(f"{find}.check({_kernel.seal(key, payload)!r})")
            else:
                sent.append("" if p.role == "guard" else p.source)  # the grader's cell before a check: shown only
        start = f"import tinygrad_edu.grading._kernel as _grader\n_grader.start({key.hex()!r}, {name!r})\ndel _grader"
        cells = [nbformat.v4.new_code_cell(s) if p.cell_type == "code" else nbformat.v4.new_markdown_cell(s)
                 for p, s in zip(planned, sent)]
        nb = nbformat.v4.new_notebook(cells=[*cells, nbformat.v4.new_code_cell(start)],
                                      metadata={"kernelspec": notebook.KERNELSPEC})
        replies: dict[int, dict] = {}
        quiet = logging.getLogger("tinygrad_edu.grading.kernel")
        quiet.setLevel(logging.CRITICAL)  # timeouts and dead kernels are reported in the notes instead
        timeout = self.timeout
        client = _client_class()(
            nb, km=kernel.manager(), timeout=timeout, interrupt_on_timeout=True, allow_errors=True, log=quiet,
            shutdown_kernel="immediate", iopub_timeout=4, startup_timeout=60,
            error_on_timeout={"ename": TIMEOUT_NAME, "evalue": f"did not finish within {timeout:g} s",
                              "traceback": [f"{TIMEOUT_NAME}: did not finish within {timeout:g} s"]})
        client.tokens = {i: p.token for i, p in enumerate(planned) if p.token}
        client.on_cell_executed = lambda cell, cell_index, execute_reply: replies.__setitem__(cell_index, execute_reply)
        deadline = time.monotonic() + self.limits.submission_seconds

        def where(p: _Planned) -> str:
            return f"cell {p.learner_number}" if p.role == "learner" else f"check cell {p.grade_id}"

        client.resources = {"metadata": {"path": str(kernel.home)}}
        try:
            with client.setup_kernel(cleanup_kc=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
                client.execute_cell(nb.cells[-1], len(planned), store_history=False)
                reply = replies.get(len(planned), {}).get("content", {})
                if reply.get("status") != "ok":
                    result.error = (f"the grader could not prepare the kernel: {reply.get('ename')}: "
                                    f"{reply.get('evalue')}")
                    return None
                for i, (p, cell) in enumerate(zip(planned, nb.cells)):
                    if cell.cell_type != "code" or not cell.source.strip():
                        continue
                    left = deadline - time.monotonic()
                    if left <= 0:
                        result.notes.append(f"the submission's time limit ({self.limits.submission_seconds:g} s) "
                                            f"ran out before {where(p)}: the cells from there on did not run")
                        break
                    client.timeout = max(1, math.ceil(min(timeout, left)))  # nbclient wants whole seconds
                    try:
                        client.execute_cell(cell, i, store_history=p.role == "learner")
                    except DeadKernelError:
                        result.notes.append(f"the kernel died while running {where(p)} (os._exit, a crash or out "
                                            "of memory): the cells after it did not run")
                        break
                    p.ran, p.outputs, p.reply = True, list(cell.outputs), replies.get(i, {}).get("content", {})
                    if p.reply.get("ename") == TIMEOUT_NAME:
                        if client.timeout < timeout:
                            result.notes.append(f"the submission's time limit ({self.limits.submission_seconds:g} s) "
                                                f"ran out while running {where(p)}: the cells after it did not run")
                            break
                        if not any(o.output_type == "error" for o in cell.outputs):
                            result.notes.append(f"{where(p)} did not finish within {timeout:g} s and ignored the "
                                                "interrupt: the kernel was stopped, the cells after it did not run")
                            break
                        result.notes.append(f"{where(p)} did not finish within {timeout:g} s: it was interrupted")
                    elif p.reply.get("status") == "error" and p.role == "learner":
                        result.notes.append(_error_note(where(p), p.reply))
        except RuntimeError as error:  # the kernel did not start
            reason = kernel.errors() or str(error)
            raise RuntimeError(f"the kernel did not start: {reason}") from None
        return _to_notebook(planned)


def _error_note(where: str, reply: dict) -> str:
    ename, message = reply.get("ename"), str(reply.get("evalue", "")).strip().split("\n")[0]
    message = re.sub(r"\s*\([^()]*\.py, line \d+\)$", "", message)  # drop the cell's temp file name
    if ename == "NotImplementedError" and not message:
        return f"{where} is not answered (it raises NotImplementedError)"
    return f"{where} raised {ename}" + (f": {message[:120]}" if message else "")


# -- many submissions -------------------------------------------------------------------------------------
def is_graded_notebook(path: Path) -> bool:
    """Did the grader write this file (``--save``)? Such a file may be overwritten, and is not a submission."""
    try:
        with open(path, "rb") as f:
            head = f.read(4 * 2**20)
        nb = json.loads(head)
    except (OSError, ValueError):
        return False
    meta = nb.get("metadata") if isinstance(nb, dict) else None
    return isinstance(meta, dict) and isinstance(meta.get(notebook.META), dict) and \
        meta[notebook.META].get(GRADED_MARK) is True


def collect(paths: list[Path]) -> list[tuple[Path, str]]:
    """The notebooks to grade, with the names to show: files as given, folders searched (recursively),
    leaving out checkpoints and the notebooks the grader itself saved there."""
    found = []
    for path in paths:
        if path.is_dir():
            for p in sorted(path.rglob("*.ipynb")):
                if ".ipynb_checkpoints" not in p.parts and not is_graded_notebook(p):
                    found.append((p, str(p)))
        elif path.exists():
            found.append((path, str(path)))
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    return found


def saved_names(todo: list[Path], save: Path) -> dict[Path, Path]:
    """Where each graded notebook goes: ``NAME.graded.ipynb`` in ``save``, numbered when two submissions share
    a file name, or when the name is taken by a file the grader did not write (never overwritten)."""
    inputs = {p.absolute() for p in todo}
    taken: set[Path] = set()
    names = {}
    for path in todo:
        n = 1
        while True:
            stem = path.stem if n == 1 else f"{path.stem}-{n}"
            target = Path(save) / f"{stem}.graded.ipynb"
            ours = target.is_file() and not target.is_symlink() and is_graded_notebook(target)
            free = target not in taken and target.absolute() not in inputs and (not os.path.lexists(target) or ours)
            if free:
                break
            n += 1
        taken.add(target)
        names[path] = target
    return names


def write_file(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all, replacing the file itself, never a file a symbolic link points to."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    with open(temporary, "x", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(temporary, path)


def grade_all(paths: list[Path], source: Path, timeout: float = 30, save: Path | None = None,
              progress: Any = None, jobs: int = 1, limits: sandbox.Limits | None = None,
              isolation: sandbox.Isolation | None = None, hidden: list[Path] = ()) -> list[SubmissionResult]:
    """Grade every submission (``jobs`` at a time, each in its own kernel), in the order given.
    ``progress``, if given, is called with each result as it is ready. The graded notebooks are written
    (``save``) once every kernel, and every process they started, is gone."""
    import nbformat

    todo = collect([Path(p) for p in paths])
    data = {}
    for path, _ in todo:  # read before any kernel runs: what is graded is what was handed in
        try:
            data[path] = path.read_bytes()
        except OSError:
            data[path] = None
    targets = saved_names([p for p, _ in todo], save) if save is not None else {}
    grader = Grader(source, timeout, limits, isolation, jobs, [*hidden, *([save] if save else [])],
                    {p: d for p, d in data.items() if d is not None})
    graded: dict[Path, Any] = {}

    def one(job: tuple[Path, str]) -> SubmissionResult:
        path, name = job
        if data[path] is None:
            result, ran = SubmissionResult(name, error="the file could not be read"), None
        else:
            result, ran = grader.grade(path, name, data[path])
        if ran is not None and path in targets:
            graded[path] = ran
            result.saved = str(targets[path])
        if progress is not None:
            progress(result)
        return result

    try:
        if jobs <= 1:
            results = [one(job) for job in todo]
        else:
            # Threads are enough: each submission runs in its own kernel process; a thread mostly waits for it.
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                results = list(pool.map(one, todo))
    finally:
        grader.close()
    for path, ran in graded.items():
        write_file(targets[path], nbformat.writes(ran))
    return results


def grade(path: Path, source: Path, timeout: float = 30, save: Path | None = None,
          name: str | None = None) -> SubmissionResult:
    """Grade one submission against the solution notebooks in ``source``; with ``save``, write the executed
    notebook to that file. Never raises for a bad submission (see ``Grader.grade``)."""
    import nbformat

    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError:
        return SubmissionResult(name or str(path), error="the file could not be read")
    grader = Grader(source, timeout, submissions={path: data})
    try:
        result, ran = grader.grade(path, name, data)
    finally:
        grader.close()
    if save is not None and ran is not None:
        write_file(Path(save), nbformat.writes(ran))
        result.saved = str(save)
    return result
