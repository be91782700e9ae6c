"""The Tensor: a numpy array plus the autograd metadata PyTorch keeps for every tensor, and its methods.

What a tensor carries (PyTorch's ``AutogradMeta``, one attribute each):

================ ===========================================================================
``_array``        the numbers (a ``numpy.ndarray``)
requires_grad     should autograd compute a gradient for it?
grad_fn           the Node that made it (``None`` for leaves: tensors the user created)
_output_nr        which output of ``grad_fn`` it is (0 for single-output ops)
grad              where backward accumulates the gradient (leaves, and tensors that retain_grad())
_version          bumped by every in-place change, so stale saved values are caught
_base             the tensor it is a view of, if any (``is_view``)
================ ===========================================================================

Its methods are the ops of the derivative table (``derivatives.py``): each turns its arguments into what the op
takes (a Python number in ``x * 2`` becomes a tensor) and calls the op's ``apply``. The rest of PyTorch's Tensor
(indexing, linear algebra, in-place methods...) is the public class ``tinygrad_edu.Tensor`` (``_tensor.py``), a
subclass of this one, as ``torch.Tensor`` subclasses ``torch._C.TensorBase``; every op's result is an instance of it."""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import _checks as C
from .. import _dtype
from .. import _messages as M
from .._hooks import RemovableHandle, tensor_hook
from .._printing import Size, tensor_repr
from .._quiet import Quiet
from . import derivatives as D
from . import engine
from .function import InferenceCounter, Tensors, tangent, wrap
from .grad_mode import GradMode, Speed


