"""``tinygrad_edu.nn.utils``: gradient clipping, done between ``backward()`` and ``optimizer.step()``; the
parameters as one vector and back (``parameters_to_vector``, ``vector_to_parameters``).

A step of gradient descent moves the parameters by lr times the gradient; a huge gradient (a cliff in the
loss) makes a huge step. Clipping bounds the step: by the norm of all gradients together
(``clip_grad_norm_``, which keeps their direction) or element by element (``clip_grad_value_``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .._tensor import Tensor, _wrap
from ..ops.shape import cat
from .module import typename


def _with_grads(parameters: Tensor | Iterable[Tensor]) -> list[Tensor]:
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    return [p for p in params if p.grad is not None]


def clip_grad_norm_(parameters: Tensor | Iterable[Tensor], max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Scale all gradients together, in place, so that their total norm (of all the numbers of all ``.grad``
    as one vector) is at most ``max_norm``; returns the total norm they had. The scale is
    ``max_norm / (total + 1e-6)``, used only when below 1: small gradients are left as they are."""
    grads = [p.grad for p in _with_grads(parameters)]
    if not grads:
        return _wrap(np.asarray(0.0, dtype=np.float32))
    flat = np.concatenate([g._array.ravel() for g in grads])
    size = np.abs(flat)
    total = size.max() if norm_type == float("inf") else (size ** norm_type).sum() ** (1.0 / norm_type)
    total = np.asarray(total, dtype=grads[0]._array.dtype)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(f"The total norm of order {float(norm_type)} for gradients from `parameters` is non-finite, "
                           "so it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    scale = min(float(max_norm) / (float(total) + 1e-6), 1.0)
    for g in grads:
        g.mul_(scale)
    return _wrap(total)


def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float, foreach: bool | None = None) -> None:
    """Clamp every gradient element, in place, into [-clip_value, clip_value]."""
    for p in _with_grads(parameters):
        p.grad.clamp_(-clip_value, clip_value)


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """All parameters flattened and joined into one vector (a new tensor, in the graph: ``CatBackward0``), e.g. to
    measure or perturb the weights as one point in parameter space."""
    return cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """The inverse of ``parameters_to_vector``: slice ``vec`` into pieces of each parameter's size and make them
    the parameters' values (through ``.data``, so no graph is recorded and the Parameter objects stay the same)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected tinygrad_edu.Tensor, but got: {typename(vec)}")
    start = 0
    for p in parameters:
        n = p.numel()
        p.data = vec[start:start + n].view_as(p).data
        start += n
