"""torch.distributions as tutorials use it: d2l's dice (Multinomial), REINFORCE (Categorical's sample and log_prob),
VAEs (Normal's rsample and kl_divergence), Bernoulli and Uniform: the same draws as PyTorch after the same
manual_seed, the same values and gradients, reprs and errors.

Each case is run with tinygrad_edu and, when torch is installed, with torch (``_oracle.as_pytorch``); the expected
outcome is spelled out next to it, so each test means something without torch.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, err, ok, oracle

import tinygrad_edu as tg


class Shown(str):
    """A result shown as print shows it (its repr is the text itself)."""

    def __repr__(self) -> str:
        return str(self)


def show(*values: Any) -> Shown:
    """``print(*values)``'s text."""
    return Shown(" ".join(str(v) for v in values))


def D(lib: ModuleType) -> Any:
    return lib.distributions


def _d2l_dice(lib: ModuleType) -> Shown:
    """d2l's (and Dive into Deep Learning's) probability section, cell after cell."""
    multinomial = lib.distributions.multinomial
    lib.manual_seed(0)
    fair_probs = lib.ones([6]) / 6
    lines = [multinomial.Multinomial(1, fair_probs).sample(), multinomial.Multinomial(10, fair_probs).sample()]
    counts = multinomial.Multinomial(1000, fair_probs).sample()
    lines.append(counts / 1000)
    counts = multinomial.Multinomial(10, fair_probs).sample((500,))
    cum_counts = counts.cumsum(dim=0)
    estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
    lines += [estimates[:3], estimates[-1], estimates.shape]
    return show(*lines)


def _d2l_new(lib: ModuleType) -> Shown:
    """d2l-en's newer version: ``from torch.distributions.multinomial import Multinomial``."""
    Multinomial = lib.distributions.multinomial.Multinomial
    lib.manual_seed(1)
    fair_probs = lib.ones(6) / 6
    tosses = Multinomial(1, fair_probs).sample((10000,))
    return show(Multinomial(100, lib.tensor([0.5, 0.5])).sample(), tosses.sum(0), tosses.shape, tosses.dtype)


def _seeded(lib: ModuleType, seed: int = 0) -> ModuleType:
    lib.manual_seed(seed)
    return lib.distributions


SAMPLES = {
    "d2l's dice": (
        _d2l_dice,
        ok("tensor([0., 0., 1., 0., 0., 0.]) tensor([0., 3., 5., 2., 0., 0.]) tensor([0.1630, 0.1760, "
            "0.1600, 0.1760, 0.1670, 0.1580]) tensor([[0.0000, 0.2000, 0.2000, 0.1000, 0.1000, "
            "0.4000],\n"
            "        [0.1500, 0.1000, 0.2500, 0.1500, 0.0500, 0.3000],\n"
            "        [0.1333, 0.1000, 0.2000, 0.2000, 0.1333, 0.2333]]) tensor([0.1642, 0.1698, "
            "0.1666, 0.1672, 0.1608, 0.1714]) tinygrad_edu.Size([500, 6])")),
    "d2l-en's newer dice": (
        _d2l_new,
        ok("tensor([47., 53.]) tensor([1721., 1647., 1662., 1630., 1708., 1632.]) "
            "tinygrad_edu.Size([10000, 6]) tinygrad_edu.float32")),
    "Multinomial, batched probs": (
        lambda lib: _seeded(lib).Multinomial(4, lib.tensor([[0.1, 0.9], [0.5, 0.5], [1.0, 3.0]])).sample((2,)),
        ok("tensor([[[0., 4.],\n"
            "         [3., 1.],\n"
            "         [2., 2.]],\n"
            "\n"
            "        [[0., 4.],\n"
            "         [3., 1.],\n"
            "         [1., 3.]]])")),
    "Multinomial from logits, float64": (
        lambda lib: _seeded(lib, 3).Multinomial(7, logits=lib.tensor([0.0, 1.0, -1.0], dtype=lib.float64)).sample(),
        ok("tensor([3., 4., 0.], dtype=tinygrad_edu.float64)")),
    "Normal.sample, batch (2,)": (
        lambda lib: show(*[_seeded(lib).Normal(lib.tensor([0.0, 1.0]), lib.tensor([1.0, 2.0])).sample(s)
                          for s in [(), (3,), (2, 3)]]),
        ok("tensor([1.5410, 0.4131]) tensor([[ 1.5410,  0.4131],\n"
            "        [-2.1788,  2.1369],\n"
            "        [-1.0845, -1.7972]]) tensor([[[ 1.5410,  0.4131],\n"
            "         [-2.1788,  2.1369],\n"
            "         [-1.0845, -1.7972]],\n"
            "\n"
            "        [[ 0.4033,  2.6761],\n"
            "         [-0.7193,  0.1933],\n"
            "         [-0.5966,  1.3641]]])")),
    "Normal.sample, numbers": (
        lambda lib: _seeded(lib, 5).Normal(1.0, 0.5).sample((20,)),
        ok("tensor([1.9212, 1.2594, 0.1440, 0.1493, 0.9352, 0.6991, 1.0725, 0.9251, 2.3073,\n"
            "        0.7830, 1.1762, 0.9677, 1.7415, 1.2470, 1.1246, 1.8735, 1.3724, 1.0158,\n"
            "        0.4138, 0.2465])")),
    "Normal.sample, float64": (
        lambda lib: _seeded(lib, 2).Normal(lib.zeros(4, dtype=lib.float64), 3.0).sample((5,)),
        ok("tensor([[-2.3581, -1.3167,  4.0991, -1.5283],\n"
            "        [ 1.9064, -4.4136,  5.2501,  2.2250],\n"
            "        [-2.9764, -0.7499, -0.9603, -0.4156],\n"
            "        [ 4.5707,  1.6131,  0.9595,  4.0550],\n"
            "        [-1.0290,  1.4267, -6.0136,  0.5279]], dtype=tinygrad_edu.float64)")),
    "Normal.sample has no grad": (
        lambda lib: _seeded(lib).Normal(lib.zeros(2, requires_grad=True), 1.0).sample(),
        ok("tensor([ 1.5410, -0.2934])")),
    "Normal.rsample": (
        lambda lib: _seeded(lib).Normal(lib.zeros(2, requires_grad=True), lib.ones(2)).rsample((3,)),
        ok("tensor([[ 1.5410, -0.2934],\n"
            "        [-2.1788,  0.5684],\n"
            "        [-1.0845, -1.3986]], grad_fn=<AddBackward0>)")),
    "Normal.rsample, 17 numbers (the vectorised draws)": (
        lambda lib: _seeded(lib, 4).Normal(0.0, 1.0).rsample((17,)),
        ok("tensor([-0.9414, -0.6682,  0.0031, -0.1535,  1.1396, -0.2302,  1.1877,  0.7677,\n"
            "        -0.7117, -0.1853, -0.8558, -0.2346, -0.4215,  0.8488, -0.6776, -0.9445,\n"
            "         2.1698])")),
    "Bernoulli.sample, probs": (
        lambda lib: _seeded(lib).Bernoulli(lib.tensor([0.1, 0.5, 0.9])).sample((4,)),
        ok("tensor([[0., 0., 1.],\n"
            "        [0., 1., 1.],\n"
            "        [0., 0., 1.],\n"
            "        [0., 1., 1.]])")),
    "Bernoulli.sample, logits": (
        lambda lib: _seeded(lib, 1).Bernoulli(logits=lib.tensor([[-2.0], [3.0]])).sample((3,)),
        ok("tensor([[[0.],\n"
            "         [1.]],\n"
            "\n"
            "        [[0.],\n"
            "         [1.]],\n"
            "\n"
            "        [[1.],\n"
            "         [1.]]])")),
    "Bernoulli.sample, a number": (
        lambda lib: _seeded(lib, 2).Bernoulli(0.3).sample((10,)),
        ok("tensor([0., 0., 0., 0., 0., 0., 0., 1., 0., 1.])")),
    "Bernoulli.sample, float64": (
        lambda lib: _seeded(lib, 2).Bernoulli(lib.full((6,), 0.3, dtype=lib.float64)).sample(),
        ok("tensor([0., 1., 0., 0., 0., 0.], dtype=tinygrad_edu.float64)")),
    "Categorical.sample": (
        lambda lib: show(*[_seeded(lib).Categorical(lib.tensor([0.2, 0.3, 0.5])).sample(s)
                          for s in [(), (6,), (2, 3)]]),
        ok("tensor(2) tensor([2, 2, 1, 2, 2, 2]) tensor([[2, 2, 1],\n"
            "        [2, 2, 2]])")),
    "Categorical.sample, weights and a batch": (
        lambda lib: _seeded(lib, 7).Categorical(lib.tensor([[1.0, 1.0, 2.0], [5.0, 0.0, 1.0]])).sample((4,)),
        ok("tensor([[1, 2],\n"
            "        [1, 2],\n"
            "        [2, 0],\n"
            "        [2, 0]])")),
    "Categorical.sample, logits": (
        lambda lib: _seeded(lib, 8).Categorical(logits=lib.tensor([0.5, -1.0, 2.0, 0.0])).sample((3, 2)),
        ok("tensor([[2, 2],\n"
            "        [0, 1],\n"
            "        [2, 2]])")),
    "Uniform.sample": (
        lambda lib: _seeded(lib).Uniform(-1.0, 3.0).sample((5,)),
        ok("tensor([ 0.9850,  2.0729, -0.6461, -0.4719,  0.2297])")),
    "Uniform.rsample, batch": (
        lambda lib: _seeded(lib, 9).Uniform(lib.zeros(2), lib.tensor([1.0, 10.0], requires_grad=True)).rsample((2,)),
        ok("tensor([[0.6558, 3.0202],\n"
            "        [0.4799, 7.7737]], grad_fn=<AddBackward0>)")),
    "sample_n (deprecated)": (
        lambda lib: _seeded(lib).Normal(0.0, 1.0).sample_n(3),
        (None, "tensor([ 1.5410, -0.2934, -2.1788])",
         ["FutureWarning: `sample_n(n)` will be deprecated. Use `sample((n,))` instead."])),
    "sample, then randn continues the stream": (
        lambda lib: (_seeded(lib).Categorical(lib.ones(4)).sample((3,)), lib.randn(2)),
        ok("(tensor([3, 2, 1]), tensor([ 1.2645, -0.6874]))")),
}


