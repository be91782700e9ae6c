"""The autograd engine and graph, against PyTorch: how gradients flow, accumulate, get freed, hooked and checked.

Each check is written once, as a function of the library module ``lib`` (``tinygrad_edu`` or ``torch``). The test
asserts what tinygrad_edu does (the expected text is spelled out, so the tests mean something without torch) and,
when torch is installed, that PyTorch does exactly the same: same exception type, same message with "torch."
read as "tinygrad_edu.", same warnings, same printed result. Random inputs come from seeded generators.
"""

from __future__ import annotations

import functools
import gc
import sys
import time
import warnings
import weakref
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

# ------------------------------------------------------------------------------------------------ the oracle
from _oracle import as_pytorch, oracle, outcome, raises

import tinygrad_edu as tg
from tinygrad_edu import _messages
from tinygrad_edu.autograd import Function
from tinygrad_edu.autograd.gradcheck import GradcheckError


def returns(fn: Callable[[ModuleType], Any], text: str) -> None:
    """``fn`` returns something printed as ``text``, with no warning, in tinygrad_edu and in PyTorch."""
    as_pytorch(fn, (None, text, []))


@pytest.fixture(autouse=True)
def _grad_mode_is_left_on() -> Iterator[None]:
    """Every test must leave gradient recording on, in both libraries (a leak would break the tests after it)."""
    yield
    libs = [tg] + ([oracle()] if oracle() is not None else [])
    left_on = [lib.is_grad_enabled() for lib in libs]
    for lib in libs:
        lib.set_grad_enabled(True)
    assert all(left_on)


FREED = ("Trying to backward through the graph a second time (or directly access saved tensors after they have "
         "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
         "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
         "you need to access saved tensors after calling backward.")


def modified(shape: str, version: int, expected: int, output_of: str | None = None) -> str:
    """PyTorch's message for a saved tensor changed in place since it was saved."""
    where = f", which is output 0 of {output_of}," if output_of else ""
    return (f"one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[tinygrad_edu.FloatTensor [{shape}]]{where} is at version {version}; expected version {expected} "
            "instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
            "tinygrad_edu.autograd.set_detect_anomaly(True, check_nan=False).")


# ------------------------------------------------------------------------------------------------ fan-in
def test_fan_in_sums_the_gradients_of_every_use() -> None:
    def fn(lib: ModuleType) -> Any:
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = a + a  # two edges into a's AccumulateGrad
        c = b + b
        c.sum().backward()
        return a.grad

    returns(fn, "tensor([4., 4.])")


def test_shared_parents_and_diamonds() -> None:
    def diamond(lib: ModuleType) -> Any:
        a = lib.tensor(3.0, requires_grad=True)
        b = a * 2  # b feeds both c and d; c also uses a directly
        c = b * a  # = 2a^2
        d = c + b  # = 2a^2 + 2a, so dd/da = 4a + 2 = 14
        d.backward()
        return a.grad

    returns(diamond, "tensor(14.)")

    def shared(lib: ModuleType) -> Any:
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 5.0], requires_grad=True)
        h = a * w  # one intermediate used by three consumers
        loss = (h * h).sum() + h.sum() + (h * a).sum()  # h^2 + h + h*a
        loss.backward()
        return a.grad, w.grad

    # d/da = (2h + 1 + a) * w + h = (2aw + 1 + a) w + aw; d/dw = (2h + 1 + a) * a
    returns(shared, "(tensor([ 27., 125.]), tensor([ 8., 46.]))")


def test_the_engine_runs_each_node_once_with_all_its_gradients() -> None:
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    calls = []
    y.grad_fn.register_prehook(lambda grads: calls.append(grads[0].tolist()))
    (y * 3 + y * 4 + y).sum().backward()
    assert calls == [[8.0, 8.0]] and x.grad.tolist() == [8.0, 8.0]


# ------------------------------------------------------------------------------------------------ long chains
def test_a_100000_op_chain_needs_no_recursion_and_is_freed() -> None:
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for i in range(100_000):
        y = y + 0
        if i == 10:
            early = weakref.ref(y.grad_fn)  # a node near the bottom of the chain
    loss = y.sum()
    del y
    start = time.perf_counter()
    loss.backward()  # a recursive engine would hit Python's recursion limit (1000) long before the leaf
    elapsed = time.perf_counter() - start
    assert x.grad.tolist() == [1.0, 1.0]
    assert early() is not None  # the graph lives while its output does ...
    del loss
    assert early() is None  # ... and is freed, all 100 000 nodes, once it is dropped
    assert elapsed < 10, f"backward through 100 000 nodes took {elapsed:.1f}s"
    assert sys.getrecursionlimit() <= 10_000  # nobody raised the limit to make this pass


