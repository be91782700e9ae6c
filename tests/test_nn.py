"""tinygrad_edu.nn against PyTorch: Parameter, Module bookkeeping and repr, Linear, activations, losses, init.

Parity tests import the torch oracle with ``pytest.importorskip`` and skip without it.
"""

from __future__ import annotations

import math
import re
import warnings
from types import ModuleType

import numpy as np
import pytest
from _oracle import as_pytorch, raises

import tinygrad_edu as tg
import tinygrad_edu.nn.functional as F
from tinygrad_edu import nn
from tinygrad_edu.nn import init


def oracle():
    return pytest.importorskip("torch")


def ours(msg: str) -> str:
    """PyTorch's text with our module name, as our messages print it."""
    return msg.replace("torch.", "tinygrad_edu.")


def outcome(fn) -> tuple[type | None, str]:
    """(exception type name, message) of calling fn, warnings included as part of the message."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fn()
        except Exception as e:
            return type(e).__name__, ours(str(e))
    return None, " | ".join(ours(str(w.message)) for w in caught)


# ------------------------------------------------------------------------------------------------ Parameter
def test_parameter_is_a_leaf_sharing_memory() -> None:
    x = tg.ones(3) * 2  # computed, yet the Parameter made from it is a leaf
    p = nn.Parameter(x)
    assert isinstance(p, tg.Tensor) and p.is_leaf and p.requires_grad and p.grad_fn is None
    assert np.shares_memory(p._array, x._array)
    x.add_(1)  # same storage, same version counter
    assert p.tolist() == [3.0, 3.0, 3.0] and p._version == x._version == 1
    y = p * 2  # ops on a Parameter give plain tensors
    assert type(y) is tg.Tensor and y.grad_fn.name() == "MulBackward0"
    assert type(p.detach()) is tg.Tensor
    assert nn.Parameter().shape == (0,)
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require gradients$"):
        nn.Parameter(tg.tensor([1, 2]))


def test_parameter_repr_as_pytorch() -> None:
    torch = oracle()
    cases = [
        (lambda lib: lib.nn.Parameter(lib.tensor([1.0, 2.0]))),
        (lambda lib: lib.nn.Parameter(lib.tensor([1.0, 2.0]), requires_grad=False)),
        (lambda lib: lib.nn.Parameter(lib.tensor([[1.5, -2.0], [3.0, 4.25]], dtype=lib.float64))),
        (lambda lib: lib.nn.Parameter(lib.tensor([1, 2]), requires_grad=False)),
        (lambda lib: lib.nn.Parameter()),
    ]
    for make in cases:
        assert repr(make(tg)) == ours(repr(make(torch)))
    assert str(nn.Parameter(tg.ones(2))) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"


def test_parameter_survives_deepcopy_and_pickle() -> None:
    import copy
    import pickle

    p = nn.Parameter(tg.tensor([1.0, 2.0]))
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(q) is nn.Parameter and q.requires_grad and q.tolist() == [1.0, 2.0]
        assert not np.shares_memory(q._array, p._array)


# ------------------------------------------------------------------------------------------------ Module
def make_net(lib):
    """The same network class written against either library."""

    class Net(lib.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc1 = lib.nn.Linear(2, 4)
            self.act = lib.nn.ReLU()
            self.seq = lib.nn.Sequential(lib.nn.Linear(4, 4), lib.nn.Tanh())
            self.scale = lib.nn.Parameter(lib.ones(1))  # assigned last, listed first: own parameters come first
            self.plain = 3  # not registered

        def forward(self, x):
            return self.seq(self.act(self.fc1(x))) * self.scale

    return Net()


def test_registration_and_names_as_pytorch() -> None:
    torch = oracle()
    a, b = make_net(tg), make_net(torch)
    assert [n for n, _ in a.named_parameters()] == [n for n, _ in b.named_parameters()] == \
        ["scale", "fc1.weight", "fc1.bias", "seq.0.weight", "seq.0.bias"]
    assert [n for n, _ in a.named_modules()] == [n for n, _ in b.named_modules()] == \
        ["", "fc1", "act", "seq", "seq.0", "seq.1"]
    assert [n for n, _ in a.named_children()] == ["fc1", "act", "seq"]
    assert [type(m).__name__ for m in a.children()] == [type(m).__name__ for m in b.children()]
    assert [type(m).__name__ for m in a.modules()] == [type(m).__name__ for m in b.modules()]
    assert list(a.state_dict()) == list(b.state_dict())
    assert [n for n, _ in a.named_parameters(recurse=False)] == ["scale"]
    assert [n for n, _ in a.seq.named_parameters(prefix="seq")] == ["seq.0.weight", "seq.0.bias"]
    assert a.plain == 3 and "plain" not in a._parameters
    assert a.fc1.weight is a._modules["fc1"]._parameters["weight"]
    assert a(tg.ones(5, 2)).shape == (5, 4)


def test_shared_parameters_listed_once() -> None:
    torch = oracle()
    for lib in (tg, torch):
        lin = lib.nn.Linear(2, 2)
        s = lib.nn.Sequential(lin, lin)
        assert len(list(s.parameters())) == 2
        assert [n for n, _ in s.named_parameters()] == ["0.weight", "0.bias"]
        assert [n for n, _ in s.named_modules()] == ["", "0"]
        assert list(s.state_dict()) == ["0.weight", "0.bias", "1.weight", "1.bias"]


def test_reassigning_and_deleting_attributes() -> None:
    m = nn.Linear(2, 2)
    m.weight = None
    assert m.weight is None and [n for n, _ in m.named_parameters()] == ["bias"]
    m.extra = nn.Parameter(tg.zeros(1))
    assert [n for n, _ in m.named_parameters()] == ["bias", "extra"]
    with pytest.raises(TypeError, match="^cannot assign 'tinygrad_edu.nn.activation.ReLU' as parameter 'extra'"):
        m.extra = nn.ReLU()  # a parameter's name stays a parameter's ...
    del m.extra
    m.extra = nn.ReLU()  # ... until deleted
    assert "extra" not in m._parameters and isinstance(m._modules["extra"], nn.ReLU)
    del m.extra
    assert "extra" not in m._modules
    with pytest.raises(AttributeError, match="^'Linear' object has no attribute 'extra'$"):
        m.extra  # noqa: B018
    assert nn.Linear(2, 3, bias=False).bias is None


def test_module_misuse_errors_as_pytorch() -> None:
    torch = oracle()

    def errors(lib):
        class NoInitParam(lib.nn.Module):
            def __init__(self) -> None:
                self.w = lib.nn.Parameter(lib.ones(1))

        class NoInitModule(lib.nn.Module):
            def __init__(self) -> None:
                self.l = lib.nn.ReLU()

        lin = lib.nn.Linear(2, 2)
        seq = lib.nn.Sequential(lib.nn.ReLU())
        return [outcome(f) for f in (
            NoInitParam, NoInitModule,
            lambda: setattr(lin, "weight", lib.ones(2, 2)),
            lambda: setattr(seq, "0", 3),
            lambda: seq.foo,
            lambda: lib.nn.Module()(1),
            lambda: lin.train(1),
            lambda: seq[3],
            lambda: lin(lib.ones(4, 5)),
        )]

    assert errors(tg) == errors(torch)


def test_module_repr_as_pytorch() -> None:
    torch = oracle()

    def models(lib):
        n = lib.nn
        return [
            n.Sequential(n.Linear(2, 3), n.ReLU()),
            n.Sequential(n.Linear(2, 3), n.ReLU(), n.Tanh(), n.Sigmoid(), n.Identity(), n.Flatten(),
                         n.Linear(3, 1, bias=False), n.ReLU(inplace=True), n.Softmax(dim=1), n.LogSoftmax(1)),
            n.Sequential(n.Sequential(n.Linear(1, 1), n.Sequential(n.Tanh())), n.Linear(1, 1)),
            make_net(lib),
            n.Module(), n.MSELoss(), n.MSELoss(reduction="sum"), n.BCEWithLogitsLoss(), n.BCELoss(),
            n.CrossEntropyLoss(), n.NLLLoss(), n.Softmax(), n.Flatten(0, 2), n.Sequential(),
        ]

    for a, b in zip(models(tg), models(torch)):
        assert repr(a) == repr(b)
    assert repr(nn.Sequential(nn.Linear(2, 3), nn.ReLU())) == \
        "Sequential(\n  (0): Linear(in_features=2, out_features=3, bias=True)\n  (1): ReLU()\n)"


def test_sequential_indexing_and_append() -> None:
    from collections import OrderedDict

    a, b, c = nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 1)
    s = nn.Sequential(a, b, c)
    assert len(s) == 3 and list(s) == [a, b, c] and s[0] is a and s[-1] is c
    tail = s[1:]
    assert isinstance(tail, nn.Sequential) and list(tail) == [b, c] and list(tail._modules) == ["1", "2"]
    named = nn.Sequential(OrderedDict([("hidden", a), ("act", b)]))
    assert [n for n, _ in named.named_parameters()] == ["hidden.weight", "hidden.bias"]
    assert named.append(c) is named and list(named._modules) == ["hidden", "act", "2"]
    x = tg.tensor([[0.5]])
    assert np.allclose(s(x)._array, c(b(a(x)))._array)


def test_train_eval_and_requires_grad() -> None:
    m = make_net(tg)
    assert m.training and all(x.training for x in m.modules())
    assert m.eval() is m and not any(x.training for x in m.modules())
    assert m.train() is m and all(x.training for x in m.modules())
    m.seq.train(False)
    assert m.training and not m.seq[0].training
    assert m.requires_grad_(False) is m and not any(p.requires_grad for p in m.parameters())
    assert not m(tg.ones(1, 2)).requires_grad
    m.requires_grad_()
    assert all(p.requires_grad for p in m.parameters())


@pytest.mark.parametrize("set_to_none", [True, False])
def test_module_zero_grad(set_to_none: bool) -> None:
    m = nn.Linear(3, 2)
    m(tg.ones(4, 3)).sum().backward()
    grads = [p.grad for p in m.parameters()]
    assert all(g is not None and g.abs().sum().item() > 0 for g in grads)
    m.zero_grad(set_to_none=set_to_none)
    for p, g in zip(m.parameters(), grads):
        if set_to_none:
            assert p.grad is None
        else:  # zeros written into the same gradient tensor
            assert p.grad is g and not p.grad._array.any()
    m.zero_grad()  # the default is set_to_none=True
    assert all(p.grad is None for p in m.parameters())


def test_zero_grad_after_create_graph() -> None:
    """A gradient made with create_graph=True has a graph; zeroing it in place must cut it off first."""
    m = nn.Linear(2, 1)
    m(tg.ones(3, 2)).pow(2).sum().backward(create_graph=True)
    assert m.weight.grad.requires_grad
    m.zero_grad(set_to_none=False)
    for p in m.parameters():
        assert p.grad is not None and not p.grad.requires_grad and not p.grad._array.any()


def test_state_dict_round_trip() -> None:
    a, b = make_net(tg), make_net(tg)
    sd = a.state_dict()
    assert all(not t.requires_grad and t.grad_fn is None for t in sd.values())
    assert np.shares_memory(sd["fc1.weight"]._array, a.fc1.weight._array)  # detached, not copied
    weight, version = b.fc1.weight, b.fc1.weight._version
    result = b.load_state_dict(sd)
    assert repr(result) == "<All keys matched successfully>"
    assert b.fc1.weight is weight and weight._version == version + 1  # copied in place
    x = tg.randn(3, 2)
    assert np.array_equal(a(x)._array, b(x)._array)


def test_load_state_dict_errors_as_pytorch() -> None:
    torch = oracle()

    def results(lib):
        m = lib.nn.Linear(2, 2)
        s = lib.nn.Sequential(lib.nn.Linear(2, 2))
        return [outcome(f) for f in (
            lambda: m.load_state_dict({"weight": lib.ones(2, 2)}),
            lambda: m.load_state_dict({"weight": lib.ones(2, 2), "bias": lib.ones(2), "foo": lib.ones(1)}),
            lambda: m.load_state_dict({"weight": lib.ones(3, 2), "bias": lib.ones(2)}),
            lambda: s.load_state_dict({"0.weight": lib.ones(3, 2), "bias": lib.ones(2)}),
        )] + [repr(m.load_state_dict({"weight": lib.ones(2, 2)}, strict=False))]

    assert results(tg) == results(torch)


def test_module_to_double() -> None:
    m = nn.Linear(2, 1)
    w = m.weight
    assert m.double() is m and m.weight is w and w.dtype == tg.float64
    assert m(tg.ones(1, 2, dtype=tg.float64)).dtype == tg.float64
    assert m.float().weight.dtype == tg.float32
    with pytest.raises(RuntimeError, match="CPU only"):
        m.to("cuda")


# ------------------------------------------------------------------------------------------------ Linear & init
def test_linear_init_bounds_and_seed() -> None:
    tg.manual_seed(0)
    m = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    w, b = m.weight._array, m.bias._array
    assert w.shape == (300, 400) and b.shape == (300,) and w.dtype == np.float32
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.99 * bound  # fills the interval ...
    assert abs(w.mean()) < 0.01 * bound and abs(w.std() - bound / math.sqrt(3)) < 0.01 * bound  # ... uniformly
    tg.manual_seed(0)
    assert np.array_equal(nn.Linear(400, 300).weight._array, w)  # seeded: repeatable
    assert not np.array_equal(nn.Linear(400, 300).weight._array, w)
    assert nn.Linear(2, 3, dtype=tg.float64).weight.dtype == tg.float64


def test_linear_forward_and_nodes_as_pytorch() -> None:
    torch = oracle()
    ta, tb = nn.Linear(3, 2), torch.nn.Linear(3, 2)
    with torch.no_grad():
        tb.weight.copy_(torch.from_numpy(ta.weight._array.copy()))
        tb.bias.copy_(torch.from_numpy(ta.bias._array.copy()))
    x = np.random.default_rng(1).standard_normal((5, 3)).astype(np.float32)
    assert np.allclose(ta(tg.tensor(x))._array, tb(torch.tensor(x)).detach().numpy(), atol=1e-6)
    for shape in [(5, 3), (3,), (2, 5, 3)]:
        ya, yb = ta(tg.ones(*shape)), tb(torch.ones(*shape))
        assert ya.shape == tuple(yb.shape) and ya.grad_fn.name() == yb.grad_fn.name()
    assert nn.Linear(3, 2, bias=False)(tg.ones(4, 3)).grad_fn.name() == "MmBackward0"
    # gradients of a batch through Linear, vs torch
    xa, xb = tg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    (ta(xa) ** 2).sum().backward()
    (tb(xb) ** 2).sum().backward()
    for a, b in [(xa, xb), (ta.weight, tb.weight), (ta.bias, tb.bias)]:
        assert np.allclose(a.grad._array, b.grad.numpy(), atol=1e-5)


def test_init_functions() -> None:
    torch = oracle()
    for nl, param in [("linear", None), ("sigmoid", None), ("tanh", None), ("relu", None), ("leaky_relu", None),
                      ("leaky_relu", 0.2), ("selu", None)]:
        assert init.calculate_gain(nl, param) == pytest.approx(torch.nn.init.calculate_gain(nl, param))
    assert outcome(lambda: init.calculate_gain("foo")) == outcome(lambda: torch.nn.init.calculate_gain("foo"))
    assert outcome(lambda: init.xavier_uniform_(tg.zeros(3))) == \
        outcome(lambda: torch.nn.init.xavier_uniform_(torch.zeros(3)))
    assert outcome(lambda: init.kaiming_uniform_(tg.zeros(0, 3))) == \
        outcome(lambda: torch.nn.init.kaiming_uniform_(torch.zeros(0, 3)))
    w = tg.zeros(200, 300)
    assert init.xavier_uniform_(w) is w and w._version == 1
    bound = math.sqrt(6 / 500)
    assert np.abs(w._array).max() <= bound and np.abs(w._array).max() > 0.99 * bound
    init.kaiming_normal_(w, nonlinearity="relu")
    assert abs(w._array.std() - math.sqrt(2 / 300)) < 0.02 * math.sqrt(2 / 300)
    init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert abs(w._array.std() - math.sqrt(2 / 200)) < 0.02 * math.sqrt(2 / 200)
    init.xavier_normal_(w, gain=2.0)
    assert abs(w._array.std() - 2 * math.sqrt(2 / 500)) < 0.02 * 2 * math.sqrt(2 / 500)
    init.uniform_(w, 2.0, 3.0)
    assert w._array.min() >= 2 and w._array.max() <= 3
    init.normal_(w, 5.0, 0.1)
    assert abs(w._array.mean() - 5) < 0.01
    assert init.constant_(w, 0.5)._array.tolist()[0][:2] == [0.5, 0.5]
    assert not init.zeros_(w)._array.any() and init.ones_(w)._array.all()
    p = nn.Parameter(tg.zeros(2, 2))
    init.ones_(p)
    assert p.is_leaf and p.grad_fn is None and p._array.all()  # no graph: an initialisation is not an op


# ------------------------------------------------------------------------------------------------ activations
def test_activation_modules_and_functions() -> None:
    torch = oracle()
    x = np.array([[-2.0, -0.5, 0.0, 0.5, 3.0]], dtype=np.float32)
    for name in ["ReLU", "Tanh", "Sigmoid", "Identity", "Flatten"]:
        a, b = getattr(nn, name)()(tg.tensor(x)), getattr(torch.nn, name)()(torch.tensor(x))
        assert np.allclose(a._array, b.numpy(), atol=1e-6), name
    for name in ["relu", "tanh", "sigmoid"]:
        xa, xb = tg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
        ya, yb = getattr(F, name)(xa), getattr(torch.nn.functional, name)(xb)
        assert ya.grad_fn.name() == yb.grad_fn.name()
        ya.sum().backward()
        yb.sum().backward()
        assert np.allclose(xa.grad._array, xb.grad.numpy(), atol=1e-6)
    for dim in (0, 1, -1):
        assert np.allclose(F.softmax(tg.tensor(x), dim)._array, torch.softmax(torch.tensor(x), dim).numpy(), atol=1e-6)
        assert np.allclose(nn.LogSoftmax(dim)(tg.tensor(x))._array, torch.log_softmax(torch.tensor(x), dim).numpy(),
                           atol=1e-6)
    assert nn.Flatten()(tg.ones(2, 3, 4)).shape == (2, 12) and nn.Flatten(0, 1)(tg.ones(2, 3, 4)).shape == (6, 4)


def test_softmax_without_dim_warns_as_pytorch() -> None:
    torch = oracle()
    for shape in [(3,), (2, 3), (2, 3, 4)]:
        a = outcome(lambda: F.softmax(tg.ones(*shape)))  # noqa: B023
        b = outcome(lambda: torch.nn.functional.softmax(torch.ones(*shape)))  # noqa: B023
        assert a == b and a[1].startswith("Implicit dimension choice for softmax")
        assert F.log_softmax(tg.ones(*shape), 0).shape == shape
    with pytest.warns(UserWarning, match="Implicit dimension") as record:
        nn.Softmax()(tg.ones(2, 3))
    assert record[0].filename == __file__  # the warning points at the caller's line


def test_relu_inplace() -> None:
    x = tg.tensor([-1.0, 2.0], requires_grad=True)
    y = x * 1
    z = F.relu(y, inplace=True)
    assert z is y and y.tolist() == [0.0, 2.0] and y._version == 1 and y.grad_fn.name() == "ReluBackward0"
    z.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0]
    assert nn.ReLU(inplace=True)(y) is y


# ------------------------------------------------------------------------------------------------ losses
def loss_pair(name: str, x: np.ndarray, t: np.ndarray, *, grad_target: bool = False, weights: dict | None = None,
              **kw: object) -> None:
    """Compare F.<name>(x, t, **kw) and its gradients (input, and target if asked) with PyTorch's."""
    torch = oracle()
    results = []
    for lib, fn in [(tg, getattr(F, name)), (torch, getattr(torch.nn.functional, name))]:
        xt = lib.tensor(x, requires_grad=True)
        tt = lib.tensor(t, requires_grad=grad_target)
        extra = {k: lib.tensor(v) for k, v in (weights or {}).items()}
        loss = fn(xt, tt, **extra, **kw)
        assert loss.grad_fn is not None
        loss.backward(lib.ones(tuple(loss.shape)) if loss.dim() else None)
        results.append((np.asarray(loss.detach().numpy()), xt.grad.numpy(),
                        tt.grad.numpy() if grad_target else None, loss.grad_fn.name(),
                        len(loss.grad_fn.next_functions), str(loss.dtype).split(".")[-1]))
    (la, ga, gta, na, ka, da), (lb, gb, gtb, nb, kb, db) = results
    assert (na, ka, da) == (nb, kb, db)
    assert la.shape == lb.shape and np.allclose(la, lb, rtol=1e-5, atol=1e-6, equal_nan=True), (la, lb)
    assert np.allclose(ga, gb, rtol=1e-5, atol=1e-6, equal_nan=True), (ga, gb)
    if grad_target:
        assert np.allclose(gta, gtb, rtol=1e-5, atol=1e-6), (gta, gtb)


