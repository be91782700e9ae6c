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


def _norm_options(layer: Module) -> str:
    """The max_norm, norm_type and scale_grad_by_freq part of an embedding layer's repr (each if not the default)."""
    text = "" if layer.max_norm is None else f", max_norm={layer.max_norm!r}"
    text += "" if layer.norm_type == 2 else f", norm_type={layer.norm_type!r}"
    return text + (f", scale_grad_by_freq={layer.scale_grad_by_freq!r}" if layer.scale_grad_by_freq else "")


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
        text += _norm_options(self)
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



# -- bags of embeddings --------------------------------------------------------------------------------------------
_MODES = {"sum": 0, "mean": 1, "max": 2}  # (the numbers PyTorch's node keeps as _saved_mode)


class EmbeddingBagFunction(Function):
    """out[b] = the sum, mean or max of the rows ``w[indices[i]]`` over the entries i of bag b, in one node (PyTorch's
    ``EmbeddingBagBackward0``), without building the (entries, dim) table of looked-up rows as a tensor.

    Bag b is the entries ``offsets[b] <= i < offsets[b + 1]`` of the 1-D ``indices`` (the last bag runs to the end,
    or to the extra last offset with ``include_last_offset``). Entries equal to ``padding_idx`` are left out of the
    bag: they add nothing, are not counted by the mean, and get no gradient. An empty bag gives a row of zeros.

    The gradient sends each bag's gradient row back to the rows it read: in 'sum' mode ``dw[indices[i]] += g[b]``
    (times ``per_sample_weights[i]`` if given, whose own gradient is ``<g[b], w[indices[i]]>``), in 'mean' mode
    ``g[b] / bag_size[b]``, in 'max' mode, column by column, all of ``g[b, d]`` to the row that held the maximum.
    Like PyTorch's, these gradients are computed on arrays, and their nodes cannot be differentiated again.
    """

    node_name = "EmbeddingBagBackward0"
    saved_names = ("per_sample_weights", "weight")

    @staticmethod
    def forward(ctx: Any, weight: Tensor, per_sample_weights: Tensor, bags: tuple[Tensor, Tensor, bool], mode: int,
                padding_idx: int, scale_grad_by_freq: bool, include_last_offset: bool) -> np.ndarray:
        # (the integer tensors come inside a tuple: like PyTorch's node, this one has edges for the two float inputs
        # only, the second (None, 0) when there are no per-sample weights, passed as a placeholder)
        (indices, offsets, weighted), w = bags, weight._array
        idx, starts = indices._array, offsets._array
        per_sample_weights = per_sample_weights if weighted else None
        bags, bag_of, ends = _bags(idx.size, starts, include_last_offset)
        used = bag_of >= 0  # (entries after the last offset, with include_last_offset, are in no bag)
        if padding_idx >= 0:
            used &= idx != padding_idx
        kind = np.int32 if idx.dtype == np.int32 and starts.dtype == np.int32 else np.int64
        sizes = np.bincount(bag_of[used], minlength=bags).astype(kind)
        out = np.zeros((bags, w.shape[1]), w.dtype)
        argmax = np.zeros((bags, w.shape[1]), kind)
        if mode == 2:  # the first largest value of each column wins (np.argmax), as in PyTorch's loop
            for b in np.flatnonzero(sizes):
                rows = idx[starts[b]:ends[b]][used[starts[b]:ends[b]]]
                first = w[rows].argmax(axis=0)
                argmax[b], out[b] = rows[first], w[rows[first], np.arange(w.shape[1])]
        else:
            rows = w[idx[used]]
            if per_sample_weights is not None:
                rows = rows * per_sample_weights._array[used][:, None]
            np.add.at(out, bag_of[used], rows)
            if mode == 1:
                out /= np.maximum(sizes, 1)[:, None].astype(w.dtype)
        psw_grad = per_sample_weights is not None and per_sample_weights.requires_grad
        ctx.save_for_backward(per_sample_weights, weight if psw_grad else None)
        ctx._saved_indices, ctx._saved_offsets = indices, offsets
        ctx.consts = (bag_of, used)
        ctx._saved_mode, ctx._saved_padding_idx = mode, padding_idx if padding_idx >= 0 else 2 ** 64 - 1
        ctx._saved_scale_grad_by_freq, ctx._saved_sparse = scale_grad_by_freq, False
        ctx._saved_weight_sym_argsize_0 = w.shape[0]
        # PyTorch's other results, kept on the node: offset2bag (the bag of each entry), bag_size, max_indices
        # (PyTorch's float32 'sum' without padding takes a fast path that leaves offset2bag empty)
        fast = mode == 0 and w.dtype == np.float32 and padding_idx < 0
        ctx._saved_result1 = _wrap(np.zeros(0, kind) if fast else np.maximum(bag_of, 0).astype(kind))
        ctx._saved_result2 = _wrap(sizes if mode else np.zeros(bags, kind))
        ctx._saved_result3 = _wrap(argmax if mode == 2 else sizes.copy() if mode else np.zeros(bags, kind))
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        psw, weight = ctx.saved_tensors
        dw = dpsw = None
        if ctx.needs_input_grad[0]:
            dw = EmbeddingBagWeightGrad.apply(g, ctx._saved_indices, psw, ctx)
        if ctx.needs_input_grad[1]:
            dpsw = EmbeddingBagSampleWeightGrad.apply(g, weight, ctx._saved_indices, ctx)
        return dw, dpsw, None, None, None, None, None


