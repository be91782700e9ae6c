"""Convolution and pooling, as PyTorch's tutorials use them: the blitz's LeNet (``nn.Conv2d``, ``F.max_pool2d``, its
printed graph and gradients), d2l's CNN chapter (``LazyConv2d`` learning an edge kernel, output shapes under padding
and strides, multi-channel and pooling examples) and the layers' reprs, node names and errors.

The cases of the tables are run with tinygrad_edu and, when torch is installed, with torch (``_oracle.as_pytorch``);
the expected outcome is spelled out next to each, so each test means something without torch. The values and
gradients are also checked by finite differences (``gradcheck``, float64), and against torch's when it is there:
float64 to 1e-10, float32 to about 1e-5 relative (PyTorch's float32 convolutions are oneDNN's, whose sums run in
another order, so the last bits differ).
"""

from __future__ import annotations

import contextlib
import io
import re
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, err, ok, oracle

import tinygrad_edu as tg


class _Text(str):
    """Printed text, whose repr is itself (so the case's expected outcome reads as the program's output)."""

    def __repr__(self) -> str:
        return str(self)


def _printed(program: Callable[[ModuleType], None]) -> Callable[[ModuleType], str]:
    """A program as a case: what it printed (compared as text)."""

    def run(lib: ModuleType) -> str:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            program(lib)
        return _Text(out.getvalue())

    return run


# -- the 60-minute blitz's "Neural Networks" tutorial, as written there (with a seed) -----------------------------
def _lenet(lib: ModuleType) -> Any:
    nn, F = lib.nn, lib.nn.functional

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, input: Any) -> Any:
            c1 = F.relu(self.conv1(input))
            s2 = F.max_pool2d(c1, (2, 2))
            c3 = F.relu(self.conv2(s2))
            s4 = F.max_pool2d(c3, 2)
            s4 = lib.flatten(s4, 1)
            f5 = F.relu(self.fc1(s4))
            f6 = F.relu(self.fc2(f5))
            return self.fc3(f6)

    return Net()


def _blitz(lib: ModuleType) -> None:
    lib.manual_seed(0)
    net = _lenet(lib)
    print(net)
    params = list(net.parameters())
    print(len(params))
    print(params[0].size())
    input = lib.randn(1, 1, 32, 32)
    out = net(input)
    print(out)
    net.zero_grad()
    out.backward(lib.randn(1, 10))
    output = net(input)
    target = lib.randn(10).view(1, -1)
    loss = lib.nn.MSELoss()(output, target)
    print(loss)
    print(loss.grad_fn)
    print(loss.grad_fn.next_functions[0][0])
    print(loss.grad_fn.next_functions[0][0].next_functions[0][0])
    net.zero_grad()
    print("conv1.bias.grad before backward")
    print(net.conv1.bias.grad)
    loss.backward()
    print("conv1.bias.grad after backward")
    print(net.conv1.bias.grad)
    optimizer = lib.optim.SGD(net.parameters(), lr=0.01)
    optimizer.zero_grad()
    loss = lib.nn.MSELoss()(net(input), target)
    loss.backward()
    optimizer.step()
    print(lib.nn.MSELoss()(net(input), target))


# -- d2l's chapter 7 (convolutional networks) -------------------------------------------------------------------
def _corr2d(lib: ModuleType, X: Any, K: Any) -> Any:  # noqa: N803 (d2l's names)
    """d2l's cross-correlation from scratch, the yardstick for conv2d."""
    h, w = K.shape
    Y = lib.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y


def _edge_kernel(lib: ModuleType) -> None:
    """d2l 7.2: a 1x2 kernel learned from an image and its edges (d2l's loop, seeded)."""
    lib.manual_seed(0)
    X = lib.ones((6, 8))
    X[:, 2:6] = 0
    K = lib.tensor([[1.0, -1.0]])
    Y = _corr2d(lib, X, K)
    conv2d = lib.nn.LazyConv2d(1, kernel_size=(1, 2), bias=False)
    X = X.reshape((1, 1, 6, 8))
    Y = Y.reshape((1, 1, 6, 7))
    lr = 3e-2
    for i in range(10):
        Y_hat = conv2d(X)
        loss = (Y_hat - Y) ** 2
        conv2d.zero_grad()
        loss.sum().backward()
        conv2d.weight.data[:] -= lr * conv2d.weight.grad
        if (i + 1) % 2 == 0:
            print(f"epoch {i + 1}, loss {loss.sum():.3f}")
    print(conv2d.weight.data.reshape((1, 2)))
    print(conv2d)


def _comp_conv2d(lib: ModuleType, conv2d: Any, X: Any) -> Any:  # noqa: N803
    """d2l 7.3: the output's spatial shape (batch and channel dimensions added, then dropped)."""
    X = X.reshape((1, 1) + X.shape)  # noqa: RUF005 (d2l's code)
    return conv2d(X).reshape(conv2d(X).shape[2:])


def _shape(lib: ModuleType, **options: Any) -> Any:
    lib.manual_seed(0)
    return _comp_conv2d(lib, lib.nn.LazyConv2d(1, **options), lib.rand(size=(8, 8))).shape


