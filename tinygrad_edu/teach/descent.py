"""Gradient descent and supervised learning, as pictures.

* :func:`gradient_descent`: the loop itself, p <- p - lr * grad f(p), the gradient by autograd each step.
* :func:`descent_explorer`: its path on the contour map and the loss against the step, live in lr and steps.
* :func:`fit_explorer`: learning from samples: a one-parameter model, its loss L(w), and dL/dw as a tangent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.artist import Artist
from matplotlib.figure import Figure

from .._creation import tensor
from .._dtype import float64
from .._tensor import Tensor
from ..autograd import grad, no_grad
from ._calculus import check_function, check_inside, fmt, value_and_grad
from ._explorer import Explorer
from .multivariable import ContourMap, Range2D, check_point, check_xy_range, point_slider

__all__ = ["DescentExplorer", "FitExplorer", "descent_explorer", "fit_explorer", "gradient_descent"]


def gradient_descent(f: Callable[..., Tensor], start: Sequence[float], lr: float, steps: int) -> list[tuple]:
    """Walk downhill: ``steps`` times, step from p against the gradient, ``p <- p - lr * grad f(p)``.

    The loop is five lines::

        p = np.array(start, dtype=float)
        path = [tuple(p)]
        for _ in range(steps):
            value, grad = value_and_grad(f, p)      # f(p) and its partials, one backward pass
            p = p - lr * grad
            path.append(tuple(p))

    The gradient points uphill, the steepest way, so a small step against it lowers f. With too large a learning
    rate ``lr`` each step overshoots the valley and lands higher up the other side: the walk diverges. The loop
    stops early when a point or its value stops being a finite number (overflow), so the path then has fewer
    than ``steps + 1`` points. ``f`` takes one tensor per coordinate of ``start`` (``lambda x, y: x**2 + y**2``).

    Returns the path: the points p_0 = start, p_1, ..., as tuples of floats.
    """
    check_function(f, "lambda x, y: x**2 + 3 * y**2")
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 0:
        raise ValueError(f"steps must be a whole number >= 0; got {steps!r}")
    lr = float(lr)
    if not np.isfinite(lr) or lr <= 0:
        raise ValueError(f"lr (the learning rate) must be a positive number, e.g. 0.1; got {lr:g}")
    return _descend(f, start, lr, steps)[0]


def _descend(f: Callable[..., Tensor], start: Sequence[float], lr: float,
             steps: int) -> tuple[list[tuple], list[float]]:
    """The loop of :func:`gradient_descent`: the path, and f at each of its points (the value that comes with
    each step's gradient, plus one more evaluation for the last point)."""
    p = np.array([float(s) for s in start])
    path, losses = [tuple(float(c) for c in p)], []
    with np.errstate(all="ignore"):
        for _ in range(steps):
            value, grad = value_and_grad(f, p)
            losses.append(value)
            p = p - lr * grad
            if not (np.isfinite(value) and np.all(np.isfinite(p))):
                return path, losses
            path.append(tuple(float(c) for c in p))
        losses.append(value_and_grad(f, p)[0])
    return path, losses


class DescentExplorer(Explorer):
    r"""Gradient descent on f(x, y), live (made by :func:`descent_explorer`).

    Left: the path :math:`p_{k+1} = p_k - \text{lr}\, \nabla f(p_k)` on the contour map; each step crosses the
    contour lines at a right angle, since it follows the gradient. Right: the loss :math:`f(p_k)` against k
    (log scale when it stays positive). Small lr: slow, steady progress; lr too large: the steps overshoot and
    the loss grows. The run counts as diverged when it overflowed or ended higher than it started.
    """

    name = "descent_explorer"
    width, height = 9.0, 3.8

    def __init__(self, f: Callable[[Tensor, Tensor], Tensor], start: tuple[float, float] = (1.5, 1.5),
                 lr: float = 0.1, steps: int = 20, xy_range: Range2D = ((-2, 2), (-2, 2))) -> None:
        check_function(f, "lambda x, y: x**2 + 3 * y**2")
        self.f = f
        self.xy_range = check_xy_range(xy_range)
        x0, y0 = check_point("start", start, self.xy_range)
        lr = check_inside("lr", lr, (1e-3, 2.0), "the slider's range")
        if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or not 1 <= steps <= 200:
            raise ValueError(f"steps must be a whole number from 1 to 200; got {steps!r}")
        self.map = ContourMap(f, self.xy_range)
        super().__init__({
            "x0": point_slider("x0", x0, self.xy_range[0]),
            "y0": point_slider("y0", y0, self.xy_range[1]),
            "lr": widgets.FloatLogSlider(value=lr, base=10, min=-3, max=np.log10(2.0), step=0.05,
                                         description="lr", readout_format=".3g"),
            "steps": widgets.IntSlider(value=int(steps), min=1, max=200, description="steps"),
        })

    def _compute(self, x0: float, y0: float, lr: float, steps: int) -> dict[str, Any]:
        path, losses = _descend(self.f, (x0, y0), lr, steps)
        diverged = len(path) < steps + 1 or not np.isfinite(losses[-1]) or losses[-1] > losses[0]
        return {"x0": x0, "y0": y0, "lr": lr, "steps": steps, "path": path, "losses": losses,
                "final": path[-1], "diverged": bool(diverged)}

    def _draw(self, figure: Figure, v: dict[str, Any]) -> dict[str, Artist]:
        figure.subplots_adjust(left=0.07, right=0.98, bottom=0.13, top=0.9, wspace=0.3)
        ax_map, ax_loss = figure.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1]})
        self.map.draw(ax_map)
        moving = {"path": ax_map.plot([], [], "o-", markersize=3, linewidth=1)[0],
                  "start": ax_map.plot([], [], "ks", markersize=6)[0],
                  "title": ax_map.set_title("", fontsize=9),
                  # The loss panel's scale follows the losses (log or linear, up to any height): it moves whole,
                  # its curve and title with it.
                  "loss_panel": ax_loss}
        ax_loss.plot([], [], "o-", markersize=3)
        ax_loss.set_xlabel("step k")
        # y=1.0 places the title where matplotlib's automatic placement puts it (nothing of this panel sits above
        # the axes) without the automatic search, which measures every tick label again on each draw.
        ax_loss.set_title("", fontsize=9, y=1.0)
        ax_loss.grid(alpha=0.3)
        self._move(moving, v)
        return moving

    def _move(self, moving: dict[str, Artist], v: dict[str, Any]) -> None:
        path = np.array(v["path"])
        color = "C3" if v["diverged"] else "C1"
        moving["path"].set_data(path[:, 0], path[:, 1])
        moving["path"].set_color(color)
        moving["start"].set_data(path[:1, 0], path[:1, 1])
        moving["title"].set_text(f"path from ({fmt(v['x0'])}, {fmt(v['y0'])}), lr = {fmt(v['lr'])}")
        losses = np.array(v["losses"])
        finite = np.isfinite(losses)  # an overflowed loss (inf) cannot be drawn: the curve stops before it
        ax_loss = moving["loss_panel"]
        ax_loss.lines[0].set_data(np.arange(len(losses))[finite], losses[finite])
        ax_loss.lines[0].set_color(color)
        # steady descent is a straight line on a log scale; divergence a line going up
        scale = "log" if finite.any() and np.all(losses[finite] > 0) else "linear"
        if ax_loss.get_yscale() != scale:
            ax_loss.set_yscale(scale)
        ax_loss.relim()
        ax_loss.autoscale_view()
        ax_loss.title.set_text("loss f(p_k)" + ("  DIVERGED" if v["diverged"] else ""))
        ax_loss.title.set_color(color if v["diverged"] else "k")

    def summary(self) -> str:
        v = self.values
        taken = len(v["path"]) - 1
        end = f"ending at ({fmt(v['final'][0])}, {fmt(v['final'][1])})"
        verdict = "DIVERGED: lr is too large" if v["diverged"] else end
        return (f"{self.name}: {taken} steps of lr = {fmt(v['lr'])} from ({fmt(v['x0'])}, {fmt(v['y0'])}): "
                f"f went {fmt(v['losses'][0])} -> {fmt(v['losses'][-1])}, {verdict} (drag start, lr and steps)")


