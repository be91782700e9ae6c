"""What the stored outputs of the lessons and solutions must be so that they hold on every learner's machine.

nbval (``make test``) re-runs every notebook and compares its text outputs; it does not compare images, and it
runs where the stored notebooks were made. These tests read the stored notebooks for what nbval cannot see:

* every picture shows in JupyterLab when a learner opens a lesson without running it: a notebook that was cloned
  is not trusted, and JupyterLab then renders neither SVG nor widgets, only "safe" outputs such as PNG and text.
  So each diagram carries a PNG beside its SVG, of the same size, and each widget a PNG of its last view;
* each widget's state is saved in the notebook, so that a trusted notebook shows the widget itself;
* no printed number shows more digits than its computation supports: the last bits of float32 sums change with
  the CPU, the BLAS kernel and numpy's build (the rule here: at most 8 significant digits).
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_viz import png_size, svg_size

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

# Printed numbers allowed more than 8 significant digits, by notebook and cell id: exact values, where every digit
# is reproducible (no sum, no BLAS, no transcendental function in them).
EXACT = {
    ("10_training_loop", "mistake-order"): "a weight as initialised, unchanged by step() without backward()",
}


def outputs(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """(cell id, output) for every output of every code cell."""
    nb = json.loads(path.read_text())
    return [(cell.get("id", ""), out) for cell in nb["cells"] if cell["cell_type"] == "code"
            for out in cell.get("outputs", [])]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_picture_has_a_png_that_an_untrusted_notebook_shows(path: Path) -> None:
    for cell_id, out in outputs(path):
        data = out.get("data", {})
        if "image/svg+xml" in data:
            assert "image/png" in data, f"cell {cell_id}: an SVG without a PNG shows as text until trusted"
            svg = "".join(data["image/svg+xml"])
            (width, height), (svg_width, svg_height) = png_size(base64.b64decode(data["image/png"])), svg_size(svg)
            assert abs(width - svg_width) <= 1 and abs(height - svg_height) <= 1, \
                f"cell {cell_id}: the PNG is not the SVG's drawing"  # (dot rounds pixels its own way)
        if WIDGET_VIEW in data:
            assert "image/png" in data, f"cell {cell_id}: a widget without a picture shows as text until trusted"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_widget_has_its_state_saved(path: Path) -> None:
    nb = json.loads(path.read_text())
    state = nb["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for cell_id, out in outputs(path):
        view = out.get("data", {}).get(WIDGET_VIEW)
        if view is None:
            continue
        missing, seen, todo = set(), set(), [view["model_id"]]
        while todo:  # the widget and every widget it holds (children, layouts, styles) by IPY_MODEL_<id>
            model_id = todo.pop()
            if model_id in seen:
                continue
            seen.add(model_id)
            if model_id not in state:
                missing.add(model_id)
                continue
            todo += re.findall(r"IPY_MODEL_([0-9a-f]+)", json.dumps(state[model_id]["state"]))
        assert not missing, f"cell {cell_id}: widget models not saved in the notebook: {sorted(missing)}"


NUMBER = re.compile(r"(?<![\w.])-?(\d*\.\d+)(?:e[-+]?\d+)?")


def significant_digits(number: str) -> int:
    return len(number.replace(".", "").lstrip("0"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_printed_number_shows_last_bits(path: Path) -> None:
    """``print(loss.item())`` prints a float32 with 17 digits, the last of which change with the BLAS kernel:
    print it formatted (``f"{loss.item():.4f}"``), or as a tensor (4 decimals)."""
    for cell_id, out in outputs(path):
        text = "".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))
        if (path.stem, cell_id) in EXACT:
            continue
        long = [m.group() for m in NUMBER.finditer(text) if significant_digits(m.group(1)) > 8]
        assert not long, f"cell {cell_id} prints {long}: more digits than a float32 computation supports"


def test_the_check_finds_a_last_bits_print() -> None:
    assert [m.group() for m in NUMBER.finditer("final training loss: 0.009457281790673733, 1.2586 0.58 6e-06")
            if significant_digits(m.group(1)) > 8] == ["0.009457281790673733"]