rng = np.random.default_rng(0)
X = rng.standard_normal((4, 3)).astype(np.float32)
Y = rng.standard_normal((4, 3)).astype(np.float32)
P = rng.random((4, 3)).astype(np.float32)
EXTREME = np.array([[-100.0, -30.0, -1.0], [0.0, 1.0, 30.0], [100.0, 90.0, -90.0], [15.0, -15.0, 50.0]], np.float32)
CLASSES = np.array([0, 2, 1, 2])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_as_pytorch(reduction: str) -> None:
    loss_pair("mse_loss", X, Y, grad_target=True, reduction=reduction)
    loss_pair("mse_loss", X.astype(np.float64), Y.astype(np.float64), reduction=reduction)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_bce_with_logits_as_pytorch(reduction: str) -> None:
    loss_pair("binary_cross_entropy_with_logits", X, P, grad_target=True, reduction=reduction)
    loss_pair("binary_cross_entropy_with_logits", EXTREME, P.round(), grad_target=True, reduction=reduction)
    loss_pair("binary_cross_entropy_with_logits", EXTREME, P, grad_target=True, reduction=reduction,
              weights={"weight": np.array([0.5, 1.0, 2.0], np.float32),
                       "pos_weight": np.array([3.0, 1.0, 0.25], np.float32)})


