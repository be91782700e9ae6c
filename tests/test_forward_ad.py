"""Forward mode (``autograd.forward_ad``): every op of the derivative table has a forward rule, checked on random
inputs against finite differences and against reverse mode; dual tensors behave and print as PyTorch's."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import oracle, outcome

import tinygrad_edu as tg
from tinygrad_edu.autograd import forward_ad as fwAD
from tinygrad_edu.core import derivatives as D

rng = np.random.default_rng(0)


def anywhere(*shape: int) -> np.ndarray:
    return rng.normal(size=shape)


def positive(*shape: int) -> np.ndarray:
    return rng.uniform(0.5, 2.0, size=shape)


def inside(*shape: int) -> np.ndarray:  # (-1, 1): asin, acos, and the saved outputs of tanh and sigmoid
    return rng.uniform(-0.9, 0.9, size=shape)


def away_from_zero(*shape: int) -> np.ndarray:  # relu, abs, sign: not at their kink
    return rng.uniform(0.2, 1.5, size=shape) * rng.choice([-1.0, 1.0], size=shape)


# For each entry of the table (by node name): its inputs (arrays; each becomes a float64 tensor) and how to call it.
CASES: dict[str, tuple[list[np.ndarray], Callable[..., tg.Tensor]]] = {
    "AddBackward0": ([anywhere(2, 3), anywhere(3)], lambda a, b: D.Add.apply(a, b, 2.0)),
    "SubBackward0": ([anywhere(2, 3), anywhere(2, 1)], lambda a, b: D.Sub.apply(a, b)),
    "RsubBackward1": ([anywhere(3)], lambda a: D.Rsub.apply(a, 2.0)),
    "MulBackward0": ([anywhere(2, 3), anywhere(3)], lambda a, b: D.Mul.apply(a, b)),
    "MulBackward1": ([anywhere(3)], lambda a: D.MulScalar.apply(a, 3.0)),
    "AddBackward1": ([anywhere(3)], lambda a: D.AddScalar.apply(a, 2.5)),
    "DivBackward1": ([anywhere(3)], lambda a: D.DivScalar.apply(a, 4.0)),
    "DivBackward0": ([anywhere(2, 3), positive(3)], lambda a, b: D.Div.apply(a, b)),
    "NegBackward0": ([anywhere(3)], lambda a: D.Neg.apply(a)),
    "ReciprocalBackward0": ([positive(3)], lambda a: D.Reciprocal.apply(a)),
    "PowBackward0": ([positive(3)], lambda a: D.Pow.apply(a, 2.5)),
    "PowBackward1": ([positive(2, 3), anywhere(3)], lambda a, b: D.PowTensor.apply(a, b)),
    "PowBackward2": ([anywhere(3)], lambda a: D.RPow.apply(2.0, a)),
    "ExpBackward0": ([anywhere(3)], lambda a: D.Exp.apply(a)),
    "Expm1Backward0": ([anywhere(3)], lambda a: D.Expm1.apply(a)),
    "Exp2Backward0": ([anywhere(3)], lambda a: D.Exp2.apply(a)),
    "LogBackward0": ([positive(3)], lambda a: D.Log.apply(a)),
    "Log1PBackward0": ([positive(3)], lambda a: D.Log1p.apply(a)),
    "Log2Backward0": ([positive(3)], lambda a: D.Log2.apply(a)),
    "Log10Backward0": ([positive(3)], lambda a: D.Log10.apply(a)),
    "SqrtBackward0": ([positive(3)], lambda a: D.Sqrt.apply(a)),
    "RsqrtBackward0": ([positive(3)], lambda a: D.Rsqrt.apply(a)),
    "SinBackward0": ([anywhere(3)], lambda a: D.Sin.apply(a)),
    "CosBackward0": ([anywhere(3)], lambda a: D.Cos.apply(a)),
    "TanBackward0": ([inside(3)], lambda a: D.Tan.apply(a)),
    "AsinBackward0": ([inside(3)], lambda a: D.Asin.apply(a)),
    "AcosBackward0": ([inside(3)], lambda a: D.Acos.apply(a)),
    "AtanBackward0": ([anywhere(3)], lambda a: D.Atan.apply(a)),
    "SinhBackward0": ([anywhere(3)], lambda a: D.Sinh.apply(a)),
    "CoshBackward0": ([anywhere(3)], lambda a: D.Cosh.apply(a)),
    "Deg2RadBackward0": ([anywhere(3)], lambda a: D.Deg2rad.apply(a)),
    "Rad2DegBackward0": ([anywhere(3)], lambda a: D.Rad2deg.apply(a)),
    "TanhBackward0": ([anywhere(3)], lambda a: D.Tanh.apply(a)),
    "TanhBackwardBackward0": ([anywhere(3), inside(3)], lambda g, y: D.TanhBackward.apply(g, y)),
    "SigmoidBackward0": ([anywhere(3)], lambda a: D.Sigmoid.apply(a)),
    "SigmoidBackwardBackward0": ([anywhere(3), inside(3)], lambda g, y: D.SigmoidBackward.apply(g, y)),
    "ReluBackward0": ([away_from_zero(4)], lambda a: D.Relu.apply(a)),
    "ThresholdBackwardBackward0": ([anywhere(4), away_from_zero(4)], lambda g, x: D.ThresholdBackward.apply(g, x, 0.0)),
    "AbsBackward0": ([away_from_zero(4)], lambda a: D.Abs.apply(a)),
    "SignBackward0": ([away_from_zero(4)], lambda a: D.Sign.apply(a)),
    "ClampBackward1": ([np.array([-2.0, -0.3, 0.1, 0.4, 3.0])], lambda a: D.Clamp.apply(a, -0.5, 0.5)),
    "MaximumBackward0": ([anywhere(2, 3), anywhere(3)], lambda a, b: D.Maximum.apply(a, b)),
    "MinimumBackward0": ([anywhere(2, 3), anywhere(3)], lambda a, b: D.Minimum.apply(a, b)),
    "MaskedFillBackward0": ([anywhere(2, 3)], lambda a: D.MaskedFill.apply(a, np.array([True, False, True]))),
    "ViewBackward0": ([anywhere(2, 3)], lambda a: D.View.apply(a, (3, 2))),
    "ReshapeAliasBackward0": ([anywhere(2, 3)], lambda a: D.ReshapeAlias.apply(a, (6,))),
    "UnsafeViewBackward0": ([anywhere(2, 3)], lambda a: D.UnsafeView.apply(a, (3, 2))),
    "ExpandBackward0": ([anywhere(3, 1)], lambda a: D.Expand.apply(a, (2, 3, 4))),
    "UnsqueezeBackward0": ([anywhere(2, 3)], lambda a: D.Unsqueeze.apply(a, 1)),
    "SqueezeBackward1": ([anywhere(2, 1, 3)], lambda a: D.SqueezeDim.apply(a, 1)),
    "CloneBackward0": ([anywhere(3)], lambda a: D.Clone.apply(a)),
    "ToCopyBackward0": ([anywhere(3)], lambda a: D.ToCopy.apply(a, np.dtype(np.float32))),
    "SumBackward0": ([anywhere(2, 3)], lambda a: D.Sum.apply(a)),
    "SumBackward1": ([anywhere(2, 3, 2)], lambda a: D.SumDim.apply(a, (0, 2), False)),
    "MeanBackward0": ([anywhere(2, 3)], lambda a: D.Mean.apply(a)),
    "MeanBackward1": ([anywhere(2, 3)], lambda a: D.MeanDim.apply(a, (1,), True)),
}

#: Entries with no forward rule, each with the reason. Empty: every op of the table has one.
WITHOUT_FORWARD_RULE: dict[str, str] = {}


def test_every_entry_of_the_table_is_checked_or_listed() -> None:
    """A new entry must come with a case here (and then its rule is checked) or a reason it has no forward rule."""
    table = {fn.node_name for fn in D.TABLE}
    assert set(CASES) | set(WITHOUT_FORWARD_RULE) == table
    assert not set(CASES) & set(WITHOUT_FORWARD_RULE)


def _forward(call: Callable, arrays: list[np.ndarray], tangents: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    with fwAD.dual_level():
        duals = [fwAD.make_dual(tg.tensor(a), tg.tensor(t)) for a, t in zip(arrays, tangents)]
        value, jvp = fwAD.unpack_dual(call(*duals))
    assert jvp is not None and jvp.shape == value.shape
    return value.numpy().astype(np.float64), jvp.numpy().astype(np.float64)


@pytest.mark.parametrize("node", sorted(CASES))
def test_forward_rule_agrees_with_finite_differences_and_reverse_mode(node: str) -> None:
    arrays, call = CASES[node]
    tangents = [rng.normal(size=a.shape) for a in arrays]
    value, jvp = _forward(call, arrays, tangents)
    # finite differences: (f(x + h t) - f(x - h t)) / 2h, in float64
    h = 1e-2 if node == "ToCopyBackward0" else 1e-6  # (linear, to float32: a large step, above its rounding)
    plus = call(*[tg.tensor(a + h * t) for a, t in zip(arrays, tangents)]).numpy().astype(np.float64)
    minus = call(*[tg.tensor(a - h * t) for a, t in zip(arrays, tangents)]).numpy().astype(np.float64)
    tol = 1e-4 if node == "ToCopyBackward0" else 1e-6  # (a float32 result: its rounding, not the rule's)
    np.testing.assert_allclose(jvp, (plus - minus) / (2 * h), rtol=tol, atol=tol)
    # reverse mode: for a random v, v·(J t) = (vᵀJ)·t, vᵀJ by one backward pass
    xs = [tg.tensor(a, requires_grad=True) for a in arrays]
    out = call(*xs)
    v = rng.normal(size=out.shape)
    vjps = tg.autograd.grad(out, xs, tg.tensor(v, dtype=out.dtype), allow_unused=True, materialize_grads=True)
    reverse = sum(float((g.numpy().astype(np.float64) * t).sum()) for g, t in zip(vjps, tangents))
    np.testing.assert_allclose(float((v * jvp).sum()), reverse, rtol=tol, atol=tol)
    np.testing.assert_allclose(value, out.detach().numpy().astype(np.float64))


def test_a_tangent_on_one_input_only() -> None:
    """Inputs without a tangent count as constants: x * w with only x dual gives w * t."""
    w = tg.tensor([2.0, 3.0])
    with fwAD.dual_level():
        x = fwAD.make_dual(tg.tensor([1.0, 1.0]), tg.tensor([1.0, 10.0]))
        assert fwAD.unpack_dual(x * w).tangent.tolist() == [2.0, 30.0]
        assert fwAD.unpack_dual(w * 2).tangent is None
        assert fwAD.unpack_dual(x.argmax()).tangent is None  # (an integer result has none)


# -- the API, as PyTorch's -----------------------------------------------------------------------------------------
def test_dual_level_numbers_nesting_and_forgetting() -> None:
    with fwAD.dual_level() as level:
        assert level == 0
        x = fwAD.make_dual(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 0.0]))
        y = x.exp()
        with pytest.raises(RuntimeError, match="^Nested forward mode AD is not supported at the moment$"), \
                fwAD.dual_level():
            pass
    assert fwAD.unpack_dual(y).tangent is None and fwAD.unpack_dual(y).primal is y
    with fwAD.dual_level() as level:  # a new level (numbered 0 again) does not see the old tangents
        assert level == 0 and fwAD.unpack_dual(y).tangent is None
    with pytest.raises(RuntimeError, match="^Dual level must be a positive number.$"):
        fwAD.exit_dual_level()
    with pytest.raises(RuntimeError, match="no level exists, make sure to enter_dual_level"):
        fwAD.make_dual(tg.tensor([1.0]), tg.tensor([1.0]))
    assert fwAD.enter_dual_level() == 0
    fwAD.exit_dual_level()


def test_make_dual_refuses_as_pytorch() -> None:
    with fwAD.dual_level():
        p = tg.tensor([1.0, 2.0])
        with pytest.raises(RuntimeError, match=r"Tensor is of size \[2\] while the given forward gradient is of "
                                               r"size \[1\]\.$"):
            fwAD.make_dual(p, tg.tensor([1.0]))
        with pytest.raises(ValueError, match="^Expected tangent to be floating point or complex, but got: "
                                             "tinygrad_edu.int64$"):
            fwAD.make_dual(p, tg.tensor([1, 2]))
        with pytest.raises(ValueError, match="^Expected primal to be floating point or complex"):
            fwAD.make_dual(tg.tensor([1, 2]), tg.tensor([1.0, 2.0]))


def test_dual_tensors_print_as_pytorchs() -> None:
    x = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, tg.tensor([1.0, 0.0, 0.0]))
        assert repr(d) == "tensor([1., 2., 3.], grad_fn=<ViewBackward0>, tangent=tensor([1., 0., 0.]))"
        assert repr(fwAD.make_dual(tg.tensor(2.0), tg.tensor(1.0))) == "tensor(2., tangent=1.0)"
        y = fwAD.make_dual(tg.tensor([1.0, 2.0]), tg.ones(2)).to(tg.float64)
        assert repr(y) == ("tensor([1., 2.], dtype=tinygrad_edu.float64,\n"
                           "       tangent=tensor([1., 1.], dtype=tinygrad_edu.float64))")
        u = fwAD.unpack_dual(d.exp())
        assert repr(u.primal) == "tensor([ 2.7183,  7.3891, 20.0855], grad_fn=<Identity>)"
        assert repr(u).startswith("UnpackedDualTensor(primal=tensor([ 2.7183,  7.3891, 20.0855], grad_fn=<Identity>),"
                                  " tangent=tensor([2.7183, 0.0000, 0.0000]")
        assert d.grad_fn.name() == "ViewBackward0" and not d.is_leaf and d._base is x
        assert fwAD.unpack_dual(d).primal._base is x


def test_a_tangent_is_not_a_node_of_the_graph() -> None:
    """Forward mode records nothing: a dual tensor's graph is the graph of its primal (make_dot draws the same)."""
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    plain = (x.exp() * 2).sum()
    with fwAD.dual_level():
        dual = (fwAD.make_dual(x, tg.ones(2)).exp() * 2).sum()
        assert fwAD.unpack_dual(dual).tangent is not None
    names = []
    for root in (plain, dual):
        node, chain = root.grad_fn, []
        while node is not None:
            chain.append(node.name())
            node = node.next_functions[0][0] if node.next_functions else None
        names.append(chain)
    assert names[0] == ["SumBackward0", "MulBackward0", "ExpBackward0", "tinygrad_edu::autograd::AccumulateGrad"]
    assert names[1] == ["SumBackward0", "MulBackward0", "ExpBackward0", "ViewBackward0",
                        "tinygrad_edu::autograd::AccumulateGrad"]


