"""tinygrad_edu.optim against PyTorch: SGD and Adam trajectories, the Optimizer bookkeeping, memory of a long loop.

Parity tests import the torch oracle with ``pytest.importorskip`` and skip without it.
"""

from __future__ import annotations

import copy
import gc
import itertools
import time
import tracemalloc
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, raises

import tinygrad_edu as tg
import tinygrad_edu.nn.functional as F
from tinygrad_edu import nn, optim


def oracle():
    return pytest.importorskip("torch")


def outcome(fn) -> tuple[str | None, str]:
    """(exception type name, message) of calling fn, or (None, warnings) if it did not raise."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fn()
        except Exception as e:
            return type(e).__name__, str(e).replace("torch.", "tinygrad_edu.")
    return None, " | ".join(str(w.message) for w in caught)


def mlp(lib, n_out: int):
    return lib.nn.Sequential(lib.nn.Linear(3, 8), lib.nn.Tanh(), lib.nn.Linear(8, 8), lib.nn.ReLU(),
                             lib.nn.Linear(8, n_out))


def twin_models(n_out: int):
    """Our MLP and PyTorch's, with the same initial weights (ours, copied)."""
    torch = oracle()
    tg.manual_seed(2)  # (a start from which every optimizer here, and PyTorch from the same, lowers each loss)
    a, b = mlp(tg, n_out), mlp(torch, n_out)
    with torch.no_grad():
        for p, q in zip(a.parameters(), b.parameters()):
            q.copy_(torch.from_numpy(p._array.copy()))
    return a, b


rng = np.random.default_rng(0)
X = rng.standard_normal((16, 3)).astype(np.float32)
TARGETS = {
    "mse": (1, lambda lib: lib.tensor(rng.standard_normal((16, 1)).astype(np.float32)), "mse_loss"),
    "bce": (2, lambda lib: lib.tensor((rng.random((16, 2)) > 0.5).astype(np.float32)),
            "binary_cross_entropy_with_logits"),
    "ce": (4, lambda lib: lib.tensor(rng.integers(0, 4, 16)), "cross_entropy"),
}
CONFIGS = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.05, "momentum": 0.9, "weight_decay": 0.01, "nesterov": True}),
    ("SGD", {"lr": 0.05, "momentum": 0.5, "dampening": 0.3, "weight_decay": 0.1}),
    ("SGD", {"lr": 0.01, "momentum": 0.9, "maximize": True}),
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.05}),
    ("Adam", {"lr": 0.02, "betas": (0.8, 0.99), "eps": 1e-6, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("Adam", {"lr": 0.01, "amsgrad": True, "maximize": True}),
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "alpha": 0.9, "momentum": 0.5, "weight_decay": 0.05}),
    ("RMSprop", {"lr": 0.005, "centered": True, "eps": 1e-6, "maximize": True}),
    ("RMSprop", {"lr": 0.005, "centered": True, "momentum": 0.9}),
]


@pytest.mark.parametrize("loss_name", list(TARGETS))
@pytest.mark.parametrize(("opt_name", "options"), CONFIGS, ids=[f"{n}-{sorted(o)}" for n, o in CONFIGS])
def test_training_trajectory_matches_pytorch(opt_name: str, options: dict, loss_name: str) -> None:
    torch = oracle()
    n_out, make_target, fn_name = TARGETS[loss_name]
    a, b = twin_models(n_out)
    state = rng.bit_generator.state
    ta = make_target(tg)
    rng.bit_generator.state = state  # the same target values for both
    tb = make_target(torch)
    runs = []
    for lib, model, target in [(tg, a, ta), (torch, b, tb)]:
        opt = getattr(lib.optim, opt_name)(model.parameters(), **options)
        x = lib.tensor(X)
        losses = []
        for step in range(25):
            opt.zero_grad(set_to_none=step % 2 == 0)  # both ways
            loss = getattr(lib.nn.functional, fn_name)(model(x), target)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        runs.append((losses, [p.detach().numpy().copy() for p in model.parameters()], opt))
    (la, pa, oa), (lb, pb, ob) = runs
    assert np.allclose(la, lb, rtol=1e-5, atol=1e-6)
    for p, q in zip(pa, pb):
        assert np.allclose(p, q, rtol=1e-5, atol=1e-5), np.abs(p - q).max()
    if not options.get("maximize"):
        assert la[-1] < la[0]
    # the optimizer state holds the same names and numbers as PyTorch's. RMSprop's buffers hold g / sqrt(v), and
    # centered, g / sqrt(v - mean(g)**2): where that variance is tiny the last-bit differences of the two
    # libraries' gradients (matmul sums in another order, which changes with the CPU and the BLAS kernel) grow
    # without bound in single elements (measured up to 2e-3 relative), while the buffer as a whole stays within
    # 3e-5. So RMSprop's buffers are compared as a whole (relative error in norm, 2e-4); the others element by
    # element; test_rmsprop_step_matches_pytorch checks the rule itself exactly.
    for p, q in zip(a.parameters(), b.parameters()):
        sa, sb = oa.state[p], ob.state[q]
        assert list(sa) == list(sb)
        for key in sa:
            ours, theirs = sa[key]._array.astype(np.float64), sb[key].numpy().astype(np.float64)
            if opt_name == "RMSprop":
                assert np.linalg.norm(ours - theirs) <= 2e-4 * np.linalg.norm(theirs) + 1e-6, key
            else:
                assert np.allclose(ours, theirs, rtol=1e-5, atol=1e-6), key


