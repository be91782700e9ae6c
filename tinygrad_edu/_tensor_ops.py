"""Tensor's operators and math methods, bound in one place.

Each method is a thin front: it turns Python numbers into tensors where PyTorch does (so ``x * 2`` has
two inputs, the second needing no gradient: ``next_functions == ((AccumulateGrad, 0), (None, 0))``),
giving a number the dtype PyTorch gives it (``int_tensor * 1.5`` is float32), and calls the op's
``Function.apply`` (the op promotes mixed tensor dtypes itself). In-place methods (``add_``,
``+=`` ...) compute out of place and write the result into the tensor's storage, bumping ``_version``.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _creation, _device, _dtype
from ._tensor import InferenceCounter, Tensor, _wrap
from .autograd.function import Function, _FloatErrors
from .autograd.grad_mode import GradMode
from .ops import elementwise as ew
from .ops import linalg, reduce, selection, shape
from .ops.shape import sum_to


def _scalar_dtype(x: np.ndarray, v: Any) -> np.dtype:
    """The dtype a Python number takes next to the array ``x`` (see ``_dtype.number_dtype``)."""
    return _dtype.number_dtype(v, x.dtype)


def _as_tensor(v: Any, like: Tensor) -> Tensor:
    """``v`` as a tensor for an operation with ``like``. A Python number becomes a *wrapped number*, as in
    PyTorch: a 0-d tensor of the number's own type (``tensor(2)``, int64, is what ``x * 2`` saves), which
    takes part in type promotion only if it is of a higher kind (see ``_dtype.wrapped_result_type``)."""
    if isinstance(v, Tensor):
        return v
    if isinstance(v, np.ndarray):
        return _wrap(v)
    if not isinstance(v, (int, float, bool, np.number, np.bool_)):
        raise TypeError(f"unsupported operand type: Tensor and '{type(v).__name__}'")
    wrapped = _wrap(np.asarray(v, dtype=_dtype.wrapped_number_dtype(v)))
    wrapped._wrapped_number = True
    return wrapped


def _operands(x: Tensor, y: Any) -> tuple[Tensor, Tensor]:
    """Both operands as tensors. Their dtypes may differ: the op computes in the promoted dtype and
    gives each input its gradient in its own dtype, recording no conversion node (as PyTorch)."""
    return x, _as_tensor(y, x)


def _check_broadcast(x: Tensor, y: Tensor) -> None:
    if x._array.shape != y._array.shape:
        shape.broadcast_shapes(x._array.shape, y._array.shape)  # raises PyTorch's error if they do not broadcast


def _binary(fn: type[Function], ufunc: np.ufunc) -> Callable[..., Tensor]:
    def method(self: Tensor, other: Any, *, alpha: float = 1) -> Tensor:
        if isinstance(other, Tensor) and other._array.shape == self._array.shape:
            if _FloatErrors.silenced and not GradMode.enabled and alpha == 1 and \
                    self._array.dtype == other._array.dtype and self._array.dtype.kind == "f":
                # Inside a backward pass without create_graph (a formula's ``g * y``): nothing is recorded,
                # numpy's float warnings are off already and there is nothing to promote, so the op is
                # numpy's own ufunc; going through ``fn.apply`` would give the same tensor three times slower.
                return _wrap(ufunc(self._array, other._array))
            x, y = self, other  # the usual case, a tensor of the same shape: nothing to convert or check
        else:
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
    # The result takes the exponent's dtype unless the base is of a higher kind: 2 ** int64 is int64,
    # 2.5 ** int64 is float32, and 2 ** bool is int64 (a bool cannot hold powers).
    target = _scalar_dtype(self._array, base)
    if target.kind == "b":
        target = np.dtype(np.int64)
    return ew.RPow.apply(base, self if target == self._array.dtype else self.to(target))


def _rsub(self: Tensor, other: Any) -> Tensor:
    if isinstance(other, Tensor):
        return other - self
    return ew.Rsub.apply(self if _scalar_dtype(self._array, other) == self._array.dtype else self.float(), other)


def _rtruediv(self: Tensor, other: Any) -> Tensor:
    return self.reciprocal() * other  # PyTorch records 2 / x as reciprocal, then MulBackward0


def _remainder(self: Tensor, other: Any) -> Tensor:
    if isinstance(other, (Tensor, np.ndarray)):
        x, y = _operands(self, other)
        _check_broadcast(x, y)
        return ew.RemainderTensor.apply(x, y)
    return ew.remainder(self, other)


def _floor_divide(self: Tensor, other: Any) -> Tensor:
    if isinstance(other, np.ndarray):
        other = _wrap(other)
    if isinstance(other, Tensor):
        _check_broadcast(self, other)
    return ew.floor_divide(self, other)


# 'tinygrad_edu.FloatTensor' (and PyTorch's spelling, 'torch.FloatTensor') -> float32 ...: for x.type(name)
_TYPE_NAMES = {f"{prefix}.{name}": d for d, name in _dtype.LEGACY_NAMES.items() for prefix in ("tinygrad_edu", "torch")}


def _type(self: Tensor, dtype: Any = None, non_blocking: bool = False) -> Any:
    """``x.type()``: the type's old-style name, ``'tinygrad_edu.FloatTensor'``; ``x.type(dtype)`` converts, as
    ``x.to(dtype)``, and so does a name (``'torch.DoubleTensor'`` is read as ``'tinygrad_edu.DoubleTensor'``,
    so that code written for PyTorch runs)."""
    if dtype is None:
        return f"tinygrad_edu.{_dtype.LEGACY_NAMES[self.dtype]}"
    if isinstance(dtype, str):
        if dtype not in _TYPE_NAMES:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = _TYPE_NAMES[dtype]
    if isinstance(dtype, type):
        raise ValueError(f"invalid type: '{dtype.__name__}'")
    if not isinstance(dtype, _dtype.dtype):
        raise TypeError("dtype must be a type, str, or dtype object")
    return _to(self, dtype)


def _comparison(op: Callable[[Any, Any], Any]) -> Callable[[Tensor, Any], Any]:
    """``x == y``, ``x < y`` ...: element-wise against a tensor, a number or an array. Anything else is not
    compared element by element: Python's own rules apply, as in PyTorch (``x == None`` is False, ``x != "a"``
    True, ``x < None`` a TypeError)."""
    def method(self: Tensor, other: Any) -> Any:
        if not isinstance(other, (Tensor, int, float, np.number, np.bool_, np.ndarray)):
            return NotImplemented
        return selection.compare(op, self, other)

    return method


def _to(self: Tensor, *args: Any, dtype: Any = None, device: Any = None, **kwargs: Any) -> Tensor:
    """Convert to a dtype (``x.to(tinygrad_edu.float64)``); devices other than "cpu" are not supported."""
    for a in (*args, device):
        if isinstance(a, (_dtype.dtype, np.dtype)):  # np.dtype: what the library's own code passes
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, (str, _device.device)) and str(a) != "cpu":
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


def _partial_overlap(out: np.ndarray, a: np.ndarray) -> bool:
    """Whether ``a`` shares some, but not exactly all, of ``out``'s memory (``y.sub_(y[0, 0])``): writing the
    result element by element would then read values already overwritten. (``y.add_(y)`` is fine.)"""
    if not np.may_share_memory(out, a):  # cheap: do the memory ranges overlap at all?
        return False
    same = (out.__array_interface__["data"][0] == a.__array_interface__["data"][0] and out.shape == a.shape
            and out.strides == a.strides)
    return not same and np.shares_memory(out, a)


def _inplace(self: Tensor, op: Callable[..., Tensor], *args: Any) -> Tensor:
    """Do ``op(self, *args)`` and store the result in ``self``'s own storage.

    When autograd is recording, ``op`` runs on a snapshot of self's old value (so values it saves are
    not overwritten), and ``self`` takes over the result's ``grad_fn``: its history now ends in this op.
    """
    if type(self._version_counter) is InferenceCounter:
        InferenceCounter.check_inplace()
    for a in args:
        if isinstance(a, Tensor) and _partial_overlap(self._array, a._array):
            raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor "
                               "refer to a single memory location. Please clone() the tensor before performing the "
                               "operation.")
    recording = GradMode.enabled and (self._requires_grad or any(isinstance(a, Tensor) and a._requires_grad
                                                                 for a in args))
    if recording:
        if self.grad_fn is None and self._requires_grad:
            raise RuntimeError(_LEAF_INPLACE)
        base = self._base
        if base is not None:
            refusal = getattr(self, "_inplace_error", None)  # a view whose maker forbids in-place changes (nn.hooks)
            if refusal is not None:
                raise RuntimeError(refusal)
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
        names = [_dtype.LEGACY_NAMES[t.dtype].removesuffix("Tensor") for t in (result, self)]  # "Float", "Long"
        raise RuntimeError(f"result type {names[0]} can't be cast to the desired output type {names[1]}")
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


_UNARY_INPLACE = ("abs", "neg", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "reciprocal", "sign",
                  "square")


def _inplace_method(op: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return _inplace(self, lambda s, *a: op(s, *a, **kwargs), *args)

    return method


class Zero(Function):
    """``x.zero_()``: the old values are gone, so no gradient reaches them (dx = 0)."""

    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        return np.zeros_like(x._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return _wrap(np.zeros_like(g._array))  # a constant zero, with no history even under create_graph


class Fill(Function):
    """``x.fill_(v)`` with a number v: dx = 0."""

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx: Any, x: Tensor, value: Any) -> np.ndarray:
        return np.full_like(x._array, value)  # converted to x's dtype: an int64 tensor filled with 2.7 holds 2

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return _wrap(np.zeros_like(g._array)), None


class FillTensor(Function):
    """``x.fill_(v)`` with a 0-d tensor v: dx = 0, and dv = sum(g) (v went into every element)."""

    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx: Any, x: Tensor, value: Tensor) -> np.ndarray:
        if value._array.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._array.ndim} dimensions.")
        ctx.value_dtype = value._array.dtype
        return np.full_like(x._array, value._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dv = g.sum() if ctx.needs_input_grad[1] else None
        return _wrap(np.zeros_like(g._array)), None if dv is None else dv.to(ctx.value_dtype)


class Copy(Function):
    """``x.copy_(src)``: x's old values are overwritten (dx = 0); src, broadcast to x's shape, gets
    dsrc = sum_to(g, src.shape). (A src of another dtype is converted first, by its own node.)"""

    node_name = "CopyBackwards"  # PyTorch's name for this node has no "0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, src: Tensor) -> np.ndarray:
        ctx.src_shape = src._array.shape
        return np.broadcast_to(src._array, x._array.shape).astype(x._array.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        dsrc = sum_to(g, ctx.src_shape) if ctx.needs_input_grad[1] else None
        return _wrap(np.zeros_like(g._array)), dsrc


def _zero_(self: Tensor) -> Tensor:
    return _inplace(self, Zero.apply)


def _fill_(self: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return _inplace(self, FillTensor.apply, value)
    if not isinstance(value, (int, float, bool, np.number, np.bool_)):
        raise TypeError(f"fill_() received an invalid combination of arguments - got ({type(value).__name__}), but "
                        f"expected one of:\n * (Tensor value)\n      didn't match because some of the arguments "
                        f"have invalid types: (!{type(value).__name__}!)\n * (Number value)\n      didn't match "
                        f"because some of the arguments have invalid types: (!{type(value).__name__}!)\n")
    return _inplace(self, Fill.apply, value)


def _copy_(self: Tensor, src: Any) -> Tensor:
    src = _as_tensor(src, self)
    target = shape.broadcast_shapes(self._array.shape, src._array.shape)
    if target != self._array.shape:
        raise RuntimeError(f"output with shape [{', '.join(map(str, self._array.shape))}] doesn't match the broadcast "
                           f"shape [{', '.join(map(str, target))}]")
    return _inplace(self, lambda s, v: Copy.apply(s, v.to(s.dtype)), src)


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


# PyTorch writes these two nodes by hand in C++: name() gives the C++ name (as for AccumulateGrad), while a
# tensor's repr shows the class name: grad_fn=<CopyBackwards>.
Copy._backward_cls.name = lambda node: "tinygrad_edu::autograd::CopyBackwards"
CopySlices._backward_cls.name = lambda node: "tinygrad_edu::autograd::CopySlices"


def _is_view_key(key: Any) -> bool:
    """Whether ``x[key]`` is a proper view of x: basic indexing (ints, slices) that selects a part of it."""
    keys = key if isinstance(key, tuple) else (key,)
    basic = all(isinstance(k, (int, np.integer, slice)) or k is None or k is Ellipsis for k in keys)
    return basic and any(isinstance(k, (int, np.integer)) or (isinstance(k, slice) and k != slice(None))
                         for k in keys)


def _setitem(self: Tensor, key: Any, value: Any) -> None:
    value = _as_tensor(value, self)
    nkey = tuple(shape._to_numpy_key(k) for k in key) if isinstance(key, tuple) else shape._to_numpy_key(key)
    if GradMode.enabled and self._requires_grad and self.grad_fn is None and _is_view_key(nkey):
        raise RuntimeError(_VIEW_LEAF_INPLACE)  # PyTorch writes x[0] = v as x[0].copy_(v): through a view
    if GradMode.enabled and (self._requires_grad or value._requires_grad):
        _inplace(self, lambda s, v: CopySlices.apply(s, v, nkey), value)
        return
    if type(self._version_counter) is InferenceCounter:
        InferenceCounter.check_inplace()
    try:
        self._array[nkey] = value._array
    except ValueError as e:
        raise RuntimeError(str(e)) from None
    self._version_counter[0] += 1


# ------------------------------------------------------------------------------------------------ binding
def _bind() -> None:
    T = Tensor  # noqa: N806
    add, sub = _binary(ew.Add, np.add), _binary(ew.Sub, np.subtract)
    mul, div = _binary(ew.Mul, np.multiply), _binary(ew.Div, np.true_divide)
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
    T.matmul = _matmul_method
    T.__matmul__, T.__rmatmul__ = _matmul_operator, _reflected_matmul
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
    T.square = lambda self: ew.Pow.apply(self, 2)  # PyTorch records square as pow(x, 2): PowBackward0
    T.clamp = T.clip = lambda self, min=None, max=None: ew.Clamp.apply(self, min, max)
    # The in-place forms (x.sin_(), tinygrad_edu.sin_(x)): the same Function, its result written back into x's
    # storage, so the graph gets the same node (SinBackward0) as for y = x.sin().
    for name in _UNARY_INPLACE:
        setattr(T, name + "_", _inplace_method(getattr(T, name)))
    T.pow_ = _inplace_method(T.pow)
    # More of the same kind (log1p, rsqrt, atan, floor ...), each with its in-place form (x.floor_() ...).
    for name, fn in [("log1p", ew.Log1p), ("expm1", ew.Expm1), ("rsqrt", ew.Rsqrt), ("log2", ew.Log2),
                     ("log10", ew.Log10), ("tan", ew.Tan), ("atan", ew.Atan), ("asin", ew.Asin), ("acos", ew.Acos),
                     ("sinh", ew.Sinh), ("cosh", ew.Cosh), ("floor", ew.Floor), ("ceil", ew.Ceil),
                     ("trunc", ew.Trunc), ("frac", ew.Frac)]:
        setattr(T, name, (lambda f: lambda self: f.apply(self))(fn))
        setattr(T, name + "_", _inplace_method(getattr(T, name)))
    T.arctan, T.arcsin, T.arccos, T.fix = T.atan, T.asin, T.acos, T.trunc  # PyTorch's aliases
    T.round, T.round_ = ew.round_to, _inplace_method(ew.round_to)
    T.masked_fill, T.masked_fill_ = ew.masked_fill, _inplace_method(ew.masked_fill)
    T.logsumexp = reduce.logsumexp

    T.sum = reduce.sum
    T.mean = reduce.mean
    T.norm = reduce.norm
    T.max = reduce.max
    T.min = reduce.min
    T.argmax, T.argmin = reduce.argmax, reduce.argmin
    T.softmax = lambda self, dim, dtype=None: reduce.softmax(self, dim, dtype)
    T.log_softmax = lambda self, dim, dtype=None: reduce.log_softmax(self, dim, dtype)
    T.maximum, T.minimum = selection.maximum, selection.minimum
    T.var, T.std, T.prod, T.cumsum = reduce.var, reduce.std, reduce.prod, reduce.cumsum
    T.__mod__ = T.remainder = _remainder
    T.__rmod__ = lambda self, other: ew.remainder(other, self)
    T.__floordiv__ = T.floor_divide = _floor_divide
    T.__rfloordiv__ = lambda self, other: ew.floor_divide(other, self)
    T.__imod__ = T.remainder_ = _inplace_method(_remainder)
    T.__ifloordiv__ = T.floor_divide_ = _inplace_method(_floor_divide)
    T.isclose, T.nonzero = selection.isclose, selection.nonzero
    T.sort, T.argsort, T.topk = selection.sort, selection.argsort, selection.topk

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
    T.T = property(_reversed_dims)
    T.mT = property(_matrix_transpose)
    T.squeeze = shape.squeeze
    T.unsqueeze = lambda self, dim: shape.Unsqueeze.apply(self, dim)
    T.expand = lambda self, *sizes: shape.Expand.apply(self, shape._shape_arg(sizes))
    T.expand_as = lambda self, other: shape.Expand.apply(self, other._array.shape)
    T.repeat = lambda self, *sizes: shape.Repeat.apply(self, shape._shape_arg(sizes))
    T.__getitem__ = shape.getitem
    T.select, T.narrow = shape.select, shape.narrow
    T.unbind = shape.unbind
    # indexing with index tensors, cutting, flipping, diagonals (ops/selection.py, ops/shape.py)
    T.where = lambda self, condition, other: selection.where(condition, self, other)
    T.gather, T.index_select, T.take = selection.gather, selection.index_select, selection.take
    T.scatter, T.scatter_add, T.masked_select = selection.scatter, selection.scatter_add, selection.masked_select
    T.index_add, T.index_fill = selection.index_add, selection.index_fill
    for name in ("scatter", "scatter_add", "index_add", "index_fill"):
        setattr(T, name + "_", _inplace_method(getattr(T, name)))
    T.unique = selection.unique
    T.split, T.chunk, T.tile, T.repeat_interleave = shape.split, shape.chunk, shape.tile, shape.repeat_interleave
    T.flip, T.fliplr, T.flipud, T.roll, T.rot90 = shape.flip, shape.fliplr, shape.flipud, shape.roll, shape.rot90
    T.broadcast_to = lambda self, *sizes: shape.Expand.apply(self, shape._shape_arg(sizes))
    T.swapdims = T.swapaxes
    T.unflatten, T.movedim, T.moveaxis = shape.unflatten, shape.movedim, shape.movedim
    T.tril = lambda self, diagonal=0: shape.Tril.apply(self, diagonal)
    T.triu = lambda self, diagonal=0: shape.Triu.apply(self, diagonal)
    T.tril_, T.triu_ = _inplace_method(T.tril), _inplace_method(T.triu)
    T.diag, T.diagonal, T.diag_embed = shape.diag, shape.diagonal, shape.diag_embed
    T.trace = lambda self: shape.Trace.apply(self)
    T.new_zeros, T.new_ones, T.new_empty = _creation.new_zeros, _creation.new_ones, _creation.new_empty
    T.new_full, T.new_tensor = _creation.new_full, _creation.new_tensor
    # the memory layout, in PyTorch's units (elements, not numpy's bytes)
    T.stride, T.storage_offset, T.data_ptr = _stride, _storage_offset, lambda self: _address(self._array)
    T.element_size = lambda self: self._array.itemsize
    T.itemsize = property(lambda self: self._array.itemsize)
    T.nbytes = property(lambda self: self._array.size * self._array.itemsize)

    T.to = _to
    T.float = lambda self: _to(self, _dtype.float32)
    T.double = lambda self: _to(self, _dtype.float64)
    T.half = lambda self: _to(self, _dtype.float16)
    T.long = lambda self: _to(self, _dtype.int64)
    T.int = lambda self: _to(self, _dtype.int32)
    T.bool = lambda self: _to(self, _dtype.bool)
    T.type_as = lambda self, other: _to(self, other.dtype)
    T.type = _type
    T.clone = lambda self: selection.Clone.apply(self)
    T.contiguous = lambda self: self if self._array.flags.c_contiguous else selection.Clone.apply(self)
    T.cpu = lambda self: self
    T.is_contiguous = lambda self: bool(self._array.flags.c_contiguous)

    for name, op in [("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt), ("le", operator.le),
                     ("gt", operator.gt), ("ge", operator.ge)]:
        setattr(T, name, (lambda o: lambda self, other: selection.compare(o, self, other))(op))
        setattr(T, f"__{name}__", _comparison(op))
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
    # more math: tests, logical ops, two-argument functions, erf ... (ops/elementwise.py), amax/amin
    # (ops/reduce.py); each with its in-place form where PyTorch has one
    T.isinf, T.isfinite, T.amax, T.amin = ew.isinf, ew.isfinite, reduce.amax, reduce.amin
    for name in ("logical_and", "logical_or", "logical_xor", "atan2", "hypot", "logaddexp", "fmod", "lerp"):
        setattr(T, name, getattr(ew, name))
    for name, fn in [("erf", ew.Erf), ("erfc", ew.Erfc), ("erfinv", ew.Erfinv), ("exp2", ew.Exp2),
                     ("deg2rad", ew.Deg2rad), ("rad2deg", ew.Rad2deg)]:
        setattr(T, name, (lambda f: lambda self: f.apply(self))(fn))
    for name in ("logical_and", "logical_or", "logical_xor", "logical_not", "atan2", "hypot", "fmod", "lerp", "erf",
                 "erfc", "erfinv", "exp2", "deg2rad", "rad2deg", "true_divide"):
        setattr(T, name + "_", _inplace_method(getattr(T, name)))
    T.arctan2 = lambda self, other: ew.Atan2.apply(*ew._tensor_pair(self, other, "arctan2"))
    T.arctan2_ = _inplace_method(T.arctan2)
    # fused products and other products (ops/elementwise.py, ops/linalg.py)
    T.addcmul, T.addcdiv = ew.addcmul, ew.addcdiv
    T.addmm, T.baddbmm = linalg.addmm, linalg.baddbmm
    for name in ("addcmul", "addcdiv", "addmm", "baddbmm"):
        setattr(T, name + "_", _inplace_method(getattr(T, name)))
    T.outer = T.ger = linalg.outer
    T.inner, T.kron, T.cross, T.dist = linalg.inner, linalg.kron, linalg.cross, linalg.dist
    T.cumprod, T.diff, T.median = reduce.cumprod, reduce.diff, reduce.median
    T.cumprod_ = _inplace_method(T.cumprod)
    T.lgamma = lambda self: ew.Lgamma.apply(self)
    T.digamma = lambda self: ew.Digamma.apply(self)
    T.polygamma = lambda self, n: ew.Polygamma.apply(self, n)
    T.lgamma_, T.digamma_, T.polygamma_ = (_inplace_method(getattr(T, n)) for n in ("lgamma", "digamma", "polygamma"))


def _reversed_dims(self: Tensor) -> Tensor:
    """``x.T``: all dimensions reversed. PyTorch means it for matrices and warns about other shapes."""
    nd = self._array.ndim
    if nd == 0:
        warnings.warn("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
                      UserWarning, stacklevel=2)
    elif nd != 2:
        warnings.warn("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
                      "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
                      "matrices or `x.permute(*tinygrad_edu.arange(x.ndim - 1, -1, -1))` to reverse the dimensions "
                      "of a tensor.", UserWarning, stacklevel=2)
    return shape.Permute.apply(self, tuple(range(nd - 1, -1, -1)))


def _matrix_transpose(self: Tensor) -> Tensor:
    """``x.mT``: the last two dimensions swapped (a batch of matrices, each transposed)."""
    if self._array.ndim < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got "
                           f"{self._array.ndim}-D tensor.")
    return shape.Transpose.apply(self, -2, -1)


def _matmul_method(self: Tensor, other: Any) -> Tensor:
    if not isinstance(other, Tensor):
        raise TypeError(f"matmul(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
    return linalg.matmul(self, other)


def _matmul_operator(self: Tensor, other: Any) -> Any:
    """``x @ y``: a numpy array is taken as a tensor (as PyTorch does); for other types, Python's TypeError."""
    if isinstance(other, np.ndarray):
        other = _wrap(other)
    return linalg.matmul(self, other) if isinstance(other, Tensor) else NotImplemented


