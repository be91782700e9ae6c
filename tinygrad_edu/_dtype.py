"""Data types: thin, PyTorch-named wrappers around numpy dtypes.

``tinygrad_edu.float32`` prints as ``tinygrad_edu.float32`` the way ``torch.float32`` prints as
``torch.float32``. Each one knows its numpy dtype, so converting is a dictionary lookup.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from . import _device


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

# How PyTorch's C++ core spells element types in some messages ("float != double"), by numpy dtype.
CPP_NAMES = {np.dtype(np.float16): "c10::Half", np.dtype(np.float32): "float", np.dtype(np.float64): "double",
             np.dtype(np.uint8): "unsigned char", np.dtype(np.int8): "signed char", np.dtype(np.int16): "short int",
             np.dtype(np.int32): "int", np.dtype(np.int64): "long int", np.dtype(np.bool_): "bool"}


# tinygrad_edu's own words (PyTorch has complex numbers): where a complex tensor would be made
NO_COMPLEX = ("tinygrad_edu has no complex dtypes (the course's derivatives are real): {} would be a complex tensor in "
              "PyTorch. Use real numbers here, or PyTorch itself for complex autograd.")


def from_numpy(np_dtype: np.dtype) -> dtype:
    """The tinygrad_edu dtype of a numpy dtype; TypeError for types PyTorch has no match for."""
    try:
        return _FROM_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        if np.dtype(np_dtype).kind == "c":
            raise TypeError(NO_COMPLEX.format(f"an array of numpy.{np.dtype(np_dtype).name}")) from None
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).name}. The only supported types "
            "are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, "
            "uint32, uint16, uint8, and bool."
        ) from None


# ------------------------------------------------------------------------------------------------ promotion
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2}  # bool < integers < floats


def kind_rank(np_dtype: np.dtype) -> int:
    return _KIND_RANK[np.dtype(np_dtype).kind]


def promote_types(a: np.dtype, b: np.dtype) -> np.dtype:
    """PyTorch's promotion of two dtypes: the higher kind wins outright (int64 and float32 give float32, where
    numpy would say float64); within a kind, the wider type (uint8 and int8 give int16)."""
    a, b = np.dtype(a), np.dtype(b)
    ra, rb = _KIND_RANK[a.kind], _KIND_RANK[b.kind]
    if ra != rb:
        return a if ra > rb else b
    return np.promote_types(a, b)


def result_type(*arrays: np.ndarray) -> np.dtype:
    """The dtype of an operation on tensors holding these arrays, as PyTorch decides it.

    Tensors with dimensions come first: a 0-d tensor only matters if it is of a higher kind. So a float32
    tensor plus a 0-d float64 tensor is float32, but an int64 tensor plus a 0-d float64 tensor is float64.
    (Python numbers arrive here as 0-d arrays already given the dtype they take, see ``core.tensor._as_tensor``.)
    """
    dims = [a.dtype for a in arrays if a.ndim]
    zero_d = [a.dtype for a in arrays if not a.ndim]
    result = zero = None
    for d in dims:
        result = d if result is None else promote_types(result, d)
    for d in zero_d:
        zero = d if zero is None else promote_types(zero, d)
    if result is None:
        return zero
    if zero is not None and _KIND_RANK[zero.kind] > _KIND_RANK[result.kind]:
        return zero
    return result


def wrapped_number_dtype(value: object) -> np.dtype:
    """The dtype PyTorch gives a Python number it wraps into a tensor for an operation (``x * 2`` saves
    ``tensor(2)``): bool, int64 or float64, the number's own type at full width."""
    # (builtins.: this module's own ``bool`` and ``int`` are the dtypes)
    return np.dtype(np.bool_ if isinstance(value, (builtins.bool, np.bool_)) else np.int64
                    if isinstance(value, (builtins.int, np.integer)) else np.float64)


def wrapped_result_type(tensor_dtype: np.dtype, number_dtype: np.dtype) -> np.dtype:
    """The dtype of an operation on a tensor and a wrapped Python number: the tensor's, unless the number is
    of a higher kind, and then that kind's default (float32 for a float, int64 for an int), never its width:
    ``float32_tensor * 2.5`` is float32 although the wrapped 2.5 is float64."""
    if _KIND_RANK[number_dtype.kind] <= _KIND_RANK[tensor_dtype.kind]:
        return tensor_dtype
    return np.dtype(np.float32 if number_dtype.kind == "f" else np.int64)


def number_dtype(value: object, other: np.dtype, powers: builtins.bool = False) -> np.dtype:
    """The dtype a Python number takes in an operation with a tensor of dtype ``other``: other's own, unless
    the number is of a higher kind (a float next to an int tensor gives float32, PyTorch's default float).
    ``powers``: ``c ** y`` (a bool cannot hold powers: ``2 ** bool`` is int64)."""
    # (builtins.: this module's own ``bool`` and ``int`` are the dtypes)
    own = np.dtype(np.bool_ if isinstance(value, (builtins.bool, np.bool_)) else np.int64
                   if isinstance(value, (builtins.int, np.integer)) else np.float32)
    result = other if _KIND_RANK[own.kind] <= _KIND_RANK[np.dtype(other).kind] else own
    return np.dtype(np.int64) if powers and result.kind == "b" else result


