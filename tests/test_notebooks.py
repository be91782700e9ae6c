"""The course's lessons: all there, each in the lesson format, each with its exercises, and each mistake in the
seed notes corrected by a cell whose stored output shows what really happens.

nbval (in ``make test``) re-runs every notebook and compares its outputs with the stored ones; these tests read
the stored outputs, so together they prove that the outputs below are what the code really prints.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tinygrad_edu.grading import notebook

ROOT = Path(__file__).resolve().parent.parent
# The chain of lessons; a lesson's second sitting (05b, 06b, 08b, 11b) is optional and follows its lesson.
LESSONS = ["00_welcome", "01_derivatives", "02_partial_and_directional_derivatives", "03_gradients",
           "04_tensors_and_graphs", "05_leaf_tensors", "05b_inside_a_node", "06_backward",
           "06b_gradients_through_broadcasting", "07_higher_order", "08_turning_gradients_off",
           "08b_evaluating_a_model", "09_custom_functions", "10_training_loop", "11_under_the_hood",
           "11b_your_engine_trains_a_network"]

# The mistakes DESIGN.md lists in the seed notes (and one more found in them), each with the lesson that corrects
# it, what its cells (tagged ``seed-truth:<name>``) must contain in their sources, and what their stored outputs
# must show.
SEED_TRUTHS = {
    # "backward() on a result computed under no_grad quietly computes nothing": it raises.
    "no-grad-backward": ("08_turning_gradients_off", [r"no_grad\(\)", r"set_grad_enabled\(False\)"],
                         [r"(?s)(RuntimeError: element 0 of tensors does not require grad and does not have a "
                          r"grad_fn.*){2}"]),
    # backward() of a non-scalar needs a gradient argument.
    "non-scalar-backward": ("06_backward", [r"\.backward\(\)"],
                            [r"RuntimeError: grad can be implicitly created only for scalar outputs"]),
    # The 0 in MulBackward0 is not an instance number: it tells apart the formulas of one op.
    "backward-suffix": ("05b_inside_a_node", [],
                        [r"(?s)MulBackward0.*MulBackward0", r"PowBackward0", r"PowBackward1", r"PowBackward2"]),
    # The 0 in (<AccumulateGrad ...>, 0) is the index of the node's output.
    "output-index": ("05b_inside_a_node", [],
                     [r"\(<AccumulateGrad object at 0x[0-9a-fA-F]+>, 0\)", r"object at 0x[0-9a-fA-F]+>, 1\)"]),
    # An input that needs no grad gets no node, but its value can still be saved.
    "saved-without-node": ("05b_inside_a_node", [r"_saved_other"], [r"\(None, 0\)"]),
    # The Backward objects are not subclasses of torch.autograd.Function: they are nodes of the graph.
    "node-not-function": ("05b_inside_a_node", [r"__mro__", r"isinstance\(y\.grad_fn, torch\.autograd\.Function\)"],
                          [r"torch\.autograd\.Function in its __mro__: +False",
                           r"isinstance\(y\.grad_fn, torch\.autograd\.Function\): +False"]),
    # The graph is recorded as the forward pass runs; backward consumes it.
    "recorded-in-forward": ("04_tensors_and_graphs", [], [r"grad_fn=<",
                                                           r"Trying to backward through the graph a second time"]),
    # retains_grad does not "keep the graph": it keeps a non-leaf's .grad; a second backward still fails.
    "retains-grad": ("11_under_the_hood", [r"retain_grad\(\)"], [r"retains_grad", r"Trying to backward through the "
                                                                     r"graph a second time"]),
    # only_inputs is deprecated and ignored; allow_unused=False makes an unused input an error.
    "autograd-grad-args": ("07_higher_order", [r"only_inputs", r"allow_unused"],
                           [r"only_inputs argument is deprecated and is ignored now",
                            r"appears to not have been used in the graph\. Set allow_unused=True if this is the "
                            r"desired behavior\."]),
}


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def source(cell: dict) -> str:
    return notebook.source_text(cell["source"])


def output_text(cell: dict) -> str:
    """Everything a code cell showed as text: streams, text/plain results and error lines."""
    parts = []
    for out in cell.get("outputs", []):
        if "text" in out:
            parts.append(notebook.source_text(out["text"]))
        if "text/plain" in out.get("data", {}):
            parts.append(notebook.source_text(out["data"]["text/plain"]))
        if out["output_type"] == "error":
            parts.append(f"{out['ename']}: {out['evalue']}")
    return "\n".join(parts)


def sections(nb: dict) -> dict[str, list[dict]]:
    """The cells under each ``## heading`` (the heading's text, lower-cased, without the ``##``)."""
    found: dict[str, list[dict]] = {"": []}
    current = ""
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for line in source(cell).splitlines():
                if line.startswith("## "):
                    current = line[3:].strip().lower()
                    found.setdefault(current, [])
        found[current].append(cell)
    return found