def _corr2d_multi_in(lib: ModuleType) -> Any:
    """d2l 7.4: the sum over input channels of each channel's cross-correlation, and conv2d giving the same."""
    X = lib.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
                    [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
    K = lib.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
    by_hand = sum(_corr2d(lib, x, k) for x, k in zip(X, K))
    return by_hand, lib.nn.functional.conv2d(X, K.unsqueeze(0))


def _x16(lib: ModuleType) -> Any:
    return lib.arange(16, dtype=lib.float32).reshape((1, 1, 4, 4))


D2L = {
    "corr2d by hand and conv2d": (
        lambda lib: (_corr2d(lib, lib.arange(9.0).reshape(3, 3), lib.arange(4.0).reshape(2, 2)),
                     lib.nn.functional.conv2d(lib.arange(9.0).reshape(1, 1, 3, 3),
                                              lib.arange(4.0).reshape(1, 1, 2, 2))),
        ok("(tensor([[19., 25.],\n"
           "        [37., 43.]]), tensor([[[[19., 25.],\n"
           "          [37., 43.]]]]))")),
    "learning an edge kernel (LazyConv2d)": (_printed(_edge_kernel),
        ok("epoch 2, loss 8.330\n"
           "epoch 4, loss 1.722\n"
           "epoch 6, loss 0.422\n"
           "epoch 8, loss 0.125\n"
           "epoch 10, loss 0.043\n"
           "tensor([[ 1.0063, -0.9662]])\n"
           "Conv2d(1, 1, kernel_size=(1, 2), stride=(1, 1), bias=False)\n")),
    "padding 1 keeps 8x8": (lambda lib: _shape(lib, kernel_size=3, padding=1),
        ok("tinygrad_edu.Size([8, 8])")),
    "kernel (5, 3), padding (2, 1)": (lambda lib: _shape(lib, kernel_size=(5, 3), padding=(2, 1)),
        ok("tinygrad_edu.Size([8, 8])")),
    "stride 2 halves": (lambda lib: _shape(lib, kernel_size=3, padding=1, stride=2),
        ok("tinygrad_edu.Size([4, 4])")),
    "padding (0, 1), stride (3, 4)": (lambda lib: _shape(lib, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4)),

        ok("tinygrad_edu.Size([2, 2])")),
    "multi-channel input": (_corr2d_multi_in,
        ok("(tensor([[ 56.,  72.],\n"
           "        [104., 120.]]), tensor([[[ 56.,  72.],\n"
           "         [104., 120.]]]))")),
    "MaxPool2d(3) of a 4x4": (lambda lib: lib.nn.MaxPool2d(3)(_x16(lib)),
        ok("tensor([[[[10.]]]])")),
    "MaxPool2d(3, padding=1, stride=2)": (lambda lib: lib.nn.MaxPool2d(3, padding=1, stride=2)(_x16(lib)),
        ok("tensor([[[[ 5.,  7.],\n"
           "          [13., 15.]]]])")),
    "MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))": (
        lambda lib: lib.nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))(_x16(lib)),
        ok("tensor([[[[ 5.,  7.],\n"
           "          [13., 15.]]]])")),
    "pooling each channel": (
        lambda lib: lib.nn.MaxPool2d(3, padding=1, stride=2)(lib.cat((_x16(lib), _x16(lib) + 1), 1)),
        ok("tensor([[[[ 5.,  7.],\n"
           "          [13., 15.]],\n"
           "\n"
           "         [[ 6.,  8.],\n"
           "          [14., 16.]]]])")),
    "AvgPool2d(2, stride=1)": (lambda lib: lib.nn.AvgPool2d(2, stride=1)(lib.arange(9.0).reshape(1, 1, 3, 3)),

        ok("tensor([[[[2., 3.],\n"
           "          [5., 6.]]]])")),
}

PROGRAMS = {
    "the blitz's LeNet": (_printed(_blitz),
        ok("Net(\n"
           "  (conv1): Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))\n"
           "  (conv2): Conv2d(6, 16, kernel_size=(5, 5), stride=(1, 1))\n"
           "  (fc1): Linear(in_features=400, out_features=120, bias=True)\n"
           "  (fc2): Linear(in_features=120, out_features=84, bias=True)\n"
           "  (fc3): Linear(in_features=84, out_features=10, bias=True)\n"
           ")\n"
           "10\n"
           "tinygrad_edu.Size([6, 1, 5, 5])\n"
           "tensor([[-0.1007, -0.0902,  0.0364,  0.0591, -0.0421,  0.0203,  0.0314,"
           "  0.0724,\n"
           "         -0.0276,  0.1233]], grad_fn=<AddmmBackward0>)\n"
           "tensor(1.2249, grad_fn=<MseLossBackward0>)\n"
           "<MseLossBackward0 object at 0x...>\n"
           "<AddmmBackward0 object at 0x...>\n"
           "<AccumulateGrad object at 0x...>\n"
           "conv1.bias.grad before backward\n"
           "None\n"
           "conv1.bias.grad after backward\n"
           "tensor([-0.0129, -0.0038,  0.0006, -0.0094, -0.0046,  0.0233])\n"
           "tensor(1.2041, grad_fn=<MseLossBackward0>)\n")),
}


# -- module reprs --------------------------------------------------------------------------------------------------
REPRS = {
    "Conv2d(1, 6, 5)": (lambda lib: lib.nn.Conv2d(1, 6, 5),
        ok("Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))")),
    "Conv2d, padding and no bias": (lambda lib: lib.nn.Conv2d(1, 6, (5, 3), padding=1, bias=False),
        ok("Conv2d(1, 6, kernel_size=(5, 3), stride=(1, 1), padding=(1, 1), bias=False)")),
    "Conv2d, everything": (
        lambda lib: lib.nn.Conv2d(4, 6, 3, stride=2, padding=(1, 2), dilation=2, groups=2, padding_mode="reflect"),
        ok("Conv2d(4, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 2), dilatio"
           "n=(2, 2), groups=2, padding_mode=reflect)")),
    "Conv2d, padding='same'": (lambda lib: lib.nn.Conv2d(1, 6, 3, padding="same"),
        ok("Conv2d(1, 6, kernel_size=(3, 3), stride=(1, 1), padding=same)")),
    "Conv2d, padding='valid'": (lambda lib: lib.nn.Conv2d(1, 6, 3, padding="valid"),
        ok("Conv2d(1, 6, kernel_size=(3, 3), stride=(1, 1), padding=valid)")),
    "Conv1d": (lambda lib: lib.nn.Conv1d(2, 4, 3, stride=2, padding=1, bias=False),
        ok("Conv1d(2, 4, kernel_size=(3,), stride=(2,), padding=(1,), bias=False)")),
    "Conv3d": (lambda lib: lib.nn.Conv3d(2, 4, (1, 2, 3)),
        ok("Conv3d(2, 4, kernel_size=(1, 2, 3), stride=(1, 1, 1))")),
    "LazyConv2d before its input": (lambda lib: lib.nn.LazyConv2d(1, kernel_size=(1, 2), bias=False),
        ok("LazyConv2d(0, 1, kernel_size=(1, 2), stride=(1, 1), bias=False)")),
    "LazyConv2d's weight before its input": (lambda lib: lib.nn.LazyConv2d(3, 2).weight,
        ok("<UninitializedParameter>")),
    "LazyConv1d after its input": (
        lambda lib: (lambda m: (m(lib.ones(2, 3, 5)).shape, m))(lib.nn.LazyConv1d(4, 2)),
        ok("(tinygrad_edu.Size([2, 4, 4]), Conv1d(3, 4, kernel_size=(2,), stride=(1,)))")),
    "MaxPool2d(2)": (lambda lib: lib.nn.MaxPool2d(2),
        ok("MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)")),
    "MaxPool2d, tuples": (lambda lib: lib.nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1)),
        ok("MaxPool2d(kernel_size=(2, 3), stride=(2, 3), padding=(0, 1), dilation=1"
           ", ceil_mode=False)")),
    "MaxPool2d, ceil_mode": (lambda lib: lib.nn.MaxPool2d(2, return_indices=True, ceil_mode=True),
        ok("MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=True)")),
    "MaxPool1d": (lambda lib: lib.nn.MaxPool1d(3, 2, 1, 2, True, True),
        ok("MaxPool1d(kernel_size=3, stride=2, padding=1, dilation=2, ceil_mode=True)")),
    "AvgPool2d(2)": (lambda lib: lib.nn.AvgPool2d(2),
        ok("AvgPool2d(kernel_size=2, stride=2, padding=0)")),
    "AvgPool2d, all options": (
        lambda lib: lib.nn.AvgPool2d(3, stride=1, padding=1, ceil_mode=True, count_include_pad=False,
                                     divisor_override=2),
        ok("AvgPool2d(kernel_size=3, stride=1, padding=1)")),
    "AvgPool1d": (lambda lib: lib.nn.AvgPool1d(3, 2, 1),
        ok("AvgPool1d(kernel_size=(3,), stride=(2,), padding=(1,))")),
    "AdaptiveAvgPool2d": (lambda lib: lib.nn.AdaptiveAvgPool2d((5, 7)),
        ok("AdaptiveAvgPool2d(output_size=(5, 7))")),
    "AdaptiveAvgPool2d(1)": (lambda lib: lib.nn.AdaptiveAvgPool2d(1),
        ok("AdaptiveAvgPool2d(output_size=1)")),
    "AdaptiveAvgPool2d((None, 7))": (lambda lib: lib.nn.AdaptiveAvgPool2d((None, 7)),
        ok("AdaptiveAvgPool2d(output_size=(None, 7))")),
    "AdaptiveAvgPool1d": (lambda lib: lib.nn.AdaptiveAvgPool1d(4),
        ok("AdaptiveAvgPool1d(output_size=4)")),
    "introyt's LeNet": (
        lambda lib: lib.nn.Sequential(lib.nn.Conv2d(3, 6, 5), lib.nn.ReLU(), lib.nn.MaxPool2d(2, 2),
                                      lib.nn.Conv2d(6, 16, 5), lib.nn.AvgPool2d(2), lib.nn.Flatten(),
                                      lib.nn.Linear(16 * 5 * 5, 10)),
        ok("Sequential(\n"
           "  (0): Conv2d(3, 6, kernel_size=(5, 5), stride=(1, 1))\n"
           "  (1): ReLU()\n"
           "  (2): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_m"
           "ode=False)\n"
           "  (3): Conv2d(6, 16, kernel_size=(5, 5), stride=(1, 1))\n"
           "  (4): AvgPool2d(kernel_size=2, stride=2, padding=0)\n"
           "  (5): Flatten(start_dim=1, end_dim=-1)\n"
           "  (6): Linear(in_features=400, out_features=10, bias=True)\n"
           ")")),
}