def _normal(lib: ModuleType, dtype: str = "float64") -> tuple[Any, Any, Any]:
    loc = lib.tensor([0.5, -1.0, 2.0], dtype=getattr(lib, dtype), requires_grad=True)
    scale = lib.tensor([1.0, 0.5, 3.0], dtype=getattr(lib, dtype), requires_grad=True)
    return loc, scale, lib.distributions.Normal(loc, scale)


def _grads(out: Any, *params: Any) -> Shown:
    """``out``, then the gradients ``out.sum().backward()`` gives ``params``."""
    out.sum().backward()
    return show(out, *[p.grad for p in params])


def _reinforce(lib: ModuleType) -> Shown:
    """PyTorch's REINFORCE example: a policy's probabilities, an action drawn, -log_prob * reward backpropagated."""
    lib.manual_seed(0)
    policy = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.Softmax(dim=-1))
    state = lib.tensor([[0.1, -0.2, 0.3, 0.5], [1.0, 0.0, -1.0, 0.5]])
    probs = policy(state)
    m = lib.distributions.Categorical(probs)
    action = m.sample()
    loss = (-m.log_prob(action) * lib.tensor([1.0, -0.5])).sum()
    loss.backward()
    return show(action, loss, policy[0].weight.grad, policy[0].bias.grad)


def _vae(lib: ModuleType) -> Shown:
    """A VAE's sampling and KL term: rsample from q = Normal(mu, std), KL(q || N(0, 1)), backpropagated."""
    lib.manual_seed(0)
    encoder = lib.nn.Linear(3, 4)
    h = encoder(lib.tensor([[0.5, -1.0, 2.0], [1.0, 1.0, 0.0]]))
    mu, logvar = h[:, :2], h[:, 2:]
    std = lib.exp(0.5 * logvar)
    q = lib.distributions.Normal(mu, std)
    z = q.rsample()
    p = lib.distributions.Normal(lib.zeros_like(mu), lib.ones_like(std))
    kl = lib.distributions.kl_divergence(q, p).sum()
    loss = kl + (z**2).sum()
    loss.backward()
    return show(z, kl, encoder.weight.grad, encoder.bias.grad)


