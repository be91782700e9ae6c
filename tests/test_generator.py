"""Random numbers as PyTorch draws them: the same seed gives the same numbers, so a tutorial prints what PyTorch
prints (``tinygrad_edu/_generator.py``).

Each case runs after ``manual_seed(0)`` with tinygrad_edu and, when torch is installed, with torch, and compares
the printed results. The first values are also pinned here, so the tests mean something without torch.
"""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg

CASES = {
    "randn": lambda lib: lib.randn(3),
    "randn, one at a time (Box-Muller pairs)": lambda lib: [lib.randn(()) for _ in range(3)],
    "randn, 16 or more (blocks of 16, the last drawn again)": lambda lib: lib.randn(4, 5),
    "randn, float64": lambda lib: lib.randn(20, dtype=lib.float64),
    "rand": lambda lib: lib.rand(2, 3),
    "rand, float64": lambda lib: lib.rand(3, dtype=lib.float64),
    "rand_like and randn_like": lambda lib: (lib.rand_like(lib.zeros(2, 2)), lib.randn_like(lib.zeros(2))),
    "randint": lambda lib: lib.randint(0, 10, (6,)),
    "randint(high, size)": lambda lib: lib.randint(5, (6,)),
    "randint_like (the tensor's shape and dtype)": lambda lib: (lib.randint_like(lib.zeros(2, 3), 10),
                                                                lib.randint_like(lib.zeros(2, dtype=lib.int32), 3, 9)),
    "randint, a range of 2**32 or more": lambda lib: lib.randint(0, 2**40, (3,)),
    "randperm": lambda lib: lib.randperm(12),
    "normal": lambda lib: lib.normal(2.0, 3.0, (3, 2)),
    "poisson, both recipes (rates below 10 and from 10 on)": lambda lib: lib.poisson(
        lib.tensor([0.0, 1.0, 4.5, 9.99, 10.0, 100.0, 5e4])),
    "poisson, float64 and a transposed input (drawn in the result's order)": lambda lib: lib.poisson(
        lib.arange(1.0, 13.0, dtype=lib.float64).view(3, 4).t()),
    "normal of tensors": lambda lib: lib.normal(lib.zeros(3), lib.ones(3)),
    "nn.Linear's initial weights": lambda lib: (lib.nn.Linear(4, 3).weight, lib.nn.Linear(4, 3).bias),
    "dropout": lambda lib: lib.nn.functional.dropout(lib.ones(12), 0.3),
    "nn.Dropout(0.1)": lambda lib: lib.nn.Dropout(0.1)(lib.ones(2, 6)),
    "bernoulli of probabilities": lambda lib: lib.bernoulli(lib.full((8,), 0.4)),
    "uniform_ and normal_": lambda lib: (lib.empty(5).uniform_(-2, 3), lib.empty(5).normal_(1, 2)),
    "geometric_, cauchy_ and log_normal_": lambda lib: (lib.empty(6).geometric_(0.3), lib.empty(4).cauchy_(2.0, 3.0),
                                                        lib.empty(3).log_normal_(), lib.empty(2, dtype=lib.int64)
                                                        .geometric_(0.5)),
    "normal_ on a transposed tensor (filled in memory order)": lambda lib: lib.zeros(20, 3).t().normal_(),
    "uniform_ on a transposed tensor": lambda lib: lib.zeros(4, 3).t().uniform_(),
    "bernoulli_": lambda lib: (lib.zeros(4, 3).t().bernoulli_(0.5), lib.zeros(6).bernoulli_(lib.full((6,), 0.3))),
    "nn.init": lambda lib: (lib.nn.init.xavier_uniform_(lib.empty(3, 4)), lib.nn.init.kaiming_normal_(lib.empty(3, 4)),
                            lib.nn.init.normal_(lib.zeros(4, 3).t()), lib.nn.init.orthogonal_(lib.empty(3, 5))),
    "trunc_normal_, mostly inside (normals)": lambda lib: lib.nn.init.trunc_normal_(lib.empty(5, 7), std=0.02),
    "trunc_normal_, a narrow window (uniform candidates)": lambda lib: lib.nn.init.trunc_normal_(
        lib.empty(5, 7), a=1.0, b=3.0),
    "a Generator of its own": lambda lib: (lib.randn(3, generator=lib.Generator().manual_seed(5)),
                                           lib.rand(2, generator=lib.Generator())),
    "get_rng_state and set_rng_state": lambda lib: (lambda state: (lib.randn(3), lib.set_rng_state(state),
                                                                   lib.randn(3))[2])(lib.get_rng_state()),
}


