"""Attention and the Transformer against PyTorch 2.13: F.scaled_dot_product_attention, F.multi_head_attention_forward,
nn.MultiheadAttention, nn.TransformerEncoderLayer/Encoder, nn.TransformerDecoderLayer/Decoder and nn.Transformer.

Their initial weights after ``manual_seed`` (bit for bit), printing, outputs and every gradient in float64 (to 1e-12)
and float32 (to 1e-5) across masks (bool and float, padding and attention, causal), batch_first, unbatched input,
kdim/vdim, bias_k/bias_v, zero attention, norm_first, gelu and dropout (the same seed draws the same masks); the
graph's node names; finite differences (gradcheck, gradgradcheck); errors and warnings; and a small training program
in the style of the tutorials, whose printed losses are PyTorch's.

Each case is run with tinygrad_edu and, when torch is installed, with torch (``_oracle.as_pytorch``); the expected
outcome is spelled out next to it, so each test means something without torch.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import Text, as_pytorch, node_names, ok, oracle, raises

import tinygrad_edu as tg
from tinygrad_edu.autograd import gradcheck, gradgradcheck

Build = Callable[[Any], Any]  # a function of ``lib.nn`` that makes a module


def _module(lib: ModuleType, build: Build, seed: int = 1) -> Any:
    lib.manual_seed(seed)
    return build(lib.nn)


def _fsum(t: Any) -> str:
    return repr(math.fsum(t.detach().reshape(-1).tolist()))


# -- initial weights: PyTorch's draws, in PyTorch's order -----------------------------------------------------------
INITIAL_WEIGHTS: dict[str, Build] = {
    "MultiheadAttention(8, 2)": lambda nn: nn.MultiheadAttention(8, 2),
    "MultiheadAttention, kdim and vdim": lambda nn: nn.MultiheadAttention(4, 2, kdim=3, vdim=5),
    "MultiheadAttention, bias_k/bias_v, no bias": lambda nn: nn.MultiheadAttention(4, 2, add_bias_kv=True,
                                                                                   bias=False),
    "TransformerEncoderLayer": lambda nn: nn.TransformerEncoderLayer(4, 2, 6),
    "TransformerEncoder of 2 layers": lambda nn: nn.TransformerEncoder(
        nn.TransformerEncoderLayer(4, 2, 6, batch_first=True), 2),  # (batch_first: no warning, see below)
    "TransformerDecoderLayer": lambda nn: nn.TransformerDecoderLayer(4, 2, 6),
    "Transformer": lambda nn: nn.Transformer(4, 2, 1, 1, 6, batch_first=True),
}
INITIAL_WEIGHTS_PRINTED: dict[str, str] = {
    'MultiheadAttention(8, 2)': (
        'in_proj_weight [24, 8] 3.998697714880109\n'
        'in_proj_bias [24] 0.0\n'
        'out_proj.weight [8, 8] 1.4066560270730406\n'
        'out_proj.bias [8] 0.0'),
    'MultiheadAttention, kdim and vdim': (
        'q_proj_weight [4, 4] -1.3182255774736404\n'
        'k_proj_weight [4, 3] 1.6157030276954174\n'
        'v_proj_weight [4, 5] 1.113936085253954\n'
        'in_proj_bias [12] 0.0\n'
        'out_proj.weight [4, 4] 0.23327398300170898\n'
        'out_proj.bias [4] 0.0'),
    'MultiheadAttention, bias_k/bias_v, no bias': (
        'in_proj_weight [12, 4] 2.1506986294407398\n'
        'bias_k [1, 1, 4] -0.8401823900640011\n'
        'bias_v [1, 1, 4] 0.008471280336380005\n'
        'out_proj.weight [4, 4] 0.23327398300170898'),
    'TransformerEncoderLayer': (
        'self_attn.in_proj_weight [12, 4] 0.9720127084292471\n'
        'self_attn.in_proj_bias [12] 0.0\n'
        'self_attn.out_proj.weight [4, 4] 0.23327398300170898\n'
        'self_attn.out_proj.bias [4] 0.0\n'
        'linear1.weight [6, 4] -0.6816133856773376\n'
        'linear1.bias [6] -0.09141892194747925\n'
        'linear2.weight [4, 6] 1.2470902018249035\n'
        'linear2.bias [4] 0.14059340953826904\n'
        'norm1.weight [4] 4.0\n'
        'norm1.bias [4] 0.0\n'
        'norm2.weight [4] 4.0\n'
        'norm2.bias [4] 0.0'),
    'TransformerEncoder of 2 layers': (
        'layers.0.self_attn.in_proj_weight [12, 4] 0.9720127084292471\n'
        'layers.0.self_attn.in_proj_bias [12] 0.0\n'
        'layers.0.self_attn.out_proj.weight [4, 4] 0.23327398300170898\n'
        'layers.0.self_attn.out_proj.bias [4] 0.0\n'
        'layers.0.linear1.weight [6, 4] -0.6816133856773376\n'
        'layers.0.linear1.bias [6] -0.09141892194747925\n'
        'layers.0.linear2.weight [4, 6] 1.2470902018249035\n'
        'layers.0.linear2.bias [4] 0.14059340953826904\n'
        'layers.0.norm1.weight [4] 4.0\n'
        'layers.0.norm1.bias [4] 0.0\n'
        'layers.0.norm2.weight [4] 4.0\n'
        'layers.0.norm2.bias [4] 0.0\n'
        'layers.1.self_attn.in_proj_weight [12, 4] 0.9720127084292471\n'
        'layers.1.self_attn.in_proj_bias [12] 0.0\n'
        'layers.1.self_attn.out_proj.weight [4, 4] 0.23327398300170898\n'
        'layers.1.self_attn.out_proj.bias [4] 0.0\n'
        'layers.1.linear1.weight [6, 4] -0.6816133856773376\n'
        'layers.1.linear1.bias [6] -0.09141892194747925\n'
        'layers.1.linear2.weight [4, 6] 1.2470902018249035\n'
        'layers.1.linear2.bias [4] 0.14059340953826904\n'
        'layers.1.norm1.weight [4] 4.0\n'
        'layers.1.norm1.bias [4] 0.0\n'
        'layers.1.norm2.weight [4] 4.0\n'
        'layers.1.norm2.bias [4] 0.0'),
    'TransformerDecoderLayer': (
        'self_attn.in_proj_weight [12, 4] 0.9720127084292471\n'
        'self_attn.in_proj_bias [12] 0.0\n'
        'self_attn.out_proj.weight [4, 4] 0.23327398300170898\n'
        'self_attn.out_proj.bias [4] 0.0\n'
        'multihead_attn.in_proj_weight [12, 4] 3.6798658668994904\n'
        'multihead_attn.in_proj_bias [12] 0.0\n'
        'multihead_attn.out_proj.weight [4, 4] -0.5979933142662048\n'
        'multihead_attn.out_proj.bias [4] 0.0\n'
        'linear1.weight [6, 4] -0.5533976554870605\n'
        'linear1.bias [6] 0.15233588218688965\n'
        'linear2.weight [4, 6] -0.7547176973894238\n'
        'linear2.bias [4] -0.17969615571200848\n'
        'norm1.weight [4] 4.0\n'
        'norm1.bias [4] 0.0\n'
        'norm2.weight [4] 4.0\n'
        'norm2.bias [4] 0.0\n'
        'norm3.weight [4] 4.0\n'
        'norm3.bias [4] 0.0'),
    'Transformer': (
        'encoder.layers.0.self_attn.in_proj_weight [12, 4] -2.9433937394060194\n'
        'encoder.layers.0.self_attn.in_proj_bias [12] 0.0\n'
        'encoder.layers.0.self_attn.out_proj.weight [4, 4] 0.3704201765358448\n'
        'encoder.layers.0.self_attn.out_proj.bias [4] 0.0\n'
        'encoder.layers.0.linear1.weight [6, 4] 0.9923279900103807\n'
        'encoder.layers.0.linear1.bias [6] -0.09141892194747925\n'
        'encoder.layers.0.linear2.weight [4, 6] 0.37897205725312233\n'
        'encoder.layers.0.linear2.bias [4] 0.14059340953826904\n'
        'encoder.layers.0.norm1.weight [4] 4.0\n'
        'encoder.layers.0.norm1.bias [4] 0.0\n'
        'encoder.layers.0.norm2.weight [4] 4.0\n'
        'encoder.layers.0.norm2.bias [4] 0.0\n'
        'encoder.norm.weight [4] 4.0\n'
        'encoder.norm.bias [4] 0.0\n'
        'decoder.layers.0.self_attn.in_proj_weight [12, 4] 2.5954520227387547\n'
        'decoder.layers.0.self_attn.in_proj_bias [12] 0.0\n'
        'decoder.layers.0.self_attn.out_proj.weight [4, 4] 1.7851132676005363\n'
        'decoder.layers.0.self_attn.out_proj.bias [4] 0.0\n'
        'decoder.layers.0.multihead_attn.in_proj_weight [12, 4] -6.620657121296972\n'
        'decoder.layers.0.multihead_attn.in_proj_bias [12] 0.0\n'
        'decoder.layers.0.multihead_attn.out_proj.weight [4, 4] -1.307799195870757\n'
        'decoder.layers.0.multihead_attn.out_proj.bias [4] 0.0\n'
        'decoder.layers.0.linear1.weight [6, 4] -1.8042930425144732\n'
        'decoder.layers.0.linear1.bias [6] -0.30928361415863037\n'
        'decoder.layers.0.linear2.weight [4, 6] 4.687847772613168\n'
        'decoder.layers.0.linear2.bias [4] 0.4919736832380295\n'
        'decoder.layers.0.norm1.weight [4] 4.0\n'
        'decoder.layers.0.norm1.bias [4] 0.0\n'
        'decoder.layers.0.norm2.weight [4] 4.0\n'
        'decoder.layers.0.norm2.bias [4] 0.0\n'
        'decoder.layers.0.norm3.weight [4] 4.0\n'
        'decoder.layers.0.norm3.bias [4] 0.0\n'
        'decoder.norm.weight [4] 4.0\n'
        'decoder.norm.bias [4] 0.0'),
}


def _weights(lib: ModuleType, build: Build) -> Text:
    """Each parameter's name, shape and exact sum (math.fsum of its values: equal sums, equal draws)."""
    return Text("\n".join(f"{name} {list(p.shape)} {_fsum(p)}" for name, p in _module(lib, build).named_parameters()))


