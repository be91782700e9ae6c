"""Adam: gradient descent with a per-coordinate step size (PyTorch's rule)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor
from ._checks import check_values
from ._ops import addcdiv_, addcmul_, lerp_, sqrt
from .optimizer import Optimizer, begin_step, check_flags


class Adam(Optimizer):
    """Adam (Kingma & Ba, 2015). With g the gradient and t the step number (1, 2, ...)::

        m <- b1 * m + (1 - b1) * g          running mean of the gradient ("first moment")
        v <- b2 * v + (1 - b2) * g**2       running mean of its square ("second moment")
        p <- p - lr / (1 - b1**t) * m / (sqrt(v / (1 - b2**t)) + eps)

    Dividing by sqrt(v) gives every coordinate a step of about ``lr`` whatever its gradient's scale.
    m and v start at 0, so early on they are too small: the ``1 - b**t`` factors undo that bias.
    Options: ``weight_decay`` adds wd * p to g (or, with ``decoupled_weight_decay``, shrinks p by
    lr * wd * p directly: AdamW); ``amsgrad`` divides by the largest v seen so far, so steps never grow
    back; ``maximize`` uses -g. State per parameter: ``step``, ``exp_avg`` (m), ``exp_avg_sq`` (v) and
    ``max_exp_avg_sq``.
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 amsgrad: bool = False, *, foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False, fused: bool | None = None,
                 decoupled_weight_decay: bool = False) -> None:
        check_values(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        check_flags(differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused, "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        lr, (b1, b2) = group["lr"], group["betas"]
        g, t = begin_step(p, grad, state, group, "exp_avg", "exp_avg_sq", *["max_exp_avg_sq"] * group["amsgrad"])
        m, v = moments(state, g, b1, b2)
        if group["amsgrad"]:
            v_max = state["max_exp_avg_sq"]._array
            np.maximum(v_max, v, out=v_max)
            v = v_max
        denom = sqrt(v) / v.dtype.type((1 - b2**t) ** 0.5)
        denom += denom.dtype.type(group["eps"])
        addcdiv_(p._array, m, denom, value=-(lr / (1 - b1**t)))  # (-lr/(1 - b1**t) * m) / denom: PyTorch's order


def moments(state: dict[str, Any], g: np.ndarray, b1: float, b2: float) -> tuple[np.ndarray, np.ndarray]:
    """Adam's running means, updated in place and returned: m of the gradient, v of its square (in PyTorch's
    operations: ``m.lerp_(g, 1 - b1)``, ``v.mul_(b2).addcmul_(g, g, value=1 - b2)``)."""
    m, v = state["exp_avg"]._array, state["exp_avg_sq"]._array
    lerp_(m, g, 1 - b1)  # = b1 * m + (1 - b1) * g, in place
    v *= v.dtype.type(b2)
    addcmul_(v, g, g, value=1 - b2)
    return m, v