class EmbeddingBagWeightGrad(Function):
    """The table's gradient (PyTorch's ``_embedding_bag_backward``), on arrays; see :class:`EmbeddingBagFunction`."""

    node_name = "EmbeddingBagBackwardBackward0"

    @staticmethod
    def forward(ctx: Any, g: Tensor, indices: Tensor, psw: Tensor | None, node: Any) -> np.ndarray:
        idx, (bag_of, used) = indices._array, node.consts
        sizes, table = node._saved_result2._array, np.zeros((node._saved_weight_sym_argsize_0, g.shape[1]),
                                                            g._array.dtype)
        if node._saved_mode == 2:  # each column's gradient to the row that held its maximum
            full = np.flatnonzero(sizes)
            cols = np.broadcast_to(np.arange(table.shape[1]), (full.size, table.shape[1]))
            np.add.at(table, (node._saved_result3._array[full], cols), g._array[full])
            return table
        scale = np.ones(idx.size, g._array.dtype)
        if node._saved_mode == 1:
            scale /= np.maximum(sizes, 1)[bag_of].astype(scale.dtype)
        if psw is not None:
            scale *= psw._array
        if node._saved_scale_grad_by_freq:
            scale /= np.bincount(idx, minlength=table.shape[0])[idx].astype(scale.dtype)
        np.add.at(table, idx[used], g._array[bag_of[used]] * scale[used][:, None])
        return table

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        raise NotImplementedError("the derivative for '_embedding_bag_backward' is not implemented.")