def test_bce_with_logits_is_stable_for_extreme_logits() -> None:
    x = tg.tensor([100.0, -100.0, 100.0, -100.0], requires_grad=True)
    y = tg.tensor([1.0, 0.0, 0.0, 1.0])
    loss = F.binary_cross_entropy_with_logits(x, y, reduction="none")
    assert np.allclose(loss._array, [0.0, 0.0, 100.0, 100.0], rtol=0, atol=1e-30)  # e^-100: no inf, no nan
    loss.sum().backward()
    assert np.allclose(x.grad._array, [0.0, 0.0, 1.0, -1.0], rtol=0, atol=1e-30)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy_as_pytorch(reduction: str) -> None:
    probs = 1 / (1 + np.exp(-X))
    loss_pair("binary_cross_entropy", probs, P, grad_target=True, reduction=reduction)
    loss_pair("binary_cross_entropy", probs, P, reduction=reduction, weights={"weight": P[0]})
    edge = np.array([[0.0, 1.0, 0.5], [1e-30, 1 - 1e-7, 0.25]], np.float32)  # logs clamped at -100
    loss_pair("binary_cross_entropy", edge, np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]], np.float32),
              reduction=reduction)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_and_nll_as_pytorch(reduction: str) -> None:
    w = {"weight": np.array([0.2, 1.0, 3.0], np.float32)}
    for name in ("cross_entropy", "nll_loss"):
        loss_pair(name, X, CLASSES, reduction=reduction)
        loss_pair(name, EXTREME, CLASSES, reduction=reduction)
        loss_pair(name, X, CLASSES, reduction=reduction, weights=w)
        loss_pair(name, X, np.array([0, -100, 2, -100]), reduction=reduction, weights=w)  # ignore_index
        loss_pair(name, X, np.array([0, 5, 2, 5]), reduction=reduction, ignore_index=5)
        loss_pair(name, X[0], np.array(1), reduction=reduction)  # one sample, no batch dimension
        a = getattr(F, name)(tg.tensor(X[0]), tg.tensor([2]), reduction=reduction)  # (torch's backward fails here)
        b = getattr(F, name)(tg.tensor(X[0]), tg.tensor(2), reduction=reduction)
        assert a.shape == b.shape == () and a.item() == b.item()
        k_dim = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
        loss_pair(name, k_dim, rng.integers(0, 3, (2, 4, 5)), reduction=reduction, weights=w)
        loss_pair(name, k_dim[..., 0], rng.integers(0, 3, (2, 4)), reduction=reduction)
        loss_pair(name, k_dim[..., None], rng.integers(0, 3, (2, 4, 5, 1)), reduction=reduction, weights=w)
        loss_pair(name, X.astype(np.float64), CLASSES, reduction=reduction)
        loss_pair(name, X, CLASSES.astype(np.uint8), reduction=reduction)
    loss_pair("nll_loss", X, np.array([-100, -100, -100, -100]), reduction=reduction)  # 0/0 = nan for the mean
    probs = np.exp(Y) / np.exp(Y).sum(1, keepdims=True)
    loss_pair("cross_entropy", X, probs, grad_target=True, reduction=reduction)
    loss_pair("cross_entropy", X, probs, reduction=reduction, weights=w)
    loss_pair("cross_entropy", X[0], probs[0], reduction=reduction)


