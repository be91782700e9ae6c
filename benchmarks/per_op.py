"""Cases (a) and (c): per-op overhead, measured on a long chain of ops on tiny tensors.

One link of the chain is four ops on 3-element tensors, ``y = exp(tanh(y * w + b))``, so a chain of
``n_ops`` ops has ``n_ops // 4`` links; the loss is ``y.sum()`` and one run is forward plus backward.
With 3 numbers per tensor the arithmetic costs nothing: what is measured is the bookkeeping of each op
(creating the tensor and its node, and running the node in backward).

micrograd works on scalars, so each op there is 3 scalar ops (one per element). micrograd (PyPI 0.1.0)
has no exp or tanh, so its link is ``y = sqrt(relu(y * w + b))``: four ops of the same kind.

HIPS autograd and MyGrad, the two other Python autodiff libraries on numpy, run the same chain: HIPS
autograd traces a function (``grad(f)``), MyGrad records on its tensors as tinygrad_edu does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

import tinygrad_edu as tg

from .common import Result, measure, optional, seed_all

OPS_PER_LINK = 4
BARE = "bare Python engine"  # BareValue's name in the tables


def _inputs(n: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = seed_all()
    x = rng.uniform(0.5, 1.0, n).astype(np.float32)
    w = rng.uniform(0.5, 1.0, n).astype(np.float32)
    b = rng.uniform(0.0, 0.5, n).astype(np.float32)
    return x, w, b


def chain(leaf: Callable[[np.ndarray], Any], n_ops: int) -> Callable[[], tuple]:
    """One run: the chain through whatever ``leaf`` makes of the input arrays (tinygrad_edu or torch tensors
    that require grad, BareValues: the same code), then ``backward``; returns the three gradients."""
    xa, wa, ba = _inputs()
    links = n_ops // OPS_PER_LINK

    def run() -> tuple:
        x, w, b = leaf(xa), leaf(wa), leaf(ba)
        y = x
        for _ in range(links):
            y = (y * w + b).tanh().exp()
        y.sum().backward()
        return x.grad, w.grad, b.grad

    return run


def library_chain(lib: ModuleType, n_ops: int) -> Callable[[], tuple]:
    """The chain through ``lib``, tinygrad_edu or torch."""
    return chain(lambda a: lib.tensor(a, requires_grad=True), n_ops)


def tinygrad_chain(n_ops: int) -> Callable[[], tuple]:
    return library_chain(tg, n_ops)


def numpy_chain(n_ops: int) -> Callable[[], tuple]:
    """The floor: the same chain with numpy arrays, forward and backward written by hand."""
    x, w, b = _inputs()
    links = n_ops // OPS_PER_LINK

    def run() -> tuple:
        saved = []
        y = x
        for _ in range(links):  # (tanh and exp computed in float64 and rounded once, as the library does)
            t = np.tanh(y * w + b, dtype=np.float64).astype(np.float32)
            e = np.exp(t, dtype=np.float64).astype(np.float32)
            saved.append((y, t, e))
            y = e
        g = np.ones_like(y)  # d(sum)/dy
        gw, gb = np.zeros_like(w), np.zeros_like(b)
        for y_in, t, e in reversed(saved):
            g = g * e  # exp
            g = g * (1 - t * t)  # tanh
            gb += g  # add
            gw += g * y_in  # mul: d/dw
            g = g * w  # mul: d/dy
        return g, gw, gb

    return run


class BareValue:
    """The least a Python autograd engine can do per op, on numpy arrays: micrograd's design with arrays.

    Each op makes one object holding its array, its inputs and a closure that maps the output's gradient
    to the inputs'; backward orders the graph (with a stack, no recursion) and calls the closures. It has
    none of PyTorch's semantics: no node objects (``grad_fn``, ``next_functions``), no saved-tensor version
    checks or freeing, no grad modes, hooks, dtype promotion or broadcasting. Its time per op is what any
    engine written in Python pays before the semantics tinygrad_edu reproduces (a reference, not a rival).
    """

    __slots__ = ("backward_fn", "data", "grad", "inputs")

    def __init__(self, data: np.ndarray, inputs: tuple = (), backward_fn: Callable | None = None) -> None:
        self.data, self.grad, self.inputs, self.backward_fn = data, None, inputs, backward_fn

    def __mul__(self, other: BareValue) -> BareValue:
        return BareValue(self.data * other.data, (self, other), lambda g: (g * other.data, g * self.data))

    def __add__(self, other: BareValue) -> BareValue:
        return BareValue(self.data + other.data, (self, other), lambda g: (g, g))

    def tanh(self) -> BareValue:  # (float32 values rounded as the library's and PyTorch's: see numpy_chain)
        t = np.tanh(self.data, dtype=np.float64).astype(self.data.dtype)
        return BareValue(t, (self,), lambda g: (g * (1 - t * t),))

    def exp(self) -> BareValue:
        e = np.exp(self.data, dtype=np.float64).astype(self.data.dtype)
        return BareValue(e, (self,), lambda g: (g * e,))

    def sum(self) -> BareValue:
        shape = self.data.shape
        return BareValue(self.data.sum(), (self,), lambda g: (np.broadcast_to(g, shape),))

    def backward(self) -> None:
        order, seen, stack = [], set(), [(self, False)]
        while stack:  # depth-first, children before parents: reversed, a topological order
            v, inputs_done = stack.pop()
            if inputs_done:
                order.append(v)
            elif id(v) not in seen:
                seen.add(id(v))
                stack.append((v, True))
                stack.extend((u, False) for u in v.inputs)
        grads = {id(self): np.ones_like(self.data)}
        for v in reversed(order):
            g = grads.pop(id(v))
            if v.backward_fn is None:  # a leaf
                v.grad = g if v.grad is None else v.grad + g
                continue
            for u, gu in zip(v.inputs, v.backward_fn(g)):
                grads[id(u)] = grads[id(u)] + gu if id(u) in grads else gu


def bare_chain(n_ops: int) -> Callable[[], tuple]:
    """The chain through :class:`BareValue`: the Python floor of any engine (see there)."""
    return chain(BareValue, n_ops)


def torch_chain(n_ops: int) -> Callable[[], tuple] | None:
    torch = optional("torch")
    return None if torch is None else library_chain(torch, n_ops)


def hips_chain(n_ops: int) -> Callable[[], tuple] | None:
    """The chain as HIPS autograd computes it: ``grad`` of a function of the three arrays (a tuple)."""
    autograd, anp = optional("autograd"), optional("autograd.numpy")
    if autograd is None or anp is None:
        return None
    xa, wa, ba = _inputs()
    links = n_ops // OPS_PER_LINK

    def loss(args: tuple) -> Any:
        x, w, b = args
        y = x
        for _ in range(links):
            y = anp.exp(anp.tanh(y * w + b))
        return anp.sum(y)

    gradient = autograd.grad(loss)
    return lambda: gradient((xa, wa, ba))


def mygrad_chain(n_ops: int) -> Callable[[], tuple] | None:
    mg = optional("mygrad")
    if mg is None:
        return None
    xa, wa, ba = _inputs()
    links = n_ops // OPS_PER_LINK

    def run() -> tuple:
        x, w, b = mg.tensor(xa), mg.tensor(wa), mg.tensor(ba)
        y = x
        for _ in range(links):
            y = mg.exp(mg.tanh(y * w + b))
        mg.sum(y).backward()
        return x.grad, w.grad, b.grad

    return run


def micrograd_chain(n_ops: int) -> Callable[[], tuple] | None:
    engine = optional("micrograd.engine")
    if engine is None:
        return None
    xa, wa, ba = _inputs()
    links = n_ops // OPS_PER_LINK
    # micrograd sorts its graph recursively: one Python frame per node on the longest path.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 3 * n_ops + 1000))

    def run() -> tuple:
        x, w, b = ([engine.Value(float(v)) for v in a] for a in (xa, wa, ba))
        y = x
        for _ in range(links):
            y = [((yi * wi + bi).relu()) ** 0.5 for yi, wi, bi in zip(y, w, b)]
        loss = y[0] + y[1] + y[2]
        loss.backward()
        return [v.grad for v in x], [v.grad for v in w], [v.grad for v in b]

    return run


def _run(case: str, makers: list[tuple[str, Callable]], n_ops: int, repeat: int, warmup: int,
         check: bool = False) -> list[Result]:
    fns = {library: fn for library, make in makers if (fn := make(n_ops)) is not None}
    notes = {library: "" for library in fns}
    if check:  # the long chain must run at all, and give finite gradients
        for library, fn in fns.items():
            ok = all(np.isfinite(np.asarray(g, dtype=np.float64)).all() for g in fn())
            notes[library] = "gradients finite" if ok else "NON-FINITE GRADIENTS"
    if "micrograd" in fns:
        notes["micrograd"] = "3 scalar Values per op; sqrt(relu(.)) for exp(tanh(.))"
    if BARE in fns:
        notes[BARE] = "BareValue: closures on numpy arrays, none of PyTorch's semantics"
    timings = measure(fns, repeat, warmup)
    return [Result(case, library, *timings[library], repeat, ops=n_ops, note=notes[library]) for library in fns]


def run_per_op(quick: bool) -> list[Result]:
    """Case (a): a ~1000-op chain, forward + backward, reported per op."""
    n_ops, repeat = (200, 3) if quick else (1000, 30)
    makers = [("numpy (by hand)", numpy_chain), ("tinygrad_edu", tinygrad_chain), ("torch", torch_chain),
              ("HIPS autograd", hips_chain), ("MyGrad", mygrad_chain), ("micrograd", micrograd_chain),
              (BARE, bare_chain)]
    return _run(f"a. per-op overhead ({n_ops}-op chain, 3 elements)", makers, n_ops, repeat, warmup=1)


def run_long_chain(quick: bool) -> list[Result]:
    """Case (c): a 100 000-op chain must run (no recursion limit) and give finite gradients."""
    n_ops, repeat = (2_000, 1) if quick else (100_000, 3)
    makers = [("numpy (by hand)", numpy_chain), ("tinygrad_edu", tinygrad_chain), ("torch", torch_chain),
              ("HIPS autograd", hips_chain)]
    return _run(f"c. {n_ops:,}-op chain, forward + backward", makers, n_ops, repeat, warmup=0, check=True)
