"""Matrix products. ``x @ y`` picks the product by the inputs' dimensions, as ``torch.matmul`` does,
so the graph shows the same nodes PyTorch's does:

=========================  =====================  =======================================
x          y               node                   backward (g = d(root)/d(out))
=========================  =====================  =======================================
(n,)       (n,)            DotBackward0           dx = g * y,         dy = g * x
(n, m)     (m,)            MvBackward0            dx = outer(g, y),   dy = x.T @ g
(m,)       (m, p)          SqueezeBackward4       an (1, m) @ (m, p) MmBackward0, squeezed
(n, m)     (m, p)          MmBackward0            dx = g @ y.T,       dy = x.T @ g
batched    ...             UnsafeViewBackward0    over BmmBackward0 (or MmBackward0), as in PyTorch
b + x @ W  (a Linear)      AddmmBackward0         db = sum_to(g),  dx = g @ W.T,  dW = x.T @ g
=========================  =====================  =======================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from .shape import UnsafeView, sum_to


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise RuntimeError(msg)


def _shape_str(a: np.ndarray) -> str:
    return "x".join(map(str, a.shape))


class Dot(Function):
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
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

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = x._array, y._array
        _check(a.ndim == 2, "self must be a matrix")
        _check(b.ndim == 2, "mat2 must be a matrix")
        _check(a.shape[1] == b.shape[0], f"mat1 and mat2 shapes cannot be multiplied ({_shape_str(a)} and "
               f"{_shape_str(b)})")
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y if ctx.needs_input_grad[0] else None)
        return a @ b

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dx = g.mm(y.t()) if ctx.needs_input_grad[0] else None
        dy = x.t().mm(g) if ctx.needs_input_grad[1] else None
        return dx, dy


class Bmm(Function):
    node_name = "BmmBackward0"
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> np.ndarray:
        a, b = x._array, y._array
        _check(a.ndim == 3 and b.ndim == 3, "batch1 and batch2 must be 3D tensors")
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
        _check(a.shape[1] == b.shape[0], f"mat1 and mat2 shapes cannot be multiplied ({_shape_str(a)} and "
               f"{_shape_str(b)})")
        ctx.save_for_backward(x if ctx.needs_input_grad[2] else None, w if ctx.needs_input_grad[1] else None)
        ctx.bias_shape = bias._array.shape
        out = a @ b
        out += bias._array  # in place: saves allocating a second (batch, out) array
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, w = ctx.saved_tensors
        db = sum_to(g, ctx.bias_shape) if ctx.needs_input_grad[0] else None
        dx = g.mm(w.t()) if ctx.needs_input_grad[1] else None
        dw = x.t().mm(g) if ctx.needs_input_grad[2] else None
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


def matmul(x: Tensor, y: Tensor) -> Tensor:
    """``x @ y`` for 1-D, 2-D and batched tensors, recorded with the nodes PyTorch uses."""
    if not isinstance(y, Tensor) or not isinstance(x, Tensor):
        raise TypeError(f"matmul(): argument 'other' (position 1) must be Tensor, not {type(y).__name__}")
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
    if b.ndim <= 2:  # fold the batch into the rows: (..., n, m) @ (m, p) is one (N, m) @ (m, p) product
        _check(a.shape[-1] == b.shape[0], f"mat1 and mat2 shapes cannot be multiplied "
               f"({int(np.prod(a.shape[:-1]))}x{a.shape[-1]} and {_shape_str(b)})")
        rows = x.reshape(-1, a.shape[-1])
        out = Mm.apply(rows, y) if b.ndim == 2 else Mv.apply(rows, y)
        return UnsafeView.apply(out, a.shape[:-1] + b.shape[1:])
    # General case: broadcast the batch dimensions, then one batched product.
    xa = x.unsqueeze(0) if a.ndim == 1 else x
    batch = np.broadcast_shapes(xa._array.shape[:-2], b.shape[:-2])
    n, m = xa._array.shape[-2:]
    p = b.shape[-1]
    _check(m == b.shape[-2], f"Expected size for first two dimensions of batch2 tensor to be: "
           f"[{int(np.prod(batch))}, {m}] but got: [{int(np.prod(batch))}, {b.shape[-2]}].")
    bx = xa.expand(*batch, n, m).reshape(-1, n, m)
    by = y.expand(*batch, m, p).reshape(-1, m, p)
    shape = batch + ((n,) if a.ndim > 1 else ()) + (p,)
    return UnsafeView.apply(Bmm.apply(bx, by), shape)


def linear(x: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``x @ weight.T + bias``; for a batch of rows this is one AddmmBackward0 node, as in PyTorch."""
    if bias is None:
        return matmul(x, weight.t())
    if x._array.ndim == 2:
        return Addmm.apply(bias, x, weight.t())
    rows = x.reshape(-1, x._array.shape[-1])
    out = Addmm.apply(bias, rows, weight.t())
    return out.view(*x._array.shape[:-1], weight._array.shape[0])
