"""Dual numbers, live: a value and its tangent travel forward through a small graph (:func:`dual_explorer`).

Forward mode carries, beside every value v, its tangent v̇: how fast v moves when the inputs move along a
direction u. Each operation computes its output's tangent from its inputs' values and tangents, at the same time
as the value, by its own derivative rule (the chain rule, applied forward): ȧ = ẋ₁·x₂ + x₁·ẋ₂ for a = x₁·x₂.
The tangent reaching the output is the directional derivative D_u f = ∇f · u (lesson 02), found without ever
forming the gradient and without recording a graph.

The picture is the forward graph of f(x₁, x₂) = sin(x₁·x₂) + x₁, drawn as the backward diagrams are (tensors in
boxes, operations in ovals) but read left to right: each box shows its value and its tangent, each oval the rule
that makes its output's tangent. The numbers come from ``autograd.forward_ad`` (a dual level, make_dual,
unpack_dual), and the output's tangent is checked against ∇f · u from a backward pass.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from .. import _creation
from .._dtype import float64
from ..autograd import forward_ad
from ..autograd.engine import grad
from ._calculus import check_inside, fmt
from ._explorer import Explorer

LEAF, OUTPUT = "#add8e6", "#caff70"  # the diagrams' colours (graphviz's lightblue, darkolivegreen1): leaves, root
# The graph: name -> (position, what it is); the ops: (inputs, output, label, tangent rule, position)
BOXES = {"x1": (0.0, 1.25), "x2": (0.0, 0.0), "a": (2.6, 0.62), "b": (5.0, 0.62), "y": (7.4, 1.25)}
OPS = [(("x1", "x2"), "a", "×", "ȧ = ẋ₁·x₂ + x₁·ẋ₂", (1.3, 0.62)),
       (("a",), "b", "sin", "ḃ = cos(a)·ȧ", (3.8, 0.62)),
       (("b", "x1"), "y", "+", "ẏ = ḃ + ẋ₁", (6.2, 1.25))]
LABELS = {"x1": "x₁", "x2": "x₂", "a": "a = x₁·x₂", "b": "b = sin(a)", "y": "y = b + x₁"}


def _f(x1: Any, x2: Any) -> dict[str, Any]:
    """The graph's tensors, by name."""
    a = x1 * x2
    b = a.sin()
    return {"x1": x1, "x2": x2, "a": a, "b": b, "y": b + x1}


