"""tinygrad_edu.grading: the checks and their hints, the notebook format, release, and the grader.

The proofs the exercise notebooks rest on are generic over every notebook in solutions/, so a new
notebook is covered as soon as it is added: exercises/ is exactly what release makes; hidden tests are
in the grader's copy and not in the learners'; graded, every solution gets full marks and every unsolved
exercise gets zero, each of its checks saying "not attempted yet". The hostile submissions are built
from the pilot notebook (05_leaf_tensors) and graded in the same single grader run, to start few kernels.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import importlib
import io
import itertools
import json
import linecache
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tinygrad_edu as torch
from tinygrad_edu.grading import (
    CheckFailed,
    ExerciseFailed,
    check_close,
    check_equal,
    check_grad,
    check_raises,
    check_tensor,
    cli,
    exercise,
    notebook,
)
from tinygrad_edu.grading.release import release, released_text, solution_paths

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
PILOT = "05_leaf_tensors"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def failure(check, *args, **kwargs) -> CheckFailed:
    with pytest.raises(CheckFailed) as info:
        check(*args, **kwargs)
    return info.value


@pytest.fixture
def no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture
def color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


# -- check_close ------------------------------------------------------------------------------------------
def test_check_close_passes_on_close_values_of_any_kind() -> None:
    check_close("x.grad", torch.tensor([2.0, 4.0]), [2.0, 4.0 + 1e-7])
    check_close("y", 3, 3.0)
    check_close("g", np.array([[1.0]]), torch.ones(1, 1))


def test_check_close_none_gradient_explains_leaves_and_retain_grad() -> None:
    error = failure(check_close, "h.grad", None, [1.0])
    assert (error.check, error.got) == ("h.grad", "None")
    assert "only for leaf tensors" in error.hint and ".retain_grad()" in error.hint
    assert "forget to `return`" in failure(check_close, "result", None, 1.0).hint


def test_check_close_names_accumulation_for_multiples() -> None:
    error = failure(check_close, "x.grad", torch.tensor([4.0, 8.0]), [2.0, 4.0])
    assert error.expected == "[2.0, 4.0]" and error.got == "tensor([4., 8.])"
    assert "twice" in error.hint and "without zeroing" in error.hint
    assert "exactly 3 times" in failure(check_close, "g.grad", [3.0, 6.0], [1.0, 2.0]).hint
    assert "sign is flipped" in failure(check_close, "g", [-1.0, -2.0], [1.0, 2.0]).hint
    assert ".clone()" in failure(check_close, "grad_after", [0.0, 0.0], [1.0, 2.0]).hint
    assert "transpose" in failure(check_close, "g", [[1.0, 3.0], [2.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]).hint
    assert "nan" in failure(check_close, "g", [float("nan")], [1.0]).hint


def test_accumulation_is_blamed_only_where_a_grad_was_involved() -> None:
    for name in ("x.grad", "grad_after_two", "h_grad", "w.grad after 3 chunks"):
        assert "without zeroing" in failure(check_close, name, [2.0, 4.0], [1.0, 2.0]).hint
        assert "zeroed after backward()" in failure(check_close, name, [0.0, 0.0], [1.0, 2.0]).hint
    for name in ("central_difference(sin, 1, 1e-3)", "jacobian_by_hand(x)", "gradient of p"):
        assert failure(check_close, name, [2.0, 4.0], [1.0, 2.0]).hint == "exactly twice the expected value."
        assert failure(check_close, name, [0.0, 0.0], [1.0, 2.0]).hint == "all zeros, but the expected values are not."
    assert "without zeroing" in failure(check_close, "slope", 10.0, 5.0, accumulated=True).hint
    assert "zeroing" not in failure(check_close, "x.grad", 10.0, 5.0, accumulated=False).hint
    assert "twice" in failure(check_grad, lambda x: SquareTwiceTooBig.apply(x).sum(), torch.ones(2)).hint
    assert "zeroing" not in failure(check_grad, lambda x: SquareTwiceTooBig.apply(x).sum(), torch.ones(2)).hint


def test_a_known_mistake_is_named_first_and_alone() -> None:
    halves = [(lambda got: got < 0, "negative: descent subtracts."), (2.0, "divide by 2h, not by h.")]
    error = failure(check_close, "estimate", 2.0, 1.0, hint="the author's general words", mistakes=halves)
    assert error.hint == "divide by 2h, not by h."
    assert failure(check_close, "estimate", -3.0, 1.0, mistakes=halves).hint == "negative: descent subtracts."
    assert failure(check_close, "estimate", 7.0, 1.0, hint="the author's words", mistakes=halves).hint == \
        "the author's words"
    check_close("estimate", 1.0, 1.0, mistakes=[(lambda got: True, "never said for a right answer")])
    node = failure(check_equal, "node_name(p * 2)", "<MulBackward0 object>", "MulBackward0",
                   mistakes=[(lambda got: "object" in got, "use .name(): str() of a node shows its address.")])
    assert node.hint == "use .name(): str() of a node shows its address."
    assert failure(check_grad, lambda x: SquareTwiceTooBig.apply(x).sum(), torch.ones(2),
                   mistakes=[(lambda g: True, "four times x: the 2 of x² taken twice")]).hint == \
        "four times x: the 2 of x² taken twice"


def test_what_the_answer_is_comes_before_the_authors_hint_about_values() -> None:
    missing = failure(check_close, "grad_b", None, 7.0, hint="∂g/∂b = a + 2b")
    assert "requires_grad=True" in missing.hint and "a + 2b" not in missing.hint
    shape = failure(check_close, "result[1]", torch.zeros(()), [[0.0] * 3] * 2, hint="zeros of its shape")
    assert "zeros_like" in shape.hint and "summed back" not in shape.hint and "broadcast together" not in shape.hint
    assert "zeros of its shape" not in shape.hint
    assert "cut the graph" in failure(check_grad, lambda x: (x.detach() * 2).sum(), torch.ones(2), hint="no").hint


def test_a_check_that_asks_for_a_float_says_so_when_it_gets_a_tensor() -> None:
    tensor_answer = failure(check_close, "derivative(f, 3.0)", torch.tensor(6.0), 6.0, python_float=True)
    assert (tensor_answer.check, tensor_answer.expected) == ("type of derivative(f, 3.0)", "a Python float")
    assert "is a tensor, where a Python float is asked for" in tensor_answer.hint and ".item()" in tensor_answer.hint
    check_close("derivative(f, 3.0)", 6.0, 6.0, python_float=True)
    check_close("derivative(f, 3.0)", np.float64(6.0), 6.0, python_float=True)  # numpy's float64 is a float
    pair = failure(check_close, "partials(f, 2, -1)", (torch.tensor(-13.0), 4.0), (-13.0, 4.0), python_float=True)
    assert pair.expected == "a tuple of Python floats" and "partials(f, 2, -1)[0] is a tensor" in pair.hint
    assert ".tolist()" in failure(check_close, "slopes", torch.tensor([1.0, 2.0]), [1.0, 2.0], python_float=True).hint
    assert "n is an int, where a Python float is asked for" in failure(check_close, "n", 3, 3.0, python_float=True).hint


def test_check_equal_says_what_kind_of_value_it_got() -> None:
    node = torch.tensor([1.0], requires_grad=True) * 2
    assert "expected a string, got" in failure(check_equal, "node_name(p * 2)", node.grad_fn, "MulBackward0").hint
    assert "write just 'MulBackward0'" in failure(check_equal, "n", "<MulBackward0 at 0x1>", "MulBackward0").hint


def test_check_close_without_a_known_mistake_points_at_the_largest_difference() -> None:
    error = failure(check_close, "g", [1.0, 2.0, 9.0], [1.0, 2.0, 3.0])
    assert error.hint is None
    assert error.diff == "largest difference at index 2: expected 3, got 9"
    assert "author's words" in failure(check_close, "g", [5.0], [1.0], hint="author's words").hint


def test_check_close_shapes_must_match_exactly_and_the_hint_says_why() -> None:
    broadcast = failure(check_close, "b.grad", torch.ones(3, 1), [1.0, 1.0, 1.0])
    assert broadcast.check == "b.grad.shape" and broadcast.expected == "(3,)"
    assert broadcast.got.startswith("(3, 1): ")
    scalar = failure(check_close, "loss", [2.0], 2.0)
    assert "0-d tensor has shape ()" in scalar.hint
    spread = failure(check_close, "w.grad", torch.ones(2, 3), torch.ones(3, 2))
    assert "another arrangement" in spread.hint
    stretched = failure(check_close, "b.grad", torch.ones(4, 3), torch.ones(3))
    assert "broadcast together" in stretched.hint and "summed back" in stretched.hint


def test_check_close_refuses_non_numbers_with_a_clear_message() -> None:
    error = failure(check_close, "answer", "2.0", 2.0)
    assert error.got == "'2.0' (a str)"
    with pytest.raises(TypeError, match="expected value for x must be numbers"):
        check_close("x", 1.0, "one")


# -- check_equal ------------------------------------------------------------------------------------------
def test_check_equal_compares_types_strictly_and_finds_the_first_difference() -> None:
    check_equal("p", {"a": (True, False, "MulBackward0")}, {"a": (True, False, "MulBackward0")})
    check_equal("p", [True, None], (True, None))  # a list answers a tuple
    error = failure(check_equal, "p", {"a": (True, "True", None)}, {"a": (True, True, None)})
    assert error.diff == "at p['a'][1]: expected True, got 'True'"
    assert error.hint == "you wrote the string 'True': write True without quotes."
    assert failure(check_equal, "flag", 1, True).hint == "expected a bool (True or False), got 1 (a int)."
    assert failure(check_equal, "name", "<MulBackward0>", "MulBackward0").hint == "write just the name: 'MulBackward0'."
    assert failure(check_equal, "keys", {"a": 1}, {"a": 1, "b": 2}).diff == "missing keys: 'b'"
    assert failure(check_equal, "d", {"x": {"c": 1}}, {"x": {}}).diff == "at d['x']: keys not expected: 'c'"


def test_check_equal_on_tensors_compares_shapes_and_values() -> None:
    check_equal("t", torch.tensor([1.0, 2.0]), np.array([1.0, 2.0]))
    assert failure(check_equal, "t", torch.tensor([1.0, 2.0]), [[1.0, 2.0]]).got == "tensor([1., 2.])"


# -- check_tensor -----------------------------------------------------------------------------------------
def test_check_tensor_passes_on_the_facts_given() -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    check_tensor("a", a, shape=(2,), dtype=torch.float32, requires_grad=True, is_leaf=True, grad_fn=None)
    check_tensor("c", a * 2, requires_grad=True, is_leaf=False, grad_fn="MulBackward0")


def test_check_tensor_on_a_scaled_random_weight_explains_why_it_is_not_a_leaf() -> None:
    w = torch.randn(3, 2, requires_grad=True) * 0.01
    error = failure(check_tensor, "w", w, requires_grad=True, is_leaf=True)
    assert (error.check, error.expected, error.got) == ("w.is_leaf", "True", "False")
    assert "grad_fn=<MulBackward0>" in error.hint and ".requires_grad_()" in error.hint
    assert failure(check_tensor, "w", w, grad_fn=None).got == "<MulBackward0>"


def test_check_tensor_hints_for_requires_grad_grad_fn_shape_and_dtype() -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    plain = torch.tensor([1.0, 2.0])
    assert "requires_grad=True" in failure(check_tensor, "x", plain, requires_grad=True).hint
    assert ".detach()" in failure(check_tensor, "y", a * 2, requires_grad=False).hint
    assert "no grad_fn, so it is a leaf" in failure(check_tensor, "y", plain, is_leaf=False).hint
    wrong_op = failure(check_tensor, "y", a + 1, grad_fn="MulBackward0")
    assert (wrong_op.expected, wrong_op.got) == ("<MulBackward0>", "<AddBackward0>")
    assert "expected <MulBackward0>, got <AddBackward0>" in wrong_op.hint
    assert failure(check_tensor, "y", plain, grad_fn="MulBackward0").got == "None"
    assert failure(check_tensor, "y", plain, shape=(2, 1)).check == "y.shape"
    assert "write 1.0 instead of 1" in failure(check_tensor, "n", torch.tensor([1, 2]), dtype=torch.float32).hint
    not_tensor = failure(check_tensor, "w", None)
    assert not_tensor.check == "w is a tensor" and "forget to `return`" in not_tensor.got
    assert "(a list)" in failure(check_tensor, "w", [1.0]).got


# -- check_grad -------------------------------------------------------------------------------------------
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


class SquareTwiceTooBig(Square):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 4 * x * grad


def test_check_grad_compares_autograd_with_central_differences() -> None:
    x = torch.tensor([1.0, -2.0, 0.5])
    check_grad(lambda x: Square.apply(x).sum(), x)
    error = failure(check_grad, lambda x: SquareTwiceTooBig.apply(x).sum(), x, name="sum_sq")
    assert error.check == "d sum_sq / d x (autograd)" and "(central differences)" in error.expected
    assert "twice" in error.hint
    assert x.grad is None and not x.requires_grad  # the learner's tensor is not touched


def test_check_grad_checks_a_hand_derived_gradient() -> None:
    def f(x, y):
        return (x * y).sum()

    x, y = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
    check_grad(f, (x, y), grad=(y, x))
    check_grad(f, (x, y), grad=lambda x, y: (y, x))
    error = failure(check_grad, f, (x, y), grad=(y, -x))
    assert error.check == "d f / d y (your gradient)" and "sign" in error.hint
    assert "shape" in failure(check_grad, f, (x, y), grad=(y, x.reshape(2, 1))).got


def test_check_grad_reports_broken_graphs_and_non_scalar_results() -> None:
    x = torch.tensor([1.0, 2.0])
    assert "cut the graph" in failure(check_grad, lambda x: (x.detach() * 2).sum(), x).hint
    assert failure(check_grad, lambda x: x * 2, x).expected == "a tensor with one element"
    unused = failure(check_grad, lambda x, y: x.sum(), (x, x))
    assert unused.got == "None" and "no gradient reaches y" in unused.hint


# -- check_raises -----------------------------------------------------------------------------------------
def test_check_raises_passes_on_the_right_error_and_message() -> None:
    def twice():
        y = (torch.tensor(2.0, requires_grad=True) * 3) ** 2
        y.backward()
        y.backward()

    check_raises(RuntimeError, twice, match="backward through the graph a second time")


def test_check_raises_says_what_happened_instead() -> None:
    assert failure(check_raises, RuntimeError, lambda: 5).got == "no error: it returned 5"
    wrong = failure(check_raises, RuntimeError, lambda: 1 / 0, name="divide()")
    assert wrong.check == "divide() raises" and wrong.got == "ZeroDivisionError: division by zero"
    message = failure(check_raises, ValueError, lambda: int("x"), match="^something else$")
    assert message.expected == "ValueError with a message matching '^something else$'"
    assert "another message" in message.hint


def test_check_raises_lets_an_unfinished_answer_through() -> None:
    def unfinished():
        raise NotImplementedError()

    with pytest.raises(NotImplementedError):
        check_raises(RuntimeError, unfinished)


# -- exercise ---------------------------------------------------------------------------------------------
def test_a_passing_exercise_prints_a_tick_with_its_points(capsys: pytest.CaptureFixture, no_color: None) -> None:
    with exercise("leaf-1", points=2):
        check_equal("x", 1, 1)
    with exercise("half", points=1.5):
        pass
    assert capsys.readouterr().out == "✔ leaf-1 passed (2/2 points)\n✔ half passed (1.5/1.5 points)\n"


def test_colour_is_on_unless_no_color_is_set(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    with exercise("e"):
        pass
    coloured = capsys.readouterr().out
    assert coloured == "\x1b[32m✔ e passed\x1b[0m (1/1 points)\n"
    monkeypatch.setenv("NO_COLOR", "")  # empty means unset, by the convention
    with exercise("e"):
        pass
    assert capsys.readouterr().out == coloured
    monkeypatch.setenv("NO_COLOR", "1")
    with exercise("e"):
        pass
    assert capsys.readouterr().out == "✔ e passed (1/1 points)\n"


def test_a_failed_check_becomes_a_short_report_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ExerciseFailed) as info, exercise("leaf-2", points=2):
        check_tensor("w", torch.randn(3, 2, requires_grad=True) * 0.01, is_leaf=True)
    error = info.value
    assert type(error) is ExerciseFailed and error.__suppress_context__
    plain = str(error).splitlines()
    assert plain[:4] == ["✘ leaf-2 failed (0/2 points)", "  check:    w.is_leaf", "  expected: True",
                         "  got:      False"]
    assert plain[4].startswith("  hint:     w has grad_fn=<MulBackward0>")
    monkeypatch.delenv("NO_COLOR", raising=False)
    rendered = error._render_traceback_()  # what IPython shows instead of a traceback
    assert rendered[0] == "\x1b[31m✘ leaf-2 failed\x1b[0m (0/2 points)"
    assert [ANSI.sub("", line) for line in rendered] == plain
    monkeypatch.setenv("NO_COLOR", "1")
    assert error._render_traceback_() == plain


def test_an_unanswered_exercise_is_not_attempted_yet_and_says_so_without_raising(
        capsys: pytest.CaptureFixture, no_color: None) -> None:
    with exercise("leaf-3", points=2):  # printed, not raised: "Run all" on an untouched notebook goes on
        check_close("h_grad", h_grad, 1.0)  # noqa: F821  (the answer cell has not defined it)
    first, *rest = capsys.readouterr().out.splitlines()
    assert first == "✘ leaf-3 not attempted yet (0/2 points)" and rest[0].startswith("  todo:     `h_grad` is not")
    assert " ".join(" ".join(rest).split()) == "todo: `h_grad` is not defined. Write your answer in the answer cell " \
        "above (where it says `# YOUR CODE HERE`) and run it, and the cells above it, then run this cell again."

    def leaves(t):
        raise NotImplementedError()

    with exercise("leaf-4", points=3):  # the placeholder of notebooks released before `...`
        leaves(None)
    assert "still raises NotImplementedError" in capsys.readouterr().out


def _placeholder_leaves(t):
    """A learner's function as release leaves it."""
    # YOUR CODE HERE
    ...


