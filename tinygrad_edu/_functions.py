"""The function forms (``torch.exp(x)``, ``torch.sum(x, dim)`` ...): each calls the Tensor method (``function``,
in the core's tensor.py, makes them) or the op."""

from __future__ import annotations

import builtins
import warnings
from typing import Any

import numpy as np

from . import _dtype
from ._creation import _finish, _np_dtype
from ._creation import normal as _creation_normal
from ._out import write_out
from .core.function import wrap as _wrap
from .core.tensor import Tensor, _as_tensor
from .core.tensor import function as _method
from .ops import elementwise, linalg, more, reduce, selection, shape, strided

__all__ = [
    "abs", "add", "all", "allclose", "any", "argmax", "argmin", "argsort", "bmm", "cat", "clamp", "clip", "clone",
    "cos", "cumsum", "detach", "div", "dot", "eq", "equal", "exp", "flatten", "floor_divide", "ge", "gt", "isclose",
    "le", "log", "log_softmax", "lt", "matmul", "max", "maximum", "mean", "min", "minimum", "mm", "mul", "mv", "ne",
    "neg", "nonzero", "norm", "permute", "pow", "prod", "relu", "remainder", "reshape", "sigmoid", "sign", "sin",
    "softmax", "sort", "sqrt", "square", "squeeze", "stack", "std", "sub", "sum", "t", "tanh", "topk", "transpose",
    "unbind", "unsqueeze", "var", "where",
    *("abs_", "clamp_", "cos_", "exp_", "log_", "neg_", "reciprocal_", "relu_", "sigmoid_", "sin_", "sqrt_",
      "square_", "tanh_"),  # in place
]


abs = _method("abs")
add, sub, mul, div, neg = (_method(n) for n in ("add", "sub", "mul", "div", "neg"))
_pow = _method("pow")
exp, log, sqrt, sin, cos, tanh = (_method(n) for n in ("exp", "log", "sqrt", "sin", "cos", "tanh"))
sigmoid, relu, sign, square = (_method(n) for n in ("sigmoid", "relu", "sign", "square"))
clamp = clip = _method("clamp")
sum, mean, max, min, norm = _method("sum"), _method("mean"), reduce.max, reduce.min, reduce.norm
argmax, argmin = reduce.argmax, reduce.argmin
var, std, prod, cumsum = reduce.var, reduce.std, reduce.prod, reduce.cumsum
isclose, nonzero = selection.isclose, selection.nonzero
sort, argsort, topk = selection.sort, selection.argsort, selection.topk
all, any = _method("all"), _method("any")
eq, ne, lt, le, gt, ge = (_method(n) for n in ("eq", "ne", "lt", "le", "gt", "ge"))
equal, allclose = _method("equal"), _method("allclose")
matmul, mm, mv, dot, bmm = linalg.matmul, _method("mm"), _method("mv"), _method("dot"), _method("bmm")
t, transpose, permute, reshape = _method("t"), _method("transpose"), _method("permute"), _method("reshape")
squeeze, unsqueeze, flatten = _method("squeeze"), _method("unsqueeze"), _method("flatten")
clone, detach = _method("clone"), _method("detach")
cat, stack, unbind, where = shape.cat, shape.stack, shape.unbind, selection.where
maximum, minimum = elementwise.maximum, elementwise.minimum
softmax, log_softmax = reduce.softmax, reduce.log_softmax
# in place: ``tinygrad_edu.sin_(x)`` is ``x.sin_()``
abs_, neg_, exp_, log_ = (_method(n) for n in ("abs_", "neg_", "exp_", "log_"))
sqrt_, sin_, cos_, tanh_ = (_method(n) for n in ("sqrt_", "sin_", "cos_", "tanh_"))
sigmoid_, relu_, reciprocal_, square_ = (_method(n) for n in ("sigmoid_", "relu_", "reciprocal_", "square_"))
clamp_ = _method("clamp_")
__all__ += ["acos", "asin", "atan", "ceil", "cosh", "expm1", "floor", "frac", "log1p", "log2", "log10", "logsumexp",
            "masked_fill", "round", "rsqrt", "sinh", "tan", "trunc"]
