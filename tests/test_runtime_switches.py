"""The lines at the top of a script that set up PyTorch, and ``torch.testing.assert_close``.

Tutorials begin with ``torch.set_num_threads(1)``, ``torch.use_deterministic_algorithms(True)``,
``torch.backends.cudnn.deterministic = True`` or ``device = "mps" if torch.backends.mps.is_available() else "cpu"``;
tests and exercises compare a hand-written gradient with autograd's by ``torch.testing.assert_close``. Each case
is run with tinygrad_edu and, when torch is installed, with torch: same result or same error and message.
"""

from __future__ import annotations

import contextlib
import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, err, ok, oracle

import tinygrad_edu as tg


def _close(actual: Any, expected: Any, **kw: Any) -> Any:
    return lambda lib: lib.testing.assert_close(_build(lib, actual), _build(lib, expected), **kw)


def _build(lib: ModuleType, spec: Any) -> Any:
    """A case's value with ``lib``'s tensors: ("t", data, dtype-name) is a tensor; lists and dicts recurse."""
    if isinstance(spec, tuple) and spec and spec[0] == "t":
        return lib.tensor(spec[1], dtype=getattr(lib, spec[2]))
    if isinstance(spec, list):
        return [_build(lib, s) for s in spec]
    if isinstance(spec, dict):
        return {k: _build(lib, v) for k, v in spec.items()}
    return spec


def f32(data: Any) -> tuple:
    return ("t", data, "float32")


NOT_CLOSE = ("Tensor-likes are not close!\n\nMismatched elements: {} / {} ({})\nGreatest absolute difference: {} at "
             "index {} (up to {} allowed)\nGreatest relative difference: {} at index {} (up to {} allowed)")

