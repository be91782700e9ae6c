"""``Explorer``: the one shape every live picture in ``teach`` has.

An explorer is a column of controls (sliders) above a picture. Moving a control recomputes the numbers the
picture shows (``values``), brings the matplotlib figure (``figure``) up to date and puts it on screen as a PNG
image. The same happens when code calls ``update(x0=2.0)``: a test, or a learner who wants an exact value.
How that stays fast enough to follow a dragged slider is told in :class:`Explorer`.

Figures are made with ``matplotlib.figure.Figure`` and the Agg canvas directly, not with pyplot: pyplot keeps
a global list of open figures and shows them again at the end of a cell; a Figure we own is drawn exactly once,
where we put it.

Without a live kernel (a notebook opened from disk, GitHub, nbconvert) a widget cannot run, so an explorer's
output also carries the PNG of the picture as it was when displayed, and a short text with its numbers.
"""

from __future__ import annotations

import base64
import io
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.image import imsave


def png_bytes(figure: Figure, dpi: float | None = None) -> bytes:
    """The figure as PNG bytes, at its own dpi unless told (without the matplotlib version in the metadata: the
    same bytes everywhere). An Agg canvas is attached if the figure has none, so no pyplot backend is needed."""
    if not isinstance(figure.canvas, FigureCanvasAgg):
        FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi or "figure", metadata={"Software": None})
    return buffer.getvalue()


def canvas_png(canvas: FigureCanvasAgg, compress_level: int = 3) -> bytes:
    """The pixels already rendered on ``canvas`` as PNG bytes, without rendering anything again (``savefig``
    would draw the whole figure first). zlib level 3 instead of 6: half the time for a file a few % larger."""
    buffer = io.BytesIO()
    imsave(buffer, np.asarray(canvas.buffer_rgba()), format="png", dpi=canvas.figure.dpi,
           metadata={"Software": None}, pil_kwargs={"compress_level": compress_level})
    return buffer.getvalue()


def new_figure(width: float, height: float, dpi: int = 80, kind: type[Figure] = Figure) -> Figure:
    """A figure of ``width`` x ``height`` inches, attached to an Agg canvas (so it can be saved), not to pyplot."""
    figure = kind(figsize=(width, height), dpi=dpi)
    FigureCanvasAgg(figure)
    return figure


class PictureFigure(Figure):
    """A static matplotlib Figure that shows itself as a PNG in a notebook (no pyplot needed)."""

    def _repr_png_(self) -> bytes:
        return png_bytes(self)


