"""More of nn and optim, against PyTorch 2.13: LayerNorm, Embedding, ModuleDict, ParameterList, ParameterDict,
Unflatten; l1/smooth_l1/huber/kl_div losses, cosine_similarity, normalize, pairwise_distance, softmin; AdamW and
Adagrad; selu, celu, mish, softsign, hardsigmoid, hardswish, prelu, glu; init's eye_, trunc_normal_, orthogonal_.

Each check runs the same function with both libraries through ``_oracle`` (PyTorch only when installed); the
expected text is PyTorch's own output, spelled out here so each test means something without torch. Derivatives
in float64 are checked against finite differences with gradcheck and gradgradcheck.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg
import tinygrad_edu.nn.functional as F
from tinygrad_edu.autograd import gradcheck, gradgradcheck

X = [[-2.0, 0.5, 1.0, 0.3], [0.2, 3.0, -1.0, -0.7]]
Y = [[0.0, 1.0, 1.0, 0.1], [0.0, 0.1, 0.0, -2.5]]
UP = [[0.7, -0.3, -1.2, 0.4], [-0.5, 1.1, 0.2, -0.9]]


def _grads(lib: ModuleType, out: Any, inputs: tuple, up: Any = None) -> list[str]:
    """The result, then the gradient of each input, as printed."""
    grads = lib.autograd.grad(out, inputs, up, allow_unused=True)
    return [repr(out)] + [repr(g) for g in grads]


# ------------------------------------------------------------------------------------------------ transcripts
def layer_norm(lib: ModuleType) -> str:
    x = lib.tensor(X, requires_grad=True)
    w = lib.tensor([0.5, 1.0, 1.5, 2.0], requires_grad=True)
    b = lib.tensor([0.1, 0.0, -0.1, 0.2], requires_grad=True)
    out = lib.nn.functional.layer_norm(x, (4,), w, b)
    node = out.grad_fn
    saved = [type(node).__name__, repr(node._saved_result1), repr(node._saved_result2),
             repr(node._saved_normalized_shape)]  # (read before backward frees them)
    return "\n".join(_grads(lib, out, (x, w, b), lib.tensor(UP)) + saved)


def layer_norm_3d(lib: ModuleType) -> str:
    """Normalising over the last two dims, no weight or bias."""
    x = lib.tensor([X, Y], requires_grad=True)
    out = lib.nn.functional.layer_norm(x, [2, 4], eps=1e-3)
    return "\n".join(_grads(lib, (out * out * out).sum(), (x,)))


def layer_norm_module(lib: ModuleType) -> str:
    ln = lib.nn.LayerNorm(4)
    bare = lib.nn.LayerNorm([2, 4], elementwise_affine=False)
    no_bias = lib.nn.LayerNorm(4, bias=False)
    return "\n".join([repr(ln), repr(list(ln.state_dict())), repr(ln(lib.tensor(X))), repr(bare),
                      repr(list(bare.parameters())), repr(no_bias), repr([n for n, _ in no_bias.named_parameters()])])


def embedding(lib: ModuleType) -> str:
    w = lib.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8]], requires_grad=True)
    idx = lib.tensor([[0, 2, 2], [3, 1, 2]])
    out = lib.nn.functional.embedding(idx, w, padding_idx=2)
    saved = [type(out.grad_fn).__name__, repr(out.grad_fn._saved_indices), repr(out.grad_fn._saved_padding_idx)]
    up = lib.tensor([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]])
    (gw,) = lib.autograd.grad(out, w, up)
    scaled = lib.nn.functional.embedding(idx, w, scale_grad_by_freq=True)
    (gs,) = lib.autograd.grad(scaled, w, up)
    return "\n".join([repr(out), repr(gw), *saved, repr(gs)])


def embedding_module(lib: ModuleType) -> str:
    lib.manual_seed(0)
    e = lib.nn.Embedding(5, 3, padding_idx=-2)
    frozen = lib.nn.Embedding.from_pretrained(lib.tensor([[3.0, 4.0], [0.3, 0.4]]), max_norm=1.0)
    looked = frozen(lib.tensor([0, 1, 0]))
    return "\n".join([repr(e), repr(e.weight[3]), repr(list(e.weight.shape)), repr(frozen), repr(looked),
                      repr(frozen.weight), repr(lib.nn.Embedding(3, 2, scale_grad_by_freq=True))])


def containers(lib: ModuleType) -> str:
    lib.manual_seed(0)
    heads = lib.nn.ModuleDict({"cls": lib.nn.Linear(2, 3), "act": lib.nn.ReLU()})
    heads["extra"] = lib.nn.Identity(7, unused=True)
    del heads["act"]
    plist = lib.nn.ParameterList([lib.zeros(2), lib.nn.Parameter(lib.ones(2, 3, dtype=lib.float64))])
    plist.append(lib.ones(1))
    pdict = lib.nn.ParameterDict({"w": lib.zeros(2), "b": lib.ones(3, 1)})
    pdict["a"] = lib.nn.Parameter(lib.ones(1), requires_grad=False)
    model = lib.nn.Module()
    model.heads, model.plist, model.pdict = heads, plist, pdict
    return "\n".join([repr(model), repr([n for n, _ in model.named_parameters()]), repr(list(heads.keys())),
                      repr("cls" in heads), repr(len(plist)), repr(type(plist[0]).__name__), repr(list(pdict)),
                      repr(pdict.get("zz")), repr(plist[-1])])


def flatten_unflatten(lib: ModuleType) -> str:
    x = lib.tensor([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]], requires_grad=True)
    u = lib.nn.Unflatten(1, (2, -1))
    out = u(x)
    seq = lib.nn.Sequential(lib.nn.Unflatten(-1, [3, 2]), lib.nn.Flatten(0))
    return "\n".join([repr(u), repr(out), repr(seq), repr(seq(x)), repr(lib.nn.Identity()(x) is x)])


def _losses(lib: ModuleType, name: str, reduction: str, **options: Any) -> str:
    x, y = lib.tensor(X, requires_grad=True), lib.tensor(Y, requires_grad=True)
    loss = getattr(lib.nn.functional, name)(x, y, reduction=reduction, **options)
    up = lib.tensor(UP) if reduction == "none" else lib.tensor(2.0)
    return "\n".join(_grads(lib, loss, (x, y), up))


def kl_div(lib: ModuleType, reduction: str, log_target: bool = False) -> str:
    x = lib.tensor(X, requires_grad=True)
    q = x.log_softmax(1)
    p = lib.tensor([[0.1, 0.2, 0.3, 0.4], [0.0, 0.5, 0.25, 0.25]], requires_grad=True)
    target = p.log() if log_target else p
    loss = lib.nn.functional.kl_div(q, target, reduction=reduction, log_target=log_target)
    return "\n".join(_grads(lib, loss, (x, p), lib.tensor(UP) if reduction == "none" else None))


def distances(lib: ModuleType) -> str:
    x, y = lib.tensor(X, requires_grad=True), lib.tensor(Y, requires_grad=True)
    F = lib.nn.functional
    lines = []
    for out in (F.cosine_similarity(x, y), F.cosine_similarity(x, y, dim=0), F.cosine_similarity(x, y[1:], -1),
                F.normalize(x), F.normalize(x, p=1, dim=0), F.pairwise_distance(x, y),
                F.pairwise_distance(x, y, p=3, keepdim=True), F.pairwise_distance(x, y, p=1),
                F.pairwise_distance(x, y, p=math.inf), F.softmin(x, 1), F.softmin(x, dim=0)):
        lines += [*_grads(lib, (out * out).sum(), (x, y))[1:], repr(out)]
    return "\n".join(lines)


# Activations: (the op, the input values, away from the kinks where only the sign of a zero would differ)
ACTIVATIONS: dict[str, tuple[Any, list[float]]] = {
    "selu": (lambda nf, x: nf.selu(x), [-4.0, -1.5, -0.5, 0.5, 2.0]),
    "celu": (lambda nf, x: nf.celu(x), [-4.0, -1.5, -0.5, 0.5, 2.0]),
    "celu alpha": (lambda nf, x: nf.celu(x, alpha=0.5), [-4.0, -1.5, -0.5, 0.5, 2.0]),
    "mish": (lambda nf, x: nf.mish(x), [-4.0, -1.5, 0.0, 0.5, 2.0]),
    "softsign": (lambda nf, x: nf.softsign(x), [-4.0, -1.5, -0.5, 0.5, 2.0]),
    "hardswish": (lambda nf, x: nf.hardswish(x), [-4.0, -3.0, -0.5, 0.5, 3.0]),
    "glu": (lambda nf, x: nf.glu(x.reshape(2, 2)), [-4.0, -1.5, -0.5, 0.5]),
    "glu dim 0": (lambda nf, x: nf.glu(x.reshape(2, 2), 0), [-4.0, -1.5, -0.5, 0.5]),
}


def activation(lib: ModuleType, name: str) -> str:
    """Value, gradient (create_graph=True: its node is the backward formula's) and d/dx of sum(gradient**2)."""
    fn, values = ACTIVATIONS[name]
    x = lib.tensor(values, requires_grad=True)
    out = fn(lib.nn.functional, x)
    up = lib.tensor([0.7, -0.3, -1.2, 0.4, -0.5][:out.numel()]).reshape(out.shape)
    (gx,) = lib.autograd.grad(out, x, up, create_graph=True)
    (h,) = lib.autograd.grad((gx * gx).sum(), x)
    return "\n".join([repr(out), repr(gx), np.array2string(h.numpy(), precision=4)])


def hardsigmoid(lib: ModuleType) -> str:
    """(PyTorch does not differentiate hardsigmoid's gradient: its node is NotImplemented. Here the gradient is
    ``g / 6`` masked, piecewise constant, whose derivative is 0.)"""
    x = lib.tensor([-4.0, -3.0, -0.5, 0.5, 3.0], requires_grad=True)
    out = lib.nn.functional.hardsigmoid(x)
    return "\n".join(_grads(lib, out, (x,), lib.tensor([0.7, -0.3, -1.2, 0.4, -0.5])))


def prelu(lib: ModuleType) -> str:
    x = lib.tensor([[-2.0, 1.0, -0.5], [3.0, -1.0, 0.0]], requires_grad=True)
    w = lib.tensor([0.25, 0.1, -0.2], requires_grad=True)
    w1 = lib.tensor([0.3], requires_grad=True)
    F = lib.nn.functional
    up = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x3 = lib.tensor([[[-1.0, 2.0], [-3.0, 4.0]]], requires_grad=True)
    w2 = lib.tensor([0.5, 2.0], requires_grad=True)
    return "\n".join(_grads(lib, F.prelu(x, w), (x, w), up) + _grads(lib, F.prelu(x, w1), (x, w1), up)
                     + _grads(lib, F.prelu(x3, w2).sum(), (x3, w2)))


def in_place_activations(lib: ModuleType) -> str:
    x = lib.tensor([-1.0, 2.0], requires_grad=True)
    lines = []
    for name in ("selu", "celu", "mish", "hardsigmoid", "hardswish"):
        c = x.clone()
        out = getattr(lib.nn.functional, name)(c, inplace=True)
        (gx,) = lib.autograd.grad(out.sum(), x)
        lines += [repr(out), repr(gx), repr(out is c)]
    return "\n".join(lines)


def activation_modules(lib: ModuleType) -> str:
    lib.manual_seed(0)
    nn = lib.nn
    x = lib.tensor([[-2.0, -0.5, 0.5, 7.0]])
    modules = [nn.SELU(), nn.SELU(True), nn.CELU(), nn.CELU(0.5, True), nn.Mish(), nn.Softsign(), nn.Hardsigmoid(),
               nn.Hardswish(), nn.PReLU(), nn.PReLU(4, init=0.1), nn.GLU(), nn.GLU(0)]
    lines = [repr(m) for m in modules]
    lines += [repr(m(x.clone())) for m in modules[:-1]]
    lines.append(repr(list(nn.PReLU(2).named_parameters())))
    return "\n".join(lines)


TRANSCRIPTS: dict[str, Any] = {
    "layer_norm": layer_norm,
    "layer_norm 3d": layer_norm_3d,
    "LayerNorm": layer_norm_module,
    "embedding": embedding,
    "Embedding": embedding_module,
    "containers": containers,
    "Flatten, Unflatten": flatten_unflatten,
    "distances": distances,
    "hardsigmoid": hardsigmoid,
    "prelu": prelu,
    "in-place activations": in_place_activations,
    "activation modules": activation_modules,
}
for _name in ("l1_loss", "smooth_l1_loss", "huber_loss"):
    for _reduction in ("mean", "sum", "none"):
        TRANSCRIPTS[f"{_name} {_reduction}"] = lambda lib, n=_name, r=_reduction: _losses(lib, n, r)
TRANSCRIPTS["smooth_l1_loss beta"] = lambda lib: _losses(lib, "smooth_l1_loss", "mean", beta=0.5)
TRANSCRIPTS["smooth_l1_loss beta 0"] = lambda lib: _losses(lib, "smooth_l1_loss", "sum", beta=0.0)
TRANSCRIPTS["huber_loss delta"] = lambda lib: _losses(lib, "huber_loss", "mean", delta=0.5)
TRANSCRIPTS["huber_loss weight"] = lambda lib: _losses(lib, "huber_loss", "mean",
                                                       weight=lib.tensor([1.0, 2.0, 0.5, 4.0]).expand(2, 4))
TRANSCRIPTS["l1_loss weight"] = lambda lib: _losses(lib, "l1_loss", "mean", weight=lib.tensor(UP).abs())
for _reduction in ("mean", "sum", "none", "batchmean"):
    TRANSCRIPTS[f"kl_div {_reduction}"] = lambda lib, r=_reduction: kl_div(lib, r)
    TRANSCRIPTS[f"kl_div {_reduction} log_target"] = lambda lib, r=_reduction: kl_div(lib, r, True)
for _name in ACTIVATIONS:
    TRANSCRIPTS[_name] = lambda lib, n=_name: activation(lib, n)

# What PyTorch prints for each, and the warnings it gives.
KL_MEAN_WARNING = ("UserWarning: reduction: 'mean' divides the total loss by both the batch size and the support "
                   "size.'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                   "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
EXPECTED: dict[str, tuple[str, list[str]]] = {
    'layer_norm': (
        'tensor([[-0.7446,  0.4765,  1.2644,  0.8064],\n'
        '        [ 0.0446,  1.6629, -1.4066, -1.1620]],\n'
        '       grad_fn=<NativeLayerNormBackward0>)\n'
        'tensor([[-0.2699,  0.1655, -0.9342,  1.0386],\n'
        '        [-0.0059,  0.0567,  0.6822, -0.7330]])\n'
        'tensor([-1.1271,  1.6862, -1.2657,  0.7342])\n'
        'tensor([ 0.2000,  0.8000, -1.0000, -0.5000])\n'
        'NativeLayerNormBackward0\n'
        'tensor([[-0.0500],\n'
        '        [ 0.3750]])\n'
        'tensor([[0.8663],\n'
        '        [0.6335]])\n'
        '(4,)',
        []),
    'layer_norm 3d': (
        'tensor(-8.0159, grad_fn=<SumBackward0>)\n'
        'tensor([[[ 4.6611, -2.2809, -2.0273, -2.2291],\n'
        '         [-2.1703,  4.4606,  0.2423, -0.6564]],\n'
        '\n'
        '        [[-2.7799,  4.6756,  4.6756, -2.2914],\n'
        '         [-2.7799, -2.2914, -2.7799,  3.5712]]])',
        []),
    'LayerNorm': (
        'LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)\n'
        "['weight', 'bias']\n"
        'tensor([[-1.6893,  0.4765,  0.9096,  0.3032],\n'
        '        [-0.1109,  1.6629, -0.8710, -0.6810]],\n'
        '       grad_fn=<NativeLayerNormBackward0>)\n'
        'LayerNorm((2, 4), eps=1e-05, elementwise_affine=False, bias=False)\n'
        '[]\n'
        'LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=False)\n'
        "['weight']",
        []),
    'embedding': (
        'tensor([[[0.1000, 0.2000],\n'
        '         [0.5000, 0.6000],\n'
        '         [0.5000, 0.6000]],\n'
        '\n'
        '        [[0.7000, 0.8000],\n'
        '         [0.3000, 0.4000],\n'
        '         [0.5000, 0.6000]]], grad_fn=<EmbeddingBackward0>)\n'
        'tensor([[ 1.,  2.],\n'
        '        [ 9., 10.],\n'
        '        [ 0.,  0.],\n'
        '        [ 7.,  8.]])\n'
        'EmbeddingBackward0\n'
        'tensor([[0, 2, 2],\n'
        '        [3, 1, 2]])\n'
        '2\n'
        'tensor([[ 1.0000,  2.0000],\n'
        '        [ 9.0000, 10.0000],\n'
        '        [ 6.3333,  7.3333],\n'
        '        [ 7.0000,  8.0000]])',
        []),
    'Embedding': (
        'Embedding(5, 3, padding_idx=3)\n'
        'tensor([0., 0., 0.], grad_fn=<SelectBackward0>)\n'
        '[5, 3]\n'
        'Embedding(2, 2, max_norm=1.0)\n'
        'tensor([[0.6000, 0.8000],\n'
        '        [0.3000, 0.4000],\n'
        '        [0.6000, 0.8000]])\n'
        'Parameter containing:\n'
        'tensor([[0.6000, 0.8000],\n'
        '        [0.3000, 0.4000]])\n'
        'Embedding(3, 2, scale_grad_by_freq=True)',
        []),
    'containers': (
        'Module(\n'
        '  (heads): ModuleDict(\n'
        '    (cls): Linear(in_features=2, out_features=3, bias=True)\n'
        '    (extra): Identity()\n'
        '  )\n'
        '  (plist): ParameterList(\n'
        '      (0): Parameter containing: [tinygrad_edu.float32 of size 2]\n'
        '      (1): Parameter containing: [tinygrad_edu.float64 of size 2x3]\n'
        '      (2): Parameter containing: [tinygrad_edu.float32 of size 1]\n'
        '  )\n'
        '  (pdict): ParameterDict(\n'
        '      (b): Parameter containing: [tinygrad_edu.FloatTensor of size 3x1]\n'
        '      (w): Parameter containing: [tinygrad_edu.FloatTensor of size 2]\n'
        '      (a): Parameter containing: [tinygrad_edu.FloatTensor of size 1]\n'
        '  )\n'
        ')\n'
        "['heads.cls.weight', 'heads.cls.bias', 'plist.0', 'plist.1', 'plist.2', 'pdict.b', 'pdict.w', 'pdict.a']\n"
        "['cls', 'extra']\n"
        'True\n'
        '3\n'
        "'Parameter'\n"
        "['b', 'w', 'a']\n"
        'None\n'
        'Parameter containing:\n'
        'tensor([1.], requires_grad=True)',
        []),
    'Flatten, Unflatten': (
        'Unflatten(dim=1, unflattened_size=(2, -1))\n'
        'tensor([[[1., 2., 3.],\n'
        '         [4., 5., 6.]]], grad_fn=<ViewBackward0>)\n'
        'Sequential(\n'
        '  (0): Unflatten(dim=-1, unflattened_size=[3, 2])\n'
        '  (1): Flatten(start_dim=0, end_dim=-1)\n'
        ')\n'
        'tensor([1., 2., 3., 4., 5., 6.], grad_fn=<ViewBackward0>)\n'
        'True',
        []),
    'distances': (
        'tensor([[ 0.1634,  0.2442,  0.2034,  0.0040],\n'
        '        [-0.0024, -0.0301,  0.0121, -0.1470]])\n'
        'tensor([[-0.5702, -0.0745,  0.0681,  0.0638],\n'
        '        [ 0.0124,  0.1846, -0.0622,  0.0074]])\n'
        'tensor([0.4670, 0.2525], grad_fn=<SumBackward1>)\n'
        'tensor([[ 0.0000,  0.1639,  0.5000, -0.8047],\n'
        '        [ 0.0000, -0.0273,  0.5000, -0.3449]])\n'
        'tensor([[ 0.0000, -0.0500,  0.0000,  0.2663],\n'
        '        [ 0.0000,  0.5002, -1.0000,  0.0107]])\n'
        'tensor([0.0000, 0.2617, 0.7071, 0.9342], grad_fn=<SumBackward1>)\n'
        'tensor([[ 0.0110, -0.0069, -0.0055,  0.1031],\n'
        '        [-0.0024, -0.0301,  0.0121, -0.1470]])\n'
        'tensor([[ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0962,  0.1632, -0.1041,  0.0065]])\n'
        'tensor([-0.1211,  0.2525], grad_fn=<SumBackward1>)\n'
        'tensor([[-5.9605e-08,  1.4901e-08,  2.9802e-08,  7.4506e-09],\n'
        '        [ 0.0000e+00,  0.0000e+00,  1.4901e-08,  0.0000e+00]])\n'
        'None\n'
        'tensor([[-0.8655,  0.2164,  0.4327,  0.1298],\n'
        '        [ 0.0616,  0.9245, -0.3082, -0.2157]], grad_fn=<DivBackward0>)\n'
        'tensor([[-0.0676, -0.3499,  0.0000, -0.5600],\n'
        '        [-0.6762,  0.0583,  0.0000, -0.2400]])\n'
        'None\n'
        'tensor([[-0.9091,  0.1429,  0.5000,  0.3000],\n'
        '        [ 0.0909,  0.8571, -0.5000, -0.7000]], grad_fn=<DivBackward0>)\n'
        'tensor([[-4.0000e+00, -1.0000e+00,  2.0000e-06,  4.0000e-01],\n'
        '        [ 4.0000e-01,  5.8000e+00, -2.0000e+00,  3.6000e+00]])\n'
        'tensor([[ 4.0000e+00,  1.0000e+00, -2.0000e-06, -4.0000e-01],\n'
        '        [-4.0000e-01, -5.8000e+00,  2.0000e+00, -3.6000e+00]])\n'
        'tensor([2.0712, 3.5623], grad_fn=<NormBackward1>)\n'
        'tensor([[-3.9781e+00, -2.4863e-01,  9.9452e-13,  3.9781e-02],\n'
        '        [ 2.5404e-02,  5.3412e+00, -6.3510e-01,  2.0577e+00]])\n'
        'tensor([[ 3.9781e+00,  2.4863e-01, -9.9452e-13, -3.9781e-02],\n'
        '        [-2.5404e-02, -5.3412e+00,  6.3510e-01, -2.0577e+00]])\n'
        'tensor([[2.0110],\n'
        '        [3.1491]], grad_fn=<NormBackward1>)\n'
        'tensor([[ -5.4000,  -5.4000,   5.4000,   5.4000],\n'
        '        [ 11.8000,  11.8000, -11.8000,  11.8000]])\n'
        'tensor([[  5.4000,   5.4000,  -5.4000,  -5.4000],\n'
        '        [-11.8000, -11.8000,  11.8000, -11.8000]])\n'
        'tensor([2.7000, 5.9000], grad_fn=<NormBackward1>)\n'
        'tensor([[-4.0000, -0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  5.8000, -0.0000,  0.0000]])\n'
        'tensor([[ 4.0000,  0.0000, -0.0000, -0.0000],\n'
        '        [-0.0000, -5.8000,  0.0000, -0.0000]])\n'
        'tensor([2.0000, 2.9000], grad_fn=<NormBackward1>)\n'
        'tensor([[-0.2276,  0.0806,  0.0510,  0.0960],\n'
        '        [ 0.0702,  0.0067, -0.0961,  0.0192]])\n'
        'None\n'
        'tensor([[0.8116, 0.0666, 0.0404, 0.0814],\n'
        '        [0.1462, 0.0089, 0.4854, 0.3596]], grad_fn=<SoftmaxBackward0>)\n'
        'tensor([[-0.1438, -0.1189,  0.1599,  0.1817],\n'
        '        [ 0.1438,  0.1189, -0.1599, -0.1817]])\n'
        'None\n'
        'tensor([[0.9002, 0.9241, 0.1192, 0.2689],\n'
        '        [0.0998, 0.0759, 0.8808, 0.7311]], grad_fn=<SoftmaxBackward0>)',
        []),
    'hardsigmoid': (
        'tensor([0.0000, 0.0000, 0.4167, 0.5833, 1.0000],\n'
        '       grad_fn=<HardsigmoidBackward0>)\n'
        'tensor([ 0.0000,  0.0000, -0.2000,  0.0667,  0.0000])',
        []),
    'prelu': (
        'tensor([[-0.5000,  1.0000,  0.1000],\n'
        '        [ 3.0000, -0.1000, -0.0000]], grad_fn=<PreluKernelBackward0>)\n'
        'tensor([[ 0.2500,  2.0000, -0.6000],\n'
        '        [ 4.0000,  0.5000, -1.2000]])\n'
        'tensor([-2.0000, -5.0000, -1.5000])\n'
        'tensor([[-0.6000,  1.0000, -0.1500],\n'
        '        [ 3.0000, -0.3000,  0.0000]], grad_fn=<PreluKernelBackward0>)\n'
        'tensor([[0.3000, 2.0000, 0.9000],\n'
        '        [4.0000, 1.5000, 1.8000]])\n'
        'tensor([-8.5000])\n'
        'tensor(-0.5000, grad_fn=<SumBackward0>)\n'
        'tensor([[[0.5000, 1.0000],\n'
        '         [2.0000, 1.0000]]])\n'
        'tensor([-1., -3.])',
        []),
    'in-place activations': (
        'tensor([-1.1113,  2.1014], grad_fn=<EluBackward1>)\n'
        'tensor([0.6468, 1.0507])\n'
        'True\n'
        'tensor([-0.6321,  2.0000], grad_fn=<CeluBackward1>)\n'
        'tensor([0.3679, 1.0000])\n'
        'True\n'
        'tensor([-0.3034,  1.9440], grad_fn=<MishBackward0>)\n'
        'tensor([0.0592, 1.0693])\n'
        'True\n'
        'tensor([0.3333, 0.8333], grad_fn=<HardsigmoidBackward0>)\n'
        'tensor([0.1667, 0.1667])\n'
        'True\n'
        'tensor([-0.3333,  1.6667], grad_fn=<HardswishBackward0>)\n'
        'tensor([0.1667, 1.1667])\n'
        'True',
        []),
    'activation modules': (
        'SELU()\n'
        'SELU(inplace=True)\n'
        'CELU(alpha=1.0)\n'
        'CELU(alpha=0.5, inplace=True)\n'
        'Mish()\n'
        'Softsign()\n'
        'Hardsigmoid()\n'
        'Hardswish()\n'
        'PReLU(num_parameters=1)\n'
        'PReLU(num_parameters=4)\n'
        'GLU(dim=-1)\n'
        'GLU(dim=0)\n'
        'tensor([[-1.5202, -0.6918,  0.5254,  7.3549]])\n'
        'tensor([[-1.5202, -0.6918,  0.5254,  7.3549]])\n'
        'tensor([[-0.8647, -0.3935,  0.5000,  7.0000]])\n'
        'tensor([[-0.4908, -0.3161,  0.5000,  7.0000]])\n'
        'tensor([[-0.2525, -0.2207,  0.3752,  7.0000]])\n'
        'tensor([[-0.6667, -0.3333,  0.3333,  0.8750]])\n'
        'tensor([[0.1667, 0.4167, 0.5833, 1.0000]])\n'
        'tensor([[-0.3333, -0.2083,  0.2917,  7.0000]])\n'
        'tensor([[-0.5000, -0.1250,  0.5000,  7.0000]], grad_fn=<PreluKernelBackward0>)\n'
        'tensor([[-0.2000, -0.0500,  0.5000,  7.0000]], grad_fn=<PreluKernelBackward0>)\n'
        'tensor([[-1.2449, -0.4995]])\n'
        "[('weight', Parameter containing:\n"
        'tensor([0.2500, 0.2500], requires_grad=True))]',
        []),
    'l1_loss mean': (
        'tensor(1.0750, grad_fn=<MeanBackward0>)\n'
        'tensor([[-0.2500, -0.2500,  0.0000,  0.2500],\n'
        '        [ 0.2500,  0.2500, -0.2500,  0.2500]])\n'
        'tensor([[ 0.2500,  0.2500, -0.0000, -0.2500],\n'
        '        [-0.2500, -0.2500,  0.2500, -0.2500]])',
        []),
    'l1_loss sum': (
        'tensor(8.6000, grad_fn=<SumBackward0>)\n'
        'tensor([[-2., -2.,  0.,  2.],\n'
        '        [ 2.,  2., -2.,  2.]])\n'
        'tensor([[ 2.,  2., -0., -2.],\n'
        '        [-2., -2.,  2., -2.]])',
        []),
    'l1_loss none': (
        'tensor([[2.0000, 0.5000, 0.0000, 0.2000],\n'
        '        [0.2000, 2.9000, 1.0000, 1.8000]], grad_fn=<AbsBackward0>)\n'
        'tensor([[-0.7000,  0.3000, -0.0000,  0.4000],\n'
        '        [-0.5000,  1.1000, -0.2000, -0.9000]])\n'
        'tensor([[ 0.7000, -0.3000,  0.0000, -0.4000],\n'
        '        [ 0.5000, -1.1000,  0.2000,  0.9000]])',
        []),
    'smooth_l1_loss mean': (
        'tensor(0.7331, grad_fn=<SmoothL1LossBackward0>)\n'
        'tensor([[-0.2500, -0.1250,  0.0000,  0.0500],\n'
        '        [ 0.0500,  0.2500, -0.2500,  0.2500]])\n'
        'tensor([[ 0.2500,  0.1250,  0.0000, -0.0500],\n'
        '        [-0.0500, -0.2500,  0.2500, -0.2500]])',
        []),
    'smooth_l1_loss sum': (
        'tensor(5.8650, grad_fn=<SmoothL1LossBackward0>)\n'
        'tensor([[-2.0000, -1.0000,  0.0000,  0.4000],\n'
        '        [ 0.4000,  2.0000, -2.0000,  2.0000]])\n'
        'tensor([[ 2.0000,  1.0000,  0.0000, -0.4000],\n'
        '        [-0.4000, -2.0000,  2.0000, -2.0000]])',
        []),
    'smooth_l1_loss none': (
        'tensor([[1.5000, 0.1250, 0.0000, 0.0200],\n'
        '        [0.0200, 2.4000, 0.5000, 1.3000]], grad_fn=<SmoothL1LossBackward0>)\n'
        'tensor([[-0.7000,  0.1500, -0.0000,  0.0800],\n'
        '        [-0.1000,  1.1000, -0.2000, -0.9000]])\n'
        'tensor([[ 0.7000, -0.1500, -0.0000, -0.0800],\n'
        '        [ 0.1000, -1.1000,  0.2000,  0.9000]])',
        []),
    'huber_loss mean': (
        'tensor(0.7331, grad_fn=<HuberLossBackward0>)\n'
        'tensor([[-0.2500, -0.1250,  0.0000,  0.0500],\n'
        '        [ 0.0500,  0.2500, -0.2500,  0.2500]])\n'
        'tensor([[ 0.2500,  0.1250,  0.0000, -0.0500],\n'
        '        [-0.0500, -0.2500,  0.2500, -0.2500]])',
        []),
    'huber_loss sum': (
        'tensor(5.8650, grad_fn=<HuberLossBackward0>)\n'
        'tensor([[-2.0000, -1.0000,  0.0000,  0.4000],\n'
        '        [ 0.4000,  2.0000, -2.0000,  2.0000]])\n'
        'tensor([[ 2.0000,  1.0000,  0.0000, -0.4000],\n'
        '        [-0.4000, -2.0000,  2.0000, -2.0000]])',
        []),
    'huber_loss none': (
        'tensor([[1.5000, 0.1250, 0.0000, 0.0200],\n'
        '        [0.0200, 2.4000, 0.5000, 1.3000]], grad_fn=<HuberLossBackward0>)\n'
        'tensor([[-0.7000,  0.1500, -0.0000,  0.0800],\n'
        '        [-0.1000,  1.1000, -0.2000, -0.9000]])\n'
        'tensor([[ 0.7000, -0.1500, -0.0000, -0.0800],\n'
        '        [ 0.1000, -1.1000,  0.2000,  0.9000]])',
        []),
    'smooth_l1_loss beta': (
        'tensor(0.8787, grad_fn=<SmoothL1LossBackward0>)\n'
        'tensor([[-0.2500, -0.2500,  0.0000,  0.1000],\n'
        '        [ 0.1000,  0.2500, -0.2500,  0.2500]])\n'
        'tensor([[ 0.2500,  0.2500,  0.0000, -0.1000],\n'
        '        [-0.1000, -0.2500,  0.2500, -0.2500]])',
        []),
    'smooth_l1_loss beta 0': (
        'tensor(8.6000, grad_fn=<SumBackward0>)\n'
        'tensor([[-2., -2.,  0.,  2.],\n'
        '        [ 2.,  2., -2.,  2.]])\n'
        'tensor([[ 2.,  2., -0., -2.],\n'
        '        [-2., -2.,  2., -2.]])',
        []),
    'huber_loss delta': (
        'tensor(0.4394, grad_fn=<HuberLossBackward0>)\n'
        'tensor([[-0.1250, -0.1250,  0.0000,  0.0500],\n'
        '        [ 0.0500,  0.1250, -0.1250,  0.1250]])\n'
        'tensor([[ 0.1250,  0.1250,  0.0000, -0.0500],\n'
        '        [-0.0500, -0.1250,  0.1250, -0.1250]])',
        []),
    'huber_loss weight': (
        'tensor(1.5125, grad_fn=<MeanBackward0>)\n'
        'tensor([[-0.2500, -0.2500,  0.0000,  0.2000],\n'
        '        [ 0.0500,  0.5000, -0.1250,  1.0000]])\n'
        'tensor([[ 0.2500,  0.2500,  0.0000, -0.2000],\n'
        '        [-0.0500, -0.5000,  0.1250, -1.0000]])',
        []),
    'l1_loss weight': (
        'tensor(1.2717, grad_fn=<DivBackward0>)\n'
        'tensor([[-0.2642, -0.1132,  0.0000,  0.1509],\n'
        '        [ 0.1887,  0.4151, -0.0755,  0.3396]])\n'
        'tensor([[ 0.2642,  0.1132, -0.0000, -0.1509],\n'
        '        [-0.1887, -0.4151,  0.0755, -0.3396]])',
        []),
    'kl_div mean': (
        'tensor(0.1439, grad_fn=<MeanBackward0>)\n'
        'tensor([[-0.0096,  0.0102,  0.0206, -0.0212],\n'
        '        [ 0.0069,  0.0507, -0.0292, -0.0285]])\n'
        'tensor([[0.3080, 0.0822, 0.0704, 0.1938],\n'
        '        [   nan, 0.0507, 0.4641, 0.4266]])',
        [KL_MEAN_WARNING]),
    'kl_div mean log_target': (
        'tensor(nan, grad_fn=<MeanBackward0>)\n'
        'tensor([[-0.0096,  0.0102,  0.0206, -0.0212],\n'
        '        [ 0.0069,  0.0507, -0.0292, -0.0285]])\n'
        'tensor([[0.3080, 0.0822, 0.0704, 0.1938],\n'
        '        [   nan, 0.0507, 0.4641, 0.4266]])',
        [KL_MEAN_WARNING]),
    'kl_div sum': (
        'tensor(1.1510, grad_fn=<SumBackward0>)\n'
        'tensor([[-0.0769,  0.0817,  0.1645, -0.1693],\n'
        '        [ 0.0551,  0.4059, -0.2334, -0.2276]])\n'
        'tensor([[2.4642, 0.6574, 0.5628, 1.5505],\n'
        '        [   nan, 0.4057, 3.7125, 3.4125]])',
        []),
    'kl_div sum log_target': (
        'tensor(nan, grad_fn=<SumBackward0>)\n'
        'tensor([[-0.0769,  0.0817,  0.1645, -0.1693],\n'
        '        [ 0.0551,  0.4059, -0.2334, -0.2276]])\n'
        'tensor([[2.4642, 0.6574, 0.5628, 1.5505],\n'
        '        [   nan, 0.4057, 3.7125, 3.4125]])',
        []),
    'kl_div none': (
        'tensor([[ 0.1464, -0.0685, -0.1311,  0.2202],\n'
        '        [ 0.0000, -0.2972,  0.6781,  0.6031]], grad_fn=<SubBackward0>)\n'
        'tensor([[-0.0744,  0.0065,  0.2717, -0.2038],\n'
        '        [ 0.0207, -0.2103, -0.0438,  0.2334]])\n'
        'tensor([[ 1.7250, -0.1972, -0.6754,  0.6202],\n'
        '        [    nan,  0.4462,  0.7425, -3.0713]])',
        []),
    'kl_div none log_target': (
        'tensor([[ 0.1464, -0.0685, -0.1311,  0.2202],\n'
        '        [    nan, -0.2972,  0.6781,  0.6031]], grad_fn=<MulBackward0>)\n'
        'tensor([[-0.0744,  0.0065,  0.2717, -0.2038],\n'
        '        [ 0.0207, -0.2103, -0.0438,  0.2334]])\n'
        'tensor([[ 1.7250, -0.1972, -0.6754,  0.6202],\n'
        '        [    nan,  0.4462,  0.7425, -3.0713]])',
        []),
    'kl_div batchmean': (
        'tensor(0.5755, grad_fn=<DivBackward0>)\n'
        'tensor([[-0.0384,  0.0409,  0.0822, -0.0847],\n'
        '        [ 0.0275,  0.2030, -0.1167, -0.1138]])\n'
        'tensor([[1.2321, 0.3287, 0.2814, 0.7753],\n'
        '        [   nan, 0.2028, 1.8563, 1.7063]])',
        []),
    'kl_div batchmean log_target': (
        'tensor(nan, grad_fn=<DivBackward0>)\n'
        'tensor([[-0.0384,  0.0409,  0.0822, -0.0847],\n'
        '        [ 0.0275,  0.2030, -0.1167, -0.1138]])\n'
        'tensor([[1.2321, 0.3287, 0.2814, 0.7753],\n'
        '        [   nan, 0.2028, 1.8563, 1.7063]])',
        []),
    'selu': (
        'tensor([-1.7259, -1.3658, -0.6918,  0.5254,  2.1014], grad_fn=<EluBackward0>)\n'
        'tensor([ 0.0225, -0.1177, -1.2796,  0.4203, -0.5254],\n'
        '       grad_fn=<EluBackwardBackward0>)\n'
        '[1.0161e-03 2.7700e-02 3.2748e+00 0.0000e+00 0.0000e+00]',
        []),
    'celu': (
        'tensor([-0.9817, -0.7769, -0.3935,  0.5000,  2.0000], grad_fn=<CeluBackward0>)\n'
        'tensor([ 0.0128, -0.0669, -0.7278,  0.4000, -0.5000],\n'
        '       grad_fn=<EluBackwardBackward0>)\n'
        '[3.2875e-04 8.9617e-03 1.0595e+00 0.0000e+00 0.0000e+00]',
        []),
    'celu alpha': (
        'tensor([-0.4998, -0.4751, -0.3161,  0.5000,  2.0000], grad_fn=<CeluBackward0>)\n'
        'tensor([ 2.3482e-04, -1.4936e-02, -4.4146e-01,  4.0000e-01, -5.0000e-01],\n'
        '       grad_fn=<EluBackwardBackward0>)\n'
        '[2.2057e-07 8.9235e-04 7.7953e-01 0.0000e+00 0.0000e+00]',
        []),
    'mish': (
        'tensor([-0.0726, -0.2981,  0.0000,  0.3752,  1.9440], grad_fn=<MishBackward0>)\n'
        'tensor([-0.0376,  0.0192, -0.7200,  0.3546, -0.5347], grad_fn=<MulBackward0>)\n'
        '[ 0.0018 -0.0018  1.1059  0.1328 -0.0309]',
        []),
    'softsign': (
        'tensor([-0.8000, -0.6000, -0.3333,  0.3333,  0.6667], grad_fn=<DivBackward0>)\n'
        'tensor([ 0.0280, -0.0480, -0.5333,  0.1778, -0.0556], grad_fn=<AddBackward0>)\n'
        '[ 6.2720e-04  3.6864e-03  7.5852e-01 -8.4280e-02 -4.1152e-03]',
        []),
    'hardswish': (
        'tensor([-0.0000, -0.0000, -0.2083,  0.2917,  3.0000],\n'
        '       grad_fn=<HardswishBackward0>)\n'
        'tensor([ 0.0000,  0.0000, -0.4000,  0.2667, -0.5000],\n'
        '       grad_fn=<HardswishBackwardBackward0>)\n'
        '[0.     0.     0.32   0.0711 0.    ]',
        []),
    'glu': (
        'tensor([[-0.7297],\n'
        '        [-0.3112]], grad_fn=<GluBackward0>)\n'
        'tensor([ 0.1277, -0.4176, -0.1867,  0.0353], grad_fn=<ViewBackward0>)\n'
        '[-0.0872  0.2482 -0.005   0.0257]',
        []),
    'glu dim 0': (
        'tensor([[-1.5102, -0.9337]], grad_fn=<GluBackward0>)\n'
        'tensor([ 0.2643, -0.1867, -0.6580,  0.1058], grad_fn=<ViewBackward0>)\n'
        '[-0.2165 -0.0149  0.299   0.0209]',
        []),
}


@pytest.mark.parametrize("name", list(TRANSCRIPTS))
def test_transcripts_as_pytorch(name: str) -> None:
    text, warned = EXPECTED[name]
    as_pytorch(TRANSCRIPTS[name], (None, repr(text), warned))


# ------------------------------------------------------------------------------------------------ float32 values
def test_layer_norm_agrees_with_pytorch_to_float32_precision() -> None:
    """Values, gradients and the saved statistics on a larger random input, within a few float32 steps."""
    torch = oracle()
    if torch is None:
        pytest.skip("needs torch")
    rng = np.random.default_rng(0)
    a, up = rng.normal(2, 3, (8, 5, 16)).astype(np.float32), rng.normal(size=(8, 5, 16)).astype(np.float32)
    w, b = rng.normal(size=(5, 16)).astype(np.float32), rng.normal(size=(5, 16)).astype(np.float32)
    results = []
    for lib in (tg, torch):
        x, wt, bt = (lib.tensor(v, requires_grad=True) for v in (a, w, b))
        out = lib.nn.functional.layer_norm(x, (5, 16), wt, bt)
        stats = [out.grad_fn._saved_result1.detach().numpy(), out.grad_fn._saved_result2.detach().numpy()]
        grads = lib.autograd.grad(out, (x, wt, bt), lib.tensor(up))
        results.append([out.detach().numpy(), *stats, *(g.numpy() for g in grads)])
    for ours, theirs in zip(*results):
        assert np.allclose(ours, theirs, rtol=2e-6, atol=2e-6), np.abs(ours - theirs).max()


def test_layer_norm_normalises_each_sample() -> None:
    x = tg.tensor(np.random.default_rng(1).normal(5, 4, (3, 7)).astype(np.float32))
    out = tg.nn.LayerNorm(7)(x).detach().numpy()
    assert np.allclose(out.mean(1), 0, atol=1e-6)
    assert np.allclose(out.var(1), 1, atol=1e-4)


# ------------------------------------------------------------------------------------------------ finite differences
def _f64(values: Any) -> tg.Tensor:
    return tg.tensor(values, dtype=tg.float64, requires_grad=True)


# inputs away from the kinks: x - y is never 0 or +-0.5 (the beta and delta used), x never +-3
X2 = [[-1.8, 0.45, 0.9, 0.27], [0.18, 2.7, -0.9, -0.63]]
Y2 = [[0.1, 1.2, 0.7, 0.1], [0.0, 0.1, 0.3, -2.5]]


GRADCHECKS: dict[str, tuple[Any, list]] = {
    "layer_norm": (lambda x, w, b: F.layer_norm(x, (4,), w, b),
                   [_f64(X), _f64([0.5, 1.0, 1.5, 2.0]), _f64([0.1, 0.0, -0.1, 0.2])]),
    "layer_norm 2 dims": (lambda x: F.layer_norm(x, (2, 4)), [_f64([X, Y])]),
    # (not with padding_idx or scale_grad_by_freq: they change the gradient on purpose, away from the derivative)
    "embedding": (lambda w: F.embedding(tg.tensor([[0, 2, 2], [3, 1, 2]]), w),
                  [_f64([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8]])]),
    "smooth_l1_loss": (lambda x, y: F.smooth_l1_loss(x, y, reduction="none", beta=0.5), [_f64(X2), _f64(Y2)]),
    "smooth_l1_loss mean": (lambda x, y: F.smooth_l1_loss(x, y, beta=0.5), [_f64(X2), _f64(Y2)]),
    "huber_loss": (lambda x, y: F.huber_loss(x, y, reduction="sum", delta=0.5), [_f64(X2), _f64(Y2)]),
    "l1_loss": (lambda x, y: F.l1_loss(x, y), [_f64(X2), _f64(Y2)]),
    "kl_div": (lambda x, p: F.kl_div(x.log_softmax(1), p.softmax(1), reduction="batchmean"), [_f64(X), _f64(Y)]),
    "kl_div log_target": (lambda x, p: F.kl_div(x, p, reduction="sum", log_target=True), [_f64(X), _f64(Y)]),
    "cosine_similarity": (lambda x, y: F.cosine_similarity(x, y), [_f64(X), _f64(Y)]),
    "normalize": (lambda x: F.normalize(x, dim=0), [_f64(X)]),
    "pairwise_distance": (lambda x, y: F.pairwise_distance(x, y), [_f64(X), _f64(Y)]),
    "pairwise_distance p=3": (lambda x, y: F.pairwise_distance(x, y, p=3), [_f64(X), _f64(Y)]),
    "softmin": (lambda x: F.softmin(x, 1), [_f64(X)]),
    "selu": (F.selu, [_f64(X)]),
    "celu": (lambda x: F.celu(x, 0.5), [_f64(X)]),
    "mish": (F.mish, [_f64(X)]),
    "softsign": (F.softsign, [_f64(X)]),
    "hardsigmoid": (F.hardsigmoid, [_f64(X2)]),
    "hardswish": (F.hardswish, [_f64(X2)]),
    "prelu": (F.prelu, [_f64(X), _f64([0.25, -0.1, 0.5, 2.0])]),
    "glu": (F.glu, [_f64(X)]),
}


@pytest.mark.parametrize("name", list(GRADCHECKS))
def test_derivatives_match_finite_differences(name: str) -> None:
    fn, inputs = GRADCHECKS[name]
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


# ------------------------------------------------------------------------------------------------ errors
def _x(lib: ModuleType) -> Any:
    return lib.tensor(X)


ERRORS = [
    (lambda lib: lib.nn.functional.layer_norm(_x(lib), (3,)), RuntimeError,
     "Given normalized_shape=[3], expected input with shape [*, 3], but got input of size[2, 4]"),
    (lambda lib: lib.nn.functional.layer_norm(_x(lib), (4,), lib.ones(3)), RuntimeError,
     "Expected weight to be of same shape as normalized_shape, but got weight of shape [3] and normalized_shape = [4]"),
    (lambda lib: lib.nn.functional.layer_norm(_x(lib), 4), TypeError,
     "layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int"),
    (lambda lib: lib.nn.functional.layer_norm(lib.tensor([[1, 2]]), (2,)), NotImplementedError,
     "\"LayerNormKernelImpl\" not implemented for 'Long'"),
    (lambda lib: lib.nn.functional.embedding(lib.tensor([4]), lib.ones(4, 2)), IndexError,
     "index out of range in self"),
    (lambda lib: lib.nn.functional.embedding(lib.tensor([-1]), lib.ones(4, 2)), IndexError,
     "index out of range in self"),
    (lambda lib: lib.nn.functional.embedding(lib.tensor([1.0]), lib.ones(4, 2)), RuntimeError,
     "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
     "tinygrad_edu.FloatTensor instead (while checking arguments for embedding)"),
    (lambda lib: lib.nn.functional.embedding(lib.tensor([1]), lib.ones(4, 2), padding_idx=4), AssertionError,
     "Padding_idx must be within num_embeddings"),
    (lambda lib: lib.nn.Embedding(4, 2, padding_idx=-5), AssertionError, "Padding_idx must be within num_embeddings"),
    (lambda lib: lib.nn.ModuleDict()["missing"], KeyError, "'missing'"),
    (lambda lib: lib.nn.ParameterList([lib.ones(1)])[1], IndexError, "index 1 is out of range"),
    (lambda lib: lib.nn.Unflatten(1, (3, 3))(_x(lib)), RuntimeError,
     "unflatten: Provided sizes [3, 3] don't multiply up to the size of dim 1 (4) in the input tensor"),
    (lambda lib: lib.nn.Unflatten(1, 4), TypeError, "unflattened_size must be a tuple of ints, but found type int"),
    (lambda lib: lib.nn.functional.l1_loss(_x(lib), _x(lib), reduction="avg"), ValueError,
     "avg is not a valid value for reduction"),
    (lambda lib: lib.nn.functional.kl_div(_x(lib), _x(lib), reduction="avg"), ValueError,
     "avg is not a valid value for reduction"),
    (lambda lib: lib.nn.functional.l1_loss(_x(lib), _x(lib), weight=lib.ones(4)), ValueError,
     "Weights and input must have the same size."),
    (lambda lib: lib.nn.functional.smooth_l1_loss(_x(lib), _x(lib), beta=-1.0), RuntimeError,
     "smooth_l1_loss does not support negative values for beta."),
    (lambda lib: lib.nn.functional.huber_loss(_x(lib), _x(lib), delta=0.0), RuntimeError,
     "huber_loss does not support non-positive values for delta."),
    (lambda lib: lib.nn.functional.glu(lib.ones(2, 3)), RuntimeError,
     "Halving dimension must be even, but dimension 1 is size 3"),
    (lambda lib: lib.nn.functional.glu(lib.tensor(1.0)), RuntimeError,
     "glu does not support scalars because halving size must be even"),
    (lambda lib: lib.nn.functional.prelu(_x(lib), lib.ones(3)), RuntimeError,
     "Mismatch of parameter numbers and input channel size. Found parameter numbers = 3 and channel size = 4."),
    (lambda lib: lib.nn.functional.prelu(_x(lib), lib.ones(1, 1)), RuntimeError,
     "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = 2"),
    (lambda lib: lib.nn.functional.celu(_x(lib), alpha=0.0), RuntimeError,
     "ZeroDivisionError: alpha cannot be 0 for CELU"),
    (lambda lib: lib.nn.functional.mish(lib.tensor([1])), NotImplementedError,
     "\"mish_cpu\" not implemented for 'Long'"),
    (lambda lib: lib.nn.functional.hardswish(lib.tensor([1])), NotImplementedError,
     "\"hardswish_cpu\" not implemented for 'Long'"),
    (lambda lib: lib.nn.functional.selu(lib.tensor([1])), NotImplementedError,
     "\"elu_cpu\" not implemented for 'Long'"),
    (lambda lib: lib.nn.init.eye_(lib.ones(3)), ValueError, "Only tensors with 2 dimensions are supported"),
    (lambda lib: lib.nn.init.orthogonal_(lib.ones(3)), ValueError,
     "Only tensors with 2 or more dimensions are supported"),
    (lambda lib: lib.optim.AdamW([lib.ones(1, requires_grad=True)], lr=-1.0), ValueError,
     "Invalid learning rate: -1.0"),
    (lambda lib: lib.optim.AdamW([lib.ones(1, requires_grad=True)], betas=(1.0, 0.9)), ValueError,
     "Invalid beta parameter at index 0: 1.0"),
    (lambda lib: lib.optim.Adagrad([lib.ones(1, requires_grad=True)], lr_decay=-1.0), ValueError,
     "Invalid lr_decay value: -1.0"),
    (lambda lib: lib.optim.Adagrad([lib.ones(1, requires_grad=True)], initial_accumulator_value=-1.0), ValueError,
     "Invalid initial_accumulator_value value: -1.0"),
    (lambda lib: lib.optim.Adagrad([lib.ones(1, requires_grad=True)], eps=-1.0), ValueError,
     "Invalid epsilon value: -1.0"),
    (lambda lib: lib.optim.Adagrad([lib.ones(1, requires_grad=True)], weight_decay=-1.0), ValueError,
     "Invalid weight_decay value: -1.0"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_as_pytorch(case: int) -> None:
    raises(*ERRORS[case])


def test_softmin_without_dim_warns_as_pytorch() -> None:
    as_pytorch(lambda lib: lib.nn.functional.softmin(lib.tensor([1.0, 2.0])),
               (None, "tensor([0.7311, 0.2689])",
                ["UserWarning: Implicit dimension choice for softmin has been deprecated. Change the call to include "
                 "dim=X as an argument."]))


def test_size_mismatch_warns_as_pytorch() -> None:
    text = ("UserWarning: Using a target size (tinygrad_edu.Size([4])) that is different to the input size "
            "(tinygrad_edu.Size([2, 4])). This will likely lead to incorrect results due to broadcasting. Please "
            "ensure they have the same size.")
    for name, value in [("l1_loss", "1.5125"), ("smooth_l1_loss", "1.0750"), ("huber_loss", "1.0750")]:
        as_pytorch(lambda lib, n=name: getattr(lib.nn.functional, n)(_x(lib), lib.tensor(Y[1])),
                   (None, f"tensor({value})", [text]))


# ------------------------------------------------------------------------------------------------ optimizers
OPTIMIZERS = {
    "AdamW": {},
    "AdamW amsgrad": {"weight_decay": 0.1, "amsgrad": True},
    "AdamW maximize": {"maximize": True, "betas": (0.8, 0.99)},
    "Adagrad": {"lr": 0.1},
    "Adagrad options": {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1, "initial_accumulator_value": 0.5,
                        "eps": 1e-6},
    "Adagrad maximize": {"lr": 0.1, "maximize": True},
}


def _trajectory(lib: ModuleType, name: str, steps: int) -> tuple[np.ndarray, Any]:
    """Parameters after ``steps`` updates from the same gradients (a float32 formula of the parameters)."""
    w = lib.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), requires_grad=True)
    opt = getattr(lib.optim, name.split()[0])([w], **OPTIMIZERS[name])
    for i in range(steps):
        a = w.detach().numpy()
        w.grad = lib.tensor(a * a * np.float32(3) - np.float32(0.3) + np.float32(math.sin(i)))
        opt.step()
    return w.detach().numpy(), opt


@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_optimizer_matches_pytorch(name: str) -> None:
    """One step agrees to the last bit; after 30 the float32 roundings (PyTorch fuses some) differ by a few ulps."""
    torch = oracle()
    if torch is None:
        pytest.skip("needs torch")
    assert np.array_equal(_trajectory(tg, name, 1)[0], _trajectory(torch, name, 1)[0])
    (ours, opt), (theirs, their_opt) = _trajectory(tg, name, 30), _trajectory(torch, name, 30)
    assert np.allclose(ours, theirs, rtol=1e-6, atol=1e-6), np.abs(ours - theirs).max()
    for key, buffer in opt.state_dict()["state"][0].items():
        assert np.allclose(buffer.numpy(), their_opt.state_dict()["state"][0][key].numpy(), rtol=1e-5, atol=1e-7), key


def test_adamw_is_adam_with_decoupled_weight_decay() -> None:
    ours, _ = _trajectory(tg, "AdamW amsgrad", 5)
    w = tg.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), requires_grad=True)
    opt = tg.optim.Adam([w], weight_decay=0.1, amsgrad=True, decoupled_weight_decay=True)
    for i in range(5):
        a = w.detach().numpy()
        w.grad = tg.tensor(a * a * np.float32(3) - np.float32(0.3) + np.float32(math.sin(i)))
        opt.step()
    assert np.array_equal(ours, w.detach().numpy())


