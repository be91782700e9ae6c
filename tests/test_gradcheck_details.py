"""gradcheck's other refusals and PyTorch's two deprecated Jacobian helpers: outputs that change shape or dtype when
an input is nudged, a hook that cannot take an undefined gradient, ``get_numerical_jacobian`` and
``get_analytical_jacobian`` (with their FutureWarning).

Each check runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``): same result, same
exception type and message, same warnings.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

from _oracle import as_pytorch, outcome

import tinygrad_edu as tg


def _both(fn: Any) -> tuple:
    """The outcome with tinygrad_edu and, when torch is installed, with torch (the same, or the test says how)."""
    from _oracle import oracle

    torch = oracle()
    return outcome(fn, tg), (outcome(fn, torch) if torch is not None else None)


def test_outputs_that_change_shape_or_dtype_when_nudged() -> None:
    def shape(lib: ModuleType) -> Any:
        a = lib.ones(1, dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(lambda x: lib.cat([x, x]) if lib.all(x >= 1) else x, (a,))

    def dtype(lib: ModuleType) -> Any:
        a = lib.ones(1, dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(lambda x: x.to(lib.float32) if lib.all(x >= 1) else x, (a,))

    for fn, what in ((shape, "shape"), (dtype, "dtype")):
        for result in _both(fn):
            if result is not None:  # (PyTorch names the element nudged in slow mode; its index prints differently)
                assert result[0] == "AssertionError"
                assert re.match(f"Expected `func` to return outputs with the same {what} when inputs are perturbed",
                                result[1])


def test_a_hook_that_cannot_take_an_undefined_gradient() -> None:
    def run(lib: ModuleType, raise_exception: bool) -> Any:
        def fn(x: Any) -> Any:
            def hook(g: Any) -> None:
                if g is None:
                    raise RuntimeError("x is undefined")

            y = x.clone()
            y.register_hook(hook)
            return y

        x = lib.ones(1, dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(fn, (x,), raise_exception=raise_exception)

    warning = ("UserWarning: Backwards compatibility: New undefined gradient support checking feature is enabled by "
               "default, but it may break existing callers of this function. If this is true for you, you can call "
               'this function with "check_undefined_grad=False" to disable the feature')
    as_pytorch(lambda lib: run(lib, True), ("GradcheckError", 'Expected backward function to handle undefined output '
               'grads. Please look at "Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"',
               [warning]))
    as_pytorch(lambda lib: run(lib, False), (None, "False", [warning]))


def test_the_deprecated_jacobian_helpers() -> None:
    def run(lib: ModuleType) -> str:
        from importlib import import_module

        helpers = import_module(f"{lib.__name__}.autograd.gradcheck")
        a = lib.ones(2, dtype=lib.float64, requires_grad=True)
        b = lib.ones(2, dtype=lib.float64, requires_grad=True)
        num = helpers.get_numerical_jacobian(lambda ab: 2 * ab[0] + ab[1], (a, b), eps=1e-6)
        out = 2 * a + b
        ana, reentrant, sizes, types = helpers.get_analytical_jacobian((a, b), out)
        return (f"{[j.round(decimals=6).tolist() for j in num]} {[j.tolist() for j in ana]} "
                f"{reentrant} {sizes} {types} {num[0].dtype}")

    deprecation = ("FutureWarning: `{}` was part of PyTorch's private API and not meant to be exposed. We are "
                   "deprecating it and it will be removed in a future version of PyTorch. If you have a specific use "
                   "for this or feature request for this to be a stable API, please file us an issue at "
                   "https://github.com/pytorch/pytorch/issues/new")
    as_pytorch(run, (None, repr("[[[2.0, 0.0], [0.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]]] "
                                "[[[2.0, 0.0], [0.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]]] True True True "
                                "tinygrad_edu.float64"),
                     [deprecation.format("get_numerical_jacobian"), deprecation.format("get_analytical_jacobian")]))
