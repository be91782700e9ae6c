"""Random numbers as PyTorch's CPU generator makes them, number for number.

PyTorch draws 32-bit words from a Mersenne Twister (mt19937) seeded with the low 32 bits of the seed, and turns
them into numbers by fixed recipes (``TransformationHelper.h`` and the CPU kernels of ``DistributionTemplates.h``).
Following the same recipes on the same words gives the same numbers: after ``manual_seed(0)``, ``randn(3)`` is
``tensor([ 1.5410, -0.2934, -2.1788])`` here as in PyTorch, and so are ``nn.Linear``'s first weights, a
``randperm``, a dropout mask. (A program that never seeds starts from the seed a new ``torch.Generator()`` has,
so it prints the same numbers on every run; PyTorch seeds its default generator afresh in each process.) The
recipes:

- ``uniform`` (``rand``, ``uniform_``, the ``nn.init`` uniforms): one word per float32 element, its low 24 bits
  (a float32's precision) as a fraction; two words per float64 element (53 bits). Then ``x * (to - from) + from``.
- ``normal`` (``randn``, ``normal_``): for 16 or more elements, uniforms first, then Box-Muller on each block of
  16 (element j and j + 8 from one pair), the last 16 drawn again when the count is not a multiple of 16, each
  step as PyTorch's kernel computes it (in float32, its own polynomial log, sin and cos); for fewer, or a tensor
  not laid out in one block, Box-Muller one pair at a time in float64, whose second value is kept for the next call.
- ``integers`` (``randint``, ``random_``): a word (two, for a range of 2**32 or more) modulo the range.
- ``permutation`` (``randperm``): Fisher-Yates from the front, one word per swap.
- ``bernoulli`` (dropout's mask): a float64 uniform below p; with a tensor of probabilities, a float32 one.
- ``exponential`` (``exponential_``, ``multinomial``): -log1p(-u) / lambda for a float64 uniform u.

The words, their order and the arithmetic are PyTorch's, so the numbers agree to the last bit. (PyTorch on a
processor without AVX2 computes float32 normals with the C library's functions instead, and on some Intel
processors takes dropout's mask from Intel's MKL; there the last bits, or the masks, differ.)
"""

from __future__ import annotations

import math
import secrets
from typing import Any

import numpy as np

from ._device import on_cpu
from ._meta import is_meta
from .core.function import wrap

DEFAULT_SEED = 67280421310721  # PyTorch's default_rng_seed_val, where a new torch.Generator() starts
_DIGITS = {np.dtype(np.float16): 11, np.dtype(np.float32): 24, np.dtype(np.float64): 53}  # bits of precision


def _mt19937_key(seed: int) -> np.ndarray:
    """The Mersenne Twister's 624-word state for ``seed`` (the reference ``init_genrand``, as PyTorch's)."""
    key, x = [0] * 624, seed & 0xFFFFFFFF
    for i in range(624):
        key[i] = x
        x = (1812433253 * (x ^ (x >> 30)) + i + 1) & 0xFFFFFFFF
    return np.array(key, dtype=np.uint32)


