"""Every built-in operation, proved without PyTorch: values, derivatives, broadcasting, dtypes, node names.

The table ``OPS`` reads like PyTorch's ``derivatives.yaml``: one row per operation, giving the operation, the
same computation in numpy (the reference for the values), the input shapes, the node it records, and where
its inputs must lie. Each row is then checked four ways:

* values against numpy, on small float64 inputs;
* first derivatives with ``gradcheck`` (autograd's Jacobian against central finite differences);
* second derivatives with ``gradgradcheck`` (the same check applied to the backward pass itself);
* the name of the node it records (``grad_fn.name()``).

Further sections: broadcasting for every binary op, dtype results, indexing with repeated indices, matmul's
shapes, in-place operations, iteration, comparisons. Inputs are seeded; shapes are tiny, to stay fast.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import tinygrad_edu as tg
from tinygrad_edu.autograd import gradcheck, gradgradcheck


def sample(seed: int, shape: tuple[int, ...], domain: str = "real") -> np.ndarray:
    """Seeded float64 numbers, kept away from where the op is not differentiable (or not defined)."""
    x = np.random.default_rng(seed).standard_normal(shape)
    if domain == "positive":  # log, sqrt, a tensor base of pow
        return np.abs(x) + 0.5
    if domain == "nonzero":  # the kinks of abs, relu, clamp (at 0 and +-0.5) and the pole of division
        x = np.sign(x) * (np.abs(x) + 0.2)
        return np.where(np.abs(np.abs(x) - 0.5) < 0.05, x * 1.2, x)
    return x


def leaves(op: Op, seed: int) -> list[tg.Tensor]:
    return [tg.tensor(sample(seed + i, shape, op.domain), requires_grad=True) for i, shape in enumerate(op.shapes)]


def softmax(a: np.ndarray, dim: int) -> np.ndarray:
    e = np.exp(a - a.max(dim, keepdims=True))
    return e / e.sum(dim, keepdims=True)


def log_softmax(a: np.ndarray, dim: int) -> np.ndarray:
    return np.log(softmax(a, dim))


@dataclass(frozen=True)
class Op:
    """``fn(*tensors)``, its numpy twin ``ref(*arrays)``, input ``shapes``, the ``node`` it records."""

    fn: Callable[..., Any]
    ref: Callable[..., Any]
    shapes: tuple[tuple[int, ...], ...]
    node: str
    domain: str = "real"
    twice: bool = True  # twice differentiable where sampled: check second derivatives too


M, V = (2, 3), (3,)
OPS: dict[str, Op] = {
    # name               op                                  numpy                               shapes  node
    "add": Op(lambda x, y: x + y, np.add, (M, M), "AddBackward0"),
    "add alpha": Op(lambda x, y: x.add(y, alpha=2.5), lambda x, y: x + 2.5 * y, (M, V), "AddBackward0"),
    "sub": Op(lambda x, y: x - y, np.subtract, (M, M), "SubBackward0"),
    "rsub": Op(lambda x: 1.5 - x, lambda x: 1.5 - x, (M,), "RsubBackward1"),
    "mul": Op(lambda x, y: x * y, np.multiply, (M, M), "MulBackward0"),
    "mul self": Op(lambda x: x * x, np.square, (M,), "MulBackward0"),
    "div": Op(lambda x, y: x / y, np.divide, (M, M), "DivBackward0", "nonzero"),
    "rdiv": Op(lambda x: 2 / x, lambda x: 2 / x, (M,), "MulBackward0", "nonzero"),
    "neg": Op(lambda x: -x, np.negative, (M,), "NegBackward0"),
    "reciprocal": Op(lambda x: x.reciprocal(), np.reciprocal, (M,), "ReciprocalBackward0", "nonzero"),
    "pow 3": Op(lambda x: x ** 3, lambda x: x ** 3, (M,), "PowBackward0"),
    "pow 0.5": Op(lambda x: x ** 0.5, np.sqrt, (M,), "PowBackward0", "positive"),
    "pow -2": Op(lambda x: x.pow(-2), lambda x: x ** -2.0, (M,), "PowBackward0", "nonzero"),
    "pow 0": Op(lambda x: x ** 0, np.ones_like, (M,), "PowBackward0"),
    "pow 1": Op(lambda x: x ** 1, lambda x: x, (M,), "PowBackward0"),
    "square": Op(lambda x: x.square(), np.square, (M,), "PowBackward0"),
    "pow tensor": Op(lambda x, y: x ** y, np.power, (M, M), "PowBackward1", "positive"),
    "rpow": Op(lambda x: 2 ** x, lambda x: 2.0 ** x, (M,), "PowBackward2"),
    "rpow float": Op(lambda x: 0.5 ** x, lambda x: 0.5 ** x, (M,), "PowBackward2"),
    "exp": Op(lambda x: x.exp(), np.exp, (M,), "ExpBackward0"),
    "log": Op(lambda x: x.log(), np.log, (M,), "LogBackward0", "positive"),
    "sqrt": Op(lambda x: x.sqrt(), np.sqrt, (M,), "SqrtBackward0", "positive"),
    "abs": Op(lambda x: x.abs(), np.abs, (M,), "AbsBackward0", "nonzero"),
    "sin": Op(lambda x: x.sin(), np.sin, (M,), "SinBackward0"),
    "cos": Op(lambda x: x.cos(), np.cos, (M,), "CosBackward0"),
    "tanh": Op(lambda x: x.tanh(), np.tanh, (M,), "TanhBackward0"),
    "sigmoid": Op(lambda x: x.sigmoid(), lambda x: 1 / (1 + np.exp(-x)), (M,), "SigmoidBackward0"),
    "relu": Op(lambda x: x.relu(), lambda x: np.maximum(x, 0), (M,), "ReluBackward0", "nonzero"),
    "clamp": Op(lambda x: x.clamp(-0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5), (M,), "ClampBackward1", "nonzero"),
    "clamp min": Op(lambda x: x.clamp(min=0.5), lambda x: np.maximum(x, 0.5), (M,), "ClampBackward1", "nonzero"),
    "clamp max": Op(lambda x: tg.clamp(x, max=-0.5), lambda x: np.minimum(x, -0.5), (M,), "ClampBackward1",
                    "nonzero"),
    "maximum": Op(lambda x, y: tg.maximum(x, y), np.maximum, (M, M), "MaximumBackward0"),
    "minimum": Op(lambda x, y: tg.minimum(x, y), np.minimum, (M, M), "MinimumBackward0"),
    "remainder": Op(lambda x: x % 0.7, lambda x: np.remainder(x, 0.7), (M,), "RemainderBackward0"),
    "remainder negative": Op(lambda x: tg.remainder(x, -0.7), lambda x: np.remainder(x, -0.7), (M,),
                             "RemainderBackward0"),
    "remainder tensor": Op(lambda x, y: x % y, np.remainder, (M, V), "RemainderBackward1", "nonzero"),
    # reductions
    "sum": Op(lambda x: x.sum(), np.sum, (M,), "SumBackward0"),
    "sum dim": Op(lambda x: x.sum(1), lambda x: x.sum(1), (M,), "SumBackward1"),
    "sum dims keepdim": Op(lambda x: x.sum((0, 2), keepdim=True), lambda x: x.sum((0, 2), keepdims=True),
                           ((2, 3, 2),), "SumBackward1"),
    "mean": Op(lambda x: x.mean(), np.mean, (M,), "MeanBackward0"),
    "mean dim": Op(lambda x: x.mean(-1), lambda x: x.mean(-1), (M,), "MeanBackward1"),
    "mean dims keepdim": Op(lambda x: tg.mean(x, (0, 1), keepdim=True), lambda x: x.mean((0, 1), keepdims=True),
                            ((2, 3, 2),), "MeanBackward1"),
    "max": Op(lambda x: x.max(), np.max, (M,), "MaxBackward1"),
    "max dim": Op(lambda x: x.max(1)[0], lambda x: x.max(1), (M,), "MaxBackward0"),
    "max dim keepdim": Op(lambda x: x.max(0, keepdim=True).values, lambda x: x.max(0, keepdims=True), (M,),
                          "MaxBackward0"),
    "min": Op(lambda x: x.min(), np.min, (M,), "MinBackward1"),
    "min dim": Op(lambda x: tg.min(x, -1).values, lambda x: x.min(-1), (M,), "MinBackward0"),
    "softmax": Op(lambda x: x.softmax(1), lambda x: softmax(x, 1), (M,), "SoftmaxBackward0"),
    "softmax dim 0": Op(lambda x: tg.softmax(x, 0), lambda x: softmax(x, 0), ((2, 3, 2),), "SoftmaxBackward0"),
    "log_softmax": Op(lambda x: x.log_softmax(-1), lambda x: log_softmax(x, -1), (M,), "LogSoftmaxBackward0"),
    "var": Op(lambda x: x.var(), lambda x: x.var(ddof=1), (M,), "VarBackward0"),
    "var dim correction 0": Op(lambda x: x.var(1, correction=0), lambda x: x.var(1), (M,), "VarBackward0"),
    "var dims keepdim": Op(lambda x: tg.var(x, (0, 2), keepdim=True), lambda x: x.var((0, 2), ddof=1, keepdims=True),
                           ((2, 3, 2),), "VarBackward0"),
    "std": Op(lambda x: x.std(), lambda x: x.std(ddof=1), (M,), "StdBackward0"),
    "std biased": Op(lambda x: x.std(unbiased=False), np.std, (M,), "StdBackward0"),
    "std dim": Op(lambda x: tg.std(x, -1), lambda x: x.std(-1, ddof=1), (M,), "StdBackward0"),
    "std dim keepdim": Op(lambda x: x.std(0, True, True), lambda x: x.std(0, ddof=1, keepdims=True), ((3, 2),),
                          "StdBackward0"),
    "prod": Op(lambda x: x.prod(), np.prod, (M,), "ProdBackward0"),
    "prod dim": Op(lambda x: x.prod(1), lambda x: x.prod(1), (M,), "ProdBackward1"),
    "prod dim keepdim": Op(lambda x: tg.prod(x, 0, keepdim=True), lambda x: x.prod(0, keepdims=True), (M,),
                           "ProdBackward1"),
    "prod with a zero": Op(lambda x: (x * tg.tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]], dtype=tg.float64)).prod(),
                           lambda x: 0.0 * x.sum(), (M,), "ProdBackward0"),
    "prod dim with zeros": Op(lambda x: (x * tg.tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 1.0]], dtype=tg.float64)).prod(1),
                              lambda x: np.zeros(2), (M,), "ProdBackward1"),
    "cumsum": Op(lambda x: x.cumsum(0), lambda x: x.cumsum(0), (V,), "CumsumBackward0"),
    "cumsum dim -1": Op(lambda x: tg.cumsum(x, -1), lambda x: x.cumsum(-1), (M,), "CumsumBackward0"),
    "sort": Op(lambda x: x.sort().values, lambda x: np.sort(x, -1), (M,), "SortBackward0"),
    "sort dim 0 descending": Op(lambda x: tg.sort(x, 0, descending=True)[0], lambda x: -np.sort(-x, 0), (M,),
                                "SortBackward0"),
    "topk": Op(lambda x: x.topk(2).values, lambda x: -np.sort(-x, -1)[:, :2], (M,), "TopkBackward0"),
    "topk smallest dim 0": Op(lambda x: tg.topk(x, 1, 0, largest=False)[0], lambda x: x.min(0, keepdims=True), (M,),
                              "TopkBackward0"),
    # linear algebra
    "mm": Op(lambda x, y: x.mm(y), np.matmul, (M, (3, 2)), "MmBackward0"),
    "mv": Op(lambda x, y: tg.mv(x, y), np.matmul, (M, V), "MvBackward0"),
    "dot": Op(lambda x, y: tg.dot(x, y), np.dot, (V, V), "DotBackward0"),
    "bmm": Op(lambda x, y: tg.bmm(x, y), np.matmul, ((2, 2, 3), (2, 3, 2)), "BmmBackward0"),
    "matmul 1-D @ 1-D": Op(lambda x, y: x @ y, np.matmul, (V, V), "DotBackward0"),
    "matmul 2-D @ 1-D": Op(lambda x, y: x @ y, np.matmul, (M, V), "MvBackward0"),
    "matmul 1-D @ 2-D": Op(lambda x, y: x @ y, np.matmul, ((2,), M), "SqueezeBackward4"),
    "matmul 2-D @ 2-D": Op(lambda x, y: x @ y, np.matmul, (M, (3, 2)), "MmBackward0"),
    "matmul 3-D @ 2-D": Op(lambda x, y: x @ y, np.matmul, ((2, 2, 3), (3, 2)), "UnsafeViewBackward0"),
    "matmul 3-D @ 1-D": Op(lambda x, y: x @ y, np.matmul, ((2, 2, 3), V), "UnsafeViewBackward0"),
    "matmul 2-D @ 3-D": Op(lambda x, y: x @ y, np.matmul, ((2, 3), (2, 3, 2)), "CloneBackward0"),
    "matmul 1-D @ 3-D": Op(lambda x, y: x @ y, np.matmul, (V, (2, 3, 2)), "UnsafeViewBackward0"),
    "matmul 3-D @ 3-D": Op(lambda x, y: tg.matmul(x, y), np.matmul, ((2, 2, 3), (2, 3, 2)), "UnsafeViewBackward0"),
    "matmul batch broadcast": Op(lambda x, y: x @ y, np.matmul, ((2, 1, 2, 3), (3, 3, 2)), "UnsafeViewBackward0"),
    # shapes
    "t": Op(lambda x: x.t(), np.transpose, (M,), "TBackward0"),
    "transpose": Op(lambda x: x.transpose(0, 2), lambda x: x.swapaxes(0, 2), ((2, 3, 2),), "TransposeBackward0"),
    "mT": Op(lambda x: x.mT, lambda x: x.swapaxes(-1, -2), ((2, 3, 2),), "TransposeBackward0"),
    "permute": Op(lambda x: x.permute(2, 0, 1), lambda x: x.transpose(2, 0, 1), ((2, 3, 2),), "PermuteBackward0"),
    "reshape": Op(lambda x: x.reshape(3, 2), lambda x: x.reshape(3, 2), (M,), "ViewBackward0"),
    "reshape of transposed": Op(lambda x: x.t().reshape(6), lambda x: x.T.reshape(6), (M,), "UnsafeViewBackward0"),
    "reshape alias": Op(lambda x: x.t().reshape(3, 2, 1), lambda x: x.T.reshape(3, 2, 1), (M,),
                        "ReshapeAliasBackward0"),
    "view": Op(lambda x: x.view(-1), lambda x: x.reshape(-1), (M,), "ViewBackward0"),
    "flatten": Op(lambda x: x.flatten(), lambda x: x.reshape(-1), ((2, 3, 2),), "ViewBackward0"),
    "unsqueeze": Op(lambda x: x.unsqueeze(1), lambda x: x[:, None], (M,), "UnsqueezeBackward0"),
    "squeeze": Op(lambda x: x.squeeze(), np.squeeze, ((1, 3, 1),), "SqueezeBackward0"),
    "squeeze dim": Op(lambda x: x.squeeze(0), lambda x: x[0], ((1, 3, 1),), "SqueezeBackward1"),
    "expand": Op(lambda x: x.expand(2, 3, 4), lambda x: np.broadcast_to(x, (2, 3, 4)), ((3, 1),), "ExpandBackward0"),
    "cat": Op(lambda x, y: tg.cat([x, y, x]), lambda x, y: np.concatenate([x, y, x]), (M, (1, 3)), "CatBackward0"),
    "cat dim 1": Op(lambda x, y: tg.cat((x, y), 1), lambda x, y: np.concatenate([x, y], 1), (M, (2, 1)),
                    "CatBackward0"),
    "stack": Op(lambda x, y: tg.stack([x, y]), lambda x, y: np.stack([x, y]), (M, M), "StackBackward0"),
    "stack dim -1": Op(lambda x, y: tg.stack([x, y], -1), lambda x, y: np.stack([x, y], -1), (M, M),
                       "StackBackward0"),
    "unbind": Op(lambda x: x.unbind(1)[1], lambda x: x[:, 1], (M,), "UnbindBackward0"),
    "where": Op(lambda x, y: tg.where(x > y, x, y), lambda x, y: np.where(x > y, x, y), (M, M), "WhereBackward0"),
    "clone": Op(lambda x: x.clone(), np.copy, (M,), "CloneBackward0"),
    # indexing
    "select": Op(lambda x: x[1], lambda x: x[1], (M,), "SelectBackward0"),
    "select 1-D": Op(lambda x: x[-1], lambda x: x[-1], (V,), "SelectBackward0"),
    "select dim 1": Op(lambda x: x[:, 2], lambda x: x[:, 2], (M,), "SelectBackward0"),
    "slice": Op(lambda x: x[:, 1:], lambda x: x[:, 1:], (M,), "SliceBackward0"),
    "slice step": Op(lambda x: x[::2], lambda x: x[::2], ((5,),), "SliceBackward0"),
    "narrow": Op(lambda x: x.narrow(1, 0, 2), lambda x: x[:, 0:2], (M,), "SliceBackward0"),
    "index list": Op(lambda x: x[[0, 2, 0]], lambda x: x[[0, 2, 0]], ((3, 2),), "IndexBackward0"),
    "index tensor": Op(lambda x: x[tg.tensor([1, 1])], lambda x: x[[1, 1]], (M,), "IndexBackward0"),
    "index two arrays": Op(lambda x: x[[0, 1, 1], [2, 0, 2]], lambda x: x[[0, 1, 1], [2, 0, 2]], (M,),
                           "IndexBackward0"),
    "index mask": Op(lambda x: x[x > 0], lambda x: x[x > 0], (M,), "IndexBackward0"),
    "python sum": Op(lambda x: sum(x), lambda x: x.sum(0), ((3, 2),), "AddBackward0"),
}


# ------------------------------------------------------------------------------------------------ the table
@pytest.mark.parametrize("name", list(OPS))
def test_values(name: str) -> None:
    op = OPS[name]
    xs = leaves(op, seed=list(OPS).index(name))
    out = op.fn(*xs)
    expected = np.asarray(op.ref(*[x.detach().numpy() for x in xs]))
    assert out.shape == expected.shape
    assert out.dtype == tg.float64
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", list(OPS))
def test_node_name(name: str) -> None:
    op = OPS[name]
    out = op.fn(*leaves(op, seed=list(OPS).index(name)))
    assert out.grad_fn.name() == op.node
    assert repr(out).endswith(f"grad_fn=<{op.node}>)")


@pytest.mark.parametrize("name", list(OPS))
def test_first_derivatives(name: str) -> None:
    op = OPS[name]
    assert gradcheck(op.fn, leaves(op, seed=list(OPS).index(name)))


@pytest.mark.parametrize("name", [n for n, op in OPS.items() if op.twice])
def test_second_derivatives(name: str) -> None:
    op = OPS[name]
    tg.manual_seed(0)  # gradgradcheck draws a random incoming gradient
    assert gradgradcheck(op.fn, leaves(op, seed=list(OPS).index(name)))


def test_gradcheck_catches_a_wrong_derivative() -> None:
    """The checker itself: a backward that is off by a factor must fail."""

    class WrongExp(tg.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: tg.Tensor) -> tg.Tensor:
            result = x.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx: Any, g: tg.Tensor) -> tg.Tensor:
            (result,) = ctx.saved_tensors
            return 1.01 * g * result

    x = tg.tensor(sample(0, (3,)), requires_grad=True)
    assert not gradcheck(WrongExp.apply, (x,), raise_exception=False)


# ------------------------------------------------------------------------------------------------ derivatives
def test_known_derivatives() -> None:
    """A few gradients written out by hand (d/dx of the row's formula at the sampled point)."""
    a = sample(1, (4,), "positive")
    cases = [
        (lambda x: x ** 3, 3 * a ** 2), (lambda x: 2 ** x, np.log(2) * 2 ** a), (lambda x: x.log(), 1 / a),
        (lambda x: x.sqrt(), 0.5 / np.sqrt(a)), (lambda x: x.tanh(), 1 - np.tanh(a) ** 2),
        (lambda x: x.sigmoid(), np.exp(-a) / (1 + np.exp(-a)) ** 2), (lambda x: 1 / x, -1 / a ** 2),
        (lambda x: x.sin(), np.cos(a)), (lambda x: x.cos(), -np.sin(a)), (lambda x: x.exp(), np.exp(a)),
    ]
    for fn, expected in cases:
        x = tg.tensor(a, requires_grad=True)
        fn(x).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-12)