ASSERT_CLOSE = {
    "equal": (_close(f32([1.0, 2.0, 3.0]), f32([1.0, 2.0, 3.0])), ok("None")),
    "within float32's tolerance": (_close(f32([1.0, 2.0, 3.0]), f32([1.0, 2.0, 3.0000001])), ok("None")),
    "one element off": (_close(f32([1.0, 2.0, 3.0]), f32([1.0, 2.5, 3.0])), err("AssertionError", NOT_CLOSE.format(
        1, 3, "33.3%", 0.5, "(1,)", 1e-05, 0.20000000298023224, "(1,)", 1.3e-06))),
    "2-d index": (_close(f32([[1.0, 2.0], [3.0, 4.0]]), f32([[1.0, 2.0], [3.0, 5.0]])), err(
        "AssertionError", NOT_CLOSE.format(1, 4, "25.0%", 1.0, "(1, 1)", 1e-05, 0.20000000298023224, "(1, 1)",
                                           1.3e-06))),
    "expected 0: relative inf": (_close(f32([0.0, 2.0]), f32([1.0, 0.0])), err("AssertionError", NOT_CLOSE.format(
        2, 2, "100.0%", 2.0, "(1,)", 1e-05, "inf", "(1,)", 1.3e-06))),
    "nan is not nan": (_close(f32([1.0, float("nan")]), f32([1.0, float("nan")])), err(
        "AssertionError", NOT_CLOSE.format(1, 2, "50.0%", "nan", "(1,)", 1e-05, "nan", "(1,)", 1.3e-06))),
    "nan with equal_nan": (_close(f32([1.0, float("nan")]), f32([1.0, float("nan")]), equal_nan=True), ok("None")),
    "inf against -inf": (_close(f32([float("inf")]), f32([-float("inf")])), err("AssertionError", NOT_CLOSE.format(
        1, 1, "100.0%", "inf", "(0,)", 1e-05, "nan", "(0,)", 1.3e-06))),
    "infinities equal": (_close(f32([float("inf")]), f32([float("inf")])), ok("None")),
    "empty": (_close(f32([]), f32([])), ok("None")),
    "integers: equal or not": (_close(("t", [1, 2], "int64"), ("t", [1, 3], "int64")), err(
        "AssertionError", "Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute "
        "difference: 1 at index (1,)\nGreatest relative difference: 0.3333333432674408 at index (1,)")),
    "bools": (_close(("t", [True], "bool"), ("t", [False], "bool")), err(
        "AssertionError", "Tensor-likes are not equal!\n\nMismatched elements: 1 / 1 (100.0%)\nGreatest absolute "
        "difference: 1 at index (0,)\nGreatest relative difference: inf at index (0,)")),
    "shapes": (_close(f32([1.0, 2.0]), f32([1.0, 2.0, 3.0])), err(
        "AssertionError", "The values for attribute 'shape' do not match: tinygrad_edu.Size([2]) != "
        "tinygrad_edu.Size([3]).")),
    "dtypes": (_close(f32([1.0, 2.0]), ("t", [1.0, 2.0], "float64")), err(
        "AssertionError", "The values for attribute 'dtype' do not match: tinygrad_edu.float32 != "
        "tinygrad_edu.float64.")),
    "dtypes not checked": (_close(f32([1.0, 2.0]), ("t", [1.0, 2.0], "float64"), check_dtype=False), ok("None")),
    "dtypes not checked, the looser tolerance": (
        _close(f32([1.0, 2.0]), ("t", [1.0, 2.1], "float64"), check_dtype=False), err(
            "AssertionError", NOT_CLOSE.format(1, 2, "50.0%", 0.10000000000000009, "(1,)", 1e-05,
                                               0.04761904761904766, "(1,)", 1.3e-06))),
    "float64 default tolerance": (_close(("t", [1.0, 2.0], "float64"), ("t", [1.0, 2.00000001], "float64")),
                                  ok("None")),
    "own tolerances": (_close(f32([1.0, 2.0]), f32([1.0, 2.1]), rtol=0.1, atol=0), ok("None")),
    "rtol without atol": (_close(f32([1.0, 2.0]), f32([1.0, 2.1]), rtol=0.1), err(
        "ValueError", "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol.")),
    "own message": (_close(f32([1.0, 2.0]), f32([1.0, 2.1]), msg="custom"), err("AssertionError", "custom")),
    "message rewritten": (_close(f32([1.0, 2.0]), f32([1.0, 3.0]), msg=lambda m: "X" + m[:10]), err(
        "AssertionError", "XTensor-lik")),
    "a 0-d tensor reads as a scalar": (_close([("t", 1.0, "float32")], [("t", 2.0, "float32")]), err(
        "AssertionError", "Scalars are not close!\n\nExpected 2.0 but got 1.0.\nAbsolute difference: 1.0 (up to "
        "1e-05 allowed)\nRelative difference: 0.5 (up to 1.3e-06 allowed)\n\nThe failure occurred for item [0]")),
    "nested item": (_close([[f32([1.0, 2.0])]], [[f32([1.0, 3.0])]]), err("AssertionError", NOT_CLOSE.format(
        1, 2, "50.0%", 1.0, "(1,)", 1e-05, 0.3333333432674408, "(1,)", 1.3e-06) +
        "\n\nThe failure occurred for item [0][0]")),
    "mapping item": (_close({"a": ("t", 1.0, "float32")}, {"a": ("t", 1.5, "float32")}), err(
        "AssertionError", "Scalars are not close!\n\nExpected 1.5 but got 1.0.\nAbsolute difference: 0.5 (up to "
        "1e-05 allowed)\nRelative difference: 0.3333333333333333 (up to 1.3e-06 allowed)\n\nThe failure occurred "
        "for item ['a']")),
    "mapping keys": (_close({"a": 1}, {"b": 1}), err(
        "AssertionError", "The keys of the mappings do not match:\nMissing keys in the actual mapping: ['b']\n"
        "Additional keys in the actual mapping: ['a']")),
    "sequence lengths": (_close([1, 2], [1, 2, 3]), err("AssertionError",
                                                        "The length of the sequences mismatch: 2 != 3")),
    "python numbers": (_close(1.0, 1.1), err(
        "AssertionError", "Scalars are not close!\n\nExpected 1.1 but got 1.0.\nAbsolute difference: "
        "0.10000000000000009 (up to 1e-07 allowed)\nRelative difference: 0.09090909090909098 (up to 1e-07 "
        "allowed)")),
    "python ints": (_close(1, 2), err("AssertionError", "Scalars are not equal!\n\nExpected 2 but got 1.\nAbsolute "
                                                        "difference: 1\nRelative difference: 0.5")),
    "int against float": (_close(1, 1.0), err("AssertionError",
                                              "The (d)types do not match: <class 'int'> != <class 'float'>.")),
    "tensor against number": (_close(f32(1.0), 1.0), err(
        "TypeError", "No comparison pair was able to handle inputs of type <class 'tinygrad_edu.Tensor'> and "
        "<class 'float'>.")),
    "strings": (_close("a", "a"), err(
        "TypeError", "No comparison pair was able to handle inputs of type <class 'str'> and <class 'str'>.")),
    "None and None": (_close(None, None), ok("None")),
    "requires grad is not compared": (lambda lib: lib.testing.assert_close(
        lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([1.0, 2.0])), ok("None")),
    "strides, when asked": (lambda lib: lib.testing.assert_close(lib.ones(2, 3), lib.ones(2, 3).t().contiguous().t(),
                                                                 check_stride=True), err(
        "AssertionError", "The values for attribute 'stride()' do not match: (3, 1) != (1, 2).")),
}


