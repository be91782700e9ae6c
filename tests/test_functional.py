"""``autograd.functional``: Jacobians, Hessians and their products with vectors, as ``torch.autograd.functional``.

Each check is written once for ``lib`` (tinygrad_edu or torch); the expected printout is spelled out, so the test
means something without torch, and when torch is installed it must print exactly the same.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg


def cube(x: Any) -> Any:
    return x ** 3


def exp_adder(x: Any, y: Any) -> Any:
    return 2 * x.exp() + 3 * y


def cube_sum(x: Any) -> Any:
    return (x ** 3).sum()


def mixed(x: Any, y: Any) -> Any:
    return (x * y ** 2).sum() + x.sin().sum()


def inputs(lib: ModuleType) -> tuple[Any, Any, Any]:
    return lib.tensor([1.0, 2.0]), lib.tensor([0.5, -1.0]), lib.tensor([1.0, -1.0])


def test_jacobian_of_one_input_and_one_output() -> None:
    as_pytorch(lambda lib: lib.autograd.functional.jacobian(cube, inputs(lib)[0]),
               (None, "tensor([[ 3.,  0.],\n        [ 0., 12.]])", []))


def test_jacobian_with_several_inputs_or_outputs_is_a_tuple() -> None:
    def run(lib: ModuleType) -> tuple:
        x, y, _ = inputs(lib)
        jac = lib.autograd.functional.jacobian
        return (jac(exp_adder, (x, y)), jac(lambda a: (a * 2, a.sum()), x),
                jac(lambda a, b: (a * b, b), (x, y)))

    kind, text, _ = as_pytorch(run)
    assert kind is None and text.count("tensor(") == 8


def test_jacobian_rows_are_one_backward_pass_each() -> None:
    """J[i, j] = d out_i / d x_j, checked against the matrix written by hand at x = (1, 2, 3)."""
    def f(x: tg.Tensor) -> tg.Tensor:
        return tg.stack([x[0] * x[1], x[1] + x[2] ** 2, 3 * x[0]])

    J = tg.autograd.functional.jacobian(f, tg.tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(J.numpy(), [[2.0, 1.0, 0.0], [0.0, 1.0, 6.0], [3.0, 0.0, 0.0]])
    assert J.grad_fn is None and not J.requires_grad  # results are detached without create_graph


def test_jacobian_shape_is_output_shape_then_input_shape() -> None:
    w = tg.tensor([[2.0, -1.0], [0.0, 1.0]])
    J = tg.autograd.functional.jacobian(lambda x: x @ w.t(), tg.ones(4, 2))
    assert tuple(J.shape) == (4, 2, 4, 2)
    np.testing.assert_array_equal(J[1, :, 1, :].numpy(), w.numpy())  # row 1 of the output depends on row 1 only
    assert not J[1, :, 2, :].numpy().any()


def test_an_output_that_ignores_an_input_gives_zeros() -> None:
    as_pytorch(lambda lib: (lib.autograd.functional.jacobian(lambda a, b: a * 2, (inputs(lib)[0], inputs(lib)[1])),
                            lib.autograd.functional.jacobian(lambda a: lib.tensor([1.0, 2.0]), inputs(lib)[0])),
               (None, "((tensor([[2., 0.],\n        [0., 2.]]), tensor([[0., 0.],\n        [0., 0.]])), "
                      "tensor([[0., 0.],\n        [0., 0.]]))", []))


def test_hessian_is_the_jacobian_of_the_gradient() -> None:
    as_pytorch(lambda lib: lib.autograd.functional.hessian(cube_sum, inputs(lib)[0]),
               (None, "tensor([[ 6.,  0.],\n        [ 0., 12.]])", []))
    kind, text, _ = as_pytorch(lambda lib: lib.autograd.functional.hessian(mixed, inputs(lib)[:2]))
    assert kind is None and text.count("tensor(") == 4  # ((H_xx, H_xy), (H_yx, H_yy))


def test_hessian_matches_second_derivatives_by_hand() -> None:
    """f = sum(x * y**2) + sum(sin x): H_xx = diag(-sin x), H_xy = diag(2y), H_yy = diag(2x)."""
    x, y = tg.tensor([1.0, 2.0]), tg.tensor([0.5, -1.0])
    (hxx, hxy), (hyx, hyy) = tg.autograd.functional.hessian(mixed, (x, y))
    np.testing.assert_allclose(hxx.numpy(), np.diag(-np.sin([1.0, 2.0])), rtol=1e-6)
    np.testing.assert_array_equal(hxy.numpy(), np.diag([1.0, -2.0]))
    np.testing.assert_array_equal(hyx.numpy(), hxy.numpy().T)
    np.testing.assert_array_equal(hyy.numpy(), np.diag([2.0, 4.0]))


def test_vector_products() -> None:
    def run(lib: ModuleType) -> tuple:
        F = lib.autograd.functional
        x, y, v = inputs(lib)
        return F.vjp(cube, x, v), F.jvp(cube, x, v), F.vhp(cube_sum, x, v), F.hvp(cube_sum, x, v), \
            F.hvp(mixed, (x, y), (v, v))

    as_pytorch(run, (None, "((tensor([1., 8.]), tensor([  3., -12.])), (tensor([1., 8.]), tensor([  3., -12.])), "
                           "(tensor(9.), tensor([  6., -12.])), (tensor(9.), tensor([  6., -12.])), "
                           "(tensor(4.0008), (tensor([0.1585, 2.9093]), tensor([ 3., -2.]))))", []))


def test_products_agree_with_the_full_matrices() -> None:
    """vᵀJ and Jv from one pass each equal the products with the Jacobian; vᵀH and Hv those with the Hessian."""
    F = tg.autograd.functional
    x = tg.tensor([0.3, -1.2, 2.0])
    v = tg.tensor([1.0, 2.0, -0.5])

    def f(a: tg.Tensor) -> tg.Tensor:
        return tg.stack([a[0] * a[1], a.exp().sum(), a[2] ** 3])

    def s(a: tg.Tensor) -> tg.Tensor:
        return (a[0] * a[1] * a[2]) + (a ** 4).sum()

    J, H = F.jacobian(f, x).numpy(), F.hessian(s, x).numpy()
    np.testing.assert_allclose(F.vjp(f, x, v)[1].numpy(), v.numpy() @ J, rtol=1e-5)
    np.testing.assert_allclose(F.jvp(f, x, v)[1].numpy(), J @ v.numpy(), rtol=1e-5)
    np.testing.assert_allclose(F.vhp(s, x, v)[1].numpy(), v.numpy() @ H, rtol=1e-5)
    np.testing.assert_allclose(F.hvp(s, x, v)[1].numpy(), H @ v.numpy(), rtol=1e-5)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_create_graph_keeps_results_differentiable() -> None:
    def run(lib: ModuleType) -> tuple:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        j = lib.autograd.functional.jacobian(cube, x, create_graph=True)
        j.sum().backward()  # d/dx of sum(diag(3x²)) = 6x
        return j, x.grad, lib.autograd.functional.hessian(cube_sum, lib.tensor([1.0, 2.0]), create_graph=True)

    as_pytorch(run, (None, "(tensor([[ 3.,  0.],\n        [ 0., 12.]], grad_fn=<ViewBackward0>), tensor([ 6., 12.]), "
                           "tensor([[ 6.,  0.],\n        [ 0., 12.]], grad_fn=<ViewBackward0>))", []))


def test_inputs_grad_is_left_alone() -> None:
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    tg.autograd.functional.jacobian(cube, x)
    tg.autograd.functional.hessian(cube_sum, x)
    assert x.grad is None


def test_bad_arguments_get_pytorchs_errors() -> None:
    raises(lambda lib: lib.autograd.functional.jacobian(cube, [1.0]), TypeError,
           "The inputs given to jacobian must be either a Tensor or a tuple of Tensors but the given inputs has type "
           "<class 'list'>.")
    raises(lambda lib: lib.autograd.functional.jacobian(cube, (inputs(lib)[0], 2.0)), TypeError,
           "The inputs given to jacobian must be either a Tensor or a tuple of Tensors but the value at index 1 has "
           "type <class 'float'>.")
    raises(lambda lib: lib.autograd.functional.jacobian(lambda a: 3, inputs(lib)[0]), TypeError,
           "The outputs of the user-provided function given to jacobian must be either a Tensor or a tuple of Tensors "
           "but the given outputs of the user-provided function has type <class 'int'>.")
    raises(lambda lib: lib.autograd.functional.vjp(cube, inputs(lib)[0]), RuntimeError,
           "The vector v can only be None if the user-provided function returns a single Tensor with a single "
           "element.")
    raises(lambda lib: lib.autograd.functional.hvp(cube_sum, inputs(lib)[0]), RuntimeError,
           "The vector v can only be None if the input to the user-provided function is a single Tensor with a "
           "single element.")
    raises(lambda lib: lib.autograd.functional.hessian(cube, inputs(lib)[0]), RuntimeError,
           "The Tensor returned by the function given to hessian should contain a single element")
    raises(lambda lib: lib.autograd.functional.vhp(lambda a: (a.sum(), a.sum()), inputs(lib)[0], inputs(lib)[2]),
           RuntimeError, "The function given to vhp should return a single Tensor")
    raises(lambda lib: lib.autograd.functional.vjp(cube, inputs(lib)[0], lib.ones(3)), RuntimeError,
           "v has invalid size: should be tinygrad_edu.Size([2]) but got tinygrad_edu.Size([3]).")
    raises(lambda lib: lib.autograd.functional.jvp(exp_adder, inputs(lib)[:2], (inputs(lib)[2],)), RuntimeError,
           "v is a tuple of invalid length: should be 2 but got 1.")


def test_forward_mode_strategies_as_pytorch() -> None:
    """Jacobians and Hessians by forward mode (vectorize=True, as PyTorch requires), same numbers and structure."""
    F = "tinygrad_edu.autograd.functional"
    f = lambda x: x.exp() * x.sum()  # noqa: E731
    torch = oracle()
    if torch is not None:  # (PyTorch's first vmap imports modules that warn of deprecations: not part of the answer)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.autograd.functional.jacobian(f, torch.ones(2), strategy="forward-mode", vectorize=True)
    as_pytorch(lambda lib: lib.autograd.functional.jacobian(f, lib.tensor([1.0, 2.0, 3.0]), strategy="forward-mode",
                                                            vectorize=True))
    as_pytorch(lambda lib: lib.autograd.functional.jacobian(lambda a, b: (a * b, a.sum()), (inputs(lib)[0],) * 2,
                                                            strategy="forward-mode", vectorize=True))
    as_pytorch(lambda lib: lib.autograd.functional.hessian(lambda a: (a**3).sum(), lib.tensor([1.0, 2.0, 3.0]),
                                                           outer_jacobian_strategy="forward-mode", vectorize=True))
    as_pytorch(lambda lib: lib.autograd.functional.jacobian(f, lib.tensor([1.0, 2.0]), vectorize=True))
    raises(lambda lib: lib.autograd.functional.jacobian(cube, lib.ones(2), strategy="forward-mode"),
           NotImplementedError, "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly "
                                "implemented for `vectorize=True`.")
    raises(lambda lib: lib.autograd.functional.jacobian(cube, lib.ones(2), strategy="forward-mode", vectorize=True,
                                                        create_graph=True), NotImplementedError,
           f'{F}.jacobian: `create_graph=True` and `strategy="forward-mode"` are not supported together (yet). '
           'Please either set `create_graph=False` or `strategy="reverse-mode"`.')
    raises(lambda lib: lib.autograd.functional.jacobian(cube, lib.ones(2), strategy="forward-mode", vectorize=True,
                                                        strict=True), RuntimeError,
           f'{F}.jacobian: `strict=True` and `strategy="forward-mode"` are not supported together (yet). Please '
           'either set `strict=False` or `strategy="reverse-mode"`.')
    raises(lambda lib: lib.autograd.functional.jacobian(cube, lib.ones(2), strategy="sideways"), AssertionError,
           'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more outputs '
           'than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use "reverse-mode".')
    raises(lambda lib: lib.autograd.functional.hessian(cube_sum, lib.ones(2), outer_jacobian_strategy="x"),
           AssertionError, 'Expected strategy to be either "forward-mode" or "reverse-mode".')


def test_strict_mode_refuses_as_pytorch() -> None:
    x = lambda lib: lib.tensor([1.0, 2.0, 3.0])  # noqa: E731
    fn = "user-provided function"
    raises(lambda lib: lib.autograd.functional.jacobian(lambda a, b: a * 2, (x(lib), x(lib)), strict=True),
           RuntimeError, f"Output 0 of the {fn} is independent of input 1. This is not allowed in strict mode.")
    raises(lambda lib: lib.autograd.functional.jacobian(lambda a: a.detach(), x(lib), strict=True), RuntimeError,
           f"Output 0 of the {fn} does not require gradients. The outputs must be computed in a differentiable "
           "manner from the input when running in strict mode.")
    raises(lambda lib: lib.autograd.functional.vjp(lambda a, b: (a * 2).sum(), (x(lib), x(lib)), strict=True),
           RuntimeError, f"The output of the {fn} is independent of input 1. This is not allowed in strict mode.")
    raises(lambda lib: lib.autograd.functional.jvp(lambda a, b: a * 2, (x(lib), x(lib)), (x(lib), x(lib)),
                                                   strict=True),
           RuntimeError, f"The output of the {fn} is independent of input 1. This is not allowed in strict mode.")
    hessian_message = (f"While computing the hessian, found that the jacobian of the {fn} with respect to input 0 "
                       "is independent of the input. This is not allowed in strict mode. You should ensure that your "
                       "function is twice differentiable and that the jacobian depends on the inputs (this would be "
                       "violated by a linear function for example).")
    raises(lambda lib: lib.autograd.functional.hessian(lambda a: a.sum(), x(lib), strict=True), RuntimeError,
           hessian_message)
    raises(lambda lib: lib.autograd.functional.vhp(lambda a: a.sum(), x(lib), x(lib), strict=True), RuntimeError,
           hessian_message)
    raises(lambda lib: lib.autograd.functional.hvp(lambda a: a.sum(), x(lib), x(lib), strict=True), RuntimeError,
           hessian_message)
    as_pytorch(lambda lib: lib.autograd.functional.vjp(lambda a: a.sum() * 0 + 1, x(lib), strict=True))
    as_pytorch(lambda lib: lib.autograd.functional.vhp(lambda a: (a**2).sum(), x(lib), x(lib), strict=True))
    as_pytorch(lambda lib: lib.autograd.functional.hvp(lambda a: (a**3).sum(), x(lib), x(lib), strict=True))