@pytest.mark.filterwarnings("ignore:enable_nested_tensor")
@pytest.mark.parametrize("name", INITIAL_WEIGHTS)
def test_initial_weights_are_pytorchs(name: str) -> None:
    build = INITIAL_WEIGHTS[name]
    as_pytorch(lambda lib: _weights(lib, build), ok(INITIAL_WEIGHTS_PRINTED[name]))
    torch = oracle()
    if torch is not None:  # bit for bit, not only the sums
        ours, theirs = _module(tg, build), _module(torch, build)
        for (n1, p1), (n2, p2) in zip(ours.named_parameters(), theirs.named_parameters(), strict=True):
            assert n1 == n2 and np.array_equal(p1.detach().numpy(), p2.detach().numpy()), n1


# -- printing ---------------------------------------------------------------------------------------------------------
PRINTED: dict[str, Build] = {
    "MultiheadAttention": lambda nn: nn.MultiheadAttention(8, 2, kdim=3, vdim=5, bias=False),
    "TransformerEncoderLayer, GELU module": lambda nn: nn.TransformerEncoderLayer(4, 2, 6, activation=nn.GELU()),
    "TransformerEncoder of 2 layers, with a norm": lambda nn: nn.TransformerEncoder(
        nn.TransformerEncoderLayer(4, 2, 6, batch_first=True), 2, nn.LayerNorm(4)),
    "Transformer": lambda nn: nn.Transformer(4, 2, 1, 2, 6, layer_norm_eps=1e-6, bias=False, batch_first=True),
}
PRINTED_TEXT: dict[str, str] = {
    'MultiheadAttention': (
        'MultiheadAttention(\n'
        '  (out_proj): NonDynamicallyQuantizableLinear(in_features=8, out_features=8, bias=False)\n'
        ')'),
    'TransformerEncoderLayer, GELU module': (
        'TransformerEncoderLayer(\n'
        '  (self_attn): MultiheadAttention(\n'
        '    (out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=True)\n'
        '  )\n'
        '  (linear1): Linear(in_features=4, out_features=6, bias=True)\n'
        '  (dropout): Dropout(p=0.1, inplace=False)\n'
        '  (linear2): Linear(in_features=6, out_features=4, bias=True)\n'
        '  (norm1): LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)\n'
        '  (norm2): LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)\n'
        '  (dropout1): Dropout(p=0.1, inplace=False)\n'
        '  (dropout2): Dropout(p=0.1, inplace=False)\n'
        "  (activation): GELU(approximate='none')\n"
        ')'),
    'TransformerEncoder of 2 layers, with a norm': (
        'TransformerEncoder(\n'
        '  (layers): ModuleList(\n'
        '    (0-1): 2 x TransformerEncoderLayer(\n'
        '      (self_attn): MultiheadAttention(\n'
        '        (out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=True)\n'
        '      )\n'
        '      (linear1): Linear(in_features=4, out_features=6, bias=True)\n'
        '      (dropout): Dropout(p=0.1, inplace=False)\n'
        '      (linear2): Linear(in_features=6, out_features=4, bias=True)\n'
        '      (norm1): LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)\n'
        '      (norm2): LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)\n'
        '      (dropout1): Dropout(p=0.1, inplace=False)\n'
        '      (dropout2): Dropout(p=0.1, inplace=False)\n'
        '    )\n'
        '  )\n'
        '  (norm): LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)\n'
        ')'),
    'Transformer': (
        'Transformer(\n'
        '  (encoder): TransformerEncoder(\n'
        '    (layers): ModuleList(\n'
        '      (0): TransformerEncoderLayer(\n'
        '        (self_attn): MultiheadAttention(\n'
        '          (out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=False)\n'
        '        )\n'
        '        (linear1): Linear(in_features=4, out_features=6, bias=False)\n'
        '        (dropout): Dropout(p=0.1, inplace=False)\n'
        '        (linear2): Linear(in_features=6, out_features=4, bias=False)\n'
        '        (norm1): LayerNorm((4,), eps=1e-06, elementwise_affine=True, bias=False)\n'
        '        (norm2): LayerNorm((4,), eps=1e-06, elementwise_affine=True, bias=False)\n'
        '        (dropout1): Dropout(p=0.1, inplace=False)\n'
        '        (dropout2): Dropout(p=0.1, inplace=False)\n'
        '      )\n'
        '    )\n'
        '    (norm): LayerNorm((4,), eps=1e-06, elementwise_affine=True, bias=False)\n'
        '  )\n'
        '  (decoder): TransformerDecoder(\n'
        '    (layers): ModuleList(\n'
        '      (0-1): 2 x TransformerDecoderLayer(\n'
        '        (self_attn): MultiheadAttention(\n'
        '          (out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=False)\n'
        '        )\n'
        '        (multihead_attn): MultiheadAttention(\n'
        '          (out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=False)\n'
        '        )\n'
        '        (linear1): Linear(in_features=4, out_features=6, bias=False)\n'
        '        (dropout): Dropout(p=0.1, inplace=False)\n'
        '        (linear2): Linear(in_features=6, out_features=4, bias=False)\n'
        '        (norm1): LayerNorm((4,), eps=1e-06, elementwise_affine=True, bias=False)\n'
        '        (norm2): LayerNorm((4,), eps=1e-06, elementwise_affine=True, bias=False)\n'
        '        (norm3): LayerNorm((4,), eps=1e-06, elementwise_affine=True, bias=False)\n'
        '        (dropout1): Dropout(p=0.1, inplace=False)\n'
        '        (dropout2): Dropout(p=0.1, inplace=False)\n'
        '        (dropout3): Dropout(p=0.1, inplace=False)\n'
        '      )\n'
        '    )\n'
        '    (norm): LayerNorm((4,), eps=1e-06, elementwise_affine=True, bias=False)\n'
        '  )\n'
        ')'),
}


