"""The course's material for the notes' Chinese readers: the glossary, the Chinese summaries, the errata index.

* Lesson 00 has a Chinese-English glossary (中英术语表) with every Chinese term the lessons use, and every term
  of the notes.
* Every lesson ends with a summary in Chinese (中文小结): what it taught, and what to run next.
* ``notebooks/errata_zh.ipynb`` (勘误表) quotes each mistaken claim of each note, word for word with the note's file
  name, and links the cell that corrects it: a code cell whose stored output shows the correction (nbval proves that
  the stored output is what the code prints), right under a heading that names it. The link is
  ``05b_inside_a_node.ipynb#cell-id=class-mro``: JupyterLab opens the lesson and scrolls that cell into view, also
  when the lesson was not open yet (a link to the heading, ``#Nodes-are-not-Functions``, scrolls only in a lesson
  already open); ``tests/browser`` clicks one. The heading keeps its id (spaces become hyphens) for viewers that
  only know heading anchors.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import NamedTuple

import pytest
from test_notebooks import LESSONS, SEED_TRUTHS

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT / "notebooks" / "errata_zh.ipynb"
CHINESE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
LINK = re.compile(r"\]\(([\w.]+\.ipynb)#cell-id=([\w-]+)\)")

NOTES = {"000": "000_7c12740e9ec19160.txt", "001": "001_91726423a063c626.txt", "002": "002_6e5b2d40b11eb475.txt",
         "003": "003_14dc5959f772348a.txt", "004": "004_5e924fb05deb3090.txt"}


class Erratum(NamedTuple):
    """A claim of a note, the cell that corrects it and the heading right above that cell, what the cell's output
    shows, and which of DESIGN.md's errata it is (``SEED_TRUTHS`` in test_notebooks.py), if any."""

    note: str
    quote: str
    notebook: str
    cell: str
    heading: str
    shows: list[str]
    seed_truth: str | None = None


