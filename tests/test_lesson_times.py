"""Every lesson says how long it takes, and the number cannot go stale: it is checked against one formula.

A lesson's time to read and run is estimated from the notebook itself (the README's "A lesson's stated time"):

    minutes = English words of its text cells / 120 + Chinese characters / 300 + 1 per code cell

(a careful reading pace for technical text, and a minute per code cell to read the code, run it and read what it
printed). The title cell states the estimate, rounded to 5 minutes, with the lesson's prerequisites, on the line
under the title:

    *About 30 minutes to read and run. Prerequisites: [03 · Gradients](03_gradients.ipynb).*

No lesson may take longer than 45 minutes, one sitting. The course's table in the README and the map in lesson
00 show the same times. Run this file to print the estimates: ``.venv/bin/python tests/test_lesson_times.py``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from test_notebooks import LESSONS

ROOT = Path(__file__).resolve().parent.parent
WORDS_PER_MINUTE = 120
CHINESE_CHARACTERS_PER_MINUTE = 300
MINUTES_PER_CODE_CELL = 1
TOLERANCE = 5  # minutes between the stated time and the formula's
LIMIT = 45  # minutes: one sitting

CHINESE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
TABLE_RULE = re.compile(r"^[\s|:-]+$", re.MULTILINE)
STATED = re.compile(r"^\*About (\d+) minutes to read and run\. Prerequisites: (.+)\.\*$")


def source(cell: dict) -> str:
    return "".join(cell["source"])


def estimate(path: Path) -> float:
    """The formula's minutes for the notebook at ``path``."""
    words = chinese = code = 0
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "code":
            code += 1
            continue
        text = TABLE_RULE.sub(" ", LINK_TARGET.sub("]", source(cell)))
        chinese += len(CHINESE.findall(text))
        words += len(CHINESE.sub(" ", text).split())
    return words / WORDS_PER_MINUTE + chinese / CHINESE_CHARACTERS_PER_MINUTE + code * MINUTES_PER_CODE_CELL


def stated(name: str) -> tuple[int, str] | None:
    """(minutes, prerequisites) as the lesson's title cell states them, or None."""
    title = source(json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())["cells"][0]).splitlines()
    found = STATED.match(title[2]) if len(title) > 2 else None
    return (int(found.group(1)), found.group(2)) if found else None


@pytest.mark.parametrize("name", LESSONS)
def test_a_lesson_states_its_time_and_it_fits_one_sitting(name: str) -> None:
    said = stated(name)
    assert said, (f"{name}: the title cell's third line must state the time and the prerequisites, like "
                  f"*About 30 minutes to read and run. Prerequisites: [03 · Gradients](03_gradients.ipynb).*")
    minutes, _ = said
    formula = estimate(ROOT / "notebooks" / f"{name}.ipynb")
    assert formula <= LIMIT, f"{name} takes {formula:.1f} minutes by the formula: more than one sitting ({LIMIT})"
    assert minutes <= LIMIT, f"{name} states {minutes} minutes: more than one sitting ({LIMIT})"
    assert abs(minutes - formula) <= TOLERANCE, \
        f"{name} states {minutes} minutes, the formula gives {formula:.1f}: state {5 * round(formula / 5)}"


@pytest.mark.parametrize("name", LESSONS[1:])
def test_prerequisites_are_earlier_lessons(name: str) -> None:
    said = stated(name)
    if said is None:
        pytest.skip("no stated time (the test above fails)")
    links = re.findall(r"\]\(([\w.]+)\.ipynb\)", said[1])
    assert links, f"{name} names no prerequisite lesson"
    for link in links:
        assert link in LESSONS[:LESSONS.index(name)], f"{name}'s prerequisite {link} is not an earlier lesson"


def table_minutes(text: str, prefix: str) -> dict[str, int]:
    """{lesson: minutes} from a markdown table whose rows link ``{prefix}NN_topic.ipynb`` and show ``NN min``."""
    found = {}
    for line in text.splitlines():
        lesson = re.search(rf"\]\({re.escape(prefix)}(\w+)\.ipynb\)", line)
        minutes = re.search(r"\|\s*(\d+) min\s*\|", line)
        if line.startswith("|") and lesson and minutes:
            found[lesson.group(1)] = int(minutes.group(1))
    return found


@pytest.mark.parametrize("where", ["README.md", "notebooks/00_welcome.ipynb"])
def test_the_course_tables_show_each_lesson_with_its_stated_time(where: str) -> None:
    path = ROOT / where
    if path.suffix == ".ipynb":
        text, prefix = "\n".join(source(c) for c in json.loads(path.read_text())["cells"]), ""
    else:
        text, prefix = path.read_text(), "notebooks/"
    shown = table_minutes(text, prefix)
    for name in LESSONS:
        said = stated(name)
        assert name in shown, f"{where}'s course table has no row with {name}'s time"
        assert said is None or shown[name] == said[0], \
            f"{where} says {name} takes {shown[name]} minutes, the lesson says {said[0]}"


if __name__ == "__main__":  # print the estimates, for a lesson's author
    sys.stdout.write("lesson                                        formula  stated\n")
    for lesson in LESSONS:
        said = stated(lesson)
        sys.stdout.write(f"{lesson:45} {estimate(ROOT / 'notebooks' / f'{lesson}.ipynb'):7.1f}  "
                         f"{said[0] if said else '-':>6}\n")
