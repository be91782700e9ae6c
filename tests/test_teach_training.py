"""tinygrad_edu.teach.training: the loss curves, the live monitor and the decision boundary."""

from __future__ import annotations

import base64
import math

import numpy as np
import pytest

import tinygrad_edu as torch
from tinygrad_edu import nn
from tinygrad_edu.teach.training import (
    TrainingMonitor,
    plot_decision_boundary,
    plot_losses,
    png_bytes,
    predict_classes,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _plotted(figure):
    return [(line.get_xdata().tolist(), line.get_ydata().tolist()) for line in figure.axes[0].get_lines()]


def test_plot_losses_plots_the_losses_given() -> None:
    losses = [2.0, 1.5, torch.tensor(0.75), 0.5]
    (xs, ys), = _plotted(plot_losses(losses))
    assert xs == [0, 1, 2, 3]
    assert ys == [2.0, 1.5, 0.75, 0.5]


def test_plot_losses_several_curves_with_labels_and_gaps() -> None:
    figure = plot_losses({"with zero_grad": [3.0, 2.0], "without": [3.0, math.inf, 1.0]}, log_scale=True)
    (_, y1), (_, y2) = _plotted(figure)
    assert y1 == [3.0, 2.0]
    assert y2[0] == 3.0 and math.isnan(y2[1]) and y2[2] == 1.0  # inf leaves a gap
    assert [t.get_text() for t in figure.axes[0].get_legend().get_texts()] == ["with zero_grad", "without"]
    assert figure.axes[0].get_yscale() == "log"


def test_plot_losses_bad_input() -> None:
    with pytest.raises(ValueError, match="at least one loss"):
        plot_losses([])
    with pytest.raises(TypeError, match="sequence of losses"):
        plot_losses(3.0)
    with pytest.raises(TypeError, match="not str"):
        plot_losses(["a"])
    with pytest.raises(ValueError, match="single number"):
        plot_losses([torch.ones(2)])
    with pytest.raises(ValueError, match="log_scale needs positive losses"):
        plot_losses([1.0, 0.0], log_scale=True)


def test_monitor_records_every_loss_and_redraws_every_k_steps() -> None:
    monitor = TrainingMonitor(total_steps=10, every=4)
    assert monitor.redraws == 1 and monitor.progress.value == 0  # the empty picture, drawn at creation
    losses = [1.0 / (k + 1) for k in range(10)]
    images = []
    for k, loss in enumerate(losses):
        monitor.update(torch.tensor(loss, requires_grad=True) * 1 if k % 2 else loss)
        images.append(bytes(monitor.image.value))
    assert monitor.losses == pytest.approx(losses)
    assert monitor.step == 10
    assert monitor.redraws == 1 + 3  # after steps 4, 8 and the last (10)
    assert images[0] == images[2] != images[3]  # no redraw between k-step marks
    assert monitor.progress.value == 10 and monitor.progress.max == 10
    assert "10/10 steps, loss 0.1 " in monitor.label.value
    (xs, ys), = _plotted(monitor.figure())
    assert ys == pytest.approx(losses) and xs == list(range(10))
    assert bytes(monitor.image.value).startswith(PNG_MAGIC)


def test_monitor_text_and_png_for_frontends_without_widgets() -> None:
    monitor = TrainingMonitor(total_steps=3, every=1)
    assert repr(monitor) == "TrainingMonitor: 0/3 steps, no loss recorded yet"
    for loss in (0.5, 0.25, 0.375):
        monitor.update(loss)
    bundle = monitor._repr_mimebundle_()
    assert bundle["text/plain"] == "TrainingMonitor: 3/3 steps, loss 0.375 (first 0.5, lowest 0.25 at step 1)"
    assert base64.b64decode(bundle["image/png"]) == bytes(monitor.image.value)
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert TrainingMonitor(3).summary() == TrainingMonitor(3).summary()  # no ids, no addresses


def test_monitor_takes_pytorch_losses_too() -> None:
    real_torch = pytest.importorskip("torch")
    monitor = TrainingMonitor(total_steps=3)
    monitor.update(real_torch.tensor(0.5, requires_grad=True) * 2)
    monitor.update(real_torch.tensor([0.25]))
    assert monitor.losses == [1.0, 0.25]
    with pytest.raises(ValueError, match="single number"):
        monitor.update(real_torch.ones(2))


def test_monitor_bad_input() -> None:
    with pytest.raises(ValueError, match="total_steps must be a positive integer"):
        TrainingMonitor(0)
    with pytest.raises(ValueError, match="every must be a positive integer"):
        TrainingMonitor(10, every=0)
    monitor = TrainingMonitor(1)
    with pytest.raises(ValueError, match=r"single number, but got a tensor of shape \[3\]"):
        monitor.update(torch.ones(3))
    with pytest.raises(TypeError, match="not NoneType"):
        monitor.update(None)
    monitor.update(1.0)
    with pytest.raises(RuntimeError, match="all 1 steps were already recorded"):
        monitor.update(1.0)


def _half_plane_model() -> nn.Linear:
    """Class 1 exactly where x0 + x1 > 0 (one logit), or as two scores."""
    model = nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[1.0, 1.0]]))
        model.bias.zero_()
    return model


