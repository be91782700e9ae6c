"""The core's derivative table: what the docs and lessons show of it is read from it, and matches what runs."""

from __future__ import annotations

import dis
import inspect
from typing import Any

import numpy as np
from _oracle import oracle

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


def test_class_based_ops_leave_broadcasting_to_the_mechanism() -> None:
    """The ops that are Function classes of their own (atan2, where, addcmul, the linear layer's addmm ...) say in
    forward which inputs they broadcast (``broadcast_from``); none sums a gradient back down by hand in backward."""
    from tinygrad_edu.autograd import Function

    def classes(cls: type) -> list[type]:
        return [c for sub in cls.__subclasses__() for c in (sub, *classes(sub))]

    builtins = [c for c in classes(Function) if c.__module__.startswith(("tinygrad_edu.ops", "tinygrad_edu.nn"))]
    assert len(builtins) > 50
    for cls in builtins:
        source = inspect.getsource(cls.backward) if "backward" in vars(cls) else ""
        assert "sum_to" not in source, cls.__name__


def test_broadcast_and_promoted_inputs_of_class_based_ops_get_gradients_of_their_own_shape_and_dtype() -> None:
    """Each input's gradient has the input's shape and dtype, the broadcast copies' gradients summed: the same
    numbers as PyTorch's."""
    def grads(lib: Any) -> list[np.ndarray]:
        a = lib.tensor([[0.5], [-1.0]], requires_grad=True)  # (2, 1)
        b = lib.tensor([0.25, 1.5, -2.0], dtype=lib.float64, requires_grad=True)  # (3,), float64
        c = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        outs = [lib.atan2(a, b), lib.hypot(a, c), lib.logaddexp(a, c), lib.fmod(a, c + 5), lib.remainder(a, c + 5),
                lib.lerp(a, c, 0.3), lib.lerp(a, c, c / 4), lib.addcmul(a, c, a * 2, value=0.5),
                lib.addcdiv(c, a, c + 4, value=2.0), lib.where(c > 1.5, a, c), a.masked_fill(c > 1.5, 2.0),
                a.masked_fill(c > 1.5, (c * c).sum()), lib.addmm(c, a, a.t().repeat(1, 1)[:, :1].expand(1, 3))]
        total = sum(o.sum() * (i + 1) for i, o in enumerate(outs))
        total.backward()
        return [a.grad.detach().numpy(), b.grad.detach().numpy(), c.grad.detach().numpy()]

    ours = grads(tg)
    assert [g.shape for g in ours] == [(2, 1), (3,), (3,)] and ours[1].dtype == np.float64
    torch = oracle()
    if torch is not None:
        for mine, theirs in zip(ours, grads(torch)):
            np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)
