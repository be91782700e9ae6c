"""Tensor methods and functions that autograd code uses in passing, as PyTorch has them: the legacy constructor
``x.new``, ``bernoulli``, ``split_with_sizes``, ``signbit``, the legacy tensor types' ``dtype``, ``InplaceFunction``,
and two details of ``autograd.grad``: a float gradient of another dtype is converted to its output's, and the zeros
``materialize_grads`` fills in require grad under ``create_graph``.

Each check runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``): same result, same
exception type and message, same warnings.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from _oracle import as_pytorch


def test_new_makes_a_tensor_of_the_same_dtype() -> None:
    def run(lib: ModuleType) -> str:
        x = lib.ones(2, 3, dtype=lib.float64)
        a, b, c = x.new(x[0].size()).fill_(7), x.new(2, 2).fill_(1), x.new([1, 2])
        return f"{a.tolist()} {a.dtype} {b.shape} {c.tolist()} {c.dtype}"

    as_pytorch(run, (None, repr("[7.0, 7.0, 7.0] tinygrad_edu.float64 tinygrad_edu.Size([2, 2]) [1.0, 2.0] "
                                "tinygrad_edu.float64"), []))


def test_bernoulli_draws_zeros_and_ones_in_the_tensors_dtype() -> None:
    def run(lib: ModuleType) -> str:
        lib.manual_seed(0)
        p = lib.tensor([0.0, 1.0, 0.0, 1.0])
        mask = lib.BoolTensor(3, 4).bernoulli_()
        return f"{p.bernoulli().tolist()} {mask.dtype} {set(mask.flatten().tolist()) <= {True, False}}"

    as_pytorch(run, (None, repr("[0.0, 1.0, 0.0, 1.0] tinygrad_edu.bool True"), []))


def test_split_with_sizes_and_signbit() -> None:
    def run(lib: ModuleType) -> str:
        x = lib.tensor([-1.0, 0.0, 2.0, -0.0], requires_grad=True)
        a, b = x.split_with_sizes([1, 3])
        (a.sum() * 2 + b.sum()).backward()
        bits = lib.signbit(x)
        return f"{a.tolist()} {b.tolist()} {x.grad.tolist()} {bits.tolist()} {bits.requires_grad}"

    as_pytorch(run, (None, repr("[-1.0] [0.0, 2.0, -0.0] [2.0, 1.0, 1.0, 1.0] [True, False, False, True] False"),
                     []))


def test_legacy_tensor_types_have_a_dtype_and_convert() -> None:
    def run(lib: ModuleType) -> str:
        x = lib.ones(2)
        d = x.type(lib.DoubleTensor)
        return f"{lib.DoubleTensor.dtype} {lib.IntTensor.dtype} {d.dtype} {isinstance(d, lib.DoubleTensor)}"

    as_pytorch(run, (None, repr("tinygrad_edu.float64 tinygrad_edu.int32 tinygrad_edu.float64 True"), []))


def test_an_inplace_function_is_a_function() -> None:
    def run(lib: ModuleType) -> str:
        class AddOne(lib.autograd.function.InplaceFunction):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                ctx.mark_dirty(a)
                return a.add_(1)

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g

        x = lib.ones(2, requires_grad=True)
        y = AddOne.apply(x.clone())
        y.sum().backward()
        return f"{y.tolist()} {type(y.grad_fn).__name__} {x.grad.tolist()}"

    as_pytorch(run, (None, repr("[2.0, 2.0] AddOneBackward [1.0, 1.0]"), []))


def test_grad_converts_a_float_gradient_to_its_outputs_dtype() -> None:
    def run(lib: ModuleType) -> str:
        a = lib.ones(3, 3, dtype=lib.float64, requires_grad=True)
        g, = lib.autograd.grad(a.diagonal(), a, lib.ones(3))
        return f"{g.dtype} {g.sum().item()}"

    as_pytorch(run, (None, repr("tinygrad_edu.float64 3.0"), []))


def test_materialized_zeros_require_grad_under_create_graph() -> None:
    def run(lib: ModuleType) -> str:
        x = lib.tensor(0.5, requires_grad=True)
        a = lib.tensor(1.0, requires_grad=True)
        dydx = lib.autograd.grad(x * a, x, create_graph=True)
        zero, = lib.autograd.grad(dydx, x, create_graph=True, materialize_grads=True)
        again, = lib.autograd.grad(zero, x, materialize_grads=True)
        return f"{zero.item()} {zero.requires_grad} {again.item()} {again.requires_grad}"

    as_pytorch(run, (None, repr("0.0 True 0.0 False"), []))


def test_unsafe_split_pieces_may_be_changed_in_place() -> None:
    """``split``'s pieces are views that refuse in-place changes (one node made them all); ``unsafe_split``'s are not
    views to autograd: each is changed as a tensor of its own, and backward runs."""

    def run(lib: ModuleType) -> str:
        results = []
        for cut in (lambda t: t.unsafe_split(1), lambda t: t.unsafe_split_with_sizes((1, 2)),
                    lambda t: t.unsafe_chunk(3)):
            a = lib.ones(3, 2, requires_grad=True)
            pieces = cut(a * 2)
            pieces[0].mul_(3)
            pieces[0].sum().backward()
            results.append(f"{len(pieces)} {pieces[0]._is_view()} {a.grad.tolist()}")
        return "; ".join(results)

    as_pytorch(run, (None, repr("3 False [[6.0, 6.0], [0.0, 0.0], [0.0, 0.0]]; 2 False [[6.0, 6.0], [0.0, 0.0], "
                                "[0.0, 0.0]]; 3 False [[6.0, 6.0], [0.0, 0.0], [0.0, 0.0]]"), []))