class Generator:
    """The source of random numbers: PyTorch's CPU generator, number for number (see the module's docstring)."""

    def __repr__(self) -> str:  # as PyTorch prints its own (``torch.manual_seed(0)`` as a cell's last line shows it)
        return f"<tinygrad_edu._C.Generator object at {id(self):#x}>"

    def __init__(self, device: Any = "cpu") -> None:
        on_cpu(device)
        self.manual_seed(DEFAULT_SEED)

    def manual_seed(self, seed: int) -> Generator:
        seed = int(seed)
        if not -2**63 <= seed < 2**64:  # (PyTorch's seed is a 64-bit integer; a negative one wraps around)
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed % 2**64
        self._mt = np.random.MT19937(0)  # (numpy's Mersenne Twister, given the reference state: the same words)
        self._mt.state = {"bit_generator": "MT19937", "state": {"key": _mt19937_key(self._seed), "pos": 624}}
        self._next_normal: float | None = None  # the second value of the last Box-Muller pair (normal, small)
        return self

    def seed(self) -> int:
        """Seed from the operating system's randomness; returns the seed."""
        s = secrets.randbits(63)
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> Any:
        """The generator's state as a uint8 tensor, for ``set_state`` (its layout is this library's own)."""
        state = self._mt.state["state"]
        words = np.concatenate([state["key"].astype(np.uint64), np.array(
            [state["pos"], self._seed, self._next_normal is not None], dtype=np.uint64)])
        normal = np.array([self._next_normal or 0.0], dtype=np.float64)
        return wrap(np.concatenate([words.view(np.uint8), normal.view(np.uint8)]))

    def set_state(self, new_state: Any) -> Generator:
        raw = np.ascontiguousarray(np.asarray(new_state._array if hasattr(new_state, "_array") else new_state,
                                              dtype=np.uint8))
        if raw.size != 628 * 8:
            raise RuntimeError(f"Expected a state of {628 * 8} bytes (from get_state()), got {raw.size}")
        words, normal = raw[:627 * 8].view(np.uint64), raw[627 * 8:].view(np.float64)[0]
        self._seed = int(words[625])
        self._mt.state = {"bit_generator": "MT19937", "state": {"key": words[:624].astype(np.uint32),
                                                                 "pos": int(words[624])}}
        self._next_normal = float(normal) if words[626] else None
        return self

    # -- words ------------------------------------------------------------------------------------------------------
    def _words(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit words (as uint64)."""
        return self._mt.random_raw(n) if n else np.zeros(0, np.uint64)

    def _words64(self, n: int) -> np.ndarray:
        """The next ``n`` 64-bit words, each made of two 32-bit ones (the first the high half)."""
        w = self._words(2 * n)
        return (w[0::2] << np.uint64(32)) | w[1::2]

    # -- the recipes ------------------------------------------------------------------------------------------------
    def uniform(self, shape: tuple[int, ...], dtype: Any = np.float32, low: float = 0.0,
                high: float = 1.0) -> np.ndarray:
        """Uniform in [low, high), element by element in memory order."""
        dtype = np.dtype(dtype)
        n, digits = math.prod(shape), _DIGITS.get(dtype, 24)
        words = self._words64(n) if digits == 53 else self._words(n)
        x = (words & np.uint64((1 << digits) - 1)).astype(np.float64) * 2.0 ** -digits
        lo, hi = (np.float64(low), np.float64(high)) if digits == 53 else (dtype.type(low), dtype.type(high))
        # `x * (to - from) + from` rounded once, as PyTorch's fused multiply-add: for float32 (`to - from` in float32)
        # float64's product is exact and one rounding to float32 is left; float64 needs the fma itself
        if digits == 53:
            return _fma64(x, float(hi - lo), float(lo)).reshape(shape)
        return (x * np.float64(hi - lo) + np.float64(lo)).astype(dtype).reshape(shape)

    def normal(self, shape: tuple[int, ...], dtype: Any = np.float32, mean: float = 0.0, std: float = 1.0,
               one_block: bool = True) -> np.ndarray:
        """Normal of ``mean`` and ``std``; ``one_block``: the tensor it fills is laid out in one contiguous block."""
        dtype, n = np.dtype(dtype), math.prod(shape)
        if n >= 16 and one_block:
            box_muller = _box_muller_16_float32 if dtype == np.float32 else _box_muller_16
            work = np.float32 if dtype == np.float32 else np.float64
            data = self.uniform((n,), dtype).astype(work)
            full = n - n % 16
            data[:full] = box_muller(data[:full].reshape(-1, 16), mean, std).ravel()
            if n % 16:  # the last 16 again, from new uniforms
                data[n - 16:] = box_muller(self.uniform((1, 16), dtype).astype(work), mean, std).ravel()
            return data.astype(dtype).reshape(shape)
        values = []
        for _ in range(n):  # (one at a time, in float64, with math's functions: the C library's, as PyTorch's)
            if self._next_normal is None:
                u1, u2 = self.uniform((2,), np.float64)
                r, theta = math.sqrt(-2.0 * math.log1p(-u2)), 2.0 * math.pi * u1
                self._next_normal, value = r * math.sin(theta), r * math.cos(theta)
            else:
                value, self._next_normal = self._next_normal, None
            values.append(value * std + mean)
        return np.array(values, dtype=np.float64).astype(dtype).reshape(shape)

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: Any = np.int64) -> np.ndarray:
        """Integers in [low, high): a word modulo the range."""
        span, n = high - low, math.prod(shape)
        words = self._words64(n) if span >= 2**32 else self._words(n)
        return ((words % np.uint64(span)).astype(np.int64) + low).astype(dtype).reshape(shape)

    def random64(self) -> int:
        """A random int64 in [0, 2**63): ``random_()`` on an int64 tensor (how a DataLoader seeds each pass)."""
        return int(self._words64(1)[0] % np.uint64(2**63))

    def exponential(self, shape: tuple[int, ...], dtype: Any = np.float32, lambd: float = 1.0) -> np.ndarray:
        """Exponential with rate ``lambd``: -log(1 - u) / lambd for a float64 uniform u (53 bits), by the C
        library's log1p, then rounded to ``dtype`` (``exponential_``, and the draws behind ``multinomial``)."""
        u = self.uniform((math.prod(shape),), np.float64)
        return (-_libm(math.log1p, -u) / lambd).astype(dtype).reshape(shape)

    def poisson(self, rates: np.ndarray) -> np.ndarray:
        """One Poisson draw per rate, in memory order, by PyTorch's two recipes (numpy's legacy ones), each taking
        float64 uniforms one at a time: for a rate below 10, Knuth's method (multiply uniforms until the product
        falls below e^-rate; the count is the draw); from 10 on, Hörmann's transformed rejection (1993): a candidate
        from a hat function, accepted at once inside a square or after comparing with the Poisson probability."""
        out = np.empty(rates.size, dtype=np.float64)
        for i, rate in enumerate(rates.ravel().tolist()):
            out[i] = self._poisson_rejection(rate) if rate >= 10 else self._poisson_knuth(rate) if rate else 0.0
        return out.astype(rates.dtype).reshape(rates.shape)

    def _uniform01(self) -> float:
        return float(self._words64(1)[0] & np.uint64((1 << 53) - 1)) * 2.0 ** -53

    def _poisson_knuth(self, rate: float) -> int:
        threshold, product, count = math.exp(-rate), 1.0, 0
        while True:
            product *= self._uniform01()
            if product <= threshold:
                return count
            count += 1

    def _poisson_rejection(self, rate: float) -> int:
        b = 0.931 + 2.53 * math.sqrt(rate)  # the hat's shape, from the rate (Hörmann's constants)
        a = -0.059 + 0.02483 * b
        log_inv_alpha, v_r, log_rate = math.log(1.1239 + 1.1328 / (b - 3.4)), 0.9277 - 3.6224 / (b - 2), math.log(rate)
        while True:
            u = self._uniform01() - 0.5
            v = self._uniform01()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + rate + 0.43)
            if us >= 0.07 and v <= v_r:  # inside the square under the density: accepted without a logarithm
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if math.log(v) + log_inv_alpha - math.log(a / (us * us) + b) <= -rate + k * log_rate - math.lgamma(k + 1):
                return k

    def geometric(self, shape: tuple[int, ...], p: float) -> np.ndarray:
        """The number of Bernoulli(p) trials up to the first success (1, 2, ...): ceil(log(u) / log(1 - p)) for a
        float64 uniform u, by the C library's log (the inverse of the distribution's CDF, PyTorch's recipe)."""
        u = self.uniform((math.prod(shape),), np.float64)
        return np.ceil(_libm(math.log, u) / math.log1p(-p)).reshape(shape)

    def cauchy(self, shape: tuple[int, ...], median: float, sigma: float) -> np.ndarray:
        """median + sigma * tan(pi (u - 1/2)) for a float64 uniform u, by the C library's tan (the product and sum
        rounded once, as PyTorch's fused multiply-add)."""
        u = self.uniform((math.prod(shape),), np.float64)
        return _fma64(_libm(math.tan, math.pi * (u - 0.5)), sigma, median).reshape(shape)

    def log_normal(self, shape: tuple[int, ...], mean: float, std: float) -> np.ndarray:
        """e^N for N normal of ``mean`` and ``std``, drawn one at a time in float64 (PyTorch's serial kernel)."""
        return _libm(math.exp, self.normal(shape, np.float64, mean, std, one_block=False))

    def permutation(self, n: int) -> np.ndarray:
        """0 .. n-1 in random order: Fisher-Yates from the front, element i swapped with one of i .. n-1."""
        order = list(range(n))
        if n > 1:
            picks = (self._words(n - 1) % np.arange(n, 1, -1, dtype=np.uint64)).tolist()
            for i, z in enumerate(picks):
                order[i], order[i + z] = order[i + z], order[i]
        return np.array(order, dtype=np.int64)

    def bernoulli(self, shape: tuple[int, ...], p: Any) -> np.ndarray:
        """True with probability ``p``: a number (float64 uniforms), or an array of probabilities in the tensor's
        float dtype (float32 uniforms for float32), broadcast to ``shape``."""
        if isinstance(p, np.ndarray) and p.dtype != np.float64:
            return self.uniform(shape, np.float32) < np.broadcast_to(p.astype(np.float32), shape)
        return self.uniform(shape, np.float64) < p


