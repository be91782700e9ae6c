"""Details of PyTorch's autograd a learner meets past the lessons: errors PyTorch raises (a second backward through
freed indices, a tensor assigned as its own grad, mark_dirty on a view made in forward), numpy() inside a Function's
forward, atan2's gradient at the origin, ``is_inference``. Each against PyTorch when it is installed."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, raises

from tinygrad_edu import _messages as M


def twice_through_index_put(lib: ModuleType) -> None:
    b = lib.tensor([1.0, 2.0, 3.0], requires_grad=True, dtype=lib.float64)
    c = lib.zeros(3, dtype=lib.float64)
    c[[1, 2]] = b[[1, 1]]
    c.backward(lib.ones(3, dtype=lib.float64))
    c.backward(lib.ones(3, dtype=lib.float64))


def twice_through_index(lib: ModuleType) -> None:
    b = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = b[[0, 2, 2]].sum()
    c.backward()
    c.backward()


@pytest.mark.parametrize("program", [twice_through_index_put, twice_through_index])
def test_a_second_backward_through_freed_indices_raises(program: Any) -> None:
    raises(program, RuntimeError, M.FREED)


def test_a_view_can_run_backward_twice_it_saves_nothing() -> None:
    def program(lib: ModuleType) -> Any:
        b = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        c = b[1, :1].sum()
        c.backward()
        c.backward()
        return b.grad.tolist()

    as_pytorch(program)


def test_a_tensor_cannot_be_its_own_grad() -> None:
    def program(lib: ModuleType) -> None:
        x = lib.ones(3, requires_grad=True)
        x.grad = x

    raises(program, RuntimeError, "can't assign Variable as its own grad")


def test_mark_dirty_on_a_view_made_in_forward_of_a_leaf() -> None:
    def program(lib: ModuleType) -> Any:
        class Half(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                v = a[:2]
                v.mul_(0.5)
                ctx.mark_dirty(v)
                return v

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g

        return Half.apply(lib.ones(3, requires_grad=True))

    raises(program, RuntimeError, "a leaf Variable that requires grad has been used in an in-place operation.")


def test_numpy_inside_a_functions_forward() -> None:
    """forward runs with grad mode off, where numpy() of a tensor that requires grad is allowed."""
    def program(lib: ModuleType) -> Any:
        class NumpySin(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                ctx.save_for_backward(a)
                return lib.tensor(np.sin(a.numpy()))

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                (a,) = ctx.saved_tensors
                return g * lib.tensor(np.cos(a.detach().numpy()))

        x = lib.tensor([0.0, 1.0], requires_grad=True)
        y = NumpySin.apply(x)
        y.sum().backward()
        return y, [round(v, 4) for v in x.grad.tolist()]

    as_pytorch(program)
    raises(lambda lib: lib.ones(2, requires_grad=True).numpy(), RuntimeError, M.NUMPY_REQUIRES_GRAD)


def test_atan2_gradient_at_the_origin_is_zero() -> None:
    def program(lib: ModuleType) -> Any:
        y = lib.tensor([0.0, 0.0, -0.0, 1e-30, 3.0], requires_grad=True)
        x = lib.tensor([0.0, -0.0, 0.0, 0.0, 4.0], requires_grad=True)
        lib.atan2(y, x).backward(lib.full((5,), 2.0))
        return x.grad, y.grad

    as_pytorch(program)


def test_is_inference_as_a_function() -> None:
    def program(lib: ModuleType) -> Any:
        with lib.inference_mode():
            a = lib.ones(2)
        b = lib.ones(2)
        return lib.is_inference(a), lib.is_inference(b), a.is_inference(), lib.is_inference_mode_enabled()

    as_pytorch(program, (None, "(True, False, True, False)", []))
