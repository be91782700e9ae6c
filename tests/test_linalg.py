"""tinygrad_edu.linalg (``torch.linalg.vector_norm`` and ``norm``) and ``torch.pi``, against PyTorch 2.13:
values, printing (grad_fn names), first and second derivatives, and the errors of misuse."""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg

VECTOR_ORDS = [2, 1, math.inf, -math.inf, 0, 3, 0.5, -1, 1.5]
VALUES = [3.0, -4.0, 0.0, 4.0]


def vector_norm_and_gradient(lib: ModuleType, ord: float, dim: object, keepdim: bool) -> str:
    """The norm and its gradient, as printed."""
    x = lib.tensor([VALUES, [1.0, -0.5, 2.0, 0.0]], dtype=lib.float64, requires_grad=True)
    n = lib.linalg.vector_norm(x, ord, dim, keepdim)
    n.sum().backward()
    return f"{n!r}\n{x.grad}"


def second_derivatives(lib: ModuleType, ord: float, dim: object, keepdim: bool) -> np.ndarray:
    """d/dx of the sum of the gradient, through create_graph (nan where the norm's curvature is infinite)."""
    x = lib.tensor([VALUES, [1.0, -0.5, 2.0, 0.0]], dtype=lib.float64, requires_grad=True)
    (g,) = lib.autograd.grad(lib.linalg.vector_norm(x, ord, dim, keepdim).sum(), x, create_graph=True)
    (gg,) = lib.autograd.grad(g.sum(), x, allow_unused=True)
    if gg is None or getattr(gg, "_is_zerotensor", lambda: False)():  # PyTorch's zeros that hold no numbers
        return np.zeros(tuple(x.shape))
    return np.array(gg.tolist())


@pytest.mark.parametrize("ord", VECTOR_ORDS)
@pytest.mark.parametrize(("dim", "keepdim"), [(None, False), (1, False), ((0, 1), True), (-2, True)])
def test_vector_norms_values_gradients_and_second_derivatives_as_pytorch(ord: float, dim: object,
                                                                         keepdim: bool) -> None:
    as_pytorch(lambda lib: vector_norm_and_gradient(lib, ord, dim, keepdim))
    if ord != 0 and oracle() is not None:  # the 0 "norm" counts: it has no gradient at all
        ours, theirs = second_derivatives(tg, ord, dim, keepdim), second_derivatives(oracle(), ord, dim, keepdim)
        assert np.allclose(ours, theirs, rtol=1e-12, atol=1e-12, equal_nan=True), (ours, theirs)


def test_the_length_of_a_vector_prints_as_pytorch_prints_it() -> None:
    def length(lib: ModuleType) -> str:
        g = lib.tensor([3.0, 4.0], requires_grad=True)
        n = lib.linalg.norm(g)
        n.backward()
        return f"{n!r} {g.grad} {lib.linalg.vector_norm(g, ord=lib.inf)!r}"

    as_pytorch(length, (None, "'tensor(5., grad_fn=<LinalgVectorNormBackward0>) tensor([0.6000, 0.8000]) "
                              "tensor(4., grad_fn=<LinalgVectorNormBackward0>)'", []))
    zero = tg.zeros(3, requires_grad=True)
    tg.linalg.vector_norm(zero).backward()
    assert zero.grad.tolist() == [0.0, 0.0, 0.0]  # the kink at 0: gradient 0, not nan


@pytest.mark.parametrize("ord", [None, "fro", math.inf, -math.inf, 1, -1])
@pytest.mark.parametrize(("dim", "keepdim"), [(None, False), ((1, 0), False), ((0, 1), True), ((-1, -2), False)])
def test_matrix_norms_as_pytorch(ord: object, dim: object, keepdim: bool) -> None:
    def run(lib: ModuleType) -> str:
        a = lib.tensor([[1.0, -2.0, 0.5], [3.0, 4.0, -1.0]], requires_grad=True)
        n = lib.linalg.norm(a, ord, dim, keepdim)
        n.sum().backward()
        return f"{n}\n{a.grad}"

    if ord is None and dim is not None:
        dim = dim[0]  # without an order, a pair of dimensions is a matrix norm: one dimension is a vector norm
    as_pytorch(run)


