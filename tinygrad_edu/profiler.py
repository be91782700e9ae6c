"""``tinygrad_edu.profiler`` (PyTorch's ``torch.profiler``): the newer face of ``autograd.profiler``, as PyTorch's
profiling recipe uses it::

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        with record_function("model_inference"):
            model(inputs)
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))

Only the CPU is there to profile; schedules and trace handlers are accepted and ``step()`` does nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

from .autograd import profiler as _autograd_profiler
from .autograd.profiler import record_function

__all__ = ["ProfilerActivity", "profile", "record_function", "supported_activities"]


class ProfilerActivity(enum.Enum):
    """What a profile records: the CPU here (PyTorch also has CUDA, XPU ...)."""

    CPU = 0
    CUDA = 1


def supported_activities() -> set[ProfilerActivity]:
    return {ProfilerActivity.CPU}


class profile(_autograd_profiler.profile):  # noqa: N801  (PyTorch's name)
    """``torch.profiler.profile``: the same timing as ``autograd.profiler.profile``, with this one's arguments."""

    def __init__(self, *, activities: Iterable[ProfilerActivity] | None = None, schedule: Any = None,
                 on_trace_ready: Any = None, record_shapes: bool = False, profile_memory: bool = False,
                 with_stack: bool = False, with_flops: bool = False, with_modules: bool = False,
                 **options: Any) -> None:
        super().__init__(True, record_shapes=record_shapes, profile_memory=profile_memory, **options)
        self.activities = set(activities) if activities is not None else supported_activities()

    def step(self) -> None:
        """The end of one training step, for a schedule: nothing to do without one."""
