"""Adagrad: each coordinate's step shrinks with the sum of its squared gradients so far (PyTorch's rule)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from ._checks import check_values
from ._ops import add, addcdiv_, addcmul_, sqrt
from .optimizer import Optimizer, check_flags


class Adagrad(Optimizer):
    """Adagrad (Duchi, Hazan & Singer, 2011). With g the gradient and t the step number (1, 2, ...)::

        s <- s + g**2                                  the sum of all squared gradients so far
        p <- p - lr_t * g / (sqrt(s) + eps)            lr_t = lr / (1 + (t - 1) * lr_decay)

    A coordinate that has had large gradients takes small steps, a rarely-updated one (a rare word's embedding)
    keeps large ones. s only grows, so the steps only shrink: fine for convex problems, often too fast for deep
    networks (RMSprop and Adam replace the sum by a running mean). Options: ``weight_decay`` adds wd * p to g,
    ``initial_accumulator_value`` is s's starting value, ``maximize`` uses -g. State per parameter: ``step`` and
    ``sum`` (s), created with the optimizer, as in PyTorch.
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0, eps: float = 1e-10,
                 foreach: bool | None = None, *, maximize: bool = False, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        check_values(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                     initial_accumulator_value=initial_accumulator_value, eps=eps)
        check_flags(differentiable)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:  # the state exists from the start (a state_dict shows it before any step)
            for p in group["params"]:
                self._init_state(p, group)

    def _init_state(self, p: Tensor, group: dict[str, Any]) -> None:
        state = self.state[p]
        if not state:
            state["step"] = _wrap(np.array(0.0, dtype=np.float32))
            state["sum"] = _wrap(np.full_like(p._array, group["initial_accumulator_value"]))

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        self._init_state(p, group)  # (a parameter added later, with add_param_group)
        g = -grad if group["maximize"] else grad
        state["step"]._array += 1
        t = float(state["step"]._array)
        if group["weight_decay"] != 0:
            g = add(g, p._array, alpha=group["weight_decay"])
        clr = group["lr"] / (1 + (t - 1) * group["lr_decay"])
        s = state["sum"]._array
        addcmul_(s, g, g, value=1)
        std = sqrt(s)
        std += std.dtype.type(group["eps"])
        addcdiv_(p._array, g, std, value=-clr)  # (-clr * g) / std, PyTorch's order