class Tensor:
    """A multi-dimensional array that can record how it was computed, so gradients can flow back.

    Make tensors with ``tinygrad_edu.tensor(data, requires_grad=...)`` or the factories (``ones``, ``randn`` ...)."""

    __slots__ = ("__dict__", "__weakref__", "_array", "_base", "_output_nr", "_requires_grad", "_version_counter",
                 "grad_fn")

    __array_priority__ = 1000  # numpy must let our operators win in `ndarray * tensor`
    # Rarer fields, set only on the tensors that need them (most are never set: no slot, a default here)
    _grad: Tensor | None = None  # (a leaf's; or a tensor's that retains its grad)
    _retains_grad = False
    _hooks: list | None = None  # a leaf's register_hook hooks
    _accumulator: Any = None  # a leaf's AccumulateGrad node, held weakly
    _post_accumulate_hooks: list | None = None  # a leaf's register_post_accumulate_grad_hook hooks
    _wrapped_number = False  # True on the 0-d tensor a Python number becomes in ``x * 2``
    _detached: Any = None  # detach_() took this tensor from its history: that history's node, held weakly
    _fw: tuple | None = None  # forward mode: (dual level, tangent), read by ``function.tangent`` (forward_ad)
    _view_version, _view_made = 0, None  # a view's: the version its grad_fn is right for; how it was made (views.py)

    # -- shape & type ----------------------------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._array.shape)

    @property
    def dtype(self) -> _dtype.dtype:
        return _dtype.from_numpy(self._array.dtype)

    # -- autograd metadata -------------------------------------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        C.check_requires_grad(self, value, attribute=True)
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Turn gradient tracking on or off for a leaf, in place (returns the tensor)."""
        C.check_requires_grad(self, requires_grad, inference=type(self._version_counter) is InferenceCounter
                              and not GradMode.inference)
        if self.grad_fn is None:  # (a result of an op is a node's output: it requires grad, as it is)
            self._requires_grad = requires_grad
        return self

    @property
    def is_leaf(self) -> bool:
        """Leaves are tensors autograd did not make: created by the user, or not requiring grad."""
        return self.grad_fn is None

    @property
    def output_nr(self) -> int:
        return self._output_nr

    @property
    def grad(self) -> Tensor | None:
        if self.grad_fn is not None and not self._retains_grad:
            warnings.warn(M.NONLEAF_GRAD, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        """Assigning ``.grad`` by hand: it must be a tensor of this tensor's dtype and shape (or None)."""
        if value is not None:
            C.check_grad_assignment(self, value, Tensor)
        self._grad = value

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    @property
    def _version(self) -> int:
        """How many in-place changes this tensor's storage has seen (shared with its views and detach())."""
        if type(self._version_counter) is InferenceCounter:
            raise RuntimeError(M.INFERENCE_VERSION)
        return self._version_counter[0]

    def detach(self) -> Tensor:
        """A new leaf sharing this tensor's storage (and its version counter), with no history."""
        return wrap(self._array, counter=self._version_counter)

    def retain_grad(self) -> None:
        """Ask backward to store this non-leaf tensor's gradient in ``.grad`` too."""
        if not self.requires_grad:  # (asked, a view whose base was changed in place first gets its new node: _tensor)
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return  # leaves keep their .grad anyway
        self._retains_grad = True  # (and it follows the tensor to its new node when it is changed in place: _hooks)
        self.grad_fn._add_retain_grad(self._output_nr, self)  # (held weakly: _hooks)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces the grad. (Filed on
        the node computing that gradient now, which an in-place change replaces; a leaf's, on the tensor: _hooks.)"""
        if not self.requires_grad:  # (as in retain_grad)
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        return tensor_hook(self, hook)

    def backward(self, gradient: Tensor | None = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Sequence[Tensor] | Tensor | None = None) -> None:
        """Compute the gradient of this tensor with respect to the graph's leaves, into their ``.grad``.

        ``gradient`` is d(something)/d(self): required (same shape as self) unless self is a scalar, in which case
        it is 1. The graph is freed afterwards unless ``retain_graph=True``; ``create_graph=True`` records the
        backward pass itself, for higher-order derivatives."""
        engine.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    __hash__ = object.__hash__  # by identity, as in PyTorch (== is element-wise, so it cannot be by value)

    def __repr__(self) -> str:
        # The node's class name, as PyTorch prints it: <CopyBackwards>, though name() is its C++ name.
        grad_fn_name = None if self.grad_fn is None else type(self.grad_fn).__name__  # (<Invalid>: refused, views.py)
        grad_fn_name = "Invalid" if self._base is not None and Tensors.views.refused(self) else grad_fn_name
        return tensor_repr(self._array, self.dtype, grad_fn_name=grad_fn_name, requires_grad=self._requires_grad,
                           tangent=tangent(self))

    # -- the ops of the derivative table ------------------------------------------------------------------------------
    def __add__(self, other: Any, *, alpha: float = 1) -> Tensor:
        return _binary(D.Add, self, other, np.add) if alpha == 1 else D.Add.apply(self, _as_tensor(other), alpha)

    def __sub__(self, other: Any, *, alpha: float = 1) -> Tensor:
        return _binary(D.Sub, self, other, np.subtract) if alpha == 1 else D.Sub.apply(self, _as_tensor(other), alpha)

    def __mul__(self, other: Any) -> Tensor:
        return _binary(D.Mul, self, other, np.multiply)

    def __truediv__(self, other: Any) -> Tensor:
        return _binary(D.Div, self, other, np.true_divide)

    add, sub, mul, div = __add__, __sub__, __mul__, __truediv__
    __radd__, __rmul__ = __add__, __mul__
    subtract, multiply, divide, true_divide = sub, mul, div, div

    def __pow__(self, exponent: Any) -> Tensor:
        return D.PowTensor.apply(self, exponent) if isinstance(exponent, Tensor) else D.Pow.apply(self, exponent)

    pow = __pow__

    def __neg__(self) -> Tensor:
        return D.Neg.apply(self)

    neg = negative = __neg__

    def __pos__(self) -> Tensor:
        return self

    def sum(self, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: Any = None,
            axis: Any = None, keepdims: bool = False) -> Tensor:  # (axis, keepdims: numpy's names, accepted too)
        x, dim = self if dtype is None else self.to(C.reduction_dtype(dtype, "sum", dim)), dim if axis is None else axis
        return D.Sum.apply(x) if dim is None else D.SumDim.apply(x, _dims(dim, x._array.ndim), keepdim or keepdims)

    def mean(self, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, axis: Any = None,
             keepdims: bool = False) -> Tensor:
        if self._array.dtype.kind != "f":  # an integer tensor has no mean of its own dtype: PyTorch's refusal
            C.float_only(self._array, "mean")
        return D.Mean.apply(self) if dim is None and axis is None else D.MeanDim.apply(
            self, _dims(dim if axis is None else axis, self._array.ndim), keepdim or keepdims)

    def view(self, *shape: Any) -> Tensor:
        return D.View.apply(self, C.view_sizes(_shape_arg(shape)))

    def reshape(self, *shape: Any) -> Tensor:
        """A view when the memory layout allows it, otherwise a copy, recorded as PyTorch records them: ViewBackward0
        (contiguous input), ReshapeAliasBackward0 (strides still allow a view), or a contiguous copy (CloneBackward0)
        then UnsafeViewBackward0."""
        shape = C.view_sizes(_shape_arg(shape))
        if self._array.flags.c_contiguous or self._array.size <= 1:
            return D.View.apply(self, shape)
        if C.reshaped_view(self._array, C.infer_shape(shape, self._array.size)) is not None:
            return D.ReshapeAlias.apply(self, shape)
        return D.UnsafeView.apply(D.Clone.apply(self), shape)

    def expand(self, *sizes: Any) -> Tensor:  # (a size -1: that dimension's, kept)
        return D.Expand.apply(self, s if -1 not in (s := _shape_arg(sizes)) else C.expanded_shape(self._array, s))

    def clone(self) -> Tensor:
        return D.Clone.apply(self)

    def to(self, *args: Any, dtype: Any = None, device: Any = None, **kwargs: Any) -> Tensor:
        """Convert to a dtype (``x.to(tinygrad_edu.float64)``); devices other than "cpu" are not supported."""
        np_dtype = _dtype.requested((*args, device), dtype, Tensor)
        return self if np_dtype is None or np_dtype == self._array.dtype else D.ToCopy.apply(self, np_dtype)