# -- ops outside the table (classes): their own rule, or J·t from their backward --------------------------------------
OUTSIDE = {
    "matmul": ([anywhere(2, 3), anywhere(3, 4)], lambda a, b: a @ b),
    "index": ([anywhere(3, 4)], lambda a: a[1:, [0, 2]]),
    "cat": ([anywhere(2, 3), anywhere(1, 3)], lambda a, b: tg.cat([a, b])),
    "softmax": ([anywhere(2, 3)], lambda a: tg.softmax(a, dim=1)),
    "log_softmax": ([anywhere(2, 3)], lambda a: tg.nn.functional.log_softmax(a, dim=1)),
    "mse_loss": ([anywhere(4), anywhere(4)], lambda a, b: tg.nn.functional.mse_loss(a, b)),
    "linear": ([anywhere(2, 3), anywhere(4, 3), anywhere(4)], lambda x, w, b: tg.nn.functional.linear(x, w, b)),
    "transpose": ([anywhere(2, 3)], lambda a: a.t()),
    "max_dim": ([anywhere(2, 3)], lambda a: a.max(dim=1).values),
}


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_ops_outside_the_table_carry_tangents(name: str) -> None:
    arrays, call = OUTSIDE[name]
    tangents = [rng.normal(size=a.shape) for a in arrays]
    _, jvp = _forward(call, arrays, tangents)
    h = 1e-6
    plus = call(*[tg.tensor(a + h * t) for a, t in zip(arrays, tangents)]).numpy()
    minus = call(*[tg.tensor(a - h * t) for a, t in zip(arrays, tangents)]).numpy()
    np.testing.assert_allclose(jvp, (plus - minus) / (2 * h), rtol=1e-6, atol=1e-6)


