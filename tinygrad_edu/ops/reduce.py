"""Reductions: var/std, prod, max/min, cumsum, and softmax/log_softmax along a dimension. (sum and mean are
entries of the core's derivative table, ``tinygrad_edu/core/derivatives.py``.)

=====================  ================================================================
max    out = x_k          dx = g at the position k of the max, 0 elsewhere
                          (over the whole tensor, ties share g evenly, as in PyTorch)
softmax      s = e^x / sum e^x        dx = s * (g - sum(g * s))
log_softmax  l = x - log(sum e^x)     dx = g - e^l * sum(g)
norm (p=2)   n = sqrt(sum x^2)        dx = g * x / n   (0 where n = 0)
norm (p=1)   n = sum |x|              dx = g * sign(x)
var    v = sum (x - m)^2 / (n - c)    dx = g * 2 (x - m) / (n - c)    (m the mean, c the correction)
std    s = sqrt(var)                  dx = dvar / (2 s)               (0 where s = 0)
prod   p = prod_i x_i                 dx_i = g * prod_{j != i} x_j    (p / x_i when no x is 0)
cumsum out_i = x_0 + ... + x_i        dx_j = g_j + ... + g_last       (cumsum of g from the other end)
=====================  ================================================================
"""

from __future__ import annotations

import builtins
import math
import warnings
from typing import Any

import numpy as np

from .._arrays import short_rows, sum_dtype, vector_row_sums
from .._checks import each_once, no_integer_kernel
from .._dtype import LEGACY_NAMES
from .._printing import return_type
from ..core.derivatives import rounded_once
from ..core.function import RESULT, Function
from ..core.function import wrap as _wrap
from ..core.grad_mode import GradMode, Speed
from ..core.tensor import Tensor
from . import numpy_names, unrecorded
from .elementwise import DivScalar, MulScalar, maximum, minimum, zero_where
from .shape import Index, _dim, cat


def _kept_shape(shape: tuple[int, ...], dims: tuple[int, ...] | None) -> tuple[int, ...]:
    """The shape of a reduction's result with keepdim=True: the reduced dimensions (all, for None) become 1."""
    return tuple(1 if dims is None or i in dims else n for i, n in enumerate(shape))


def _dims(dim: int | tuple | list | None, ndim: int) -> tuple[int, ...] | None:
    if dim is None:
        return None
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return tuple(sorted(_dim(d, ndim) for d in dims))


class Norm(Function):
    """The vector norm ``||x||_p`` over all elements or over ``dims`` (p = 2, the length, or p = 1).

    d||x||_2/dx = x / ||x||_2: the unit vector along x (taken as 0 at x = 0, where the norm has a kink, as
    PyTorch does); d||x||_1/dx = sign(x).
    """

    node_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, p: float, dims: tuple[int, ...] | None, keepdim: bool) -> np.ndarray:
        _check_float(x, "linalg.vector_norm")
        a = x._array
        ctx.in_shape, ctx.dims, ctx.keepdim, ctx.p = a.shape, dims, keepdim, p
        n = np.abs(a).sum(axis=dims, keepdims=keepdim) if p == 1 else \
            np.sqrt((a * a).sum(axis=dims, keepdims=keepdim))
        result = _wrap(np.asarray(n, dtype=a.dtype))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, n = ctx.saved_tensors
        kept = _kept_shape(ctx.in_shape, ctx.dims)
        if not ctx.keepdim:
            g, n = g.reshape(kept), n.reshape(kept)
        if ctx.p == 1:
            return g * x.sign(), None, None, None
        safe = n + _wrap((n._array == 0).astype(n._array.dtype))  # 1 where n = 0, so x / n is 0 / 1 = 0 there
        return x / safe * g, None, None, None


class NormInf(Function):
    """The vector norms that pick or count instead of summing powers: p = inf is max |x|, p = -inf min |x|, p = 0 the
    number of non-zero elements.

    For p = ±inf, g goes to the elements whose |x| is the norm, shared evenly among ties (as for max), with the sign
    of x; p = 0 is a count, with no gradient at all (x.grad stays None, as in PyTorch).
    """

    node_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, p: float, dims: tuple[int, ...] | None, keepdim: bool) -> np.ndarray:
        _check_float(x, "linalg.vector_norm")
        a = np.abs(x._array)
        ctx.in_shape, ctx.dims, ctx.keepdim, ctx.p = a.shape, dims, keepdim, p
        if p == 0:
            n = (a != 0).sum(axis=dims, keepdims=keepdim)
        else:
            n = (np.max if p > 0 else np.min)(a, axis=dims, keepdims=keepdim)
        result = _wrap(np.asarray(n, dtype=a.dtype))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        if ctx.p == 0:
            return None, None, None, None
        x, n = ctx.saved_tensors
        kept = _kept_shape(ctx.in_shape, ctx.dims)
        if not ctx.keepdim:
            g, n = g.reshape(kept), n.reshape(kept)
        chosen = np.abs(x._array) == n._array
        count = _wrap(chosen.sum(axis=ctx.dims, keepdims=True).astype(x._array.dtype))
        return zero_where(~chosen, x.sign() * (g / count)), None, None, None


def norm(x: Tensor, p: float | str | None = "fro", dim: int | tuple | list | None = None,
         keepdim: bool = False) -> Tensor:
    """``x.norm()``: the length sqrt(sum x^2) of x seen as one vector (or along ``dim``); ``p=1``: sum |x|;
    ``p=float('inf')``: max |x| (``-inf``: min |x|; ``0``: how many are not 0)."""
    if p == "fro" or p is None:
        p = 2
    if p in (1, 2):
        return Norm.apply(x, p, _dims(dim, x._array.ndim), keepdim)
    if p in (math.inf, -math.inf, 0):
        return NormInf.apply(x, float(p), _dims(dim, x._array.ndim), keepdim)
    raise NotImplementedError(f"norm(p={p!r}): tinygrad_edu implements p=2 (the default), p=1, p=inf, -inf and 0; "
                              "for another p write it out, e.g. (x.abs() ** p).sum() ** (1 / p)")


def _check_float(x: Tensor, name: str) -> None:
    if x._array.dtype.kind != "f":
        raise RuntimeError(f"{name}(): could not infer output dtype. Input dtype must be either a floating point or "
                           f"complex dtype. Got: {LEGACY_NAMES[x.dtype].removesuffix('Tensor')}")


