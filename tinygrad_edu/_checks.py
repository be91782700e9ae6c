"""The checks behind PyTorch's error messages about shapes and dims (beside the core: read last, or never).

The core computes with numpy and lets numpy refuse; when it does, these say why in PyTorch's words. A few are
also the rules themselves, where numpy's differ (a dim counted from the end, a -1 in a shape).
"""

from __future__ import annotations

import math
import os
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _messages as M
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


# -- what hooks and a learner's backward may return (the engine runs them) ---------------------------------------
def hook_grad(fn: Callable, old: Any, new: Any) -> Any:
    """A hook may replace a gradient, but only by a tensor of the same dtype and shape."""
    if not isinstance(new, type(old)):
        raise TypeError(M.HOOK_RETURNED.format(M.typename(new)))
    if new._array.dtype != old._array.dtype:
        raise RuntimeError(M.HOOK_DTYPE.format(M.hook_name(fn), M.legacy_name(old), M.legacy_name(new)))
    if new._array.shape != old._array.shape:
        raise RuntimeError(M.HOOK_SIZE.format(M.hook_name(fn)))
    return new


def node_hook_grads(fn: Callable, old: tuple, new: Any) -> tuple:
    """What a node hook returns replaces a whole tuple of gradients: same length, each None or a valid replacement
    (a gradient that was None, "no gradient", cannot be conjured up)."""
    if not isinstance(new, tuple):
        raise TypeError(M.HOOK_RETURNED_TUPLE.format(M.typename(new)))
    if len(new) != len(old):
        raise RuntimeError(M.HOOK_COUNT.format(M.hook_name(fn), len(new), len(old)))
    for o, n in zip(old, new):
        if n is not None:
            if o is None:
                raise RuntimeError(M.HOOK_NONE_REPLACED)
            hook_grad(fn, o, n)
    return new


def learner_grads(node: Any, result: tuple, tensor: type) -> list:
    """What a learner's ``backward`` returned, checked as PyTorch checks it: one gradient per forward argument
    (extra Nones allowed), None for those that were not tensors, and for a tensor input None or a tensor of its
    shape (or one that broadcasts to it). Returns the gradients of the tensor inputs."""
    is_tensor = node._input_is_tensor or (True,) * len(node.next_functions)
    if len(result) != len(is_tensor) and not (len(result) > len(is_tensor) and
                                              all(g is None for g in result[len(is_tensor):])):
        raise RuntimeError(M.GRAD_COUNT.format(node.name(), len(is_tensor), len(result)))
    grads = []
    for i, (g, tensor_arg) in enumerate(zip(result, is_tensor)):
        if not tensor_arg:
            if g is not None:
                raise RuntimeError(M.GRAD_FOR_NON_TENSOR.format(node.name(), i + 1))
            continue
        if g is not None:
            if not isinstance(g, tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            shape = node._input_meta[len(grads)][0]
            try:
                fits = np.broadcast_shapes(g._array.shape, shape) == g._array.shape
            except ValueError:
                fits = False
            if not fits:
                raise RuntimeError(M.INVALID_GRAD.format(node.name(), len(grads), shape_list(g._array.shape),
                                                         shape_list(shape)))
        grads.append(g)
    return grads


def report_anomaly(node: Any, grads: list, run: Callable, check_nan: bool) -> tuple:
    """Anomaly detection (``set_detect_anomaly``): run the node; if it fails (or, with check_nan, returns nan),
    show where its forward ran, in the learner's own code, then let the error go on."""
    try:
        inputs = run(node, grads)
        if check_nan:
            for i, g in enumerate(inputs):
                with np.errstate(all="ignore"):
                    if g is not None and np.isnan(g._array).any():
                        raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
        return inputs
    except Exception:
        stack = getattr(node, "_forward_stack", None)
        if stack:  # the learner's lines only: frames inside tinygrad_edu would hide them
            package = os.path.dirname(os.path.abspath(__file__)) + os.sep
            user = [frame for frame in stack if not os.path.abspath(frame.filename).startswith(package)]
            warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
                          + "".join(traceback.format_list(user)), UserWarning, stacklevel=2)
        raise
