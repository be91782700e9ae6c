"""The Tensor: a numpy array plus the autograd metadata PyTorch keeps for every tensor.

What a tensor carries (PyTorch's ``AutogradMeta``, one attribute each):

============== ===========================================================================
``_array``      the numbers (a ``numpy.ndarray``)
requires_grad   should autograd compute a gradient for it?
grad_fn         the Node that made it (``None`` for leaves: tensors the user created)
_output_nr      which output of ``grad_fn`` it is (0 for single-output ops)
grad            where backward accumulates the gradient (leaves, and tensors that retain_grad())
_version        bumped by every in-place change, so stale saved values are caught
_base           the tensor it is a view of, if any (``is_view``)
============== ===========================================================================

Operators and math methods (``+``, ``exp``, ``sum`` ...) are attached in ``_tensor_ops.py``: this file
knows nothing of individual ops, so the ops can import ``Tensor`` without a cycle.
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _device, _dtype
from ._mode import GradMode
from ._printing import tensor_repr

if TYPE_CHECKING:
    from .autograd.graph import Node


class Size(tuple):
    """The shape of a tensor: a tuple that prints as ``tinygrad_edu.Size([2, 2])``."""

    def __repr__(self) -> str:
        return f"tinygrad_edu.Size({list(self)})"

    __str__ = __repr__

    # Slicing, concatenating and repeating a Size give a Size again (a plain tuple would print differently).
    def __getitem__(self, key: Any) -> Any:
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other: Any) -> Size:
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to tinygrad_edu.Size")
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other: Any) -> Size:
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n: Any) -> Size:
        repeated = tuple.__mul__(self, n)
        return repeated if repeated is NotImplemented else Size(repeated)

    __rmul__ = __mul__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


class RemovableHandle:
    """Returned by ``register_hook``: ``handle.remove()`` unregisters the hook."""

    def __init__(self, hooks: list, hook: Callable) -> None:
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


_NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)  # PyTorch appends where in its C++ source the warning came from; that part is left out.

# How PyTorch's C++ core spells element types in some messages (the grad setter's).
_CPP_TYPE_NAMES = {
    _dtype.float16: "c10::Half", _dtype.float32: "float", _dtype.float64: "double", _dtype.uint8: "unsigned char",
    _dtype.int8: "signed char", _dtype.int16: "short int", _dtype.int32: "int", _dtype.int64: "long int",
    _dtype.bool: "bool",
}

_warned: set[str] = set()


def warn_once(key: str, message: str, stacklevel: int = 3) -> None:
    """Emit a UserWarning the first time only, as PyTorch's ``TORCH_WARN_ONCE`` does (once per process)."""
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, UserWarning, stacklevel=stacklevel)