def requested(args: tuple, wanted: Any, tensor: type) -> np.dtype | None:
    """The numpy dtype ``x.to(*args, dtype=wanted)`` asks for: a dtype, or another tensor's; and no device but the
    CPU (an error otherwise)."""
    for a in args:
        if isinstance(a, (dtype, np.dtype)):  # (np.dtype: what the library's own code passes)
            wanted = a
        elif isinstance(a, tensor):
            wanted = a.dtype
        elif isinstance(a, (str, _device.device)) and str(a) != "cpu":
            _device.known_type(kind := str(a).partition(":")[0])  # (x.to("float"): no device, and no dtype either)
            _device.refuse(kind, f"tinygrad_edu runs on the CPU only; cannot move a tensor to '{a}'")
    return None if wanted is None else wanted.np if isinstance(wanted, dtype) else np.dtype(wanted)


def binary_result_type(x: Any, y: Any) -> np.dtype:
    """The dtype a binary op computes in, for two tensors of different dtypes (``int64 * float32`` is float32).
    A Python number arrives as a *wrapped number* (``x * 2``: a 0-d tensor), whose type matters only if it is of
    a higher kind."""
    a, b = x._array.dtype, y._array.dtype
    if y._wrapped_number:
        return wrapped_result_type(a, b)
    if x._wrapped_number:
        return wrapped_result_type(b, a)
    return result_type(x._array, y._array)


def promoted(x: Any, y: Any, refusal: Any = None) -> list[np.ndarray]:
    """Two tensors' arrays in the dtype PyTorch computes them in together (``binary_result_type``). With a bool,
    the op's ``refusal`` is asked first: numpy computes ``bool - 1``, PyTorch refuses it."""
    if refusal is not None and np.bool_ in (x._array.dtype, y._array.dtype):
        refusal(x, y)
    dt = binary_result_type(x, y)
    return [x._array.astype(dt, copy=False), y._array.astype(dt, copy=False)]


def floating(a: np.ndarray) -> np.ndarray:
    """Integer inputs to exp, log, sqrt ... give float32 results, as in PyTorch."""
    return a if a.dtype.kind == "f" else a.astype(np.float32)


# ------------------------------------------------------------------------------------------------ finfo, iinfo
class finfo:  # noqa: N801  (PyTorch's name: torch.finfo)
    """What a floating-point type can hold: ``eps`` (the gap between 1 and the next number up, 2**-23 for float32),
    ``max``/``min`` (the largest finite numbers), ``tiny`` = ``smallest_normal`` (the smallest positive number with
    full precision), ``resolution`` (10**-digits, the decimal precision), ``bits``. ``finfo()`` describes the default
    float type, float32. Code uses it to keep clear of overflow (``x.clamp(min=finfo(x.dtype).tiny)``)."""

    def __init__(self, type: dtype | None = None) -> None:
        type = float32 if type is None else type
        if not isinstance(type, dtype):
            raise TypeError(f"finfo(): argument 'type' (position 1) must be tinygrad_edu.dtype, not "
                            f"{builtins.type(type).__name__}")
        if not type.is_floating_point:
            raise TypeError("tinygrad_edu.finfo() requires a floating point input type. Use tinygrad_edu.iinfo to "
                            "handle 'tinygrad_edu.finfo'")
        info = np.finfo(type.np)
        self.bits, self.dtype = info.bits, type.name
        self.eps, self.max, self.min = builtins.float(info.eps), builtins.float(info.max), builtins.float(info.min)
        self.tiny = self.smallest_normal = builtins.float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision  # (exactly 1e-06, not float16's 0.001 rounded)

    def __eq__(self, other: object) -> builtins.bool:
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self) -> builtins.int:
        return hash(self.dtype)

    def __repr__(self) -> str:  # (six significant digits, as C's %g)
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:  # noqa: N801  (PyTorch's name: torch.iinfo)
    """The range of an integer type: ``min`` and ``max`` (-2**31 and 2**31 - 1 for int32), ``bits``. Bools are not
    integers here, as in PyTorch."""

    def __init__(self, type: dtype) -> None:
        if not isinstance(type, dtype):
            raise TypeError(f"iinfo(): argument 'type' (position 1) must be tinygrad_edu.dtype, not "
                            f"{builtins.type(type).__name__}")
        if type.np.kind == "b":
            raise TypeError("tinygrad_edu.bool is not supported by tinygrad_edu.iinfo")
        if type.np.kind not in "iu":
            raise TypeError("tinygrad_edu.iinfo() requires an integer input type. Use tinygrad_edu.finfo to "
                            "handle 'tinygrad_edu.iinfo'")
        info = np.iinfo(type.np)
        self.bits, self.dtype = info.bits, type.name
        self.min, self.max = builtins.int(info.min), builtins.int(info.max)

    def __eq__(self, other: object) -> builtins.bool:
        return isinstance(other, iinfo) and other.dtype == self.dtype

    def __hash__(self) -> builtins.int:
        return hash(self.dtype)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
