"""The checks behind PyTorch's error messages about shapes and dims (beside the core: read last, or never).

The core computes with numpy and lets numpy refuse; when it does, these say why in PyTorch's words. A few are
also the rules themselves, where numpy's differ (a dim counted from the end, a -1 in a shape).
"""

from __future__ import annotations

import math

import numpy as np

from ._dtype import LEGACY_NAMES, from_numpy
from ._messages import shape_list


def infer_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    """``shape`` with its -1 (if any) worked out from the number of elements."""
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if (-1 in shape and (known == 0 or numel % known)) or (-1 not in shape and known != numel):
        raise RuntimeError(f"shape '[{shape_list(shape)}]' is invalid for input of size {numel}")
    return tuple(numel // known if s == -1 else s for s in shape)


def reshaped_view(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """``a`` seen with a new shape, sharing its memory; None when its layout needs a copy for that."""
    try:
        return np.reshape(a, shape, copy=False)  # numpy refuses (rather than copying) when the layout does not allow
    except ValueError:
        return None


VIEW_STRIDES = ("view size is not compatible with input tensor's size and stride (at least one dimension spans "
                "across two contiguous subspaces). Use .reshape(...) instead.")


def expanded_shape(a: np.ndarray, shape: tuple[int, ...]) -> tuple[int, ...]:
    """What ``expand(shape)`` expands ``a`` to (a -1 keeps a size), with PyTorch's messages if it cannot."""
    lead = len(shape) - a.ndim
    if lead < 0:
        raise RuntimeError(f"expand(tinygrad_edu.{LEGACY_NAMES[from_numpy(a.dtype)]}{{[{shape_list(a.shape)}]}}, "
                           f"size=[{shape_list(shape)}]): the number of sizes provided ({len(shape)}) must be "
                           f"greater or equal to the number of dimensions in the tensor ({a.ndim})")
    target = tuple(a.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
    check_expand(a.shape, target, shape)
    return target


def check_expand(shape: tuple[int, ...], target: tuple[int, ...], asked: tuple[int, ...] | None = None) -> None:
    """Can a tensor of ``shape`` be expanded (broadcast) to ``target``? PyTorch's message if not."""
    lead = len(target) - len(shape)
    for i in reversed(range(len(shape))):  # PyTorch checks from the last dimension, and reports the first misfit
        if shape[i] != 1 and shape[i] != target[lead + i]:
            raise RuntimeError(f"The expanded size of the tensor ({target[lead + i]}) must match the existing size "
                               f"({shape[i]}) at non-singleton dimension {lead + i}.  Target sizes: "
                               f"[{shape_list(target if asked is None else asked)}].  Tensor sizes: "
                               f"[{shape_list(shape)}]")


def float_only(a: np.ndarray, name: str) -> np.ndarray:
    """``a``, if it is floating point: ``mean`` and friends cannot choose an output dtype for integers."""
    if a.dtype.kind != "f":
        raise RuntimeError(f"{name}(): could not infer output dtype. Input dtype must be either a floating point or "
                           f"complex dtype. Got: {LEGACY_NAMES[from_numpy(a.dtype)].removesuffix('Tensor')}")
    return a
