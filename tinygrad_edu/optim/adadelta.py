"""Adadelta: steps sized by the ratio of recent step sizes to recent gradient sizes (PyTorch's rule)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from .optimizer import Optimizer, check_flags


class Adadelta(Optimizer):
    """Adadelta (Zeiler, 2012). With g the gradient::

        v <- rho * v + (1 - rho) * g**2                  running mean of the squared gradient
        d = sqrt(u + eps) / sqrt(v + eps) * g            the step, in the units of the parameter
        u <- rho * u + (1 - rho) * d**2                  running mean of the squared steps
        p <- p - lr * d

    The ratio of the two running RMS values gives each coordinate its own step size with no learning rate to
    tune (``lr`` = 1 by default only scales it). State per parameter: ``step``, ``square_avg`` (v) and
    ``acc_delta`` (u).
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], lr: float = 1.0, rho: float = 0.9,
                 eps: float = 1e-6, weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False, differentiable: bool = False) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        check_flags(differentiable)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        rho, eps, wd = group["rho"], group["eps"], group["weight_decay"]
        if not state:
            state["step"] = _wrap(np.array(0.0, dtype=np.float32))
            state["square_avg"] = _wrap(np.zeros_like(p._array))
            state["acc_delta"] = _wrap(np.zeros_like(p._array))
        g = -grad if group["maximize"] else grad
        state["step"]._array += 1
        if wd != 0:
            g = g + wd * p._array
        v, u = state["square_avg"]._array, state["acc_delta"]._array
        v *= rho
        v += (1 - rho) * g * g
        delta = np.sqrt(u + eps) / np.sqrt(v + eps) * g
        u *= rho
        u += (1 - rho) * delta * delta
        p._array += -group["lr"] * delta