def test_optimizer_reprs_and_state_dicts_as_pytorch() -> None:
    def run(lib: ModuleType) -> str:
        w = lib.tensor([1.0, -2.0], requires_grad=True)
        adamw, adagrad = lib.optim.AdamW([w]), lib.optim.Adagrad([w], lr_decay=0.5)
        state = adagrad.state_dict()  # Adagrad's buffers exist from the start
        return "\n".join([repr(adamw), repr(adagrad), repr(state["state"]), repr(adamw.state_dict()["state"])])

    as_pytorch(run, (None, repr(
        "AdamW (\nParameter Group 0\n    amsgrad: False\n    betas: (0.9, 0.999)\n    capturable: False\n"
        "    decoupled_weight_decay: True\n    differentiable: False\n    eps: 1e-08\n    foreach: None\n"
        "    fused: None\n    lr: 0.001\n    maximize: False\n    weight_decay: 0.01\n)\n"
        "Adagrad (\nParameter Group 0\n    differentiable: False\n    eps: 1e-10\n    foreach: None\n"
        "    fused: None\n    initial_accumulator_value: 0\n    lr: 0.01\n    lr_decay: 0.5\n    maximize: False\n"
        "    weight_decay: 0\n)\n"
        "{0: {'step': tensor(0.), 'sum': tensor([0., 0.])}}\n"
        "{}"), []))


