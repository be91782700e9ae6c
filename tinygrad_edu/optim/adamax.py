"""Adamax: Adam with the infinity norm in place of the root mean square (PyTorch's rule)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor
from ._checks import check_values
from ._ops import addcdiv_, lerp_
from .optimizer import Optimizer, begin_step, check_flags


class Adamax(Optimizer):
    """Adamax (Kingma & Ba, 2015, section 7). With g the gradient and t the step number::

        m <- b1 * m + (1 - b1) * g
        u <- max(b2 * u, |g| + eps)             a decaying maximum of |g| (Adam's v with p = infinity)
        p <- p - lr / (1 - b1**t) * m / u

    u needs no bias correction: a maximum is not pulled towards its zero start. State per parameter: ``step``,
    ``exp_avg`` (m) and ``exp_inf`` (u).
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 foreach: bool | None = None, *, maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        check_values(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        check_flags(differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        (b1, b2), eps = group["betas"], group["eps"]
        g, t = begin_step(p, grad, state, group, "exp_avg", "exp_inf")
        m, u = state["exp_avg"]._array, state["exp_inf"]._array
        lerp_(m, g, 1 - b1)
        u *= u.dtype.type(b2)
        np.maximum(u, np.abs(g) + u.dtype.type(eps), out=u)
        addcdiv_(p._array, m, u, value=-(group["lr"] / (1 - b1**t)))  # (-lr/(1 - b1**t) * m) / u, PyTorch's order