_MORE_UNARY = ("log1p", "expm1", "rsqrt", "log2", "log10", "tan", "atan", "asin", "acos", "sinh", "cosh", "floor",
               "ceil", "trunc", "frac", "round")
log1p, expm1, rsqrt, log2, log10, tan, atan, asin, acos, sinh, cosh, floor, ceil, trunc, frac, round = (
    _method(n) for n in _MORE_UNARY)
(log1p_, expm1_, rsqrt_, log2_, log10_, tan_, atan_, asin_, acos_, sinh_, cosh_, floor_, ceil_, trunc_, frac_,
 round_) = (_method(n + "_") for n in _MORE_UNARY)
__all__ += [n + "_" for n in _MORE_UNARY]  # in place
masked_fill, logsumexp = _method("masked_fill"), _method("logsumexp")
signbit, split_with_sizes, bernoulli = _method("signbit"), _method("split_with_sizes"), _method("bernoulli")
asinh, acosh, atanh, asinh_, acosh_, atanh_ = (_method(n) for n in ("asinh", "acosh", "atanh", "asinh_", "acosh_",
                                                                    "atanh_"))
arcsinh, arccosh, arctanh = asinh, acosh, atanh
__all__ += ["acosh", "acosh_", "arccosh", "arcsinh", "arctanh", "asinh", "asinh_", "atanh", "atanh_"]
__all__ += ["bernoulli", "signbit", "split_with_sizes"]


def remainder(input: Any, other: Any) -> Tensor:
    """``tinygrad_edu.remainder(x, y)`` is ``x % y``; either may be a number."""
    return input.remainder(other) if isinstance(input, Tensor) else elementwise.remainder(input, other)


def pow(input: Any, exponent: Any, *, out: Tensor | None = None) -> Tensor:
    """``pow(x, y)`` is ``x ** y``; the base may be a number (``pow(2, t)`` is ``2 ** t``: PowBackward2)."""
    if isinstance(input, Tensor):
        return _pow(input, exponent, out=out)
    if not isinstance(exponent, Tensor):
        raise TypeError(f"pow() received an invalid combination of arguments - got ({type(input).__name__}, "
                        f"{type(exponent).__name__}), but expected one of:\n"
                        " * (Tensor input, Tensor exponent, *, Tensor out = None)\n"
                        " * (Number self, Tensor exponent, *, Tensor out = None)\n"
                        " * (Tensor input, Number exponent, *, Tensor out = None)\n")
    return input ** exponent if out is None else write_out("pow", lambda: input ** exponent, [exponent], out)


def is_floating_point(input: Tensor) -> bool:
    """Whether ``input``'s dtype is a floating-point type (float16, float32, float64)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"is_floating_point(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return input.is_floating_point()


def is_complex(input: Tensor) -> bool:
    """Whether ``input``'s dtype is complex: never here (no complex dtypes)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"is_complex(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.is_complex()


__all__ += ["is_complex", "is_floating_point"]


def floor_divide(input: Any, other: Any) -> Tensor:
    """``tinygrad_edu.floor_divide(x, y)`` is ``x // y``; either may be a number."""
    return input.floor_divide(other) if isinstance(input, Tensor) else elementwise.floor_divide(input, other)


# indexing with index tensors, cutting, flipping, diagonals, stacking
__all__ += ["broadcast_to", "chunk", "column_stack", "diag", "diag_embed", "diagonal", "dstack", "flip", "fliplr",
            "flipud", "gather", "hstack", "index_add", "index_fill", "index_reduce", "index_select", "masked_select",
            "meshgrid", "moveaxis", "movedim", "narrow", "repeat_interleave", "roll", "rot90", "scatter", "scatter_add",
            "select", "split", "swapaxes", "swapdims", "take", "tile", "trace", "tril", "triu", "unflatten", "unique",
            "vstack"]