# -- nodes: names, what they keep, next_functions ---------------------------------------------------------------
def _x(lib: ModuleType, *shape: int) -> Any:
    lib.manual_seed(0)
    return lib.randn(*shape, requires_grad=True)


def _chain(t: Any) -> list[str]:
    """The node names from t's grad_fn down its first edges, to a leaf's AccumulateGrad."""
    names, node = [], t.grad_fn
    while node is not None:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


def _edges(t: Any) -> list[str | None]:
    return [None if n is None else n.name() for n, _ in t.grad_fn.next_functions]


def _conv(lib: ModuleType, bias: bool = True, **options: Any) -> Any:
    w = _x(lib, 3, 2, 3, 3)
    return lib.nn.functional.conv2d(_x(lib, 1, 2, 6, 6), w, _x(lib, 3) if bias else None, **options)


def _gradient(lib: ModuleType, make: Callable[[Any], Any], shape: tuple) -> Any:
    x = _x(lib, *shape).double()
    return lib.autograd.grad((make(x) ** 2).sum(), x, create_graph=True)[0]


NODES = {
    "conv2d: input, weight, bias": (lambda lib: (_chain(_conv(lib)), _edges(_conv(lib))),
        ok("(['ConvolutionBackward0', 'tinygrad_edu::autograd::AccumulateGrad'], ['"
           "tinygrad_edu::autograd::AccumulateGrad', 'tinygrad_edu::autograd::Accum"
           "ulateGrad', 'tinygrad_edu::autograd::AccumulateGrad'])")),
    "conv2d without bias: its edge is empty": (lambda lib: _edges(_conv(lib, bias=False)),
        ok("['tinygrad_edu::autograd::AccumulateGrad', 'tinygrad_edu::autograd::Acc"
           "umulateGrad', None]")),
    "conv2d's saved options": (
        lambda lib: (lambda n: (n._saved_stride, n._saved_padding, n._saved_dilation, n._saved_groups,
                                n._saved_transposed, n._saved_output_padding, n._saved_bias_sym_sizes_opt,
                                n._saved_input.shape, n._saved_weight.shape))(
            _conv(lib, stride=2, padding=1).grad_fn),
        ok("((2, 2), (1, 1), (1, 1), 1, False, (0, 0), (3,), tinygrad_edu.Size([1, "
           "2, 6, 6]), tinygrad_edu.Size([3, 2, 3, 3]))")),
    "conv1d": (lambda lib: _chain(lib.nn.functional.conv1d(_x(lib, 1, 2, 8), _x(lib, 3, 2, 3))),
        ok("['ConvolutionBackward0', 'tinygrad_edu::autograd::AccumulateGrad']")),
    "unbatched conv2d": (lambda lib: _chain(lib.nn.functional.conv2d(_x(lib, 2, 6, 6), _x(lib, 3, 2, 3, 3))),
        ok("['SqueezeBackward1', 'ConvolutionBackward0', 'UnsqueezeBackward0', 'tin"
           "ygrad_edu::autograd::AccumulateGrad']")),
    "padding='same' with an even kernel pads first": (
        lambda lib: (lambda y: (_edges(y), y.grad_fn._saved_padding, y.shape))(
            lib.nn.functional.conv2d(_x(lib, 1, 1, 5, 5), _x(lib, 1, 1, 2, 3), padding="same")),
        (None, "(['ConstantPadNdBackward0', 'tinygrad_edu::autograd::AccumulateGrad', None], (0, 1), "
               "tinygrad_edu.Size([1, 1, 5, 5]))",
         ["UserWarning: Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
          "copy of the input be created"])),
    "conv2d's gradient (create_graph)": (
        lambda lib: (lambda x, w: (lambda g: (g.grad_fn.name(), _edges(g)))(
            lib.autograd.grad((lib.nn.functional.conv2d(x, w) ** 2).sum(), x, create_graph=True)[0]))(
            _x(lib, 1, 2, 5, 5), _x(lib, 3, 2, 3, 3)),
        ok("('ConvolutionBackwardBackward0', ['MulBackward0', 'tinygrad_edu::autogr"
           "ad::AccumulateGrad', 'tinygrad_edu::autograd::AccumulateGrad'])")),
    "max_pool2d": (lambda lib: _chain(lib.nn.functional.max_pool2d(_x(lib, 1, 2, 4, 4), 2)),
        ok("['MaxPool2DWithIndicesBackward0', 'tinygrad_edu::autograd::AccumulateGrad']")),
    "max_pool2d's saved options": (
        lambda lib: (lambda n: (n._saved_kernel_size, n._saved_stride, n._saved_padding, n._saved_dilation,
                                n._saved_ceil_mode, n._saved_result1))(
            lib.nn.functional.max_pool2d(_x(lib, 1, 1, 4, 4), 2).grad_fn),
        ok("((2, 2), (), (0, 0), (1, 1), False, tensor([[[[ 4,  2],\n"
           "          [13, 14]]]]))")),
    "max_pool2d with indices": (
        lambda lib: lib.nn.functional.max_pool2d(_x(lib, 1, 1, 4, 4), 2, return_indices=True),
        ok("(tensor([[[[ 0.8487, -0.2506],\n"
           "          [ 1.2377,  1.1168]]]], grad_fn=<MaxPool2DWithIndicesBackward0"
           ">), tensor([[[[ 4,  2],\n"
           "          [13, 14]]]]))")),
    "max_pool1d": (lambda lib: _chain(lib.nn.functional.max_pool1d(_x(lib, 1, 2, 8), 2)),
        ok("['SqueezeBackward1', 'MaxPool2DWithIndicesBackward0', 'UnsqueezeBackwar"
           "d0', 'tinygrad_edu::autograd::AccumulateGrad']")),
    "max_pool1d with indices": (
        lambda lib: lib.nn.functional.max_pool1d(_x(lib, 1, 1, 8), 3, 2, 1, return_indices=True),
        ok("(tensor([[[1.5410, 0.5684, 0.5684, 0.8380]]], grad_fn=<SqueezeBackward1"
           ">), tensor([[[0, 3, 3, 7]]]))")),
    "avg_pool2d": (lambda lib: _chain(lib.nn.functional.avg_pool2d(_x(lib, 1, 2, 4, 4), 2)),
        ok("['AvgPool2DBackward0', 'tinygrad_edu::autograd::AccumulateGrad']")),
    "avg_pool2d's saved options": (
        lambda lib: (lambda n: (n._saved_kernel_size, n._saved_stride, n._saved_padding, n._saved_ceil_mode,
                                n._saved_count_include_pad, n._saved_divisor_override))(
            lib.nn.functional.avg_pool2d(_x(lib, 1, 1, 4, 4), 2, 1, 1).grad_fn),
        ok("((2, 2), (1, 1), (1, 1), False, True, None)")),
    "avg_pool1d": (lambda lib: _chain(lib.nn.functional.avg_pool1d(_x(lib, 1, 2, 8), 2)),
        ok("['SqueezeBackward1', 'AvgPool2DBackward0', 'UnsqueezeBackward0', 'tinyg"
           "rad_edu::autograd::AccumulateGrad']")),
    "adaptive_avg_pool2d": (lambda lib: _chain(lib.nn.functional.adaptive_avg_pool2d(_x(lib, 1, 2, 5, 5), 2)),
        ok("['AdaptiveAvgPool2DBackward0', 'tinygrad_edu::autograd::AccumulateGrad']")),
    "adaptive_avg_pool2d to 1x1 is a mean": (
        lambda lib: _chain(lib.nn.functional.adaptive_avg_pool2d(_x(lib, 1, 2, 5, 5), 1)),
        ok("['MeanBackward1', 'tinygrad_edu::autograd::AccumulateGrad']")),
    "adaptive_avg_pool1d": (lambda lib: _chain(lib.nn.functional.adaptive_avg_pool1d(_x(lib, 1, 2, 5), 2)),
        ok("['SqueezeBackward1', 'AdaptiveAvgPool2DBackward0', 'UnsqueezeBackward0'"
           ", 'tinygrad_edu::autograd::AccumulateGrad']")),
    "max_pool2d's gradient (create_graph)": (
        lambda lib: (lambda g: (g.grad_fn.name(), _edges(g)))(
            _gradient(lib, lambda x: lib.nn.functional.max_pool2d(x, 2), (1, 1, 4, 4))),
        ok("('MaxPool2DWithIndicesBackwardBackward0', ['MulBackward0', 'ToCopyBackward0'])")),
    "avg_pool2d's gradient (create_graph)": (
        lambda lib: (lambda g: (g.grad_fn.name(), _edges(g)))(
            _gradient(lib, lambda x: lib.nn.functional.avg_pool2d(x, 2), (1, 1, 4, 4))),
        ok("('AvgPool2DBackwardBackward0', ['MulBackward0', 'ToCopyBackward0'])")),
    "adaptive_avg_pool2d's gradient (create_graph)": (
        lambda lib: (lambda g: (g.grad_fn.name(), _edges(g)))(
            _gradient(lib, lambda x: lib.nn.functional.adaptive_avg_pool2d(x, 3), (1, 1, 4, 4))),
        ok("('AdaptiveAvgPool2DBackwardBackward0', ['MulBackward0', 'ToCopyBackward0'])")),
    "torch.conv2d and torch.max_pool2d at the top": (
        lambda lib: (lib.conv2d(lib.ones(1, 1, 3, 3), lib.ones(1, 1, 2, 2)), lib.max_pool2d(lib.ones(1, 2, 2), 2),
                     lib.avg_pool1d(lib.ones(1, 4), 2)),
        ok("(tensor([[[[4., 4.],\n"
           "          [4., 4.]]]]), tensor([[[1.]]]), tensor([[1., 1.]]))")),
}