class MaxAll(Function):
    """max over all elements. If several elements tie, each gets an equal share of g (PyTorch's choice); if the max
    is nan, the nans share it."""

    node_name = "MaxBackward1"
    saved_names = ("self", "result")
    _reduce = staticmethod(np.max)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        if x._array.size == 0:
            raise RuntimeError("max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                               "reduction dim with the 'dim' argument.")
        result = _wrap(np.asarray(ctx._forward_cls._reduce(x._array)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return _evenly_distributed(g, *ctx.saved_tensors)


def _evenly_distributed(g: Tensor, x: Tensor, result: Tensor) -> Tensor:
    """A reduction over all elements that picks one value (max, min, median): g split evenly among the elements
    equal to it, or among the nans when it is nan (PyTorch's ``evenly_distribute_backward``)."""
    r = result._array
    chosen = np.isnan(x._array) if r.dtype.kind == "f" and np.isnan(r) else x._array == r
    # g shared among the chosen, and exactly 0 elsewhere (masked: an infinite g must not give inf * 0 = nan)
    return zero_where(~chosen, (g / float(chosen.sum())).expand(x._array.shape))


class MinAll(MaxAll):
    node_name = "MinBackward1"
    _reduce = staticmethod(np.min)


def picked(ctx: Any, a: np.ndarray, idx: np.ndarray, dim: int, keepdim: bool) -> tuple:
    """(values, indices) as max(dim) returns them, for the positions ``idx`` (one per slice along ``dim``, kept as a
    dim of size 1); the indices saved for backward, which sends the gradient there, and marked non-differentiable."""
    values = np.take_along_axis(a, idx, dim) if a.ndim else a.copy()
    if not keepdim and a.ndim:
        values, idx = values.squeeze(dim), idx.squeeze(dim)
    indices = _wrap(idx.astype(np.int64))
    ctx.save_for_backward(indices)
    ctx.in_shape, ctx.dim, ctx.keepdim = a.shape, dim, keepdim
    ctx.mark_non_differentiable(indices)
    return values, indices


class MaxDim(Function):
    """max along a dimension: returns (values, indices); the gradient goes to the chosen index."""

    node_name = "MaxBackward0"
    saved_names = ("indices",)
    _arg = staticmethod(np.argmax)

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, keepdim: bool) -> tuple:
        a = x._array
        dim = _dim(dim, a.ndim)
        if a.ndim and a.shape[dim] == 0:
            raise IndexError(f"max(): Expected reduction dim {dim} to have non-zero size.")
        idx = np.expand_dims(ctx._forward_cls._arg(a, axis=dim), dim) if a.ndim else np.zeros((), np.int64)
        return picked(ctx, a, idx, dim, keepdim)

    @staticmethod
    def backward(ctx: Any, g: Tensor, _: Any) -> tuple:
        (indices,) = ctx.saved_tensors
        idx = indices._array if ctx.keepdim else np.expand_dims(indices._array, ctx.dim)
        if not ctx.keepdim:
            g = g.unsqueeze(ctx.dim)
        return _ScatterAlong.apply(g, ctx.in_shape, ctx.dim, idx), None, None


class MinDim(MaxDim):
    node_name = "MinBackward0"
    _arg = staticmethod(np.argmin)


class _ScatterAlong(Function):
    """Zeros of ``shape`` with g put at ``idx`` along ``dim``; its backward gathers (take_along_axis)."""

    node_name = "ValueSelectingReductionBackwardBackward0"

    @staticmethod
    def forward(ctx: Any, g: Tensor, shape: tuple, dim: int, idx: np.ndarray) -> np.ndarray:
        ctx.dim, ctx.idx = dim, idx
        out = np.zeros(shape, dtype=g._array.dtype)
        if out.ndim:
            np.put_along_axis(out, idx, g._array, dim)
        else:
            out[...] = g._array
        return out

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        return _Gather.apply(gg, ctx.dim, ctx.idx), None, None, None


class _Gather(Function):
    node_name = "GatherBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, idx: np.ndarray) -> np.ndarray:
        ctx.shape, ctx.dim, ctx.idx = x._array.shape, dim, idx
        return np.take_along_axis(x._array, idx, dim) if x._array.ndim else x._array.copy()

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return _ScatterAlong.apply(g, ctx.shape, ctx.dim, ctx.idx), None, None


max_return = return_type("max", "values", "indices")
min_return = return_type("min", "values", "indices")


def _numpy_names(dim: Any, keepdim: bool, axis: Any, keepdims: bool) -> tuple[Any, bool]:
    """numpy's argument names, which PyTorch accepts for its own everywhere: ``axis`` for ``dim``, ``keepdims`` for
    ``keepdim`` (d2l writes ``y_hat.argmax(axis=1)``)."""
    return (dim if axis is None else axis), keepdim or keepdims


def max(input: Tensor, dim: Any = None, keepdim: bool = False, *, other: Tensor | None = None, axis: Any = None,
        keepdims: bool = False) -> Any:
    """``x.max()`` -> the largest value; ``x.max(dim)`` -> (values, indices) along dim; ``max(x, other)`` -> the
    elementwise maximum (also as ``torch.max(input=x, other=y)``)."""
    dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
    if other is not None:
        dim = other
    if dim is None:
        return MaxAll.apply(input)
    if isinstance(dim, Tensor):

        return maximum(input, dim)
    return max_return(*MaxDim.apply(input, dim, keepdim))


def min(input: Tensor, dim: Any = None, keepdim: bool = False, *, other: Tensor | None = None, axis: Any = None,
        keepdims: bool = False) -> Any:
    dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
    if other is not None:
        dim = other
    if dim is None:
        return MinAll.apply(input)
    if isinstance(dim, Tensor):

        return minimum(input, dim)
    return min_return(*MinDim.apply(input, dim, keepdim))


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False, *, axis: int | None = None,
           keepdims: bool = False) -> Tensor:
    dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
    a = input._array
    _nonempty_reduction("argmax", a, dim)
    if dim is None:
        return _wrap(np.asarray(np.argmax(a), dtype=np.int64))
    return _wrap(np.argmax(a, axis=_dim(dim, a.ndim), keepdims=keepdim).astype(np.int64))


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False, *, axis: int | None = None,
           keepdims: bool = False) -> Tensor:
    dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
    a = input._array
    _nonempty_reduction("argmin", a, dim)
    if dim is None:
        return _wrap(np.asarray(np.argmin(a), dtype=np.int64))
    return _wrap(np.argmin(a, axis=_dim(dim, a.ndim), keepdims=keepdim).astype(np.int64))


