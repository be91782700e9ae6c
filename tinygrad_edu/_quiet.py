"""numpy's floating-point warnings, off while built-in ops compute (beside the core: read last, or never).

PyTorch computes as the hardware does, silently: 1/0 = inf, 0 * inf = nan, exp(1000) = inf; numpy warns about each
unless told not to. ``quiet_on()`` turns its warnings off and returns what ``quiet_off(token)`` needs to put numpy's
settings back. numpy 2 keeps its error state in a context variable, which ``np.errstate`` sets: setting it directly
costs a fifth as much, which matters when every op does it.

``Quiet.token`` is set for a longer stretch: a whole backward pass (the engine), or ``quietly(fn)``. ``aloud(fn)``
runs the learner's own code (a hook, a custom Function's backward) inside such a stretch with numpy's settings as
the learner has them, so that their warnings are not lost.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj

    quiet_on = functools.partial(_extobj_contextvar.set, _make_extobj(all="ignore"))
    quiet_off = _extobj_contextvar.reset
except ImportError:  # (should numpy move it: np.errstate, which does the same)
    def quiet_on() -> Any:
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def quiet_off(state: Any) -> None:
        state.__exit__()


class Quiet:
    """numpy's warnings off for a stretch longer than one op."""

    token: Any = None  # while they are: what puts numpy's settings back


def quietly(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` with numpy's floating-point warnings off."""
    if Quiet.token is not None:
        return fn(*args)
    Quiet.token = quiet_on()
    try:
        return fn(*args)
    finally:
        Quiet.token = quiet_off(Quiet.token)


def aloud(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` with numpy's settings as the learner has them."""
    if Quiet.token is None:
        return fn(*args)
    Quiet.token = quiet_off(Quiet.token)
    try:
        return fn(*args)
    finally:
        Quiet.token = quiet_on()
