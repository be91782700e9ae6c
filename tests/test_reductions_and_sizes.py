"""A reduction's gradient as PyTorch builds it, and the sizes and operands PyTorch refuses.

``x.sum(1)``'s backward puts the summed dimension back with ``unsqueeze`` and expands, as PyTorch's
``sum_backward`` does, so a graph built from that backward (``create_graph=True``, ``autograd.functional.jvp``)
has PyTorch's nodes: the jvp of ``x.exp().sum(dim=1)`` ends in ``SqueezeBackward1``, as in PyTorch's own docs.
Refusals: a size below -1 in ``view``/``reshape`` (numpy would infer it), a dim given twice to ``sum``/``mean``, and
subtraction with a bool (numpy computes ``bool - 1``).

Each check runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from _oracle import as_pytorch, node_names, raises

import tinygrad_edu as tg

_names = node_names  # (the graph's node names, depth first: shared with the other graph tests)


def test_jvp_of_a_sum_over_a_dim_ends_in_squeeze_as_in_pytorchs_docs() -> None:
    def run(lib: ModuleType) -> Any:
        x, v = lib.ones(4, 4) * 0.5, lib.ones(4, 4)
        out, jvp = lib.autograd.functional.jvp(lambda t: t.exp().sum(dim=1), x, v, create_graph=True)
        return out.grad_fn.name(), jvp.grad_fn.name(), [round(float(j), 4) for j in jvp.detach()]

    assert as_pytorch(run)[1] == "('SumBackward1', 'SqueezeBackward1', [6.5949, 6.5949, 6.5949, 6.5949])"


@pytest.mark.parametrize("dims", [1, (0, 2), -1, (2, 0)])
@pytest.mark.parametrize("op", ["sum", "mean"])
def test_a_reductions_backward_graph_has_pytorchs_nodes(op: str, dims: Any) -> None:
    """The graph ``create_graph=True`` records for the gradient of a reduction over some dims."""

    def run(lib: ModuleType) -> Any:
        x = lib.arange(24.0).reshape(2, 3, 4).requires_grad_()
        (g,) = lib.autograd.grad(getattr(x, op)(dims).pow(2).sum(), x, create_graph=True)
        return _names(g.grad_fn), float(g.detach().sum())

    ours = as_pytorch(run)
    assert ours[0] is None and "'UnsqueezeBackward0'" in ours[1] and "'ViewBackward0'" not in ours[1]


def test_unsqueeze_and_squeeze_nodes_as_pytorch() -> None:
    def run(lib: ModuleType) -> Any:
        x = lib.ones(2, 1, 3, requires_grad=True)
        u, s, kept = x.unsqueeze(3), x.squeeze(1), x.squeeze(2)  # (kept: dim 2 has size 3, nothing removed)
        (u.sum() + s.sum() + kept.sum()).backward()
        return (u.grad_fn.name(), u.grad_fn._saved_dim, u.shape, s.grad_fn.name(), s.grad_fn._saved_dim, s.shape,
                kept.grad_fn.name(), kept.shape, x.grad.shape, float(x.grad.sum()))

    assert as_pytorch(run)[1] == ("('UnsqueezeBackward0', 3, tinygrad_edu.Size([2, 1, 3, 1]), 'SqueezeBackward1', 1, "
                                  "tinygrad_edu.Size([2, 3]), 'SqueezeBackward1', tinygrad_edu.Size([2, 1, 3]), "
                                  "tinygrad_edu.Size([2, 1, 3]), 18.0)")


def test_a_0d_tensor_reduces_over_dim_0_or_minus_1_and_no_other() -> None:
    def run(lib: ModuleType) -> Any:
        s = lib.tensor(2.0, requires_grad=True)
        out = s.sum(0) + s.mean(-1) + s.sum(0, keepdim=True) + s.squeeze(0) + s.unsqueeze(0).sum()
        out.backward()
        return out, s.grad

    assert as_pytorch(run)[1] == "(tensor(10., grad_fn=<AddBackward0>), tensor(5.))"
    raises(lambda lib: lib.tensor(2.0).sum(1), IndexError,
           "Dimension out of range (expected to be in range of [-1, 0], but got 1)")


@pytest.mark.parametrize("call", [lambda x: x.sum((1, 1)), lambda x: x.mean((0, -3)), lambda x: x.sum([2, 0, 2])])
def test_a_dim_given_twice_is_refused(call: Any) -> None:
    as_pytorch(lambda lib: call(lib.ones(2, 3, 4)))
    with pytest.raises(RuntimeError, match=r"^dim \d appears multiple times in the list of dims$"):
        call(tg.ones(2, 3, 4))


@pytest.mark.parametrize(("call", "message"), [
    ("view(-2, 3)", "invalid shape dimension -2 at index 0 of shape [-2, 3]"),
    ("reshape(3, -3)", "invalid shape dimension -3 at index 1 of shape [3, -3]"),
    ("t().reshape(-2, 2)", "invalid shape dimension -2 at index 0 of shape [-2, 2]"),
    ("view(2, -1, -2)", "invalid shape dimension -2 at index 2 of shape [2, -1, -2]"),
    ("view(-1, -1, -2)", "only one dimension can be inferred"),
])
def test_a_size_below_minus_1_is_refused_not_inferred(call: str, message: str) -> None:
    raises(lambda lib: eval(f"lib.ones(2, 3).{call}"), RuntimeError, message)


MASK = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use "
        "the `~` or `logical_not()` operator instead.")
TWO = ("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator "
       "instead.")


@pytest.mark.parametrize(("expression", "message"), [
    ("b - 1", MASK), ("1 - b", MASK), ("b - 1.5", MASK), ("f - True", MASK), ("True - f", MASK), ("b - f", MASK),
    ("f - b", MASK), ("i - b", MASK), ("b.sub(1)", MASK), ("f.sub_(True)", MASK), ("lib.sub(f, b, alpha=2)", MASK),
    ("b - True", TWO), ("True - b", TWO), ("b.sub_(b)", TWO), ("b - lib.tensor([[True], [False]])", TWO),
])
def test_subtraction_with_a_bool_is_refused(expression: str, message: str) -> None:
    def run(lib: ModuleType) -> Any:
        b, f, i = lib.tensor([True, False]), lib.tensor([1.0, 2.0]), lib.tensor([1, 2])  # noqa: F841 (eval reads them)
        return eval(expression)

    raises(run, RuntimeError, message)


@pytest.mark.parametrize("expression", ["b + 1", "b + b", "b * 2", "i - 1", "2 - f", "f - i", "1 - i"])
def test_what_pytorch_allows_next_to_the_refused_subtractions(expression: str) -> None:
    def run(lib: ModuleType) -> Any:
        b, f, i = lib.tensor([True, False]), lib.tensor([1.0, 2.0]), lib.tensor([1, 2])  # noqa: F841 (eval reads them)
        return eval(expression)

    assert as_pytorch(run)[0] is None


@pytest.mark.parametrize("call", ['sum(dtype="float")', 'sum(0, dtype="float")', 'sum(0, True, dtype="float")',
                                  "sum(dtype=float)", "sum(dtype=int)", "sum(0, dtype=lib.float64)"])
def test_the_dtype_of_a_sum(call: str) -> None:
    """A dtype, or a Python type for its default dtype (``float``: float64), as in PyTorch; a string is refused with
    PyTorch's TypeError (before, ``"float"`` was read as a device)."""
    ours = as_pytorch(lambda lib: eval(f"lib.ones(3).{call}"))
    assert ours[0] == ("TypeError" if '"float"' in call else None)
