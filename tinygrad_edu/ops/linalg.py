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
b + x @ W  (a Linear)      AddmmBackward0         db = g (summed down),  dx = g @ W.T,  dW = x.T @ g
=========================  =====================  =======================================
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .._checks import broadcast_shapes, check_expand, tensor_arguments
from .._checks import wrap_dim as _dim
from .._dtype import CPP_NAMES, LEGACY_NAMES, from_numpy
from ..core.derivatives import MulScalar, UnsafeView, zero_where
from ..core.function import Function, broadcast_from, sum_to_shape
from ..core.function import wrap as _wrap
from ..core.grad_mode import GradMode, Speed
from ..core.tensor import Tensor


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise RuntimeError(msg)


def _shape_str(a: np.ndarray) -> str:
    return "x".join(map(str, a.shape))


def _column_major(a: np.ndarray) -> bool:
    """Is this matrix stored column by column? (A transposed view of a row-major one is: ``weight.t()``.)"""
    flags = a.flags  # (a new object at each reading: read once)
    return flags.f_contiguous and not flags.c_contiguous


def _mm_grads(g: Tensor, mat1: Tensor | None, mat2: Tensor | None, column_major: bool) -> tuple:
    """The gradients of ``mat1 @ mat2``: ``g @ mat2.T`` for mat1, and ``mat1.T @ g`` for mat2, laid out in memory
    like mat2 was (PyTorch's mm_mat2_backward). (None for one that needs no gradient: its saved partner is None.)

    A Linear layer's mat2 is ``weight.t()``, column-major. ``(g.T @ mat1).T`` is the same matrix, but once
    transposed back to the weight's shape it is row-major like the weight: so is ``weight.grad``, and the
    optimizer's ``w -= lr * grad`` reads both in the same order, several times faster than mixing layouts.
    """
    if Speed.tricks and not GradMode.enabled:  # speed: nothing is recorded: numpy's products, not five ops
        d1 = None if mat2 is None else _wrap(g._array @ mat2._array.T)
        if mat1 is None or not column_major:
            return d1, None if mat1 is None else _wrap(mat1._array.T @ g._array)
        product = _wrap(g._array.T @ mat1._array)
        d2 = _wrap(product._array.T)  # (a view of the product, as t() makes it)
        d2._base = product
        return d1, d2
    return (None if mat2 is None else g.mm(mat2.t()),
            None if mat1 is None else g.t().mm(mat1).t() if column_major else mat1.t().mm(g))


def _short(a: np.ndarray) -> str:
    """PyTorch's short name of an element type in messages: Float, Double, Long ..."""
    return LEGACY_NAMES[from_numpy(a.dtype)].removesuffix("Tensor")


