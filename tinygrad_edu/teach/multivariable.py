"""Functions of two variables: partial derivatives, directional derivatives and the gradient, as pictures.

A function f(x, y) is a landscape: a height above every point of the plane. Its contour map (lines of equal
height, seen from above) is the picture all three explorers share.

* :func:`slice_explorer`: fix y and f becomes a function of x alone; its slope is the partial derivative ∂f/∂x
  (and the same with x fixed: ∂f/∂y).
* :func:`directional_explorer`: through a point of the surface pass infinitely many tangent lines, one per
  direction u in the plane; the slope of each is the directional derivative D_u f = ∇f · u.
* :func:`gradient_field`: the gradient ∇f = (∂f/∂x, ∂f/∂y) at every point: it points uphill, the steepest way,
  perpendicular to the contour line, and its length is the slope in that direction.

``f`` takes two tensors and must be elementwise, e.g. ``lambda x, y: x**2 + 3 * y**2`` or
``lambda x, y: torch.sin(x) * y``: it is called once on whole grids of x and y values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .._tensor import Tensor
from ._calculus import (
    check_function,
    check_inside,
    check_range,
    fmt,
    grid_values,
    grid_values_and_grads,
    value_and_grad,
)
from ._explorer import Explorer

__all__ = ["DirectionalExplorer", "GradientField", "SliceExplorer", "directional_explorer", "gradient_field",
           "slice_explorer"]

_EXAMPLE = "lambda x, y: x**2 + 3 * y**2"
Range2D = tuple[tuple[float, float], tuple[float, float]]


def check_xy_range(xy_range: Sequence[Sequence[float]]) -> tuple[tuple[float, float], tuple[float, float]]:
    """``((x_low, x_high), (y_low, y_high))``, each checked."""
    try:
        x_range, y_range = xy_range
    except (TypeError, ValueError):
        raise TypeError("xy_range must be two pairs ((x_low, x_high), (y_low, y_high)), e.g. ((-2, 2), (-2, 2)); "
                        f"got {xy_range!r}") from None
    return check_range("the x range of xy_range", x_range), check_range("the y range of xy_range", y_range)


def check_point(name: str, point: Sequence[float], xy_range: Range2D) -> tuple[float, float]:
    """A point (x, y) of the plane, inside the picture."""
    try:
        x, y = point
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a pair of numbers (x, y), e.g. (0.5, 0.5); got {point!r}") from None
    return (check_inside(f"the x of {name}", x, xy_range[0], "the x range of xy_range"),
            check_inside(f"the y of {name}", y, xy_range[1], "the y range of xy_range"))


def point_slider(name: str, value: float, interval: tuple[float, float]) -> widgets.FloatSlider:
    return widgets.FloatSlider(value=value, min=interval[0], max=interval[1], step=(interval[1] - interval[0]) / 200,
                               description=name, readout_format=".2f")


class ContourMap:
    """The landscape of f seen from above, computed once: a grid of values and its contour lines."""

    def __init__(self, f: Callable[[Tensor, Tensor], Tensor], xy_range: Range2D, n: int = 60) -> None:
        self.xy_range = xy_range
        xs, ys = np.linspace(*xy_range[0], n), np.linspace(*xy_range[1], n)
        self.X, self.Y = np.meshgrid(xs, ys)
        self.Z = grid_values(f, self.X, self.Y)
        finite = self.Z[np.isfinite(self.Z)]
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        self.levels = np.linspace(low, high, 16) if high > low else np.array([low - 1, low, low + 1])

    def draw(self, ax: Axes) -> None:
        heights = np.ma.masked_invalid(self.Z)
        ax.contourf(self.X, self.Y, heights, levels=self.levels, cmap="viridis", alpha=0.45)
        ax.contour(self.X, self.Y, heights, levels=self.levels, colors="k", linewidths=0.4, alpha=0.5)
        ax.set_xlim(*self.xy_range[0])
        ax.set_ylim(*self.xy_range[1])
        ax.set_aspect("equal")  # equal scales: only then does a right angle (gradient vs contour) look like one
        ax.set_xlabel("x")
        ax.set_ylabel("y")

    def value_limits(self) -> tuple[float, float]:
        """The range of f over the map with a 5% margin each side: a fixed vertical scale for its slices."""
        low, high = float(self.levels[0]), float(self.levels[-1])
        margin = 0.05 * (high - low)
        return low - margin, high + margin


def _tangent(t0: float, value: float, slope: float, half_width: float) -> tuple[np.ndarray, np.ndarray]:
    """The two ends of the tangent line at t0 (of the given slope through (t0, value)), half_width to each side."""
    ts = np.array([t0 - half_width, t0 + half_width])
    return ts, value + slope * (ts - t0)


class SliceExplorer(Explorer):
    r"""Partial derivatives as slopes of slices (made by :func:`slice_explorer`).

    Fixing :math:`y = y_0` cuts the surface z = f(x, y) along a curve :math:`g(x) = f(x, y_0)`, an ordinary
    one-variable function; its slope at :math:`x_0` is the partial derivative
    :math:`\frac{\partial f}{\partial x}(x_0, y_0) = g'(x_0)`. Likewise :math:`k(y) = f(x_0, y)` gives
    :math:`\frac{\partial f}{\partial y}`. Both partials come from one backward pass through f at the point.
    Left: the contour map with the two cutting lines; middle and right: the two slices with their tangents.
    """

    name = "slice_explorer"
    width, height = 10.5, 3.3

    def __init__(self, f: Callable[[Tensor, Tensor], Tensor], x0: float = 0.5, y0: float = 0.5,
                 xy_range: Range2D = ((-2, 2), (-2, 2))) -> None:
        check_function(f, _EXAMPLE)
        self.f = f
        self.xy_range = check_xy_range(xy_range)
        x0, y0 = check_point("(x0, y0)", (x0, y0), self.xy_range)
        self.map = ContourMap(f, self.xy_range)
        super().__init__({"x0": point_slider("x0", x0, self.xy_range[0]),
                          "y0": point_slider("y0", y0, self.xy_range[1])})

    def _compute(self, x0: float, y0: float) -> dict[str, Any]:
        value, (df_dx, df_dy) = value_and_grad(self.f, [x0, y0])
        return {"x0": x0, "y0": y0, "f": value, "df_dx": float(df_dx), "df_dy": float(df_dy)}

    def _draw(self, figure: Figure, v: dict[str, Any]) -> dict[str, Artist]:
        figure.subplots_adjust(left=0.05, right=0.98, bottom=0.15, top=0.9, wspace=0.3)
        ax_map, ax_x, ax_y = figure.subplots(1, 3)
        self.map.draw(ax_map)
        moving = {"y_line": ax_map.axhline(0, color="C3", linewidth=1.5),
                  "x_line": ax_map.axvline(0, color="C1", linewidth=1.5),
                  "point": ax_map.plot([], [], "ko")[0]}
        ax_map.set_title("contour map of f", fontsize=10)
        for ax, axis, color, interval in ((ax_x, "x", "C3", self.xy_range[0]), (ax_y, "y", "C1", self.xy_range[1])):
            moving[f"{axis}_slice"] = ax.plot([], [], color=color)[0]
            moving[f"{axis}_tangent"] = ax.plot([], [], color="k", linestyle="--", linewidth=1)[0]
            moving[f"{axis}_point"] = ax.plot([], [], "ko")[0]
            moving[f"{axis}_title"] = ax.set_title("", fontsize=9)
            # Fixed scales: the slices move up and down as the other coordinate changes, against the range of f
            # over the whole map (fixed limits also let a move redraw only the curves, not the axes).
            ax.set_xlim(*interval)
            ax.set_ylim(*self.map.value_limits())
            ax.grid(alpha=0.3)
        ax_x.set_xlabel("x  (y fixed)")
        ax_y.set_xlabel("y  (x fixed)")
        self._move(moving, v)
        return moving

    def _move(self, moving: dict[str, Artist], v: dict[str, Any]) -> None:
        x0, y0 = v["x0"], v["y0"]
        moving["y_line"].set_ydata([y0, y0])
        moving["x_line"].set_xdata([x0, x0])
        moving["point"].set_data([x0], [y0])
        xs, ys = self.map.X[0], self.map.Y[:, 0]
        g = grid_values(self.f, xs, np.full_like(xs, y0))
        k = grid_values(self.f, np.full_like(ys, x0), ys)
        for axis, ts, curve, t0, slope, what in (
                ("x", xs, g, x0, v["df_dx"], f"g(x) = f(x, {fmt(y0)}):  ∂f/∂x = {fmt(v['df_dx'])}"),
                ("y", ys, k, y0, v["df_dy"], f"k(y) = f({fmt(x0)}, y):  ∂f/∂y = {fmt(v['df_dy'])}")):
            moving[f"{axis}_slice"].set_data(ts, curve)
            moving[f"{axis}_tangent"].set_data(*_tangent(t0, v["f"], slope, (ts[-1] - ts[0]) / 4))
            moving[f"{axis}_point"].set_data([t0], [v["f"]])
            moving[f"{axis}_title"].set_text(what)

    def summary(self) -> str:
        v = self.values
        return (f"{self.name}: at (x0, y0) = ({fmt(v['x0'])}, {fmt(v['y0'])}), f = {fmt(v['f'])}; "
                f"∂f/∂x = {fmt(v['df_dx'])}, ∂f/∂y = {fmt(v['df_dy'])} (autograd) (drag x0 and y0 to explore)")


def slice_explorer(f: Callable[[Tensor, Tensor], Tensor], x0: float = 0.5, y0: float = 0.5,
                   xy_range: Range2D = ((-2, 2), (-2, 2))) -> SliceExplorer:
    """A live picture of the partial derivatives of ``f(x, y)`` at ``(x0, y0)``: slices and their tangents.

    Sliders ``x0`` and ``y0``; ``values`` holds ``x0``, ``y0``, ``f``, ``df_dx`` and ``df_dy`` (by autograd).
    ``f`` must be elementwise (``lambda x, y: x**2 * y``): it is called on whole grids.
    """
    return SliceExplorer(f, x0, y0, xy_range)


def _directional_derivative(f: Callable[[Tensor, Tensor], Tensor], point: tuple[float, float],
                            u: np.ndarray) -> float:
    """d/dt f(point + t u) at t = 0, by autograd through the one-variable function t -> f(p + t u)."""
    px, py = point
    ux, uy = float(u[0]), float(u[1])
    return float(value_and_grad(lambda t: f(px + t * ux, py + t * uy), [0.0])[1][0])


def _box_interval(point: tuple[float, float], u: np.ndarray, xy_range: Range2D) -> tuple[float, float]:
    """The values of t for which point + t u stays inside the picture (u is a unit vector)."""
    low, high = -np.inf, np.inf
    for p, d, (a, b) in zip(point, u, xy_range):
        if abs(d) > 1e-12:
            t1, t2 = sorted(((a - p) / d, (b - p) / d))
            low, high = max(low, t1), min(high, t2)
    return float(low), float(high)


class DirectionalExplorer(Explorer):
    r"""Directional derivatives: the slope of the surface along a direction u (made by :func:`directional_explorer`).

    Walking from the point p along a unit vector :math:`u = (\cos\theta, \sin\theta)`, the height is the
    one-variable function :math:`t \mapsto f(p + t u)`; its slope at t = 0 is the directional derivative
    :math:`D_u f(p)`. Every direction gives a tangent line to the surface through the point: infinitely many
    of them, all lying in one plane, the tangent plane. That is why a single vector, the gradient, knows all
    their slopes: :math:`D_u f(p) = \nabla f(p) \cdot u`. Both numbers are shown, both from autograd (one
    backward through t -> f(p + t u), one through f itself), and they agree.

    Left: contour map, u and the gradient at p; middle: the slice along u with its tangent; right: the surface
    with tangent lines in many directions, the current one highlighted.
    """

    name = "directional_explorer"
    width, height = 11.0, 3.5
    fan = 12  # tangent lines drawn on the surface, one every 30 degrees

    def __init__(self, f: Callable[[Tensor, Tensor], Tensor], point: tuple[float, float] = (0.5, 0.5),
                 angle: float = 0.0, xy_range: Range2D = ((-2, 2), (-2, 2))) -> None:
        check_function(f, _EXAMPLE)
        self.f = f
        self.xy_range = check_xy_range(xy_range)
        self.point = check_point("point", point, self.xy_range)
        angle = check_inside("angle", angle, (0.0, 360.0), "0 to 360 degrees")
        self.map = ContourMap(f, self.xy_range)
        self.f_p, self.grad = value_and_grad(f, self.point)
        coarse = ContourMap(f, self.xy_range, n=15)  # coarse: a 3-D surface is slow to draw
        self._surface = (coarse.X, coarse.Y, coarse.Z)
        super().__init__({"angle": widgets.FloatSlider(value=angle, min=0.0, max=360.0, step=1.0,
                                                       description="angle (degrees)", readout_format=".0f")})

    def _compute(self, angle: float) -> dict[str, Any]:
        theta = np.deg2rad(angle)
        u = np.array([np.cos(theta), np.sin(theta)])
        directional = _directional_derivative(self.f, self.point, u)
        return {"angle": angle, "u": (float(u[0]), float(u[1])), "directional": directional,
                "grad_dot_u": float(self.grad @ u), "grad": (float(self.grad[0]), float(self.grad[1]))}

    def _draw(self, figure: Figure, v: dict[str, Any]) -> dict[str, Artist]:
        figure.subplots_adjust(left=0.04, right=0.99, bottom=0.14, top=0.9, wspace=0.25)
        (px, py) = self.point
        span = min(b - a for a, b in self.xy_range)
        ax_map = figure.add_subplot(1, 3, 1)
        self.map.draw(ax_map)
        moving = {"line": ax_map.plot([], [], color="C3", linewidth=1, alpha=0.7)[0],
                  "arrows": ax_map.quiver([px, px], [py, py], [0.0, self.grad[0] * span / 8],
                                          [0.0, self.grad[1] * span / 8], color=["C3", "k"], angles="xy",
                                          scale_units="xy", scale=1, width=0.012),
                  "point": ax_map.plot([px], [py], "ko")[0]}  # fixed, but drawn over the arrows
        ax_map.set_title("u (red), ∇f/8 (black)", fontsize=9)

        ax_slice = figure.add_subplot(1, 3, 2)
        moving["slice"] = ax_slice.plot([], [], color="C0")[0]
        moving["tangent"] = ax_slice.plot([], [], color="C3", linewidth=1.5)[0]
        moving["slice_point"] = ax_slice.plot([0], [self.f_p], "ko")[0]
        # Fixed scales: t from the farthest corner of the box behind the point to the farthest ahead, and the
        # range of f over the map; turning u then redraws only the curves, and their steepness compares fairly.
        reach = max(np.hypot(x - px, y - py) for x in self.xy_range[0] for y in self.xy_range[1])
        ax_slice.set_xlim(-reach, reach)
        ax_slice.set_ylim(*self.map.value_limits())
        ax_slice.set_xlabel("t  (distance along u)")
        moving["slice_title"] = ax_slice.set_title("", fontsize=9)
        ax_slice.grid(alpha=0.3)

        ax_3d = figure.add_subplot(1, 3, 3, projection="3d")
        sx, sy, sz = self._surface
        # The surface and the point are redrawn with the moving line: matplotlib draws 3-D surfaces over lines.
        moving["surface"] = ax_3d.plot_surface(sx, sy, np.ma.masked_invalid(sz), cmap="viridis", alpha=0.5,
                                               linewidth=0)
        ts = np.array([-span / 4, span / 4])
        for k in range(self.fan):
            theta = 2 * np.pi * k / self.fan
            w = np.array([np.cos(theta), np.sin(theta)])
            ax_3d.plot(px + ts * w[0], py + ts * w[1], self.f_p + ts * float(self.grad @ w), color="0.3",
                       linewidth=0.8)
        # First drawn along the gradient, the steepest of all directions: the 3-D axes' limits then take in the
        # line at every angle, and stay put as the angle turns.
        norm = float(np.hypot(*self.grad))
        steepest = self.grad / norm if norm > 0 else np.array([1.0, 0.0])
        rise = ts * (norm if norm > 0 else 0.0)
        moving["line_3d"] = ax_3d.plot(px + ts * steepest[0], py + ts * steepest[1], self.f_p + rise, color="C3",
                                       linewidth=2.5)[0]
        moving["point_3d"] = ax_3d.scatter([px], [py], [self.f_p], color="k")
        ax_3d.set_title("tangent lines through the point", fontsize=9)
        ax_3d.tick_params(labelsize=6)
        self._move(moving, v)
        return moving

    def _move(self, moving: dict[str, Artist], v: dict[str, Any]) -> None:
        (px, py), u = self.point, np.array(v["u"])
        span = min(b - a for a, b in self.xy_range)
        t_low, t_high = _box_interval(self.point, u, self.xy_range)
        moving["line"].set_data([px + t_low * u[0], px + t_high * u[0]], [py + t_low * u[1], py + t_high * u[1]])
        moving["arrows"].set_UVC([u[0] * span / 4, self.grad[0] * span / 8], [u[1] * span / 4, self.grad[1] * span / 8])
        ts = np.linspace(t_low, t_high, 200)
        moving["slice"].set_data(ts, grid_values(self.f, px + ts * u[0], py + ts * u[1]))
        moving["tangent"].set_data(*_tangent(0.0, self.f_p, v["directional"], (t_high - t_low) / 4))
        moving["slice_title"].set_text(f"f(p + t u): slope D_u f = {fmt(v['directional'])}")
        ends = np.array([-span / 4, span / 4])
        moving["line_3d"].set_data_3d(px + ends * u[0], py + ends * u[1], self.f_p + ends * v["directional"])

    def summary(self) -> str:
        v = self.values
        return (f"{self.name}: at p = ({fmt(self.point[0])}, {fmt(self.point[1])}) along {fmt(v['angle'])}° "
                f"(u = ({fmt(v['u'][0])}, {fmt(v['u'][1])})): D_u f = {fmt(v['directional'])} "
                f"(autograd of t -> f(p + t u)) = ∇f · u = {fmt(v['grad_dot_u'])}: they agree "
                "(drag the angle to explore)")


def directional_explorer(f: Callable[[Tensor, Tensor], Tensor], point: tuple[float, float] = (0.5, 0.5),
                         angle: float = 0.0, xy_range: Range2D = ((-2, 2), (-2, 2))) -> DirectionalExplorer:
    """A live picture of the directional derivative of ``f(x, y)`` at ``point``, direction set by a dial.

    Slider ``angle`` (degrees, 0 to 360; u = (cos angle, sin angle)). ``values`` holds ``angle``, ``u``,
    ``directional`` (autograd of t -> f(point + t u) at t = 0) and ``grad_dot_u`` (∇f(point) · u), equal.
    ``f`` must be elementwise (``lambda x, y: x**2 + 3 * y**2``).
    """
    return DirectionalExplorer(f, point, angle, xy_range)


class GradientField(Explorer):
    r"""The gradient at every point of a grid, and at one point you move (made by :func:`gradient_field`).

    :math:`\nabla f = (\partial f / \partial x, \partial f / \partial y)`. Among all directions u, the slope
    :math:`D_u f = \nabla f \cdot u = |\nabla f| \cos\angle(\nabla f, u)` is largest when u points along
    :math:`\nabla f` (cos = 1): the gradient is the direction of steepest ascent and its length the slope that
    way. Along a contour line the height does not change (slope 0), so the gradient is perpendicular to it.

    Left: contour map with the field of arrows (all the grid's partials from one backward pass) and the chosen
    point's gradient; right: the slope D_u f against the direction's angle, largest at the gradient's angle.
    ``field`` holds the grid and the arrows: ``{"X", "Y", "dx", "dy"}`` (numpy arrays).
    """

    name = "gradient_field"
    width, height = 9.0, 3.8

    def __init__(self, f: Callable[[Tensor, Tensor], Tensor], xy_range: Range2D = ((-2, 2), (-2, 2)), n: int = 15,
                 point: tuple[float, float] | None = None) -> None:
        check_function(f, _EXAMPLE)
        self.f = f
        self.xy_range = check_xy_range(xy_range)
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 2 <= n <= 60:
            raise ValueError(f"n is the number of arrows along each side, an integer from 2 to 60; got {n!r}")
        if point is None:  # a little off centre: at the centre of a symmetric bowl the gradient is 0
            point = tuple(a + 0.625 * (b - a) for a, b in self.xy_range)
        x0, y0 = check_point("point", point, self.xy_range)
        self.map = ContourMap(f, self.xy_range)
        xs, ys = np.linspace(*self.xy_range[0], n), np.linspace(*self.xy_range[1], n)
        grid_x, grid_y = np.meshgrid(xs, ys)
        _, (dx, dy) = grid_values_and_grads(f, grid_x, grid_y)
        self.field = {"X": grid_x, "Y": grid_y, "dx": dx, "dy": dy}
        norms = np.hypot(dx, dy)
        longest = float(np.nanmax(norms)) if np.any(np.isfinite(norms)) else 0.0
        spacing = min((b - a) / (n - 1) for a, b in self.xy_range)
        self._arrow_scale = longest / (0.9 * spacing) if longest > 0 else 1.0  # longest arrow: 0.9 grid spacing
        self._longest = longest
        super().__init__({"x0": point_slider("x0", x0, self.xy_range[0]),
                          "y0": point_slider("y0", y0, self.xy_range[1])})

    def _compute(self, x0: float, y0: float) -> dict[str, Any]:
        _, g = value_and_grad(self.f, [x0, y0])
        return {"x0": x0, "y0": y0, "grad": (float(g[0]), float(g[1])), "norm": float(np.hypot(*g))}

    def _slope_limit(self, norm: float) -> float:
        """Half the height of the slopes panel: the largest |∇f| of the field, or the point's if larger."""
        return norm if norm > self._longest else (self._longest or 1.0)

    def _layout(self, v: dict[str, Any]) -> Any:
        # The slopes panel keeps one scale, that of the steepest arrow of the field, so that |∇f| visibly grows
        # and shrinks as the point moves; only a point steeper than every arrow widens it (a full redraw).
        return self._slope_limit(v["norm"])

    def _draw(self, figure: Figure, v: dict[str, Any]) -> dict[str, Artist]:
        figure.subplots_adjust(left=0.07, right=0.98, bottom=0.13, top=0.9, wspace=0.3)
        ax_map, ax_slopes = figure.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1]})
        self.map.draw(ax_map)
        field = self.field
        ax_map.quiver(field["X"], field["Y"], field["dx"], field["dy"], angles="xy", scale_units="xy",
                      scale=self._arrow_scale, color="0.25", width=0.004)
        moving = {"point": ax_map.plot([], [], "o", color="C3")[0],
                  "steepest": ax_map.annotate("", xy=(0, 0), xytext=(0, 0), arrowprops={
                      "arrowstyle": "->", "color": "C3", "linewidth": 2, "linestyle": "--"}),
                  "arrow": self._gradient_arrow(ax_map, v),
                  "title": ax_map.set_title("", fontsize=9)}

        angles = np.linspace(0, 360, 361)
        moving["slopes"] = ax_slopes.plot(angles, np.zeros_like(angles), color="C0")[0]
        moving["zero"] = ax_slopes.axhline(0, color="0.6", linewidth=0.8)  # fixed, but drawn over the curve
        moving["best"] = ax_slopes.plot([], [], "o", color="C3")[0]
        moving["best_line"] = ax_slopes.axvline(0, color="C3", linewidth=0.8, linestyle="--")
        moving["best_text"] = ax_slopes.text(0.02, 0.03, "", transform=ax_slopes.transAxes, fontsize=8, color="C3")
        ax_slopes.set_xlim(0, 360)
        ax_slopes.set_ylim(-1.1 * self._slope_limit(v["norm"]), 1.1 * self._slope_limit(v["norm"]))
        ax_slopes.set_xticks(range(0, 361, 90))
        ax_slopes.set_xlabel("direction of u (degrees)")
        ax_slopes.set_title("slope D_u f = ∇f · u in every direction", fontsize=9)
        ax_slopes.grid(alpha=0.3)
        self._move(moving, v)
        return moving

    def _gradient_arrow(self, ax: Axes, v: dict[str, Any]) -> Artist:
        """∇f at the point, to the field's scale (a new quiver each time: a quiver's positions are fixed)."""
        return ax.quiver([v["x0"]], [v["y0"]], [v["grad"][0]], [v["grad"][1]], angles="xy", scale_units="xy",
                         scale=self._arrow_scale, color="C3", width=0.012)

    def _move(self, moving: dict[str, Artist], v: dict[str, Any]) -> None:
        x0, y0, (gx, gy), norm = v["x0"], v["y0"], v["grad"], v["norm"]
        moving["point"].set_data([x0], [y0])
        moving["title"].set_text(f"∇f({fmt(x0)}, {fmt(y0)}) = ({fmt(gx)}, {fmt(gy)}); dashed: steepest ascent")
        ax_map = moving["arrow"].axes
        moving["arrow"].remove()
        moving["arrow"] = self._gradient_arrow(ax_map, v)
        slopes = moving["slopes"]
        angles = slopes.get_xdata()
        slopes.set_ydata(gx * np.cos(np.deg2rad(angles)) + gy * np.sin(np.deg2rad(angles)))  # ∇f · u for every u
        # At a point where ∇f = 0 there is no steepest direction: its arrows and marks are hidden.
        for name in ("steepest", "arrow", "best", "best_line", "best_text"):
            moving[name].set_visible(norm > 0)
        if norm > 0:  # the steepest-ascent direction ∇f/|∇f|, drawn long enough to see, and ∇f to the field's scale
            reach = min(b - a for a, b in self.xy_range) / 4
            moving["steepest"].xy = (x0 + reach * gx / norm, y0 + reach * gy / norm)
            moving["steepest"].set_position((x0, y0))
            best = np.rad2deg(np.arctan2(gy, gx)) % 360
            moving["best"].set_data([best], [norm])
            moving["best_line"].set_xdata([best, best])
            moving["best_text"].set_text(f"steepest ascent at {fmt(best)}°: slope |∇f| = {fmt(norm)}")

    def summary(self) -> str:
        v = self.values
        gx, gy = v["grad"]
        return (f"{self.name}: ∇f({fmt(v['x0'])}, {fmt(v['y0'])}) = ({fmt(gx)}, {fmt(gy)}) (autograd), "
                f"|∇f| = {fmt(v['norm'])}: the direction of steepest ascent and its slope (drag x0 and y0 to explore)")


def gradient_field(f: Callable[[Tensor, Tensor], Tensor], xy_range: Range2D = ((-2, 2), (-2, 2)), n: int = 15,
                   point: tuple[float, float] | None = None) -> GradientField:
    """A live picture of the gradient of ``f(x, y)``: arrows on an ``n`` x ``n`` grid over the contour map.

    Sliders ``x0`` and ``y0`` move one highlighted point (default ``point``: 5/8 of the way across each range);
    ``values`` holds ``x0``, ``y0``, ``grad`` (∇f there, by autograd) and ``norm`` (its length, the steepest
    slope). The arrows are the grid's partial derivatives from one backward pass, drawn to scale (the longest
    as long as 0.9 grid spacings); ``explorer.field`` has their numbers. ``f`` must be elementwise.
    """
    return GradientField(f, xy_range, n, point)
