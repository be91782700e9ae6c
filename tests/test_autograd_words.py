"""Small things autograd says as PyTorch says them: the op named in a version error (``Sum1`` for SumBackward1),
calling a node by hand with the wrong number of gradients, ``SavedTensor`` made by hand, the removed ``volatile``,
``set_warn_always``, and the graph ``once_differentiable`` builds (an edge to None for a gradient that was None).

Each check runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``): same result, same
exception type and message, same warnings.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from _oracle import as_pytorch, raises


def test_a_version_error_names_the_op_with_its_variant() -> None:
    def run(lib: ModuleType) -> None:
        a = lib.ones(3, 4, requires_grad=True)
        b = a.sum(dim=1)
        c = b * b
        with lib.no_grad():
            b += 1
        c.backward(lib.ones(3))

    raises(run, RuntimeError, "one of the variables needed for gradient computation has been modified by an inplace "
           "operation: [tinygrad_edu.FloatTensor [3]], which is output 0 of Sum1, is at version 1; expected version 0 "
           "instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
           "tinygrad_edu.autograd.set_detect_anomaly(True, check_nan=False).")


def test_a_node_called_by_hand_wants_one_gradient_per_output() -> None:
    def call(lib: ModuleType, n: int) -> Any:
        x = lib.ones(1, requires_grad=True)
        return (x ** 2).grad_fn(*[x.detach()] * n)

    raises(lambda lib: call(lib, 2), TypeError, "expected 1 arguments, got 2 instead")
    raises(lambda lib: call(lib, 0), TypeError, "expected 1 arguments, got 0 instead")
    as_pytorch(lambda lib: call(lib, 1).tolist(), (None, "[2.0]", []))


def test_saved_tensor_and_volatile() -> None:
    raises(lambda lib: lib.autograd.SavedTensor(), RuntimeError,
           "Trying to create a SavedTensor object from Python is forbidden.")
    as_pytorch(lambda lib: lib.ones(1).volatile,
               (None, "False", ["UserWarning: volatile was removed (Variable.volatile is always False)"]))


def test_set_warn_always_repeats_the_warnings_given_once() -> None:
    def run(lib: ModuleType) -> str:
        before = lib.is_warn_always_enabled()
        lib.set_warn_always(True)
        try:
            for _ in range(2):
                x = lib.ones(2, requires_grad=True)
                (x * x).sum().backward(create_graph=True)
        finally:
            lib.set_warn_always(False)
        return f"{before} {lib.is_warn_always_enabled()}"

    warning = ("UserWarning: Using backward() with create_graph=True will create a reference cycle between the "
               "parameter and its gradient which can cause a memory leak. We recommend using autograd.grad when "
               "creating the graph to avoid this. If you have to use this function, make sure to reset the .grad "
               "fields of your parameters to None after use to break the cycle and avoid the leak.")
    as_pytorch(run, (None, repr("False False"), [warning, warning]))


def test_once_differentiable_guards_with_an_edge_per_gradient() -> None:
    def run(lib: ModuleType) -> str:
        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any, k: int, b: Any) -> Any:
                return a * k + b

            @staticmethod
            @lib.autograd.function.once_differentiable
            def backward(ctx: Any, g: Any) -> tuple:
                return g * 2, None, g

        a, b = lib.ones(2, requires_grad=True), lib.ones(2, requires_grad=True)
        ga, gb = lib.autograd.grad(Twice.apply(a, 2, b).sum(), (a, b), lib.ones((), requires_grad=True),
                                   create_graph=True)

        def desc(node: Any) -> str:
            return "None" if node is None else \
                f"{type(node).__name__}({', '.join(desc(n) for n, _ in node.next_functions)})"

        return f"{desc(ga.grad_fn)} {gb.grad_fn is ga.grad_fn}"

    as_pytorch(run, (None, repr("Error(AccumulateGrad(), None, AccumulateGrad()) True"), []))


def test_what_may_not_be_deleted() -> None:
    def delete(name: str) -> Any:
        return lambda lib: delattr(lib.randn(2, requires_grad=True), name)

    raises(delete("data"), RuntimeError, "Deleting tensor data is not allowed. Delete tensor instead!")
    raises(delete("requires_grad"), RuntimeError, "requires_grad must be a bool")
    raises(delete("_grad_fn"), RuntimeError, "Deletion of _grad_fn not allowed. Detach tensor instead!")
    raises(delete("_backward_hooks"), RuntimeError, "Deletion of _backwards_hooks not allowed!")
    raises(lambda lib: setattr(lib.randn(2), "data", None), TypeError,
           "Variable data has to be a tensor, but got NoneType")

    def grad(lib: ModuleType) -> Any:
        x = lib.ones(2, requires_grad=True)
        x.sum().backward()
        del x.grad
        return x.grad

    as_pytorch(grad, (None, "None", []))


def test_vjp_is_backward_by_another_name() -> None:
    def run(lib: ModuleType, both: bool) -> Any:
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x * 2

            @staticmethod
            def vjp(ctx: Any, g: Any) -> Any:
                return g * 2

            if both:
                backward = vjp

        x = lib.ones(2, requires_grad=True)
        Double.apply(x).sum().backward()
        return x.grad.tolist()

    as_pytorch(lambda lib: run(lib, False), (None, "[2.0, 2.0]", []))
    raises(lambda lib: run(lib, True), RuntimeError, "Implementing both 'backward' and 'vjp' for a custom Function is "
           "not allowed. You should only implement one of them.")


def test_a_hook_on_an_output_that_got_no_gradient_is_given_none() -> None:
    """Backward through one output of a multi-output op (unbind) runs the node: the hooks on its other outputs are
    called too, with None, as PyTorch calls them."""

    def run(lib: ModuleType) -> str:
        seen: list = []
        x = lib.ones(3, requires_grad=True)
        parts = x.unbind()
        parts[0].register_hook(lambda g: seen.append(g if g is None else g.tolist()))
        parts[0].backward()
        parts[1].backward()
        return f"{seen} {x.grad.tolist()}"

    as_pytorch(run, (None, repr("[1.0, None] [1.0, 1.0, 0.0]"), []))


def test_a_tensor_unpacked_by_hooks_has_its_own_version_counter() -> None:
    """What the unpack hook returns is the tensor backward gets; changing it in place does not count as a change
    to the tensor that was saved."""

    def run(lib: ModuleType) -> str:
        a = lib.tensor(1.0, requires_grad=True)
        replacement = a.clone()
        seen: list = []

        class Save(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.save_for_backward(x)
                return x.sin()

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                (x,) = ctx.saved_tensors
                before = a._version
                x.add_(1)
                seen.append(a._version - before)
                return g

        with lib.autograd.graph.saved_tensors_hooks(lambda x: replacement, lambda x: x):
            b = Save.apply(a)
        b.backward()
        return str(seen)

    as_pytorch(run, (None, repr("[0]"), []))