class Explorer(widgets.VBox):
    """Controls above a picture that redraws when a control moves.

    Subclasses set ``name`` and the figure size, build their controls, call ``super().__init__(controls)``, and
    implement ``_compute`` (the numbers for the current settings), ``_draw`` (the picture of those numbers),
    ``_move`` (bring the moving parts of the picture to new numbers) and ``summary`` (one line of text).

    How a slider move is redrawn fast. Drawing a whole figure and saving it with ``savefig`` costs 0.1 to 0.4 s
    of CPU, mostly text (tick labels, titles) and contours: a dragged slider would lag. But most of a picture
    does not change when a slider moves: the axes, their tick labels, the contour map. So the figure is drawn
    whole once. ``_draw`` returns the artists that move (by name) and the canvas renders everything else, the
    background: artists marked ``animated`` are exactly the ones a plain ``canvas.draw()`` leaves out. Those
    pixels are kept (``copy_from_bbox``). On a slider move ``_move`` updates the moving artists in place
    (``set_data``, ``set_text``, ...); the background pixels are pasted back (``restore_region``), the moving
    artists drawn on top (``draw_artist``, in z-order), and the canvas's pixels encoded as PNG without
    rendering anything again. A moving artist may be a whole Axes, redrawn each time (a loss curve whose
    scale follows the data). When the background itself would change (say the axes limits), ``_layout``
    returns something new and that update draws the whole figure again. The ``animated`` marks last only
    while the background is rendered, so ``figure`` still saves (``savefig``) the complete current picture.

    Attributes:
        controls: the widgets by name, e.g. ``controls["x0"]``: set ``.value`` and the picture follows.
        values: the numbers the current picture shows, e.g. ``{"x0": 1.0, "slope": 2.0}``.
        figure: the matplotlib Figure, showing the current values (one Figure for the explorer's life).
        image: the ``widgets.Image`` showing the figure as PNG.
    """

    name = "explorer"
    width, height, dpi = 8.0, 3.2, 80

    def __init__(self, controls: dict[str, widgets.ValueWidget]) -> None:
        self.controls = dict(controls)
        self.image = widgets.Image(format="png")
        self.values: dict[str, Any] = {}
        self.figure: Figure = new_figure(self.width, self.height, self.dpi)
        self._holding = False  # True while update() sets several controls: redraw once, at the end
        self._moving: dict[str, Artist] | None = None  # the artists _move updates; None: nothing drawn yet
        self._layout_drawn: Any = None  # what _layout said when the background was drawn
        self._background: Any = None  # the background's pixels (an Agg BufferRegion)
        for control in self.controls.values():
            control.style.description_width = "initial"
            control.observe(self._on_change, names="value")
        super().__init__([widgets.HBox(list(self.controls.values()), layout=widgets.Layout(flex_flow="row wrap")),
                          self.image])
        self.redraw()

    def update(self, **new_values: float) -> None:
        """Set controls by name, e.g. ``update(x0=2.0, h=0.1)``, and redraw once, exactly as dragging would."""
        for key, value in new_values.items():
            if key not in self.controls:
                raise TypeError(f"{self.name} has no control named {key!r}; its controls are "
                                f"{', '.join(self.controls)}")
            self._check_value(key, value)
        self._holding = True
        try:
            for key, value in new_values.items():
                self.controls[key].value = value
        finally:
            self._holding = False
        self.redraw()

    def _check_value(self, key: str, value: float) -> None:
        """A slider silently clamps a value outside its range: refuse it instead, saying what the range is."""
        control = self.controls[key]
        if not isinstance(value, (int, float, np.number)) or isinstance(value, bool):
            raise TypeError(f"{key} must be a number; got {value!r}")
        low, high = control.min, control.max
        if isinstance(control, widgets.FloatLogSlider):
            low, high = control.base ** low, control.base ** high
        if not low <= value <= high:
            raise ValueError(f"{key} = {value:g} is outside the slider's range ({low:g}, {high:g})")

    def _on_change(self, change: dict[str, Any]) -> None:
        if not self._holding:
            self.redraw()

    def redraw(self) -> None:
        """Recompute ``values`` from the controls, bring ``figure`` up to date and show it."""
        settings = {key: control.value for key, control in self.controls.items()}
        with np.errstate(all="ignore"):  # nan/inf where f is undefined: drawn as gaps, not warned about
            values = self._compute(**settings)
            layout = self._layout(values)
            if self._moving is None or layout != self._layout_drawn:
                self._draw_background(values)
                self._layout_drawn = layout
            else:
                self._move(self._moving, values)
            picture = self._blit()
        self.values = values
        self.image.value = picture

    def _draw_background(self, values: dict[str, Any]) -> None:
        """Draw the whole picture anew; render and keep everything but the moving artists."""
        self.figure.clear()
        self._moving = self._draw(self.figure, values)
        for artist in self._moving.values():
            artist.set_animated(True)
        self.figure.canvas.draw()
        self._background = self.figure.canvas.copy_from_bbox(self.figure.bbox)
        for artist in self._moving.values():  # unmarked again: savefig(figure) leaves out animated Axes
            artist.set_animated(False)

    def _blit(self) -> bytes:
        """The background, the moving artists on top (lowest zorder first, as Axes.draw orders), as PNG."""
        canvas = self.figure.canvas
        canvas.restore_region(self._background)
        for artist in sorted(self._moving.values(), key=lambda a: a.get_zorder()):
            self.figure.draw_artist(artist)
        return canvas_png(canvas)

    def _compute(self, **settings: Any) -> dict[str, Any]:
        """The numbers the picture shows, from the controls' current settings (each explorer defines this)."""
        raise NotImplementedError(f"{type(self).__name__} must define _compute")

    def _draw(self, figure: Figure, values: dict[str, Any]) -> dict[str, Artist]:
        """Draw ``values`` on the empty ``figure``; return the artists that ``_move`` updates, by name, in the
        order they were drawn (each explorer defines this)."""
        raise NotImplementedError(f"{type(self).__name__} must define _draw")

    def _move(self, moving: dict[str, Artist], values: dict[str, Any]) -> None:
        """Bring the moving artists (from ``_draw``) to ``values``, in place (each explorer defines this)."""
        raise NotImplementedError(f"{type(self).__name__} must define _move")

    def _layout(self, values: dict[str, Any]) -> Any:
        """What the background depends on beyond the explorer's fixed settings (axes limits that follow the
        values, a set of panels that appear or not). When it changes, the whole figure is drawn again."""
        return None

    def summary(self) -> str:
        """One line with the current numbers, rounded (the text a notebook stores and nbval compares)."""
        raise NotImplementedError(f"{type(self).__name__} must define summary")

    def __repr__(self) -> str:
        return self.summary()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The widget, plus the picture as PNG and its numbers as text for wherever the widget cannot run."""
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["image/png"] = base64.b64encode(self.image.value).decode("ascii")
        bundle["text/plain"] = self.summary()
        return bundle
