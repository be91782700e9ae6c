"""Storages (PyTorch's ``torch.UntypedStorage`` and the deprecated ``TypedStorage``): the block of memory a tensor and
its views read, which ``x.untyped_storage()`` and ``x.storage()`` return. Here a storage is the numpy array at the
root of a tensor's ``.base`` chain, the one that owns the memory; two tensors share memory when their storages have
the same ``data_ptr()``. The classes answer what programs ask a storage (its address, size, elements); the
library does not build tensors from them."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import _dtype
from ._device import device

_WARNED: list[bool] = []  # (PyTorch says once per process that TypedStorage is deprecated)


def root(a: np.ndarray) -> np.ndarray:
    """The array that owns ``a``'s memory (``a`` itself if it owns it)."""
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


class UntypedStorage:
    """A tensor's memory as bytes: ``x.untyped_storage()``. ``data_ptr()`` is where it starts (a view's storage
    starts where its base's does), ``nbytes()`` and ``size()`` its length in bytes."""

    def __init__(self, memory: np.ndarray) -> None:
        self._memory = memory

    def data_ptr(self) -> int:
        return int(self._memory.__array_interface__["data"][0])

    def nbytes(self) -> int:
        return int(self._memory.nbytes)

    def size(self) -> int:
        return self.nbytes()

    __len__ = size

    def element_size(self) -> int:
        return 1

    def tolist(self) -> list[int]:
        return np.ascontiguousarray(self._memory).view(np.uint8).ravel().tolist()

    def is_shared(self) -> bool:
        return False

    @property
    def device(self) -> device:
        return device("cpu")

    def __repr__(self) -> str:
        return _shown(self.tolist(), f"[tinygrad_edu.storage.UntypedStorage(device=cpu) of size {self.size()}]")


class TypedStorage(UntypedStorage):
    """The same memory read as elements of the tensor's dtype: ``x.storage()``, which PyTorch has deprecated."""

    def __init__(self, memory: np.ndarray, dtype: np.dtype) -> None:
        super().__init__(memory)
        self._dtype = dtype

    @property
    def dtype(self) -> Any:
        return _dtype.from_numpy(self._dtype)

    def size(self) -> int:
        return self.nbytes() // self._dtype.itemsize

    __len__ = size

    def element_size(self) -> int:
        return self._dtype.itemsize

    def tolist(self) -> list:
        return np.ascontiguousarray(self._memory).view(np.uint8).view(self._dtype).ravel().tolist()

    def untyped(self) -> UntypedStorage:
        return UntypedStorage(self._memory)

    def __repr__(self) -> str:
        return _shown(self.tolist(), f"[tinygrad_edu.storage.TypedStorage(dtype={self.dtype}, device=cpu) of size "
                                     f"{self.size()}]")


def typed(memory: np.ndarray, dtype: np.dtype) -> TypedStorage:
    """``x.storage()``, with PyTorch's deprecation warning (once)."""
    if not _WARNED:
        _WARNED.append(True)
        warnings.warn("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
                      "only storage class. This should only matter to you if you are using storages directly.  To "
                      "access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()",
                      UserWarning, stacklevel=3)
    return TypedStorage(memory, dtype)


def _shown(values: list, last: str) -> str:
    """PyTorch's storage printing: one element per line, then what it is."""
    return "\n".join([*(f" {v}" for v in values), last])