def test_cross_entropy_graph_and_gradient() -> None:
    x = tg.tensor(X, requires_grad=True)
    loss = F.cross_entropy(x, tg.tensor(CLASSES))
    assert loss.grad_fn.name() == "NllLossBackward0"
    (log_softmax_node, _), = loss.grad_fn.next_functions  # the target gets no edge
    assert log_softmax_node.name() == "LogSoftmaxBackward0"
    assert loss.grad_fn._saved_reduction == 1 and loss.grad_fn._saved_ignore_index == -100
    assert loss.grad_fn._saved_target.tolist() == CLASSES.tolist()
    loss.backward()
    e = np.exp(X - X.max(1, keepdims=True))
    expected = (e / e.sum(1, keepdims=True) - np.eye(3)[CLASSES]) / 4  # softmax - onehot, over the batch
    assert np.allclose(x.grad._array, expected, atol=1e-6)


def test_loss_nodes_and_next_functions() -> None:
    x = tg.randn(3, requires_grad=True)
    cases = [(F.mse_loss(x, tg.randn(3)), "MseLossBackward0", 2),
             (F.binary_cross_entropy_with_logits(x, tg.rand(3), tg.ones(3), pos_weight=tg.ones(3)),
              "BinaryCrossEntropyWithLogitsBackward0", 2),
             (F.binary_cross_entropy(x.sigmoid(), tg.rand(3), tg.ones(3)), "BinaryCrossEntropyBackward0", 2),
             (F.nll_loss(tg.randn(2, 3, 4, requires_grad=True), tg.tensor([[0, 1, 2, 0], [1, 1, 1, 1]])),
              "NllLoss2DBackward0", 1)]
    for loss, name, edges in cases:
        assert loss.grad_fn.name() == name and len(loss.grad_fn.next_functions) == edges
        assert repr(loss).endswith(f"grad_fn=<{name}>)")
    assert cases[0][0].grad_fn.next_functions[1] == (None, 0)
    mse = F.mse_loss(x, tg.zeros(3), reduction="sum").grad_fn
    assert mse._saved_self is x and mse._saved_reduction == 2