@pytest.mark.parametrize("name", ["AdamW amsgrad", "Adagrad options"])
def test_training_resumes_from_a_state_dict(name: str) -> None:
    """10 steps, save, load into a fresh optimizer, 20 more: the same parameters as 30 steps in one go."""
    straight, _ = _trajectory(tg, name, 30)
    w = tg.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), requires_grad=True)
    make = getattr(tg.optim, name.split()[0])
    opt = make([w], **OPTIMIZERS[name])
    for i in range(30):
        if i == 10:
            saved = opt.state_dict()
            opt = make([w], lr=123.0)  # options come back from the state dict too
            opt.load_state_dict(saved)
        a = w.detach().numpy()
        w.grad = tg.tensor(a * a * np.float32(3) - np.float32(0.3) + np.float32(math.sin(i)))
        opt.step()
    assert np.array_equal(straight, w.detach().numpy())


def test_a_model_with_the_new_layers_trains() -> None:
    """Embedding -> LayerNorm -> Linear -> GLU on a toy task, with AdamW: the loss drops."""
    tg.manual_seed(1)  # (a seed whose run, the same in PyTorch, trains well below the loss it starts from)
    nn = tg.nn
    model = nn.Sequential(nn.Embedding(6, 8), nn.LayerNorm(8), nn.Linear(8, 4), nn.GLU(), nn.Flatten(1))
    tokens = tg.tensor([[0, 1], [2, 3], [4, 5], [1, 0]])
    targets = tg.tensor([[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])
    opt = tg.optim.AdamW(model.parameters(), lr=0.05)
    losses = []
    for _ in range(60):
        opt.zero_grad()
        loss = nn.SmoothL1Loss(beta=0.5)(model(tokens), targets)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.2 * losses[0]


# ------------------------------------------------------------------------------------------------ init
def test_init_eye_trunc_normal_and_orthogonal() -> None:
    tg.manual_seed(0)
    w = tg.nn.init.eye_(tg.empty(2, 3, requires_grad=True))
    assert w.tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] and w.requires_grad and w.grad_fn is None
    t = tg.nn.init.trunc_normal_(tg.empty(20000), mean=0.0, std=0.5, a=-0.5, b=1.0).numpy()
    assert t.min() >= -0.5 and t.max() <= 1.0
    # the mean of N(0, 0.5**2) cut to [-1, 2] standard deviations: 0.5 (phi(-1) - phi(2)) / (Phi(2) - Phi(-1))
    phi = [math.exp(-z * z / 2) / math.sqrt(2 * math.pi) for z in (-1, 2)]
    cdf = [0.5 * (1 + math.erf(z / math.sqrt(2))) for z in (-1, 2)]
    assert abs(t.mean() - 0.5 * (phi[0] - phi[1]) / (cdf[1] - cdf[0])) < 0.01
    for shape in [(3, 5), (5, 3), (6, 2, 2)]:
        q = tg.nn.init.orthogonal_(tg.empty(*shape), gain=2.0).numpy().reshape(shape[0], -1)
        small = q @ q.T if q.shape[0] <= q.shape[1] else q.T @ q
        assert np.allclose(small, 4 * np.eye(len(small)), atol=1e-5)
    tg.manual_seed(3)
    first = tg.nn.init.orthogonal_(tg.empty(4, 4)).numpy()
    tg.manual_seed(3)
    assert np.array_equal(first, tg.nn.init.orthogonal_(tg.empty(4, 4)).numpy())  # seeded by manual_seed


def test_trunc_normal_warns_as_pytorch_when_the_mean_is_far_off() -> None:
    as_pytorch(lambda lib: lib.nn.init.trunc_normal_(lib.empty(3), mean=5.0).shape,
               (None, "tinygrad_edu.Size([3])",
                ["UserWarning: mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of "
                 "values may be incorrect."]))
