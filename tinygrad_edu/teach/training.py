"""Pictures of training: a live loss monitor, loss curves, and a classifier's decision boundary.

::

    from tinygrad_edu.teach.training import TrainingMonitor, plot_decision_boundary, plot_losses

    monitor = TrainingMonitor(total_steps=300, every=25)
    display(monitor)                    # a progress bar, the latest loss and the loss curve, redrawn as it trains
    for step in range(300):
        ...                             # zero_grad -> forward -> loss -> backward -> step
        monitor.update(loss)            # records every step; redraws every 25th (and the last)
    plot_decision_boundary(model, x, y) # which class the model predicts where, with the data on top

Every picture is a :class:`matplotlib.figure.Figure` made directly (not through ``pyplot``), so nothing is
drawn behind your back and figures never pile up in pyplot's list of open figures.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from ._explorer import new_figure, png_bytes

#: one colour per class (colour-blind safe: the Okabe-Ito palette), for points and regions alike
CLASS_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def _as_float(loss: Any, who: str) -> float:
    """A loss as a Python float: a number, or a one-element tensor (its graph is not kept).

    Any tensor with ``numel()`` and ``item()`` will do, so the same loop works with PyTorch's tensors too.
    """
    if isinstance(loss, Tensor) or (hasattr(loss, "numel") and hasattr(loss, "item")):
        if loss.numel() != 1:
            raise ValueError(f"{who}: the loss must be a single number, but got a tensor of shape "
                             f"{list(loss.shape)}. Reduce it first (nn.MSELoss and friends already return its mean).")
        return float(loss.item())
    if isinstance(loss, bool) or not isinstance(loss, (int, float, np.integer, np.floating)):
        raise TypeError(f"{who}: the loss must be a number or a one-element tensor, not {type(loss).__name__}")
    return float(loss)


def _losses_array(values: Any, name: str) -> np.ndarray:
    try:
        array = np.array([_as_float(v, name) for v in values], dtype=np.float64)
    except TypeError as error:
        if "is not iterable" in str(error):
            raise TypeError(f"{name} must be a sequence of losses, not {type(values).__name__}") from None
        raise
    return array


def _figure(size: tuple[float, float]) -> Figure:
    """A new figure with fixed margins (an automatic layout would cost more time than drawing the plot)."""
    figure = new_figure(*size, dpi=100)
    figure.subplots_adjust(left=0.14, right=0.96, bottom=0.17, top=0.88)
    return figure


def plot_losses(curves: Sequence[Any] | Mapping[str, Sequence[Any]], *, log_scale: bool = False,
                title: str = "training loss", size: tuple[float, float] = (6.0, 3.0)) -> Figure:
    """Loss against step, one line per curve.

    Args:
        curves: the losses of one run (a list of numbers or one-element tensors), or ``{"label": losses, ...}``
            to compare runs on one plot (e.g. with and without ``zero_grad``).
        log_scale: a logarithmic loss axis, which shows both the fast start and the slow end of training.
        title, size: the figure's title and size in inches.

    Step ``k`` (counting from 0) is plotted at x = k. Losses that are ``inf`` or ``nan`` leave a gap in the line.
    """
    if isinstance(curves, Mapping):
        named = {str(label): _losses_array(values, f"plot_losses: curves[{label!r}]")
                 for label, values in curves.items()}
    else:
        named = {"": _losses_array(curves, "plot_losses: curves")}
    if not named or any(len(values) == 0 for values in named.values()):
        raise ValueError("plot_losses: every curve needs at least one loss")
    figure = _figure(size)
    ax = figure.add_subplot()
    for label, values in named.items():
        shown = np.where(np.isfinite(values), values, np.nan)
        ax.plot(np.arange(len(values)), shown, label=label or None, linewidth=1.5)
    if log_scale:
        if any((values[np.isfinite(values)] <= 0).any() for values in named.values()):
            raise ValueError("plot_losses: log_scale needs positive losses (a logarithm of 0 or less is undefined)")
        ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("loss")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    if len(named) > 1 or next(iter(named)):
        ax.legend()
    return figure


def _class_labels(y: Any, n: int) -> np.ndarray:
    labels = np.asarray(y._array if isinstance(y, Tensor) else y)
    if labels.ndim == 2 and labels.shape[1] == 1:  # BCEWithLogitsLoss targets: shape (N, 1)
        labels = labels[:, 0]
    if labels.shape != (n,):
        raise ValueError(f"plot_decision_boundary: y must hold one label per point, shape ({n},), but has shape "
                         f"{list(labels.shape)}")
    if not np.all(labels == np.round(labels)) or (labels < 0).any():
        raise ValueError("plot_decision_boundary: y must hold class labels 0, 1, 2, ... (whole numbers)")
    return labels.astype(np.int64)


def predict_classes(model: Callable[[Tensor], Tensor], points: np.ndarray) -> np.ndarray:
    """The class the model predicts at each point (rows of ``points``), computed under ``no_grad``.

    A model with one output is a binary classifier giving a logit: class 1 where it is positive (as with
    ``BCEWithLogitsLoss``). A model with several outputs gives one score per class: the class with the
    highest (as with ``CrossEntropyLoss``).
    """
    with no_grad():  # only looking: no graph to record, and no gradients to disturb
        out = model(Tensor(points.astype(np.float32)))
    if not isinstance(out, Tensor):
        raise TypeError(f"the model must return a tensor, but returned {type(out).__name__}")
    scores = out._array
    if scores.ndim == 1:
        scores = scores[:, None]
    if scores.ndim != 2 or scores.shape[0] != len(points):
        raise ValueError(f"the model must return one row of scores per point, shape ({len(points)}, classes), "
                         f"but returned shape {list(out.shape)}")
    if scores.shape[1] == 1:
        return (scores[:, 0] > 0).astype(np.int64)
    return scores.argmax(axis=1)


def plot_decision_boundary(model: Callable[[Tensor], Tensor], x: Any, y: Any, *, resolution: int = 150,
                           margin: float = 0.5, title: str = "decision boundary",
                           size: tuple[float, float] = (4.5, 4.0)) -> Figure:
    """Colour the plane by the class ``model`` predicts there, and draw the data points on top.

    Args:
        model: takes a batch of 2-D points, shape (N, 2), and returns scores, shape (N, classes) or (N, 1)
            (see :func:`predict_classes`). It runs under ``no_grad`` on a grid of ``resolution²`` points.
        x: the points, shape (N, 2) (a tensor or an array).
        y: their class labels 0, 1, ..., shape (N,) (or (N, 1) for a binary target).
        margin: how far the grid reaches beyond the data, in the data's units.

    The title reports the accuracy on ``(x, y)``, the fraction of points on the right side of the boundary.
    """
    if not callable(model):
        raise TypeError(f"plot_decision_boundary: model must be callable (an nn.Module), not {type(model).__name__}")
    points = np.asarray(x._array if isinstance(x, Tensor) else x, dtype=np.float64)
    if points.ndim != 2 or points.shape[1] != 2 or len(points) == 0:
        raise ValueError(f"plot_decision_boundary: x must hold 2-D points, shape (N, 2), but has shape "
                         f"{list(points.shape)}")
    if not isinstance(resolution, int) or resolution < 2:
        raise ValueError(f"plot_decision_boundary: resolution must be an integer >= 2, not {resolution!r}")
    labels = _class_labels(y, len(points))
    (x0, y0), (x1, y1) = points.min(axis=0) - margin, points.max(axis=0) + margin
    gx, gy = np.meshgrid(np.linspace(x0, x1, resolution), np.linspace(y0, y1, resolution))
    grid_classes = predict_classes(model, np.column_stack([gx.ravel(), gy.ravel()])).reshape(gx.shape)
    accuracy = float((predict_classes(model, points) == labels).mean())

    n_classes = int(max(labels.max(), grid_classes.max())) + 1
    if n_classes > len(CLASS_COLOURS):
        raise ValueError(f"plot_decision_boundary: at most {len(CLASS_COLOURS)} classes can be coloured")
    colours = ListedColormap(CLASS_COLOURS[:n_classes])
    figure = _figure(size)
    ax = figure.add_subplot()
    ax.pcolormesh(gx, gy, grid_classes, cmap=colours, vmin=-0.5, vmax=n_classes - 0.5, alpha=0.25, shading="auto")
    if n_classes > 1:  # the boundary itself: where the predicted class changes
        ax.contour(gx, gy, grid_classes, levels=np.arange(n_classes - 1) + 0.5, colors="k", linewidths=1)
    for c in range(n_classes):
        mine = labels == c
        if mine.any():
            ax.scatter(points[mine, 0], points[mine, 1], s=14, color=CLASS_COLOURS[c], edgecolors="white",
                       linewidths=0.5, label=f"class {c}")
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.set_title(f"{title} (accuracy {accuracy:.0%})")
    ax.legend(loc="upper right", fontsize="small")
    return figure


class TrainingMonitor(widgets.VBox):
    """A live view of training: a progress bar, the latest loss, and the loss curve so far.

    Args:
        total_steps: how many steps the loop will run (the progress bar's length).
        every: redraw every ``every`` steps (and at the last one). Every loss is recorded; drawing
            is what costs time, so a long loop should not redraw at each step.
        log_scale, title: passed on to :func:`plot_losses`.

    Call :meth:`update` once per step with that step's loss; ``losses`` holds them all (as floats).

    It is an ipywidgets ``VBox`` (``[progress bar, loss text], curve picture``): display it before the loop
    (``display(monitor)``) and it keeps updating while the loop runs. Where widgets cannot run (a notebook
    opened from disk, rendered on GitHub or by nbconvert), the output also carries a PNG of the curve and a
    text summary, both of the state at the moment it was displayed: display it again after the loop to keep
    a picture of the finished curve.
    """

    def __init__(self, total_steps: int, every: int = 10, *, log_scale: bool = False,
                 title: str = "training loss") -> None:
        if isinstance(total_steps, bool) or not isinstance(total_steps, int) or total_steps < 1:
            raise ValueError(f"TrainingMonitor: total_steps must be a positive integer, not {total_steps!r}")
        if isinstance(every, bool) or not isinstance(every, int) or every < 1:
            raise ValueError(f"TrainingMonitor: every must be a positive integer (redraw every that many steps), "
                             f"not {every!r}")
        self.total_steps = total_steps
        self.every = every
        self.log_scale = log_scale
        self.title = title
        self.losses: list[float] = []
        self.redraws = 0  # how many times the picture was drawn
        self.progress = widgets.IntProgress(value=0, min=0, max=total_steps, description="step")
        self.label = widgets.HTML()
        self.image = widgets.Image(format="png")
        super().__init__([widgets.HBox([self.progress, self.label]), self.image])
        self._refresh()

    @property
    def step(self) -> int:
        """How many steps were recorded so far."""
        return len(self.losses)

    def update(self, loss: Any) -> None:
        """Record the loss of one step (a number or a one-element tensor); redraw if it is time to."""
        if self.step >= self.total_steps:
            raise RuntimeError(f"TrainingMonitor: all {self.total_steps} steps were already recorded. Make a new "
                               "monitor for a new run, or give a larger total_steps.")
        self.losses.append(_as_float(loss, "TrainingMonitor.update"))
        if self.step % self.every == 0 or self.step == self.total_steps:
            self._refresh()

    def figure(self) -> Figure:
        """The loss curve so far, as a matplotlib Figure (empty axes before the first step)."""
        if not self.losses:
            figure = _figure((6.0, 3.0))
            ax = figure.add_subplot()
            ax.set_xlim(0, max(self.total_steps - 1, 1))
            ax.set_xlabel("step")
            ax.set_ylabel("loss")
            ax.set_title(f"{self.title} (no steps yet)")
            return figure
        figure = plot_losses(self.losses, log_scale=self.log_scale, title=self.title)
        figure.axes[0].set_xlim(0, max(self.total_steps - 1, 1))
        return figure

    def summary(self) -> str:
        """One line: progress, and the latest, first and lowest loss."""
        if not self.losses:
            return f"TrainingMonitor: 0/{self.total_steps} steps, no loss recorded yet"
        finite = [v for v in self.losses if math.isfinite(v)]
        lowest = f", lowest {min(finite):.4g} at step {self.losses.index(min(finite))}" if finite else ""
        return (f"TrainingMonitor: {self.step}/{self.total_steps} steps, loss {self.losses[-1]:.4g} "
                f"(first {self.losses[0]:.4g}{lowest})")

    def __repr__(self) -> str:  # (a widget's default repr names its model id, which changes from run to run)
        return self.summary()

    def _refresh(self) -> None:
        self.progress.value = self.step
        self.label.value = html.escape(self.summary().removeprefix("TrainingMonitor: "))
        self.image.value = png_bytes(self.figure(), dpi=80)
        self.redraws += 1

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, plus a PNG and a text summary for wherever the widget cannot run."""
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = self.summary()
        bundle["image/png"] = base64.b64encode(self.image.value).decode("ascii")
        return bundle
