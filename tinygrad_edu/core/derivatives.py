"""The derivative table: one entry per op, PyTorch's ``derivatives.yaml`` written in Python.

An entry gives the op's node name (PyTorch's), its forward on numpy arrays, and for each input the backward
formula: d(root)/d(input) from ``grad`` = d(root)/d(output), written with Tensor operations, so that with
``create_graph=True`` the formulas are recorded too and second derivatives come for free::

    Mul = derivative("MulBackward0", lambda self, other: self * other,
                     self=lambda grad, other: grad * other,
                     other=lambda grad, self: grad * self)

reads: the output is self * other; d/dself is grad * other, d/dother is grad * self. Inputs have PyTorch's names
(``self``, ``other``, ``exponent`` ...). What a formula names is what the node keeps for it: an input or the
``result`` (saved tensors, version-checked, ``grad_fn._saved_other``), a number argument (``dim``), or an input's
shape (``self_shape``). A node keeps only what the formulas of the inputs that need a gradient name: ``x * w``
with only ``w`` requiring grad saves ``x`` and not ``w``.

``derivative(...)`` is the one small step from an entry to a ``Function``: the same mechanism as a learner's
``class Exp(Function)``, so a built-in's node is the same kind of object (``type(y.grad_fn)``,
``next_functions``, ``_saved_*``). The step also does, once for all entries, what no formula should repeat:

* **broadcasting**, undone: a gradient with the broadcast shape of the output is summed down to its input's
  shape (``sum_to_shape``, function.py);
* **dtypes**: ``broadcast=True`` ops compute two inputs of different dtypes in the common one (``int64 * float32``
  in float32), ``floating=True`` ops compute integers as float32; each input gets its gradient in its own dtype.

Each entry has room for its forward-mode rule (``jvp=``), the derivative in the other direction: a later part of
the course fills it. Ops that need more than this (indexing, sorting, einsum, the losses) are Function classes
of their own, outside the core (``tinygrad_edu/ops``, ``tinygrad_edu/nn``).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from operator import itemgetter
from typing import Any

import numpy as np

from .. import _checks as C
from .. import _messages as M
from .._dtype import binary_result_type
from .function import Function, Tensors, broadcast_shapes, quietly, sum_to_shape, wrap

# The entries, in the order of this file: what docs and lessons list (``table()``).
TABLE: list[type[Function]] = []


def derivative(node: str, forward: Callable[..., Any], *, broadcast: bool = False, floating: bool = False,
               view: bool = False, silent: bool = False, saved: tuple[str, ...] = (), jvp: Callable | None = None,
               **formulas: Callable[..., Any]) -> type[Function]:
    """Make the Function of one entry (see the module docstring).

    ``broadcast``: a binary op whose inputs broadcast and promote together (summed back and converted here);
    ``floating``: integers compute as float32; ``view``: the output shares the first input's memory; ``silent``:
    the forward never meets a floating-point exception (so it skips numpy's error state); ``saved``: the number
    arguments the node shows as ``_saved_<name>``, as PyTorch's does; ``jvp``: the forward-mode rule."""
    params = inspect.signature(forward).parameters
    args, defaults = tuple(params), tuple(None if p.default is p.empty else p.default for p in params.values())
    grads = tuple(formulas.get(a) for a in args)  # None: no gradient for that argument (a dim, a number ...)
    uses = [tuple(inspect.signature(f).parameters) if f else () for f in grads]
    named = [n for u in uses for n in u]
    saved_names = tuple(n for n in (*args, "result") if n in named and (n in formulas or n == "result"))
    kept = tuple(dict.fromkeys(n for n in named if n != "grad" and n not in saved_names))
    where = {n: i for i, n in enumerate(("grad", *saved_names, *kept))}  # a formula's arguments, by name
    reads = tuple(tuple(where[n] for n in u) for u in uses)
    at = {n: i for i, n in enumerate(args)}
    saved_at = tuple(at.get(n, -1) for n in saved_names)  # (-1: the result)
    kept_at = tuple((at[n], "") if n in at else (at[n.rsplit("_", 1)[0]], n.rsplit("_", 1)[1]) for n in kept)
    plans: dict[tuple[bool, ...], tuple] = {}
    plain = len(grads) == 1 and not kept and reads[0] == tuple(range(len(saved_names) + 1))

    def plan(needs: tuple[bool, ...]) -> tuple:
        """What to save when these inputs need a gradient: what their formulas name, in the order they name it
        (the order saved-tensor hooks see them in, PyTorch's). Returns that order, and for each saved name where it
        comes from in ``(None, result, *inputs)``."""
        wanted = [saved_names.index(n) for n in dict.fromkeys(n for u, need in zip(uses, needs) if need for n in u)
                  if n in saved_names]
        where = [0 if i not in wanted else 1 if saved_at[i] < 0 else 2 + saved_at[i] for i in range(len(saved_names))]
        if where == [1]:  # (the usual case: the result alone)
            return tuple(wanted), None, True
        return tuple(wanted), itemgetter(*where, 0), 1 in where  # (a trailing 0: itemgetter always gives a tuple)

    def run_forward(ctx: Any, *values: Any) -> Any:
        meta = None
        if len(values) == 1:  # (the usual cases first: one tensor, or two that broadcast together)
            a = values[0]._array
            out = forward(a if not floating or a.dtype.kind == "f" else a.astype(np.float32))
        elif broadcast:
            a, b = values[0]._array, values[1]._array
            if a.shape != b.shape or a.dtype != b.dtype:  # undone in backward: each input's shape and dtype
                meta = (a.shape, a.dtype), (b.shape, b.dtype)
                if a.dtype != b.dtype:  # int64 * float32 computes in float32
                    dt = binary_result_type(values[0], values[1])
                    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
            out = forward(a, b, *values[2:])
        else:
            if len(values) < len(args):
                values += defaults[len(values):]
            arrays = [v._array if isinstance(v, Tensors.cls) else v for v in values]
            if floating and arrays[0].dtype.kind != "f":
                arrays[0] = arrays[0].astype(np.float32)
            out = forward(*arrays)
        if ctx._seq < 0:  # not recorded (no_grad, or inside backward): nothing to keep
            return out
        if saved_names:
            ctx._pack_order, take, keeps_result = plans.get(ctx.needs_input_grad) or plans.setdefault(
                ctx.needs_input_grad, plan(ctx.needs_input_grad))
            if keeps_result:
                out = wrap(out)
            ctx._to_save = (out,) if take is None else take((None, out, *values))[:-1]
        if kept:  # a number argument, or an input's shape or dtype ("self_shape")
            if len(values) < len(args):
                values += defaults[len(values):]
            ctx._kept = tuple([getattr(values[i]._array, part) if part else values[i] for i, part in kept_at])
        for n in saved:
            setattr(ctx, "_saved_" + n, values[at[n]])
        if meta is not None:
            ctx._meta = meta
        return out

    def run_backward(ctx: Any, grad: Any) -> tuple:
        if plain:  # (the usual case: one input, a formula of grad and what was saved, in that order)
            return (grads[0](grad, *ctx.saved_tensors),)
        values = (grad, *ctx.saved_tensors, *ctx._kept) if saved_names else (grad, *ctx._kept)
        if len(grads) == 1:  # one input, which needs its gradient (or there would be no node)
            return (grads[0](*[values[i] for i in reads[0]]),)
        out = [f(*[values[i] for i in r]) if f is not None and need else None
               for f, r, need in zip(grads, reads, ctx.needs_input_grad)]
        if ctx._meta is not None:  # the inputs were broadcast or promoted: each gradient back to its input's
            out[:2] = [None if g is None else _as_input(g, *meta) for g, meta in zip(out, ctx._meta)]  # shape, dtype
        return tuple(out)

    name = node.removesuffix("Backward0").removesuffix("Backward1").removesuffix("Backward2")
    fn = type(name, (Function,), {"node_name": node, "saved_names": saved_names, "is_view": view, "silent": silent,
                                  "forward": staticmethod(run_forward), "backward": staticmethod(run_backward),
                                  "formulas": formulas, "jvp": jvp, "__module__": __name__})
    fn._backward_cls._kept, fn._backward_cls._meta = (), None
    TABLE.append(fn)
    return fn


def _as_input(g: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    """A gradient made an input's: summed back down to its shape (it was broadcast), in its dtype."""
    if g._array.shape != shape:
        g = sum_to_shape(g, shape)
    return g if g._array.dtype == dtype else g.to(dtype)


def zeros(grad: Any) -> Any:
    """The gradient of an op that is flat wherever it has a derivative: zeros, a constant with no history, as
    PyTorch returns (``grad * 0`` would give nan for an infinite grad, and -0. for a negative one)."""
    return wrap(np.zeros_like(grad._array))


def zero_where(mask: np.ndarray, t: Any) -> Any:
    """``t`` with exactly 0 where ``mask`` holds, still differentiable in t. Where a function is flat (relu below 0,
    clamp outside its bounds) PyTorch *masks* the incoming gradient rather than multiplying it by 0, so that an
    infinite gradient gives 0 there, not inf * 0 = nan."""
    return MaskedFill.apply(t, mask) if mask.any() else t


def kept_shape(shape: tuple[int, ...], dims: tuple[int, ...] | None) -> tuple[int, ...]:
    """The shape of a reduction's result with keepdim=True: the reduced dimensions (all, for None) become 1."""
    return tuple(1 if dims is None or i in dims else n for i, n in enumerate(shape))


LN2, LN10, PI_180 = 0.6931471805599453, 2.302585092994046, 0.017453292519943295  # ln 2, ln 10, pi / 180


def _div(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    if self.dtype.kind != "f":  # true division: integers divide into PyTorch's default float type
        self, other = self.astype(np.float32), other.astype(np.float32)
    return self / other


def _kept(grad: Any, shape: tuple[int, ...], dim: tuple[int, ...], keepdim: bool) -> Any:
    """A reduction's gradient with the reduced dimensions back, as size 1."""
    return grad if keepdim else grad.reshape(kept_shape(shape, dim))


def _unreduce(grad: Any, shape: tuple[int, ...], dim: tuple[int, ...], keepdim: bool) -> Any:
    return _kept(grad, shape, dim, keepdim).expand(shape)


def _neg(self: np.ndarray) -> np.ndarray:
    if self.dtype == np.bool_:
        raise RuntimeError(M.NEGATION_OF_BOOL)
    return -self


def _pow(self: np.ndarray, exponent: float) -> np.ndarray:
    if self.dtype.kind != "f" and (isinstance(exponent, float) or exponent < 0):
        if exponent < 0 and not isinstance(exponent, float):
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return np.power(self.astype(np.float32), exponent)
    return np.power(self, exponent)


def _power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """``base ** exponent``. numpy refuses negative integer powers of integers; PyTorch gives the integer part of
    the true power: 1 for a base of 1, +-1 for -1, and 0 otherwise."""
    if exponent.dtype.kind == "f" or base.dtype.kind == "f" or not np.any(exponent < 0):
        return np.power(base, exponent)
    base, exponent = np.broadcast_arrays(base, exponent)
    out = np.power(base, np.maximum(exponent, 0))
    negative = exponent < 0
    out[negative] = np.where(base == 1, 1, np.where(base == -1, 1 - 2 * (exponent % 2), 0))[negative]
    return out


def _rpow_grad(grad: Any, exponent: Any, result: Any, c: float) -> Any:
    dy = grad * (result * float(quietly(np.log, c)))
    return zero_where(exponent._array >= 0, dy) if c == 0 else dy  # 0**y is flat for y >= 0


def _clamp(self: np.ndarray, min: float | None, max: float | None) -> np.ndarray:
    if min is None and max is None:
        raise RuntimeError("tinygrad_edu.clamp: At least one of 'min' or 'max' must not be None")
    if self.dtype.kind != "f" and (isinstance(min, float) or isinstance(max, float)):
        self = self.astype(np.float32)  # float bounds make an int tensor's result float32 (PyTorch's promotion)
    return np.clip(self, min, max).astype(self.dtype, copy=False)


def _outside(x: Any, lo: float | None, hi: float | None) -> np.ndarray:
    a = x._array
    keep = np.ones(a.shape, dtype=bool)
    if lo is not None:
        keep &= a >= lo
    if hi is not None:
        keep &= a <= hi
    return ~keep


def _tanh_backward(grad_output: np.ndarray, output: np.ndarray) -> np.ndarray:
    if output.dtype == np.float32:  # PyTorch fuses 1 - y*y into one rounding (a multiply-add): in float64 y*y is
        wide = output.astype(np.float64)  # exact and 1 - y*y rounds once, to float32, as the fused op does
        return grad_output * (1 - wide * wide).astype(np.float32)
    return grad_output * (1 - output * output)


def _threshold_backward(grad_output: np.ndarray, self: np.ndarray, threshold: float) -> np.ndarray:
    mask = self <= threshold  # (PyTorch's test: at a nan result the gradient passes)
    return np.where(mask, grad_output.dtype.type(0), grad_output) if mask.any() else grad_output


def _broadcastable(self: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    broadcast_shapes(self.shape, other.shape)  # (PyTorch's message if they do not broadcast)
    return self, other


def _weight(self: Any, other: Any, pick: Callable) -> np.ndarray:
    """Which of two inputs max/min picked, as a weight: 1 where ``self`` won, 0 where it lost, and 1/2 each where
    they are equal (PyTorch's convention)."""
    a, b = self._array, other._array
    return pick(a, b) + 0.5 * (a == b)


def _share(grad: Any, weight: np.ndarray) -> Any:
    """``grad`` times a weight, masked where the weight is 0 (not multiplied: an infinite grad must give 0)."""
    return zero_where(weight == 0, grad * wrap(weight.astype(grad._array.dtype)))


def _masked_fill(self: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.where(mask if mask.shape == self.shape else np.broadcast_to(mask, self.shape), self.dtype.type(0), self)


def _reduced(shape: tuple[int, ...], dim: tuple[int, ...]) -> int:
    return math.prod(shape[d] for d in dim)


def _view(self: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    try:
        return np.reshape(self, shape, copy=False)  # numpy refuses (rather than copying) when the layout does not allow
    except ValueError:
        C.infer_shape(shape, self.size)  # (a shape of the wrong size: PyTorch's message)
        raise RuntimeError(C.VIEW_STRIDES) from None


def _expand(self: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    try:
        return np.broadcast_to(self, shape)
    except ValueError:  # a -1 (keep that size), or sizes that do not fit: PyTorch's message
        return np.broadcast_to(self, C.expanded_shape(self, shape))


def _floats(a: np.ndarray, name: str) -> np.ndarray:
    return a if a.dtype.kind == "f" else C.float_only(a, name)  # (an integer tensor: PyTorch's refusal)


def _sum_dtype(a: np.ndarray) -> Any:
    return np.int64 if a.dtype.kind in "biu" else a.dtype  # PyTorch sums integers and bools as int64


def _sum(self: np.ndarray, dim: tuple[int, ...], keepdim: bool) -> np.ndarray:
    return np.asarray(self.sum(axis=dim, keepdims=keepdim, dtype=_sum_dtype(self)))


def _sigmoid_backward(grad_output: np.ndarray, output: np.ndarray) -> np.ndarray:
    return grad_output * (1 - output) * output


# == The table ==================================================================================================
# ``grad`` is d(root)/d(output); each formula gives d(root)/d(that input). PyTorch's node names.
# -- arithmetic --------------------------------------------------------------------------------------------------------
Add = derivative("AddBackward0", lambda self, other, alpha=1: self + (other if alpha == 1 else alpha * other),
                 self=lambda grad: grad,
                 other=lambda grad, alpha: grad if alpha == 1 else grad * alpha, broadcast=True)
Sub = derivative("SubBackward0", lambda self, other, alpha=1: self - (other if alpha == 1 else alpha * other),
                 self=lambda grad: grad,
                 other=lambda grad, alpha: -grad if alpha == 1 else grad * -alpha, broadcast=True)
Rsub = derivative("RsubBackward1", lambda self, other: (other - self).astype(self.dtype, copy=False),  # c - x
                  self=lambda grad: -grad)
Mul = derivative("MulBackward0", lambda self, other: self * other,
                 self=lambda grad, other: grad * other,
                 other=lambda grad, self: grad * self, broadcast=True)
MulScalar = derivative("MulBackward1", lambda self, other: self * self.dtype.type(other),  # x * c in C++ formulas
                       self=lambda grad, other: MulScalar.apply(grad, other), saved=("other",))
DivScalar = derivative("DivBackward1", lambda self, other: np.asarray(self / other, dtype=self.dtype),  # x / c in C++
                       self=lambda grad, other: grad / other, saved=("other",))
Div = derivative("DivBackward0", _div,
                 self=lambda grad, other: grad / other,
                 other=lambda grad, self, other: -grad * ((self / other) / other), broadcast=True)
Neg = derivative("NegBackward0", _neg, self=lambda grad: -grad, silent=True)
Reciprocal = derivative("ReciprocalBackward0", lambda self: np.reciprocal(self),
                        self=lambda grad, result: -grad * (result * result), floating=True)
Pow = derivative("PowBackward0", _pow,  # x ** p, p a number (x**0 is flat: zeros)
                 self=lambda grad, self, exponent: zeros(grad) if exponent == 0 else
                 grad * (exponent * self ** (exponent - 1)), saved=("exponent",))
# x ** y: masked where it is flat, in x where y = 0, in y where x = 0 and y >= 0 (0 * inf there would be nan)
PowTensor = derivative("PowBackward1", lambda self, exponent: _power(self, exponent),
                       self=lambda grad, exponent, self:
                       zero_where(exponent._array == 0, grad * (exponent * self ** (exponent - 1))),
                       exponent=lambda grad, exponent, self, result:
                       grad * result * zero_where((self._array == 0) & (exponent._array >= 0), self.log()),
                       broadcast=True)
RPow = derivative("PowBackward2", lambda self, exponent: _power(np.asarray(self, dtype=exponent.dtype), exponent),
                  exponent=lambda grad, exponent, result, self: _rpow_grad(grad, exponent, result, self),
                  saved=("self",))  # c ** y, c a number
# -- exponentials and logarithms ---------------------------------------------------------------------------------------
Exp = derivative("ExpBackward0", lambda self: np.exp(self), self=lambda grad, result: grad * result, floating=True)
Expm1 = derivative("Expm1Backward0", lambda self: np.expm1(self),
                   self=lambda grad, result: grad * (result + 1), floating=True)
Exp2 = derivative("Exp2Backward0", lambda self: np.exp2(self),
                  self=lambda grad, result: MulScalar.apply(grad * result, LN2), floating=True)
Log = derivative("LogBackward0", lambda self: np.log(self), self=lambda grad, self: grad / self, floating=True)
Log1p = derivative("Log1PBackward0", lambda self: np.log1p(self),
                   self=lambda grad, self: grad / (self + 1), floating=True)
Log2 = derivative("Log2Backward0", lambda self: np.log2(self),
                  self=lambda grad, self: grad / (self * LN2), floating=True)
Log10 = derivative("Log10Backward0", lambda self: np.log10(self),
                   self=lambda grad, self: grad / (self * LN10), floating=True)
Sqrt = derivative("SqrtBackward0", lambda self: np.sqrt(self),
                  self=lambda grad, result: grad / (2 * result), floating=True)
Rsqrt = derivative("RsqrtBackward0", lambda self: 1 / np.sqrt(self),
                   self=lambda grad, result: grad * -0.5 * result ** 3, floating=True)
# -- trigonometry ------------------------------------------------------------------------------------------------------
Sin = derivative("SinBackward0", lambda self: np.sin(self), self=lambda grad, self: grad * self.cos(), floating=True)
Cos = derivative("CosBackward0", lambda self: np.cos(self), self=lambda grad, self: -grad * self.sin(), floating=True)
Tan = derivative("TanBackward0", lambda self: np.tan(self),
                 self=lambda grad, result: grad * (result * result + 1), floating=True)
Asin = derivative("AsinBackward0", lambda self: np.arcsin(self),
                  self=lambda grad, self: grad * (1 - self * self).rsqrt(), floating=True)
Acos = derivative("AcosBackward0", lambda self: np.arccos(self),
                  self=lambda grad, self: grad * -(1 - self * self).rsqrt(), floating=True)
Atan = derivative("AtanBackward0", lambda self: np.arctan(self),
                  self=lambda grad, self: grad / (self * self + 1), floating=True)
Sinh = derivative("SinhBackward0", lambda self: np.sinh(self), self=lambda grad, self: grad * self.cosh(),
                  floating=True)
Cosh = derivative("CoshBackward0", lambda self: np.cosh(self), self=lambda grad, self: grad * self.sinh(),
                  floating=True)
Deg2rad = derivative("Deg2RadBackward0", lambda self: self * self.dtype.type(PI_180),
                     self=lambda grad: MulScalar.apply(grad, PI_180), floating=True)
Rad2deg = derivative("Rad2DegBackward0", lambda self: self * self.dtype.type(1 / PI_180),
                     self=lambda grad: MulScalar.apply(grad, 1 / PI_180), floating=True)
# -- activations: their gradients are single ops, as PyTorch's (tanh_backward ...), differentiable in turn -------------
Tanh = derivative("TanhBackward0", lambda self: np.tanh(self),
                  self=lambda grad, result: TanhBackward.apply(grad, result), floating=True, silent=True)
TanhBackward = derivative("TanhBackwardBackward0", _tanh_backward,  # grad_output * (1 - output**2)
                          grad_output=lambda grad, output: TanhBackward.apply(grad, output),
                          output=lambda grad, grad_output, output: grad * (-2 * output * grad_output))
Sigmoid = derivative("SigmoidBackward0", lambda self: 1 / (1 + np.exp(-self)),  # (sigmoid(-100) is 0, as PyTorch's)
                     self=lambda grad, result: SigmoidBackward.apply(grad, result), floating=True)
SigmoidBackward = derivative("SigmoidBackwardBackward0", _sigmoid_backward,
                             grad_output=lambda grad, output: SigmoidBackward.apply(grad, output),
                             output=lambda grad, grad_output, output: grad * grad_output * (1 - 2 * output))
Relu = derivative("ReluBackward0", lambda self: np.maximum(self, 0, dtype=self.dtype),
                  self=lambda grad, result: ThresholdBackward.apply(grad, result, 0), silent=True)
ThresholdBackward = derivative("ThresholdBackwardBackward0", _threshold_backward,  # relu's mask: grad where self > 0
                               grad_output=lambda grad, self, threshold: ThresholdBackward.apply(grad, self, threshold),
                               self=lambda grad: zeros(grad), saved=("threshold",), silent=True)  # (relu'' = 0)
# -- flat almost everywhere, or in pieces ------------------------------------------------------------------------------
Abs = derivative("AbsBackward0", lambda self: np.abs(self), self=lambda grad, self: grad * self.sign(), silent=True)
Sign = derivative("SignBackward0", lambda self: np.sign(self), self=lambda grad: zeros(grad), silent=True)
Clamp = derivative("ClampBackward1", _clamp,
                   self=lambda grad, self, min, max: zero_where(_outside(self, min, max), grad),
                   saved=("min", "max"), silent=True)
Maximum = derivative("MaximumBackward0", lambda self, other: np.maximum(*_broadcastable(self, other)),
                     self=lambda grad, other, self: _share(grad, _weight(self, other, np.greater)),
                     other=lambda grad, self, other: _share(grad, 1 - _weight(self, other, np.greater)),
                     broadcast=True, silent=True)
Minimum = derivative("MinimumBackward0", lambda self, other: np.minimum(*_broadcastable(self, other)),
                     self=lambda grad, other, self: _share(grad, _weight(self, other, np.less)),
                     other=lambda grad, self, other: _share(grad, 1 - _weight(self, other, np.less)),
                     broadcast=True, silent=True)
MaskedFill = derivative("MaskedFillBackward0", _masked_fill, self=lambda grad, mask: zero_where(mask, grad),
                        silent=True)
# -- shapes: views share their input's memory; the gradient only moves back into place ---------------------------------
View = derivative("ViewBackward0", _view, self=lambda grad, self_shape: grad.reshape(self_shape),
                  view=True, silent=True)
ReshapeAlias = derivative("ReshapeAliasBackward0", _view,  # a reshape of a non-contiguous tensor, still a view
                          self=lambda grad, self_shape: grad.reshape(self_shape), view=True, silent=True)
UnsafeView = derivative("UnsafeViewBackward0", lambda self, shape: self.reshape(C.infer_shape(shape, self.size)),
                        self=lambda grad, self_shape: grad.reshape(self_shape), silent=True)  # a reshape that copied
Expand = derivative("ExpandBackward0", _expand, self=lambda grad, self_shape: sum_to_shape(grad, self_shape),
                    view=True, silent=True)
Clone = derivative("CloneBackward0", lambda self: self.copy(), self=lambda grad: grad, silent=True)
ToCopy = derivative("ToCopyBackward0", lambda self, dtype: self.astype(dtype),
                    self=lambda grad, self_dtype: grad.to(self_dtype), silent=True)
# -- reductions (the mean's gradient divides by a number, as PyTorch's C++ does: DivBackward1) -------------------------
Sum = derivative("SumBackward0", lambda self: np.asarray(self.sum(dtype=_sum_dtype(self))),
                 self=lambda grad, self_shape: grad.expand(self_shape), silent=True)
SumDim = derivative("SumBackward1", lambda self, dim, keepdim: _sum(self, dim, keepdim),
                    self=lambda grad, self_shape, dim, keepdim: _unreduce(grad, self_shape, dim, keepdim), silent=True)
Mean = derivative("MeanBackward0", lambda self: np.asarray(_floats(self, "mean").mean(dtype=self.dtype)),
                  self=lambda grad, self_shape: DivScalar.apply(grad, math.prod(self_shape)).expand(self_shape),
                  silent=True)
MeanDim = derivative("MeanBackward1", lambda self, dim, keepdim: np.asarray(
                     _floats(self, "mean").mean(dim, self.dtype, None, keepdim)),
                     self=lambda grad, self_shape, dim, keepdim: DivScalar.apply(
                         _kept(grad, self_shape, dim, keepdim), _reduced(self_shape, dim)).expand(self_shape),
                     silent=True)
