"""nn, optim and data breadth that PyTorch's docs and tutorials reach for: finding modules by dotted name, growing
containers, F.pad, the margin and likelihood losses, label smoothing, parameters as one vector, NAdam/RAdam/Adadelta/
Adamax and L-BFGS, warm restarts and chained schedulers, concatenated and streamed datasets, and the weighted sampler.

Each case is run with tinygrad_edu and, when torch is installed, with torch (``_oracle.as_pytorch``); the expected
outcome is spelled out next to it, so each test means something without torch.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import pytest
from _oracle import as_pytorch, err, ok

import tinygrad_edu as tg


def _net(lib: ModuleType) -> Any:
    """A small net with a nested container, parameters and BatchNorm's buffers, the same after each seed."""
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.Sequential(lib.nn.ReLU(), lib.nn.BatchNorm1d(3)))
    return net


MODULES = {
    "get_submodule": (
        lambda lib: _net(lib).get_submodule("1.1"),
        ok("BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)")),
    "get_submodule of ''": (
        lambda lib: type(_net(lib).get_submodule("")).__name__,
        ok("'Sequential'")),
    "get_submodule, no such child": (
        lambda lib: _net(lib).get_submodule("1.5"),
        err("AttributeError", "Sequential has no attribute `5`")),
    "get_submodule through a parameter": (
        lambda lib: _net(lib).get_submodule("0.weight.x"),
        err("AttributeError", "`weight` is not an nn.Module")),
    "get_parameter": (
        lambda lib: _net(lib).get_parameter("0.bias"),
        ok("Parameter containing:\ntensor([-0.0140,  0.5607, -0.0628], requires_grad=True)")),
    "get_parameter of a buffer": (
        lambda lib: _net(lib).get_parameter("1.1.running_mean"),
        err("AttributeError", "`running_mean` is not an nn.Parameter")),
    "get_parameter, no such name": (
        lambda lib: _net(lib).get_parameter("0.w"),
        err("AttributeError", "Linear has no attribute `w`")),
    "get_buffer": (
        lambda lib: _net(lib).get_buffer("1.1.num_batches_tracked"),
        ok("tensor(0)")),
    "get_buffer of a parameter": (
        lambda lib: _net(lib).get_buffer("1.1.weight"),
        err("AttributeError", "`weight` is not a buffer")),
    "half": (
        lambda lib: (_net(lib).half()[0].bias, _net(lib).half().get_buffer("1.1.running_var").dtype),
        ok("(Parameter containing:\n"
           "tensor([-0.0140,  0.5605, -0.0627], dtype=tinygrad_edu.float16, requires_grad=True), tinyg"
           "rad_edu.float16)")),
    "add_module with a dot": (
        lambda lib: lib.nn.Module().add_module("a.b", lib.nn.ReLU()),
        err("KeyError", "'module name can\\'t contain \".\", got: a.b'")),
    "register_module with a dot": (
        lambda lib: lib.nn.Module().register_module("a.b", None),
        err("KeyError", "'module name can\\'t contain \".\", got: a.b'")),
    "add_module with ''": (
        lambda lib: lib.nn.Module().add_module("", lib.nn.ReLU()),
        err("KeyError", "'module name can\\'t be empty string \"\"'")),
    "add_module with an int name": (
        lambda lib: lib.nn.Module().add_module(1, lib.nn.ReLU()),
        err("TypeError", "module name should be a string. Got int")),
    "add_module over a method": (
        lambda lib: lib.nn.Module().add_module("forward", lib.nn.ReLU()),
        err("KeyError", "\"attribute 'forward' already exists\"")),
    "register_parameter with ''": (
        lambda lib: lib.nn.Module().register_parameter("", None),
        err("KeyError", "'parameter name can\\'t be empty string \"\"'")),
    "register_parameter with an int name": (
        lambda lib: lib.nn.Module().register_parameter(0, None),
        err("TypeError", "parameter name should be a string. Got int")),
    "register_parameter over an attribute": (
        lambda lib: lib.nn.Module().register_parameter("training", None),
        err("KeyError", "\"attribute 'training' already exists\"")),
}

CONTAINERS = {
    "Sequential.insert": (
        lambda lib: lib.nn.Sequential(lib.nn.ReLU(), lib.nn.Tanh()).insert(1, lib.nn.Sigmoid()),
        ok("Sequential(\n  (0): ReLU()\n  (1): Sigmoid()\n  (2): Tanh()\n)")),
    "Sequential.insert, negative index": (
        lambda lib: lib.nn.Sequential(lib.nn.ReLU(), lib.nn.Tanh()).insert(
            -2, lib.nn.Sigmoid()),
        ok("Sequential(\n  (0): Sigmoid()\n  (1): ReLU()\n  (2): Tanh()\n)")),
    "Sequential.insert out of range": (
        lambda lib: lib.nn.Sequential(lib.nn.ReLU()).insert(3, lib.nn.Tanh()),
        err("IndexError", "Index out of range: 3")),
    "Sequential.extend": (
        lambda lib: lib.nn.Sequential(lib.nn.ReLU()).extend([lib.nn.Tanh(), lib.nn.ReLU6()]),
        ok("Sequential(\n  (0): ReLU()\n  (1): Tanh()\n  (2): ReLU6()\n)")),
    "Sequential.pop": (
        lambda lib: (lambda s: (s.pop(0), s))(lib.nn.Sequential(lib.nn.ReLU(), lib.nn.Tanh())),
        ok("(ReLU(), Sequential(\n  (0): Tanh()\n))")),
    "Sequential + Sequential": (
        lambda lib: lib.nn.Sequential(lib.nn.ReLU()) + lib.nn.Sequential(lib.nn.Tanh()),
        ok("Sequential(\n  (0): ReLU()\n  (1): Tanh()\n)")),
    "Sequential + list": (
        lambda lib: lib.nn.Sequential(lib.nn.ReLU()) + [lib.nn.Tanh()],  # noqa: RUF005 (the + is what is tested)
        err("ValueError", "add operator supports only objects of Sequential class, but <class 'list'> is given.")),
    "Sequential * 2": (
        lambda lib: lib.nn.Sequential(lib.nn.ReLU(), lib.nn.Tanh()) * 2,
        ok("Sequential(\n  (0): ReLU()\n  (1): Tanh()\n  (2): ReLU()\n  (3): Tanh()\n)")),
    "ModuleList.insert": (
        lambda lib: (lambda m: (m.insert(1, lib.nn.Tanh()), m))(
            lib.nn.ModuleList([lib.nn.ReLU(), lib.nn.ReLU6()])),
        ok("(None, ModuleList(\n  (0): ReLU()\n  (1): Tanh()\n  (2): ReLU6()\n))")),
    "ModuleList +=": (
        lambda lib: (lambda m: m.__iadd__([lib.nn.Tanh()]))(lib.nn.ModuleList([lib.nn.ReLU()])),
        ok("ModuleList(\n  (0): ReLU()\n  (1): Tanh()\n)")),
    "ModuleList + ModuleList": (
        lambda lib: lib.nn.ModuleList([lib.nn.ReLU()]) + lib.nn.ModuleList([lib.nn.Tanh()]),
        ok("ModuleList(\n  (0): ReLU()\n  (1): Tanh()\n)")),
    "ModuleList + int": (
        lambda lib: lib.nn.ModuleList([lib.nn.ReLU()]) + 3,
        err("TypeError", "'int' object is not iterable")),
    "ModuleList.pop": (
        lambda lib: (lambda m: (m.pop(-1), len(m)))(lib.nn.ModuleList([lib.nn.ReLU(), lib.nn.Tanh()])),
        ok("(Tanh(), 1)")),
    "ModuleList prints runs once": (
        lambda lib: lib.nn.ModuleList(
            [lib.nn.Linear(2, 2), lib.nn.Linear(2, 2), lib.nn.ReLU(), lib.nn.Linear(2, 2)]),
        ok("ModuleList(\n"
           "  (0-1): 2 x Linear(in_features=2, out_features=2, bias=True)\n"
           "  (2): ReLU()\n"
           "  (3): Linear(in_features=2, out_features=2, bias=True)\n"
           ")")),
}