def test_forward_over_reverse_gives_a_hessian_vector_product() -> None:
    """A dual tensor through autograd.grad(create_graph=True): the gradient's tangent is H·v."""
    a = np.array([0.5, -1.0, 2.0])
    v = np.array([1.0, 2.0, -1.0])
    x = tg.tensor(a, requires_grad=True)
    with fwAD.dual_level():
        xd = fwAD.make_dual(x, tg.tensor(v))
        y = (xd.tanh() * xd.exp()).sum()
        (g,) = tg.autograd.grad(y, xd, create_graph=True)
        hv = fwAD.unpack_dual(g).tangent.detach().numpy()
    # f = Σ tanh(x) e^x is a sum of functions of one variable each: H is diagonal, f''(x) of each
    t, e = np.tanh(a), np.exp(a)
    second = (-2 * t * (1 - t * t)) * e + 2 * (1 - t * t) * e + t * e
    np.testing.assert_allclose(hv, second * v, rtol=1e-12)


def test_in_place_ops_carry_the_tangent() -> None:
    with fwAD.dual_level():
        x = fwAD.make_dual(tg.tensor([1.0, 2.0]), tg.tensor([1.0, -1.0])).clone()
        x.exp_()
        x.mul_(2)
        np.testing.assert_allclose(fwAD.unpack_dual(x).tangent.numpy(), 2 * np.exp([1.0, 2.0]) * [1, -1], rtol=1e-6)


