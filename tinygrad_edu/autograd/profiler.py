"""``tinygrad_edu.autograd.profiler`` (PyTorch's ``torch.autograd.profiler``): where the time goes, op by op::

    with tinygrad_edu.autograd.profiler.profile() as prof:
        loss = model(x).sum()
        loss.backward()
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10))

While the block is open, every op (``aten::mul``, ``aten::addmm`` ..., named after PyTorch's) and every node backward
runs (``autograd::engine::evaluate_function: MulBackward0``) is timed; ``record_function("name")`` marks a stretch of
your own. An event's *total* time includes the ops it called (a backward node runs its formula's ops); its *self*
time does not. The table has PyTorch's columns; its times are this machine's and this library's (a Python op costs
microseconds where PyTorch's C++ costs a fraction), so it shows where the time goes, not PyTorch's numbers.

How: the block wraps ``Function.apply`` (every op comes through it) and the backward nodes' ``apply`` in a timer,
and puts them back when it ends.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..core import engine as core_engine
from ..core.function import AccumulateGrad, BackwardCFunction, Function

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "profile", "record_function"]


class FunctionEvent:
    """One timed call: its name, when it started and ended (µs), and the calls made inside it."""

    def __init__(self, name: str, start: float) -> None:
        self.name, self.key, self.start, self.end, self.children = name, name, start, start, []

    @property
    def cpu_time_total(self) -> float:
        return self.end - self.start

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.children)

    def __repr__(self) -> str:
        return f"<FunctionEvent name={self.name} cpu_time_total={self.cpu_time_total:.3f}us>"


class FunctionEventAvg:
    """The calls of one name, added up (``key_averages``): how many, their total and self time, and the average."""

    def __init__(self, key: str) -> None:
        self.key, self.count, self.cpu_time_total, self.self_cpu_time_total = key, 0, 0.0, 0.0

    def add(self, event: FunctionEvent) -> None:
        self.count += 1
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self) -> str:
        return f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total:.3f}us count={self.count}>"


class EventList(list):
    """A list of events (or of their averages) that prints as PyTorch's table."""

    def table(self, sort_by: str | None = None, row_limit: int = 100, max_name_column_width: int = 55,
              header: str | None = None, **options: Any) -> str:
        """The events as PyTorch's table: name, self CPU time (and its share of all), total CPU time (and its
        share), the average, and the number of calls; ``sort_by`` one of the time columns, largest first."""
        rows = sorted(self, key=lambda e: getattr(e, sort_by), reverse=True) if sort_by else list(self)
        rows = rows[:row_limit] if row_limit is not None and row_limit >= 0 else rows
        everything = sum(e.self_cpu_time_total for e in self) or 1.0
        width = min(max([len(e.key) for e in rows] + [4]), max_name_column_width)
        columns = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        line = "-" * width + "  " + "  ".join("-" * 12 for _ in columns) + "  "
        text = [line, "Name".rjust(width) + "  " + "  ".join(c.rjust(12) for c in columns) + "  ", line]
        for e in rows:
            name = e.key if len(e.key) <= width else e.key[:width - 3] + "..."
            cells = [f"{100 * e.self_cpu_time_total / everything:.2f}%", _format_time(e.self_cpu_time_total),
                     f"{100 * e.cpu_time_total / everything:.2f}%", _format_time(e.cpu_time_total),
                     _format_time(e.cpu_time_total / max(getattr(e, "count", 1), 1)), str(getattr(e, "count", 1))]
            text.append(name.rjust(width) + "  " + "  ".join(c.rjust(12) for c in cells) + "  ")
        text += [line, f"Self CPU time total: {_format_time(sum(e.self_cpu_time_total for e in self))}", ""]
        return ((header + "\n") if header else "") + "\n".join(text)

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self)

    def __str__(self) -> str:
        return self.table()


def _format_time(us: float) -> str:
    """PyTorch's way of showing a time in microseconds: 12.346us, 1.234ms, 2.500s."""
    return f"{us / 1e6:.3f}s" if us >= 1e6 else f"{us / 1e3:.3f}ms" if us >= 1e3 else f"{us:.3f}us"