class DualExplorer(Explorer):
    """Values and tangents through the forward graph of f(x₁, x₂) = sin(x₁·x₂) + x₁ (made by
    :func:`dual_explorer`). Controls: the point (x1, x2) and the direction's angle (u = (cos θ, sin θ))."""

    name = "dual_explorer"
    width, height = 10.0, 3.0

    def __init__(self, x1: float = 1.0, x2: float = 0.5, angle: float = 0.0) -> None:
        x1 = check_inside("x1", x1, (-2.0, 2.0), "-2 to 2")
        x2 = check_inside("x2", x2, (-2.0, 2.0), "-2 to 2")
        angle = check_inside("angle", angle, (0.0, 360.0), "0 to 360 degrees")
        super().__init__({
            "x1": widgets.FloatSlider(value=x1, min=-2.0, max=2.0, step=0.05, description="x1"),
            "x2": widgets.FloatSlider(value=x2, min=-2.0, max=2.0, step=0.05, description="x2"),
            "angle": widgets.FloatSlider(value=angle, min=0.0, max=360.0, step=1.0, description="angle of u",
                                         readout_format=".0f")})

    def _compute(self, x1: float, x2: float, angle: float) -> dict[str, Any]:
        theta = np.deg2rad(angle)
        u = (round(float(np.cos(theta)), 12), round(float(np.sin(theta)), 12))  # (cos 90° is 0, not 6e-17)
        point = [_creation.tensor(x1, dtype=float64), _creation.tensor(x2, dtype=float64)]
        with forward_ad.dual_level():  # forward mode: one pass, tangents beside the values
            duals = [forward_ad.make_dual(p, _creation.tensor(d, dtype=float64)) for p, d in zip(point, u)]
            pairs = {name: forward_ad.unpack_dual(t) for name, t in _f(*duals).items()}
        values = {name: float(p.primal) for name, p in pairs.items()}
        tangents = {name: float(p.tangent) for name, p in pairs.items()}
        xs = [p.detach().requires_grad_(True) for p in point]  # reverse mode, to check: ∇f · u
        gradient = [float(g) for g in grad(_f(*xs)["y"], xs)]
        return {"x1": x1, "x2": x2, "angle": angle, "u": u, "value": values, "tangent": tangents,
                "grad": tuple(gradient), "grad_dot_u": gradient[0] * u[0] + gradient[1] * u[1]}

    def _draw(self, figure: Figure, v: dict[str, Any]) -> dict[str, Artist]:
        ax = figure.add_axes((0, 0, 1, 1))
        ax.set_xlim(-0.9, 8.3)
        ax.set_ylim(-0.55, 1.95)
        ax.axis("off")
        moving: dict[str, Artist] = {}
        for inputs, output, symbol, rule, (ox, oy) in OPS:
            for name in inputs:  # (from the box's right edge to the oval)
                bx, by = BOXES[name]
                ax.add_patch(FancyArrowPatch((bx + 0.75, by), (ox, oy), arrowstyle="-|>", mutation_scale=10,
                                             shrinkA=0, shrinkB=12, color="0.35",
                                             connectionstyle="arc3,rad=-0.2" if (name, output) == ("x1", "y")
                                             else "arc3"))
            bx, by = BOXES[output]  # (from the oval to the result's left edge)
            ax.add_patch(FancyArrowPatch((ox, oy), (bx - 0.75, by), arrowstyle="-|>", mutation_scale=10, shrinkA=12,
                                         shrinkB=0, color="0.35"))
            ax.text(ox, oy, symbol, ha="center", va="center", fontsize=11,
                    bbox={"boxstyle": "ellipse", "facecolor": "white", "edgecolor": "0.35"})
            ax.text(ox, oy - 0.32, rule, ha="center", va="top", fontsize=8, color="C3")
        for name, (bx, by) in BOXES.items():
            color = LEAF if name in ("x1", "x2") else OUTPUT if name == "y" else "white"
            ax.add_patch(FancyBboxPatch((bx - 0.75, by - 0.3), 1.5, 0.6, boxstyle="round,pad=0.02",
                                        facecolor=color, edgecolor="0.35"))
            ax.text(bx, by + 0.17, LABELS[name], ha="center", va="center", fontsize=8.5)
            moving[f"{name}_value"] = ax.text(bx, by - 0.02, "", ha="center", va="center", fontsize=8.5)
            moving[f"{name}_tangent"] = ax.text(bx, by - 0.19, "", ha="center", va="center", fontsize=8.5,
                                                color="C3")
        moving["caption"] = ax.text(4.0, -0.5, "", ha="center", va="bottom", fontsize=9)
        self._move(moving, v)
        return moving

    def _move(self, moving: dict[str, Artist], v: dict[str, Any]) -> None:
        for name in BOXES:
            moving[f"{name}_value"].set_text(f"value {fmt(v['value'][name])}")
            moving[f"{name}_tangent"].set_text(f"tangent {fmt(v['tangent'][name])}")
        moving["caption"].set_text(f"u = ({fmt(v['u'][0])}, {fmt(v['u'][1])}): the tangent of y is D_u f = "
                                   f"{fmt(v['tangent']['y'])};  ∇f · u from a backward pass = "
                                   f"{fmt(v['grad_dot_u'])}")

    def summary(self) -> str:
        v = self.values
        agree = "they agree" if np.isclose(v["tangent"]["y"], v["grad_dot_u"]) else "they DIFFER"
        return (f"{self.name}: at (x1, x2) = ({fmt(v['x1'])}, {fmt(v['x2'])}) along u = ({fmt(v['u'][0])}, "
                f"{fmt(v['u'][1])}): y = {fmt(v['value']['y'])}, tangent of y = {fmt(v['tangent']['y'])} (forward "
                f"mode) = ∇f · u = {fmt(v['grad_dot_u'])} (reverse mode): {agree} (drag x1, x2 and the angle)")


def dual_explorer(x1: float = 1.0, x2: float = 0.5, angle: float = 0.0) -> DualExplorer:
    """A widget: drag the point (x1, x2) and the direction's angle, and see each value of f(x₁, x₂) = sin(x₁·x₂) +
    x₁ and its tangent (forward mode) travel through the graph, the output's tangent equal to ∇f · u."""
    return DualExplorer(x1, x2, angle)