def test_max_ties_share_the_gradient() -> None:
    """max over all elements: tied maxima split the gradient evenly; max along a dim picks one index."""
    x = tg.tensor([[1.0, 3.0, 3.0], [3.0, 0.0, 2.0]], dtype=tg.float64, requires_grad=True)
    x.max().backward()
    assert x.grad.tolist() == [[0.0, 1 / 3, 1 / 3], [1 / 3, 0.0, 0.0]]
    x.grad = None
    values, indices = x.max(1)
    assert values.tolist() == [3.0, 3.0] and indices.tolist() == [1, 0] and indices.dtype == tg.int64
    assert not indices.requires_grad
    values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]


def test_maximum_ties_share_the_gradient() -> None:
    x, y = tg.tensor([1.0, 2.0], requires_grad=True), tg.tensor([1.0, 3.0], requires_grad=True)
    tg.maximum(x, y).sum().backward()
    assert x.grad.tolist() == [0.5, 0.0] and y.grad.tolist() == [0.5, 1.0]


def test_kinks_take_pytorch_values() -> None:
    """At the points where they are not differentiable, abs and relu have gradient 0; clamp passes g at its
    bounds; 0 ** y has a zero gradient in y."""
    x = tg.tensor([0.0, 0.0, -0.5, 0.5, 2.0], requires_grad=True)
    (x.abs() + x.relu() + x.clamp(-0.5, 0.5)).sum().backward()
    # abs: 0, 0, -1, 1, 1   relu: 0, 0, 0, 1, 1   clamp (bounds included): 1, 1, 1, 1, 0
    assert x.grad.tolist() == [1.0, 1.0, 0.0, 3.0, 2.0]
    base = tg.tensor([0.0, 0.0, 2.0], dtype=tg.float64, requires_grad=True)
    y = tg.tensor([2.0, 0.0, 1.0], dtype=tg.float64, requires_grad=True)
    (base ** y).sum().backward()
    assert y.grad.tolist() == [0.0, 0.0, 2 * np.log(2.0)]
    assert base.grad.tolist() == [0.0, 0.0, 1.0]