# -- a learner's Function in forward mode: jvp, in both styles, and save_for_forward -------------------------------
class Scale(tg.autograd.Function):
    """forward(ctx, ...) style: x * y * k, k a number."""

    @staticmethod
    def forward(ctx, x, y, k):
        ctx.save_for_forward(x, y)
        ctx.k = k
        assert fwAD.unpack_dual(x).tangent is None  # (forward sees plain values, as PyTorch's)
        return x * y * k

    @staticmethod
    def jvp(ctx, x_t, y_t, k_t):
        x, y = ctx.saved_tensors
        assert k_t is None  # a number input's tangent is None; a tensor's without one, zeros
        return (x_t * y + x * y_t) * ctx.k


class MyExp(tg.autograd.Function):
    """setup_context style, saving its output for jvp."""

    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(output)
        ctx.save_for_backward(output)

    @staticmethod
    def jvp(ctx, x_t):
        (result,) = ctx.saved_tensors
        return x_t * result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


def test_a_learners_function_gives_tangents_by_its_jvp() -> None:
    p, q = tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0])
    with fwAD.dual_level():
        out = Scale.apply(fwAD.make_dual(p, tg.ones(2)), q, 3)
        assert repr(out) == "tensor([ 9., 24.], tangent=tensor([ 9., 12.]))"
        both = Scale.apply(fwAD.make_dual(p, tg.ones(2)), fwAD.make_dual(q, tg.ones(2)), 1)
        assert fwAD.unpack_dual(both).tangent.tolist() == [4.0, 6.0]
        x = tg.tensor([1.0, 2.0], requires_grad=True)
        y = MyExp.apply(fwAD.make_dual(x, tg.ones(2)))
        assert repr(y) == ("tensor([2.7183, 7.3891], grad_fn=<MyExpBackward>,\n"
                           "       tangent=tensor([2.7183, 7.3891], grad_fn=<MulBackward0>))")
    y.sum().backward()  # its backward still works: save_for_forward did not replace save_for_backward
    np.testing.assert_allclose(x.grad.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)


