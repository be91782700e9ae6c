"""NAdam: Adam with Nesterov momentum (PyTorch's rule)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor
from ._checks import check_values
from ._ops import addcdiv_, sqrt
from .adam import moments
from .optimizer import Optimizer, begin_step, check_flags


class NAdam(Optimizer):
    """NAdam (Dozat, 2016): Adam whose step looks one momentum step ahead, as Nesterov's momentum does.
    With g the gradient and t the step number::

        mu_t = b1 * (1 - 0.96**(t * psi) / 2)         the momentum, warmed up (psi = ``momentum_decay``)
        m <- b1 * m + (1 - b1) * g;   v <- b2 * v + (1 - b2) * g**2
        p <- p - lr * [(1 - mu_t) / (1 - prod mu_1..t) * g + mu_{t+1} / (1 - prod mu_1..t+1) * m]
                    / (sqrt(v / (1 - b2**t)) + eps)

    The step mixes the fresh gradient with the momentum of the *next* step. State per parameter: ``step``,
    ``mu_product`` (the product of the mu's so far), ``exp_avg`` (m) and ``exp_avg_sq`` (v).
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 momentum_decay: float = 4e-3, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_values(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay, momentum_decay=momentum_decay)
        check_flags(differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        lr, (b1, b2), eps = group["lr"], group["betas"], group["eps"]
        g, t = begin_step(p, grad, state, group, "exp_avg", "exp_avg_sq", mu_product=np.array(1.0, np.float32))
        psi = group["momentum_decay"]
        mu = b1 * (1.0 - 0.5 * 0.96 ** (t * psi))
        mu_next = b1 * (1.0 - 0.5 * 0.96 ** ((t + 1) * psi))
        state["mu_product"]._array *= np.float32(mu)  # kept as a float32 tensor, as PyTorch keeps it
        mu_product = float(state["mu_product"]._array)
        m, v = moments(state, g, b1, b2)
        denom = sqrt(v / v.dtype.type(1 - b2**t))
        denom += denom.dtype.type(eps)
        # (c * g) / denom, not c * (g / denom): PyTorch's order, which the last bit follows
        addcdiv_(p._array, g, denom, value=-lr * (1.0 - mu) / (1.0 - mu_product))
        addcdiv_(p._array, m, denom, value=(-lr * mu_next) / (1.0 - mu_product * mu_next))
