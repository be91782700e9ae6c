"""``tinygrad_edu.func`` (torch.func's twin): results, shapes, structures and errors as PyTorch 2.13's."""

from __future__ import annotations

import functools
import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, outcome, raises

import tinygrad_edu as tg


def x(lib: ModuleType) -> Any:
    return lib.tensor([1.0, 2.0, 3.0])


def sin2(v: Any) -> Any:
    return (v.sin() ** 2).sum()


@pytest.mark.parametrize("program", [
    lambda lib: lib.func.grad(sin2)(x(lib)),
    lambda lib: lib.func.grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x(lib), x(lib) * 2),
    lambda lib: lib.func.grad(lambda a: ((a**2).sum(), a.cos()), has_aux=True)(x(lib)),
    lambda lib: lib.func.grad(lambda a, b: (a * b).sum())(x(lib), x(lib) * 3),
    lambda lib: lib.func.grad(lambda a: lib.ones(()))(x(lib)),
    lambda lib: lib.func.grad(lambda a: a.sum())(lib.tensor([1.0, 2.0], requires_grad=True)),
    lambda lib: lib.func.grad(lib.func.grad(lambda a: a**4))(lib.tensor(2.0)),
    lambda lib: lib.func.grad_and_value(sin2)(x(lib)),
    lambda lib: lib.func.vjp(lambda a: a.exp(), x(lib))[1](lib.ones(3)),
    lambda lib: lib.func.vjp(lambda a: (a.exp(), a.sum()), x(lib))[1]((lib.ones(3), lib.tensor(2.0))),
    lambda lib: lib.func.jvp(lambda a: a.exp(), (x(lib),), (lib.ones(3),)),
    lambda lib: lib.func.jvp(lambda a, b: (a * b, a.sum()), (x(lib), x(lib)), (lib.ones(3), lib.zeros(3))),
    lambda lib: lib.func.jvp(lib.func.grad(sin2), (x(lib),), (lib.tensor([1.0, 0.0, 0.0]),)),
    lambda lib: lib.func.jacrev(lambda a: a.exp())(x(lib)),
    lambda lib: lib.func.jacfwd(lambda a: a.exp())(x(lib)),
    lambda lib: lib.func.jacrev(lambda a, b: a * b, argnums=(0, 1))(x(lib), x(lib)),
    lambda lib: lib.func.jacfwd(lambda a: (a.exp(), a.sum()))(x(lib)),
    lambda lib: lib.func.jacrev(lambda a: a.sum(0))(lib.ones(2, 2)),
    lambda lib: lib.func.jacfwd(lambda a: a @ a.t())(lib.tensor([[1.0, 2.0], [3.0, 4.0]])),
    lambda lib: lib.func.jacrev(lambda a: a.exp())(lib.ones(2, requires_grad=True)),
    lambda lib: lib.func.hessian(sin2)(x(lib)),
    lambda lib: lib.func.hessian(lambda a, b: (a * a * b).sum(), argnums=1)(x(lib), x(lib)),
    lambda lib: _without_torchs_fx_warning(lambda: lib.func.linearize(lambda a: a.exp(), x(lib))[1](lib.ones(3))),
    lambda lib: lib.func.vmap(lambda v: (v * v).sum())(lib.ones(4, 3)),
    lambda lib: lib.func.vmap(lib.func.grad(sin2))(lib.tensor([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]])),
    lambda lib: lib.func.vmap(lambda a, b: a + b, in_dims=(0, None))(lib.ones(4, 3), lib.ones(3)),
    lambda lib: lib.func.vmap(lambda a: a, in_dims=1)(lib.ones(4, 3)),
    lambda lib: lib.func.vmap(lambda a: a, out_dims=1)(lib.ones(4, 3)),
    lambda lib: lib.func.vmap(lambda a: a, in_dims=-1)(lib.ones(3, 2)),
    lambda lib: lib.func.vmap(lambda a, s: a * s, in_dims=(0, None))(lib.ones(3, 2), 2.0),
    lambda lib: lib.func.vmap(lambda a: a)(lib.ones(0, 2)),
    lambda lib: lib.func.vmap(lib.func.vmap(lambda a, b: a * b))(lib.ones(2, 3), lib.ones(2, 3) * 2),
    lambda lib: lib.func.vmap(lambda d: d["x"] * 2 + d["y"])({"x": lib.ones(3, 2), "y": lib.arange(3.0)[:, None]}),
    lambda lib: lib.func.vmap(lambda pair: pair[0] * pair[1])((lib.ones(2, 3), lib.arange(6.0).reshape(2, 3))),
], ids=lambda p: "")
def test_transforms_print_what_pytorch_prints(program: Any) -> None:
    _quiet_first_calls()
    as_pytorch(program)


