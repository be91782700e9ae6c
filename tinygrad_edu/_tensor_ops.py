"""Tensor's operators and math methods, bound in one place.

Each method is a thin front: it turns Python numbers into tensors where PyTorch does (so ``x * 2`` has
two inputs, the second needing no gradient: ``next_functions == ((AccumulateGrad, 0), (None, 0))``),
applies PyTorch's type promotion, and calls the op's ``Function.apply``. In-place methods (``add_``,
``+=`` ...) compute out of place and write the result into the tensor's storage, bumping ``_version``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _dtype
from ._tensor import Tensor, _wrap
from .autograd.function import Function
from .autograd.grad_mode import GradMode
from .ops import elementwise as ew
from .ops import linalg, reduce, selection, shape
from .ops.shape import sum_to

_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2}


def _scalar_dtype(x: np.ndarray, v: Any) -> np.dtype:
    """The dtype a Python number takes next to tensor ``x``: x's own, unless the number is of a higher
    kind (a float next to an int tensor gives float32, PyTorch's default float)."""
    kind = "b" if isinstance(v, (bool, np.bool_)) else "i" if isinstance(v, (int, np.integer)) else "f"
    if _CATEGORY[kind] <= _CATEGORY[x.dtype.kind]:
        return x.dtype
    return np.dtype(np.float32) if kind == "f" else np.dtype(np.int64)


def _promote(a: np.ndarray, b: np.ndarray) -> np.dtype:
    """PyTorch's promotion of two tensors: the higher kind wins; within a kind, a tensor with
    dimensions outranks a 0-d one."""
    ka, kb = _CATEGORY[a.dtype.kind], _CATEGORY[b.dtype.kind]
    if ka != kb:
        return a.dtype if ka > kb else b.dtype
    if a.ndim and not b.ndim:
        return a.dtype
    if b.ndim and not a.ndim:
        return b.dtype
    return np.result_type(a.dtype, b.dtype)


def _as_tensor(v: Any, like: Tensor) -> Tensor:
    if isinstance(v, Tensor):
        return v
    if isinstance(v, np.ndarray):
        return _wrap(v)
    if not isinstance(v, (int, float, bool, np.number, np.bool_)):
        raise TypeError(f"unsupported operand type: Tensor and '{type(v).__name__}'")
    return _wrap(np.asarray(v, dtype=_scalar_dtype(like._array, v)))


def _operands(x: Tensor, y: Any) -> tuple[Tensor, Tensor]:
    """Both operands as tensors of one dtype (casting one that needs no grad is free of graph nodes)."""
    y = _as_tensor(y, x)
    da, db = x._array.dtype, y._array.dtype
    if da != db:
        target = _promote(x._array, y._array)
        if da != target:
            x = x.to(target)
        if db != target:
            y = y.to(target)
    return x, y


def _check_broadcast(x: Tensor, y: Tensor) -> None:
    a, b = x._array.shape, y._array.shape
    if a == b:
        return
    for i, (m, n) in enumerate(zip(reversed(a), reversed(b))):
        if m != n and m != 1 and n != 1:
            dim = max(len(a), len(b)) - 1 - i
            raise RuntimeError(f"The size of tensor a ({m}) must match the size of tensor b ({n}) at non-singleton "
                               f"dimension {dim}")


def _binary(fn: type[Function]) -> Callable[..., Tensor]:
    def method(self: Tensor, other: Any, *, alpha: float = 1) -> Tensor:
        x, y = _operands(self, other)
        _check_broadcast(x, y)
        return fn.apply(x, y, alpha) if alpha != 1 else fn.apply(x, y)

    return method


def _reflected(fn: type[Function]) -> Callable[..., Tensor]:
    def method(self: Tensor, other: Any) -> Tensor:
        y, x = _operands(self, other)
        _check_broadcast(x, y)
        return fn.apply(x, y)

    return method


def _pow(self: Tensor, exponent: Any) -> Tensor:
    if isinstance(exponent, Tensor):
        x, y = _operands(self, exponent)
        _check_broadcast(x, y)
        return ew.PowTensor.apply(x, y)
    return ew.Pow.apply(self, exponent)


def _rpow(self: Tensor, base: Any) -> Tensor:
    if isinstance(base, Tensor):
        return _pow(base, self)
    return ew.RPow.apply(base, self if self._array.dtype.kind == "f" or isinstance(base, int) else self.float())


def _rsub(self: Tensor, other: Any) -> Tensor:
    if isinstance(other, Tensor):
        return other - self
    return ew.Rsub.apply(self if _scalar_dtype(self._array, other) == self._array.dtype else self.float(), other)


def _rtruediv(self: Tensor, other: Any) -> Tensor:
    return self.reciprocal() * other  # PyTorch records 2 / x as reciprocal, then MulBackward0


def _to(self: Tensor, *args: Any, dtype: Any = None, **kwargs: Any) -> Tensor:
    """Convert to a dtype (``x.to(tinygrad_edu.float64)``); devices other than "cpu" are not supported."""
    for a in args:
        if isinstance(a, _dtype.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, str) and a != "cpu":
            raise RuntimeError(f"tinygrad_edu runs on the CPU only; cannot move a tensor to '{a}'")
    if dtype is None:
        return self
    np_dtype = dtype.np if isinstance(dtype, _dtype.dtype) else np.dtype(dtype)
    if np_dtype == self._array.dtype:
        return self
    return selection.ToCopy.apply(self, np_dtype)


# ------------------------------------------------------------------------------------------------ in-place
_LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
_VIEW_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."


def _inplace(self: Tensor, op: Callable[..., Tensor], *args: Any) -> Tensor:
    """Do ``op(self, *args)`` and store the result in ``self``'s own storage.

    When autograd is recording, ``op`` runs on a snapshot of self's old value (so values it saves are
    not overwritten), and ``self`` takes over the result's ``grad_fn``: its history now ends in this op.
    """
    recording = GradMode.enabled and (self._requires_grad or any(isinstance(a, Tensor) and a._requires_grad
                                                                 for a in args))
    if recording:
        if self.grad_fn is None and self._requires_grad:
            raise RuntimeError(_LEAF_INPLACE)
        base = self._base
        if base is not None:
            if base.grad_fn is None and base._requires_grad:
                raise RuntimeError(_VIEW_LEAF_INPLACE)
            raise RuntimeError("tinygrad_edu does not record in-place operations on views (PyTorch rewrites the "
                               "base tensor's history for them). Use the out-of-place form (y = y * 2 rather than "
                               "y[0].mul_(2)), or clone() the view first.")
        src = _wrap(self._array.copy(), self.grad_fn, self._output_nr)
        src._requires_grad = self._requires_grad
    else:
        src = self
    result = op(src, *args)
    out = self._array
    if result._array.dtype != out.dtype and not np.can_cast(result._array.dtype, out.dtype, "same_kind"):
        raise RuntimeError(f"result type {result.dtype.name.capitalize()} can't be cast to the desired output type "
                           f"{_dtype.LEGACY_NAMES[self.dtype].removesuffix('Tensor')}")
    if result._array.shape != out.shape and np.broadcast_shapes(result._array.shape, out.shape) != out.shape:
        raise RuntimeError(f"output with shape [{', '.join(map(str, out.shape))}] doesn't match the broadcast shape "
                           f"[{', '.join(map(str, result._array.shape))}]")
    if not out.flags.writeable:
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a single "
                           "memory location. Please clone() the tensor before performing the operation.")
    np.copyto(out, result._array, casting="unsafe")
    self._version_counter[0] += 1
    if recording and result.grad_fn is not None:
        self.grad_fn, self._output_nr, self._requires_grad = result.grad_fn, result._output_nr, True
    return self


