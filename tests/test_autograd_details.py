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


# -- hooks -----------------------------------------------------------------------------------------------------------
def test_hooks_run_in_pytorchs_order() -> None:
    """Tensor hooks, then the node's pre-hooks, the node, its post-hooks; on a leaf: its tensor hooks, AccumulateGrad's
    pre-hooks, the accumulation, post-accumulate hooks, AccumulateGrad's post-hooks."""
    def program(lib: ModuleType) -> Any:
        log = []
        x = lib.ones(2, requires_grad=True)
        y = x * 2
        y.grad_fn.register_hook(lambda gi, go: log.append("y node post"))
        y.register_hook(lambda g: log.append("y tensor"))
        y.grad_fn.register_prehook(lambda go: log.append("y node pre"))
        y.retain_grad()
        y.register_hook(lambda g: log.append(f"y tensor, after retain_grad: y.grad {y.grad}"))
        acc = y.grad_fn.next_functions[0][0]
        acc.register_hook(lambda gi, go: log.append(f"acc post: x.grad {x.grad}"))
        x.register_post_accumulate_grad_hook(lambda t: log.append(f"post-accumulate: x.grad {t.grad}"))
        acc.register_prehook(lambda go: (log.append("acc pre, gradient x 10"), (go[0] * 10,))[1])
        x.register_hook(lambda g: log.append("x tensor"))
        y.sum().backward()
        return log

    as_pytorch(program)


def test_a_post_accumulate_hook_returning_a_tensor() -> None:
    def program(lib: ModuleType) -> None:
        w = lib.ones(2, requires_grad=True)
        w.register_post_accumulate_grad_hook(lambda t: t.grad * 2)
        (w * 3).sum().backward()

    raises(program, RuntimeError, "Tensor post accumulate grad hooks should return None.")


# -- saved-tensor hooks ----------------------------------------------------------------------------------------------
def test_saved_tensor_hooks_pack_and_unpack_in_pytorchs_order_under_create_graph() -> None:
    def program(lib: ModuleType) -> Any:
        log = []

        def pack(t: Any) -> Any:
            log.append(("pack", round(t.detach().sum().item(), 3)))
            return t

        def unpack(t: Any) -> Any:
            log.append(("unpack", round(t.detach().sum().item(), 3)))
            return t

        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = (x * x * x).sin() * x.exp()
            (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
            (gg,) = lib.autograd.grad(g.sum(), x)
        return log, [round(v, 3) for v in gg.tolist()]

    as_pytorch(program)


@pytest.mark.parametrize("where", ["forward", "backward", "both"])
def test_what_a_pack_hook_computes_is_a_value_not_a_path(where: str) -> None:
    """A pack hook's ``2 * t`` changes the saved value; the unpacked tensor keeps the saved tensor's history, so
    the second derivative counts each saved value once (as PyTorch)."""
    def program(lib: ModuleType) -> Any:
        hooks = lib.autograd.graph.saved_tensors_hooks(lambda t: 2 * t, lambda t: t)
        a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with hooks if where != "backward" else _nothing():
            y = (a.sin() * a * a).sum()
        with hooks if where != "forward" else _nothing():
            (g,) = lib.autograd.grad(y, (a,), create_graph=True)
            g.sum().backward()
        return [round(v, 3) for v in a.grad.tolist()]

    as_pytorch(program)


class _nothing:  # noqa: N801
    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        pass


# -- custom Functions ------------------------------------------------------------------------------------------------
def test_custom_function_details_as_pytorch() -> None:
    """A number argument gets no edge; an input that needs no grad receives None in a node hook; materialized
    zeros for an output that got no gradient; gradcheck and gradgradcheck of a Function with three outputs."""
    def program(lib: ModuleType) -> Any:
        class Scale(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any, k: float, b: Any) -> Any:
                return a * k + b

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g * 2, None, g

        class Three(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any, b: Any) -> Any:
                ctx.save_for_backward(a, b)
                return a * b, a + b, a - b

            @staticmethod
            def backward(ctx: Any, g1: Any, g2: Any, g3: Any) -> Any:
                a, b = ctx.saved_tensors
                return g1 * b + g2 + g3, g1 * a + g2 - g3

        a, b = lib.ones(2, requires_grad=True), lib.ones(2)
        y = Scale.apply(a, 2.0, b)
        seen = []
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append([g is None for g in grad_inputs]))
        y.sum().backward()
        edges = [type(n).__name__ if n else None for n, _ in y.grad_fn.next_functions]
        p = lib.tensor([0.5, -1.0], dtype=lib.float64, requires_grad=True)
        q = lib.tensor([2.0, 0.25], dtype=lib.float64, requires_grad=True)
        first, _, _ = Three.apply(p, q)
        first.sum().backward()  # the other two outputs get no gradient: zeros, materialized
        checks = lib.autograd.gradcheck(Three.apply, (p, q)), lib.autograd.gradgradcheck(Three.apply, (p, q))
        return edges, seen, a.grad, p.grad, checks

    as_pytorch(program)


