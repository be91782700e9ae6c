"""What the docstring examples of PyTorch's API pages reach for beyond the course's own lessons: scatter with
``reduce=``, einsum's sublist form, ``Tensor.unfold`` and ``torch.special``. Each against torch when installed
(``_oracle.as_pytorch``), with the expected text spelled out."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from _oracle import as_pytorch, oracle, outcome, raises

import tinygrad_edu as tg

SCATTER_WARNING = ("UserWarning: The reduce argument of tinygrad_edu.scatter with Tensor src is deprecated and will be "
                   "removed in a future PyTorch release. Use tinygrad_edu.scatter_reduce instead for more reduction "
                   "options.")


def test_scatter_with_reduce_as_its_docstring_shows() -> None:
    as_pytorch(lambda lib: (lib.full((2, 4), 2.0).scatter(1, lib.tensor([[2], [3]]), 1.23, reduce="multiply"),
                            lib.full((2, 4), 2.0).scatter(1, lib.tensor([[2], [3]]), 1.23, reduce="add")),
               (None, "(tensor([[2.0000, 2.0000, 2.4600, 2.0000],\n        [2.0000, 2.0000, 2.0000, 2.4600]]), "
                      "tensor([[2.0000, 2.0000, 3.2300, 2.0000],\n        [2.0000, 2.0000, 2.0000, 3.2300]]))", []))


def test_scatter_with_reduce_and_a_tensor_src_warns_once_and_has_no_derivative() -> None:
    def run(lib: ModuleType) -> Any:
        lib.set_warn_always(True)
        try:
            x = lib.full((2, 4), 2.0, requires_grad=True)
            out = x.scatter(1, lib.tensor([[0, 1, 2, 0]]), lib.arange(1.0, 11.0).reshape(2, 5), reduce="add")
        finally:
            lib.set_warn_always(False)
        return out, out.grad_fn.name()

    as_pytorch(run, (None, "(tensor([[7., 4., 5., 2.],\n        [2., 2., 2., 2.]], grad_fn=<NotImplemented>), "
                           "'tinygrad_edu::autograd::NotImplemented')", [SCATTER_WARNING]))
    raises(lambda lib: lib.full((2, 4), 2.0, requires_grad=True).scatter(1, lib.tensor([[2], [3]]), 1.0,
                                                                        reduce="multiply").sum().backward(),
           RuntimeError, "derivative for aten::scatter is not implemented")
    raises(lambda lib: lib.ones(2, 4).scatter(1, lib.tensor([[2], [3]]), 1.0, reduce="max"), RuntimeError,
           "reduce argument must be either add or multiply.")


def test_scatter__with_reduce_in_place() -> None:
    as_pytorch(lambda lib: lib.ones(2, 3).scatter_(1, lib.tensor([[0], [2]]), 3.0, reduce="multiply"),
               (None, "tensor([[3., 1., 1.],\n        [1., 1., 3.]])", []))


def test_einsum_sublist_form() -> None:
    def run(lib: ModuleType) -> Any:
        a, b = lib.arange(6.0).reshape(2, 3), lib.arange(12.0).reshape(3, 4)
        c, d = lib.arange(12.0).reshape(2, 2, 3), lib.arange(24.0).reshape(2, 3, 4)
        return (lib.einsum(a, [0, 1], b, [1, 2]), lib.einsum(c, [..., 0, 1], d, [..., 1, 2], [..., 0, 2]).shape,
                lib.einsum(lib.eye(3), [0, 0]), lib.einsum(a, [30, 1], [1]))

    as_pytorch(run, (None, "(tensor([[20., 23., 26., 29.],\n        [56., 68., 80., 92.]]), "
                           "tinygrad_edu.Size([2, 2, 4]), tensor(3.), tensor([3., 5., 7.]))", []))
    raises(lambda lib: lib.einsum(lib.ones(2, 2), [0, 60]), ValueError,
           "einsum(): subscript in subscript list is not within the valid range [0, 52)")


def test_unfold_windows_share_memory_and_sum_their_gradients() -> None:
    def run(lib: ModuleType) -> Any:
        y = lib.arange(12.0).view(3, 4).requires_grad_()
        z = y.unfold(1, 2, 1)
        z.sum().backward()
        node = z.grad_fn
        v = lib.zeros(6)
        v.unfold(0, 2, 2)[1, 0] = 5
        return (lib.arange(1.0, 8.0).unfold(0, 2, 2), z.shape, z.stride(), y.grad,
                (type(node).__name__, node._saved_dimension, node._saved_size, node._saved_step), v)

    as_pytorch(run, (None, "(tensor([[1., 2.],\n        [3., 4.],\n        [5., 6.]]), tinygrad_edu.Size([3, 3, 2]), "
                           "(4, 1, 1), tensor([[1., 2., 2., 1.],\n        [1., 2., 2., 1.],\n"
                           "        [1., 2., 2., 1.]]), ('UnfoldBackward0', 1, 2, 1), "
                           "tensor([0., 0., 5., 0., 0., 0.]))", []))
    raises(lambda lib: lib.arange(7.0).unfold(0, 9, 1), RuntimeError,
           "maximum size for tensor at dimension 0 is 7 but size is 9")
    raises(lambda lib: lib.arange(7.0).unfold(0, 2, 0), RuntimeError, "step is 0 but must be > 0")


SPECIAL = {
    "entr and its gradient": (lambda lib: (lambda x: (lib.special.entr(x), lib.autograd.grad(
        lib.special.entr(x).sum(), x)[0]))(lib.tensor([0.0, 0.5, -1.0, 2.0], requires_grad=True)),
        "(tensor([ 0.0000,  0.3466,    -inf, -1.3863], grad_fn=<SpecialEntrBackward0>), "
        "tensor([    inf, -0.3069,     nan, -1.6931]))"),
    "ndtr and its gradient (the normal density)": (lambda lib: (lambda y: (lib.special.ndtr(y), lib.autograd.grad(
        lib.special.ndtr(y).sum(), y)[0]))(lib.tensor([0.0, 1.0, -0.3], requires_grad=True)),
        "(tensor([0.5000, 0.8413, 0.3821], grad_fn=<MulBackward1>), tensor([0.3989, 0.2420, 0.3814]))"),
    "xlog1py": (lambda lib: (lambda a, b: (lib.special.xlog1py(a, b), lib.autograd.grad(
        lib.special.xlog1py(a, b).sum(), (a, b))))(lib.tensor([0.0, 2.0, 1.0], requires_grad=True),
                                                   lib.tensor([-1.0, 0.5, 3.0], requires_grad=True)),
        "(tensor([0.0000, 0.8109, 1.3863], grad_fn=<SpecialXlog1PyBackward0>), (tensor([0.0000, 0.4055, 1.3863]), "
        "tensor([   nan, 1.3333, 0.2500])))"),
    "the other names": (lambda lib: (lib.special.expit(lib.tensor([0.0, 1.0])), lib.special.gammaln(lib.tensor([3.0])),
                                     lib.special.psi(lib.tensor([1.0])), lib.special.logit(lib.tensor([0.25])),
                                     lib.special.logsumexp(lib.tensor([[1.0, 2.0]]), 1)),
                        "(tensor([0.5000, 0.7311]), tensor([0.6931]), tensor([-0.5772]), tensor([-1.0986]), "
                        "tensor([2.3133]))"),
}


@pytest.mark.parametrize("name", SPECIAL)
def test_torch_special(name: str) -> None:
    fn, expected = SPECIAL[name]
    as_pytorch(fn, (None, expected, []))


def test_special_gradients_check() -> None:
    x = tg.tensor([0.3, 0.5, 2.0], dtype=tg.float64, requires_grad=True)
    y = tg.tensor([0.2, -0.5, 3.0], dtype=tg.float64, requires_grad=True)
    assert tg.autograd.gradcheck(tg.special.entr, (x,)) and tg.autograd.gradgradcheck(tg.special.xlog1py, (x, y))
    assert tg.autograd.gradcheck(tg.special.ndtr, (y,))


MULTINOMIAL_REFUSALS = [
    ([1.0, -1.0], True, 2, "invalid multinomial distribution (encountering probability entry < 0)"),
    ([1.0, float("nan")], True, 2, "invalid multinomial distribution (encountering probability entry < 0)"),
    ([1.0, float("inf")], True, 2,
     "invalid multinomial distribution (encountering probability entry = infinity or NaN)"),
    ([1.0, -1.0], False, 1, "probability tensor contains either `inf`, `nan` or element < 0"),
    ([0.0, 0.0], True, 2, "invalid multinomial distribution (sum of probabilities <= 0)"),
]


@pytest.mark.parametrize("weights, replacement, n, message", MULTINOMIAL_REFUSALS)
def test_multinomial_and_the_weighted_sampler_refuse_in_pytorchs_words(weights: list, replacement: bool, n: int,
                                                                        message: str) -> None:
    """The two recipes (with replacement: a cumulative search; without: the exponential race) check the weights in
    their own words, and WeightedRandomSampler, which calls multinomial, says what it says."""
    raises(lambda lib: lib.multinomial(lib.tensor(weights, dtype=lib.float64), n, replacement), RuntimeError, message)
    raises(lambda lib: list(lib.utils.data.WeightedRandomSampler(weights, n, replacement)), RuntimeError, message)


# -- PyTorch's intermediate autograd tutorials: forward-mode gradcheck, dicts in torch.func, ensembles ---------------
def test_gradcheck_checks_forward_mode_alone() -> None:
    """``check_forward_ad=True, check_backward_ad=False``: a Function with only a jvp is checked by its J·t columns
    (the forward-mode tutorial), and a wrong jvp is caught with PyTorch's message."""

    def check(lib: ModuleType, factor: float) -> Any:
        class Exp(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.result = x.exp()
                return ctx.result

            @staticmethod
            def jvp(ctx: Any, g: Any) -> Any:
                return g * ctx.result * factor

        x = lib.tensor([0.5, 1.0], dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(Exp.apply, (x,), check_forward_ad=True, check_backward_ad=False,
                                      check_undefined_grad=False, check_batched_grad=False)

    expected = {1.0: (None, "True", []), 2.0: (
        "GradcheckError", "Jacobian computed with forward mode mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[1.6487, 0.0000],\n        [0.0000, 2.7183]], dtype=tinygrad_edu.float64)\n"
        "analytical:tensor([[3.2974, 0.0000],\n        [0.0000, 5.4366]], dtype=tinygrad_edu.float64)\n", [])}
    for factor, result in expected.items():
        assert outcome(lambda lib: check(lib, factor), tg) == result  # noqa: B023  (called at once)
        torch = oracle()
        if torch is not None:  # (PyTorch's forward-mode gradcheck warns about its own torch.jit use: not compared)
            assert outcome(lambda lib: check(lib, factor), torch)[:2] == result[:2]  # noqa: B023
    x = tg.tensor([0.5, 1.0], dtype=tg.float64, requires_grad=True)
    assert tg.autograd.gradcheck(lambda a: (a.sin() * a, a.exp()), (x,), check_forward_ad=True)


def test_func_transforms_take_dicts_of_tensors() -> None:
    """A model's parameters as a dict, as the tutorials pass them: jacrev, vjp and jvp give dicts back."""

    def run(lib: ModuleType) -> Any:
        p = {"w": lib.tensor([1.0, 2.0]), "b": lib.tensor(3.0)}

        def f(p: dict) -> Any:
            return (p["w"] * p["w"]).sum() * p["b"]

        _, vjp_fn = lib.func.vjp(f, p)
        return (lib.func.jacrev(f)(p), vjp_fn(lib.tensor(1.0)),
                lib.func.jvp(f, (p,), ({"w": lib.ones(2), "b": lib.tensor(1.0)},)),
                lib.func.jacrev(lambda p, x: p["w"] * x + p["b"], argnums=(0, 1))(p, lib.tensor([1.0, -1.0])))

    as_pytorch(run, (None, "({'w': tensor([ 6., 12.]), 'b': tensor(5.)}, "
                           "({'w': tensor([ 6., 12.]), 'b': tensor(5.)},), (tensor(15.), tensor(23.)), "
                           "({'w': tensor([[ 1., -0.],\n        [ 0., -1.]]), "
                           "'b': tensor([1., 1.])}, tensor([[1., 0.],\n        [0., 2.]])))", []))


def test_stack_module_state_and_vmap_run_an_ensemble() -> None:
    def run(lib: ModuleType) -> Any:
        lib.manual_seed(0)
        models = [lib.nn.Linear(3, 2) for _ in range(3)]
        params, buffers = lib.func.stack_module_state(models)
        x = lib.randn(4, 3)
        out = lib.vmap(lambda p, b, x: lib.func.functional_call(models[0], (p, b), (x,)), (0, 0, None))(
            params, buffers, x)
        return ({k: (tuple(v.shape), v.requires_grad, v.is_leaf) for k, v in params.items()}, buffers,
                tuple(out.shape), lib.allclose(out[1], models[1](x)), lib.vmap is lib.func.vmap)

    as_pytorch(run, (None, "({'weight': ((3, 2, 3), True, True), 'bias': ((3, 2), True, True)}, {}, (3, 4, 2), "
                           "True, True)", []))
    raises(lambda lib: lib.func.stack_module_state([]), RuntimeError,
           "stack_module_state: Expected at least one model, got 0.")
    raises(lambda lib: lib.func.stack_module_state([lib.nn.Linear(1, 1), lib.nn.Linear(1, 1).eval()]), RuntimeError,
           "stack_module_state: Expected all models to have the same training/eval mode.")


def test_addmv_and_its_gradients() -> None:
    def run(lib: ModuleType) -> Any:
        m = lib.tensor([1.0, 2.0], requires_grad=True)
        a = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        v = lib.tensor([1.0, 0.0, -1.0], requires_grad=True)
        y = lib.addmv(m, a, v, beta=0.5, alpha=2)
        y.sum().backward()
        return y, m.grad, a.grad, v.grad, m.detach().addmv(a.detach(), v.detach())

    as_pytorch(run, (None, "(tensor([-3.5000, -3.0000], grad_fn=<AddmvBackward0>), tensor([0.5000, 0.5000]), "
                           "tensor([[ 2.,  0., -2.],\n        [ 2.,  0., -2.]]), tensor([10., 14., 18.]), "
                           "tensor([-1.,  0.]))", []))
    raises(lambda lib: lib.addmv(lib.ones(2), lib.ones(2, 3), lib.ones(2)), RuntimeError,
           "size mismatch, got input (2), mat (2x3), vec (2)")
    b = tg.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.0]], dtype=tg.float64, requires_grad=True)
    assert tg.autograd.gradcheck(lambda i, m, v: tg.addmv(i, m, v, beta=0.3, alpha=-2),
                                 (tg.ones(3, dtype=tg.float64, requires_grad=True), b,
                                  tg.tensor([2.0, 1.0], dtype=tg.float64, requires_grad=True)))


