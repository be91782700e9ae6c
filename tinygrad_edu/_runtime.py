"""The process-wide switches PyTorch code sets at the top of a script, and what they mean here.

Tutorials start with lines like ``torch.set_num_threads(1)``, ``torch.use_deterministic_algorithms(True)`` or
``torch.set_float32_matmul_precision("high")``. tinygrad_edu computes with numpy on the CPU, which is deterministic
and computes float32 products in float32, so none of them changes a result: each is accepted (with PyTorch's
checks and messages), remembered, and reported back by its getter, so that such code runs unchanged.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from ._tensor import Tensor


class _State:
    threads = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    interop_threads = threads
    deterministic, warn_only = False, False
    matmul_precision = "highest"


def set_num_threads(n: int) -> None:
    """How many threads PyTorch's CPU kernels use. numpy's BLAS reads its thread count when it starts
    (``OPENBLAS_NUM_THREADS``), so here the number is only remembered."""
    if type(n) is not int:
        raise RuntimeError(f"set_num_threads expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _State.threads = n


def get_num_threads() -> int:
    return _State.threads


def set_num_interop_threads(n: int) -> None:
    if type(n) is not int:
        raise RuntimeError(f"set_num_interop_threads expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError("Expected positive number of threads")
    _State.interop_threads = n


def get_num_interop_threads() -> int:
    return _State.interop_threads


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Ask for operations that give the same bits on every run. Every operation here already does (numpy on one
    CPU), so this only sets what ``are_deterministic_algorithms_enabled()`` reports."""
    if type(mode) is not bool:
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
                        f"{type(mode).__name__}")
    if type(warn_only) is not bool:
        raise TypeError(f"_set_deterministic_algorithms(): argument 'warn_only' must be bool, not "
                        f"{type(warn_only).__name__}")
    _State.deterministic, _State.warn_only = mode, warn_only


def are_deterministic_algorithms_enabled() -> bool:
    return _State.deterministic


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _State.warn_only


_DEBUG_MODES = ("default", "warn", "error")


def set_deterministic_debug_mode(debug_mode: str | int) -> None:
    """The same switch as a level: 0 / "default" off, 1 / "warn" on with warn_only, 2 / "error" on."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = _DEBUG_MODES.index(debug_mode)
    elif type(debug_mode) is not int:
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode).__name__}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    return 0 if not _State.deterministic else 1 if _State.warn_only else 2


def set_float32_matmul_precision(precision: str) -> None:
    """PyTorch may compute float32 products in lower precision on some hardware ("high", "medium"). numpy always
    computes them in float32 ("highest"); the setting is remembered. Another word is ignored with PyTorch's
    warning."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      f"setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    _State.matmul_precision = precision


def get_float32_matmul_precision() -> str:
    return _State.matmul_precision


def typename(obj: Any) -> str:
    """A readable type name: a tensor's legacy one (``torch.FloatTensor``), else the class's module and name."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(type(obj), "__module__", "") or ""
    name = getattr(type(obj), "__qualname__", type(obj).__name__)
    return name if module in ("", "builtins") else f"{module}.{name}"


def is_nonzero(input: Tensor) -> bool:
    """Whether a one-element tensor is not zero (``bool(t)``; PyTorch's errors for none or several elements)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"is_nonzero(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if input._array.size == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if input._array.size > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input._array.reshape(()))


__all__ = [
    "are_deterministic_algorithms_enabled",
    "get_deterministic_debug_mode",
    "get_float32_matmul_precision",
    "get_num_interop_threads",
    "get_num_threads",
    "is_deterministic_algorithms_warn_only_enabled",
    "is_nonzero",
    "set_deterministic_debug_mode",
    "set_float32_matmul_precision",
    "set_num_interop_threads",
    "set_num_threads",
    "typename",
    "use_deterministic_algorithms",
]