def _answered_leaves(t):
    return [t]


def test_a_function_that_still_holds_the_placeholder_is_not_attempted(capsys: pytest.CaptureFixture,
                                                                       no_color: None) -> None:
    names = {"exercise": exercise, "check_equal": check_equal, "torch": torch, "leaves": _placeholder_leaves}
    run_cell('with exercise("leaf-4", points=3):\n    check_equal("leaves(x)", leaves(torch.ones(1)), ["x"])', names)
    report = capsys.readouterr().out
    assert report.startswith("✘ leaf-4 not attempted yet (0/3 points)")
    assert "`leaves` still holds the placeholder `...`" in report
    run_cell("def count(t):\n    return len(leaves(t))", names)  # found through another function of the learner's
    run_cell('with exercise("leaf-5"):\n    check_equal("count(x)", count(torch.ones(1)), 1)', names)
    assert "`leaves` still holds the placeholder" in capsys.readouterr().out
    names["leaves"] = _answered_leaves
    with pytest.raises(ExerciseFailed, match="leaves"):  # an answer is judged
        run_cell('with exercise("leaf-4", points=3):\n    check_equal("leaves(x)", len(leaves(torch.ones(1))), 2)',
                 names)


_CELLS = itertools.count(1)


def run_cell(source: str, namespace: dict) -> None:
    """Run ``source`` the way IPython runs a notebook cell: module-level code in the notebook's namespace, its
    source kept in linecache under the cell's own file name."""
    name = f"<cell {next(_CELLS)}>"
    linecache.cache[name] = (len(source), None, source.splitlines(keepends=True), name)
    exec(compile(source, name, "exec"), namespace)


