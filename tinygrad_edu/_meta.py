"""The ``meta`` device: tensors with a shape, a dtype and autograd's fields, but no numbers.

PyTorch's meta tensors let code build a model without memory for its weights (``with torch.device('meta'):
model = Net()``, then ``load_state_dict(sd, assign=True)``), or keep a model only as the *structure* that
``torch.func.functional_call`` runs with other parameters (the model-ensembling tutorial). What an op on them gives
is only the result's shape and dtype, and its ``grad_fn``.

How this library does it, without one extra check in the ops or the engine. A meta tensor's ``_array`` is still a
numpy array, of zeros allocated lazily (``np.zeros`` asks the system for zeroed pages, which cost no memory until
written), and marked twice:

* its class is ``MetaArray``, a subclass of ``numpy.ndarray``: numpy hands every ufunc, reduction and ``matmul``
  computed from it to ``MetaArray.__array_ufunc__``, which marks the result (a full reduction's number too), and
  ``np.asanyarray`` (what the core wraps a result with) keeps the class, so a chain of ops stays meta, gradients
  included;
* its dtype carries numpy's ``metadata`` (``{"device": "meta"}``), which survives a plain view of the array. A dtype
  with metadata equals, and hashes as, the plain dtype, so every dtype test and lookup of the library reads it as it
  is.

``is_meta(array)`` asks for either mark; the ``device`` of a tensor, its printing and its conversions ask it.

What differs from PyTorch. An op computes, on zeros: a meta model costs the time of a real one, never the memory of
its weights. PyTorch refuses an op mixing a meta and a CPU tensor ("Tensor on device cpu is not on the expected
device meta!"); here the result is meta (the library's own constants, masks and zeros are CPU arrays, so a mixed op
cannot be told from an ordinary one). ``nonzero``, ``unique`` and boolean masks, which PyTorch refuses on meta
tensors (their size depends on the numbers), give results here. Random fills (``uniform_``, ``normal_``, the
``nn.init`` functions built on them) draw nothing for a meta tensor, so the numbers drawn after it are PyTorch's.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

MARK = {"device": "meta"}  # the dtype metadata of a meta array


class MetaArray(np.ndarray):
    """The numbers of a meta tensor: zeros nobody may read, in a class numpy passes on to what it computes.

    ``__array_ufunc__`` and ``__array_function__`` see every numpy operation that takes one, and make sure the
    result is meta too, also where numpy would give a plain number (a full reduction) or a plain array
    (``np.broadcast_to``)."""

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        plain = [i.view(np.ndarray) if isinstance(i, MetaArray) else i for i in inputs]
        if "out" in kwargs:  # (in place, as PyTorch's ``add_``: into the caller's arrays, which keep their class)
            given = kwargs["out"]
            kwargs["out"] = tuple(o.view(np.ndarray) if isinstance(o, MetaArray) else o for o in given)
            getattr(ufunc, method)(*plain, **kwargs)
            return given[0] if len(given) == 1 else given  # (``out += b`` rebinds out to this: the caller's own)
        result = getattr(ufunc, method)(*plain, **kwargs)
        return tuple(map(mark, result)) if isinstance(result, tuple) else mark(result)

    def __array_function__(self, func: Any, types: tuple, args: tuple, kwargs: dict) -> Any:
        result = super().__array_function__(func, tuple(t for t in types if t is not MetaArray) or (np.ndarray,),
                                            args, kwargs)
        if isinstance(result, (tuple, list)):
            return type(result)(mark(r) if isinstance(r, (np.ndarray, np.generic)) else r for r in result)
        return mark(result) if isinstance(result, (np.ndarray, np.generic)) else result

    def astype(self, dtype: Any, *args: Any, **kwargs: Any) -> MetaArray:  # (a new dtype: marked again)
        return mark(np.ndarray.astype(self, dtype, *args, **kwargs))

    def item(self, *args: Any) -> Any:
        """What reads a number refuses (``float(x)`` and friends reach here through numpy)."""
        raise RuntimeError("Tensor.item() cannot be called on meta tensors")

    def tolist(self) -> Any:
        raise NotImplementedError(NO_DATA)


NO_DATA = "Cannot copy out of meta tensor; no data!"  # (PyTorch's words, for tolist(), cpu(), to("cpu"))
NO_NUMPY = ("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory "
            "first.")


@functools.cache
def marked(dtype: np.dtype) -> np.dtype:
    """``dtype`` with the meta mark (one object per dtype)."""
    return np.dtype(dtype, metadata=MARK)


def mark(array: Any) -> MetaArray:
    """``array`` (or a numpy number) as a meta array: the same memory, seen as a ``MetaArray`` of a marked dtype."""
    array = np.asarray(array)
    return array.view(marked(array.dtype), MetaArray)


def empty(shape: tuple[int, ...], dtype: Any) -> MetaArray:
    """A fresh meta array: zeros that take no memory until written (which nothing does on purpose)."""
    return np.zeros(shape, marked(np.dtype(dtype))).view(MetaArray)


def plain(dtype: np.dtype) -> np.dtype:
    """``dtype`` without the meta mark: for an array made like a meta one but on the CPU (``m.new_ones(2, device=
    "cpu")``)."""
    return np.dtype(dtype.str) if dtype.metadata is not None else dtype


def is_meta(array: np.ndarray) -> bool:
    """Whether ``array`` is a meta tensor's: of the class, or (a plain view of one, or a result computed from one) of
    a marked dtype. (A CPU array's dtype has no metadata: one attribute read answers for it.)"""
    return type(array) is MetaArray or (array.dtype.metadata is not None and array.dtype.metadata == MARK)