def _product_rule(op: Callable[[Tensor, Tensor], Tensor], x: Tensor, y: Tensor, x_t: Tensor | None,
                  y_t: Tensor | None) -> Tensor | None:
    """Forward mode for a product (``jvp``): (x + εx_t)(y + εy_t) = xy + ε(x_t y + x y_t), the terms whose tangent
    exists (a product is linear in each factor, so each term is the op itself). As in PyTorch, a missing tangent is
    zeros when its partner requires grad and grad mode is on: the term is 0, but it joins the partner to the
    tangent's graph (the tangent of a Linear layer's output then shows ``grad_fn=<AddBackward0>``, as PyTorch's)."""
    if GradMode.enabled and (x_t is None) != (y_t is None):
        x_t = _wrap(np.zeros_like(x._array)) if x_t is None and y._requires_grad else x_t
        y_t = _wrap(np.zeros_like(y._array)) if y_t is None and x._requires_grad else y_t
    terms = [t for t in (op(x_t, y) if x_t is not None else None, op(x, y_t) if y_t is not None else None)
             if t is not None]
    return None if not terms else terms[0] if len(terms) == 1 else terms[0] + terms[1]


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
        ctx.save_for_forward(x, y)
        return np.asarray(np.dot(x._array, y._array))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return (g * y if ctx.needs_input_grad[0] else None), (g * x if ctx.needs_input_grad[1] else None)

    @staticmethod
    def jvp(ctx: Any, x_t: Tensor | None, y_t: Tensor | None) -> Tensor | None:
        return _product_rule(Dot.apply, *ctx.saved_tensors, x_t, y_t)


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
        ctx.save_for_forward(x, v)
        return x._array @ v._array

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, v = ctx.saved_tensors
        dx = g.unsqueeze(1) * v if ctx.needs_input_grad[0] else None
        dv = x.t().mv(g) if ctx.needs_input_grad[1] else None
        return dx, dv

    @staticmethod
    def jvp(ctx: Any, x_t: Tensor | None, v_t: Tensor | None) -> Tensor | None:
        return _product_rule(Mv.apply, *ctx.saved_tensors, x_t, v_t)


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
        ctx.mat2_column_major = _column_major(b)  # for the layout of mat2's gradient (see _mm_grads)
        ctx.save_for_forward(x, y)
        return a @ b

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors  # (each saved only if the other needs a gradient)
        return _mm_grads(g, x, y, ctx.mat2_column_major)

    @staticmethod
    def jvp(ctx: Any, x_t: Tensor | None, y_t: Tensor | None) -> Tensor | None:
        return _product_rule(Mm.apply, *ctx.saved_tensors, x_t, y_t)


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
        ctx.save_for_forward(x, y)
        return np.matmul(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dx = g.bmm(y.transpose(1, 2)) if ctx.needs_input_grad[0] else None
        dy = x.transpose(1, 2).bmm(g) if ctx.needs_input_grad[1] else None
        return dx, dy

    @staticmethod
    def jvp(ctx: Any, x_t: Tensor | None, y_t: Tensor | None) -> Tensor | None:
        return _product_rule(Bmm.apply, *ctx.saved_tensors, x_t, y_t)


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
        broadcast_from(ctx, bias)  # (the bias, added to every row: the mechanism sums its gradient back down)
        ctx.mat2_column_major = _column_major(b)  # for the layout of w's gradient (see _mm_grads)
        ctx.save_for_forward(x, w)
        out = a @ b
        if bias._array.shape != out.shape[-bias._array.ndim:]:  # (PyTorch expands the bias to the product's shape)
            check_expand(bias._array.shape, out.shape)
        out += bias._array  # in place: saves allocating a second (batch, out) array
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, w = ctx.saved_tensors  # (each saved only if the other needs a gradient)
        return (g if ctx.needs_input_grad[0] else None, *_mm_grads(g, x, w, ctx.mat2_column_major))

    @staticmethod
    def jvp(ctx: Any, bias_t: Tensor | None, x_t: Tensor | None, w_t: Tensor | None) -> Tensor | None:
        product = _product_rule(Mm.apply, *ctx.saved_tensors, x_t, w_t)  # (bias + x w: the bias's tangent added)
        return bias_t if product is None else product if bias_t is None else product + bias_t


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
    """``x @ weight.T + bias``; for a batch of rows this is one AddmmBackward0 node, as in PyTorch (whose batch of
    more dimensions is folded into rows when it is contiguous; a transposed one is a matmul and an add)."""
    try:
        if bias is None:
            return _matmul(x, weight.t())
        if x._array.ndim == 2:
            return Addmm.apply(bias, x, weight.t())
        if not x._array.flags.c_contiguous:  # (PyTorch folds only a contiguous batch into one addmm)
            return _matmul(x, weight.t()) + bias
        rows = x.reshape(-1, x._array.shape[-1])
        out = Addmm.apply(bias, rows, weight.t())
        return out.view(*x._array.shape[:-1], weight._array.shape[0])
    except AttributeError:  # (a numpy array or a list where a tensor belongs)
        tensor_arguments("linear", ("input", "weight", "bias"), (x, weight, bias), Tensor)
        raise


# ------------------------------------------------------------------------------------------------ more products
# addmm/baddbmm with beta and alpha, outer, inner, tensordot, kron, cross, einsum, dist, cdist. Where PyTorch
# builds an op from others (outer is a broadcast multiply, tensordot a permute-reshape-mm-reshape), it is built
# here the same way, so the graph shows the same nodes; the others are one Function each.
def _scaled(t: Tensor, c: float) -> Tensor:
    """``t * c``, skipped for c = 1 (PyTorch's maybe_multiply): MulBackward1 in the gradient's graph."""

    return t if c == 1 else MulScalar.apply(t, c)


def _beta_input(a: np.ndarray, beta: float, shape: tuple[int, ...]) -> np.ndarray:
    """``beta * input`` broadcast to the product's shape; beta = 0 ignores the input (nan and inf in it too)."""
    try:
        b = np.broadcast_to(a, shape)
    except ValueError:
        raise RuntimeError(f"The expanded size of the tensor ({shape[-1]}) must match the existing size "
                           f"({a.shape[-1]}) at non-singleton dimension {len(shape) - 1}.  Target sizes: "
                           f"[{', '.join(map(str, shape))}].  Tensor sizes: [{', '.join(map(str, a.shape))}]") from None
    return np.zeros(shape, a.dtype) if beta == 0 else (b if beta == 1 else b * a.dtype.type(beta))


_C_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int"}  # as messages name them


def _check_dtypes(input: np.ndarray, mat1: np.ndarray, mat2: np.ndarray) -> None:
    """addmm's dtype checks, in PyTorch's order: the two matrices first, then the input against them."""
    if mat1.dtype != mat2.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_short(mat1)} and {_short(mat2)}")
    if input.dtype != mat1.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_short(input)} and {_short(mat2)}")