# The one-argument ops of the table, each a method (``x.exp()``) and a function (``tinygrad_edu.exp(x)``).
UNARY = {"exp": D.Exp, "expm1": D.Expm1, "exp2": D.Exp2, "log": D.Log, "log1p": D.Log1p, "log2": D.Log2,
         "log10": D.Log10, "sqrt": D.Sqrt, "rsqrt": D.Rsqrt, "reciprocal": D.Reciprocal, "sin": D.Sin, "cos": D.Cos,
         "tan": D.Tan, "asin": D.Asin, "acos": D.Acos, "atan": D.Atan, "sinh": D.Sinh, "cosh": D.Cosh,
         "deg2rad": D.Deg2rad, "rad2deg": D.Rad2deg, "tanh": D.Tanh, "sigmoid": D.Sigmoid, "relu": D.Relu,
         "abs": D.Abs, "sign": D.Sign}


def _unary(op: type) -> Callable[[Tensor], Tensor]:
    def method(self: Tensor) -> Tensor:
        return op.apply(self)

    return method


for _name, _op in UNARY.items():
    setattr(Tensor, _name, _unary(_op))
Tensor.__abs__ = Tensor.abs  # type: ignore[attr-defined]
Tensor.arcsin, Tensor.arccos, Tensor.arctan = Tensor.asin, Tensor.acos, Tensor.atan  # type: ignore[attr-defined]
Tensors.cls = Tensor  # the class results are made of, until the public tinygrad_edu.Tensor registers itself


def function(name: str) -> Callable[..., Any]:
    """The function form of a method: ``tinygrad_edu.exp(x)`` is ``x.exp()`` (``out=y``: written into y, _tensor.py)."""
    def fn(input: Tensor, *args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        return getattr(input, name)(*args, **kwargs) if out is None else input._with_out(name, args, kwargs, out)

    fn.__name__, fn.__qualname__, fn.__doc__ = name, name, f"``tinygrad_edu.{name}(x, ...)`` is ``x.{name}(...)``."
    return fn


def _binary(op: type, x: Tensor, other: Any, ufunc: np.ufunc) -> Tensor:
    """``x (op) other``: a number becomes a tensor first (``x * 2`` has two inputs, the 2 needing no gradient)."""
    if not isinstance(other, Tensor):
        return op.apply(x, _as_tensor(other))
    a, b = x._array, other._array  # speed: inside a backward pass, nothing to record, numpy's warnings off: floats
    if Quiet.token is not None and not GradMode.enabled and a.shape == b.shape and a.dtype == b.dtype and \
            a.dtype.kind == "f" and a.ndim and Speed.tricks:  # of one shape and dtype (not 0-d: numpy would give a
        return wrap(ufunc(a, b))  # scalar) compute as numpy computes them
    return op.apply(x, other)


def _as_tensor(v: Any) -> Tensor:
    """``v`` as a tensor for an operation: a Python number becomes a *wrapped number*, as in PyTorch, a 0-d tensor of
    its own type (``x * 2`` saves ``tensor(2)``), which takes part in type promotion only if of a higher kind."""
    if isinstance(v, Tensor):
        return v
    if isinstance(v, np.ndarray):
        return wrap(v)
    if not isinstance(v, (int, float, bool, np.number, np.bool_)):
        raise TypeError(f"unsupported operand type: Tensor and '{type(v).__name__}'")
    wrapped = wrap(np.asarray(v, dtype=_dtype.wrapped_number_dtype(v)))
    wrapped._wrapped_number = True
    return wrapped


def _dims(dim: int | Sequence[int], ndim: int) -> tuple[int, ...]:
    """Dims counted from the start, sorted (``C.wrap_dim`` for one out of range: PyTorch's message); a 0-d tensor's
    dim 0 or -1 is no dimension to reduce."""
    n, dims = max(ndim, 1), (dim,) if isinstance(dim, int) else dim
    return tuple(sorted(d % n if -n <= d < n else C.wrap_dim(d, ndim) for d in dims))[:len(dims) if ndim else 0]


def _shape_arg(shape: Sequence[Any]) -> tuple[int, ...]:
    """Accept both ``view(2, 3)`` and ``view((2, 3))``; sizes are integers (``view(n / 2)`` is a TypeError)."""
    return tuple(map(operator.index, shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape))

