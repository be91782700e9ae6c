"""``tinygrad_edu.special``: PyTorch's ``torch.special``, the functions of statistics and probability under the names
scipy gives them. Most are the library's own functions under a second name (``expit`` is ``sigmoid``, ``gammaln``
is ``lgamma``, ``psi`` is ``digamma``); three are new, built from differentiable Tensor operations:

    entr(x)   = -x log x        (0 at x = 0, -inf for x < 0): the entropy of one probability
    ndtr(x)   = P(Z <= x)       the standard normal's cumulative distribution, (1 + erf(x / sqrt 2)) / 2
    xlog1py(x, y) = x log(1 + y)   (0 where x = 0, whatever y)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._tensor import Tensor, _wrap
from .autograd.function import Function
from .ops import elementwise, reduce
from .ops.elementwise import MulScalar

__all__ = ["digamma", "entr", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "log1p", "log_softmax",
           "logit", "logsumexp", "ndtr", "polygamma", "psi", "round", "softmax", "xlog1py", "xlogy"]


def expit(input: Tensor) -> Tensor:
    """The logistic sigmoid, 1 / (1 + exp(-x)) (``tinygrad_edu.sigmoid``)."""
    return input.sigmoid()


def erf(input: Tensor) -> Tensor:
    return input.erf()


def erfc(input: Tensor) -> Tensor:
    return input.erfc()


def erfinv(input: Tensor) -> Tensor:
    return input.erfinv()


def exp2(input: Tensor) -> Tensor:
    return input.exp2()


def expm1(input: Tensor) -> Tensor:
    return input.expm1()


def log1p(input: Tensor) -> Tensor:
    return input.log1p()


def gammaln(input: Tensor) -> Tensor:
    """log |Gamma(x)| (``tinygrad_edu.lgamma``)."""
    return input.lgamma()


def digamma(input: Tensor) -> Tensor:
    """d/dx log Gamma(x)."""
    return input.digamma()


psi = digamma


def polygamma(n: int, input: Tensor) -> Tensor:
    return input.polygamma(n)


def round(input: Tensor, *, decimals: int = 0) -> Tensor:
    return input.round(decimals=decimals)


def logit(input: Tensor, eps: float | None = None) -> Tensor:
    return elementwise.logit(input, eps)


def xlogy(input: Any, other: Any) -> Tensor:
    return elementwise.xlogy(input, other)


def logsumexp(input: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    return reduce.logsumexp(input, dim, keepdim)


def softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    return reduce.softmax(input, dim, dtype)


def log_softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    return reduce.log_softmax(input, dim, dtype)


class _Entr(Function):
    """-x log x: 0 at x = 0 (x log x -> 0), -inf for x < 0. d/dx = -(log x + 1): inf at 0, nan below."""

    node_name = "SpecialEntrBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        a = x.detach().numpy()
        ctx.save_for_backward(x)
        with np.errstate(all="ignore"):
            return _wrap(np.where(a > 0, -a * np.log(np.where(a > 0, a, 1)), np.where(a == 0, 0, -np.inf)).astype(
                a.dtype))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        x, = ctx.saved_tensors
        return g * -(x.log() + 1)


def entr(input: Tensor) -> Tensor:
    """-x log x, the entropy contributed by one probability x (see :class:`_Entr`)."""
    return _Entr.apply(input)


def ndtr(input: Tensor) -> Tensor:
    """The probability that a standard normal Z is at most x: (1 + erf(x / sqrt 2)) / 2; its derivative is the
    normal's density, exp(-x**2 / 2) / sqrt(2 pi). (PyTorch's is made of these ops too, its node ``MulBackward1``.)"""
    return MulScalar.apply(1 + (input * (1 / math.sqrt(2))).erf(), 0.5)


class _Xlog1py(Function):
    """x log(1 + y), 0 where x = 0 (unless y is nan).

    d/dx = log(1 + y) (0 where x = 0 and y <= -1), d/dy = x / (1 + y)."""

    node_name = "SpecialXlog1PyBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> Tensor:
        a, b = x.detach().numpy(), y.detach().numpy()
        ctx.save_for_backward(x, y)
        with np.errstate(all="ignore"):
            return _wrap(np.where((a == 0) & ~np.isnan(b), 0, a * np.log1p(b)).astype(np.result_type(a, b)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dx = (g * y.log1p()).masked_fill((x == 0) & (y <= -1), 0.0) if ctx.needs_input_grad[0] else None
        return dx, (g * x / (y + 1) if ctx.needs_input_grad[1] else None)


def xlog1py(input: Tensor, other: Tensor) -> Tensor:
    """x log(1 + y), 0 where x = 0 (even where log(1 + y) is infinite)."""
    return _Xlog1py.apply(input, other)