@pytest.mark.filterwarnings("ignore:enable_nested_tensor")
@pytest.mark.parametrize("name", PRINTED)
def test_printing_is_pytorchs(name: str) -> None:
    warned = ["UserWarning: enable_nested_tensor is True, but self.use_nested_tensor is False because "
              "encoder_layer.self_attn was passed bias=False"] if name == "Transformer" else []
    as_pytorch(lambda lib: Text(str(_module(lib, PRINTED[name]))), (None, PRINTED_TEXT[name], warned))


def test_the_causal_mask() -> None:
    as_pytorch(lambda lib: lib.nn.Transformer.generate_square_subsequent_mask(3),
               ok("tensor([[0., -inf, -inf],\n        [0., 0., -inf],\n        [0., 0., 0.]])"))
    as_pytorch(lambda lib: lib.nn.Transformer.generate_square_subsequent_mask(2, dtype=lib.float64),
               ok("tensor([[0., -inf],\n        [0., 0.]], dtype=tinygrad_edu.float64)"))


# -- outputs and every gradient ---------------------------------------------------------------------------------------
# A case is a function (lib, dtype) -> (results, leaves): what it computes, and the tensors whose gradients are
# compared (inputs, then the module's parameters). Inputs and float masks come from numpy's generator, so both
# libraries see the same numbers; modules are built after manual_seed(0) in float32, then converted.
Case = Callable[[ModuleType, str], tuple[list, list]]


def _data(lib: ModuleType, dtype: str, *shape: int, seed: int = 0, grad: bool = True) -> Any:
    t = lib.tensor(np.random.default_rng(seed).normal(size=shape), dtype=getattr(lib, dtype))
    return t.requires_grad_(grad)


def _flags(lib: ModuleType, *shape: int, seed: int = 5, p: float = 0.3, last: bool = True) -> Any:
    """A random bool mask (True with probability p), whose last column is False when ``last`` (so that no row is
    all True: a query that sees no key gives nan in MultiheadAttention's weights, as in PyTorch)."""
    flags = np.random.default_rng(seed).random(shape) < p
    if last:
        flags[..., -1] = False
    return lib.tensor(flags)


def _sdpa(shapes: tuple, mask: str | None = None, **kwargs: Any) -> Case:
    def case(lib: ModuleType, dtype: str) -> tuple[list, list]:
        q, k, v = (_data(lib, dtype, *s, seed=i) for i, s in enumerate(shapes))
        attn_mask = {None: None, "bool": _flags(lib, shapes[0][-2], shapes[1][-2], p=0.7, last=False),
                     "float": _data(lib, dtype, shapes[0][-2], shapes[1][-2], seed=9, grad=False)}[mask]
        if mask == "bool":  # (True: may attend; a row all False is a query that sees nothing: zeros)
            attn_mask[1] = False
        lib.manual_seed(0)
        return [lib.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask, **kwargs)], [q, k, v]
    return case


def _mha(build: Build, shapes: tuple, same: str = "", call: Callable | None = None, **kwargs: Any) -> Case:
    """MultiheadAttention built by ``build``, called on query, key, value of ``shapes`` (``same``: "qkv" passes one
    tensor three times, "kv" one for key and value), with ``call(lib, dtype)``'s extra arguments (masks)."""
    def case(lib: ModuleType, dtype: str) -> tuple[list, list]:
        m = _module(lib, build, seed=0).to(getattr(lib, dtype))
        q = _data(lib, dtype, *shapes[0], seed=1)
        k = q if same == "qkv" else _data(lib, dtype, *shapes[1], seed=2)
        v = k if same in ("qkv", "kv") else _data(lib, dtype, *shapes[2], seed=3)
        extra = call(lib, dtype) if call else {}
        out, weights = m(q, k, v, **extra, **kwargs)
        leaves = list(dict.fromkeys([q, k, v]))  # (each input once)
        return [out, weights], leaves + list(m.parameters())
    return case


def _kpm_and_mask(lib: ModuleType, dtype: str) -> dict:
    return {"key_padding_mask": _flags(lib, 3, 5), "attn_mask": _flags(lib, 4, 5, seed=6)}


def _float_masks(lib: ModuleType, dtype: str) -> dict:
    return {"key_padding_mask": _data(lib, dtype, 3, 5, seed=7, grad=False),
            "attn_mask": _data(lib, dtype, 6, 4, 5, seed=8, grad=False)}


def _causal(lib: ModuleType, dtype: str) -> dict:
    return {"attn_mask": lib.nn.Transformer.generate_square_subsequent_mask(5, dtype=getattr(lib, dtype)),
            "is_causal": True}


def _layer(build: Build, src: tuple, tgt: tuple | None = None, call: Callable | None = None,
           train: bool = True) -> Case:
    """A Transformer module on ``src`` (and ``tgt``: a decoder's memory and target, or a Transformer's source and
    target), with ``call(lib, dtype)``'s masks."""
    def case(lib: ModuleType, dtype: str) -> tuple[list, list]:
        m = _module(lib, build, seed=0).to(getattr(lib, dtype)).train(train)
        inputs = [_data(lib, dtype, *src, seed=1)] + ([_data(lib, dtype, *tgt, seed=2)] if tgt else [])
        lib.manual_seed(3)  # (dropout's masks)
        return [m(*inputs, **(call(lib, dtype) if call else {}))], inputs + list(m.parameters())
    return case