def _op_name(cls: type) -> str:
    """PyTorch's name for the op of a Function: ``aten::mul`` for MulBackward0's, a learner's Function's own name."""
    node = getattr(cls, "node_name", None)
    if not getattr(cls, "_builtin", False) or node is None:
        return cls.__name__
    base = re.sub(r"Backward\d*$", "", node)
    return "aten::" + re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", base).lower()


class profile:  # noqa: N801  (PyTorch's name)
    """Time every op and backward node while the block is open; ``key_averages().table()`` shows the totals.
    The keyword arguments PyTorch takes are accepted (``use_cuda``, ``record_shapes`` ...); on the CPU, with
    nothing to record about shapes or memory, they change nothing."""

    _active: profile | None = None  # (the open block: record_function reports to it)

    def __init__(self, enabled: bool = True, **options: Any) -> None:
        self.enabled, self.options, self._events, self._stack = enabled, options, EventList(), []
        self._saved: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> profile:
        if profile._active is not None:  # (inside another profile: that one records, this one stays empty)
            self.enabled = False
        if not self.enabled:
            return self
        profile._active = self
        apply = Function.__dict__["apply"]
        self._wrap(Function, "apply", classmethod(lambda cls, *args: self._timed(_op_name(cls), apply.__func__,
                                                                                  cls, *args)))
        for node_class in (BackwardCFunction, AccumulateGrad):
            run = node_class.__dict__["apply"]
            self._wrap(node_class, "apply", lambda node, *grads, run=run: self._timed(
                f"autograd::engine::evaluate_function: {type(node).__name__}", run, node, *grads))
        learners = core_engine.__dict__["learners_gradients"]  # (a learner's Function's node: its backward as written)
        self._wrap(core_engine, "learners_gradients", lambda node, grads: self._timed(
            f"autograd::engine::evaluate_function: {type(node).__name__}", learners, node, grads))
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self.enabled:
            return
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()
        profile._active = None

    def _wrap(self, owner: Any, name: str, replacement: Any) -> None:
        self._saved.append((owner, name, owner.__dict__[name]))
        setattr(owner, name, replacement)

    def _timed(self, name: str, fn: Callable[..., Any], *args: Any) -> Any:
        with self._event(name):
            return fn(*args)

    @contextlib.contextmanager
    def _event(self, name: str) -> Iterator[FunctionEvent]:
        event = FunctionEvent(name, time.perf_counter() * 1e6)
        (self._stack[-1].children if self._stack else self._events).append(event)
        self._stack.append(event)
        try:
            yield event
        finally:
            event.end = time.perf_counter() * 1e6
            self._stack.pop()

    # -- what the block measured --------------------------------------------------------------------------------------
    def events(self) -> EventList:
        """Every timed call, the ones made inside others included, in the order they started."""
        found: EventList = EventList()

        def walk(events: list[FunctionEvent]) -> None:
            for e in events:
                found.append(e)
                walk(e.children)

        walk(self._events)
        return found

    function_events = property(events)

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0) -> EventList:
        """The calls grouped by name: for each, how many, and their self and total times."""
        groups: dict[str, FunctionEventAvg] = {}
        for e in self.events():
            groups.setdefault(e.name, FunctionEventAvg(e.name)).add(e)
        return EventList(groups.values())

    @property
    def self_cpu_time_total(self) -> float:
        return self.events().self_cpu_time_total

    def table(self, **options: Any) -> str:
        return self.key_averages().table(**options)

    def export_chrome_trace(self, path: str) -> None:
        """The events as a Chrome trace (open it in chrome://tracing or Perfetto)."""
        trace = [{"name": e.name, "ph": "X", "ts": e.start, "dur": e.cpu_time_total, "pid": 0, "tid": 0,
                  "cat": "cpu_op"} for e in self.events()]
        with open(path, "w") as f:
            json.dump({"traceEvents": trace}, f)

    def __str__(self) -> str:
        return self.table()


class record_function(contextlib.ContextDecorator):  # noqa: N801  (PyTorch's name)
    """``with record_function("my_block"):``: a stretch of your code shown as one row of the profile (its ops
    nested inside it). Outside a ``profile`` block it does nothing. As a decorator it marks each call."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name, self._context = name, None

    def __enter__(self) -> record_function:
        if profile._active is not None:
            self._context = profile._active._event(self.name)
            self._context.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._context is not None:
            self._context.__exit__(*exc)
            self._context = None
