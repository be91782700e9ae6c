"""Making tensors: ``tensor(data)`` and the factories (``ones``, ``randn``, ``arange`` ...).

Dtype rules, as in PyTorch: Python floats give float32 (the default float type), Python ints give
int64, bools give bool; a numpy array keeps its dtype. Random numbers come from a generator that draws them as
PyTorch's does, number for number (``_generator.py``): after ``manual_seed(0)``, ``randn(3)`` is PyTorch's.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import _dtype, _meta
from . import _messages as M
from ._device import Default, wants_meta
from ._generator import Generator
from .core.function import Function
from .core.function import wrap as _wrap
from .core.grad_mode import GradMode
from .core.tensor import Tensor

default_generator = Generator()  # the one manual_seed seeds (PyTorch's default CPU generator)


def manual_seed(seed: int) -> Generator:
    """Seed the random numbers: after ``manual_seed(0)`` every run draws the same values."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The random numbers' state (a uint8 tensor): ``set_rng_state`` of it draws the same numbers again."""
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


_MISSING: Any = object()  # an argument PyTorch requires, left out (its own message, not Python's)


def _np_dtype(dtype: Any, default: Any = np.float32) -> np.dtype:
    if dtype is None:
        return np.dtype(default)
    return dtype.np if isinstance(dtype, _dtype.dtype) else np.dtype(dtype)


def _finish(array: np.ndarray, requires_grad: bool, name: str = "tensor", meta: bool | None = None) -> Tensor:
    """``array`` as a new leaf; ``name``: the factory, as its refusal of ``requires_grad`` names it. ``meta``: on
    the meta device, only array's shape and dtype are kept (None: as the default device says)."""
    if requires_grad is not False and (requires_grad is not True or array.dtype.kind not in "fc"):
        _refuse_requires_grad(requires_grad, name)
    # (one line, the meta device's only cost on the path of every tensor(): the default device's flag, read once)
    t = _wrap(_meta.empty(array.shape, array.dtype) if (Default.meta if meta is None else meta) else array)
    t._requires_grad = requires_grad
    return t


def _refuse_requires_grad(requires_grad: Any, name: str) -> None:
    if not isinstance(requires_grad, bool):  # (PyTorch's argument parser: a flag must be a bool, not 1 or None)
        raise TypeError(f"{name}(): argument 'requires_grad' must be bool, not {M.typename(requires_grad)}")
    # the factories' message (requires_grad_() words it otherwise)
    raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def _size(size: Sequence[Any], name: str = "tensor") -> tuple[int, ...]:
    """Accept ``ones(2, 3)``, ``ones((2, 3))`` and ``ones(x.size())`` (and a 0-d integer tensor as a number).
    ``name``: the factory, as PyTorch's argument parser names it when it refuses the size."""
    if len(size) == 1 and not isinstance(size[0], (tuple, list)):
        if not _is_int(size[0]) or isinstance(size[0], bool):
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
                            f"{M.typename(size[0])}")
    elif len(size) == 1:
        size = size[0]
    for i, s in enumerate(size):
        if not _is_int(s) or (i == 0 and isinstance(s, bool)):  # (PyTorch takes a bool after the first size)
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, but found element of "
                            f"type {M.typename(s)} at pos 0" if i == 0 else f"{name}(): argument 'size' failed to "
                            f"unpack the object at pos {i + 1} with error \"type must be tuple of ints,but got "
                            f"{M.typename(s)}\"")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    return tuple(int(s) for s in size)


def _is_int(s: Any) -> bool:
    """A size PyTorch accepts: an int (numpy's too), or an integer tensor of one element."""
    return isinstance(s, (int, np.integer)) or (isinstance(s, Tensor) and s._array.dtype.kind in "iu" and
                                                s._array.size == 1)


