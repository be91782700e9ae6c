"""The forwards of some entries of the derivative table, on numpy arrays, where PyTorch's rules differ from numpy's
(beside the core: read last, or never): which dtype a result has, what integers do, which inputs are refused.

``core/derivatives.py`` names them in its entries (``derivative("DivBackward0", A.true_divide, ...)``): what the
op computes is the numpy function; these add the corner cases.
"""

from __future__ import annotations

import numpy as np

from . import _messages as M


def true_divide(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    """``x / y``: integers divide into PyTorch's default float type, float32 (numpy would give float64)."""
    if self.dtype.kind != "f":
        self, other = self.astype(np.float32), other.astype(np.float32)
    return self / other


def negative(self: np.ndarray) -> np.ndarray:
    if self.dtype == np.bool_:
        raise RuntimeError(M.NEGATION_OF_BOOL)
    return -self


def power_scalar(self: np.ndarray, exponent: float) -> np.ndarray:
    """``x ** p`` for a number p: an integer tensor to a float power is float32; to a negative int power, refused.

    For floats, PyTorch's kernel computes the common powers without calling ``pow``, and so does this: ``x * x * x``
    for 3, ``1 / (x * x)`` for -2, ``sqrt`` for 0.5 and ``1 / sqrt`` for -0.5 (2 and -1 are numpy's own fast paths,
    the same ``x * x`` and ``1 / x``). The results are the same numbers up to rounding, but ``pow`` rounds once where
    these round two or three times: in float32 a third of the cubes differ in the last bit, so a tutorial's loss
    (``a + b x + c x^2 + d x^3``) would print other digits than PyTorch's."""
    if self.dtype.kind != "f":
        if isinstance(exponent, float) or exponent < 0:
            if exponent < 0 and not isinstance(exponent, float):
                raise RuntimeError("Integers to negative integer powers are not allowed.")
            return np.power(self.astype(np.float32), exponent)
        return np.power(self, exponent)
    if exponent == 3:
        return self * self * self
    if exponent == -2:
        return self.dtype.type(1) / (self * self)
    if exponent == 0.5:
        return np.sqrt(self)
    if exponent == -0.5:
        return self.dtype.type(1) / np.sqrt(self)
    return np.power(self, exponent)


def power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """``base ** exponent``. numpy refuses negative integer powers of integers; PyTorch gives the integer part of
    the true power: 1 for a base of 1, +-1 for -1, and 0 otherwise."""
    if exponent.dtype.kind == "f" or base.dtype.kind == "f" or not np.any(exponent < 0):
        return np.power(base, exponent)
    base, exponent = np.broadcast_arrays(base, exponent)
    out = np.power(base, np.maximum(exponent, 0))
    negative = exponent < 0
    out[negative] = np.where(base == 1, 1, np.where(base == -1, 1 - 2 * (exponent % 2), 0))[negative]
    return out


def clamp(self: np.ndarray, min: float | None, max: float | None) -> np.ndarray:
    if min is None and max is None:
        raise RuntimeError("tinygrad_edu.clamp: At least one of 'min' or 'max' must not be None")
    if self.dtype.kind != "f" and (isinstance(min, float) or isinstance(max, float)):
        self = self.astype(np.float32)  # float bounds make an int tensor's result float32 (PyTorch's promotion)
    return np.clip(self, min, max).astype(self.dtype, copy=False)


def outside(a: np.ndarray, lo: float | None, hi: float | None) -> np.ndarray:
    """Where ``a`` is below ``lo`` or above ``hi`` (either may be None: no bound)."""
    keep = np.ones(a.shape, dtype=bool)
    if lo is not None:
        keep &= a >= lo
    if hi is not None:
        keep &= a <= hi
    return ~keep


def masked_fill(self: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """0 where ``mask`` holds (it may broadcast against self), ``self`` elsewhere."""
    return np.where(mask if mask.shape == self.shape else np.broadcast_to(mask, self.shape), self.dtype.type(0), self)


def relu(self: np.ndarray, fast: bool = False) -> np.ndarray:
    """max(x, 0), in x's dtype. speed (``fast``): against an array of zeros rather than the number 0, which numpy
    broadcasts through a slower loop (a third of the time on a (64, 128) batch); the same bits, signed zeros and nan
    included, on every SIMD target numpy dispatches to. (Floats in a row-major array only: the result's layout is
    then the same, and other dtypes keep numpy's own casting rules.)"""
    if fast and self.dtype.kind == "f" and self.ndim and self.flags.c_contiguous:
        return np.maximum(self, np.zeros(self.shape, self.dtype))
    return np.maximum(self, 0, dtype=self.dtype)


def threshold_backward(grad_output: np.ndarray, self: np.ndarray, threshold: float, bits: bool = False) -> np.ndarray:
    """relu's backward: ``grad_output`` where ``self > threshold``, 0 elsewhere (PyTorch's test, ``self <=
    threshold``, lets the gradient pass at a nan). speed (``bits``): the same numbers, as grad_output's bits and-ed
    with all ones where it passes, all zeros (+0.) elsewhere: twice as fast as np.where."""
    as_int = _SAME_SIZE_INT.get(grad_output.dtype) if bits and self.shape == grad_output.shape else None
    if as_int is None:
        return np.where(self <= threshold, grad_output.dtype.type(0), grad_output)
    keep = np.subtract(self <= threshold, 1, dtype=as_int)  # (False - 1 = -1: all bits set)
    return np.bitwise_and(grad_output.view(as_int), keep).view(grad_output.dtype)


_SAME_SIZE_INT = {np.dtype(np.float16): np.int16, np.dtype(np.float32): np.int32, np.dtype(np.float64): np.int64}

