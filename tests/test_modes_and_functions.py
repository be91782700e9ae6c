"""Grad modes as decorators and custom Functions' calling conventions, as PyTorch 2.13 has them: a decorated class
(deprecated, with its warning), ``inference_mode(mode=fn)``, and ``boxed_grads_call`` (backward gets one list).

Each check runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``): same result, same
exception type and message, same warnings.
"""

from __future__ import annotations

import weakref
from types import ModuleType
from typing import Any

from _oracle import as_pytorch


def test_decorating_a_class_warns_and_only_construction_gets_the_mode() -> None:
    def run(lib: ModuleType) -> str:
        seen = []

        @lib.no_grad()
        class Foo:
            def __init__(self) -> None:
                seen.append(lib.is_grad_enabled())

            def method(self) -> None:
                seen.append(lib.is_grad_enabled())

        Foo().method()
        return str(seen)

    message = ("FutureWarning: Decorating classes is deprecated and will be disabled in future versions. You should "
               "only decorate functions or methods. To preserve the current behavior of class decoration, you can "
               "directly decorate the `__init__` method and nothing else.")
    as_pytorch(run, (None, repr("[False, True]"), [message]))


def test_inference_mode_given_the_function_as_mode() -> None:
    def run(lib: ModuleType) -> str:
        def f(x: Any) -> Any:
            return x * 2, lib.is_inference_mode_enabled()

        x = lib.ones(2, requires_grad=True)
        (a, on_a), (b, on_b) = lib.inference_mode(mode=f)(x), lib.inference_mode(f)(x)
        return f"{on_a} {on_b} {lib.is_inference(a)} {a.requires_grad} {lib.is_inference(b)}"

    as_pytorch(run, (None, repr("True True True False True"), []))


def _boxed(lib: ModuleType, seen: list) -> Any:
    class Boxed(lib.autograd.Function):
        boxed_grads_call = True

        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2, x * 3

        @staticmethod
        def backward(ctx: Any, grads: list) -> Any:
            seen.append((type(grads).__name__, len(grads)))
            g1, g2 = grads
            grads.clear()  # the list is the backward's own: emptying it is allowed
            return g1 * 2 + g2 * 3

    return Boxed


def test_boxed_grads_call_gives_backward_one_list() -> None:
    def run(lib: ModuleType) -> str:
        seen: list = []
        boxed = _boxed(lib, seen)
        x = lib.ones(3, requires_grad=True)
        a, b = boxed.apply(x)
        (a.sum() + b.sum()).backward()
        direct = a.grad_fn.apply(lib.ones(3), lib.ones(3) * 2)
        return f"{seen} {x.grad.tolist()} {direct.tolist()} {lib.autograd.Function.boxed_grads_call}"

    as_pytorch(run, (None, repr("[('list', 2), ('list', 2)] [5.0, 5.0, 5.0] [8.0, 8.0, 8.0] False"), []))


def test_boxed_grads_emptied_by_backward_are_freed_at_once() -> None:
    """The list is the engine's own: once backward has taken a gradient out of it (and dropped it), nothing else
    holds that gradient, so a large one can be freed before the others are used."""

    def run(lib: ModuleType) -> str:
        freed = []

        class Frees(lib.autograd.Function):
            boxed_grads_call = True

            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x * 2

            @staticmethod
            def backward(ctx: Any, grads: list) -> Any:
                kept = grads[0].clone()
                ref = weakref.ref(grads[0])
                grads.clear()
                freed.append(ref() is None)
                return kept * 2

        x = lib.ones(3, requires_grad=True)
        Frees.apply(Frees.apply(x)).sum().backward()
        return f"{freed} {x.grad.tolist()}"

    as_pytorch(run, (None, repr("[True, True] [4.0, 4.0, 4.0]"), []))


def test_boxed_grads_of_an_unused_output_are_zeros_or_none() -> None:
    """The list holds what PyTorch would pass one by one: zeros for an output that got no gradient, or None when
    the Function asked for gradients not to be materialized."""

    def run(lib: ModuleType, materialize: bool) -> str:
        class Two(lib.autograd.Function):
            boxed_grads_call = True

            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.set_materialize_grads(materialize)
                return x * 2, x * 3

            @staticmethod
            def backward(ctx: Any, grads: list) -> Any:
                Two.first = grads[0] if grads[0] is None else grads[0].tolist()
                return grads[1] * 3

        x = lib.ones(2, requires_grad=True)
        Two.apply(x)[1].sum().backward()
        return f"{Two.first} {x.grad.tolist()}"

    as_pytorch(lambda lib: run(lib, True), (None, repr("[0.0, 0.0] [3.0, 3.0]"), []))
    as_pytorch(lambda lib: run(lib, False), (None, repr("None [3.0, 3.0]"), []))


def test_outputs_that_are_not_tensors_get_none_not_zeros() -> None:
    """Materializing gives zeros to the tensor outputs that got no gradient; an output that is not a tensor (a
    number, None, a string) gets None, and so does a non-differentiable one when ``_materialize_non_diff_grads`` is
    False."""

    def run(lib: ModuleType) -> str:
        seen: list = []

        class Mixed(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                marked = x.clone()
                ctx.mark_non_differentiable(marked)
                ctx._materialize_non_diff_grads = False
                return x * 2, 3, "label", marked, x * 3

            @staticmethod
            def backward(ctx: Any, *grads: Any) -> Any:
                seen.extend(g if g is None else g.tolist() for g in grads)
                return grads[0] * 2

        x = lib.ones(2, requires_grad=True)
        Mixed.apply(x)[0].sum().backward()
        return f"{seen} {x.grad.tolist()}"

    as_pytorch(run, (None, repr("[[1.0, 1.0], None, None, None, [0.0, 0.0]] [2.0, 2.0]"), []))
