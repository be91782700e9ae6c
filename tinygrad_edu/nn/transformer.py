"""The Transformer (Vaswani et al. 2017): ``TransformerEncoderLayer``, ``TransformerEncoder``,
``TransformerDecoderLayer``, ``TransformerDecoder`` and the whole encoder-decoder ``Transformer``.

An encoder layer lets every position of a sequence look at every other (self-attention), then transforms each
position on its own (a two-layer feed-forward network); each of the two blocks is added to its input (a residual
connection) and normalised (LayerNorm):

    x = norm1(x + dropout(self_attn(x, x, x)))                         post-norm, the paper's (norm_first=False)
    x = norm2(x + dropout(linear2(dropout(activation(linear1(x))))))

or, with ``norm_first=True`` (pre-norm, easier to train deep), x = x + block(norm(x)) for each block. A decoder
layer has a third block between the two: attention from its positions (queries) to the encoder's output, the
*memory* (keys and values). The residual sums let gradients reach early layers undiminished, whatever the depth.

Everything is composed from the library's layers (MultiheadAttention, Linear, LayerNorm, Dropout), so backward and
create_graph come from their ops, and the nodes are PyTorch's in training. A stack (``TransformerEncoder``,
``TransformerDecoder``) holds deep copies of the layer it is given, so they start equal and then learn apart.

PyTorch runs fused kernels in inference (eval mode, no gradient, batch_first ...): ``_transformer_encoder_layer_fwd``
and, for an encoder given a padding mask, nested tensors that skip the padding. Their values are this composition's
to rounding, but for one visible thing the encoder reproduces: with nested tensors, padded positions come out as
zeros (before the final norm). See :meth:`TransformerEncoder.forward`.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from ..core.grad_mode import GradMode
from . import functional as F
from .activation import GELU, Dropout, MultiheadAttention, ReLU
from .container import ModuleList
from .init import xavier_uniform_
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = ["Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerEncoderLayer"]


def _generate_square_subsequent_mask(sz: int, device: Any = None, dtype: Any = None) -> Tensor:
    """The causal mask (sz, sz): 0 on and below the diagonal, -inf above, so position i attends to 0..i only."""
    np_dtype = np.float32 if dtype is None else dtype.np
    return _wrap(np.triu(np.full((sz, sz), -np.inf, np_dtype), 1))


def _get_seq_len(src: Tensor, batch_first: bool) -> int:
    return src.size(0) if src.dim() == 2 else src.size(1 if batch_first else 0)


def _detect_is_causal_mask(mask: Tensor | None, is_causal: bool | None = None, size: int | None = None) -> bool:
    """``is_causal`` as given, or, when it is None, whether ``mask`` is exactly the causal mask (then attention may
    build the triangle itself rather than add the mask)."""
    if is_causal is not None or mask is None:
        return is_causal is True
    causal = _generate_square_subsequent_mask(size if size is not None else mask.size(-2), dtype=mask.dtype)
    return mask.shape == causal.shape and bool(np.array_equal(mask._array, causal._array))


def _get_clones(module: Module, n: int) -> ModuleList:
    """n deep copies of ``module``: equal weights at the start, separate parameters to learn."""
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _get_activation_fn(activation: str) -> Callable[[Tensor], Tensor]:
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _requires_grad(tensors: tuple) -> bool:
    """Whether autograd would record: grad mode on and a tensor that requires grad (PyTorch's fused paths need not)."""
    return GradMode.enabled and any(t is not None and t.requires_grad for t in tensors)


def _add_feed_forward(layer: Module, d_model: int, dim_feedforward: int, dropout: float, eps: float,
                      norm_first: bool, bias: bool, dtype: Any, blocks: int) -> None:
    """A layer's feed-forward network, norms and dropouts, registered in PyTorch's order (the order of the random
    draws and of ``print``): one norm and one dropout per residual block."""
    layer.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
    layer.dropout = Dropout(dropout)
    layer.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
    layer.norm_first = norm_first
    for i in range(1, blocks + 1):
        setattr(layer, f"norm{i}", LayerNorm(d_model, eps=eps, bias=bias, dtype=dtype))
    for i in range(1, blocks + 1):
        setattr(layer, f"dropout{i}", Dropout(dropout))


def _feed_forward(layer: Module, x: Tensor) -> Tensor:
    """linear2(dropout(activation(linear1(x)))): each position on its own, through a wider hidden layer."""
    return layer.linear2(layer.dropout(layer.activation(layer.linear1(x))))


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward network, each in a residual block (the module docstring):
    ``self_attn`` (MultiheadAttention(d_model, nhead)), ``linear1`` (d_model -> dim_feedforward), ``activation``
    (relu, gelu, or any callable), ``linear2`` (back to d_model), ``norm1``, ``norm2`` and dropouts.
    ``layer(src, src_mask=None, src_key_padding_mask=None, is_causal=False)`` returns a tensor of src's shape."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: str | Callable[[Tensor], Tensor] = F.relu, layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first,
                                            dtype=dtype)
        _add_feed_forward(self, d_model, dim_feedforward, dropout, layer_norm_eps, norm_first, bias, dtype, 2)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        # (PyTorch's fused kernel knows these two: 1 relu, 2 gelu, 0 another)
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def forward(self, src: Tensor, src_mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None,
                is_causal: bool = False) -> Tensor:
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(src_mask), "src_mask", src.dtype)
        src_mask = F._canonical_mask(src_mask, "src_mask", None, "", src.dtype, check_other=False)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal=is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal=is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None,
                  is_causal: bool = False) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout2(_feed_forward(self, x))


