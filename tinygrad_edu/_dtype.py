"""Data types: thin, PyTorch-named wrappers around numpy dtypes.

``tinygrad_edu.float32`` prints as ``tinygrad_edu.float32`` the way ``torch.float32`` prints as
``torch.float32``. Each one knows its numpy dtype, so converting is a dictionary lookup.
"""

from __future__ import annotations

import numpy as np


class dtype:  # noqa: N801  (PyTorch's class is lower-case too: torch.dtype)
    """A tensor element type, e.g. ``tinygrad_edu.float32``."""

    __slots__ = ("is_floating_point", "itemsize", "name", "np")

    def __init__(self, name: str, np_dtype: type) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating_point = self.np.kind == "f"
        self.itemsize = self.np.itemsize

    def __repr__(self) -> str:
        return f"tinygrad_edu.{self.name}"

    def __reduce__(self) -> str:  # pickle by name, so a dtype unpickles as the same object
        return self.name


float16 = half = dtype("float16", np.float16)
float32 = float = dtype("float32", np.float32)
float64 = double = dtype("float64", np.float64)
uint8 = dtype("uint8", np.uint8)
int8 = dtype("int8", np.int8)
int16 = short = dtype("int16", np.int16)
int32 = int = dtype("int32", np.int32)
int64 = long = dtype("int64", np.int64)
bool = dtype("bool", np.bool_)

ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool)
_FROM_NUMPY = {d.np: d for d in ALL}

# The type names PyTorch uses in some error messages ("[torch.FloatTensor [3]]").
LEGACY_NAMES = {
    float16: "HalfTensor", float32: "FloatTensor", float64: "DoubleTensor", uint8: "ByteTensor",
    int8: "CharTensor", int16: "ShortTensor", int32: "IntTensor", int64: "LongTensor", bool: "BoolTensor",
}


def from_numpy(np_dtype: np.dtype) -> dtype:
    """The tinygrad_edu dtype of a numpy dtype; TypeError for types PyTorch has no match for."""
    try:
        return _FROM_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).name}. The only supported types "
            "are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, "
            "uint32, uint16, uint8, and bool."
        ) from None