def _check_rectangular(data: Any) -> None:
    """Nested lists make a tensor only if they form a grid. The expected lengths come from the first element
    at each depth (``[[1, 2], [3]]``: 2 rows of 2); report the first list that differs, in PyTorch's words."""
    sizes = []
    first = data
    while isinstance(first, (list, tuple)):
        sizes.append(len(first))
        first = first[0] if first else None

    def check(item: Any, dim: int) -> None:
        if dim == len(sizes):  # a number is expected here
            if isinstance(item, (list, tuple)):
                raise TypeError(f"'{type(item).__name__}' object cannot be interpreted as an integer"
                                if isinstance(first, (int, np.integer)) else
                                f"must be real number, not {type(item).__name__}")
            return
        if not isinstance(item, (list, tuple)):
            raise TypeError("not a sequence")
        if len(item) != sizes[dim]:
            raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(item)})")
        for sub in item:
            check(sub, dim + 1)

    check(data, 0)


def tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    """Copy ``data`` (a number, nested lists, a numpy array or a tensor) into a new leaf tensor."""
    if dtype is None and device is None and _python_numbers(data):  # the usual case: Python floats are float32
        array = _grid(data)  # (PyTorch's default float type; numpy says float64), ints int64, bools bool
        return _finish(array.astype(np.float32) if array.dtype == np.float64 else array, requires_grad)
    return _finish(_array(data, dtype), requires_grad, meta=wants_meta(device))


def _python_numbers(data: Any) -> bool:
    """Whether ``data`` is a Python number, or (nested) lists of them."""
    return type(data) in (float, int, bool) or (type(data) in (list, tuple) and all(map(_python_numbers, data)))


def _grid(data: Any, values: Any = None) -> np.ndarray:
    """Nested lists as an array, if they form a grid of numbers numpy can hold (with PyTorch's messages if not).
    (``values``: the same lists with their tensors unwrapped, when there are some.)"""
    try:
        array = np.array(data if values is None else values)
    except ValueError as e:
        _check_rectangular(data)  # says where the nested lists stop being a grid, as PyTorch does
        raise ValueError(f"expected sequence of equal lengths: {e}") from None
    if array.dtype.kind not in "biuf":
        if array.dtype.kind == "c":
            raise TypeError(M.NO_COMPLEX.format(f"tensor({data!r})"))
        _refuse_data(data)
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    return array


def _refuse_data(data: Any) -> None:
    """Why ``data`` makes no tensor, as PyTorch finds out: the shape from the first element at each depth (a
    string there is a sequence that never ends), then the dtype from every element."""
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    first = data
    while isinstance(first, (list, tuple, str)) and first:
        if isinstance(first, str):
            raise ValueError("too many dimensions 'str'")
        first = first[0]

    def infer(item: Any) -> None:
        if isinstance(item, str):
            raise TypeError("new(): invalid data type 'str'")
        if isinstance(item, (list, tuple)):
            for sub in item:
                infer(sub)
        elif not isinstance(item, (bool, int, float, complex, np.generic, np.ndarray, Tensor)):
            raise RuntimeError(f"Could not infer dtype of {M.typename(item)}")

    infer(data)


def _array(data: Any, dtype: Any) -> np.ndarray:
    """``tensor(data)``'s array in general: a numpy array keeps its dtype, tensors and numpy scalars in lists keep
    theirs, a dtype may be given."""
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=3)
    if isinstance(data, np.ndarray):
        array = np.array(data, dtype=_np_dtype(dtype, data.dtype))
        _dtype.from_numpy(array.dtype)  # rejects types PyTorch has no match for
        return array
    array = _grid(data, _unwrap(data))
    return array.astype(_np_dtype(dtype) if dtype is not None else _inferred_dtype(data), copy=False)


_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2}
_PYTHON_TYPES = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float32)}


