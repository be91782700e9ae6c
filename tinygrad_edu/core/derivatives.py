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
* **dtypes**: ``promote=True`` ops compute two inputs of different dtypes in the common one (``int64 * float32``
  in float32), ``floating=True`` ops compute integers as float32; each input gets its gradient in its own dtype.

Each entry has room for its forward-mode rule (``jvp=``), the derivative in the other direction: a later part of
the course fills it. Ops that need more than this (indexing, sorting, einsum, the losses) are Function classes
of their own, outside the core (``tinygrad_edu/ops``, ``tinygrad_edu/nn``).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _messages as M
from .._dtype import LEGACY_NAMES, binary_result_type, from_numpy
from .function import Function, Tensors, broadcast_shapes, quietly, sum_to_shape, wrap

# The entries, in the order of this file: what docs and lessons list (``table()``).
TABLE: list[type[Function]] = []


def derivative(node: str, forward: Callable[..., Any], *, promote: bool = False, floating: bool = False,
               view: bool = False, saved: tuple[str, ...] = (), jvp: Callable | None = None,
               **formulas: Callable[..., Any]) -> type[Function]:
    """Make the Function of one entry (see the module docstring). ``saved``: the number arguments the node shows
    as ``_saved_<name>``, as PyTorch's does; ``view``: the output shares the first input's memory."""
    params = inspect.signature(forward).parameters
    args = tuple(params)
    defaults = tuple(None if p.default is p.empty else p.default for p in params.values())
    grads = tuple(formulas.get(a) for a in args)  # None: no gradient for that argument (a dim, a number ...)
    uses = [tuple(inspect.signature(f).parameters) if f else () for f in grads]
    named = [n for u in uses for n in u]
    saved_names = tuple(n for n in (*args, "result") if n in named and (n in formulas or n == "result"))
    kept = tuple(dict.fromkeys(n for n in named if n != "grad" and n not in saved_names))
    where = {n: i for i, n in enumerate(("grad", *saved_names, *kept))}  # a formula's arguments, by name
    reads = [tuple(where[n] for n in u) for u in uses]
    at = {n: i for i, n in enumerate(args)}
    saved_at = tuple(at.get(n, -1) for n in saved_names)  # (-1: the result)
    kept_at = tuple((at[n], False) if n in at else (at[n.removesuffix("_shape")], True) for n in kept)
    plans: dict[tuple[bool, ...], tuple] = {}

    def plan(needs: tuple[bool, ...]) -> tuple:
        """What to save when these inputs need a gradient: the saved names their formulas name, in the order
        they name them (the order saved-tensor hooks see them in, PyTorch's)."""
        wanted = dict.fromkeys(n for u, need in zip(uses, needs) if need for n in u if n in saved_names)
        return tuple(saved_names.index(n) for n in wanted), "result" in wanted

    def run_forward(ctx: Any, *values: Any) -> Any:
        T = Tensors.cls  # noqa: N806
        if len(values) < len(args):
            values += defaults[len(values):]
        arrays = [v._array if isinstance(v, T) else v for v in values]
        if promote and arrays[0].dtype != arrays[1].dtype:  # int64 * float32 computes in float32
            dt = binary_result_type(values[0], values[1])
            arrays[0], arrays[1] = arrays[0].astype(dt, copy=False), arrays[1].astype(dt, copy=False)
        elif floating and arrays[0].dtype.kind != "f":
            arrays[0] = arrays[0].astype(np.float32)
        out = forward(*arrays)
        if ctx._seq < 0:  # not recorded (no_grad, or inside backward): nothing to keep
            return out
        needs = ctx.needs_input_grad
        order, keeps_result = plans.get(needs) or plans.setdefault(needs, plan(needs))
        if keeps_result:
            out = wrap(out)
        if saved_names:
            to_save = [None] * len(saved_names)
            for i in order:
                to_save[i] = out if saved_at[i] < 0 else values[saved_at[i]]
            ctx.save_for_backward(*to_save)
            ctx._pack_order = order
        if kept:
            ctx._kept = tuple(values[i]._array.shape if shape else values[i] for i, shape in kept_at)
        for n in saved:
            setattr(ctx, "_saved_" + n, values[at[n]])
        ctx._meta = tuple((v._array.shape, v._array.dtype) if isinstance(v, T) else None for v in values)
        return out

    def run_backward(ctx: Any, grad: Any) -> tuple:
        values = (grad, *ctx.saved_tensors, *ctx._kept) if saved_names else (grad, *ctx._kept)
        out: list[Any] = []
        for f, r, need, meta in zip(grads, reads, ctx.needs_input_grad, ctx._meta):
            if f is None or not need:
                out.append(None)
                continue
            g = f(*[values[i] for i in r])
            shape, dtype = meta
            if g._array.shape != shape:  # broadcast in the forward: undone here, once for every op
                g = sum_to_shape(g, shape)
            out.append(g if g._array.dtype == dtype else g.to(dtype))
        return tuple(out)

    name = node.removesuffix("Backward0").removesuffix("Backward1").removesuffix("Backward2")
    fn = type(name, (Function,), {"node_name": node, "saved_names": saved_names, "is_view": view,
                                  "forward": staticmethod(run_forward), "backward": staticmethod(run_backward),
                                  "formulas": formulas, "jvp": jvp, "__module__": __name__})
    fn._backward_cls._kept = ()
    TABLE.append(fn)
    return fn


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


