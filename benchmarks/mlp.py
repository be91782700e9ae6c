"""Case (b): one training step of an MLP, 64x784 -> 128 -> 10 (Linear, ReLU, Linear, cross-entropy, SGD).

A step is ``zero_grad``, forward, loss, ``backward``, ``step``. The floor is :class:`NumpyMLP`, the same
step written by hand with numpy arrays; tinygrad_edu's overhead is its time divided by that one.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

import tinygrad_edu as tg
from tinygrad_edu import nn

from .common import Result, measure, optional, seed_all

LR = 0.01


def make_data(batch: int, n_in: int, n_out: int) -> tuple[np.ndarray, np.ndarray]:
    """A seeded batch: float32 inputs and int64 class labels."""
    rng = seed_all()
    return rng.standard_normal((batch, n_in)).astype(np.float32), rng.integers(0, n_out, batch).astype(np.int64)


def make_model(n_in: int, n_hidden: int, n_out: int) -> nn.Sequential:
    seed_all()
    tg.manual_seed(0)
    return nn.Sequential(nn.Linear(n_in, n_hidden), nn.ReLU(), nn.Linear(n_hidden, n_out))


def tinygrad_step(model: nn.Sequential, x: np.ndarray, y: np.ndarray) -> Callable[[], tg.Tensor]:
    """The step as a learner writes it with tinygrad_edu; calling it returns the loss."""
    return training_step(tg, model, tg.tensor(x), tg.tensor(y))


def training_step(lib: ModuleType, model: Any, xt: Any, yt: Any) -> Callable[[], Any]:
    """zero_grad -> forward -> loss -> backward -> step, written once for tinygrad_edu and torch alike."""
    loss_fn = lib.nn.CrossEntropyLoss()
    opt = lib.optim.SGD(model.parameters(), lr=LR)

    def step() -> Any:
        opt.zero_grad()
        loss = loss_fn(model(xt), yt)
        loss.backward()
        opt.step()
        return loss

    return step


class NumpyMLP:
    """The same two-layer MLP and SGD step, forward and backward written by hand with numpy (float32).

    ``w1`` is (hidden, in) and ``w2`` (out, hidden), as in ``nn.Linear``, so weights can be copied over.
    """

    def __init__(self, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray) -> None:
        self.w1, self.b1, self.w2, self.b2 = (a.copy() for a in (w1, b1, w2, b2))
        self.grads: dict[str, np.ndarray] = {}

    @classmethod
    def like(cls, model: nn.Sequential) -> NumpyMLP:
        """A numpy copy of a tinygrad_edu model's current weights."""
        return cls(*(p.detach().numpy() for p in model.parameters()))

    def step(self, x: np.ndarray, y: np.ndarray) -> float:
        """One SGD step on (x, y); returns the loss and leaves the gradients in ``self.grads``."""
        n = x.shape[0]
        h = x @ self.w1.T + self.b1
        r = np.maximum(h, 0)
        z = r @ self.w2.T + self.b2
        z = z - z.max(axis=1, keepdims=True)  # log-softmax, shifted for stability
        e = np.exp(z)
        s = e.sum(axis=1, keepdims=True)
        rows = np.arange(n)
        loss = float(np.log(s[:, 0]).mean() - z[rows, y].mean())
        dz = e / s  # d(mean cross-entropy)/dz = (softmax - onehot) / n
        dz[rows, y] -= 1
        dz /= n
        dw2, db2 = dz.T @ r, dz.sum(axis=0)
        dh = dz @ self.w2
        dh *= h > 0
        dw1, db1 = dh.T @ x, dh.sum(axis=0)
        self.grads = {"w1": dw1, "b1": db1, "w2": dw2, "b2": db2}
        self.w1 -= LR * dw1
        self.b1 -= LR * db1
        self.w2 -= LR * dw2
        self.b2 -= LR * db2
        return loss


def torch_step(model: nn.Sequential, x: np.ndarray, y: np.ndarray) -> Callable[[], object] | None:
    torch = optional("torch")
    if torch is None:
        return None
    params = [torch.tensor(p.detach().numpy()) for p in model.parameters()]
    tmodel = torch.nn.Sequential(torch.nn.Linear(params[0].shape[1], params[0].shape[0]), torch.nn.ReLU(),
                                 torch.nn.Linear(params[2].shape[1], params[2].shape[0]))
    with torch.no_grad():
        for p, v in zip(tmodel.parameters(), params):
            p.copy_(v)
    return training_step(torch, tmodel, torch.from_numpy(x), torch.from_numpy(y))


