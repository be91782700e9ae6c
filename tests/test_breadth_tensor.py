"""Tensor-op breadth that PyTorch's docstring examples and tutorials reach for: finfo/iinfo, div's rounding modes,
a number's powers, remainders' signed zeros, reading a tensor's bits as another dtype, cutting and padding shapes,
writes at indices, xlogy and logit, the named pairs of cummax/kthvalue/mode, counting, the infinity norm, and
random integers and categories drawn as PyTorch draws them.

Each case is run with tinygrad_edu and, when torch is installed, with torch (``_oracle.as_pytorch``); the
expected text is spelled out, so each test means something without torch.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle

import tinygrad_edu as tg
from tinygrad_edu.autograd import gradcheck, gradgradcheck

Case = tuple[Callable[[ModuleType], Any], tuple]

INFO: dict[str, Case] = {
    "finfo float32": (
        lambda lib: lib.finfo(lib.float32),
        (
            None,
            (
                "finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, "
                "eps=1.19209e-07, smallest_normal=1.17549e-38, tiny=1.17549e-38, "
                "dtype=float32)"
            ),
            [],
        ),
    ),
    "finfo default": (
        lambda lib: lib.finfo(),
        (
            None,
            (
                "finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, "
                "eps=1.19209e-07, smallest_normal=1.17549e-38, tiny=1.17549e-38, "
                "dtype=float32)"
            ),
            [],
        ),
    ),
    "finfo float16": (
        lambda lib: lib.finfo(lib.float16),
        (
            None,
            (
                "finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562, "
                "smallest_normal=6.10352e-05, tiny=6.10352e-05, dtype=float16)"
            ),
            [],
        ),
    ),
    "finfo float64": (
        lambda lib: lib.finfo(lib.float64),
        (
            None,
            (
                "finfo(resolution=1e-15, min=-1.79769e+308, max=1.79769e+308, "
                "eps=2.22045e-16, smallest_normal=2.22507e-308, "
                "tiny=2.22507e-308, dtype=float64)"
            ),
            [],
        ),
    ),
    "finfo fields": (
        lambda lib: (
            lib.finfo(lib.float16).resolution,
            lib.finfo(lib.float16).max,
            lib.finfo().eps,
            lib.finfo().bits,
            lib.finfo().dtype,
            lib.finfo().tiny,
        ),
        (None, ("(0.001, 65504.0, 1.1920928955078125e-07, 32, 'float32', 1.1754943508222875e-38)"), []),
    ),
    "finfo of an integer type": (
        lambda lib: lib.finfo(lib.int32),
        (
            "TypeError",
            (
                "tinygrad_edu.finfo() requires a floating point input type. Use "
                "tinygrad_edu.iinfo to handle 'tinygrad_edu.finfo'"
            ),
            [],
        ),
    ),
    "finfo of a string": (
        lambda lib: lib.finfo("float32"),
        ("TypeError", ("finfo(): argument 'type' (position 1) must be tinygrad_edu.dtype, not str"), []),
    ),
    "iinfo int32": (
        lambda lib: lib.iinfo(lib.int32),
        (None, "iinfo(min=-2.14748e+09, max=2.14748e+09, dtype=int32)", []),
    ),
    "iinfo int64 max": (
        lambda lib: (lib.iinfo(lib.int64).max, lib.iinfo(lib.int64).bits),
        (None, "(9223372036854775807, 64)", []),
    ),
    "iinfo uint8": (lambda lib: lib.iinfo(lib.uint8), (None, "iinfo(min=0, max=255, dtype=uint8)", [])),
    "iinfo int8 min": (lambda lib: lib.iinfo(lib.int8).min, (None, "-128", [])),
    "iinfo bool": (
        lambda lib: lib.iinfo(lib.bool),
        ("TypeError", "tinygrad_edu.bool is not supported by tinygrad_edu.iinfo", []),
    ),
    "iinfo float": (
        lambda lib: lib.iinfo(lib.float32),
        (
            "TypeError",
            (
                "tinygrad_edu.iinfo() requires an integer input type. Use "
                "tinygrad_edu.finfo to handle 'tinygrad_edu.iinfo'"
            ),
            [],
        ),
    ),
    "finfo equality": (lambda lib: lib.finfo(lib.float32) == lib.finfo(lib.float32), (None, "True", [])),
    "is_floating_point": (
        lambda lib: (lib.is_floating_point(lib.tensor([1.0])), lib.is_floating_point(lib.tensor([1]))),
        (None, "(True, False)", []),
    ),
    "is_floating_point of a number": (
        lambda lib: lib.is_floating_point(1.0),
        ("TypeError", ("is_floating_point(): argument 'input' (position 1) must be Tensor, not float"), []),
    ),
    "is_tensor": (lambda lib: (lib.is_tensor(lib.tensor(1)), lib.is_tensor([1])), (None, "(True, False)", [])),
    "ndimension": (lambda lib: lib.ones(2, 3).ndimension(), (None, "2", [])),
}

DIVISION: dict[str, Case] = {
    "floor": (
        lambda lib: lib.div(lib.tensor([-7.0, 7.0, -0.5, 3.5]), 2, rounding_mode="floor"),
        (None, "tensor([-4.,  3., -1.,  1.])", []),
    ),
    "trunc": (
        lambda lib: lib.div(lib.tensor([-7.0, 7.0, -0.5]), 2, rounding_mode="trunc"),
        (None, "tensor([-3.,  3., -0.])", []),
    ),
    "trunc, integers": (
        lambda lib: lib.div(lib.tensor([-7, 7, -1, 1]), 2, rounding_mode="trunc"),
        (None, "tensor([-3,  3,  0,  0])", []),
    ),
    "floor, integers": (
        lambda lib: lib.div(lib.tensor([-7, 7, -1, 1]), 2, rounding_mode="floor"),
        (None, "tensor([-4,  3, -1,  0])", []),
    ),
    "floor, integer tensors": (
        lambda lib: lib.div(lib.tensor([-7, 7]), lib.tensor([-2, 3]), rounding_mode="floor"),
        (None, "tensor([3, 2])", []),
    ),
    "integer by 0": (
        lambda lib: lib.div(lib.tensor([1, 7]), 0, rounding_mode="trunc"),
        ("RuntimeError", "ZeroDivisionError", []),
    ),
    "float by 0": (
        lambda lib: lib.div(lib.tensor([1.0, -1.0, 0.0]), 0, rounding_mode="floor"),
        (None, "tensor([inf, -inf, nan])", []),
    ),
    "7 // 0.7 is 9, not 10": (
        lambda lib: lib.tensor([7.0]).div(0.7, rounding_mode="floor"),
        (None, "tensor([10.])", []),
    ),
    "a zero quotient keeps the sign": (
        lambda lib: lib.tensor([0.5, -0.5]).div(lib.tensor([-3.0, -3.0]), rounding_mode="floor"),
        (None, "tensor([-1.,  0.])", []),
    ),
    "integers by a float": (
        lambda lib: lib.tensor([-7, 7]).div(2.5, rounding_mode="floor"),
        (None, "tensor([-3.,  2.])", []),
    ),
    "a bad mode": (
        lambda lib: lib.div(lib.tensor([1.0]), 2, rounding_mode="x"),
        ("RuntimeError", ("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'x'"), []),
    ),
    "the node": (
        lambda lib: lib.div(lib.tensor([1.0, 2.0], requires_grad=True), 2, rounding_mode="floor"),
        (None, "tensor([0., 1.], grad_fn=<DivBackward2>)", []),
    ),
    "the gradient is 0": (
        lambda lib: (lambda x: (x.div(lib.tensor([3.0, 4.0]), rounding_mode="floor").sum().backward(), x.grad))(
            lib.tensor([1.0, 2.0], requires_grad=True)
        ),
        (None, "(None, tensor([0., 0.]))", []),
    ),
    "div_": (
        lambda lib: (lambda x: (x.div_(2, rounding_mode="floor"), x))(lib.tensor([5.0, -5.0])),
        (None, "(tensor([ 2., -3.]), tensor([ 2., -3.]))", []),
    ),
    "divide": (lambda lib: lib.tensor([5.0, -5.0]).divide(2, rounding_mode="trunc"), (None, "tensor([ 2., -2.])", [])),
    "bools, trunc": (
        lambda lib: lib.tensor([True, False]).div(lib.tensor([True, True]), rounding_mode="trunc"),
        ("NotImplementedError", "\"div_trunc_cpu\" not implemented for 'Bool'", []),
    ),
    "bools, floor": (
        lambda lib: lib.tensor([True, False]).div(lib.tensor([True, True]), rounding_mode="floor"),
        ("NotImplementedError", "\"div_floor_cpu\" not implemented for 'Bool'", []),
    ),
    "shapes that do not broadcast": (
        lambda lib: lib.tensor([[1.0, 2.0]]).div(lib.tensor([1.0, 2.0, 3.0]), rounding_mode="floor"),
        (
            "RuntimeError",
            ("The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"),
            [],
        ),
    ),
    "docstring": (
        lambda lib: lib.div(
            lib.tensor([[-0.3711, -1.9353, -0.4605, -0.2917], [0.1815, -1.0111, 0.9805, -1.5923]]),
            lib.tensor([0.8032, 0.2930, -0.8113, -0.2308]),
            rounding_mode="trunc",
        ),
        (None, "tensor([[-0., -6.,  0.,  1.],\n        [ 0., -3., -1.,  6.]])", []),
    ),
    "docstring, floor": (
        lambda lib: lib.div(lib.tensor([[-0.3711, -1.9353], [0.1815, -1.0111]]), -0.5, rounding_mode="floor"),
        (None, "tensor([[ 0.,  3.],\n        [-1.,  2.]])", []),
    ),
    "pow of a number": (lambda lib: lib.pow(2, lib.tensor([1.0, 2.0])), (None, "tensor([2., 4.])", [])),
    "pow of a number, integers": (lambda lib: lib.pow(2, lib.tensor([1, 2])), (None, "tensor([2, 4])", [])),
    "pow of a float, integers": (lambda lib: lib.pow(2.5, lib.tensor([1, 2])), (None, "tensor([2.5000, 6.2500])", [])),
    "pow of a number, its node": (
        lambda lib: lib.pow(2, lib.tensor([1.0, 2.0], requires_grad=True)),
        (None, "tensor([2., 4.], grad_fn=<PowBackward2>)", []),
    ),
    "pow of two numbers": (
        lambda lib: lib.pow(2, 3),
        (
            "TypeError",
            (
                "pow() received an invalid combination of arguments - got (int, "
                "int), but expected one of:\n"
                " * (Tensor input, Tensor exponent, *, Tensor out = None)\n"
                " * (Number self, Tensor exponent, *, Tensor out = None)\n"
                " * (Tensor input, Number exponent, *, Tensor out = None)\n"
            ),
            [],
        ),
    ),
    "remainder -0.": (lambda lib: lib.remainder(lib.tensor([-2.0, 2.0]), 2), (None, "tensor([-0., 0.])", [])),
    "remainder 3 by -1.5": (lambda lib: lib.remainder(lib.tensor([3.0]), -1.5), (None, "tensor([0.])", [])),
    "remainder by a negative number": (
        lambda lib: lib.remainder(lib.tensor([-3.0, -1.0, 1.0, 3.0, -2.0, 2.0]), -2),
        (None, "tensor([-1., -1., -1., -1., -0.,  0.])", []),
    ),
    "remainder by tensors": (
        lambda lib: lib.remainder(
            lib.tensor([-3.0, -1.0, 1.0, 3.0, -2, 2.0]), lib.tensor([2.0, -2.0, 2.0, -2.0, 2.0, -2.0])
        ),
        (None, "tensor([ 1., -1.,  1., -1., -0.,  0.])", []),
    ),
    "remainder of a number": (
        lambda lib: lib.remainder(-2.0, lib.tensor([2.0, -2.0])),
        (None, "tensor([-0., -0.])", []),
    ),
    "%": (lambda lib: lib.tensor([-2.0, 2.0]) % 2, (None, "tensor([-0., 0.])", [])),
    "remainder_": (lambda lib: lib.tensor([-2.0, 2.0]).remainder_(2), (None, "tensor([-0., 0.])", [])),
    "fmod -0.": (
        lambda lib: lib.fmod(lib.tensor([-3.0, -2, -1, 1, 2, 3]), 2),
        (None, "tensor([-1., -0., -1.,  1.,  0.,  1.])", []),
    ),
    "remainder of integers by a float": (
        lambda lib: lib.remainder(lib.tensor([1, 2, 3, 4, 5]), -1.5),
        (None, "tensor([-0.5000, -1.0000,  0.0000, -0.5000, -1.0000])", []),
    ),
}

BITS_AND_PIECES: dict[str, Case] = {
    "view as int32": (
        lambda lib: lib.tensor([1.0]).view(lib.int32),
        (None, "tensor([1065353216], dtype=tinygrad_edu.int32)", []),
    ),
    "view as int16": (
        lambda lib: lib.tensor([1.0]).view(lib.int16),
        (None, "tensor([    0, 16256], dtype=tinygrad_edu.int16)", []),
    ),
    "view as float64": (
        lambda lib: lib.tensor([1.0, 2.0]).view(lib.float64),
        (None, "tensor([2.0000], dtype=tinygrad_edu.float64)", []),
    ),
    "view as a wider type, odd size": (
        lambda lib: lib.tensor([1.0, 2.0, 3.0]).view(lib.float64),
        (
            "RuntimeError",
            ("self.size(-1) must be divisible by 2 to view Float as Double (different element sizes), but got 3"),
            [],
        ),
    ),
    "view a 0-d tensor as a narrower type": (
        lambda lib: lib.tensor(1.0).view(lib.int16),
        ("RuntimeError", ("self.dim() cannot be 0 to view Float as Short (different element sizes)"), []),
    ),
    "view of a tensor that requires grad": (
        lambda lib: lib.tensor([1.0], requires_grad=True).view(lib.int32),
        (None, "tensor([1065353216], dtype=tinygrad_edu.int32)", []),
    ),
    "view there and back": (
        lambda lib: lib.tensor([-1.0, 2.5]).view(lib.int32).view(lib.float32),
        (None, "tensor([-1.0000,  2.5000])", []),
    ),
    "view uint8 as int8": (
        lambda lib: lib.tensor([1, 255], dtype=lib.uint8).view(lib.int8),
        (None, "tensor([ 1, -1], dtype=tinygrad_edu.int8)", []),
    ),
    "view with strides": (
        lambda lib: lib.ones(2, 4)[:, ::2].view(lib.float16),
        ("RuntimeError", ("self.stride(-1) must be 1 to view Float as Half (different element sizes), but got 2"), []),
    ),
    "view shares memory": (
        lambda lib: (lambda x: (x.view(lib.int32).fill_(1065353216), x))(lib.zeros(2)),
        (None, ("(tensor([1065353216, 1065353216], dtype=tinygrad_edu.int32), tensor([1., 1.]))"), []),
    ),
    "concat": (lambda lib: lib.concat([lib.ones(1), lib.zeros(2)]), (None, "tensor([1., 0., 0.])", [])),
    "concatenate": (
        lambda lib: lib.concatenate([lib.ones(1, 2), lib.zeros(1, 2)], dim=1),
        (None, "tensor([[1., 1., 0., 0.]])", []),
    ),
    "concat, axis": (lambda lib: lib.concat((lib.ones(1), lib.zeros(2)), axis=0), (None, "tensor([1., 0., 0.])", [])),
    "tensor_split into 3": (
        lambda lib: lib.tensor_split(lib.arange(7), 3),
        (None, "(tensor([0, 1, 2]), tensor([3, 4]), tensor([5, 6]))", []),
    ),
    "tensor_split at": (
        lambda lib: lib.tensor_split(lib.arange(7), (1, 6)),
        (None, "(tensor([0]), tensor([1, 2, 3, 4, 5]), tensor([6]))", []),
    ),
    "tensor_split at -2": (
        lambda lib: lib.tensor_split(lib.arange(7), [-2]),
        (None, "(tensor([0, 1, 2, 3, 4]), tensor([5, 6]))", []),
    ),
    "tensor_split, positions out of order": (
        lambda lib: lib.tensor_split(lib.arange(7), [5, 2]),
        (None, ("(tensor([0, 1, 2, 3, 4]), tensor([], dtype=tinygrad_edu.int64), tensor([2, 3, 4, 5, 6]))"), []),
    ),
    "tensor_split past the end": (
        lambda lib: lib.tensor_split(lib.arange(7), [1, 9]),
        (None, ("(tensor([0]), tensor([1, 2, 3, 4, 5, 6]), tensor([], dtype=tinygrad_edu.int64))"), []),
    ),
    "tensor_split along dim 1": (
        lambda lib: lib.tensor_split(lib.arange(14).reshape(2, 7), 3, dim=1),
        (
            None,
            (
                "(tensor([[0, 1, 2],\n"
                "        [7, 8, 9]]), tensor([[ 3,  4],\n"
                "        [10, 11]]), tensor([[ 5,  6],\n"
                "        [12, 13]]))"
            ),
            [],
        ),
    ),
    "tensor_split, nodes": (
        lambda lib: lib.tensor_split(lib.arange(6.0, requires_grad=True).reshape(2, 3), 2, dim=1),
        (
            None,
            (
                "(tensor([[0., 1.],\n"
                "        [3., 4.]], grad_fn=<SliceBackward0>), tensor([[2.],\n"
                "        [5.]], grad_fn=<SliceBackward0>))"
            ),
            [],
        ),
    ),
    "tensor_split by a tensor": (
        lambda lib: lib.arange(7).tensor_split(lib.tensor([2, 4])),
        (None, "(tensor([0, 1]), tensor([2, 3]), tensor([4, 5, 6]))", []),
    ),
    "tensor_split of a 0-d tensor": (
        lambda lib: lib.tensor_split(lib.tensor(1.0), 2),
        ("RuntimeError", ("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"), []),
    ),
    "tensor_split into 0": (
        lambda lib: lib.tensor_split(lib.arange(3), 0),
        ("RuntimeError", "number of sections must be larger than 0, got 0", []),
    ),
    "tensor_split into more than there are": (
        lambda lib: lib.arange(3).tensor_split(5),
        (
            None,
            (
                "(tensor([0]), tensor([1]), tensor([2]), tensor([], "
                "dtype=tinygrad_edu.int64), tensor([], dtype=tinygrad_edu.int64))"
            ),
            [],
        ),
    ),
    "atleast_1d": (lambda lib: lib.atleast_1d(lib.tensor(1.5)), (None, "tensor([1.5000])", [])),
    "atleast_1d, several": (
        lambda lib: lib.atleast_1d(lib.tensor(1.5), lib.tensor([2.0])),
        (None, "(tensor([1.5000]), tensor([2.]))", []),
    ),
    "atleast_1d, a tuple": (
        lambda lib: lib.atleast_1d((lib.tensor(1.5), lib.tensor([2.0]))),
        (None, "(tensor([1.5000]), tensor([2.]))", []),
    ),
    "atleast_2d": (lambda lib: lib.atleast_2d(lib.arange(2.0)), (None, "tensor([[0., 1.]])", [])),
    "atleast_3d": (
        lambda lib: lib.atleast_3d(lib.arange(4).view(2, 2)),
        (None, "tensor([[[0],\n         [1]],\n\n        [[2],\n         [3]]])", []),
    ),
    "atleast_3d of 1-d": (
        lambda lib: lib.atleast_3d(lib.arange(2.0)).shape,
        (None, "tinygrad_edu.Size([1, 2, 1])", []),
    ),
    "atleast_3d of 0-d, node": (
        lambda lib: lib.atleast_3d(lib.tensor(0.5, requires_grad=True)),
        (None, "tensor([[[0.5000]]], grad_fn=<ViewBackward0>)", []),
    ),
    "atleast_2d, node": (
        lambda lib: lib.atleast_2d(lib.tensor([0.5], requires_grad=True)),
        (None, "tensor([[0.5000]], grad_fn=<UnsqueezeBackward0>)", []),
    ),
    "atleast_3d of 3-d is itself": (
        lambda lib: (lambda x: lib.atleast_3d(x) is x)(lib.ones(1, 1, 1)),
        (None, "True", []),
    ),
    "take_along_dim, argmax": (
        lambda lib: (lambda t: lib.take_along_dim(t, t.argmax(1, keepdim=True), 1))(
            lib.tensor([[10, 30, 20], [60, 40, 50]])
        ),
        (None, "tensor([[30],\n        [60]])", []),
    ),
    "take_along_dim, flat": (
        lambda lib: (lambda t: lib.take_along_dim(t, t.argsort()))(lib.tensor([[10, 30, 20], [60, 40, 50]])),
        (None, "tensor([10, 20, 30, 30, 20, 10])", []),
    ),
    "take_along_dim, node": (
        lambda lib: lib.take_along_dim(
            lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True), lib.tensor([[0], [2]]), 1
        ),
        (None, "tensor([[1.],\n        [6.]], grad_fn=<GatherBackward0>)", []),
    ),
    "take_along_dim, flat node": (
        lambda lib: lib.take_along_dim(
            lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True), lib.tensor([0, 5])
        ),
        (None, "tensor([1., 6.], grad_fn=<GatherBackward0>)", []),
    ),
    "take_along_dim broadcasts the input": (
        lambda lib: lib.take_along_dim(lib.tensor([[1.0, 2.0, 3.0]]), lib.tensor([[0], [2]]), 1),
        (None, "tensor([[1.],\n        [3.]])", []),
    ),
    "take_along_dim broadcasts the indices": (
        lambda lib: lib.take_along_dim(lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), lib.tensor([[0, 2]]), 1),
        (None, "tensor([[1., 3.],\n        [4., 6.]])", []),
    ),
    "take_along_dim, dims differ": (
        lambda lib: lib.take_along_dim(lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), lib.tensor([0, 2]), 1),
        (
            "RuntimeError",
            (
                "tinygrad_edu.take_along_dim(): input and indices should have "
                "the same number of dimensions, but got 2 dimensions for input, "
                "and 1 dimensions for indices"
            ),
            [],
        ),
    ),
    "take_along_dim, int32 indices": (
        lambda lib: lib.take_along_dim(lib.tensor([[1.0, 2.0, 3.0]]), lib.tensor([[0, 2]], dtype=lib.int32), 1),
        ("RuntimeError", ("tinygrad_edu.take_along_dim(): dtype of indices should be Long but got Int"), []),
    ),
    "where(condition)": (lambda lib: lib.where(lib.tensor([1, 0, 1])), (None, "(tensor([0, 2]),)", [])),
    "where(condition), 2-d": (
        lambda lib: lib.where(lib.tensor([[True, False], [False, True]])),
        (None, "(tensor([0, 1]), tensor([0, 1]))", []),
    ),
    "where(condition), 0-d": (lambda lib: lib.where(lib.tensor(1.0)), (None, "(tensor([0]),)", [])),
    "bitwise_not": (
        lambda lib: lib.bitwise_not(lib.tensor([-1, -2, 3], dtype=lib.int8)),
        (None, "tensor([ 0,  1, -4], dtype=tinygrad_edu.int8)", []),
    ),
    "bitwise_not of floats": (
        lambda lib: lib.bitwise_not(lib.tensor([1.0])),
        ("NotImplementedError", "\"bitwise_not_cpu\" not implemented for 'Float'", []),
    ),
    "bitwise_not of bools": (
        lambda lib: lib.bitwise_not(lib.tensor([True, False])),
        (None, "tensor([False,  True])", []),
    ),
    "bitwise_not_": (
        lambda lib: (lambda x: (x.bitwise_not_(), x))(lib.tensor([2, 3])),
        (None, "(tensor([-3, -4]), tensor([-3, -4]))", []),
    ),
    "bitwise_not of uint8": (
        lambda lib: lib.tensor([0, 255], dtype=lib.uint8).bitwise_not(),
        (None, "tensor([255,   0], dtype=tinygrad_edu.uint8)", []),
    ),
    "x[::-1]": (lambda lib: lib.arange(3)[::-1], ("ValueError", "step must be greater than zero", [])),
    "x[:, ::-2]": (lambda lib: lib.ones(2, 3)[:, ::-2], ("ValueError", "step must be greater than zero", [])),
    "x[::0]": (lambda lib: lib.arange(3)[::0], ("ValueError", "slice step cannot be zero", [])),
    "x[[0, 1], ::-1]": (lambda lib: lib.ones(2, 3)[[0, 1], ::-1], ("ValueError", "step must be greater than zero", [])),
}

INDEX_WRITES: dict[str, Case] = {
    "index_copy_, docstring": (
        lambda lib: lib.zeros(5, 3).index_copy_(
            0, lib.tensor([0, 4, 2]), lib.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=lib.float)
        ),
        (
            None,
            (
                "tensor([[1., 2., 3.],\n"
                "        [0., 0., 0.],\n"
                "        [7., 8., 9.],\n"
                "        [0., 0., 0.],\n"
                "        [4., 5., 6.]])"
            ),
            [],
        ),
    ),
    "index_copy along dim 1": (
        lambda lib: lib.zeros(5, 3).index_copy(1, lib.tensor([2, 0]), lib.ones(5, 2)),
        (
            None,
            (
                "tensor([[1., 0., 1.],\n"
                "        [1., 0., 1.],\n"
                "        [1., 0., 1.],\n"
                "        [1., 0., 1.],\n"
                "        [1., 0., 1.]])"
            ),
            [],
        ),
    ),
    "torch.index_copy": (
        lambda lib: lib.index_copy(lib.zeros(3), 0, lib.tensor([2]), lib.tensor([5.0])),
        (None, "tensor([0., 0., 5.])", []),
    ),
    "index_copy, dtypes differ": (
        lambda lib: lib.zeros(3).index_copy(0, lib.tensor([2]), lib.tensor([5], dtype=lib.int64)),
        (
            "RuntimeError",
            ("index_copy_(): self and source expected to have the same dtype, but got (self) Float and (source) Long"),
            [],
        ),
    ),
    "index_copy, counts differ": (
        lambda lib: lib.zeros(3).index_copy(0, lib.tensor([2, 1]), lib.tensor([5.0])),
        ("IndexError", ("index_copy_(): Number of indices (2) should be equal to source.size(dim) (1)"), []),
    ),
    "index_copy, out of range": (
        lambda lib: lib.zeros(3).index_copy(0, lib.tensor([3]), lib.tensor([5.0])),
        ("IndexError", "index_copy_(): index 3 is out of bounds for dimension 0 with size 3", []),
    ),
    "index_copy, float index": (
        lambda lib: lib.zeros(3).index_copy(0, lib.tensor([2.0]), lib.tensor([5.0])),
        ("RuntimeError", "index_copy_(): Expected a long tensor for index, but got Float", []),
    ),
    "index_copy, int32 index": (
        lambda lib: lib.zeros(3).index_copy(0, lib.tensor([2], dtype=lib.int32), lib.tensor([5.0])),
        ("RuntimeError", "index_copy_(): Expected a long tensor for index, but got Int", []),
    ),
    "index_copy, node": (
        lambda lib: lib.zeros(3, requires_grad=True).index_copy(
            0, lib.tensor([2]), lib.tensor([5.0], requires_grad=True)
        ),
        (None, "tensor([0., 0., 5.], grad_fn=<IndexCopyBackward0>)", []),
    ),
    "index_copy, gradients": (
        lambda lib: (
            lambda x, s: (
                x.index_copy(0, lib.tensor([2, 0]), s).mul(lib.arange(1.0, 4.0)).sum().backward(),
                x.grad,
                s.grad,
            )
        )(lib.zeros(3, requires_grad=True), lib.ones(2, requires_grad=True)),
        (None, "(None, tensor([0., 2., 0.]), tensor([3., 1.]))", []),
    ),
    "index_put, accumulate": (
        lambda lib: lib.zeros(3).index_put((lib.tensor([0, 0]),), lib.tensor([1.0, 2.0]), accumulate=True),
        (None, "tensor([3., 0., 0.])", []),
    ),
    "index_put, one value": (
        lambda lib: lib.zeros(3).index_put((lib.tensor([0, 2]),), lib.tensor(1.0)),
        (None, "tensor([1., 0., 1.])", []),
    ),
    "index_put, two index tensors": (
        lambda lib: lib.zeros(2, 3).index_put((lib.tensor([0, 1]), lib.tensor([2, 0])), lib.tensor([7.0, 8.0])),
        (None, "tensor([[0., 0., 7.],\n        [8., 0., 0.]])", []),
    ),
    "index_put, a mask": (
        lambda lib: lib.zeros(2, 3).index_put((lib.tensor([True, False]),), lib.tensor([7.0, 8.0, 9.0])),
        (None, "tensor([[7., 8., 9.],\n        [0., 0., 0.]])", []),
    ),
    "index_put_": (
        lambda lib: lib.zeros(2, 3).index_put_((lib.tensor([1]),), lib.tensor(4.0)),
        (None, "tensor([[0., 0., 0.],\n        [4., 4., 4.]])", []),
    ),
    "torch.index_put_, accumulate": (
        lambda lib: lib.index_put_(lib.zeros(3), (lib.tensor([1]),), lib.tensor([3.0]), True),
        (None, "tensor([0., 3., 0.])", []),
    ),
    "index_put, dtypes differ": (
        lambda lib: lib.zeros(3).index_put((lib.tensor([1]),), lib.tensor([3])),
        (
            "RuntimeError",
            (
                "Index put requires the source and destination dtypes match, got "
                "Float for the destination and Long for the source."
            ),
            [],
        ),
    ),
    "index_put, shapes differ": (
        lambda lib: lib.zeros(3).index_put((lib.tensor([1]),), lib.tensor([3.0, 4.0])),
        (
            "RuntimeError",
            ("shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result of shape [1]"),
            [],
        ),
    ),
    "index_put, a list of indices": (
        lambda lib: lib.zeros(3).index_put([lib.tensor([1])], lib.tensor([3.0])),
        (None, "tensor([0., 3., 0.])", []),
    ),
    "index_put, node": (
        lambda lib: lib.zeros(3, requires_grad=True).index_put((lib.tensor([1]),), lib.tensor([3.0])),
        (None, "tensor([0., 3., 0.], grad_fn=<IndexPutBackward0>)", []),
    ),
    "index_put, accumulated gradients": (
        lambda lib: (
            lambda x, v: (
                x.index_put((lib.tensor([0, 0, 2]),), v, accumulate=True).mul(lib.arange(1.0, 4.0)).sum().backward(),
                x.grad,
                v.grad,
            )
        )(lib.zeros(3, requires_grad=True), lib.ones(3, requires_grad=True)),
        (None, "(None, tensor([1., 2., 3.]), tensor([1., 1., 3.]))", []),
    ),
    "index_put, gradients of a broadcast value": (
        lambda lib: (
            lambda x, v: (
                x.index_put((lib.tensor([0, 2]),), v).mul(lib.arange(1.0, 4.0)).sum().backward(),
                x.grad,
                v.grad,
            )
        )(lib.zeros(3, requires_grad=True), lib.ones((), requires_grad=True)),
        (None, "(None, tensor([0., 2., 0.]), tensor(4.))", []),
    ),
}

XLOGY_LOGIT: dict[str, Case] = {
    "xlogy": (
        lambda lib: lib.xlogy(lib.tensor([0.0, 2.0]), lib.tensor([0.0, 3.0])),
        (None, "tensor([0.0000, 2.1972])", []),
    ),
    "xlogy, docstring": (
        lambda lib: lib.xlogy(
            lib.zeros(
                5,
            ),
            lib.tensor([-1, 0, 1, float("inf"), float("nan")]),
        ),
        (None, "tensor([0., 0., 0., 0., nan])", []),
    ),
    "xlogy, integers": (
        lambda lib: lib.xlogy(lib.tensor([1, 2, 3]), lib.tensor([3, 2, 1])),
        (None, "tensor([1.0986, 1.3863, 0.0000])", []),
    ),
    "xlogy, number other": (
        lambda lib: lib.xlogy(lib.tensor([1, 2, 3]), 4),
        (None, "tensor([1.3863, 2.7726, 4.1589])", []),
    ),
    "xlogy, number input": (
        lambda lib: lib.xlogy(2, lib.tensor([3, 2, 1])),
        (None, "tensor([2.1972, 1.3863, 0.0000])", []),
    ),
    "xlogy, nodes": (
        lambda lib: (
            lib.xlogy(lib.tensor([1.0, 2.0], requires_grad=True), 3),
            lib.xlogy(2, lib.tensor([1.0, 2.0], requires_grad=True)),
            lib.xlogy(lib.tensor([0.0, 2.0], requires_grad=True), lib.tensor([3.0, 4.0])),
        ),
        (
            None,
            (
                "(tensor([1.0986, 2.1972], grad_fn=<XlogyBackward2>), "
                "tensor([0.0000, 1.3863], grad_fn=<XlogyBackward1>), "
                "tensor([0.0000, 2.7726], grad_fn=<XlogyBackward0>))"
            ),
            [],
        ),
    ),
    "xlogy_": (
        lambda lib: lib.tensor([0.0, 2.0]).xlogy_(lib.tensor([3.0, 4.0])),
        (None, "tensor([0.0000, 2.7726])", []),
    ),
    "xlogy, shapes": (
        lambda lib: lib.xlogy(lib.tensor([0.0, 2.0]), lib.tensor([3.0, 4.0, 5.0])),
        (
            "RuntimeError",
            ("The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
            [],
        ),
    ),
    "xlogy, gradients": (
        lambda lib: (lambda x, y: (lib.xlogy(x, y).sum().backward(), x.grad, y.grad))(
            lib.tensor([0.0, 2.0, 0.0, 1.0, 0.0], requires_grad=True),
            lib.tensor([3.0, -1.0, 0.0, float("nan"), float("nan")], requires_grad=True),
        ),
        (None, ("(None, tensor([1.0986,    nan, 0.0000,    nan,    nan]), tensor([ 0., -2., nan, nan, nan]))"), []),
    ),
    "logit": (lambda lib: lib.logit(lib.tensor([0.25])), (None, "tensor([-1.0986])", [])),
    "logit, docstring": (
        lambda lib: lib.logit(lib.tensor([0.2796, 0.9331, 0.6486, 0.1523, 0.6516]), eps=1e-6),
        (None, "tensor([-0.9464,  2.6353,  0.6129, -1.7167,  0.6261])", []),
    ),
    "logit outside [0, 1]": (
        lambda lib: lib.logit(lib.tensor([0.0, 1.0, 0.5, 1.5, -1.0])),
        (None, "tensor([-inf, inf, 0., nan, nan])", []),
    ),
    "logit, eps": (
        lambda lib: lib.logit(lib.tensor([0.0, 1.0, 0.5]), eps=0.1),
        (None, "tensor([-2.1972,  2.1972,  0.0000])", []),
    ),
    "logit of integers": (lambda lib: lib.logit(lib.tensor([1, 2])), (None, "tensor([inf, nan])", [])),
    "logit_": (lambda lib: lib.tensor([0.25, 0.5]).logit_(), (None, "tensor([-1.0986,  0.0000])", [])),
    "logit, node": (
        lambda lib: lib.logit(lib.tensor([0.25], requires_grad=True)),
        (None, "tensor([-1.0986], grad_fn=<LogitBackward0>)", []),
    ),
    "logit, gradient": (
        lambda lib: (lambda x: (lib.logit(x).sum().backward(), x.grad))(
            lib.tensor([0.25, 0.5, 1.5, -0.5], requires_grad=True)
        ),
        (None, "(None, tensor([5.3333, 4.0000,    nan,    nan]))", []),
    ),
    "logit, gradient with eps": (
        lambda lib: (lambda x: (lib.logit(x, 0.3).sum().backward(), x.grad))(
            lib.tensor([0.25, 0.5, 0.8], requires_grad=True)
        ),
        (None, "(None, tensor([0., 4., 0.]))", []),
    ),
}

NAMED_PAIRS: dict[str, Case] = {
    "cummax": (
        lambda lib: lib.cummax(lib.tensor([1.0, 3.0, 2.0]), 0),
        (None, ("tinygrad_edu.return_types.cummax(\nvalues=tensor([1., 3., 3.]),\nindices=tensor([0, 1, 1]))"), []),
    ),
    "cummin": (
        lambda lib: lib.cummin(lib.tensor([1.0, 3.0, 2.0]), 0),
        (None, ("tinygrad_edu.return_types.cummin(\nvalues=tensor([1., 1., 1.]),\nindices=tensor([0, 0, 0]))"), []),
    ),
    "cummax, ties take the latest": (
        lambda lib: lib.cummax(lib.tensor([[1.0, 3.0, 3.0], [2.0, 1.0, 4.0]]), dim=1),
        (
            None,
            (
                "tinygrad_edu.return_types.cummax(\n"
                "values=tensor([[1., 3., 3.],\n"
                "        [2., 2., 4.]]),\n"
                "indices=tensor([[0, 1, 2],\n"
                "        [0, 0, 2]]))"
            ),
            [],
        ),
    ),
    "cummax, nan": (
        lambda lib: lib.cummax(lib.tensor([1.0, float("nan"), 3.0, float("nan")]), 0),
        (
            None,
            ("tinygrad_edu.return_types.cummax(\nvalues=tensor([1., nan, nan, nan]),\nindices=tensor([0, 1, 1, 3]))"),
            [],
        ),
    ),
    "cummin, integers": (
        lambda lib: lib.cummin(lib.tensor([3, 1, 1, 2]), 0),
        (None, ("tinygrad_edu.return_types.cummin(\nvalues=tensor([3, 1, 1, 1]),\nindices=tensor([0, 1, 2, 2]))"), []),
    ),
    "cummax, 0-d": (
        lambda lib: lib.cummax(lib.tensor(2.0), 0),
        (None, ("tinygrad_edu.return_types.cummax(\nvalues=tensor(2.),\nindices=tensor(0))"), []),
    ),
    "cummax, empty": (
        lambda lib: lib.cummax(lib.tensor([]), 0),
        (
            None,
            ("tinygrad_edu.return_types.cummax(\nvalues=tensor([]),\nindices=tensor([], dtype=tinygrad_edu.int64))"),
            [],
        ),
    ),
    "cummax, node": (
        lambda lib: lib.tensor([1.0, 3.0, 2.0], requires_grad=True).cummax(0),
        (
            None,
            (
                "tinygrad_edu.return_types.cummax(\n"
                "values=tensor([1., 3., 3.], grad_fn=<CummaxBackward0>),\n"
                "indices=tensor([0, 1, 1]))"
            ),
            [],
        ),
    ),
    "cummin, node": (
        lambda lib: lib.tensor([1.0, 3.0, 2.0], requires_grad=True).cummin(dim=0),
        (
            None,
            (
                "tinygrad_edu.return_types.cummin(\n"
                "values=tensor([1., 1., 1.], grad_fn=<CumminBackward0>),\n"
                "indices=tensor([0, 0, 0]))"
            ),
            [],
        ),
    ),
    "cummax, gradient": (
        lambda lib: (lambda x: (x.cummax(0).values.mul(lib.arange(1.0, 6.0)).sum().backward(), x.grad))(
            lib.tensor([1.0, 3.0, 2.0, 3.0, 5.0], requires_grad=True)
        ),
        (None, "(None, tensor([1., 5., 0., 4., 5.]))", []),
    ),
    "kthvalue, docstring": (
        lambda lib: lib.kthvalue(lib.arange(1.0, 6.0), 4),
        (None, ("tinygrad_edu.return_types.kthvalue(\nvalues=tensor(4.),\nindices=tensor(3))"), []),
    ),
    "kthvalue, docstring 2": (
        lambda lib: lib.kthvalue(lib.arange(1.0, 7.0).resize_(2, 3), 2, 0, True),
        (
            None,
            ("tinygrad_edu.return_types.kthvalue(\nvalues=tensor([[4., 5., 6.]]),\nindices=tensor([[1, 1, 1]]))"),
            [],
        ),
    ),
    "kthvalue, ties": (
        lambda lib: lib.kthvalue(lib.tensor([3.0, 1.0, 2.0, 1.0, 3.0]), 2),
        (None, ("tinygrad_edu.return_types.kthvalue(\nvalues=tensor(1.),\nindices=tensor(3))"), []),
    ),
    "kthvalue, k too large": (
        lambda lib: lib.kthvalue(lib.tensor([3.0, 1.0, 2.0, 1.0, 3.0]), 6),
        ("RuntimeError", "kthvalue(): selected number k out of range for dimension 0", []),
    ),
    "kthvalue, k = 0": (
        lambda lib: lib.kthvalue(lib.tensor([3.0, 1.0, 2.0, 1.0, 3.0]), 0),
        ("RuntimeError", "kthvalue(): selected number k out of range for dimension 0", []),
    ),
    "kthvalue, 0-d": (
        lambda lib: lib.kthvalue(lib.tensor(3.0), 1),
        (None, ("tinygrad_edu.return_types.kthvalue(\nvalues=tensor(3.),\nindices=tensor(0))"), []),
    ),
    "kthvalue, node": (
        lambda lib: lib.kthvalue(lib.tensor([[1.0, 2.0], [0.0, 3.0]], requires_grad=True), 1, 0),
        (
            None,
            (
                "tinygrad_edu.return_types.kthvalue(\n"
                "values=tensor([0., 2.], grad_fn=<KthvalueBackward0>),\n"
                "indices=tensor([1, 0]))"
            ),
            [],
        ),
    ),
    "kthvalue, gradient": (
        lambda lib: (lambda x: (x.kthvalue(2).values.sum().backward(), x.grad))(
            lib.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], requires_grad=True)
        ),
        (None, "(None, tensor([[0., 0., 1.],\n        [0., 0., 1.]]))", []),
    ),
    "mode": (
        lambda lib: lib.mode(lib.tensor([3.0, 1.0, 2.0, 1.0, 3.0])),
        (None, ("tinygrad_edu.return_types.mode(\nvalues=tensor(1.),\nindices=tensor(3))"), []),
    ),
    "mode, integers": (
        lambda lib: lib.mode(lib.tensor([2, 2, 1, 1, 3])),
        (None, ("tinygrad_edu.return_types.mode(\nvalues=tensor(1),\nindices=tensor(3))"), []),
    ),
    "mode along 0": (
        lambda lib: lib.mode(lib.tensor([[1.0, 2.0], [1.0, 3.0], [2.0, 2.0]]), 0),
        (None, ("tinygrad_edu.return_types.mode(\nvalues=tensor([1., 2.]),\nindices=tensor([1, 2]))"), []),
    ),
    "mode, keepdim": (
        lambda lib: lib.mode(lib.tensor([[1.0, 2.0], [1.0, 3.0], [2.0, 2.0]]), 1, keepdim=True),
        (
            None,
            (
                "tinygrad_edu.return_types.mode(\n"
                "values=tensor([[1.],\n"
                "        [1.],\n"
                "        [2.]]),\n"
                "indices=tensor([[0],\n"
                "        [0],\n"
                "        [1]]))"
            ),
            [],
        ),
    ),
    "mode, 0-d": (
        lambda lib: lib.mode(lib.tensor(3.0)),
        (None, ("tinygrad_edu.return_types.mode(\nvalues=tensor(3.),\nindices=tensor(0))"), []),
    ),
    "mode, empty": (
        lambda lib: lib.mode(lib.tensor([])),
        ("IndexError", "mode(): Expected reduction dim 0 to have non-zero size.", []),
    ),
    "mode, gradient": (
        lambda lib: (lambda x: (x.mode().values.backward(), x.grad))(lib.tensor([1.0, 1.0, 2.0], requires_grad=True)),
        (None, "(None, tensor([0., 1., 0.]))", []),
    ),
}

COUNTS_AND_NORMS: dict[str, Case] = {
    "bincount": (lambda lib: lib.bincount(lib.tensor([4, 3, 6, 3, 4])), (None, "tensor([0, 0, 0, 2, 2, 0, 1])", [])),
    "bincount, minlength": (
        lambda lib: lib.bincount(lib.tensor([0, 3, 1, 1]), minlength=6),
        (None, "tensor([1, 2, 0, 1, 0, 0])", []),
    ),
    "bincount, weights": (
        lambda lib: lib.bincount(lib.tensor([0, 1, 1]), weights=lib.tensor([0.5, 1.0, 2.0])),
        (None, "tensor([0.5000, 3.0000])", []),
    ),
    "bincount, integer weights": (
        lambda lib: lib.bincount(lib.tensor([0, 1, 1]), weights=lib.tensor([1, 2, 3])),
        (None, "tensor([1., 5.], dtype=tinygrad_edu.float64)", []),
    ),
    "bincount, negative": (
        lambda lib: lib.bincount(lib.tensor([-1])),
        ("RuntimeError", "bincount only supports 1-d non-negative integral inputs.", []),
    ),
    "bincount, floats": (
        lambda lib: lib.bincount(lib.tensor([1.0])),
        ("NotImplementedError", "\"bincount_cpu\" not implemented for 'Float'", []),
    ),
    "bincount, 2-d": (
        lambda lib: lib.bincount(lib.tensor([[1]])),
        ("RuntimeError", "bincount only supports 1-d non-negative integral inputs.", []),
    ),
    "bincount, empty": (
        lambda lib: lib.bincount(lib.tensor([], dtype=lib.long)),
        (None, "tensor([], dtype=tinygrad_edu.int64)", []),
    ),
    "histc, docstring": (
        lambda lib: lib.histc(lib.tensor([1.0, 2, 1]), bins=4, min=0, max=3),
        (None, "tensor([0., 2., 1., 0.])", []),
    ),
    "histc, data's range": (
        lambda lib: lib.histc(lib.tensor([1.0, 2, 1, 5]), bins=5),
        (None, "tensor([2., 1., 0., 0., 1.])", []),
    ),
    "histc of integers": (
        lambda lib: lib.histc(lib.tensor([1, 2])),
        ("NotImplementedError", "\"histogram_cpu\" not implemented for 'Long'", []),
    ),
    "histc, no bins": (
        lambda lib: lib.histc(lib.tensor([1.0, 2]), bins=0),
        ("RuntimeError", ("tinygrad_edu.histogram(): bins must be > 0, but got 0 for dimension 0"), []),
    ),
    "histc, min above max": (
        lambda lib: lib.histc(lib.tensor([1.0, 2]), min=3, max=1),
        ("RuntimeError", "tinygrad_edu.histc: max must be larger than min", []),
    ),
    "histc, one value": (lambda lib: lib.histc(lib.tensor([1.0, 1.0]), bins=3), (None, "tensor([0., 2., 0.])", [])),
    "histc, edges": (
        lambda lib: lib.histc(lib.tensor([0.1, 0.2, 0.3, 0.7, 1.0]), bins=10, min=0, max=1),
        (None, "tensor([0., 1., 1., 1., 0., 0., 0., 1., 0., 1.])", []),
    ),
    "histc, float64": (
        lambda lib: lib.histc(lib.tensor([1.0, 2], dtype=lib.float64), bins=3),
        (None, "tensor([1., 0., 1.], dtype=tinygrad_edu.float64)", []),
    ),
    "histc, outside and nan": (
        lambda lib: lib.histc(lib.tensor([-5.0, 0.3, float("nan"), 7.0, 1.0]), bins=5, min=0, max=1),
        (None, "tensor([0., 1., 0., 0., 1.])", []),
    ),
    "histc, many": (
        lambda lib: lib.histc(lib.linspace(-3, 3, 1001), bins=13, min=-2.5, max=2.9),
        (None, ("tensor([69., 69., 70., 69., 69., 69., 69., 70., 69., 69., 69., 70., 69.])"), []),
    ),
    "norm inf": (lambda lib: lib.norm(lib.tensor([1.0, -3.0]), float("inf")), (None, "tensor(3.)", [])),
    "norm inf, docstring": (
        lambda lib: lib.norm((lib.arange(9, dtype=lib.float) - 4).reshape(3, 3), float("inf")),
        (None, "tensor(4.)", []),
    ),
    "norm, docstring": (
        lambda lib: lib.norm(lib.arange(8, dtype=lib.float).reshape(2, 2, 2), dim=(1, 2)),
        (None, "tensor([ 3.7417, 11.2250])", []),
    ),
    "norm 0": (lambda lib: lib.norm(lib.tensor([[1.0, 0.0, 3.0], [4.0, 5.0, 6.0]]), 0), (None, "tensor(5.)", [])),
    "norm -inf": (
        lambda lib: lib.norm(lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), -float("inf")),
        (None, "tensor(1.)", []),
    ),
    "norm inf along dim, node": (
        lambda lib: lib.norm(lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True), float("inf"), dim=1),
        (None, "tensor([3., 6.], grad_fn=<LinalgVectorNormBackward0>)", []),
    ),
    "norm inf, gradient shared by ties": (
        lambda lib: (lambda x: (lib.norm(x, float("inf")).backward(), x.grad))(
            lib.tensor([1.0, -3.0, 3.0, 2.0], requires_grad=True)
        ),
        (None, "(None, tensor([ 0.0000, -0.5000,  0.5000,  0.0000]))", []),
    ),
    "norm 0, no gradient": (
        lambda lib: (lambda x: (lib.norm(x, 0).backward(), x.grad))(
            lib.tensor([1.0, -3.0, 0.0, 2.0], requires_grad=True)
        ),
        (None, "(None, None)", []),
    ),
    "norm inf along dim, gradient": (
        lambda lib: (lambda x: (lib.norm(x, float("inf"), dim=1).sum().backward(), x.grad))(
            lib.tensor([[1.0, -3.0], [2.0, 2.0]], requires_grad=True)
        ),
        (None, "(None, tensor([[ 0.0000, -1.0000],\n        [ 0.5000,  0.5000]]))", []),
    ),
}

RANDOM: dict[str, Case] = {
    "random_": (
        lambda lib: (lib.manual_seed(0), lib.empty(3).random_())[1],
        (None, "tensor([ 8325664., 12888472.,  1484222.])", []),
    ),
    "random_, float64": (
        lambda lib: (lib.manual_seed(0), lib.empty(4, dtype=lib.float64).random_())[1],
        (None, ("tensor([8.7375e+15, 6.3755e+15, 4.1378e+15, 8.2934e+15], dtype=tinygrad_edu.float64)"), []),
    ),
    "random_, int64": (
        lambda lib: (lib.manual_seed(0), lib.empty(4, dtype=lib.int64).random_())[1],
        (
            None,
            ("tensor([ 900450186894289455, 3969543146641149120, 1895649597198586619,\n         827948490035658087])"),
            [],
        ),
    ),
    "random_, int32": (
        lambda lib: (lib.manual_seed(0), lib.empty(4, dtype=lib.int32).random_())[1],
        (None, ("tensor([ 209652396,  398764591,  924231285, 1478610112], dtype=tinygrad_edu.int32)"), []),
    ),
    "random_, int8": (
        lambda lib: (lib.manual_seed(0), lib.empty(4, dtype=lib.int8).random_())[1],
        (None, "tensor([ 44,  47, 117,  64], dtype=tinygrad_edu.int8)", []),
    ),
    "random_, uint8": (
        lambda lib: (lib.manual_seed(0), lib.empty(4, dtype=lib.uint8).random_())[1],
        (None, "tensor([172,  47, 117, 192], dtype=tinygrad_edu.uint8)", []),
    ),
    "random_, bool": (
        lambda lib: (lib.manual_seed(0), lib.empty(4, dtype=lib.bool).random_())[1],
        (None, "tensor([False,  True,  True, False])", []),
    ),
    "random_, float16": (
        lambda lib: (lib.manual_seed(0), lib.empty(4, dtype=lib.float16).random_())[1],
        (None, "tensor([1277., 1017., 1661.,  999.], dtype=tinygrad_edu.float16)", []),
    ),
    "random_(to), random_(from, to)": (
        lambda lib: (
            lib.manual_seed(0),
            lib.empty(4).random_(10),
            lib.empty(4).random_(3, 10),
            lib.empty(4, dtype=lib.int64).random_(-5, 5),
        )[1:],
        (None, ("(tensor([4., 9., 3., 0.]), tensor([4., 5., 9., 6.]), tensor([ 2, -2, -4,  1]))"), []),
    ),
    "random_, a range of 2**32 or more": (
        lambda lib: (lib.manual_seed(0), lib.empty(2, dtype=lib.int64).random_(-(2**40), 2**40))[1],
        (None, "tensor([-358231004625, -593374360384])", []),
    ),
    "random_, memory order": (
        lambda lib: (lib.manual_seed(0), lib.empty(2, 3).t().random_(100))[1],
        (None, "tensor([[44., 60.],\n        [39., 63.],\n        [33., 79.]])", []),
    ),
    "random_(from, None)": (
        lambda lib: (lib.manual_seed(0), lib.empty(2, dtype=lib.int8).random_(-3, None))[1],
        (None, "tensor([117,  57], dtype=tinygrad_edu.int8)", []),
    ),
    "random_(to=)": (lambda lib: (lib.manual_seed(0), lib.empty(2).random_(to=4))[1], (None, "tensor([0., 3.])", [])),
    "random_, from >= to": (
        lambda lib: lib.empty(2).random_(5, 3),
        ("RuntimeError", "random_ expects 'from' to be less than 'to', but got from=5 >= to=3", []),
    ),
    "random_(0)": (
        lambda lib: lib.empty(2).random_(0),
        ("RuntimeError", "random_ expects 'from' to be less than 'to', but got from=0 >= to=0", []),
    ),
    "random_, to out of bounds": (
        lambda lib: lib.empty(2, dtype=lib.uint8).random_(300),
        ("RuntimeError", "to - 1 is out of bounds for unsigned char", []),
    ),
    "random_, from out of bounds": (
        lambda lib: lib.empty(2, dtype=lib.uint8).random_(-1, 3),
        ("RuntimeError", "from is out of bounds for unsigned char", []),
    ),
    "random_, a leaf": (
        lambda lib: lib.ones(2, requires_grad=True).random_(),
        ("RuntimeError", ("a leaf Variable that requires grad is being used in an in-place operation."), []),
    ),
    "random_, nodes": (
        lambda lib: (
            lib.manual_seed(0),
            (lib.ones(2, requires_grad=True) * 1).random_(),
            (lib.ones(2, requires_grad=True) * 1).random_(3),
            (lib.ones(2, requires_grad=True) * 1).random_(1, 3),
        )[1:],
        (
            None,
            (
                "(tensor([ 8325664., 12888472.], grad_fn=<RandomBackward2>), "
                "tensor([2., 0.], grad_fn=<RandomBackward1>), tensor([2., 2.], "
                "grad_fn=<RandomBackward0>))"
            ),
            [],
        ),
    ),
    "exponential_": (
        lambda lib: (lib.manual_seed(0), lib.empty(6).exponential_())[1],
        (None, "tensor([3.5083, 1.2304, 0.6150, 2.5351, 1.0357, 1.5661])", []),
    ),
    "exponential_, float64": (
        lambda lib: (lib.manual_seed(0), lib.empty(2, 3, dtype=lib.float64).exponential_(2.5))[1],
        (
            None,
            ("tensor([[1.4033, 0.4922, 0.2460],\n        [1.0140, 0.4143, 0.6265]], dtype=tinygrad_edu.float64)"),
            [],
        ),
    ),
    "multinomial": (
        lambda lib: (lib.manual_seed(0), lib.multinomial(lib.tensor([1.0, 2.0, 3.0]), 2))[1],
        (None, "tensor([2, 1])", []),
    ),
    "multinomial, one sample": (
        lambda lib: (lib.manual_seed(0), lib.multinomial(lib.tensor([1.0, 10.0, 3.0, 1.0]), 1))[1],
        (None, "tensor([1])", []),
    ),
    "multinomial, replacement": (
        lambda lib: (lib.manual_seed(0), lib.multinomial(lib.tensor([1.0, 10.0, 3.0, 1.0]), 4, replacement=True))[1],
        (None, "tensor([3, 1, 1, 2])", []),
    ),
    "multinomial, rows": (
        lambda lib: (lib.manual_seed(3), lib.multinomial(lib.tensor([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]]), 2))[1],
        (None, "tensor([[0, 1],\n        [0, 1]])", []),
    ),
    "multinomial, rows with replacement": (
        lambda lib: (
            lib.manual_seed(3),
            lib.multinomial(lib.tensor([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]]), 5, replacement=True),
        )[1],
        (None, "tensor([[0, 1, 2, 1, 2],\n        [1, 0, 0, 0, 1]])", []),
    ),
    "multinomial, float64": (
        lambda lib: (
            lib.manual_seed(3),
            lib.multinomial(lib.tensor([0.1, 0.2, 0.7], dtype=lib.float64), 20, replacement=True),
        )[1],
        (None, "tensor([0, 1, 2, 1, 2, 2, 1, 2, 2, 2, 1, 2, 2, 2, 2, 0, 1, 2, 2, 1])", []),
    ),
    "multinomial, all": (
        lambda lib: (lib.manual_seed(5), lib.tensor([0.25] * 8).multinomial(8))[1],
        (None, "tensor([1, 4, 3, 2, 6, 0, 7, 5])", []),
    ),
    "multinomial, zeros last": (
        lambda lib: (lib.manual_seed(5), lib.multinomial(lib.tensor([1.0, 0.0, 0.0]), 3))[1],
        (None, "tensor([0, 1, 2])", []),
    ),
    "multinomial, too many": (
        lambda lib: lib.multinomial(lib.tensor([1.0, 2.0]), 3),
        ("RuntimeError", ("cannot sample n_sample > prob_dist.size(-1) samples without replacement"), []),
    ),
    "multinomial, 3-d": (
        lambda lib: lib.multinomial(lib.tensor([[[1.0]]]), 1),
        ("RuntimeError", "prob_dist must be 1 or 2 dim", []),
    ),
    "multinomial, all zero": (
        lambda lib: lib.multinomial(lib.tensor([0.0, 0.0]), 1),
        ("RuntimeError", "invalid multinomial distribution (sum of probabilities <= 0)", []),
    ),
    "multinomial, negative": (
        lambda lib: lib.multinomial(lib.tensor([-1.0, 2.0]), 1),
        ("RuntimeError", "probability tensor contains either `inf`, `nan` or element < 0", []),
    ),
    "multinomial, no samples": (
        lambda lib: lib.multinomial(lib.tensor([1.0, 2.0]), 0),
        ("RuntimeError", "cannot sample n_sample <= 0 samples", []),
    ),
    "multinomial, integers": (
        lambda lib: lib.multinomial(lib.tensor([1, 2]), 1),
        ("RuntimeError", "multinomial only supports floating-point dtypes for input, got: Long", []),
    ),
}


CASES: dict[str, Case] = {
    f"{group}: {name}": case
    for group, cases in (
        ("info", INFO),
        ("division", DIVISION),
        ("bits and pieces", BITS_AND_PIECES),
        ("index writes", INDEX_WRITES),
        ("xlogy, logit", XLOGY_LOGIT),
        ("named pairs", NAMED_PAIRS),
        ("counts and norms", COUNTS_AND_NORMS),
        ("random", RANDOM),
    )
    for name, case in cases.items()
}


@pytest.mark.parametrize("name", CASES)
def test_as_pytorch_does(name: str) -> None:
    fn, expected = CASES[name]
    as_pytorch(fn, expected)


# -- gradients: each differentiable op against finite differences, and its backward against its own -------------------
def _inputs(*shapes: tuple[int, ...]) -> list[Any]:
    tg.manual_seed(0)
    return [tg.rand(*shape, dtype=tg.float64, requires_grad=True) for shape in shapes]


GRADCHECKS: dict[str, tuple[Callable[..., Any], tuple[tuple[int, ...], ...]]] = {
    "index_copy": (lambda x, s: x.index_copy(0, tg.tensor([3, 1]), s), ((4, 3), (2, 3))),
    "index_put": (lambda x, s: x.index_put((tg.tensor([3, 1]),), s), ((4, 3), (2, 3))),
    "index_put, accumulate": (lambda x, s: x.index_put((tg.tensor([1, 1]),), s, accumulate=True), ((4, 3), (2, 3))),
    "index_put, a broadcast value": (lambda x, v: x.index_put((tg.tensor([0, 2]),), v), ((4, 3), (3,))),
    "xlogy": (lambda x, y: tg.xlogy(x, y + 0.5), ((4, 3), (4, 3))),
    "xlogy, broadcast": (lambda x, y: tg.xlogy(x, y + 0.5), ((4, 3), (3,))),
    "xlogy, number other": (lambda x: tg.xlogy(x, 2.0), ((4, 3),)),
    "xlogy, number input": (lambda y: tg.xlogy(2.0, y + 0.5), ((4, 3),)),
    "logit": (lambda x: tg.logit(x * 0.8 + 0.1), ((4, 3),)),
    "logit, eps": (lambda x: tg.logit(x * 0.8 + 0.1, eps=0.2), ((4, 3),)),
    "cummax": (lambda x: tg.cummax(x, 0).values, ((4, 3),)),
    "cummin": (lambda x: tg.cummin(x, 1).values, ((4, 3),)),
    "kthvalue": (lambda x: tg.kthvalue(x, 2, 0).values, ((4, 3),)),
    "mode": (lambda x: tg.mode((x * 2).round(), 0).values, ((4, 3),)),
    "norm inf": (lambda x: tg.norm(x - 0.5, float("inf"), dim=1), ((4, 3),)),
    "norm -inf": (lambda x: tg.norm(x - 0.5, -float("inf")), ((4, 3),)),
    "take_along_dim": (lambda x: tg.take_along_dim(x, tg.tensor([[0], [2], [1], [1]]), 1), ((4, 3),)),
    "take_along_dim, broadcast": (lambda x: tg.take_along_dim(x, tg.tensor([[0, 2]]), 1), ((4, 3),)),
    "tensor_split": (lambda x: tg.tensor_split(x, 2, dim=1)[1], ((4, 3),)),
    "atleast_3d": (lambda x: tg.atleast_3d(x), ((4, 3),)),
}


@pytest.mark.parametrize("name", GRADCHECKS)
def test_gradients_are_right(name: str) -> None:
    fn, shapes = GRADCHECKS[name]
    inputs = _inputs(*shapes)
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_a_floor_division_has_a_zero_gradient_with_pytorchs_node() -> None:
    x, y = _inputs((3,), (3,))
    out = x.div(y + 1, rounding_mode="floor")
    assert out.grad_fn.name() == "DivBackward2"
    out.sum().backward()
    assert not x.grad.any() and not y.grad.any()


# -- random numbers: PyTorch's, for many seeds ---------------------------------------------------------------------
def _draws(lib: ModuleType, seed: int) -> list[np.ndarray]:
    lib.manual_seed(seed)
    p = lib.rand(4, 9)
    return [
        lib.multinomial(p, 5).numpy(),
        lib.multinomial(p, 40, replacement=True).numpy(),
        lib.multinomial(p.double(), 9).numpy(),
        lib.empty(3, 4).random_(7).numpy(),
        lib.empty(5, dtype=lib.int64).random_().numpy(),
        lib.empty(5, dtype=lib.float64).exponential_().numpy(),
    ]


def test_multinomial_random_and_exponential_draw_pytorchs_numbers() -> None:
    ours = _draws(tg, 11)
    # the first draws, spelled out: the exponential race without replacement, a search of the cumulative weights with
    assert ours[0][0].tolist() == [2, 1, 8, 6, 4] and ours[1][0][:8].tolist() == [6, 6, 4, 1, 2, 8, 5, 5]
    torch = oracle()
    if torch is None:
        pytest.skip("torch is not installed")
    for seed in range(40):
        for mine, theirs in zip(_draws(tg, seed), _draws(torch, seed), strict=True):
            assert np.array_equal(mine, theirs), seed