# -- max pooling's ties and NaN, average pooling's divisors --------------------------------------------------------
def _nan(lib: ModuleType) -> Any:
    return lib.tensor([[[[1.0, float("nan"), 3.0, float("nan")], [2.0, 2.0, 1.0, 2.0]]]])


RULES = {
    "ties: the first maximum": (
        lambda lib: lib.nn.functional.max_pool2d(_nan(lib)[..., 1:, :], (1, 4), return_indices=True),
        ok("(tensor([[[[2.]]]]), tensor([[[[0]]]]))")),
    "NaN wins, the last one": (
        lambda lib: lib.nn.functional.max_pool2d(_nan(lib), (1, 4), return_indices=True),
        ok("(tensor([[[[nan],\n"
           "          [2.]]]]), tensor([[[[3],\n"
           "          [4]]]]))")),
    "a NaN's gradient goes to it": (
        lambda lib: (lambda x: (lib.nn.functional.max_pool2d(x, (2, 2)).sum().backward(), x.grad)[1])(
            _nan(lib).requires_grad_()),
        ok("tensor([[[[0., 1., 0., 1.],\n"
           "          [0., 0., 0., 0.]]]])")),
    "overlapping windows add": (
        lambda lib: (lambda x: (lib.nn.functional.max_pool2d(x, 3, stride=1, padding=1).sum().backward(), x.grad)[1])(
            lib.arange(9.0).reshape(1, 1, 3, 3).requires_grad_()),
        ok("tensor([[[[0., 0., 0.],\n"
           "          [0., 1., 2.],\n"
           "          [0., 2., 4.]]]])")),
    "a window of -inf points inside the input": (
        lambda lib: lib.nn.functional.max_pool2d(lib.full((1, 1, 4, 4), -float("inf")), 3, 2, 1,
                                                 return_indices=True)[1],
        ok("tensor([[[[0, 1],\n"
           "          [4, 5]]]])")),
    "integers": (
        lambda lib: (lib.nn.functional.max_pool2d(lib.arange(25).reshape(1, 1, 5, 5), 2, padding=1),
                     lib.nn.functional.avg_pool2d(-lib.arange(25).reshape(1, 1, 5, 5), 2)),
        ok("(tensor([[[[ 0,  2,  4],\n"
           "          [10, 12, 14],\n"
           "          [20, 22, 24]]]]), tensor([[[[ -3,  -5],\n"
           "          [-13, -15]]]]))")),
    "ceil_mode keeps the partial windows": (
        lambda lib: (lib.nn.functional.max_pool2d(lib.arange(25.0).reshape(1, 1, 5, 5), 2, ceil_mode=True),
                     lib.nn.functional.avg_pool2d(lib.arange(25.0).reshape(1, 1, 5, 5), 2, ceil_mode=True)),
        ok("(tensor([[[[ 6.,  8.,  9.],\n"
           "          [16., 18., 19.],\n"
           "          [21., 23., 24.]]]]), tensor([[[[ 3.0000,  5.0000,  6.5000],\n"
           "          [13.0000, 15.0000, 16.5000],\n"
           "          [20.5000, 22.5000, 24.0000]]]]))")),
    "count_include_pad": (
        lambda lib: [lib.nn.functional.avg_pool2d(lib.arange(25.0).reshape(1, 1, 5, 5), 3, 2, 1, True, c)
                     for c in (True, False)],
        ok("[tensor([[[[ 1.3333,  3.0000,  2.6667],\n"
           "          [ 7.0000, 12.0000,  9.0000],\n"
           "          [ 8.0000, 13.0000,  9.3333]]]]), tensor([[[[ 3.0000,  4.5000,"
           "  6.0000],\n"
           "          [10.5000, 12.0000, 13.5000],\n"
           "          [18.0000, 19.5000, 21.0000]]]])]")),
    "divisor_override": (
        lambda lib: lib.nn.functional.avg_pool2d(lib.ones(1, 1, 4, 4), 2, divisor_override=3),
        ok("tensor([[[[1.3333, 1.3333],\n"
           "          [1.3333, 1.3333]]]])")),
    "adaptive windows overlap": (
        lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.arange(25.0).reshape(1, 1, 5, 5), (2, 3)),
        ok("tensor([[[[ 5.5000,  7.0000,  8.5000],\n"
           "          [15.5000, 17.0000, 18.5000]]]])")),
}


