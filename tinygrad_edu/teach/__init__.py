"""``tinygrad_edu.teach``: live pictures for the mathematics behind autograd.

Each explorer is a widget (sliders above a picture) that redraws as you drag; every derivative it shows is
computed by autograd, from a function you write with tinygrad_edu operations::

    import tinygrad_edu as torch
    from tinygrad_edu.teach import tangent_explorer
    tangent_explorer(lambda x: x**3 - 2 * x, x0=1.0, h=0.5)   # the last line of a cell: shows the widget

* :func:`tangent_explorer`: the derivative as the slope of the tangent, the limit of secant slopes.
* :func:`difference_errors`, :func:`difference_error_plot`: truncation and round-off in finite differences.
* :func:`slice_explorer`: partial derivatives as the slopes of slices of a surface f(x, y).
* :func:`directional_explorer`: the slope along any direction, and the many tangent lines through a point.
* :func:`dual_explorer`: forward mode by hand: values and tangents (dual numbers) travelling through a graph.
* :func:`gradient_field`: the gradient at every point: uphill, steepest, perpendicular to the contours.
* :func:`gradient_descent`, :func:`descent_explorer`: walking against the gradient to the bottom of a loss.
* :func:`fit_explorer`: supervised learning: samples, a one-parameter model, its loss and dL/dw.
* :class:`TrainingMonitor`, :func:`plot_losses`, :func:`plot_decision_boundary`: watching a training loop.

Every explorer has ``controls`` (the widgets by name), ``values`` (the numbers in the picture), ``figure`` (the
matplotlib Figure) and ``update(**settings)``. Opened without a kernel, a notebook still shows the picture as it
was (a PNG) and a line of text with its numbers.
"""

from typing import Any

__all__ = ["TrainingMonitor", "descent_explorer", "difference_error_plot", "difference_errors", "directional_explorer",
           "dual_explorer", "fit_explorer", "gradient_descent", "gradient_field", "plot_decision_boundary",
           "plot_losses", "predict_classes", "slice_explorer", "tangent_explorer"]

# Where each name lives. They are imported on first use: the explorers need ipywidgets and matplotlib, which
# take a while to load, and `import tinygrad_edu.teach` should stay instant.
_HOMES = {
    "TangentExplorer": "derivative",
    "difference_error_plot": "derivative",
    "difference_errors": "derivative",
    "tangent_explorer": "derivative",
    "DirectionalExplorer": "multivariable",
    "GradientField": "multivariable",
    "SliceExplorer": "multivariable",
    "directional_explorer": "multivariable",
    "gradient_field": "multivariable",
    "slice_explorer": "multivariable",
    "DualExplorer": "dual",
    "dual_explorer": "dual",
    "DescentExplorer": "descent",
    "FitExplorer": "descent",
    "descent_explorer": "descent",
    "fit_explorer": "descent",
    "gradient_descent": "descent",
    "TrainingMonitor": "training",
    "plot_decision_boundary": "training",
    "plot_losses": "training",
    "predict_classes": "training",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