def test_predict_classes_binary_and_multiclass() -> None:
    points = np.array([[1.0, 1.0], [-1.0, -2.0], [3.0, -1.0]])
    assert predict_classes(_half_plane_model(), points).tolist() == [1, 0, 1]
    three = nn.Linear(2, 3)
    with torch.no_grad():
        three.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]))
        three.bias.zero_()
    assert predict_classes(three, points).tolist() == [0, 2, 0]


def test_plot_decision_boundary_runs_under_no_grad_and_reports_accuracy() -> None:
    model = _half_plane_model()
    seen = []

    def spy(t):
        out = model(t)
        seen.append(out.requires_grad)
        return out

    x = torch.tensor([[1.0, 1.0], [-1.0, -1.0], [2.0, 0.5], [0.5, -2.0]])
    y = torch.tensor([1, 0, 1, 1])  # the last point is on the wrong side
    figure = plot_decision_boundary(spy, x, y, resolution=20)
    assert seen and not any(seen)  # no graph was recorded
    assert model.weight.grad is None
    ax = figure.axes[0]
    assert ax.get_title() == "decision boundary (accuracy 75%)"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["class 0", "class 1"]
    offsets = np.concatenate([c.get_offsets() for c in ax.collections if hasattr(c, "get_sizes") and
                              len(c.get_offsets()) and c.get_offsets().shape[1] == 2 and len(c.get_offsets()) <= 4])
    assert sorted(map(tuple, offsets.tolist())) == sorted(map(tuple, x.tolist()))
    assert png_bytes(figure).startswith(PNG_MAGIC)


def test_plot_decision_boundary_bad_input() -> None:
    model = _half_plane_model()
    with pytest.raises(ValueError, match=r"shape \(N, 2\), but has shape \[4, 3\]"):
        plot_decision_boundary(model, torch.ones(4, 3), torch.zeros(4))
    with pytest.raises(ValueError, match=r"one label per point, shape \(4,\), but has shape \[3\]"):
        plot_decision_boundary(model, torch.ones(4, 2), torch.zeros(3))
    with pytest.raises(ValueError, match="class labels"):
        plot_decision_boundary(model, torch.ones(2, 2), torch.tensor([0.5, 1.0]))
    with pytest.raises(TypeError, match="model must be callable"):
        plot_decision_boundary("model", torch.ones(2, 2), torch.zeros(2))
    with pytest.raises(ValueError, match="one row of scores per point"):
        plot_decision_boundary(lambda t: t.sum(), torch.ones(2, 2), torch.zeros(2))
    with pytest.raises(ValueError, match="resolution must be an integer"):
        plot_decision_boundary(model, torch.ones(2, 2), torch.zeros(2), resolution=1)
