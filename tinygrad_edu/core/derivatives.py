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
shape or dtype (``self_shape``). As in PyTorch, an input only one formula names is kept only if that formula's
input needs a gradient (``x * w`` with only ``w`` requiring grad saves ``x``, not ``w``); the result is always kept.

``derivative(...)`` is the one small step from an entry to a ``Function``: the same mechanism as a learner's
``class Exp(Function)``, so a built-in's node is the same kind of object (``type(y.grad_fn)``,
``next_functions``, ``_saved_*``). No formula undoes broadcasting: ``broadcast=True`` ops take two inputs that
broadcast together, computed in their common dtype (``int64 * float32`` in float32), and the mechanism sums each
gradient back down to its input's shape and dtype (``broadcast_from``, function.py), once for every op.

Forward mode (``forward_ad``) needs each op's Jacobian-vector product J·t, from the inputs' tangents t. As in
PyTorch's ``derivatives.yaml``, most entries need no rule of their own: an element-wise op's Jacobian is diagonal,
so its backward formulas, applied to the tangents, give J·t (``auto_element_wise``), and a linear op's J·t is the
op applied to the tangent (``jvp=LINEAR``, PyTorch's ``auto_linear``); ``jvp=`` takes any other rule, a function
of the tangents. Ops that need more (indexing, sorting, einsum, the losses) are Function classes of their own,
outside the core (``tinygrad_edu/ops``, ``tinygrad_edu/nn``), using the same mechanism.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _arrays as A
from .. import _checks as C
from .._dtype import promoted
from .._quiet import quietly
from .function import RESULT, Function, Tensors, broadcast_from, sum_to_shape, wrap
from .grad_mode import Speed

# The entries, in the order of this file (what the docs and lessons list: autograd/derivatives.py)
TABLE: list[type[Function]] = []


def derivative(node: str, forward: Callable[..., Any], *, broadcast: bool = False, floating: bool = False,
               view: bool = False, silent: bool = False, saved: tuple[str, ...] = (), refusal: Callable | None = None,
               jvp: Callable | str | None = None, **formulas: Callable[..., Any]) -> type[Function]:
    """Make the Function of one entry (see the module docstring).

    ``broadcast``: a binary op whose inputs broadcast and promote together; ``floating``: integers compute as
    float32; ``view``: the output shares the first input's memory; ``silent``: the forward cannot meet a floating-point
    exception (so it skips numpy's error state, a speed trick); ``saved``: the number arguments the node shows
    as ``_saved_<name>``, as PyTorch's does; ``refusal``: what PyTorch says where numpy refuses the arguments (and,
    for a bool met by another dtype, whether PyTorch takes them: ``bool - 1``); ``jvp``: forward mode's rule, if any."""
    params = inspect.signature(forward).parameters
    args, defaults = tuple(params), tuple(None if p.default is p.empty else p.default for p in params.values())
    grads = tuple(formulas.get(a) for a in args)  # None: no gradient for that argument (a dim, a number ...)
    uses = [tuple(inspect.signature(f).parameters)[1:] if f else () for f in grads]  # what each names after grad
    named = tuple(dict.fromkeys(n for u in uses for n in u))
    saved_names = tuple(n for n in named if n in formulas or n == "result")  # (as formulas name them: PyTorch's order)
    kept = tuple(n for n in named if n not in saved_names)  # numbers, and inputs' shapes and dtypes
    values_at = {n: i for i, n in enumerate((*saved_names, *kept))}  # where a formula finds what it names
    reads = tuple(tuple(values_at[n] for n in u) for u in uses)
    arg_at = {n: i for i, n in enumerate(args)}
    kept_at = tuple((arg_at[n], "") if n in arg_at else (arg_at[n.rsplit("_", 1)[0]], n.rsplit("_", 1)[1])
                    for n in kept)  # ("self_shape": the shape of argument "self")
    plans: dict[tuple[bool, ...], tuple] = {}
    always = {"result", *(n for n in named if sum(n in u for u in uses) > 1)}  # saved whichever inputs need grad

    def plan(needs: tuple[bool, ...]) -> tuple:
        """What to save when these inputs need a gradient: for each saved name, where it comes from in ``(result,
        *arguments)`` (-1: not needed), and the order pack hooks see them in: saved_names', as PyTorch's."""
        wanted = [n for u, need in zip(uses, needs) for n in u if n in saved_names and (need or n in always)]
        where = tuple(-1 if n not in wanted else 0 if n == "result" else 1 + arg_at[n] for n in saved_names)
        return where, tuple(i for i, n in enumerate(saved_names) if n in wanted)

    def run_forward(ctx: Any, *values: Any) -> Any:
        arrays = [v._array if isinstance(v, Tensors.cls) else v for v in values]
        if broadcast and ctx._seq >= 0 and (arrays[0].shape != arrays[1].shape or arrays[0].dtype != arrays[1].dtype):
            broadcast_from(ctx, values[0], values[1])  # (recorded: the mechanism will undo it, in backward)
        if broadcast and arrays[0].dtype != arrays[1].dtype:  # int64 * float32 computes in float32
            arrays[:2] = promoted(values[0], values[1], fn.refusal)
        elif floating and arrays[0].dtype.kind != "f":
            arrays[0] = arrays[0].astype(np.float32)
        if ctx._seq >= 0:  # recorded: what the formulas of the inputs that need a gradient name
            keep(ctx, values + defaults[len(values):])
        return forward(*arrays)

    def keep(ctx: Any, values: tuple) -> None:
        """The tensors they name, saved and version-checked (the result too: RESULT), and the numbers, shapes and
        dtypes."""
        if saved_names:
            where, ctx._pack_order = plans.get(ctx.needs_input_grad) or plans.setdefault(
                ctx.needs_input_grad, plan(ctx.needs_input_grad))
            ctx._to_save = tuple([None if i < 0 else (values[i - 1] if i else RESULT) for i in where])
        if kept:
            ctx._kept = tuple([getattr(values[i]._array, part) if part else values[i] for i, part in kept_at])

    last_first = {n: [(i, grads[i], reads[i]) for i in range(n)][::-1] for n in range(len(args) + 1)}

    def run_backward(ctx: Any, grad: Any) -> tuple:  # (the last input's gradient first, as PyTorch computes them)
        values, needs = (*ctx.saved_tensors, *ctx._kept), ctx.needs_input_grad
        return tuple([f(grad, *[values[j] for j in r]) if needs[i] else None
                      for i, f, r in last_first[len(needs)]][::-1])  # (last_first: by how many arguments were given)

    def run_formula(ctx: Any, grad: Any) -> tuple:  # (one input, whose formula names all the node keeps, in order)
        return (grads[0](grad, *ctx.saved_tensors, *ctx._kept),)

    if grads[0] is not None and not any(grads[1:]) and reads[0] == tuple(range(len(values_at))):
        run_backward = run_formula

    def run_jvp(ctx: Any, values: tuple, outputs: tuple, tangents: list) -> Any:
        """J·t (the module docstring): the op on the tangent, or one term per input that has a tangent."""
        if jvp is not None:
            return fn.apply(tangents[0], *values[1:]) if jvp == LINEAR else jvp(*tangents, *values)
        values, out, total = (*values, *defaults[len(values):]), outputs[0], None
        for f, u, t in zip(grads, uses, tangents):
            if f is not None and t is not None:
                term = f(t, *[out if n == "result" else values[arg_at[n]] for n in u])
                total = term if total is None else total + term
        return total if total is None or total._array.shape == out._array.shape else total.expand(out.shape)

    name = node.removesuffix("Backward0").removesuffix("Backward1").removesuffix("Backward2")
    fn = type(name, (Function,), {"node_name": node, "saved_names": saved_names, "is_view": view, "silent": silent,
                                  "refusal": refusal or (C.broadcast_refusal if broadcast else None),
                                  "forward": staticmethod(run_forward), "backward": staticmethod(run_backward),
                                  "formulas": formulas, "_jvp": staticmethod(run_jvp), "_bare": not view,
                                  "__module__": __name__})
    fn._backward_cls._kept = ()
    for i, n in enumerate(kept):
        if n in saved:  # a number PyTorch's node shows: grad_fn._saved_exponent
            setattr(fn._backward_cls, f"_saved_{n}", property(lambda node, i=i: node._kept[i]))
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


def _share(grad: Any, weight: np.ndarray) -> Any:
    """``grad`` times a weight, masked where the weight is 0 (not multiplied: an infinite grad must give 0)."""
    return zero_where(weight == 0, grad * wrap(weight.astype(grad._array.dtype)))


def _weight(self: Any, other: Any, pick: np.ufunc) -> np.ndarray:
    """Which of two inputs max/min picked, as a weight: 1 where ``self`` won, 0 where it lost, and 1/2 each where
    they are equal (PyTorch's convention)."""
    return pick(self._array, other._array) + 0.5 * (self._array == other._array)


def _rpow_grad(grad: Any, exponent: Any, result: Any, c: float) -> Any:
    dy = grad * (result * float(quietly(np.log, c)))
    return zero_where(exponent._array >= 0, dy) if c == 0 else dy  # 0**y is flat for y >= 0


def _one(shape: tuple[int, ...], dim: int) -> bool:
    return shape[dim:dim + 1] == (1,)  # is dimension dim there, of size 1? (squeeze(dim) removes only such a one)


def _unreduce(grad: Any, shape: tuple[int, ...], dim: tuple[int, ...], keepdim: bool) -> Any:
    """A reduction's gradient spread back over what was reduced: its dimensions back (size 1), expanded."""
    for d in () if keepdim else dim:  # (one unsqueeze per dimension, in order, as PyTorch's)
        grad = Unsqueeze.apply(grad, d)
    return grad.expand(shape)


def _reduced(shape: tuple[int, ...], dim: tuple[int, ...]) -> int:
    return math.prod(shape[d] for d in dim)  # how many elements a reduction over dim takes into each result


def _summed(self: np.ndarray, dim: tuple[int, ...] | None = None, keepdim: bool = False) -> np.ndarray:
    """The sum, integers and bools in int64; floats in PyTorch's order (A.ordered_sum) past 4 numbers a result."""
    if self.dtype.kind == "f" and math.prod(self.shape[d] for d in (range(self.ndim) if dim is None else dim)) > 4:
        return A.ordered_sum(self, dim, keepdim)
    return np.asanyarray(self.sum(dim, np.int64 if self.dtype.kind in "biu" else self.dtype, None, keepdim))


LINEAR = "linear"  # ``jvp=LINEAR``: a linear op, whose tangent is the op applied to the tangent (auto_linear)
LN2, LN10, PI_180 = 0.6931471805599453, 2.302585092994046, 0.017453292519943295  # ln 2, ln 10, pi / 180
rounded_once = lambda f: lambda self: f(self, dtype=np.float64).astype(self.dtype, copy=False)  # noqa: E731


# == The table ==================================================================================================
# ``grad`` is d(root)/d(output); each formula gives d(root)/d(that input). PyTorch's node names.
# -- arithmetic (the Scalar entries: x * c, x + c and x / c for a number c, as PyTorch's C++ formulas write them) ------
Add = derivative("AddBackward0", lambda self, other, alpha=1: self + (other if alpha == 1 else alpha * other),
                 self=lambda grad: grad,
                 other=lambda grad, alpha: grad if alpha == 1 else grad * alpha, broadcast=True)
Sub = derivative("SubBackward0", lambda self, other, alpha=1: self - (other if alpha == 1 else alpha * other),
                 self=lambda grad: grad,
                 other=lambda grad, alpha: -grad if alpha == 1 else grad * -alpha, broadcast=True,
                 refusal=C.subtraction_refusal)
Rsub = derivative("RsubBackward1", lambda self, other: (other - self).astype(self.dtype, copy=False),  # c - x
                  self=lambda grad: -grad)
Mul = derivative("MulBackward0", lambda self, other: self * other,
                 self=lambda grad, other: grad * other,
                 other=lambda grad, self: grad * self, broadcast=True)
MulScalar = derivative("MulBackward1", lambda self, other: self * self.dtype.type(other),  # x * c in C++ formulas
                       self=lambda grad, other: MulScalar.apply(grad, other), saved=("other",))
AddScalar = derivative("AddBackward1", lambda self, other: self + self.dtype.type(other), self=lambda grad: grad)
DivScalar = derivative("DivBackward1", lambda self, other: np.asarray(self / other, dtype=self.dtype),  # x / c in C++
                       self=lambda grad, other: grad / other, saved=("other",))
Div = derivative("DivBackward0", A.true_divide,
                 self=lambda grad, other: grad / other,
                 other=lambda grad, self, other: -grad * ((self / other) / other), broadcast=True)
Neg = derivative("NegBackward0", A.negative, self=lambda grad: -grad, silent=True)
Reciprocal = derivative("ReciprocalBackward0", lambda self: np.reciprocal(self),
                        self=lambda grad, result: -grad * (result * result), floating=True)
Pow = derivative("PowBackward0", A.power_scalar,  # x ** p, p a number (x**0 is flat: zeros)
                 self=lambda grad, self, exponent: zeros(grad) if exponent == 0 else
                 grad * MulScalar.apply(self ** (exponent - 1), exponent), saved=("exponent",))
# x ** y: masked where it is flat, in x where y = 0, in y where x = 0 and y >= 0 (0 * inf there would be nan)
PowTensor = derivative("PowBackward1", lambda self, exponent: A.power(self, exponent),
                       self=lambda grad, exponent, self:
                       zero_where(exponent._array == 0, grad * (exponent * self ** (exponent - 1))),
                       exponent=lambda grad, exponent, self, result:
                       grad * result * zero_where((self._array == 0) & (exponent._array >= 0), self.log()),
                       broadcast=True)
RPow = derivative("PowBackward2", lambda self, exponent: A.power(np.asarray(self, dtype=exponent.dtype), exponent),
                  exponent=lambda grad, exponent, result, self: _rpow_grad(grad, exponent, result, self),
                  saved=("self",))  # c ** y, c a number
# -- exponentials and logarithms (rounded_once: in float64, rounded once to float32, as PyTorch's float32 values are)
Exp = derivative("ExpBackward0", rounded_once(np.exp), self=lambda grad, result: grad * result, floating=True)
Expm1 = derivative("Expm1Backward0", rounded_once(np.expm1),
                   self=lambda grad, result: grad * AddScalar.apply(result, 1), floating=True)
Exp2 = derivative("Exp2Backward0", rounded_once(np.exp2),
                  self=lambda grad, result: MulScalar.apply(grad * result, LN2), floating=True)
Log = derivative("LogBackward0", rounded_once(np.log), self=lambda grad, self: grad / self, floating=True)
Log1p = derivative("Log1PBackward0", rounded_once(np.log1p),
                   self=lambda grad, self: grad / AddScalar.apply(self, 1), floating=True)
Log2 = derivative("Log2Backward0", rounded_once(np.log2),
                  self=lambda grad, self: grad / MulScalar.apply(self, LN2), floating=True)
Log10 = derivative("Log10Backward0", rounded_once(np.log10),
                   self=lambda grad, self: grad / MulScalar.apply(self, LN10), floating=True)
Sqrt = derivative("SqrtBackward0", lambda self: np.sqrt(self),
                  self=lambda grad, result: grad / MulScalar.apply(result, 2), floating=True)
Rsqrt = derivative("RsqrtBackward0", lambda self: 1 / np.sqrt(self),
                   self=lambda grad, result: grad * -0.5 * result ** 3, floating=True)
# -- trigonometry ------------------------------------------------------------------------------------------------------
Sin = derivative("SinBackward0", rounded_once(np.sin), self=lambda grad, self: grad * self.cos(), floating=True)
Cos = derivative("CosBackward0", rounded_once(np.cos), self=lambda grad, self: grad * -self.sin(), floating=True)
Tan = derivative("TanBackward0", rounded_once(np.tan),
                 self=lambda grad, result: grad * AddScalar.apply(result ** 2, 1), floating=True)
Asin = derivative("AsinBackward0", rounded_once(np.arcsin),
                  self=lambda grad, self: grad * AddScalar.apply(-self * self, 1).rsqrt(), floating=True)
Acos = derivative("AcosBackward0", rounded_once(np.arccos),
                  self=lambda grad, self: grad * -AddScalar.apply(-self * self, 1).rsqrt(), floating=True)
Atan = derivative("AtanBackward0", rounded_once(np.arctan),
                  self=lambda grad, self: grad / AddScalar.apply(self * self, 1), floating=True)
Sinh = derivative("SinhBackward0", rounded_once(np.sinh), self=lambda grad, self: grad * self.cosh(), floating=True)
Cosh = derivative("CoshBackward0", rounded_once(np.cosh), self=lambda grad, self: grad * self.sinh(), floating=True)
Deg2rad = derivative("Deg2RadBackward0", lambda self: self * self.dtype.type(PI_180),
                     self=lambda grad: MulScalar.apply(grad, PI_180), floating=True)
Rad2deg = derivative("Rad2DegBackward0", lambda self: self * self.dtype.type(1 / PI_180),
                     self=lambda grad: MulScalar.apply(grad, 1 / PI_180), floating=True)
# -- activations: their gradients are single ops, as PyTorch's (tanh_backward ...), differentiable in turn -------------
Tanh = derivative("TanhBackward0", rounded_once(np.tanh),
                  self=lambda grad, result: TanhBackward.apply(grad, result), floating=True, silent=True)
# (PyTorch fuses 1 - y*y into one rounding, a multiply-add: in float64, y*y is exact for a float32 y, so 1 - y*y
# rounds once, to float32, when converted back)
TanhBackward = derivative("TanhBackwardBackward0", lambda grad_output, output:
                          grad_output * (1 - np.square(output, dtype=np.float64)).astype(output.dtype),
                          grad_output=lambda grad, output: TanhBackward.apply(grad, output),
                          output=lambda grad, grad_output, output: grad * (MulScalar.apply(output, -2) * grad_output))
Sigmoid = derivative("SigmoidBackward0", lambda self: 1 / (1 + rounded_once(np.exp)(-self)),  # (sigmoid(-100): 0)
                     self=lambda grad, result: SigmoidBackward.apply(grad, result), floating=True)
SigmoidBackward = derivative("SigmoidBackwardBackward0",
                             lambda grad_output, output: grad_output * (1 - output) * output,
                             grad_output=lambda grad, output: SigmoidBackward.apply(grad, output),
                             output=lambda grad, grad_output, output:
                             grad * grad_output * AddScalar.apply(MulScalar.apply(output, -2), 1))
Relu = derivative("ReluBackward0", lambda self: A.relu(self, Speed.tricks),  # max(self, 0)
                  self=lambda grad, result: ThresholdBackward.apply(grad, result, 0), silent=True)
ThresholdBackward = derivative("ThresholdBackwardBackward0", lambda grad_output, self, threshold:  # relu's mask
                               A.threshold_backward(grad_output, self, threshold, Speed.tricks),  # (grad if self > 0)
                               grad_output=lambda grad, self, threshold: ThresholdBackward.apply(grad, self, threshold),
                               self=lambda grad: zeros(grad), saved=("threshold",), silent=True)  # (relu'' = 0)
# -- flat almost everywhere, or in pieces ------------------------------------------------------------------------------
Abs = derivative("AbsBackward0", lambda self: np.abs(self), self=lambda grad, self: grad * self.sign(), silent=True)
Sign = derivative("SignBackward0", lambda self: np.sign(self), self=lambda grad: zeros(grad), silent=True)
Clamp = derivative("ClampBackward1", A.clamp,
                   self=lambda grad, self, min, max: zero_where(A.outside(self._array, min, max), grad),
                   saved=("min", "max"), silent=True)
Maximum = derivative("MaximumBackward0", lambda self, other: np.maximum(self, other),
                     self=lambda grad, other, self: _share(grad, _weight(self, other, np.greater)),
                     other=lambda grad, self, other: _share(grad, 1 - _weight(self, other, np.greater)),
                     broadcast=True, silent=True)
Minimum = derivative("MinimumBackward0", lambda self, other: np.minimum(self, other),
                     self=lambda grad, other, self: _share(grad, _weight(self, other, np.less)),
                     other=lambda grad, self, other: _share(grad, 1 - _weight(self, other, np.less)),
                     broadcast=True, silent=True)
MaskedFill = derivative("MaskedFillBackward0", A.masked_fill, self=lambda grad, mask: zero_where(mask, grad),
                        silent=True)
# -- shapes: views share their input's memory; the gradient only moves back into place ---------------------------------
View = derivative("ViewBackward0", lambda self, shape: np.reshape(self, shape, copy=False),
                  self=lambda grad, self_shape: grad.reshape(self_shape), view=True, silent=True,
                  refusal=C.view_refusal, jvp=LINEAR)
ReshapeAlias = derivative("ReshapeAliasBackward0", lambda self, shape: np.reshape(self, shape, copy=False),
                          self=lambda grad, self_shape: grad.reshape(self_shape), view=True, silent=True,
                          jvp=LINEAR)  # strided
UnsafeView = derivative("UnsafeViewBackward0", lambda self, shape: self.reshape(C.infer_shape(shape, self.size)),
                        self=lambda grad, self_shape: grad.reshape(self_shape), silent=True,
                        jvp=LINEAR)  # a reshape that copied
Expand = derivative("ExpandBackward0", lambda self, shape: np.broadcast_to(self, shape),
                    self=lambda grad, self_shape: sum_to_shape(grad, self_shape), view=True, silent=True,
                    refusal=C.expand_refusal, jvp=LINEAR)
Unsqueeze = derivative("UnsqueezeBackward0", lambda self, dim: np.expand_dims(self, dim),  # (dims: counted from 0)
                       self=lambda grad, dim: SqueezeDim.apply(grad, dim), view=True, silent=True, saved=("dim",),
                       jvp=LINEAR)
SqueezeDim = derivative("SqueezeBackward1", lambda self, dim: self.squeeze(dim) if _one(self.shape, dim) else self[...],
                        self=lambda grad, self_shape, dim: Unsqueeze.apply(grad, dim) if _one(self_shape, dim)
                        else grad, view=True, silent=True, saved=("dim",), jvp=LINEAR)  # (a dim not of size 1 stays)
Clone = derivative("CloneBackward0", lambda self: self.copy(), self=lambda grad: grad, silent=True)
ToCopy = derivative("ToCopyBackward0", lambda self, dtype: self.astype(dtype),
                    self=lambda grad, self_dtype: grad.to(self_dtype), silent=True, jvp=LINEAR)
# -- reductions (the mean's gradient divides by a number, as PyTorch's C++ does: DivBackward1) -------------------------
Sum = derivative("SumBackward0", lambda self: _summed(self), self=lambda grad, self_shape: grad.expand(self_shape),
                 jvp=LINEAR)  # (not silent: a float32 sum can overflow to inf, as PyTorch's does, without a word)
SumDim = derivative("SumBackward1", _summed, jvp=LINEAR, refusal=C.dims_refusal,
                    self=lambda grad, self_shape, dim, keepdim: _unreduce(grad, self_shape, dim, keepdim))
Mean = derivative("MeanBackward0", lambda self: np.asanyarray(_summed(self) / self.size),  # (of nothing: nan)
                  self=lambda grad, self_shape: DivScalar.apply(grad.expand(self_shape), math.prod(self_shape)),
                  jvp=LINEAR)
MeanDim = derivative("MeanBackward1",
                     lambda self, dim, keepdim: _summed(self, dim, keepdim) / _reduced(self.shape, dim),
                     self=lambda grad, self_shape, dim, keepdim: DivScalar.apply(
                         _unreduce(grad, self_shape, dim, keepdim), _reduced(self_shape, dim)),
                     jvp=LINEAR, refusal=C.dims_refusal)