def _nonempty_reduction(name: str, a: np.ndarray, dim: int | None) -> None:
    """argmax and argmin of nothing: PyTorch's IndexError (numpy's would be a ValueError)."""
    if a.size == 0 and dim is None:
        raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
    if a.size == 0 and a.shape[_dim(dim, a.ndim)] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {_dim(dim, a.ndim)} to have non-zero size.")


_exp, _log = rounded_once(np.exp), rounded_once(np.log)  # (in float64, rounded once: PyTorch's values, nearly always)


class Softmax(Function):
    node_name = "SoftmaxBackward0"
    saved_names = ("result",)

    @staticmethod
    # an inf input gives nan (inf - inf), silently, as in PyTorch
    def forward(ctx: Any, x: Tensor, dim: int) -> np.ndarray:
        a = x._array
        ctx.dim = dim = _dim(dim, a.ndim)
        if a.dtype.kind != "f":  # (PyTorch has no kernel for integers: pass dtype=, or convert first)
            no_integer_kernel(a, "softmax", dim)
        e = _exp(a - np.maximum.reduce(a, dim, keepdims=True))  # less the max: no change, but no overflow
        ctx.save_for_backward(RESULT)
        if dim == a.ndim - 1 and (total := vector_row_sums(e)) is not None:  # PyTorch's kernel along the last dim:
            return e * (a.dtype.type(1) / total[..., None])  # its order of sums, and times the reciprocal
        return e / np.add.reduce(e, dim, keepdims=True)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (s,) = ctx.saved_tensors
        return SoftmaxBackwardData.apply(g, s, ctx.dim), None  # s * (g - sum(g * s)), as one op


class SoftmaxBackwardData(Function):
    """softmax's gradient ``s * (g - sum(g * s))`` (s = softmax x, summed along dim) as a single op, PyTorch's
    ``_softmax_backward_data``: one dispatch rather than four. Differentiable itself, for create_graph:
    d/dg gg = this op again on gg, and d/ds gg = g gg - sum(s g) gg - g sum(s gg)."""

    node_name = "SoftmaxBackwardDataBackward0"

    @staticmethod
    # an infinite g gives nan (inf - inf), silently, as in PyTorch
    def forward(ctx: Any, g: Tensor, s: Tensor, dim: int) -> np.ndarray:
        ctx.save_for_backward(g, s)
        ctx.dim = dim
        a, b = g._array, s._array
        return b * (a - np.add.reduce(a * b, dim, keepdims=True))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, s = ctx.saved_tensors
        dim = ctx.dim
        dg = SoftmaxBackwardData.apply(gg, s, dim) if ctx.needs_input_grad[0] else None
        ds = g * gg - (s * g).sum(dim, keepdim=True) * gg - g * (s * gg).sum(dim, keepdim=True) \
            if ctx.needs_input_grad[1] else None
        return dg, ds, None


class LogSoftmax(Function):
    node_name = "LogSoftmaxBackward0"
    saved_names = ("result",)

    @staticmethod
    # an inf input gives nan (inf - inf), silently, as in PyTorch
    def forward(ctx: Any, x: Tensor, dim: int) -> np.ndarray:
        a = x._array
        ctx.dim = dim = _dim(dim, a.ndim)
        if a.dtype.kind != "f":  # (PyTorch has no kernel for integers: pass dtype=, or convert first)
            no_integer_kernel(a, "log_softmax", dim)
        ctx.save_for_backward(RESULT)
        if Speed.tricks and a.ndim == 2 and dim == 1 and short_rows(a):  # speed: short rows (a batch of logits, say)
            t = np.ascontiguousarray(a.T)  # as columns, which numpy reduces several times faster: the same numbers
            shifted = t - np.maximum.reduce(t, 0)  # (and the sums in PyTorch's order, one number after another)
            return np.ascontiguousarray((shifted - _log(np.add.reduce(_exp(shifted), 0))).T)
        shifted = a - np.maximum.reduce(a, dim, keepdims=True)
        e = _exp(shifted)
        total = vector_row_sums(e) if dim == a.ndim - 1 else None  # (PyTorch's kernel along the last dim: its order)
        total = np.add.reduce(e, dim, keepdims=True) if total is None else total[..., None]
        return shifted - _log(total)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (out,) = ctx.saved_tensors
        if unrecorded():  # speed: the gradient's array, not an op
            return _wrap(_log_softmax_grad(g._array, out._array, ctx.dim)), None
        return LogSoftmaxBackwardData.apply(g, out, ctx.dim), None  # g - out.exp() * g.sum(dim), as one op


def _log_softmax_grad(g: np.ndarray, out: np.ndarray, dim: int) -> np.ndarray:
    """``g - e^l * sum(g)`` on arrays, l = log_softmax x (see :class:`LogSoftmaxBackwardData`); e^l rounded once, as
    PyTorch's kernel computes it: a cross-entropy's gradient (whose sums are exact, one number a row) then equals
    PyTorch's in 90% of float32 values, 63% with numpy's float32 exp. (PyTorch also sums in its own order and fuses
    the multiply-subtract: 96-99% for any g, but at twice the cost of this, on every classifier's step.)"""
    return g - _exp(out) * np.add.reduce(g, dim, keepdims=True)


class LogSoftmaxBackwardData(Function):
    """log_softmax's gradient ``g - e^l * sum(g)`` (l = log_softmax x, summed along dim) as a single op,
    PyTorch's ``_log_softmax_backward_data``: one dispatch rather than four in every classifier's backward.
    Differentiable itself, for create_graph: d/dg gg = gg - sum(gg * e^l), d/dl gg = -gg * e^l * sum(g)."""

    node_name = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    # an infinite g gives nan (inf - inf), silently, as in PyTorch
    def forward(ctx: Any, g: Tensor, out: Tensor, dim: int) -> np.ndarray:
        ctx.save_for_backward(g, out)
        ctx.dim = dim
        return _log_softmax_grad(g._array, out._array, dim)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, out = ctx.saved_tensors
        p = out.exp()
        dg = gg - (gg * p).sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[0] else None
        dout = -gg * p * g.sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[1] else None
        return dg, dout, None


