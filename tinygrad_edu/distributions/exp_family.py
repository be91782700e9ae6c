"""``ExponentialFamily``: the distributions whose density is exp(<t(x), theta> - F(theta) + k(x)), for natural
parameters theta and log normaliser F (Normal and Bernoulli are). Their entropy, and the KL divergence between two
of the same family, follow from F and its gradient (a Bregman divergence), which autograd computes.
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..autograd.engine import grad
from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """A distribution given by its natural parameters (``_natural_params``), its log normaliser
    (``_log_normalizer``) and its carrier measure's mean (``_mean_carrier_measure``)."""

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params: Any) -> Tensor:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> float:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        """F(theta) - <theta, grad F(theta)> - E[k(x)] (the subclasses here compute theirs directly)."""
        result: Any = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np_, g in zip(nparams, gradients):
            result -= (np_ * g).reshape((*self._batch_shape, -1)).sum(-1)
        return result
