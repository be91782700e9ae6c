"""The function forms (``torch.exp(x)``, ``torch.sum(x, dim)`` ...): each calls the Tensor method."""

from __future__ import annotations

from typing import Any

from ._tensor import Tensor
from .ops import linalg, reduce, selection, shape

__all__ = [
    "abs", "add", "all", "allclose", "any", "argmax", "argmin", "bmm", "cat", "clamp", "clip", "clone", "cos",
    "detach", "div", "dot", "eq", "equal", "exp", "flatten", "ge", "gt", "le", "log", "log_softmax", "lt", "matmul",
    "max", "maximum", "mean", "min", "minimum", "mm", "mul", "mv", "ne", "neg", "norm", "permute", "pow", "relu",
    "reshape", "sigmoid", "sign", "sin", "softmax", "sqrt", "square", "squeeze", "stack", "sub", "sum", "t",
    "tanh", "transpose", "unbind", "unsqueeze", "where",
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