def _checked_product(a: np.ndarray, b: np.ndarray, batched: bool) -> np.ndarray:
    """``a @ b`` for two matrices (or two batches of them), with mm's (bmm's) checks and messages."""
    if batched:
        _check(a.ndim == 3, "batch1 must be a 3D tensor")
        _check(b.ndim == 3, "batch2 must be a 3D tensor")
        _check(a.shape[0] == b.shape[0] and a.shape[2] == b.shape[1], f"Expected size for first two dimensions of "
               f"batch2 tensor to be: [{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    else:
        _check(a.ndim == 2 and b.ndim == 2, "mat1 and mat2 must be matrices")
        _check(a.shape[1] == b.shape[0], f"mat1 and mat2 shapes cannot be multiplied ({_shape_str(a)} and "
               f"{_shape_str(b)})")
    return np.matmul(a, b)


class AddmmScaled(Function):
    """``beta * input + alpha * (mat1 @ mat2)``, PyTorch's addmm with its two scales (beta = alpha = 1 is
    :class:`Addmm`, the Linear layer's node):

        dinput = beta * g (summed down),   dmat1 = alpha * g @ mat2.T,   dmat2 = alpha * mat1.T @ g
    """

    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")  # (and _saved_alpha, _saved_beta)
    batched = False

    @staticmethod
    def forward(ctx: Any, input: Tensor, mat1: Tensor, mat2: Tensor, beta: float, alpha: float) -> np.ndarray:
        a, b, c = input._array, mat1._array, mat2._array
        if ctx._forward_cls.batched and not a.dtype == b.dtype == c.dtype:
            names = [_C_NAMES.get(t.dtype.name, t.dtype.name) for t in (a, b, c)]
            raise RuntimeError(f"Input dtypes must be the same, got: input {names[0]}, batch1: {names[1]}, "
                               f"batch2: {names[2]}")
        _check_dtypes(a, b, c)
        product = _checked_product(b, c, ctx._forward_cls.batched)
        ctx.mat2_column_major = _column_major(c)  # for the layout of mat2's gradient (see _mm_grads)
        ctx.save_for_backward(mat1 if ctx.needs_input_grad[2] else None, mat2 if ctx.needs_input_grad[1] else None)
        ctx._saved_beta, ctx._saved_alpha = beta, alpha
        broadcast_from(ctx, input)
        scaled = product if alpha == 1 else product * a.dtype.type(alpha)
        return _beta_input(a, beta, product.shape) + scaled

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        mat1, mat2 = ctx.saved_tensors
        beta, alpha = ctx._saved_beta, ctx._saved_alpha
        di = _scaled(g, beta) if ctx.needs_input_grad[0] else None
        if ctx._forward_cls.batched:
            dm1 = _scaled(g.bmm(mat2.transpose(1, 2)), alpha) if ctx.needs_input_grad[1] else None
            dm2 = _scaled(mat1.transpose(1, 2).bmm(g), alpha) if ctx.needs_input_grad[2] else None
        else:
            dm1, dm2 = (None if d is None else _scaled(d, alpha) for d in _mm_grads(g, mat1, mat2,
                                                                                   ctx.mat2_column_major))
        return di, dm1, dm2, None, None


class Baddbmm(AddmmScaled):
    """``beta * input + alpha * (batch1 @ batch2)``, a batch of matrix products (see :class:`AddmmScaled`)."""

    node_name = "BaddbmmBackward0"
    saved_names = ("batch1", "batch2")
    batched = True


class Addmv(Function):
    """``beta * input + alpha * (mat @ vec)``: a matrix times a vector, added to input (broadcast to its length)::

        dinput = beta * g (summed down),   dmat = alpha * g vecᵀ (an outer product),   dvec = alpha * matᵀ g
    """

    node_name = "AddmvBackward0"

    @staticmethod
    def forward(ctx: Any, input: Tensor, mat: Tensor, vec: Tensor, beta: float, alpha: float) -> np.ndarray:
        a, m, v = input._array, mat._array, vec._array
        if m.ndim != 2 or v.ndim != 1 or m.shape[1] != v.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({_shape_str(a)}), mat ({_shape_str(m)}), vec "
                               f"({_shape_str(v)})")
        _check_dtypes(a, m, v)
        ctx.save_for_backward(mat if ctx.needs_input_grad[2] else None, vec if ctx.needs_input_grad[1] else None)
        ctx.beta, ctx.alpha = beta, alpha
        broadcast_from(ctx, input)
        product = m @ v
        return _beta_input(a, beta, product.shape) + (product if alpha == 1 else product * a.dtype.type(alpha))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        mat, vec = ctx.saved_tensors
        di = _scaled(g, ctx.beta) if ctx.needs_input_grad[0] else None
        dm = _scaled(g.unsqueeze(1) * vec.unsqueeze(0), ctx.alpha) if ctx.needs_input_grad[1] else None
        dv = _scaled(mat.t() @ g, ctx.alpha) if ctx.needs_input_grad[2] else None
        return di, dm, dv, None, None


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """``beta * input + alpha * mat @ vec`` as one node, AddmvBackward0."""
    return Addmv.apply(input, mat, vec, beta, alpha)


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """``beta * input + alpha * mat1 @ mat2`` as one node, AddmmBackward0: a Linear layer's forward."""
    if beta == 1 and alpha == 1 and mat1._array.ndim == 2 and mat2._array.ndim == 2:
        _check_dtypes(input._array, mat1._array, mat2._array)
        if mat1._array.shape[1] == mat2._array.shape[0]:  # (if not, Addmm gives PyTorch's message)
            _beta_input(input._array, 1, (mat1._array.shape[0], mat2._array.shape[1]))  # the input's shape
        return Addmm.apply(input, mat1, mat2)
    return AddmmScaled.apply(input, mat1, mat2, beta, alpha)


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """``beta * input + alpha * batch1 @ batch2`` for batches of matrices (3-D tensors)."""
    return Baddbmm.apply(input, batch1, batch2, beta, alpha)


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product of two vectors, ``out[i, j] = x[i] * y[j]``: as in PyTorch, a column of x times
    the row y, broadcast (MulBackward0)."""
    for name, v in (("self", input), ("vec2", vec2)):
        _check(v._array.ndim == 1, f"outer: Expected 1-D argument {name}, but got {v._array.ndim}-D")
    return input.reshape(-1, 1) * vec2


def tensordot(a: Tensor, b: Tensor, dims: Any = 2) -> Tensor:
    """Sum of products over pairs of dimensions: ``dims=([1], [0])`` pairs a's dim 1 with b's dim 0 (a matrix
    product); ``dims=k`` pairs a's last k with b's first k. As in PyTorch: both permuted so that the summed
    dims meet, reshaped to matrices, one mm, and the result reshaped."""
    na, nb = a._array.ndim, b._array.ndim
    if isinstance(dims, int):
        _check(dims >= 0, f"tensordot expects dims >= 0, but got dims={dims}")
        _check(dims <= min(na, nb), f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        da, db = list(range(na - dims, na)), list(range(dims))
    else:
        da, db = ([d] if isinstance(d, int) else list(d) for d in dims)
        _check(len(da) == len(db), "both dimension lists should have same length")
    da, db = [_dim(d, na) for d in da], [_dim(d, nb) for d in db]
    for i, j in zip(da, db):
        _check(a._array.shape[i] == b._array.shape[j], f"contracted dimensions need to match, but first has size "
               f"{a._array.shape[i]} in dim {i} and second has size {b._array.shape[j]} in dim {j}")
    keep_a, keep_b = [d for d in range(na) if d not in da], [d for d in range(nb) if d not in db]
    size = int(np.prod([a._array.shape[d] for d in da]))
    left = a.permute(*keep_a, *da).reshape(-1, size)
    right = b.permute(*db, *keep_b).reshape(size, -1)
    return left.mm(right).reshape(*[a._array.shape[d] for d in keep_a], *[b._array.shape[d] for d in keep_b])


def inner(input: Tensor, other: Tensor) -> Tensor:
    """Sum of products over the last dimension of both: ``inner(x, y)[..., ...] = sum_k x[..., k] y[..., k]``
    (for vectors, their dot product). A number and a tensor: their product."""
    a, b = input._array, other._array
    if a.ndim == 0 or b.ndim == 0:
        return input * other
    _check(a.shape[-1] == b.shape[-1], f"inner() the last dimension must match on both input tensors but got "
           f"shapes [{', '.join(map(str, a.shape))}] and [{', '.join(map(str, b.shape))}]")
    return tensordot(input, other, ([-1], [-1]))


def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: each element of x times the whole of y, the blocks laid out as x is
    (``kron([1, 2], [1, 10]) = [1, 10, 2, 20]``). As in PyTorch: x and y reshaped so that their dims
    interleave (x as (m, 1, n, 1), y as (1, p, 1, q)), multiplied, and the product viewed as (m p, n q)."""
    a, b = input._array, other._array
    nd = max(a.ndim, b.ndim)
    sa, sb = (1,) * (nd - a.ndim) + a.shape, (1,) * (nd - b.ndim) + b.shape
    x = input.reshape(*[n for s in sa for n in (s, 1)])
    y = other.reshape(*[n for s in sb for n in (1, s)])
    return UnsafeView.apply(x * y, tuple(m * n for m, n in zip(sa, sb)))


