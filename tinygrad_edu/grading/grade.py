"""Grade submissions: run each in a fresh kernel with the original check cells, and count points.

For each submitted notebook:

1. **Find its original** in the solutions folder: by the source recorded in its metadata at release,
   else by its file name (``alice/05_leaf_tensors.ipynb``), else by a solution name contained in its
   file name (``05_leaf_tensors-Copy1.ipynb``).
2. **Rebuild it for grading.** The learner's cells are kept in their order, but every check cell is
   replaced by the original, hidden tests included. A check cell is recognised by its metadata, else
   by its cell id, else by its ``with exercise("<id>")`` line. One whose source differs from what
   release wrote is reported *edited*; one that is missing is reported *deleted* and put back after
   the learner's cell that matches the original cell before it. Either way the original is graded.
3. **Put fresh check functions in place** before each check cell: a grader cell drops
   ``tinygrad_edu.grading`` from ``sys.modules``, imports it again and rebinds its names, so a learner's
   ``check_close = lambda *a, **k: None``, or a patched ``tinygrad_edu.grading.exercise``, is undone.
4. **Execute** every cell in a fresh kernel (running this Python, in an empty temporary folder), with a
   per-cell timeout. An error does not stop the run. A cell that runs too long is interrupted and the
   run goes on; one that cannot be interrupted, or a dead kernel (``os._exit``, a crash), ends the run:
   the checks not yet run get no points. ``sys.exit()`` only fails its own cell (IPython catches it).
5. **Count**: a check cell earns its points if it ran without error *and* printed its own
   ``✔ <id> passed`` line (so swallowing the error of a failed check does not pass it).

What this does not defend against: the learner's code runs in the same Python process as the checks,
so code written to cheat on purpose (patching numpy or the library the checks compute with, hooking
``print`` or the import system, or reading the solutions folder from disk during grading) can still
fool it. The grader makes honest mistakes and casual tampering harmless, and reports edits; it is not a
sandbox. Run it as a user who can read nothing secret, and read the report.
"""

from __future__ import annotations

import logging
import re
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import notebook
from ._style import FAIL, PASS, strip_ansi

TIMEOUT_NAME = "CellTimeout"

# Runs before every check cell; only builtins are used, so an earlier cell cannot have replaced it.
GUARD_SOURCE = """\
# Inserted by the grader: fresh check functions, whatever the cells above did to them.
import sys as _grader_sys
for _grader_name in [m for m in _grader_sys.modules if m.split(".")[:2] == ["tinygrad_edu", "grading"]]:
    del _grader_sys.modules[_grader_name]
from tinygrad_edu.grading import *"""


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

    @property
    def points(self) -> float:
        return sum(e.points for e in self.exercises)

    @property
    def max_points(self) -> float:
        return sum(e.max_points for e in self.exercises)


# -- finding the original ---------------------------------------------------------------------------------
def find_original(path: Path, nb: Any, source: Path) -> Path | None:
    """The solution notebook a submission comes from (see the module docstring), or None."""
    meta = nb.get("metadata") if isinstance(nb, dict) else None
    recorded = (meta or {}).get(notebook.META, {}).get("source") if isinstance(meta, dict) else None
    candidates = [Path(recorded).name] if isinstance(recorded, str) else []
    candidates.append(path.name)
    for name in candidates:
        if (source / name).is_file():
            return source / name
    contained = [p for p in source.glob("*.ipynb") if p.stem in path.stem]
    return max(contained, key=lambda p: len(p.stem)) if contained else None


# -- rebuilding the notebook ------------------------------------------------------------------------------
@dataclass
class _Planned:
    """A cell of the notebook as it is graded."""

    role: str  # "learner", "guard" or "check"
    source: str
    cell_type: str = "code"
    grade_id: str | None = None
    learner_number: int | None = None  # 1-based position in the submission, for the notes
    outputs: list = field(default_factory=list)
    reply: dict | None = None
    ran: bool = False


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
                _Planned("check", check.source, grade_id=check.grade_id)]

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


# -- running it -------------------------------------------------------------------------------------------
def _kernel_manager() -> Any:
    """A kernel manager that starts an IPython kernel on this very Python (the one tinygrad_edu is in)."""
    import ipykernel.kernelspec
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager

    class ThisPython(KernelSpecManager):
        def get_kernel_spec(self, kernel_name: str) -> Any:
            return self.kernel_spec_class(resource_dir=ipykernel.kernelspec.RESOURCES,
                                          **ipykernel.kernelspec.get_kernel_dict())

    return AsyncKernelManager(kernel_name="python3", kernel_spec_manager=ThisPython())


MAX_OUTPUT = 1_000_000  # characters of printed output kept per cell: a print loop must not eat the grader's memory
TRUNCATED = f"[the grader kept the first {MAX_OUTPUT:,} characters of this cell's output]\n"