# -- errors -------------------------------------------------------------------------------------------------------
def _conv2d(lib: ModuleType, x: tuple, w: tuple, b: tuple | None = None, **options: Any) -> Any:
    F = lib.nn.functional
    return F.conv2d(lib.zeros(*x), lib.zeros(*w), None if b is None else lib.zeros(*b), **options)


def _sets_sorted(fn: Callable[[], Any]) -> str:
    """The error ``fn`` raises, as "Type: message", with the set the message prints sorted."""
    try:
        fn()
    except Exception as e:
        items = re.search(r"\{(.*?)\}", str(e))
        listed = ", ".join(sorted(items.group(1).split(", "))) if items else ""
        return f"{type(e).__name__}: " + re.sub(r"\{.*?\}", "{" + listed + "}", str(e), count=1)
    return "no error"


ERRORS = {
    "conv2d of a matrix": (lambda lib: _conv2d(lib, (5, 5), (6, 1, 5, 5)),
        err("RuntimeError", "Expected 3D (unbatched) or 4D (batched) input to conv2"
                            "d, but got input of size: [5, 5]")),
    "conv2d of 5 dims": (lambda lib: _conv2d(lib, (1, 1, 5, 5, 5), (6, 1, 5, 5)),
        err("RuntimeError", "Expected 3D (unbatched) or 4D (batched) input to conv2"
                            "d, but got input of size: [1, 1, 5, 5, 5]")),
    "conv1d of a vector": (lambda lib: lib.nn.functional.conv1d(lib.zeros(5), lib.zeros(6, 1, 5)),
        err("RuntimeError", "Expected 2D (unbatched) or 3D (batched) input to conv1"
                            "d, but got input of size: [5]")),
    "channels": (lambda lib: _conv2d(lib, (1, 3, 32, 32), (6, 1, 5, 5)),
        err("RuntimeError", "Given groups=1, weight of size [6, 1, 5, 5], expected "
                            "input[1, 3, 32, 32] to have 1 channels, but got 3 chan"
                            "nels instead")),
    "channels, unbatched": (lambda lib: _conv2d(lib, (3, 32, 32), (6, 1, 5, 5)),
        err("RuntimeError", "Given groups=1, weight of size [6, 1, 5, 5], expected "
                            "input[1, 3, 32, 32] to have 1 channels, but got 3 chan"
                            "nels instead")),
    "channels with groups": (lambda lib: _conv2d(lib, (1, 3, 4, 4), (6, 1, 3, 3), groups=2),
        err("RuntimeError", "Given groups=2, weight of size [6, 1, 3, 3], expected "
                            "input[1, 3, 4, 4] to have 2 channels, but got 3 channe"
                            "ls instead")),
    "out channels not divisible by groups": (lambda lib: _conv2d(lib, (1, 4, 4, 4), (5, 2, 3, 3), groups=2),
        err("RuntimeError", "Given groups=2, expected weight to be divisible by 2 a"
                            "t dimension 0, but got weight of size [[5, 2, 3, 3]] instead")),
    "fewer kernels than groups": (lambda lib: _conv2d(lib, (1, 4, 4, 4), (2, 1, 3, 3), groups=4),
        err("RuntimeError", "Given groups=4, expected weight to be at least 4 at di"
                            "mension 0, but got weight of size [2, 1, 3, 3] instead")),
    "kernel larger than the input": (lambda lib: _conv2d(lib, (1, 3, 4, 4), (6, 3, 5, 5)),
        err("RuntimeError", "Calculated padded input size per channel: (4 x 4). Ker"
                            "nel size: (5 x 5). Kernel size can't be greater than a"
                            "ctual input size")),
    "dilated kernel larger than the input": (lambda lib: _conv2d(lib, (1, 3, 4, 4), (6, 3, 3, 3), dilation=2),
        err("RuntimeError", "Calculated padded input size per channel: (4 x 4). Ker"
                            "nel size: (5 x 5). Kernel size can't be greater than a"
                            "ctual input size")),
    "bias of the wrong size": (lambda lib: _conv2d(lib, (1, 3, 4, 4), (6, 3, 3, 3), (5,)),
        err("RuntimeError", "Given weight of size [6, 3, 3, 3], expected bias to be"
                            " 1-dimensional with 6 elements, but got bias of size ["
                            "5] instead")),
    "stride 0": (lambda lib: _conv2d(lib, (1, 3, 8, 8), (6, 3, 3, 3), stride=0),
        err("RuntimeError", "non-positive stride is not supported")),
    "negative padding": (lambda lib: _conv2d(lib, (1, 3, 8, 8), (6, 3, 3, 3), padding=-1),
        err("RuntimeError", "negative padding is not supported")),
    "dilation 0": (lambda lib: _conv2d(lib, (1, 3, 8, 8), (6, 3, 3, 3), dilation=0),
        err("RuntimeError", "dilation should be greater than zero, but got [0, 0]")),
    "groups 0": (lambda lib: _conv2d(lib, (1, 3, 8, 8), (6, 3, 3, 3), groups=0),
        err("RuntimeError", "non-positive groups is not supported")),
    "three strides for a 2-d kernel": (lambda lib: _conv2d(lib, (1, 3, 8, 8), (6, 3, 3, 3), stride=(1, 1, 1)),
        err("RuntimeError", "expected stride to be a single integer value or a list"
                            " of 2 values to match the convolution dimensions, but "
                            "got stride=[1, 1, 1]")),
    "a 1-d kernel in conv2d": (lambda lib: _conv2d(lib, (1, 3, 8, 8), (6, 3, 3)),
        err("RuntimeError", "expected stride to be a single integer value or a list"
                            " of 1 values to match the convolution dimensions, but "
                            "got stride=[1, 1]")),
    "padding string": (lambda lib: _conv2d(lib, (1, 3, 8, 8), (6, 3, 3, 3), padding="full"),
        err("RuntimeError", "Invalid padding string: 'full'")),
    "'same' with a stride": (lambda lib: _conv2d(lib, (1, 3, 8, 8), (6, 3, 3, 3), padding="same", stride=2),
        err("RuntimeError", "padding='same' is not supported for strided convolutions")),
    "float input, double weight": (
        lambda lib: lib.nn.functional.conv2d(lib.zeros(1, 3, 8, 8), lib.zeros(6, 3, 3, 3).double()),
        err("RuntimeError", "expected scalar type Float but found Double")),
    "double bias": (
        lambda lib: lib.nn.functional.conv2d(lib.zeros(1, 3, 8, 8), lib.zeros(6, 3, 3, 3), lib.zeros(6).double()),
        err("RuntimeError", "Input type (float) and bias type (double) should be the same")),
    "Conv2d: in_channels and groups": (lambda lib: lib.nn.Conv2d(4, 6, 5, groups=3),
        err("ValueError", "in_channels must be divisible by groups")),
    "Conv2d: out_channels and groups": (lambda lib: lib.nn.Conv2d(4, 6, 5, groups=4),
        err("ValueError", "out_channels must be divisible by groups")),
    "Conv2d: groups 0": (lambda lib: lib.nn.Conv2d(4, 6, 5, groups=0),
        err("ValueError", "groups must be a positive integer")),
    "Conv2d: 'same' with a stride": (lambda lib: lib.nn.Conv2d(4, 6, 5, padding="same", stride=2),
        err("ValueError", "padding='same' is not supported for strided convolutions")),
    # PyTorch's messages print a set, whose order changes from one process to the next: compared sorted
    "Conv2d: padding string": (
        lambda lib: _sets_sorted(lambda: lib.nn.Conv2d(4, 6, 5, padding="full")),
        ok("\"ValueError: Invalid padding string 'full', should be one of {'same', 'valid'}\"")),
    "Conv2d: padding_mode": (
        lambda lib: _sets_sorted(lambda: lib.nn.Conv2d(4, 6, 5, padding_mode="zero")),
        ok("\"ValueError: padding_mode must be one of {'circular', 'reflect', 'replicate', 'zeros'}, but got "
           "padding_mode='zero'\"")),
    "Conv2d of a matrix": (lambda lib: lib.nn.Conv2d(3, 6, 5)(lib.zeros(5, 5)),
        err("RuntimeError", "Expected 3D (unbatched) or 4D (batched) input to conv2"
                            "d, but got input of size: [5, 5]")),
    "LazyConv2d of a matrix": (lambda lib: lib.nn.LazyConv2d(6, 5)(lib.zeros(5, 5)),
        err("RuntimeError", "Expected 3D (unbatched) or 4D (batched) input to LazyC"
                            "onv2d, but got input of size: tinygrad_edu.Size([5, 5])")),
    "max_pool2d: pad more than half the kernel": (
        lambda lib: lib.nn.functional.max_pool2d(lib.zeros(1, 3, 8, 8), 2, padding=2),
        err("RuntimeError", "pad should be at most half of effective kernel size, b"
                            "ut got pad=2, kernel_size=2 and dilation=1")),
    "max_pool2d of a matrix": (lambda lib: lib.nn.functional.max_pool2d(lib.zeros(5, 5), 2),
        err("RuntimeError", "non-empty 3D or 4D (batch mode) tensor expected for input")),
    "max_pool2d: nothing left": (lambda lib: lib.nn.functional.max_pool2d(lib.zeros(1, 1, 1, 1), 2),
        err("RuntimeError", "Given input size: (1x1x1). Calculated output size: (1x"
                            "0x0). Output size is too small")),
    "max_pool2d: stride 0": (lambda lib: lib.nn.functional.max_pool2d(lib.zeros(1, 1, 4, 4), 2, stride=0),
        err("RuntimeError", "stride should not be zero")),
    "max_pool2d: dilation 0": (lambda lib: lib.nn.functional.max_pool2d(lib.zeros(1, 1, 4, 4), 2, dilation=0),
        err("RuntimeError", "dilation should be greater than zero, but got dilation"
                            "H: 0 dilationW: 0")),
    "max_pool2d: no channels": (lambda lib: lib.nn.functional.max_pool2d(lib.zeros(1, 0, 4, 4), 2),
        err("RuntimeError", "Expected 3D or 4D (batch mode) tensor with optional 0 "
                            "dim batch size for input, but got:[1, 0, 4, 4]")),
    "avg_pool2d: pad more than half the kernel": (
        lambda lib: lib.nn.functional.avg_pool2d(lib.zeros(1, 3, 8, 8), 2, padding=2),
        err("RuntimeError", "pad should be at most half of effective kernel size, b"
                            "ut got pad=2, kernel_size=2 and dilation=1")),
    "avg_pool2d of a matrix": (lambda lib: lib.nn.functional.avg_pool2d(lib.zeros(5, 5), 2),
        err("IndexError", "Dimension out of range (expected to be in range of [-2, "
                          "1], but got -3)")),
    "avg_pool2d: nothing left": (lambda lib: lib.nn.functional.avg_pool2d(lib.zeros(1, 1, 1, 1), 2),
        err("RuntimeError", "Given input size: (1x1x1). Calculated output size: (1x"
                            "0x0). Output size is too small")),
    "avg_pool2d: divisor 0": (
        lambda lib: lib.nn.functional.avg_pool2d(lib.zeros(1, 1, 4, 4), 2, divisor_override=0),
        err("RuntimeError", "divisor must be not zero")),
    "max_pool1d of a vector": (lambda lib: lib.nn.functional.max_pool1d(lib.zeros(5), 2),
        err("RuntimeError", "max_pool1d: Expected 2D or 3D (batch mode) tensor with"
                            " optional 0 dim batch size for input, but got:[5]")),
    "max_pool1d: pad more than half the kernel": (
        lambda lib: lib.nn.functional.max_pool1d(lib.zeros(1, 1, 5), 2, padding=2),
        err("RuntimeError", "max_pool1d() padding should be at most half of kernel "
                            "size, but got padding=2 and kernel_size=2")),
    "max_pool1d: nothing left": (lambda lib: lib.nn.functional.max_pool1d(lib.zeros(1, 1, 1), 2),
        err("RuntimeError", "max_pool1d() Invalid computed output size: 0")),
    "max_pool1d with indices: pad more than half the kernel": (
        lambda lib: lib.nn.functional.max_pool1d(lib.zeros(1, 1, 5), 2, padding=2, return_indices=True),
        err("RuntimeError", "pad should be at most half of effective kernel size, b"
                            "ut got pad=2, kernel_size=2 and dilation=1")),
    "avg_pool1d of a vector": (lambda lib: lib.nn.functional.avg_pool1d(lib.zeros(5), 2),
        err("RuntimeError", "Expected 2 to 3 dimensions, but got 1-dimensional tens"
                            "or for argument #1 'self' (while checking arguments fo"
                            "r avg_pool1d)")),
    "avg_pool1d: nothing left": (lambda lib: lib.nn.functional.avg_pool1d(lib.zeros(1, 1, 1), 2),
        err("RuntimeError", "Given input size: (1x1x1). Calculated output size: (1x"
                            "1x0). Output size is too small")),
    "adaptive_avg_pool2d of a vector": (lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.zeros(5), 2),
        err("RuntimeError", "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [5]")),
    "adaptive_avg_pool2d: three sizes": (
        lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.zeros(1, 3, 4, 4), (2, 2, 2)),
        err("RuntimeError", "adaptive_avg_pool2d: output_size must be 2")),
    "adaptive_avg_pool2d: an empty row": (
        lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.zeros(1, 3, 0, 4), 2),
        err("RuntimeError", "adaptive_avg_pool2d(): Expected input to have non-zero"
                            " size for non-batch dimensions, but input has sizes [1"
                            ", 3, 0, 4] with dimension 2 being empty")),
}