def test_register_multi_grad_hook_as_pytorch() -> None:
    def program(lib: ModuleType) -> Any:
        a, b = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([3.0, 4.0], requires_grad=True)
        h = a * b  # an intermediate, too
        seen = []
        handle = lib.autograd.graph.register_multi_grad_hook(
            (a, b, h), lambda grads: seen.append([None if g is None else g.tolist() for g in grads]))
        (a * 2).sum().backward()  # only a is reached
        (h * h).sum().backward(retain_graph=True)  # all three
        firsts = []
        any_handle = lib.autograd.graph.register_multi_grad_hook((a, b), lambda g: firsts.append(g.tolist()),
                                                                 mode="any")
        (a * b * 5).sum().backward()
        handle.remove()
        any_handle.remove()
        (a * b).sum().backward()
        return seen, firsts

    as_pytorch(program)
    raises(lambda lib: lib.autograd.graph.register_multi_grad_hook((lib.ones(1, requires_grad=True),), print,
                                                                   mode="some"),
           ValueError, "Expects mode to be one of ('all', 'any') but got some")


# -- gradcheck's other checks ----------------------------------------------------------------------------------------
def _noisy(lib: ModuleType) -> Any:
    class Noisy(lib.autograd.Function):
        """A backward that adds a little more each time it runs: not reentrant, and not linear in grad_output."""

        calls = 0

        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            return a * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            Noisy.calls += 1
            return g * 2 + 1e-9 * Noisy.calls

    return Noisy


def _not_materialized(lib: ModuleType) -> Any:
    class Twice(lib.autograd.Function):
        """Asks for None (not zeros) when its output gets no gradient, and then wrongly returns a gradient."""

        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            ctx.set_materialize_grads(False)
            return a * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return lib.full((2,), 2.0, dtype=lib.float64) if g is None else g * 2

    return Twice


def _x(lib: ModuleType) -> Any:
    return lib.tensor([0.5, -1.0], dtype=lib.float64, requires_grad=True)


GRADCHECKS = {
    "not reentrant": (lambda lib: lib.autograd.gradcheck(_noisy(lib).apply, (_x(lib),)), "Backward is not reentrant"),
    "not multiplied by grad_output": (
        lambda lib: lib.autograd.gradcheck(_noisy(lib).apply, (_x(lib),), nondet_tol=1e-6),
        "backward not multiplied by grad_output"),
    "undefined output grads": (lambda lib: lib.autograd.gradcheck(_not_materialized(lib).apply, (_x(lib),)),
                               "Expected all input grads to be undefined or zero"),
}


@pytest.mark.parametrize("name", list(GRADCHECKS))
def test_gradchecks_other_checks_as_pytorch(name: str) -> None:
    program, start = GRADCHECKS[name]
    kind, text, _ = as_pytorch(program)
    assert kind == "GradcheckError" and text.startswith(start)


def test_gradcheck_checks_can_be_relaxed_or_reported_as_pytorch() -> None:
    def program(lib: ModuleType) -> Any:
        return (lib.autograd.gradcheck(_noisy(lib).apply, (_x(lib),), raise_exception=False),
                lib.autograd.gradcheck(_not_materialized(lib).apply, (_x(lib),), check_undefined_grad=False))

    as_pytorch(program, (None, "(False, True)", []))


# The path to the leaf, first input first, of a second derivative's graph, as PyTorch 2.13 records it. tanh_backward's
# formula for the output is ``grad * (-2 * output * grad_output)`` and sigmoid_backward's ``grad * grad_output *
# (-2 * output + 1)``, C++ in PyTorch: ``-2 * output`` is a multiplication by a Scalar (MulBackward1, not a wrapped
# number's MulBackward0), ``+ 1`` an addition of one (AddBackward1, not ``1 - ...``'s RsubBackward1).
SECOND_DERIVATIVE_PATHS = {
    "tanh": ["TanhBackwardBackward0", "MulBackward0", "MulBackward0", "MulBackward1", "TanhBackward0",
             "AccumulateGrad"],
    "sigmoid": ["SigmoidBackwardBackward0", "MulBackward0", "AddBackward1", "MulBackward1", "SigmoidBackward0",
                "AccumulateGrad"],
}


