"""RAdam: Adam with its early steps' variance rectified (PyTorch's rule)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor
from ._checks import check_values
from ._ops import sqrt
from .adam import moments
from .optimizer import Optimizer, begin_step, check_flags


class RAdam(Optimizer):
    """RAdam (Liu et al., 2020). Adam's v is a poor estimate over the first steps (few gradients seen), and
    dividing by it makes those steps erratic; RAdam measures how many steps v is worth and, until that is
    enough, takes plain momentum steps::

        rho_inf = 2 / (1 - b2) - 1;   rho_t = rho_inf - 2 t b2**t / (1 - b2**t)
        if rho_t > 5:  p <- p - lr * m_hat * r_t * sqrt(1 - b2**t) / (sqrt(v) + eps)
                       r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
        else:          p <- p - lr * m_hat                         (m_hat = m / (1 - b1**t))

    m and v are Adam's. State per parameter: ``step``, ``exp_avg`` (m) and ``exp_avg_sq`` (v).
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False) -> None:
        check_values(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        check_flags(differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable, "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        lr, (b1, b2), eps = group["lr"], group["betas"], group["eps"]
        g, t = begin_step(p, grad, state, group, "exp_avg", "exp_avg_sq")
        m, v = moments(state, g, b1, b2)
        f = m.dtype.type
        bc1, bc2 = 1 - b1**t, 1 - b2**t
        m_hat = m / f(bc1)
        rho_inf = 2 / (1 - b2) - 1
        rho_t = rho_inf - 2 * t * (b2**t) / bc2
        if rho_t > 5.0:  # v has seen enough gradients: Adam's step, scaled by the rectification r_t
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            denom = sqrt(v)
            denom += f(eps)
            # PyTorch's order: ((m_hat * lr) * (sqrt(bc2) / denom)) * rect, its scalar / tensor being
            # (1 / denom) * scalar
            adaptive = np.reciprocal(denom, out=denom)
            adaptive *= f(bc2**0.5)
            p._array -= ((m_hat * f(lr)) * adaptive) * f(rect)
        else:  # too early to trust v: a momentum step
            p._array -= m_hat * f(lr)