@pytest.mark.parametrize("options", [{"lr": 0.01}, {"lr": 0.01, "alpha": 0.9, "momentum": 0.5, "weight_decay": 0.05},
                                     {"lr": 0.005, "centered": True, "momentum": 0.9, "eps": 1e-6, "maximize": True}])
def test_rmsprop_step_matches_pytorch(options: dict) -> None:
    """Given the same gradients (of very different scales), RMSprop moves p and its state as PyTorch does."""
    torch = oracle()
    g_rng = np.random.default_rng(1)
    start = g_rng.standard_normal((4, 5)).astype(np.float32)
    grads = [g_rng.standard_normal((4, 5)).astype(np.float32) * scale for scale in (1, 0.1, 1e-3, 10, 1)]
    results = []
    for lib in (tg, torch):
        p = lib.tensor(start.copy(), requires_grad=True)
        opt = lib.optim.RMSprop([p], **options)
        for g in grads:
            p.grad = lib.tensor(g)
            opt.step()
        results.append((p.detach().numpy().copy(), {k: v.numpy().copy() for k, v in opt.state[p].items()}))
    (pa, sa), (pb, sb) = results
    assert np.allclose(pa, pb, rtol=1e-6, atol=1e-7)
    assert list(sa) == list(sb)
    for key in sa:
        assert np.allclose(sa[key], sb[key], rtol=1e-6, atol=1e-7), key


def test_rmsprop_divides_by_the_rms_of_the_gradient() -> None:
    """The first step is lr * g / (sqrt((1 - alpha) * g**2) + eps): about lr / sqrt(1 - alpha) whatever g's scale."""
    p = tg.tensor([1.0, 1.0], requires_grad=True)
    opt = optim.RMSprop([p], lr=0.01, alpha=0.99)
    p.grad = tg.tensor([1000.0, 0.001])
    opt.step()
    assert np.allclose(1.0 - p.detach().numpy(), 0.01 / np.sqrt(0.01), rtol=1e-4)
    assert sorted(opt.state[p]) == ["square_avg", "step"] and opt.state[p]["step"].item() == 1.0


def test_param_groups_and_lr_changes_match_pytorch() -> None:
    torch = oracle()
    a, b = twin_models(1)
    y = rng.standard_normal((16, 1)).astype(np.float32)
    results = []
    for lib, model in [(tg, a), (torch, b)]:
        layers = list(model)
        opt = lib.optim.SGD([{"params": layers[0].parameters(), "lr": 0.2}, {"params": layers[2].parameters()}],
                            lr=0.05, momentum=0.9)
        opt.add_param_group({"params": layers[4].parameters(), "momentum": 0.0})
        assert [g["lr"] for g in opt.param_groups] == [0.2, 0.05, 0.05]
        for step in range(10):
            if step == 5:
                opt.param_groups[1]["lr"] = 0.5  # changing lr by hand takes effect at the next step
            opt.zero_grad()
            lib.nn.functional.mse_loss(model(lib.tensor(X)), lib.tensor(y)).backward()
            opt.step()
        results.append([p.detach().numpy().copy() for p in model.parameters()])
        assert "momentum_buffer" not in opt.state[layers[4].weight]  # no momentum, no buffer
    for p, q in zip(*results):
        assert np.allclose(p, q, rtol=1e-5, atol=1e-5)


