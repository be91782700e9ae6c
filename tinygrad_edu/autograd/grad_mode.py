"""``tinygrad_edu.autograd.grad_mode``: switching gradient recording off and on (the core's ``grad_mode.py``), and
anomaly detection."""

from __future__ import annotations

import functools
import warnings
from typing import Any

from ..core.grad_mode import (
    GradMode,
    enable_grad,
    inference_mode,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from ..core.tensor import Tensor
from ..ops.views import REPLAY  # (the switch _force_original_view_tracking sets, which ops/views.py reads)

__all__ = ["GradMode", "_force_original_view_tracking", "_unsafe_preserve_version_counter", "detect_anomaly",
           "enable_grad", "inference_mode", "is_anomaly_enabled", "is_grad_enabled", "is_inference_mode_enabled",
           "is_multithreading_enabled", "is_view_replay_enabled", "no_grad", "set_detect_anomaly", "set_grad_enabled",
           "set_multithreading_enabled"]


set_grad_enabled.__repr__ = lambda self: f"tinygrad_edu.autograd.grad_mode.set_grad_enabled(mode={self.grad})"


def is_inference_mode_enabled() -> bool:
    return GradMode.inference


def is_anomaly_enabled() -> bool:
    return GradMode.anomaly


class set_detect_anomaly:  # noqa: N801  (PyTorch's name)
    """Anomaly detection: while on, every recorded node remembers where in *your* code its forward ran,
    and if its backward fails, a warning shows that line ("Error detected in MulBackward0 ...") before
    the error. Backward errors otherwise point into the engine, far from the line that caused them.

    With ``check_nan`` (the default) it also stops backward at the first node whose gradients contain nan,
    "Function 'SqrtBackward0' returned nan values in its 0th output.": where a nan is born, rather than the
    nan in ``.grad`` at the end.

    A plain call switches it on or off; as a context manager it restores the previous mode on exit.
    It slows every op down (the call stack is captured each time): switch it on only to debug.
    """

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self._prev = GradMode.anomaly, GradMode.anomaly_check_nan
        GradMode.anomaly, GradMode.anomaly_check_nan = bool(mode), bool(check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        GradMode.anomaly, GradMode.anomaly_check_nan = self._prev


class detect_anomaly(set_detect_anomaly):  # noqa: N801
    """``with detect_anomaly():`` is ``with set_detect_anomaly(True):`` (and, as in PyTorch, warns that it
    is on: it is for debugging only)."""

    def __init__(self, check_nan: bool = True) -> None:
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                      "enabled for debugging.", UserWarning, stacklevel=2)
        super().__init__(True, check_nan)


_MULTITHREADING = [True]  # PyTorch's default


def is_multithreading_enabled() -> bool:
    """Whether backward may run on worker threads (``set_multithreading_enabled``); True unless switched off."""
    return _MULTITHREADING[0]


class set_multithreading_enabled:  # noqa: N801  (PyTorch's name)
    """PyTorch runs the backward passes of accelerator devices on threads of their own; ``mode=False`` keeps them on
    the calling thread. This engine always runs on the calling thread, so only the setting is kept (for
    ``is_multithreading_enabled``). A plain call sets it; as a context manager it puts the previous one back."""

    def __init__(self, mode: bool) -> None:
        self.mode, self.prev = mode, _MULTITHREADING[0]
        _MULTITHREADING[0] = bool(mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _MULTITHREADING[0] = self.prev

    def clone(self) -> set_multithreading_enabled:
        return type(self)(self.mode)


class _unsafe_preserve_version_counter:  # noqa: N801  (PyTorch's name)
    """Inside the block, in-place changes to ``tensors`` (one tensor or several) do not count: their versions are
    put back on exit, so a graph that saved them will use the changed values without complaint. As PyTorch warns:
    do not use it unless the change is one autograd must not see (say, a buffer refilled with the same values)."""

    def __init__(self, tensors: Any) -> None:
        self.tensors = (tensors,) if isinstance(tensors, Tensor) else tuple(tensors)

    def __enter__(self) -> None:
        self.versions = [t._version_counter[0] for t in self.tensors]

    def __exit__(self, *exc: object) -> None:
        for t, version in zip(self.tensors, self.versions):
            t._version_counter[0] = version


def is_view_replay_enabled() -> bool:
    """Whether ``_force_original_view_tracking`` is on (off by default, as in PyTorch)."""
    return REPLAY[0]


class _force_original_view_tracking:  # noqa: N801  (PyTorch's name)
    """PyTorch's switch for *view replay*: after an in-place change of a view, its history is rebuilt either as
    ``AsStridedBackward0`` of its base's new history (off, the default) or by making the view's ops again on it
    (on: ``ViewBackward0``, ``SelectBackward0`` ... <- ``CopySlices``; ``ops/views.py``, ``replayed``). The gradients
    are the same either way; the graph reads more like the code with it on.

    As PyTorch's: a plain call sets it, ``with`` restores the previous value on exit, and as a decorator it sets it
    only while the function runs (``is_view_replay_enabled()`` reads it).
    """

    def __init__(self, mode: bool) -> None:
        self.mode, self.prev = bool(mode), REPLAY[0]
        REPLAY[0] = self.mode  # (set at once: the plain-call form)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        REPLAY[0] = self.prev

    def clone(self) -> _force_original_view_tracking:
        return type(self)(self.mode)

    def __call__(self, fn: Any) -> Any:
        """As a decorator: the switch goes back to what it was (the decorating line must not change it); the
        function runs with it set."""
        REPLAY[0] = self.prev
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with _force_original_view_tracking(mode):
                return fn(*args, **kwargs)

        return wrapper