@pytest.mark.parametrize("op", sorted(SECOND_DERIVATIVE_PATHS))
def test_a_second_derivatives_graph_has_pytorchs_nodes(op: str) -> None:
    """The values are the same either way (-2 times a float is exact; -2 y + 1 is 1 - 2 y); the graph is PyTorch's."""
    import tinygrad_edu as tg

    x = tg.tensor([0.5, -1.0], requires_grad=True)
    (g,) = tg.autograd.grad(getattr(x, op)().sum(), x, create_graph=True)
    (gg,) = tg.autograd.grad(g.sum(), x, create_graph=True)
    names, node = [], gg.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = next((n for n, _ in node.next_functions if n is not None), None)
    assert names == SECOND_DERIVATIVE_PATHS[op]
    if op == "tanh":
        assert str(gg) == "tensor([-0.7269,  0.6397], grad_fn=<TanhBackwardBackward0>)"


# The nodes a first derivative's graph holds (create_graph=True), recorded from PyTorch 2.13: its C++ formulas add and
# multiply by numbers as Scalars (AddBackward1, MulBackward1) and negate where they negate (cos: grad * -sin(x)).
FORMULA_NODES = {
    "expm1": ["AddBackward1", "Expm1Backward0", "MulBackward0"],
    "log1p": ["AddBackward1", "DivBackward0"],
    "log2": ["DivBackward0", "MulBackward1"],
    "log10": ["DivBackward0", "MulBackward1"],
    "sqrt": ["DivBackward0", "MulBackward1", "SqrtBackward0"],
    "tan": ["AddBackward1", "MulBackward0", "PowBackward0", "TanBackward0"],
    "asin": ["AddBackward1", "MulBackward0", "MulBackward0", "NegBackward0", "RsqrtBackward0"],
    "acos": ["AddBackward1", "MulBackward0", "MulBackward0", "NegBackward0", "NegBackward0", "RsqrtBackward0"],
    "atan": ["AddBackward1", "DivBackward0", "MulBackward0"],
    "cos": ["MulBackward0", "NegBackward0", "SinBackward0"],
}


def _formula_nodes(lib: ModuleType, op: str) -> list[str]:
    x = lib.tensor([0.3, 0.7], requires_grad=True, dtype=lib.float64)
    (g,) = lib.autograd.grad(getattr(x, op)().sum(), x, create_graph=True)
    seen, names, todo = set(), [], [g.grad_fn]
    while todo:
        node = todo.pop()
        if node is not None and node not in seen:
            seen.add(node)
            names.append(type(node).__name__)
            todo += [n for n, _ in node.next_functions]
    return sorted(n for n in names if n != "AccumulateGrad")


@pytest.mark.parametrize("op", sorted(FORMULA_NODES))
def test_a_recorded_formula_has_pytorchs_nodes(op: str) -> None:
    """The graph a derivative's formula records is PyTorch's, node for node: it is what a second derivative runs
    through, and with the same nodes in the same order the third derivative of asin, acos and tan has PyTorch's
    values too (asin's: 2,000 of 2,000 random points in float32, against 1,431 with ``(1 - x * x).rsqrt()``)."""
    import tinygrad_edu as tg

    assert _formula_nodes(tg, op) == FORMULA_NODES[op]
    torch = pytest.importorskip("torch")
    assert _formula_nodes(torch, op) == FORMULA_NODES[op]


@pytest.mark.parametrize("op", ["asin", "acos"])
def test_a_third_derivative_follows_pytorchs_formulas_to_the_bit(op: str) -> None:
    torch = pytest.importorskip("torch")
    import tinygrad_edu as tg

    points, results = np.random.default_rng(7).uniform(0.05, 0.95, 2000).astype(np.float32), []
    for lib in (tg, torch):
        x = lib.tensor(points, requires_grad=True)
        (g,) = lib.autograd.grad(getattr(x, op)().sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x, create_graph=True)
        (ggg,) = lib.autograd.grad(gg.sum(), x)
        results.append(ggg.detach().numpy())
    assert (results[0] == results[1]).sum() >= 1990