def _reflected_matmul(self: Tensor, other: Any) -> Any:
    return linalg.matmul(other, self) if isinstance(other, Tensor) else NotImplemented


def _flatten(x: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    nd = x._array.ndim
    if nd == 0:
        return x.reshape(1)
    s, e = shape._dim(start_dim, nd), shape._dim(end_dim, nd)
    if s == e:
        return x
    sh = x._array.shape
    return x.reshape(*sh[:s], -1, *sh[e + 1:])


def _stride(self: Tensor, dim: int | None = None) -> tuple[int, ...] | int:
    """How many elements to step over in memory to move one place along each dim: ``(3, 1)`` for a
    contiguous 2x3 tensor, ``(1, 3)`` for its transpose (the same memory read the other way), 0 along a
    dim made by ``expand`` (every place there reads the same element). numpy counts bytes; PyTorch counts
    elements."""
    strides = tuple(s // self._array.itemsize for s in self._array.strides)
    return strides if dim is None else strides[shape._dim(dim, self._array.ndim)]


def _address(a: np.ndarray) -> int:
    """Where an array's first element is in memory (``data_ptr()``: equal for views that start there)."""
    return a.__array_interface__["data"][0]


def _storage_offset(self: Tensor) -> int:
    """How many elements into its storage this tensor starts: 0 for a fresh tensor, 5 for ``x[1, 1:]`` of a
    4-column x. (The storage is the array at the root of numpy's ``.base`` chain, which owns the memory; so
    ``from_numpy(a[2:])`` starts 2 elements in, where PyTorch counts its storage from the slice.)"""
    root = self._array
    while isinstance(root.base, np.ndarray):
        root = root.base
    return (_address(self._array) - _address(root)) // self._array.itemsize


_bind()