VALUES = {
    "Normal.log_prob and its gradient": (
        lambda lib: (lambda lo, s, n: _grads(n.log_prob(lib.tensor([0.0, 0.0, 1.0], dtype=lib.float64)), lo, s))(
            *_normal(lib)),
        ok("tensor([-1.0439, -2.2258, -2.0731], dtype=tinygrad_edu.float64,\n"
            "       grad_fn=<SubBackward0>) tensor([-0.5000,  4.0000, -0.1111], "
            "dtype=tinygrad_edu.float64) tensor([-0.7500,  6.0000, -0.2963], "
            "dtype=tinygrad_edu.float64)")),
    "Normal.entropy, mean, mode, variance, stddev": (
        lambda lib: (lambda lo, s, n: show(n.entropy(), n.mean, n.mode, n.variance, n.stddev))(*_normal(lib)),
        ok("tensor([1.4189, 0.7258, 2.5176], dtype=tinygrad_edu.float64, grad_fn=<AddBackward0>) "
            "tensor([ 0.5000, -1.0000,  2.0000], dtype=tinygrad_edu.float64, requires_grad=True) "
            "tensor([ 0.5000, -1.0000,  2.0000], dtype=tinygrad_edu.float64, requires_grad=True) "
            "tensor([1.0000, 0.2500, 9.0000], dtype=tinygrad_edu.float64, grad_fn=<PowBackward0>) "
            "tensor([1.0000, 0.5000, 3.0000], dtype=tinygrad_edu.float64, requires_grad=True)")),
    "Normal.cdf and icdf": (
        lambda lib: show(lib.distributions.Normal(0.0, 2.0).cdf(lib.tensor([-1.0, 0.0, 3.0])),
                         lib.distributions.Normal(1.0, 2.0).icdf(lib.tensor([0.1, 0.5, 0.975]))),
        ok("tensor([0.3085, 0.5000, 0.9332]) tensor([-1.5631,  1.0000,  4.9199])")),
    "Normal.log_prob of a number, float32": (
        lambda lib: lib.distributions.Normal(lib.tensor([0.0, 1.0]), 2.0).log_prob(lib.tensor(0.5)),
        ok("tensor([-1.6433, -1.6433])")),
    "Normal.rsample's gradient": (
        lambda lib: (lambda lo, s, n: (lib.manual_seed(0), _grads(n.rsample((2,)), lo, s))[1])(*_normal(lib)),
        ok("tensor([[ 2.0410, -1.1467, -4.5364],\n"
            "        [ 1.0684, -1.5423, -2.1958]], dtype=tinygrad_edu.float64,\n"
            "       grad_fn=<AddBackward0>) tensor([2., 2., 2.], dtype=tinygrad_edu.float64) tensor([ "
            "2.1094, -1.3780, -3.5774], dtype=tinygrad_edu.float64)")),
    "Normal.entropy's gradient": (
        lambda lib: (lambda lo, s, n: _grads(n.entropy(), s))(*_normal(lib)),
        ok("tensor([1.4189, 0.7258, 2.5176], dtype=tinygrad_edu.float64, grad_fn=<AddBackward0>) "
            "tensor([1.0000, 2.0000, 0.3333], dtype=tinygrad_edu.float64)")),
    "Bernoulli from probs: log_prob and its gradient": (
        lambda lib: (lambda p: _grads(lib.distributions.Bernoulli(p).log_prob(lib.tensor([1.0, 0.0, 1.0])), p))(
            lib.tensor([0.2, 0.7, 0.5], requires_grad=True)),
        ok("tensor([-1.6094, -1.2040, -0.6931], grad_fn=<NegBackward0>) tensor([ 5.0000, -3.3333,  "
            "2.0000])")),
    "Bernoulli from logits: entropy and its gradient": (
        lambda lib: (lambda g: _grads(lib.distributions.Bernoulli(logits=g).entropy(), g))(
            lib.tensor([-1.0, 0.0, 2.5], dtype=lib.float64, requires_grad=True)),
        ok("tensor([0.5822, 0.6931, 0.2685], dtype=tinygrad_edu.float64,\n"
            "       grad_fn=<BinaryCrossEntropyWithLogitsBackward0>) tensor([ 0.1966,  0.0000, "
            "-0.1753], dtype=tinygrad_edu.float64)")),
    "Bernoulli: mean, mode, variance, logits, probs": (
        lambda lib: (lambda b: show(b.mean, b.mode, b.variance, b.logits, b.probs, b.param_shape))(
            lib.distributions.Bernoulli(lib.tensor([0.2, 0.5, 0.9]))),
        ok("tensor([0.2000, 0.5000, 0.9000]) tensor([0., nan, 1.]) tensor([0.1600, 0.2500, 0.0900]) "
            "tensor([-1.3863,  0.0000,  2.1972]) tensor([0.2000, 0.5000, 0.9000]) "
            "tinygrad_edu.Size([3])")),
    "Bernoulli.enumerate_support": (
        lambda lib: lib.distributions.Bernoulli(lib.tensor([0.2, 0.5])).enumerate_support(),
        ok("tensor([[0., 0.],\n"
            "        [1., 1.]])")),
    "Categorical from probs: log_prob, entropy and gradients": (
        lambda lib: (lambda p: _grads(lib.distributions.Categorical(p).log_prob(lib.tensor([[2], [0]]))
                                      + lib.distributions.Categorical(p).entropy(), p))(
            lib.tensor([[0.2, 0.3, 0.5], [1.0, 2.0, 1.0]], dtype=lib.float64, requires_grad=True)),
        ok("tensor([[ 0.3365, -0.3466],\n"
            "        [-0.5798, -0.3466]], dtype=tinygrad_edu.float64, grad_fn=<AddBackward0>) "
            "tensor([[ 4.1596, -1.6514, -0.6730],\n"
            "        [ 0.6733, -0.6733,  0.6733]], dtype=tinygrad_edu.float64)")),
    "Categorical from logits: log_prob and its gradient": (
        lambda lib: (lambda g: _grads(lib.distributions.Categorical(logits=g).log_prob(lib.tensor([1, 0, 3])), g))(
            lib.tensor([0.5, -1.0, 2.0, 0.0], requires_grad=True)),
        ok("tensor([-3.3423, -1.8423, -2.3423], grad_fn=<SqueezeBackward1>) tensor([ 0.5247,  0.8939, "
            "-2.1303,  0.7117])")),
    "Categorical: mean, variance, mode, probs, logits, enumerate_support": (
        lambda lib: (lambda c: show(c.mean, c.variance, c.mode, c.probs, c.logits, c.enumerate_support(),
                                    c.batch_shape, c.event_shape))(
            lib.distributions.Categorical(lib.tensor([[1.0, 3.0], [2.0, 2.0]]))),
        ok("tensor([nan, nan]) tensor([nan, nan]) tensor([1, 0]) tensor([[0.2500, 0.7500],\n"
            "        [0.5000, 0.5000]]) tensor([[-1.3863, -0.2877],\n"
            "        [-0.6931, -0.6931]]) tensor([[0, 0],\n"
            "        [1, 1]]) tinygrad_edu.Size([2]) tinygrad_edu.Size([])")),
    "Categorical.entropy with a zero probability": (
        lambda lib: lib.distributions.Categorical(lib.tensor([0.0, 0.25, 0.75])).entropy(),
        ok("tensor(0.5623)")),
    "REINFORCE": (
        _reinforce,
        ok("tensor([0, 0]) tensor(0.9663, grad_fn=<SumBackward0>) tensor([[ 0.2579,  0.1564, -0.5708, "
            "-0.2230],\n"
            "        [-0.1120, -0.0841,  0.2801,  0.1331],\n"
            "        [-0.1459, -0.0724,  0.2906,  0.0899]]) tensor([-0.4460,  0.2662,  0.1798])")),
    "Multinomial: log_prob, entropy and gradients": (
        lambda lib: (lambda p: _grads(lib.distributions.Multinomial(5, p).log_prob(lib.tensor([1.0, 4.0, 0.0]))
                                      + lib.distributions.Multinomial(5, p).entropy(), p))(
            lib.tensor([0.2, 0.7, 0.1], dtype=lib.float64, requires_grad=True)),
        ok("tensor(0.7110, dtype=tinygrad_edu.float64, grad_fn=<AddBackward0>) tensor([ 1.3202, "
            "-0.1823, -1.3643], dtype=tinygrad_edu.float64)")),
    "Multinomial: mean, variance, shapes": (
        lambda lib: (lambda m: show(m.mean, m.variance, m.batch_shape, m.event_shape, m.param_shape, m.total_count))(
            lib.distributions.Multinomial(10, lib.tensor([[0.5, 0.5, 0.0], [0.2, 0.2, 0.6]]))),
        ok("tensor([[5., 5., 0.],\n"
            "        [2., 2., 6.]]) tensor([[2.5000, 2.5000, 0.0000],\n"
            "        [1.6000, 1.6000, 2.4000]]) tinygrad_edu.Size([2]) tinygrad_edu.Size([3]) "
            "tinygrad_edu.Size([2, 3]) 10")),
    "Multinomial.log_prob, a zero probability": (
        lambda lib: lib.distributions.Multinomial(3, logits=lib.tensor([0.0, -math.inf, 1.0])).log_prob(
            lib.tensor([[1.0, 0.0, 2.0], [3.0, 0.0, 0.0]])),
        ok("tensor([-0.8412, -3.9398])")),
    "Uniform: log_prob inside and outside, entropy, mean, variance, stddev, cdf": (
        lambda lib: (lambda u: show(u.log_prob(lib.tensor([-2.0, 0.0, 2.9, 3.0])), u.entropy(), u.mean, u.variance,
                                    u.stddev, u.cdf(lib.tensor([0.0, 1.0, 5.0])), u.mode))(
            lib.distributions.Uniform(-1.0, 3.0, validate_args=False)),
        ok("tensor([   -inf, -1.3863, -1.3863,    -inf]) tensor(1.3863) tensor(1.) tensor(1.3333) "
            "tensor(1.1547) tensor([0.2500, 0.5000, 1.0000]) tensor(nan)")),
    "Uniform: gradients of log_prob and rsample": (
        lambda lib: (lambda lo, hi: (lib.manual_seed(0), _grads(
            lib.distributions.Uniform(lo, hi).log_prob(lib.tensor([0.5, 1.5], dtype=lib.float64))
            + lib.distributions.Uniform(lo, hi).rsample(), lo, hi))[1])(
            lib.tensor([0.0, 1.0], dtype=lib.float64, requires_grad=True),
            lib.tensor([2.0, 4.0], dtype=lib.float64, requires_grad=True)),
        ok("tensor([1.2470, 2.0248], dtype=tinygrad_edu.float64, grad_fn=<AddBackward0>) "
            "tensor([0.5299, 0.6255], dtype=tinygrad_edu.float64) tensor([0.4701, 0.3745], "
            "dtype=tinygrad_edu.float64)")),
    "perplexity": (
        lambda lib: lib.distributions.Categorical(lib.ones(4)).perplexity(),
        ok("tensor(4.)")),
    "expand": (
        lambda lib: (lambda e: show(e, e.batch_shape, e.loc, _seeded(lib).Normal(0.0, 1.0).expand((2, 2)).sample()))(
            lib.distributions.Normal(lib.tensor([0.0, 1.0]), 1.0).expand((3, 2))),
        ok("Normal(loc: tinygrad_edu.Size([3, 2]), scale: tinygrad_edu.Size([3, 2])) "
            "tinygrad_edu.Size([3, 2]) tensor([[0., 1.],\n"
            "        [0., 1.],\n"
            "        [0., 1.]]) tensor([[ 1.5410, -0.2934],\n"
            "        [-2.1788,  0.5684]])")),
    "Categorical.expand": (
        lambda lib: (lambda e: show(e, e.batch_shape, e.probs))(
            lib.distributions.Categorical(lib.tensor([0.25, 0.75])).expand((2,))),
        ok("Categorical(probs: tinygrad_edu.Size([2, 2])) tinygrad_edu.Size([2]) tensor([[0.2500, "
            "0.7500],\n"
            "        [0.2500, 0.7500]])")),
}

