"""Weight initialisation: fill a tensor, in place, with numbers of a well-chosen spread.

Why the spread matters: a layer ``y = W x`` with ``fan_in`` inputs sums ``fan_in`` products, so the
variance of y is about ``fan_in * Var(W) * Var(x)``. Choosing ``Var(W) ~ 1 / fan_in`` keeps signals
(and, going backward, gradients) at the same scale from layer to layer, instead of exploding or vanishing.

* ``uniform_(t, a, b)``: U(a, b);  ``normal_(t, mean, std)``: N(mean, std**2)
* ``xavier_uniform_``: U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out)), so Var = gain**2 * 2 / (in + out)
* ``kaiming_uniform_``: U(-b, b) with b = gain * sqrt(3 / fan), so Var = gain**2 / fan
* ``kaiming_normal_``: N(0, std**2) with std = gain / sqrt(fan)
* ``eye_``: the identity matrix; ``orthogonal_``: a (semi-)orthogonal matrix, which preserves lengths;
  ``trunc_normal_``: N(mean, std**2) cut to [a, b]

(A uniform U(-b, b) has variance b**2 / 3, hence the sqrt(3) and sqrt(6).) Random numbers come from
tinygrad_edu's seeded generator, so ``tinygrad_edu.manual_seed(0)`` makes a model's weights repeatable.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _meta
from .._creation import Generator, default_generator
from .._tensor import Tensor
from ..core.grad_mode import no_grad


def _fill(tensor: Tensor, values: np.ndarray | float) -> Tensor:
    """Write ``values`` into the tensor's own memory (the tensor object stays the same) and record the change;
    a meta tensor has no memory to write (its untouched zeros take none)."""
    if not _meta.is_meta(tensor._array):
        np.copyto(tensor._array, values, casting="unsafe")
    tensor._version_counter[0] += 1
    return tensor


def _rng(generator: Generator | None) -> Generator:
    return generator or default_generator


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The factor by which a nonlinearity changes the spread of its input, to be undone by the weights.

    ReLU zeroes half its inputs, halving the variance: its gain is sqrt(2). Leaky ReLU with slope a
    keeps a bit of the negative half: sqrt(2 / (1 + a**2)).
    """
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                        "conv_transpose3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """For a weight of shape (out, in, *kernel): fan_in = in * kernel size, fan_out = out * kernel size."""
    shape = tensor._array.shape
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _fan(tensor: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Generator | None = None) -> Tensor:
    """Fill with U(a, b): ``tensor.uniform_`` without recording, as PyTorch's init does."""
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Generator | None = None) -> Tensor:
    """Fill with N(mean, std**2): ``tensor.normal_`` without recording."""
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    return _fill(tensor, val)


def zeros_(tensor: Tensor) -> Tensor:
    return _fill(tensor, 0.0)


def ones_(tensor: Tensor) -> Tensor:
    return _fill(tensor, 1.0)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Generator | None = None) -> Tensor:
    """Glorot & Bengio (2010): U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * (gain * math.sqrt(2.0 / float(fan_in + fan_out)))  # (PyTorch's steps: float64's last bit)
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Generator | None = None) -> Tensor:
    """N(0, std**2) with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator: Generator | None = None) -> Tensor:
    """He et al. (2015): U(-b, b) with b = gain * sqrt(3 / fan), gain = calculate_gain(nonlinearity, a).

    ``nn.Linear`` uses a = sqrt(5): gain = sqrt(2 / 6), so b = 1 / sqrt(fan_in).
    """
    if tensor._array.size == 0:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=2)
        return tensor
    bound = math.sqrt(3.0) * (calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode)))  # (PyTorch's steps)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator: Generator | None = None) -> Tensor:
    """N(0, std**2) with std = gain / sqrt(fan)."""
    if tensor._array.size == 0:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=2)
        return tensor
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode)), generator)


def eye_(tensor: Tensor) -> Tensor:
    """Fill a 2-D tensor with the identity matrix (ones on the diagonal): a layer that starts by passing its input
    through unchanged (for a square weight)."""
    if tensor._array.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, np.eye(*tensor._array.shape))


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator: Generator | None = None) -> Tensor:
    """Fill with N(mean, std**2) restricted to [a, b] (a, b are values, not multiples of std): the normal
    distribution with its tails cut off, so no weight starts far out. Drawn by rejection, as PyTorch draws it: if
    most of the distribution lies in [a, b], normals, with the ones outside replaced from fresh draws until none is
    left; if little does, uniform candidates in [a, b], each kept with probability pdf / (the pdf's peak there)."""
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may "
                      "be incorrect.", UserWarning, stacklevel=2)
    gen, t = _rng(generator), tensor._array
    f = t.dtype.type  # (the arithmetic in the tensor's dtype, as PyTorch's in-place ops do it)

    def cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if cdf((b - mean) / std) - cdf((a - mean) / std) > 0.3:
        values = normal_(tensor, mean, std, generator)._array.copy()
        while (outside := (values < f(a)) | (values > f(b))).any():
            values = np.where(outside, gen.normal(t.shape, t.dtype, mean, std), values)
    else:
        log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2

        def rejected(candidates: np.ndarray) -> np.ndarray:  # log(u) > log(pdf / peak)
            log_pdf = ((candidates - f(mean)) / f(std)) ** 2 * f(-0.5) - f(log_peak)
            return np.log(gen.uniform(t.shape, t.dtype)) > log_pdf

        values = gen.uniform(t.shape, t.dtype, a, b)
        pending = rejected(values)
        while pending.any():
            candidates = gen.uniform(t.shape, t.dtype, a, b)
            values = np.where(pending, candidates, values)
            pending = np.where(pending, rejected(candidates), pending)
    return _fill(tensor, values)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator: Generator | None = None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix times ``gain`` (Saxe et al., 2013): the rows (or columns, whichever
    are fewer) are orthonormal, so the layer preserves lengths: signals neither grow nor shrink through it.
    Made from the QR decomposition of a normal random matrix (the signs of R's diagonal folded into Q, so that Q
    is uniformly distributed). Dimensions after the first are flattened."""
    if tensor._array.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor._array.size == 0:
        return tensor  # no-op
    rows = tensor._array.shape[0]
    cols = tensor._array.size // rows
    flattened = _rng(generator).normal((rows, cols), tensor._array.dtype).astype(np.float64)
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    q *= np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _fill(tensor, (gain * q).reshape(tensor._array.shape))