def _without_torchs_fx_warning(fn: Any) -> Any:
    """PyTorch's linearize traces f with torch.fx, which warns of its own internals on every call."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Attempted to insert a get_attr Node")
        return fn()


@functools.cache
def _quiet_first_calls() -> None:
    """PyTorch's first jvp and linearize import modules that warn of their own deprecations: not the answer's."""
    torch = oracle()
    if torch is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.func.jvp(lambda a: a.exp(), (torch.ones(2),), (torch.ones(2),))
            torch.func.linearize(lambda a: a.exp(), torch.ones(2))[1](torch.ones(2))


def test_per_example_gradients_with_vmap_grad_and_functional_call() -> None:
    """The use a learner meets: one gradient per example of a model's loss, by vmap(grad(...))."""
    def per_example(lib: ModuleType) -> Any:
        lib.manual_seed(0)
        model = lib.nn.Linear(3, 1)
        params = {k: v.detach() for k, v in model.named_parameters()}
        xs, ys = lib.arange(12.0).reshape(4, 3) / 10, lib.tensor([[1.0], [0.0], [1.0], [0.0]])

        def loss(p: dict, x1: Any, y1: Any) -> Any:
            out = lib.func.functional_call(model, p, (x1.unsqueeze(0),))
            return lib.nn.functional.mse_loss(out, y1.unsqueeze(0))

        grads = lib.func.vmap(lib.func.grad(loss), in_dims=(None, 0, 0))(params, xs, ys)
        return {k: tuple(g.shape) for k, g in grads.items()}, grads["bias"]

    ours = per_example(tg)
    assert ours[0] == {"weight": (4, 1, 3), "bias": (4, 1)}
    # each example's gradient, by hand: d/db (w·x + b - y)^2 = 2 (w·x + b - y)
    tg.manual_seed(0)
    model = tg.nn.Linear(3, 1)
    xs, ys = tg.arange(12.0).reshape(4, 3) / 10, tg.tensor([[1.0], [0.0], [1.0], [0.0]])
    expected = 2 * (model(xs).detach() - ys)
    np.testing.assert_allclose(ours[1].numpy(), expected.numpy(), rtol=1e-6)


def test_functional_call_swaps_parameters_for_one_call_only() -> None:
    as_pytorch(lambda lib: lib.func.functional_call(lib.nn.Linear(3, 2), {"weight": lib.ones(2, 3),
                                                                          "bias": lib.zeros(2)}, (lib.ones(3),)))
    model = tg.nn.Linear(3, 2)
    before = model.weight
    tg.func.functional_call(model, {"weight": tg.ones(2, 3)}, (tg.ones(3),))
    assert model.weight is before
    raises(lambda lib: lib.func.functional_call(lib.nn.Linear(3, 2), {"nope": lib.ones(2, 3)}, (lib.ones(3),),
                                                strict=True),
           RuntimeError, "Error(s) in reparametrizing for Linear:\n\tUnexpected key(s): 'nope'.\n\tMissing key(s): "
                         "'bias', 'weight'.")