class Cross(Function):
    """The cross product of 3-vectors along ``dim``: a vector perpendicular to both, as long as the area of
    the parallelogram they span. Linear in each input:  dx = cross(y, g),  dy = cross(g, x)."""

    node_name = "LinalgCrossBackward0"
    saved_names = ("self", "other")  # (and _saved_dim)
    pack_order = (1, 0)  # other first, as PyTorch packs them

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor, dim: int) -> np.ndarray:
        a, b = x._array, y._array
        _check(a.ndim == b.ndim, "linalg.cross: inputs must have the same number of dimensions.")
        if a.shape[dim] != 3 or b.shape[dim] != 3:
            raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {a.shape[dim]} and "
                               f"{b.shape[dim]}")
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y if ctx.needs_input_grad[0] else None)
        ctx._saved_dim = dim
        shape = broadcast_shapes(a.shape, b.shape)
        broadcast_from(ctx, x, y)
        return np.cross(np.broadcast_to(a, shape), np.broadcast_to(b, shape), axis=dim)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dim = ctx._saved_dim
        dx = Cross.apply(y, g, dim) if ctx.needs_input_grad[0] else None
        return dx, Cross.apply(g, x, dim) if ctx.needs_input_grad[1] else None, None


def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """``tinygrad_edu.cross(x, y, dim)``: the cross product along dim, which must have length 3."""
    a, b = input._array, other._array
    _check(a.ndim == b.ndim, "linalg.cross: inputs must have the same number of dimensions.")
    if dim is None:  # PyTorch's old default: the first dim of length 3, with a warning that it will change
        warnings.warn("Using tinygrad_edu.cross without specifying the dim arg is deprecated.\nPlease either pass the "
                      "dim explicitly or simply use tinygrad_edu.linalg.cross.\nThe default value of dim will change "
                      "to agree with that of linalg.cross in a future release.", UserWarning, stacklevel=2)
        shape = broadcast_shapes(a.shape, b.shape)
        dim = next((d for d, n in enumerate(shape) if n == 3), -1)
    return Cross.apply(input, other, _dim(dim, a.ndim))


