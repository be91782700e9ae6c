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

import contextvars
import functools
import threading
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
    """``fn(*args)`` with numpy's settings as the learner has them.

    The learner's code may itself call ``backward()`` (a "reentrant" backward: a custom Function whose backward
    differentiates something else), and that code may do the same, thousands of levels deep. Each level costs a
    dozen Python frames, so from ``REENTRANT_HOP`` levels on, the next level runs on a fresh thread (its own stack,
    its own recursion count) while this one waits: what PyTorch's engine does past its own depth limit."""
    if _depth.value >= REENTRANT_HOP:
        return _on_fresh_thread(fn, *args)
    _depth.value += 1
    try:
        if Quiet.token is None:
            return fn(*args)
        Quiet.token = quiet_off(Quiet.token)
        try:
            return fn(*args)
        finally:
            Quiet.token = quiet_on()
    finally:
        _depth.value -= 1


REENTRANT_HOP = 30  # levels of learner's code inside backward per thread (30 x ~12 frames: far from Python's 1,000)


class _Depth(threading.local):
    value = 0  # (each thread starts at 0)


_depth = _Depth()


def _on_fresh_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """``aloud(fn, *args)`` on a new thread, in a copy of this thread's context (numpy's settings), this one waiting."""
    token, Quiet.token = Quiet.token, None
    if token is not None:
        quiet_off(token)  # (a context variable's token is reset in the context that made it: here, before the copy)
    context, outcome = contextvars.copy_context(), {}

    def run() -> None:
        try:
            outcome["value"] = context.run(aloud, fn, *args)
        except BaseException as e:  # (raised again on the waiting thread, below)
            outcome["error"] = e

    thread = threading.Thread(target=run, name="tinygrad_edu reentrant backward")
    thread.start()
    thread.join()
    if token is not None:
        Quiet.token = quiet_on()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
