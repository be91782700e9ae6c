"""The derivative of a one-variable function: tangent and secants, and what finite differences cost.

* :func:`tangent_explorer`: the derivative as the slope of the tangent, the limit of secant slopes.
* :func:`difference_errors` / :func:`difference_error_plot`: how wrong the difference quotients are, for every
  step h: too big an h and the secant is not the tangent (truncation error), too small and the subtraction
  f(x0 + h) - f(x0) of two nearly equal floats loses every digit (round-off error).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.artist import Artist
from matplotlib.figure import Figure

from .._tensor import Tensor
from ._calculus import check_function, check_inside, check_range, fmt, grid_values, value_and_grad
from ._explorer import Explorer, PictureFigure, new_figure

__all__ = ["TangentExplorer", "difference_error_plot", "difference_errors", "tangent_explorer"]

_EXAMPLE = "lambda x: x**3 or lambda x: torch.sin(x)"


def _y_limits(ys: np.ndarray, *points: float) -> tuple[float, float]:
    """Vertical range of the picture: the finite values of the curve (and the marked points), with a margin."""
    finite = np.concatenate([ys[np.isfinite(ys)], np.array([p for p in points if np.isfinite(p)])])
    if finite.size == 0:
        return -1.0, 1.0
    low, high = float(finite.min()), float(finite.max())
    margin = 0.1 * (high - low) or 1.0
    return low - margin, high + margin


class TangentExplorer(Explorer):
    r"""The tangent at x0 and the secant through x0 and x0 + h (made by :func:`tangent_explorer`).

    The secant's slope is the difference quotient :math:`\frac{f(x_0 + h) - f(x_0)}{h}`: the average rate of
    change over the step h. As h shrinks toward 0 (from either side) the secant turns into the tangent, and its
    slope into the derivative :math:`f'(x_0) = \lim_{h \to 0} \frac{f(x_0 + h) - f(x_0)}{h}`, the instantaneous
    rate of change. The tangent's slope here is computed by autograd (one backward pass through f at x0),
    not by any difference quotient: the two numbers agree only in the limit.
    """

    name = "tangent_explorer"
    width, height = 5.6, 3.6

    def __init__(self, f: Callable[[Tensor], Tensor], x0: float = 1.0, h: float = 1.0,
                 x_range: tuple[float, float] = (-3.0, 3.0)) -> None:
        check_function(f, _EXAMPLE)
        self.f = f
        self.x_range = check_range("x_range", x_range)
        x0 = check_inside("x0", x0, self.x_range, "x_range")
        h = check_inside("h", h, (-2.0, 2.0), "the slider's range")
        if h == 0:
            raise ValueError("h must not be 0: the secant needs two different points, x0 and x0 + h. "
                             "Make h small (like 0.01) to see the secant approach the tangent.")
        self.xs = np.linspace(*self.x_range, 401)
        self.ys = grid_values(f, self.xs)
        span = self.x_range[1] - self.x_range[0]
        super().__init__({
            "x0": widgets.FloatSlider(value=x0, min=self.x_range[0], max=self.x_range[1], step=span / 200,
                                      description="x0", readout_format=".2f"),
            "h": widgets.FloatSlider(value=h, min=-2.0, max=2.0, step=0.01, description="h",
                                     readout_format=".2f"),
        })

    def _compute(self, x0: float, h: float) -> dict[str, Any]:
        f_x0, (slope,) = value_and_grad(self.f, [x0])
        f_x0h = value_and_grad(self.f, [x0 + h])[0] if h != 0 else float("nan")
        secant = (f_x0h - f_x0) / h if h != 0 else float("nan")
        return {"x0": x0, "f_x0": f_x0, "h": h, "secant_slope": secant, "slope": float(slope), "f_x0_h": f_x0h}

    def _limits(self, v: dict[str, Any]) -> tuple[tuple[float, float], tuple[float, float]]:
        """The axes limits: x_range, widened to show x0 + h; y: the curve and the two marked points."""
        x0, h = v["x0"], v["h"]
        return ((min(self.x_range[0], x0 + h), max(self.x_range[1], x0 + h)),
                _y_limits(self.ys, v["f_x0"], v["f_x0_h"]))

    def _layout(self, v: dict[str, Any]) -> Any:
        # Limits change only when x0 + h leaves x_range (or a point rises above the curve's range); with h = 0
        # the secant, its legend entry and the step arrow are not drawn at all.
        return self._limits(v), v["h"] != 0

    def _draw(self, figure: Figure, v: dict[str, Any]) -> dict[str, Artist]:
        figure.subplots_adjust(left=0.1, right=0.97, bottom=0.13, top=0.92)
        ax = figure.add_subplot()
        (low, high), y_limits = self._limits(v)
        ax.plot(self.xs, self.ys, color="C0", label="f")
        moving = {"tangent": ax.plot([], [], color="C3", label="tangent")[0]}
        if v["h"] != 0:
            moving["secant"] = ax.plot([], [], color="C2", linestyle="--", label="secant")[0]
            moving["secant_point"] = ax.plot([], [], "o", color="C2")[0]
            moving["step"] = ax.annotate("", xy=(0, 0), xytext=(0, 0), arrowprops={"arrowstyle": "<->", "color": "0.5"})
            moving["step_label"] = ax.text(0, 0, "h", ha="center", va="bottom", color="0.4")
        moving["point"] = ax.plot([], [], "o", color="k")[0]
        ax.set_xlim(low, high)
        ax.set_ylim(*y_limits)
        ax.set_xlabel("x")
        moving["title"] = ax.set_title("", fontsize=10)
        moving["legend"] = ax.legend(fontsize=8, loc="upper left")
        ax.grid(alpha=0.3)
        self._move(moving, v)
        return moving

    def _move(self, moving: dict[str, Artist], v: dict[str, Any]) -> None:
        x0, h, f_x0 = v["x0"], v["h"], v["f_x0"]
        (low, high), _ = self._limits(v)
        line_x = np.array([low, high])
        legend = moving["legend"].get_texts()  # f, tangent, secant: the entries' text follows the slopes
        moving["tangent"].set_data(line_x, f_x0 + v["slope"] * (line_x - x0))
        legend[1].set_text(f"tangent, slope f'(x0) = {fmt(v['slope'])}")
        if "secant" in moving:
            moving["secant"].set_data(line_x, f_x0 + v["secant_slope"] * (line_x - x0))
            legend[2].set_text(f"secant, slope {fmt(v['secant_slope'])}")
            moving["secant_point"].set_data([x0 + h], [v["f_x0_h"]])
            moving["step"].xy = (x0 + h, f_x0)
            moving["step"].set_position((x0, f_x0))
            moving["step_label"].set_position((x0 + h / 2, f_x0))
        moving["point"].set_data([x0], [f_x0])
        moving["title"].set_text(f"x0 = {fmt(x0)}, h = {fmt(h)}" + ("" if h else ": no secant (it needs two points)"))

    def summary(self) -> str:
        v = self.values
        secant = (f"secant slope with h = {fmt(v['h'])}: {fmt(v['secant_slope'])}" if v["h"] != 0
                  else "h = 0: no secant (it needs two points)")
        return f"{self.name}: f'({fmt(v['x0'])}) = {fmt(v['slope'])} (autograd); {secant} (drag x0 and h to explore)"


def tangent_explorer(f: Callable[[Tensor], Tensor], x0: float = 1.0, h: float = 1.0,
                     x_range: tuple[float, float] = (-3.0, 3.0)) -> TangentExplorer:
    """A live picture of the derivative of ``f`` at ``x0``: the tangent line and the secant over a step ``h``.

    Sliders ``x0`` (within ``x_range``) and ``h`` (-2 to 2; h -> 0 from either side turns the secant into the
    tangent). ``values`` holds ``x0``, ``f_x0``, ``h``, ``secant_slope`` and ``slope`` (f'(x0) by autograd).
    At a kink, such as ``torch.abs`` or ``torch.relu`` at 0, the tangent drawn is the one autograd's backward
    formula gives there (slope 0 for both), while secants from the left and the right keep different slopes.

    ``f`` takes one tensor and must be elementwise (``lambda x: x**3 - 2 * x``): it is called once on all the
    x values of the curve.
    """
    return TangentExplorer(f, x0, h, x_range)


def difference_errors(f: Callable[[Tensor], Tensor], x0: float,
                      hs: Sequence[float] | np.ndarray | None = None) -> dict[str, Any]:
    r"""The errors of the forward and central difference quotients of ``f`` at ``x0``, for each step in ``hs``.

    * forward difference :math:`\frac{f(x_0 + h) - f(x_0)}{h}`: by Taylor, it is
      :math:`f'(x_0) + \frac{h}{2} f''(x_0) + \dots`, so its truncation error shrinks like h (slope 1 on a
      log-log plot);
    * central difference :math:`\frac{f(x_0 + h) - f(x_0 - h)}{2h}`: the h² terms cancel, leaving
      :math:`\frac{h^2}{6} f'''(x_0)`, an error like h² (slope 2).

    Both divide a difference of two nearly equal numbers by a tiny h: each f value carries a rounding error of
    about :math:`\varepsilon |f|` (ε ≈ 2.2e-16 in float64), so the quotient carries about ε|f|/h. For tiny h
    that round-off grows without bound and wins. The exact derivative compared against comes from autograd.

    Returns a dict of numpy arrays ``h``, ``forward``, ``central`` (absolute errors) and the float ``exact``.
    Default ``hs``: 61 steps from 1e-15 to 1, evenly spaced in log scale. Computed in float64.
    """
    check_function(f, _EXAMPLE)
    x0 = float(x0)
    hs = np.logspace(-15, 0, 61) if hs is None else np.asarray(hs, dtype=np.float64)
    if hs.ndim != 1 or hs.size == 0 or not np.all(np.isfinite(hs)) or np.any(hs <= 0):
        raise ValueError("hs must be a non-empty list of positive step sizes, e.g. np.logspace(-15, 0, 61)")
    exact = value_and_grad(f, [x0])[1][0]
    values = grid_values(f, np.concatenate([[x0], x0 + hs, x0 - hs]))
    f0, plus, minus = values[0], values[1:hs.size + 1], values[hs.size + 1:]
    with np.errstate(all="ignore"):
        forward = (plus - f0) / hs
        central = (plus - minus) / (2 * hs)
    return {"h": hs, "forward": np.abs(forward - exact), "central": np.abs(central - exact), "exact": float(exact)}


def difference_error_plot(f: Callable[[Tensor], Tensor], x0: float,
                          hs: Sequence[float] | np.ndarray | None = None) -> Figure:
    """Log-log plot of :func:`difference_errors`: error of the forward and central differences against h.

    Read it from the right: the errors fall along straight lines of slope 1 (forward) and 2 (central) as h
    shrinks (truncation error), reach a best h (about 1e-8 for forward, 1e-5 for central), then climb again
    along slope -1 as round-off takes over; at h = 1e-15 both are useless. Dotted guides show h, h² and ε/h.
    An error of exactly 0 (a lucky rounding) cannot be drawn on a log scale and is left out.

    Returns the Figure; its ``errors`` attribute holds the numbers drawn (the dict of :func:`difference_errors`).
    """
    errors = difference_errors(f, x0, hs)
    h, forward, central = errors["h"], errors["forward"], errors["central"]
    figure = new_figure(5.6, 3.8, kind=PictureFigure)
    figure.subplots_adjust(left=0.14, right=0.97, bottom=0.13, top=0.92)
    ax = figure.add_subplot()
    ax.loglog(h, np.where(forward > 0, forward, np.nan), "o-", markersize=3, color="C0",
              label="forward (f(x0+h) - f(x0)) / h")
    ax.loglog(h, np.where(central > 0, central, np.nan), "s-", markersize=3, color="C3",
              label="central (f(x0+h) - f(x0-h)) / 2h")
    eps = np.finfo(np.float64).eps
    shown = np.concatenate([forward[forward > 0], central[central > 0]])
    low = max(float(shown.min()) / 10, 1e-18) if shown.size else 1e-18
    high = float(shown.max()) * 10 if shown.size else 1.0
    # Guides: straight lines of slope 1 and 2 through the errors at the largest h, and the round-off size ε/h.
    top = int(np.argmax(h))
    ax.loglog(h, forward[top] * h / h[top], ":", color="C0", alpha=0.7, label="∝ h (slope 1)")
    ax.loglog(h, central[top] * (h / h[top]) ** 2, ":", color="C3", alpha=0.7, label="∝ h² (slope 2)")
    ax.loglog(h, eps / h, ":", color="0.4", label="ε / h (round-off)")
    ax.set_ylim(low, high)
    ax.set_xlabel("step h")
    ax.set_ylabel("|error| vs autograd")
    ax.set_title(f"difference quotients at x0 = {fmt(float(x0))}; f'(x0) = {fmt(errors['exact'])} (autograd)",
                 fontsize=9)
    ax.legend(fontsize=7, loc="upper center")
    ax.grid(alpha=0.3, which="both")
    figure.errors = errors
    return figure