# ------------------------------------------------------------------------------------------------ einsum
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _parse_einsum(equation: str, shapes: list[tuple[int, ...]]) -> tuple[list[str], str]:
    """The equation's subscripts, one string per operand, and the output's: "..." spelled out as letters the
    equation does not use, the implicit output (no "->") made explicit (the letters used once, in
    alphabetical order, after the broadcast dims), as numpy and PyTorch read it."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    subs = lhs.split(",")
    if len(subs) > len(shapes):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(subs) < len(shapes):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    spare = [c for c in _LETTERS if c not in eq]
    n_ellipsis = max((len(shape) - len(s) + 3 for s, shape in zip(subs, shapes) if "..." in s), default=0)
    dots = "".join(spare[:n_ellipsis])
    expanded = []
    for s, shape in zip(subs, shapes):
        if "..." in s:
            k = len(shape) - len(s.replace("...", ""))
            if k < 0:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(s) - 3}) is more than "
                                   f"the number of dimensions ({len(shape)}) for operand {len(expanded)}")
            s = s.replace("...", dots[n_ellipsis - k:])
        if len(s) != len(shape):
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(s)}) does not match the "
                               f"number of dimensions ({len(shape)}) for operand {len(expanded)}"
                               f"{' and no ellipsis was given' if '...' not in lhs.split(',')[len(expanded)] else ''}")
        expanded.append(s)
    if arrow:
        out = rhs.replace("...", dots)
        for c in out:
            if c not in "".join(expanded):
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input "
                                   "operand")
    else:
        joined = "".join(expanded)
        out = dots + "".join(sorted(c for c in set(joined) if joined.count(c) == 1 and c not in dots))
    sizes: dict[str, int] = {}
    for k, (s, shape) in enumerate(zip(expanded, shapes)):
        for c, n in zip(s, shape):
            if sizes.setdefault(c, n) != n and n != 1 and sizes[c] != 1:
                raise RuntimeError(f"einsum(): subscript {c} has size {n} for operand {k} which does not broadcast "
                                   f"with previously seen size {sizes[c]}")
            sizes[c] = max(sizes[c], n)
    return expanded, out


class Einsum(Function):
    """``einsum(equation, *operands)``: products of the operands' elements, summed over the letters the output
    does not keep. ``"ij,jk->ik"`` is a matrix product, ``"i,i->"`` a dot product, ``"ii->"`` a trace.

    The gradient for one operand is an einsum too: g (subscripted like the output) times the other operands,
    with that operand's subscripts as the output. Two more kinds of factor make it exact: a letter only that
    operand uses (summed over in the forward) gets a vector of ones, so the gradient is spread along it; and a
    letter it repeats (a diagonal, as in ``"ii"``) is renamed, with an identity matrix tying the two names, so
    the gradient lands on the diagonal only.

    PyTorch computes einsum by lowering it to other ops (permute, bmm, view, mul, sum), and its graph shows
    their nodes; here it is one node, named as PyTorch's last node for the equation's kind (the subclasses
    below): ViewBackward0 for a contraction (matrix products), MulBackward0 for a product with no summed
    letter (outer products), SumBackward1 for one operand summed, PermuteBackward0 for a transpose. The nodes
    inside PyTorch's graph, and hence those of the gradients under create_graph, differ.
    """

    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx: Any, spec: tuple[tuple[str, ...], str], *operands: Tensor) -> np.ndarray:
        subs, out = spec
        ctx.save_for_backward(*operands)
        ctx.spec = spec
        broadcast_from(ctx, None, *operands)  # (a size-1 dim against another operand's size n)
        return np.asarray(np.einsum(",".join(subs) + "->" + out, *[t._array for t in operands]))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        subs, out = ctx.spec
        operands = ctx.saved_tensors
        grads: list[Tensor | None] = [None]
        for k, (sub, x) in enumerate(zip(subs, operands)):
            if not ctx.needs_input_grad[k + 1]:
                grads.append(None)
                continue
            factors = [(out, g)] + [(s, t) for j, (s, t) in enumerate(zip(subs, operands)) if j != k]
            used = "".join(s for s, _ in factors)
            spare = iter(c for c in _LETTERS if c not in used + sub)
            target = ""
            for pos, c in enumerate(sub):
                n = x._array.shape[pos]
                if c in target:  # a repeated letter: a fresh name, tied to the first by the identity
                    fresh = next(spare)
                    factors.append((c + fresh, _wrap(np.eye(n, dtype=x._array.dtype))))
                    c = fresh
                elif c not in used:  # summed in this operand alone: spread the gradient along it
                    factors.append((c, _wrap(np.ones(n, dtype=x._array.dtype))))
                target += c
            grad = einsum_of(tuple(s for s, _ in factors), target, [t for _, t in factors])
            grads.append(grad)
        return tuple(grads)


class _EinsumMul(Einsum):
    node_name = "MulBackward0"


class _EinsumSum(Einsum):
    node_name = "SumBackward1"


class _EinsumPermute(Einsum):
    node_name = "PermuteBackward0"


def einsum_of(subs: tuple[str, ...], out: str, operands: list[Tensor]) -> Tensor:
    """The einsum with parsed subscripts, recorded under the node its kind gets (see :class:`Einsum`)."""
    letters = "".join(subs)
    if len(subs) == 1:
        plain = len(set(subs[0])) == len(subs[0]) == len(out)
        kind = _EinsumPermute if plain else _EinsumSum
    else:
        contracted = any(c not in out for c in set(letters))
        kind = Einsum if contracted else _EinsumMul
    return kind.apply((subs, out), *operands)


def einsum(equation: Any, *operands: Any) -> Tensor:
    """``tinygrad_edu.einsum("ij,jk->ik", a, b)``: sums of products written in Einstein's index notation
    (see :class:`Einsum`); the operands may also come as one list. The sublist form, ``einsum(a, [0, 1], b, [1, 2],
    [0, 2])`` (numpy's too), names the indices by numbers 0-51 instead of letters, ``...`` as ``Ellipsis``."""
    if not isinstance(equation, str):  # the sublist form: operand, its indices, operand, its indices, [output]
        equation, operands = _sublists_as_equation((equation, *operands))
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    subs, out = _parse_einsum(equation, [t._array.shape for t in operands])
    return einsum_of(tuple(subs), out, list(operands))


def _sublists_as_equation(args: tuple) -> tuple[str, tuple]:
    """``(a, [0, 1], b, [1, 2], [0, 2])`` as ``("ab,bc->ac", (a, b))``: index n is the n-th of A-Z, a-z."""
    def letters(sub: Any) -> str:
        if any(not (n is Ellipsis or 0 <= n < 52) for n in sub):
            raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
        return "".join("..." if n is Ellipsis else chr(ord("A") + n) if n < 26 else chr(ord("a") + n - 26)
                       for n in sub)
    pairs, out = args[:len(args) - len(args) % 2], args[len(args) - len(args) % 2:]
    inputs = ",".join(letters(sub) for sub in pairs[1::2])
    return inputs + ("->" + letters(out[0]) if out else ""), tuple(pairs[0::2])


# ------------------------------------------------------------------------------------------------ distances
class Dist(Function):
    """The p-norm of the difference, ``||x - y||_p`` (x and y broadcast): the distance between two points.
    With d = x - y and n the result, PyTorch's norm derivatives (dy = -dx):

        p = 2:   dx = d * g / n           (0 where n = 0: the norm has a kink there)
        p = 1:   dx = sign(d) * g
        p = inf: dx = sign(d) * g / k where |d| = n (k such places), 0 elsewhere
        p = 0:   none                     (the number of nonzeros, a staircase: PyTorch gives no gradient)
        other p: dx = d |d|**(p-2) * g / n**(p-1)
    """

    node_name = "DistBackward0"
    saved_names = ("self", "other", "result")  # (and _saved_p)
    pack_order = (1, 0, 2)  # other first, as PyTorch packs them

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor, p: float) -> Tensor:
        a, b = x._array, y._array
        d = np.abs(a - b)  # (in the inputs' common dtype)
        _check(d.dtype.kind == "f", f"norm(): input dtype should be either floating point or complex. Got "
               f"{_short(d)} instead.")
        if p == 0:
            n = (d != 0).sum()
        elif p == np.inf:
            n = d.max(initial=0)
        elif p == -np.inf:
            n = d.min(initial=np.inf)
        else:
            n = (d ** p).sum() ** (1 / p) if p != 1 else d.sum()
        result = _wrap(np.asarray(n, dtype=d.dtype))
        ctx.save_for_backward(x, y, result)
        ctx._saved_p = p
        broadcast_from(ctx, x, y)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:

        x, y, n = ctx.saved_tensors
        p, d = ctx._saved_p, x - y
        if p == 0:  # PyTorch returns no gradient at all (undefined): as if x had not been used
            return None, None, None
        if p == 1:
            dx = d.sign() * g
        elif p == 2:
            dx = d * zero_where(n._array == 0, g / n)
        elif abs(p) == np.inf:
            at_norm = _wrap((np.abs(d._array) == n._array).astype(d._array.dtype))
            dx = d.sign() * at_norm * (g / at_norm.sum())
        else:
            dx = d * d.abs().pow(p - 2) * zero_where(n._array == 0, g / n.pow(p - 1))
        return dx if ctx.needs_input_grad[0] else None, -dx if ctx.needs_input_grad[1] else None, None