def test_a_check_cell_leaves_the_notebooks_names_as_it_found_them(capsys: pytest.CaptureFixture) -> None:
    notebook_names = {"exercise": exercise, "check_close": check_close, "x": "the learner's x"}
    run_cell('with exercise("e-1"):\n    x = 2.0\n    y = x * 3\n    check_close("y", y, 6.0)', notebook_names)
    assert notebook_names["x"] == "the learner's x" and "y" not in notebook_names
    with pytest.raises(ExerciseFailed):
        run_cell('with exercise("e-2"):\n    x = 1.0\n    check_close("x", x, 6.0)', notebook_names)
    assert notebook_names["x"] == "the learner's x"
    assert "✔ e-1 passed" in capsys.readouterr().out


def test_an_answer_cell_that_raised_is_reported_with_its_error(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture, no_color: None) -> None:
    module = importlib.import_module("tinygrad_edu.grading.exercise")

    class Shell:  # where the watcher keeps what it learned
        _tinygrad_edu_watch = {"errors": {}, "released": True}

    def run_watched(source: str, namespace: dict) -> None:
        """Run a cell as IPython does, and tell the watcher how it ended."""
        try:
            run_cell(source, namespace)
            error = None
        except Exception as e:
            error = e
        info = type("Info", (), {"raw_cell": source})
        module._after_cell(type("Result", (), {"info": info, "error_in_exec": error, "error_before_exec": None}))

    monkeypatch.setattr(module, "_shell", lambda: Shell)
    names = {"exercise": exercise, "check_close": check_close, "g_squares": "from an earlier run"}
    answer = "y = 1\ng_sum = y + 1\nif graph_freed:\n    raise RuntimeError('Trying to backward through the graph " \
        "a second time')\ng_squares = 1.0"
    names["graph_freed"] = True
    run_watched(answer, names)  # it stopped before g_squares
    assert set(Shell._tinygrad_edu_watch["errors"]) == {"g_squares"}
    check = 'with exercise("backward-4"):\n    check_close("g_squares", g_squares, 1.0)'
    with pytest.raises(ExerciseFailed) as info:  # not judged on the value an earlier run left
        run_cell(check, names)
    report = " ".join(str(info.value).split())
    assert report.startswith("✘ backward-4 failed (0/1 points) error: RuntimeError: Trying to backward through the "
                             "graph a second time (the cell stopped there, before it defined `g_squares`) where: the "
                             "cell that defines `g_squares`, line 4")
    assert "retain_graph=True" in report
    with pytest.raises(ExerciseFailed) as info:  # a check that fails before it uses g_squares is judged as usual
        run_cell('with exercise("backward-4"):\n    check_close("g_sum", g_sum, 3.0)\n'
                 '    check_close("g_squares", g_squares, 1.0)', names)
    assert str(info.value).splitlines()[1] == "  check:    g_sum"
    names["graph_freed"] = False
    run_watched(answer, names)  # run again, without error: forgotten
    assert Shell._tinygrad_edu_watch["errors"] == {}
    run_cell(check, names)
    assert "✔ backward-4 passed" in capsys.readouterr().out
    run_watched("with exercise('x'):\n    z = 1\n    raise RuntimeError('a check cell')", names)
    assert Shell._tinygrad_edu_watch["errors"] == {}  # check cells define nothing
    run_cell('with exercise("e"):\n    check_close("z", z, 1.0)', names)
    todo = " ".join(capsys.readouterr().out.split())  # an untouched answer cell of a released notebook ran
    assert todo == "✘ e not attempted yet (0/1 points) todo: `z` is not defined. Write your answer in the answer " \
        "cell above (where it says `# YOUR CODE HERE`) and run it, and the cells above it, then run this cell again."


