"""Every exercise, tried the way learners try it: wrong answers, right answers written otherwise, cells run
in another order, and "Run all" on an untouched notebook.

The answers are data, in ``tests/exercise_answers/NN_topic.py`` (see ``Case`` there). Each notebook of
``exercises/`` runs in one kernel, in this order:

1. **untouched**: every cell of the released notebook, as learners get it. No cell may raise, and every
   check says "not attempted yet" ("Run all" on an unstarted notebook shows all the feedback).
2. **solved**: the notebook with the solutions' answers, top to bottom; every check passes.
3. **checks again**: every check cell once more, after the whole notebook ran (so after every later
   exercise ran its cells); every check still passes.
4. **backwards**: from the last exercise to the first, its answer cells and its check: each solution runs
   a second time, after the later exercises; every check passes.
5. **the corpus**: for each case, its answer cell(s), then the check (the verdict under test), then the
   solution's answer cell(s) and the check again: it must pass, so a wrong attempt never traps a learner.

Only the visible checks run: the learners' notebooks, as released. The twelve kernels run two at a time.
A last test reads the solution notebooks without running them: the exercises of a notebook do not
redefine the names that another exercise's check reads.
"""

from __future__ import annotations

import builtins
import importlib.util
import re
import subprocess
import symtable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from exercise_answers import Case

from tinygrad_edu.grading import notebook
from tinygrad_edu.grading.exercise import _defined_names
from tinygrad_edu.grading.release import solution_paths

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS, EXERCISES, CORPUS = ROOT / "solutions", ROOT / "exercises", Path(__file__).parent / "exercise_answers"
NAMES = [p.stem for p in solution_paths(SOLUTIONS)]
FIELD = re.compile(r"^  (\w+):\s+(.*)$")

# What the checks' generic heuristics say. A hint may say one of these only where the case expects it:
# a heuristic firing out of context names a mistake the learner could not have made.
GENERIC = ("without zeroing .grad", "zeroed after backward()", "summed back over the stretched", "broadcast together",
           "sign is flipped", "transpose of the expected", "forget to `return`")


def load_cases(name: str) -> list[Case]:
    spec = importlib.util.spec_from_file_location(f"exercise_answers_{name}", CORPUS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES


CASES = {name: load_cases(name) for name in NAMES}


# -- planning the cells of one kernel ----------------------------------------------------------------------
@dataclass
class Step:
    """A cell to run, and what it is for."""

    source: str
    stage: str  # untouched, solved, again, backwards, case, recovery
    grade_id: str | None = None  # for a check cell
    case: int | None = None
    outputs: list = field(default_factory=list)


def _strip_markers(source: str) -> str:
    return "\n".join(line for line in source.split("\n") if line.strip() not in notebook.SOLUTION)


@dataclass
class Exercise:
    """One exercise of a notebook: its check cell as released, and the solution's answer cells."""

    grade_id: str
    check: str
    answers: list[str]  # the solution's answer cells (code), markers removed


def plan(name: str) -> tuple[list[Step], dict[str, Exercise]]:
    parsed = notebook.parse(notebook.read(SOLUTIONS / f"{name}.ipynb"), name)
    exercises: dict[str, Exercise] = {}
    pending: list[notebook.Cell] = []
    for cell in parsed.cells:
        if cell.kind == "answer" and cell.cell_type == "code":
            pending.append(cell)
        elif cell.kind == "check":
            exercises[cell.grade_id] = Exercise(cell.grade_id, cell.released,
                                                [_strip_markers(c.source) for c in pending])
            pending = []
    code = [c for c in parsed.cells if c.cell_type == "code"]
    steps = [Step('import os\nos.environ["NO_COLOR"] = "1"', "setup")]
    steps += [Step(c.released, "untouched", c.grade_id if c.kind == "check" else None) for c in code]
    steps += [Step(_strip_markers(c.source) if c.kind == "answer" else c.released, "solved",
                   c.grade_id if c.kind == "check" else None) for c in code]
    steps += [Step(e.check, "again", e.grade_id) for e in exercises.values()]
    for e in reversed(exercises.values()):
        steps += [Step(a, "backwards") for a in e.answers] + [Step(e.check, "backwards", e.grade_id)]
    for i, case in enumerate(CASES[name]):
        e = exercises[case.exercise]
        steps += [Step(source, "case", case=i) for source in case.cells] + [Step(e.check, "case", e.grade_id, i)]
        steps += [Step(a, "recovery", case=i) for a in e.answers] + [Step(e.check, "recovery", e.grade_id, i)]
    return steps, exercises


def run(name: str) -> list[Step]:
    """Run the planned cells of one notebook in a fresh kernel on this Python; each step gets its outputs."""
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient

    steps, _ = plan(name)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s.source) for s in steps])
    # No kernel folders: the kernel is this very Python, whatever kernels the machine has installed.
    km = AsyncKernelManager(kernel_name="python3", kernel_spec_manager=KernelSpecManager(kernel_dirs=[]))
    NotebookClient(nb, km=km, timeout=120, allow_errors=True,
                   resources={"metadata": {"path": str(EXERCISES)}}).execute(stderr=subprocess.DEVNULL)
    for step, cell in zip(steps, nb.cells):
        step.outputs = cell.outputs
    return steps