GROUPS = {"d2l": D2L, "programs": PROGRAMS, "reprs": REPRS, "nodes": NODES, "rules": RULES, "errors": ERRORS}


@pytest.mark.parametrize(("group", "name"), [(g, n) for g, cases in GROUPS.items() for n in cases])
def test_as_pytorch(group: str, name: str) -> None:
    fn, expected = GROUPS[group][name]
    as_pytorch(fn, expected)


# -- values and gradients: finite differences, and PyTorch's numbers ------------------------------------------------
def _conv_case(fn: str, x: tuple, w: tuple, bias: bool = True, **options: Any) -> tuple:
    return ("conv", fn, x, w, bias, options)


def _pool_case(fn: str, x: tuple, *args: Any, **options: Any) -> tuple:
    return ("pool", fn, x, args, options)


CONVS = {
    "plain": _conv_case("conv2d", (2, 3, 7, 8), (4, 3, 3, 2)),
    "stride, padding, groups": _conv_case("conv2d", (2, 4, 9, 8), (6, 2, 3, 3), stride=2, padding=1, groups=2),
    "depthwise, dilated, uneven": _conv_case("conv2d", (1, 4, 9, 10), (4, 1, 3, 3), stride=(2, 3), padding=(2, 1),
                                             dilation=(2, 1), groups=4),
    "no bias, unbatched": _conv_case("conv2d", (3, 7, 8), (4, 3, 3, 2), bias=False),
    "same": _conv_case("conv2d", (2, 3, 7, 8), (4, 3, 3, 3), padding="same", dilation=(1, 2)),
    "valid": _conv_case("conv2d", (2, 3, 7, 8), (4, 3, 3, 3), padding="valid"),
    "conv1d": _conv_case("conv1d", (2, 3, 11), (4, 3, 3), stride=2, padding=1, dilation=2),
    "conv3d": _conv_case("conv3d", (1, 2, 5, 6, 5), (3, 2, 3, 2, 2), padding=1, stride=2),
    "1x1": _conv_case("conv2d", (2, 5, 4, 4), (3, 5, 1, 1)),
}
POOLS = {
    "max 2": _pool_case("max_pool2d", (2, 3, 8, 8), 2),
    "max 3, stride 1, pad 1": _pool_case("max_pool2d", (2, 3, 8, 8), 3, stride=1, padding=1),
    "max, tuples": _pool_case("max_pool2d", (2, 3, 9, 8), (2, 3), stride=(2, 3), padding=(0, 1)),
    "max, dilated, ceil, unbatched": _pool_case("max_pool2d", (3, 9, 8), 3, stride=2, padding=1, dilation=2,
                                                ceil_mode=True),
    "max1d": _pool_case("max_pool1d", (2, 3, 9), 3, stride=2, padding=1),
    "avg 2": _pool_case("avg_pool2d", (2, 3, 8, 8), 2),
    "avg, ceil, padding": _pool_case("avg_pool2d", (2, 3, 9, 8), 3, stride=2, padding=1, ceil_mode=True),
    "avg, without the padding": _pool_case("avg_pool2d", (2, 3, 9, 8), 3, stride=2, padding=1, ceil_mode=True,
                                           count_include_pad=False),
    "avg, divisor_override": _pool_case("avg_pool2d", (3, 9, 8), (3, 2), stride=(1, 2), padding=1,
                                        divisor_override=4),
    "avg1d": _pool_case("avg_pool1d", (2, 3, 9), 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
    "adaptive": _pool_case("adaptive_avg_pool2d", (2, 3, 9, 7), (4, 3)),
    "adaptive, None": _pool_case("adaptive_avg_pool2d", (3, 9, 7), (None, 3)),
    "adaptive 1d": _pool_case("adaptive_avg_pool1d", (2, 3, 9), 4),
}
CASES = {**CONVS, **POOLS}


def _run(lib: ModuleType, case: tuple, dtype: str, seed: int = 0) -> tuple[list[Any], list[Any]]:
    """The case's output and its inputs (requiring grad), from numpy's seeded numbers: the same in both libraries."""
    rng = np.random.default_rng(seed)
    F = lib.nn.functional
    d = getattr(lib, dtype)
    if case[0] == "conv":
        _, fn, x, w, bias, options = case
        inputs = [lib.tensor(rng.standard_normal(s), dtype=d, requires_grad=True) for s in (x, w, w[:1])]
        if not bias:
            inputs = inputs[:2]
        return getattr(F, fn)(inputs[0], inputs[1], inputs[2] if bias else None, **options), inputs
    _, fn, x, args, options = case
    inputs = [lib.tensor(rng.standard_normal(x), dtype=d, requires_grad=True)]
    return getattr(F, fn)(inputs[0], *args, **options), inputs


def _values_and_grads(lib: ModuleType, case: tuple, dtype: str) -> list[np.ndarray]:
    y, inputs = _run(lib, case, dtype)
    g = lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)), dtype=getattr(lib, dtype))
    y.backward(g)
    return [y.detach().numpy(), *(t.grad.numpy() for t in inputs)]