def test_seed_training_loop() -> None:
    """The course notes' loop, verbatim apart from the import; then the same steps in PyTorch."""
    import tinygrad_edu as torch
    import tinygrad_edu.nn as nn
    import tinygrad_edu.optim as optim

    model = nn.Linear(1, 1)
    optimizer = optim.SGD(model.parameters(), lr=0.01)
    input_tensor = torch.tensor([[1.0]], requires_grad=True)
    target = torch.tensor([[2.0]])
    initial = [p._array.copy() for p in model.parameters()]
    losses = []
    for _epoch in range(100):
        optimizer.zero_grad()
        output = model(input_tensor)
        loss_function = nn.MSELoss()
        loss = loss_function(output, target)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert all(b < a for a, b in itertools.pairwise(losses))  # decreases at every step
    assert losses[-1] < 1e-3 * losses[0]
    # output = w + b moves towards 2 by a factor 1 - 2 * 2 * lr = 0.96 per step
    error = (initial[0] + initial[1]).item() - 2
    assert losses[-1] == pytest.approx((error * 0.96**99) ** 2, rel=1e-3)

    real = oracle()
    m = real.nn.Linear(1, 1)
    with real.no_grad():
        m.weight.copy_(real.from_numpy(initial[0]))
        m.bias.copy_(real.from_numpy(initial[1]))
    o = real.optim.SGD(m.parameters(), lr=0.01)
    for _epoch in range(100):
        o.zero_grad()
        real.nn.MSELoss()(m(real.tensor([[1.0]])), real.tensor([[2.0]])).backward()
        o.step()
    assert np.allclose(model.weight._array, m.weight.detach().numpy(), atol=1e-6)
    assert np.allclose(model.bias._array, m.bias.detach().numpy(), atol=1e-6)
    assert input_tensor.grad.shape == (1, 1)  # the input required grad too (nobody zeroes it: it accumulates)


# ------------------------------------------------------------------------------------------------ bookkeeping
def test_step_updates_in_place() -> None:
    w = nn.Parameter(tg.tensor([1.0, 2.0]))
    alias = w.detach()  # shares memory
    view = w[1:]
    version = w._version
    saved = (w * w).sum()  # the graph saves w
    opt = optim.SGD([w], lr=0.5)
    w.grad = tg.tensor([1.0, 1.0])
    opt.step()
    assert w.tolist() == [0.5, 1.5] and alias.tolist() == [0.5, 1.5] and view.tolist() == [1.5]
    assert w._version == version + 1 and w.is_leaf and w.grad_fn is None
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        saved.backward()


def test_params_without_grad_are_skipped() -> None:
    a, b = nn.Parameter(tg.ones(2)), nn.Parameter(tg.ones(2))
    for opt in (optim.SGD([a, b], lr=0.1, momentum=0.9), optim.Adam([a, b], lr=0.1)):
        (a * 3).sum().backward()
        opt.step()
        assert b.tolist() == [1.0, 1.0] and len(opt.state[b]) == 0 and a.tolist() != [1.0, 1.0]
        assert a.grad.tolist() == [3.0, 3.0]  # step leaves the gradient alone
        opt.zero_grad()


@pytest.mark.parametrize("set_to_none", [True, False])
def test_optimizer_zero_grad(set_to_none: bool) -> None:
    model = nn.Linear(2, 2)
    opt = optim.Adam(model.parameters())
    model(tg.ones(3, 2)).sum().backward()
    grads = [p.grad for p in model.parameters()]
    opt.zero_grad(set_to_none=set_to_none)
    for p, g in zip(model.parameters(), grads):
        assert (p.grad is None) if set_to_none else (p.grad is g and not g._array.any())
    model(tg.ones(3, 2)).sum().backward()  # after zeroing, the next backward starts from 0
    assert model.bias.grad.tolist() == [3.0, 3.0]


