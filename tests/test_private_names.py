"""What PyTorch's private namespace ``torch._C`` and a few ``torch.autograd`` helpers do, for the code that reaches
for them (PyTorch's own tests do): nodes made by hand, weak references to tensors, version counters set by hand,
and saved-tensor hooks switched off.

Each check runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``): same result, same
exception type and message, same warnings.
"""

from __future__ import annotations

import gc
from types import ModuleType
from typing import Any

from _oracle import as_pytorch, raises


def test_undefined_grad_sends_no_gradient_at_all() -> None:
    def run(lib: ModuleType) -> str:
        x = lib.ones(2, requires_grad=True)
        y = lib._C._functions.UndefinedGrad()(x * 2)
        (y * 3).sum().backward()
        return f"{type(y.grad_fn).__name__} {y.tolist()} {x.grad}"

    as_pytorch(run, (None, repr("UndefinedGradBackward [2.0, 2.0] None"), []))


def test_delayed_error_raises_only_if_backward_reaches_it() -> None:
    def boom(lib: ModuleType, through: bool) -> Any:
        x = lib.ones(2, requires_grad=True)
        y = lib.ones(2, requires_grad=True)
        safe = lib._C._functions.DelayedError("Boom!", 1)(y)
        out = (x * 2 + safe).sum()
        return lib.autograd.grad(out, (x, y) if through else x)[0].tolist()

    as_pytorch(lambda lib: boom(lib, False), (None, "[2.0, 2.0]", []))
    raises(lambda lib: boom(lib, True), RuntimeError, "Boom!")
    name = lambda lib: type(lib._C._functions.DelayedError("m", 1)(lib.ones(1, requires_grad=True)).grad_fn).__name__  # noqa: E731
    as_pytorch(name, (None, "'Error'", []))


def test_next_functions_of_a_leaf_are_accumulate_grad_nodes() -> None:
    def run(lib: ModuleType) -> str:
        a = lib.ones(2, requires_grad=True) + lib.ones(2, requires_grad=True)
        return str([isinstance(n, lib._C._functions.AccumulateGrad) for n, _ in a.grad_fn.next_functions])

    as_pytorch(run, (None, repr("[True, True]"), []))


def test_weak_tensor_ref_expires_with_its_tensor() -> None:
    def run(lib: ModuleType) -> str:
        t = lib.ones(2) * 2
        ref = lib._C._WeakTensorRef(t)
        alive = ref.expired()
        del t
        gc.collect()
        return f"{alive} {ref.expired()} {lib._C.is_grad_enabled()}"

    as_pytorch(run, (None, repr("False True True"), []))


def test_version_counters_preserved_and_set_by_hand() -> None:
    def run(lib: ModuleType) -> str:
        x = lib.ones(2, requires_grad=True).clone()
        x.add_(1)
        with lib.autograd._unsafe_preserve_version_counter(x):
            x.mul_(2)
        before = x._version
        lib._C._autograd._unsafe_set_version_counter((x,), (0,))
        lib.autograd.graph.increment_version(x)
        with lib.inference_mode():
            inf = lib.ones(1)
        lib.autograd.graph.increment_version(inf)  # an inference tensor has no version: left alone, no error
        return f"{before} {x._version}"

    as_pytorch(run, (None, repr("1 1"), []))
    raises(lambda lib: lib._C._autograd._unsafe_set_version_counter((lib.ones(1),), (-1,)), RuntimeError,
           "Cannot set a version_counter to a value below 0: -1")


def test_saved_tensors_hooks_can_be_disabled_with_a_message() -> None:
    def inside(lib: ModuleType) -> None:
        g = lib.autograd.graph
        with g.disable_saved_tensors_hooks("not here"), g.saved_tensors_hooks(lambda x: x, lambda x: x):
            pass

    def around(lib: ModuleType) -> None:
        g = lib.autograd.graph
        with g.saved_tensors_hooks(lambda x: x, lambda x: x), g.disable_saved_tensors_hooks("not here either"):
            pass

    raises(inside, RuntimeError, "not here")
    raises(around, RuntimeError, "not here either")

    def state(lib: ModuleType) -> str:
        g, seen = lib.autograd.graph, []
        with g.disable_saved_tensors_hooks("outer"):
            with g.disable_saved_tensors_hooks("inner"):
                seen.append(lib._C._autograd._saved_tensors_hooks_is_enabled())
            seen.append(lib._C._autograd._saved_tensors_hooks_is_enabled())
        return f"{seen} {lib._C._autograd._saved_tensors_hooks_is_enabled()}"

    as_pytorch(state, (None, repr("[False, False] True"), []))


def test_queued_callbacks_run_when_the_pass_ends() -> None:
    """``Variable._execution_engine.queue_callback``: after every node of the running pass, including callbacks a
    callback queues; a backward run inside a node's backward has its own callbacks, run when it ends."""

    def run(lib: ModuleType) -> str:
        log: list = []
        engine = lib.autograd.Variable._execution_engine

        class Inner(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x.clone()

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                engine.queue_callback(lambda: log.append("inner done"))
                log.append("inner")
                return g

        class Outer(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x.clone()

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                engine.queue_callback(lambda: (log.append("outer done"), engine.queue_callback(lambda: log.append(
                    "queued by a callback"))))
                with lib.enable_grad():
                    Inner.apply(lib.ones(1, requires_grad=True)).sum().backward()
                log.append("outer")
                return g * 2

        x = lib.ones(2, requires_grad=True)
        (Outer.apply(x) * 3).sum().backward()
        return f"{log} {x.grad.tolist()}"

    as_pytorch(run, (None, repr("['inner', 'inner done', 'outer', 'outer done', 'queued by a callback'] [6.0, 6.0]"),
                     []))
    raises(lambda lib: lib.autograd.Variable._execution_engine.queue_callback(lambda: None), RuntimeError,
           "Final callbacks can only be installed during backward pass.")
