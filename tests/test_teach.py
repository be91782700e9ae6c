"""tinygrad_edu.teach: the numbers each picture shows are the true derivatives, and the widgets redraw."""

from __future__ import annotations

import base64
import math
import warnings

import numpy as np
import pytest

import tinygrad_edu as torch
from tinygrad_edu import teach
from tinygrad_edu.teach import (
    descent_explorer,
    difference_error_plot,
    difference_errors,
    directional_explorer,
    fit_explorer,
    gradient_descent,
    gradient_field,
    slice_explorer,
    tangent_explorer,
)


def bowl(x, y):
    return x**2 + 3 * y**2


def test_tangent_slope_is_the_derivative_and_the_secant_is_the_difference_quotient() -> None:
    e = tangent_explorer(lambda x: x**3, x0=2.0, h=0.5)
    assert e.values["slope"] == pytest.approx(12.0)
    assert e.values["f_x0"] == pytest.approx(8.0)
    assert e.values["secant_slope"] == pytest.approx((2.5**3 - 8.0) / 0.5)
    assert e.summary() == ("tangent_explorer: f'(2) = 12 (autograd); secant slope with h = 0.5: 15.25 "
                           "(drag x0 and h to explore)")
    e.update(x0=1.0, h=-0.01)
    assert e.values["slope"] == pytest.approx(3.0)
    assert e.values["secant_slope"] == pytest.approx((0.99**3 - 1.0) / -0.01)


def test_tangent_of_sin_and_of_a_kink_as_autograd_gives_them() -> None:
    e = tangent_explorer(torch.sin, x0=0.7)
    assert e.values["slope"] == pytest.approx(math.cos(0.7))
    kink = tangent_explorer(torch.abs, x0=0.0, h=-0.5)
    assert kink.values["slope"] == 0.0 and kink.values["secant_slope"] == pytest.approx(-1.0)


def test_moving_a_slider_redraws_and_update_does_too() -> None:
    e = tangent_explorer(lambda x: x**2, x0=1.0)
    before, figure = e.image.value, e.figure
    e.controls["x0"].value = -1.5
    assert e.values["x0"] == -1.5 and e.values["slope"] == pytest.approx(-3.0)
    assert e.image.value != before and e.figure is figure  # one figure, brought up to date in place
    before = e.image.value
    e.update(h=0.25)
    assert e.values["h"] == 0.25 and e.image.value != before


def test_mimebundle_has_the_widget_the_png_and_the_text() -> None:
    e = slice_explorer(bowl)
    bundle = e._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert base64.b64decode(bundle["image/png"]).startswith(b"\x89PNG")
    assert bundle["text/plain"] == ("slice_explorer: at (x0, y0) = (0.5, 0.5), f = 1; ∂f/∂x = 1, ∂f/∂y = 3 "
                                    "(autograd) (drag x0 and y0 to explore)")


def test_slice_partials_are_the_analytic_ones() -> None:
    e = slice_explorer(lambda x, y: x**2 * y + torch.sin(y), x0=0.3, y0=-1.2)
    assert e.values["df_dx"] == pytest.approx(2 * 0.3 * -1.2)
    assert e.values["df_dy"] == pytest.approx(0.3**2 + math.cos(-1.2))
    e.controls["y0"].value = 1.0
    assert e.values["df_dx"] == pytest.approx(0.6)


def test_directional_derivative_equals_grad_dot_u_for_many_angles() -> None:
    e = directional_explorer(lambda x, y: x * y + y**3, point=(0.5, -0.7))
    grad = np.array([-0.7, 0.5 + 3 * 0.49])
    for angle in range(0, 361, 15):  # the numbers alone (what a redraw computes), without drawing each
        values = e._compute(angle=float(angle))
        u = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
        assert values["u"] == pytest.approx(tuple(u))
        assert values["directional"] == pytest.approx(grad @ u, abs=1e-12)
        assert values["grad_dot_u"] == pytest.approx(grad @ u, abs=1e-12)
    before = e.image.value
    e.controls["angle"].value = 135.0
    u = np.array([-math.sqrt(0.5), math.sqrt(0.5)])
    assert e.values["directional"] == pytest.approx(grad @ u) and e.image.value != before
    assert "they agree" in e.summary()


def test_gradient_field_arrows_are_the_analytic_gradient() -> None:
    e = gradient_field(bowl, n=9, point=(1.0, -0.5))
    field = e.field
    np.testing.assert_allclose(field["dx"], 2 * field["X"])
    np.testing.assert_allclose(field["dy"], 6 * field["Y"])
    assert e.values["grad"] == pytest.approx((2.0, -3.0)) and e.values["norm"] == pytest.approx(math.hypot(2, 3))
    before = e.image.value
    e.controls["x0"].value = 0.0
    assert e.values["grad"] == pytest.approx((0.0, -3.0)) and e.image.value != before