def _drawn(fn: Any, lib: ModuleType) -> str:
    lib.manual_seed(0)
    return repr(fn(lib)).replace("torch.", "tinygrad_edu.")


@pytest.mark.parametrize("name", CASES)
def test_the_same_numbers_as_pytorch(name: str) -> None:
    ours = _drawn(CASES[name], tg)
    torch = oracle()
    if torch is not None:
        assert ours == _drawn(CASES[name], torch)


def test_the_first_numbers_are_pytorchs() -> None:
    """Pinned (printed by PyTorch 2.13): seed 0's first normals, uniforms, integers and permutation."""
    assert _drawn(lambda lib: lib.randn(3), tg) == "tensor([ 1.5410, -0.2934, -2.1788])"
    assert _drawn(lambda lib: lib.rand(3), tg) == "tensor([0.4963, 0.7682, 0.0885])"
    assert _drawn(lambda lib: lib.randint(0, 10, (5,)), tg) == "tensor([4, 9, 3, 0, 3])"
    assert _drawn(lambda lib: lib.randperm(10), tg) == "tensor([4, 1, 7, 5, 3, 9, 0, 8, 6, 2])"


def test_an_unseeded_program_draws_the_same_numbers_on_every_run() -> None:
    """A new ``Generator()`` starts from PyTorch's default seed, 67280421310721, and so does the default one here, so
    a program that never seeds prints the same numbers on every run (PyTorch seeds its default generator afresh
    in each process instead: the README's fidelity section)."""
    code = "import tinygrad_edu as t; print(t.initial_seed(), t.randn(3))"
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)}
    assert runs == {"67280421310721 tensor([ 0.9773,  1.1569, -0.3807])\n"}
    torch = oracle()
    if torch is not None:
        assert repr(tg.randn(3, generator=tg.Generator())) == repr(torch.randn(3, generator=torch.Generator()))


def test_a_training_run_draws_what_pytorch_draws() -> None:
    """Shuffled mini-batches, dropout and the initial weights all come from the one generator; each DataLoader pass
    also draws a seed for its workers, as PyTorch's does, so everything after it stays in step."""

    def run(lib: ModuleType) -> Any:
        lib.manual_seed(0)
        data = lib.utils.data.TensorDataset(lib.arange(12.0).reshape(6, 2), lib.arange(6.0))
        model = lib.nn.Sequential(lib.nn.Linear(2, 4), lib.nn.Dropout(0.25), lib.nn.Linear(4, 1))
        opt = lib.optim.SGD(model.parameters(), lr=0.01)
        losses = []
        for _ in range(2):
            for x, y in lib.utils.data.DataLoader(data, batch_size=4, shuffle=True):
                opt.zero_grad()
                loss = ((model(x).squeeze(1) - y) ** 2).mean()
                loss.backward()
                opt.step()
                losses.append(round(loss.item(), 4))
        return losses, [s.indices for s in lib.utils.data.random_split(range(6), [2, 4])], lib.rand(2)

    ours = run(tg)
    torch = oracle()
    if torch is not None:
        theirs = run(torch)
        assert ours[0] == theirs[0] and ours[1] == theirs[1] and np.array_equal(ours[2].numpy(), theirs[2].numpy())


def test_seed_and_state() -> None:
    g = tg.Generator()
    assert g.initial_seed() == 67280421310721
    s = g.seed()
    assert g.initial_seed() == s and 0 <= s < 2**63
    state = g.get_state()
    first = tg.rand(4, generator=g)
    g.set_state(state)
    assert np.array_equal(tg.rand(4, generator=g).numpy(), first.numpy())
    with pytest.raises(RuntimeError, match="Expected a state of 5024 bytes"):
        g.set_state(tg.zeros(3, dtype=tg.uint8))
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        tg.manual_seed(2**64)
    assert tg.manual_seed(-1).initial_seed() == 2**64 - 1  # (a negative seed wraps around, as in PyTorch)
    assert tg.Generator("cpu").initial_seed() == 67280421310721
    with pytest.raises(AssertionError, match="runs on the CPU only"):
        tg.Generator("cuda")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n, mean, std", [(16, 0.0, 1.0), (1000, 0.0, 1.0), (37, -1.3, 0.7), (5000, 3.0, 0.01)])