def test_mse_second_derivative() -> None:
    torch = oracle()
    for reduction in ("mean", "sum"):
        results = []
        for lib in (tg, torch):
            x = lib.tensor(X, requires_grad=True)
            t = lib.tensor(Y, requires_grad=True)
            loss = lib.nn.functional.mse_loss(x * x, t, reduction=reduction)  # d2/dx2 of (x^2 - t)^2 is not flat
            (gx,) = lib.autograd.grad(loss, x, create_graph=True)
            assert gx.requires_grad
            gxx, gxt = lib.autograd.grad(gx.sum(), (x, t))
            results.append((gx.detach().numpy(), gxx.numpy(), gxt.numpy()))
        for a, b in zip(*results):
            assert np.allclose(a, b, rtol=1e-5, atol=1e-5)
    # directly: loss = mean((x - y)^2)  =>  d2 loss / dx_i^2 = 2 / n
    x = tg.tensor([1.0, 2.0, 4.0], requires_grad=True)
    (g,) = tg.autograd.grad(F.mse_loss(x, tg.zeros(3)), x, create_graph=True)
    assert np.allclose(g._array, 2 * x._array / 3)
    (h,) = tg.autograd.grad(g.sum(), x)
    assert np.allclose(h._array, 2 / 3)


@pytest.mark.parametrize("name", ["binary_cross_entropy_with_logits", "cross_entropy", "binary_cross_entropy"])
def test_other_losses_second_derivative(name: str) -> None:
    torch = oracle()
    target = {"cross_entropy": CLASSES, "binary_cross_entropy_with_logits": P,
              "binary_cross_entropy": P}[name]
    results = []
    for lib in (tg, torch):
        x = lib.tensor(X, requires_grad=True)
        inp = x.sigmoid() if name == "binary_cross_entropy" else x
        loss = getattr(lib.nn.functional, name)(inp, lib.tensor(target))
        (gx,) = lib.autograd.grad(loss, x, create_graph=True)
        (hv,) = lib.autograd.grad((gx * gx).sum(), x)  # a Hessian-vector product
        results.append(hv.numpy())
    assert np.allclose(results[0], results[1], rtol=1e-4, atol=1e-6)