def hips_step(params: list[np.ndarray], x: np.ndarray, y: np.ndarray) -> Callable[[], float] | None:
    """The step in HIPS autograd, which differentiates a function rather than recording on tensors: ``value_and_grad``
    of the loss as a function of the four parameter arrays, then SGD on the arrays themselves (updated in place).
    Products with ``np.dot``, as HIPS autograd's own examples write them (its ``@`` is slower: a general ``matmul``
    gradient)."""
    autograd, anp = optional("autograd"), optional("autograd.numpy")
    if autograd is None or anp is None:
        return None
    rows = np.arange(len(y))

    def loss(ps: list) -> Any:
        w1, b1, w2, b2 = ps
        z = anp.dot(anp.maximum(anp.dot(x, w1.T) + b1, 0), w2.T) + b2
        z = z - anp.max(z, axis=1, keepdims=True)  # log-softmax, shifted for stability
        return anp.mean(anp.log(anp.sum(anp.exp(z), axis=1)) - z[rows, y])

    value_and_grad = autograd.value_and_grad(loss)

    def step() -> float:
        value, grads = value_and_grad(params)
        for p, g in zip(params, grads):
            p -= LR * g
        return float(value)

    return step


def mygrad_step(params: list[np.ndarray], x: np.ndarray, y: np.ndarray) -> Callable[[], float] | None:
    """The step in MyGrad, which records on its tensors as tinygrad_edu does: the loss, ``backward``, then SGD on each
    parameter's ``data`` as MyGrad's documentation does it (``w.data -= lr * w.grad``; ``params``, the arrays behind
    the tensors, change with it)."""
    mg = optional("mygrad")
    if mg is None:
        return None
    tensors = [mg.Tensor(p, copy=False) for p in params]
    rows = np.arange(len(y))

    def step() -> float:
        w1, b1, w2, b2 = tensors
        z = mg.matmul(mg.maximum(mg.matmul(x, w1.T) + b1, 0), w2.T) + b2
        z = z - mg.max(z, axis=1, keepdims=True)
        loss = mg.mean(mg.log(mg.sum(mg.exp(z), axis=1)) - z[rows, y])
        loss.backward()
        for t in tensors:
            t.data -= LR * t.grad
        return loss.item()

    return step


def run_mlp(quick: bool) -> list[Result]:
    """Case b at the benchmark's size, then (b2) the same step on a tiny MLP, where the matrix products cost next to
    nothing and what is left is each library's own work per step (torch's kernels are MKL, numpy's OpenBLAS: at
    the full size, part of any difference is theirs)."""
    return [*_mlp_case("b.", 64, 784, 128, 10, quick), *_mlp_case("b2.", 4, 8, 5, 3, quick)]


def _mlp_case(prefix: str, batch: int, n_in: int, n_hidden: int, n_out: int, quick: bool) -> list[Result]:
    repeat = 5 if quick else 40  # rounds; each a turn of about 10 ms per library (common.measure)
    what = "MLP training step" if prefix == "b." else "tiny MLP step: the libraries' own work"
    case = f"{prefix} {what} ({batch}x{n_in} -> {n_hidden} -> {n_out}, SGD)"
    x, y = make_data(batch, n_in, n_out)
    model = make_model(n_in, n_hidden, n_out)
    ref = NumpyMLP.like(model)
    weights = [p.detach().numpy() for p in model.parameters()]
    steps: list[tuple[str, Callable[[], object] | None]] = [
        ("numpy (by hand)", lambda: ref.step(x, y)),
        ("torch", torch_step(model, x, y)),
        ("tinygrad_edu", tinygrad_step(model, x, y)),
        ("HIPS autograd", hips_step([w.copy() for w in weights], x, y)),
        ("MyGrad", mygrad_step([w.copy() for w in weights], x, y)),
    ]
    timings = measure({library: step for library, step in steps if step is not None}, repeat, warmup=3)
    return [Result(case, library, median, best, repeat) for library, (median, best) in timings.items()]