def test_closure() -> None:
    w = nn.Parameter(tg.tensor([3.0]))
    opt = optim.SGD([w], lr=0.25)
    calls = []

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()  # needs grad mode, even when step itself is called under no_grad
        calls.append(loss.item())
        return loss

    with tg.no_grad():
        loss = opt.step(closure)
    assert calls == [9.0] and loss.item() == 9.0 and w.tolist() == [1.5]
    assert opt.step() is None


def test_optimizer_repr_and_defaults_as_pytorch() -> None:
    torch = oracle()

    def make(lib):
        p1, p2 = lib.ones(1, requires_grad=True), lib.ones(1, requires_grad=True)
        return [lib.optim.SGD([p1, p2], lr=0.01),
                lib.optim.SGD([{"params": [p1]}, {"params": [p2], "lr": 0.1}], lr=0.01, momentum=0.9,
                              nesterov=True, weight_decay=1e-4),
                lib.optim.Adam([p1]),
                lib.optim.Adam([p1, p2], lr=0.1, betas=(0.5, 0.6), amsgrad=True, maximize=True),
                lib.optim.RMSprop([p1]),
                lib.optim.RMSprop([p1, p2], lr=1e-3, alpha=0.9, momentum=0.5, centered=True)]

    for a, b in zip(make(tg), make(torch)):
        assert repr(a) == repr(b)
        assert a.defaults == b.defaults


def test_optimizer_errors_as_pytorch() -> None:
    torch = oracle()

    def results(lib):
        p = lib.ones(2, requires_grad=True)
        q = lib.ones(2, requires_grad=True)
        SGD, Adam, RMSprop = lib.optim.SGD, lib.optim.Adam, lib.optim.RMSprop
        return [outcome(f) for f in (
            lambda: SGD([p], lr=-1), lambda: SGD([p], lr=0.1, momentum=-0.5), lambda: SGD([p], weight_decay=-1),
            lambda: SGD([p], nesterov=True), lambda: SGD([p], momentum=0.9, dampening=0.1, nesterov=True),
            lambda: Adam([p], lr=-1), lambda: Adam([p], eps=-1e-8), lambda: Adam([p], betas=(1.0, 0.9)),
            lambda: Adam([p], betas=(0.9, -0.1)), lambda: Adam([p], weight_decay=-1),
            lambda: RMSprop([p], lr=-1), lambda: RMSprop([p], eps=-1), lambda: RMSprop([p], momentum=-1),
            lambda: RMSprop([p], weight_decay=-1), lambda: RMSprop([p], alpha=-0.5),
            lambda: SGD(p), lambda: SGD([]), lambda: SGD({p}), lambda: SGD([{"params": {p}}]),
            lambda: SGD([p * 2]), lambda: SGD([p, 3]), lambda: SGD([p, p]),
            lambda: SGD([{"params": [p]}, {"params": [q, p]}]),
            lambda: SGD([p]).add_param_group([q]),
        )]

    assert results(tg) == results(torch)
    assert results(tg)[0] == ("ValueError", "Invalid learning rate: -1")


def test_unsupported_flags() -> None:
    p = tg.ones(1, requires_grad=True)
    with pytest.raises(NotImplementedError, match="differentiable"):
        optim.SGD([p], differentiable=True)
    optim.Adam([p], foreach=True, fused=False, capturable=True)  # speed switches: accepted, nothing to do


def test_step_is_vectorised() -> None:
    """One step over a million numbers takes numpy-time, not Python-loop time."""
    p = nn.Parameter(tg.ones(1000, 1000))
    p.grad = tg.ones(1000, 1000)
    for opt in (optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=0.01, nesterov=True),
                optim.Adam([p], amsgrad=True, weight_decay=0.1),
                optim.RMSprop([p], momentum=0.9, centered=True, weight_decay=0.1)):
        opt.step()
        start = time.perf_counter()
        opt.step()
        assert time.perf_counter() - start < 0.5


