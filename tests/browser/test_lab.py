"""The course as a learner meets it in JupyterLab, in headless Chromium (see conftest.py for the set-up).

Every wait here is for a condition (a picture loaded, a cell's output, a caption), never a fixed sleep; the one
timed wait checks that nothing happens during a Play interval. Menu actions (Run All, Save, Run Cell) go through
JupyterLab's commands, the ones its menus call; widgets and cells are clicked and typed into.
"""

from __future__ import annotations

import contextlib
import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, Lab
from playwright.sync_api import TimeoutError as PlaywrightTimeout

LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

# The text JupyterLab falls back to when it does not render a picture: a diagram's repr, a stepper's summary.
FALLBACK_TEXT = re.compile(r"<Diagram \w+: \d+ nodes|BackwardStepper: \d+ steps of backward")

# In the notebook on screen: how many outputs show a picture (a loaded <img>, or an <svg>), and the outputs' texts.
PICTURES = """() => {
    const node = window.jupyterapp.shell.currentWidget.node;
    const outputs = Array.from(node.querySelectorAll('.jp-OutputArea-output'));
    const shown = outputs.filter(o => Array.from(o.querySelectorAll('img')).some(i => i.complete && i.naturalWidth > 0)
                                      || o.querySelector('svg') !== null);
    return {shown: shown.length, texts: outputs.map(o => o.innerText)};
}"""

# Outputs that are errors: a traceback, or a widget JupyterLab could not display.
ERRORS = """() => {
    const node = window.jupyterapp.shell.currentWidget.node;
    return Array.from(node.querySelectorAll('.jp-OutputArea-output'))
        .filter(o => o.matches('[data-mime-type="application/vnd.jupyter.error"]')
                     || o.querySelector('[data-mime-type="application/vnd.jupyter.error"]') !== null
                     || /Error displaying widget/.test(o.innerText))
        .map(o => o.innerText.slice(0, 300));
}"""


def stored_pictures(path: Path) -> int:
    """How many outputs of the stored notebook are pictures (a diagram, a plot, a widget's last view)."""
    nb = json.loads(path.read_text())
    return sum(1 for cell in nb["cells"] if cell["cell_type"] == "code" for out in cell.get("outputs", [])
               if {"image/png", "image/svg+xml"} & set(out.get("data", {})))


def open_notebook(page: Any, lab: Lab, path: str) -> None:
    """Open ``path`` (relative to the server's root), as the file browser does, and wait until its cells are drawn
    and its kernel is ready."""
    page.evaluate("async path => { await window.jupyterapp.commands.execute('docmanager:open', {path}); }", path)
    page.wait_for_function("""path => {
        const w = window.jupyterapp.shell.currentWidget;
        return w && w.context && w.context.path === path && w.content.widgets.length > 0
               && w.node.querySelectorAll('.jp-Cell').length === w.content.widgets.length;
    }""", arg=path)
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.ready")


def close_notebook(page: Any) -> None:
    """Close the notebook on screen without saving (its kernel is shut down: see conftest.py)."""
    page.evaluate("""async () => {
        const w = window.jupyterapp.shell.currentWidget;
        await w.sessionContext.shutdown();
        w.context.model.dirty = false;
        w.dispose();
    }""")


