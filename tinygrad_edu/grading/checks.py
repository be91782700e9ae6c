"""The checks an exercise's check cell runs: each says what was expected, what it got, and why that may be.

Every check either returns quietly or raises ``CheckFailed``, which carries four readable parts::

    check:    w.is_leaf
    expected: True
    got:      False
    hint:     w has grad_fn=<MulBackward0>: it is the result of an operation ...

The hints are where the teaching happens, and a hint must name the mistake the learner made, not one they
could not have made. So a hint is chosen in this order:

1. **A mistake the author knows.** ``mistakes=[(wrong, "what it means"), ...]``: when the answer equals
   ``wrong`` (a value, or a predicate on the answer), its words are the hint and nothing else is said.
   ``check_close("central_difference(...)", got, want, mistakes=[(2 * want, "divide by 2h, not h")])``.
2. **What the answer is, if it is not what was asked**: ``None``, not a number, a tensor where a Python
   float is asked for (``python_float=True``), a shape that differs.
3. **The usual mistakes, where they are possible**, then the author's ``hint`` (for a value that is wrong).
   A gradient exactly twice too big means ``backward()`` ran twice without zeroing ``.grad`` only if the value
   came out of ``.grad`` (``accumulated``, by default: its name reads like one, ``x.grad``, ``grad_b``,
   ``h_grad``); elsewhere the check says only "exactly twice". A shape that broadcasts against the right one
   is blamed on a missing sum only when it is bigger.

The checks are plain functions: call them inside ``with exercise(...)`` (``exercise.py``), which turns a
failure into a short report instead of a stack trace.
"""

from __future__ import annotations

import functools
import inspect
import re
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._creation import tensor
from .._dtype import bool as bool_dtype
from .._tensor import Tensor
from ..autograd.engine import grad as autograd_grad
from ..autograd.gradcheck import _numerical_jacobians
from ._style import field, show


class CheckFailed(AssertionError):  # noqa: N818  (a failed check is a verdict, not a bug: no "Error")
    """One check did not hold. ``str()`` gives the plain report; ``lines(colour)`` the coloured one."""

    def __init__(self, check: str, *, expected: str | None = None, got: str | None = None,
                 hint: str | None = None, diff: str | None = None) -> None:
        self.check, self.expected, self.got, self.hint, self.diff = check, expected, got, hint, diff
        super().__init__("\n".join(self.lines(colour=False)))

    def lines(self, colour: bool) -> list[str]:
        out = field("check", self.check, colour)
        if self.expected is not None:
            out += field("expected", self.expected, colour, "pass")
        if self.got is not None:
            out += field("got", self.got, colour, "fail")
        if self.diff is not None:
            out += field("where", self.diff, colour)
        if self.hint:
            out += field("hint", self.hint, colour, "hint")
        return out


_UNSET: Any = object()  # "not given": None is a meaningful expectation (grad_fn=None)


# -- values ------------------------------------------------------------------------------------------------
def _array(value: Any) -> np.ndarray | None:
    """The numbers of a tensor, array, number or (nested) list, as float64; None if it has none."""
    if isinstance(value, Tensor):
        value = value.detach().numpy()
    if isinstance(value, (bool, np.bool_)):
        return np.asarray(value, dtype=np.float64)
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):  # ragged lists, or lists of tensors that need grad
        return None
    return array.astype(np.float64) if array.dtype.kind in "biuf" else None


def _shape(value: Any) -> tuple[int, ...]:
    return tuple(value.shape) if isinstance(value, (Tensor, np.ndarray)) else np.shape(value)


def _grad_fn_name(t: Tensor) -> str | None:
    """The node's name as PyTorch prints it in ``grad_fn=<MulBackward0>``."""
    return None if t.grad_fn is None else type(t.grad_fn).__name__


# A mistake the author knows: (the wrong answer, or a predicate on the answer) and what it means.
Mistake = tuple[Any, str]

_GRAD_NAME = re.compile(r"\.grad\b|\bgrad_|_grad\b|^grad$")


def _is_accumulated(name: str, accumulated: bool | None) -> bool:
    """Whether a value may have come out of ``.grad``, where backward() adds up (see the module docstring)."""
    return bool(_GRAD_NAME.search(name)) if accumulated is None else accumulated