@pytest.fixture(scope="module")
def kernels() -> dict[str, Future]:
    """All notebooks' runs, started at once, two kernels at a time (each test waits for its own)."""
    pool = ThreadPoolExecutor(max_workers=2)
    futures = {name: pool.submit(run, name) for name in NAMES}
    yield futures
    pool.shutdown(cancel_futures=True)


# -- reading what a check said -----------------------------------------------------------------------------
@dataclass
class Verdict:
    """What a check cell printed, read back: its status, its report, and the report's labelled fields."""

    status: str  # passed, failed, not attempted, error, or: no output
    report: str
    fields: dict[str, str]


def verdict(step: Step) -> Verdict:
    printed = "".join(o.get("text", "") for o in step.outputs if o.get("output_type") == "stream")
    errors = [o for o in step.outputs if o.get("output_type") == "error"]
    report = "\n".join(errors[0].get("traceback", [])) if errors else printed
    if errors:
        status = "failed" if errors[0].get("ename") == "ExerciseFailed" else f"error ({errors[0].get('ename')})"
    elif f"✔ {step.grade_id} passed" in printed:
        status = "passed"
    elif f"✘ {step.grade_id} not attempted yet" in printed:
        status = "not attempted"
    else:
        status = "no output"
    fields: dict[str, str] = {}
    label = None
    for line in report.splitlines():
        found = FIELD.match(line)
        if found:
            label = found.group(1)
            fields[label] = fields.get(label, "") + ("\n" if label in fields else "") + found.group(2)
        elif label and line.startswith(" " * 12):
            fields[label] += " " + line.strip()
    return Verdict(status, report, {k: " ".join(v.split()) for k, v in fields.items()})


def steps_of(kernels: dict[str, Future], name: str, stage: str) -> list[Step]:
    return [s for s in kernels[name].result() if s.stage == stage]


def raised(step: Step) -> str | None:
    errors = [o for o in step.outputs if o.get("output_type") == "error"]
    return f"{errors[0].get('ename')}: {errors[0].get('evalue')}" if errors else None


# -- the tests ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_run_all_on_an_untouched_notebook_runs_every_cell_and_every_check_is_not_attempted(
        kernels: dict[str, Future], name: str) -> None:
    for step in steps_of(kernels, name, "untouched"):
        assert raised(step) is None, f"{name}: a cell of the untouched notebook raised:\n{step.source}\n{raised(step)}"
        if step.grade_id:
            assert verdict(step).status == "not attempted", (step.grade_id, verdict(step).report)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("stage", ["solved", "again", "backwards"])
def test_right_answers_pass_whatever_order_the_cells_run_in(kernels: dict[str, Future], name: str, stage: str) -> None:
    for step in steps_of(kernels, name, stage):
        if step.grade_id:
            assert verdict(step).status == "passed", (stage, step.grade_id, verdict(step).report)
        else:
            assert raised(step) is None, (stage, step.source, raised(step))