def descent_explorer(f: Callable[[Tensor, Tensor], Tensor], start: tuple[float, float] = (1.5, 1.5),
                     lr: float = 0.1, steps: int = 20, xy_range: Range2D = ((-2, 2), (-2, 2))) -> DescentExplorer:
    """A live picture of gradient descent on ``f(x, y)``: the path on the contour map and the loss per step.

    Controls ``x0``, ``y0`` (the start), ``lr`` (log slider, 1e-3 to 2) and ``steps`` (1 to 200). ``values``
    holds ``path`` (the points), ``losses`` (f at each), ``final`` (the last point) and ``diverged``.
    """
    return DescentExplorer(f, start, lr, steps, xy_range)


def _as_data(name: str, values: object) -> np.ndarray:
    data = np.asarray(values.detach().numpy() if isinstance(values, Tensor) else values, dtype=np.float64)
    if data.ndim != 1 or data.size == 0:
        raise ValueError(f"{name} must be a 1-D tensor of samples, e.g. torch.tensor([1.0, 2.0, 3.0]); "
                         f"got shape {list(data.shape)}")
    return data


class FitExplorer(Explorer):
    r"""Supervised learning in one picture: choose w to make ``model(w, x)`` match the labels y.

    The loss is the mean squared error :math:`L(w) = \frac{1}{n} \sum_i (\text{model}(w, x_i) - y_i)^2`.
    Left: the samples, the model's predictions and the residuals (the vertical gaps the loss squares).
    Right: L(w) over a range of w, the current w with its tangent of slope dL/dw (by autograd: backward through
    the model and the loss), and the best w on the curve. dL/dw < 0 means: increase w; gradient descent is
    exactly that rule.
    """

    name = "fit_explorer"
    width, height = 9.0, 3.6

    def __init__(self, x: Tensor, y: Tensor, w: float = 0.0,
                 model: Callable[[Tensor, Tensor], Tensor] | None = None) -> None:
        self.x, self.y = _as_data("x", x), _as_data("y", y)
        if self.x.shape != self.y.shape:
            raise ValueError(f"x and y must have one label per sample: got {self.x.size} samples and "
                             f"{self.y.size} labels")
        self.model = model if model is not None else (lambda w, x: w * x)
        check_function(self.model, "lambda w, x: w * x", name="model")
        w = float(w)
        self.w_best = self._minimise(w)
        half = max(2.0, 1.5 * abs(w - self.w_best), 0.5 * abs(self.w_best))
        self.w_range = (self.w_best - half, self.w_best + half)
        self.ws = np.linspace(*self.w_range, 161)
        self.curve = np.array([self._loss(float(c)).item() for c in self.ws])
        # Fixed axes limits, so that moving w redraws only what moves: every w's predictions fit in the data panel;
        # the loss panel spans the slider's range (with matplotlib's usual 5% margins).
        shown = np.concatenate([self.y, *(self._predict(float(c)) for c in self.ws)])
        shown = shown[np.isfinite(shown)]
        low, high = (float(shown.min()), float(shown.max())) if shown.size else (-1.0, 1.0)
        margin = 0.05 * (high - low) or 1.0
        self._prediction_limits = (low - margin, high + margin)
        margin = 0.05 * (self.w_range[1] - self.w_range[0])
        self._w_limits = (self.w_range[0] - margin, self.w_range[1] + margin)
        super().__init__({"w": widgets.FloatSlider(value=w, min=self.w_range[0], max=self.w_range[1],
                                                   step=(self.w_range[1] - self.w_range[0]) / 400,
                                                   description="w", readout_format=".3f")})

    def _loss(self, w: float | Tensor) -> Tensor:
        """L(w) as a tensor (a graph to w when w requires grad)."""
        wt = w if isinstance(w, Tensor) else tensor(float(w), dtype=float64)
        prediction = self.model(wt, tensor(self.x, dtype=float64))
        if not isinstance(prediction, Tensor) or tuple(prediction.shape) != self.x.shape:
            raise ValueError("model(w, x) must return a tensor of predictions, one per sample (shape "
                             f"{list(self.x.shape)}), built with tinygrad_edu operations, e.g. w * x")
        return ((prediction - tensor(self.y, dtype=float64)) ** 2).mean()

    def _predict(self, w: float) -> np.ndarray:
        """The model's predictions for the samples at this w, as numbers (no graph)."""
        with no_grad():
            return np.asarray(self.model(tensor(w, dtype=float64), tensor(self.x, dtype=float64)).numpy(),
                              dtype=np.float64)

    def _loss_and_slope(self, w: float) -> tuple[float, float]:
        value, (slope,) = value_and_grad(self._loss, [w], name="the loss of model")
        return value, float(slope)

    def _minimise(self, w: float) -> float:
        """The best w: Newton's method on dL/dw = 0, from w: w <- w - L'(w) / L''(w).

        Both derivatives come from autograd (the second by differentiating the first: ``create_graph=True``).
        For the default model L is a parabola in w, and one Newton step lands exactly on its minimum.
        """
        for _ in range(50):
            wt = tensor(w, dtype=float64, requires_grad=True)
            with np.errstate(all="ignore"):
                (slope,) = grad(self._loss(wt), wt, create_graph=True)
                if not slope.requires_grad:  # L is linear in w: no minimum to walk to
                    break
                (curvature,) = grad(slope, wt)
            if not (np.isfinite(curvature.item()) and curvature.item() > 0):
                break
            step = slope.item() / curvature.item()
            w -= step
            if abs(step) < 1e-12 * max(1.0, abs(w)):
                break
        return float(w)

    def _compute(self, w: float) -> dict[str, Any]:
        loss, slope = self._loss_and_slope(w)
        return {"w": w, "loss": loss, "dloss_dw": slope, "w_best": self.w_best,
                "loss_best": self._loss(self.w_best).item()}

    def _draw(self, figure: Figure, v: dict[str, Any]) -> dict[str, Artist]:
        figure.subplots_adjust(left=0.07, right=0.98, bottom=0.14, top=0.9, wspace=0.28)
        ax_data, ax_loss = figure.subplots(1, 2)
        moving = {"residuals": ax_data.vlines(self.x, self.y, self.y, color="C3", linewidth=1, label="residuals")}
        ax_data.plot(self.x, self.y, "o", color="C0", label="samples (x, y)")
        moving["model"] = ax_data.plot(self.x, self.y, "-", color="C1", label="model")[0]
        ax_data.set_ylim(*self._prediction_limits)  # fixed: the predictions of every w on the slider fit in
        ax_data.set_xlabel("x")
        moving["data_legend"] = ax_data.legend(fontsize=8, loc="upper left")
        ax_data.set_title("data and predictions", fontsize=9)
        ax_data.grid(alpha=0.3)
        ax_loss.plot(self.ws, self.curve, color="C0")
        moving["tangent"] = ax_loss.plot([], [], color="C3", label="slope")[0]
        moving["point"] = ax_loss.plot([], [], "o", color="C3")[0]
        moving["best"] = ax_loss.plot([v["w_best"]], [v["loss_best"]], "*", color="k", markersize=10,
                                      label=f"best w = {fmt(v['w_best'])}")[0]  # fixed, but drawn over the tangent
        ax_loss.set_xlim(*self._w_limits)  # fixed: the tangent is cut at the ends of the slider's range
        ax_loss.set_ylim(min(self.curve.min(), 0) - 0.05 * np.ptp(self.curve), self.curve.max() * 1.05 + 1e-12)
        ax_loss.set_xlabel("w")
        moving["loss_title"] = ax_loss.set_title("", fontsize=9)
        moving["loss_legend"] = ax_loss.legend(fontsize=8, loc="upper center")
        ax_loss.grid(alpha=0.3)
        self._move(moving, v)
        return moving

    def _move(self, moving: dict[str, Artist], v: dict[str, Any]) -> None:
        w = v["w"]
        predictions = self._predict(w)
        order = np.argsort(self.x)
        moving["residuals"].set_segments([[(x, y), (x, p)] for x, y, p in zip(self.x, self.y, predictions)])
        moving["model"].set_data(self.x[order], predictions[order])
        moving["data_legend"].get_texts()[2].set_text(f"model(w = {fmt(w)}, x)")  # residuals, samples, model
        half = (self.w_range[1] - self.w_range[0]) / 6
        ts = np.array([w - half, w + half])
        moving["tangent"].set_data(ts, v["loss"] + v["dloss_dw"] * (ts - w))
        moving["loss_legend"].get_texts()[0].set_text(f"slope dL/dw = {fmt(v['dloss_dw'])}")
        moving["point"].set_data([w], [v["loss"]])
        moving["loss_title"].set_text(f"loss L(w) = mean (model(w, x) - y)²: {fmt(v['loss'])}")

    def summary(self) -> str:
        v = self.values
        return (f"{self.name}: w = {fmt(v['w'])}: loss {fmt(v['loss'])}, dL/dw = {fmt(v['dloss_dw'])} (autograd); "
                f"the best w = {fmt(v['w_best'])} (drag w to explore)")


def fit_explorer(x: Tensor, y: Tensor, w: float = 0.0,
                 model: Callable[[Tensor, Tensor], Tensor] | None = None) -> FitExplorer:
    """A live picture of fitting a one-parameter model to samples ``x`` with labels ``y``.

    ``model(w, x)`` defaults to ``w * x`` (a line through the origin). Slider ``w``; ``values`` holds ``w``,
    ``loss`` (the mean squared error), ``dloss_dw`` (by autograd) and ``w_best`` (the w of least loss: for the
    default model, the least-squares slope sum(x y) / sum(x²)).
    """
    return FitExplorer(x, y, w, model)