def test_a_function_without_jvp_is_refused_in_forward_mode_as_pytorch() -> None:
    class Double(tg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    assert Double.apply(tg.ones(2)).tolist() == [2.0, 2.0]  # (no tangent in sight: no jvp needed)
    message = "^You must implement the jvp function for custom autograd.Function to use it with forward mode AD.$"
    with fwAD.dual_level(), pytest.raises(NotImplementedError, match=message):
        Double.apply(fwAD.make_dual(tg.ones(2), tg.ones(2)))


def test_writing_into_a_dual_tensor_sets_the_written_elements_tangents_as_pytorch() -> None:
    """x[k] = v: the written elements take v's tangent (0 for a plain value), the others keep theirs."""
    with fwAD.dual_level():
        x = fwAD.make_dual(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([1.0, 0.0, 0.0]))
        y = x.clone()
        y[0] = 5.0
        assert fwAD.unpack_dual(y).tangent.tolist() == [0.0, 0.0, 0.0]
        z = x.clone()
        z[1:] = x[:2] * 2
        assert fwAD.unpack_dual(z).tangent.tolist() == [1.0, 2.0, 0.0]
        x.mul_(2)  # make_dual's result is a view of a tensor without a tangent: its own tangent follows
        assert fwAD.unpack_dual(x).tangent.tolist() == [2.0, 0.0, 0.0]
        r = tg.tensor([1.0, 2.0], requires_grad=True)
        e = fwAD.make_dual(r, tg.tensor([1.0, 1.0])) * 1
        e[0] = e[1] * 3  # recorded (CopySlices): the same tangents
        assert fwAD.unpack_dual(e).tangent.tolist() == [3.0, 1.0]


def test_an_in_place_change_of_a_view_of_a_dual_tensor_is_refused_with_what_to_do() -> None:
    with fwAD.dual_level():
        y = fwAD.make_dual(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([1.0, 0.0, 0.0])).clone()
        with pytest.raises(NotImplementedError, match=r"clone\(\) the view first"):
            y[1:].mul_(2)


def test_a_tangent_through_a_layer_whose_weights_require_grad_has_pytorchs_graph() -> None:
    """PyTorch's forward-mode tutorial makes a Linear layer's parameters dual and prints the output's tangent: it
    requires grad (a missing tangent counts as zeros, which join the weight to the tangent's graph)."""
    def tangent(lib: ModuleType) -> Any:
        fw = lib.autograd.forward_ad
        lib.manual_seed(0)
        model, x = lib.nn.Linear(3, 2), lib.ones(4, 3)
        tangents = {name: lib.ones_like(p) for name, p in model.named_parameters()}
        with fw.dual_level():
            for name, p in list(model.named_parameters()):
                delattr(model, name)
                setattr(model, name, fw.make_dual(p, tangents[name]))
            jvp = fw.unpack_dual(model(x)).tangent
        return jvp[:2]

    ours = outcome(tangent, tg)
    assert ours == (None, "tensor([[4., 4.],\n        [4., 4.]], grad_fn=<SliceBackward0>)", [])
    torch = oracle()
    if torch is not None:  # (torch's forward AD warns, once, that torch.jit.script is deprecated: not compared)
        assert outcome(tangent, torch)[:2] == ours[:2]