def test_normals_of_16_or_more_are_pytorchs_to_the_last_bit(dtype: str, n: int, mean: float, std: float) -> None:
    """Blocks of 16 go through PyTorch's own steps: in float32 the cephes log, sin and cos of its AVX2 kernel with
    its fused multiply-adds, in float64 the C library's functions; so every bit agrees, not only the printed
    digits (a full-precision loss after training from these numbers depends on the last bit)."""
    tg.manual_seed(7)
    ours = tg.empty(n, dtype=getattr(tg, dtype)).normal_(mean, std).numpy()
    assert ours.dtype == np.dtype(dtype) and abs(ours.mean() - mean) < 6 * std / n**0.5
    torch = oracle()
    if torch is not None:
        torch.manual_seed(7)
        theirs = torch.empty(n, dtype=getattr(torch, dtype)).normal_(mean, std).numpy()
        assert np.array_equal(ours.view(f"i{ours.itemsize}"), theirs.view(f"i{theirs.itemsize}"))


def test_the_16_normals_pinned() -> None:
    """Pinned (PyTorch 2.13): values whose last bit numpy's float32 log and cos used to get wrong."""
    tg.manual_seed(0)
    assert [float(v) for v in tg.randn(16).numpy()[[3, 4, 5, 7]]] == [
        -0.4338788092136383, 0.8487103581428528, 0.6920091509819031, -2.1152193546295166]
    tg.manual_seed(0)
    b = tg.empty(20, dtype=tg.float64).normal_(-1.3, 0.7).numpy()
    assert (float(b[0]), float(b[19])) == (-2.917288260163923, -1.824924065987436)


def test_the_cephes_functions_are_accurate() -> None:
    """The float32 log, sin and cos that reproduce PyTorch's normals are good approximations in their own right:
    within 2 units in the last place of the true values, on the ranges Box-Muller gives them."""
    from tinygrad_edu._generator import _log_cephes, _sincos_cephes

    u = np.random.default_rng(0).random(100_000).astype(np.float32)
    x = np.float32(1) - u  # (0, 1]
    ulp = np.spacing(np.abs(np.log(x.astype(np.float64))).astype(np.float32))
    assert np.all(np.abs(_log_cephes(x) - np.log(x.astype(np.float64))) <= 2 * ulp + 1e-12)
    theta = np.float32(2 * np.pi) * u
    sin, cos = _sincos_cephes(theta)
    assert np.max(np.abs(sin - np.sin(theta.astype(np.float64)))) < 2e-7
    assert np.max(np.abs(cos - np.cos(theta.astype(np.float64)))) < 2e-7


@pytest.mark.parametrize("low, high", [(-0.3, 0.3), (-5 ** -0.5, 5 ** -0.5), (2.0, 7.5), (-1e-3, 5.0)])
@pytest.mark.parametrize("n", [3, 15, 1000])
def test_float64_uniforms_are_one_fused_multiply_add(n: int, low: float, high: float) -> None:
    """PyTorch computes ``x * (high - low) + low`` with one rounding in float64 too: with two, half of the values of
    a range like (-0.3, 0.3) came out one bit off, and so did every float64 layer's initial weights."""
    torch = oracle()
    if torch is None:
        pytest.skip("compares with PyTorch")
    tg.manual_seed(4)
    torch.manual_seed(4)
    ours = tg.empty(n, dtype=tg.float64).uniform_(low, high).numpy()
    assert np.array_equal(ours, torch.empty(n, dtype=torch.float64).uniform_(low, high).numpy())


