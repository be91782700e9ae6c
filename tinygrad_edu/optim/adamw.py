"""AdamW: Adam with decoupled weight decay (PyTorch's ``torch.optim.AdamW``)."""

from __future__ import annotations

from collections.abc import Iterable

from .._tensor import Tensor
from .adam import Adam


class AdamW(Adam):
    """Adam whose weight decay shrinks the parameters directly, ``p <- p - lr * wd * p``, before the Adam step
    (Loshchilov & Hutter, 2019), instead of adding ``wd * p`` to the gradient.

    Why it matters: in plain Adam the decay term goes through the division by sqrt(v), so parameters with large
    gradients are hardly decayed at all; decoupled, every parameter shrinks by the same fraction ``lr * wd`` per
    step, which is what "weight decay" means. The default ``weight_decay`` is 0.01 (Adam's is 0). Same options
    and state as :class:`Adam` (it is Adam with ``decoupled_weight_decay=True``).
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 1e-2,
                 amsgrad: bool = False, *, maximize: bool = False, foreach: bool | None = None,
                 capturable: bool = False, differentiable: bool = False, fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