def test_factories_write_into_out() -> None:
    """``torch.rand(2, 2, out=c)`` (PyTorch's tensors tutorial): drawn in c's dtype, c resized, in place for views."""

    def run(lib: ModuleType) -> Any:
        lib.manual_seed(0)
        c = lib.zeros(3, dtype=lib.float64)
        e = lib.empty(2, 2)
        row = e[0]
        lib.ones(2, 2, out=e)
        return (lib.rand(2, 2, out=c), c.dtype, lib.arange(3, out=lib.empty(0, dtype=lib.long)),
                lib.randint(0, 5, (3,), out=lib.empty(3, dtype=lib.long)), row, e._version)

    as_pytorch(run, (None, "(tensor([[0.9701, 0.7078],\n        [0.4594, 0.9207]], dtype=tinygrad_edu.float64), "
                           "tinygrad_edu.float64, tensor([0, 1, 2]), tensor([2, 3, 1]), tensor([1., 1.]), 1)", []))
    raises(lambda lib: lib.rand(2, out=lib.empty(2), dtype=lib.float64), RuntimeError,
           "dtype Double does not match dtype of out parameter (Float)")
    raises(lambda lib: lib.rand(2, out=lib.empty(2, requires_grad=True)), RuntimeError,
           "aten::rand(): functions with out=... arguments don't support automatic differentiation, but one of the "
           "arguments requires grad.")