def test_infinite_incoming_gradient_is_masked() -> None:
    """Where an op's gradient is 0 (relu below 0, clamp outside its bounds, the losers of max/maximum/where),
    an infinite incoming gradient (here from log(0)) gives 0 there, not inf * 0 = nan."""
    x = tg.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    x.relu().log().sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.5]
    x.grad = None
    x.clamp(0.0, 1.0).log().sum().backward()
    assert x.grad.tolist() == [0.0, float("inf"), 0.0]
    x.grad = None
    (x.max() - 2).log().backward()
    assert x.grad.tolist() == [0.0, 0.0, float("inf")]
    y = tg.zeros(3, requires_grad=True)
    tg.where(x > 0, x, y).log().sum().backward()
    assert y.grad.tolist() == [float("inf"), float("inf"), 0.0]


def test_var_std_prod_cumsum_values() -> None:
    x = tg.tensor([1.0, 2.0, 4.0], dtype=tg.float64)
    assert x.var().item() == pytest.approx(7 / 3) and x.var(correction=0).item() == pytest.approx(14 / 9)
    assert x.var(False).item() == pytest.approx(14 / 9) and x.var(correction=2).item() == pytest.approx(14 / 3)
    assert x.std().item() == pytest.approx(np.sqrt(7 / 3)) and x.std(0, False).item() == pytest.approx(np.sqrt(14 / 9))
    assert tg.tensor([1.0, 5.0, 3.0]).prod().item() == 15.0
    assert tg.tensor([[1, 2], [3, 4]]).prod(1).tolist() == [2, 12]
    assert tg.tensor([1.0, 5.0, 3.0]).cumsum(0).tolist() == [1.0, 6.0, 9.0]
    assert tg.tensor([[1, 2], [3, 4]]).cumsum(0).tolist() == [[1, 2], [4, 6]]


