"""``Parameter``: a tensor marked as a weight of a model; ``Buffer``, one marked as a module's other state; and
``UninitializedParameter`` and ``UninitializedBuffer``, the weight and state of a lazy module (``nn.LazyLinear``,
``nn.LazyBatchNorm1d``) before its first input tells it their shape. (PyTorch keeps them in ``torch.nn.parameter``,
and prints their class from there.)"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _device, _meta
from .._tensor import Tensor, _init, _wrap


class Parameter(Tensor):
    """A tensor that is a weight of a Module; it requires grad unless told otherwise.

    ``Parameter(data)`` shares ``data``'s memory (no copy) and is always a leaf, even if ``data`` was
    computed: it starts a new history, the way ``data.detach()`` does.
    """

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            data = _wrap(np.empty(0, dtype=np.float32))
        # (the layers make their weights with numpy directly: inside ``with torch.device("meta")`` they are meta)
        meta = _device.Default.meta and not _meta.is_meta(data._array)
        _init(self, _meta.empty(data._array.shape, data._array.dtype) if meta else data._array, requires_grad)
        self._version_counter = data._version_counter  # same storage, so in-place changes count for both

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol: int) -> Any:  # pickle (torch.save-like) keeps the class
        return (Parameter, (_wrap(self._array), self._requires_grad))


class _BufferMeta(type):
    """``isinstance(t, nn.Buffer)``: a tensor marked by ``nn.Buffer(...)`` (it stays a plain Tensor)."""

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, Tensor) and getattr(obj, "_is_buffer", False)


class Buffer(Tensor, metaclass=_BufferMeta):
    """``self.running_mean = nn.Buffer(torch.zeros(3))``: a tensor marked as a module's state, so that assigning it
    to a module registers it as a buffer (``register_buffer`` without the call). ``persistent=False`` keeps it out of
    ``state_dict``. What you get back is a plain tensor (detached from any graph) carrying the mark."""

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Tensor:  # type: ignore[misc]
        t = (data if data is not None else _wrap(np.zeros(0, np.float32))).detach()
        t.requires_grad_(data is not None and data.requires_grad)
        t.persistent, t._is_buffer = persistent, True
        return t


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet: a lazy module's (``nn.LazyLinear(10).weight``), until the module's
    first input, or ``load_state_dict``, gives it one. It prints ``<UninitializedParameter>`` and has no shape;
    ``materialize(shape)`` gives it memory and makes it a ``Parameter`` (the same object, so whoever holds it, an
    optimizer made before, sees the new values)."""

    cls_to_become = Parameter

    def __init__(self, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(_wrap(np.empty(0, dtype=np.dtype(dtype) if dtype is not None else np.float32)),
                         requires_grad)

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    @property
    def shape(self) -> Any:
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
            "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
            "`forward` to initialize the parameters before accessing their attributes.")

    def detach(self) -> UninitializedParameter:  # (what ``state_dict()`` holds for it)
        return UninitializedParameter(False, dtype=self._array.dtype)

    def materialize(self, shape: tuple[int, ...], device: Any = None, dtype: Any = None) -> None:
        """Give the parameter ``shape`` (its values uninitialised, as ``torch.empty``'s) and make it a Parameter."""
        self._array = np.empty(tuple(shape), self._array.dtype if dtype is None else np.dtype(dtype))
        self.__class__ = self.cls_to_become


class UninitializedBuffer(Tensor):
    """A buffer whose shape is not known yet: a lazy module's state (``nn.LazyBatchNorm1d().running_mean``) until its
    first input. As :class:`UninitializedParameter`: printed ``<UninitializedBuffer>``, no shape, and
    ``materialize(shape)`` makes it a plain tensor (the same object)."""

    def __init__(self, requires_grad: bool = False, device: Any = None, dtype: Any = None) -> None:
        _init(self, np.empty(0, dtype=np.dtype(dtype) if dtype is not None else np.float32), requires_grad)

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"

    shape = UninitializedParameter.shape
    materialize = UninitializedParameter.materialize
    cls_to_become = Tensor
