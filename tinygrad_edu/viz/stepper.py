"""``BackwardStepper``: a widget to step through backward, one node at a time, as the engine really ran it.

::

    from tinygrad_edu.viz import BackwardStepper
    BackwardStepper(z, params={"x": x})      # the last line of a cell: shows the widget

Play, Prev and Next (or the slider) move between step 0 (before backward) and the last step; each frame is
drawn by :class:`~tinygrad_edu.viz.steps.BackwardFilm` from a recording of the real backward pass.

Without a live kernel (a notebook opened from disk, rendered on GitHub or by nbconvert) the widget cannot
run, so its output also carries a plain SVG picture of the frame shown when it was displayed: frontends that
do not render widgets show that. (JupyterLab restores the widget itself from the widget state saved in the
notebook, once a kernel is connected.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from .._tensor import Tensor
from .steps import BackwardFilm


class BackwardStepper(widgets.VBox):
    """Run ``backward`` on ``output`` and step through what the engine did.

    Args:
        output: the tensor (or tuple of tensors) to call backward on. Backward really runs (once, now):
            afterwards the leaves' ``.grad`` hold its result, as after ``output.backward(...)``.
        gradient, retain_graph, inputs: as in ``output.backward(gradient, retain_graph, inputs=inputs)``.
        params: names for the leaves, e.g. ``{"x": x}``, ``dict(model.named_parameters())`` or ``locals()``.
        interval: milliseconds per step when playing.

    Attributes: ``film`` (the recording: ``film.steps``, ``film.diagram(k)``), and the controls ``slider``,
    ``play``, ``prev_button``, ``next_button``; ``view`` is the HTML widget showing the current frame.
    """

    def __init__(self, output: Tensor | Sequence[Tensor], gradient: Tensor | Sequence[Tensor] | None = None,
                 retain_graph: bool | None = None, inputs: Tensor | Sequence[Tensor] | None = None,
                 params: Mapping[str, Any] | None = None, interval: int = 1500) -> None:
        self.film = BackwardFilm(output, gradient, retain_graph, inputs, params)
        last = len(self.film)
        self.slider = widgets.IntSlider(value=0, min=0, max=last, description="step")
        self.play = widgets.Play(value=0, min=0, max=last, interval=interval, description="Play")
        self.prev_button = widgets.Button(description="◀ Prev", tooltip="the step before")
        self.next_button = widgets.Button(description="Next ▶", tooltip="the next step")
        self.view = widgets.HTML()
        widgets.link((self.play, "value"), (self.slider, "value"))
        self.prev_button.on_click(lambda _: self._move(-1))
        self.next_button.on_click(lambda _: self._move(+1))
        self.slider.observe(lambda _: self._show(), names="value")
        super().__init__([widgets.HBox([self.play, self.prev_button, self.next_button, self.slider]), self.view])
        self._show()

    @property
    def step(self) -> int:
        """The step shown now (0: before backward)."""
        return self.slider.value

    def _move(self, delta: int) -> None:
        self.slider.value = min(max(self.slider.value + delta, 0), self.slider.max)

    def _show(self) -> None:
        k = self.slider.value
        self.view.value = self.film.html(k)
        self.prev_button.disabled = k == 0
        self.next_button.disabled = k == self.slider.max

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The widget, plus a picture of the current step for wherever the widget cannot run."""
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = (f"BackwardStepper: {len(self.film)} steps of backward, showing step {self.step} "
                                "(run the notebook to step through them)")
        picture = self.film.html(self.step)
        if picture.startswith("<svg"):
            bundle["image/svg+xml"] = picture
        else:  # no dot: the install hint and DOT text
            bundle["text/html"] = picture
        return bundle