gather, scatter, scatter_add = selection.gather, selection.scatter, selection.scatter_add
index_select, index_add, index_fill = selection.index_select, selection.index_add, selection.index_fill
index_reduce = selection.index_reduce
__all__ += ["as_strided"]
as_strided = strided.as_strided
masked_select, take, unique = selection.masked_select, selection.take, selection.unique
split, chunk, narrow, select = shape.split, shape.chunk, _method("narrow"), _method("select")
flip, fliplr, flipud, roll, rot90 = shape.flip, shape.fliplr, shape.flipud, shape.roll, shape.rot90
tile, repeat_interleave, unflatten = shape.tile, shape.repeat_interleave, shape.unflatten
movedim = moveaxis = shape.movedim
broadcast_to, swapaxes, swapdims = _method("broadcast_to"), _method("swapaxes"), _method("swapdims")
tril, triu, trace = _method("tril"), _method("triu"), _method("trace")
diag, diagonal, diag_embed = shape.diag, shape.diagonal, shape.diag_embed
hstack, vstack, dstack, column_stack = shape.hstack, shape.vstack, shape.dstack, shape.column_stack
meshgrid = shape.meshgrid

# more math: tests, logical ops, two-argument functions, erf, degrees, amax/amin
_MORE_MATH = ("isnan", "isinf", "isfinite", "logical_and", "logical_or", "logical_xor", "logical_not", "atan2",
              "arctan2", "hypot", "logaddexp", "fmod", "lerp", "erf", "erfc", "erfinv", "exp2", "deg2rad", "rad2deg",
              "true_divide", "amax", "amin")
__all__ += [*_MORE_MATH, "erf_", "erfc_", "exp2_", "deg2rad_", "rad2deg_"]
isnan, isinf, isfinite, logical_not = (_method(n) for n in ("isnan", "isinf", "isfinite", "logical_not"))
fmod, lerp, true_divide, amax, amin = (_method(n) for n in ("fmod", "lerp", "true_divide", "amax", "amin"))
erf, erfc, erfinv, exp2 = (_method(n) for n in ("erf", "erfc", "erfinv", "exp2"))
deg2rad, rad2deg = _method("deg2rad"), _method("rad2deg")
erf_, erfc_, exp2_, deg2rad_, rad2deg_ = (_method(n) for n in ("erf_", "erfc_", "exp2_", "deg2rad_", "rad2deg_"))


def _tensors_only(name: str) -> Any:  # (atan2, hypot, logaddexp and the logical ops: see below)
    """``tinygrad_edu.atan2(x, y)`` ...: the method, with PyTorch's message for a second operand that is not a
    tensor (it counts the function's arguments: 'other' is the second)."""
    method = _method(name)

    def fn(input: Tensor, other: Tensor) -> Tensor:
        if not isinstance(other, Tensor):
            raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
        return method(input, other)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = method.__doc__
    return fn


atan2, arctan2, hypot, logaddexp = (_tensors_only(n) for n in ("atan2", "arctan2", "hypot", "logaddexp"))
logical_and, logical_or, logical_xor = (_tensors_only(n) for n in ("logical_and", "logical_or", "logical_xor"))

# fused and other products
__all__ += ["addcdiv", "addcmul", "addmm", "addmv", "baddbmm", "cdist", "cross", "dist", "einsum", "ger", "inner",
            "kron", "outer", "tensordot"]
addcmul, addcdiv, addmm, baddbmm = elementwise.addcmul, elementwise.addcdiv, linalg.addmm, linalg.baddbmm
addmv = linalg.addmv
outer = ger = linalg.outer
inner, kron, cross, dist, cdist = linalg.inner, linalg.kron, linalg.cross, linalg.dist, linalg.cdist
tensordot, einsum = linalg.tensordot, linalg.einsum

# running products, differences, medians, spreads with their means, areas
__all__ += ["aminmax", "cumprod", "diff", "logspace", "median", "nanmedian", "std_mean", "trapezoid", "trapz",
            "var_mean"]
cumprod, diff, median, std_mean, var_mean = reduce.cumprod, reduce.diff, reduce.median, reduce.std_mean, reduce.var_mean
nanmedian, aminmax = reduce.nanmedian, reduce.aminmax
trapezoid = trapz = reduce.trapezoid


