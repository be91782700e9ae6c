"""``torch.testing.assert_close``: are two results the same, up to rounding? The check PyTorch's own tests and many
tutorials use to compare a hand-written gradient with autograd's, or a fast version of a computation with a slow one.

Two tensors are close where every element satisfies ``|actual - expected| <= atol + rtol * |expected|``. The
default tolerances come from the dtype (a float32 result carries about 7 significant digits, so the default ``rtol``
is 1.3e-6; integers and bools must be equal). Before comparing values it checks what must agree exactly: the
shape, the dtype (``check_dtype=False`` compares in the common dtype instead) and, if asked, the strides. Sequences
and mappings are compared item by item, and a failure says which item. The messages are PyTorch's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ._tensor import Tensor

__all__ = ["assert_close"]

# (rtol, atol) for each floating dtype; other dtypes compare for equality
_TOLERANCES = {np.dtype(np.float16): (1e-3, 1e-5), np.dtype(np.float32): (1.3e-6, 1e-5),
               np.dtype(np.float64): (1e-7, 1e-7)}
_NUMBERS = (bool, int, float)


class _MismatchError(Exception):
    """A failed check: its message, and the error type PyTorch raises for it."""

    def __init__(self, message: str, kind: type[Exception] = AssertionError) -> None:
        super().__init__(message)
        self.kind = kind


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True, rtol: float | None = None,
                 atol: float | None = None, equal_nan: bool = False, check_device: bool = True,
                 check_dtype: bool = True, check_layout: bool = True, check_stride: bool = False,
                 msg: str | Callable[[str], str] | None = None) -> None:
    """Raise AssertionError, saying where and by how much, unless ``actual`` and ``expected`` are close.

    ``rtol`` and ``atol`` go together (give both or neither); ``equal_nan=True`` counts nan as equal to nan. ``msg``
    replaces the message (a string) or rewrites it (a function of it).
    """
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                         f"{'rtol' if rtol is None else 'atol'}.")
    try:
        _compare(actual, expected, "", (rtol, atol), equal_nan, check_dtype, check_stride)
    except _MismatchError as failure:
        text = str(failure)
        if failure.kind is AssertionError and msg is not None:
            text = msg(text) if callable(msg) else msg
        raise failure.kind(text) from None


def _compare(actual: Any, expected: Any, where: str, tol: tuple, equal_nan: bool, check_dtype: bool,
             check_stride: bool) -> None:
    """Compare one pair; a sequence or mapping, item by item (``where``: the path to this item)."""
    try:
        if isinstance(actual, Tensor) and isinstance(expected, Tensor):
            return _tensors(actual, expected, tol, equal_nan, check_dtype, check_stride)
        if isinstance(actual, _NUMBERS) and isinstance(expected, _NUMBERS):
            return _numbers(actual, expected, tol, equal_nan, check_dtype)
        if actual is None and expected is None:
            return None
    except _MismatchError as failure:
        raise _MismatchError(f"{failure}\n\nThe failure occurred for item {where}" if where else str(failure),
                        failure.kind) from None
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _MismatchError(f"The length of the sequences mismatch: {len(actual)} != {len(expected)}")
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, f"{where}[{i}]", tol, equal_nan, check_dtype, check_stride)
        return None
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        missing = [k for k in expected if k not in actual]
        extra = [k for k in actual if k not in expected]
        if missing or extra:
            raise _MismatchError(f"The keys of the mappings do not match:\nMissing keys in the actual mapping: "
                            f"{sorted(missing)}\nAdditional keys in the actual mapping: {sorted(extra)}")
        for k in expected:
            _compare(actual[k], expected[k], f"{where}[{k!r}]", tol, equal_nan, check_dtype, check_stride)
        return None
    raise _MismatchError(f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.",
                    TypeError)


def _is_sequence(x: Any) -> bool:
    return isinstance(x, Sequence) and not isinstance(x, str)


def _tolerance(tol: tuple, *dtypes: np.dtype) -> tuple[float, float]:
    """The tolerances given, or the loosest of the dtypes' defaults."""
    if tol[0] is not None:
        return tol
    pairs = [_TOLERANCES.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _tensors(actual: Tensor, expected: Tensor, tol: tuple, equal_nan: bool, check_dtype: bool,
             check_stride: bool) -> None:
    a, e = actual.detach()._array, expected.detach()._array
    for name, x, y in (("shape", actual.shape, expected.shape), ("dtype", actual.dtype, expected.dtype)):
        if x != y and (name == "shape" or check_dtype):
            raise _MismatchError(f"The values for attribute '{name}' do not match: {x} != {y}.")
    if check_stride and actual.stride() != expected.stride():
        raise _MismatchError(f"The values for attribute 'stride()' do not match: {actual.stride()} != "
                        f"{expected.stride()}.")
    rtol, atol = _tolerance(tol, a.dtype, e.dtype)
    if a.dtype != e.dtype:
        common = np.promote_types(a.dtype, e.dtype)
        a, e = a.astype(common), e.astype(common)
    if a.dtype.kind in "biu":  # integers and bools: compared as int64, equal or not
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(all="ignore"):
        matches = _close(a, e, rtol, atol, equal_nan)
        if matches.all():
            return
        if a.ndim == 0:
            raise _MismatchError(_scalar_message(a.item(), e.item(), rtol, atol))
        abs_diff = np.abs(a - e)
        rel_diff = abs_diff / np.abs(e) if a.dtype.kind == "f" else \
            abs_diff.astype(np.float32) / np.abs(e).astype(np.float32)  # (integer / integer is float32, as in PyTorch)
    abs_diff[matches], rel_diff[matches] = 0, 0  # (only the mismatches count)
    mismatched = int(matches.size - matches.sum())
    extra = f"Mismatched elements: {mismatched} / {matches.size} ({mismatched / matches.size:.1%})"
    where_abs = np.unravel_index(int(np.argmax(abs_diff.ravel())), a.shape)
    where_rel = np.unravel_index(int(np.argmax(rel_diff.ravel())), a.shape)
    raise _MismatchError(_message("Tensor-likes", extra, abs_diff[where_abs].item(), tuple(map(int, where_abs)), atol,
                             rel_diff[where_rel].item(), tuple(map(int, where_rel)), rtol))


def _close(a: np.ndarray, e: np.ndarray, rtol: float, atol: float, equal_nan: bool) -> np.ndarray:
    """Element-wise ``|a - e| <= atol + rtol * |e|`` (an infinity is close only to itself, as the tolerance would be
    infinite too; nan only with equal_nan)."""
    if a.dtype.kind != "f":
        return a == e
    close = (a == e) | (np.isfinite(e) & (np.abs(a - e) <= atol + rtol * np.abs(e)))
    return close | (np.isnan(a) & np.isnan(e)) if equal_nan else close


def _numbers(actual: Any, expected: Any, tol: tuple, equal_nan: bool, check_dtype: bool) -> None:
    if check_dtype and type(actual) is not type(expected):
        raise _MismatchError(f"The (d)types do not match: {type(actual)} != {type(expected)}.")
    floating = isinstance(actual, float) or isinstance(expected, float)
    rtol, atol = tol if tol[0] is not None else (1e-7, 1e-7) if floating else (0, 0)
    if actual == expected or (equal_nan and actual != actual and expected != expected):
        return
    if floating and abs(actual - expected) <= atol + rtol * abs(expected):
        return
    raise _MismatchError(_scalar_message(actual, expected, rtol, atol))


def _scalar_message(actual: Any, expected: Any, rtol: float, atol: float) -> str:
    diff = abs(actual - expected)
    return _message("Scalars", f"Expected {expected} but got {actual}.", diff, None, atol,
                    float("inf") if expected == 0 else diff / abs(expected), None, rtol)


def _message(what: str, extra: str, abs_diff: Any, abs_at: Any, atol: float, rel_diff: Any, rel_at: Any,
             rtol: float) -> str:
    """PyTorch's report: what is not close (or equal, with no tolerance), then the greatest differences."""
    equality = rtol == 0 and atol == 0
    lines = [f"{what} are not {'equal' if equality else 'close'}!", "", extra]
    for kind, diff, at, allowed in (("absolute", abs_diff, abs_at, atol), ("relative", rel_diff, rel_at, rtol)):
        line = f"{kind.title()} difference: {diff}" if at is None else \
            f"Greatest {kind} difference: {diff} at index {at}"
        lines.append(line if equality else f"{line} (up to {allowed} allowed)")
    return "\n".join(lines)