def _x(lib: ModuleType) -> Any:
    """A (3, 4) batch of scores from the seeded generator: the same numbers in both libraries."""
    lib.manual_seed(0)
    return lib.randn(3, 4, requires_grad=True)


def _grad(lib: ModuleType, loss_fn: Any) -> Any:
    """d loss / d scores: the backward formula of each loss, checked number by number."""
    x = _x(lib)
    return lib.autograd.grad(loss_fn(lib, x), x)[0]



def _second_derivative(lib: ModuleType, loss_fn: Any) -> tuple:
    """The gradient's node with create_graph=True, and the gradient of its squared length (a second derivative)."""
    x = _x(lib)
    g = lib.autograd.grad(loss_fn(lib, x), x, create_graph=True)[0]
    return g.grad_fn.name(), lib.autograd.grad((g * g).sum(), x)[0]

PAD = {
    "constant": (
        lambda lib: lib.nn.functional.pad(lib.arange(6.0).reshape(1, 2, 3), (1, 2), value=-1.0),
        ok("tensor([[[-1.,  0.,  1.,  2., -1., -1.],\n         [-1.,  3.,  4.,  5., -1., -1.]]])")),
    "constant crops with negative amounts": (
        lambda lib: lib.nn.functional.pad(
            lib.arange(12.0).reshape(3, 4), (-1, 1, 1, -2)),
        ok("tensor([[0., 0., 0., 0.],\n        [1., 2., 3., 0.]])")),
    "constant of any rank": (
        lambda lib: lib.nn.functional.pad(lib.ones(2, 1, 1, 1, 1), (0, 1, 0, 0, 0, 0, 1, 0)).shape,
        ok("tinygrad_edu.Size([2, 2, 1, 1, 2])")),
    "reflect 1d": (
        lambda lib: lib.nn.functional.pad(lib.arange(8.0).reshape(2, 4), (3, 2), mode="reflect"),
        ok("tensor([[3., 2., 1., 0., 1., 2., 3., 2., 1.],\n        [7., 6., 5., 4., 5., 6., 7., 6., 5.]])")),
    "reflect 2d": (
        lambda lib: lib.nn.functional.pad(lib.arange(6.0).reshape(1, 1, 2, 3), (2, 1, 1, 1), mode="reflect"),
        ok("tensor([[[[5., 4., 3., 4., 5., 4.],\n"
           "          [2., 1., 0., 1., 2., 1.],\n"
           "          [5., 4., 3., 4., 5., 4.],\n"
           "          [2., 1., 0., 1., 2., 1.]]]])")),
    "replicate 2d": (
        lambda lib: lib.nn.functional.pad(lib.arange(4.0).reshape(1, 2, 2), (1, 1, 2, 0),
            mode="replicate"),
        ok("tensor([[[0., 0., 1., 1.],\n"
           "         [0., 0., 1., 1.],\n"
           "         [0., 0., 1., 1.],\n"
           "         [2., 2., 3., 3.]]])")),
    "replicate 3d": (
        lambda lib: lib.nn.functional.pad(lib.arange(2.0).reshape(1, 1, 2, 1, 1), (1, 0, 0, 1, 1, 1),
            mode="replicate").sum((0, 1)),
        ok("tensor([[[0., 0.],\n"
           "         [0., 0.]],\n"
           "\n"
           "        [[0., 0.],\n"
           "         [0., 0.]],\n"
           "\n"
           "        [[1., 1.],\n"
           "         [1., 1.]],\n"
           "\n"
           "        [[1., 1.],\n"
           "         [1., 1.]]])")),
    "circular": (
        lambda lib: lib.nn.functional.pad(lib.arange(6.0).reshape(1, 2, 3), (2, 1, 1, 0), mode="circular"),
        ok("tensor([[[4., 5., 3., 4., 5., 3.],\n"
           "         [1., 2., 0., 1., 2., 0.],\n"
           "         [4., 5., 3., 4., 5., 3.]]])")),
    "nodes": (
        lambda lib: [lib.nn.functional.pad(lib.ones(1, 2, 2, requires_grad=True), (1, 1), mode=m).grad_fn.name()
            for m in ("constant", "reflect", "replicate", "circular")],
        ok("['ConstantPadNdBackward0', 'ReflectionPad1DBackward0', 'ReplicationPad1DBackward0', 'tinyg"
           "rad_edu::autograd::CopySlices']")),
    "gradients": (
        lambda lib: [lib.autograd.grad(
            (lib.nn.functional.pad(x, (2, 1), mode=m) * lib.arange(1.0, 7.0)).sum(), x)[0]
            for m in ("constant", "reflect", "replicate", "circular")
            for x in [lib.arange(3.0).reshape(1, 3).requires_grad_()]],
        ok("[tensor([[3., 4., 5.]]), tensor([[ 3., 12.,  6.]]), tensor([[ 6.,  4., 11.]]), tensor([[9., 5., 7.]])]")),
    "second derivative through reflect": (
        lambda lib: (lambda x: lib.autograd.grad(
            lib.autograd.grad((lib.nn.functional.pad(x, (2, 2), mode="reflect") ** 3).sum(), x, create_graph=True)[0]
            .sum(), x))(lib.tensor([[1.0, 2.0, 3.0]], requires_grad=True)),
        ok("(tensor([[12., 36., 36.]]),)")),
    "odd length": (
        lambda lib: lib.nn.functional.pad(lib.ones(2, 2), (1,)),
        err("RuntimeError", "Padding length must be divisible by 2")),
    "too long": (
        lambda lib: lib.nn.functional.pad(lib.ones(2), (1, 1, 1, 1)),
        err("RuntimeError", "Padding length should be less than or equal to two times the input dimension but got paddi"
                             "ng length 4 and input of dimension 1")),
    "a float amount": (
        lambda lib: lib.nn.functional.pad(lib.ones(2), (1.0, 1)),
        err("TypeError", "pad(): argument 'pad' (position 2) must be tuple of ints, but found element of type float "
                          "at pos 0")),
    "unknown mode": (
        lambda lib: lib.nn.functional.pad(lib.ones(1, 2), (1, 1), mode="wrap"),
        err("NotImplementedError", "Unrecognised padding mode wrap")),
    "reflect wider than the input": (
        lambda lib: lib.nn.functional.pad(lib.ones(1, 1, 2, 3), (1, 1, 2, 0),
            mode="reflect"),
        err("RuntimeError", "Argument #6: Padding size should be less than the corresponding input dimension, but got: "
                             "padding (2, 0) at dimension 2 of input [1, 1, 2, 3]")),
    "reflect with a value": (
        lambda lib: lib.nn.functional.pad(lib.ones(1, 3), (1, 1), mode="reflect", value=1.0),
        err("RuntimeError", "Padding mode \"reflect\" doesn't take in value argument")),
    "reflect of a 1-d input": (
        lambda lib: lib.nn.functional.pad(lib.ones(3), (1, 1), mode="reflect"),
        err("NotImplementedError", "Padding size 2 is not supported for 1D input tensor.\n"
                                    "Supported combinations for non-constant padding:\n"
                                    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                                    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                                    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")),
    "circular wrapping twice": (
        lambda lib: lib.nn.functional.pad(lib.ones(1, 2), (3, 0), mode="circular"),
        err("RuntimeError", "Padding value causes wrapping around more than once.")),
    "cropped to less than nothing": (
        lambda lib: lib.nn.functional.pad(lib.ones(2, 3), (-2, -2)),
        err("RuntimeError", "narrow(): length must be non-negative.")),
}

PAD_LAYERS = {
    "layers print as PyTorch's": (
        lambda lib: [lib.nn.ZeroPad2d(1), lib.nn.ConstantPad1d((2, 0), 3.5), lib.nn.ReflectionPad1d((1, 2)),
            lib.nn.ReplicationPad3d(1), lib.nn.CircularPad2d((1, 0, 0, 1))],
        ok("[ZeroPad2d((1, 1, 1, 1)), ConstantPad1d(padding=(2, 0), value=3.5), ReflectionPad1d((1, 2)), "
           "ReplicationPad3d((1, 1, 1, 1, 1, 1)), CircularPad2d((1, 0, 0, 1))]")),
    "ZeroPad2d": (
        lambda lib: lib.nn.ZeroPad2d((1, 0, 1, 0))(lib.ones(1, 2, 2, requires_grad=True)),
        ok("tensor([[[0., 0., 0.],\n         [0., 1., 1.],\n         [0., 1., 1.]]], "
           "grad_fn=<ConstantPadNdBackward0>)")),
    "ReflectionPad2d": (
        lambda lib: lib.nn.ReflectionPad2d(1)(lib.arange(4.0).reshape(1, 2, 2)),
        ok("tensor([[[3., 2., 3., 2.],\n         [1., 0., 1., 0.],\n         [3., 2., 3., 2.],\n"
           "         [1., 0., 1., 0.]]])")),
    "ReplicationPad1d": (
        lambda lib: lib.nn.ReplicationPad1d((2, 1))(lib.arange(3.0).reshape(1, 3)),
        ok("tensor([[0., 0., 0., 1., 2., 2.]])")),
    "CircularPad1d of a 1-d input": (
        lambda lib: lib.nn.CircularPad1d(1)(lib.ones(3)),
        err("ValueError", "expected 2D or 3D input (got 1D input)")),
}

LOSSES = {
    "tanhshrink": (
        lambda lib: lib.nn.functional.tanhshrink(lib.tensor([-2.0, 0.5, 3.0], requires_grad=True)),
        ok("tensor([-1.0360,  0.0379,  2.0049], grad_fn=<SubBackward0>)")),
    "Tanhshrink": (
        lambda lib: (lib.nn.Tanhshrink(), lib.nn.Tanhshrink()(lib.tensor([1.0]))),
        ok("(Tanhshrink(), tensor([0.2384]))")),
    "cross_entropy, label_smoothing": (
        lambda lib: lib.nn.functional.cross_entropy(
            _x(lib), lib.tensor([0, 2, 3]), label_smoothing=0.1),
        ok("tensor(0.8995, grad_fn=<AddBackward0>)")),
    "cross_entropy, label_smoothing, none": (
        lambda lib: lib.nn.functional.cross_entropy(
            _x(lib), lib.tensor([0, 2, 3]), label_smoothing=0.2, reduction="none"),
        ok("tensor([0.7723, 1.2196, 0.9978], grad_fn=<AddBackward0>)")),
    "cross_entropy, label_smoothing, weight and ignore_index": (
        lambda lib: lib.nn.functional.cross_entropy(
            _x(lib), lib.tensor([0, -100, 3]), weight=lib.tensor([1.0, 2.0, 3.0, 4.0]), label_smoothing=0.3),
        ok("tensor(1.1043, grad_fn=<AddBackward0>)")),
    "cross_entropy, label_smoothing, probabilities": (
        lambda lib: lib.nn.functional.cross_entropy(
            _x(lib), lib.tensor([[0.5, 0.5, 0.0, 0.0]] * 3), label_smoothing=0.2),
        ok("tensor(1.8780, grad_fn=<DivBackward1>)")),
    "cross_entropy, label_smoothing, gradient": (
        lambda lib: _grad(lib, lambda lib, x: lib.nn.CrossEntropyLoss(
            label_smoothing=0.25)(x, lib.tensor([1, 1, 0]))),
        ok("tensor([[ 0.1926, -0.2368, -0.0157,  0.0599],\n"
           "        [ 0.0048, -0.2521,  0.0927,  0.1546],\n"
           "        [-0.2149,  0.0558,  0.0423,  0.1168]])")),
    "cross_entropy, label_smoothing above 1": (
        lambda lib: lib.nn.functional.cross_entropy(
            _x(lib), lib.tensor([0, 2, 3]), label_smoothing=1.5),
        err("RuntimeError", "label_smoothing must be between 0.0 and 1.0. Got: 1.5")),
    "cosine_embedding_loss": (
        lambda lib: lib.nn.functional.cosine_embedding_loss(
            _x(lib), _x(lib).detach().flip(0), lib.tensor([1, -1, -1]), margin=-0.5, reduction="none"),
        ok("tensor([0.8543, 1.5000, 0.6457], grad_fn=<AddBackward0>)")),
    "CosineEmbeddingLoss, gradient": (
        lambda lib: _grad(lib, lambda lib, x: lib.nn.CosineEmbeddingLoss(0.1)(
            x, x.detach().roll(1, 1), lib.tensor([1, -1, 1]))),
        ok("tensor([[-0.0267, -0.0679,  0.0152,  0.0959],\n"
           "        [ 0.0000,  0.0000, -0.0000,  0.0000],\n"
           "        [-0.1178,  0.1900,  0.0751,  0.2015]])")),
    "cosine_embedding_loss, 2-d target": (
        lambda lib: lib.nn.functional.cosine_embedding_loss(
            lib.ones(2, 2), lib.ones(2, 2), lib.ones(2, 2)),
        err("RuntimeError", "0D or 1D target tensor expected, multi-target not supported")),
    "margin_ranking_loss": (
        lambda lib: lib.nn.functional.margin_ranking_loss(
            lib.tensor([1.0, 2.0, 3.0], requires_grad=True), lib.tensor([2.0, 2.0, 2.0]), lib.tensor([1.0, -1.0, 1.0]),
            margin=0.5, reduction="none"),
        ok("tensor([1.5000, 0.5000, 0.0000], grad_fn=<ClampMinBackward0>)")),
    "MarginRankingLoss": (
        lambda lib: lib.nn.MarginRankingLoss(margin=0.5)(
            lib.tensor([1.0, 2.0, 3.0], requires_grad=True), lib.tensor([2.0, 2.0, 2.0]), lib.tensor([1.0, -1.0, 1.0])),
        ok("tensor(0.6667, grad_fn=<MeanBackward0>)")),
    "margin_ranking_loss, dimensions": (
        lambda lib: lib.nn.functional.margin_ranking_loss(
            lib.ones(2, 1), lib.ones(2, 1), lib.ones(2)),
        err("RuntimeError", "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                            "input1: tinygrad_edu.Size([2, 1]), input2: tinygrad_edu.Size([2, 1]), "
                            "target: tinygrad_edu.Size([2]) ")),
    "triplet_margin_loss": (
        lambda lib: lib.nn.functional.triplet_margin_loss(
            _x(lib), lib.zeros(3, 4), lib.ones(3, 4), reduction="none"),
        ok("tensor([0.2433, 0.0000, 0.0000], grad_fn=<ClampMinBackward0>)")),
    "TripletMarginLoss, swap and p=1, gradient": (
        lambda lib: _grad(lib, lambda lib, x: lib.nn.TripletMarginLoss(
            margin=2.0, p=1, swap=True)(x, lib.zeros(3, 4), lib.ones(3, 4) * 0.5)),
        ok("tensor([[ 0.3333, -0.3333, -0.3333,  0.3333],\n"
           "        [-0.3333, -0.3333,  0.3333,  0.3333],\n"
           "        [-0.3333, -0.3333, -0.3333,  0.3333]])")),
    "triplet_margin_loss, margin 0": (
        lambda lib: lib.nn.functional.triplet_margin_loss(
            lib.ones(1, 2), lib.ones(1, 2), lib.ones(1, 2), margin=0),
        err("ValueError", "margin must be greater than 0, got 0")),
    "poisson_nll_loss": (
        lambda lib: lib.nn.functional.poisson_nll_loss(_x(lib), lib.tensor([[0.0, 1, 2, 3]] * 3)),
        ok("tensor(1.3889, grad_fn=<MeanBackward0>)")),
    "PoissonNLLLoss, full, rates": (
        lambda lib: lib.nn.PoissonNLLLoss(log_input=False, full=True, reduction="none")(
            lib.tensor([0.5, 2.0, 4.0], requires_grad=True), lib.tensor([0.0, 2.0, 5.0])),
        ok("tensor([0.5000, 1.2655, 1.8394], grad_fn=<AddBackward0>)")),
    "poisson_nll_loss, gradient": (
        lambda lib: _grad(lib, lambda lib, x: lib.nn.functional.poisson_nll_loss(
            x, lib.tensor([[0.0, 1, 2, 3]] * 3), reduction="sum")),
        ok("tensor([[ 4.6692, -0.2543, -1.8868, -1.2345],\n"
           "        [ 0.3381, -0.7531, -0.5032, -0.6882],\n"
           "        [ 0.4871, -0.3319, -1.4493, -1.8003]])")),
    "gaussian_nll_loss": (
        lambda lib: lib.nn.functional.gaussian_nll_loss(
            _x(lib), lib.zeros(3, 4), lib.tensor([[0.5, 1, 2, 4]] * 3)),
        ok("tensor(0.7249, grad_fn=<MeanBackward0>)")),
    "GaussianNLLLoss, one variance per row, full": (
        lambda lib: lib.nn.GaussianNLLLoss(full=True, reduction="sum")(
            _x(lib), lib.zeros(3, 4), lib.tensor([1.0, 2.0, 3.0])),
        ok("tensor(19.5538, grad_fn=<SumBackward0>)")),
    "gaussian_nll_loss, gradient of the variance": (
        lambda lib: (lambda v: lib.autograd.grad(
            lib.nn.functional.gaussian_nll_loss(lib.tensor([1.0, 2.0]), lib.tensor([0.0, 0.0]), v), v)[0])(
            lib.tensor([0.5, 0.0], requires_grad=True)),
        ok("tensor([-5.0000e-01, -1.0000e+12])")),
    "gaussian_nll_loss, a float variance": (
        lambda lib: lib.nn.functional.gaussian_nll_loss(
            lib.tensor([1.0, 2.0]), lib.tensor([0.0, 0.0]), 2.0),
        ok("tensor(0.9716)")),
    "gaussian_nll_loss, variance of the wrong size": (
        lambda lib: lib.nn.functional.gaussian_nll_loss(
            lib.ones(2, 3), lib.ones(2, 3), lib.ones(2, 2)),
        err("ValueError", "var is of incorrect size")),
    "gaussian_nll_loss, negative variance": (
        lambda lib: lib.nn.functional.gaussian_nll_loss(
            lib.ones(2), lib.ones(2), lib.tensor([1.0, -1.0])),
        err("ValueError", "var has negative entry/entries")),
    "multi_margin_loss": (
        lambda lib: lib.nn.functional.multi_margin_loss(_x(lib), lib.tensor([0, 2, 3]),
            reduction="none"),
        ok("tensor([0.0069, 0.3587, 0.1837], grad_fn=<MultiMarginLossBackward0>)")),
    "MultiMarginLoss, p=2, weight": (
        lambda lib: lib.nn.MultiMarginLoss(p=2, margin=0.5, weight=lib.tensor(
            [1.0, 2.0, 3.0, 4.0]))(_x(lib), lib.tensor([0, 2, 3])),
        ok("tensor(0.2184, grad_fn=<MultiMarginLossBackward0>)")),
    "multi_margin_loss, gradient": (
        lambda lib: _grad(lib, lambda lib, x: lib.nn.functional.multi_margin_loss(
            x, lib.tensor([1, 0, 3]), p=2)),
        ok("tensor([[ 0.4724, -0.7827,  0.0000,  0.3103],\n"
           "        [-1.0161,  0.1143,  0.4146,  0.4871],\n"
           "        [ 0.0165,  0.0691,  0.0369, -0.1224]])")),
    "multi_margin_loss, one sample": (
        lambda lib: lib.nn.functional.multi_margin_loss(
            lib.tensor([0.1, 0.2, 0.4, 0.8]), lib.tensor(3)),
        ok("tensor(0.3250)")),
    "multi_margin_loss, p=3": (
        lambda lib: lib.nn.functional.multi_margin_loss(_x(lib), lib.tensor([0, 1, 2]), p=3),
        err("ValueError", "only p == 1 and p == 2 supported")),
    "multi_margin_loss, target size": (
        lambda lib: lib.nn.functional.multi_margin_loss(_x(lib), lib.tensor([0, 1])),
        err("RuntimeError", "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samp"
                             "les (batch size). Expected target size [3], but got [2]. Input has shape [3, 4].")),
    "multi_margin_loss, class out of range": (
        lambda lib: lib.nn.functional.multi_margin_loss(
            _x(lib), lib.tensor([0, 1, 4])),
        err("RuntimeError", "target out of range")),
    "soft_margin_loss": (
        lambda lib: lib.nn.functional.soft_margin_loss(
            lib.tensor([-1.0, 0.0, 2.0], requires_grad=True), lib.tensor([1.0, -1.0, 1.0]), reduction="none"),
        ok("tensor([1.3133, 0.6931, 0.1269], grad_fn=<SoftMarginLossBackward0>)")),
    "SoftMarginLoss, gradient": (
        lambda lib: _grad(lib, lambda lib, x: lib.nn.SoftMarginLoss()(
            x, lib.tensor([[1.0, -1.0, 1.0, -1.0]] * 3))),
        ok("tensor([[-0.0147,  0.0356, -0.0749,  0.0532],\n"
           "        [-0.0623,  0.0165, -0.0334,  0.0582],\n"
           "        [-0.0560,  0.0334, -0.0537,  0.0454]])")),
    "soft_margin_loss, second derivative": (
        lambda lib: _second_derivative(lib, lambda lib, x: lib.nn.functional.soft_margin_loss(
            x, lib.tensor([[1.0, -1.0, 1.0, -1.0]] * 3))),
        ok("('SoftMarginLossBackwardBackward0', tensor([[-0.0004,  0.0015, -0.0011,  0.0020],\n"
           "        [-0.0020,  0.0004, -0.0013,  0.0020],\n        [-0.0021,  0.0013, -0.0021,  0.0019]]))")),
    "multi_margin_loss, no second derivative": (
        lambda lib: _second_derivative(lib, lambda lib, x: lib.nn.functional.multi_margin_loss(
            x, lib.tensor([0, 2, 3]))),
        err("RuntimeError", "derivative for aten::multi_margin_loss_backward is not implemented")),
    "loss modules print as PyTorch's": (
        lambda lib: [lib.nn.CosineEmbeddingLoss(), lib.nn.MarginRankingLoss(),
            lib.nn.TripletMarginLoss(), lib.nn.PoissonNLLLoss(),
            lib.nn.GaussianNLLLoss(), lib.nn.MultiMarginLoss(),
            lib.nn.SoftMarginLoss()],
        ok("[CosineEmbeddingLoss(), MarginRankingLoss(), TripletMarginLoss(), PoissonNLLLoss(), Gaussi"
           "anNLLLoss(), MultiMarginLoss(), SoftMarginLoss()]")),
    "a bad reduction": (
        lambda lib: lib.nn.functional.soft_margin_loss(lib.ones(2), lib.ones(2), reduction="avg"),
        err("ValueError", "avg is not a valid value for reduction")),
    "legacy flags": (
        lambda lib: lib.nn.functional.margin_ranking_loss(lib.ones(2), lib.zeros(2), -lib.ones(2),
            size_average=False),
        (None, "tensor(2.)", ["UserWarning: size_average and reduce args will be deprecated, please use "
                              "reduction='sum' instead."])),
}

VECTORS = {
    "parameters_to_vector": (
        lambda lib: lib.nn.utils.parameters_to_vector(_net(lib)[0].parameters()),
        ok("tensor([-0.0053,  0.3793, -0.5820, -0.5204, -0.2723,  0.1896, -0.0140,  0.5607,\n"
           "        -0.0628], grad_fn=<CatBackward0>)")),
    "vector_to_parameters": (
        lambda lib: (lambda net: (lib.nn.utils.vector_to_parameters(
            lib.arange(9.0), net[0].parameters()), net[0].weight, net[0].bias))(_net(lib)),
        ok("(None, Parameter containing:\n"
           "tensor([[0., 1.],\n"
           "        [2., 3.],\n"
           "        [4., 5.]], requires_grad=True), Parameter containing:\n"
           "tensor([6., 7., 8.], requires_grad=True))")),
    "vector_to_parameters of a list": (
        lambda lib: lib.nn.utils.vector_to_parameters([1.0], _net(lib).parameters()),
        err("TypeError", "expected tinygrad_edu.Tensor, but got: list")),
}


def _train(lib: ModuleType, name: str, steps: int = 5, **options: Any) -> Any:
    """A few steps of a small regression; the weights afterwards, and the state's step count."""
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    opt = getattr(lib.optim, name)(model.parameters(), **options)
    x, y = lib.randn(8, 3), lib.randn(8, 2)
    for _ in range(steps):
        opt.zero_grad()
        lib.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    return model.weight.detach(), sorted(opt.state[model.weight])


def _nadam_state(lib: ModuleType) -> Any:
    """NAdam keeps the product of its momentum coefficients as a float32 tensor in its state."""
    p = lib.nn.Parameter(lib.ones(1))
    opt = lib.optim.NAdam([p])
    p.grad = lib.ones(1)
    opt.step()
    opt.step()
    return opt.state[p]


def _lbfgs(lib: ModuleType, steps: int, **options: Any) -> tuple:
    """L-BFGS on a least-squares fit that it solves: the losses step() returns, the weights, and its counts."""
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 1)
    x = lib.randn(16, 3)
    y = x @ lib.tensor([[1.0], [-2.0], [0.5]]) + 0.3
    opt = lib.optim.LBFGS(model.parameters(), **options)

    def closure() -> Any:
        opt.zero_grad()
        loss = lib.nn.functional.mse_loss(model(x), y)
        loss.backward()
        return loss

    losses = [opt.step(closure) for _ in range(steps)]
    state = opt.state[model.weight]
    return losses, model.weight.detach(), model.bias.detach(), state["func_evals"], state["n_iter"], sorted(state)


OPTIMIZERS = {
    "NAdam": (
        lambda lib: _train(lib, "NAdam", lr=0.1),
        ok("(tensor([[ 0.3230, -0.0315, -0.3727],\n"
           "        [-0.0430, -0.1280,  0.5389]]), ['exp_avg', 'exp_avg_sq', 'mu_product', 'step'])")),
    "NAdam, weight decay": (
        lambda lib: _train(lib, "NAdam", lr=0.1, weight_decay=0.5),
        ok("(tensor([[ 0.3146, -0.0331, -0.1854],\n"
           "        [-0.0521, -0.0300,  0.4182]]), ['exp_avg', 'exp_avg_sq', 'mu_product', 'step'])")),
    "NAdam, decoupled weight decay, maximize": (
        lambda lib: _train(lib, "NAdam", lr=0.1, weight_decay=0.5,
            decoupled_weight_decay=True, maximize=True),
        ok("(tensor([[-0.4131,  0.6445,  0.0893],\n"
           "        [-0.7324,  0.2863, -0.2348]]), ['exp_avg', 'exp_avg_sq', 'mu_product', 'step'])")),
    "RAdam, momentum steps first": (
        lambda lib: _train(lib, "RAdam", lr=0.1),
        ok("(tensor([[ 0.2743,  0.0912, -0.4930],\n"
           "        [-0.2875, -0.2338,  0.2780]]), ['exp_avg', 'exp_avg_sq', 'step'])")),
    "RAdam, rectified steps": (
        lambda lib: _train(lib, "RAdam", steps=8, lr=0.1, weight_decay=0.1),
        ok("(tensor([[ 0.2799,  0.0696, -0.4616],\n"
           "        [-0.2595, -0.2138,  0.2800]]), ['exp_avg', 'exp_avg_sq', 'step'])")),
    "RAdam, decoupled weight decay": (
        lambda lib: _train(lib, "RAdam", steps=8, lr=0.1, betas=(0.5, 0.6),
            weight_decay=0.1, decoupled_weight_decay=True),
        ok("(tensor([[ 0.3382,  0.0085, -0.4363],\n"
           "        [-0.1980, -0.2102,  0.3338]]), ['exp_avg', 'exp_avg_sq', 'step'])")),
    "Adadelta": (
        lambda lib: _train(lib, "Adadelta", lr=10.0),
        ok("(tensor([[ 0.1416,  0.1610, -0.5168],\n"
           "        [-0.2712, -0.2518,  0.3184]]), ['acc_delta', 'square_avg', 'step'])")),
    "Adadelta, options": (
        lambda lib: _train(lib, "Adadelta", lr=5.0, rho=0.5, weight_decay=0.1, maximize=True),
        ok("(tensor([[-0.0494,  0.3547, -0.4287],\n"
           "        [-0.4699, -0.1757,  0.1108]]), ['acc_delta', 'square_avg', 'step'])")),
    "Adamax": (
        lambda lib: _train(lib, "Adamax", lr=0.1),
        ok("(tensor([[ 0.3641, -0.0768, -0.4695],\n"
           "        [-0.0067, -0.1738,  0.6268]]), ['exp_avg', 'exp_inf', 'step'])")),
    "Adamax, options": (
        lambda lib: _train(lib, "Adamax", lr=0.1, betas=(0.8, 0.9), weight_decay=0.2, maximize=True),
        ok("(tensor([[-0.4464,  0.7548, -0.0588],\n"
           "        [-0.8525,  0.1858, -0.3505]]), ['exp_avg', 'exp_inf', 'step'])")),
    "reprs": (
        lambda lib: [getattr(lib.optim, name)([lib.nn.Parameter(lib.ones(1))])
            for name in ("NAdam", "RAdam", "Adadelta", "Adamax")],
        ok("[NAdam (\n"
           "Parameter Group 0\n"
           "    betas: (0.9, 0.999)\n"
           "    capturable: False\n"
           "    decoupled_weight_decay: False\n"
           "    differentiable: False\n"
           "    eps: 1e-08\n"
           "    foreach: None\n"
           "    lr: 0.002\n"
           "    maximize: False\n"
           "    momentum_decay: 0.004\n"
           "    weight_decay: 0\n"
           "), RAdam (\n"
           "Parameter Group 0\n"
           "    betas: (0.9, 0.999)\n"
           "    capturable: False\n"
           "    decoupled_weight_decay: False\n"
           "    differentiable: False\n"
           "    eps: 1e-08\n"
           "    foreach: None\n"
           "    lr: 0.001\n"
           "    maximize: False\n"
           "    weight_decay: 0\n"
           "), Adadelta (\n"
           "Parameter Group 0\n"
           "    capturable: False\n"
           "    differentiable: False\n"
           "    eps: 1e-06\n"
           "    foreach: None\n"
           "    lr: 1.0\n"
           "    maximize: False\n"
           "    rho: 0.9\n"
           "    weight_decay: 0\n"
           "), Adamax (\n"
           "Parameter Group 0\n"
           "    betas: (0.9, 0.999)\n"
           "    capturable: False\n"
           "    differentiable: False\n"
           "    eps: 1e-08\n"
           "    foreach: None\n"
           "    lr: 0.002\n"
           "    maximize: False\n"
           "    weight_decay: 0\n"
           ")]")),
    "NAdam's mu_product": (
        lambda lib: _nadam_state(lib),
        ok("{'step': tensor(2.), 'mu_product': tensor(0.2026), 'exp_avg': tensor([0.1900]), 'exp_avg_s"
           "q': tensor([0.0020])}")),
    "LBFGS": (
        lambda lib: _lbfgs(lib, 1),
        ok("([tensor(5.5197, grad_fn=<MseLossBackward0>)], tensor([[ 1.0000, -2.0000,  0.5000]]), tensor([0.3000]), "
           "8, 8, ['H_diag', 'al', 'd', 'func_evals', 'n_iter', 'old_dirs', 'old_stps', 'prev_flat_grad', "
           "'prev_loss', 'ro', 't'])")),
    "LBFGS, short history and steps": (
        lambda lib: _lbfgs(lib, 3, lr=0.5, max_iter=4, history_size=2)[:5],
        ok("([tensor(5.5197, grad_fn=<MseLossBackward0>), tensor(0.0931, grad_fn=<MseLossBackward0>), "
           "tensor(0.0002, grad_fn=<MseLossBackward0>)], tensor([[ 0.9995, -1.9997,  0.4995]]), tensor([0.3000]), "
           "12, 12)")),
    "LBFGS repr": (
        lambda lib: lib.optim.LBFGS([lib.nn.Parameter(lib.ones(1))]),
        ok("LBFGS (\nParameter Group 0\n    history_size: 100\n    line_search_fn: None\n    lr: 1\n"
           "    max_eval: 25\n    max_iter: 20\n    tolerance_change: 1e-09\n    tolerance_grad: 1e-07\n)")),
    "LBFGS, groups": (
        lambda lib: lib.optim.LBFGS([{"params": [lib.nn.Parameter(lib.ones(1))]},
                                     {"params": [lib.nn.Parameter(lib.ones(1))]}]),
        err("ValueError", "LBFGS doesn't support per-parameter options (parameter groups)")),
    "LBFGS, unknown line search": (
        lambda lib: (lambda p: lib.optim.LBFGS([p], line_search_fn="armijo").step(
            lambda: (p * p).sum().backward() or (p * p).sum()))(lib.nn.Parameter(lib.ones(1))),
        err("RuntimeError", "only 'strong_wolfe' is supported")),
    "NAdam, bad momentum_decay": (
        lambda lib: lib.optim.NAdam([lib.nn.Parameter(lib.ones(1))], momentum_decay=-1),
        err("ValueError", "Invalid momentum_decay value: -1")),
    "RAdam, bad beta": (
        lambda lib: lib.optim.RAdam([lib.nn.Parameter(lib.ones(1))], betas=(0.9, 1.0)),
        err("ValueError", "Invalid beta parameter at index 1: 1.0")),
    "Adadelta, bad rho": (
        lambda lib: lib.optim.Adadelta([lib.nn.Parameter(lib.ones(1))], rho=1.5),
        err("ValueError", "Invalid rho value: 1.5")),
    "Adamax, bad eps": (
        lambda lib: lib.optim.Adamax([lib.nn.Parameter(lib.ones(1))], eps=-1.0),
        err("ValueError", "Invalid epsilon value: -1.0")),
}


def _lrs(lib: ModuleType, make: Any, steps: int) -> list:
    """The lr before the first step and after each of ``steps`` epochs of the scheduler ``make`` builds."""
    opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0)
    scheduler = make(lib, opt)
    lrs = [round(opt.param_groups[0]["lr"], 6)]
    for _ in range(steps):
        opt.step()
        scheduler.step()
        lrs.append(round(opt.param_groups[0]["lr"], 6))
    return lrs