CASES: dict[str, Case] = {
    "sdpa": _sdpa(((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7))),
    "sdpa causal, scale": _sdpa(((2, 4, 5), (2, 6, 5), (2, 6, 3)), is_causal=True, scale=0.3),
    "sdpa bool mask, a row that sees nothing": _sdpa(((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7)), "bool"),
    "sdpa float mask, unbatched": _sdpa(((4, 5), (6, 5), (6, 7)), "float"),
    "sdpa grouped-query": _sdpa(((2, 4, 4, 5), (2, 2, 6, 5), (2, 1, 6, 7)), enable_gqa=True),
    "sdpa dropout": _sdpa(((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7)), dropout_p=0.4),
    "sdpa fused: one head size": _sdpa(((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5))),
    "sdpa fused: bool mask, a row that sees nothing": _sdpa(((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)), "bool"),
    "sdpa fused: causal, grouped-query, scale": _sdpa(((1, 4, 5, 3), (1, 2, 5, 3), (1, 2, 5, 3)), is_causal=True,
                                                      enable_gqa=True, scale=0.7),
    "mha self-attention": _mha(lambda nn: nn.MultiheadAttention(8, 2), ((4, 3, 8),), same="qkv"),
    "mha no weights": _mha(lambda nn: nn.MultiheadAttention(8, 2), ((4, 3, 8),), same="qkv", need_weights=False),
    "mha batch_first, per-head weights": _mha(lambda nn: nn.MultiheadAttention(8, 4, batch_first=True),
                                              ((3, 4, 8),), same="qkv", average_attn_weights=False),
    "mha key is value": _mha(lambda nn: nn.MultiheadAttention(8, 2), ((4, 3, 8), (5, 3, 8)), same="kv"),
    "mha kdim, vdim": _mha(lambda nn: nn.MultiheadAttention(8, 2, kdim=3, vdim=5),
                           ((4, 3, 8), (5, 3, 3), (5, 3, 5))),
    "mha bool masks": _mha(lambda nn: nn.MultiheadAttention(8, 2), ((4, 3, 8), (5, 3, 8), (5, 3, 8)),
                           call=_kpm_and_mask),
    "mha bool masks, no weights": _mha(lambda nn: nn.MultiheadAttention(8, 2), ((4, 3, 8), (5, 3, 8), (5, 3, 8)),
                                       call=_kpm_and_mask, need_weights=False),
    "mha float masks, 3-D": _mha(lambda nn: nn.MultiheadAttention(8, 2), ((4, 3, 8), (5, 3, 8), (5, 3, 8)),
                                 call=_float_masks),
    "mha causal hint": _mha(lambda nn: nn.MultiheadAttention(8, 2), ((5, 3, 8),), same="qkv", call=_causal,
                            need_weights=False),
    "mha bias_k, bias_v, zero attention, no bias": _mha(
        lambda nn: nn.MultiheadAttention(8, 2, add_bias_kv=True, add_zero_attn=True, bias=False),
        ((4, 3, 8), (5, 3, 8), (5, 3, 8)), call=_kpm_and_mask),
    "mha unbatched": _mha(lambda nn: nn.MultiheadAttention(8, 2), ((4, 8), (5, 8), (5, 8)),
                          call=lambda lib, dtype: {"key_padding_mask": _flags(lib, 5)}),
    "mha dropout": _mha(lambda nn: nn.MultiheadAttention(8, 2, dropout=0.3), ((4, 3, 8),), same="qkv"),
    "mha dropout, no weights": _mha(lambda nn: nn.MultiheadAttention(8, 2, dropout=0.3), ((4, 3, 8),), same="qkv",
                                    need_weights=False),
    "encoder layer, causal mask and padding": _layer(
        lambda nn: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), (5, 3, 8),
        call=lambda lib, dtype: {"src_mask": lib.nn.Transformer.generate_square_subsequent_mask(5),
                                 "src_key_padding_mask": _flags(lib, 3, 5)}),
    "encoder layer, norm_first, gelu, batch_first, dropout": _layer(
        lambda nn: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.2, activation="gelu", norm_first=True,
                                              batch_first=True), (3, 5, 8)),
    "encoder of 2 layers, causal mask found": _layer(
        lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2,
                                         nn.LayerNorm(8)), (3, 5, 8),
        call=lambda lib, dtype: {"mask": lib.nn.Transformer.generate_square_subsequent_mask(5,
                                                                                           dtype=getattr(lib, dtype))}),
    "decoder layer, masks": _layer(
        lambda nn: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), (4, 3, 8), (6, 3, 8),
        call=lambda lib, dtype: {"tgt_mask": lib.nn.Transformer.generate_square_subsequent_mask(4),
                                 "memory_key_padding_mask": _flags(lib, 3, 6)}),
    "decoder of 2 layers, norm_first, relu module": _layer(
        lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 4, 16, activation=nn.ReLU(),
                                                                    norm_first=True), 2), (4, 3, 8), (6, 3, 8)),
    "transformer, dropout": _layer(lambda nn: nn.Transformer(8, 2, 2, 1, 16), (6, 3, 8), (4, 3, 8),
                                   call=lambda lib, dtype: {
                                       "tgt_mask": lib.nn.Transformer.generate_square_subsequent_mask(4),
                                       "src_key_padding_mask": _flags(lib, 3, 6)}),
    "transformer unbatched, batch_first": _layer(lambda nn: nn.Transformer(8, 2, 1, 1, 16, dropout=0.0,
                                                                           batch_first=True), (6, 8), (4, 8)),
}
# (the last two arguments of "transformer, dropout" are the source and the target, in Transformer's order)


def _run(lib: ModuleType, name: str, dtype: str) -> tuple[list, list]:
    """The case's results and the gradients of a weighted sum of them, as arrays (None stays None)."""
    results, leaves = CASES[name](lib, dtype)
    loss = sum((r * lib.arange(r.numel(), dtype=r.dtype).reshape(r.shape).sin()).sum() for r in results
               if r is not None)
    loss.backward()
    return ([None if r is None else r.detach().numpy() for r in results],
            [None if t.grad is None else t.grad.numpy() for t in leaves])


def _fingerprint(arrays: list) -> str:
    """Each array's shape and sum, to 6 decimals: enough to tell a wrong number, stable under rounding."""
    sums = ("None" if a is None else f"{list(a.shape)}:{math.fsum(a.reshape(-1).tolist()):.6f}" for a in arrays)
    return " ".join(s.replace("-0.000000", "0.000000") for s in sums)  # (a sum that is 0 but for rounding)