def test_one_hot_of_an_empty_tensor() -> None:
    """Without num_classes there is no largest index to count from (makemore's pitfalls): PyTorch refuses."""
    raises(lambda lib: lib.nn.functional.one_hot(lib.tensor([], dtype=lib.long)), RuntimeError,
           "Can not infer total number of classes from empty tensor.")
    as_pytorch(lambda lib: lib.nn.functional.one_hot(lib.tensor([], dtype=lib.long), 3),
               (None, "tensor([], size=(0, 3), dtype=tinygrad_edu.int64)", []))


def test_dtype_arithmetic() -> None:
    """result_type, promote_types and can_cast: PyTorch's promotion rules asked directly (its math docstrings)."""
    as_pytorch(lambda lib: (lib.result_type(lib.tensor([1, 2], dtype=lib.uint8), 1.0),
                            lib.result_type(lib.tensor([1, 2], dtype=lib.uint8), lib.tensor(1)),
                            lib.result_type(2, 3.5),
                            lib.promote_types(lib.int32, lib.float32), lib.promote_types(lib.uint8, lib.int8),
                            lib.can_cast(lib.double, lib.float), lib.can_cast(lib.float, lib.int),
                            lib.can_cast(lib.int, lib.bool)),
               (None, "(tinygrad_edu.float32, tinygrad_edu.uint8, tinygrad_edu.float32, tinygrad_edu.float32, "
                      "tinygrad_edu.int16, True, False, False)", []))
    raises(lambda lib: lib.promote_types(lib.float32, 3), TypeError,
           "promote_types(): argument 'type2' (position 2) must be tinygrad_edu.dtype, not int")