ALL_CASES = [(name, i) for name in NAMES for i in range(len(CASES[name]))]


def _case_id(item: tuple[str, int]) -> str:
    case = CASES[item[0]][item[1]]
    return f"{case.exercise}: {case.mistake}"


@pytest.mark.parametrize("item", ALL_CASES, ids=[_case_id(item) for item in ALL_CASES])
def test_each_answer_gets_the_verdict_and_the_hint_it_deserves(kernels: dict[str, Future],
                                                                 item: tuple[str, int]) -> None:
    name, index = item
    case = CASES[name][index]
    steps = [s for s in kernels[name].result() if s.case == index]
    check = next(s for s in steps if s.stage == "case" and s.grade_id)
    got = verdict(check)
    if case.passes:
        assert got.status == "passed", got.report
    else:
        assert got.status == "failed", got.report
        hint = got.fields.get("hint", "")
        for phrase in case.hints:
            assert phrase in hint, f"the hint should name the mistake ({phrase!r}):\n{got.report}"
        for phrase in case.reports:
            assert " ".join(phrase.split()) in " ".join(got.report.split()), f"{phrase!r} should be in:\n{got.report}"
        others = {p for c in CASES[name] if c.exercise == case.exercise and not c.passes for p in c.hints}
        for phrase in (*case.not_hint, *GENERIC, *others):
            if not any(phrase in mine or mine in phrase for mine in case.hints):
                assert phrase not in hint, f"the hint names another mistake ({phrase!r}):\n{got.report}"
    recovery = next(s for s in steps if s.stage == "recovery" and s.grade_id)
    assert verdict(recovery).status == "passed", f"the solution, run after this answer:\n{verdict(recovery).report}"


@pytest.mark.parametrize("name", NAMES)
def test_the_corpus_covers_every_exercise(name: str) -> None:
    _, exercises = plan(name)
    for grade_id in exercises:
        cases = [c for c in CASES[name] if c.exercise == grade_id]
        assert sum(not c.passes for c in cases) >= 2, f"{grade_id}: at least two wrong answers"
        assert sum(c.passes for c in cases) >= 1, f"{grade_id}: at least one right answer written otherwise"
    assert {c.exercise for c in CASES[name]} <= set(exercises)


# -- names shared between exercises --------------------------------------------------------------------------
def _global_reads(source: str) -> set[str]:
    """The notebook names a check cell reads: global names its code and its functions use, less those it
    binds itself and Python's builtins."""
    table = symtable.symtable(source, "<check>", "exec")
    own = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
    reads, todo = set(), [(table, True)]
    while todo:
        scope, top = todo.pop()
        reads |= {s.get_name() for s in scope.get_symbols() if s.is_referenced() and (top or s.is_global())}
        todo += [(child, False) for child in scope.get_children()]
    return reads - own - set(dir(builtins))


@pytest.mark.parametrize("name", NAMES)
def test_no_exercise_redefines_a_name_another_exercises_check_reads(name: str) -> None:
    parsed = notebook.parse(notebook.read(SOLUTIONS / f"{name}.ipynb"), name)
    stores: dict[str, set[str]] = {}  # exercise -> the names its given and answer cells bind
    reads = {c.grade_id: _global_reads(c.source) for c in parsed.checks}
    cells: list[notebook.Cell] = []
    for cell in parsed.cells:
        if cell.kind == "check":
            stores[cell.grade_id] = {n for c in cells for n in _defined_names(_strip_markers(c.source))} - {"_"}
            cells = []
        elif cell.cell_type == "code" and cell.cell_id != "setup":  # the setup cell's names are everyone's
            cells.append(cell)
    for first, mine in stores.items():
        for second, theirs in stores.items():
            shared = mine & theirs & (reads[first] | reads[second]) if first < second else set()
            assert not shared, f"{first} and {second} both define {sorted(shared)}, which a check of theirs reads: " \
                "running one exercise's cells changes what the other's check sees"
