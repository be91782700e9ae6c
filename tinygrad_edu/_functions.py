"""The function forms (``torch.exp(x)``, ``torch.sum(x, dim)`` ...): each calls the Tensor method."""

from __future__ import annotations

from typing import Any

from ._tensor import Tensor
from .ops import elementwise, linalg, reduce, selection, shape

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


def _method(name: str) -> Any:
    def fn(input: Tensor, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        return getattr(input, name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``tinygrad_edu.{name}(x, ...)`` is ``x.{name}(...)``."
    return fn


abs = _method("abs")
add, sub, mul, div, neg, pow = (_method(n) for n in ("add", "sub", "mul", "div", "neg", "pow"))
exp, log, sqrt, sin, cos, tanh = (_method(n) for n in ("exp", "log", "sqrt", "sin", "cos", "tanh"))
sigmoid, relu, sign, square = (_method(n) for n in ("sigmoid", "relu", "sign", "square"))
clamp = clip = _method("clamp")
sum, mean, max, min, norm = reduce.sum, reduce.mean, reduce.max, reduce.min, reduce.norm
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
maximum, minimum = selection.maximum, selection.minimum
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


def remainder(input: Any, other: Any) -> Tensor:
    """``tinygrad_edu.remainder(x, y)`` is ``x % y``; either may be a number."""
    return input.remainder(other) if isinstance(input, Tensor) else elementwise.remainder(input, other)


def floor_divide(input: Any, other: Any) -> Tensor:
    """``tinygrad_edu.floor_divide(x, y)`` is ``x // y``; either may be a number."""
    return input.floor_divide(other) if isinstance(input, Tensor) else elementwise.floor_divide(input, other)