def test_var_std_errors_and_warnings() -> None:
    with pytest.raises(RuntimeError, match="std and var only support floating point and complex dtypes"):
        tg.tensor([1, 2]).std()
    with pytest.raises(TypeError, match="give either unbiased or correction, not both"):
        tg.ones(3).var(unbiased=True, correction=1)
    with pytest.warns(UserWarning, match=r"var\(\): degrees of freedom is <= 0"):
        assert np.isnan(tg.ones(1).var().item())


def test_std_of_equal_values_has_a_zero_gradient() -> None:
    """std's gradient divides by std itself: where it is 0 (all values equal) it is taken as 0, not 0/0."""
    x = tg.tensor([2.0, 2.0], requires_grad=True)
    x.std().backward()
    assert x.grad.tolist() == [0.0, 0.0]


@pytest.mark.parametrize("values", [[1.0, 0.0, 3.0, 2.0], [1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 2.0]])
def test_prod_gradient_at_zeros(values: list[float]) -> None:
    """Each element's gradient is the product of the others: with one zero, only the zero gets a non-zero
    gradient; with two or more, every gradient is 0. Checked numerically to second order too."""
    x = tg.tensor(values, dtype=tg.float64, requires_grad=True)
    x.prod().backward()
    expected = [np.prod(values[:i] + values[i + 1:]) for i in range(len(values))]
    assert x.grad.tolist() == expected
    m = tg.tensor([values, values[::-1]], dtype=tg.float64, requires_grad=True)
    for fn in (lambda t: t.prod(), lambda t: t.prod(1), lambda t: t.prod(0, keepdim=True)):
        assert gradcheck(fn, (m,))
        assert gradgradcheck(fn, (m,))


