"""``tinygrad_edu.functional`` (PyTorch's ``torch.functional``): the module where PyTorch writes some of its
top-level functions in Python (``einsum``, ``split``, ``norm``, ``meshgrid`` ...). They are the same objects as
``tinygrad_edu.einsum`` and the rest; tutorials reach them as ``import torch.functional as F``. ``unravel_index``
is defined here, as in PyTorch."""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

from ._functions import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    block_diag,
    broadcast_shapes,
    broadcast_tensors,
    cartesian_prod,
    cdist,
    chain_matmul,
    einsum,
    meshgrid,
    norm,
    split,
    tensordot,
    unique,
    unique_consecutive,
)
from ._tensor import Tensor, _wrap

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_shapes", "broadcast_tensors",
           "cartesian_prod", "cdist", "chain_matmul", "einsum", "meshgrid", "norm", "split", "tensordot", "unique",
           "unique_consecutive", "unravel_index"]


def unravel_index(indices: Tensor, shape: int | Sequence[int]) -> tuple[Tensor, ...]:
    """The coordinates, in a tensor of ``shape``, of the flat (row-major) positions ``indices``: one int64 tensor
    per dimension, each of the indices' shape. ``unravel_index(tensor(4), (3, 2))`` is ``(tensor(2), tensor(0))``.
    As in PyTorch, an index is taken modulo the number of elements: -1 is the last one."""
    indices.is_complex()  # (anything but a tensor fails here, as in PyTorch)
    if indices._array.dtype.kind not in "iub":
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    dims = (operator.index(shape),) if not isinstance(shape, Sequence) else tuple(map(operator.index, shape))
    if any(d < 0 for d in dims):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(dims)}")
    flat = indices._array.astype(np.int64)
    coords, stride = [], 1
    for size in reversed(dims):  # the last dimension moves fastest
        coords.append(np.floor_divide(flat, stride) % size if size else np.zeros_like(flat))
        stride *= size
    return tuple(_wrap(c) for c in reversed(coords))