def _warm_restarts_at(lib: ModuleType, epochs: list[float]) -> list:
    """step(epoch) with fractional and earlier epochs: the lr, the place in the cycle and the cycle's length."""
    opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0)
    scheduler = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=3)
    seen = []
    for epoch in epochs:
        scheduler.step(epoch)
        seen.append((round(scheduler.get_last_lr()[0], 6), scheduler.T_cur, scheduler.T_i))
    return seen


def _chained_state(lib: ModuleType) -> tuple:
    """A chain's last lr and its state_dict: its own attributes, and each inner scheduler's state."""
    opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0)
    chained = lib.optim.lr_scheduler.ChainedScheduler([lib.optim.lr_scheduler.StepLR(opt, 1, 0.5)])
    state = chained.state_dict()
    return chained.get_last_lr(), sorted(state), len(state["_schedulers"])


SCHEDULERS = {
    "CosineAnnealingWarmRestarts": (
        lambda lib: _lrs(lib, lambda lib, opt: lib.optim.lr_scheduler.
            CosineAnnealingWarmRestarts(opt, T_0=3, eta_min=0.1), 8),
        ok("[1.0, 0.775, 0.325, 1.0, 0.775, 0.325, 1.0, 0.775, 0.325]")),
    "CosineAnnealingWarmRestarts, T_mult": (
        lambda lib: _lrs(lib, lambda lib, opt: lib.optim.lr_scheduler.
            CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2), 9),
        ok("[1.0, 0.5, 1.0, 0.853553, 0.5, 0.146447, 1.0, 0.96194, 0.853553, 0.691342]")),
    "CosineAnnealingWarmRestarts, fractional epochs": (
        lambda lib: _warm_restarts_at(lib, [0.5, 2.25, 7.0, 1]),
        ok("[(0.853553, 0.5, 2), (0.995722, 0.25, 6), (0.066987, 5.0, 6), (0.5, 1, 2)]")),
    "CosineAnnealingWarmRestarts, bad T_0": (
        lambda lib: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(
            lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0), T_0=0),
        err("ValueError", "Expected positive integer T_0, but got 0")),
    "CosineAnnealingWarmRestarts, negative epoch": (
        lambda lib: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(
            lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0), T_0=2).step(-1),
        err("ValueError", "Expected non-negative epoch, but got -1")),
    "ChainedScheduler": (
        lambda lib: _lrs(lib, lambda lib, opt: lib.optim.lr_scheduler.ChainedScheduler([
            lib.optim.lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2),
            lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)]), 4),
        ok("[0.1, 0.09, 0.81, 0.729, 0.6561]")),
    "ChainedScheduler's last lr and state": (
        lambda lib: _chained_state(lib),
        ok("([1.0], ['_last_lr', '_schedulers'], 1)")),
    "ChainedScheduler of nothing": (
        lambda lib: lib.optim.lr_scheduler.ChainedScheduler([]),
        err("ValueError", "ChainedScheduler expects at least one scheduler to be chained, but got no scheduler.")),
}