ERRATA = [
    Erratum("000", "z.backward()  # 由于z处于no_grad上下文中，不会计算任何梯度",
            "08_turning_gradients_off", "no-grad-raises", "Backward on a result of no_grad raises",
            [r"RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"],
            "no-grad-backward"),
    Erratum("000", "z.backward()  # 由于梯度计算被禁用，不会计算任何梯度",
            "08_turning_gradients_off", "set-grad-call", "With recording switched off, backward raises",
            [r"RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"],
            "no-grad-backward"),
    Erratum("000", "z.backward()  # 计算x的梯度",
            "06_backward", "nonscalar-error", "A non-scalar output needs a gradient",
            [r"RuntimeError: grad can be implicitly created only for scalar outputs"],
            "non-scalar-backward"),
    Erratum("000", "默认情况下，gradient参数为None，表示使用张量的值自动计算梯度",
            "06_backward", "scalar-one", "For a scalar, no gradient means 1",
            [r"backward\(\):\s+x\.grad = tensor\(\[2\., 4\., 6\.\]\)",
             r"backward\(torch\.tensor\(1\.0\)\):\s+x\.grad = tensor\(\[2\., 4\., 6\.\]\)"]),
    Erratum("000", "默认情况下，retain_graph参数为False，表示在调用backward()方法后会释放计算图",
            "07_higher_order", "retain-default", "retain_graph follows create_graph",
            [r"again: tensor\(12\.\)"]),
    Erratum("000", "torch.set_grad_enabled()是一个函数，用于临时禁用或启用梯度计算",
            "08_turning_gradients_off", "mistake-5", "The plain call stays in force",
            [r"False\nTrue"]),
    Erratum("000", "如果某一个节点requires_grad被设置为True，那么所有有它产生的张量requires_grad都是True",
            "08_turning_gradients_off", "no-grad-notes", "Under no_grad results do not require grad",
            [r"True\nTrue\nFalse\nTrue"]),
    Erratum("000", "grad_fn: 是一个指向创建该张量的函数的引用",
            "05b_inside_a_node", "class-mro", "Nodes are not Functions",
            [r"type\(y\.grad_fn\):\s+MulBackward0",
             r"isinstance\(y\.grad_fn, torch\.autograd\.graph\.Node\):\s+True"]),
    Erratum("001", "这些是 `torch.autograd.Function` 的子类，用于表示每个操作的反向传播逻辑。",
            "05b_inside_a_node", "class-mro", "Nodes are not Functions",
            [r"torch\.autograd\.Function in its __mro__:\s+False",
             r"isinstance\(y\.grad_fn, torch\.autograd\.Function\):\s+False"],
            "node-not-function"),
    Erratum("001", "如果有多个乘法操作，后缀数字会递增（`MulBackward0`, `MulBackward1`, `MulBackward2` 等）",
            "05b_inside_a_node", "suffix-instances", "Two multiplications, one class name",
            [r"MulBackward0 MulBackward0",
             r"the same node object\? False"],
            "backward-suffix"),
    Erratum("001", "这里的 `0` 表示该操作的索引，用于区分同一类型的多个操作实例",
            "05b_inside_a_node", "index-multi", "Several outputs, several indices",
            [r"x1\.output_nr: 1",
             r"object at 0x[0-9a-fA-F]+>, 2\)"],
            "output-index"),
    Erratum("001", "如果一个张量的 `requires_grad=False`，则它不会在计算图中记录，也不会为它计算梯度",
            "05b_inside_a_node", "saved-without-node", "A value saved without a node",
            [r"\(None, 0\)",
             r"_saved_other:\s+tensor\(\[4\., 5\., 6\.\]\)"],
            "saved-without-node"),
    Erratum("001", "这些张量的属性 `requires_grad=True`，表示它们需要进行梯度计算",
            "05_leaf_tensors", "kinds", "Leaves that need no gradient",
            [r"target\s+is_leaf=True\s+requires_grad=False"]),
    Erratum("001", "# 再次反向传播，仍然保留计算图",
            "06_backward", "retain-fix-code", "Only retain_graph keeps the graph",
            [r"RuntimeError: Trying to backward through the graph a second time"]),
    Erratum("001", "`grad_fn` 对象通常具有 `next_functions` 属性，这个属性包含了生成当前张量的所有输入张量",
            "05_leaf_tensors", "walk-hand", "Pairs of a node and an index",
            [r"\(\(<AddBackward0 object at 0x[0-9a-fA-F]+>, 0\), \(None, 0\)\)"]),
    Erratum("002", "每个 Tensor 的 `.grad_fn` 属性，代表它引用了哪个具体的 Function 创建了该 Tensor",
            "05b_inside_a_node", "class-mro", "Nodes are not Functions",
            [r"isinstance\(y\.grad_fn, torch\.autograd\.Function\):\s+False"]),
    Erratum("002", "只需要执行 `.detach()` 操作就可以将该 Tensor 从计算图中撤下",
            "08_turning_gradients_off", "detach-new", "detach returns a new tensor",
            [r"h after h\.detach\(\):\s+grad_fn MulBackward0\s+requires_grad True"]),
    Erratum("003", "每次运行.backward()后，autogard模块才会填充一个新的图",
            "04_tensors_and_graphs", "forward-record", "3. The graph is recorded during the forward pass",
            [r"after y = x \+ 2:\s+tensor\(\[3\., 4\., 5\.\], grad_fn=<AddBackward0>\)",
             r"x\.grad \(no backward has run yet\): None"],
            "recorded-in-forward"),
    Erratum("003", "retains_grad_ ： 只有非叶子节点才有意义，意义为是否需要保持图",
            "11_under_the_hood", "retains", "retains_grad keeps the gradient, not the graph",
            [r"h\.retains_grad: True\s+h\.grad: tensor\(\[1\., 1\.\]\)",
             r"RuntimeError: Trying to backward through the graph a second time"],
            "retains-grad"),
    Erratum("003", "grad_fn 属性还包含 _saved_self 和 _saved_other 两个属性",
            "05b_inside_a_node", "saved-each", "Each node saves what its formula needs",
            [r"AddBackward0\s+saves \[\]",
             r"ExpBackward0\s+saves \['_saved_result'\]"]),
    Erratum("004", "shape一般需要和前面的tensor保持一致",
            "06_backward", "shape-error", "The gradient must have the shape of the output",
            [r"RuntimeError: Mismatch in shape"]),
    Erratum("004", "only_inputs：只计算input的梯度",
            "07_higher_order", "only-inputs-code", "only_inputs is ignored",
            [r"only_inputs argument is deprecated and is ignored now"],
            "autograd-grad-args"),
    Erratum("004", "allow_unused(bool，可选)：如果为False，当计算输出出错时（因此他们的梯度永远是0）指明不使用的inputs",
            "07_higher_order", "unused-code", "allow_unused and only_inputs",
            [r"appears to not have been used in the graph\. Set allow_unused=True",
             r"allow_unused=True:\s+\(tensor\(4\.\), None\)"],
            "autograd-grad-args"),
    Erratum("004", "梯度下降，就是沿着方向变化最快的方向去寻找最优解",
            "03_gradients", "steepest-check", "2. Why the gradient is the direction of steepest ascent",
            [r"smallest slope: -9\.2192 at 257 degrees"]),
]