def test_other_errors_name_the_exception_and_the_learners_line(no_color: None) -> None:
    def leaves(t):
        return [t.grad_fn.variable]

    with pytest.raises(ExerciseFailed) as info, exercise("leaf-4", points=3):
        leaves(torch.tensor(1.0, requires_grad=True) * 2)
    lines = str(info.value).splitlines()
    assert type(info.value) is ExerciseFailed
    assert lines[1] == "  error:    AttributeError: 'MulBackward0' object has no attribute 'variable'"
    assert lines[2] == "  where:    in leaves(): return [t.grad_fn.variable]"

    def typo(t):
        return undefined_name  # noqa: F821

    # A NameError inside the learner's code is a bug, and so is a NotImplementedError with a message.
    with pytest.raises(ExerciseFailed, match="NameError"), exercise("x"):
        typo(1)
    with pytest.raises(ExerciseFailed, match="not yet implemented"), exercise("x"):
        raise NotImplementedError("not yet implemented")


def test_interrupts_and_exits_pass_through_untouched() -> None:
    with pytest.raises(KeyboardInterrupt), exercise("x"):
        raise KeyboardInterrupt
    with pytest.raises(SystemExit), exercise("x"):
        sys.exit(3)


def test_exercise_refuses_bad_ids_and_points() -> None:
    with pytest.raises(ValueError, match="exercise id"):
        exercise("two words")
    with pytest.raises(ValueError, match="positive number"):
        exercise("a", points=0)
    with pytest.raises(ValueError, match="positive number"):
        exercise("a", points=True)


