"""Matrix products. ``x @ y`` picks the product by the inputs' dimensions, as ``torch.matmul`` does,
so the graph shows the same nodes PyTorch's does:

=========================  =====================  =======================================
x          y               node                   backward (g = d(root)/d(out))
=========================  =====================  =======================================
(n,)       (n,)            DotBackward0           dx = g * y,         dy = g * x
(n, m)     (m,)            MvBackward0            dx = outer(g, y),   dy = x.T @ g
(m,)       (m, p)          SqueezeBackward4       an (1, m) @ (m, p) MmBackward0, squeezed
(n, m)     (m, p)          MmBackward0            dx = g @ y.T,       dy = x.T @ g
batched    ...             UnsafeViewBackward0    over MmBackward0/MvBackward0 when the batch folds into
                                                  rows (see _should_fold), else over BmmBackward0
b + x @ W  (a Linear)      AddmmBackward0         db = sum_to(g),  dx = g @ W.T,  dW = x.T @ g
=========================  =====================  =======================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import CPP_NAMES, LEGACY_NAMES, from_numpy
from .._tensor import Tensor
from ..autograd.function import Function
from .shape import UnsafeView, broadcast_shapes, sum_to


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise RuntimeError(msg)


def _shape_str(a: np.ndarray) -> str:
    return "x".join(map(str, a.shape))


def _column_major(a: np.ndarray) -> bool:
    """Is this matrix stored column by column? (A transposed view of a row-major one is: ``weight.t()``.)"""
    return a.flags.f_contiguous and not a.flags.c_contiguous


def _mat2_grad(mat1: Tensor, g: Tensor, column_major: bool) -> Tensor:
    """d(mat1 @ mat2)/d(mat2) = mat1.T @ g, laid out in memory like mat2 was (PyTorch's mm_mat2_backward).

    A Linear layer's mat2 is ``weight.t()``, column-major. ``(g.T @ mat1).T`` is the same matrix, but once
    transposed back to the weight's shape it is row-major like the weight: so is ``weight.grad``, and the
    optimizer's ``w -= lr * grad`` reads both in the same order, several times faster than mixing layouts.
    """
    return g.t().mm(mat1).t() if column_major else mat1.t().mm(g)


def _short(a: np.ndarray) -> str:
    """PyTorch's short name of an element type in messages: Float, Double, Long ..."""
    return LEGACY_NAMES[from_numpy(a.dtype)].removesuffix("Tensor")


class Dot(Function):
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = x._array, y._array
        _check(a.ndim == 1 and b.ndim == 1, f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
        _check(a.dtype == b.dtype, f"dot : expected both vectors to have same dtype, but found {_short(a)} and "
               f"{_short(b)}")
        _check(x._array.shape == y._array.shape, "inconsistent tensor size, expected tensor "
               f"[{x._array.shape[0]}] and src [{y._array.shape[0]}] to have the same number of elements, but got "
               f"{x._array.shape[0]} and {y._array.shape[0]} elements respectively")
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y if ctx.needs_input_grad[0] else None)
        return np.asarray(np.dot(x._array, y._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return (g * y if ctx.needs_input_grad[0] else None), (g * x if ctx.needs_input_grad[1] else None)


class Mv(Function):
    node_name = "MvBackward0"
    saved_names = ("self", "vec")

    @staticmethod
    def forward(ctx: Any, x: Tensor, v: Tensor) -> np.ndarray:
        a, b = x._array, v._array
        _check(a.ndim == 2 and b.ndim == 1, f"vector + matrix @ vector expected, got 1, {a.ndim}, {b.ndim}")
        _check(a.dtype == b.dtype, f"addmv input tensors must have the same dtype, but got {_short(b)}, {_short(a)}, "
               f"and {_short(b)}")
        _check(x._array.shape[1] == v._array.shape[0],
               f"size mismatch, got input ({x._array.shape[0]}), mat ({_shape_str(x._array)}), "
               f"vec ({v._array.shape[0]})")
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, v if ctx.needs_input_grad[0] else None)
        return x._array @ v._array

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, v = ctx.saved_tensors
        dx = g.unsqueeze(1) * v if ctx.needs_input_grad[0] else None
        dv = x.t().mv(g) if ctx.needs_input_grad[1] else None
        return dx, dv


class Mm(Function):
    node_name = "MmBackward0"
    saved_names = ("self", "mat2")
    pack_order = (1, 0)  # mat2 first, as PyTorch packs them

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = x._array, y._array
        _check(a.ndim == 2, "self must be a matrix")
        _check(b.ndim == 2, "mat2 must be a matrix")
        # (`if`, not _check: the f-string messages would be formatted on every call, and backward runs this too)
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_shape_str(a)} and {_shape_str(b)})")
        if a.dtype != b.dtype:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {CPP_NAMES[a.dtype]} != "
                               f"{CPP_NAMES[b.dtype]}")
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y if ctx.needs_input_grad[0] else None)
        ctx.mat2_column_major = _column_major(b)  # for the layout of mat2's gradient (see _mat2_grad)
        return a @ b

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dx = g.mm(y.t()) if ctx.needs_input_grad[0] else None
        dy = _mat2_grad(x, g, ctx.mat2_column_major) if ctx.needs_input_grad[1] else None
        return dx, dy