@pytest.mark.parametrize("name", CASES)
def test_gradcheck(name: str) -> None:
    """The backward of every case (input, weight, bias), and its own backward, against finite differences."""
    def f(*inputs: Any) -> Any:
        return _run_with(CASES[name], inputs)

    _, inputs = _run(tg, CASES[name], "float64")
    assert tg.autograd.gradcheck(f, tuple(inputs))
    assert tg.autograd.gradgradcheck(f, tuple(inputs))


def _run_with(case: tuple, inputs: tuple) -> Any:
    F = tg.nn.functional
    if case[0] == "conv":
        _, fn, _, _, bias, options = case
        return getattr(F, fn)(inputs[0], inputs[1], inputs[2] if bias else None, **options)
    _, fn, _, args, options = case
    return getattr(F, fn)(inputs[0], *args, **options)


@pytest.mark.parametrize(("dtype", "rtol"), [("float64", 1e-10), ("float32", 1e-5)])
@pytest.mark.parametrize("name", CASES)
def test_values_and_gradients_are_pytorchs(name: str, dtype: str, rtol: float) -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")
    ours, theirs = (_values_and_grads(lib, CASES[name], dtype) for lib in (tg, torch))
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name", [*CONVS, "max 3, stride 1, pad 1", "avg, ceil, padding", "adaptive"])
def test_second_derivatives_are_pytorchs(name: str) -> None:
    """create_graph=True through the op: the gradient of a function of its gradients."""
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")

    def second(lib: ModuleType) -> list[np.ndarray]:
        y, inputs = _run(lib, CASES[name], "float64")
        grads = lib.autograd.grad((y ** 2).sum(), inputs, create_graph=True)
        total = sum((g ** 3).sum() for g in grads)
        return [t.numpy() for t in lib.autograd.grad(total, inputs)]

    for a, b in zip(second(tg), second(torch)):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("layer", [
    lambda lib: lib.nn.Conv2d(3, 6, 5), lambda lib: lib.nn.Conv2d(4, 6, (3, 2), groups=2, bias=False),
    lambda lib: lib.nn.Conv1d(2, 5, 3), lambda lib: lib.nn.Conv3d(2, 2, 2),
    lambda lib: (lambda m: (m(lib.zeros(1, 3, 4, 4)), m)[1])(lib.nn.LazyConv2d(2, 3))])