def test_gradient_descent_converges_with_small_lr_and_diverges_with_large() -> None:
    path = gradient_descent(bowl, (1.5, 1.5), lr=0.05, steps=200)
    assert len(path) == 201 and np.allclose(path[-1], (0.0, 0.0), atol=1e-6)
    assert path[1] == pytest.approx((1.5 - 0.05 * 3.0, 1.5 - 0.05 * 9.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy overflow warnings leak
        e = descent_explorer(bowl, lr=0.1)
        assert not e.values["diverged"] and e.values["losses"][-1] < 1e-3
        e.update(lr=1.0)
        assert e.values["diverged"] and "DIVERGED" in e.summary()
        e.update(lr=2.0, steps=200)
        assert e.values["diverged"] and len(e.values["path"]) < 201


def test_fit_best_w_is_the_least_squares_slope() -> None:
    x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    y = torch.tensor([2.1, 3.9, 6.2, 7.8])
    e = fit_explorer(x, y)
    xs, ys = x.numpy().astype(float), y.numpy().astype(float)
    assert e.values["w_best"] == pytest.approx((xs @ ys) / (xs @ xs))
    assert e.values["loss"] == pytest.approx(np.mean(ys**2))
    assert e.values["dloss_dw"] == pytest.approx(-2 * np.mean(xs * ys))
    e.update(w=1.0)
    assert e.values["dloss_dw"] == pytest.approx(np.mean(2 * (xs - ys) * xs))


def test_difference_errors_truncation_and_round_off() -> None:
    errors = difference_errors(torch.sin, 1.0, hs=[1e-3, 1e-15])
    assert errors["exact"] == pytest.approx(math.cos(1.0))
    assert errors["central"][0] < errors["forward"][0] / 100
    assert errors["forward"][1] > 1e-3 and errors["central"][1] > 1e-3
    figure = difference_error_plot(torch.sin, 1.0)
    assert figure.errors["h"].size == 61 and figure._repr_png_().startswith(b"\x89PNG")


@pytest.mark.parametrize(("make", "match"), [
    (lambda: tangent_explorer(3.0), "must be a function"),
    (lambda: tangent_explorer(lambda x: 1.0), "must return a tinygrad_edu Tensor"),
    (lambda: tangent_explorer(lambda x: x.sum()), "elementwise"),
    (lambda: tangent_explorer(lambda x: x - x.mean()), "elementwise"),
    (lambda: tangent_explorer(lambda x: x, h=0), "h must not be 0"),
    (lambda: tangent_explorer(lambda x: x, x_range=(3, -3)), "low < high"),
    (lambda: tangent_explorer(lambda x: x, x0=5.0), "outside x_range"),
    (lambda: slice_explorer(bowl, xy_range=((-2, 2),)), "two pairs"),
    (lambda: gradient_field(bowl, n=1), "n is the number of arrows"),
    (lambda: gradient_descent(bowl, (1, 1), lr=0, steps=3), "positive"),
    (lambda: fit_explorer(torch.tensor([1.0, 2.0]), torch.tensor([1.0])), "one label per sample"),
])
def test_bad_inputs_raise_clear_errors(make, match) -> None:
    with pytest.raises((TypeError, ValueError), match=match):
        make()


def test_update_refuses_unknown_controls_and_values_off_the_slider() -> None:
    e = tangent_explorer(lambda x: x**2)
    with pytest.raises(TypeError, match="no control named 'y0'"):
        e.update(y0=1.0)
    with pytest.raises(ValueError, match="outside the slider's range"):
        e.update(x0=10.0)


def test_every_public_name_is_reachable() -> None:
    for name in teach.__all__:
        assert callable(getattr(teach, name))


def test_dual_explorer_shows_forward_mode_agreeing_with_reverse_mode() -> None:
    """The dual-numbers widget: each box's tangent is the directional derivative of that value, and the output's
    equals ∇f · u from a backward pass, wherever the point and direction are dragged."""
    from tinygrad_edu.teach import dual_explorer

    explorer = dual_explorer(1.0, 0.5, 30)
    v = explorer.values
    u = (np.cos(np.pi / 6), np.sin(np.pi / 6))
    assert np.isclose(v["tangent"]["a"], u[0] * 0.5 + 1.0 * u[1])  # ȧ = ẋ₁x₂ + x₁ẋ₂
    assert np.isclose(v["tangent"]["y"], v["grad_dot_u"]) and "they agree" in repr(explorer)
    explorer.update(x1=-1.5, x2=2.0, angle=200)
    assert np.isclose(explorer.values["tangent"]["y"], explorer.values["grad_dot_u"])
    with pytest.raises(ValueError, match="outside the slider's range"):
        explorer.update(x1=5.0)
