"""``tinygrad_edu.Tensor``: the core's Tensor with the rest of PyTorch's Tensor methods, all in this class body.

The core (``tinygrad_edu/core/tensor.py``) defines what a tensor is and the methods whose derivatives are the
idea (arithmetic, exp, sum, reshape ...). This subclass adds the library's breadth: indexing, linear algebra,
comparisons, in-place forms, dtype conversions, the memory layout. Each method calls an op of ``ops/`` (outside the
core). The core makes every op's result an instance of this class (``Tensors.cls``, registered below), as PyTorch's
C++ core makes its results instances of ``torch.Tensor``, the Python subclass of ``torch._C.TensorBase``.
"""

from __future__ import annotations

import operator
import warnings
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from . import _checks, _creation, _device, _dtype, _meta, _out
from . import _messages as M
from . import storage as _storage
from ._generator import in_memory_order
from ._hooks import RemovableHandle
from ._printing import Size
from .core import derivatives as _derivatives
from .core import tensor as _core
from .core.function import InferenceCounter, Tensors, wrap
from .core.grad_mode import GradMode
from .ops import elementwise as ew
from .ops import inplace, linalg, more, numpy_names, reduce, selection, shape, strided
from .ops.inplace import inplace_method

__all__ = ["RemovableHandle", "Size", "Tensor"]

# 'tinygrad_edu.FloatTensor' (and PyTorch's spelling, 'torch.FloatTensor') -> float32 ...: for x.type(name)
_TYPE_NAMES = {f"{prefix}.{name}": d for d, name in _dtype.LEGACY_NAMES.items() for prefix in ("tinygrad_edu", "torch")}


def _to(dtype: _dtype.dtype) -> Callable[[Tensor], Tensor]:
    """``x.float()`` and friends: ``x.to(dtype)``."""
    def method(self: Tensor) -> Tensor:
        return self.to(dtype)

    return method


def _unary(op: type) -> Callable[[Tensor], Tensor]:
    """``x.erf()`` and friends: the op of ``ops/`` applied to x."""
    def method(self: Tensor) -> Tensor:
        return op.apply(self)

    return method


def _compare(op: Callable[[Any, Any], Any], reflect: bool = False) -> Callable[[Tensor, Any], Any]:
    """``x.eq(y)``, ``x == y`` ...: element-wise, a bool tensor, no gradient. As an operator (``reflect``) against
    anything but a tensor, a number or an array, Python's own rules apply, as in PyTorch (``x == None`` is False,
    ``x < None`` a TypeError)."""
    def method(self: Tensor, other: Any) -> Any:
        if reflect and not isinstance(other, (_core.Tensor, int, float, np.number, np.bool_, np.ndarray)):
            return NotImplemented
        return selection.compare(op, self, other)

    return method


def _refuse(message: str) -> None:
    raise RuntimeError(message)


def _readable(array: np.ndarray) -> np.ndarray:
    """``array``, whose one number is about to be read: refused for a meta tensor's, which has none."""
    if _meta.is_meta(array):
        raise RuntimeError("Tensor.item() cannot be called on meta tensors")
    return array


_PLACES = (str, _device.device, _core.Tensor)  # what in ``x.to(...)`` may name a device


def _meta_to(x: Tensor, args: tuple, dtype: Any, device: Any, kwargs: dict) -> Tensor:
    """``x.to(...)`` naming a device or a tensor: to the meta device, a copy without numbers (``ToCopyBackward0``,
    as PyTorch records it); from it to the CPU, an error (there is nothing to copy); the rest, the core's ``to``."""
    others = [a for a in args if isinstance(a, _core.Tensor)]
    places = [a for a in (*args, device) if isinstance(a, (str, _device.device))] + [
        "meta" if _meta.is_meta(a._array) else "cpu" for a in others]
    rest = tuple(a for a in args if not isinstance(a, _PLACES)) + tuple(a.dtype for a in others[:1])
    kinds = {_device.device(p).type for p in places}
    if len(kinds) != 1 or not kinds <= {"cpu", "meta"}:
        return _core.Tensor.to(x, *args, dtype=dtype, device=device, **kwargs)  # (refused there, in its words)
    meta, here = kinds == {"meta"}, _meta.is_meta(x._array)
    if here and not meta:
        raise NotImplementedError(_meta.NO_DATA)
    if meta and not here:  # a copy, as PyTorch's, whose numbers are then dropped
        y = _derivatives.ToCopy.apply(x, _dtype.requested(rest, dtype, Tensor) or x._array.dtype)
        y._array = _meta.empty(y._array.shape, y._array.dtype)
        return y
    return _core.Tensor.to(x, *rest, dtype=dtype, **kwargs)  # (on the device it is: a dtype at most changes)


def _not_views(pieces: tuple) -> tuple:
    """Pieces that autograd does not track as views of what they were cut from (no base, their own versions)."""
    for piece in pieces:
        piece._base, piece._view_made, piece._version_counter = None, None, [0]
    return pieces


def _requires_grad(t: _core.Tensor) -> bool:
    """``x.requires_grad``; a view whose base was changed in place since (``x.add_(r)`` with r requiring grad) first
    gets its new history, as PyTorch's view does when asked. A view of a tensor that requires grad does too, even made
    in no_grad mode (it has no history: no gradient flows through it)."""
    if t._base is not None and t._view_version != t._version_counter[0] and t._view_made is None:
        Tensors.views.regrow(t)
    return t._requires_grad or (t._base is not None and t._base._requires_grad)


def _bitwise(op: Callable[[Any, Any], Any], kernel: str = "") -> Callable[[Tensor, Any], Tensor]:
    """``x & y``, ``x | y``, ``x ^ y``, ``x << n``: element-wise on integers and bools (no gradient); floats have no
    bits to combine (PyTorch has no kernel for them: ``kernel`` names it)."""
    def method(self: Tensor, other: Any) -> Tensor:
        try:
            return selection.compare(op, self, other)
        except TypeError:  # (numpy's refusal, in PyTorch's words: the dtype the two would compute in)
            kind = _dtype.binary_result_type(self, other) if isinstance(other, Tensor) else \
                _dtype.number_dtype(other, self._array.dtype)
            raise NotImplementedError(f'"{kernel or "bitwise_" + op.__name__.rstrip("_")}_cpu" not implemented for '
                                      f"'{_dtype.LEGACY_NAMES[_dtype.from_numpy(kind)].removesuffix('Tensor')}'") \
                from None

    return method