FINGERPRINTS: dict[str, str] = {
    'sdpa': (
        '[2, 3, 4, 7]:-2.252812 [2, 3, 4, 5]:1.267334 [2, 3, 6, 5]:0.000000 [2, 3, 6, 7]:1.482598'),
    'sdpa causal, scale': (
        '[2, 4, 3]:0.509000 [2, 4, 5]:-0.547041 [2, 6, 5]:0.000000 [2, 6, 3]:0.979806'),
    'sdpa bool mask, a row that sees nothing': (
        '[2, 3, 4, 7]:-4.476906 [2, 3, 4, 5]:0.695466 [2, 3, 6, 5]:0.000000 [2, 3, 6, 7]:0.944365'),
    'sdpa float mask, unbatched': (
        '[4, 7]:2.242127 [4, 5]:-1.918368 [6, 5]:0.000000 [6, 7]:1.660810'),
    'sdpa grouped-query': (
        '[2, 4, 4, 7]:16.085594 [2, 4, 4, 5]:-0.090456 [2, 2, 6, 5]:0.000000 [2, 1, 6, 7]:1.855726'),
    'sdpa dropout': (
        '[2, 3, 4, 7]:-5.660911 [2, 3, 4, 5]:-1.525285 [2, 3, 6, 5]:0.000000 [2, 3, 6, 7]:2.983263'),
    'sdpa fused: one head size': (
        '[2, 3, 4, 5]:-4.029392 [2, 3, 4, 5]:-0.380336 [2, 3, 6, 5]:0.000000 [2, 3, 6, 5]:-0.120236'),
    'sdpa fused: bool mask, a row that sees nothing': (
        '[2, 3, 4, 5]:0.839105 [2, 3, 4, 5]:3.461314 [2, 3, 6, 5]:0.000000 [2, 3, 6, 5]:-0.425298'),
    'sdpa fused: causal, grouped-query, scale': (
        '[1, 4, 5, 3]:-0.578215 [1, 4, 5, 3]:0.168265 [1, 2, 5, 3]:0.000000 [1, 2, 5, 3]:1.939339'),
    'mha self-attention': (
        '[4, 3, 8]:3.057876 [3, 4, 4]:12.000000 [4, 3, 8]:0.644503 [24, 8]:0.583181 [24]:0.406485 [8, '
        '8]:-3.705801 [8]:0.588588'),
    'mha no weights': (
        '[4, 3, 8]:3.057876 None [4, 3, 8]:0.586972 [24, 8]:-1.453314 [24]:0.393425 [8, 8]:-3.705801 '
        '[8]:0.588588'),
    'mha batch_first, per-head weights': (
        '[3, 4, 8]:2.858296 [3, 4, 4, 4]:48.000000 [3, 4, 8]:0.358064 [24, 8]:1.104848 [24]:0.432743 [8, '
        '8]:-1.745358 [8]:0.588588'),
    'mha key is value': (
        '[4, 3, 8]:-2.852066 [3, 4, 5]:12.000000 [4, 3, 8]:0.153634 [5, 3, 8]:0.365445 [24, 8]:-0.618512 '
        '[24]:0.056425 [8, 8]:-5.962929 [8]:0.588588'),
    'mha kdim, vdim': (
        '[4, 3, 8]:6.922946 [3, 4, 5]:12.000000 [4, 3, 8]:1.621909 [5, 3, 3]:0.000000 [5, 3, 5]:-0.929490 [8, '
        '8]:3.528715 [8, 3]:1.060900 [8, 5]:-0.062866 [24]:-1.214942 [8, 8]:3.655069 [8]:0.588588'),
    'mha bool masks': (
        '[4, 3, 8]:1.254122 [3, 4, 5]:12.000000 [4, 3, 8]:-0.006338 [5, 3, 8]:0.000000 [5, 3, 8]:0.365445 '
        '[24, 8]:3.139197 [24]:0.154099 [8, 8]:-3.825077 [8]:0.588588'),
    'mha bool masks, no weights': (
        '[4, 3, 8]:1.254122 None [4, 3, 8]:0.060077 [5, 3, 8]:0.000000 [5, 3, 8]:0.365445 [24, 8]:3.445694 '
        '[24]:0.307694 [8, 8]:-3.825077 [8]:0.588588'),
    'mha float masks, 3-D': (
        '[4, 3, 8]:-1.115703 [3, 4, 5]:12.000000 [4, 3, 8]:-0.206216 [5, 3, 8]:0.000000 [5, 3, 8]:0.365445 '
        '[24, 8]:2.881397 [24]:0.039663 [8, 8]:-2.802192 [8]:0.588588'),
    'mha causal hint': (
        '[5, 3, 8]:0.131492 None [5, 3, 8]:0.314319 [24, 8]:-1.139332 [24]:0.322887 [8, 8]:-4.670125 '
        '[8]:-0.120236'),
    'mha bias_k, bias_v, zero attention, no bias': (
        '[4, 3, 8]:-7.116718 [3, 4, 7]:12.000000 [4, 3, 8]:0.304096 [5, 3, 8]:-0.511874 [5, 3, 8]:-0.592568 '
        '[24, 8]:2.391750 [1, 1, 8]:0.193471 [1, 1, 8]:-0.004960 [8, 8]:-1.081328'),
    'mha unbatched': (
        '[4, 8]:-1.199711 [4, 5]:4.000000 [4, 8]:0.107975 [5, 8]:0.000000 [5, 8]:0.148481 [24, 8]:-0.524935 '
        '[24]:-0.451635 [8, 8]:1.204667 [8]:-0.123987'),
    'mha dropout': (
        '[4, 3, 8]:5.126599 [3, 4, 4]:12.297110 [4, 3, 8]:0.498853 [24, 8]:0.873351 [24]:1.227954 [8, '
        '8]:-2.064090 [8]:0.588588'),
    'mha dropout, no weights': (
        '[4, 3, 8]:5.126599 None [4, 3, 8]:0.619840 [24, 8]:-1.780079 [24]:1.076608 [8, 8]:-2.064090 '
        '[8]:0.588588'),
    'encoder layer, causal mask and padding': (
        '[5, 3, 8]:0.000000 [5, 3, 8]:-0.170377 [24, 8]:0.024617 [24]:0.006302 [8, 8]:0.000000 [8]:0.000000 '
        '[16, 8]:0.000000 [16]:-0.375605 [8, 16]:0.000000 [8]:0.000000 [8]:0.092960 [8]:0.320370 [8]:1.744413 '
        '[8]:-0.120236'),
    'encoder layer, norm_first, gelu, batch_first, dropout': (
        '[3, 5, 8]:-18.390264 [3, 5, 8]:-0.120236 [24, 8]:0.000000 [24]:-3.341143 [8, 8]:2.212633 '
        '[8]:0.546630 [16, 8]:0.000000 [16]:-2.512152 [8, 16]:2.092292 [8]:-0.763115 [8]:-4.320931 '
        '[8]:0.046065 [8]:-1.089149 [8]:2.476935'),
    'encoder of 2 layers, causal mask found': (
        '[3, 5, 8]:0.000000 [3, 5, 8]:0.186006 [24, 8]:3.403773 [24]:-1.115086 [8, 8]:5.325870 [8]:3.286365 '
        '[16, 8]:0.000000 [16]:-2.015384 [8, 16]:13.333328 [8]:2.182286 [8]:-0.178191 [8]:3.504918 '
        '[8]:-2.278238 [8]:-0.235563 [24, 8]:0.000000 [24]:0.678136 [8, 8]:1.586330 [8]:0.419468 [16, '
        '8]:0.000000 [16]:-1.090233 [8, 16]:10.337378 [8]:1.897170 [8]:0.201486 [8]:0.837471 [8]:-0.000067 '
        '[8]:0.000000 [8]:-6.673439 [8]:-0.120236'),
    'decoder layer, masks': (
        '[4, 3, 8]:0.000000 [4, 3, 8]:-0.577190 [6, 3, 8]:-0.225461 [24, 8]:-2.242921 [24]:-0.217855 [8, '
        '8]:0.000000 [8]:0.000000 [24, 8]:-0.070011 [24]:0.354331 [8, 8]:0.000000 [8]:0.000000 [16, '
        '8]:0.000000 [16]:0.405126 [8, 16]:0.000000 [8]:0.000000 [8]:0.374482 [8]:1.113179 [8]:-0.031746 '
        '[8]:1.008284 [8]:-1.077870 [8]:0.588588'),
    'decoder of 2 layers, norm_first, relu module': (
        '[4, 3, 8]:8.325236 [4, 3, 8]:0.588588 [6, 3, 8]:-1.776678 [24, 8]:0.000000 [24]:2.830487 [8, '
        '8]:-4.528501 [8]:-1.411377 [24, 8]:-2.112294 [24]:1.620401 [8, 8]:-3.119166 [8]:-4.683387 [16, '
        '8]:0.000000 [16]:0.778727 [8, 16]:28.054152 [8]:2.258931 [8]:0.918828 [8]:-1.702889 [8]:-0.498184 '
        '[8]:0.974517 [8]:0.305258 [8]:2.629400 [24, 8]:0.000000 [24]:-1.247850 [8, 8]:-9.291805 [8]:1.354019 '
        '[24, 8]:-3.899954 [24]:-1.164331 [8, 8]:-6.264547 [8]:-1.510200 [16, 8]:0.000000 [16]:1.022254 [8, '
        '16]:3.992706 [8]:-2.243859 [8]:2.059163 [8]:0.354532 [8]:-0.355821 [8]:1.488233 [8]:-0.286641 '
        '[8]:0.483687'),
    'transformer, dropout': (
        '[4, 3, 8]:0.000000 [6, 3, 8]:0.836503 [4, 3, 8]:0.388161 [24, 8]:-1.076185 [24]:0.522217 [8, '
        '8]:-1.068136 [8]:-0.174447 [16, 8]:0.000000 [16]:-0.100822 [8, 16]:1.222981 [8]:0.263513 '
        '[8]:-0.274535 [8]:-0.174068 [8]:0.125523 [8]:1.702041 [24, 8]:0.000000 [24]:-0.090076 [8, '
        '8]:0.076488 [8]:0.475934 [16, 8]:0.000000 [16]:0.791163 [8, 16]:4.099428 [8]:0.696354 [8]:0.037547 '
        '[8]:-1.063973 [8]:-0.000002 [8]:0.000000 [8]:-0.213942 [8]:-1.911393 [24, 8]:3.325912 [24]:-9.461639 '
        '[8, 8]:-2.683449 [8]:3.317009 [24, 8]:0.000000 [24]:-0.598071 [8, 8]:-3.162427 [8]:0.339044 [16, '
        '8]:0.000000 [16]:-2.745760 [8, 16]:-5.429869 [8]:-1.579015 [8]:0.995123 [8]:-0.050949 [8]:-0.229120 '
        '[8]:-0.137639 [8]:-0.000029 [8]:0.000000 [8]:-2.933888 [8]:0.588588'),
    'transformer unbatched, batch_first': (
        '[4, 8]:0.000000 [6, 8]:0.002379 [4, 8]:-0.026046 [24, 8]:0.763376 [24]:-0.419507 [8, 8]:0.000000 '
        '[8]:0.000000 [16, 8]:0.000000 [16]:0.109184 [8, 16]:0.000000 [8]:0.000000 [8]:-0.030618 [8]:0.101697 '
        '[8]:-0.000002 [8]:0.000000 [8]:-0.184816 [8]:-0.275644 [24, 8]:0.394833 [24]:3.414884 [8, '
        '8]:0.000000 [8]:0.000000 [24, 8]:0.000000 [24]:-0.932473 [8, 8]:0.000000 [8]:0.000000 [16, '
        '8]:0.000000 [16]:-0.030029 [8, 16]:0.000000 [8]:0.000000 [8]:0.311575 [8]:-0.030508 [8]:0.656588 '
        '[8]:0.225824 [8]:0.000016 [8]:0.000000 [8]:1.573472 [8]:-0.123987'),
}