@pytest.mark.parametrize("name", ASSERT_CLOSE)
def test_assert_close(name: str) -> None:
    fn, expected = ASSERT_CLOSE[name]
    as_pytorch(fn, expected)


def _set_threads(lib: ModuleType, n: Any) -> int:
    before = lib.get_num_threads()
    try:
        lib.set_num_threads(n)
        return lib.get_num_threads()
    finally:
        lib.set_num_threads(before)


def _deterministic(lib: ModuleType, *args: Any, **kw: Any) -> tuple:
    try:
        lib.use_deterministic_algorithms(*args, **kw)
        return (lib.are_deterministic_algorithms_enabled(), lib.is_deterministic_algorithms_warn_only_enabled(),
                lib.get_deterministic_debug_mode())
    finally:
        lib.use_deterministic_algorithms(False)


def _debug_mode(lib: ModuleType, mode: Any) -> tuple:
    try:
        lib.set_deterministic_debug_mode(mode)
        return lib.are_deterministic_algorithms_enabled(), lib.get_deterministic_debug_mode()
    finally:
        lib.set_deterministic_debug_mode(0)


def _precision(lib: ModuleType, value: str) -> str:
    before = lib.get_float32_matmul_precision()
    try:
        lib.set_float32_matmul_precision(value)
        return lib.get_float32_matmul_precision()
    finally:
        lib.set_float32_matmul_precision(before)