# -- the notebook format ----------------------------------------------------------------------------------
def make_nb(*cells: tuple[str, str]) -> dict:
    return {"cells": [{"cell_type": kind, "id": f"c{i}", "metadata": {"tags": ["mine"]} if kind == "code" else {},
                       "source": source, **({"outputs": [{"output_type": "stream", "name": "stdout", "text": "x"}],
                                             "execution_count": 3} if kind == "code" else {})}
                      for i, (kind, source) in enumerate(cells)],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "P", "language": "python"},
                         "language_info": {"name": "python", "version": "3.11.9"}},
            "nbformat": 4, "nbformat_minor": 5}


ANSWER = "def f(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"
CHECK = 'with exercise("ex-1", points=2):\n    check_close("f(1)", f(1), 2)\n    ### BEGIN HIDDEN TESTS\n' \
        '    check_close("f(2)", f(2), 4)\n    ### END HIDDEN TESTS'


def test_release_replaces_answers_strips_hidden_tests_and_marks_cells() -> None:
    source = make_nb(("markdown", "Intro"), ("code", ANSWER),
                     ("markdown", "Why?\n\n### BEGIN SOLUTION\nBecause.\n### END SOLUTION"), ("code", CHECK))
    parsed = notebook.parse(source, "t.ipynb")
    assert [c.kind for c in parsed.cells] == ["plain", "answer", "answer", "check"]
    assert [c.grade_id for c in parsed.cells] == [None, "ex-1-answer", "ex-1-answer-2", "ex-1"]
    assert parsed.max_points == 2
    out = parsed.released("solutions/t.ipynb")
    answer, written, check = (notebook.source_text(c["source"]) for c in out["cells"][1:])
    assert answer == "def f(x):\n    # YOUR CODE HERE\n    ..."
    assert written == "Why?\n\nYOUR ANSWER HERE"
    assert check == 'with exercise("ex-1", points=2):\n    check_close("f(1)", f(1), 2)'
    assert out["cells"][3]["metadata"] == {
        "deletable": False, "editable": False, "tags": ["mine", "check"],
        "tinygrad_edu": {"checksum": hashlib.sha256(check.encode()).hexdigest(), "grade_id": "ex-1", "points": 2}}
    assert out["cells"][1]["metadata"] == {"tags": ["mine", "answer"],
                                           "tinygrad_edu": {"grade_id": "ex-1-answer", "solution": True}}
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in out["cells"] if c["cell_type"] == "code")
    assert out["metadata"] == {"kernelspec": source["metadata"]["kernelspec"], "language_info": {"name": "python"},
                               "tinygrad_edu": {"source": "solutions/t.ipynb"}}
    assert [c["id"] for c in out["cells"]] == ["c0", "c1", "c2", "c3"]
    assert parsed.checks[0].source == CHECK  # the grader's copy keeps the hidden tests


@pytest.mark.parametrize(("cells", "message"), [
    ([("code", "### BEGIN SOLUTION\nx = 1"), ("code", CHECK)], "never closed"),
    ([("code", "x = 1\n### END SOLUTION"), ("code", CHECK)], "without a ### BEGIN SOLUTION"),
    ([("code", "### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION"), ("code", CHECK)], "inside a region"),
    ([("code", "### BEGIN SOLUTIONS\nx = 1\n### END SOLUTION"), ("code", CHECK)], "looks like a marker"),
    ([("code", "### BEGIN HIDDEN TESTS\nx = 1\n### END HIDDEN TESTS")], "hidden tests belong in a check cell"),
    ([("code", 'with exercise("a"):\n    ### BEGIN SOLUTION\n    x = 1\n    ### END SOLUTION')],
     "a check cell cannot hold '### BEGIN SOLUTION'"),
    ([("code", ANSWER), ("code", CHECK), ("code", CHECK)], "'ex-1' is already used by cell 2"),
    ([("code", CHECK), ("code", ANSWER)], "must be followed by the check cell"),
    ([("code", 'x = 1\nwith exercise("a"):\n    pass')], "exactly one `with exercise(...):` block"),
    ([("code", 'with exercise(NAME):\n    pass')], "as literals"),
    ([("code", 'with exercise("a", points=0):\n    pass')], "positive number"),
    ([("code", 'with exercise("a b"):\n    pass')], "exercise id must be"),
    ([("code", 'with exercise("a"):\n    ### BEGIN HIDDEN TESTS\n    pass\n    ### END HIDDEN TESTS')],
     "keep at least one visible line"),
    ([("code", "d = {\n### BEGIN SOLUTION\n'a': 1,\n### END SOLUTION\n}"), ("code", CHECK)], "whole statements"),
    ([("code", 'with exercise("a"):\n    check(')], "must be valid Python"),
])
def test_format_errors_say_where_and_what(cells: list, message: str) -> None:
    with pytest.raises(notebook.FormatError, match=re.escape(message)) as info:
        notebook.parse(make_nb(*cells), "t.ipynb")
    assert str(info.value).startswith("t.ipynb, cell ")


def test_markdown_headings_and_comments_are_not_taken_for_markers() -> None:
    parsed = notebook.parse(make_nb(("markdown", "# Begin here\n## End of the lesson"), ("code", "# end of loop")), "t")
    assert [c.kind for c in parsed.cells] == ["plain", "plain"]


def test_release_output_is_byte_stable() -> None:
    for path in solution_paths(SOLUTIONS):
        first, second = released_text(path), released_text(path)
        assert first == second and first.endswith("}\n")
        assert json.loads(first) == json.loads(notebook.dumps(json.loads(first)))
        assert '"execution_count": null' in first and '"outputs": []' in first
        assert not re.search(r'"execution_count": \d', first)