def _close(ours: list, theirs: list, tolerance: float) -> None:
    for a, b in zip(ours, theirs, strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            assert a.shape == b.shape and a.dtype == b.dtype
            assert np.abs(a - b).max() <= tolerance * max(np.abs(b).max(), 1e-3)


@pytest.mark.filterwarnings("ignore:enable_nested_tensor")
@pytest.mark.parametrize("name", CASES)
def test_outputs_and_gradients_match_pytorch(name: str) -> None:
    """Training mode with gradients (composed, or PyTorch's fused kernel where it runs): float64 to 1e-12 of each
    tensor's largest value (and the fingerprint written here), float32 to 1e-5. The same seed gives the same dropout
    masks."""
    ours64 = _run(tg, name, "float64")
    assert _fingerprint(ours64[0] + ours64[1]) == FINGERPRINTS[name]
    ours32 = _run(tg, name, "float32")
    _close(ours32[0] + ours32[1], [a if a is None else a.astype(np.float32) for a in ours64[0] + ours64[1]], 1e-4)
    torch = oracle()
    if torch is not None:
        for dtype, ours, tolerance in (("float64", ours64, 1e-12), ("float32", ours32, 1e-5)):
            theirs = _run(torch, name, dtype)
            _close(ours[0] + ours[1], theirs[0] + theirs[1], tolerance)


# -- the graph: node names --------------------------------------------------------------------------------------------
def _graph(name: str) -> Callable[[ModuleType], Text]:
    """The output's node, then how many of each node the whole graph holds (a case of CASES, in float32)."""
    def run(lib: ModuleType) -> Text:
        results, _ = CASES[name](lib, "float32")
        lines = []
        for r in results:
            if r is not None:
                names = node_names(r.grad_fn)
                lines.append(f"{names[0]}: " + ", ".join(f"{n} {names.count(n)}" for n in sorted(set(names))))
        return Text("\n".join(lines))
    return run


NODE_NAMES = {
    "sdpa": (
        "UnsafeViewBackward0: AccumulateGrad 3, BmmBackward0 2, ExpandBackward0 4, MulBackward1 2, "
        "ReshapeAliasBackward0 1, SafeSoftmaxBackward0 1, TransposeBackward0 1, UnsafeViewBackward0 2, "
        "ViewBackward0 3"),
    "mha self-attention": (
        "ViewBackward0: AccumulateGrad 5, AddmmBackward0 2, BmmBackward0 2, CloneBackward0 2, MulBackward0 1, "
        "SelectBackward0 3, SoftmaxBackward0 1, SqueezeBackward1 1, TBackward0 2, TransposeBackward0 6, "
        "UnsafeViewBackward0 1, UnsqueezeBackward0 1, ViewBackward0 7\n"
        "MeanBackward1: AccumulateGrad 3, AddmmBackward0 1, BmmBackward0 1, CloneBackward0 1, MeanBackward1 1, "
        "MulBackward0 1, SelectBackward0 2, SoftmaxBackward0 1, SqueezeBackward1 1, TBackward0 1, "
        "TransposeBackward0 4, UnsqueezeBackward0 1, ViewBackward0 6"),
    "sdpa fused: one head size": (
        "ScaledDotProductFlashAttentionForCpuBackward0: AccumulateGrad 3, "
        "ScaledDotProductFlashAttentionForCpuBackward0 1"),
    "mha no weights": (
        "ViewBackward0: AccumulateGrad 5, AddmmBackward0 2, CloneBackward0 1, PermuteBackward0 1, "
        "ScaledDotProductFlashAttentionForCpuBackward0 1, SelectBackward0 3, SqueezeBackward1 1, TBackward0 2, "
        "TransposeBackward0 4, UnsqueezeBackward0 1, ViewBackward0 11"),
    "encoder layer, norm_first, gelu, batch_first, dropout": (
        "AddBackward0: AccumulateGrad 13, AddBackward0 3, AddmmBackward0 3, BmmBackward0 2, CloneBackward0 3, "
        "ExpandBackward0 4, GeluBackward0 1, MmBackward0 1, MulBackward0 4, MulBackward1 2, "
        "NativeLayerNormBackward0 2, PermuteBackward0 1, ReshapeAliasBackward0 3, SafeSoftmaxBackward0 1, "
        "SelectBackward0 3, SqueezeBackward1 1, "
        "TBackward0 4, TransposeBackward0 7, UnsafeViewBackward0 5, UnsqueezeBackward0 1, ViewBackward0 13"),
}


@pytest.mark.filterwarnings("ignore:enable_nested_tensor")
@pytest.mark.parametrize("name", CASES)
def test_node_names_are_pytorchs(name: str) -> None:
    """Every node of the graph, counted by name: the same as PyTorch records in training. Where PyTorch composes the
    attention from ops (with the weights formed, or with dropout, or heads of values unlike the keys') the graph
    holds those ops; without dropout and weights, on 4-D inputs whose heads all have one size, PyTorch calls its
    fused CPU kernel instead, one ScaledDotProductFlashAttentionForCpuBackward0 node, and so does this library."""
    expected = NODE_NAMES.get(name)
    as_pytorch(_graph(name), None if expected is None else ok(expected))


# -- finite differences -----------------------------------------------------------------------------------------------
def _f64(*shape: int, seed: int = 0) -> tg.Tensor:
    return tg.tensor(np.random.default_rng(seed).normal(size=shape), requires_grad=True)


def test_attention_derivatives_match_finite_differences() -> None:
    """gradcheck and gradgradcheck in float64: attention with a float mask, causal attention, and multi-head attention
    with a padding mask, for its inputs and every parameter (backward, and backward's derivative: create_graph)."""
    f = tg.nn.functional.scaled_dot_product_attention
    mask = tg.tensor([[0.0, -1.0, 0.5], [0.0, 2.0, -np.inf]], dtype=tg.float64)
    for fn in (lambda q, k, v: f(q, k, v, mask), lambda q, k, v: f(q, k, v, is_causal=True)):
        inputs = (_f64(1, 2, 3, seed=1), _f64(1, 3, 3, seed=2), _f64(1, 3, 2, seed=3))
        assert gradcheck(fn, inputs) and gradgradcheck(fn, inputs)
    tg.manual_seed(0)
    m = tg.nn.MultiheadAttention(4, 2, dtype=tg.float64)
    padding = tg.tensor([[False, False, True]])

    def mha(q: tg.Tensor, kv: tg.Tensor, *params: tg.Tensor) -> tuple:
        return m(q, kv, kv, key_padding_mask=padding)

    inputs = (_f64(2, 1, 4, seed=4), _f64(3, 1, 4, seed=5), *m.parameters())
    assert gradcheck(mha, inputs) and gradgradcheck(mha, inputs)


def _fused(lib: ModuleType, dtype: str = "float64", **kwargs: Any) -> Any:
    """Attention on 4-D inputs with one head size: PyTorch's fused node."""
    q, k, v = (_data(lib, dtype, 1, 2, 3, 4, seed=i) for i in range(3))
    return lib.nn.functional.scaled_dot_product_attention(q, k, v, **kwargs), (q, k, v)


FUSED = {
    "the node and what it keeps": (
        lambda lib: (lambda n: (n.name(), [m.name() for m, _ in n.next_functions], n._saved_query.shape,
                                n._saved_logsumexp.shape, n._saved_output.shape, n._saved_attn_mask, n._saved_scale,
                                n._saved_is_causal, n._saved_dropout_p))(_fused(lib, is_causal=True, scale=0.5)[0]
                                                                         .grad_fn),
        ok("('ScaledDotProductFlashAttentionForCpuBackward0', ['tinygrad_edu::autograd::AccumulateGrad', "
           "'tinygrad_edu::autograd::AccumulateGrad', 'tinygrad_edu::autograd::AccumulateGrad'], tinygrad_edu.Size([1, "
           "2, 3, 4]), tinygrad_edu.Size([1, 2, 3]), tinygrad_edu.Size([1, 2, 3, 4]), None, 0.5, True, 0.0)")),
    "a bool mask is kept as 0 and -inf": (
        lambda lib: _fused(lib, attn_mask=lib.tensor([[True, False, True]]))[0].grad_fn._saved_attn_mask,
        ok("tensor([[0., -inf, 0.]], dtype=tinygrad_edu.float64)")),
    "its gradients are not differentiable again": (
        lambda lib: (lambda out, qkv: (lambda g: (g.grad_fn.name(), g.sum().backward()))(
            lib.autograd.grad(out.sum(), qkv[0], create_graph=True)[0]))(*_fused(lib)),
        ("RuntimeError", "derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not "
         "implemented", [])),
    "not while not recording, nor with a mask that needs a gradient, nor for 3-D inputs": (
        lambda lib: (_fused(lib, attn_mask=lib.zeros(3, 3, dtype=lib.float64, requires_grad=True))[0].grad_fn.name(),
                     lib.nn.functional.scaled_dot_product_attention(*(_data(lib, "float64", 2, 3, 4, seed=i)
                                                                      for i in range(3))).grad_fn.name()),
        ok("('UnsafeViewBackward0', 'UnsafeViewBackward0')")),
}


@pytest.mark.parametrize("name", FUSED)
def test_the_fused_node_is_pytorchs(name: str) -> None:
    as_pytorch(*FUSED[name])


@pytest.mark.parametrize("kwargs", [{}, {"is_causal": True}, {"scale": 0.3}, {"attn_mask": "bool"},
                                    {"attn_mask": "float"}, {"enable_gqa": True}])
def test_the_fused_node_computes_the_composition(kwargs: dict) -> None:
    """Its output and every gradient are the composed attention's, bit for bit (the composition runs inside it),
    and match finite differences."""
    f = tg.nn.functional
    shapes = ((2, 4, 3, 5), (2, 2 if kwargs.get("enable_gqa") else 4, 6, 5), (2, 2 if kwargs.get("enable_gqa") else 4,
                                                                               6, 5))
    mask = {"bool": tg.tensor(np.random.default_rng(7).random((3, 6)) < 0.7), "float": _f64(2, 1, 3, 6, seed=8)
            .detach()}.get(kwargs.pop("attn_mask", None))
    kwargs["attn_mask"] = mask
    for dtype in ("float64", "float32"):
        runs = []
        for fused in (True, False):
            q, k, v = (_data(tg, dtype, *s, seed=i) for i, s in enumerate(shapes))
            m = None if mask is None else mask if mask.dtype == tg.bool else mask.to(getattr(tg, dtype))
            args = {**kwargs, "attn_mask": m}
            if fused:
                out = f.scaled_dot_product_attention(q, k, v, **args)
                assert out.grad_fn.name() == "ScaledDotProductFlashAttentionForCpuBackward0"
            else:
                out = f._attention(q, k, v, args["attn_mask"], 0.0, args.get("is_causal", False), args.get("scale"),
                                   args.get("enable_gqa", False))
            out.backward(tg.cos(tg.arange(out.numel(), dtype=out.dtype)).reshape(out.shape))
            runs.append([out.detach().numpy(), q.grad.numpy(), k.grad.numpy(), v.grad.numpy()])
        for a, b in zip(*runs):
            assert np.array_equal(a, b)
    inputs = tuple(_f64(*s, seed=i) for i, s in enumerate(shapes))
    assert gradcheck(lambda q, k, v: f.scaled_dot_product_attention(q, k, v, **kwargs), inputs)


def test_encoder_layer_derivatives_match_finite_differences() -> None:
    tg.manual_seed(0)
    layer = tg.nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, dtype=tg.float64)
    inputs = (_f64(3, 1, 4), *layer.parameters())
    assert gradcheck(lambda x, *params: layer(x), inputs)