@pytest.mark.parametrize("init", ["kaiming_uniform_", "xavier_uniform_", "kaiming_normal_", "xavier_normal_"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_initialisers_compute_their_bounds_as_pytorch(init: str, dtype: str) -> None:
    """The bound's own last bit matters in float64: sqrt(3) * (gain / sqrt(fan)), in PyTorch's order."""
    torch = oracle()
    if torch is None:
        pytest.skip("compares with PyTorch")
    kwargs = {"a": 5 ** 0.5} if init.startswith("kaiming") else {}
    drawn = []
    for lib in (tg, torch):
        lib.manual_seed(1)
        w = lib.empty(7, 9, dtype=getattr(lib, dtype))
        getattr(lib.nn.init, init)(w, **kwargs)
        drawn.append(w.numpy())
    assert np.array_equal(*drawn)


def test_a_float64_layer_starts_from_pytorchs_weights() -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("compares with PyTorch")
    layers = []
    for lib in (tg, torch):
        lib.manual_seed(0)
        layers.append([p.detach().numpy() for p in lib.nn.Linear(5, 3, dtype=lib.float64).parameters()])
    assert all(np.array_equal(a, b) for a, b in zip(*layers))


def test_poisson_draws_have_a_zero_gradient_and_pytorchs_refusals() -> None:
    def drawn(lib: ModuleType) -> Any:
        rates = lib.tensor([1.0, 20.0], requires_grad=True)
        counts = lib.poisson(rates)
        counts.sum().backward()
        return type(counts.grad_fn).__name__, rates.grad

    as_pytorch(drawn, (None, "('PoissonBackward0', tensor([0., 0.]))", []))
    for rates in ([-1.0], [float("nan")]):
        raises(lambda lib, r=rates: lib.poisson(lib.tensor(r)), RuntimeError,
               "invalid Poisson rate, expected rate to be non-negative")
    raises(lambda lib: lib.poisson(lib.tensor([1, 2])), NotImplementedError,
           '"poisson_cpu" not implemented for \'Long\'')


def test_many_poisson_draws_are_pytorchs() -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("compares with PyTorch")
    rates = np.concatenate([np.linspace(0, 30, 301), [1e3, 5e4, 12.5, 9.99, 10.0] * 20])
    for seed in range(3):
        tg.manual_seed(seed)
        torch.manual_seed(seed)
        assert np.array_equal(tg.poisson(tg.tensor(rates)).numpy(), torch.poisson(torch.tensor(rates)).numpy())


def test_randint_wants_low_below_high() -> None:
    raises(lambda lib: lib.randint(5, 2, (2,)), RuntimeError,
           "random_ expects 'from' to be less than 'to', but got from=5 >= to=2")
    raises(lambda lib: lib.randint_like(lib.zeros(2), 5, 2), RuntimeError,
           "random_ expects 'from' to be less than 'to', but got from=5 >= to=2")


@pytest.mark.parametrize("sampler, args", [("geometric_", (0.3,)), ("geometric_", (0.9,)), ("cauchy_", (2.0, 3.0)),
                                           ("cauchy_", ()), ("log_normal_", ()), ("log_normal_", (0.5, 0.25))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_more_in_place_samplers_draw_pytorchs_numbers(sampler: str, args: tuple, dtype: str) -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("compares with PyTorch")
    for n in (3, 17, 1000):
        drawn = []
        for lib in (tg, torch):
            lib.manual_seed(n)
            drawn.append(getattr(lib.empty(n, dtype=getattr(lib, dtype)), sampler)(*args).numpy())
        assert np.array_equal(*drawn)


def test_in_place_samplers_nodes_and_refusals() -> None:
    def nodes(lib: ModuleType) -> Any:
        out = []
        for sampler, args in (("geometric_", (0.5,)), ("cauchy_", ()), ("log_normal_", ())):
            x = lib.zeros(3, requires_grad=True)
            y = getattr(x.clone(), sampler)(*args)
            y.sum().backward()
            out.append((type(y.grad_fn).__name__, x.grad.tolist()))
        return out

    as_pytorch(nodes, (None, "[('GeometricBackward0', [0.0, 0.0, 0.0]), ('CauchyBackward0', [0.0, 0.0, 0.0]), "
                             "('LogNormalBackward0', [0.0, 0.0, 0.0])]", []))
    for p in (0, 1.5):
        raises(lambda lib, p=p: lib.empty(3).geometric_(p), RuntimeError,
               f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    raises(lambda lib: lib.empty(3).log_normal_(1, -1), RuntimeError, "log_normal_ expects std > 0.0, but found std=-1")
    raises(lambda lib: lib.empty(3).cauchy_(0, -1), RuntimeError, "cauchy_ expects sigma > 0.0, but found sigma=-1")
    raises(lambda lib: lib.empty(3, dtype=lib.int64).cauchy_(), RuntimeError,
           "Cauchy distribution is a continuous probability distribution. dtype must be a floating point but you "
           "specified long int")
    raises(lambda lib: lib.empty(3, dtype=lib.int64).log_normal_(), NotImplementedError,
           '"log_normal_cpu" not implemented for \'Long\'')