def _inplace_method(op: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return _inplace(self, lambda s, *a: op(s, *a, **kwargs), *args)

    return method


def _zero_(self: Tensor) -> Tensor:
    return _inplace(self, lambda s: s * 0)


def _fill_(self: Tensor, value: Any) -> Tensor:
    return _inplace(self, lambda s, v: (s * 0) + v, value)


def _copy_(self: Tensor, src: Any) -> Tensor:
    src = _as_tensor(src, self)
    return _inplace(self, lambda s, v: s * 0 + v.to(s.dtype), src)


class CopySlices(Function):
    """``x[key] = value``: the gradient reaches x everywhere except at key, and value through key."""

    node_name = "CopySlices"

    @staticmethod
    def forward(ctx: Any, x: Tensor, value: Tensor, key: Any) -> np.ndarray:
        out = x._array.copy()
        out[key] = value._array
        ctx.key, ctx.value_shape, ctx.shape = key, value._array.shape, out.shape
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        mask = np.ones(ctx.shape, dtype=g._array.dtype)
        mask[ctx.key] = 0
        dx = g * _wrap(mask) if ctx.needs_input_grad[0] else None
        dv = sum_to(shape.Index.apply(g, ctx.key), ctx.value_shape) if ctx.needs_input_grad[1] else None
        return dx, dv, None


def _setitem(self: Tensor, key: Any, value: Any) -> None:
    value = _as_tensor(value, self)
    nkey = tuple(shape._to_numpy_key(k) for k in key) if isinstance(key, tuple) else shape._to_numpy_key(key)
    if GradMode.enabled and (self._requires_grad or value._requires_grad):
        _inplace(self, lambda s, v: CopySlices.apply(s, v, nkey), value)
        return
    try:
        self._array[nkey] = value._array
    except ValueError as e:
        raise RuntimeError(str(e)) from None
    self._version_counter[0] += 1


# ------------------------------------------------------------------------------------------------ binding
def _bind() -> None:
    T = Tensor  # noqa: N806
    add, sub, mul, div = _binary(ew.Add), _binary(ew.Sub), _binary(ew.Mul), _binary(ew.Div)
    T.__add__ = T.add = T.__radd__ = add
    T.__sub__ = T.sub = T.subtract = sub
    T.__rsub__ = _rsub
    T.__mul__ = T.mul = T.multiply = T.__rmul__ = mul
    T.__truediv__ = T.div = T.divide = T.true_divide = div
    T.__rtruediv__ = _rtruediv
    T.__pow__ = T.pow = _pow
    T.__rpow__ = _rpow
    T.__neg__ = T.neg = T.negative = lambda self: ew.Neg.apply(self)
    T.__pos__ = lambda self: self
    T.__matmul__ = T.matmul = linalg.matmul
    T.__rmatmul__ = _reflected_matmul
    T.__abs__ = T.abs = lambda self: ew.Abs.apply(self)

    T.__iadd__ = T.add_ = _inplace_method(add)
    T.__isub__ = T.sub_ = _inplace_method(sub)
    T.__imul__ = T.mul_ = _inplace_method(mul)
    T.__itruediv__ = T.div_ = _inplace_method(div)
    T.clamp_ = _inplace_method(lambda s, min=None, max=None: ew.Clamp.apply(s, min, max))
    T.zero_, T.fill_, T.copy_ = _zero_, _fill_, _copy_
    T.__setitem__ = _setitem

    for name, fn in [("exp", ew.Exp), ("log", ew.Log), ("sqrt", ew.Sqrt), ("sin", ew.Sin), ("cos", ew.Cos),
                     ("tanh", ew.Tanh), ("sigmoid", ew.Sigmoid), ("relu", ew.Relu), ("reciprocal", ew.Reciprocal),
                     ("sign", ew.Sign), ("t", shape.T)]:
        setattr(T, name, (lambda f: lambda self: f.apply(self))(fn))
    T.square = lambda self: self * self
    T.clamp = T.clip = lambda self, min=None, max=None: ew.Clamp.apply(self, min, max)

    T.sum = reduce.sum
    T.mean = reduce.mean
    T.max = reduce.max
    T.min = reduce.min
    T.argmax, T.argmin = reduce.argmax, reduce.argmin
    T.softmax = lambda self, dim, dtype=None: reduce.softmax(self, dim, dtype)
    T.log_softmax = lambda self, dim, dtype=None: reduce.log_softmax(self, dim, dtype)
    T.maximum, T.minimum = selection.maximum, selection.minimum

    T.mm = lambda self, other: linalg.Mm.apply(self, other)
    T.mv = lambda self, other: linalg.Mv.apply(self, other)
    T.dot = lambda self, other: linalg.Dot.apply(self, other)
    T.bmm = lambda self, other: linalg.Bmm.apply(self, other)

    T.view, T.reshape = shape.view, shape.reshape
    T.view_as = lambda self, other: shape.view(self, other._array.shape)
    T.reshape_as = lambda self, other: shape.reshape(self, other._array.shape)
    T.flatten = lambda self, start_dim=0, end_dim=-1: _flatten(self, start_dim, end_dim)
    T.permute = lambda self, *dims: shape.Permute.apply(self, shape._shape_arg(dims))
    T.transpose = T.swapaxes = lambda self, d0, d1: shape.Transpose.apply(self, d0, d1)
    T.T = property(lambda self: shape.Permute.apply(self, tuple(range(self._array.ndim - 1, -1, -1))))
    T.mT = property(lambda self: shape.Transpose.apply(self, -2, -1))
    T.squeeze = shape.squeeze
    T.unsqueeze = lambda self, dim: shape.Unsqueeze.apply(self, dim)
    T.expand = lambda self, *sizes: shape.Expand.apply(self, shape._shape_arg(sizes))
    T.expand_as = lambda self, other: shape.Expand.apply(self, other._array.shape)
    T.__getitem__ = shape.getitem
    T.select, T.narrow = shape.select, shape.narrow

    T.to = _to
    T.float = lambda self: _to(self, _dtype.float32)
    T.double = lambda self: _to(self, _dtype.float64)
    T.half = lambda self: _to(self, _dtype.float16)
    T.long = lambda self: _to(self, _dtype.int64)
    T.int = lambda self: _to(self, _dtype.int32)
    T.bool = lambda self: _to(self, _dtype.bool)
    T.type_as = lambda self, other: _to(self, other.dtype)
    T.clone = lambda self: selection.Clone.apply(self)
    T.contiguous = lambda self: self if self._array.flags.c_contiguous else selection.Clone.apply(self)
    T.cpu = lambda self: self
    T.is_contiguous = lambda self: bool(self._array.flags.c_contiguous)

    for name, op in [("__eq__", operator.eq), ("__ne__", operator.ne), ("__lt__", operator.lt),
                     ("__le__", operator.le), ("__gt__", operator.gt), ("__ge__", operator.ge)]:
        setattr(T, name, (lambda o: lambda self, other: selection.compare(o, self, other))(op))
    T.eq, T.ne, T.lt, T.le, T.gt, T.ge = T.__eq__, T.__ne__, T.__lt__, T.__le__, T.__gt__, T.__ge__
    T.__and__ = lambda self, other: selection.compare(operator.and_, self, other)
    T.__or__ = lambda self, other: selection.compare(operator.or_, self, other)
    T.__invert__ = lambda self: _wrap(~self._array)
    T.logical_not = lambda self: _wrap(np.logical_not(self._array))
    T.equal = lambda self, other: self._array.shape == other._array.shape and bool(np.all(self._array == other._array))
    T.allclose = lambda self, other, rtol=1e-05, atol=1e-08, equal_nan=False: bool(
        np.allclose(self._array, other._array, rtol, atol, equal_nan))
    T.all = lambda self, dim=None, keepdim=False: _wrap(np.asarray(np.all(self._array, axis=dim, keepdims=keepdim)))
    T.any = lambda self, dim=None, keepdim=False: _wrap(np.asarray(np.any(self._array, axis=dim, keepdims=keepdim)))
    T.isnan = lambda self: _wrap(np.isnan(self._array))


def _reflected_matmul(self: Tensor, other: Any) -> Tensor:
    return linalg.matmul(_as_tensor(other, self), self)


def _flatten(x: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    nd = x._array.ndim
    if nd == 0:
        return x.reshape(1)
    s, e = shape._dim(start_dim, nd), shape._dim(end_dim, nd)
    if s == e:
        return x
    sh = x._array.shape
    return x.reshape(*sh[:s], -1, *sh[e + 1:])


_bind()
