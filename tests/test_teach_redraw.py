"""tinygrad_edu.teach: the fast redraw (blitting moving artists over a kept background) shows exactly the picture
a full render of the same state shows, after any sequence of slider moves, including the moves that change the
background and so draw everything again."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from matplotlib.image import imread

import tinygrad_edu as torch
from tinygrad_edu.teach import (
    descent_explorer,
    directional_explorer,
    fit_explorer,
    gradient_field,
    slice_explorer,
    tangent_explorer,
)
from tinygrad_edu.teach._calculus import value_and_grad
from tinygrad_edu.teach._explorer import new_figure, png_bytes

# Tolerance. A moving artist is drawn after every static one, so where it crosses an axes spine (drawn over the
# data in a full render) a few antialiased pixels differ: a handful of pixels, about 1e-5 of the mean. A stale
# artist (a title, a line or a legend entry left at old values) changes hundreds of pixels.
MEAN_TOLERANCE = 1e-3  # mean absolute difference of RGBA values in [0, 1]
PIXEL_FRACTION = 3e-3  # fraction of pixels whose largest channel difference exceeds 0.1


def bowl(x, y):
    return x**2 + 3 * y**2


def _pixels(png: bytes) -> np.ndarray:
    return imread(io.BytesIO(png))


def full_render(explorer) -> np.ndarray:
    """The current values drawn from scratch on a new figure and saved the ordinary way."""
    figure = new_figure(explorer.width, explorer.height, explorer.dpi)
    with np.errstate(all="ignore"):
        explorer._draw(figure, explorer.values)
    return _pixels(png_bytes(figure))


def difference(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    assert a.shape == b.shape
    d = np.abs(a - b)
    return float(d.mean()), float((d.max(axis=-1) > 0.1).mean())


def assert_same_picture(a: np.ndarray, b: np.ndarray) -> None:
    mean, fraction = difference(a, b)
    assert mean < MEAN_TOLERANCE and fraction < PIXEL_FRACTION, (mean, fraction)


CASES = {
    "tangent": (lambda: tangent_explorer(lambda x: x**3 - 2 * x, x0=1.0, h=1.0),
                # x0 + h beyond x_range widens the axes (full draw); h = 0 removes the secant (full draw)
                [{"x0": 0.5}, {"x0": 2.9, "h": 1.5}, {"h": 0.0}, {"x0": -1.0, "h": 0.7}]),
    "slice": (lambda: slice_explorer(lambda x, y: x**2 * y + torch.sin(y), x0=0.3, y0=-1.2),
              [{"x0": 1.2}, {"x0": -2.0, "y0": 1.9}]),
    "directional": (lambda: directional_explorer(bowl, point=(1.0, 0.5), angle=30),
                    [{"angle": 120}, {"angle": 359}]),
    # with n = 2 the arrows are the corners only: at x = 0 the point is steeper than all (a full draw)
    "field": (lambda: gradient_field(lambda x, y: torch.sin(2 * x) + 0 * y, n=2, point=(1.5, 1.0)),
              [{"x0": 1.0}, {"x0": 0.0, "y0": -0.5}]),
    # at the bottom of the bowl ∇f = 0: no steepest direction, its marks are hidden
    "field_zero": (lambda: gradient_field(bowl, point=(1.0, -0.5)), [{"x0": 0.0, "y0": 0.0}]),
    # the loss panel switches between log and linear scale and follows the losses, diverging or not
    "descent": (lambda: descent_explorer(bowl, lr=0.1),
                [{"lr": 1.0}, {"lr": 2.0, "steps": 200}, {"x0": -1.0, "y0": 0.3, "lr": 0.05}]),
    "descent_linear": (lambda: descent_explorer(lambda x, y: x * y + x**2, start=(1.0, -1.5), lr=0.1),
                       [{"lr": 0.3, "steps": 3}]),
    "fit": (lambda: fit_explorer(torch.tensor([1.0, 2.0, 3.0, 4.0]), torch.tensor([2.1, 3.9, 6.2, 7.8]), w=0.5),
            [{"w": 1.2}, {"w": 4.2}]),
}


@pytest.mark.parametrize("case", CASES)
def test_fast_redraw_shows_what_a_full_render_shows(case: str) -> None:
    make, moves = CASES[case]
    e = make()
    assert_same_picture(_pixels(e.image.value), full_render(e))
    for move in moves:
        before = _pixels(e.image.value)
        e.update(**move)
        now = full_render(e)
        assert_same_picture(_pixels(e.image.value), now)
        mean, fraction = difference(before, now)  # the tolerance does tell different states apart
        assert mean > MEAN_TOLERANCE or fraction > PIXEL_FRACTION, (move, mean, fraction)
    # the figure itself, saved the ordinary way, and the PNG of the notebook output show the same state
    assert_same_picture(_pixels(png_bytes(e.figure)), now)
    assert base64.b64decode(e._repr_mimebundle_()["image/png"]) == bytes(e.image.value)


def test_a_move_within_the_background_draws_only_the_moving_artists() -> None:
    e = tangent_explorer(lambda x: x**2, x0=1.0, h=0.5)

    def no_full_draw(*args):
        raise AssertionError("the whole figure was drawn again")

    full_draw = e._draw
    e._draw = no_full_draw
    e.update(x0=0.5)
    e.controls["h"].value = -0.25
    assert e.values["x0"] == 0.5 and e.values["h"] == -0.25
    e._draw = full_draw
    drawn = []
    e._draw = lambda figure, values: drawn.append(values["h"]) or full_draw(figure, values)
    e.update(h=0.0)  # no secant now: the background changes, so the figure is drawn again
    assert drawn == [0.0]
    assert [t.get_text() for t in e.figure.axes[0].get_legend().get_texts()] == [
        "f", "tangent, slope f'(x0) = 1"]


def test_fallbacks_happen_where_the_background_changes() -> None:
    # the arrows are at the corners only, x = ±2: the steepest has |∇f| = 2 |cos 4| = 1.31
    field = gradient_field(lambda x, y: torch.sin(2 * x) + 0 * y, n=2, point=(1.0, 1.0))
    low, high = field.figure.axes[1].get_ylim()
    assert high == pytest.approx(1.1 * 2 * abs(np.cos(4.0)))
    field.update(x0=1.1)  # |∇f| = 2 |cos 2.2| = 1.18: the same scale
    assert field.figure.axes[1].get_ylim() == (low, high)
    field.update(x0=0.0)  # |∇f| = 2: steeper than every arrow, the slopes panel widens (a full draw)
    assert field.figure.axes[1].get_ylim() == pytest.approx((-2.2, 2.2))
    tangent = tangent_explorer(lambda x: x**2, x0=2.5, h=0.25)
    assert tangent.figure.axes[0].get_xlim() == (-3.0, 3.0)
    tangent.update(h=1.5)
    assert tangent.figure.axes[0].get_xlim() == (-3.0, 4.0)


def test_descent_losses_are_f_along_the_path() -> None:
    for lr, steps in ((0.1, 20), (2.0, 200), (0.3, 0)):
        e = descent_explorer(bowl, lr=lr, steps=max(steps, 1))
        path, losses = e.values["path"], e.values["losses"]
        assert len(losses) == len(path)
        assert losses == [value_and_grad(bowl, p)[0] for p in path]
