"""The forwards of some entries of the derivative table, on numpy arrays, where PyTorch's rules differ from numpy's
(beside the core: read last, or never): which dtype a result has, what integers do, which inputs are refused.

``core/derivatives.py`` names them in its entries (``derivative("DivBackward0", A.true_divide, ...)``): what the
op computes is the numpy function; these add the corner cases.
"""

from __future__ import annotations

import os

import numpy as np

from . import _messages as M


def true_divide(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    """``x / y``: integers divide into PyTorch's default float type, float32 (numpy would give float64)."""
    if self.dtype.kind != "f":
        self, other = self.astype(np.float32), other.astype(np.float32)
    return self / other


def negative(self: np.ndarray) -> np.ndarray:
    if self.dtype == np.bool_:
        raise RuntimeError(M.NEGATION_OF_BOOL)
    return -self


def power_scalar(self: np.ndarray, exponent: float) -> np.ndarray:
    """``x ** p`` for a number p: an integer tensor to a float power is float32; to a negative int power, refused.

    For floats, PyTorch's kernel computes the common powers without calling ``pow``, and so does this: ``x * x * x``
    for 3, ``1 / (x * x)`` for -2, ``sqrt`` for 0.5 and ``1 / sqrt`` for -0.5 (2 and -1 are numpy's own fast paths,
    the same ``x * x`` and ``1 / x``). The results are the same numbers up to rounding, but ``pow`` rounds once where
    these round two or three times: in float32 a third of the cubes differ in the last bit, so a tutorial's loss
    (``a + b x + c x^2 + d x^3``) would print other digits than PyTorch's."""
    if self.dtype.kind != "f":
        if isinstance(exponent, float) or exponent < 0:
            if exponent < 0 and not isinstance(exponent, float):
                raise RuntimeError("Integers to negative integer powers are not allowed.")
            return np.power(self.astype(np.float32), exponent)
        return np.power(self, exponent)
    if exponent == 3:
        return self * self * self
    if exponent == -2:
        return self.dtype.type(1) / (self * self)
    if exponent == 0.5:
        return np.sqrt(self)
    if exponent == -0.5:
        return self.dtype.type(1) / np.sqrt(self)
    return np.power(self, exponent)


def power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """``base ** exponent``. numpy refuses negative integer powers of integers; PyTorch gives the integer part of
    the true power: 1 for a base of 1, +-1 for -1, and 0 otherwise."""
    if exponent.dtype.kind == "f" or base.dtype.kind == "f" or not np.any(exponent < 0):
        return np.power(base, exponent)
    base, exponent = np.broadcast_arrays(base, exponent)
    out = np.power(base, np.maximum(exponent, 0))
    negative = exponent < 0
    out[negative] = np.where(base == 1, 1, np.where(base == -1, 1 - 2 * (exponent % 2), 0))[negative]
    return out


def clamp(self: np.ndarray, min: float | None, max: float | None) -> np.ndarray:
    if min is None and max is None:
        raise RuntimeError("tinygrad_edu.clamp: At least one of 'min' or 'max' must not be None")
    if self.dtype.kind != "f" and (isinstance(min, float) or isinstance(max, float)):
        self = self.astype(np.float32)  # float bounds make an int tensor's result float32 (PyTorch's promotion)
    return np.clip(self, min, max).astype(self.dtype, copy=False)


def outside(a: np.ndarray, lo: float | None, hi: float | None) -> np.ndarray:
    """Where ``a`` is below ``lo`` or above ``hi`` (either may be None: no bound)."""
    keep = np.ones(a.shape, dtype=bool)
    if lo is not None:
        keep &= a >= lo
    if hi is not None:
        keep &= a <= hi
    return ~keep


def masked_fill(self: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """0 where ``mask`` holds (it may broadcast against self), ``self`` elsewhere."""
    return np.where(mask if mask.shape == self.shape else np.broadcast_to(mask, self.shape), self.dtype.type(0), self)


def relu(self: np.ndarray, fast: bool = False) -> np.ndarray:
    """max(x, 0), in x's dtype. speed (``fast``): against an array of zeros rather than the number 0, which numpy
    broadcasts through a slower loop (a third of the time on a (64, 128) batch); the same bits, signed zeros and nan
    included, on every SIMD target numpy dispatches to. (Floats in a row-major array only: the result's layout is
    then the same, and other dtypes keep numpy's own casting rules.)"""
    if fast and self.dtype.kind == "f" and self.ndim and self.flags.c_contiguous:
        return np.maximum(self, np.zeros(self.shape, self.dtype))
    return np.maximum(self, 0, dtype=self.dtype)


def threshold_backward(grad_output: np.ndarray, self: np.ndarray, threshold: float, bits: bool = False) -> np.ndarray:
    """relu's backward: ``grad_output`` where ``self > threshold``, 0 elsewhere (PyTorch's test, ``self <=
    threshold``, lets the gradient pass at a nan). speed (``bits``): the same numbers, as grad_output's bits and-ed
    with all ones where it passes, all zeros (+0.) elsewhere: twice as fast as np.where."""
    as_int = _SAME_SIZE_INT.get(grad_output.dtype) if bits and self.shape == grad_output.shape else None
    if as_int is None:
        return np.where(self <= threshold, grad_output.dtype.type(0), grad_output)
    keep = np.subtract(self <= threshold, 1, dtype=as_int)  # (False - 1 = -1: all bits set)
    return np.bitwise_and(grad_output.view(as_int), keep).view(grad_output.dtype)


_SAME_SIZE_INT = {np.dtype(np.float16): np.int16, np.dtype(np.float32): np.int32, np.dtype(np.float64): np.int64}



# -- sums in PyTorch's order ----------------------------------------------------------------------------------------
# Floating-point addition is not associative: the same numbers added in another order can differ in the last bit,
# and a printed loss or a "tensor([1.0000, 1.0000])" shows it. numpy adds along the fastest axis pairwise in blocks
# of 8 and along any other axis one number after another; PyTorch's CPU kernel (``cascade_sum``) has its own
# order, the same on every x86 CPU it dispatches to (measured: AVX512, AVX2 and its portable build). ``ordered_sum``
# adds in that order with numpy operations, for float32 and float64:
#
# * a run of numbers is summed as a *cascade*: in blocks of 16 (more for runs past a million), the block sums in
#   blocks of 16, and so on, four levels, so that only numbers of a similar size meet;
# * a *row* (numbers along one axis, for one result) is split in four interleaved runs (elements 0, 4, 8 ...;
#   1, 5, 9 ...) each cascaded, the leftover elements added to the first, then the four added in order;
# * numbers contiguous in memory are loaded 32 bytes at a time (8 float32s, 4 float64s): a row of at least that
#   many is summed as a row of such vectors, lane by lane, and the lanes are added last, after the leftovers;
# * a reduction over an axis that is not the fastest in memory sums a column per result: columns in groups of four
#   (of 32 vectors' lanes when there are at least 8) as plain cascades, the remaining columns as rows.
#
# Where PyTorch's order depends on how many threads it runs, numpy's order stays (the same numbers up to the last
# bit): a sum of ``GRAIN`` numbers or more into one result is split between threads. (A reduction into several
# results is split between threads by whole results, 128 bytes of columns at a time, which keeps the order.) Arrays
# not laid out row-major keep numpy's order too.
_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}  # numbers in one 32-byte vector
GRAIN = 32768  # PyTorch's grain size: smaller reductions run on one thread
IN_PYTORCH_ORDER = [True]  # off inside a kernel PyTorch leaves to another library (oneDNN's LSTM: nn/rnn.py)


def sum_dtype(a: np.ndarray) -> np.dtype:
    """PyTorch sums integers and bools as int64, floats in their own dtype."""
    return np.dtype(np.int64) if a.dtype.kind in "biu" else a.dtype


def ordered_sum(a: np.ndarray, dim: tuple[int, ...] | None = None, keepdim: bool = False) -> np.ndarray:
    """``a.sum(dim)`` (dims counted from 0, sorted), float numbers added in PyTorch's order (see above)."""
    lanes = _LANES.get(a.dtype) if IN_PYTORCH_ORDER[0] else None
    if lanes is None or type(a) is not np.ndarray or not a.flags.c_contiguous or not a.size or (
            dim and len(set(dim)) < len(dim)):  # (numpy's refusal of a dim given twice; PyTorch's message follows)
        return np.asanyarray(a.sum(dim, sum_dtype(a), None, keepdim))
    if dim is None or len(dim) == a.ndim:  # (the usual case, straight: a loss) everything into one number
        if a.size >= GRAIN:  # (shared between threads: numpy's order)
            return np.asanyarray(a.sum(dim, a.dtype, None, keepdim))
        return np.asarray(_flat(a.reshape(-1), lanes)).reshape((1,) * a.ndim if keepdim else ())
    if a.ndim == 2 and len(dim) == 1 and a.shape[0] > 1 and a.shape[1] > 1:  # (the usual case,
        if dim[0] == 0:  # straight) a bias's gradient: columns
            return _columns(a, lanes).reshape((1, -1) if keepdim else -1)
        return _vector_rows(np.ascontiguousarray(a.T), lanes).reshape((-1, 1) if keepdim else -1)  # rows
    dims = range(a.ndim) if dim is None else dim
    shape = tuple(1 if d in dims else n for d, n in enumerate(a.shape) if keepdim or d not in dims)
    if all(n == 1 or d in dims for d, n in enumerate(a.shape)):  # into one number: a contiguous row
        if a.size >= GRAIN:  # (shared between threads: numpy's order)
            return np.asarray(a.sum(dim, a.dtype, None, keepdim))
        return _flat(a.reshape(-1), lanes).reshape(shape)
    groups: list[list] = []  # neighbouring axes both reduced or both kept act as one (size-1 axes do not count)
    for d, n in enumerate(a.shape):
        if n > 1 and groups and groups[-1][1] == (d in dims):
            groups[-1][0] *= n
        elif n > 1:
            groups.append([n, d in dims])
    reduced = [g for g, (_, r) in enumerate(groups) if r]
    if not reduced:  # only axes of size 1
        return a.reshape(shape).copy()
    inner = reduced[-1]  # the reduced axis fastest in memory: the kernel's rows or columns
    x = a.reshape([n for n, _ in groups])
    x = x.transpose(inner, *(g for g in range(len(groups)) if g != inner)) if inner else x
    rest = x.shape[1:]
    x = x.reshape(x.shape[0], -1)
    if inner == len(groups) - 1:  # rows, each contiguous
        y = _vector_rows(np.ascontiguousarray(x), lanes)
    elif len(reduced) > 1:  # rows, strided
        y = _row(x)
    else:  # columns: the kept numbers are contiguous
        y = _columns(x.reshape(x.shape[0], -1, rest[-1]), lanes)
    y = y.reshape(rest)
    if len(reduced) > 1:  # each row's sum goes into its result in memory order
        others = [g if g < inner else g - 1 for g in reduced[:-1]]
        y = np.moveaxis(y, others, range(len(others)))
        y = _in_order(y.reshape(-1, *y.shape[len(others):]))
    return y.reshape(shape)


def _flat(a: np.ndarray, lanes: int) -> np.ndarray:
    """``_vector_rows`` of one contiguous row, in fewer numpy calls (a loss's sum, a mean): the four interleaved
    runs of vectors as one array of 4 * ``lanes`` columns, then the runs and leftover vectors, then the lanes."""
    v = a.shape[0] // lanes
    if v < 4:
        return _vector_rows(a.reshape(-1, 1), lanes).reshape(())
    q = v // 4
    runs = _cascade(a[:4 * q * lanes].reshape(q, 4 * lanes)).reshape(4, lanes)
    total = np.add.reduce(np.concatenate([runs[:1], a[4 * q * lanes:v * lanes].reshape(-1, lanes), runs[1:]]))
    return np.add.accumulate(np.concatenate([a[v * lanes:], total]))[-1]  # the leftover numbers from 0, the lanes


def _in_order(x: np.ndarray) -> np.ndarray:
    """0 + x[0] + x[1] + ..., one number at a time down each column. numpy's ``add.reduce`` does that along any axis
    but the fastest in memory (np.sum's notes: there it sums pairwise); on one column ``add.accumulate`` does."""
    if x.size == x.shape[0] and x.shape[0] > 2:
        return np.add.accumulate(x).take(-1, 0)
    return np.add.reduce(x)


def _cascade(x: np.ndarray) -> np.ndarray:
    """Each column of x (axis 0 runs down a column; at least two columns) summed in PyTorch's cascade: blocks of
    ``step`` in order, their sums in blocks of ``step`` ... four levels; what is left over at each level goes to that
    level's total, and the totals are added lowest level first."""
    n = x.shape[0]
    step = 16 if n <= 1 << 19 else 1 << ((n - 1).bit_length() // 4)  # (more than 16 only past half a million)
    total = None
    for _ in range(3):
        full = x.shape[0] // step
        if x.shape[0] > full * step:  # (adding a level's total of nothing, 0, changes nothing: skipped)
            left = np.add.reduce(x[full * step:])
            total = left if total is None else total + left
        if not full:
            return total
        x = np.add.reduce(x[:full * step].reshape(full, step, *x.shape[1:]), 1)
    top = np.add.reduce(x)
    return top if total is None else total + top


def _row(x: np.ndarray) -> np.ndarray:
    """Each column of x summed as PyTorch sums a row: four interleaved cascades, the leftovers added to the first,
    then the four added in order."""
    q = x.shape[0] // 4
    if not q:
        return _in_order(x)
    parts = _cascade(x[:4 * q].reshape(q, 4, *x.shape[1:]))
    total = parts[0]
    for leftover in x[4 * q:]:
        total = total + leftover
    return total + parts[1] + parts[2] + parts[3]


def _columns(x: np.ndarray, lanes: int) -> np.ndarray:
    """Each column of x (down axis 0; the last axis contiguous) summed as PyTorch sums columns: in groups of 4
    vectors of ``lanes`` (or, with fewer columns than ``lanes``, of 4 columns) as cascades, the rest as rows."""
    cols = x.shape[-1]
    cut = 4 * lanes * (cols // (4 * lanes)) if cols >= lanes else 4 * (cols // 4)
    if cut == cols:
        return _cascade(x)
    return _row(x) if not cut else np.concatenate([_cascade(x[..., :cut]), _row(x[..., cut:])], axis=-1)


def _vector_rows(x: np.ndarray, lanes: int) -> np.ndarray:
    """Each column of x, whose numbers were contiguous in the array it came from, summed as PyTorch sums contiguous
    numbers: as a row of vectors of ``lanes`` numbers (lane by lane), then the leftover numbers from 0, then the
    lanes, in order."""
    v = x.shape[0] // lanes
    if not v:
        return _row(x)
    per_lane = _row(x[:v * lanes].reshape(v, lanes, *x.shape[1:]))
    return _in_order(np.concatenate([x[v * lanes:], per_lane]))


def sample_sum(v: np.ndarray) -> np.ndarray | None:
    """The sum of one term per sample as PyTorch's ``nll_loss`` adds it (and its weights' sum): the terms after the
    first as a cascade, then the first (it went to the top level of PyTorch's running sums). None where that order
    is not known here: a float type other than float32 and float64, or 65,536 terms or more."""
    if v.ndim != 1 or v.dtype not in _LANES or not 1 <= v.shape[0] < 65536 or not IN_PYTORCH_ORDER[0]:
        return None
    rest, total = v[1:], None
    while True:  # _cascade's order on one column: add.accumulate adds in order (add.reduce would add pairwise)
        full = rest.shape[0] // 16
        if rest.shape[0] > full * 16:  # (fewer than 65,536 terms: blocks of 16 at every level)
            left = np.add.accumulate(rest[full * 16:])[-1]
            total = left if total is None else total + left
        if not full:
            return v[0] if total is None else total + v[0]
        rest = np.add.accumulate(rest[:full * 16].reshape(full, 16), 1)[:, -1]


def _vector_bytes() -> int:
    """How wide PyTorch's CPU vectors are on this machine, for its kernels compiled per instruction set (softmax's):
    64 bytes where it dispatches to AVX512 (the CPU has AVX512 VL, BW and DQ and FMA, as PyTorch checks), else 32.
    ``ATEN_CPU_CAPABILITY`` chooses, as it does for PyTorch."""
    chosen = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
    if chosen in ("default", "avx2", "avx512"):
        return 64 if chosen == "avx512" else 32
    try:
        with open("/proc/cpuinfo") as info:
            flags = next((line.split(":", 1)[1].split() for line in info if line.startswith("flags")), [])
    except OSError:
        return 32
    return 64 if {"avx512vl", "avx512bw", "avx512dq", "fma"} <= set(flags) else 32


VECTOR_BYTES = _vector_bytes()


def short_rows(a: np.ndarray) -> bool:
    """Whether PyTorch's vectorised kernels add each of a's rows (its last axis) one number after another: rows
    shorter than one vector, of float32 or float64 (``vector_row_sums``). numpy's ``add.reduce`` adds so down each
    column: such rows can be computed as the columns of ``a.T``, which numpy also reduces several times faster."""
    return a.dtype in _LANES and IN_PYTORCH_ORDER[0] and 0 < a.shape[-1] < VECTOR_BYTES // a.dtype.itemsize


def vector_row_sums(e: np.ndarray) -> np.ndarray | None:
    """The sums of e's rows (its last axis) as PyTorch's vectorised kernels reduce a row (``softmax``,
    ``log_softmax``): one vector of numbers added to the next, the leftover numbers into the first lanes, then the
    lanes in halves (lane i plus lane i + half, ...); a row shorter than a vector, one number after another. None for
    a dtype other than float32 and float64."""
    if e.dtype not in _LANES or not IN_PYTORCH_ORDER[0] or not e.size:
        return None
    lanes, c = VECTOR_BYTES // e.dtype.itemsize, e.shape[-1]
    if short_rows(e):  # (the rows as columns, added down: in order, and quicker than add.accumulate along short rows)
        return np.add.reduce(np.ascontiguousarray(e.reshape(-1, c).T), 0).reshape(e.shape[:-1])
    full = c // lanes
    acc = np.add.reduce(e[..., :full * lanes].reshape(*e.shape[:-1], full, lanes), axis=-2)  # (down: in order)
    if c > full * lanes:
        acc[..., :c - full * lanes] += e[..., full * lanes:]
    while acc.shape[-1] > 1:
        half = acc.shape[-1] // 2
        acc = acc[..., :half] + acc[..., half:]
    return acc[..., 0]