def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:
    """``tinygrad_edu.dist(x, y, p=2)``: the p-norm of x - y, one number (see :class:`Dist`)."""
    broadcast_shapes(input._array.shape, other._array.shape)  # PyTorch's message if they do not broadcast
    return Dist.apply(input, other, float(p))


def _pairwise_differences(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a[..., i, :] - b[..., j, :]`` for every pair of rows i, j: shape (..., P, R, M)."""
    return a[..., :, None, :] - b[..., None, :, :]


class Cdist(Function):
    """The Euclidean distance between every row of x1 (..., P, M) and every row of x2 (..., R, M): the
    (..., P, R) matrix of ``||x1[i] - x2[j]||``. For row i of x1, with d_ij = x1[i] - x2[j] and n_ij its length:

        dx1[i] = sum_j g_ij d_ij / n_ij,    dx2[j] = -sum_i g_ij d_ij / n_ij      (0 where n_ij = 0)

    computed in one step by :class:`CdistBackward`, which PyTorch does not differentiate again: a second
    derivative through cdist raises, here as there.
    """

    node_name = "CdistBackward0"
    saved_names = ("x1", "x2", "result")

    @staticmethod
    def forward(ctx: Any, x1: Tensor, x2: Tensor) -> Tensor:
        a, b = x1._array, x2._array
        result = _wrap(np.sqrt((_pairwise_differences(a, b) ** 2).sum(-1)).astype(a.dtype, copy=False))
        ctx.save_for_backward(x1, x2, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x1, x2, result = ctx.saved_tensors
        dx1 = CdistBackward.apply(g, x1, x2, result, 1) if ctx.needs_input_grad[0] else None
        dx2 = CdistBackward.apply(g, x1, x2, result, 2) if ctx.needs_input_grad[1] else None
        return dx1, dx2


class CdistBackward(Function):
    """cdist's gradient for x1 (``which`` = 1) or x2 (2), see :class:`Cdist`; not differentiable itself."""

    node_name = "CdistBackwardBackward0"

    @staticmethod
    def forward(ctx: Any, g: Tensor, x1: Tensor, x2: Tensor, result: Tensor, which: int) -> np.ndarray:
        n = result._array
        w = np.where(n == 0, 0, g._array / np.where(n == 0, 1, n))[..., None]  # g / n, 0 where n = 0
        weighted = w * _pairwise_differences(x1._array, x2._array)
        grad = weighted.sum(-2) if which == 1 else -weighted.sum(-3)
        own = (x1 if which == 1 else x2)._array.shape
        return grad if grad.shape == own else sum_to_shape(_wrap(grad), own)._array  # (batch dims broadcast)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str | None = None) -> Tensor:
    """``tinygrad_edu.cdist(x1, x2)``: the matrix of Euclidean distances between the rows of x1 and of x2.

    Only p = 2, computed directly; for more than 25 rows PyTorch switches (unless told otherwise by
    ``compute_mode``) to the faster matrix-product formula ``sqrt(|a|**2 + |b|**2 - 2 a.b)``, whose results
    differ in the last float32 digits."""
    a, b = x1._array, x2._array
    if p != 2:
        raise NotImplementedError(f"cdist(p={p!r}): tinygrad_edu implements the Euclidean distance, p=2")
    _check(a.ndim >= 2, f"cdist only supports at least 2D tensors, X1 got: {a.ndim}D")
    _check(b.ndim >= 2, f"cdist only supports at least 2D tensors, X2 got: {b.ndim}D")
    _check(a.shape[-1] == b.shape[-1], f"X1 and X2 must have the same number of columns. X1: {a.shape[-1]} "
           f"X2: {b.shape[-1]}")
    _check(a.dtype.kind == "f", f"cdist only supports floating-point dtypes, X1 got: {_short(a)}")
    _check(b.dtype.kind == "f", f"cdist only supports floating-point dtypes, X2 got: {_short(b)}")
    _check(a.dtype == b.dtype, f"expected scalar type {_short(a)} but found {_short(b)}")
    broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return Cdist.apply(x1, x2)
