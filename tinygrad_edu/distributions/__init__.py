"""``tinygrad_edu.distributions``: the part of ``torch.distributions`` tutorials use, laid out as PyTorch's.

* ``Normal(loc, scale)``: ``sample``, ``rsample`` (the reparameterisation trick), ``log_prob``, ``entropy``
* ``Bernoulli(probs | logits)``, ``Categorical(probs | logits)`` (REINFORCE's ``m.sample()``,
  ``-m.log_prob(action) * reward``), ``Multinomial(total_count, probs | logits)`` (d2l's dice)
* ``Uniform(low, high)``
* ``kl_divergence(p, q)`` and ``register_kl``; ``constraints``; ``Distribution`` and ``ExponentialFamily``

Samples are PyTorch's numbers after the same ``manual_seed``: each distribution draws with the same library call
PyTorch's makes (``torch.normal``, ``torch.bernoulli``, ``torch.multinomial``, ``torch.rand``, ``normal_``), and
the library's generator gives PyTorch's numbers for those. ``log_prob``, ``entropy``, ``rsample`` and
``kl_divergence`` are built from differentiable tensor operations: ``backward()`` through them gives PyTorch's
gradients. Reprs, validation errors and their messages are PyTorch's.
"""

from . import constraints, kl
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .kl import kl_divergence, register_kl
from .multinomial import Multinomial
from .normal import Normal
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "ExponentialFamily", "Multinomial", "Normal", "Uniform",
           "constraints", "kl", "kl_divergence", "register_kl"]