def test_errors_as_pytorch() -> None:
    raises(lambda lib: lib.func.grad(lambda a: a.sin())(x(lib)), RuntimeError,
           "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with 1 dims. Maybe you "
           "wanted to use the vjp or jacrev APIs instead?")
    raises(lambda lib: lib.func.grad(lambda a: (a**2).sum(), has_aux=True)(x(lib)), RuntimeError,
           "grad_and_value(f)(*args): output of function f should be a tuple: (output, aux) if has_aux is True")
    raises(lambda lib: lib.func.grad(sin2, argnums=2)(x(lib)), RuntimeError, "Got argnum=2, but only 1 positional "
                                                                             "inputs")
    raises(lambda lib: lib.func.grad(sin2, argnums=(0, 0))(x(lib)), RuntimeError,
           "argnums elements must be unique, got (0, 0)")
    raises(lambda lib: lib.func.grad(sin2, argnums=())(x(lib)), RuntimeError, "argnums must be non-empty")
    raises(lambda lib: lib.func.grad(lambda a: 3.0)(x(lib)), RuntimeError,
           "grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got <class 'float'>")
    raises(lambda lib: lib.func.grad(lambda a: a.sum())(lib.tensor([1, 2])), RuntimeError,
           "only Tensors of floating point dtype can require gradients")
    raises(lambda lib: lib.func.jvp(lambda a: a.exp(), x(lib), lib.ones(3)), RuntimeError,
           "jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    raises(lambda lib: lib.func.jvp(lambda a: a.exp(), (x(lib),), (lib.ones(3), lib.ones(3))), RuntimeError,
           "jvp(f, primals, tangents): Expected primals and tangents to have the same python structure. For "
           "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals with structure "
           "TreeSpec(tuple, None, [*]) and tangents with structure TreeSpec(tuple, None, [*,\n  *])")
    raises(lambda lib: lib.func.vmap(lambda a, b: a + b)(lib.ones(4, 3), lib.ones(5, 3)), ValueError,
           "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes [4, 5] for the "
           "mapped dimension")
    raises(lambda lib: lib.func.vmap(lambda a: a, in_dims=2)(lib.ones(4, 3)), ValueError,
           "vmap(<lambda>, in_dims=2, ...)(<inputs>): Got in_dim=2 for some input, but that input is a Tensor of "
           "dimensionality 2 so expected in_dim to satisfy -2 <= in_dim < 2.")
    raises(lambda lib: lib.func.vmap(lambda a: a)(3.0), ValueError,
           "vmap(<lambda>, in_dims=0, ...)(<inputs>): Got in_dim=0 for an input but the input is of type <class "
           "'float'>. We cannot vmap over non-Tensor arguments, please use None as the respective in_dim")
    raises(lambda lib: lib.func.vmap(lambda a: a, in_dims=None)(lib.ones(3)), ValueError,
           "vmap(<lambda>, in_dims=None, ...)(<inputs>): expected `in_dims` to be int or a (potentially nested) tuple "
           "matching the structure of inputs, got: <class 'NoneType'>.")
    raises(lambda lib: lib.func.vmap(lambda a: 3.0)(lib.ones(3)), ValueError,
           "vmap(<lambda>, ...): `<lambda>` must only return Tensors, got type <class 'float'>. Did you mean to set "
           "out_dims= to None for output?")
    raises(lambda lib: lib.func.vmap(lambda a, b: a, in_dims=(None, None))(lib.ones(3), lib.ones(2)), ValueError,
           "vmap: Expected at least one Tensor to vmap over")
    raises(lambda lib: lib.func.vmap(lambda a: (a, a.sum()), out_dims=(0, None))(lib.ones(3, 2)), ValueError,
           "vmap(<lambda>, ...): `<lambda>` can not return a BatchedTensor when out_dim is None")
    raises(lambda lib: lib.func.vmap(lambda a: a, in_dims=(0, 0))(lib.ones(3)), ValueError,
           "vmap(<lambda>, in_dims=(0, 0), ...)(<inputs>): in_dims is not compatible with the structure of `inputs`. "
           "in_dims has structure TreeSpec(tuple, None, [*,\n  *]) but inputs has structure TreeSpec(tuple, None, "
           "[*]).")
    raises(lambda lib: lib.func.vmap(lambda a: a, randomness="bad")(lib.ones(3, 2)), RuntimeError,
           "Only allowed values for randomness are 'error', 'different', or 'same'. Got bad")


def test_what_is_not_supported_is_refused_with_a_clear_message() -> None:
    with pytest.raises(NotImplementedError, match="forward mode has one level at a time"):  # (jvp inside jvp)
        tg.func.jvp(lambda a: tg.func.jvp(sin2, (a,), (a,))[1], (x(tg),), (x(tg),))
    with pytest.raises(NotImplementedError, match="one in_dim per argument"):
        tg.func.vmap(lambda p: p[0] * p[1], in_dims=((0, 1),))((tg.ones(2, 3), tg.ones(3, 2)))
    assert "loops" in tg.func.vmap.__doc__ and "once per example" in tg.func.vmap.__doc__


def test_jacfwd_of_jacfwd_gives_the_hessian_as_pytorch() -> None:
    """PyTorch's Jacobians tutorial takes a Hessian as jacfwd(jacfwd(f)); the inner jacfwd here runs by reverse mode
    (one forward level at a time), which is the same matrix."""
    def hessians(lib: ModuleType) -> Any:
        lib.manual_seed(0)
        weight, bias, v = (lib.randn(*shape, dtype=lib.float64) for shape in ((4, 4), (4,), (4,)))

        def predict(weight: Any, bias: Any, v: Any) -> Any:
            return lib.nn.functional.linear(v, weight, bias).tanh()

        fwdfwd = lib.func.jacfwd(lib.func.jacfwd(predict, argnums=2), argnums=2)(weight, bias, v)
        third = lib.func.jacfwd(lib.func.jacfwd(lib.func.jacfwd(lambda a: (a.sin() * a.exp()).sum())))(v)
        return (tuple(fwdfwd.shape), lib.allclose(fwdfwd, lib.func.hessian(predict, argnums=2)(weight, bias, v)),
                round(float(fwdfwd.sum()), 10), tuple(third.shape), round(float(third.sum()), 10))

    ours = outcome(hessians, tg)
    assert ours == (None, "((4, 4, 4), True, 0.7259593989, (4, 4, 4), -6.9441366956)", [])
    torch = oracle()
    if torch is not None:  # (torch.func's own machinery warns that torch.jit.script is deprecated: not compared)
        assert outcome(hessians, torch)[:2] == ours[:2]
