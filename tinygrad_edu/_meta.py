"""The ``meta`` device: tensors with a shape, a dtype and autograd's fields, but no numbers.

PyTorch's meta tensors let code build a model without memory for its weights (``with torch.device('meta'):
model = Net()``, then ``load_state_dict(sd, assign=True)``), or keep a model only as the *structure* that
``torch.func.functional_call`` runs with other parameters (the model-ensembling tutorial). What an op on them gives
is only the result's shape and dtype, and its ``grad_fn``.

How this library does it, without one extra check in the ops or the engine. A meta tensor's ``_array`` is still a
numpy array, of zeros allocated lazily (``np.zeros`` asks the system for zeroed pages, which cost no memory until
written), and marked twice:

* its class is ``MetaArray``, a subclass of ``numpy.ndarray``: numpy gives the subclass to the results of ufuncs
  (``+``, ``exp``, ``maximum``), reductions, ``matmul``, views and ``astype`` computed from it;
* its dtype carries numpy's ``metadata`` (``{"device": "meta"}``), which survives what strips the subclass: the
  core wraps every op's result as ``np.asarray(result)``, a plain view with the same dtype. A dtype with metadata
  equals, and hashes as, the plain dtype, so every dtype test and lookup of the library reads it as it is.

``is_meta(array)`` asks for either mark; the ``device`` of a tensor, its printing and its conversions ask it.

What is covered, and what is not. The factories (``device="meta"``, ``with torch.device("meta")``,
``set_default_device("meta")``, ``zeros_like``, ``new_zeros``), ``x.to("meta")``, a layer's parameters,
``Module.to("meta")``, ``to_empty``, ``load_state_dict(..., assign=True)`` and ``functional_call`` on a meta model
(the ensembling tutorial: the model's own parameters are never read) are meta exactly as PyTorch's. An op's result
is meta when numpy keeps one of the marks: an op with a meta tensor that a factory made (a parameter, an input) among
its inputs always; an op on results of other ops when numpy keeps the dtype's metadata, which it does for a result
with dimensions computed from one meta array or with the meta array first (``linear``, ``relu``, ``softmax``,
``x * 2``, ``x.sum(1)``, views), but not for a 0-d result computed from the result of another op (numpy makes it a
plain number first: ``(x * 2).sum()`` then prints as a CPU ``tensor(0.)``), nor for ``2 - y``-like forms where the
meta array comes second; gradients follow the same rule. An op also computes, on zeros: a meta model costs the
time of a real one, never the memory of its weights. PyTorch refuses an op mixing a meta and a CPU tensor ("Tensor
on device cpu is not on the expected device meta!"); this library computes it (a meta result, or a CPU one), since
a result that lost its mark could not be told from a CPU tensor; and ``nonzero``, ``unique`` and boolean masks,
which PyTorch refuses on meta tensors (their size depends on the numbers), give results here.
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
            kwargs["out"] = tuple(o.view(np.ndarray) if isinstance(o, MetaArray) else o for o in kwargs["out"])
            getattr(ufunc, method)(*plain, **kwargs)
            return kwargs["out"][0] if len(kwargs["out"]) == 1 else kwargs["out"]
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