KL = {
    "Normal, Normal and the gradients": (
        lambda lib: (lambda lo, s, n: _grads(lib.distributions.kl_divergence(
            n, lib.distributions.Normal(lib.tensor(0.0, dtype=lib.float64), 2.0)), lo, s))(*_normal(lib)),
        ok("tensor([0.3494, 1.0425, 0.7195], dtype=tinygrad_edu.float64, grad_fn=<MulBackward0>) "
            "tensor([ 0.1250, -0.2500,  0.5000], dtype=tinygrad_edu.float64) tensor([-0.7500, -1.8750, "
            " 0.4167], dtype=tinygrad_edu.float64)")),
    "a VAE's KL term": (
        _vae,
        ok("tensor([[-2.2950, -0.4754],\n"
            "        [-0.9083, -0.8476]], grad_fn=<AddBackward0>) tensor(2.3452, "
            "grad_fn=<SumBackward0>) tensor([[ -5.2647,   4.3410, -12.8076],\n"
            "        [ -3.2317,  -1.7113,  -2.0272],\n"
            "        [  1.1313,  -0.1108,   1.6562],\n"
            "        [ -0.0448,  -0.3737,   0.4386]]) tensor([-8.4666, -3.7385,  1.5453,  0.0649])")),
    "Bernoulli, Bernoulli (0 and 1 included) and the gradient": (
        lambda lib: (lambda p: _grads(lib.distributions.kl_divergence(
            lib.distributions.Bernoulli(p),
            lib.distributions.Bernoulli(lib.tensor([0.5, 0.5, 0.0, 1.0, 0.3], dtype=lib.float64))), p))(
            lib.tensor([0.2, 0.0, 0.5, 1.0, 0.3], dtype=lib.float64, requires_grad=True)),
        ok("tensor([0.1927, 0.6931,    inf, 0.0000, 0.0000], dtype=tinygrad_edu.float64,\n"
            "       grad_fn=<AddBackward0>) tensor([-1.3863e+00, -6.9315e-01, -3.0685e-01,  "
            "0.0000e+00,  1.3217e-16],\n"
            "       dtype=tinygrad_edu.float64)")),
    "Categorical, Categorical and the gradient": (
        lambda lib: (lambda g: _grads(lib.distributions.kl_divergence(
            lib.distributions.Categorical(logits=g),
            lib.distributions.Categorical(lib.tensor([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]], dtype=lib.float64))), g))(
            lib.tensor([[0.0, 1.0, -1.0], [2.0, 0.5, 0.0]], dtype=lib.float64, requires_grad=True)),
        ok("tensor([0.8339,    inf], dtype=tinygrad_edu.float64, grad_fn=<SumBackward1>) tensor([[ "
            "0.0150,  0.2448, -0.2597],\n"
            "        [ 0.2831, -0.1832, -0.0998]], dtype=tinygrad_edu.float64)")),
    "Categorical, Categorical with zeros": (
        lambda lib: lib.distributions.kl_divergence(lib.distributions.Categorical(lib.tensor([0.0, 0.5, 0.5])),
                                                    lib.distributions.Categorical(lib.tensor([0.5, 0.5, 0.0]))),
        ok("tensor(inf)")),
    "Uniform, Uniform": (
        lambda lib: lib.distributions.kl_divergence(
            lib.distributions.Uniform(lib.tensor([0.0, 0.0, -1.0]), lib.tensor([1.0, 2.0, 1.0])),
            lib.distributions.Uniform(lib.tensor([-1.0, 0.5, -1.0]), lib.tensor([3.0, 2.0, 2.0]))),
        ok("tensor([1.3863,    inf, 0.4055])")),
    "Uniform, Normal and the gradients": (
        lambda lib: (lambda lo, hi: _grads(lib.distributions.kl_divergence(
            lib.distributions.Uniform(lo, hi), lib.distributions.Normal(0.5, 2.0)), lo, hi))(
            lib.tensor([0.0, -1.0], dtype=lib.float64, requires_grad=True),
            lib.tensor([1.0, 3.0], dtype=lib.float64, requires_grad=True)),
        ok("tensor([1.6225, 0.4237], dtype=tinygrad_edu.float64, grad_fn=<AddBackward0>) "
            "tensor([0.9792, 0.2292], dtype=tinygrad_edu.float64) tensor([-0.9792, -0.1042], "
            "dtype=tinygrad_edu.float64)")),
    "Normal, Uniform is infinite": (
        lambda lib: lib.distributions.kl_divergence(lib.distributions.Normal(lib.zeros(2), 1.0),
                                                    lib.distributions.Uniform(-1.0, 1.0)),
        ok("tensor([inf, inf])")),
    "Normal, Bernoulli": (
        lambda lib: lib.distributions.kl_divergence(lib.distributions.Normal(0.0, 1.0),
                                                    lib.distributions.Bernoulli(0.5)),
        err("NotImplementedError", "The cross KL-divergence between different exponential families cannot "
                                   + " " * 28 + "be computed using Bregman divergences")),
    "Categorical, Normal": (
        lambda lib: lib.distributions.kl_divergence(lib.distributions.Categorical(lib.ones(2)),
                                                    lib.distributions.Normal(0.0, 1.0)),
        err("NotImplementedError", "No KL(p || q) is implemented for p type Categorical and q type Normal")),
    "Multinomial, Multinomial": (
        lambda lib: lib.distributions.kl_divergence(lib.distributions.Multinomial(2, lib.ones(2)),
                                                    lib.distributions.Multinomial(2, lib.ones(2))),
        err("NotImplementedError", "No KL(p || q) is implemented for p type Multinomial and q type Multinomial")),
}