class TransformerDecoderLayer(Module):
    """Self-attention over the target, attention from the target to the encoder's output ``memory``, then a
    feed-forward network, each in a residual block: ``self_attn``, ``multihead_attn``, ``linear1``, ``linear2``,
    ``norm1``..``norm3`` and dropouts. ``layer(tgt, memory, tgt_mask=None, memory_mask=None, ...)`` returns a tensor
    of tgt's shape. A causal ``tgt_mask`` keeps each target position from seeing the ones after it."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: str | Callable[[Tensor], Tensor] = F.relu, layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias,
                                            dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 bias=bias, dtype=dtype)
        _add_feed_forward(self, d_model, dim_feedforward, dropout, layer_norm_eps, norm_first, bias, dtype, 3)
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) else activation

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None, memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool = False, memory_is_causal: bool = False) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    _sa_block = TransformerEncoderLayer._sa_block

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout3(_feed_forward(self, x))

    def _mha_block(self, x: Tensor, mem: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None,
                   is_causal: bool = False) -> Tensor:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)


def _why_not_nested(layer: Module) -> str:
    """Why PyTorch's encoder cannot use nested tensors (its sparsity fast path) with this layer, or ""."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attn = layer.self_attn
    checks = ((layer.norm_first, f"{name}.norm_first was True"),
              (not attn.batch_first, f"{name}.self_attn.batch_first was not True(use batch_first for better "
                                     "inference performance)"),
              (not attn._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not True"),
              (attn.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
              (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
              (layer.norm1.eps != layer.norm2.eps, f"{name}.norm1.eps was not equal to {name}.norm2.eps"),
              (attn.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd"))
    return next((why for failed, why in checks if failed), "")


class TransformerEncoder(Module):
    """``num_layers`` copies of ``encoder_layer`` (deep copies, in ``layers``), applied one after the other, then
    ``norm`` if given. ``encoder(src, mask=None, src_key_padding_mask=None, is_causal=None)``.

    ``enable_nested_tensor`` asks for PyTorch's inference path over padded batches; PyTorch warns at construction
    when the layer rules it out (odd heads, not batch_first ...), and so does this class."""

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm: Module | None = None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_not_nested(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False because {why_not}",
                          stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src: Tensor, mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None,
                is_causal: bool | None = None) -> Tensor:
        """The layers in turn. ``mask`` (S, S) is given to each layer's self-attention; when it is the causal mask
        (and ``is_causal`` is None), the layers are told so.

        In inference on a padded batch (eval mode, no gradient, ``src_key_padding_mask`` padding at the end of each
        sequence, a layer that allows it), PyTorch packs the sequences into a nested tensor, without their padding,
        and unpacks the result with zeros where the padding was. The other positions are what the layers compute
        with the padding masked, so this class computes that and puts the zeros in."""
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(mask), "mask", src.dtype)
        mask = F._canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        first = self.layers[0]
        padding = None  # the positions PyTorch's nested tensors leave out
        if (self.use_nested_tensor and not first.training and src.dim() == 3 and src_key_padding_mask is not None
                and mask is None):
            keep = ~np.isneginf(src_key_padding_mask._array)  # (canonical: -inf where padded)
            left_aligned = bool((np.diff(keep.astype(np.int8), axis=1) <= 0).all())
            if left_aligned and not _requires_grad((src, *first.parameters())):
                padding = ~keep
        seq_len = _get_seq_len(src, first.self_attn.batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=is_causal, src_key_padding_mask=src_key_padding_mask)
        if padding is not None:
            output = output.masked_fill(_wrap(padding[..., None] if first.self_attn.batch_first else
                                              padding.T[..., None]), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Module):
    """``num_layers`` copies of ``decoder_layer`` (in ``layers``), each reading the previous one's output and the
    same ``memory``, then ``norm`` if given. ``decoder(tgt, memory, tgt_mask=None, memory_mask=None, ...)``."""

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None, memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """The encoder-decoder of "Attention Is All You Need": ``encoder`` (``num_encoder_layers`` encoder layers and a
    LayerNorm) reads ``src``; ``decoder`` (``num_decoder_layers`` decoder layers and a LayerNorm) reads ``tgt`` and
    attends to the encoder's output. ``model(src, tgt, src_mask=None, tgt_mask=None, ...)`` returns the decoder's
    output, tgt's shape. After construction every weight matrix (every parameter of 2 or more dimensions) is drawn
    again, xavier-uniform, in parameter order, as PyTorch does.

    The inputs are embeddings already: a model adds its own token embedding, positional encoding and output layer.
    For a decoder that must not look ahead, pass ``tgt_mask=Transformer.generate_square_subsequent_mask(T)``."""

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6, num_decoder_layers: int = 6,
                 dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: str | Callable[[Tensor], Tensor] = F.relu, custom_encoder: Any | None = None,
                 custom_decoder: Any | None = None, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(*args, dtype=dtype)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(*args, dtype=dtype)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        self._reset_parameters()
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None, memory_key_padding_mask: Tensor | None = None,
                src_is_causal: bool | None = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        is_batched = src.dim() == 3
        if is_batched and src.size(0 if self.batch_first else 1) != tgt.size(0 if self.batch_first else 1):
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None, dtype: Any = None) -> Tensor:
        """The causal mask (sz, sz): float, 0 where position i may attend to j (j <= i), -inf where not (j > i).

        >>> Transformer.generate_square_subsequent_mask(3)
        tensor([[0., -inf, -inf],
                [0., 0., -inf],
                [0., 0., 0.]])
        """
        return _generate_square_subsequent_mask(sz, device=device, dtype=dtype)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)