def _known_mistake(got: Any, mistakes: Sequence[Mistake], same: Callable[[Any, Any], bool]) -> str | None:
    """The words of the first of ``mistakes`` that ``got`` makes, if any."""
    for wrong, words in mistakes:
        try:
            made = bool(wrong(got)) if callable(wrong) else same(got, wrong)
        except Exception:  # a predicate written for numbers, given something else: not this mistake
            made = False
        if made:
            return words
    return None


def _same_numbers(got: Any, wrong: Any, rtol: float, atol: float) -> bool:
    a, b = _array(got), _array(wrong)
    return a is not None and b is not None and a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol))


def _hints(*hints: str | None) -> str | None:
    return "\n".join(h for h in hints if h) or None


def _none_hint(name: str) -> str:
    if "grad" in name:
        return (f"{name} is None. backward() fills .grad only for leaf tensors that require grad (create them with "
                "requires_grad=True); for an intermediate (non-leaf) tensor call .retain_grad() on it before "
                "backward(). Also check that backward() was called at all.")
    return f"{name} is None: did a function forget to `return` its result?"


def _shape_hint(got: tuple[int, ...], expected: tuple[int, ...]) -> str:
    size, wanted = int(np.prod(got)), int(np.prod(expected))
    if size == wanted == 1:
        return ("a single number: a 0-d tensor has shape () while a one-element tensor has shape (1,). "
                "Use .reshape(()) or .squeeze(), or index the element you want.")
    if size == wanted:
        return "the same number of elements in another arrangement: a transposed matrix (.T) or a wrong reshape?"
    try:
        np.broadcast_shapes(got, expected)
    except ValueError:
        return "check the sizes of the tensors it was computed from."
    if size < wanted:
        return (f"fewer numbers than expected: shape {got} would be stretched to {expected} in arithmetic, but the "
                f"answer itself must have shape {expected}. To make zeros (or ones) shaped like a tensor t, use "
                "torch.zeros_like(t).")
    return ("these shapes broadcast together, so arithmetic with them runs and hides the mistake. A gradient "
            "always has exactly the shape of its tensor: where broadcasting stretched a tensor, its gradient "
            "must be summed back over the stretched dimensions (e.g. .sum(dim=0)).")


def _diagnose(got: np.ndarray, expected: np.ndarray, atol: float, rtol: float, accumulated: bool) -> str | None:
    """The likely mistake behind ``got`` (shaped like ``expected`` but not close to it), if it is a usual one.
    Accumulation in ``.grad`` is named as a cause only when the value may have come from ``.grad``."""

    def close(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.allclose(a, b, rtol=rtol, atol=atol))

    if np.isnan(got).any() and not np.isnan(expected).any():
        return "it contains nan: a division by zero, the log or sqrt of a negative number, or inf - inf?"
    if np.any(np.abs(expected) > atol):
        if not np.any(got):
            return ("all zeros, but the expected values are not. Was .grad zeroed after backward() instead of "
                    "before it? Or is this the .grad tensor itself, zeroed in place later by .zero_()? Keep a "
                    "copy with .clone().") if accumulated else "all zeros, but the expected values are not."
        for k in (2, 3, 4, 5):
            if close(got, k * expected):
                times = "twice" if k == 2 else f"{k} times"
                return (f"exactly {times} the expected value. If this is a gradient: backward() ran {times} without "
                        "zeroing .grad in between, and gradients add up in .grad.") if accumulated else \
                    f"exactly {times} the expected value."
        if close(got, -expected):
            return "the sign is flipped: a subtraction the wrong way round, or a missing minus sign?"
    if got.ndim == 2 and got.shape[0] == got.shape[1] and close(got.T, expected):
        return "this is the transpose of the expected matrix: swap the order of a matmul or drop a .T?"
    return None


def _largest_difference(got: np.ndarray, expected: np.ndarray) -> str | None:
    if got.ndim == 0:
        return None
    diff = np.abs(got - expected)
    diff = np.where(np.isnan(diff), np.inf, diff)
    index = tuple(int(i) for i in np.unravel_index(int(np.argmax(diff)), diff.shape))
    where = index[0] if len(index) == 1 else list(index)
    return f"largest difference at index {where}: expected {expected[index]:.6g}, got {got[index]:.6g}"