SWITCHES = {
    "threads": (lambda lib: _set_threads(lib, 1), ok("1")),
    "threads: zero": (lambda lib: _set_threads(lib, 0), err("RuntimeError", "set_num_threads expects a positive "
                                                                            "integer")),
    "threads: a float": (lambda lib: _set_threads(lib, 2.0), err("RuntimeError", "set_num_threads expects an int, "
                                                                                 "but got float")),
    "deterministic": (lambda lib: _deterministic(lib, True), ok("(True, False, 2)")),
    "deterministic, warn only": (lambda lib: _deterministic(lib, True, warn_only=True), ok("(True, True, 1)")),
    "deterministic: not a bool": (lambda lib: _deterministic(lib, 1), err(
        "TypeError", "_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not int")),
    "deterministic: warn_only not a bool": (lambda lib: _deterministic(lib, True, warn_only=1), err(
        "TypeError", "_set_deterministic_algorithms(): argument 'warn_only' must be bool, not int")),
    "debug mode by name": (lambda lib: _debug_mode(lib, "error"), ok("(True, 2)")),
    "debug mode warn": (lambda lib: _debug_mode(lib, 1), ok("(True, 1)")),
    "debug mode: unknown": (lambda lib: _debug_mode(lib, "x"), err(
        "RuntimeError", "invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got x")),
    "matmul precision": (lambda lib: _precision(lib, "medium"), ok("'medium'")),
    "matmul precision: unknown": (lambda lib: _precision(lib, "x"), (None, "'highest'", [
        "UserWarning: x is not one of 'highest', 'high', or 'medium'; the currentsetFloat32MatmulPrecision call has "
        "no effect."])),
    "default precision": (lambda lib: lib.get_float32_matmul_precision(), ok("'highest'")),
    "typename of a tensor": (lambda lib: lib.typename(lib.ones(2)), ok("'tinygrad_edu.FloatTensor'")),
    "typename of an int tensor": (lambda lib: lib.typename(lib.ones(2, dtype=lib.int64)),
                                  ok("'tinygrad_edu.LongTensor'")),
    "typename of a number": (lambda lib: lib.typename(3), ok("'int'")),
    "typename of a parameter": (lambda lib: lib.typename(lib.nn.Parameter(lib.ones(1))),
                                ok("'tinygrad_edu.FloatTensor'")),
    "is_nonzero": (lambda lib: lib.is_nonzero(lib.tensor([1.0])), ok("True")),
    "is_nonzero of zero": (lambda lib: lib.is_nonzero(lib.tensor(0)), ok("False")),
    "is_nonzero: empty": (lambda lib: lib.is_nonzero(lib.tensor([])), err(
        "RuntimeError", "Boolean value of Tensor with no values is ambiguous")),
    "is_nonzero: two values": (lambda lib: lib.is_nonzero(lib.tensor([1, 2])), err(
        "RuntimeError", "Boolean value of Tensor with more than one value is ambiguous")),
    "no cuDNN": (lambda lib: lib.backends.cudnn.is_available(), ok("False")),
    "no Apple GPU": (lambda lib: (lib.backends.mps.is_available(), lib.backends.mps.is_built()), ok("(False, False)")),
    "cuDNN's switches": (lambda lib: (lib.backends.cudnn.deterministic, lib.backends.cudnn.benchmark,
                                      lib.backends.cudnn.enabled), ok("(False, False, True)")),
    "cuDNN's version": (lambda lib: lib.backends.cudnn.version(), ok("None")),
    "tf32 products off": (lambda lib: lib.backends.cuda.matmul.allow_tf32, ok("False")),
    "a tutorial's device choice": (lambda lib: "cuda" if lib.cuda.is_available() else "mps"
                                   if lib.backends.mps.is_available() else "cpu", ok("'cpu'")),
}


@pytest.mark.parametrize("name", SWITCHES)
def test_switches(name: str) -> None:
    fn, expected = SWITCHES[name]
    as_pytorch(fn, expected)


def test_switches_are_remembered_and_change_nothing() -> None:
    """A script's set-up lines leave every result as it was: the same draws, the same product bits."""
    tg.manual_seed(0)
    a, b = tg.randn(4, 5), tg.randn(5, 3)
    plain = (a @ b).numpy().copy()
    tg.set_num_threads(1)
    tg.use_deterministic_algorithms(True)
    tg.set_float32_matmul_precision("medium")
    tg.backends.cudnn.deterministic, tg.backends.cudnn.benchmark = True, False
    try:
        assert (tg.get_num_threads(), tg.are_deterministic_algorithms_enabled()) == (1, True)
        assert tg.get_float32_matmul_precision() == "medium"
        np.testing.assert_array_equal((a @ b).numpy(), plain)
    finally:
        tg.use_deterministic_algorithms(False)
        tg.set_float32_matmul_precision("highest")
        tg.backends.cudnn.deterministic = False


def test_random_module_and_fork_rng() -> None:
    """``torch.random`` is the default generator's seed and state; ``fork_rng`` puts the state back after its block,
    even after an error, so the draws after it are those there would have been without it."""
    def run(lib: ModuleType) -> list:
        lib.random.manual_seed(3)
        with lib.random.fork_rng():
            inside = lib.rand(2)
        after = lib.rand(2)
        lib.random.manual_seed(3)
        again = lib.rand(2)
        try:
            with lib.random.fork_rng():
                lib.rand(5)
                raise KeyError("x")
        except KeyError:
            pass
        return [inside.tolist() == again.tolist(), after.tolist() == again.tolist(), lib.rand(1).tolist(),
                lib.random.initial_seed()]

    as_pytorch(run)
    tg.random.manual_seed(3)
    with tg.random.fork_rng(enabled=False):
        tg.rand(1)
    assert tg.rand(1).tolist() != (tg.random.manual_seed(3), tg.rand(1).tolist())[1]