class Tensor:
    """A multi-dimensional array that can record how it was computed, so gradients can flow back.

    Create tensors with ``tinygrad_edu.tensor(data, requires_grad=...)`` or the factories (``ones``,
    ``randn`` ...). The constructor also works, as in PyTorch: ``Tensor(data)`` copies a list or array
    as float32, ``Tensor(2, 3)`` makes a 2x3 tensor (PyTorch leaves its numbers uninitialised; here
    they are zeros, but don't rely on that), and ``Tensor(t)`` shares ``t``'s storage.
    """

    __slots__ = (
        "__dict__",
        "__weakref__",
        "_accumulator",
        "_array",
        "_base",
        "_grad",
        "_hooks",
        "_output_nr",
        "_requires_grad",
        "_retains_grad",
        "_version_counter",
        "grad_fn",
    )

    # numpy must let our operators win in `ndarray * tensor`, rather than looping over the tensor.
    __array_priority__ = 1000
    _post_accumulate_hooks: list | None = None  # a leaf's register_post_accumulate_grad_hook hooks (rare: no slot)

    # True on the 0-d tensor a Python number becomes in ``x * 2`` (set in ``_tensor_ops._as_tensor``).
    _wrapped_number = False

    def __init__(self, *args: Any) -> None:
        if len(args) == 1 and isinstance(args[0], Tensor):  # an alias: same storage, same version counter
            _init(self, args[0]._array, None, 0, False)
            self._version_counter = args[0]._version_counter
            return
        _init(self, _constructor_array(args), None, 0, False)

    # ----------------------------------------------------------------------------------------- shape & type
    @property
    def shape(self) -> Size:
        return Size(self._array.shape)

    def size(self, dim: int | None = None) -> Size | int:
        return Size(self._array.shape) if dim is None else self._array.shape[dim]

    def dim(self) -> int:
        return self._array.ndim

    ndim = property(dim)

    def numel(self) -> int:
        return self._array.size

    nelement = numel

    def __len__(self) -> int:
        if self._array.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return len(self._array)

    @property
    def dtype(self) -> _dtype.dtype:
        return _dtype.from_numpy(self._array.dtype)

    def is_floating_point(self) -> bool:
        return self._array.dtype.kind == "f"

    @property
    def device(self) -> _device.device:
        """Where the numbers live: always ``device(type='cpu')`` (printed ``cpu``), numpy's main memory."""
        return _device.CPU

    @property
    def is_cpu(self) -> bool:
        return True

    # ----------------------------------------------------------------------------------------- autograd meta
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        # PyTorch's attribute and method word their refusals differently; we keep both texts.
        if not isinstance(value, bool):
            raise RuntimeError("requires_grad must be a bool")
        if self.grad_fn is not None and value:
            raise RuntimeError("you can only change requires_grad flags of leaf variables.")
        if value and self._array.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Turn gradient tracking on or off for a leaf, in place (returns the tensor)."""
        if not isinstance(requires_grad, bool):
            raise TypeError(f"requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                            f"{type(requires_grad).__name__}")
        if self.grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
                )
            return self
        if requires_grad and self._array.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and type(self._version_counter) is InferenceCounter and not GradMode.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        self._requires_grad = bool(requires_grad)
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
            warnings.warn(_NONLEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        """Assigning ``.grad`` by hand: it must be a tensor of this tensor's dtype and shape (or None)."""
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError("assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value._array.dtype != self._array.dtype:  # PyTorch names the types the way C++ spells them
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_CPP_TYPE_NAMES[value.dtype]}' to a tensor with "
                    f"grad_dtype '{_dtype.LEGACY_NAMES[self.dtype].removesuffix('Tensor')}'. The gradient must match "
                    "the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
                    "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. "
                    "Diverging the dtypes of a tensor and its gradient may break downstream systems that assume "
                    "they match."
                )
            if value._array.shape != self._array.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._array.shape)}' to a tensor of size "
                    f"'{list(self._array.shape)}'. Please ensure that the gradient and the tensor are the same size"
                )
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    @property
    def _version(self) -> int:
        """How many in-place changes this tensor's storage has seen (shared with its views and detach())."""
        if type(self._version_counter) is InferenceCounter:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._version_counter[0]

    def is_inference(self) -> bool:
        """Whether this tensor was made inside ``inference_mode()`` (or is a view of one that was)."""
        return type(self._version_counter) is InferenceCounter

    def _bump_version(self) -> None:
        self._version_counter[0] += 1

    def _is_view(self) -> bool:
        """Whether this tensor is a view sharing another's storage (``_base``), as PyTorch's ``_is_view()``."""
        return self._base is not None

    @property
    def data(self) -> Tensor:
        """The same numbers, detached from the graph. Unlike ``detach()``, in-place changes made through
        ``.data`` are *not* seen by autograd's version check: prefer ``detach()``."""
        return _wrap(self._array)

    @data.setter
    def data(self, value: Tensor) -> None:
        """Swap in other numbers (any shape) while keeping this tensor's identity and autograd flags."""
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {_typename(value)}")
        if self._requires_grad and value._array.dtype.kind not in "fc":
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
        self._array = value._array

    def detach(self) -> Tensor:
        """A new leaf sharing this tensor's storage (and its version counter), with no history."""
        out = _wrap(self._array)
        out._version_counter = self._version_counter
        return out

    def detach_(self) -> Tensor:
        """Detach in place: this tensor becomes a leaf that does not require grad."""
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
                "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
                "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self.grad_fn, self._output_nr, self._requires_grad = None, 0, False
        return self

    def retain_grad(self) -> None:
        """Ask backward to store this non-leaf tensor's gradient in ``.grad`` too."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return  # leaves keep their .grad anyway
        self._retains_grad = True
        ref = weakref.ref(self)  # the graph must not keep the tensor alive (and must not form a cycle)
        self.grad_fn._add_retain_grad(self._output_nr, ref)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces the grad."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:  # a leaf: its AccumulateGrad node reads these before accumulating
            if self._hooks is None:
                self._hooks = []
            self._hooks.append(hook)
            return RemovableHandle(self._hooks, hook)
        return self.grad_fn._add_tensor_pre_hook(self._output_nr, hook)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> RemovableHandle:
        """Call ``hook(tensor)`` on this leaf once backward has accumulated its gradient into ``.grad``: for
        work that needs the finished ``.grad``, such as an optimizer step for this parameter alone. The hook
        returns nothing."""
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = []
        self._post_accumulate_hooks.append(hook)
        return RemovableHandle(self._post_accumulate_hooks, hook)

    def backward(self, gradient: Tensor | None = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Sequence[Tensor] | Tensor | None = None) -> None:
        """Compute the gradient of this tensor with respect to the graph's leaves, into their ``.grad``.

        ``gradient`` is d(something)/d(self): required (same shape as self) unless self is a scalar, in
        which case it is 1. The graph is freed afterwards unless ``retain_graph=True``;
        ``create_graph=True`` records the backward pass itself, for higher-order derivatives.
        """
        from .autograd.engine import backward

        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    # ----------------------------------------------------------------------------------------- conversion
    def item(self) -> int | float | bool:
        if self._array.size != 1:
            raise RuntimeError(f"a Tensor with {self._array.size} elements cannot be converted to Scalar")
        return self._array.item()

    def tolist(self) -> Any:
        return self._array.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The numbers as a numpy array that shares memory with this tensor."""
        if self._requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._array

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return self._array if dtype is None else self._array.astype(dtype)

    def _number(self) -> int | float | bool:
        """The one element, for float(t), int(t) and math functions (PyTorch's error is a ValueError there)."""
        if self._array.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self._array.item()

    def __float__(self) -> float:
        if self._requires_grad:
            warn_once("float", "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                      "behavior.\nConsider using tensor.detach() first.")
        return float(self._number())

    def __int__(self) -> int:
        return int(self._number())

    def __index__(self) -> int:
        if self._array.dtype.kind not in "iub" or self._array.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._array.item())

    def __bool__(self) -> bool:
        if self._array.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._array.item())

    def __iter__(self) -> Iterator[Tensor]:
        """Iterate over the first dimension, so Python's ``sum(tensor)`` adds rows (differentiably)."""
        if self._array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # one UnbindBackward0 node for all the rows, as in PyTorch

    __hash__ = object.__hash__  # by identity, as in PyTorch (== is element-wise, so it cannot be by value)

    def __repr__(self) -> str:
        # The node's class name, as PyTorch prints it: <CopyBackwards>, though name() is its C++ name.
        grad_fn_name = None if self.grad_fn is None else type(self.grad_fn).__name__
        return tensor_repr(self._array, self.dtype, grad_fn_name=grad_fn_name, requires_grad=self._requires_grad)

    def __format__(self, spec: str) -> str:
        """In an f-string (or ``format``) a 0-d tensor is its Python number, as in PyTorch: ``f"{loss}"`` prints
        ``0.2469135820865631``, ``f"{loss:.3f}"`` prints ``0.247``. Other tensors print as ``str(t)``, and a
        format spec for them is an error."""
        if self._array.ndim == 0:
            return self._array.item().__format__(spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol: int) -> Any:
        return (_rebuild, (self._array, self._requires_grad))

    def __deepcopy__(self, memo: dict) -> Tensor:
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment.  If you were attempting to deepcopy a module, this may "
                               "be because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        out = type(self).__new__(type(self))
        _init(out, self._array.copy(), None, 0, self._requires_grad)
        if self._grad is not None:
            out._grad = _wrap(self._grad._array.copy())
        memo[id(self)] = out
        return out