def test_release_check_passes_on_the_repository() -> None:
    assert solution_paths(SOLUTIONS), "solutions/ holds the exercise notebooks"
    assert release(SOLUTIONS, EXERCISES, check=True) == []
    assert cli.main(["release", "--check", "--source", str(SOLUTIONS), "--dest", str(EXERCISES)]) == 0


def test_release_check_finds_stale_missing_and_unexpected_files(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    source, dest = tmp_path / "solutions", tmp_path / "exercises"
    shutil.copytree(SOLUTIONS, source)
    args = ["--source", str(source), "--dest", str(dest)]
    assert cli.main(["release", "--check", *args]) == 1
    assert "missing (run release)" in capsys.readouterr().err
    assert cli.main(["release", *args]) == 0
    assert sorted(p.name for p in dest.iterdir()) == sorted(p.name for p in solution_paths(source))
    assert all((dest / p.name).read_bytes() == (EXERCISES / p.name).read_bytes() for p in solution_paths(source))
    assert cli.main(["release", "--check", *args]) == 0
    capsys.readouterr()
    stale = dest / f"{PILOT}.ipynb"
    stale.write_text(stale.read_text().replace("YOUR CODE HERE", "my answer", 1))
    (dest / "99_orphan.ipynb").write_text("{}")
    assert cli.main(["release", "--check", *args]) == 1
    err = capsys.readouterr().err
    assert f"{stale}: stale" in err and "99_orphan.ipynb: has no source" in err
    stale.unlink()
    assert release(source, dest, check=True) == [f"{stale}: missing (run release)",
                                                 f"{dest / '99_orphan.ipynb'}: has no source in {source}/ "
                                                 "(delete it, or add its solution notebook)"]


def test_release_refuses_a_broken_solution_notebook(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "01_x.ipynb").write_text(json.dumps(make_nb(("code", "### BEGIN SOLUTION\nx = 1"))))
    assert cli.main(["release", "--source", str(tmp_path / "s"), "--dest", str(tmp_path / "e")]) == 2
    assert "s/01_x.ipynb, cell 1, line 1: ### BEGIN SOLUTION is never closed" in capsys.readouterr().err
    assert not (tmp_path / "e").exists()
    assert cli.main(["release", "--source", str(tmp_path / "nowhere")]) == 2


def test_hidden_tests_are_for_the_grader_only() -> None:
    for path in solution_paths(SOLUTIONS):
        parsed = notebook.parse(notebook.read(path), path.name)
        released = json.loads((EXERCISES / path.name).read_text())
        assert parsed.checks, f"{path.name} has no check cells"
        cells = {c["id"]: c for c in released["cells"]}
        for check in parsed.checks:
            learners = notebook.source_text(cells[check.cell_id]["source"])
            meta = cells[check.cell_id]["metadata"]["tinygrad_edu"]
            assert meta == {"checksum": notebook.checksum(learners), "grade_id": check.grade_id,
                            "points": check.points}
            assert "HIDDEN TESTS" not in learners and "SOLUTION" not in learners
            if notebook.HIDDEN[0] in check.source:
                hidden = check.source.split(notebook.HIDDEN[0])[1].split(notebook.HIDDEN[1])[0]
                assert hidden.strip() and hidden not in learners
        for cell in released["cells"]:
            assert "### BEGIN" not in notebook.source_text(cell["source"])


# -- the grader ---------------------------------------------------------------------------------------------
def solved(exercise_nb: dict, solution_nb: dict) -> dict:
    """An exercise notebook filled in the way a learner would: the solution's answers, without the markers."""
    answers = {c["id"]: notebook.source_text(c["source"]) for c in solution_nb["cells"]}
    nb = json.loads(json.dumps(exercise_nb))
    for cell in nb["cells"]:
        if cell["metadata"].get("tinygrad_edu", {}).get("solution"):
            lines = answers[cell["id"]].split("\n")
            cell["source"] = "\n".join(line for line in lines if line.strip() not in notebook.SOLUTION)
    return nb


def edit(nb: dict, cell_id: str, source: str | None = None, before: str | None = None) -> dict:
    """Replace a cell's source (or delete it with source=None), or insert a new code cell before it."""
    nb = json.loads(json.dumps(nb))
    index = next(i for i, c in enumerate(nb["cells"]) if c["id"] == cell_id)
    if before is not None:
        nb["cells"].insert(index, {"cell_type": "code", "id": f"new-{index}", "metadata": {}, "outputs": [],
                                   "execution_count": None, "source": before})
    elif source is None:
        del nb["cells"][index]
    else:
        nb["cells"][index]["source"] = source
    return nb


ALWAYS_PASSES = '''\
import contextlib


@contextlib.contextmanager
def exercise(grade_id, points=1):
    try:
        yield
    except Exception:
        pass
    print(f"✔ {grade_id} passed ({points}/{points} points)")'''

SILENCED = '''\
import tinygrad_edu.grading as g

g.check_close = g.checks.check_close = check_close = lambda *args, **kwargs: None'''


def hostile_submissions(folder: Path) -> dict[str, Path]:
    """The pilot notebook, solved, and broken in every way the grader must survive."""
    exercise_nb = json.loads((EXERCISES / f"{PILOT}.ipynb").read_text())
    good = solved(exercise_nb, json.loads((SOLUTIONS / f"{PILOT}.ipynb").read_text()))
    renamed = json.loads(json.dumps(good))
    del renamed["metadata"]["tinygrad_edu"]  # found by its file name instead
    mixed = edit(good, "leaf-1-answer", "predictions = {}")
    mixed = edit(mixed, "leaf-1-check", 'with exercise("leaf-1", points=2):\n    pass')
    mixed = edit(mixed, "leaf-2-answer", 'import sys\n\nsys.exit("no thanks")')
    mixed = edit(mixed, "leaf-3-check")
    mixed = edit(mixed, "leaf-4-answer", "def leaves(t):\n    return [t.grad_fn.variable]")
    mixed = edit(mixed, "leaf-5-answer", "grad_after_two = (")
    loop = edit(good, "leaf-2-answer", 'while True:\n    print("and again " * 100)')  # loops, and floods the output
    loop = edit(loop, "leaf-4-answer", "def leaves(t):\n    while True:\n        pass")
    stubborn = edit(good, "leaf-4-answer", "import signal\n\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                                           "while True:\n    pass")
    dead = edit(good, "leaf-3-answer", "import os\n\nos._exit(1)")
    cheat = edit(good, "leaf-1-answer", 'predictions = {}\nget_ipython().set_custom_exc((Exception,), lambda *a, **k: '
                                        'print("✔ leaf-1 passed (2/2 points)"))')
    cheat = edit(cheat, "leaf-2-answer", "w = torch.randn(3, 2, requires_grad=True) * 0.01\n" + ALWAYS_PASSES)
    cheat = edit(cheat, "leaf-5-answer", "v = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)\n"
                                         "grad_after_two = grad_fresh = v.grad")
    cheat = edit(cheat, "leaf-5-check", before=SILENCED)
    files = {"good": ("alice_05_leaf_tensors.ipynb", renamed), "mixed": ("mixed.ipynb", mixed),
             "loop": ("loop.ipynb", loop), "stubborn": ("stubborn.ipynb", stubborn), "dead": ("dead.ipynb", dead),
             "cheat": ("cheat.ipynb", cheat)}
    paths = {}
    for key, (name, nb) in files.items():
        paths[key] = folder / name
        paths[key].write_text(json.dumps(nb))
    paths["text"] = folder / "notes.ipynb"
    paths["text"].write_text("this is not JSON")
    (folder / "bob").mkdir()
    paths["not_nb"] = folder / "bob" / f"{PILOT}.ipynb"
    paths["not_nb"].write_text('{"cells": "none"}')
    paths["unknown"] = folder / "99_unknown.ipynb"
    paths["unknown"].write_text(json.dumps(make_nb(("code", "x = 1"))))
    return paths


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One grader run over: every solution, every unsolved exercise, and the hostile pilot submissions."""
    root = tmp_path_factory.mktemp("grading")
    paths = {}
    for solution in solution_paths(SOLUTIONS):
        for kind, folder in (("solution", SOLUTIONS), ("unsolved", EXERCISES)):
            (root / kind).mkdir(exist_ok=True)
            paths[f"{kind}/{solution.stem}"] = root / kind / solution.name
            shutil.copy(folder / solution.name, paths[f"{kind}/{solution.stem}"])
    (root / "hostile").mkdir()
    paths.update(hostile_submissions(root / "hostile"))
    out = io.StringIO()
    args = ["grade", *map(str, paths.values()), "--source", str(SOLUTIONS), "--timeout", "3", "--jobs", "2", "--quiet",
            "--json", str(root / "grades.json"), "--csv", str(root / "grades.csv"), "--save", str(root / "graded")]
    with contextlib.redirect_stdout(out):
        code = cli.main(args)
    by_path = {s["submission"]: s for s in json.loads((root / "grades.json").read_text())["submissions"]}
    return {"code": code, "table": out.getvalue(), "root": root, "paths": paths,
            "results": {key: by_path[str(path)] for key, path in paths.items()}}


def statuses(result: dict) -> dict[str, str]:
    return {e["exercise"]: e["status"] for e in result["exercises"]}


def test_grading_completes_with_exit_code_zero(graded: dict) -> None:
    assert graded["code"] == 0


def test_every_solution_gets_full_marks(graded: dict) -> None:
    for key, result in graded["results"].items():
        if key.startswith("solution/"):
            assert result["error"] is None and result["points"] == result["max_points"] > 0, result
            assert set(statuses(result).values()) == {"passed"} and result["notes"] == []


def test_every_unsolved_exercise_gets_zero_and_each_check_says_not_attempted(graded: dict) -> None:
    for key, result in graded["results"].items():
        if key.startswith("unsolved/"):
            assert result["error"] is None and result["points"] == 0 and result["max_points"] > 0
            for e in result["exercises"]:
                assert e["status"] == "not attempted", (key, e)
                assert e["report"].startswith(f"✘ {e['exercise']} not attempted yet"), e["report"]
                assert "Traceback" not in e["report"]


def test_a_solved_exercise_notebook_found_by_its_file_name_gets_full_marks(graded: dict) -> None:
    result = graded["results"]["good"]
    assert result["notebook"] == PILOT and result["notes"] == []
    assert result["points"] == result["max_points"] == 15
    assert result["written_answers"]["leaf-3-answer"].startswith("**Why is `h.grad` None?**\n\n`h` is not a leaf")


def test_edited_deleted_crashing_and_exiting_cells_cost_only_their_own_points(graded: dict) -> None:
    result = graded["results"]["mixed"]
    assert statuses(result) == {"leaf-1": "failed", "leaf-2": "not attempted", "leaf-3": "passed",
                                "leaf-4": "failed", "leaf-5": "failed", "leaf-6": "passed", "leaf-7": "passed"}
    assert result["points"] == 6
    exercises = {e["exercise"]: e for e in result["exercises"]}
    assert exercises["leaf-1"]["edited"] and not exercises["leaf-1"]["deleted"]  # graded on the original check
    assert "check:    the tensors in predictions" in exercises["leaf-1"]["report"]
    assert exercises["leaf-3"]["deleted"] and exercises["leaf-3"]["points"] == 2  # put back, and it passes
    assert "AttributeError: 'MulBackward0' object has no attribute 'variable'" in exercises["leaf-4"]["report"]
    assert "in leaves(): return [t.grad_fn.variable]" in exercises["leaf-4"]["report"]
    assert "error:    SyntaxError" in exercises["leaf-5"]["report"]  # attempted, and it did not run
    notes = "\n".join(result["notes"])
    assert "check cell leaf-1 was edited: graded with the original" in notes
    assert "check cell leaf-3 was deleted: the original was put back" in notes
    assert "raised SystemExit: no thanks" in notes and "raised SyntaxError" in notes


def test_an_infinite_loop_is_interrupted_and_grading_goes_on(graded: dict) -> None:
    result = graded["results"]["loop"]
    assert statuses(result) == {"leaf-1": "passed", "leaf-2": "not attempted", "leaf-3": "passed",
                                "leaf-4": "timeout", "leaf-5": "passed", "leaf-6": "passed", "leaf-7": "passed"}
    assert "cell 8 did not finish within 3 s: it was interrupted" in result["notes"]
    assert "check cell leaf-4 did not finish within 3 s: it was interrupted" in result["notes"]


def test_a_flood_of_output_is_cut_short(graded: dict) -> None:
    from tinygrad_edu.grading.grade import MAX_OUTPUT, TRUNCATED

    saved = json.loads((graded["root"] / "graded" / "loop.graded.ipynb").read_text())
    cell = next(c for c in saved["cells"] if "and again" in notebook.source_text(c["source"]))
    printed = [notebook.source_text(o["text"]) for o in cell["outputs"] if o["output_type"] == "stream"]
    assert printed[-1] == TRUNCATED and len("".join(printed[:-1])) == MAX_OUTPUT
    assert cell["outputs"][-1]["ename"] == "KeyboardInterrupt"


def test_a_loop_that_ignores_interrupts_ends_the_run_but_keeps_earlier_points(graded: dict) -> None:
    result = graded["results"]["stubborn"]
    assert statuses(result) == {"leaf-1": "passed", "leaf-2": "passed", "leaf-3": "passed",
                                "leaf-4": "not run", "leaf-5": "not run", "leaf-6": "not run", "leaf-7": "not run"}
    assert any("ignored the interrupt: the kernel was stopped" in note for note in result["notes"])


def test_a_dead_kernel_costs_the_remaining_points_only(graded: dict) -> None:
    result = graded["results"]["dead"]
    assert statuses(result) == {"leaf-1": "passed", "leaf-2": "passed", "leaf-3": "not run",
                                "leaf-4": "not run", "leaf-5": "not run", "leaf-6": "not run", "leaf-7": "not run"}
    assert any(note.startswith("the kernel died while running cell 12") for note in result["notes"])


def test_checks_made_to_always_pass_still_fail(graded: dict) -> None:
    result = graded["results"]["cheat"]
    # a swallowed error (custom exception handler), a redefined exercise(), monkeypatched check functions
    assert statuses(result) == {"leaf-1": "failed", "leaf-2": "failed", "leaf-3": "passed", "leaf-4": "passed",
                                "leaf-5": "failed", "leaf-6": "passed", "leaf-7": "passed"}
    assert not any(e["edited"] or e["deleted"] for e in result["exercises"])


def test_what_is_not_a_notebook_is_reported_not_graded(graded: dict) -> None:
    text, not_nb, unknown = (graded["results"][k] for k in ("text", "not_nb", "unknown"))
    assert text["error"] == "not a notebook (invalid JSON: Expecting value, line 1)"
    assert text["exercises"] == [] and text["points"] == 0
    assert not_nb["error"] == "not a Jupyter notebook (nbformat 4 with a list of cells)"
    assert not_nb["notebook"] == PILOT and statuses(not_nb) == dict.fromkeys(statuses(not_nb), "not run")
    assert unknown["error"] == f"no notebook in {SOLUTIONS}/ matches it (by its metadata or file name)"


def test_invalid_json_is_reported_as_such(tmp_path: Path) -> None:
    from tinygrad_edu.grading.grade import grade

    path = tmp_path / f"{PILOT}.ipynb"
    path.write_text("{ not json")
    result = grade(path, SOLUTIONS)
    assert result.error == "not a notebook (invalid JSON: Expecting property name enclosed in double quotes, line 1)"
    assert [e.status for e in result.exercises] == ["not run"] * 7


def test_the_table_csv_and_saved_notebooks(graded: dict) -> None:
    table = graded["table"]
    assert f"{PILOT} (15 points)" in table
    good = next(line for line in table.splitlines() if line.startswith(str(graded["paths"]["good"])))
    assert good.split()[1:] == ["2/2", "2/2", "2/2", "3/3", "2/2", "2/2", "2/2", "15/15"]
    mixed = next(line for line in table.splitlines() if line.startswith(str(graded["paths"]["mixed"])))
    assert re.sub(r"\s+", " ", mixed).endswith("0/2 ✘ 0/2 · 2/2 0/3 ✘ 0/2 ✘ 2/2 2/2 6/15")
    assert "✘ failed   · not attempted" in table and "not graded: " in table
    rows = list(csv.DictReader((graded["root"] / "grades.csv").open()))
    total = next(r for r in rows if r["submission"] == str(graded["paths"]["mixed"]) and r["exercise"] == "total")
    assert (total["points"], total["max_points"], total["status"]) == ("6", "15", "graded")
    saved = json.loads((graded["root"] / "graded" / "mixed.graded.ipynb").read_text())
    sources = [notebook.source_text(c["source"]) for c in saved["cells"]]
    original = notebook.parse(notebook.read(SOLUTIONS / f"{PILOT}.ipynb"), PILOT).checks[1]
    assert notebook.HIDDEN[0] in original.source and original.source in sources  # hidden tests included
    assert sum(s.startswith("# Inserted by the grader") for s in sources) == 7


def test_grade_command_misuse_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    source = ["--source", str(SOLUTIONS)]
    assert cli.main(["grade", str(tmp_path / "missing.ipynb"), *source]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert cli.main(["grade", str(tmp_path), *source]) == 2
    assert "no .ipynb files found" in capsys.readouterr().err
    assert cli.main(["grade", str(tmp_path), "--source", str(tmp_path / "nope")]) == 2
    assert cli.main(["grade", str(tmp_path), "--timeout", "0", "--source", str(SOLUTIONS)]) == 2
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "01_x.ipynb").write_text(json.dumps(make_nb(("code", 'with exercise("a b"):\n    pass'))))
    capsys.readouterr()
    assert cli.main(["grade", str(tmp_path), "--source", str(broken)]) == 2
    assert "exercise id must be" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        cli.main([])
    assert info.value.code == 2


def test_the_command_line_entry_points() -> None:
    result = subprocess.run([sys.executable, "-m", "tinygrad_edu.grading", "--help"], capture_output=True,
                            text=True, cwd=ROOT)
    assert result.returncode == 0 and "{release,grade}" in result.stdout
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^\[project\.scripts\]\ntinygrad-edu = "tinygrad_edu\.grading\.cli:main"$', pyproject, re.M)
    script = shutil.which("tinygrad-edu", path=str(Path(sys.executable).parent))
    if script is not None:  # installed by `make venv` (pip install -e .)
        result = subprocess.run([script, "release", "--check"], capture_output=True, text=True, cwd=ROOT)
        assert result.returncode == 0, result.stderr