class Bmm(Function):
    node_name = "BmmBackward0"
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = x._array, y._array
        _check(a.ndim == 3, "batch1 must be a 3D tensor")
        _check(b.ndim == 3, "batch2 must be a 3D tensor")
        _check(a.dtype == b.dtype, f"expected scalar type {_short(a)} but found {_short(b)}")
        _check(a.shape[0] == b.shape[0] and a.shape[2] == b.shape[1],
               f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, {a.shape[2]}] but got: "
               f"[{b.shape[0]}, {b.shape[1]}].")
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y if ctx.needs_input_grad[0] else None)
        return np.matmul(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dx = g.bmm(y.transpose(1, 2)) if ctx.needs_input_grad[0] else None
        dy = x.transpose(1, 2).bmm(g) if ctx.needs_input_grad[1] else None
        return dx, dy


class Addmm(Function):
    """``bias + x @ w``: one node for a Linear layer's whole forward."""

    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")

    @staticmethod
    def forward(ctx: Any, bias: Tensor, x: Tensor, w: Tensor) -> np.ndarray:
        a, b = x._array, w._array
        _check(a.ndim == 2 and b.ndim == 2, "mat1 and mat2 must be matrices")
        if a.shape[1] != b.shape[0]:  # (`if`, not _check: the message would be formatted on every call)
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_shape_str(a)} and {_shape_str(b)})")
        if a.dtype != b.dtype:  # (a float32 batch into a float64 layer, say)
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_short(a)} and {_short(b)}")
        ctx.save_for_backward(x if ctx.needs_input_grad[2] else None, w if ctx.needs_input_grad[1] else None)
        ctx.bias_shape = bias._array.shape
        ctx.mat2_column_major = _column_major(b)  # for the layout of w's gradient (see _mat2_grad)
        out = a @ b
        out += bias._array  # in place: saves allocating a second (batch, out) array
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, w = ctx.saved_tensors
        db = sum_to(g, ctx.bias_shape) if ctx.needs_input_grad[0] else None
        dx = g.mm(w.t()) if ctx.needs_input_grad[1] else None
        dw = _mat2_grad(x, g, ctx.mat2_column_major) if ctx.needs_input_grad[2] else None
        return db, dx, dw


class SqueezeMatmul(Function):
    """Drop the leading 1 of a ``(1, p)`` product back to ``(p,)`` (vector @ matrix)."""

    node_name = "SqueezeBackward4"
    is_view = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> np.ndarray:
        ctx.dim = dim
        return x._array.squeeze(dim)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g.unsqueeze(ctx.dim), None


def matmul(input: Tensor, other: Tensor) -> Tensor:
    """``tinygrad_edu.matmul(x, y)``: see :func:`_matmul`."""
    for position, (name, arg) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(arg, Tensor):
            raise TypeError(f"matmul(): argument '{name}' (position {position}) must be Tensor, not "
                            f"{type(arg).__name__}")
    return _matmul(input, other)


