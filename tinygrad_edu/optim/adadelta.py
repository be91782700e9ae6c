"""Adadelta: steps sized by the ratio of recent step sizes to recent gradient sizes (PyTorch's rule)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor
from ._checks import check_values
from ._ops import add_, addcmul_, sqrt
from .optimizer import Optimizer, begin_step, check_flags


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
        check_values(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay)
        check_flags(differentiable)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        rho, eps = group["rho"], group["eps"]
        g, _ = begin_step(p, grad, state, group, "square_avg", "acc_delta")
        v, u = state["square_avg"]._array, state["acc_delta"]._array
        f = v.dtype.type
        v *= f(rho)
        addcmul_(v, g, g, value=1 - rho)
        delta = sqrt(u + f(eps))
        delta /= sqrt(v + f(eps))  # (sqrt(u + eps) / sqrt(v + eps)) * g, PyTorch's order
        delta *= g
        u *= f(rho)
        addcmul_(u, delta, delta, value=1 - rho)
        add_(p._array, delta, alpha=-group["lr"])