@numpy_names
def softmax(x: Tensor, dim: int | None = None, dtype: Any = None) -> Tensor:
    """``x.softmax(dim)``: e^x / sum e^x along dim (which must be given: nn.functional's may guess it)."""
    _dim_given("softmax", dim)
    return Softmax.apply(x if dtype is None else x.to(dtype), dim)


@numpy_names
def log_softmax(x: Tensor, dim: int | None = None, dtype: Any = None) -> Tensor:
    _dim_given("log_softmax", dim)
    return LogSoftmax.apply(x if dtype is None else x.to(dtype), dim)


def _dim_given(name: str, dim: Any) -> None:
    if dim is None:  # (Python's own message would say "argument: 'dim'"; PyTorch's parser words it so)
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')


# ------------------------------------------------------------------------------------------------ var, std
def _reduced_count(shape: tuple[int, ...], dims: tuple[int, ...] | None) -> int:
    """How many elements go into each result: all of them, or the product of the reduced dimensions' sizes."""
    return int(np.prod(shape if dims is None else [shape[d] for d in dims], dtype=np.int64))


def _spread_args(name: str, dim: Any, unbiased: bool | None, correction: float | None) -> tuple[Any, float]:
    """PyTorch's ways of calling var/std: ``x.var()``, ``x.var(False)`` (unbiased given first), ``x.var(1)``,
    ``x.var(1, False)``, ``x.var(dim=1, correction=0)``. Returns (dim, correction)."""
    if isinstance(dim, bool):  # x.var(False): the one argument is ``unbiased``
        dim, unbiased = None, dim if unbiased is None else unbiased
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}(): give either unbiased or correction, not both (unbiased=True is correction=1, "
                        "unbiased=False is correction=0)")
    if correction is None:
        correction = 0 if unbiased is False else 1
    return dim, correction


