"""In-place operations (``add_``, ``x[0] = v``, ``zero_`` ...): the op computed out of place, written back.

``inplace(x, op, *args)`` runs ``op(x, *args)`` and stores the result in x's own storage, bumping its version (so
a saved copy of the old value is caught if backward needs it). When autograd is recording, x's history then ends
in the op's node, as in PyTorch.
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _dtype
from .. import _messages as M
from .._checks import broadcast_shapes, index_message, setitem_refusal
from .._hooks import new_history
from ..core.function import Function, InferenceCounter, SavedTensor, broadcast_from, gradient_edge, tangent, wrap
from ..core.grad_mode import GradMode
from ..core.tensor import Tensor, _as_tensor
from . import views
from .shape import Index, _to_numpy_key, save_indices


def _partial_overlap(out: np.ndarray, a: np.ndarray) -> bool:
    """Whether ``a`` shares some, but not exactly all, of ``out``'s memory (``y.sub_(y[0, 0])``): writing the
    result element by element would then read values already overwritten. (``y.add_(y)`` is fine.)"""
    if not np.may_share_memory(out, a):  # cheap: do the memory ranges overlap at all?
        return False
    same = (out.__array_interface__["data"][0] == a.__array_interface__["data"][0] and out.shape == a.shape
            and out.strides == a.strides)
    return not same and np.shares_memory(out, a)


def _check_inference(t: Tensor) -> None:
    """An inference tensor can be changed in place only inside inference mode (PyTorch's refusal)."""
    if type(t._version_counter) is InferenceCounter and not GradMode.inference:
        raise RuntimeError(M.INFERENCE_INPLACE)


def _check_dual_view(self: Tensor, args: tuple) -> None:
    """Forward mode through an in-place change of a view of a tensor that has a tangent would have to change that
    tangent too, which this library does not follow (PyTorch does): refused, saying what to do instead. (The view's
    own tangent follows the change; a base without a tangent, such as make_dual's primal, stays without one.)"""
    if GradMode.dual is not None and self._base is not None and tangent(self._base) is not None:
        raise NotImplementedError("tinygrad_edu's forward mode does not follow tangents through an in-place change of "
                                  "a view (its base's tangent would change too): clone() the view first, or use the "
                                  "out-of-place form (y = y * 2 rather than y[0].mul_(2)).")


def inplace(self: Tensor, op: Callable[..., Tensor], *args: Any, overlap_ok: bool = False) -> Tensor:
    """Do ``op(self, *args)`` and store the result in ``self``'s own storage.

    When autograd is recording, ``op`` runs on a snapshot of self's old value (so values it saves are
    not overwritten), and ``self`` takes over the result's ``grad_fn``: its history now ends in this op.
    A tensor two of whose elements are one memory location (``expand``) is refused, as in PyTorch, unless the op
    writes the same value everywhere (``overlap_ok``: ``fill_``, ``zero_``).
    """
    _check_inference(self)
    _check_dual_view(self, args)
    for a in args:
        if isinstance(a, Tensor) and _partial_overlap(self._array, a._array):
            raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor "
                               "refer to a single memory location. Please clone() the tensor before performing the "
                               "operation.")
    recording = GradMode.enabled and (self._requires_grad or views.base_requires_grad(self) or any(
        isinstance(a, Tensor) and a._requires_grad for a in args))
    if recording:  # op on a copy of the old value, its history: the values op saves are not overwritten
        views.check_inplace(self)
        src = wrap(self._array.copy(), *gradient_edge(self))
        src._fw = self._fw  # (and its tangent, in forward mode)
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
    if not overlap_ok:
        _refuse_overlap(out)
    np.copyto(_writable(out), result._array, casting="unsafe")
    self._version_counter[0] += 1
    if recording and result.grad_fn is not None:
        _saved_output_is_self(result, self)
    if recording and result.grad_fn is not None and self._base is not None:
        views.rebase(self, result.grad_fn)  # the base's history rewritten: CopySlices (ops/views.py)
        _saved_output_is_the_view(result.grad_fn, self)
    elif recording and result.grad_fn is not None:  # (its retain_grad follows; its hooks stay with the old node)
        new_history(self, result.grad_fn, result._output_nr)
    if GradMode.dual is not None:  # forward mode: the tangent is the result's (a view's base keeps its own)
        self._fw = result._fw
    return self