def _inferred_dtype(data: Any) -> np.dtype:
    """The dtype PyTorch gives ``tensor(data)``.

    Python bools, ints and floats are bool, int64 and float32 (the default float type); numpy scalars,
    arrays and tensors keep their own dtype (``tensor(np.float64(1.5))`` is float64). The elements of a
    list promote: the higher kind wins (bool < int < float) and, within a kind, the wider type.
    """
    if isinstance(data, Tensor):
        return data._array.dtype
    if isinstance(data, (np.ndarray, np.generic)):
        return data.dtype
    if isinstance(data, (list, tuple)):
        types = {type(item) for item in data}
        if types <= _PYTHON_TYPES.keys():  # the common case, decided without visiting every element
            return max((_PYTHON_TYPES[t] for t in types), key=lambda d: _KIND_RANK[d.kind], default=np.float32)
        result = None
        for item in data:
            d = _inferred_dtype(item)
            if result is None or _KIND_RANK[d.kind] > _KIND_RANK[result.kind]:
                result = d
            elif _KIND_RANK[d.kind] == _KIND_RANK[result.kind]:
                result = np.promote_types(result, d)
        return np.dtype(np.float32) if result is None else result
    return _PYTHON_TYPES.get(type(data), np.dtype(np.float32) if isinstance(data, float) else np.dtype(np.int64))


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    meta = wants_meta(device)
    if isinstance(data, Tensor) and (dtype is None or data.dtype is dtype) and meta == _meta.is_meta(data._array):
        return data
    if isinstance(data, np.ndarray) and dtype is None and not meta:
        return from_numpy(data)
    return tensor(data, dtype=dtype, device="meta" if meta else "cpu")


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``array`` (changes to one show in the other)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {M.typename(array)})")
    _dtype.from_numpy(array.dtype)
    return _wrap(array)


def _needs_size(name: str, size: tuple) -> None:
    """``ones()`` with no size at all is an error (``ones(())`` is the 0-d tensor)."""
    if not size:
        raise TypeError(f'{name}() missing 1 required positional arguments: "size"')