def _not_python_float(name: str, got: Any, expected: Any) -> str | None:
    """Why ``got`` is not a Python float (or a list or tuple of them, as ``expected`` is); None if it is."""
    many = isinstance(expected, (list, tuple))
    if many and not isinstance(got, (list, tuple)):
        return (f"{name} is a {type(got).__name__}, where a {type(expected).__name__} of Python floats is asked for"
                + (": .tolist() turns a tensor into a list of floats." if isinstance(got, Tensor) else "."))
    for i, value in enumerate(got if many else [got]):
        if isinstance(value, float):  # numpy's float64 is a float too
            continue
        what = f"{name}[{i}]" if many else name
        if isinstance(value, Tensor):
            return (f"{what} is a tensor, where a Python float is asked for: .item() turns a one-number tensor into "
                    "a float (x.grad.item()).")
        kind = type(value).__name__
        return f"{what} is {'an' if kind[0] in 'aeiou' else 'a'} {kind}, where a Python float is asked for: convert " \
            "it with float(...)."
    return None


# -- the checks -------------------------------------------------------------------------------------------
def check_close(name: str, got: Any, expected: Any, *, atol: float = 1e-6, rtol: float = 1e-5,
                hint: str | None = None, mistakes: Sequence[Mistake] = (), python_float: bool = False,
                accumulated: bool | None = None) -> None:
    """Check that ``got`` (a tensor, array, number or list) has ``expected``'s shape and values.

    Values match when ``|got - expected| <= atol + rtol * |expected|`` everywhere (numpy's ``allclose``).
    Shapes must match exactly: a gradient of shape (3, 1) where (3,) is expected is a mistake, even
    though the two would broadcast. ``name`` is how the learner's code spells the value (``"w.grad"``).

    ``mistakes``: known wrong answers, ``(value or predicate, words)``, checked first (module docstring).
    ``python_float``: the answer must be a Python float (or a list or tuple of them, like ``expected``).
    ``hint``: what to say about a wrong value. ``accumulated``: whether the value may come out of ``.grad``.
    """
    want = _array(expected)
    if want is None:
        raise TypeError(f"check_close: the expected value for {name} must be numbers, not {type(expected).__name__}")
    same = functools.partial(_same_numbers, rtol=rtol, atol=atol)
    known = _known_mistake(got, mistakes, same)
    if known and not same(got, expected):
        raise CheckFailed(name, expected=show(expected), got=show(got), hint=known)
    if got is None:
        raise CheckFailed(name, expected=show(expected), got="None", hint=_none_hint(name))
    if python_float:
        problem = _not_python_float(name, got, expected)
        if problem:
            kind = f"a {type(expected).__name__} of Python floats" if isinstance(expected, (list, tuple)) else \
                "a Python float"
            raise CheckFailed(f"type of {name}", expected=kind, got=f"{show(got)} (a {type(got).__name__})",
                              hint=problem)
    have = _array(got)
    if have is None:
        raise CheckFailed(name, expected=show(expected), got=f"{show(got)} (a {type(got).__name__})",
                          hint="expected numbers: a tensor, a number or a list of numbers.")
    if have.shape != want.shape:
        raise CheckFailed(f"{name}.shape" if isinstance(got, Tensor) else f"shape of {name}",
                          expected=str(want.shape), got=f"{have.shape}: {show(got)}",
                          hint=_shape_hint(have.shape, want.shape))
    if np.allclose(have, want, rtol=rtol, atol=atol, equal_nan=True):
        return
    likely = _diagnose(have, want, atol, rtol, _is_accumulated(name, accumulated))
    raise CheckFailed(name, expected=show(expected), got=show(got), diff=_largest_difference(have, want),
                      hint=_hints(likely, hint))


