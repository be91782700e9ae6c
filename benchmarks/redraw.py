"""Case e: what a slider move costs in the ``teach`` explorers, the fast redraw against a full rebuild.

A slider move runs ``Explorer.redraw``: recompute the values, update the moving artists, paste them over the
kept background and encode the pixels as PNG. The full rebuild is what every move cost before: a new figure,
everything drawn, ``savefig`` to PNG. Both are timed in CPU seconds (``time.process_time``) for the same
sequence of slider positions, all within one background (no move changes the axes limits).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass
class Redraw:
    """One explorer: the median CPU seconds per slider move, fast and full, over ``moves`` moves."""

    explorer: str
    fast: float
    full: float
    moves: int

    @property
    def ratio(self) -> float:
        return self.full / self.fast


def explorers() -> dict[str, tuple[Callable[[], Any], str, list[float]]]:
    """Each explorer with the control to drag and the positions to drag it to."""
    import tinygrad_edu as torch
    from tinygrad_edu import teach

    def bowl(x, y):
        return x**2 + 3 * y**2

    x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    y = torch.tensor([2.1, 3.9, 6.2, 7.8])
    sweep = list(np.linspace(-1.0, 1.0, 21))
    return {
        "tangent_explorer": (lambda: teach.tangent_explorer(lambda t: t**3 - 2 * t), "x0", sweep),
        "slice_explorer": (lambda: teach.slice_explorer(bowl), "x0", sweep),
        "directional_explorer": (lambda: teach.directional_explorer(bowl), "angle", list(np.linspace(0, 350, 21))),
        "gradient_field": (lambda: teach.gradient_field(bowl), "x0", sweep),
        "descent_explorer": (lambda: teach.descent_explorer(bowl), "x0", sweep),
        "fit_explorer": (lambda: teach.fit_explorer(x, y), "w", list(np.linspace(0.5, 3.5, 21))),
    }


def full_rebuild(explorer: Any) -> bytes:
    """One slider move the way it was done before the fast redraw: a whole new figure, saved with savefig."""
    from tinygrad_edu.teach._explorer import new_figure, png_bytes

    settings = {key: control.value for key, control in explorer.controls.items()}
    with np.errstate(all="ignore"):
        values = explorer._compute(**settings)
        figure = new_figure(explorer.width, explorer.height, explorer.dpi)
        explorer._draw(figure, values)
        return png_bytes(figure)


def _cpu(fn: Callable[..., object], *args: Any, **kwargs: Any) -> float:
    """CPU seconds of one call ``fn(*args, **kwargs)``."""
    start = time.process_time()
    fn(*args, **kwargs)
    return time.process_time() - start


def run_redraw(quick: bool) -> list[Redraw]:
    results = []
    for name, (make, control, positions) in explorers().items():
        explorer = make()
        if quick:
            positions = positions[:1]
        fast, full = [], []
        for position in positions:  # the two take turns, so a noisy moment hits both alike
            fast.append(_cpu(explorer.update, **{control: float(position)}))
            full.append(_cpu(full_rebuild, explorer))
        results.append(Redraw(name, statistics.median(fast), statistics.median(full), len(positions)))
    return results


def redraw_table(results: list[Redraw]) -> str:
    lines = ["| e. explorer redraw (CPU per slider move, median) | fast redraw | full rebuild | full / fast |",
             "| --- | ---: | ---: | ---: |"]
    for r in results:
        lines.append(f"| {r.explorer} ({r.moves} moves) | {r.fast * 1e3:.1f} ms | {r.full * 1e3:.1f} ms | "
                     f"{r.ratio:.1f}× |")
    return "\n".join(lines)