def _client_class() -> type:
    """nbclient's NotebookClient, keeping at most about MAX_OUTPUT characters of printed output per cell."""
    from nbclient import NotebookClient
    from nbformat.v4 import new_output

    class Client(NotebookClient):
        def output(self, outs: list, msg: dict, display_id: str | None, cell_index: int) -> Any:
            content = msg.get("content", {})
            if msg["msg_type"] in ("stream", "display_data"):  # errors and results are always kept
                sizes = self.__dict__.setdefault("_printed", {})
                room = MAX_OUTPUT - sizes.get(cell_index, 0)
                size = len(content.get("text", "")) if msg["msg_type"] == "stream" else len(str(content))
                sizes[cell_index] = sizes.get(cell_index, 0) + size
                if size > room and PASS not in str(content.get("text", "")):  # a check's verdict is always kept
                    if room > 0 and msg["msg_type"] == "stream":
                        super().output(outs, {**msg, "content": {**content, "text": content["text"][:room]}},
                                       display_id, cell_index)
                    if room > 0 or not outs or outs[-1].get("text") != TRUNCATED:
                        outs.append(new_output("stream", name="stderr", text=TRUNCATED))
                    return None
            return super().output(outs, msg, display_id, cell_index)

    return Client


def _to_notebook(planned: list[_Planned]) -> Any:
    import nbformat

    cells = []
    for p in planned:
        if p.cell_type == "code":
            cell = nbformat.v4.new_code_cell(p.source)
        elif p.cell_type == "markdown":
            cell = nbformat.v4.new_markdown_cell(p.source)
        else:
            cell = nbformat.v4.new_raw_cell(p.source)
        if p.role != "learner":
            cell.metadata[notebook.META] = {"grader": p.role, "grade_id": p.grade_id}
        cells.append(cell)
    return nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": notebook.KERNELSPEC,
                                                           "language_info": {"name": "python"}})


def execute(planned: list[_Planned], timeout: float, result: SubmissionResult) -> Any:
    """Run the planned cells in a fresh kernel; fills in outputs and replies. Returns the notebook run."""
    from nbclient.exceptions import DeadKernelError

    nb = _to_notebook(planned)
    replies: dict[int, dict] = {}
    quiet = logging.getLogger("tinygrad_edu.grading.kernel")
    quiet.setLevel(logging.CRITICAL)  # timeouts and dead kernels are reported in the notes instead
    client = _client_class()(
        nb, km=_kernel_manager(), timeout=timeout, interrupt_on_timeout=True, allow_errors=True, log=quiet,
        shutdown_kernel="immediate", iopub_timeout=4,
        # After interrupting, do not wait for a reply that may never come (a cell that ignores interrupts).
        error_on_timeout={"ename": TIMEOUT_NAME, "evalue": f"did not finish within {timeout:g} s",
                          "traceback": [f"{TIMEOUT_NAME}: did not finish within {timeout:g} s"]})
    client.on_cell_executed = lambda cell, cell_index, execute_reply: replies.__setitem__(cell_index, execute_reply)

    def where(p: _Planned) -> str:
        return f"cell {p.learner_number}" if p.role == "learner" else f"check cell {p.grade_id}"

    with tempfile.TemporaryDirectory(prefix="tinygrad-edu-grade-") as cwd:
        client.resources = {"metadata": {"path": cwd}}
        with client.setup_kernel(cleanup_kc=True, stderr=subprocess.DEVNULL):
            for i, (p, cell) in enumerate(zip(planned, nb.cells)):
                if cell.cell_type != "code" or not cell.source.strip():
                    continue
                try:
                    client.execute_cell(cell, i)
                except DeadKernelError:
                    result.notes.append(f"the kernel died while running {where(p)} (os._exit, a crash or out "
                                        "of memory): the cells after it did not run")
                    break
                p.ran, p.outputs, p.reply = True, list(cell.outputs), replies.get(i, {}).get("content", {})
                if p.reply.get("ename") == TIMEOUT_NAME:
                    if not any(o.output_type == "error" for o in cell.outputs):
                        result.notes.append(f"{where(p)} did not finish within {timeout:g} s and ignored the "
                                            "interrupt: the kernel was stopped, the cells after it did not run")
                        break
                    result.notes.append(f"{where(p)} did not finish within {timeout:g} s: it was interrupted")
                elif p.reply.get("status") == "error" and p.role != "check":
                    ename, message = p.reply.get("ename"), str(p.reply.get("evalue", "")).strip().split("\n")[0]
                    message = re.sub(r"\s*\([^()]*\.py, line \d+\)$", "", message)  # drop the cell's temp file name
                    if ename == "NotImplementedError" and not message:
                        result.notes.append(f"{where(p)} is not answered (it raises NotImplementedError)")
                    else:
                        result.notes.append(f"{where(p)} raised {ename}" + (f": {message[:120]}" if message else ""))
    return nb