def in_memory_order(a: np.ndarray, draw: Any) -> np.ndarray:
    """Values for the elements of ``a`` (a tensor changed in place), drawn in the order the elements lie in memory, as
    PyTorch fills a tensor (a transposed one column by column), and laid out in ``a``'s shape. ``draw(shape)``
    draws them. A meta tensor has no numbers to fill: nothing is drawn, and the generator's next numbers are those
    there would have been without it, as in PyTorch."""
    if is_meta(a):
        return np.zeros(a.shape, a.dtype)
    order = sorted(range(a.ndim), key=lambda d: a.strides[d], reverse=True)  # (outermost first; stable for ties)
    return draw(tuple(a.shape[d] for d in order)).transpose(np.argsort(order))


# -- Box-Muller on blocks of 16, computed step for step as PyTorch's kernels compute it ------------------------------
def _box_muller_16(blocks: np.ndarray, mean: float, std: float) -> np.ndarray:
    """PyTorch's ``normal_fill_16`` (float64) on each row of 16 uniforms: elements j and j + 8 from the pair
    (1 - u_j, u_j+8). It calls the C library's log, cos and sin, which are math's (numpy's own can round the last bit
    differently), and ends with one fused multiply-add, ``radius * cos(theta) * std + mean``."""
    u1, u2 = 1.0 - blocks[:, :8], blocks[:, 8:]
    radius, theta = np.sqrt(-2.0 * _libm(math.log, u1)), 2.0 * math.pi * u2
    return np.concatenate([_fma64(radius * _libm(math.cos, theta), std, mean),
                           _fma64(radius * _libm(math.sin, theta), std, mean)], axis=1)