def _matmul(x: Tensor, y: Tensor) -> Tensor:
    """``x @ y`` for 1-D, 2-D and batched tensors, recorded with the nodes PyTorch uses."""
    a, b = x._array, y._array
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and {b.ndim}D")
    if a.ndim == 1 and b.ndim == 1:
        return Dot.apply(x, y)
    if a.ndim == 2 and b.ndim == 1:
        return Mv.apply(x, y)
    if a.ndim == 1 and b.ndim == 2:
        _check(a.shape[0] == b.shape[0], f"mat1 and mat2 shapes cannot be multiplied (1x{a.shape[0]} and "
               f"{_shape_str(b)})")
        return SqueezeMatmul.apply(Mm.apply(x.unsqueeze(0), y), 0)
    if a.ndim == 2 and b.ndim == 2:
        return Mm.apply(x, y)
    # A 3-D operand holding a batch of one matrix that needs a gradient, next to a real batch: PyTorch uses
    # it as the matrix it is (squeeze(0)), so the product folds below and its gradient is one matrix, not
    # a batch of them summed.
    if a.ndim == 3 and b.ndim == 3:
        if b.shape[0] == 1 and a.shape[0] != 1 and y._requires_grad:
            y = y.squeeze(0)
        elif a.shape[0] == 1 and b.shape[0] != 1 and x._requires_grad:
            x = x.squeeze(0)
    if _should_fold(x, y):
        return _folded(x, y)
    return _batched(x, y)


def _should_fold(x: Tensor, y: Tensor) -> bool:
    """Whether ``x @ y`` (one of them >= 3-D, the other 1-D or 2-D) is computed as one 2-D product, with
    the batch dimensions of the larger folded into its rows. PyTorch's choice, which the graph shows:

    * always when the smaller operand requires grad (its gradient is then one mm, not a batch to sum);
    * never when x is the 2-D one (the result would need a transpose and a copy);
    * otherwise when the larger one's rows can be folded without a copy.
    """
    big, small = (x, y) if x._array.ndim >= y._array.ndim else (y, x)
    if not (big._array.ndim >= 3 and small._array.ndim <= 2):
        return False
    if small._requires_grad:
        return True
    if x._array.ndim == 2:
        return False
    a = x._array if big is x else np.swapaxes(y._array, -1, -2)
    if a.size == 0:
        return True
    return all(a.strides[i] == a.strides[i + 1] * a.shape[i + 1] for i in range(a.ndim - 2))


def _folded(x: Tensor, y: Tensor) -> Tensor:
    """``(..., n, m) @ (m, p)`` as one ``(N, m) @ (m, p)`` product. When y is the larger, PyTorch computes
    ``(y.mT @ x.mT).mT`` the same way (a vector x needs no transposes)."""
    transposed = x._array.ndim < y._array.ndim
    big = y.mT if transposed else x
    small = (x.t() if x._array.ndim == 2 else x) if transposed else y
    shape = big._array.shape[:-1] + small._array.shape[1:]
    rows = big.reshape(-1, big._array.shape[-1])
    out = UnsafeView.apply(Mm.apply(rows, small) if small._array.ndim == 2 else Mv.apply(rows, small), shape)
    return out.mT.contiguous() if transposed and x._array.ndim == 2 else out


def _batched(x: Tensor, y: Tensor) -> Tensor:
    """The general case: broadcast the batch dimensions, flatten them, and one ``bmm``."""
    a, b = x._array, y._array
    n, m = (a.shape[-2] if a.ndim > 1 else 1), a.shape[-1]
    m2, p = (b.shape[-2], b.shape[-1]) if b.ndim > 1 else (b.shape[0], 1)
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    bx = x.expand(*batch, n, m).reshape(-1, n, m)  # a vector x (m,) expands to (..., 1, m) directly
    by = (y if b.ndim > 1 else y.unsqueeze(-1)).expand(*batch, m2, p).reshape(-1, m2, p)
    shape = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    return UnsafeView.apply(Bmm.apply(bx, by), shape)


def linear(x: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``x @ weight.T + bias``; for a batch of rows this is one AddmmBackward0 node, as in PyTorch."""
    if bias is None:
        return _matmul(x, weight.t())
    if x._array.ndim == 2:
        return Addmm.apply(bias, x, weight.t())
    rows = x.reshape(-1, x._array.shape[-1])
    out = Addmm.apply(bias, rows, weight.t())
    return out.view(*x._array.shape[:-1], weight._array.shape[0])
