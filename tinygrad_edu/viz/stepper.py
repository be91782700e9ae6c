"""``BackwardStepper``: a widget to step through backward, one node at a time, as the engine really ran it.

::

    from tinygrad_edu.viz import BackwardStepper
    BackwardStepper(z, params={"x": x})      # the last line of a cell: shows the widget

Play, Prev and Next (or the slider) move between step 0 (before backward) and the last step; each frame is
drawn by :class:`~tinygrad_edu.viz.steps.BackwardFilm` from a recording of the real backward pass.

Play stops at the last step; Prev, Next or a move of the slider stop it where the learner put it.

Without a live kernel (a notebook opened from disk, rendered on GitHub or by nbconvert) the widget cannot
run, so its output also carries a picture of the frame shown when it was displayed, as SVG and PNG: frontends
that do not render widgets show that, and so does JupyterLab in a notebook it does not trust. (In a trusted
notebook JupyterLab restores the widget itself from the widget state saved in the notebook.)
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
        self.play.observe(self._on_play, names="value")
        self.slider.observe(self._on_slider, names="value")
        self.prev_button.on_click(lambda _: self._move(-1))
        self.next_button.on_click(lambda _: self._move(+1))
        super().__init__([widgets.HBox([self.play, self.prev_button, self.next_button, self.slider]), self.view])
        self._show()

    @property
    def step(self) -> int:
        """The step shown now (0: before backward)."""
        return self.slider.value

    # Play ticks in the browser: every `interval` ms it adds 1 to its value until a tick finds it at the end. Left
    # to itself, it would still be playing during the last interval, and a Prev pressed then would be undone by
    # that tick. So Play stops as soon as it shows the last step, and any move of the learner's stops it too.

    def _on_play(self, change: dict[str, Any]) -> None:
        """A tick of Play: show its step; at the last one, stop."""
        self.slider.value = change["new"]
        if change["new"] >= self.slider.max:
            self.play.playing = False

    def _on_slider(self, change: dict[str, Any]) -> None:
        """The slider moved: by Play (the values agree), or by the learner, which stops Play there."""
        if change["new"] != self.play.value:
            self.play.playing = False
            self.play.value = change["new"]  # (Play starts from here next time)
        self._show()

    def _move(self, delta: int) -> None:
        self.play.playing = False
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
        if picture.startswith("<svg"):  # as SVG, and as PNG for an untrusted notebook (see viz.diagram.FORMATS)
            bundle["image/svg+xml"] = picture
            png = self.film.diagram(self.step)._repr_mimebundle_(include=["image/png"]).get("image/png")
            if png is not None:
                bundle["image/png"] = png
        else:  # no dot: the install hint and DOT text
            bundle["text/html"] = picture
        return bundle