def judge(p: _Planned, guard: _Planned | None, exercise: ExerciseResult) -> None:
    """Set an exercise's status and points from how its check cell (and the guard before it) ran."""
    if not p.ran:
        return
    errors = [o for o in p.outputs if o.output_type == "error"]
    stdout = strip_ansi("".join(o.get("text", "") for o in p.outputs if o.output_type == "stream"
                                and o.get("name") == "stdout"))
    if guard is not None and guard.reply and guard.reply.get("status") == "error":
        exercise.status = "error"
        exercise.report = f"the check functions could not be imported again: {guard.reply.get('ename')}: " \
                          f"{guard.reply.get('evalue')}"
    elif errors or p.reply.get("status") == "error":
        ename = p.reply.get("ename")
        if ename != TIMEOUT_NAME and errors:  # the kernel's own report, unless the grader had to interrupt
            ename = errors[0].get("ename")
        exercise.status = {"NotAttempted": "not attempted", "ExerciseFailed": "failed",
                           TIMEOUT_NAME: "timeout"}.get(ename, "error")
        if exercise.status in ("not attempted", "failed") and errors:
            exercise.report = strip_ansi("\n".join(errors[0].get("traceback", [])))
        else:
            exercise.report = f"{ename}: {errors[0].get('evalue') if errors else p.reply.get('evalue')}"
    elif re.search(rf"^{PASS} {re.escape(exercise.grade_id)} passed \(", stdout, re.M):
        exercise.status, exercise.points = "passed", exercise.max_points
    elif re.search(rf"^{FAIL} {re.escape(exercise.grade_id)} not attempted yet \(", stdout, re.M):
        exercise.status, exercise.report = "not attempted", stdout.strip()  # printed, so that Run all goes on
    else:
        exercise.status = "failed"
        exercise.report = "the check ran without error but did not print its pass line: was print or the output " \
                          "changed by an earlier cell?"


def grade(path: Path, source: Path, timeout: float = 30, save: Path | None = None,
          name: str | None = None) -> SubmissionResult:
    """Grade one submission against the solution notebooks in ``source``. Never raises for a bad
    submission: what went wrong is in the result's ``error`` and ``notes``. With ``save``, the executed
    notebook is written to that file."""
    path, source = Path(path), Path(source)
    result = SubmissionResult(name or str(path))
    started = time.perf_counter()
    try:
        nb = notebook.read(path)
    except (OSError, notebook.FormatError) as error:
        nb, result.error = None, str(error).replace(f"{path}: ", "")
    original_path = find_original(path, nb, source)
    if original_path is None:
        result.error = result.error or f"no notebook in {source}/ matches it (by its metadata or file name)"
        return result
    original = notebook.parse(notebook.read(original_path), f"{source.name}/{original_path.name}")
    result.notebook = original_path.stem
    result.exercises = [ExerciseResult(c.grade_id, c.points) for c in original.checks]
    if result.error:
        return result
    try:
        planned = plan(nb, original, result)
        ran = execute(planned, timeout, result)
    except notebook.FormatError as error:
        result.error = str(error)
        return result
    except Exception as error:  # the grader must go on with the next submission, whatever happened here
        result.error = f"grading stopped: {type(error).__name__}: {error}"
        return result
    finally:
        result.seconds = time.perf_counter() - started
    by_id = {e.grade_id: e for e in result.exercises}
    for i, p in enumerate(planned):
        if p.role == "check":
            judge(p, planned[i - 1] if i and planned[i - 1].role == "guard" else None, by_id[p.grade_id])
    if save is not None:
        import nbformat

        Path(save).parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(ran, save)
    return result


def collect(paths: list[Path]) -> list[tuple[Path, str]]:
    """The notebooks to grade, with the names to show: files as given, folders searched (recursively)."""
    found = []
    for path in paths:
        if path.is_dir():
            for p in sorted(path.rglob("*.ipynb")):
                if ".ipynb_checkpoints" not in p.parts:
                    found.append((p, str(p)))
        elif path.exists():
            found.append((path, str(path)))
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    return found


def grade_all(paths: list[Path], source: Path, timeout: float = 30, save: Path | None = None,
              progress: Any = None, jobs: int = 1) -> list[SubmissionResult]:
    """Grade every submission (``jobs`` at a time, each in its own kernel), in the order given.
    ``progress``, if given, is called with each result as it is ready."""
    todo, taken = [], set()
    for path, name in collect([Path(p) for p in paths]):
        save_as = None
        if save is not None:  # NAME.graded.ipynb, numbered when two submissions share a file name
            stem, n = path.stem, 1
            while (stem if n == 1 else f"{stem}-{n}") in taken:
                n += 1
            stem = stem if n == 1 else f"{stem}-{n}"
            taken.add(stem)
            save_as = Path(save) / f"{stem}.graded.ipynb"
        todo.append((path, name, save_as))

    def one(job: tuple[Path, str, Path | None]) -> SubmissionResult:
        result = grade(job[0], source, timeout, job[2], job[1])
        if progress is not None:
            progress(result)
        return result

    if jobs <= 1:
        return [one(job) for job in todo]
    # Threads are enough: each submission runs in its own kernel process; a thread mostly waits for it.
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, todo))