def _refuse_overlap(a: np.ndarray) -> None:
    """PyTorch's refusal to write into a tensor two of whose elements share memory (a dimension ``expand`` repeated,
    stride 0): the result would depend on which write came last."""
    if any(stride == 0 and n > 1 for stride, n in zip(a.strides, a.shape)):
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a single "
                           "memory location. Please clone() the tensor before performing the operation.")


def _writable(a: np.ndarray) -> np.ndarray:
    """``a``, to write into. numpy makes the views of ``broadcast_to`` (``expand``) read-only; PyTorch writes through
    them (``x.expand(3)[0] = 0`` changes the one number all three elements are). A read-only view of memory that is
    writable becomes a writable view of the same elements, made from the array that owns the memory."""
    if a.flags.writeable:
        return a
    owner = a
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    if not owner.flags.writeable:  # (memory that really is read-only: numpy's own error, as before)
        return a
    offset = a.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    return np.ndarray(a.shape, a.dtype, buffer=owner, offset=offset, strides=a.strides)


def _saved_output_is_self(result: Tensor, self: Tensor) -> None:
    """What the op saved of its output (``exp_``, ``sigmoid_``: their derivatives are written with it) is, as in
    PyTorch, ``self`` now: a later in-place change of self must be caught, so it follows self's version counter."""
    for saved in getattr(result.grad_fn, "_saved", None) or ():
        if type(saved) is SavedTensor and saved.tensor is None and saved.counter is result._version_counter:
            saved.counter, saved.version = self._version_counter, self._version_counter[0]


class SavedViewOutput(SavedTensor):
    """What an in-place op on a view saved of its output (``relu_`` of ``b[0]``: its result), once the view's history
    was rebuilt: unpacked, as in PyTorch, it has the view's history (``AsStridedBackward0`` <- ``CopySlices``), not
    the op's own node, so differentiating the saved value again goes through the base's new history. The history is
    held weakly (it leads back to the op's node: a strong reference would be a cycle), as PyTorch holds it."""

    __slots__ = ("history",)

    def unpack(self, node: Any, peek: bool = False) -> Tensor:
        t = SavedTensor.unpack(self, node, peek)
        history = self.history()
        if history is not None:
            t.grad_fn, t._output_nr = history, 0
        return t


def _saved_output_is_the_view(fn: Any, view: Tensor) -> None:
    saved = getattr(fn, "_saved", None)
    if not saved:
        return
    kept = list(saved)
    for i, s in enumerate(saved):
        if type(s) is SavedTensor and s.tensor is None and s.counter is view._version_counter:
            kept[i] = moved = object.__new__(SavedViewOutput)
            moved.array, moved.counter, moved.output_nr, moved.tensor, moved.version = \
                s.array, s.counter, s.output_nr, None, s.version
            moved.history = weakref.ref(view.grad_fn)
    fn._saved = tuple(kept)


UNARY_INPLACE = ("abs", "neg", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "reciprocal", "sign",
                  "square")