class _Squares:
    """A map-style dataset of three examples, 0, 1, 4."""

    def __getitem__(self, i: int) -> int:
        return i * i

    def __len__(self) -> int:
        return 3


def _squares(lib: ModuleType) -> Any:
    """``_Squares`` as a subclass of the library's own Dataset (for ``+``)."""
    return type("Squares", (_Squares, lib.utils.data.Dataset), {})()


class _Range:
    """The IterableDataset docstring's example: a range that each worker splits by get_worker_info()."""

    def __init__(self, start: int, end: int, lib: ModuleType, split: bool = True) -> None:
        self.start, self.end, self.lib, self.split = start, end, lib, split

    def __iter__(self) -> Any:
        info = self.lib.utils.data.get_worker_info()
        if info is None or not self.split:
            return iter(range(self.start, self.end))
        per_worker = math.ceil((self.end - self.start) / info.num_workers)
        start = self.start + info.id * per_worker
        return iter(range(start, min(start + per_worker, self.end)))


def _stream(lib: ModuleType, start: int, end: int, split: bool = True) -> Any:
    """``_Range`` as an IterableDataset of the library."""
    return type("Stream", (_Range, lib.utils.data.IterableDataset), {})(start, end, lib, split)


DATA = {
    "ConcatDataset": (
        lambda lib: (lambda d: (len(d), d.cumulative_sizes, [d[i] for i in range(-5, 5)]))(
            lib.utils.data.ConcatDataset([_squares(lib), [10, 20]])),
        ok("(5, [3, 5], [0, 1, 4, 10, 20, 0, 1, 4, 10, 20])")),
    "Dataset + Dataset": (
        lambda lib: (lambda d: (type(d).__name__, list(lib.utils.data.DataLoader(d, batch_size=4))))(
            _squares(lib) + _squares(lib)),
        ok("('ConcatDataset', [tensor([0, 1, 4, 0]), tensor([1, 4])])")),
    "ConcatDataset, index past the start": (
        lambda lib: (_squares(lib) + _squares(lib))[-7],
        err("ValueError", "absolute value of index should not exceed dataset length")),
    "ConcatDataset of nothing": (
        lambda lib: lib.utils.data.ConcatDataset([]),
        err("AssertionError", "datasets should not be an empty iterable")),
    "ConcatDataset of a stream": (
        lambda lib: lib.utils.data.ConcatDataset([_stream(lib, 0, 2)]),
        err("AssertionError", "ConcatDataset does not support IterableDataset")),
    "IterableDataset in a DataLoader": (
        lambda lib: list(lib.utils.data.DataLoader(_stream(lib, 0, 7), batch_size=3)),
        ok("[tensor([0, 1, 2]), tensor([3, 4, 5]), tensor([6])]")),
    "IterableDataset, drop_last": (
        lambda lib: list(lib.utils.data.DataLoader(_stream(lib, 0, 7), batch_size=3,
            drop_last=True)),
        ok("[tensor([0, 1, 2]), tensor([3, 4, 5])]")),
    "IterableDataset, no batching": (
        lambda lib: list(lib.utils.data.DataLoader(_stream(lib, 0, 3), batch_size=None)),
        ok("[0, 1, 2]")),
    "IterableDataset, workers split the stream": (
        lambda lib: list(lib.utils.data.DataLoader(_stream(lib, 3, 7),
            num_workers=2)),
        ok("[tensor([3]), tensor([5]), tensor([4]), tensor([6])]")),
    "IterableDataset, workers repeat the stream": (
        lambda lib: list(lib.utils.data.DataLoader(
            _stream(lib, 0, 5, split=False), batch_size=2, num_workers=2)),
        ok("[tensor([0, 1]), tensor([0, 1]), tensor([2, 3]), tensor([2, 3]), tensor([4]), tensor([4])]")),
    "IterableDataset + IterableDataset": (
        lambda lib: list(_stream(lib, 0, 2) + _stream(lib, 5, 7)),
        ok("[0, 1, 5, 6]")),
    "IterableDataset, shuffle": (
        lambda lib: lib.utils.data.DataLoader(_stream(lib, 0, 2), shuffle=True),
        err("ValueError",
            "DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle=True")),
    "IterableDataset, len": (
        lambda lib: len(lib.utils.data.DataLoader(_stream(lib, 0, 2))),
        err("TypeError", "object of type 'Stream' has no len()")),
    "SubsetRandomSampler": (
        lambda lib: (lib.manual_seed(0), list(lib.utils.data.SubsetRandomSampler([10, 20, 30, 40])),
            list(lib.utils.data.SubsetRandomSampler(range(5))), lib.rand(1))[1:],
        ok("([10, 20, 40, 30], [0, 4, 2, 1, 3], tensor([0.8964]))")),
    "WeightedRandomSampler": (
        lambda lib: (lib.manual_seed(0), list(lib.utils.data.WeightedRandomSampler(
            [0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 8)), lib.rand(1))[1:],
        ok("([5, 4, 4, 5, 4, 4, 2, 3], tensor([0.6977]))")),
    "WeightedRandomSampler, no replacement": (
        lambda lib: (lib.manual_seed(0), list(lib.utils.data.
            WeightedRandomSampler([0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5,
            replacement=False)))[1],
        ok("[1, 4, 0, 2, 3]")),
    "WeightedRandomSampler in a DataLoader": (
        lambda lib: (lib.manual_seed(1), list(lib.utils.data.DataLoader(
            lib.arange(6.0), batch_size=4, sampler=lib.utils.data.WeightedRandomSampler([1.0] * 3 + [9.0] * 3, 8))))[1],
        ok("[tensor([3., 3., 3., 4.]), tensor([3., 4., 5., 4.])]")),
    "WeightedRandomSampler, weights": (
        lambda lib: lib.utils.data.WeightedRandomSampler([1, 2], 3).weights,
        ok("tensor([1., 2.], dtype=tinygrad_edu.float64)")),
    "WeightedRandomSampler, too many without replacement": (
        lambda lib: list(lib.utils.data.WeightedRandomSampler(
            [1.0, 2.0], 3, replacement=False)),
        err("RuntimeError", "cannot sample n_sample > prob_dist.size(-1) samples without replacement")),
    "WeightedRandomSampler, negative weight": (
        lambda lib: list(lib.utils.data.WeightedRandomSampler([1.0, -2.0], 3)),
        err("RuntimeError", "invalid multinomial distribution (encountering probability entry < 0)")),
    "WeightedRandomSampler, 2-d weights": (
        lambda lib: lib.utils.data.WeightedRandomSampler([[1.0, 2.0]], 3),
        err("ValueError", "weights should be a 1d sequence but given weights have shape (1, 2)")),
    "WeightedRandomSampler, num_samples": (
        lambda lib: lib.utils.data.WeightedRandomSampler([1.0, 2.0], 0),
        err("ValueError", "num_samples should be a positive integer value, but got num_samples=0")),
    "dataloader submodule": (
        lambda lib: __import__(f"{lib.__name__}.utils.data.dataloader",
            fromlist=["default_collate"]).default_collate([(1, 2.0), (3, 4.0)]),
        ok("[tensor([1, 3]), tensor([2., 4.], dtype=tinygrad_edu.float64)]")),
    "dataset and sampler submodules": (
        lambda lib: [
            __import__(f"{lib.__name__}.utils.data.dataset", fromlist=["x"]).ConcatDataset.__name__,
            __import__(f"{lib.__name__}.utils.data.sampler", fromlist=["x"]).WeightedRandomSampler.__name__],
        ok("['ConcatDataset', 'WeightedRandomSampler']")),
}


GROUPS = {"modules": MODULES, "containers": CONTAINERS, "pad": PAD, "pad layers": PAD_LAYERS, "losses": LOSSES,
          "vectors": VECTORS, "optimizers": OPTIMIZERS, "schedulers": SCHEDULERS, "data": DATA}


@pytest.mark.parametrize(("group", "name"), [(g, n) for g, cases in GROUPS.items() for n in cases])
def test_as_pytorch(group: str, name: str) -> None:
    fn, expected = GROUPS[group][name]
    as_pytorch(fn, expected)


# -- where the message names a class by its module path (tinygrad_edu.nn.container, torch.nn.modules.container) --
def test_sequential_refuses_what_is_not_a_layer() -> None:
    with pytest.raises(AssertionError, match="module should be of type: <class 'tinygrad_edu.nn.module.Module'>"):
        tg.nn.Sequential().insert(0, 3)
    with pytest.raises(ValueError, match="Non-positive multiplication factor 0 for <class"):
        tg.nn.Sequential(tg.nn.ReLU()) * 0
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \*: <class"):
        tg.nn.Sequential(tg.nn.ReLU()) * 1.5


def test_repeated_blocks_share_their_weights() -> None:
    block = tg.nn.Sequential(tg.nn.Linear(2, 2))
    twice = block * 2
    assert twice[0] is twice[1] is block[0] and len(list(twice.parameters())) == 2


def test_vector_to_parameters_keeps_the_parameter_objects() -> None:
    model = tg.nn.Linear(2, 1)
    weight = model.weight
    tg.nn.utils.vector_to_parameters(tg.tensor([1.0, 2.0, 3.0]), model.parameters())
    assert model.weight is weight and model.weight.tolist() == [[1.0, 2.0]] and model.bias.tolist() == [3.0]


def test_optimizers_steps_match_pytorch_to_float32_rounding() -> None:
    """Beyond the four printed decimals: every weight within a few float32 ulps of PyTorch's after 8 steps."""
    torch = pytest.importorskip("torch")
    for name, options in [("NAdam", {"weight_decay": 0.1}), ("RAdam", {"weight_decay": 0.1}),
                          ("Adadelta", {"lr": 5.0}), ("Adamax", {"maximize": True})]:
        ours, theirs = (_train(lib, name, steps=8, **options)[0].numpy() for lib in (tg, torch))
        assert abs(ours - theirs).max() < 1e-6, name


def test_weighted_sampler_without_replacement_is_a_permutation() -> None:
    tg.manual_seed(3)
    drawn = list(tg.utils.data.WeightedRandomSampler([1.0] * 6, 6, replacement=False))
    assert sorted(drawn) == list(range(6))


def test_worker_copies_are_the_workers_own() -> None:
    """worker_init_fn changes the worker's copy of the dataset (as in a forked process), not the loader's."""
    stream = _stream(tg, 0, 4, split=False)

    def init(worker_id: int) -> None:
        tg.utils.data.get_worker_info().dataset.start = 2 + worker_id

    batches = list(tg.utils.data.DataLoader(stream, num_workers=2, worker_init_fn=init))
    assert [b.item() for b in batches] == [2, 3, 3] and stream.start == 0
    assert tg.utils.data.get_worker_info() is None