def test_loss_errors_and_warnings_as_pytorch() -> None:
    torch = oracle()

    def results(lib):
        F_ = lib.nn.functional
        r = lib.randn(4, 3, requires_grad=True)
        c = lib.tensor([0, 1, 2, 1])
        return [outcome(f) for f in (
            lambda: F_.mse_loss(lib.ones(3, 1), lib.ones(3)),
            lambda: F_.mse_loss(lib.ones(3, 2), lib.ones(4)),
            lambda: F_.mse_loss(lib.ones(3), lib.ones(3), reduction="avg"),
            lambda: lib.nn.MSELoss(reduction="foo")(lib.ones(1), lib.ones(1)),
            lambda: F_.binary_cross_entropy_with_logits(lib.ones(3), lib.ones(3, 1)),
            lambda: F_.binary_cross_entropy_with_logits(lib.ones(2), lib.ones(2, dtype=lib.long)),
            lambda: F_.binary_cross_entropy(lib.rand(3), lib.rand(3, 1)),
            lambda: F_.binary_cross_entropy(lib.tensor([1.5]), lib.rand(1)),
            lambda: F_.cross_entropy(r, c.int()),
            lambda: F_.cross_entropy(r, c.float()),
            lambda: F_.cross_entropy(r, lib.tensor([0, 1, 2])),
            lambda: F_.cross_entropy(r, lib.tensor([0, 1, 5, 1])),
            lambda: F_.cross_entropy(r, lib.tensor([0, 1, -1, 1])),
            lambda: F_.cross_entropy(r, lib.tensor([[0, 1, 2, 1]])),
            lambda: F_.cross_entropy(r, lib.tensor([[0], [1], [2], [1]])),
            lambda: F_.cross_entropy(r, lib.tensor(1)),
            lambda: F_.cross_entropy(r, lib.zeros(4, 3, dtype=lib.long)),
            lambda: F_.cross_entropy(lib.randn(2, 3, 4), lib.randint(0, 3, (2, 5))),
            lambda: F_.nll_loss(lib.tensor(1.0), lib.tensor(0)),
            lambda: F_.nll_loss(lib.randn(3), lib.tensor([0, 1])),
            lambda: F_.nll_loss(r, c, lib.ones(2)),
        )]

    ours_, theirs = results(tg), results(torch)
    for a, b in zip(ours_, theirs):
        assert a == b
    assert ours_[0][1].startswith("Using a target size (tinygrad_edu.Size([3])) that is different")


def test_mse_broadcast_graph() -> None:
    x = tg.ones(3, 1, requires_grad=True)
    with pytest.warns(UserWarning, match="Using a target size"):
        loss = F.mse_loss(x, tg.tensor([1.0, 2.0, 3.0]))
    assert loss.grad_fn.next_functions[0][0].name() == "ExpandBackward0"
    assert loss.item() == pytest.approx((0 + 1 + 4) / 3)