def _float_only(a: np.ndarray, name: str) -> np.ndarray:
    if a.dtype.kind != "f":
        raise RuntimeError(f"{name}(): could not infer output dtype. Input dtype must be either a floating point or "
                           f"complex dtype. Got: {LEGACY_NAMES[from_numpy(a.dtype)].removesuffix('Tensor')}")
    return a


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


def wrap_dim(d: int, ndim: int) -> int:
    """A dim counted from the end (-1 is the last) counted from the start, checked with PyTorch's message."""
    n = max(ndim, 1)
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d % n


def infer_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    """``shape`` with its -1 (if any) worked out from the number of elements."""
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if (-1 in shape and (known == 0 or numel % known)) or (-1 not in shape and known != numel):
        raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
    return tuple(numel // known if s == -1 else s for s in shape)


def reshaped_view(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """``a`` seen with a new shape, sharing its memory; None when its layout needs a copy for that."""
    try:
        return np.reshape(a, shape, copy=False)  # numpy refuses (rather than copying) when the layout does not allow
    except ValueError:
        return None


def _view(self: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    out = reshaped_view(self, infer_shape(shape, self.size))
    if out is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one dimension "
                           "spans across two contiguous subspaces). Use .reshape(...) instead.")
    return out


def _expand(self: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    lead = len(shape) - self.ndim
    if lead < 0:
        name = LEGACY_NAMES[from_numpy(self.dtype)]
        raise RuntimeError(f"expand(tinygrad_edu.{name}{{[{M.shape_list(self.shape)}]}}, "
                           f"size=[{M.shape_list(shape)}]): the number of sizes provided ({len(shape)}) must be "
                           f"greater or equal to the number of dimensions in the tensor ({self.ndim})")
    target = tuple(self.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
    check_expand(self.shape, target, shape)
    return np.broadcast_to(self, target)


def check_expand(shape: tuple[int, ...], target: tuple[int, ...], asked: tuple[int, ...] | None = None) -> None:
    """Can a tensor of ``shape`` be expanded (broadcast) to ``target``? PyTorch's message if not."""
    lead = len(target) - len(shape)
    for i in reversed(range(len(shape))):  # PyTorch checks from the last dimension, and reports the first misfit
        if shape[i] != 1 and shape[i] != target[lead + i]:
            raise RuntimeError(f"The expanded size of the tensor ({target[lead + i]}) must match the existing size "
                               f"({shape[i]}) at non-singleton dimension {lead + i}.  Target sizes: "
                               f"[{M.shape_list(target if asked is None else asked)}].  Tensor sizes: "
                               f"[{M.shape_list(shape)}]")


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
                 other=lambda grad, alpha: grad if alpha == 1 else grad * alpha, promote=True)
Sub = derivative("SubBackward0", lambda self, other, alpha=1: self - (other if alpha == 1 else alpha * other),
                 self=lambda grad: grad,
                 other=lambda grad, alpha: -grad if alpha == 1 else grad * -alpha, promote=True)
Rsub = derivative("RsubBackward1", lambda self, other: (other - self).astype(self.dtype, copy=False),  # c - x
                  self=lambda grad: -grad)
Mul = derivative("MulBackward0", lambda self, other: self * other,
                 self=lambda grad, other: grad * other,
                 other=lambda grad, self: grad * self, promote=True)
MulScalar = derivative("MulBackward1", lambda self, other: self * self.dtype.type(other),  # x * c in C++ formulas
                       self=lambda grad, other: MulScalar.apply(grad, other), saved=("other",))
DivScalar = derivative("DivBackward1", lambda self, other: np.asarray(self / other, dtype=self.dtype),  # x / c in C++
                       self=lambda grad, other: grad / other, saved=("other",))
Div = derivative("DivBackward0", _div,
                 self=lambda grad, other: grad / other,
                 other=lambda grad, self, other: -grad * ((self / other) / other), promote=True)
Neg = derivative("NegBackward0", _neg, self=lambda grad: -grad)
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
                       promote=True)
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
                  self=lambda grad, result: TanhBackward.apply(grad, result), floating=True)
TanhBackward = derivative("TanhBackwardBackward0", _tanh_backward,  # grad_output * (1 - output**2)
                          grad_output=lambda grad, output: TanhBackward.apply(grad, output),
                          output=lambda grad, grad_output, output: grad * (-2 * output * grad_output))
Sigmoid = derivative("SigmoidBackward0", lambda self: 1 / (1 + np.exp(-self)),  # (sigmoid(-100) is 0, as PyTorch's)
                     self=lambda grad, result: SigmoidBackward.apply(grad, result), floating=True)
SigmoidBackward = derivative("SigmoidBackwardBackward0", _sigmoid_backward,
                             grad_output=lambda grad, output: SigmoidBackward.apply(grad, output),
                             output=lambda grad, grad_output, output: grad * grad_output * (1 - 2 * output))
Relu = derivative("ReluBackward0", lambda self: np.maximum(self, 0, dtype=self.dtype),
                  self=lambda grad, result: ThresholdBackward.apply(grad, result, 0))
ThresholdBackward = derivative("ThresholdBackwardBackward0", _threshold_backward,  # relu's mask: grad where self > 0
                               grad_output=lambda grad, self, threshold: ThresholdBackward.apply(grad, self, threshold),
                               self=lambda grad: zeros(grad), saved=("threshold",))  # (relu'' = 0)
# -- flat almost everywhere, or in pieces ------------------------------------------------------------------------------
Abs = derivative("AbsBackward0", lambda self: np.abs(self), self=lambda grad, self: grad * self.sign())
Sign = derivative("SignBackward0", lambda self: np.sign(self), self=lambda grad: zeros(grad))
Clamp = derivative("ClampBackward1", _clamp,
                   self=lambda grad, self, min, max: zero_where(_outside(self, min, max), grad), saved=("min", "max"))
Maximum = derivative("MaximumBackward0", lambda self, other: np.maximum(*_broadcastable(self, other)),
                     self=lambda grad, other, self: _share(grad, _weight(self, other, np.greater)),
                     other=lambda grad, self, other: _share(grad, 1 - _weight(self, other, np.greater)), promote=True)
Minimum = derivative("MinimumBackward0", lambda self, other: np.minimum(*_broadcastable(self, other)),
                     self=lambda grad, other, self: _share(grad, _weight(self, other, np.less)),
                     other=lambda grad, self, other: _share(grad, 1 - _weight(self, other, np.less)), promote=True)
MaskedFill = derivative("MaskedFillBackward0", _masked_fill, self=lambda grad, mask: zero_where(mask, grad))
# -- shapes: views share their input's memory; the gradient only moves back into place ---------------------------------
View = derivative("ViewBackward0", _view, self=lambda grad, self_shape: grad.reshape(self_shape), view=True)
ReshapeAlias = derivative("ReshapeAliasBackward0", _view,  # a reshape of a non-contiguous tensor, still a view
                          self=lambda grad, self_shape: grad.reshape(self_shape), view=True)
UnsafeView = derivative("UnsafeViewBackward0", lambda self, shape: self.reshape(infer_shape(shape, self.size)),
                        self=lambda grad, self_shape: grad.reshape(self_shape))  # a reshape that had to copy
Expand = derivative("ExpandBackward0", _expand, self=lambda grad: grad, view=True)  # (summed back to self's shape)
Clone = derivative("CloneBackward0", lambda self: self.copy(), self=lambda grad: grad)
ToCopy = derivative("ToCopyBackward0", lambda self, dtype: self.astype(dtype), self=lambda grad: grad)  # (to its dtype)
# -- reductions --------------------------------------------------------------------------------------------------------
Sum = derivative("SumBackward0", lambda self: np.asarray(self.sum(dtype=_sum_dtype(self))),
                 self=lambda grad, self_shape: grad.expand(self_shape))
SumDim = derivative("SumBackward1", lambda self, dim, keepdim: _sum(self, dim, keepdim),
                    self=lambda grad, self_shape, dim, keepdim: _unreduce(grad, self_shape, dim, keepdim))
Mean = derivative("MeanBackward0", lambda self: np.asarray(_float_only(self, "mean").mean(dtype=self.dtype)),
                  self=lambda grad, self_shape: (grad / math.prod(self_shape)).expand(self_shape))
MeanDim = derivative("MeanBackward1", lambda self, dim, keepdim: np.asarray(
                     _float_only(self, "mean").mean(dim, self.dtype, None, keepdim)),
                     self=lambda grad, self_shape, dim, keepdim:
                     (_kept(grad, self_shape, dim, keepdim) / _reduced(self_shape, dim)).expand(self_shape))