def test_cumsum_gradient_counts_later_outputs() -> None:
    x = tg.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    (x.cumsum(1) * tg.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert x.grad.tolist() == [[111.0, 110.0, 100.0]]


def test_remainder_and_floor_divide() -> None:
    """% takes the sign of the divisor, as in Python; // rounds down. // has no derivative: its result
    requires grad but a backward pass through it raises, as in PyTorch."""
    x = tg.tensor([7.0, -7.0], requires_grad=True)
    assert (x % 3).tolist() == [1.0, 2.0] and (x % -3).tolist() == [-2.0, -1.0]
    assert (x // 2).tolist() == [3.0, -4.0] and tg.floor_divide(7, tg.tensor([2, -2])).tolist() == [3, -4]
    assert (7 % tg.tensor([3, -3])).tolist() == [1, -2]
    q = x // 2
    assert q.requires_grad and q.grad_fn.name() == "tinygrad_edu::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
        q.sum().backward()
    with pytest.raises(RuntimeError, match="derivative for aten::remainder is not implemented"):
        (1.5 % x).sum().backward()
    (x % 3).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    y = tg.tensor([3.0, -3.0], requires_grad=True)
    (x % y).sum().backward()
    assert y.grad.tolist() == [-2.0, -2.0]  # -floor(x / y): floor(7/3) = 2, floor(-7/-3) = 2
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        tg.tensor([1]) % 0
    assert np.isnan((tg.tensor([1.0]) % 0).item()) and (tg.tensor([1.0, -1.0]) // 0).tolist() == [np.inf, -np.inf]
    z = tg.tensor([7.0, 8.0])
    z %= 3
    z //= 2
    assert z.tolist() == [0.0, 1.0] and z._version == 2


def test_isclose_nonzero_type() -> None:
    a = tg.tensor([1.0, 1.0, float("nan"), float("inf")])
    b = tg.tensor([1.0 + 1e-6, 1.1, float("nan"), float("inf")])
    assert tg.isclose(a, b).tolist() == [True, False, False, True]
    assert a.isclose(b, rtol=0.2, equal_nan=True).tolist() == [True, True, True, True]
    with pytest.raises(RuntimeError, match="Long did not match Float"):
        tg.isclose(tg.tensor([1]), tg.tensor([1.0]))
    with pytest.raises(RuntimeError, match="atol must be greater than or equal to zero, but got -1"):
        tg.isclose(a, b, atol=-1)
    x = tg.tensor([[0.0, 1.0], [2.0, 0.0]])
    assert x.nonzero().tolist() == [[0, 1], [1, 0]]
    assert [t.tolist() for t in tg.nonzero(x, as_tuple=True)] == [[0, 1], [1, 0]]
    assert x[x.nonzero(as_tuple=True)].tolist() == [1.0, 2.0]
    assert tg.zeros(3).nonzero().shape == (0, 1) and tg.tensor(5.0).nonzero().shape == (1, 0)
    assert x.type() == "tinygrad_edu.FloatTensor" and tg.tensor([1]).type() == "tinygrad_edu.LongTensor"
    assert x.type(tg.int64).dtype == tg.int64 and x.type("torch.DoubleTensor").dtype == tg.float64
    assert x.type(tg.float32) is x
    with pytest.raises(ValueError, match="invalid type: 'foo'"):
        x.type("foo")


def test_sort_and_topk() -> None:
    """Equal values keep their order (a stable sort); nan counts as the largest; the gradient of each sorted
    value goes back to where the value came from."""
    x = tg.tensor([2.0, float("nan"), 1.0, 2.0, float("inf")], requires_grad=True)
    values, indices = x.sort()
    assert indices.tolist() == [2, 0, 3, 4, 1] and indices.dtype == tg.int64 and not indices.requires_grad
    assert x.sort(descending=True).indices.tolist() == [1, 4, 0, 3, 2]
    assert tg.argsort(tg.tensor([3, 1, 2]), descending=True).tolist() == [0, 2, 1]
    (values[:3] * tg.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert x.grad.tolist() == [10.0, 0.0, 1.0, 100.0, 0.0]
    top = tg.tensor([[1.0, 4.0, 2.0], [5.0, 0.0, 3.0]]).topk(2)
    assert top.values.tolist() == [[4.0, 2.0], [5.0, 3.0]] and top.indices.tolist() == [[1, 2], [0, 2]]
    assert repr(tg.tensor([2, 1]).sort()) == ("tinygrad_edu.return_types.sort(\nvalues=tensor([1, 2]),\n"
                                              "indices=tensor([1, 0]))")
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        tg.ones(3).topk(4)


def test_repeated_index_accumulates() -> None:
    """An index used twice gets the sum of both gradients (integer-array indexing)."""
    x = tg.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = x[[0, 2, 0, 0]] * tg.tensor([1.0, 10.0, 100.0, 1000.0])
    y.sum().backward()
    assert x.grad.tolist() == [1101.0, 0.0, 10.0, 0.0]
    m = tg.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    m[[1, 1, 0], [2, 2, 2]].sum().backward()
    assert m.grad.tolist() == [[0.0, 0.0, 1.0], [0.0, 0.0, 2.0]]
    rows = tg.tensor(np.ones((3, 2)), requires_grad=True)
    rows[tg.tensor([2, 2])].sum().backward()
    assert rows.grad.tolist() == [[0.0, 0.0], [0.0, 0.0], [2.0, 2.0]]


def test_basic_indexing_records_one_node_per_dimension() -> None:
    x = tg.ones(2, 3, 4, requires_grad=True)
    y = x[1, :2, 3]
    assert y.shape == (2,)
    node = y.grad_fn
    names = []
    while node is not None and node.next_functions:
        names.append(node.name())
        node = node.next_functions[0][0]
    assert names == ["SelectBackward0", "SliceBackward0", "SelectBackward0"]
    assert x[:].grad_fn.name() == "AliasBackward0" and x[None].grad_fn.name() == "UnsqueezeBackward0"


# ------------------------------------------------------------------------------------------------ broadcasting
BINARY: dict[str, tuple[Callable[[Any, Any], Any], str]] = {
    "add": (lambda x, y: x + y, "real"),
    "sub": (lambda x, y: x - y, "real"),
    "mul": (lambda x, y: x * y, "real"),
    "div": (lambda x, y: x / y, "nonzero"),
    "pow": (lambda x, y: x ** y, "positive"),
    "maximum": (lambda x, y: tg.maximum(x, y) if isinstance(x, tg.Tensor) else np.maximum(x, y), "real"),
    "minimum": (lambda x, y: tg.minimum(x, y) if isinstance(x, tg.Tensor) else np.minimum(x, y), "real"),
    "where": (lambda x, y: tg.where(x < y, x, y) if isinstance(x, tg.Tensor) else np.where(x < y, x, y), "real"),
}
SHAPES = {"(3,1) (4,)": ((3, 1), (4,)), "(2,3,4) (3,1)": ((2, 3, 4), (3, 1)), "0-d (2,3)": ((), (2, 3)),
          "(2,3) 0-d": ((2, 3), ()), "(1,3) (2,1)": ((1, 3), (2, 1))}


@pytest.mark.parametrize("shapes", list(SHAPES))
@pytest.mark.parametrize("name", list(BINARY))
def test_broadcasting(name: str, shapes: str) -> None:
    fn, domain = BINARY[name]
    sa, sb = SHAPES[shapes]
    a, b = sample(1, sa, domain), sample(2, sb, domain)
    x, y = tg.tensor(a, requires_grad=True), tg.tensor(b, requires_grad=True)
    out = fn(x, y)
    expected = fn(a, b)
    assert out.shape == np.broadcast_shapes(sa, sb)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12)
    out.sum().backward()
    assert x.grad.shape == sa and y.grad.shape == sb  # each gradient summed back down to its input's shape
    assert gradcheck(fn, (tg.tensor(a, requires_grad=True), tg.tensor(b, requires_grad=True)))


@pytest.mark.parametrize("name", [n for n in BINARY if n not in ("maximum", "minimum")])  # these take tensors only
def test_python_number_with_tensor(name: str) -> None:
    fn, domain = BINARY[name]
    a = sample(3, (2, 3), domain)
    for number in (1.5, 2):
        for left in (True, False):
            if not left and name == "where":
                continue

            def call(x: Any, number: float = number, left: bool = left) -> Any:
                return fn(x, number) if left else fn(number, x)

            x = tg.tensor(a, requires_grad=True)
            out = call(x)
            np.testing.assert_allclose(out.detach().numpy(), call(a), rtol=1e-12)
            assert out.dtype == tg.float64  # the number takes the tensor's dtype
            edges = [node for node, _ in out.grad_fn.next_functions if node is not None]
            assert len(edges) == 1  # the number needs no gradient
            assert gradcheck(call, (x,))


def test_add_sub_alpha() -> None:
    x, y = tg.tensor([1.0, 2.0]), tg.tensor([10.0, 20.0])
    assert tg.add(x, y, alpha=2).tolist() == [21.0, 42.0]
    assert x.sub(y, alpha=0.5).tolist() == [-4.0, -8.0]


def test_broadcast_errors() -> None:
    with pytest.raises(RuntimeError, match=r"size of tensor a \(3\) must match the size of tensor b \(4\) at "
                                           r"non-singleton dimension 1"):
        tg.ones(2, 3) * tg.ones(4)
    with pytest.raises(RuntimeError, match="shapes cannot be multiplied"):
        tg.ones(2, 3) @ tg.ones(2, 3)


# ------------------------------------------------------------------------------------------------ dtypes
DTYPES: dict[str, tuple[Callable[[], tg.Tensor], tg.dtype]] = {
    "python floats are float32": (lambda: tg.tensor([1.5, 2.0]), tg.float32),
    "python ints are int64": (lambda: tg.tensor([1, 2]), tg.int64),
    "python bools are bool": (lambda: tg.tensor([True]), tg.bool),
    "numpy float64 scalar kept": (lambda: tg.tensor(np.float64(1.5)), tg.float64),
    "numpy int32 in a list kept": (lambda: tg.tensor([np.int32(1)]), tg.int32),
    "float32 ops stay float32": (lambda: tg.ones(2) * 3 + tg.ones(2).exp(), tg.float32),
    "int64 ops stay int64": (lambda: tg.tensor([1, 2]) * 3 + tg.tensor([1, 1]) - 1, tg.int64),
    "int64 ** 2 stays int64": (lambda: tg.tensor([1, 2]) ** 2, tg.int64),
    "2 ** int64 stays int64": (lambda: 2 ** tg.tensor([1, 2]), tg.int64),
    "int64 sum stays int64": (lambda: tg.tensor([1, 2]).sum(), tg.int64),
    "bool sum is int64": (lambda: (tg.ones(3) > 0).sum(), tg.int64),
    "int tensor * float number": (lambda: tg.tensor([1, 2]) * 1.5, tg.float32),
    "float number - int tensor": (lambda: 1.5 - tg.tensor([1, 2]), tg.float32),
    "int / int": (lambda: tg.tensor([1, 2]) / tg.tensor([2, 2]), tg.float32),
    "int / number": (lambda: tg.tensor([1, 2]) / 2, tg.float32),
    "int + float32 tensor": (lambda: tg.tensor([1, 2]) + tg.ones(2), tg.float32),
    "int ** float tensor": (lambda: tg.tensor([1, 2]) ** tg.ones(2), tg.float32),
    "exp of int": (lambda: tg.tensor([1, 2]).exp(), tg.float32),
    "clamp int by float": (lambda: tg.tensor([1, 2]).clamp(0.5), tg.float32),
    "float64 kept": (lambda: tg.ones(2, dtype=tg.float64) * 2.5, tg.float64),
    "float64 + float32": (lambda: tg.ones(2, dtype=tg.float64) + tg.ones(2), tg.float64),
    "float32 + 0-d float64": (lambda: tg.ones(2) + tg.tensor(1.0, dtype=tg.float64), tg.float32),
    "int64 + 0-d float64": (lambda: tg.tensor([1, 2]) + tg.tensor(1.0, dtype=tg.float64), tg.float64),
    "where int and float": (lambda: tg.where(tg.tensor([True, False]), tg.tensor([1, 2]), tg.ones(2)), tg.float32),
    "where float and number": (lambda: tg.where(tg.tensor([True]), tg.ones(1, dtype=tg.float64), 0), tg.float64),
    "cat int and float": (lambda: tg.cat([tg.tensor([1]), tg.ones(1)]), tg.float32),
    "maximum int and float": (lambda: tg.maximum(tg.tensor([1]), tg.ones(1)), tg.float32),
    "matmul float64": (lambda: tg.ones(2, 3, dtype=tg.float64) @ tg.ones(3, dtype=tg.float64), tg.float64),
    "softmax float64": (lambda: tg.ones(2, dtype=tg.float64).softmax(0), tg.float64),
    "mean float64": (lambda: tg.ones(2, dtype=tg.float64).mean(), tg.float64),
    "comparison is bool": (lambda: tg.ones(2) < tg.tensor([1, 2]), tg.bool),
    "int64 prod stays int64": (lambda: tg.tensor([2, 3]).prod(), tg.int64),
    "int32 prod is int64": (lambda: tg.tensor([2, 3], dtype=tg.int32).prod(0), tg.int64),
    "bool prod is int64": (lambda: tg.tensor([True, False]).prod(), tg.int64),
    "prod with dtype": (lambda: tg.tensor([2, 3]).prod(dtype=tg.float64), tg.float64),
    "int32 cumsum is int64": (lambda: tg.tensor([2, 3], dtype=tg.int32).cumsum(0), tg.int64),
    "bool cumsum is int64": (lambda: tg.tensor([True, True]).cumsum(0), tg.int64),
    "float64 std": (lambda: tg.ones(2, dtype=tg.float64).std(), tg.float64),
    "int % int": (lambda: tg.tensor([7, -7]) % 3, tg.int64),
    "int % float number": (lambda: tg.tensor([7, -7]) % 2.5, tg.float32),
    "int // int": (lambda: tg.tensor([7, -7]) // 2, tg.int64),
    "int // float number": (lambda: tg.tensor([7, -7]) // 2.5, tg.float32),
    "nonzero is int64": (lambda: tg.tensor([0.0, 1.0]).nonzero(), tg.int64),
    "isclose is bool": (lambda: tg.isclose(tg.ones(2), tg.zeros(2)), tg.bool),
}


@pytest.mark.parametrize("name", list(DTYPES))
def test_dtype(name: str) -> None:
    make, expected = DTYPES[name]
    assert make().dtype == expected


def test_gradients_come_back_in_each_inputs_dtype() -> None:
    """A float32 input next to a float64 one: the result is float64, but each .grad has its input's dtype, and
    no conversion node is recorded (as in PyTorch)."""
    x, y = tg.ones(2, requires_grad=True), tg.ones(2, dtype=tg.float64, requires_grad=True)
    for out in (x * y, x + y, x / y, x ** y, tg.maximum(x, y), tg.where(x > 0, x, y), tg.cat([x, y])):
        assert out.dtype == tg.float64
        assert all(node.name() == "tinygrad_edu::autograd::AccumulateGrad" for node, _ in out.grad_fn.next_functions)
        x.grad = y.grad = None
        out.sum().backward()
        assert x.grad.dtype == tg.float32 and y.grad.dtype == tg.float64


def test_integer_powers() -> None:
    assert (tg.tensor([2, 3]) ** tg.tensor([-1, 2])).tolist() == [0, 9]  # the integer part, as in PyTorch
    assert (tg.tensor([1, -1, -1]) ** tg.tensor([-2, -3, -2])).tolist() == [1, -1, 1]
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed."):
        tg.tensor([1, 2]) ** -1


def test_integer_tensors_cannot_require_grad() -> None:
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"):
        tg.tensor([1, 2], requires_grad=True)


# ------------------------------------------------------------------------------------------------ in place
INPLACE: dict[str, tuple[Callable[[tg.Tensor], Any], list[float]]] = {
    "add_": (lambda y: y.add_(tg.tensor([1.0, 2.0])), [2.0, 4.0]),
    "add_ alpha": (lambda y: y.add_(1, alpha=3), [4.0, 5.0]),
    "sub_": (lambda y: y.sub_(tg.tensor([1.0, 1.0])), [0.0, 1.0]),
    "mul_": (lambda y: y.mul_(3), [3.0, 6.0]),
    "div_": (lambda y: y.div_(tg.tensor([2.0, 4.0])), [0.5, 0.5]),
    "+=": (lambda y: y.__iadd__(1), [2.0, 3.0]),
    "-=": (lambda y: y.__isub__(1), [0.0, 1.0]),
    "*=": (lambda y: y.__imul__(tg.tensor(2.0)), [2.0, 4.0]),
    "/=": (lambda y: y.__itruediv__(2), [0.5, 1.0]),
    "zero_": (lambda y: y.zero_(), [0.0, 0.0]),
    "fill_": (lambda y: y.fill_(7), [7.0, 7.0]),
    "fill_ 0-d tensor": (lambda y: y.fill_(tg.tensor(-1.5)), [-1.5, -1.5]),
    "copy_": (lambda y: y.copy_(tg.tensor([5.0, 6.0])), [5.0, 6.0]),
    "copy_ broadcast": (lambda y: y.copy_(tg.tensor(9.0)), [9.0, 9.0]),
    "copy_ int": (lambda y: y.copy_(tg.tensor([3, 4])), [3.0, 4.0]),
    "clamp_": (lambda y: y.clamp_(max=1.5), [1.0, 1.5]),
    "setitem": (lambda y: y.__setitem__(0, 8.0), [8.0, 2.0]),
}


@pytest.mark.parametrize("name", list(INPLACE))
def test_inplace_values_and_version(name: str) -> None:
    fn, expected = INPLACE[name]
    y = tg.tensor([1.0, 2.0])
    before = y._version
    out = fn(y)
    assert out is None or out is y  # in place: the same tensor comes back
    assert y.tolist() == expected
    assert y._version == before + 1


INPLACE_GRADS: dict[str, tuple[Callable[[tg.Tensor, tg.Tensor], Any], str]] = {
    "add_": (lambda y, s: y.add_(s), "AddBackward0"),
    "sub_": (lambda y, s: y.sub_(s, alpha=2), "SubBackward0"),
    "mul_": (lambda y, s: y.mul_(s), "MulBackward0"),
    "div_": (lambda y, s: y.div_(s), "DivBackward0"),
    "+=": (lambda y, s: y.__iadd__(s), "AddBackward0"),
    "*=": (lambda y, s: y.__imul__(s), "MulBackward0"),
    "zero_": (lambda y, s: y.zero_(), "ZeroBackward0"),
    "fill_": (lambda y, s: y.fill_(2.5), "FillBackward2"),
    "fill_ tensor": (lambda y, s: y.fill_(s.sum()), "FillBackward3"),
    "copy_": (lambda y, s: y.copy_(s), "CopyBackwards"),
    "setitem": (lambda y, s: y.__setitem__(0, s), "CopySlices"),
}


@pytest.mark.parametrize("name", list(INPLACE_GRADS))
def test_inplace_derivatives(name: str) -> None:
    """In-place ops on a non-leaf are differentiable: gradcheck through ``y = x * 1; y.op_(s)``."""
    fn, node = INPLACE_GRADS[name]

    def through(x: tg.Tensor, s: tg.Tensor) -> tg.Tensor:
        y = x * 1
        fn(y, s)
        return y

    x = tg.tensor(sample(4, (2, 3)), requires_grad=True)
    s = tg.tensor(sample(5, (3,), "nonzero"), requires_grad=True)
    y = through(x, s)
    assert type(y.grad_fn).__name__ == node
    assert gradcheck(through, (x, s))
    assert gradgradcheck(through, (x, s))


def test_inplace_on_leaf_requiring_grad_is_refused() -> None:
    x = tg.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        x.add_(1)
    with tg.no_grad():  # allowed without recording, as an optimizer step does
        x.sub_(0.5)
    assert x.tolist() == [0.5, 0.5] and x._version == 1


def test_inplace_through_views_reaches_the_base() -> None:
    y = tg.zeros(2, 3)
    y[0].add_(1)
    y[:, 2].fill_(5)
    y.t()[1].mul_(0)
    y[1, 0].copy_(tg.tensor(-1.0))
    assert y.tolist() == [[1.0, 0.0, 5.0], [-1.0, 0.0, 5.0]]
    assert y._version == 4 and y[0]._version == 4  # views share the version counter


def test_saved_tensor_modified_in_place_is_detected() -> None:
    x = tg.ones(2, requires_grad=True)
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


# ------------------------------------------------------------------------------------------------ iteration
def test_python_sum_iterates_differentiably() -> None:
    a = sample(6, (3, 2))
    x = tg.tensor(a, requires_grad=True)
    total = sum(x)
    np.testing.assert_allclose(total.detach().numpy(), a.sum(0))
    total.sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0]] * 3
    rows = list(x)
    assert len(rows) == 3 and all(r.grad_fn.name() == "UnbindBackward0" for r in rows)
    assert [nr for _, nr in [(r.grad_fn, r.output_nr) for r in rows]] == [0, 1, 2]
    assert [float(v) for v in tg.tensor([1.0, 2.0])] == [1.0, 2.0]
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(tg.tensor(1.0))


# ------------------------------------------------------------------------------------------------ comparisons
def test_comparisons() -> None:
    x, y = tg.tensor([1.0, 2.0, 3.0], requires_grad=True), tg.tensor([3.0, 2.0, 1.0])
    table = {
        "==": (x == y, [False, True, False]), "!=": (x != y, [True, False, True]), "<": (x < y, [True, False, False]),
        "<=": (x <= y, [True, True, False]), ">": (x > y, [False, False, True]), ">=": (x >= y, [False, True, True]),
        "eq": (x.eq(y), [False, True, False]), "tg.eq": (tg.eq(x, 2), [False, True, False]),
        "ne": (tg.ne(x, y), [True, False, True]), "lt": (x.lt(2.5), [True, True, False]),
        "le": (tg.le(x, y), [True, True, False]), "gt": (x.gt(y), [False, False, True]),
        "ge": (tg.ge(x, 2), [False, True, True]), "broadcast": (x == tg.tensor([[2.0]]), [[False, True, False]]),
        "int with float": (tg.tensor([1, 2, 3]) == x, [True, True, True]),
    }
    for name, (result, expected) in table.items():
        assert result.dtype == tg.bool, name
        assert result.tolist() == expected, name
        assert result.grad_fn is None and not result.requires_grad, name


def test_equal_and_all() -> None:
    x = tg.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert tg.equal(x, x.clone()) is True
    assert x.equal(x * 2) is False
    assert tg.equal(x, x[0]) is False  # different shapes
    assert (x > 0).all().item() is True and (x > 1).all().item() is False
    assert (x > 1).all(1).tolist() == [False, True]
    assert (x > 1).all(dim=0, keepdim=True).tolist() == [[False, True]]
    assert tg.all(x > 1).dtype == tg.bool and (x > 3).any().item() is True
    assert (x > 1).any(0).tolist() == [True, True]


def test_comparisons_of_nan_and_inf() -> None:
    x = tg.tensor([float("nan"), float("inf"), 1.0])
    assert (x == x).tolist() == [False, True, True]
    assert (x > 0).tolist() == [False, True, True]
    assert x.isnan().tolist() == [True, False, False]


# ------------------------------------------------------------------------------------------------ misc
def test_errors_keep_pytorch_types() -> None:
    cases: list[tuple[Callable[[], Any], type, str]] = [
        (lambda: tg.ones(2, 3).view(4), RuntimeError, "shape '[4]' is invalid for input of size 6"),
        (lambda: tg.ones(2, 3).t().view(6), RuntimeError, "view size is not compatible"),
        (lambda: tg.ones(2, 3).sum(2), IndexError, "Dimension out of range"),
        (lambda: tg.cat([tg.ones(2, 3), tg.ones(2, 4)]), RuntimeError, "Sizes of tensors must match"),
        (lambda: tg.cat([]), ValueError, "tinygrad_edu.cat(): expected a non-empty list of Tensors"),
        (lambda: tg.stack([tg.ones(2), tg.ones(3)]), RuntimeError, "stack expects each tensor to be equal size"),
        (lambda: tg.ones(2, 3).expand(4, 3), RuntimeError, "The expanded size of the tensor (4) must match"),
        (lambda: tg.ones(3)[5], IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
        (lambda: tg.tensor(1.0)[0], IndexError, "invalid index of a 0-dim tensor"),
        (lambda: tg.ones(2).clamp(), RuntimeError, "tinygrad_edu.clamp: At least one of 'min' or 'max'"),
        (lambda: tg.ones(2) @ 2, TypeError, "unsupported operand type(s) for @: 'Tensor' and 'int'"),
        (lambda: tg.ones(3).mT, RuntimeError, "tensor.mT is only supported on matrices"),
    ]
    for fn, kind, text in cases:
        with pytest.raises(kind) as info:
            fn()
        assert text in str(info.value)
        assert "torch" not in str(info.value)


def test_transposing_other_than_matrices_warns() -> None:
    with pytest.warns(UserWarning, match="The use of `x.T` on tensors of dimension other than 2"):
        assert tg.ones(2, 3, 4).T.shape == (4, 3, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tg.ones(2, 3).T.shape == (3, 2)