def _first_difference(got: Any, expected: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """Where two (nested) values first differ, comparing types strictly (True is not 1, '1' is not 1)."""
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):  # a list answers a tuple too
        if len(got) != len(expected):
            return path, got, expected
        for i, (g, e) in enumerate(zip(got, expected)):
            found = _first_difference(g, e, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(expected, dict) and isinstance(got, dict):
        if set(got) != set(expected):
            return path, got, expected
        for k in expected:
            found = _first_difference(got[k], expected[k], f"{path}[{k!r}]")
            if found:
                return found
        return None
    same_kind = (isinstance(got, bool) == isinstance(expected, bool)) and (got is None) == (expected is None)
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        same_kind = same_kind and isinstance(got, (int, float))
    elif expected is not None and not isinstance(expected, bool):
        same_kind = same_kind and isinstance(got, type(expected))
    return None if same_kind and got == expected else (path, got, expected)


def _kind_hint(got: Any, expected: Any) -> str | None:
    if isinstance(got, str) and not isinstance(expected, str) and got.strip() == repr(expected):
        return f"you wrote the string {got!r}: write {expected!r} without quotes."
    if isinstance(expected, bool) and not isinstance(got, bool):
        return f"expected a bool (True or False), got {show(got)} (a {type(got).__name__})."
    if isinstance(expected, str) and isinstance(got, str):
        if got.strip("<> ") == expected:
            return f"write just the name: {expected!r}."
        if expected and expected in got:
            return f"the string holds more than the name: write just {expected!r}."
    if isinstance(expected, str) and got is not None and not isinstance(got, str):
        return f"expected a string, got {show(got)} (a {type(got).__name__})."
    return None


def check_equal(name: str, got: Any, expected: Any, *, hint: str | None = None,
                mistakes: Sequence[Mistake] = ()) -> None:
    """Check that ``got == expected`` exactly, for answers that are not numbers to compare loosely:
    bools, strings, None, and lists, tuples or dicts of them. Types count (``True`` is not ``1`` or
    ``"True"``). Tensors and arrays are compared element by element, shapes included.
    ``mistakes``: known wrong answers, ``(value or predicate, words)``, checked first (module docstring).
    """
    if isinstance(got, (Tensor, np.ndarray)) or isinstance(expected, (Tensor, np.ndarray)):
        have, want = _array(got), _array(expected)
        if have is not None and want is not None and have.shape == want.shape and np.array_equal(have, want):
            return
        raise CheckFailed(name, expected=show(expected), got=show(got),
                          hint=_known_mistake(got, mistakes, lambda g, w: g is w) or hint)
    found = _first_difference(got, expected)
    if found is None:
        return
    known = _known_mistake(got, mistakes, lambda g, w: _first_difference(g, w) is None)
    path, g, e = found
    detail = None if not path else f"at {name}{path}: expected {show(e)}, got {show(g)}"
    if isinstance(g, dict) and isinstance(e, dict):  # the keys differ: say which
        missing, extra = sorted(map(repr, set(e) - set(g))), sorted(map(repr, set(g) - set(e)))
        parts = ([f"missing keys: {', '.join(missing)}"] if missing else []) + \
            ([f"keys not expected: {', '.join(extra)}"] if extra else [])
        detail = (f"at {name}{path}: " if path else "") + "; ".join(parts)
    raise CheckFailed(name, expected=show(expected), got=show(got), diff=detail,
                      hint=known or _hints(_kind_hint(g, e), hint))


def check_tensor(name: str, t: Any, *, shape: Sequence[int] = _UNSET, dtype: Any = _UNSET,
                 requires_grad: bool = _UNSET, is_leaf: bool = _UNSET, grad_fn: str | None = _UNSET,
                 hint: str | None = None) -> None:
    """Check a tensor's autograd facts: any of ``shape``, ``dtype``, ``requires_grad``, ``is_leaf`` and
    ``grad_fn`` (a node name such as ``"MulBackward0"``, or None for "no grad_fn", i.e. a leaf).
    Only the facts given are checked, in that order. A failed fact's own explanation comes first, then
    ``hint``."""
    if not isinstance(t, Tensor):
        what = "None: did a function forget to `return`?" if t is None else f"a {type(t).__name__}"
        raise CheckFailed(f"{name} is a tensor", expected="a tinygrad_edu.Tensor", got=f"{show(t)} ({what})",
                          hint="create tensors with tinygrad_edu.tensor(...), ones(...), randn(...) ...")
    made_by = _grad_fn_name(t)

    def fail(fact: str, want: Any, have: Any, why: str) -> None:
        raise CheckFailed(f"{name}.{fact}", expected=show(want), got=show(have), hint=_hints(why, hint))

    not_a_leaf = (f"{name} has grad_fn=<{made_by}>: it is the result of an operation on a tensor that requires "
                  "grad, so it is not a leaf. The classic case is a scaled random weight: randn(..., "
                  "requires_grad=True) * 0.01 is a product (MulBackward0). Scale first and then call "
                  ".requires_grad_(), or .detach() the result and call .requires_grad_() on that.")
    a_leaf = (f"{name} has no grad_fn, so it is a leaf: it was created directly, or computed from tensors that "
              "do not require grad, or under no_grad(), or with .detach(). Only operations on tensors that "
              "require grad (while grad mode is on) record a grad_fn.")
    if shape is not _UNSET and tuple(t.shape) != tuple(shape):
        fail("shape", tuple(shape), tuple(t.shape), _shape_hint(tuple(t.shape), tuple(shape)))
    if dtype is not _UNSET and t.dtype != dtype:
        if t.dtype == bool_dtype:
            why = f"a comparison such as (x > 0) makes a bool tensor: convert it with .float() (or .to({dtype}))."
        elif not t.is_floating_point():
            why = "integer data makes an integer tensor: write 1.0 instead of 1, or pass dtype=tinygrad_edu.float32."
        else:
            why = f"convert with .to({dtype}) or create it with dtype={dtype}."
        fail("dtype", dtype, t.dtype, why)
    if requires_grad is not _UNSET and t.requires_grad != requires_grad:
        if requires_grad:
            why = (f"create {name} with requires_grad=True (or call {name}.requires_grad_()). A tensor made by "
                   ".detach(), under no_grad(), or only from tensors that do not require grad does not require grad.")
        elif made_by:
            why = (f"{name} was computed from a tensor that requires grad (grad_fn=<{made_by}>): use .detach(), "
                   "or compute it inside `with tinygrad_edu.no_grad():`.")
        else:
            why = f"{name} was created with requires_grad=True."
        fail("requires_grad", requires_grad, t.requires_grad, why)
    if is_leaf is not _UNSET and t.is_leaf != is_leaf:
        fail("is_leaf", is_leaf, t.is_leaf, not_a_leaf if is_leaf else a_leaf)
    if grad_fn is not _UNSET and made_by != grad_fn:
        if grad_fn is None:
            why = not_a_leaf
        elif made_by is None:
            why = a_leaf
        else:
            why = (f"grad_fn is the node of the last operation that made {name}: expected <{grad_fn}>, got "
                   f"<{made_by}>. Which operation ran last?")
        raise CheckFailed(f"{name}.grad_fn", expected="None" if grad_fn is None else f"<{grad_fn}>",
                          got="None" if made_by is None else f"<{made_by}>",
                          hint=_hints(why, hint))


def _parameter_names(fn: Callable, n: int) -> list[str]:
    try:
        names = [p.name for p in inspect.signature(fn).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):  # builtins and some callables have no signature
        names = []
    return names[:n] + [f"input {i}" for i in range(len(names), n)]


def check_grad(fn: Callable[..., Tensor], inputs: Tensor | Sequence[Tensor], *,
               grad: Tensor | Sequence[Tensor] | Callable[..., Any] | None = None, name: str | None = None,
               eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3, hint: str | None = None,
               mistakes: Sequence[Mistake] = ()) -> None:
    """Check a gradient of ``fn`` (a function of tensors returning one number) against numerical
    differentiation: central differences ``(f(x + eps) - f(x - eps)) / (2 eps)`` in float64, one number of
    the input at a time (the machinery of ``tinygrad_edu.autograd.gradcheck``).

    Without ``grad``, the gradient checked is autograd's, through ``fn``: use it for a learner's custom
    ``Function`` or a learner's ``fn``. With ``grad`` (a tensor per input, or a function of the inputs
    returning them), the gradient checked is the one given: use it for "derive df/dx by hand".
    The inputs are copied to float64 first, so the learner's tensors are not touched.

    ``hint`` is for a wrong gradient; ``mistakes``, known wrong gradients ``(value or predicate, words)``,
    are compared with the gradient of the input that failed. A gradient computed here is fresh, so a wrong
    multiple is never blamed on accumulation in ``.grad``.
    """
    xs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if not xs or not all(isinstance(x, Tensor) for x in xs):
        raise TypeError("check_grad: inputs must be a tensor or a sequence of tensors")
    label = name or getattr(fn, "__name__", "fn")
    arg_names = _parameter_names(fn, len(xs))
    xs = [tensor(x.detach().numpy().astype(np.float64), requires_grad=True) for x in xs]
    out = fn(*xs)
    if not isinstance(out, Tensor) or out.numel() != 1:
        raise CheckFailed(f"{label}(...) returns one number", expected="a tensor with one element",
                          got=show(out), hint="reduce the result to one number (e.g. .sum()), and make sure the "
                          "function ends with `return`.")
    if grad is None:
        if not out.requires_grad:
            raise CheckFailed(f"{label}(...).grad_fn", expected="a grad_fn (the result depends on the inputs)",
                              got="None", hint="the computation left autograd: numpy, .item(), .detach(), .data or "
                              "no_grad() inside the function cut the graph.")
        analytical = list(autograd_grad(out, xs, allow_unused=True))
        source = "autograd"
    else:
        given = grad(*xs) if callable(grad) else grad
        analytical = [given] if isinstance(given, Tensor) or not isinstance(given, (list, tuple)) else list(given)
        if len(analytical) != len(xs):
            raise CheckFailed(f"gradients of {label}", expected=f"{len(xs)} gradient(s), one per input",
                              got=f"{len(analytical)}", hint="return one gradient per input, in the inputs' order.")
        source = "your gradient"
    for i, (x, g) in enumerate(zip(xs, analytical)):
        check = f"d {label} / d {arg_names[i]} ({source})"
        numerical = _numerical_jacobians(fn, tuple(xs), i, eps)[0].reshape(x.shape)
        if g is None:
            raise CheckFailed(check, expected=show(numerical), got="None",
                              hint=f"no gradient reaches {arg_names[i]}: is it used in the result, and does the path "
                              "from it avoid .detach(), numpy and no_grad()?")
        have = _array(g)
        if have is None or have.shape != numerical.shape:
            raise CheckFailed(check, expected=f"shape {numerical.shape}: {show(numerical)}",
                              got=f"shape {_shape(g)}: {show(g)}", hint=_shape_hint(_shape(g), numerical.shape))
        if not np.allclose(have, numerical, rtol=rtol, atol=atol):
            known = _known_mistake(g, mistakes, functools.partial(_same_numbers, rtol=rtol, atol=atol))
            raise CheckFailed(check, expected=f"{show(numerical)} (central differences)", got=show(have),
                              diff=_largest_difference(have, numerical),
                              hint=known or _hints(_diagnose(have, numerical, atol, rtol, accumulated=False), hint))


def check_raises(exc_type: type[BaseException], fn: Callable[[], Any], *, match: str | None = None,
                 name: str | None = None, hint: str | None = None) -> None:
    """Check that calling ``fn()`` raises ``exc_type`` (and, with ``match``, that its message contains
    the regular expression ``match``): for "make this fail the way PyTorch does" exercises.

    A ``NotImplementedError`` that was not asked for passes through, so an unsolved exercise still
    reads "not attempted yet".
    """
    label = name or f"{getattr(fn, '__name__', 'fn')}()"
    wanted = exc_type.__name__ + (f" with a message matching {match!r}" if match else "")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = fn()
    except Exception as error:
        # NotImplementedError is a RuntimeError: the bare placeholder must not pass for PyTorch's error.
        if type(error) is NotImplementedError and not str(error) and exc_type is not NotImplementedError:
            raise
        if not isinstance(error, exc_type):
            raise CheckFailed(f"{label} raises", expected=wanted, got=f"{type(error).__name__}: {error}",
                              hint=hint) from None
        if match is not None and not re.search(match, str(error)):
            raise CheckFailed(f"{label} raises", expected=wanted, got=f"{type(error).__name__}: {error}",
                              hint=hint or "the right kind of error, but another message: another mistake "
                              "than the one asked for?") from None
        return
    raise CheckFailed(f"{label} raises", expected=wanted, got=f"no error: it returned {show(result)}", hint=hint)