def inplace_method(op: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return inplace(self, lambda s, *a: op(s, *a, **kwargs), *args)

    return method


class Zero(Function):
    """``x.zero_()``: the old values are gone, so no gradient reaches them (dx = 0)."""

    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        return np.zeros_like(x._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        return wrap(np.zeros_like(g._array))  # a constant zero, with no history even under create_graph


class Uniform(Function):
    """``x.uniform_(a, b)``: new random values (``values``, drawn by the caller); the old ones are gone, dx = 0."""

    node_name = "UniformBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, values: np.ndarray) -> np.ndarray:
        return values.astype(x._array.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return wrap(np.zeros_like(g._array)), None


class Normal(Uniform):
    """``x.normal_(mean, std)``: as :class:`Uniform`, normal values."""

    node_name = "NormalBackward0"


class Exponential(Uniform):
    """``x.exponential_(lambd)``: as :class:`Uniform`, exponential values."""

    node_name = "ExponentialBackward0"


class Geometric(Uniform):
    """``x.geometric_(p)``: as :class:`Uniform`, the number of trials up to the first success."""

    node_name = "GeometricBackward0"


class Cauchy(Uniform):
    """``x.cauchy_(median, sigma)``: as :class:`Uniform`, Cauchy values."""

    node_name = "CauchyBackward0"


class LogNormal(Uniform):
    """``x.log_normal_(mean, std)``: as :class:`Uniform`, values whose logarithm is normal."""

    node_name = "LogNormalBackward0"


class RandomFromTo(Uniform):
    """``x.random_(from, to)``: as :class:`Uniform`, whole numbers (PyTorch numbers its three forms' nodes)."""

    node_name = "RandomBackward0"


class RandomTo(Uniform):
    """``x.random_(to)``."""

    node_name = "RandomBackward1"


class Random(Uniform):
    """``x.random_()``."""

    node_name = "RandomBackward2"


class Fill(Function):
    """``x.fill_(v)`` with a number v: dx = 0."""

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx: Any, x: Tensor, value: Any) -> np.ndarray:
        return np.full_like(x._array, value)  # converted to x's dtype: an int64 tensor filled with 2.7 holds 2

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return wrap(np.zeros_like(g._array)), None


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
        return wrap(np.zeros_like(g._array)), None if dv is None else dv.to(ctx.value_dtype)


class Copy(Function):
    """``x.copy_(src)``: x's old values are overwritten (dx = 0); src, broadcast to x's shape, gets
    dsrc = g, summed down to src's shape. (A src of another dtype is converted first, by its own node.)"""

    node_name = "CopyBackwards"  # PyTorch's name for this node has no "0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, src: Tensor) -> np.ndarray:
        broadcast_from(ctx, None, src)
        return np.broadcast_to(src._array, x._array.shape).astype(x._array.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return wrap(np.zeros_like(g._array)), g if ctx.needs_input_grad[1] else None


def zero_(self: Tensor) -> Tensor:
    return inplace(self, Zero.apply, overlap_ok=True)


def fill_(self: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return inplace(self, FillTensor.apply, value, overlap_ok=True)
    if not isinstance(value, (int, float, bool, np.number, np.bool_)):
        raise TypeError(f"fill_() received an invalid combination of arguments - got ({type(value).__name__}), but "
                        f"expected one of:\n * (Tensor value)\n      didn't match because some of the arguments "
                        f"have invalid types: (!{type(value).__name__}!)\n * (Number value)\n      didn't match "
                        f"because some of the arguments have invalid types: (!{type(value).__name__}!)\n")
    return inplace(self, Fill.apply, value, overlap_ok=True)


def copy_(self: Tensor, src: Any) -> Tensor:
    src = _as_tensor(src)
    target = broadcast_shapes(self._array.shape, src._array.shape)
    if target != self._array.shape:
        raise RuntimeError(f"output with shape [{', '.join(map(str, self._array.shape))}] doesn't match the broadcast "
                           f"shape [{', '.join(map(str, target))}]")
    return inplace(self, lambda s, v: Copy.apply(s, v.to(s.dtype)), src)


class IndexPut(Function):
    """``x[key] = value`` with a key that picks elements (a list, a mask): the gradient reaches x everywhere except
    at key, and value through key. (A key of ints and slices picks a view: ``x[key].copy_(value)``, CopySlices.)"""

    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, value: Tensor, key: Any) -> np.ndarray:
        out = x._array.copy()
        out[key] = value._array
        ctx.key, ctx.shape = key, out.shape
        save_indices(ctx, key)
        broadcast_from(ctx, None, value)  # (the value, into the slice's shape)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        ctx.saved_tensors  # noqa: B018  (the indices, freed after a backward: a second one raises)
        mask = np.ones(ctx.shape, dtype=g._array.dtype)
        mask[ctx.key] = 0
        dx = g * wrap(mask) if ctx.needs_input_grad[0] else None
        dv = Index.apply(g, ctx.key) if ctx.needs_input_grad[1] else None
        return dx, dv, None


# PyTorch writes this node by hand in C++: name() gives the C++ name (as for AccumulateGrad), while a tensor's repr
# shows the class name: grad_fn=<CopyBackwards>.
Copy._backward_cls.name = lambda node: "tinygrad_edu::autograd::CopyBackwards"


def _is_basic_key(key: Any) -> bool:
    """Whether ``x[key]`` is a view of x: basic indexing (ints, slices, None, ...)."""
    keys = key if isinstance(key, tuple) else (key,)
    return all(isinstance(k, (int, np.integer, slice)) or k is None or k is Ellipsis for k in keys)


def _copy_to(view: Tensor, value: Tensor) -> None:
    """How PyTorch copies ``value`` into ``x[key]``: as it is if of the view's shape, a 0-d tensor by ``fill_``, any
    other without its leading 1-sized dimensions (``view``), then expanded to the view's shape (as its graph shows)."""
    shape = view._array.shape
    _refuse_overlap(view._array)  # (PyTorch copies into the slice, even a number: refused where elements share memory)
    if value._array.shape == shape:
        copy_(view, value)
    elif value._array.ndim == 0:
        fill_(view, value)
    else:
        sizes = value._array.shape
        while sizes and sizes[0] == 1:
            sizes = sizes[1:]
        copy_(view, (value.view(sizes) if sizes != value._array.shape else value).expand(shape))


def setitem(self: Tensor, key: Any, value: Any) -> None:
    """``x[key] = value``: for a key of ints and slices, PyTorch's ``x[key].copy_(value)`` (in place on a view of
    x, recorded as CopySlices), otherwise ``index_put_`` (IndexPutBackward0). In forward mode the written elements
    take the value's tangent (0 if it has none), the others keep theirs."""
    value = _as_tensor(value)
    nkey = tuple(_to_numpy_key(k) for k in key) if isinstance(key, tuple) else _to_numpy_key(key)
    level = GradMode.dual
    if level is None:
        return _write(self, key, nkey, value)
    _check_dual_view(self, (value,))
    old, new = tangent(self), tangent(value)
    GradMode.dual = None  # (the write itself computes no tangents: they are set here, below)
    try:
        _write(self, key, nkey, value)
    finally:
        GradMode.dual = level
    if old is not None or new is not None:
        t = np.array(old._array) if old is not None else np.zeros_like(self._array, dtype=new._array.dtype)
        t[nkey] = 0 if new is None else new._array
        self._fw = (level, wrap(t))
    return None


def _write(self: Tensor, key: Any, nkey: Any, value: Tensor) -> None:
    """``setitem`` without forward mode: recorded as PyTorch records it, or a plain write into the storage."""
    recording = GradMode.enabled and (self._requires_grad or value._requires_grad)
    if recording and _is_basic_key(nkey):
        _copy_to(self[key], value)
        return
    if not _is_basic_key(nkey) and any(stride == 0 for stride in self._array.strides):
        warnings.warn("Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before "
                      "performing this operation. This also applies to advanced indexing e.g. tensor[indices] = "
                      "tensor", UserWarning, stacklevel=3)
    if recording:
        views.check_inplace(self)
        inplace(self, lambda s, v: IndexPut.apply(s, v, nkey), value, overlap_ok=True)
        return
    _check_inference(self)
    try:
        if _is_basic_key(nkey):
            _refuse_overlap(self._array[nkey])
        _writable(self._array)[nkey] = value._array
    except ValueError as e:
        setitem_refusal(self._array[nkey], value._array)
        raise RuntimeError(str(e)) from None
    except IndexError as e:
        raise IndexError(index_message(str(e), self._array.shape, nkey)) from None
    self._version_counter[0] += 1