def _with_out(factory: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``out=``: the factory's numbers written into a tensor the caller gives (``torch.rand(2, 2, out=c)``), drawn
    in its dtype and resized to the shape asked for; another ``dtype=`` is refused, as PyTorch refuses it."""

    @functools.wraps(factory)
    def made(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Tensor:
        if out is None:
            return factory(*args, **kwargs)
        asked = kwargs.get("dtype")
        if asked is not None and _dtype.from_numpy(_np_dtype(asked)) != out.dtype:
            names = [_dtype.LEGACY_NAMES[d].removesuffix("Tensor") for d in (_dtype.from_numpy(_np_dtype(asked)),
                                                                              out.dtype)]
            raise RuntimeError(f"dtype {names[0]} does not match dtype of out parameter ({names[1]})")
        if out.requires_grad and GradMode.enabled:
            raise RuntimeError(f"aten::{factory.__name__}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        result = factory(*args, **{**kwargs, "dtype": out.dtype})._array
        if out._array.shape == result.shape:
            np.copyto(out._array, result)  # (in place: views of out see the new numbers)
        else:
            out._array = result
        out._version_counter[0] += 1
        return out

    return made

@_with_out
def zeros(*size: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    meta = wants_meta(device)
    _needs_size("zeros", size)
    return _finish(np.zeros(_size(size, "zeros"), _np_dtype(dtype)), requires_grad, "zeros", meta)


@_with_out
def ones(*size: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    meta = wants_meta(device)
    _needs_size("ones", size)
    return _finish(np.ones(_size(size, "ones"), _np_dtype(dtype)), requires_grad, "ones", meta)


@_with_out
def empty(*size: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    """A tensor whose values are "uninitialised": PyTorch leaves whatever was in memory (fast, when every
    element is about to be written); here they are zeros, but code must not rely on that."""
    meta = wants_meta(device)
    _needs_size("empty", size)
    return _finish(np.zeros(_size(size, "empty"), _np_dtype(dtype)), requires_grad, "empty", meta)


@_with_out
def full(size: Sequence[int], fill_value: Any = _MISSING, dtype: Any = None, requires_grad: bool = False,
         device: Any = None) -> Tensor:
    meta = wants_meta(device)
    if fill_value is _MISSING:
        raise TypeError('full() missing 1 required positional arguments: "fill_value"')
    if dtype is None:  # PyTorch infers the dtype from the fill value
        dtype = np.bool_ if isinstance(fill_value, bool) else np.int64 if isinstance(fill_value, int) else np.float32
    if not isinstance(size, (tuple, list)):  # (full((2, 3), 0.5): the size is one argument, a tuple)
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {M.typename(size)}")
    return _finish(np.full(_size(tuple(size), "full"), fill_value, _np_dtype(dtype)), requires_grad, "full", meta)


def _like(t: Tensor, dtype: Any) -> np.dtype:
    return _meta.plain(t._array.dtype) if dtype is None else _np_dtype(dtype)


def _beside(t: Tensor, device: Any) -> Any:
    """The device of a tensor made like ``t`` (``zeros_like(t)``, ``t.new_zeros(2)``): t's own, unless given."""
    return device if device is not None else "meta" if _meta.is_meta(t._array) else "cpu"


def zeros_like(input: Tensor, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    meta = wants_meta(_beside(input, device))
    return _finish(np.zeros(input._array.shape, _like(input, dtype)), requires_grad, "zeros_like", meta)


def ones_like(input: Tensor, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    meta = wants_meta(_beside(input, device))
    return _finish(np.ones(input._array.shape, _like(input, dtype)), requires_grad, "ones_like", meta)


def full_like(input: Tensor, fill_value: Any, dtype: Any = None, requires_grad: bool = False,
              device: Any = None) -> Tensor:
    meta = wants_meta(_beside(input, device))
    return _finish(np.full(input._array.shape, fill_value, _like(input, dtype)), requires_grad, "full_like", meta)


def rand_like(input: Tensor, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    return rand(*input._array.shape, dtype=dtype or input.dtype, requires_grad=requires_grad,
                 device=_beside(input, device))


def randn_like(input: Tensor, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    return randn(*input._array.shape, dtype=dtype or input.dtype, requires_grad=requires_grad,
                 device=_beside(input, device))


@_with_out
def eye(n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    meta = wants_meta(device)
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    return _finish(np.eye(n, m, dtype=_np_dtype(dtype)), requires_grad, meta=meta)


@_with_out
def arange(start: float, end: float | None = None, step: float = 1, dtype: Any = None,
           requires_grad: bool = False, device: Any = None) -> Tensor:
    """``arange(5)`` -> 0..4 (int64); with any float argument the result is float32."""
    meta = wants_meta(device)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        ints = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = np.int64 if ints else np.float32
    n = max(int(np.ceil((end - start) / step)), 0)  # computed in double, as PyTorch does, then cast
    return _finish(_range_values(start, step, n, _np_dtype(dtype)), requires_grad, meta=meta)


def _range_values(start: float, step: float, n: int, out: np.dtype) -> np.ndarray:
    """``start + step * i`` for i < n, to the last bit as PyTorch's CPU kernel computes it for floats, which shows
    (``arange(-8.0, 8.0, 0.1)[80]`` is 4.4409e-16 there, not 0). The kernel fills a 256-bit vector at a time
    (8 float32 or 4 float64): the vector's first value is ``start + step * i`` in double precision with one
    rounding (a fused multiply-add), rounded to the output type, and the others add ``j * step`` to it, again
    fused; vectors go two at a time, and the last elements, fewer than two vectors, are each ``start + step * i``
    fused. A fused multiply-add is done here in the wider long double of x86 (where long double is just double,
    the last bit may differ)."""
    i = np.arange(n)
    if out not in _WIDER:  # integers (exact anyway) and the rarer floats
        return (start + step * i.astype(np.float64)).astype(out)
    wide, lanes = np.longdouble, 32 // out.itemsize
    lane = i % lanes
    first = (wide(start) + wide(step) * (i - lane)).astype(np.float64).astype(out).astype(np.float64)
    in_vector = (wide(first) + wide(step) * lane).astype(np.float64)
    alone = (wide(start) + wide(step) * i).astype(np.float64)
    return np.where(i < n - n % (2 * lanes), in_vector, alone).astype(out)


@_with_out
def linspace(start: float, end: float, steps: int = _MISSING, dtype: Any = None,  # type: ignore[assignment]
             requires_grad: bool = False, device: Any = None) -> Tensor:
    """``steps`` evenly spaced numbers from ``start`` to ``end``, both ends included.

    PyTorch's recipe, followed to the last bit: with ``step = (end - start) / (steps - 1)`` computed in the
    output's precision, element i is ``start + step * i`` in the first half and ``end - step * (steps - 1 - i)``
    in the second (so both ends are exact), each a fused multiply-add: rounded once, not after the product and
    again after the sum. Doing the multiply-add in a wider type and rounding once gives the same bits.
    (``np.linspace`` rounds differently in the last bit, and a function like ``sin`` near pi magnifies that.)
    """
    meta = wants_meta(device)
    if not isinstance(steps, (int, np.integer)):  # (numpy's default of 50 steps is not PyTorch's: none)
        raise TypeError(M.invalid_combination("linspace", (start, end) if steps is _MISSING else (start, end, steps),
                                              M.LINSPACE_SIGNATURES))
    out = _np_dtype(dtype)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if steps < 2 or not (out in _WIDER or out.kind == "i"):  # one point, or a rarer dtype: numpy's values
        return _finish(np.linspace(start, end, steps, dtype=np.float64).astype(out), requires_grad, meta=meta)
    first, last = out.type(start), out.type(end)  # an integer dtype truncates the ends first, as PyTorch does
    if out.kind == "f":
        step, wide = (last - first) / out.type(steps - 1), _WIDER[out]
    else:  # integers step in double precision, and each value is truncated toward zero
        step, wide = (float(last) - float(first)) / (steps - 1), np.float64
    i = np.arange(steps)
    from_start = wide(first) + wide(step) * i
    from_end = wide(last) - wide(step) * (steps - 1 - i)
    return _finish(np.where(i < steps // 2, from_start, from_end).astype(out), requires_grad, meta=meta)


# A type wide enough to hold step * i exactly, so the multiply-add is rounded once (for float64 that needs the
# 80-bit long double of x86; where long double is just float64, the last bit may differ from PyTorch's).
_WIDER = {np.dtype(np.float32): np.float64, np.dtype(np.float64): np.longdouble}


@_with_out
def rand(*sizes: Any, size: Sequence[int] | None = None, generator: Generator | None = None, dtype: Any = None,
         requires_grad: bool = False, device: Any = None) -> Tensor:
    """Uniform random numbers in [0, 1). (The shape as ``rand(2, 3)``, ``rand((2, 3))`` or ``rand(size=(2, 3))``.)"""
    shape, meta = _size(sizes if size is None else (size,), "rand"), wants_meta(device)
    return _finish(_meta.empty(shape, _np_dtype(dtype)) if meta else
                   (generator or default_generator).uniform(shape, _np_dtype(dtype)), requires_grad, "rand", meta)


@_with_out
def randn(*sizes: Any, size: Sequence[int] | None = None, generator: Generator | None = None, dtype: Any = None,
          requires_grad: bool = False, device: Any = None) -> Tensor:
    """Standard normal random numbers (mean 0, standard deviation 1); the shape given as for :func:`rand`."""
    shape, meta = _size(sizes if size is None else (size,), "randn"), wants_meta(device)
    return _finish(_meta.empty(shape, _np_dtype(dtype)) if meta else
                   (generator or default_generator).normal(shape, _np_dtype(dtype)), requires_grad, "randn", meta)


@_with_out
def randint(low: int, high: Any = None, size: Sequence[int] = (), generator: Generator | None = None,
            dtype: Any = None, device: Any = None) -> Tensor:
    """Random integers in [low, high): ``randint(low, high, size)``, or ``randint(high, size)`` from 0."""
    meta = wants_meta(device)
    if isinstance(high, (tuple, list)):  # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    shape, dt = _size(tuple(size), "randint"), _np_dtype(dtype, np.int64)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    return _finish(_meta.empty(shape, dt) if meta else (generator or default_generator).integers(low, high, shape, dt),
                   False, meta=meta)


def randint_like(input: Tensor, low: int, high: int | None = None, *, dtype: Any = None, requires_grad: bool = False,
                 device: Any = None) -> Tensor:
    """Random integers in [low, high) (``randint_like(x, high)``: from 0) in a tensor of input's shape and dtype."""
    out = randint(low, high, input._array.shape, dtype=dtype or input.dtype, device=_beside(input, device))
    return out.requires_grad_() if requires_grad else out


def normal(mean: Any, std: Any = 1.0, size: Sequence[int] | None = None, *, generator: Generator | None = None,
           dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    """Normal random numbers of mean ``mean`` and standard deviation ``std``: numbers with a ``size``, or tensors
    (one draw per element, their shapes broadcast). With tensors that require grad, ``mean + std * noise``: the
    gradient reaches mean (1) and std (the noise)."""
    meta = wants_meta(device)
    gen = generator or default_generator
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments: give a size with number mean and "
                            "std, or a tensor mean or std")
        shape = _size(tuple(size))
        return _finish(_meta.empty(shape, _np_dtype(dtype)) if meta else gen.normal(shape, _np_dtype(dtype), mean, std),
                       requires_grad, meta=meta)
    shape = np.broadcast_shapes(*[t._array.shape for t in (mean, std) if isinstance(t, Tensor)])
    like = mean if isinstance(mean, Tensor) else std
    noise = gen.normal(shape, like._array.dtype)  # (as PyTorch: standard normals, then * std + mean)
    return _NORMAL[isinstance(mean, Tensor), isinstance(std, Tensor)].apply(mean, std, noise)


class _Normal(Function):
    """``normal(mean, std)`` with tensors: ``mean + std * noise``; PyTorch gives mean and std no gradient (zeros)."""

    node_name = "NormalBackward1"  # (mean a tensor, std a number)

    @staticmethod
    def forward(ctx: Any, mean: Any, std: Any, noise: np.ndarray) -> np.ndarray:
        values = [v._array if isinstance(v, Tensor) else v for v in (mean, std)]
        ctx.shapes = [v.shape if isinstance(v, np.ndarray) else None for v in values]
        return (values[0] + values[1] * noise).astype(noise.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return (*[None if s is None else _wrap(np.zeros(s, grad._array.dtype)) for s in ctx.shapes], None)


class _NormalStd(_Normal):
    node_name = "NormalBackward2"  # (mean a number, std a tensor)


class _NormalBoth(_Normal):
    node_name = "NormalBackward3"


_NORMAL = {(True, False): _Normal, (False, True): _NormalStd, (True, True): _NormalBoth}


@_with_out
def randperm(n: int, generator: Generator | None = None, dtype: Any = None, device: Any = None) -> Tensor:
    meta, dt = wants_meta(device), _np_dtype(dtype, np.int64)
    return _finish(_meta.empty((n,), dt) if meta else (generator or default_generator).permutation(n).astype(dt), False,
                   meta=meta)


class Poisson(Function):
    """``poisson(rates)``: one Poisson draw per rate (``Generator.poisson``), in the rates' dtype. A draw does not
    move smoothly with its rate, so PyTorch defines the derivative as 0: the node is there (PoissonBackward0), and
    gives zeros."""

    node_name = "PoissonBackward0"

    @staticmethod
    def forward(ctx: Any, rates: Tensor, generator: Generator) -> np.ndarray:
        a = rates._array
        if a.dtype.kind != "f":
            raise NotImplementedError(f'"poisson_cpu" not implemented for '
                                      f"'{_dtype.LEGACY_NAMES[rates.dtype].removesuffix('Tensor')}'")
        if not (a >= 0).all():  # (nan too)
            raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
        return generator.poisson(a)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return _wrap(np.zeros_like(g._array)), None


def poisson(input: Tensor, generator: Generator | None = None) -> Tensor:
    """Counts drawn from Poisson distributions, one per element of ``input`` (the rates, all >= 0): the number of
    events in a unit of time when they happen independently at that average rate. PyTorch's numbers, draw for
    draw."""
    return Poisson.apply(input, generator or default_generator)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Generator | None = None) -> Tensor:
    """``num_samples`` category indices drawn with the probabilities in ``input`` (weights: they need not sum to
    1), per row of a 2-d input; int64. PyTorch's numbers, by PyTorch's two recipes:

    - without replacement (or one sample): each weight divided by an Exponential(1) draw, and the ``num_samples``
      largest taken (the "exponential race": the Gumbel-max trick with exp applied);
    - with replacement: for each sample, a float64 uniform u, and the first category whose cumulative weight (as a
      fraction of the row's total) reaches u.
    """
    a = input._array
    if a.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_dtype.LEGACY_NAMES[input.dtype].removesuffix('Tensor')}")
    if a.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not replacement and num_samples > a.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement or num_samples == 1:  # (the two recipes check in their own words, as PyTorch's do)
        if not np.isfinite(a).all() or (a < 0).any():
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    elif not (a >= 0).all():  # (nan too)
        raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
    elif not np.isfinite(a).all():
        raise RuntimeError("invalid multinomial distribution (encountering probability entry = infinity or NaN)")
    if (a.sum(axis=-1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    gen = generator or default_generator
    if not replacement or num_samples == 1:
        with np.errstate(divide="ignore"):  # (a draw of exactly 0 would make its weight infinite, as in PyTorch)
            race = a / gen.exponential(a.shape, a.dtype)
        # the largest first; of equal values, the first (what PyTorch's topk gives in the cases tried)
        order = np.argsort(-race, axis=-1, kind="stable")
        return _wrap(order[..., :num_samples].astype(np.int64))
    rows = a.reshape(-1, a.shape[-1])
    out = np.empty((rows.shape[0], num_samples), np.int64)
    for i, row in enumerate(rows):
        cumulative = np.cumsum(row, dtype=row.dtype)
        cumulative = cumulative / cumulative[-1]  # (normalised: the last is 1)
        u = gen.uniform((num_samples,), np.float64)
        out[i] = np.searchsorted(cumulative.astype(np.float64), u, side="left")  # the first reaching u
    return _wrap(out.reshape(*a.shape[:-1], num_samples))


def empty_like(input: Tensor, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    """A tensor of input's shape (and dtype) whose values are "uninitialised": PyTorch leaves whatever was in
    memory; here they are zeros, but code must not rely on that (write every element before reading)."""
    return zeros_like(input, dtype, requires_grad, device)


# ``x.new_zeros(2, 3)`` and friends: a new tensor with x's dtype (unless given), no relation to x otherwise.
def new_zeros(self: Tensor, *size: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    return zeros(*size, dtype=_like(self, dtype), requires_grad=requires_grad, device=_beside(self, device))


def new_ones(self: Tensor, *size: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    return ones(*size, dtype=_like(self, dtype), requires_grad=requires_grad, device=_beside(self, device))


def new_empty(self: Tensor, *size: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    """Like :func:`new_zeros`: "uninitialised" values, which here happen to be zeros (do not rely on it)."""
    return zeros(*size, dtype=_like(self, dtype), requires_grad=requires_grad, device=_beside(self, device))


def new_full(self: Tensor, size: Sequence[int], fill_value: Any, dtype: Any = None, requires_grad: bool = False,
             device: Any = None) -> Tensor:
    return full(size, fill_value, dtype=_like(self, dtype), requires_grad=requires_grad, device=_beside(self, device))


def new_tensor(self: Tensor, data: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    """``tensor(data)`` with x's dtype (unless given): ``int_tensor.new_tensor([1.5])`` is ``tensor([1])``."""
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
        data = data._array.copy()
    return tensor(np.asarray(_unwrap(data)) if not isinstance(data, np.ndarray) else data,
                  dtype=_like(self, dtype), requires_grad=requires_grad, device=_beside(self, device))


def _unwrap(data: Any, nested: bool = False) -> Any:
    """Turn nested lists that may contain 0-d/1-element tensors into plain Python/numpy values. (In a list, a
    tensor stands for one number: PyTorch refuses one of several elements.)"""
    if isinstance(data, Tensor):
        if nested and data._array.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return data._array.reshape(()) if nested else data._array
    if isinstance(data, (list, tuple)):
        return [_unwrap(d, True) for d in data]
    return data