# -- errors and warnings ----------------------------------------------------------------------------------------------
def _qkv(lib: ModuleType, *dtypes: str) -> list:
    return [lib.zeros(1, 2, 3, dtype=getattr(lib, d)) for d in dtypes]


ERRORS: dict[str, tuple[Callable[[ModuleType], Any], type, str]] = {
    "sdpa, a mask with is_causal": (
        lambda lib: lib.nn.functional.scaled_dot_product_attention(
            *_qkv(lib, "float32", "float32", "float32"), lib.zeros(2, 2), is_causal=True), RuntimeError,
        "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"),
    "sdpa, dtypes differ": (
        lambda lib: lib.nn.functional.scaled_dot_product_attention(*_qkv(lib, "float32", "float64", "float32")),
        RuntimeError, "Expected query, key, and value to have the same dtype, but got query.dtype: float key.dtype: "
        "double and value.dtype: float instead."),
    "sdpa, an integer mask": (
        lambda lib: lib.nn.functional.scaled_dot_product_attention(
            *_qkv(lib, "float64", "float64", "float64"), lib.zeros(2, 2, dtype=lib.int64)), RuntimeError,
        "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: long int and "
        " query.dtype: double instead."),
    "sdpa, 1-D inputs": (
        lambda lib: lib.nn.functional.scaled_dot_product_attention(lib.zeros(3), lib.zeros(3), lib.zeros(3)),
        RuntimeError, "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: 1 "
        "key.dim: 1 and value.dim: 1 instead."),
    "mha, embed_dim not divisible": (lambda lib: lib.nn.MultiheadAttention(6, 4), AssertionError,
                                     "embed_dim must be divisible by num_heads"),
    "mha, no heads": (lambda lib: lib.nn.MultiheadAttention(6, 0), ValueError,
                      "embed_dim and num_heads must be greater than 0, got embed_dim=6 and num_heads=0 instead"),
    "mha, is_causal without a mask": (
        lambda lib: lib.nn.MultiheadAttention(4, 2)(*[lib.zeros(3, 1, 4)] * 3, is_causal=True), RuntimeError,
        "Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
        "`generate_square_subsequent_mask` to create this mask."),
    "mha, a 2-D mask of the wrong shape": (
        lambda lib: lib.nn.MultiheadAttention(4, 2)(*[lib.zeros(3, 1, 4)] * 3, attn_mask=lib.zeros(2, 3)),
        RuntimeError, "The shape of the 2D attn_mask is tinygrad_edu.Size([2, 3]), but should be (3, 3)."),
    "mha, a 4-D query": (
        lambda lib: lib.nn.MultiheadAttention(4, 2)(*[lib.zeros(3, 1, 1, 4)] * 3), AssertionError,
        "query should be unbatched 2D or batched 3D tensor but received 4-D query tensor"),
    "mha, an integer padding mask": (
        lambda lib: lib.nn.MultiheadAttention(4, 2)(*[lib.zeros(3, 1, 4)] * 3,
                                                    key_padding_mask=lib.zeros(1, 3, dtype=lib.int64)),
        AssertionError, "only bool and floating types of key_padding_mask are supported"),
    "mha, a wrong embedding size": (
        lambda lib: lib.nn.MultiheadAttention(4, 2)(*[lib.zeros(3, 1, 6)] * 3), AssertionError,
        "was expecting embedding dimension of 4, but got 6"),
    "encoder layer, an unknown activation": (
        lambda lib: lib.nn.TransformerEncoderLayer(4, 2, activation="tanh"), RuntimeError,
        "activation should be relu/gelu, not tanh"),
    "transformer, batches differ": (
        lambda lib: lib.nn.Transformer(4, 2, 1, 1, 6, batch_first=True)(lib.zeros(2, 3, 4), lib.zeros(1, 3, 4)),
        RuntimeError, "the batch number of src and tgt must be equal"),
    "transformer, features differ": (
        lambda lib: lib.nn.Transformer(4, 2, 1, 1, 6, batch_first=True)(lib.zeros(2, 3, 4), lib.zeros(2, 3, 5)),
        RuntimeError, "the feature number of src and tgt must be equal to d_model"),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_are_pytorchs(name: str) -> None:
    fn, kind, message = ERRORS[name]
    raises(fn, kind, message)


def _nested_warning(why: str) -> list[str]:
    return [f"UserWarning: enable_nested_tensor is True, but self.use_nested_tensor is False because {why}"]


WARNINGS: dict[str, tuple[Build, list[str]]] = {
    "not batch_first": (lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6), 1), _nested_warning(
        "encoder_layer.self_attn.batch_first was not True(use batch_first for better inference performance)")),
    "norm_first": (lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6, norm_first=True,
                                                                               batch_first=True), 1),
                   _nested_warning("encoder_layer.norm_first was True")),
    "odd heads": (lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(3, 3, 6, batch_first=True), 1),
                  _nested_warning("encoder_layer.self_attn.num_heads is odd")),
    "another activation": (lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(
        4, 2, 6, activation=nn.Tanh(), batch_first=True), 1),
        _nested_warning("encoder_layer.activation_relu_or_gelu was not True")),
    "asked for none": (lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6), 1,
                                                        enable_nested_tensor=False), []),
    "batch_first, even heads": (lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6,
                                                                                            batch_first=True), 1), []),
}