class InferenceCounter(list):
    """The "version counter" of an inference tensor (made in ``inference_mode()``), which PyTorch does not
    track: it marks the tensor, and refuses in-place changes made outside inference mode with PyTorch's error.
    Every in-place op bumps a tensor's counter (``counter[0] += 1``), so this one place catches them all."""

    __slots__ = ()

    def __setitem__(self, index: Any, value: Any) -> None:
        self.check_inplace()

    @staticmethod
    def check_inplace() -> None:
        """Raise PyTorch's error unless in inference mode: called before an in-place op changes anything."""
        if not GradMode.inference:
            raise RuntimeError("Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
                               "a clone to get a normal tensor before doing inplace update.See "
                               "https://github.com/pytorch/rfcs/pull/17 for more details.")


def _init(t: Tensor, array: np.ndarray, grad_fn: Node | None, output_nr: int, requires_grad: bool) -> None:
    if requires_grad and array.dtype.kind not in "fc":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    t._array = array
    t._requires_grad = requires_grad or grad_fn is not None
    t.grad_fn = grad_fn
    t._output_nr = output_nr
    t._grad = None
    t._version_counter = [0] if not GradMode.inference else InferenceCounter((0,))
    t._base = None
    t._retains_grad = False
    t._hooks = None
    t._accumulator = None


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
            return np.array(_unwrap(data), dtype=np.float32)
        raise TypeError(f"new(): data must be a sequence (got {_typename(data)})")
    bad = next(i for i, a in enumerate(args) if not isinstance(a, (int, np.integer)) or isinstance(a, bool))
    raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {bad + 1} with error \"type must be "
                    f"tuple of ints,but got {_typename(args[bad])}\"")


def _typename(value: Any) -> str:
    """A value's type as PyTorch names it in messages: ``float``, ``numpy.float64``."""
    cls = type(value)
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def _wrap(array: np.ndarray, grad_fn: Node | None = None, output_nr: int = 0, cls: type = Tensor) -> Tensor:
    """Make a Tensor around an existing array without copying: the fast path every op uses."""
    t = object.__new__(cls)
    t._array = array
    t._requires_grad = grad_fn is not None
    t.grad_fn = grad_fn
    t._output_nr = output_nr
    t._grad = None
    t._version_counter = [0] if not GradMode.inference else InferenceCounter((0,))
    t._base = None
    t._retains_grad = False
    t._hooks = None
    t._accumulator = None
    return t


def _rebuild(array: np.ndarray, requires_grad: bool) -> Tensor:
    t = _wrap(array)
    t._requires_grad = requires_grad
    return t


def _unwrap(data: Any) -> Any:
    """Turn nested lists that may contain 0-d/1-element tensors into plain Python/numpy values."""
    if isinstance(data, Tensor):
        return data._array
    if isinstance(data, (list, tuple)):
        return [_unwrap(d) for d in data]
    return data