def test_long_training_does_not_grow_memory() -> None:
    """2 000 steps with the cyclic garbage collector off: a graph kept alive by a reference cycle would
    leak once per step here (about 3 KB a step for this model, 5 MB in all), and memory would climb.

    The margin: CPython's free lists of small tuples fill up over the first few hundred steps (about
    120 KB, then flat), which tracemalloc counts as allocated.
    """
    tg.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = tg.randn(32, 4), tg.randn(32, 1)
    gc.collect()
    gc.disable()
    tracemalloc.start()
    try:
        for step in range(2000):
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            if step == 0:
                first_loss = loss.item()
            elif step == 199:
                current_200, peak_200 = tracemalloc.get_traced_memory()
        current_2000, peak_2000 = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert gc.collect() == 0  # nothing was waiting for the cycle collector
    finally:
        tracemalloc.stop()
        gc.enable()
    assert peak_2000 - peak_200 < 256_000, (peak_200, peak_2000)
    assert current_2000 - current_200 < 256_000, (current_200, current_2000)
    assert loss.item() < 0.5 * first_loss


# ------------------------------------------------------------------------------------------------ checkpoints
def _linear_and_optimizer(lib: ModuleType, make: Callable) -> tuple:
    m = lib.nn.Linear(2, 1)
    with lib.no_grad():
        m.weight.copy_(lib.tensor([[0.5, -0.5]]))
        m.bias.copy_(lib.tensor([0.1]))
    return m, make(lib, m)


@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop"])
def test_optimizer_state_dict_is_pytorchs_layout_and_loads_back(name: str) -> None:
    def make(lib: ModuleType, m: Any) -> Any:
        options = {"SGD": {"lr": 0.1, "momentum": 0.9}, "Adam": {"lr": 0.01}, "RMSprop": {"lr": 0.01}}[name]
        return getattr(lib.optim, name)(m.parameters(), **options)

    def run(lib: ModuleType) -> tuple:
        m, opt = _linear_and_optimizer(lib, make)
        empty = opt.state_dict()
        m(lib.ones(1, 2)).sum().backward()
        opt.step()
        saved = opt.state_dict()
        m2, opt2 = _linear_and_optimizer(lib, make)
        opt2.param_groups[0]["lr"] = 0.5  # replaced by the loaded options
        opt2.load_state_dict(saved)
        pairs = [(opt.state[p][k], opt2.state[p2][k])
                 for p, p2 in zip(m.parameters(), m2.parameters()) for k in opt.state[p]]
        return empty, saved, opt2.param_groups[0]["lr"], all(lib.equal(a, b) for a, b in pairs), \
            all(a is b for a, b in pairs)  # (as in PyTorch: buffers of the right dtype are taken, not copied)

    kind, text, _ = as_pytorch(run)
    assert kind is None and "'state': {0: {" in text and "'params': [0, 1]" in text and text.endswith("True, True)")


def test_training_resumed_from_a_checkpoint_continues_exactly() -> None:
    def train(model: Any, opt: Any, steps: int) -> None:
        for _ in range(steps):
            opt.zero_grad()
            F.mse_loss(model(tg.linspace(-1, 1, 8).reshape(8, 1)), tg.linspace(0, 2, 8).reshape(8, 1)).backward()
            opt.step()

    def fresh() -> tuple:
        tg.manual_seed(0)
        model = tg.nn.Linear(1, 1)
        return model, tg.optim.Adam(model.parameters(), lr=0.05)

    straight, opt = fresh()
    train(straight, opt, 10)
    first, opt_first = fresh()
    train(first, opt_first, 4)
    checkpoint = (copy.deepcopy(first.state_dict()), copy.deepcopy(opt_first.state_dict()))
    resumed, opt_resumed = fresh()
    resumed.load_state_dict(checkpoint[0])
    opt_resumed.load_state_dict(checkpoint[1])
    train(resumed, opt_resumed, 6)
    for a, b in zip(straight.parameters(), resumed.parameters()):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())


def test_loading_a_state_dict_of_another_shape_is_refused() -> None:
    def sgd(lib: ModuleType, m: Any) -> Any:
        return lib.optim.SGD(m.parameters(), lr=0.1)

    raises(lambda lib: _linear_and_optimizer(lib, sgd)[1].load_state_dict({"state": {}, "param_groups": []}),
           ValueError, "loaded state dict has a different number of parameter groups")
    raises(lambda lib: _linear_and_optimizer(lib, sgd)[1].load_state_dict(
        {"state": {}, "param_groups": [{"lr": 1, "params": [0]}]}), ValueError,
        "loaded state dict contains a parameter group that doesn't match the size of optimizer's group")