REPRS = {
    "Normal of tensors": (
        lambda lib: lib.distributions.Normal(lib.zeros(2), lib.ones(2)),
        ok("Normal(loc: tinygrad_edu.Size([2]), scale: tinygrad_edu.Size([2]))")),
    "Normal of numbers": (
        lambda lib: lib.distributions.Normal(0.0, 1.0),
        ok("Normal(loc: 0.0, scale: 1.0)")),
    "Normal of one-element tensors": (
        lambda lib: lib.distributions.Normal(lib.tensor([0.5]), lib.tensor([[2.0]])),
        ok("Normal(loc: tensor([[0.5000]]), scale: tensor([[2.]]))")),
    "Bernoulli": (
        lambda lib: (lib.distributions.Bernoulli(0.3), lib.distributions.Bernoulli(logits=lib.zeros(3, 2))),
        ok("(Bernoulli(probs: 0.30000001192092896), Bernoulli(logits: tinygrad_edu.Size([3, 2])))")),
    "Categorical before and after its logits are asked for": (
        lambda lib: (lambda c: (repr(c), c.logits.shape, c))(lib.distributions.Categorical(lib.ones(5))),
        ok("('Categorical(probs: tinygrad_edu.Size([5]))', tinygrad_edu.Size([5]), Categorical(probs: "
            "tinygrad_edu.Size([5]), logits: tinygrad_edu.Size([5])))")),
    "Multinomial and Uniform": (
        lambda lib: (lib.distributions.Multinomial(10, lib.ones(6) / 6), lib.distributions.Uniform(0.0, 2.0),
                     lib.distributions.Uniform(lib.zeros(3), 1.0)),
        ok("(Multinomial(), Uniform(low: 0.0, high: 2.0), Uniform(low: tinygrad_edu.Size([3]), high: "
            "tinygrad_edu.Size([3])))")),
    "constraints": (
        lambda lib: (lib.distributions.constraints.real, lib.distributions.constraints.positive,
                     lib.distributions.constraints.unit_interval, lib.distributions.constraints.simplex,
                     lib.distributions.constraints.real_vector, lib.distributions.constraints.boolean,
                     lib.distributions.constraints.nonnegative_integer, lib.distributions.constraints.interval(0, 2),
                     lib.distributions.constraints.half_open_interval(0.0, 1.0),
                     lib.distributions.constraints.greater_than_eq(1), lib.distributions.constraints.less_than(3)),
        ok("(Real(), GreaterThan(lower_bound=0.0), Interval(lower_bound=0.0, upper_bound=1.0), "
            "Simplex(), IndependentConstraint(Real(), 1), Boolean(), "
            "IntegerGreaterThan(lower_bound=0), Interval(lower_bound=0, upper_bound=2), "
            "HalfOpenInterval(lower_bound=0.0, upper_bound=1.0), GreaterThanEq(lower_bound=1), "
            "LessThan(upper_bound=3))")),
    "supports": (
        lambda lib: (lib.distributions.Normal(0.0, 1.0).support, lib.distributions.Bernoulli(0.5).support,
                     lib.distributions.Categorical(lib.ones(3)).support,
                     lib.distributions.Multinomial(4, lib.ones(3)).support,
                     lib.distributions.Uniform(0.0, 2.0).support),
        ok("(Real(), Boolean(), IntegerInterval(lower_bound=0, upper_bound=2), Multinomial(), "
            "Interval(lower_bound=0.0, upper_bound=2.0))")),
    "what a distribution has": (
        lambda lib: [(c.has_rsample, c.has_enumerate_support) for c in (
            lib.distributions.Normal, lib.distributions.Bernoulli, lib.distributions.Categorical,
            lib.distributions.Multinomial, lib.distributions.Uniform)],
        ok("[(True, False), (False, True), (False, True), (False, False), (True, False)]")),
    "constraint checks": (
        lambda lib: (lib.distributions.constraints.simplex.check(lib.tensor([[0.5, 0.5], [0.7, 0.2]])),
                     lib.distributions.constraints.positive.check(lib.tensor([1.0, 0.0, -1.0])),
                     lib.distributions.constraints.integer_interval(0, 2).check(lib.tensor([0.0, 1.5, 2.0, 3.0]))),
        ok("(tensor([ True, False]), tensor([ True, False, False]), tensor([ True, False,  True, "
            "False]))")),
    "broadcast_tensors": (
        lambda lib: lib.broadcast_tensors(lib.tensor([[1.0], [2.0]]), lib.tensor([3.0, 4.0, 5.0]), lib.tensor(6.0)),
        ok("(tensor([[1., 1., 1.],\n"
            "        [2., 2., 2.]]), tensor([[3., 4., 5.],\n"
            "        [3., 4., 5.]]), tensor([[6., 6., 6.],\n"
            "        [6., 6., 6.]]))")),
    "lgamma and erf of a 0-d tensor": (
        lambda lib: (lib.tensor(2.5).lgamma(), lib.tensor(4).lgamma(), lib.tensor(0.5).erf(),
                     lib.tensor(0.3, dtype=lib.float64).erfinv()),
        ok("(tensor(0.2847), tensor(1.7918), tensor(0.5205), tensor(0.2725, "
            "dtype=tinygrad_edu.float64))")),
}