def test_assert_close_checks_a_hand_written_gradient() -> None:
    """What exercises do with it: a gradient derived by hand against autograd's, and the report when it is wrong."""
    x = tg.tensor([0.5, -1.0, 2.0], requires_grad=True)
    (x.tanh() ** 2).sum().backward()
    by_hand = 2 * x.detach().tanh() * (1 - x.detach().tanh() ** 2)
    tg.testing.assert_close(x.grad, by_hand)
    with pytest.raises(AssertionError, match="Mismatched elements: 3 / 3"):
        tg.testing.assert_close(x.grad, 2 * x.detach().tanh())


def _compiled_linear(lib: ModuleType) -> Any:
    """A model and its compiled form (PyTorch's "eager" backend: traced, no kernels generated, so quick)."""
    lib.manual_seed(0)
    model = lib.nn.Linear(2, 1)
    return model, lib.compile(model, backend="eager")


COMPILE = {
    "prints as PyTorch's": (lambda lib: str(_compiled_linear(lib)[1]), ok(
        "'OptimizedModule(\\n  (_orig_mod): Linear(in_features=2, out_features=1, bias=True)\\n)'")),
    "its parameters are the model's": (lambda lib: (lambda m, c: (
        [n for n, _ in c.named_parameters()], c.weight is m.weight, c._orig_mod is m))(*_compiled_linear(lib)),
        ok("(['_orig_mod.weight', '_orig_mod.bias'], True, True)")),
    "state_dict keys": (lambda lib: list(_compiled_linear(lib)[1].state_dict()), ok(
        "['_orig_mod.weight', '_orig_mod.bias']")),
    "the same numbers": (lambda lib: (lambda m, c: (c(lib.ones(3, 2)) == m(lib.ones(3, 2))).all().item())(
        *_compiled_linear(lib)), ok("True")),
    "a function": (lambda lib: (lambda f: (f.__name__, f(lib.zeros(2)).tolist()))(
        lib.compile(_sin_plus_one, backend="eager")), ok("('_sin_plus_one', [1.0, 1.0])")),
    "as a decorator with a mode": (lambda lib: lib.compile(backend="eager", dynamic=False)(_sin_plus_one)(
        lib.zeros(1)).tolist(), ok("[1.0]")),
    "an unknown mode": (lambda lib: lib.compile(lib.nn.Linear(1, 1), mode="bad"), err(
        "RuntimeError", "Unrecognized mode=bad, should be one of: default, lite, reduce-overhead, "
        "max-autotune-no-cudagraphs, max-autotune")),
    "not callable": (lambda lib: lib.compile(3), err(
        "AssertionError", "A callable function is expected, but <class 'int'> is provided.")),
    "a missing attribute": (lambda lib: _compiled_linear(lib)[1].nothing, err(
        "AttributeError", "'Linear' object has no attribute 'nothing'")),
    "is_compiling": (lambda lib: lib.compiler.is_compiling(), ok("False")),
}


def _sin_plus_one(x: Any) -> Any:
    return x.sin() + 1


@pytest.mark.parametrize("name", COMPILE)
def test_compile(name: str) -> None:
    fn, expected = COMPILE[name]
    torch = oracle()
    if torch is not None:  # (PyTorch's compiler warns about its own deprecated names as it loads: once, before)
        with warnings.catch_warnings(), contextlib.suppress(Exception):
            warnings.simplefilter("ignore")
            fn(torch)
    as_pytorch(fn, expected)


def test_a_compiled_model_trains_as_the_model() -> None:
    """A tutorial that compiles its model: the gradients reach the model's own parameters, step for step."""
    tg.manual_seed(0)
    model = tg.nn.Sequential(tg.nn.Linear(3, 4), tg.nn.ReLU(), tg.nn.Linear(4, 1))
    compiled = tg.compile(model)
    opt = tg.optim.SGD(compiled.parameters(), lr=0.1)
    x, y = tg.randn(8, 3), tg.randn(8, 1)
    before = model[0].weight.detach().clone()
    loss = tg.nn.functional.mse_loss(compiled(x), y)
    loss.backward()
    assert model[0].weight.grad is not None
    opt.step()
    assert not tg.equal(model[0].weight, before)