def test_loss_modules_call_functional() -> None:
    x, t = tg.tensor(X), tg.tensor(Y)
    assert nn.MSELoss()(x, t).item() == F.mse_loss(x, t).item()
    assert nn.MSELoss(reduction="none")(x, t).shape == (4, 3)
    assert nn.BCEWithLogitsLoss(reduction="sum")(x, tg.tensor(P)).item() == \
        F.binary_cross_entropy_with_logits(x, tg.tensor(P), reduction="sum").item()
    w = tg.tensor([1.0, 2.0, 3.0])
    assert nn.CrossEntropyLoss(w)(x, tg.tensor(CLASSES)).item() == F.cross_entropy(x, tg.tensor(CLASSES), w).item()
    logp = nn.LogSoftmax(dim=1)(x)
    assert nn.NLLLoss(ignore_index=2)(logp, tg.tensor(CLASSES)).item() == \
        pytest.approx(F.cross_entropy(x, tg.tensor(CLASSES), ignore_index=2).item())
    assert nn.BCELoss()(x.sigmoid(), tg.tensor(P)).item() == \
        pytest.approx(F.binary_cross_entropy_with_logits(x, tg.tensor(P)).item(), rel=1e-5)
    assert nn.CrossEntropyLoss(label_smoothing=0.1)(x, tg.tensor(CLASSES)).item() == \
        pytest.approx(F.cross_entropy(x, tg.tensor(CLASSES), label_smoothing=0.1).item())


def test_functional_linear_is_the_op() -> None:
    x, w, b = tg.randn(2, 3, requires_grad=True), tg.randn(4, 3), tg.randn(4)
    y = F.linear(x, w, b)
    assert y.grad_fn.name() == "AddmmBackward0"
    assert np.allclose(y._array, x._array @ w._array.T + b._array, atol=1e-6)


def test_no_printing_of_torch_in_our_messages() -> None:
    m = nn.Linear(2, 2)
    with pytest.raises(TypeError) as info:
        m.weight = tg.ones(2, 2)
    assert re.search(r"'tinygrad_edu\.FloatTensor' as parameter 'weight' \(tinygrad_edu\.nn\.Parameter",
                     str(info.value))


# ------------------------------------------------------------------------------------------------ more layers
def test_leaky_relu_keeps_a_slope_below_zero() -> None:
    def run(lib: ModuleType) -> tuple:
        x = lib.tensor([-1.0, 2.0], requires_grad=True)
        y = lib.nn.LeakyReLU(0.1)(x)
        y.sum().backward()
        return y, x.grad, y.grad_fn._saved_negative_slope, lib.nn.LeakyReLU(), \
            lib.nn.functional.leaky_relu(lib.tensor([-2.0]))

    as_pytorch(run, (None, "(tensor([-0.1000,  2.0000], grad_fn=<LeakyReluBackward0>), tensor([0.1000, 1.0000]), 0.1, "
                           "LeakyReLU(negative_slope=0.01), tensor([-0.0200]))", []))


def test_dropout_zeroes_and_rescales_in_training_only() -> None:
    def run(lib: ModuleType) -> tuple:
        lib.manual_seed(0)
        x = lib.ones(1000, requires_grad=True)
        d = lib.nn.Dropout(0.2)
        y = d(x)
        kept = float((y != 0).float().mean())  # about 1 - p (the random draws themselves differ from PyTorch's)
        y.sum().backward()
        return (round(kept, 1), y.grad_fn.name(), bool(((x.grad == 0) | (x.grad == 1.25)).all()),
                set(y.detach().tolist()) <= {0.0, 1.25}, d, d.eval()(x) is x)

    as_pytorch(run, (None, "(0.8, 'MulBackward0', True, True, Dropout(p=0.2, inplace=False), True)", []))
    as_pytorch(lambda lib: (lib.nn.functional.dropout(lib.ones(3), 1.0),
                            lib.nn.functional.dropout(lib.ones(3, requires_grad=True), 0.0).grad_fn),
               (None, "(tensor([0., 0., 0.]), None)", []))


def test_module_list_registers_its_layers() -> None:
    def run(lib: ModuleType) -> tuple:
        layers = lib.nn.ModuleList([lib.nn.Linear(2, 2), lib.nn.ReLU()])
        layers.append(lib.nn.Tanh())
        return [n for n, _ in layers.named_parameters()], len(layers), layers[-1], layers, layers[1:]

    as_pytorch(run, (None, "(['0.weight', '0.bias'], 3, Tanh(), ModuleList(\n  (0): Linear(in_features=2, "
                           "out_features=2, bias=True)\n  (1): ReLU()\n  (2): Tanh()\n), ModuleList(\n  (0): ReLU()\n"
                           "  (1): Tanh()\n))", []))


def test_one_hot() -> None:
    as_pytorch(lambda lib: (lib.nn.functional.one_hot(lib.tensor([0, 2]), 3),
                            lib.nn.functional.one_hot(lib.tensor([[1], [0]])),
                            lib.nn.functional.one_hot(lib.tensor([], dtype=lib.int64), 2)),
               (None, "(tensor([[1, 0, 0],\n        [0, 0, 1]]), tensor([[[0, 1]],\n\n        [[1, 0]]]), "
                      "tensor([], size=(0, 2), dtype=tinygrad_edu.int64))", []))
    raises(lambda lib: lib.nn.functional.one_hot(lib.tensor([0, 3]), 3), RuntimeError,
           "Class values must be smaller than num_classes.")
    raises(lambda lib: lib.nn.functional.one_hot(lib.tensor([0.0, 1.0]), 3), RuntimeError,
           "one_hot is only applicable to index tensor of type LongTensor.")
    raises(lambda lib: lib.nn.functional.one_hot(lib.tensor([-1]), 3), RuntimeError,
           "Class values must be non-negative.")
    raises(lambda lib: lib.nn.Dropout(1.5), ValueError, "dropout probability has to be between 0 and 1, but got 1.5")