def logspace(start: float, end: float, steps: int, base: float = 10.0, *, dtype: Any = None,
             requires_grad: bool = False) -> Tensor:
    """``steps`` numbers from ``base**start`` to ``base**end``, evenly spaced on a log scale (each the same
    multiple of the one before): ``base ** linspace(start, end, steps)``. As PyTorch computes it: the ends in
    the output's dtype, the exponents and powers in float64 (from the start for the first half of the points,
    back from the end for the rest, so both ends are exact), each rounded once to the output's dtype. (PyTorch's
    own power function differs from numpy's in the last float32 bit for a few points.)"""
    out = _np_dtype(dtype)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    first, last = float(out.type(start)), float(out.type(end))
    step = (last - first) / (steps - 1) if steps > 1 else 0.0
    i = np.arange(steps)
    exponents = np.where((i < steps // 2) | (steps == 1), first + step * i, last - step * (steps - 1 - i))
    return _finish(np.power(float(base), exponents).astype(out), requires_grad)

# the log-gamma function and its derivatives
__all__ += ["digamma", "lgamma", "polygamma"]
lgamma, digamma = _method("lgamma"), _method("digamma")


def polygamma(n: int, input: Tensor) -> Tensor:
    """``tinygrad_edu.polygamma(n, x)``: the n-th derivative of digamma (n = 0: digamma itself)."""
    return input.polygamma(n)


# inference mode's mark on a tensor
__all__ += ["is_inference"]
is_inference = _method("is_inference")


# bitwise logic, membership, reductions into places
__all__ += ["bitwise_and", "bitwise_or", "bitwise_xor", "isin", "normal", "scatter_reduce"]
bitwise_and, bitwise_or, bitwise_xor = _method("bitwise_and"), _method("bitwise_or"), _method("bitwise_xor")
scatter_reduce = _method("scatter_reduce")
normal = _creation_normal


def isin(elements: Any, test_elements: Any, *, assume_unique: bool = False, invert: bool = False) -> Tensor:
    """Whether each element of ``elements`` is one of ``test_elements`` (tensors or numbers); no gradient."""
    values = [t._array if isinstance(t, Tensor) else np.asarray(t) for t in (elements, test_elements)]
    return _wrap(np.isin(values[0], values[1], invert=invert))


# PyTorch's legacy constructors: torch.FloatTensor([1, 2]) (data), torch.FloatTensor(2, 3) (a shape, values
# "uninitialised": zeros here), torch.FloatTensor() (empty). isinstance(x, torch.FloatTensor) asks x's dtype.
class _LegacyMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and obj._array.dtype == cls._np

    def __call__(cls, *args: Any, device: Any = None) -> Tensor:
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0]._array.dtype != cls._np:
                raise TypeError(f"expected {cls.__name__} (got {args[0].type()})")
            return args[0].detach()
        if args and builtins.all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
            return _wrap(np.zeros(tuple(int(a) for a in args), dtype=cls._np))
        if len(args) == 1:
            return _wrap(np.asarray(args[0], dtype=cls._np))
        if not args:
            return _wrap(np.zeros((0,), dtype=cls._np))
        raise TypeError(f"new() received an invalid combination of arguments - got {args!r}")


def _legacy(name: str, np_dtype: Any) -> type:
    return _LegacyMeta(name, (), {"_np": np.dtype(np_dtype), "dtype": _dtype.from_numpy(np.dtype(np_dtype)),
                                  "__module__": "tinygrad_edu"})


FloatTensor, DoubleTensor, HalfTensor = _legacy("FloatTensor", np.float32), _legacy("DoubleTensor", np.float64), \
    _legacy("HalfTensor", np.float16)
LongTensor, IntTensor, ShortTensor = _legacy("LongTensor", np.int64), _legacy("IntTensor", np.int32), \
    _legacy("ShortTensor", np.int16)
ByteTensor, CharTensor, BoolTensor = _legacy("ByteTensor", np.uint8), _legacy("CharTensor", np.int8), \
    _legacy("BoolTensor", np.bool_)
__all__ += ["BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor", "IntTensor",
            "LongTensor", "ShortTensor"]


def get_default_dtype() -> _dtype.dtype:
    """The float type of ``tensor([1.5])``, ``zeros(2)`` and new layers' weights: float32."""
    return _dtype.float32


def set_default_dtype(d: _dtype.dtype) -> None:
    """PyTorch lets a program change the default float type. tinygrad_edu's stays float32: asking for it is fine,
    asking for another is an error that says how to get it (``dtype=`` on the tensors that need it)."""
    if not isinstance(d, _dtype.dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    if d != _dtype.float32:
        raise RuntimeError(f"tinygrad_edu's default float type is float32 and cannot be changed to {d}: give "
                           f"dtype={d} to the tensors that need it")


def set_default_tensor_type(t: Any) -> None:
    """The old way to choose the default float type, still in older tutorials:
    ``torch.set_default_tensor_type('torch.FloatTensor')`` (or the class). PyTorch warns that it is deprecated
    and refuses a type that is not floating point; another float type than float32 is refused as by
    :func:`set_default_dtype`."""
    name = t if isinstance(t, str) else f"tinygrad_edu.{getattr(t, '__name__', t)}"
    names = {f"{prefix}.{n}": d for d, n in _dtype.LEGACY_NAMES.items() for prefix in ("tinygrad_edu", "torch")}
    legacy = names.get(name)
    if legacy is None:
        raise TypeError(f"invalid type: '{t}'")
    warnings.warn("tinygrad_edu.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                  "tinygrad_edu.set_default_device() (and dtype= for another float type) as alternatives.",
                  UserWarning, stacklevel=2)
    set_default_dtype(legacy)


__all__ += ["get_default_dtype", "set_default_dtype", "set_default_tensor_type"]


# ``out=``: the result written into a tensor the caller gives (and returned), as PyTorch's function forms allow. The
# forms the core's ``function`` makes (torch.exp, torch.tanh ...) take it already (``Tensor._with_out``, _out.py).
def _with_out(fn: Any) -> Any:
    def with_out(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if out is None:
            return fn(*args, **kwargs)
        tensors = [*args, *kwargs.values()] + [t for a in args if isinstance(a, (list, tuple)) for t in a]
        return write_out(fn.__name__, lambda: fn(*args, **kwargs), tensors, out)

    with_out.__name__, with_out.__qualname__, with_out.__doc__ = fn.__name__, fn.__name__, fn.__doc__
    return with_out


matmul, cat, stack = (_with_out(f) for f in (matmul, cat, stack))


# breadth that docstring examples and tutorials reach for: other spellings of cat, cutting into n pieces, named
# pairs along a dimension, counting, the bits of a number
__all__ += ["atleast_1d", "atleast_2d", "atleast_3d", "bincount", "bitwise_not", "concat", "concatenate", "cummax",
            "cummin", "histc", "index_copy", "index_put", "index_put_", "kthvalue", "logit", "logit_", "mode",
            "take_along_dim", "tensor_split", "xlogy", "xlogy_"]
concat = concatenate = cat  # (numpy's name and the Array API's: torch.concat, torch.concatenate)
atleast_1d, atleast_2d, atleast_3d = shape.atleast_1d, shape.atleast_2d, shape.atleast_3d
tensor_split, take_along_dim = shape.tensor_split, selection.take_along_dim
cummax, cummin, kthvalue, mode = selection.cummax, selection.cummin, selection.kthvalue, selection.mode
bincount, histc = selection.bincount, selection.histc
bitwise_not, index_copy, index_put, index_put_ = (_method(n) for n in ("bitwise_not", "index_copy", "index_put",
                                                                        "index_put_"))
xlogy, logit, logit_ = elementwise.xlogy, _method("logit"), _method("logit_")


def xlogy_(input: Tensor, other: Any) -> Tensor:
    """``tinygrad_edu.xlogy_(x, y)`` is ``x.xlogy_(y)``: x * log(y) written into x."""
    return input.xlogy_(other)


# dtype arithmetic: what an operation's result type would be, without computing it
__all__ += ["can_cast", "promote_types", "result_type"]


def result_type(tensor1: Any, tensor2: Any) -> _dtype.dtype:
    """The dtype ``tensor1 + tensor2`` would have: PyTorch's promotion, in which a Python number (or a 0-d tensor)
    counts only if it is of a higher kind (``result_type(uint8 tensor, 1.0)`` is float32, with ``1`` uint8)."""
    x, y = (_as_tensor(v) for v in (tensor1, tensor2))
    return _dtype.from_numpy(_dtype.binary_result_type(x, y))


def promote_types(type1: _dtype.dtype, type2: _dtype.dtype) -> _dtype.dtype:
    """The smallest dtype both convert to without losing their kind: int32 and float32 give float32."""
    for i, t in enumerate((type1, type2)):
        if not isinstance(t, _dtype.dtype):
            raise TypeError(f"promote_types(): argument 'type{i + 1}' (position {i + 1}) must be "
                            f"tinygrad_edu.dtype, not {type(t).__name__}")
    return _dtype.from_numpy(_dtype.promote_types(type1.np, type2.np))


def can_cast(from_: _dtype.dtype, to: _dtype.dtype) -> bool:
    """Whether PyTorch's casting rules allow an operation's result of type ``from_`` into ``to`` (an ``out=`` or an
    in-place op): never to a lower kind (float to int, int to bool); within a kind, always (double to float)."""
    return _dtype._KIND_RANK[from_.np.kind] <= _dtype._KIND_RANK[to.np.kind]


# PyTorch's less-travelled functions (ops/more.py): element-wise odds and ends, reductions that skip nans or count,
# quantiles and covariance, binning, shapes cut and combined, fused products
_MORE = ("sgn", "positive", "clamp_min", "clamp_max", "fmax", "fmin", "copysign", "float_power", "ldexp", "frexp",
         "logaddexp2", "nextafter", "heaviside", "gcd", "lcm", "bitwise_left_shift", "bitwise_right_shift", "sinc",
         "i0", "mvlgamma", "nan_to_num", "renorm", "isposinf", "isneginf", "isreal", "nansum", "nanmean",
         "count_nonzero", "logcumsumexp", "quantile", "nanquantile", "cov", "corrcoef", "histogram", "argwhere",
         "unique_consecutive", "ravel", "adjoint", "hsplit", "vsplit", "dsplit", "diagflat", "narrow_copy",
         "masked_scatter", "put", "addbmm", "addr", "vdot", "cumulative_trapezoid", "gradient", "searchsorted",
         "bucketize", "broadcast_shapes", "broadcast_tensors", "tril_indices", "triu_indices", "cartesian_prod",
         "combinations", "row_stack", "block_diag", "chain_matmul")
__all__ += [*_MORE, "fix", "negative", "fix_", "negative_", "sgn_", "clamp_min_", "clamp_max_", "sinc_", "i0_",
            "nan_to_num_", "logaddexp2", "copysign", "float_power"]
__all__ = list(dict.fromkeys(__all__))
(sgn, positive, clamp_min, clamp_max, fmax, fmin, copysign, float_power, ldexp, frexp, logaddexp2, nextafter,
 heaviside, gcd, lcm, bitwise_left_shift, bitwise_right_shift, sinc, i0, mvlgamma, nan_to_num, renorm, isposinf,
 isneginf, isreal, nansum, nanmean, count_nonzero, logcumsumexp, quantile, nanquantile, cov, corrcoef, histogram,
 argwhere, unique_consecutive, ravel, adjoint, hsplit, vsplit, dsplit, diagflat, narrow_copy, masked_scatter, put,
 addbmm, addr, vdot, cumulative_trapezoid, gradient, searchsorted, bucketize, broadcast_shapes, broadcast_tensors,
 tril_indices, triu_indices, cartesian_prod, combinations, row_stack, block_diag, chain_matmul) = (
    getattr(more, n) for n in _MORE)
fix, negative = _method("fix"), _method("neg")
fix_, negative_, sgn_, clamp_min_, clamp_max_ = (_method(n) for n in ("fix_", "negative_", "sgn_", "clamp_min_",
                                                                      "clamp_max_"))
sinc_, i0_, nan_to_num_ = _method("sinc_"), _method("i0_"), _method("nan_to_num_")


# More in-place function forms, each the Tensor method: ``tinygrad_edu.fill_(x, 0)`` is ``x.fill_(0)``
_MORE_INPLACE = ("fill_", "zero_", "detach_", "clip_", "arcsin_", "arccos_", "arctan_", "gcd_", "lcm_", "ldexp_",
                 "as_strided_", "resize_as_", "addmv_")
fill_, zero_, detach_, clip_, arcsin_, arccos_, arctan_, gcd_, lcm_, ldexp_, as_strided_, resize_as_, addmv_ = (
    _method(n) for n in _MORE_INPLACE)
__all__ += list(_MORE_INPLACE)
