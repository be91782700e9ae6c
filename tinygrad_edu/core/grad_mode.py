"""The switches: whether operations record the graph (``no_grad`` and friends), and the speed tricks.

One flag, ``GradMode.enabled``, decides whether an operation records a node in the backward graph. Every op
reads it; ``no_grad``, ``enable_grad`` and ``set_grad_enabled`` only flip it and put it back, as context managers
(``with no_grad():``) or decorators (``@no_grad()``); ``set_grad_enabled(False)`` also works as a plain call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .. import _checks as C
from .._decorators import Decorating

F = TypeVar("F", bound=Callable[..., Any])


class GradMode:
    """The global switches autograd reads. (PyTorch keeps them per thread; one thread is all a notebook uses.)"""

    enabled: bool = True  # record the backward graph? (no_grad, enable_grad, set_grad_enabled)
    inference: bool = False  # inside inference_mode(): tensors made now are inference tensors
    anomaly: bool = False  # set_detect_anomaly: each node remembers where its forward ran
    anomaly_check_nan: bool = True  # ... and backward stops at the first node that returns nan
    dual: object | None = None  # inside forward_ad.dual_level(): the level; ops give tangents (function.py)


class Speed:
    """The one switch for the speed tricks. Each trick sits in one place, marked ``# speed:``, and does what the
    plain code next to it does, only faster; with ``Speed.tricks = False`` all are skipped and the results are the
    same (``tests/test_fast_paths.py`` checks). Read the core with the tricks switched off: they are not the idea."""

    tricks: bool = True


def is_grad_enabled() -> bool:
    """True when operations on tensors that require grad record the backward graph."""
    return GradMode.enabled


class _Mode(Decorating):
    """What the switches share: ``__enter__`` sets the flags, ``__exit__`` puts back what was there. (Decorating:
    ``Decorating``, beside the core.)"""

    grad = True  # GradMode.enabled inside
    inference: bool | None = None  # GradMode.inference inside (None: unchanged)

    def __enter__(self) -> None:
        self._prev = GradMode.enabled, GradMode.inference
        GradMode.enabled = self.grad
        GradMode.inference = self._prev[1] if self.inference is None else self.inference

    def __exit__(self, *exc: object) -> None:
        GradMode.enabled, GradMode.inference = self._prev

    def clone(self) -> _Mode:
        """A fresh context of the same mode (for each call of a decorated function)."""
        copy = _Mode()
        copy.grad, copy.inference = self.grad, self.inference
        return copy


class no_grad(_Mode):  # noqa: N801  (PyTorch's name)
    """Inside ``with no_grad():`` results never require grad and no graph is recorded.

    Use it for evaluation and for updating parameters by hand (``w -= lr * w.grad``)."""

    grad = False


class enable_grad(_Mode):  # noqa: N801
    """Turns recording back on, e.g. inside a function that is called under ``no_grad``."""


class set_grad_enabled(_Mode):  # noqa: N801
    """``set_grad_enabled(False)`` turns recording off at once (a plain call), and as a context manager restores
    the previous mode on exit."""

    def __init__(self, mode: bool) -> None:
        self.grad, self._prev = C.flag(mode, "set_grad_enabled", "enabled"), (GradMode.enabled, GradMode.inference)
        GradMode.enabled = self.grad

    def __enter__(self) -> None:  # (the flag was set in __init__)
        pass

    def __call__(self, fn: F) -> F:
        GradMode.enabled = self._prev[0]  # decorating must not leave the flag flipped: only fn's calls are affected
        return super().__call__(fn)


class inference_mode(_Mode):  # noqa: N801
    """``no_grad``, stricter: nothing is recorded inside it, and the tensors made inside it are *inference
    tensors* (``is_inference()``), which autograd refuses afterwards: they cannot be saved for backward, changed
    in place outside inference mode, or made to require grad, and they have no ``_version``. In exchange PyTorch
    skips their bookkeeping (here they only carry the mark). Use ``clone()`` to get a normal tensor."""

    def __init__(self, mode: bool = True) -> None:
        self.grad, self.inference = not mode, bool(mode)