# ------------------------------------------------------------------------------------------------ freeing
@pytest.fixture
def no_gc() -> Iterator[None]:
    """Only reference counting frees objects while this is active: a reference cycle would keep them alive."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.usefixtures("no_gc")
def test_graphs_are_freed_by_reference_counting_alone() -> None:
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y.exp()  # saves its own output: kept without making a cycle
    loss = (z * y).sum()
    nodes = [weakref.ref(t.grad_fn) for t in (y, z)]
    tensors = [weakref.ref(t) for t in (y, z)]
    accumulator = weakref.ref(y.grad_fn.next_functions[0][0])
    del y, z
    assert all(r() is not None for r in nodes + tensors)  # loss's graph holds them
    del loss
    assert all(r() is None for r in [*nodes, *tensors, accumulator])
    assert x.grad is None


@pytest.mark.usefixtures("no_gc")
def test_no_cycles_after_backward_with_hooks_retain_grad_and_functions() -> None:
    class Exp(Function):
        @staticmethod
        def forward(ctx: Any, a: tg.Tensor) -> tg.Tensor:
            result = a.exp()
            ctx.save_for_backward(a, result)  # an input and an output
            return result

        @staticmethod
        def backward(ctx: Any, g: tg.Tensor) -> tg.Tensor:
            _, result = ctx.saved_tensors
            return g * result

    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 1)
    z = Exp.apply(y)
    z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None)
    loss = (z * y).sum()
    refs = [weakref.ref(o) for o in (y, z, y.grad_fn, z.grad_fn, loss.grad_fn)]
    loss.backward(retain_graph=True)
    assert y.grad is not None
    del y, z, loss
    assert all(r() is None for r in refs)

    y = x * 2
    loss = (Exp.apply(y) * y).sum()
    refs = [weakref.ref(o) for o in (y, y.grad_fn, loss.grad_fn)]
    (g,) = tg.autograd.grad(loss, x, create_graph=True)  # the gradient's own graph holds no cycle either
    del y, loss
    assert g.grad_fn is not None
    del g
    assert all(r() is None for r in refs)


@pytest.mark.usefixtures("no_gc")
@pytest.mark.parametrize("reset_grad", [False, True])
def test_backward_with_create_graph_makes_the_cycle_it_warns_about(reset_grad: bool) -> None:
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (x * x).sum().backward(create_graph=True)
    leaf, node = weakref.ref(x), weakref.ref(x.grad.grad_fn)
    if reset_grad:
        x.grad = None  # what the warning recommends: breaks the cycle
    del x
    if reset_grad:
        assert leaf() is None and node() is None
    else:  # x -> x.grad -> CopyBackwards -> ... -> x's AccumulateGrad -> x: only the garbage collector frees it
        assert leaf() is not None and node() is not None
        gc.collect()
        assert leaf() is None and node() is None


def test_saved_tensors_are_freed_after_backward() -> None:
    def freed(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        y.sum().backward()
        return y.grad_fn._saved_self

    raises(freed, RuntimeError, FREED)

    def retained(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        y.sum().backward(retain_graph=True)
        return y.grad_fn._saved_self is x, y.grad_fn._saved_other is x

    returns(retained, "(True, True)")

    def function_ctx(lib: ModuleType) -> Any:
        class Square(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                ctx.save_for_backward(a)
                return a * a

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                (a,) = ctx.saved_tensors
                return 2 * a * g

        y = Square.apply(lib.tensor([1.0], requires_grad=True))
        y.backward()
        return y.grad_fn.saved_tensors

    raises(function_ctx, RuntimeError, FREED)

    def weak_saved(lib: ModuleType) -> Any:  # freeing really drops the references
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0])
        ref = weakref.ref(w)
        y = x * w
        del w
        alive = ref() is not None
        y.sum().backward()
        return alive, ref() is None

    returns(weak_saved, "(True, True)")


# ------------------------------------------------------------------------------------------------ backward twice
def test_second_backward_without_retain_graph_raises() -> None:
    def twice(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        y.backward()

    raises(twice, RuntimeError, FREED)

    def nothing_saved(lib: ModuleType) -> Any:  # no saved tensors, nothing to miss: allowed, as in PyTorch
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x + 1).sum()
        y.backward()
        y.backward()
        return x.grad

    returns(nothing_saved, "tensor([2., 2.])")


def test_retain_graph_allows_a_second_backward_and_grads_accumulate() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = (x * x).sum()
        y.backward(retain_graph=True)
        first = x.grad.clone()
        y.backward(retain_graph=True)
        second = x.grad.clone()
        y.backward()  # the last one may free
        return first, second, x.grad

    returns(fn, "(tensor([2., 4., 6.]), tensor([ 4.,  8., 12.]), tensor([ 6., 12., 18.]))")


def test_grad_accumulates_in_place_and_zero_resets_it() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x * 3).sum().backward()
        g = x.grad
        (x * x).sum().backward()  # a new graph, the same .grad
        same = g is x.grad
        total = x.grad.clone()
        x.grad.zero_()
        (x * 3).sum().backward()
        return same, total, x.grad

    returns(fn, "(True, tensor([5., 7.]), tensor([3., 3.]))")


# ------------------------------------------------------------------------------------------------ gradients given
def test_backward_with_a_gradient_computes_a_vector_jacobian_product() -> None:
    rng = np.random.default_rng(0)
    a, w, v = (rng.standard_normal(s).astype(np.float32) for s in ((3, 4), (4,), (3,)))

    def fn(lib: ModuleType) -> Any:
        x = lib.tensor(w, requires_grad=True)
        y = lib.tensor(a) @ x  # J = a
        y.backward(gradient=lib.tensor(v))
        return x.grad.numpy()

    ours = fn(tg)
    np.testing.assert_allclose(ours, a.T @ v, rtol=1e-5)  # v^T J
    if oracle() is not None:
        np.testing.assert_allclose(ours, fn(oracle()), rtol=1e-6)

    def elementwise(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        (x * x).backward(lib.tensor([1.0, 0.1, 0.01]))  # weights on each output
        return x.grad

    returns(elementwise, "tensor([2.0000, 0.4000, 0.0600])")


def test_gradient_errors() -> None:
    def x2(lib: ModuleType) -> Any:
        return lib.tensor([1.0, 2.0], requires_grad=True) * 2

    raises(lambda lib: x2(lib).backward(lib.ones(3)), RuntimeError,
           "Mismatch in shape: grad_output[0] has a shape of tinygrad_edu.Size([3]) and output[0] has a shape of "
           "tinygrad_edu.Size([2]).")
    raises(lambda lib: x2(lib).sum().backward(lib.ones(1)), RuntimeError,  # not even broadcasting
           "Mismatch in shape: grad_output[0] has a shape of tinygrad_edu.Size([1]) and output[0] has a shape of "
           "tinygrad_edu.Size([]).")
    raises(lambda lib: x2(lib).backward(), RuntimeError, "grad can be implicitly created only for scalar outputs")
    returns(lambda lib: x2(lib)[:1].backward(), "None")  # one element is enough
    raises(lambda lib: x2(lib).backward([1.0, 1.0]), TypeError,
           "gradients can be either Tensors or None, but got float")
    raises(lambda lib: (lib.tensor([1.0]) * 2).sum().backward(), RuntimeError,
           "element 0 of tensors does not require grad and does not have a grad_fn")
    raises(lambda lib: (lib.tensor([1.0, 2.0]) * 2).backward(lib.ones(3)), RuntimeError,  # the shape comes first
           "Mismatch in shape: grad_output[0] has a shape of tinygrad_edu.Size([3]) and output[0] has a shape of "
           "tinygrad_edu.Size([2]).")

    def under_no_grad(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            y = (x * 2).sum()
        y.backward()

    raises(under_no_grad, RuntimeError, "element 0 of tensors does not require grad and does not have a grad_fn")


def test_backward_inputs_limits_which_tensors_get_grad() -> None:
    def leaves(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        (x * w).sum().backward(inputs=[x])
        (x * w).sum().backward(inputs=w)  # a single tensor works too
        return x.grad, w.grad

    returns(leaves, "(tensor([3., 4.]), tensor([1., 2.]))")

    def non_leaf(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        m = x * 2
        y = (m * m).sum()
        y.backward(inputs=[m], retain_graph=True)  # m now retains its grad, for good
        first = (m.retains_grad, m.grad.clone(), x.grad)
        y.backward()
        return first, m.grad, x.grad

    returns(non_leaf, "((True, tensor([4., 8.]), None), tensor([ 8., 16.]), tensor([ 8., 16.]))")

    def unused(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        u = lib.tensor([3.0], requires_grad=True)
        (x * 2).sum().backward(inputs=[x, u])
        return x.grad, u.grad

    returns(unused, "(tensor([2., 2.]), None)")
    raises(lambda lib: (lib.tensor([1.0], requires_grad=True) * 2).sum().backward(inputs=[lib.tensor([1.0])]),
           RuntimeError, "can't retain_grad on Tensor that has requires_grad=False")
    raises(lambda lib: (lib.tensor([1.0], requires_grad=True) * 2).sum().backward(inputs=[]), RuntimeError,
           "`inputs` argument to `backward()` cannot be empty.")


def test_autograd_backward_takes_several_tensors_and_gradients() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.backward([x * 2, x * 3], [lib.ones(2), lib.tensor([1.0, 2.0])])  # 2 + 3 * [1, 2]
        lib.autograd.backward([(x * 2).sum(), (x * 3).sum()])  # None gradients: both scalars; + 2 + 3
        lib.autograd.backward((x * x).sum(), grad_tensors=lib.tensor(2.0))  # + 2 * 2x
        return x.grad

    returns(fn, "tensor([14., 21.])")

    def too_few(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.backward([x * 2, x * 3], [lib.ones(2)])

    raises(too_few, RuntimeError, "got 2 tensors and 1 gradients")


# ------------------------------------------------------------------------------------------------ autograd.grad
def test_autograd_grad() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        y = x * w
        gx, gw = lib.autograd.grad(y, [x, w], grad_outputs=lib.tensor([1.0, 10.0]), retain_graph=True)
        (m,) = lib.autograd.grad(y.sum(), y)  # with respect to a non-leaf
        return gx, gw, m, x.grad, w.grad  # .grad is left alone

    returns(fn, "(tensor([ 3., 40.]), tensor([ 1., 20.]), tensor([1., 1.]), None, None)")

    def twice(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        lib.autograd.grad(y, x)
        lib.autograd.grad(y, x)

    raises(twice, RuntimeError, FREED)


def test_autograd_grad_unused_inputs() -> None:
    def setup(lib: ModuleType) -> tuple:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        u = lib.tensor([5.0], requires_grad=True)
        return (x * 2).sum(), x, u

    def unused(lib: ModuleType) -> Any:
        y, x, u = setup(lib)
        return lib.autograd.grad(y, [x, u])

    raises(unused, RuntimeError, "The differentiated Tensor at index 1 appears to not have been used in the graph. "
           "Set allow_unused=True if this is the desired behavior.")

    def allowed(lib: ModuleType) -> Any:
        y, x, u = setup(lib)
        return lib.autograd.grad(y, [u, x], allow_unused=True)

    returns(allowed, "(None, tensor([2., 2.]))")

    def materialized(lib: ModuleType) -> Any:
        y, x, u = setup(lib)
        return lib.autograd.grad(y, [x, u], materialize_grads=True)

    returns(materialized, "(tensor([2., 2.]), tensor([0.]))")

    def contradiction(lib: ModuleType) -> Any:
        y, x, u = setup(lib)
        return lib.autograd.grad(y, [x, u], allow_unused=False, materialize_grads=True)

    raises(contradiction, ValueError, "Expected allow_unused to be True or not passed when materialize_grads=True, "
           "but got: allow_unused=False.")


def test_autograd_grad_errors_and_only_inputs() -> None:
    def only_inputs(flag: bool) -> Callable[[ModuleType], Any]:
        def fn(lib: ModuleType) -> Any:
            x = lib.tensor([1.0, 2.0], requires_grad=True)
            return lib.autograd.grad((x * 2).sum(), x, only_inputs=flag)

        return fn

    returns(only_inputs(True), "(tensor([2., 2.]),)")
    as_pytorch(only_inputs(False), (None, "(tensor([2., 2.]),)", [  # accepted and ignored, with a warning
        "FutureWarning: only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
        "gradient for other parts of the graph, please use tinygrad_edu.autograd.backward."]))
    raises(lambda lib: lib.autograd.grad((lib.tensor([1.0], requires_grad=True) * 2).sum(), lib.tensor([1.0])),
           RuntimeError, "One of the differentiated Tensors does not require grad")
    raises(lambda lib: lib.autograd.grad(lib.tensor([1.0]).sum(), lib.tensor([1.0])), RuntimeError,
           "element 0 of tensors does not require grad and does not have a grad_fn")
    raises(lambda lib: lib.autograd.grad((lib.tensor([1.0], requires_grad=True) * 2).sum(), []), RuntimeError,
           "`inputs` argument to `grad()` cannot be empty.")

    def grad_outputs_shape(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return lib.autograd.grad(x * 2, x, grad_outputs=lib.ones(3))

    raises(grad_outputs_shape, RuntimeError, "Mismatch in shape: grad_output[0] has a shape of "
           "tinygrad_edu.Size([3]) and output[0] has a shape of tinygrad_edu.Size([2]).")

    def extra_grad_outputs(lib: ModuleType) -> Any:  # paired with zip, as in PyTorch: the extra one is ignored
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return lib.autograd.grad([(x * 2).sum()], [x], [lib.tensor(1.0), lib.ones(2)])

    returns(extra_grad_outputs, "(tensor([2., 2.]),)")


# ------------------------------------------------------------------------------------------------ higher order
def test_third_derivative_of_x_cubed() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor(2.0, requires_grad=True)
        y = x ** 3
        (g1,) = lib.autograd.grad(y, x, create_graph=True)  # 3x^2 = 12
        (g2,) = lib.autograd.grad(g1, x, create_graph=True)  # 6x = 12
        (g3,) = lib.autograd.grad(g2, x)  # 6
        return g1.item(), g2.item(), g3.item(), g1.requires_grad, g3.requires_grad

    returns(fn, "(12.0, 12.0, 6.0, True, False)")


def hessian_setup(lib: ModuleType) -> tuple:
    """f(x) = x0^2 x1 + x1^3 at (1, 2): gradient (2 x0 x1, x0^2 + 3 x1^2), Hessian [[2 x1, 2 x0], [2 x0, 6 x1]]."""
    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    f = x[0] ** 2 * x[1] + x[1] ** 3
    (g,) = lib.autograd.grad(f, x, create_graph=True)
    return x, g


def test_hessian_of_a_function_of_two_variables() -> None:
    def fn(lib: ModuleType) -> Any:
        x, g = hessian_setup(lib)
        rows = [lib.autograd.grad(g, x, grad_outputs=lib.eye(2, dtype=lib.float64)[i], retain_graph=True)[0]
                for i in range(2)]
        return g.tolist(), [r.tolist() for r in rows]

    returns(fn, "([4.0, 13.0], [[4.0, 2.0], [2.0, 12.0]])")


def test_hessian_vector_product() -> None:
    def fn(lib: ModuleType) -> Any:
        x, g = hessian_setup(lib)
        v = lib.tensor([1.0, -1.0], dtype=lib.float64)
        (hv,) = lib.autograd.grad(g, x, grad_outputs=v)  # H v, without building H
        return hv.tolist()

    returns(fn, "[2.0, -10.0]")

    def by_dot(lib: ModuleType) -> Any:
        x, g = hessian_setup(lib)
        (hv,) = lib.autograd.grad((g * lib.tensor([1.0, -1.0], dtype=lib.float64)).sum(), x)
        return hv.tolist()

    returns(by_dot, "[2.0, -10.0]")


def test_backward_with_create_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_messages, "_warned", set())  # PyTorch warns once per process; start afresh

    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x ** 3).sum().backward(create_graph=True)  # x.grad = 3x^2, with a graph of its own
        first = (x.grad.tolist(), x.grad.grad_fn.name(), x.grad.is_leaf)
        g = x.grad
        x.grad.sum().backward()  # adds d(sum 3x^2)/dx = 6x into the same .grad, in place
        return first, x.grad, g is x.grad

    ours = outcome(fn, tg)
    assert ours == (None, "(([3.0, 12.0], 'tinygrad_edu::autograd::CopyBackwards', False), "
                          "tensor([ 9., 24.], grad_fn=<CopyBackwards>), True)", [
        "UserWarning: Using backward() with create_graph=True will create a reference cycle between the parameter and "
        "its gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
        "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters to None "
        "after use to break the cycle and avoid the leak."])
    if oracle() is not None:
        assert outcome(fn, oracle())[:2] == ours[:2]  # (its warning may have been used up already)

    def own_gradient_is_copied(lib: ModuleType) -> Any:  # .grad must not alias the caller's gradient tensor
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        v = lib.tensor([1.0, 1.0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            (x + 0).backward(v, create_graph=True)
        (x + 0).backward(v)
        return v, x.grad

    returns(own_gradient_is_copied, "(tensor([1., 1.]), tensor([2., 2.]))")


# ------------------------------------------------------------------------------------------------ in place
def test_changing_a_saved_tensor_in_place_is_caught() -> None:
    def saved_input(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x + 1
        z = y * y  # saves y
        y.add_(1)  # now y's history ends in the add_ (an Add)
        z.sum().backward()

    raises(saved_input, RuntimeError, modified("2", 1, 0, "Add"))

    def saved_output(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.sigmoid()  # saves its own output
        y.mul_(2)
        y.add_(3)
        y.sum().backward()

    raises(saved_output, RuntimeError, modified("2", 2, 0, "Sigmoid"))

    def saved_leaf(lib: ModuleType) -> Any:
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        w = lib.tensor([[1.0, 0.0], [0.0, 1.0]])
        z = x @ w  # saves w, a leaf that needs no grad: no "output of" part
        w.add_(1)
        z.sum().backward()

    raises(saved_leaf, RuntimeError, modified("2, 2", 1, 0))

    def accessing_it(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 1
        z = y * y
        y.mul_(2)
        return z.grad_fn._saved_self

    raises(accessing_it, RuntimeError, modified("2", 1, 0, "Mul"))


def test_in_place_on_a_leaf_that_requires_grad() -> None:
    message = "a leaf Variable that requires grad is being used in an in-place operation."
    raises(lambda lib: lib.tensor([1.0], requires_grad=True).add_(1), RuntimeError, message)
    raises(lambda lib: lib.tensor([1.0], requires_grad=True).mul_(lib.tensor([2.0])), RuntimeError, message)

    def iadd(lib: ModuleType) -> Any:
        x = lib.tensor([1.0], requires_grad=True)
        x += 1

    raises(iadd, RuntimeError, message)

    def sgd_step(lib: ModuleType) -> Any:  # the way optimizers do it
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()
        with lib.no_grad():
            x -= 0.1 * x.grad
        return x, x.is_leaf, x.grad_fn, x._version

    returns(sgd_step, "(tensor([0.8000, 1.6000], requires_grad=True), True, None, 1)")


def test_item_assignment_on_a_leaf_that_requires_grad() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x[0] = 5.0

    raises(fn, RuntimeError, "a view of a leaf Variable that requires grad is being used in an in-place operation.")


def test_in_place_on_a_non_leaf_works_and_moves_its_grad_fn() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        before = y.grad_fn
        y.add_(1)
        after = (y.grad_fn.name(), y.grad_fn is before, y.grad_fn.next_functions[0][0] is before, y._version)
        y.mul_(3)  # y = (2x + 1) * 3
        y.sum().backward()
        return after, y.grad_fn.name(), y._version, x.grad

    returns(fn, "(('AddBackward0', False, True, 1), 'MulBackward0', 2, tensor([6., 6.]))")

    def needs_no_grad_yet(lib: ModuleType) -> Any:  # a plain tensor joins the graph through an in-place op
        a = lib.tensor([1.0, 2.0])
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        a.mul_(w)
        flags = (a.requires_grad, a.is_leaf, a.grad_fn.name())
        a.sum().backward()
        return flags, w.grad

    returns(needs_no_grad_yet, "((True, False, 'MulBackward0'), tensor([1., 2.]))")


# ------------------------------------------------------------------------------------------------ nodes
def test_node_names_and_next_functions() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        c = lib.tensor([3.0, 4.0])
        y = x * c
        z = (y + x).sum()
        add = z.grad_fn.next_functions[0][0]
        acc = add.next_functions[1][0]
        return (z.grad_fn.name(), z.grad_fn.next_functions, add.name(), add.next_functions,
                y.grad_fn.next_functions, acc.name(), acc.variable is x, acc.next_functions,
                acc is y.grad_fn.next_functions[0][0])

    returns(fn, "('SumBackward0', ((<AddBackward0 object at 0x...>, 0),), 'AddBackward0', "
                "((<MulBackward0 object at 0x...>, 0), (<AccumulateGrad object at 0x...>, 0)), "
                "((<AccumulateGrad object at 0x...>, 0), (None, 0)), 'tinygrad_edu::autograd::AccumulateGrad', True, "
                "(), True)")


def test_multi_output_nodes_number_their_outputs() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        a, b = x.unbind(0)
        s = a + b * 2
        return s.grad_fn.next_functions, a.grad_fn is b.grad_fn, a.output_nr, b.output_nr

    returns(fn, "(((<UnbindBackward0 object at 0x...>, 0), (<MulBackward0 object at 0x...>, 0)), True, 0, 1)")


def test_saved_values_on_nodes() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0])
        m = x * w
        e = x.exp()
        p = x ** 3
        return (m.grad_fn._saved_self, m.grad_fn._saved_other is w, e.grad_fn._saved_result.equal(e),
                p.grad_fn._saved_self is x, p.grad_fn._saved_exponent)

    # x * w only needs w for x's gradient: x itself is not kept (None), as in PyTorch
    returns(fn, "(None, True, True, True, 3)")

    def result_after_backward(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        e = x.exp()
        p = x ** 3
        (e.sum() + p.sum()).backward()
        return p.grad_fn._saved_exponent  # numbers stay: only tensors are freed

    returns(result_after_backward, "3")
    raises(lambda lib: (lambda e: (e.sum().backward(), e.grad_fn._saved_result))(
        lib.tensor([1.0], requires_grad=True).exp()), RuntimeError, FREED)


def test_a_saved_python_number_keeps_its_type() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return (x * 2).grad_fn._saved_other, (x / 3).grad_fn._saved_other, (x * 2.5).grad_fn._saved_other

    returns(fn, "(tensor(2), tensor(3), tensor(2.5000, dtype=tinygrad_edu.float64))")


def test_a_slot_that_saved_nothing_still_reads_none_after_backward() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        z = (x + 2) * 3  # the multiplication saves the 3 (for x's gradient), not x + 2
        before = z.grad_fn._saved_self
        z.sum().backward()
        return before, z.grad_fn._saved_self

    returns(fn, "(None, None)")
    raises(lambda lib: (lambda z: (z.sum().backward(), z.grad_fn._saved_other))(
        lib.tensor([1.0], requires_grad=True) * 3), RuntimeError, FREED)


def test_node_hooks() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        seen = []
        y.grad_fn.register_prehook(lambda grad_outputs: seen.append(("pre", grad_outputs)))
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(("post", grad_inputs, grad_outputs)))
        acc = y.grad_fn.next_functions[0][0]
        acc.register_hook(lambda grad_inputs, grad_outputs: seen.append(("acc", grad_inputs, grad_outputs)))
        y.sum().backward()
        return seen

    returns(fn, "[('pre', (tensor([1., 1.]),)), ('post', (tensor([2., 2.]), None), (tensor([1., 1.]),)), "
                "('acc', (), (tensor([2., 2.]),))]")

    def modifying(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
        handle = y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] + 1, None))
        y.sum().backward(retain_graph=True)
        first = x.grad.clone()
        handle.remove()
        x.grad = None
        y.sum().backward()
        return first, x.grad

    returns(modifying, "(tensor([21., 21.]), tensor([20., 20.]))")


@pytest.mark.parametrize(("kind", "hook", "exc", "message"), [
    ("post", lambda gi, go: 5, TypeError, "expected tuple, but hook returned 'int'"),
    ("post", lambda gi, go: [gi[0], None], TypeError, "expected tuple, but hook returned 'list'"),
    ("post", lambda gi, go: (gi[0], gi[0], gi[0]), RuntimeError,
     "hook '<lambda>' has returned an incorrect number of values (got 3, but expected 2)"),
    ("post", lambda gi, go: (gi[0], gi[0]), RuntimeError, "can't replace a None gradient with a non-None value"),
    ("post", lambda gi, go: (1, None), TypeError, "expected Variable, but hook returned 'int'"),
    ("post", lambda gi, go: (gi[0][:1], None), RuntimeError, "hook '<lambda>' has changed the size of value"),
    ("pre", lambda go: (go[0], go[0]), RuntimeError,
     "hook '<lambda>' has returned an incorrect number of values (got 2, but expected 1)"),
    ("pre", lambda go: (go[0].double(),), RuntimeError,
     "hook '<lambda>' has changed the type of value (was tinygrad_edu.FloatTensor got tinygrad_edu.DoubleTensor)"),
])
def test_node_hook_results_are_checked(kind: str, hook: Callable, exc: type[Exception], message: str) -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        (y.grad_fn.register_hook if kind == "post" else y.grad_fn.register_prehook)(hook)
        y.sum().backward()

    raises(fn, exc, message)


def test_node_metadata_and_direct_call() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        y.grad_fn.metadata["note"] = "square"
        return y.grad_fn.metadata, y.grad_fn(lib.ones(2)), isinstance(y.grad_fn, lib.autograd.graph.Node)

    # a node called by hand returns d(y)/d(each input) * g, recorded (grad mode is on): x * x -> (g * x, g * x)
    returns(fn, "({'note': 'square'}, (tensor([1., 2.], grad_fn=<MulBackward0>), tensor([1., 2.], "
                "grad_fn=<MulBackward0>)), True)")


# ------------------------------------------------------------------------------------------------ tensor hooks
def test_tensor_hooks_modify_the_gradient() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: g * 10)  # on a leaf: changes what is accumulated
        y = x * 1
        handle = y.register_hook(lambda g: g + 1)  # on a non-leaf: changes what flows on
        (y * 3).sum().backward(retain_graph=True)
        first = x.grad.clone()
        handle.remove()
        x.grad = None
        (y * 3).sum().backward()
        return first, x.grad

    returns(fn, "(tensor([40., 40.]), tensor([30., 30.]))")


def test_tensor_hooks_fire_once_with_the_summed_gradient() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 1
        seen = []
        x.register_hook(lambda g: seen.append(("x", g.clone())))
        y.register_hook(lambda g: seen.append(("y", g.clone())))
        (y * 3 + y * 4 + x * 5).sum().backward()
        return seen

    returns(fn, "[('y', tensor([7., 7.])), ('x', tensor([12., 12.]))]")


def test_leaf_hooks_also_run_for_autograd_grad() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        seen = []
        x.register_hook(lambda g: seen.append(g.clone()))
        x.register_hook(lambda g: g * 10)  # hooks run in the order they were registered
        (g,) = lib.autograd.grad((x * 2).sum(), x)  # what grad() returns is the hooked gradient
        return g, seen, x.grad

    returns(fn, "(tensor([20., 20.]), [tensor([2., 2.])], None)")


def test_backward_works_under_no_grad() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        with lib.no_grad():
            y.backward(retain_graph=True)
            (g,) = lib.autograd.grad(y, x, create_graph=True)  # create_graph records even here
            inside = lib.is_grad_enabled()
        return x.grad, g, inside

    returns(fn, "(tensor([2., 4.]), tensor([2., 4.], grad_fn=<AddBackward0>), False)")  # x * x: two paths, summed


def test_hooks_and_retain_grad_order() -> None:
    def hook_first(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: g * 10)
        y.retain_grad()
        y.sum().backward()
        return y.grad, x.grad

    def retain_first(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        y.register_hook(lambda g: g * 10)
        y.sum().backward()
        return y.grad, x.grad

    # retain_grad always sees the gradient after every hook, wherever it was registered
    returns(hook_first, "(tensor([10., 10.]), tensor([20., 20.]))")
    returns(retain_first, "(tensor([10., 10.]), tensor([20., 20.]))")

    def accumulates(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        z = (y * y).sum()
        z.backward(retain_graph=True)
        z.backward()
        return y.grad

    returns(accumulates, "tensor([ 8., 16.])")


def named_hook(g: Any) -> Any:
    return g[:1]


@pytest.mark.parametrize(("leaf", "hook", "exc", "message"), [
    (True, lambda g: 1, TypeError, "expected Variable, but hook returned 'int'"),
    (False, lambda g: [1.0, 2.0], TypeError, "expected Variable, but hook returned 'list'"),
    (True, lambda g: g[:1], RuntimeError, "hook '<lambda>' has changed the size of value"),
    (False, named_hook, RuntimeError, "hook 'named_hook' has changed the size of value"),
    (False, functools.partial(named_hook), RuntimeError, "hook '<unknown>' has changed the size of value"),
    (False, lambda g: g.reshape(2, 1), RuntimeError, "hook '<lambda>' has changed the size of value"),
    (True, lambda g: g.double(), RuntimeError,
     "hook '<lambda>' has changed the type of value (was tinygrad_edu.FloatTensor got tinygrad_edu.DoubleTensor)"),
])
def test_tensor_hook_results_are_checked(leaf: bool, hook: Callable, exc: type[Exception], message: str) -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x if leaf else x * 1
        y.register_hook(hook)
        (y * 2).sum().backward()

    raises(fn, exc, message)


# ------------------------------------------------------------------------------------------------ saved-tensor hooks
def test_saved_tensors_hooks_see_every_saved_tensor_and_every_use() -> None:
    def run(lib: ModuleType) -> tuple:
        log: list = []

        def pack(t: Any) -> Any:
            log.append(("pack", list(t.shape), t.requires_grad, t.grad_fn is not None))
            return t

        def unpack(t: Any) -> Any:
            log.append(("unpack", list(t.shape)))
            return t

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0])
        with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = x * w  # saves w (for x's gradient): an input
            z = y.exp()  # saves its result: an output, with its grad_fn
        packed = list(log)
        log.clear()
        other = y.grad_fn._saved_other  # reading a saved tensor unpacks it, even after the block
        z.sum().backward()
        return packed, other, log, x.grad

    as_pytorch(run, (None, "([('pack', [2], False, False), ('pack', [2], True, True)], tensor([3., 4.]), "
                           "[('unpack', [2]), ('unpack', [2]), ('unpack', [2])], tensor([   60.2566, 11923.8320]))",
                     []))


def test_saved_tensors_hooks_pack_in_pytorchs_order() -> None:
    """A pack hook sees the saved tensors in PyTorch's order: products, quotients, powers, maximum/minimum and
    mm pack their second operand first."""

    def run(lib: ModuleType) -> str:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([3.0, 4.0], requires_grad=True)
        m = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        n = lib.tensor([[5.0, 6.0], [7.0, 8.0]], requires_grad=True)
        names = {id(x): "x", id(y): "y", id(m): "m", id(n): "n"}
        lines = []
        for name, op in [("x * y", lambda: x * y), ("x / y", lambda: x / y), ("x ** y", lambda: x ** y),
                         ("maximum", lambda: lib.maximum(x, y)), ("minimum", lambda: lib.minimum(x, y)),
                         ("m @ n", lambda: m @ n), ("m @ x", lambda: m @ x), ("x.exp() * y", lambda: x.exp() * y)]:
            order: list[str] = []

            def pack(t: Any, order: list = order) -> Any:
                order.append(names.get(id(t), "result"))
                return t

            with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
                op()
            lines.append(f"{name}: {' '.join(order)}")
        return "; ".join(lines)

    as_pytorch(run, (None, repr("x * y: y x; x / y: y x; x ** y: y x result; maximum: y x; minimum: y x; m @ n: n m; "
                                "m @ x: m x; x.exp() * y: result y result"), []))


def test_saved_tensors_hooks_own_the_value_no_version_check() -> None:
    """A pack hook that copies protects against later in-place changes; one that keeps the tensor itself
    lets them through unnoticed (no version check with hooks, as in PyTorch)."""
    def run(lib: ModuleType, pack: Callable) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            a = x * 1
            b = a * a
            a.add_(1)
        b.sum().backward()
        return x.grad

    as_pytorch(functools.partial(run, pack=lambda t: t.clone()), (None, "tensor([2., 4.])", []))
    as_pytorch(functools.partial(run, pack=lambda t: t), (None, "tensor([4., 6.])", []))


def test_saved_tensors_hooks_apply_to_custom_functions_and_nest() -> None:
    class Square(Function):
        @staticmethod
        def forward(ctx: Any, a: tg.Tensor) -> tg.Tensor:
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx: Any, g: tg.Tensor) -> tg.Tensor:
            (a,) = ctx.saved_tensors
            return 2 * a * g

    log: list = []
    x = tg.tensor([3.0], requires_grad=True)
    with tg.autograd.graph.saved_tensors_hooks(lambda t: log.append("outer") or ("outer", t), lambda p: p[1]):
        with tg.autograd.graph.saved_tensors_hooks(lambda t: log.append("inner") or ("inner", t),
                                                   lambda p: log.append(f"unpack {p[0]}") or p[1]):
            y = Square.apply(x)  # the innermost block's hooks apply
        z = y.exp()  # back in the outer block
    z.backward()
    assert log == ["inner", "outer", "unpack inner"]  # the outer unpack hook writes nothing
    np.testing.assert_allclose(x.grad.numpy(), [2 * 3.0 * np.exp(9.0)], rtol=1e-6)


def test_a_pack_hooks_own_operations_are_saved_plainly() -> None:
    calls: list = []

    def pack(t: tg.Tensor) -> tg.Tensor:
        calls.append(list(t.shape))
        t.exp()  # records an op that saves its result: must not call pack again
        return t

    x = tg.tensor([1.0, 2.0], requires_grad=True)
    with tg.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        x.exp().sum().backward()
    assert calls == [[2]] and tg.autograd.graph.SAVED_TENSOR_HOOKS == []


def test_a_python_number_saved_by_an_op_is_not_shown_to_the_hooks() -> None:
    def run(lib: ModuleType) -> tuple:
        kept: list = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: kept.append(t) or t, lambda t: t):
            y = x * 3  # MulBackward0 keeps the wrapped number 3 (its _saved_other) to itself
        return kept, y.grad_fn._saved_other

    as_pytorch(run, (None, "([], tensor(3))", []))


def test_an_unpack_hook_must_return_a_tensor() -> None:
    def run(lib: ModuleType) -> None:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 3):
            y = x * x
        y.sum().backward()

    raises(run, TypeError, "Output of saved tensor unpack_hook expected to be a Tensor but got result of type int")


# ------------------------------------------------------------------------------------------------ more of autograd
def test_backward_of_an_integer_result_says_it_needs_no_grad() -> None:
    raises(lambda lib: lib.tensor([1, 2]).sum().backward(), RuntimeError,
           "element 0 of tensors does not require grad and does not have a grad_fn")


def test_grad_with_a_batch_of_vectors_gives_a_jacobian_in_one_call() -> None:
    def run(lib: ModuleType) -> tuple:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        jacobian = lib.autograd.grad(x * x, x, lib.eye(2), is_grads_batched=True)
        two_outputs = lib.autograd.grad([x * x, x.sum()], x, [lib.eye(2), lib.ones(2)], is_grads_batched=True)
        return jacobian, two_outputs

    as_pytorch(run, (None, "((tensor([[2., 0.],\n        [0., 4.]]),), (tensor([[3., 1.],\n        [1., 5.]]),))",
                     []))


def test_anomaly_detection_stops_where_a_nan_is_born() -> None:
    def run(lib: ModuleType, check_nan: bool) -> Any:
        x = lib.tensor([0.0, 1.0], requires_grad=True)
        with lib.autograd.detect_anomaly(check_nan=check_nan):
            y = (x.sqrt() * 0).sum()  # sqrt'(0) = inf, times 0: nan
            y.backward()
        return x.grad

    enabled = ("UserWarning: Anomaly Detection has been enabled. This mode will increase the runtime and should "
               "only be enabled for debugging.")
    for lib in (tg, oracle()):
        if lib is None:
            continue
        kind, text, caught = outcome(functools.partial(run, check_nan=True), lib)
        assert (kind, text) == ("RuntimeError", "Function 'SqrtBackward0' returned nan values in its 0th output.")
        assert caught[0] == enabled  # (the traceback in the next warning lists the caller's frames: compared apart)
        assert caught[1].startswith("UserWarning: Error detected in SqrtBackward0. Traceback of forward call")
        assert caught[1].rstrip().endswith("y = (x.sqrt() * 0).sum()  # sqrt'(0) = inf, times 0: nan")
        assert outcome(functools.partial(run, check_nan=False), lib) == (None, "tensor([nan, 0.])", [enabled])


def test_a_post_accumulate_grad_hook_sees_the_finished_grad() -> None:
    def run(lib: ModuleType) -> tuple:
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        seen = []
        handle = w.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.clone()))
        (w * 3).sum().backward()
        (w * w).sum().backward()  # accumulated: the hook sees 3 + 2w
        handle.remove()
        (w * 3).sum().backward()
        return seen, w.grad

    as_pytorch(run, (None, "([tensor([3., 3.]), tensor([5., 7.])], tensor([ 8., 10.]))", []))
    raises(lambda lib: (lib.tensor([1.0], requires_grad=True) * 2).register_post_accumulate_grad_hook(print),
           RuntimeError, "post accumulate grad hooks cannot be registered on non-leaf tensors")
    raises(lambda lib: lib.tensor([1.0]).register_post_accumulate_grad_hook(print), RuntimeError,
           "cannot register a hook on a tensor that doesn't require gradient")

    def returns_something(lib: ModuleType) -> None:
        w = lib.tensor([1.0], requires_grad=True)
        w.register_post_accumulate_grad_hook(lambda t: 5)
        (w * 3).sum().backward()

    raises(returns_something, TypeError, "expected Variable, but hook returned 'int'")


# ------------------------------------------------------------------------------------------------ grad modes
def test_grad_mode_context_managers_nest() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0], requires_grad=True)
        seen = []
        with lib.no_grad():
            seen.append((lib.is_grad_enabled(), (x * 2).requires_grad))
            with lib.enable_grad():
                seen.append((lib.is_grad_enabled(), (x * 2).requires_grad))
            with lib.set_grad_enabled(True):
                seen.append(lib.is_grad_enabled())
            seen.append(lib.is_grad_enabled())
        with lib.set_grad_enabled(False):
            seen.append(lib.is_grad_enabled())
        with lib.inference_mode():
            seen.append((lib.is_grad_enabled(), lib.is_inference_mode_enabled(), (x * 2).requires_grad))
        with lib.inference_mode(False):
            seen.append((lib.is_grad_enabled(), lib.is_inference_mode_enabled()))
        seen.append((lib.is_grad_enabled(), lib.is_inference_mode_enabled()))
        return seen

    returns(fn, "[(False, False), (True, True), True, False, False, (False, True, False), (True, False), "
                "(True, False)]")


def test_set_grad_enabled_as_a_plain_call() -> None:
    def fn(lib: ModuleType) -> Any:
        lib.set_grad_enabled(False)
        off = (lib.is_grad_enabled(), (lib.tensor([1.0], requires_grad=True) * 2).requires_grad)
        lib.set_grad_enabled(mode=True)
        return off, lib.is_grad_enabled(), lib.set_grad_enabled(True)

    returns(fn, "((False, False), True, tinygrad_edu.autograd.grad_mode.set_grad_enabled(mode=True))")


def test_grad_modes_as_decorators() -> None:
    def fn(lib: ModuleType) -> Any:
        @lib.no_grad()
        def off() -> bool:
            return lib.is_grad_enabled()

        @lib.no_grad
        def off_without_parentheses() -> bool:
            return lib.is_grad_enabled()

        @lib.enable_grad()
        def on() -> bool:
            return lib.is_grad_enabled()

        @lib.set_grad_enabled(False)
        def set_off() -> bool:
            return lib.is_grad_enabled()

        @lib.inference_mode
        def inference() -> tuple:
            return lib.is_grad_enabled(), lib.is_inference_mode_enabled()

        after_decorating = lib.is_grad_enabled()  # set_grad_enabled(False) as a decorator must not stay set
        with lib.no_grad():
            inside = (on(), set_off(), lib.is_grad_enabled())
        return (off(), off_without_parentheses(), set_off(), inference(), after_decorating, inside,
                lib.is_grad_enabled(), off.__name__)

    returns(fn, "(False, False, False, (False, True), True, (True, False, False), True, 'off')")


def test_decorators_restore_the_mode_when_the_function_raises() -> None:
    def fn(lib: ModuleType) -> Any:
        def boom() -> None:
            raise ValueError("boom")

        seen = []
        for decorator in (lib.no_grad, lib.enable_grad, lambda: lib.set_grad_enabled(False), lib.inference_mode):
            with lib.no_grad():  # start from off, so enable_grad has something to restore too
                try:
                    decorator()(boom)()
                except ValueError:
                    seen.append(lib.is_grad_enabled())
            seen.append(lib.is_grad_enabled())
        try:
            with lib.no_grad():
                boom()
        except ValueError:
            seen.append(lib.is_grad_enabled())
        return seen, lib.is_inference_mode_enabled()

    returns(fn, "([False, True, False, True, False, True, False, True, True], False)")


def test_decorated_generators_run_each_step_in_the_mode() -> None:
    def fn(lib: ModuleType) -> Any:
        @lib.no_grad()
        def steps() -> Iterator[bool]:
            received = yield lib.is_grad_enabled()
            yield received, lib.is_grad_enabled()

        gen = steps()
        first = next(gen)
        between = lib.is_grad_enabled()
        second = gen.send("hi")
        return first, between, second

    returns(fn, "(False, True, ('hi', False))")


def test_inference_tensors_are_refused_by_autograd() -> None:
    def saved(lib: ModuleType) -> Any:
        with lib.inference_mode():
            y = lib.ones(2)
        (y * lib.tensor([1.0, 2.0], requires_grad=True)).sum().backward()

    raises(saved, RuntimeError, "Inference tensors cannot be saved for backward. Please do not use Tensors created "
           "in inference mode in computation tracked by autograd. To work around this, you can make a clone to get a "
           "normal tensor and use it in autograd, or use `tinygrad_edu.no_grad()` instead of "
           "`tinygrad_edu.inference_mode()`.")

    def marks(lib: ModuleType) -> Any:
        with lib.inference_mode():
            y = lib.ones(2)
            y.add_(1)  # allowed inside
            z = y * 2
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        return (y.is_inference(), z.is_inference(), y.detach().is_inference(), y[0].is_inference(),
                y.clone().is_inference(), lib.ones(1).is_inference(), y + w, y)

    returns(marks, "(True, True, True, True, False, False, tensor([3., 4.], grad_fn=<AddBackward0>), tensor([2., 2.]))")

    def inference_tensor(lib: ModuleType) -> Any:
        with lib.inference_mode():
            return lib.ones(2)

    inplace = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get "
               "a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more "
               "details.")
    raises(lambda lib: inference_tensor(lib).add_(1), RuntimeError, inplace)
    raises(lambda lib: inference_tensor(lib).__setitem__(0, 5.0), RuntimeError, inplace)
    raises(lambda lib: inference_tensor(lib)._version, RuntimeError, "Inference tensors do not track version counter.")
    raises(lambda lib: inference_tensor(lib).requires_grad_(), RuntimeError,
           "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")

    # A refused in-place change changes nothing (checked before the numbers are written), and a clone is a
    # normal tensor again. (Not compared with PyTorch, which lets some in-place ops through under no_grad.)
    y = inference_tensor(tg)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor"):
        y.add_(1)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor"):
        y[0] = 5.0
    c = y.clone()
    c.add_(1)
    assert y.tolist() == [1.0, 1.0] and c.tolist() == [2.0, 2.0] and c._version == 1


def test_grad_modes_are_also_in_autograd() -> None:
    assert tg.autograd.no_grad is tg.no_grad and tg.autograd.enable_grad is tg.enable_grad
    assert tg.autograd.set_grad_enabled is tg.set_grad_enabled and tg.autograd.inference_mode is tg.inference_mode
    returns(lambda lib: [callable(getattr(lib.autograd, n)) for n in
                         ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "grad", "backward",
                          "Function", "gradcheck", "gradgradcheck")], str([True] * 9))


# ------------------------------------------------------------------------------------------------ Function
class Cube(Function):
    """x ** 3 with a non-tensor scale: k * x^3, d/dx = 3k x^2."""

    @staticmethod
    def forward(ctx: Any, x: tg.Tensor, k: float) -> tg.Tensor:
        ctx.save_for_backward(x)
        ctx.k = k
        return x * x * x * k

    @staticmethod
    def backward(ctx: Any, g: tg.Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return g * 3 * x * x * ctx.k, None


def port(cls: type, lib: ModuleType) -> type:
    """The same Function (same name, same forward and backward) as a subclass of ``lib.autograd.Function``."""
    if lib is tg:
        return cls
    return type(cls.__name__, (lib.autograd.Function,), {"forward": staticmethod(cls.forward),
                                                         "backward": staticmethod(cls.backward)})


def test_function_basics() -> None:
    def fn(lib: ModuleType) -> Any:
        C = port(Cube, lib)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = C.apply(x, 2.0)
        node = y.grad_fn
        info = (y, node.needs_input_grad, node.next_functions, node.saved_tensors[0] is x)
        y.sum().backward()
        return info, x.grad

    ours = as_pytorch(fn)
    assert ours == (None, "((tensor([ 2., 16.], grad_fn=<CubeBackward>), (True, False), "
                          "((<AccumulateGrad object at 0x...>, 0),), True), tensor([ 6., 24.]))", [])
    assert Cube.apply(tg.tensor([1.0], requires_grad=True), 1.0).grad_fn.name() == "CubeBackward"
    assert type(Cube.apply(tg.tensor([1.0], requires_grad=True), 1.0).grad_fn).__name__ == "CubeBackward"


def test_function_without_inputs_requiring_grad_records_nothing() -> None:
    def fn(lib: ModuleType) -> Any:
        C = port(Cube, lib)
        y = C.apply(lib.tensor([2.0]), 1.0)
        with lib.no_grad():
            z = C.apply(lib.tensor([2.0], requires_grad=True), 1.0)
        return y, y.grad_fn, z.requires_grad

    returns(fn, "(tensor([8.]), None, False)")


def test_function_needs_input_grad_and_none_gradients() -> None:
    def fn(lib: ModuleType) -> Any:
        class Mul(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any, b: Any) -> Any:
                ctx.save_for_backward(a, b)
                return a * b

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                a, b = ctx.saved_tensors
                return (g * b if ctx.needs_input_grad[0] else None), (g * a if ctx.needs_input_grad[1] else None)

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0])
        y = Mul.apply(x, w)
        y.sum().backward()
        return y.grad_fn.needs_input_grad, y.grad_fn.next_functions[1], x.grad, w.grad

    returns(fn, "((True, False), (None, 0), tensor([3., 4.]), None)")


def test_function_with_several_outputs() -> None:
    def fn(lib: ModuleType) -> Any:
        class Split(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                return a * 2, a * 3

            @staticmethod
            def backward(ctx: Any, ga: Any, gb: Any) -> Any:
                return ga * 2 + gb * 3  # an unused output's gradient arrives as zeros

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a, b = Split.apply(x)
        (a.sum() + b.sum()).backward()
        both = x.grad.clone()
        x.grad = None
        a, b = Split.apply(x)
        b.sum().backward()
        return both, x.grad, a.grad_fn is b.grad_fn, (a.output_nr, b.output_nr), a.grad_fn.name()

    returns(fn, "(tensor([5., 5.]), tensor([3., 3.]), True, (0, 1), 'SplitBackward')")

    def not_materialized(lib: ModuleType) -> Any:
        class Split(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                ctx.set_materialize_grads(False)
                return a * 2, a * 3

            @staticmethod
            def backward(ctx: Any, ga: Any, gb: Any) -> Any:
                return gb * 3 if ga is None else ga * 2 + gb * 3

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        _, b = Split.apply(x)
        b.sum().backward()
        return x.grad

    returns(not_materialized, "tensor([3., 3.])")


def test_function_mark_non_differentiable() -> None:
    def fn(lib: ModuleType) -> Any:
        class MaxWithIndex(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                index = a.argmax()
                doubled = a * 2
                ctx.mark_non_differentiable(index, doubled)
                return a.max(), index, doubled

            @staticmethod
            def backward(ctx: Any, g: Any, g_index: Any, g_doubled: Any) -> Any:
                return g * lib.tensor([0.0, 1.0, 0.0])

        x = lib.tensor([1.0, 5.0, 2.0], requires_grad=True)
        m, i, d = MaxWithIndex.apply(x)
        m.backward()
        return (m.requires_grad, i.requires_grad, i.grad_fn, d.requires_grad, d.grad_fn), x.grad

    returns(fn, "((True, False, None, False, None), tensor([0., 1., 0.]))")


def test_function_returning_its_input() -> None:
    def fn(lib: ModuleType) -> Any:
        class Identity(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                return a

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g * 2

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = Identity.apply(x)
        y.sum().backward()
        return y is x, x.is_leaf, y.grad_fn.name(), x.grad

    returns(fn, "(False, True, 'IdentityBackward', tensor([2., 2.]))")


def test_function_gradients_through_create_graph() -> None:
    x = tg.tensor([1.0, 2.0], dtype=tg.float64, requires_grad=True)
    (g,) = tg.autograd.grad(Cube.apply(x, 1.0).sum(), x, create_graph=True)  # 3x^2, recorded
    (h,) = tg.autograd.grad(g.sum(), x)  # 6x
    assert g.tolist() == [3.0, 12.0] and h.tolist() == [6.0, 12.0]


def bad_function(lib: ModuleType, backward: Callable, n_inputs: int = 1) -> Any:
    """Apply a Function whose backward is ``backward`` to ``n_inputs`` tensors (and a number, if n_inputs is 0)."""

    class Bad(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, *args: Any) -> Any:
            return args[0] * 2

    Bad.backward = staticmethod(backward)
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = Bad.apply(*([x] * n_inputs if n_inputs else [x, 2]))
    y.sum().backward()
    return x.grad


@pytest.mark.parametrize(("backward", "n_inputs", "exc", "message"), [
    (lambda ctx, g: (g, g), 1, RuntimeError,
     "function BadBackward returned an incorrect number of gradients (expected 1, got 2)"),
    (lambda ctx, g: g, 2, RuntimeError,
     "function BadBackward returned an incorrect number of gradients (expected 2, got 1)"),
    (lambda ctx, g: g[:1].expand(3), 1, RuntimeError,
     "Function BadBackward returned an invalid gradient at index 0 - got [3] but expected shape compatible with [2]"),
    (lambda ctx, g: g[:1], 1, RuntimeError,  # the input's shape must broadcast to the gradient's, not the reverse
     "Function BadBackward returned an invalid gradient at index 0 - got [1] but expected shape compatible with [2]"),
    (lambda ctx, g: (g, g), 0, RuntimeError, "function BadBackward returned a gradient different than None at "
     "position 2, but the corresponding forward input was not a Variable"),
    (lambda ctx, g: 1, 1, RuntimeError, "expected Variable or None (got int)"),
])
def test_function_backward_results_are_checked(backward: Callable, n_inputs: int, exc: type[Exception],
                                               message: str) -> None:
    raises(lambda lib: bad_function(lib, backward, n_inputs), exc, message)


def test_function_backward_results_that_are_accepted() -> None:
    returns(lambda lib: bad_function(lib, lambda ctx, g: (g, None, None)), "tensor([1., 1.])")  # extra Nones
    returns(lambda lib: bad_function(lib, lambda ctx, g: g.expand(3, 2)), "tensor([3., 3.])")  # summed down
    returns(lambda lib: bad_function(lib, lambda ctx, g: g.double()), "tensor([1., 1.])")  # cast back
    returns(lambda lib: bad_function(lib, lambda ctx, g: None), "None")


def test_function_instances_and_legacy_calls() -> None:
    def instantiate(lib: ModuleType) -> Any:
        class Legacy(lib.autograd.Function):
            def forward(self, x: Any) -> Any:
                return x

        return Legacy()(lib.ones(1))

    message = ("Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
               "function with static forward method. (Example: "
               "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")
    ours = as_pytorch(instantiate)
    assert ours[:2] == ("RuntimeError", message)
    assert len(ours[2]) == 1 and ours[2][0].startswith("DeprecationWarning: <class 'test_autograd.") and \
        ours[2][0].endswith(".Legacy'> should not be instantiated. Methods on autograd functions are all static, so "
                            "you should invoke them on the class itself. Instantiating an autograd function will raise "
                            "an error in a future version of PyTorch.")


# ------------------------------------------------------------------------------------------------ gradcheck
class WrongExp(Function):
    """exp with a backward that is off by a factor of 2."""

    @staticmethod
    def forward(ctx: Any, x: tg.Tensor) -> tg.Tensor:
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, g: tg.Tensor) -> tg.Tensor:
        (y,) = ctx.saved_tensors
        return g * y * 2


class FlatSquare(Function):
    """x^2 whose backward is right, but detaches x: right first derivative, wrong (zero) second."""

    @staticmethod
    def forward(ctx: Any, x: tg.Tensor) -> tg.Tensor:
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx: Any, g: tg.Tensor) -> tg.Tensor:
        (x,) = ctx.saved_tensors
        return g * x.detach() * 2


def doubles(lib: ModuleType, *values: list[float], requires_grad: bool = True) -> list:
    return [lib.tensor(v, dtype=lib.float64, requires_grad=requires_grad) for v in values]


def test_gradcheck_passes_for_correct_functions() -> None:
    rng = np.random.default_rng(3)
    x = tg.tensor(rng.standard_normal((2, 3)), requires_grad=True)
    w = tg.tensor(rng.standard_normal((3,)), requires_grad=True)
    assert tg.autograd.gradcheck(lambda a, b: ((a * b).tanh() @ b, a.sum()), (x, w))
    assert tg.autograd.gradgradcheck(lambda a, b: (a * b).sin().sum(), (x, w))
    assert tg.autograd.gradcheck(Cube.apply, (tg.tensor([0.5, -1.5], dtype=tg.float64, requires_grad=True), 2.0))
    assert tg.autograd.gradgradcheck(Cube.apply, (tg.tensor([0.5, -1.5], dtype=tg.float64, requires_grad=True), 2.0))
    returns(lambda lib: lib.autograd.gradcheck(lambda a: (a * a).sin(), doubles(lib, [0.5, 1.0])[0]), "True")
    returns(lambda lib: lib.autograd.gradgradcheck(lambda a: (a * a).sin(), tuple(doubles(lib, [0.5, 1.0]))), "True")


def test_gradcheck_reports_a_wrong_backward() -> None:
    raises(lambda lib: lib.autograd.gradcheck(port(WrongExp, lib).apply, tuple(doubles(lib, [0.5, 1.0]))),
           GradcheckError, "Jacobian mismatch for output 0 with respect to input 0,\n"
           "numerical:tensor([[1.6487, 0.0000],\n        [0.0000, 2.7183]], dtype=tinygrad_edu.float64)\n"
           "analytical:tensor([[3.2974, 0.0000],\n        [0.0000, 5.4366]], dtype=tinygrad_edu.float64)\n")
    returns(lambda lib: lib.autograd.gradcheck(port(WrongExp, lib).apply, tuple(doubles(lib, [0.5, 1.0])),
                                               raise_exception=False), "False")
    assert issubclass(GradcheckError, RuntimeError)

    def numbering(lib: ModuleType) -> Any:  # outputs and inputs are counted among the differentiable ones
        (w,) = doubles(lib, [0.5], requires_grad=False)
        (x,) = doubles(lib, [0.5, 1.0])
        return lib.autograd.gradcheck(lambda b, a: (a.detach() * 3, a * 2, port(WrongExp, lib).apply(a)), (w, x))

    raises(numbering, GradcheckError, "Jacobian mismatch for output 1 with respect to input 0,\n"
           "numerical:tensor([[1.6487, 0.0000],\n        [0.0000, 2.7183]], dtype=tinygrad_edu.float64)\n"
           "analytical:tensor([[3.2974, 0.0000],\n        [0.0000, 5.4366]], dtype=tinygrad_edu.float64)\n")


def test_gradgradcheck_reports_a_wrong_double_backward() -> None:
    def check(raise_exception: bool) -> Callable[[ModuleType], Any]:
        def fn(lib: ModuleType) -> Any:
            (x,) = doubles(lib, [0.5, 1.0])
            (v,) = doubles(lib, [1.0, 1.0], requires_grad=False)
            assert lib.autograd.gradcheck(port(FlatSquare, lib).apply, (x,))  # the first derivative is right
            return lib.autograd.gradgradcheck(port(FlatSquare, lib).apply, (x,), v, raise_exception=raise_exception)

        return fn

    raises(check(True), GradcheckError, "Numerical gradient for function expected to be zero")
    returns(check(False), "False")


def test_gradcheck_argument_errors() -> None:
    raises(lambda lib: lib.autograd.gradcheck(lambda a: a * 2, tuple(doubles(lib, [1.0], requires_grad=False))),
           ValueError, "gradcheck expects at least one input tensor to require gradient, but none of them have "
           "requires_grad=True.")
    with pytest.warns(UserWarning, match="^Input #0 requires gradient and is not a double precision floating point"):
        assert tg.autograd.gradcheck(lambda a: a * 2, (tg.tensor([1.0], requires_grad=True),), eps=1e-3, atol=1e-2)


def test_summing_opposite_infinite_gradients_gives_nan_silently() -> None:
    """Two paths bring +inf and -inf to one tensor: the sum is nan, with no numpy warning (PyTorch's behaviour)."""
    x = tg.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (x.log() - x.log() * 1).sum().backward()
    assert np.isnan(x.grad.numpy()[0]) and x.grad.numpy()[1] == 0


def test_anomaly_detection_shows_the_forward_line_of_the_failing_node() -> None:
    """The in-place error's hint names set_detect_anomaly: it exists, and it points at the learner's own line."""
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    assert not tg.is_anomaly_enabled()
    with tg.autograd.set_detect_anomaly(True):
        assert tg.autograd.is_anomaly_enabled()
        y = x.exp()  # the line the warning must show
        y.add_(1)
        with pytest.warns(UserWarning, match="^Error detected in ExpBackward0. Traceback of forward call") as caught, \
                pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()
    assert not tg.is_anomaly_enabled()
    shown = str(caught[0].message)
    assert "y = x.exp()  # the line the warning must show" in shown and "tinygrad_edu/" not in shown
    with pytest.warns(UserWarning, match="^Anomaly Detection has been enabled"), tg.autograd.detect_anomaly():
        assert tg.is_anomaly_enabled()
    assert not tg.is_anomaly_enabled()


def test_relu_gradient_is_recorded_under_create_graph() -> None:
    """relu's and leaky_relu's gradients are ops of their own under create_graph (ThresholdBackwardBackward0,
    LeakyReluBackwardBackward0), so they require grad like PyTorch's: a second derivative of a ReLU network
    is zeros in x (the kinks aside) and the mask in the incoming gradient, not an error."""

    def second(lib: ModuleType) -> str:
        x = lib.tensor([-1.0, 2.0, 0.5], requires_grad=True)
        g_out = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        lines = []
        for f in (lambda t: t.relu(), lambda t: lib.nn.functional.leaky_relu(t, 0.1)):
            (gx,) = lib.autograd.grad(f(x), x, g_out, create_graph=True)
            gx.sum().backward()
            lines.append(f"{gx} {[type(n).__name__ for n, _ in gx.grad_fn.next_functions]} {g_out.grad} {x.grad}")
        return "\n".join(lines)

    assert as_pytorch(second)[1] == repr(
        "tensor([ 0., -2.,  3.], grad_fn=<ThresholdBackwardBackward0>) ['AccumulateGrad', 'ReluBackward0'] "
        "tensor([0., 1., 1.]) tensor([0., 0., 0.])\n"
        "tensor([ 0.1000, -2.0000,  3.0000], grad_fn=<LeakyReluBackwardBackward0>) ['AccumulateGrad', "
        "'AccumulateGrad'] tensor([0.1000, 2.0000, 2.0000]) tensor([0., 0., 0.])")


def test_function_with_setup_context() -> None:
    """PyTorch 2's way of writing a Function: forward(*inputs) without ctx, then setup_context(ctx, inputs,
    output) saves what backward needs. apply runs both; gradcheck agrees with the hand-written backward."""

    def run(lib: ModuleType) -> str:
        class ScaledMul(lib.autograd.Function):
            @staticmethod
            def forward(x: Any, y: Any, scale: float) -> Any:
                return x * y * scale

            @staticmethod
            def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
                x, y, scale = inputs
                ctx.save_for_backward(x, y)
                ctx.scale = scale

            @staticmethod
            def backward(ctx: Any, g: Any) -> tuple:
                x, y = ctx.saved_tensors
                return g * y * ctx.scale, g * x * ctx.scale, None

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([3.0, 4.0], requires_grad=True)
        out = ScaledMul.apply(x, y, 0.5)
        out.sum().backward()
        ok = lib.autograd.gradcheck(ScaledMul.apply, (lib.randn(3, dtype=lib.float64, requires_grad=True),
                                                      lib.randn(3, dtype=lib.float64, requires_grad=True), 2.0))
        return f"{out} {x.grad} {y.grad} {ok}"

    assert as_pytorch(run)[1] == repr("tensor([1.5000, 4.0000], grad_fn=<ScaledMulBackward>) tensor([1.5000, 2.0000]) "
                                      "tensor([0.5000, 1.0000]) True")


def test_once_differentiable() -> None:
    """A backward marked @once_differentiable runs unrecorded; under create_graph, when the incoming gradient
    requires grad, its results lead to an <Error> node that refuses a second differentiation."""

    def run(lib: ModuleType) -> str:
        class Square(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            @lib.autograd.function.once_differentiable
            def backward(ctx: Any, g: Any) -> Any:
                (x,) = ctx.saved_tensors
                return 2 * x * g

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (plain,) = lib.autograd.grad(Square.apply(x).sum(), x, create_graph=True)  # the incoming 1 needs no grad
        (guarded,) = lib.autograd.grad(Square.apply(x), x, lib.ones(2, requires_grad=True), create_graph=True)
        try:
            guarded.sum().backward()
        except RuntimeError as e:
            return f"{plain} {guarded} {e}"
        return "no error"

    assert as_pytorch(run)[1] == repr("tensor([2., 4.]) tensor([2., 4.], grad_fn=<Error>) trying to differentiate "
                                      "twice a function that was marked with @once_differentiable")


def test_function_changing_its_input_in_place() -> None:
    """ctx.mark_dirty: forward changed an input in place and returns it; that tensor itself (not a copy) now
    ends in the Function's node, and the gradient flows on to its earlier history."""

    def run(lib: ModuleType) -> str:
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                x.mul_(2)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g * 2

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.clone()
        z = Double.apply(y)
        (z * 3).sum().backward()
        return f"{z is y} {z} {y._version} {z.grad_fn.next_functions[0][0].name()} {x.grad}"

    assert as_pytorch(run)[1] == repr("True tensor([2., 4.], grad_fn=<DoubleBackward>) 2 CloneBackward0 "
                                      "tensor([6., 6.])")

    def errors(lib: ModuleType, leaf: bool) -> Any:
        class Forgets(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                x.mul_(2)
                ctx.mark_dirty(x)
                return x * 1 if not leaf else x

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return Forgets.apply(x if leaf else x.clone())

    raises(lambda lib: errors(lib, True), RuntimeError,
           "a leaf Variable that requires grad has been used in an in-place operation.")
    raises(lambda lib: errors(lib, False), RuntimeError,
           "Some elements marked as dirty during the forward method were not returned as output. The inputs that "
           "are modified inplace must all be outputs of the Function.")


def test_softmax_gradient_is_one_op_and_differentiable() -> None:
    """softmax's gradient is PyTorch's _softmax_backward_data, one op, recorded under create_graph as
    SoftmaxBackwardDataBackward0; its own derivative gives the same second derivatives as PyTorch's."""

    def second(lib: ModuleType) -> str:
        x = lib.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], requires_grad=True)
        w = lib.tensor([[0.3, -1.0, 2.0], [1.5, 0.5, -0.5]])
        (gx,) = lib.autograd.grad((x.softmax(1) * w).sum(), x, create_graph=True)
        (hx,) = lib.autograd.grad((gx * gx).sum(), x)
        return f"{gx}\n{hx}"

    text = as_pytorch(second)[1]
    assert "grad_fn=<SoftmaxBackwardDataBackward0>" in text


def test_sign_gradient_is_positive_zero() -> None:
    """sign is flat: its gradient is zeros with no history, +0. whatever the incoming gradient's sign (g * 0
    would print -0. where g < 0)."""

    def grad(lib: ModuleType) -> Any:
        x = lib.tensor([-2.0, 0.0, 3.0], requires_grad=True)
        return lib.autograd.grad(x.sign(), x, lib.tensor([-1.0, 2.0, -3.0]), create_graph=True)

    as_pytorch(grad, (None, "(tensor([0., 0., 0.]),)", []))


def test_power_gradient_is_positive_zero_where_the_exponent_is_zero() -> None:
    """d(x ** y)/dx is masked to +0. where y == 0 after multiplying by g, as in PyTorch (g * 0 would be -0.)."""

    def grad(lib: ModuleType) -> Any:
        x = lib.tensor([2.0, 3.0], requires_grad=True)
        y = lib.tensor([0.0, 2.0])
        return lib.autograd.grad(x ** y, x, lib.tensor([-1.5, -1.0]))

    as_pytorch(grad, (None, "(tensor([ 0., -6.]),)", []))