def test_gradient_clipping() -> None:
    def run(lib: ModuleType) -> tuple:
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        (w * w).sum().backward()  # grad (6, 8), norm 10: scaled to norm 1
        norm = lib.nn.utils.clip_grad_norm_([w], 1.0)
        clipped = w.grad.clone()
        w.grad = lib.tensor([0.3, 0.4])  # norm 0.5 < 1: left alone
        small = lib.nn.utils.clip_grad_norm_(w, 1.0)
        unchanged = w.grad.clone()
        v = lib.tensor([1.0, -5.0], requires_grad=True)
        (v * v).sum().backward()
        lib.nn.utils.clip_grad_value_([v], 1.0)
        return norm, clipped, small, unchanged, v.grad, lib.nn.utils.clip_grad_norm_([], 1.0), \
            lib.nn.utils.clip_grad_norm_([w], 0.1, norm_type=float("inf"))

    as_pytorch(run, (None, "(tensor(10.), tensor([0.6000, 0.8000]), tensor(0.5000), tensor([0.3000, 0.4000]), "
                           "tensor([ 1., -1.]), tensor(0.), tensor(0.4000))", []))


def test_nll_gradient_prints_as_pytorchs() -> None:
    """nll_loss's gradient is PyTorch's to the sign of its zeros: +0. off the targets and on ignored samples
    whatever the sign of the incoming gradient, and -w[t] * g / total at each target."""

    def grads(lib: ModuleType) -> str:
        x = lib.tensor([[0.1, 0.2, 0.3], [0.5, 0.1, 0.2], [0.3, 0.3, 0.3]], requires_grad=True)
        out = []
        for target, kwargs, g in (([0, -100, 2], {}, -0.7), ([1, 0, 2], {"weight": lib.tensor([1.0, 0.0, 2.0])}, -1.0),
                                  ([1, 0, 2], {"reduction": "sum"}, -3.0), ([-100, -100, -100], {}, 1.0),
                                  ([1, 0, 2], {"reduction": "none"}, lib.tensor([0.3, -0.2, 0.1]))):
            loss = lib.nn.functional.nll_loss(x, lib.tensor(target), **kwargs)
            (gx,) = lib.autograd.grad(loss, x, g if isinstance(g, lib.Tensor) else lib.tensor(g))
            out.append(f"{loss}\n{gx}")
        out.append(str(lib.nn.functional.nll_loss(x, lib.tensor([0, -100, 2]), reduction="none")))
        return "\n".join(out)

    text = as_pytorch(grads)[1]
    assert not re.search(r"-0\.0*(?![0-9])", text) and "0.3500" in text and "0.6667" in text  # no -0.


def test_nll_gradient_is_an_op_under_create_graph() -> None:
    """With create_graph the gradient is recorded, as NllLossBackwardBackward0 (NllLoss2D... with extra
    dimensions), whose derivative in x is zeros: a second backward leaves x.grad 0, not None."""

    def second(lib: ModuleType) -> str:
        x = lib.tensor([[0.1, 0.2, 0.3], [0.5, 0.1, 0.2]], requires_grad=True)
        (gx,) = lib.autograd.grad(lib.nn.functional.nll_loss(x, lib.tensor([0, 2])), x, create_graph=True)
        g_out = lib.tensor(0.5, requires_grad=True)
        (gx2,) = lib.autograd.grad(lib.nn.functional.nll_loss(x, lib.tensor([1, 1]), reduction="sum"), x, g_out,
                                   create_graph=True)
        gx2.pow(2).sum().backward()
        x4 = lib.zeros(2, 3, 2, 2, requires_grad=True)
        (g4,) = lib.autograd.grad(lib.nn.functional.nll_loss(x4, lib.zeros(2, 2, 2, dtype=lib.int64)), x4,
                                  create_graph=True)
        return (f"{gx}\n{[n for n, _ in gx.grad_fn.next_functions]}\n{x.grad}\n{g_out.grad}\n"
                f"{g4.grad_fn.name()}")

    text = as_pytorch(second)[1]
    assert "grad_fn=<NllLossBackwardBackward0>" in text and text.endswith("NllLoss2DBackwardBackward0'")


def test_linear_refuses_a_mismatched_dtype() -> None:
    """A float32 batch into a float64 layer is PyTorch's error, not a silent promotion (with a bias the product
    is addmm, without one mm: PyTorch words them differently)."""
    for bias, message in ((True, "mat1 and mat2 must have the same dtype, but got Float and Double"),
                          (False, "expected m1 and m2 to have the same dtype, but got: float != double")):
        for shape in ((1, 2), (2,)):
            raises(lambda lib, bias=bias, shape=shape: lib.nn.Linear(2, 2, bias=bias).double()(lib.ones(*shape)),
                   RuntimeError, message)


def test_linear_refuses_a_bias_that_does_not_fit() -> None:
    raises(lambda lib: lib.nn.functional.linear(lib.ones(2, 4), lib.ones(2, 4), lib.ones(4)), RuntimeError,
           "The expanded size of the tensor (2) must match the existing size (4) at non-singleton dimension 1.  "
           "Target sizes: [2, 2].  Tensor sizes: [4]")


def test_loss_gradients_under_create_graph_end_in_pytorchs_division() -> None:
    """The mean of bce_with_logits' gradient is C++'s division by a number in PyTorch: DivBackward1."""

    def grad(lib: ModuleType) -> str:
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        loss = lib.nn.functional.binary_cross_entropy_with_logits(x, lib.tensor([1.0, 0.0, 1.0]))
        (gx,) = lib.autograd.grad(loss, x, create_graph=True)
        return gx.grad_fn.name()

    as_pytorch(grad, (None, "'DivBackward1'", []))
