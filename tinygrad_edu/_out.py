"""``out=``: a function form's result written into a tensor the caller gives, as PyTorch's ``torch.exp(x, out=y)``."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from . import _dtype
from .core.grad_mode import GradMode
from .core.tensor import Tensor

# Function forms PyTorch gives no ``out=`` (views, copies, the in-place ``x_`` forms ...): it refuses the keyword.
NO_OUT = {"t", "clone", "detach", "reshape", "transpose", "permute", "squeeze", "unsqueeze", "flatten", "relu", "equal",
          "allclose"}


def write_out(name: str, compute: Callable[[], Tensor], arguments: list, out: Tensor, stacklevel: int = 3) -> Tensor:
    """Compute, then copy the result into ``out`` (resized if its shape differs, as PyTorch does, with its warning)
    and return ``out``. Nothing is recorded: PyTorch refuses ``out=`` when an argument requires grad."""
    if name.endswith("_") or name in NO_OUT:
        raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
    if GradMode.enabled and any(isinstance(t, Tensor) and t._requires_grad for t in (*arguments, out)):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, but "
                           "one of the arguments requires grad.")
    result = compute()._array
    if not np.can_cast(result.dtype, out._array.dtype, "same_kind"):
        names = [_dtype.LEGACY_NAMES[_dtype.from_numpy(a.dtype)].removesuffix("Tensor") for a in (result, out._array)]
        raise RuntimeError(f"result type {names[0]} can't be cast to the desired output type {names[1]}")
    if out._array.shape != result.shape:  # resized (PyTorch warns when it had elements)
        if out._array.size:
            warnings.warn(f"An output with one or more elements was resized since it had shape "
                          f"{list(out._array.shape)}, which does not match the required output shape "
                          f"{list(result.shape)}. This behavior is deprecated, and in a future PyTorch release "
                          "outputs will not be resized unless they have zero elements. You can explicitly reuse "
                          "an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
                          UserWarning, stacklevel=stacklevel)  # (at the caller)
        out._array = np.empty(result.shape, dtype=out._array.dtype)
    np.copyto(out._array, result, casting="unsafe")
    out._version_counter[0] += 1
    return out


def with_out(self: Tensor, name: str, args: tuple, kwargs: dict, out: Tensor) -> Tensor:
    """``Tensor._with_out``: ``tinygrad_edu.<name>(self, *args, out=out)``, for the core's function forms."""
    return write_out(name, lambda: getattr(self, name)(*args, **kwargs), [self, *args, *kwargs.values()], out, 4)