def _box_muller_16_float32(blocks: np.ndarray, mean: float, std: float) -> np.ndarray:
    """The same in float32, as PyTorch's kernel for x86 processors with AVX2 computes it: every step rounded to
    float32, log, sin and cos by the cephes polynomials of its ``avx_mathfun.h`` (after Julien Pommier's
    ``sse_mathfun``), and each multiplication the compiler fuses with the addition after it, fused."""
    f32 = np.float32
    u1, u2 = f32(1) - blocks[:, :8], blocks[:, 8:]
    radius = np.sqrt(f32(-2) * _log_cephes(u1))
    sin, cos = _sincos_cephes(f32(2.0 * math.pi) * u2)
    return np.concatenate([_fma32(radius * cos, f32(std), f32(mean)), _fma32(radius * sin, f32(std), f32(mean))],
                          axis=1)


def _log_cephes(x: np.ndarray) -> np.ndarray:
    """log(x) for float32 x > 0: x = m * 2**e with m in [sqrt(1/2), sqrt(2)), so log(x) = log(1 + f) + e * log(2)
    with f = m - 1 small; log(1 + f) = f - f**2 / 2 + f**3 * P(f), P a degree-8 polynomial; log(2) in two parts
    (0.693359375 has few bits, so e times it is exact) keeps the sum accurate."""
    f32 = np.float32
    bits = x.view(np.int32)
    e = ((bits >> 23) - 126).astype(f32)  # (the exponent of m in [0.5, 1), plus one)
    m = ((bits & ~0x7F800000) | 0x3F000000).view(f32)  # the mantissa, in [0.5, 1)
    small = m < f32(0.707106781186547524)  # below sqrt(1/2): use 2m - 1 and one exponent less
    e = e - small.astype(f32)
    f = (m - f32(1)) + np.where(small, m, f32(0))
    f2 = f * f
    p = np.full_like(f, f32(7.0376836292e-2))
    for c in (-1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1,
              2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1):
        p = _fma32(p, f, f32(c))
    y = _fma32(p * f, f2, e * f32(-2.12194440e-4))  # f**3 P(f) + e * (log 2's small part)
    y = _fma32(-f2, f32(0.5), y)  # - f**2 / 2
    return _fma32(e, f32(0.693359375), f + y)  # + e * (log 2's large part)


