"""``torch.random``: the default generator's seed and state, under the module name PyTorch also gives them
(``torch.random.manual_seed(0)`` is ``torch.manual_seed(0)``), and ``fork_rng``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ._creation import get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = ["fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state"]


@contextlib.contextmanager
def fork_rng(devices: Any = None, enabled: bool = True, _caller: str = "fork_rng", _devices_kw: str = "devices",
             device_type: Any = None) -> Iterator[None]:
    """Draw random numbers inside the block without disturbing the draws after it: the generator's state is put
    back when the block ends (even after an error). ``enabled=False`` makes it a no-op. (``devices`` and
    ``device_type`` name GPUs, of which there are none here.)"""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