class EmbeddingBagSampleWeightGrad(Function):
    """d out / d per_sample_weights[i] = <g[bag of i], w[indices[i]]> (0 for padding entries), on arrays."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx: Any, g: Tensor, weight: Tensor, indices: Tensor, node: Any) -> np.ndarray:
        idx, (bag_of, used) = indices._array, node.consts
        grad = np.zeros(idx.size, g._array.dtype)
        grad[used] = (g._array[bag_of[used]] * weight._array[idx[used]]).sum(axis=1)
        return grad

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        raise RuntimeError("derivative for aten::_embedding_bag_per_sample_weights_backward is not implemented")


EmbeddingBagSampleWeightGrad._backward_cls.name = lambda node: "tinygrad_edu::autograd::NotImplemented"


def _bags(n: int, offsets: np.ndarray, include_last_offset: bool) -> tuple[int, np.ndarray, np.ndarray]:
    """(number of bags, the bag of each of the n entries (-1: none), where each bag ends) from the start offsets."""
    bags = offsets.size - 1 if include_last_offset else offsets.size
    ends = np.append(offsets[1:bags], offsets[bags] if include_last_offset else n).astype(np.int64)
    bag_of = np.searchsorted(offsets[:bags], np.arange(n), side="right") - 1
    if bags:
        bag_of[np.arange(n) >= ends[-1]] = -1
    return bags, bag_of, ends


def _legacy_name(t: Tensor) -> str:
    return f"tinygrad_edu.{LEGACY_NAMES[from_numpy(t._array.dtype)]}"


def _check_bag_arguments(indices: Tensor, offsets: Tensor, weight: Tensor, per_sample_weights: Tensor | None,
                         include_last_offset: bool) -> None:
    """PyTorch's checks of ``embedding_bag``'s arrays (made in its C++ kernel), in its order."""
    for t in (indices, offsets):
        if t._array.dtype.kind not in "iu":
            raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                               f"Long, Int; but got {_legacy_name(t)} instead (while checking arguments for "
                               "embedding_bag)")
    if weight._array.dtype.kind != "f":
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following scalar types: "
                           f"Half, BFloat16, Float, Double; but got {_legacy_name(weight)} instead (while checking "
                           "arguments for embedding_bag)")
    if per_sample_weights is not None and per_sample_weights._array.dtype != weight._array.dtype:
        raise RuntimeError("Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
                           f"'per_sample_weights'; but type {_legacy_name(weight)} does not equal "
                           f"{_legacy_name(per_sample_weights)} (while checking arguments for embedding_bag)")
    starts, n = offsets._array, indices._array.size
    if include_last_offset and starts.size < 1:
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    if starts.size:
        if starts[0] != 0:
            raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                               f"position 0. However, got {starts[0]}\n[ {_legacy_name(offsets)}{{}} ]")
        if starts[-1] > n:
            raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got offsets[-1] of "
                               f"{starts[-1]}")
        if (np.diff(starts) < 0).any():
            raise RuntimeError("Expected i < index_size to be true, but got false.  (Could this error message be "
                               "improved?  If so, please report an enhancement request to PyTorch.)")
    bad = np.flatnonzero((indices._array < 0) | (indices._array >= weight._array.shape[0]))
    if bad.size:
        raise RuntimeError(f"Index {bad[0]} of input takes value {indices._array[bad[0]]} which is not in the valid "
                           f"range [0, {weight._array.shape[0]})")


def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None, max_norm: float | None = None,
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """The sums, means or maxima of bags of rows of ``weight``: one (embedding_dim,) row per bag, shape (B, dim).

    ``input`` (B, N) is B bags of N indices each; a 1-D ``input`` is the bags one after the other, bag b starting at
    ``offsets[b]`` (with ``include_last_offset`` offsets has B + 1 entries, the last where the last bag ends, as in
    the CSR format of sparse matrices). It is ``embedding`` followed by a reduction over each bag, in one node and
    without the intermediate (entries, dim) tensor. ``per_sample_weights`` (mode 'sum' only) scales each entry's row
    before the sum; entries equal to ``padding_idx`` are left out of their bag; ``max_norm`` first shrinks, in
    place, the rows about to be read whose ``norm_type``-norm exceeds it.
    """
    if per_sample_weights is not None and input.shape != per_sample_weights.shape:
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it must "
                         f"have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
        rows, length = input._array.shape
        if length == 0:
            raise RuntimeError("step must be nonzero")  # (PyTorch's offsets are arange(0, numel, length))
        offsets, include_last_offset = _wrap(np.arange(0, rows * length, length, dtype=input._array.dtype)), False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        with no_grad():
            _renorm_(weight, input._array.reshape(-1), max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    if sparse:
        raise NotImplementedError("tinygrad_edu has no sparse tensors: use sparse=False (a dense gradient)")
    _check_bag_arguments(input, offsets, weight, per_sample_weights, include_last_offset)
    num = weight._array.shape[0]
    if padding_idx is not None and not -num <= padding_idx < num:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{num} through {num - 1}, but got "
                           f"{padding_idx}")
    pad = -1 if padding_idx is None else padding_idx % num
    weights = per_sample_weights if per_sample_weights is not None else _wrap(np.zeros(0, weight._array.dtype))
    return EmbeddingBagFunction.apply(weight, weights, (input, offsets, per_sample_weights is not None),
                                      _MODES[mode], pad, scale_grad_by_freq, include_last_offset)


class EmbeddingBag(Module):
    """A learnable table of ``num_embeddings`` vectors of size ``embedding_dim``, read by bags:
    ``layer(input, offsets)`` is the sum, mean (the default) or max of each bag's vectors (see
    :func:`embedding_bag`). A bag of words becomes one vector, with no (words, dim) tensor in between.
    The weights start N(0, 1); the ``padding_idx`` row starts at 0 and is left out of every bag."""

    def __init__(self, num_embeddings: int, embedding_dim: int, max_norm: float | None = None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                 _weight: Tensor | None = None, include_last_offset: bool = False, padding_idx: int | None = None,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.norm_type, self.scale_grad_by_freq = max_norm, norm_type, scale_grad_by_freq
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("padding_idx must be within num_embeddings")  # (an assert in PyTorch)
            padding_idx %= num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(_wrap(np.empty((num_embeddings, embedding_dim), (dtype or float32).np)))
            self.reset_parameters()
        else:
            if tuple(_weight._array.shape) != (num_embeddings, embedding_dim):
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight)
        self.mode, self.sparse, self.include_last_offset = mode, sparse, include_last_offset

    reset_parameters = Embedding.reset_parameters  # N(0, 1), the padding row set to 0: the same draws as Embedding

    def forward(self, input: Tensor, offsets: Tensor | None = None,
                per_sample_weights: Tensor | None = None) -> Tensor:
        return embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                             self.mode, self.sparse, per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}{_norm_options(self)}, mode={self.mode!r}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx!r}"
        return text

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True, max_norm: float | None = None,
                        norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean",
                        sparse: bool = False, include_last_offset: bool = False,
                        padding_idx: int | None = None) -> EmbeddingBag:
        """A layer whose table is ``embeddings`` (2-D), frozen (no gradient) unless ``freeze=False``."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings._array.shape
        layer = cls(rows, cols, max_norm, norm_type, scale_grad_by_freq, mode, sparse, embeddings,
                    include_last_offset, padding_idx)
        layer.weight.requires_grad = not freeze
        return layer