@pytest.mark.parametrize("name", LESSONS)
def test_every_lesson_is_there_with_its_exercises(name: str) -> None:
    lesson = ROOT / "notebooks" / f"{name}.ipynb"
    solution = ROOT / "solutions" / f"{name}.ipynb"
    assert lesson.exists(), f"the lesson {lesson.relative_to(ROOT)} is missing"
    assert solution.exists(), f"the exercises' source {solution.relative_to(ROOT)} is missing"
    assert (ROOT / "exercises" / f"{name}.ipynb").exists(), "run `make release` to write exercises/"
    checks = notebook.parse(notebook.read(solution), solution.name).checks
    assert len(checks) >= 4, f"{solution.name} has {len(checks)} graded exercises; each lesson has at least 4"


@pytest.mark.parametrize("name", LESSONS)
def test_a_lesson_has_goals_common_mistakes_a_summary_and_points_to_its_exercises(name: str) -> None:
    path = ROOT / "notebooks" / f"{name}.ipynb"
    if not path.exists():
        pytest.skip(f"{path.name} is missing (test_every_lesson_is_there_with_its_exercises fails for it)")
    nb = load(path)
    number = name.split("_")[0]  # 05, or 05b for a lesson's second sitting
    assert source(nb["cells"][0]).startswith(f"# {number} · "), "the first cell is the title: '# NN · Title'"
    parts = sections(nb)
    for heading in ("learning goals", "summary"):
        assert heading in parts, f"{name} has no '## {heading.capitalize()}' section"
    if name != "00_welcome":  # the welcome notebook teaches no autograd, so it has no mistakes to run
        mistakes = parts.get("common mistakes")
        assert mistakes, f"{name} has no '## Common mistakes' section"
        shown = [output_text(c) for c in mistakes if c["cell_type"] == "code"]
        assert any(re.search(r"\w+(Error|Warning)\b", text) for text in shown), \
            f"{name}'s common mistakes run no mistake that shows its error or warning"
    text = "\n".join(source(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert f"../exercises/{name}.ipynb" in text, f"{name} does not link to its exercises"


@pytest.mark.parametrize("name", LESSONS)
def test_lessons_are_stored_run_from_top_to_bottom(name: str) -> None:
    for folder in ("notebooks", "solutions"):
        path = ROOT / folder / f"{name}.ipynb"
        if not path.exists():
            continue
        code = [c for c in load(path)["cells"] if c["cell_type"] == "code"]
        counts = [c["execution_count"] for c in code]
        assert counts == list(range(1, len(code) + 1)), \
            f"{folder}/{name}.ipynb is not stored as one clean run from the top (execution counts {counts})"


@pytest.mark.parametrize("truth", sorted(SEED_TRUTHS))
def test_each_seed_mistake_is_corrected_by_a_cell_that_runs(truth: str) -> None:
    name, in_sources, in_outputs = SEED_TRUTHS[truth]
    path = ROOT / "notebooks" / f"{name}.ipynb"
    assert path.exists(), f"{path.name}, which corrects the seed mistake '{truth}', is missing"
    cells = [c for c in load(path)["cells"]
             if c["cell_type"] == "code" and f"seed-truth:{truth}" in c["metadata"].get("tags", [])]
    assert cells, f"no code cell of {name} is tagged seed-truth:{truth}"
    sources = "\n".join(source(c) for c in cells)
    outputs = "\n".join(output_text(c) for c in cells)
    for pattern in in_sources:
        assert re.search(pattern, sources), f"the seed-truth:{truth} cells do not run {pattern!r}"
    for pattern in in_outputs:
        assert re.search(pattern, outputs), f"the seed-truth:{truth} cells' stored outputs do not show {pattern!r}"


def test_the_table_of_lessons_matches_the_notebooks_folder() -> None:
    numbered = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
    assert set(numbered) <= set(LESSONS), f"lessons not in the course's table: {set(numbered) - set(LESSONS)}"
    welcome = ROOT / "notebooks" / "00_welcome.ipynb"
    if welcome.exists():
        text = "\n".join(source(c) for c in load(welcome)["cells"] if c["cell_type"] == "markdown")
        for name in LESSONS:
            assert f"{name}.ipynb" in text, f"00_welcome does not list {name}"
