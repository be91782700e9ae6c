"""RMSprop: divide each coordinate's step by a running estimate of its gradient's size (PyTorch's rule)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from ._checks import check_values
from ._ops import add, add_, addcdiv_, addcmul, addcmul_, lerp_, sqrt
from .optimizer import Optimizer, check_flags


class RMSprop(Optimizer):
    """RMSprop (Hinton's lecture notes, 2012). With g the gradient::

        v <- alpha * v + (1 - alpha) * g**2     running mean of the squared gradient
        p <- p - lr * g / (sqrt(v) + eps)

    A coordinate whose gradients are large gets small steps and one whose gradients are tiny gets large
    ones, so every coordinate moves at a similar pace: sqrt(v) is the root mean square ("RMS") of recent
    gradients. It is Adam's second moment without Adam's first moment and bias correction.
    Options: ``weight_decay`` adds wd * p to g; ``centered`` subtracts the square of the running mean of
    g from v (dividing by an estimate of the gradient's variance instead); ``momentum`` = m keeps a buffer
    b <- m * b + g / (sqrt(v) + eps) and steps by lr * b; ``maximize`` uses -g. State per parameter:
    ``step``, ``square_avg`` (v), ``momentum_buffer`` and ``grad_avg`` (the centered mean).
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], lr: float = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        check_values(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        check_flags(differentiable)
        # (In PyTorch's order: state_dict() shows it.)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        alpha, m = group["alpha"], group["momentum"]
        if not state:  # first step for this parameter
            state["step"] = _wrap(np.array(0.0, dtype=np.float32))
            state["square_avg"] = _wrap(np.zeros_like(p._array))
            if m > 0:
                state["momentum_buffer"] = _wrap(np.zeros_like(p._array))
            if group["centered"]:
                state["grad_avg"] = _wrap(np.zeros_like(p._array))
        g = -grad if group["maximize"] else grad
        state["step"]._array += 1
        if group["weight_decay"] != 0:
            g = add(g, p._array, alpha=group["weight_decay"])  # a new array: p.grad itself is left alone
        # PyTorch's operations, in its order (see ._ops; the last bit follows the order)
        v = state["square_avg"]._array
        v *= v.dtype.type(alpha)
        addcmul_(v, g, g, value=1 - alpha)
        if group["centered"]:
            mean = state["grad_avg"]._array
            lerp_(mean, g, 1 - alpha)  # = alpha * mean + (1 - alpha) * g, in place
            avg = sqrt(addcmul(v, mean, mean, value=-1))
        else:
            avg = sqrt(v)
        avg += avg.dtype.type(group["eps"])
        if m > 0:
            buf = state["momentum_buffer"]._array
            buf *= buf.dtype.type(m)
            addcdiv_(buf, g, avg, value=1)
            add_(p._array, buf, alpha=-group["lr"])
        else:
            addcdiv_(p._array, g, avg, value=-group["lr"])  # (-lr * g) / avg, not -lr * (g / avg)
