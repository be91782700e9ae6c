"""Embeddings: ``F.embedding`` (PyTorch's ``EmbeddingBackward0``) and ``nn.Embedding``, a lookup table.

A word (a token, a user id...) numbered i becomes the vector ``weight[i]``, row i of a learnable table of shape
(num_embeddings, embedding_dim). The lookup is indexing, ``weight[indices]``, so its gradient sends each output
row's gradient back to the row it was read from, adding up where one row was read several times.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import LEGACY_NAMES, float32, from_numpy
from .._tensor import Tensor, _wrap
from ..autograd.grad_mode import no_grad
from ..core.function import Function
from . import init
from .module import Module, Parameter


class EmbeddingLookup(Function):
    """out[..., :] = w[indices[...], :]: the rows of the table w picked by integer indices.

    dw[r] = sum of g[...] over the positions where indices[...] == r (0 for rows never read, and for the
    ``padding_idx`` row, which is thus never trained). See :class:`EmbeddingDenseBackward`.
    """

    node_name = "EmbeddingBackward0"
    saved_names = ("indices",)  # (and _saved_padding_idx, _saved_scale_grad_by_freq, _saved_sparse ...)

    @staticmethod
    def forward(ctx: Any, weight: Tensor, indices: Tensor, padding_idx: int, scale_grad_by_freq: bool) -> np.ndarray:
        ctx.save_for_backward(indices)
        ctx._saved_padding_idx, ctx._saved_scale_grad_by_freq, ctx._saved_sparse = \
            padding_idx, scale_grad_by_freq, False
        ctx._saved_weight_sym_argsize_0 = weight._array.shape[0]
        return weight._array[indices._array]

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (indices,) = ctx.saved_tensors
        return EmbeddingDenseBackward.apply(g, indices, ctx._saved_weight_sym_argsize_0, ctx._saved_padding_idx,
                                            ctx._saved_scale_grad_by_freq), None, None, None


class EmbeddingDenseBackward(Function):
    """embedding's gradient as an op (PyTorch's ``embedding_dense_backward``): a table of zeros into which each
    g row is added at its index (``np.add.at`` adds repeated indices up, where ``t[i] += v`` would keep one).
    With ``scale_grad_by_freq`` each row's sum is divided by how often it was read in this batch.

    Linear in g, so its own derivative gathers the rows back: d/dg = gg[indices] (0 at the padding index, and
    divided by the same counts)."""

    node_name = "EmbeddingDenseBackwardBackward0"
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx: Any, g: Tensor, indices: Tensor, num_weights: int, padding_idx: int,
                scale_grad_by_freq: bool) -> np.ndarray:
        ctx.save_for_backward(indices)
        ctx.consts = (padding_idx, scale_grad_by_freq)
        idx, b = indices._array.reshape(-1), g._array
        rows = b.reshape(idx.size, -1)
        scale = _row_scale(idx, padding_idx, scale_grad_by_freq, num_weights, b.dtype)
        if scale is not None:
            rows = rows * scale[:, None]
        table = np.zeros((num_weights, rows.shape[1]), b.dtype)
        np.add.at(table, idx, rows)
        return table

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        (indices,) = ctx.saved_tensors
        padding_idx, scale_grad_by_freq = ctx.consts
        idx = indices._array.reshape(-1)
        dg = EmbeddingLookup.apply(gg, indices, padding_idx, scale_grad_by_freq)
        scale = _row_scale(idx, padding_idx, scale_grad_by_freq, gg._array.shape[0], gg._array.dtype)
        if scale is not None:
            dg = dg * _wrap(scale.reshape((*indices._array.shape, 1)))
        return dg, None, None, None, None


def _row_scale(idx: np.ndarray, padding_idx: int, by_freq: bool, num_weights: int, dtype: Any) -> np.ndarray | None:
    """Per looked-up position, the factor its gradient row gets: 0 for the padding index, 1 / count with
    ``scale_grad_by_freq``; None when every factor is 1."""
    if padding_idx < 0 and not by_freq:
        return None
    scale = np.ones(idx.size, dtype)
    if by_freq:
        scale /= np.bincount(idx, minlength=num_weights)[idx].astype(dtype)
    if padding_idx >= 0:
        scale[idx == padding_idx] = 0
    return scale


def _padding(padding_idx: int | None, num_embeddings: int) -> int:
    """The padding index as a row number (-1 counts from the end); -1 inside for "none" (PyTorch's convention)."""
    if padding_idx is None:
        return -1
    if not -num_embeddings <= padding_idx < num_embeddings:
        raise AssertionError("Padding_idx must be within num_embeddings")  # (an assert in PyTorch)
    return padding_idx + num_embeddings if padding_idx < 0 else padding_idx


def _renorm_(weight: Tensor, idx: np.ndarray, max_norm: float, norm_type: float) -> None:
    """Rescale, in place, the rows about to be read whose norm exceeds max_norm down to max_norm (PyTorch's
    ``embedding_renorm_``: outside autograd, the table itself changes)."""
    rows = np.unique(idx)
    w = weight._array
    norms = np.linalg.norm(w[rows].astype(np.float64), ord=norm_type, axis=1)
    big = norms > max_norm
    if big.any():
        w[rows[big]] *= (max_norm / (norms[big] + 1e-7))[:, None].astype(w.dtype)
        weight._version_counter[0] += 1


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """The rows of ``weight`` at the integer ``input`` indices: output shape ``input.shape + (embedding_dim,)``.
    The ``padding_idx`` row gets no gradient; ``max_norm`` first shrinks, in place, the rows about to be read
    whose ``norm_type``-norm exceeds it."""
    if input._array.dtype.kind not in "iu" or input._array.dtype.itemsize < 4:
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got tinygrad_edu.{LEGACY_NAMES[from_numpy(input._array.dtype)]} instead "
                           "(while checking arguments for embedding)")
    if weight._array.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    if sparse:
        raise NotImplementedError("tinygrad_edu has no sparse tensors: use sparse=False (a dense gradient)")
    idx = input._array
    num = weight._array.shape[0]
    if idx.size and (idx.min() < 0 or idx.max() >= num):
        raise IndexError("index out of range in self")
    pad = _padding(padding_idx, num)
    if max_norm is not None:
        with no_grad():
            _renorm_(weight, idx.reshape(-1), max_norm, norm_type)
    return EmbeddingLookup.apply(weight, input, pad, scale_grad_by_freq)


class Embedding(Module):
    """A learnable table of ``num_embeddings`` vectors of size ``embedding_dim``; ``layer(indices)`` looks them up.
    The weights start N(0, 1); the ``padding_idx`` row starts at 0 and is never trained (a "no token" vector)."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Tensor | None = None, _freeze: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx = None if padding_idx is None else _padding(padding_idx, num_embeddings)
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = Parameter(_wrap(np.empty((num_embeddings, embedding_dim), (dtype or float32).np)),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if tuple(_weight._array.shape) != (num_embeddings, embedding_dim):
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input: Tensor) -> Tensor:
        return embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                         self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            text += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse:
            text += ", sparse=True"
        return text

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True, padding_idx: int | None = None,
                        max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                        sparse: bool = False) -> Embedding:
        """A layer whose table is ``embeddings`` (2-D), frozen (no gradient) unless ``freeze=False``."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings._array.shape
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse, _weight=embeddings,
                   _freeze=freeze)