def test_initial_weights_are_pytorchs_bit_for_bit(layer: Callable[[ModuleType], Any]) -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")
    tg.manual_seed(7)
    torch.manual_seed(7)
    ours, theirs = layer(tg), layer(torch)
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert np.array_equal(a.detach().numpy(), b.detach().numpy()), name


def test_conv_matches_d2l_corr2d_from_scratch() -> None:
    """conv2d is the loop over output pixels of d2l's corr2d, summed over input channels (no torch needed)."""
    tg.manual_seed(0)
    x, w = tg.randn(3, 6, 7), tg.randn(2, 3, 3, 2)
    by_hand = tg.stack([sum(_corr2d(tg, x[c], w[o, c]) for c in range(3)) for o in range(2)])
    np.testing.assert_allclose(tg.nn.functional.conv2d(x, w).numpy(), by_hand.numpy(), rtol=1e-5, atol=1e-5)


def test_float32_stays_float32() -> None:
    y, inputs = _run(tg, CONVS["plain"], "float32")
    y.sum().backward()
    assert y.dtype == tg.float32 and all(t.grad.dtype == tg.float32 for t in inputs)


def test_a_lenet_step_takes_milliseconds() -> None:
    net = _lenet(tg)
    x, g = tg.randn(1, 1, 32, 32), tg.randn(1, 10)
    start = time.perf_counter()
    for _ in range(10):
        net.zero_grad()
        net(x).backward(g)
    assert (time.perf_counter() - start) / 10 < 0.05  # (about 1.5 ms here)
