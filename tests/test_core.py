"""The core's derivative table: what the docs and lessons show of it is read from it, and matches what runs."""

from __future__ import annotations

import dis
import inspect

import numpy as np

import tinygrad_edu as tg
from tinygrad_edu.autograd.derivatives import derivative_table, entries, entry_source
from tinygrad_edu.core import derivatives


def _steps(code: object) -> list[tuple[str, object]]:
    """What a code object does, instruction by instruction (names and constants, not their positions; CPython
    compiles ``a.b(...)`` as LOAD_METHOD or LOAD_ATTR depending on how the source is laid out)."""
    return [(i.opname.replace("LOAD_METHOD", "LOAD_ATTR"), i.argval) for i in dis.get_instructions(code)]


def test_the_rendered_table_is_the_running_table() -> None:
    """Every entry that runs has its formulas in the rendered table, and each rendered formula compiles to the very
    code of the lambda that runs: the text cannot say one thing while the library does another."""
    shown = {e.node: e for e in entries()}
    assert [fn.node_name for fn in derivatives.TABLE] == [e.node for e in entries()]
    for fn in derivatives.TABLE:
        entry = shown[fn.node_name]
        assert list(entry.formulas) == list(fn.formulas)
        for name, formula in fn.formulas.items():
            params = ", ".join(inspect.signature(formula).parameters)
            code = compile(f"lambda {params}: ({entry.formulas[name]})", "<table>", "eval").co_consts[0]
            assert _steps(code) == _steps(formula.__code__), (fn.node_name, name)
    lines = derivative_table().splitlines()
    assert len(lines) == sum(len(fn.formulas) for fn in derivatives.TABLE)
    assert "MulBackward0                self:        grad * other" in lines


def test_an_entry_is_its_source() -> None:
    text = entry_source("ExpBackward0")
    assert text.startswith('Exp = derivative("ExpBackward0"') and "grad * result" in text
    assert derivative_table(["ExpBackward0"]) == "ExpBackward0                self:        grad * result"


def test_a_builtins_node_is_the_same_kind_as_a_learners() -> None:
    """An entry of the table becomes a Function through derivative(): its node is a BackwardCFunction like a
    learner's Function's node, with PyTorch's name, edges and saved tensors."""
    class MyMul(tg.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            return g * b, g * a

    x = tg.tensor([1.0, 2.0], requires_grad=True)
    w = tg.tensor([3.0, 4.0])
    builtin, learners = (x * w).grad_fn, MyMul.apply(x, w).grad_fn
    assert type(builtin).__mro__[1:] == type(learners).__mro__[1:]
    assert type(builtin).__name__ == "MulBackward0" and type(learners).__name__ == "MyMulBackward"
    assert issubclass(derivatives.Mul, tg.autograd.Function)
    # x needs a gradient, w does not: only what x's formula names (other, i.e. w) is saved, as in PyTorch
    assert builtin._saved_self is None and builtin._saved_other is w
    assert builtin.next_functions[1] == (None, 0)


def test_broadcast_gradients_are_summed_back_once_by_the_mechanism() -> None:
    """No formula of the table sums a broadcast gradient: the step that makes entries Functions does, for every op."""
    for entry in entries():
        for text in entry.formulas.values():
            assert "sum_to_shape" not in text or entry.node == "ExpandBackward0"  # (expand's own derivative)
    b = tg.tensor([[1.0], [2.0]], requires_grad=True)
    x = tg.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    (x * b + x / b - b ** 2).sum().backward()
    np.testing.assert_allclose(b.grad.numpy(), [[6 - 6 - 6], [6 - 1.5 - 12]])  # (b**2 is broadcast: 3 copies)
    np.testing.assert_allclose(x.grad.numpy(), [[(1 + 2) + (1 + 0.5)] * 3])