ERRORS = {
    "Normal, a nan loc": (
        lambda lib: lib.distributions.Normal(lib.tensor([math.nan, 0.0]), lib.tensor([1.0, 1.0])),
        err("ValueError", "Expected parameter loc (Tensor of shape (2,)) of distribution Normal(loc: "
                           "tinygrad_edu.Size([2]), scale: tinygrad_edu.Size([2])) to satisfy the constraint Real(), "
                           "but found invalid values:\n"
                           "tensor([nan, 0.])")),
    "Normal, a negative scale": (
        lambda lib: lib.distributions.Normal(0.0, -1.0),
        err("ValueError", "Expected parameter scale (Tensor of shape ()) of distribution Normal(loc: 0.0, scale: "
                           "-1.0) to satisfy the constraint GreaterThan(lower_bound=0.0), but found invalid values:\n"
                           "-1.0")),
    "Normal, a zero scale in a batch": (
        lambda lib: lib.distributions.Normal(lib.zeros(2, 2), lib.tensor([[1.0, 0.0], [2.0, 3.0]])),
        err("ValueError", "Expected parameter scale (Tensor of shape (2, 2)) of distribution Normal(loc: "
                           "tinygrad_edu.Size([2, 2]), scale: tinygrad_edu.Size([2, 2])) to satisfy the constraint "
                           "GreaterThan(lower_bound=0.0), but found invalid values:\n"
                           "tensor([[1., 0.],\n"
                           "        [2., 3.]])")),
    "Normal, not validated": (
        lambda lib: lib.distributions.Normal(0.0, -1.0, validate_args=False).scale,
        ok("tensor(-1.)")),
    "Normal, shapes that do not broadcast": (
        lambda lib: lib.distributions.Normal(lib.zeros(2), lib.ones(3)),
        err("RuntimeError",
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0")),
    "Bernoulli of integer probs (no kernel for them)": (
        lambda lib: lib.distributions.Bernoulli(lib.tensor([0, 1])).sample(),
        err("NotImplementedError", '"bernoulli_tensor_cpu_p_" not implemented for \'Long\'')),
    "bernoulli of a bool tensor": (
        lambda lib: lib.bernoulli(lib.tensor([False, True])),
        err("NotImplementedError", '"bernoulli_tensor_cpu_p_" not implemented for \'Bool\'')),
    "Normal, a string": (
        lambda lib: lib.distributions.Normal("0", 1.0),
        err("ValueError", "Input arguments must all be instances of Number, tinygrad_edu.Tensor or objects "
                           "implementing __torch_function__.")),
    "Bernoulli, probs above 1": (
        lambda lib: lib.distributions.Bernoulli(lib.tensor([0.5, 1.5])),
        err("ValueError", "Expected parameter probs (Tensor of shape (2,)) of distribution Bernoulli(probs: "
                           "tinygrad_edu.Size([2])) to satisfy the constraint Interval(lower_bound=0.0, "
                           "upper_bound=1.0), but found invalid values:\n"
                           "tensor([0.5000, 1.5000])")),
    "Bernoulli, nothing given": (
        lambda lib: lib.distributions.Bernoulli(),
        err("ValueError", "Either `probs` or `logits` must be specified, but not both.")),
    "Bernoulli, both given": (
        lambda lib: lib.distributions.Bernoulli(probs=0.5, logits=0.0),
        err("ValueError", "Either `probs` or `logits` must be specified, but not both.")),
    "Categorical, both given": (
        lambda lib: lib.distributions.Categorical(lib.ones(2), lib.zeros(2)),
        err("ValueError", "Either `probs` or `logits` must be specified, but not both.")),
    "Categorical, 0-d probs": (
        lambda lib: lib.distributions.Categorical(lib.tensor(0.5)),
        err("ValueError", "`probs` parameter must be at least one-dimensional.")),
    "Categorical, 0-d logits": (
        lambda lib: lib.distributions.Categorical(logits=lib.tensor(0.5)),
        err("ValueError", "`logits` parameter must be at least one-dimensional.")),
    "Categorical, a negative weight": (
        lambda lib: lib.distributions.Categorical(lib.tensor([0.5, -0.5, 1.0])),
        err("ValueError", "Expected parameter probs (Tensor of shape (3,)) of distribution Categorical(probs: "
                           "tinygrad_edu.Size([3])) to satisfy the constraint Simplex(), but found invalid values:\n"
                           "tensor([ 0.5000, -0.5000,  1.0000])")),
    "Categorical, a nan logit": (
        lambda lib: lib.distributions.Categorical(logits=lib.tensor([0.5, math.nan])),
        err("ValueError", "Expected parameter logits (Tensor of shape (2,)) of distribution Categorical(logits: "
                           "tinygrad_edu.Size([2])) to satisfy the constraint IndependentConstraint(Real(), 1), but "
                           "found invalid values:\n"
                           "tensor([nan, nan])")),
    "Multinomial, a float total_count": (
        lambda lib: lib.distributions.Multinomial(10.0, lib.ones(2)),
        err("NotImplementedError", "inhomogeneous total_count is not supported")),
    "Multinomial, a negative total_count": (
        lambda lib: lib.distributions.Multinomial(-1, lib.ones(2)),
        err("ValueError", "Expected parameter total_count (Tensor of shape (2,)) of distribution "
                           "Binomial(total_count: tinygrad_edu.Size([2]), probs: tinygrad_edu.Size([2])) to satisfy "
                           "the constraint IntegerGreaterThan(lower_bound=0), but found invalid values:\n"
                           "tensor([-1., -1.])")),
    "Multinomial, no mode": (
        lambda lib: lib.distributions.Multinomial(2, lib.ones(2)).mode,
        err("NotImplementedError",
            "<class 'tinygrad_edu.distributions.multinomial.Multinomial'> does not implement mode")),
    "Uniform, low above high": (
        lambda lib: lib.distributions.Uniform(1.0, 0.0),
        err("ValueError", "Expected parameter low (Tensor of shape ()) of distribution Uniform(low: 1.0, high: 0.0) "
                           "to satisfy the constraint LessThan(upper_bound=0.0), but found invalid values:\n"
                           "1.0")),
    "Uniform, a batch with low = high": (
        lambda lib: lib.distributions.Uniform(lib.zeros(2), lib.tensor([1.0, 0.0])),
        err("ValueError", "Expected parameter low (Tensor of shape (2,)) of distribution Uniform(low: "
                           "tinygrad_edu.Size([2]), high: tinygrad_edu.Size([2])) to satisfy the constraint "
                           "LessThan(upper_bound=tensor([1., 0.])), but found invalid values:\n"
                           "tensor([0., 0.])")),
    "rsample on Bernoulli": (
        lambda lib: lib.distributions.Bernoulli(0.5).rsample(),
        err("NotImplementedError", "")),
    "rsample on Categorical": (
        lambda lib: lib.distributions.Categorical(lib.ones(2)).rsample((2,)),
        err("NotImplementedError", "")),
    "an int sample shape": (
        lambda lib: lib.distributions.Normal(0.0, 1.0).sample(5),
        err("TypeError", "'int' object is not iterable")),
    "log_prob outside Bernoulli's support": (
        lambda lib: lib.distributions.Bernoulli(lib.tensor([0.5, 0.5])).log_prob(lib.tensor([1.0, 2.0])),
        err("ValueError", "Expected value argument (Tensor of shape (2,)) to be within the support (Boolean()) of "
                           "the distribution Bernoulli(probs: tinygrad_edu.Size([2])), but found invalid values:\n"
                           "tensor([1., 2.])")),
    "log_prob outside Categorical's support": (
        lambda lib: lib.distributions.Categorical(lib.ones(3)).log_prob(lib.tensor(3)),
        err("ValueError", "Expected value argument (Tensor of shape ()) to be within the support "
                           "(IntegerInterval(lower_bound=0, upper_bound=2)) of the distribution Categorical(probs: "
                           "tinygrad_edu.Size([3])), but found invalid values:\n"
                           "3")),
    "log_prob outside Uniform's support": (
        lambda lib: lib.distributions.Uniform(0.0, 1.0).log_prob(lib.tensor([0.5, 1.5])),
        err("ValueError", "Expected value argument (Tensor of shape (2,)) to be within the support "
                           "(Interval(lower_bound=0.0, upper_bound=1.0)) of the distribution Uniform(low: 0.0, high: "
                           "1.0), but found invalid values:\n"
                           "tensor([0.5000, 1.5000])")),
    "log_prob at Uniform's high (its support is closed)": (
        lambda lib: lib.distributions.Uniform(0.0, 1.0).log_prob(lib.tensor([0.5, 1.0])),
        ok("tensor([0., -inf])")),
    "log_prob outside Multinomial's support": (
        lambda lib: lib.distributions.Multinomial(2, lib.ones(2)).log_prob(lib.tensor([2.0, 1.0])),
        err("ValueError", "Expected value argument (Tensor of shape (2,)) to be within the support (Multinomial()) "
                           "of the distribution Multinomial(), but found invalid values:\n"
                           "tensor([2., 1.])")),
    "log_prob of a number": (
        lambda lib: lib.distributions.Normal(0.0, 1.0).log_prob(0.5),
        err("ValueError", "The value argument to log_prob must be a Tensor")),
    "log_prob of a number, not validated": (
        lambda lib: lib.distributions.Normal(lib.tensor(0.0), 1.0, validate_args=False).log_prob(0.5),
        ok("tensor(-1.0439)")),
    "log_prob, a value that does not broadcast": (
        lambda lib: lib.distributions.Normal(lib.zeros(3), 1.0).log_prob(lib.zeros(2)),
        err("ValueError", "Value is not broadcastable with batch_shape+event_shape: tinygrad_edu.Size([2]) vs "
                           "tinygrad_edu.Size([3]).")),
    "log_prob, a Multinomial value of the wrong event shape": (
        lambda lib: lib.distributions.Multinomial(2, lib.ones(3)).log_prob(lib.zeros(2)),
        err("ValueError", "The right-most size of value must match event_shape: tinygrad_edu.Size([2]) vs "
                           "tinygrad_edu.Size([3]).")),
    "set_default_validate_args with a string": (
        lambda lib: lib.distributions.Distribution.set_default_validate_args("yes"),
        err("ValueError", "")),
    "a base Distribution": (
        lambda lib: lib.distributions.Distribution().sample(),
        ("NotImplementedError", "", [
            "UserWarning: <class 'tinygrad_edu.distributions.distribution.Distribution'> does not define "
            "`arg_constraints`. Please set `arg_constraints = {}` or initialize the distribution with "
            "`validate_args=False` to turn off validation."])),
    "a base Distribution, not validated": (
        lambda lib: lib.distributions.Distribution(validate_args=False).rsample(),
        err("NotImplementedError", "")),
}


@pytest.mark.parametrize(("group", "name"), [(g, n) for g, cases in {
    "SAMPLES": SAMPLES, "VALUES": VALUES, "KL": KL, "REPRS": REPRS, "ERRORS": ERRORS}.items() for n in cases])
def test_as_pytorch(group: str, name: str) -> None:
    fn, expected = globals()[group][name]
    as_pytorch(fn, expected)


# -- beyond the printed digits: every bit of the draws, and float64 gradients, against PyTorch -------------------
def _draws(lib: ModuleType) -> list[Any]:
    """Draws of each distribution for several batch and sample shapes, one seed each."""
    d, out = lib.distributions, []
    for seed, (batch, sample) in enumerate([((), ()), ((), (7,)), ((3,), (5,)), ((2, 3), (4, 2)), ((5,), (40,))]):
        for dtype in (lib.float32, lib.float64):
            lib.manual_seed(seed)
            loc = lib.arange(math.prod(batch), dtype=dtype).reshape(batch) * 0.5
            scale = loc * 0 + 2.0
            probs = (loc + 1) / (2 * loc.max() + 3) if batch else lib.tensor(0.3, dtype=dtype)
            weights = lib.stack([loc + 1, loc * 0 + 2, 3 - loc * 0.1], -1)
            out += [d.Normal(loc, scale).sample(sample), d.Normal(loc, scale).rsample(sample),
                    d.Bernoulli(probs).sample(sample), d.Bernoulli(logits=loc - 1).sample(sample),
                    d.Categorical(weights).sample(sample), d.Categorical(logits=weights).sample(sample),
                    d.Multinomial(13, weights).sample(sample), d.Uniform(loc - 1, scale + loc).sample(sample),
                    d.Uniform(loc - 1, scale + loc).rsample(sample), lib.rand(3, dtype=dtype)]
    return out


def test_every_bit_of_the_draws_is_pytorchs() -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("torch is not installed")
    for ours, theirs in zip(_draws(tg), _draws(torch), strict=True):
        a, b = ours.detach().numpy(), theirs.detach().numpy()
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), (a, b)


def _float64_gradients(lib: ModuleType) -> list[np.ndarray]:
    """Gradients of log_prob, entropy, rsample and kl_divergence for every distribution, in float64."""
    d, grads = lib.distributions, []

    def of(out: Any, *params: Any) -> None:
        grads.extend(g.numpy() for g in lib.autograd.grad(out.sum(), params))

    lib.manual_seed(0)
    loc = lib.tensor([0.3, -1.2, 2.0], dtype=lib.float64, requires_grad=True)
    scale = lib.tensor([0.7, 1.5, 3.0], dtype=lib.float64, requires_grad=True)
    value = lib.tensor([0.1, 0.2, -4.0], dtype=lib.float64)
    normal = d.Normal(loc, scale)
    of(normal.log_prob(value), loc, scale)
    of(normal.entropy(), scale)
    of(normal.rsample((4,)) ** 2, loc, scale)
    of(d.kl_divergence(normal, d.Normal(loc.detach() * 2, scale * scale)), loc, scale)
    of(normal.cdf(value), loc, scale)
    p = lib.tensor([0.2, 0.55, 0.9], dtype=lib.float64, requires_grad=True)
    logits = lib.tensor([-1.5, 0.25, 3.0], dtype=lib.float64, requires_grad=True)
    of(d.Bernoulli(p).log_prob(lib.tensor([1.0, 0.0, 1.0], dtype=lib.float64)) + d.Bernoulli(p).entropy(), p)
    of(d.kl_divergence(d.Bernoulli(p), d.Bernoulli(logits=logits)), p, logits)
    w = lib.tensor([[0.2, 0.5, 0.3], [3.0, 1.0, 1.0]], dtype=lib.float64, requires_grad=True)
    g = lib.tensor([[0.1, -0.4, 2.0], [1.0, 0.0, -1.0]], dtype=lib.float64, requires_grad=True)
    of(d.Categorical(w).log_prob(lib.tensor([2, 0])) * d.Categorical(logits=g).entropy(), w, g)
    of(d.kl_divergence(d.Categorical(w), d.Categorical(logits=g)), w, g)
    counts = lib.tensor([[1.0, 2.0, 3.0], [0.0, 6.0, 0.0]], dtype=lib.float64)
    of(d.Multinomial(6, w).log_prob(counts) + d.Multinomial(6, logits=g).entropy(), w, g)
    low = lib.tensor([0.0, -2.0], dtype=lib.float64, requires_grad=True)
    high = lib.tensor([1.0, 5.0], dtype=lib.float64, requires_grad=True)
    uniform = d.Uniform(low, high)
    of(uniform.rsample((3,)).exp() + uniform.entropy() + uniform.log_prob(lib.tensor(0.5, dtype=lib.float64)),
       low, high)
    of(d.kl_divergence(uniform, d.Normal(loc[:2], scale[:2])), low, high, loc, scale)
    of(d.kl_divergence(uniform, d.Uniform(low - 1, high * 2)), low, high)
    return grads


def test_float64_gradients_are_pytorchs() -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("torch is not installed")
    for ours, theirs in zip(_float64_gradients(tg), _float64_gradients(torch), strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=1e-15)


def test_validation_can_be_turned_off_for_all() -> None:
    try:
        tg.distributions.Distribution.set_default_validate_args(False)
        assert repr(tg.distributions.Normal(0.0, -1.0).scale) == "tensor(-1.)"
        assert tg.distributions.Bernoulli(0.5).log_prob(tg.tensor(3.0)).item() == pytest.approx(-math.log(2))
    finally:
        tg.distributions.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError, match="to satisfy the constraint GreaterThan"):
        tg.distributions.Normal(0.0, -1.0)


