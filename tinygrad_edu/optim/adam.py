"""Adam: gradient descent with a per-coordinate step size (PyTorch's rule)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from .optimizer import Optimizer, check_flags


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
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        check_flags(differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused, "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        lr, wd, (b1, b2) = group["lr"], group["weight_decay"], group["betas"]
        if not state:  # first step for this parameter
            state["step"] = _wrap(np.array(0.0, dtype=np.float32))
            state["exp_avg"] = _wrap(np.zeros_like(p._array))
            state["exp_avg_sq"] = _wrap(np.zeros_like(p._array))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = _wrap(np.zeros_like(p._array))
        g = -grad if group["maximize"] else grad
        state["step"]._array += 1
        t = float(state["step"]._array)
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p._array *= 1 - lr * wd
            else:
                g = g + wd * p._array
        m, v = state["exp_avg"]._array, state["exp_avg_sq"]._array
        m += (1 - b1) * (g - m)  # = b1 * m + (1 - b1) * g, in place
        v *= b2
        v += (1 - b2) * g * g
        if group["amsgrad"]:
            v_max = state["max_exp_avg_sq"]._array
            np.maximum(v_max, v, out=v_max)
            v = v_max
        denom = np.sqrt(v) / math.sqrt(1 - b2**t) + group["eps"]
        p._array -= (lr / (1 - b1**t)) * (m / denom)
