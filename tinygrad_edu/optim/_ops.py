"""PyTorch's pointwise tensor methods that its optimizers are written with (``p.addcdiv_(g, avg, value=-lr)``),
on numpy arrays, with PyTorch's arithmetic: the same operations in the same order, the scalar first rounded to the
array's dtype. Written this way, the optimizers compute what ``torch.optim`` computes, to the last bit, except for
two things numpy does not do cheaply:

- **Fused multiply-adds.** On x86, PyTorch's ``add_(y, alpha=a)`` is ``x + a * y`` rounded once (a fused
  multiply-add), and so are ``addcmul_`` (``x + (v * t1) * t2``) and ``lerp_``. numpy rounds the product, then the
  sum. Rounding once would need float64 temporaries: four times the time of the plain update, in the step every
  training loop takes. ``addcdiv_`` has no fused operation: it matches exactly.
- **sqrt**, which PyTorch's x86 wheels take from MKL's vector library, whose float32 results are not always
  correctly rounded (numpy's are).

Each function names the PyTorch method it stands for; those ending in ``_`` change their first argument in place.
"""

from __future__ import annotations

import numpy as np

sqrt = np.sqrt  # tensor.sqrt()


def add(x: np.ndarray, y: np.ndarray, alpha: float) -> np.ndarray:
    """``x.add(y, alpha=alpha)``: a new array ``x + alpha * y`` (x is left alone: it may be p.grad)."""
    return x + x.dtype.type(alpha) * y


def add_(x: np.ndarray, y: np.ndarray, alpha: float) -> None:
    """``x.add_(y, alpha=alpha)``: ``x <- x + alpha * y``."""
    if alpha == 1:
        x += y
    elif alpha == -1:
        x -= y
    else:
        x += x.dtype.type(alpha) * y


def addcmul(x: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float) -> np.ndarray:
    """``x.addcmul(t1, t2, value=value)``: a new array ``x + (value * t1) * t2``."""
    return x + (x.dtype.type(value) * t1) * t2


def addcmul_(x: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float) -> None:
    """``x.addcmul_(t1, t2, value=value)``: ``x <- x + (value * t1) * t2``."""
    x += (x.dtype.type(value) * t1) * t2


def addcdiv_(x: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float) -> None:
    """``x.addcdiv_(t1, t2, value=value)``: ``x <- x + (value * t1) / t2``: the scalar multiplies the numerator
    before the division (``lr * (g / avg)`` would round differently)."""
    x += (x.dtype.type(value) * t1) / t2


def lerp_(x: np.ndarray, end: np.ndarray, weight: float) -> None:
    """``x.lerp_(end, weight)``: ``x <- x + weight * (end - x)``, a running mean's update. For a weight of 0.5 or
    more PyTorch starts from the other end, ``end - (1 - weight) * (end - x)``, which is more accurate there."""
    w = x.dtype.type(weight)
    if weight < 0.5:
        x += w * (end - x)
    else:
        x[...] = end - (end - x) * (x.dtype.type(1) - w)
