"""Stochastic gradient descent, with momentum, Nesterov momentum and weight decay (PyTorch's rule)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from ._ops import add, add_
from .optimizer import Optimizer, check_flags


class SGD(Optimizer):
    """Gradient descent: ``p <- p - lr * d``, where d is the gradient g, possibly modified as follows
    (in this order; ``b`` is the momentum buffer, kept per parameter in ``state[p]["momentum_buffer"]``):

    ===================  ==================================================================
    maximize             g <- -g                      (climb instead of descend)
    weight_decay = wd    g <- g + wd * p              (the gradient of wd/2 * |p|^2: pulls p to 0)
    momentum = m         b <- g on the first step, then b <- m * b + (1 - dampening) * g
                         d <- b                       (a running sum of past gradients)
    nesterov             d <- g + m * b               (look ahead along the momentum)
    ===================  ==================================================================
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], lr: float = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, differentiable: bool = False, fused: bool | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        check_flags(differentiable)
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach, "differentiable": differentiable,
                    "fused": fused}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        # PyTorch's operations, in its order (see ._ops; the last bit follows the order)
        d = -grad if group["maximize"] else grad
        if group["weight_decay"] != 0:
            d = add(d, p._array, alpha=group["weight_decay"])  # a new array: p.grad itself is left alone
        m = group["momentum"]
        if m != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = _wrap(np.array(d, copy=True))
            else:
                b = buf._array
                b *= b.dtype.type(m)
                add_(b, d, alpha=1 - group["dampening"])
            d = add(d, buf._array, alpha=m) if group["nesterov"] else buf._array
        add_(p._array, d, alpha=-group["lr"])