class Var(Function):
    """The variance: the mean squared distance from the mean, divided by ``n - correction`` rather than n.

    ``v = sum_i (x_i - m)^2 / (n - c)`` with m the mean; c = 1 (Bessel's correction, the default) makes it an
    unbiased estimate of a population's variance from a sample. ``dv/dx_i = 2 (x_i - m) / (n - c)``: the
    terms through m cancel, since sum_i (x_i - m) = 0.
    """

    node_name = "VarBackward0"
    saved_names = ("self",)

    @staticmethod
    # n - c <= 0 gives nan or inf, as in PyTorch (with a warning, below)
    def forward(ctx: Any, x: Tensor, dims: tuple[int, ...] | None, correction: float, keepdim: bool) -> np.ndarray:
        a = x._array
        if a.dtype.kind != "f":
            raise RuntimeError("std and var only support floating point and complex dtypes")
        name = "std" if ctx._forward_cls is Std else "var"
        dof = builtins.max(_reduced_count(a.shape, dims) - correction, 0)
        if dof == 0:
            warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                          "reduction factor (input numel divided by output numel).", UserWarning, stacklevel=4)
        ctx.save_for_backward(x)
        ctx.dims, ctx.keepdim, ctx.dof = dims, keepdim, dof
        squares = np.square(a - a.mean(axis=dims, keepdims=True))
        return np.asarray(squares.sum(axis=dims, keepdims=keepdim) / a.dtype.type(dof), dtype=a.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        if not ctx.keepdim:
            g = g.reshape(_kept_shape(x._array.shape, ctx.dims))
        return _var_grad(g, x, ctx.dims, ctx.dof), None, None, None


def _var_grad(g: Tensor, x: Tensor, dims: tuple[int, ...] | None, dof: float) -> Tensor:
    """``g * 2 (x - mean) / (n - c)``, for g with its reduced dimensions kept (as size 1, to broadcast)."""
    mean = x.mean() if dims is None else x.mean(dims, keepdim=True)
    return (2 / dof if dof else float("inf")) * g * (x - mean)  # (n - c = 0: nan, as PyTorch's 0 * inf)


class Std(Var):
    """The standard deviation ``s = sqrt(var)``: ``ds/dx = dvar/dx / (2 s)``, the square root's rule after
    var's. Where s = 0 (all values equal) the gradient is taken as 0, as PyTorch does, not 0/0."""

    node_name = "StdBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple[int, ...] | None, correction: float, keepdim: bool) -> Tensor:
        # (The square root of a variance, >= 0 or nan, is silent: no floating-point warning to turn off.)
        result = _wrap(np.sqrt(Var.forward(ctx, x, dims, correction, keepdim)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        if not ctx.keepdim:
            kept = _kept_shape(x._array.shape, ctx.dims)
            g, result = g.reshape(kept), result.reshape(kept)
        return _var_grad(zero_where(result._array == 0, g / (result * 2)), x, ctx.dims, ctx.dof), None, None, None


@numpy_names
def var(x: Tensor, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False, *,
        correction: float | None = None) -> Tensor:
    """``x.var()``: the sample variance (divided by n - 1); ``correction=0`` (or ``unbiased=False``) divides by n."""
    dim, correction = _spread_args("var", dim, unbiased, correction)
    return Var.apply(x, _dims(dim, x._array.ndim), correction, keepdim)


@numpy_names
def std(x: Tensor, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False, *,
        correction: float | None = None) -> Tensor:
    """``x.std()``: the sample standard deviation, sqrt(var); arguments as for :func:`var`."""
    dim, correction = _spread_args("std", dim, unbiased, correction)
    return Std.apply(x, _dims(dim, x._array.ndim), correction, keepdim)


# ------------------------------------------------------------------------------------------------ prod
class Prod(Function):
    """The product of all elements. ``dp/dx_i`` is the product of all the *other* elements: p / x_i when no
    element is 0. With zeros, p / x_i would be 0/0; then the product of the others is 0 for every element
    (each sees a zero), except, when there is exactly one zero, for that zero itself: it gets the product of
    the rest."""

    node_name = "ProdBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = _wrap(np.asarray(np.prod(x._array, dtype=sum_dtype(x._array))))
        ctx.save_for_backward(x, result)
        ctx.dims, ctx.keepdim = None, False
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        kept = _kept_shape(x._array.shape, ctx.dims)
        if not ctx.keepdim:
            g, result = g.reshape(kept), result.reshape(kept)
        return (g * _product_of_others(x, result, ctx.dims), *(None,) * (len(ctx.needs_input_grad) - 1))


class ProdDim(Prod):
    """The product along one dimension (PyTorch takes one dim only); gradient as for :class:`Prod`, per slice."""

    node_name = "ProdBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, keepdim: bool) -> Tensor:
        a = x._array
        ctx.dims, ctx.keepdim = (_dim(dim, a.ndim),) if a.ndim else None, keepdim
        result = _wrap(np.asarray(np.prod(a, axis=ctx.dims, keepdims=keepdim, dtype=sum_dtype(a))))
        ctx.save_for_backward(x, result)
        return result


def _product_of_others(x: Tensor, result: Tensor, dims: tuple[int, ...] | None) -> Tensor:
    """For each element, the product of the others in its slice (``result`` has the slices' products, kept
    dimensions). Written with tensor operations, so that it can be differentiated again."""
    zero = x._array == 0
    if not zero.any():
        return result / x
    dt = x._array.dtype
    count = np.broadcast_to(zero.sum(axis=dims, keepdims=True), zero.shape)  # zeros in each element's slice

    def with_ones(mask: np.ndarray) -> Tensor:  # x with a constant 1 where mask holds
        return zero_where(mask, x) + _wrap(mask.astype(dt))

    def slice_prod(t: Tensor) -> Tensor:
        p = t.prod() if dims is None else t.prod(dims[0], keepdim=True)
        return p.reshape(_kept_shape(x._array.shape, dims)).expand(x.shape)

    nonzero = with_ones(zero)
    others = zero_where(zero, result / nonzero)  # p / x_i away from zeros (0 in a slice that has a zero)
    single = zero & (count == 1)
    if single.any():  # the one zero of its slice gets the product of the rest
        others = others + zero_where(~single, slice_prod(nonzero))
    if GradMode.enabled:  # create_graph: at a zero among several the value is 0, but its derivative is not
        for position in np.argwhere(zero & (count > 1)):
            at = np.zeros(zero.shape, dtype=bool)
            at[tuple(position)] = True
            others = others + zero_where(~at, slice_prod(with_ones(at)))
    return others


@numpy_names
def prod(x: Tensor, dim: int | None = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """``x.prod()``: the product of all elements; ``x.prod(dim)`` along one dimension. Integers give int64."""
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        return Prod.apply(x)
    if not isinstance(dim, int):
        raise TypeError(f"prod(): argument 'dim' must be int, not {type(dim).__name__}")
    return ProdDim.apply(x, dim, keepdim)


# ------------------------------------------------------------------------------------------------ cumsum
class Cumsum(Function):
    """Running totals along ``dim``: ``out_i = x_0 + ... + x_i``. Each x_j is in every out_i with i >= j, so
    ``dx_j = g_j + g_{j+1} + ... + g_last``: the running totals of g taken from the other end."""

    node_name = "CumsumBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> np.ndarray:
        a = x._array
        ctx.dim = dim = _dim(dim, a.ndim)
        if a.ndim == 0:
            return a.astype(sum_dtype(a))
        if a.dtype == np.float32:  # PyTorch keeps float32 running totals in float64, rounding each one once
            return np.cumsum(a, axis=dim, dtype=np.float64).astype(np.float32)
        return np.cumsum(a, axis=dim, dtype=sum_dtype(a))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        if g._array.ndim == 0:
            return g, None
        flip = (slice(None),) * ctx.dim + (slice(None, None, -1),)  # reversed along dim
        return Index.apply(Cumsum.apply(Index.apply(g, flip), ctx.dim), flip), None


@numpy_names
def cumsum(x: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """``x.cumsum(dim)``: running totals along dim. Integers (and bools) give int64, as in PyTorch."""
    return Cumsum.apply(x if dtype is None else x.to(dtype), dim)


# ------------------------------------------------------------------------------------------------ logsumexp
class Logsumexp(Function):
    """``log(sum e^x)`` along dims: a smooth maximum (it is within log n of max x), the normaliser of
    log_softmax. Computed as ``m + log(sum e^(x - m))`` with m the max, so that e^x cannot overflow (an
    infinite m is left out of the shift: inf - inf would be nan).

    Its derivative is softmax:  dx = g * e^(x - out)  (g and out lined up with x along the reduced dims).
    """

    node_name = "LogsumexpBackward0"
    saved_names = ("self", "result")

    @staticmethod
    # log 0 = -inf for an empty or all -inf row, silently, as in PyTorch
    def forward(ctx: Any, x: Tensor, dims: tuple[int, ...], keepdim: bool) -> Tensor:
        a = x._array if x._array.dtype.kind == "f" else x._array.astype(np.float32)
        ctx._saved_dim, ctx._saved_keepdim = dims, keepdim
        if a.size:
            m = np.asarray(a.max(axis=dims, keepdims=True))
            m[np.isinf(m)] = 0
        else:
            m = np.zeros(_kept_shape(a.shape, dims), dtype=a.dtype)
        out = np.log(np.exp(a - m).sum(axis=dims, keepdims=True)) + m
        result = _wrap(out if keepdim else out.reshape([n for i, n in enumerate(out.shape) if i not in dims]))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        if not ctx._saved_keepdim:
            kept = _kept_shape(x._array.shape, ctx._saved_dim)
            g, result = g.reshape(kept), result.reshape(kept)
        return g * (x - result).exp(), None, None


@numpy_names
def logsumexp(x: Tensor, dim: int | tuple | list | None = None, keepdim: bool = False) -> Tensor:
    """``x.logsumexp(dim)``: log(sum e^x) along dim, without overflow (see :class:`Logsumexp`)."""
    if dim is None:  # required, as in PyTorch (whose message this is)
        raise TypeError('logsumexp() missing 1 required positional arguments: "dim"')
    if x._array.ndim == 0:  # a single number: dim 0 (or -1) names it, and there is nothing to sum
        _dims(dim, 1)
        return Logsumexp.apply(x, (), keepdim)
    return Logsumexp.apply(x, _dims(dim, x._array.ndim), keepdim)


# ------------------------------------------------------------------------------------------------ amax, amin
class Amax(Function):
    """The largest value over ``dims`` (all of them when dims is empty), values only, no indices. Unlike
    ``max(dim)``, which sends g to the one index it returns, the gradient is shared evenly among tied maxima:

        dx = g / (number of maxima in the slice)  where x is a maximum, 0 elsewhere
    """

    node_name = "AmaxBackward0"
    saved_names = ("self", "result")  # (and _saved_dim, _saved_keepdim)
    _reduce = staticmethod(np.max)

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple[int, ...], keepdim: bool) -> Tensor:
        a = x._array
        name = ctx._forward_cls.node_name[:4].lower()
        if a.size == 0 and (not dims or any(a.shape[d] == 0 for d in dims)):
            if not dims:
                raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                                   "the reduction dim with the 'dim' argument.")
            d = next(d for d in dims if a.shape[d] == 0)
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
        result = _wrap(np.asarray(ctx._forward_cls._reduce(a, axis=dims or None, keepdims=keepdim)))
        ctx.save_for_backward(x, result)
        ctx._saved_dim, ctx._saved_keepdim = dims, keepdim
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        return _share_among_ties(g, x, result, ctx._saved_dim, ctx._saved_keepdim), None, None


def _share_among_ties(g: Tensor, x: Tensor, result: Tensor, dims: tuple[int, ...], keepdim: bool) -> Tensor:
    """amax's, amin's and aminmax's derivative: g split evenly among the elements equal to the result of their
    slice (``dims``; all when empty), 0 elsewhere:  dx = g / count * (x == result)."""
    dims = dims or tuple(range(x._array.ndim))
    if not keepdim:
        kept = _kept_shape(x._array.shape, dims)
        g, result = g.reshape(kept), result.reshape(kept)
    mask = _wrap((result._array == x._array).astype(g._array.dtype))
    # PyTorch's formula, (g / count) * mask: an infinite g gives nan at the places that are not maxima
    return g / mask.sum(dims, keepdim=True) * mask


class Amin(Amax):
    """The smallest value over ``dims``; ties share the gradient evenly (see :class:`Amax`)."""

    node_name = "AminBackward0"
    _reduce = staticmethod(np.min)


def _reduction_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``dim`` (an int, a tuple or list of ints, or () for all) as sorted non-negative dims, PyTorch's errors
    for a repeated one."""
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    seen = each_once(tuple(_dim(d, builtins.max(ndim, 1)) for d in dims))
    return tuple(sorted(d for d in seen if ndim))


@numpy_names
def amax(x: Tensor, dim: int | tuple | list = (), keepdim: bool = False) -> Tensor:
    """``x.amax(dim)``: the largest values over dim (all dims by default); see :class:`Amax`."""
    return Amax.apply(x, _reduction_dims(dim, x._array.ndim), keepdim)


@numpy_names
def amin(x: Tensor, dim: int | tuple | list = (), keepdim: bool = False) -> Tensor:
    """``x.amin(dim)``: the smallest values over dim (all dims by default); see :class:`Amin`."""
    return Amin.apply(x, _reduction_dims(dim, x._array.ndim), keepdim)


class Aminmax(Function):
    """Both the smallest and the largest value, over one dim or all: ``(min, max)``, one node with two outputs.
    Each output's gradient is shared among its ties as for amin and amax, and the two are added:

        dx = g_min / count_min * (x == min)  +  g_max / count_max * (x == max)
    """

    node_name = "AminmaxBackward0"
    saved_names = ("self", "min", "max")  # (and _saved_dim, _saved_keepdim)

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int | None, keepdim: bool) -> tuple:
        a = x._array
        if dim is None and a.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                               "identity.")
        if dim is not None and a.ndim and a.shape[dim] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {dim} to have non-zero size.")
        axis = dim if a.ndim else None
        low, high = (_wrap(np.asarray(f(a, axis=axis, keepdims=keepdim))) for f in (np.min, np.max))
        ctx.save_for_backward(x, low, high)
        ctx._saved_dim, ctx._saved_keepdim = dim, keepdim
        return low, high

    @staticmethod
    def backward(ctx: Any, g_min: Tensor, g_max: Tensor) -> tuple:
        x, low, high = ctx.saved_tensors
        dims = () if ctx._saved_dim is None or not x._array.ndim else (ctx._saved_dim,)
        keepdim = ctx._saved_keepdim or ctx._saved_dim is None  # (over all dims: g is a scalar, it broadcasts)
        dx = _share_among_ties(g_min, x, low, dims, keepdim) + _share_among_ties(g_max, x, high, dims, keepdim)
        return dx, None, None


aminmax_return = return_type("aminmax", "min", "max")


@numpy_names
def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False) -> aminmax_return:
    """``x.aminmax()``: ``(min, max)`` of all elements, or along ``dim``, in one pass; ties share each gradient
    (see :class:`Aminmax`). Unlike ``min(dim)``, no indices."""
    if dim is not None:
        dim = _dim(dim, builtins.max(input._array.ndim, 1))
    return aminmax_return(*Aminmax.apply(input, dim, keepdim))


# ------------------------------------------------------------------------------------------------ cumprod, diff
def _reversed_cumsum(t: Tensor, dim: int) -> Tensor:
    """Running totals from the far end: out_j = t_j + ... + t_last."""
    return t.flip(dim).cumsum(dim).flip(dim)


class Cumprod(Function):
    """Running products along dim: out_i = x_0 * x_1 * ... * x_i. Element x_k is a factor of every out_i
    with i >= k, so

        dx_k = sum_{i >= k} g_i * out_i / x_k        (a running total of g * out from the far end, over x)

    That divides by 0 where x has zeros; PyTorch's formula avoids it. Before a slice's first zero the formula
    above holds; after it every out_i is 0 whatever x_k is (dx_k = 0); and at the first zero itself, x_k's
    factor is out_i with x_k replaced by 1: dx_k = sum_{i >= k} g_i * cumprod(x with x_k = 1)_i. Under
    create_graph the gradient is computed from the definition instead (see _cumprod_grad_by_omission), so that
    its own derivative in the zeros is right too.
    """

    node_name = "CumprodBackward0"
    saved_names = ("self", "result")  # (and _saved_dim)

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> Tensor:
        a = x._array
        ctx._saved_dim = dim = _dim(dim, builtins.max(a.ndim, 1))
        if a.ndim == 0:
            result = _wrap(a.astype(sum_dtype(a), copy=True))
        else:
            result = _wrap(np.cumprod(a, axis=dim, dtype=sum_dtype(a)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, out = ctx.saved_tensors
        dim, a = ctx._saved_dim, x._array
        if a.ndim == 0:
            return g, None
        zero = a == 0
        if not zero.any():
            return _reversed_cumsum(g * out, dim) / x, None
        if GradMode.enabled:  # create_graph: a formula that stays right when differentiated again (see below)
            return _cumprod_grad_by_omission(g, x, dim), None
        zeros_so_far = np.cumsum(zero, axis=dim)
        before = zeros_so_far == 0  # before the slice's first zero
        first = zero & (zeros_so_far == 1)  # the first zero itself
        safe = x.masked_fill(_wrap(~before), 1)  # (no division by 0 where the formula is not used)
        dx = zero_where(~before, _reversed_cumsum(g * out, dim) / safe)
        out_without = x.masked_fill(_wrap(first), 1).cumprod(dim)  # x_k's factor: the running product without it
        return dx + zero_where(~first, _reversed_cumsum(g * out_without, dim)), None


def _cumprod_grad_by_omission(g: Tensor, x: Tensor, dim: int) -> Tensor:
    """cumprod's gradient straight from its definition, dx_k = sum_{i >= k} g_i * prod_{j <= i, j != k} x_j,
    with no division: after a slice's first zero it is 0, but its derivative in that zero is not, and a second
    derivative needs it. For each k, the running products of x with x_k replaced by 1: an (n, n) table per
    slice, so O(n**2), used (as in PyTorch) only when the gradient is itself differentiated."""
    n = x._array.shape[dim]
    rows = x.movedim(dim, -1).unsqueeze(-2).expand(*x._array.shape[:dim], *x._array.shape[dim + 1:], n, n)
    eye = np.eye(n, dtype=bool)
    omitted = rows.masked_fill(_wrap(eye), 1).cumprod(-1)  # row k: the running products without x_k
    later = _wrap(np.triu(np.ones((n, n), dtype=x._array.dtype)))  # i >= k
    return (omitted * later * g.movedim(dim, -1).unsqueeze(-2)).sum(-1).movedim(-1, dim)


@numpy_names
def cumprod(x: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """``x.cumprod(dim)``: running products along dim. Integers (and bools) give int64, as in PyTorch."""
    return Cumprod.apply(x if dtype is None else x.to(dtype), dim)


@numpy_names
def diff(x: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None, append: Tensor | None = None) -> Tensor:
    """``x.diff()``: differences of neighbours along dim, x[1:] - x[:-1], taken n times; ``prepend`` and
    ``append`` are put at either end first. Built, as in PyTorch, from two narrowed views and a subtraction
    (SubBackward0; for bools, not equal)."""
    if x._array.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    dim = _dim(dim, x._array.ndim)
    if prepend is not None or append is not None:
        x = cat([t for t in (prepend, x, append) if t is not None], dim)
    for _ in range(n):
        length = x._array.shape[dim]
        if length == 0:
            break
        later, earlier = x.narrow(dim, 1, length - 1), x.narrow(dim, 0, length - 1)
        x = later != earlier if x._array.dtype == np.bool_ else later - earlier
    return x


def trapezoid(y: Tensor, x: Tensor | None = None, *, dx: float | None = None, dim: int = -1) -> Tensor:
    """The area under the samples y along dim by the trapezoidal rule: sum of (y_i + y_(i+1)) / 2 times the
    spacing, ``dx`` (1 by default) or the steps of the sample points x. PyTorch's formulas: with a constant
    spacing, ``(sum y - (y_first + y_last) / 2) * dx``; with points, ``sum(diff(x) * (y_i + y_(i+1))) / 2``."""
    if x is not None and dx is not None:
        raise TypeError("trapezoid() received an invalid combination of arguments: give x or dx, not both")
    dim = _dim(dim, y._array.ndim)
    n = y._array.shape[dim]
    if x is None:
        if n == 0:
            return y.sum(dim) * 0
        return MulScalar.apply(y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5, 1.0 if dx is None else dx)

    if x._array.ndim == 1 and y._array.ndim > 1:  # points along dim, shared by every row: placed along dim
        x = x.view(*[n if d == dim else 1 for d in range(y._array.ndim)])
    steps = x.diff(dim=dim)
    return DivScalar.apply((steps * (y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1))).sum(dim), 2.0)


# ------------------------------------------------------------------------------------------------ median
class Median(Function):
    """The median of all elements: the middle value once sorted, the lower of the two middle ones for an even
    count (so it is always one of the elements), nan if any element is nan. As for max over all elements,
    tied elements share the gradient evenly:  dx = g / k where x equals the median (k such places)."""

    node_name = "MedianBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        result = _wrap(ctx._forward_cls._value(x._array.reshape(-1)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def _value(a: np.ndarray) -> np.ndarray:
        if a.size == 0 or (a.dtype.kind == "f" and np.isnan(a).any()):
            return np.asarray(np.nan, dtype=a.dtype)
        return np.asarray(np.sort(a, kind="stable")[(a.size - 1) // 2])

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return _evenly_distributed(g, *ctx.saved_tensors)


class MedianDim(MaxDim):
    """The median along a dimension, with its index: (values, indices); the gradient goes to that index.
    (Among equal values PyTorch does not say which index it returns: here it is the middle one of a stable
    sort, which is what PyTorch's kernel gives in the cases tried; a nan is the median of its slice.)"""

    node_name = "MedianBackward1"

    @staticmethod
    def _arg(a: np.ndarray, axis: int) -> np.ndarray:
        order = np.argsort(a, axis=axis, kind="stable")  # nan sorts last
        n = a.shape[axis]
        middle = np.take(order, (n - 1) // 2, axis=axis)
        if a.dtype.kind == "f":
            nan = np.isnan(a)
            middle = np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), middle)  # the first nan, if any
        return middle


median_return = return_type("median", "values", "indices")


@numpy_names
def median(x: Tensor, dim: int | None = None, keepdim: bool = False) -> Any:
    """``x.median()``: the middle value (the lower middle for an even count); ``x.median(dim)``: (values,
    indices) along dim."""
    return _median(x, dim, keepdim, Median, MedianDim, median_return)


def _median(x: Tensor, dim: int | None, keepdim: bool, whole: type, along: type, returns: type) -> Any:
    if dim is None:
        return whole.apply(x)
    a = x._array
    if a.ndim and a.shape[_dim(dim, a.ndim)] == 0:
        raise IndexError(f"median(): Expected reduction dim {_dim(dim, a.ndim)} to have non-zero size.")
    return returns(*along.apply(x, dim, keepdim))


class Nanmedian(Median):
    """The median of the elements that are not nan (nan only if all are): ``median`` that skips missing values.
    Ties share the gradient evenly, as for :class:`Median` (all-nan: the nans share it)."""

    node_name = "NanmedianBackward0"

    @staticmethod
    def _value(a: np.ndarray) -> np.ndarray:
        if a.dtype.kind == "f":
            a = a[~np.isnan(a)]
        return np.asarray(np.sort(a, kind="stable")[(a.size - 1) // 2] if a.size else np.nan, dtype=a.dtype)


class NanmedianDim(MedianDim):
    """The median of each slice along a dimension, nans left out, with its index: (values, indices); the gradient
    goes to that index. (A slice of nans only gives nan and the index of its first nan: PyTorch's index there is
    whatever its selection algorithm leaves, the first one for up to three nans.)"""

    node_name = "NanmedianBackward1"

    @staticmethod
    def _arg(a: np.ndarray, axis: int) -> np.ndarray:
        order = np.argsort(a, axis=axis, kind="stable")  # nan sorts last: the first `count` are the numbers
        count = (~np.isnan(a)).sum(axis=axis, keepdims=True) if a.dtype.kind == "f" else a.shape[axis]
        middle = np.maximum((count - 1) // 2, 0) * np.ones_like(np.take(order, [0], axis=axis))
        return np.take_along_axis(order, middle, axis=axis).squeeze(axis)


nanmedian_return = return_type("nanmedian", "values", "indices")


@numpy_names
def nanmedian(x: Tensor, dim: int | None = None, keepdim: bool = False) -> Any:
    """``x.nanmedian()``: the median of the values that are not nan (``median`` gives nan as soon as one is);
    ``x.nanmedian(dim)``: (values, indices) along dim."""
    return _median(x, dim, keepdim, Nanmedian, NanmedianDim, nanmedian_return)


# ------------------------------------------------------------------------------------------------ var_mean, std_mean
class VarMean(Function):
    """The variance and the mean in one pass, one node with two outputs (v, m):

        dx = gv * 2 (x - m) / (n - c)  +  gm / n
    """

    node_name = "VarMeanBackward0"
    saved_names = ("self",)  # (and _saved_correction, _saved_dim, _saved_keepdim)
    std = False

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple[int, ...] | None, correction: float, keepdim: bool) -> tuple:
        a = x._array
        name = "std_mean" if ctx._forward_cls.std else "var_mean"
        if a.dtype.kind != "f":
            raise RuntimeError(f"{name} only support floating point and complex dtypes")
        ctx.set_materialize_grads(False)  # an output nobody used gets None, and adds no term to dx
        dof = builtins.max(_reduced_count(a.shape, dims) - correction, 0)
        if dof == 0:
            warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                          "reduction factor (input numel divided by output numel).", UserWarning, stacklevel=4)
        m = a.mean(axis=dims, keepdims=True)
        spread = np.asarray(np.square(a - m).sum(axis=dims, keepdims=keepdim) / a.dtype.type(dof), dtype=a.dtype)
        first = _wrap(np.sqrt(spread) if ctx._forward_cls.std else spread)
        # var_mean saves only x, as PyTorch's does (so its outputs may be changed in place); std_mean its result too
        ctx.save_for_backward(*((x, first) if ctx._forward_cls.std else (x,)))
        ctx.dims, ctx.keepdim, ctx.dof = dims, keepdim, dof
        ctx.n = _reduced_count(a.shape, dims)
        return first, np.asarray(m if keepdim else m.reshape(spread.shape), dtype=a.dtype)

    @staticmethod
    def backward(ctx: Any, g_first: Tensor, g_mean: Tensor) -> tuple:
        x, first = (*ctx.saved_tensors, None)[:2]
        kept = _kept_shape(x._array.shape, ctx.dims)
        dx = None
        if g_mean is not None:
            dx = (g_mean.reshape(kept) / ctx.n).expand(x._array.shape)
        if g_first is not None:
            g_first = g_first.reshape(kept)
            if ctx._forward_cls.std:  # d sqrt(v) = dv / (2 sqrt v), 0 where the std is 0
                g_first = zero_where(first._array == 0, g_first / (first.reshape(kept) * 2))
            spread = _var_grad(g_first, x, ctx.dims, ctx.dof)
            dx = spread if dx is None else dx + spread
        return dx, None, None, None


class StdMean(VarMean):
    """The standard deviation and the mean, one node with two outputs (s, m):
    dx = gs * (x - m) / ((n - c) s)  +  gm / n   (0 from s where s = 0)."""

    node_name = "StdMeanBackward0"
    saved_names = ("self", "result0")
    std = True


def var_mean(x: Tensor, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False, *,
             correction: float | None = None) -> tuple[Tensor, Tensor]:
    """``tinygrad_edu.var_mean(x, dim)``: (variance, mean), as :func:`var` and :func:`mean` give them."""
    dim, correction = _spread_args("var_mean", dim, unbiased, correction)
    return VarMean.apply(x, _dims(dim, x._array.ndim), correction, keepdim)


def std_mean(x: Tensor, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False, *,
             correction: float | None = None) -> tuple[Tensor, Tensor]:
    """``tinygrad_edu.std_mean(x, dim)``: (standard deviation, mean)."""
    dim, correction = _spread_args("std_mean", dim, unbiased, correction)
    return StdMean.apply(x, _dims(dim, x._array.ndim), correction, keepdim)