# Chinese phrases the lessons quote from the notes rather than use as terms.
QUOTED = {"是否需要保持图", "机器学习就是找到最小的", "变化最快的方向"}

# The notes' own terms: the glossary must have each.
NOTE_TERMS = ["自动求导", "计算图", "节点", "边", "动态", "静态计算图", "叶子节点", "中间节点", "根节点", "张量",
              "梯度", "导数", "偏导数", "方向导数", "链式法则", "反向传播", "前向传播", "梯度下降", "损失", "权重",
              "偏差", "可学习参数", "梯度清零", "梯度累积", "保留计算图", "创建计算图", "上下文管理器", "上下文对象",
              "高阶求导", "二阶导数", "推理", "冻结", "有向无环图", "变化率", "切线的斜率", "瞬时速度", "可导",
              "有监督学习", "无监督学习", "半监督学习", "样本", "标签", "自定义函数", "钩子", "版本计数器", "视图"]


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def source(cell: dict) -> str:
    return "".join(cell["source"])


def output_text(cell: dict) -> str:
    parts = []
    for out in cell.get("outputs", []):
        parts.append("".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", "")))
        if out["output_type"] == "error":
            parts.append(f"{out['ename']}: {out['evalue']}")
    return "\n".join(parts)


def heading_id(line: str) -> str:
    """The id JupyterLab gives a markdown heading: its text as shown (no markup), spaces made hyphens."""
    text = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", line.lstrip("#").strip())
    return re.sub(r"[`*]", "", text).replace(" ", "-")


def anchor(heading: str) -> str:
    return heading.replace(" ", "-")


def index_cells() -> list[str]:
    return [source(c) for c in load(INDEX)["cells"] if c["cell_type"] == "markdown"]


def correcting_cell(notebook: str, cell_id: str) -> tuple[dict, dict]:
    """The cell with ``cell_id`` in the notebook, and the cell before it."""
    cells = load(ROOT / "notebooks" / notebook)["cells"]
    found = [i for i, c in enumerate(cells) if c.get("id") == cell_id]
    assert found, f"{notebook} has no cell with the id {cell_id!r}"
    assert found[0] > 0, f"{notebook}'s cell {cell_id!r} is the first: no heading above it"
    return cells[found[0]], cells[found[0] - 1]


def headings(cell: dict) -> list[str]:
    """The ids JupyterLab gives the headings of a markdown cell."""
    if cell["cell_type"] != "markdown":
        return []
    return [heading_id(line) for line in source(cell).splitlines() if line.startswith("#")]


@pytest.mark.parametrize("erratum", ERRATA, ids=lambda e: f"{e.note}: {e.quote[:24]}")
def test_each_erratum_is_quoted_with_its_note_and_linked_to_its_correction(erratum: Erratum) -> None:
    link = f"]({erratum.notebook}.ipynb#cell-id={erratum.cell})"
    cells = [text for text in index_cells() if f"“{erratum.quote}”" in text]
    assert cells, f"errata_zh does not quote {erratum.quote!r} word for word"
    assert f"`{NOTES[erratum.note]}`" in cells[0], f"the quote {erratum.quote!r} is not attributed to its note"
    assert link in cells[0], f"the entry for {erratum.quote!r} does not link {link[2:-1]}"
    assert f"› {erratum.heading}]" in cells[0], f"the link for {erratum.quote!r} does not name its heading"
    assert CHINESE.search(cells[0].split("**实际上**")[-1]), "the entry does not say in Chinese what is true"


@pytest.mark.parametrize("erratum", ERRATA, ids=lambda e: f"{e.notebook}#{e.cell}")
def test_each_correction_is_a_code_cell_right_under_its_heading_whose_output_shows_it(erratum: Erratum) -> None:
    cell, above = correcting_cell(f"{erratum.notebook}.ipynb", erratum.cell)
    assert cell["cell_type"] == "code", f"{erratum.notebook}'s cell {erratum.cell!r} is not a code cell"
    assert anchor(erratum.heading) in headings(above), \
        f"the cell right above {erratum.notebook}'s cell {erratum.cell!r} has no heading {erratum.heading!r}"
    shown = output_text(cell)
    for pattern in erratum.shows:
        assert re.search(pattern, shown), \
            f"{erratum.notebook}'s cell under {erratum.heading!r} does not show {pattern!r}"


def test_every_link_of_the_index_opens_a_code_cell_right_under_a_heading() -> None:
    links = [found for text in index_cells() for found in LINK.findall(text)]
    assert len(links) >= len(ERRATA)
    for notebook, cell_id in links:
        assert (ROOT / "notebooks" / notebook).exists(), f"errata_zh links {notebook}, which does not exist"
        cell, above = correcting_cell(notebook, cell_id)
        assert cell["cell_type"] == "code" and cell["outputs"], \
            f"{notebook}#cell-id={cell_id} is not a code cell with its output stored"
        assert headings(above), f"no heading right above {notebook}'s cell {cell_id!r}"


def test_every_erratum_of_the_design_notes_is_in_the_index() -> None:
    indexed = {e.seed_truth for e in ERRATA}
    assert set(SEED_TRUTHS) <= indexed, f"not in the errata index: {sorted(set(SEED_TRUTHS) - indexed)}"


def test_the_quotes_are_the_notes_own_words() -> None:
    candidates = [Path(os.environ.get("TINYGRAD_EDU_SEEDS", "/nonexistent")), ROOT.parent / "shared" / "seeds",
                  ROOT.parent.parent / "shared" / "seeds"]
    seeds = next((p for p in candidates if (p / NOTES["000"]).exists()), None)
    if seeds is None:
        pytest.skip("the notes are not here (set TINYGRAD_EDU_SEEDS to their folder)")
    for erratum in ERRATA:
        assert erratum.quote in (seeds / NOTES[erratum.note]).read_text(), f"not in {erratum.note}: {erratum.quote!r}"


@pytest.mark.parametrize("name", LESSONS)
def test_each_lesson_ends_with_a_summary_in_chinese_that_says_what_to_run_next(name: str) -> None:
    last = load(ROOT / "notebooks" / f"{name}.ipynb")["cells"][-1]
    text = source(last)
    assert last["cell_type"] == "markdown" and text.startswith("## 中文小结\n"), f"{name} does not end with a 中文小结"
    assert sum(len(run) for run in CHINESE.findall(text)) >= 150, \
        f"{name}'s 中文小结 is too short to say what it taught"
    assert f"](../exercises/{name}.ipynb)" in text, f"{name}'s 中文小结 does not point to its exercises"
    if name != LESSONS[-1]:
        assert re.search(r"\]\(\w+\.ipynb\)", text), f"{name}'s 中文小结 does not say which lesson comes next"
    # A line break inside a paragraph shows as a space, and Chinese puts none between its characters.
    assert not re.search(r"[\u4e00-\u9fff，。、：；）]\n[\u4e00-\u9fff（]", text), f"{name}'s 中文小结 breaks a line"


def glossary() -> str:
    cells = load(ROOT / "notebooks" / "00_welcome.ipynb")["cells"]
    found = [source(c) for c in cells if source(c).startswith("## 中英术语表")]
    assert found, "lesson 00 has no '## 中英术语表' section"
    return found[0]


def test_the_glossary_has_every_chinese_term_the_lessons_use() -> None:
    chinese_column = " ".join(line.split("|")[1] for line in glossary().splitlines() if line.startswith("| "))
    for name in LESSONS:
        for cell in load(ROOT / "notebooks" / f"{name}.ipynb")["cells"]:
            text = source(cell)
            if cell["cell_type"] != "markdown" or text.startswith(("## 中文小结", "## 中英术语表")):
                continue
            for term in set(CHINESE.findall(text)) - QUOTED:
                assert term in chinese_column, f"{name} uses {term!r}, which the glossary of lesson 00 does not list"


def test_the_glossary_has_the_notes_terms_and_links_the_errata() -> None:
    text = glossary()
    for term in NOTE_TERMS:
        assert term in text, f"the glossary does not list the notes' term {term!r}"
    assert "](errata_zh.ipynb)" in text
    assert "](notebooks/errata_zh.ipynb)" in (ROOT / "README.md").read_text()