class Tensor(_core.Tensor):
    """A multi-dimensional array that can record how it was computed, so gradients can flow back.

    Create tensors with ``tinygrad_edu.tensor(data, requires_grad=...)`` or the factories (``ones``, ``randn`` ...).
    The constructor also works, as in PyTorch: ``Tensor(data)`` copies a list or array as float32, ``Tensor(2, 3)``
    makes a 2x3 tensor (PyTorch leaves its numbers uninitialised; here they are zeros, but don't rely on that), and
    ``Tensor(t)`` shares ``t``'s storage.
    """

    __slots__ = ()
    __module__ = "tinygrad_edu"  # (``type(x)`` prints ``<class 'tinygrad_edu.Tensor'>``, as PyTorch's ``torch.Tensor``)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs.keys() - {"device"}:  # Tensor(data, requires_grad=True): the constructor has no such keyword
            raise TypeError(M.tensor_new_keywords(args, kwargs))
        if kwargs:
            _device.on_cpu(kwargs["device"])
        if len(args) == 1 and isinstance(args[0], _core.Tensor):  # an alias: same storage, same version counter
            _init(self, args[0]._array)
            self._version_counter = args[0]._version_counter
            return
        _init(self, _constructor_array(args))

    # -- ops of the core's derivative table with a number on the left, or another spelling -------------------------
    def __rsub__(self, other: Any) -> Tensor:  # c - x: in x's dtype, or float32 for a float c and an integer x
        if self._array.dtype == np.bool_ or isinstance(other, (bool, np.bool_)):  # (PyTorch refuses, as for x - c)
            _checks.subtraction_refusal(self, _core._as_tensor(other))
        return other - self if isinstance(other, Tensor) else _derivatives.Rsub.apply(
            self.to(_dtype.number_dtype(other, self._array.dtype)), other)

    def __rtruediv__(self, other: Any) -> Tensor:
        return self.reciprocal() * other  # PyTorch records 2 / x as reciprocal, then MulBackward0

    def __rpow__(self, base: Any) -> Tensor:  # c ** y: in y's dtype, or a float c's float32 (a bool's: int64)
        return _derivatives.RPow.apply(base, self.to(_dtype.number_dtype(base, self._array.dtype, powers=True)))

    def square(self) -> Tensor:
        return _derivatives.Pow.apply(self, 2)  # PyTorch records square as pow(x, 2): PowBackward0

    def clamp(self, min: Any = None, max: Any = None) -> Tensor:
        if isinstance(min, Tensor) or isinstance(max, Tensor):  # tensor bounds: each gets its gradient too
            return ew.ClampTensor.apply(self, *(b if b is None or isinstance(b, Tensor) else _core._as_tensor(b)
                                                for b in (min, max)))
        return _derivatives.Clamp.apply(self, min, max)

    clip = clamp
    _with_out = _out.with_out  # (``tinygrad_edu.tanh(x, out=y)``: the core's function forms call it)

    @property
    def volatile(self) -> bool:
        """Old PyTorch's flag for inference (before ``no_grad``): gone, always False, with PyTorch's warning."""
        warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning, stacklevel=2)
        return False

    def _is_view(self) -> bool:
        """Whether this tensor is a view sharing another's storage (``_base``), as PyTorch's ``_is_view()``."""
        return self._base is not None

    def is_inference(self) -> bool:
        """Whether this tensor was made inside ``inference_mode()`` (or is a view of one that was)."""
        return type(self._version_counter) is InferenceCounter

    @_core.Tensor.grad.deleter
    def grad(self) -> None:  # ``del x.grad``: the core's property, with a deleter
        self._grad = None

    # -- shape, type and where the numbers are ---------------------------------------------------------------------
    def size(self, dim: int | None = None) -> Size | int:
        return Size(self._array.shape) if dim is None else self._array.shape[shape._dim(dim, self._array.ndim)]

    def dim(self) -> int:
        return self._array.ndim

    ndim = property(dim)

    def numel(self) -> int:
        return self._array.size

    def __len__(self) -> int:
        if self._array.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return len(self._array)

    def is_floating_point(self) -> bool:
        return self._array.dtype.kind == "f"

    def is_complex(self) -> bool:
        """Always False: the library has no complex dtypes (the course's derivatives are real)."""
        return False

    def ndimension(self) -> int:
        """The number of dimensions, ``x.dim()`` (an older name PyTorch keeps)."""
        return self._array.ndim

    @property
    def device(self) -> _device.device:
        """Where the numbers live: ``device(type='cpu')``, numpy's main memory; or ``device(type='meta')`` for a
        tensor without numbers (``_meta.py``)."""
        return _device.META if _meta.is_meta(self._array) else _device.CPU

    @property
    def is_meta(self) -> bool:
        """Whether this tensor is on the meta device: a shape and a dtype, no numbers."""
        return _meta.is_meta(self._array)

    # -- conversion to Python and numpy ----------------------------------------------------------------------------
    def item(self) -> int | float | bool:
        if self._array.size != 1:
            raise RuntimeError(f"a Tensor with {self._array.size} elements cannot be converted to Scalar")
        return _readable(self._array).item()

    def tolist(self) -> Any:
        if _meta.is_meta(self._array):
            raise NotImplementedError(_meta.NO_DATA)
        return self._array.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The numbers as a numpy array that shares memory with this tensor (refused for a tensor that requires
        grad while grad mode is on: a Function's forward, which runs with it off, may call it; and for a meta
        tensor, which has no numbers)."""
        if self._requires_grad and GradMode.enabled and not force:
            raise RuntimeError(M.NUMPY_REQUIRES_GRAD)
        if _meta.is_meta(self._array):
            raise TypeError(_meta.NO_NUMPY)
        return self._array

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        if self._requires_grad and GradMode.enabled:  # np.array(x), plt.plot(x): as x.numpy(), refused while grad
            raise RuntimeError(M.NUMPY_REQUIRES_GRAD)  # mode is on for a tensor that requires grad (no_grad: allowed)
        if _meta.is_meta(self._array):
            raise TypeError(_meta.NO_NUMPY)
        return self._array if dtype is None else self._array.astype(dtype)

    def __float__(self) -> float:
        if self._requires_grad and GradMode.enabled:  # (not in no_grad, nor in a backward: nothing is recorded there)
            M.warn_once("float", M.FLOAT_REQUIRES_GRAD)
        return float(self._number())

    def __int__(self) -> int:
        return int(self._number())

    def _number(self) -> int | float | bool:
        """The one element, for float(t), int(t) and math functions (PyTorch's error is a ValueError there)."""
        if self._array.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return _readable(self._array).item()

    def __bool__(self) -> bool:
        if self._array.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(_readable(self._array).item())

    # -- more of a tensor's metadata -------------------------------------------------------------------------------
    nelement = numel

    @property
    def is_cpu(self) -> bool:
        return not _meta.is_meta(self._array)

    def _bump_version(self) -> None:
        self._version_counter[0] += 1

    @property
    def data(self) -> Tensor:
        """The same numbers, detached from the graph. Unlike ``detach()``, in-place changes made through ``.data``
        are *not* seen by autograd's version check: prefer ``detach()``."""
        return wrap(self._array)

    @data.setter
    def data(self, value: Tensor) -> None:
        """Swap in other numbers (any shape) while keeping this tensor's identity and autograd flags."""
        if not isinstance(value, _core.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {M.typename(value)}")
        if self._requires_grad and value._array.dtype.kind not in "fc":
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
        self._array = value._array

    @data.deleter
    def data(self) -> None:
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")

    # What PyTorch refuses to delete (autograd's own fields), with its words; ``del x.grad`` is allowed (grad = None).
    requires_grad = property(_requires_grad, _core.Tensor.requires_grad.fset,
                             lambda self: _refuse("requires_grad must be a bool"))
    _grad_fn = property(lambda self: self.grad_fn, None,
                        lambda self: _refuse("Deletion of _grad_fn not allowed. Detach tensor instead!"))

    def __repr__(self) -> str:
        """The core's printing, of a view whose base changed in place since through another view (``b[1] = 5`` with
        ``v = b[0:2]``) with its new history, ``AsStridedBackward0``, as PyTorch prints it (``_requires_grad``)."""
        if not (self._base is not None and Tensors.views.refused(self)):  # (a refused one prints <Invalid>)
            _requires_grad(self)
        return _core.Tensor.__repr__(self)

    @property
    def _backward_hooks(self) -> Any:
        return self.__dict__.get("_backward_hooks")

    @_backward_hooks.setter
    def _backward_hooks(self, hooks: Any) -> None:
        self.__dict__["_backward_hooks"] = hooks

    @_backward_hooks.deleter
    def _backward_hooks(self) -> None:
        raise RuntimeError("Deletion of _backwards_hooks not allowed!")

    def detach_(self) -> Tensor:
        """Detach in place: this tensor becomes a leaf that does not require grad."""
        if self._base is not None:
            raise RuntimeError(M.DETACH_VIEW)
        if self.grad_fn is not None:  # (a node that saved it as an input now holds it without the history it had)
            self._detached = weakref.ref(self.grad_fn)
        self.grad_fn, self._output_nr, self._requires_grad = None, 0, False
        return self

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> RemovableHandle:
        """Call ``hook(tensor)`` on this leaf once backward has accumulated its gradient into ``.grad``: for work
        that needs the finished ``.grad``, such as an optimizer step for this parameter alone. The hook returns
        nothing."""
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = []
        if self._accumulator is not None and self._accumulator() is not None:
            self._accumulator()._slow = True  # the engine runs the hooks, on its slower path
        return RemovableHandle.add(self._post_accumulate_hooks, hook)

    # -- conversion ------------------------------------------------------------------------------------------------
    def __index__(self) -> int:
        if self._array.dtype.kind not in "iub" or self._array.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._array.item())

    def __iter__(self) -> Iterator[Tensor]:
        """Iterate over the first dimension, so Python's ``sum(tensor)`` adds rows (differentiably)."""
        if self._array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # one UnbindBackward0 node for all the rows, as in PyTorch

    def __format__(self, spec: str) -> str:
        """In an f-string a 0-d tensor is its Python number, as in PyTorch: ``f"{loss:.3f}"`` prints ``0.247``.
        Other tensors print as ``str(t)``, and a format spec for them is an error."""
        if self._array.ndim == 0 and not _meta.is_meta(self._array):
            return self._array.item().__format__(spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol: int) -> Any:
        return (_rebuild, (self._array, self._requires_grad))

    def __deepcopy__(self, memo: dict) -> Tensor:
        if self.grad_fn is not None:
            raise RuntimeError(M.DEEPCOPY_NONLEAF)
        out = type(self).__new__(type(self))
        _init(out, self._array.copy(), self._requires_grad)
        if self._grad is not None:
            out._grad = wrap(self._grad._array.copy())
        memo[id(self)] = out
        return out

    def type(self, dtype: Any = None, non_blocking: bool = False) -> Any:
        """``x.type()``: the type's old-style name, ``'tinygrad_edu.FloatTensor'``; ``x.type(dtype)`` converts, as
        ``x.to(dtype)``, and so do a legacy type (``x.type(torch.LongTensor)``) and a name (``'torch.DoubleTensor'``
        is read as ``'tinygrad_edu.DoubleTensor'``, so that code written for PyTorch runs)."""
        if dtype is None:  # (a meta tensor's type says where it is: 'tinygrad_edu.meta.FloatTensor')
            return f"tinygrad_edu.{'meta.' if _meta.is_meta(self._array) else ''}{_dtype.LEGACY_NAMES[self.dtype]}"
        if isinstance(dtype, str):
            if dtype not in _TYPE_NAMES:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = _TYPE_NAMES[dtype]
        if isinstance(dtype, type) and isinstance(getattr(dtype, "dtype", None), _dtype.dtype):
            dtype = dtype.dtype  # a legacy tensor type: x.type(torch.DoubleTensor)
        if isinstance(dtype, type):
            raise ValueError(f"invalid type: '{dtype.__name__}'")
        if not isinstance(dtype, _dtype.dtype):
            raise TypeError("dtype must be a type, str, or dtype object")
        return self.to(dtype)

    float, double, half = _to(_dtype.float32), _to(_dtype.float64), _to(_dtype.float16)
    long, int, bool = _to(_dtype.int64), _to(_dtype.int32), _to(_dtype.bool)

    def type_as(self, other: Tensor) -> Tensor:
        return self.to(other.dtype)

    def contiguous(self) -> Tensor:
        return self if self._array.flags.c_contiguous else self.clone()

    def cpu(self) -> Tensor:
        if _meta.is_meta(self._array):
            raise NotImplementedError(_meta.NO_DATA)
        return self

    def to(self, *args: Any, dtype: Any = None, device: Any = None, **kwargs: Any) -> Tensor:
        """Convert to a dtype (``x.to(tinygrad_edu.float64)``), to another tensor's dtype and device (``x.to(y)``),
        or to a device: "cpu", or "meta" (a tensor without numbers, recorded as ``ToCopyBackward0``)."""
        if device is None and not any(isinstance(a, _PLACES) for a in args):  # a dtype only: the core's
            return _core.Tensor.to(self, *args, dtype=dtype, **kwargs)
        return _meta_to(self, args, dtype, device, kwargs)

    def cuda(self, device: Any = None, non_blocking: bool = False, memory_format: Any = None) -> Tensor:
        """``x.cuda()``, from code written for a GPU: refused as ``x.to("cuda")`` is (there is no GPU here)."""
        return self.to("cuda" if device is None else f"cuda:{device}" if isinstance(device, int) else str(device))

    def is_contiguous(self) -> bool:
        return bool(self._array.flags.c_contiguous)

    # -- the memory layout, in PyTorch's units (elements, not numpy's bytes) ---------------------------------------
    def stride(self, dim: int | None = None) -> tuple[int, ...] | int:
        """How many elements to step over in memory to move one place along each dim: ``(3, 1)`` for a contiguous
        2x3 tensor, ``(1, 3)`` for its transpose (the same memory read the other way), 0 along a dim made by
        ``expand`` (every place there reads the same element). numpy counts bytes; PyTorch counts elements."""
        strides = tuple(s // self._array.itemsize for s in self._array.strides)
        return strides if dim is None else strides[shape._dim(dim, self._array.ndim)]

    def storage_offset(self) -> int:
        """How many elements into its storage this tensor starts: 0 for a fresh tensor, 5 for ``x[1, 1:]`` of a
        4-column x. (The storage is the array at the root of numpy's ``.base`` chain, which owns the memory; so
        ``from_numpy(a[2:])`` starts 2 elements in, where PyTorch counts its storage from the slice.)"""
        return (_address(self._array) - _address(_storage.root(self._array))) // self._array.itemsize

    def untyped_storage(self) -> _storage.UntypedStorage:
        """The memory this tensor reads, as bytes, shared with its views and base: two tensors share memory when
        ``a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()``."""
        return _storage.UntypedStorage(_storage.root(self._array))

    def storage(self) -> _storage.TypedStorage:
        """The same memory as elements of this tensor's dtype (deprecated in PyTorch, which warns once)."""
        return _storage.typed(_storage.root(self._array), self._array.dtype)

    def data_ptr(self) -> int:
        return _address(self._array)

    def element_size(self) -> int:
        return self._array.itemsize

    itemsize = property(lambda self: self._array.itemsize)
    nbytes = property(lambda self: self._array.size * self._array.itemsize)

    # -- more arithmetic -------------------------------------------------------------------------------------------
    def __mod__(self, other: Any) -> Tensor:
        if isinstance(other, (_core.Tensor, np.ndarray)):
            x, y = ew._operands(self, other)
            ew._check_broadcast(x, y)
            return ew.RemainderTensor.apply(x, y)
        return ew.remainder(self, other)

    remainder = __mod__

    def div(self, other: Any, *, rounding_mode: str | None = None) -> Tensor:
        """``x / y``; with ``rounding_mode="trunc"`` the quotient rounded toward 0 (C's integer division), with
        ``"floor"`` rounded down (Python's ``//``). A rounded quotient is a staircase: its gradient is zero."""
        if rounding_mode is None:
            return _core.Tensor.div(self, other)
        if rounding_mode not in ("trunc", "floor"):
            raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                               f"'{rounding_mode}'")
        other = _core._as_tensor(other)
        ew._check_broadcast(self, other)
        return ew.DivTrunc.apply(self, other) if rounding_mode == "trunc" else ew.DivFloor.apply(self, other)

    divide = div

    def __rmod__(self, other: Any) -> Tensor:
        return ew.remainder(other, self)

    def __floordiv__(self, other: Any) -> Tensor:
        if isinstance(other, np.ndarray):
            other = wrap(other)
        if isinstance(other, _core.Tensor):
            ew._check_broadcast(self, other)
        return ew.floor_divide(self, other)

    floor_divide = __floordiv__

    def __rfloordiv__(self, other: Any) -> Tensor:
        return ew.floor_divide(other, self)

    logsumexp = reduce.logsumexp
    norm, max, min, argmax, argmin = reduce.norm, reduce.max, reduce.min, reduce.argmax, reduce.argmin
    var, std, prod, cumsum = reduce.var, reduce.std, reduce.prod, reduce.cumsum
    cumprod, diff, median, amax, amin = reduce.cumprod, reduce.diff, reduce.median, reduce.amax, reduce.amin
    nanmedian, aminmax = reduce.nanmedian, reduce.aminmax

    softmax, log_softmax = reduce.softmax, reduce.log_softmax

    maximum, minimum = ew.maximum, ew.minimum
    isclose, nonzero, unique = selection.isclose, selection.nonzero, selection.unique
    sort, argsort, topk = selection.sort, selection.argsort, selection.topk
    round = ew.round_to
    masked_fill = ew.masked_fill
    isinf, isfinite = ew.isinf, ew.isfinite
    logical_and, logical_or, logical_xor = ew.logical_and, ew.logical_or, ew.logical_xor
    atan2, hypot, logaddexp, fmod, lerp = ew.atan2, ew.hypot, ew.logaddexp, ew.fmod, ew.lerp

    def arctan2(self, other: Any) -> Tensor:
        return ew.Atan2.apply(*ew._tensor_pair(self, other, "arctan2"))

    erf, erfc, erfinv = _unary(ew.Erf), _unary(ew.Erfc), _unary(ew.Erfinv)
    asinh = arcsinh = _unary(ew.Asinh)
    acosh = arccosh = _unary(ew.Acosh)
    atanh = arctanh = _unary(ew.Atanh)
    asinh_ = arcsinh_ = inplace_method(_unary(ew.InplaceNoDerivative))  # (in place: no derivative, as in PyTorch)
    acosh_ = arccosh_ = inplace_method(_unary(ew.AcoshInplace))
    atanh_ = arctanh_ = inplace_method(_unary(ew.AtanhInplace))
    floor, ceil, trunc, frac = _unary(ew.Floor), _unary(ew.Ceil), _unary(ew.Trunc), _unary(ew.Frac)
    fix = trunc
    lgamma, digamma = _unary(ew.Lgamma), _unary(ew.Digamma)

    def polygamma(self, n: int) -> Tensor:
        return ew.Polygamma.apply(self, n)

    addcmul, addcdiv = ew.addcmul, ew.addcdiv

    # -- products --------------------------------------------------------------------------------------------------
    def matmul(self, other: Any) -> Tensor:
        if not isinstance(other, _core.Tensor):
            raise TypeError(f"matmul(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
        return linalg.matmul(self, other)

    def __matmul__(self, other: Any) -> Any:
        """``x @ y``: a numpy array is taken as a tensor (as PyTorch does); for other types, Python's TypeError."""
        if isinstance(other, np.ndarray):
            other = wrap(other)
        return linalg.matmul(self, other) if isinstance(other, _core.Tensor) else NotImplemented

    def __rmatmul__(self, other: Any) -> Any:
        return linalg.matmul(other, self) if isinstance(other, _core.Tensor) else NotImplemented

    def mm(self, other: Tensor) -> Tensor:
        return linalg.Mm.apply(self, other)

    def mv(self, other: Tensor) -> Tensor:
        return linalg.Mv.apply(self, other)

    def dot(self, other: Tensor) -> Tensor:
        return linalg.Dot.apply(self, other)

    def bmm(self, other: Tensor) -> Tensor:
        return linalg.Bmm.apply(self, other)

    addmm, baddbmm, addmv = linalg.addmm, linalg.baddbmm, linalg.addmv
    outer = ger = linalg.outer
    inner, kron, cross, dist = linalg.inner, linalg.kron, linalg.cross, linalg.dist

    # -- shapes ----------------------------------------------------------------------------------------------------
    def view(self, *shape: Any) -> Tensor:
        """``x.view(2, 3)``: the same numbers in another shape (the core's view). ``x.view(dtype)``: the same bytes
        read as another type, ``tensor([1.0]).view(int32)`` is 1065353216 (float32's bits: sign, exponent 127,
        mantissa 0). A narrower type multiplies the last dimension, a wider one divides it. It shares x's memory
        and is not differentiable (bits are not a function with a derivative)."""
        if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
            return _bits_as(self, shape[0])
        return _core.Tensor.view(self, *shape)

    def view_as(self, other: Tensor) -> Tensor:
        return self.view(other._array.shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        return self.reshape(other._array.shape)

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        nd = self._array.ndim
        if nd == 0:
            return self.reshape(1)
        s, e = shape._dim(start_dim, nd), shape._dim(end_dim, nd)
        if s >= e:
            if s > e:
                raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
            return self
        sh = self._array.shape
        return self.reshape(*sh[:s], -1, *sh[e + 1:])

    def permute(self, *dims: Any) -> Tensor:
        return shape.Permute.apply(self, shape._shape_arg(dims))

    def transpose(self, dim0: int, dim1: int) -> Tensor:
        return shape.Transpose.apply(self, dim0, dim1)

    swapaxes = swapdims = transpose

    def t(self) -> Tensor:
        return shape.T.apply(self)

    @property
    def T(self) -> Tensor:  # noqa: N802  (PyTorch's name)
        """``x.T``: all dimensions reversed. PyTorch means it for matrices and warns about other shapes."""
        nd = self._array.ndim
        if nd == 0:
            warnings.warn("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
                          UserWarning, stacklevel=2)
        elif nd > 2:  # (a vector is its own transpose: no warning)
            warnings.warn("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
                          "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
                          "matrices or `x.permute(*tinygrad_edu.arange(x.ndim - 1, -1, -1))` to reverse the dimensions "
                          "of a tensor.", UserWarning, stacklevel=2)
        return shape.Permute.apply(self, tuple(range(nd - 1, -1, -1)))

    @property
    def mT(self) -> Tensor:  # noqa: N802  (PyTorch's name)
        """``x.mT``: the last two dimensions swapped (a batch of matrices, each transposed)."""
        if self._array.ndim < 2:
            raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got "
                               f"{self._array.ndim}-D tensor.")
        return shape.Transpose.apply(self, -2, -1)

    squeeze = shape.squeeze

    unsqueeze = shape.unsqueeze

    def expand_as(self, other: Tensor) -> Tensor:
        return self.expand(other._array.shape)

    # -- views in place: this tensor takes the view's shape, and its history goes through the view's node -----------
    def _become_view(self, view: Tensor) -> Tensor:
        """``x.t_()`` is ``x.t()`` made in place, as PyTorch rewrites x's own metadata: x takes the view's numbers and
        node (TBackward0, whose edge leads to x's old history), and its version goes up. Refused where an in-place
        change is: on a leaf that requires grad, on a view autograd could not rewrite, on an inference tensor."""
        if GradMode.enabled and self._requires_grad:
            if self.grad_fn is None and self._base is None:
                raise RuntimeError(M.LEAF_INPLACE)
            if self._base is not None:
                _checks.check_view_inplace(self)
        self._version_counter[0] += 1  # (an inference tensor's counter refuses, outside inference mode)
        self._array = view._array
        if view.grad_fn is not None:  # (its retain_grad and hooks stay with its old node, as PyTorch leaves them)
            self.grad_fn, self._output_nr = view.grad_fn, view._output_nr
            self.grad_fn.__class__ = _in_place_node(type(view.grad_fn))
        return self

    def transpose_(self, dim0: int, dim1: int) -> Tensor:
        return self._become_view(self.transpose(dim0, dim1))

    swapaxes_ = swapdims_ = transpose_

    def t_(self) -> Tensor:
        return self._become_view(self.t())

    def squeeze_(self, *dim: Any) -> Tensor:
        return self._become_view(self.squeeze(*dim))

    def unsqueeze_(self, dim: int) -> Tensor:
        return self._become_view(self.unsqueeze(dim))

    def resize_(self, *sizes: Any, memory_format: Any = None) -> Tensor:
        """Give this tensor another shape, keeping its first elements (new ones are zeros here, uninitialized in
        PyTorch). Not recorded: a tensor that requires grad cannot be resized."""
        new = tuple(int(n) for n in (sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes))
        if GradMode.enabled and self._requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        if new == self._array.shape:  # nothing to do: not even a new version
            return self
        flat, n = self._array.reshape(-1), int(np.prod(new))
        self._version_counter[0] += 1
        self._array = np.concatenate([flat[:n], np.zeros(max(0, n - flat.size), flat.dtype)]).reshape(new)
        return self

    def set_(self, source: Tensor | None = None) -> Tensor:
        """``x.set_(y)``: x now shares y's storage and shape (``x.set_()``: empty). Not recorded: PyTorch allows it
        on a leaf that requires grad only inside ``no_grad()``, and the leaf then gets a new gradient accumulator
        (the graph recorded before still ends at the old one)."""
        data = np.empty(0, self._array.dtype) if source is None else source._array
        if data.dtype != self._array.dtype:
            names = [_C_TYPE_NAMES.get(a.dtype.name, a.dtype.name) for a in (data, self._array)]
            raise RuntimeError(f"Could not set tensor of type {names[0]} to a tensor of type {names[1]}")
        if GradMode.enabled and self._requires_grad:
            raise RuntimeError(M.LEAF_INPLACE if self.grad_fn is None else
                               "tinygrad_edu: set_ on a tensor with a history is not supported; use it on a leaf, "
                               "inside no_grad()")
        self._array, self._accumulator = data, None
        self._version_counter[0] += 1
        return self

    def resize_as_(self, other: Tensor, memory_format: Any = None) -> Tensor:
        return self.resize_(other._array.shape)

    broadcast_to = _core.Tensor.expand

    def repeat(self, *sizes: Any) -> Tensor:
        return shape.Repeat.apply(self, shape._shape_arg(sizes))

    __getitem__ = shape.getitem
    __setitem__ = inplace.setitem
    select, narrow, unbind = shape.select, shape.narrow, shape.unbind
    split, chunk, tile, repeat_interleave = shape.split, shape.chunk, shape.tile, shape.repeat_interleave
    flip, fliplr, flipud, roll, rot90 = shape.flip, shape.fliplr, shape.flipud, shape.roll, shape.rot90
    unflatten, movedim, moveaxis = shape.unflatten, shape.movedim, shape.movedim
    diag, diagonal, diag_embed = shape.diag, shape.diagonal, shape.diag_embed

    def tril(self, diagonal: int = 0) -> Tensor:
        return shape.Tril.apply(self, diagonal)

    def triu(self, diagonal: int = 0) -> Tensor:
        return shape.Triu.apply(self, diagonal)

    def trace(self) -> Tensor:
        return selection.Trace.apply(self)

    # -- indexing with index tensors -------------------------------------------------------------------------------
    def where(self, condition: Tensor, other: Any) -> Tensor:
        return selection.where(condition, self, other)

    gather, index_select, take = selection.gather, selection.index_select, selection.take
    scatter, scatter_add, masked_select = selection.scatter, selection.scatter_add, selection.masked_select
    index_add, index_fill = selection.index_add, selection.index_fill
    index_reduce = selection.index_reduce
    index_copy, index_put = selection.index_copy, selection.index_put
    take_along_dim, tensor_split = selection.take_along_dim, shape.tensor_split
    cummax, cummin, kthvalue, mode = selection.cummax, selection.cummin, selection.kthvalue, selection.mode
    bincount, histc = selection.bincount, selection.histc
    xlogy, logit = ew.xlogy, ew.logit
    as_strided, as_strided_, unfold = strided.as_strided, strided.as_strided_, strided.unfold
    scatter_reduce = selection.scatter_reduce

    # -- PyTorch's less-travelled methods (ops/more.py) ------------------------------------------------------------
    sgn, positive, clamp_min, clamp_max, fmax, fmin = more.sgn, more.positive, more.clamp_min, more.clamp_max, \
        more.fmax, more.fmin
    copysign, float_power, ldexp, frexp, logaddexp2, nextafter = more.copysign, more.float_power, more.ldexp, \
        more.frexp, more.logaddexp2, more.nextafter
    heaviside, gcd, lcm = more.heaviside, more.gcd, more.lcm
    bitwise_left_shift, bitwise_right_shift = more.bitwise_left_shift, more.bitwise_right_shift
    sinc, i0, mvlgamma, nan_to_num, renorm = more.sinc, more.i0, more.mvlgamma, more.nan_to_num, more.renorm
    isposinf, isneginf, isreal = more.isposinf, more.isneginf, more.isreal
    nansum, nanmean, count_nonzero, logcumsumexp = more.nansum, more.nanmean, more.count_nonzero, more.logcumsumexp
    quantile, nanquantile, cov, corrcoef = more.quantile, more.nanquantile, more.cov, more.corrcoef
    histogram, argwhere, unique_consecutive = more.histogram, more.argwhere, more.unique_consecutive
    ravel, adjoint, hsplit, vsplit, dsplit = more.ravel, more.adjoint, more.hsplit, more.vsplit, more.dsplit
    diagflat, narrow_copy, masked_scatter, put = more.diagflat, more.narrow_copy, more.masked_scatter, more.put
    addbmm, addr, vdot = more.addbmm, more.addr, more.vdot
    float_power_ = more.float_power_
    masked_scatter_ = inplace_method(more.masked_scatter)
    put_ = inplace_method(more.put)

    # -- random numbers in place (nn.init's tools): their node's gradient is 0, the old values are gone ----------
    def uniform_(self, from_: float = 0.0, to: float = 1.0, *, generator: Any = None) -> Tensor:
        gen, a = generator or _creation.default_generator, self._array
        values = in_memory_order(a, lambda shape: gen.uniform(shape, a.dtype, from_, to))
        return inplace.inplace(self, inplace.Uniform.apply, values)

    def normal_(self, mean: float = 0.0, std: float = 1.0, *, generator: Any = None) -> Tensor:
        gen, a = generator or _creation.default_generator, self._array
        values = in_memory_order(a, lambda shape: gen.normal(shape, a.dtype, mean, std, a.flags.c_contiguous))
        return inplace.inplace(self, inplace.Normal.apply, values)

    def random_(self, *bounds: Any, to: Any = None, generator: Any = None) -> Tensor:
        """Whole numbers, uniformly: ``random_(from, to)`` in [from, to), ``random_(to)`` in [0, to), and
        ``random_()`` in [0, the largest whole number the dtype holds exactly]: 2**24 for float32, 2**53 for
        float64, 2**63 - 1 for int64. PyTorch's numbers: a word of the generator (two, for a range of 2**32 or
        more) modulo the range."""
        gen, a = generator or _creation.default_generator, self._array
        if to is not None:
            bounds = (*bounds, to)
        if len(bounds) > 2:
            raise TypeError(f"random_() takes from 0 to 2 positional arguments but {len(bounds)} were given")
        low, high, node = _random_range(a.dtype, bounds)
        values = in_memory_order(a, lambda shape: gen.integers(low, high, shape, a.dtype))
        return inplace.inplace(self, node.apply, values)

    def exponential_(self, lambd: float = 1.0, *, generator: Any = None) -> Tensor:
        """Exponential random numbers of rate ``lambd`` (mean 1 / lambd): -log(1 - u) / lambd, u uniform."""
        gen, a = generator or _creation.default_generator, self._array
        if lambd <= 0:
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
        values = in_memory_order(a, lambda shape: gen.exponential(shape, a.dtype, lambd))
        return inplace.inplace(self, inplace.Exponential.apply, values)

    def geometric_(self, p: float, *, generator: Any = None) -> Tensor:
        """The number of trials up to the first success, each a success with probability ``p`` (1, 2, 3 ...)."""
        gen, a = generator or _creation.default_generator, self._array
        if not 0 < p < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
        values = in_memory_order(a, lambda shape: gen.geometric(shape, p))
        return inplace.inplace(self, inplace.Geometric.apply, values)

    def cauchy_(self, median: float = 0.0, sigma: float = 1.0, *, generator: Any = None) -> Tensor:
        """Cauchy random numbers (heavy tails: no mean) centred on ``median``, of scale ``sigma``."""
        gen, a = generator or _creation.default_generator, self._array
        if a.dtype.kind != "f":
            raise RuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a floating "
                               f"point but you specified {_dtype.CPP_NAMES[a.dtype]}")
        if not sigma > 0:
            raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
        values = in_memory_order(a, lambda shape: gen.cauchy(shape, median, sigma))
        return inplace.inplace(self, inplace.Cauchy.apply, values)

    def log_normal_(self, mean: float = 1.0, std: float = 2.0, *, generator: Any = None) -> Tensor:
        """e^N for N normal of ``mean`` and ``std`` (the defaults are PyTorch's, 1 and 2)."""
        gen, a = generator or _creation.default_generator, self._array
        if a.dtype.kind != "f":
            raise NotImplementedError(f'"log_normal_cpu" not implemented for '
                                      f"'{_dtype.LEGACY_NAMES[self.dtype].removesuffix('Tensor')}'")
        if not std > 0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
        values = in_memory_order(a, lambda shape: gen.log_normal(shape, mean, std))
        return inplace.inplace(self, inplace.LogNormal.apply, values)

    def multinomial(self, num_samples: int, replacement: bool = False, *, generator: Any = None) -> Tensor:
        return _creation.multinomial(self, num_samples, replacement, generator=generator)

    def bernoulli_(self, p: float = 0.5, *, generator: Any = None) -> Tensor:
        """Each element becomes 1 with probability ``p`` (0 otherwise), in this tensor's dtype."""
        gen, a = generator or _creation.default_generator, self._array
        values = gen.bernoulli(a.shape, p._array) if isinstance(p, Tensor) else in_memory_order(
            a, lambda shape: gen.bernoulli(shape, p))
        return inplace.inplace(self, inplace.Uniform.apply, values.astype(a.dtype))

    def bernoulli(self, p: Any = None, *, generator: Any = None) -> Tensor:
        """A new tensor of 0s and 1s: element i is 1 with probability ``self[i]`` (no gradient flows: it is a draw)."""
        gen = generator or _creation.default_generator
        if p is None and self._array.dtype.kind != "f":  # (probabilities are floats; PyTorch has no kernel for these)
            raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for '
                                      f"'{_dtype.LEGACY_NAMES[self.dtype].removesuffix('Tensor')}'")
        probs = self._array if p is None else p
        return wrap(gen.bernoulli(self.shape, probs).astype(self._array.dtype))

    def new(self, *args: Any) -> Tensor:
        """The legacy constructor: ``x.new(2, 3)`` (or ``x.new(size)``) a tensor of that shape, ``x.new(data)`` one of
        those values, in x's dtype. (PyTorch leaves the new elements uninitialized; they are zeros here.)"""
        if len(args) == 1 and isinstance(args[0], tuple) and all(isinstance(n, int) for n in args[0]):
            args = args[0]
        if all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in args):
            return wrap(np.zeros(tuple(int(n) for n in args), dtype=self._array.dtype))
        return wrap(np.array(args[0], dtype=self._array.dtype))

    def split_with_sizes(self, split_sizes: Any, dim: int = 0) -> tuple[Tensor, ...]:
        return shape.split(self, list(split_sizes), dim)

    def unsafe_split(self, split_size: Any, dim: int = 0) -> tuple[Tensor, ...]:
        """``split`` whose pieces autograd does not see as views (PyTorch's "unsafe" ops): each may be changed in place
        as a tensor of its own, with its own version, though it shares memory with this tensor."""
        return _not_views(shape.split(self, split_size, dim))

    def unsafe_split_with_sizes(self, split_sizes: Any, dim: int = 0) -> tuple[Tensor, ...]:
        return self.unsafe_split(list(split_sizes), dim)

    def unsafe_chunk(self, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
        return _not_views(self.chunk(chunks, dim))

    def signbit(self) -> Tensor:
        return wrap(np.signbit(self._array))

    # -- comparisons and tests (no gradient flows through them) ----------------------------------------------------
    eq, ne, lt, le = _compare(operator.eq), _compare(operator.ne), _compare(operator.lt), _compare(operator.le)
    gt, ge = _compare(operator.gt), _compare(operator.ge)

    __eq__, __ne__ = _compare(operator.eq, reflect=True), _compare(operator.ne, reflect=True)  # type: ignore[assignment]
    __lt__, __le__ = _compare(operator.lt, reflect=True), _compare(operator.le, reflect=True)
    __gt__, __ge__ = _compare(operator.gt, reflect=True), _compare(operator.ge, reflect=True)
    __hash__ = _core.Tensor.__hash__  # (defining __eq__ would otherwise drop it)

    __and__, __or__, __xor__ = _bitwise(operator.and_), _bitwise(operator.or_), _bitwise(operator.xor)
    __lshift__, __rshift__ = _bitwise(operator.lshift, "lshift"), _bitwise(operator.rshift, "rshift")

    bitwise_and, bitwise_or, bitwise_xor = __and__, __or__, __xor__

    def __invert__(self) -> Tensor:
        if self._array.dtype.kind not in "biu":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return wrap(~self._array)

    def bitwise_not(self) -> Tensor:
        """~x: every bit flipped (for integers in two's complement, -x - 1); not for a bool, which it negates."""
        if self._array.dtype.kind not in "biu":
            name = _dtype.LEGACY_NAMES[self.dtype].removesuffix("Tensor")
            raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for '{name}'")
        return wrap(~self._array)

    def logical_not(self) -> Tensor:
        return wrap(np.logical_not(self._array))

    def equal(self, other: Tensor) -> bool:
        return self._array.shape == other._array.shape and bool(np.all(self._array == other._array))

    def allclose(self, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
        if not isinstance(other, Tensor):
            raise TypeError(f"allclose(): argument 'other' (position 2) must be Tensor, not {M.typename(other)}")
        return bool(selection.isclose(self, other, rtol, atol, equal_nan)._array.all())  # (isclose's checks)

    @numpy_names
    def all(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        return wrap(np.asarray(np.all(self._array, axis=dim, keepdims=keepdim)))

    @numpy_names
    def any(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        return wrap(np.asarray(np.any(self._array, axis=dim, keepdims=keepdim)))

    def isnan(self) -> Tensor:
        return wrap(np.isnan(self._array))

    # -- new tensors like this one ---------------------------------------------------------------------------------
    new_zeros, new_ones, new_empty = _creation.new_zeros, _creation.new_ones, _creation.new_empty
    new_full, new_tensor = _creation.new_full, _creation.new_tensor

    # -- in place: the op, its result written back into this tensor's storage (ops/inplace.py) ---------------------
    zero_, fill_, copy_ = inplace.zero_, inplace.fill_, inplace.copy_
    __iadd__ = add_ = inplace_method(_core.Tensor.add)
    __isub__ = sub_ = inplace_method(_core.Tensor.sub)
    __imul__ = mul_ = inplace_method(_core.Tensor.mul)
    __itruediv__ = inplace_method(_core.Tensor.div)
    div_ = divide_ = inplace_method(div)
    __imod__ = remainder_ = inplace_method(__mod__)
    __ifloordiv__ = floor_divide_ = inplace_method(__floordiv__)
    clip_ = clamp_ = inplace_method(clamp)
    pow_ = inplace_method(_core.Tensor.pow)
    round_ = inplace_method(ew.round_to)
    masked_fill_ = inplace_method(masked_fill)
    bitwise_not_ = inplace_method(bitwise_not)


# The in-place forms of one-argument and other ops: ``x.exp_()`` is ``exp`` with its result written into x (so the
# graph gets the same node, ExpBackward0, as for ``y = x.exp()``). Generated here, from the methods above.
for _name in (*inplace.UNARY_INPLACE, "log1p", "expm1", "rsqrt", "log2", "log10", "tan", "atan", "asin", "acos",
              "sinh", "cosh", "floor", "ceil", "trunc", "frac", "scatter", "scatter_add", "index_add", "index_fill",
              "index_reduce", "logical_and", "logical_or", "logical_xor", "logical_not", "atan2", "arctan2", "hypot",
              "fmod", "lerp", "erf", "erfc", "erfinv", "exp2", "deg2rad", "rad2deg", "true_divide", "addcmul",
              "addcdiv", "addmm", "baddbmm", "cumprod", "tril", "triu", "lgamma", "digamma", "polygamma", "index_copy",
              "index_put", "xlogy", "logit", "sgn", "clamp_min", "clamp_max", "copysign", "ldexp", "nextafter",
              "heaviside", "gcd", "lcm", "bitwise_left_shift", "bitwise_right_shift", "sinc", "i0", "mvlgamma",
              "nan_to_num", "renorm", "addbmm", "addr", "fix", "negative", "arcsin", "arccos", "arctan", "addmv"):
    setattr(Tensor, _name + "_", inplace_method(getattr(Tensor, _name)))
Tensors.cls = Tensor  # every op's result is a tinygrad_edu.Tensor


_C_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
                 "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}  # (C++'s)


# The in-place shape changes (``x.t_()``, ``x.squeeze_(0)`` ...) are PyTorch ops of their own, whose nodes are named
# apart from the ops they repeat: TBackward1, not TBackward0.
_IN_PLACE_NODE_NAMES = {"TBackward0": "TBackward1", "TransposeBackward0": "TransposeBackward1",
                        "SqueezeBackward0": "SqueezeBackward3", "SqueezeBackward1": "SqueezeBackward4",
                        "SqueezeBackward2": "SqueezeBackward5", "UnsqueezeBackward0": "UnsqueezeBackward1"}
_IN_PLACE_NODES: dict[type, type] = {}


def _in_place_node(cls: type) -> type:
    """The node class of the in-place form of the view op whose node class is ``cls`` (the same node, renamed)."""
    name = _IN_PLACE_NODE_NAMES.get(cls.__name__)
    if name is None:
        return cls
    if cls not in _IN_PLACE_NODES:
        _IN_PLACE_NODES[cls] = type(name, (cls,), {"__qualname__": name, "__module__": cls.__module__})
    return _IN_PLACE_NODES[cls]


def _bits_as(t: Tensor, to: _dtype.dtype) -> Tensor:
    """``t.view(dtype)``: t's memory read as ``to`` (PyTorch's refusals when the sizes do not fit)."""
    a = t._array
    if to.itemsize != a.itemsize:
        names = [_dtype.LEGACY_NAMES[d].removesuffix("Tensor") for d in (t.dtype, to)]
        how = f"to view {names[0]} as {names[1]} (different element sizes)"
        if a.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 {how}")
        if a.strides[-1] != a.itemsize and a.shape[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {how}, but got {a.strides[-1] // a.itemsize}")
        ratio = to.itemsize // a.itemsize
        if to.itemsize > a.itemsize and a.shape[-1] % ratio:
            raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {how}, but got {a.shape[-1]}")
    return wrap(a.view(to.np))  # (numpy's view: the same memory, read as the other type)


def _random_range(np_dtype: np.dtype, bounds: tuple) -> tuple[int, int, type]:
    """[low, high) for ``random_(*bounds)`` in a tensor of ``np_dtype``, and its node; PyTorch's checks."""
    digits = {"float16": 11, "float32": 24, "float64": 53}.get(np_dtype.name)
    # the top of the full range: for a float, the last whole number below which it holds every whole number
    top = 2**digits if digits is not None else 1 if np_dtype == np.bool_ else int(np.iinfo(np_dtype).max)
    if not bounds:
        return 0, top + 1, inplace.Random
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
    low, high = int(low), (top + 1 if high is None else int(high))
    node = inplace.RandomTo if len(bounds) == 1 else inplace.RandomFromTo
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    if digits is None:
        bottom = 0 if np_dtype == np.bool_ else int(np.iinfo(np_dtype).min)
        name = _C_TYPE_NAMES[np_dtype.name]
        if not bottom <= low <= top:
            raise RuntimeError(f"from is out of bounds for {name}")
        if not bottom <= high - 1 <= top:
            raise RuntimeError(f"to - 1 is out of bounds for {name}")
    else:
        kind = {"float16": "c10::Half", "float32": "float", "float64": "double"}[np_dtype.name]
        for name, v in (("from", low), ("to - 1", high - 1)):
            if not -top <= v <= top:
                warnings.warn(f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                              f"{kind} can support discrete uniform distribution only within this range. This warning "
                              "will become an error in version 1.7 release, please fix the code in advance",
                              UserWarning, stacklevel=3)
    return low, high, node


def _address(a: np.ndarray) -> int:
    """Where an array's first element is in memory (``data_ptr()``: equal for views that start there)."""
    return a.__array_interface__["data"][0]


def _init(t: Tensor, array: np.ndarray, requires_grad: bool = False) -> None:
    """Fill in a tensor being constructed (``Tensor(...)``, ``nn.Parameter(...)``): a leaf holding ``array``."""
    if requires_grad and array.dtype.kind not in "fc":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    made = wrap(array)  # (a tensor as the core makes one: its fields, copied into t)
    for field in _core.Tensor.__slots__[2:]:
        setattr(t, field, getattr(made, field))
    t._requires_grad = requires_grad


def _constructor_array(args: tuple) -> np.ndarray:
    """What ``Tensor(*args)`` holds: sizes (all ints, or one Size) give zeros; one sequence gives its data."""
    if not args:
        return np.empty(0, dtype=np.float32)
    if len(args) == 1 and isinstance(args[0], Size):
        args = tuple(args[0])
    if all(isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)) for a in args):
        for a in args:
            if a < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {a}: {[int(n) for n in args]}")
        return np.zeros(tuple(int(a) for a in args), dtype=np.float32)
    if len(args) == 1:
        data = args[0]
        if isinstance(data, (list, tuple, np.ndarray)):
            return _creation._grid(data, _creation._unwrap(data)).astype(np.float32)  # (ragged: PyTorch's words)
        raise TypeError(f"new(): data must be a sequence (got {M.typename(data)})")
    bad = next(i for i, a in enumerate(args) if not isinstance(a, (int, np.integer)) or isinstance(a, bool))
    raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {bad + 1} with error \"type must be "
                    f"tuple of ints,but got {M.typename(args[bad])}\"")


def _rebuild(array: np.ndarray, requires_grad: bool) -> Tensor:
    t = wrap(array)
    t._requires_grad = requires_grad
    return t


_wrap = wrap  # (the name the library's modules above this one import)