def test_norm_chooses_vector_or_matrix_norms_as_pytorch() -> None:
    def run(lib: ModuleType) -> str:
        v, a, b = lib.tensor([1.0, -2.0, 2.0]), lib.ones(2, 3), lib.ones(2, 3, 4)
        return " ".join(str(t) for t in (lib.linalg.norm(v, 1), lib.linalg.norm(a, keepdim=True),
                                         lib.linalg.norm(b), lib.linalg.norm(b, dim=2), lib.linalg.norm(a, lib.inf),
                                         lib.linalg.vector_norm(a, dim=1, dtype=lib.float64)))

    as_pytorch(run)


@pytest.mark.parametrize(("call", "exc", "message"), [
    (lambda lib: lib.linalg.vector_norm(lib.tensor([1, 2])), RuntimeError,
     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.norm(lib.tensor([1, 2])), RuntimeError,
     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.norm(lib.ones(2, 2, 2), ord=1), RuntimeError,
     "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got 3D."),
    (lambda lib: lib.linalg.norm(lib.ones(3), ord="fro"), RuntimeError,
     "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."),
    (lambda lib: lib.linalg.vector_norm(lib.ones(3), ord="fro"), TypeError,
     "linalg_vector_norm(): argument 'ord' must be Number, not str"),
    (lambda lib: lib.linalg.norm(lib.ones(3, 3), ord=3), RuntimeError, "linalg.matrix_norm: Order 3 not supported."),
    (lambda lib: lib.linalg.norm(lib.ones(3, 3), dim=(0, 1, 2)), RuntimeError,
     "linalg.norm: If dim is specified, it must be of length 1 or 2. Got [0, 1, 2]"),
    (lambda lib: lib.linalg.vector_norm(lib.ones(3), dim=5), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 5)"),
    (lambda lib: lib.linalg.norm(lib.ones(2, 3), dim=(0, 0)), RuntimeError,
     "dim 0 appears multiple times in the list of dims"),
    (lambda lib: lib.linalg.vector_norm(lib.ones(2, 3), dtype=lib.int64), RuntimeError,
     "linalg.vector_norm: dtype should be floating point or complex, but got Long"),
    (lambda lib: lib.linalg.vector_norm(lib.zeros(0), ord=lib.inf), RuntimeError,
     "linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation does not have an "
     "identity"),
    (lambda lib: lib.linalg.vector_norm(3.0), TypeError,
     "linalg_vector_norm(): argument 'input' (position 1) must be Tensor, not float"),
])
def test_misuse_raises_pytorchs_errors(call: object, exc: type[Exception], message: str) -> None:
    raises(call, exc, message)


@pytest.mark.parametrize("ord", ["nuc", 2, -2])
def test_singular_value_norms_as_pytorch(ord: object) -> None:
    """The nuclear norm (sum of singular values) and the 2-norm (the largest; -2: the smallest), through svdvals."""
    def run(lib: ModuleType) -> str:
        a = lib.tensor([[1.0, -2.0, 0.5], [3.0, 4.0, -1.0]], requires_grad=True)
        n = lib.linalg.norm(a, ord)
        n.backward()
        return f"{n!r}\n{a.grad}"

    as_pytorch(run)
    assert round(tg.linalg.norm(tg.tensor([[3.0, 0.0], [0.0, -4.0]]), ord).item(), 6) == {"nuc": 7.0, 2: 4.0,
                                                                                         -2: 3.0}[ord]


def test_pi_and_friends_are_pythons_constants() -> None:
    as_pytorch(lambda lib: (lib.pi, lib.e, lib.inf, str(lib.nan)), (None, repr((math.pi, math.e, math.inf, "nan")), []))