@pytest.mark.parametrize("name", WARNINGS)
def test_the_nested_tensor_warning_is_pytorchs(name: str) -> None:
    build, warned = WARNINGS[name]
    used = not warned and name != "asked for none"  # (whether the encoder would use nested tensors in inference)
    as_pytorch(lambda lib: Text(str(_module(lib, build).use_nested_tensor)), (None, str(used), warned))


def test_mismatched_masks_warn_as_in_pytorch() -> None:
    def run(lib: ModuleType) -> Any:
        m = _module(lib, lambda nn: nn.MultiheadAttention(4, 2))
        x = lib.ones(3, 1, 4)
        out, _ = m(x, x, x, key_padding_mask=lib.tensor([[False, False, True]]), attn_mask=lib.zeros(3, 3))
        return out.shape

    as_pytorch(run, (None, "tinygrad_edu.Size([3, 1, 4])", [
        "UserWarning: Support for mismatched key_padding_mask and attn_mask is deprecated. Use same type for both "
        "instead."]))


# -- inference: PyTorch's fused path, and the zeros of its nested tensors ---------------------------------------------
def test_inference_on_a_padded_batch_is_pytorchs() -> None:
    """eval() and no_grad(): PyTorch runs its fused kernels, and packs a padded batch into nested tensors whose padded
    positions come back as zeros (the final norm then makes them its bias). Values to float32's rounding."""
    def run(lib: ModuleType) -> np.ndarray:
        m = _module(lib, lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2,
                                                          nn.LayerNorm(8)), seed=0).eval()
        padding = lib.tensor([[False] * 5, [False, False, False, True, True]])  # (padding at the end of each)
        with lib.no_grad():
            return m(_data(lib, "float32", 2, 5, 8, grad=False), src_key_padding_mask=padding).numpy()

    ours = run(tg)
    assert np.array_equal(ours[1, 3:], np.zeros((2, 8), np.float32))  # (LayerNorm(8)'s bias: zeros)
    assert np.abs(ours[1, :3]).max() > 0.1
    torch = oracle()
    if torch is not None:
        assert np.abs(ours - run(torch)).max() <= 1e-5 * np.abs(ours).max()


# -- a program in the style of the tutorials --------------------------------------------------------------------------
def _tiny_language_model(lib: ModuleType) -> Text:
    """A two-layer causal Transformer encoder learns to continue sequences of tokens (the shape of d2l's and PyTorch's
    language-model tutorials, scaled down): embedding, encoder with the causal mask, a linear head, cross-entropy,
    SGD. Prints the model, its losses as it learns, then its greedy predictions in eval mode."""
    nn, F = lib.nn, lib.nn.functional
    lib.manual_seed(0)

    class TinyLM(nn.Module):
        def __init__(self, vocab: int = 10, d_model: int = 8) -> None:
            super().__init__()
            self.embed = nn.Embedding(vocab, d_model)
            layer = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=16, dropout=0.1, batch_first=True)
            self.encoder = nn.TransformerEncoder(layer, num_layers=2)
            self.head = nn.Linear(d_model, vocab)

        def forward(self, tokens: Any) -> Any:
            mask = nn.Transformer.generate_square_subsequent_mask(tokens.size(1))
            return self.head(self.encoder(self.embed(tokens), mask=mask, is_causal=True))

    model = TinyLM()
    optimizer = lib.optim.SGD(model.parameters(), lr=0.5)
    data = (lib.arange(8).reshape(1, 8) + lib.randint(0, 10, (6, 1))) % 10  # (each row counts on from its start)
    lines = [str(model)]
    for step in range(6):
        logits = model(data[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, 10), data[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        lines.append(f"step {step}: loss {loss.item():.4f}")
    model.eval()
    with lib.no_grad():
        lines.append(f"predicted: {model(data[:2, :-1]).argmax(-1).tolist()}")
    return Text("\n".join(lines))


TINY_LANGUAGE_MODEL_PRINTED = (
    'TinyLM(\n'
    '  (embed): Embedding(10, 8)\n'
    '  (encoder): TransformerEncoder(\n'
    '    (layers): ModuleList(\n'
    '      (0-1): 2 x TransformerEncoderLayer(\n'
    '        (self_attn): MultiheadAttention(\n'
    '          (out_proj): NonDynamicallyQuantizableLinear(in_features=8, out_features=8, bias=True)\n'
    '        )\n'
    '        (linear1): Linear(in_features=8, out_features=16, bias=True)\n'
    '        (dropout): Dropout(p=0.1, inplace=False)\n'
    '        (linear2): Linear(in_features=16, out_features=8, bias=True)\n'
    '        (norm1): LayerNorm((8,), eps=1e-05, elementwise_affine=True, bias=True)\n'
    '        (norm2): LayerNorm((8,), eps=1e-05, elementwise_affine=True, bias=True)\n'
    '        (dropout1): Dropout(p=0.1, inplace=False)\n'
    '        (dropout2): Dropout(p=0.1, inplace=False)\n'
    '      )\n'
    '    )\n'
    '  )\n'
    '  (head): Linear(in_features=8, out_features=10, bias=True)\n'
    ')\n'
    'step 0: loss 2.5672\n'
    'step 1: loss 2.1111\n'
    'step 2: loss 1.8645\n'
    'step 3: loss 1.6753\n'
    'step 4: loss 1.4771\n'
    'step 5: loss 1.2733\n'
    'predicted: [[5, 6, 1, 1, 2, 0, 1], [0, 3, 4, 5, 6, 1, 1]]')


def test_a_tiny_language_model_trains_as_in_pytorch() -> None:
    """Printed output identical to PyTorch's, losses to 4 decimals (float32 training: the same numbers to rounding)."""
    as_pytorch(_tiny_language_model, ok(TINY_LANGUAGE_MODEL_PRINTED))