def run_all(page: Any) -> None:
    """Run All (the Run menu's command), then wait until every code cell has run."""
    page.evaluate("async () => { await window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function("""() => {
        const prompts = Array.from(window.jupyterapp.shell.currentWidget.node
                                   .querySelectorAll('.jp-CodeCell .jp-InputPrompt'));
        return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.innerText));
    }""", timeout=120_000)


def cell(page: Any, index: int) -> Any:
    return page.locator(".jp-MainAreaWidget:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").nth(index)


def run_cell(page: Any, index: int) -> None:
    """Select cell ``index`` and run it (Shift+Enter's command), then wait until it has run (a new number)."""
    prompt = "i => window.jupyterapp.shell.currentWidget.content.widgets[i].node.querySelector('.jp-InputPrompt')"
    before = page.evaluate(f"i => ({prompt})(i).innerText", index)
    page.evaluate("""index => {
        const notebook = window.jupyterapp.shell.currentWidget.content;
        notebook.activeCellIndex = index;
        notebook.mode = 'command';
        window.jupyterapp.commands.execute('notebook:run-cell');
    }""", index)
    page.wait_for_function(f"([i, before]) => {{ const text = ({prompt})(i).innerText; "
                           f"return /\\[\\d+\\]/.test(text) && text !== before; }}", arg=[index, before])


def source(page: Any, index: int) -> str:
    return page.evaluate("i => window.jupyterapp.shell.currentWidget.content.widgets[i].model.sharedModel.getSource()",
                         index)


# -- the widgets, live (each check runs in its lesson, after Run All) -------------------------------------------


def stepper_parts(page: Any) -> tuple[Any, Any]:
    """The first stepper on screen: (the widget, its picture, which bears the caption "Step k of n")."""
    widget = page.locator(".jp-OutputArea-output .widget-vbox", has=page.locator("button", has_text="Next")).first
    return widget, widget.locator(".widget-html svg")


def stepper_steps_on_next_and_play_stops_at_the_end(page: Any, lab: Lab, name: str) -> None:
    widget, picture = stepper_parts(page)
    picture.get_by_text(re.compile(r"^Step 0 of \d+")).wait_for()
    before = picture.inner_html()
    last = int(re.search(r"Step 0 of (\d+)", picture.text_content()).group(1))
    widget.locator("button", has_text="Next").click()
    picture.get_by_text(re.compile(r"^Step 1 of ")).wait_for()
    assert picture.inner_html() != before, "Next: the picture did not change"
    # Play to the end: Play stops there (its button no longer shows it playing), and Prev is not undone later.
    widget.locator(".widget-play button").first.click()
    picture.get_by_text(re.compile(rf"^Step {last} of {last}")).wait_for(timeout=(last + 2) * 2_000)
    page.wait_for_function("el => el.querySelector('.widget-play button.mod-active') === null",
                           arg=widget.element_handle())
    widget.locator("button", has_text="Prev").click()
    picture.get_by_text(re.compile(rf"^Step {last - 1} of ")).wait_for()
    page.wait_for_timeout(2_000)  # longer than Play's interval (1.5 s): a tick would have come by now
    assert picture.get_by_text(re.compile(rf"^Step {last - 1} of ")).count() == 1, "Prev after Play was undone"


def explorer_redraws_when_its_slider_moves(page: Any, lab: Lab, name: str) -> None:
    explorer = page.locator(".jp-OutputArea-output .widget-vbox", has=page.locator(".widget-slider")).first
    image = explorer.locator("img").first
    before = image.get_attribute("src")
    explorer.locator(".widget-slider .noUi-handle").first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("([img, before]) => img.getAttribute('src') !== before",
                           arg=[image.element_handle(), before])


def widgets_show_again_when_saved_and_reopened(page: Any, lab: Lab, name: str) -> None:
    """Run, saved and reopened, the lesson shows its widgets (the environment's saveState setting), not "Error
    displaying widget: model not found"."""
    page.evaluate("async () => { await window.jupyterapp.commands.execute('docmanager:save'); }")
    # (with saveState, any change of a widget marks the notebook changed again: the file on disk is what counts)
    saved = json.loads((lab.root / "notebooks" / name).read_text())
    state = saved["metadata"].get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    views = [out["data"][WIDGET_VIEW]["model_id"] for cell in saved["cells"] for out in cell.get("outputs", [])
             if WIDGET_VIEW in out.get("data", {})]
    assert views and all(view in state for view in views), "the widgets' state was not saved with the notebook"
    close_notebook(page)
    open_notebook(page, lab, f"notebooks/{name}")
    page.locator(".jp-OutputArea-output .widget-slider").first.wait_for()
    assert page.evaluate(ERRORS) == []


LIVE = {"06_backward.ipynb": [stepper_steps_on_next_and_play_stops_at_the_end],
        "01_derivatives.ipynb": [explorer_redraws_when_its_slider_moves, widgets_show_again_when_saved_and_reopened]}


# -- every lesson: its pictures before running, no error after Run All, its widgets live -----------------------


@pytest.mark.parametrize("name", LESSONS)
def test_a_lesson_shows_its_pictures_unrun_and_runs_without_errors(page: Any, lab: Lab, name: str) -> None:
    """Opened from a fresh clone (not trusted), every stored diagram, plot, explorer and stepper shows as a picture
    (their PNG), none as the text line JupyterLab falls back to; Run All then gives no error output; then the
    lesson's widgets work (LIVE)."""
    expected = stored_pictures(ROOT / "notebooks" / name)
    open_notebook(page, lab, f"notebooks/{name}")
    with contextlib.suppress(PlaywrightTimeout):  # (what is missing is said below)
        page.wait_for_function(f"() => ({PICTURES})().shown >= {expected}", timeout=15_000)
    seen = page.evaluate(PICTURES)
    as_text = [t for t in seen["texts"] if FALLBACK_TEXT.search(t)]
    assert seen["shown"] == expected and not as_text, \
        f"{seen['shown']} of {expected} stored pictures shown; shown as text instead: {as_text}"
    run_all(page)
    assert page.evaluate(ERRORS) == []
    for check in LIVE.get(name, []):
        check(page, lab, name)
    close_notebook(page)


def test_a_trusted_lesson_shows_its_saved_widgets(page: Any, lab: Lab) -> None:
    """Trusted, as `make lab` does, a stored lesson shows its widgets themselves from the state saved with it."""
    lab.trust("notebooks/11_under_the_hood.ipynb")
    open_notebook(page, lab, "notebooks/11_under_the_hood.ipynb")
    stepper_parts(page)[1].get_by_text(re.compile(r"^Step \d+ of \d+")).first.wait_for()
    assert page.evaluate(ERRORS) == []
    close_notebook(page)


def notebook_layout(page: Any, lab: Lab, windowing: str | None) -> None:
    """Set the notebooks' windowing mode (None: JupyterLab's default, which learners have) and reload the page."""
    settings = {"kernelShutdown": True} | ({"windowingMode": windowing} if windowing else {})
    request = urllib.request.Request(f"{lab.url}/lab/api/settings/@jupyterlab/notebook-extension:tracker",
                                     data=json.dumps({"raw": json.dumps(settings)}).encode(), method="PUT",
                                     headers={"Authorization": f"token {lab.token}",
                                              "Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=30).close()
    page.goto(f"{lab.url}/lab?reset&token={lab.token}")  # (reset: no document of the last session reopened)
    page.wait_for_function("() => window.jupyterapp !== undefined")
    page.evaluate("async () => { await window.jupyterapp.started; await window.jupyterapp.restored; }")


def test_a_link_of_the_errata_index_opens_the_lesson_at_the_correcting_cell(page: Any, lab: Lab) -> None:
    """The errata index (勘误表), in JupyterLab's default layout: an entry's link opens the lesson it names, with the
    cell that corrects the note scrolled into view, and the heading above it that the link names."""
    notebook_layout(page, lab, None)
    try:
        open_notebook(page, lab, "notebooks/errata_zh.ipynb")
        index = page.locator(".jp-MainAreaWidget:not(.lm-mod-hidden) .jp-Notebook")
        index.get_by_role("link", name=re.compile("› Nodes are not Functions")).first.click()
        page.wait_for_function("""() => {
            const w = window.jupyterapp.shell.currentWidget;
            if (!w || !w.context || w.context.path !== 'notebooks/05b_inside_a_node.ipynb') return false;
            const cells = w.content.widgets;
            const i = cells.findIndex(c => c.model.id === 'class-mro');
            if (i < 1) return false;
            const inView = node => {
                const box = node.getBoundingClientRect();
                return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
            };
            const heading = cells[i - 1].node.querySelector('[data-jupyter-id="Nodes-are-not-Functions"]');
            return inView(cells[i].node) && heading !== null && inView(heading);
        }""")
        close_notebook(page)  # the lesson
        close_notebook(page)  # the index
    finally:
        notebook_layout(page, lab, "none")


# -- an exercise notebook ---------------------------------------------------------------------------------------


def test_an_exercise_gives_feedback_and_its_checks_are_locked(page: Any, lab: Lab) -> None:
    """The first exercise of the welcome notebook: its check answers "not attempted", "failed" and "passed" as the
    answer cell is left, filled in wrongly, and filled in right; the check cell cannot be edited or deleted."""
    nb = json.loads((lab.root / "exercises" / "00_welcome.ipynb").read_text())
    ids = [c["metadata"].get("tinygrad_edu", {}).get("grade_id") for c in nb["cells"]]
    answer, check = ids.index("welcome-1-answer"), ids.index("welcome-1")
    first_code = next(i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code")
    open_notebook(page, lab, "exercises/00_welcome.ipynb")
    run_cell(page, first_code)
    feedback = cell(page, check).locator(".jp-OutputArea")

    run_cell(page, check)  # the answer cell not run: `t` is not defined
    feedback.get_by_text(re.compile("welcome-1 not attempted yet")).wait_for()
    for text, verdict in [("t = torch.tensor([0.5, 1.5, 2.5])", "welcome-1 failed"),
                          ("t = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)", "welcome-1 passed")]:
        cell(page, answer).locator(".cm-content").click()
        page.keyboard.press("Control+A")
        page.keyboard.type(text)
        assert source(page, answer) == text
        run_cell(page, answer)
        run_cell(page, check)
        feedback.get_by_text(re.compile(verdict)).wait_for()

    locked = source(page, check)
    cell(page, check).locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("# edited")
    page.keyboard.press("Backspace")
    assert source(page, check) == locked
    count = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets.length")
    page.keyboard.press("Escape")  # command mode, the check cell selected: D, D deletes a cell
    page.keyboard.press("d")
    page.keyboard.press("d")
    page.evaluate("async () => { await window.jupyterapp.commands.execute('notebook:delete-cell'); }")
    assert page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets.length") == count
    assert source(page, check) == locked
    close_notebook(page)