def _sincos_cephes(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sin(x) and cos(x) for float32 x >= 0: x = j * pi/4 + r with j even (the nearest even octant) and |r| <= pi/4,
    r computed with pi/4 in three parts so that it stays exact; then the cephes polynomials of sin and cos on
    [-pi/4, pi/4], exchanged and signed by the quadrant j / 2."""
    f32 = np.float32
    j = (x * f32(1.27323954473516)).astype(np.int32)  # x / (pi/4), truncated
    j = (j + 1) & ~1
    y = j.astype(f32)
    r = _fma32(y, f32(-0.78515625), x)
    r = _fma32(y, f32(-2.4187564849853515625e-4), r)
    r = _fma32(y, f32(-3.77489497744594108e-8), r)
    z = r * r
    c = _fma32(_fma32(f32(2.443315711809948e-5), z, f32(-1.388731625493765e-3)), z, f32(4.166664568298827e-2)) * z
    c = _fma32(c, z, -(z * f32(0.5))) + f32(1)  # cos r = 1 - r**2 / 2 + r**4 Q(r**2)
    s = _fma32(_fma32(f32(-1.9515295891e-4), z, f32(8.3321608736e-3)), z, f32(-1.6666654611e-1)) * z
    s = _fma32(s, r, r)  # sin r = r + r**3 P(r**2)
    odd_quadrant = (j & 2) != 0
    sin, cos = np.where(odd_quadrant, c, s), np.where(odd_quadrant, s, c)
    return np.where((j & 4) != 0, -sin, sin), np.where(((j - 2) & 4) == 0, -cos, cos)


def _fma32(a: Any, b: Any, c: Any) -> np.ndarray:
    """``a * b + c`` for float32s, rounded once, as a fused multiply-add: the product is exact in float64, and the sum
    too unless it lands on a float32 rounding midpoint, where the sum's own rounding error decides the direction."""
    p = np.multiply(a, b, dtype=np.float64)
    s = p + c
    tie = (s.view(np.int64) & 0x1FFFFFFF) == 0x10000000  # (halfway between two float32s: rare)
    if tie.any():
        err = (p - (s - (s - p))) + (c - (s - p))  # s + err is exact (Knuth's two-sum)
        s = np.where(tie & (err != 0), np.nextafter(s, np.copysign(np.inf, err)), s)
    return s.astype(np.float32)


def _fma64(a: np.ndarray, b: float, c: float) -> np.ndarray:
    """``a * b + c`` for float64s, rounded once (nearly always): the product's rounding error by Dekker's split,
    the sum's by Knuth's two-sum, added back before the last rounding."""
    split = 134217729.0 * a  # (2**27 + 1: a's high half)
    a_hi = split - (split - a)
    split = 134217729.0 * b
    b_hi = split - (split - b)
    p = a * b
    p_err = ((a_hi * b_hi - p) + a_hi * (b - b_hi) + (a - a_hi) * b_hi) + (a - a_hi) * (b - b_hi)
    s = p + c
    back = s - p
    return s + (p_err + ((p - (s - back)) + (c - back)))


def _libm(f: Any, x: np.ndarray) -> np.ndarray:
    """``f`` (one of math's: the C library's) on each element of a float64 array."""
    return np.array([f(v) for v in x.ravel().tolist()], dtype=np.float64).reshape(x.shape)