def test_the_tutorial_imports() -> None:
    """The spellings tutorials import the distributions by."""
    from tinygrad_edu.distributions import Categorical, Normal, kl_divergence, multinomial
    from tinygrad_edu.distributions.kl import register_kl
    from tinygrad_edu.distributions.multinomial import Multinomial

    assert multinomial.Multinomial is Multinomial and kl_divergence is tg.distributions.kl.kl_divergence
    assert Categorical.has_enumerate_support and Normal.has_rsample and callable(register_kl)


def test_a_kl_registered_for_a_new_distribution_is_used() -> None:
    class Shifted(tg.distributions.Normal):
        pass

    @tg.distributions.register_kl(Shifted, Shifted)
    def _kl(p: Any, q: Any) -> Any:
        return tg.zeros(p.batch_shape)

    try:
        assert repr(tg.distributions.kl_divergence(Shifted(tg.zeros(2), 1.0), Shifted(tg.ones(2), 1.0))) == \
            "tensor([0., 0.])"
        assert tg.distributions.kl_divergence(Shifted(0.0, 1.0), tg.distributions.Normal(1.0, 1.0)).item() == 0.5
    finally:
        del tg.distributions.kl._KL_REGISTRY[Shifted, Shifted]
        tg.distributions.kl._KL_MEMOIZE.clear()
