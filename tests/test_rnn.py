"""The recurrent layers against PyTorch 2.13: nn.RNN (tanh, relu), nn.LSTM, nn.GRU and the cells RNNCell, LSTMCell,
GRUCell. Their initial weights after ``manual_seed`` (bit for bit), outputs and every gradient (input, h_0, c_0, each
parameter) across batch_first, unbatched input, several layers, both directions, no bias, dropout and projections;
finite differences (gradcheck, gradgradcheck); the graph's node names; reprs; the errors and warnings of misuse.
The sequence-models tutorial itself is a recorded program, ``tests/tutorials/sequence_models.py``.

Each case is run with tinygrad_edu and, when torch is installed, with torch (``_oracle.as_pytorch``); the expected
outcome is spelled out next to it, so each test means something without torch.
"""

from __future__ import annotations

import math
import time
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import Text, as_pytorch, ok, oracle, raises

import tinygrad_edu as tg
from tinygrad_edu.autograd import gradcheck, gradgradcheck


def _layer(lib: ModuleType, cls: str, *args: Any, seed: int = 1, **kwargs: Any) -> Any:
    lib.manual_seed(seed)
    return getattr(lib.nn, cls)(*args, **kwargs)


# -- initial weights: PyTorch's draws, in PyTorch's order -----------------------------------------------------------
def _weights(lib: ModuleType, cls: str, *args: Any, **kwargs: Any) -> Text:
    """Each parameter's name, shape and exact sum (math.fsum of its values: equal sums, equal draws)."""
    m = _layer(lib, cls, *args, **kwargs)
    return Text("\n".join(f"{name} {list(p.shape)} {math.fsum(p.detach().reshape(-1).tolist())!r}"
                          for name, p in m.named_parameters()))


INITIAL_WEIGHTS = {
    "LSTM(3, 3), the tutorial's": (("LSTM", 3, 3), {}),
    "RNN, 2 layers, bidirectional": (("RNN", 3, 4), {"num_layers": 2, "bidirectional": True}),
    "GRU, 2 layers, bidirectional": (("GRU", 3, 4), {"num_layers": 2, "bidirectional": True}),
    "LSTM, 2 layers, bidirectional": (("LSTM", 2, 3), {"num_layers": 2, "bidirectional": True}),
    "LSTM without bias, with a projection": (("LSTM", 3, 4), {"bias": False, "proj_size": 2}),
    "RNNCell": (("RNNCell", 3, 4), {}),
    "LSTMCell": (("LSTMCell", 3, 2), {}),
    "GRUCell without bias": (("GRUCell", 3, 4), {"bias": False}),
}
INITIAL_WEIGHTS_PRINTED: dict[str, str] = {
    "LSTM(3, 3), the tutorial's": (
        'weight_ih_l0 [12, 3] 0.15628765639849007\n'
        'weight_hh_l0 [12, 3] 1.1260743499733508\n'
        'bias_ih_l0 [12] -0.021338053047657013\n'
        'bias_hh_l0 [12] -0.5023964047431946'),
    'RNN, 2 layers, bidirectional': (
        'weight_ih_l0 [4, 3] 0.3269784450531006\n'
        'weight_hh_l0 [4, 4] 0.21533530950546265\n'
        'bias_ih_l0 [4] 0.43514448404312134\n'
        'bias_hh_l0 [4] -0.842109203338623\n'
        'weight_ih_l0_reverse [4, 3] 0.8725793361663818\n'
        'weight_hh_l0_reverse [4, 4] 0.9813836812973022\n'
        'bias_ih_l0_reverse [4] -0.29923999309539795\n'
        'bias_hh_l0_reverse [4] -0.5795140266418457\n'
        'weight_ih_l1 [4, 8] 0.30626559257507324\n'
        'weight_hh_l1 [4, 4] 1.2671549916267395\n'
        'bias_ih_l1 [4] -0.057076990604400635\n'
        'bias_hh_l1 [4] -0.5866813063621521\n'
        'weight_ih_l1_reverse [4, 8] 1.4265461564064026\n'
        'weight_hh_l1_reverse [4, 4] 0.4935415983200073\n'
        'bias_ih_l1_reverse [4] 0.40180444717407227\n'
        'bias_hh_l1_reverse [4] -0.6949681639671326'),
    'GRU, 2 layers, bidirectional': (
        'weight_ih_l0 [12, 3] 0.13534903526306152\n'
        'weight_hh_l0 [12, 4] 0.9567297101020813\n'
        'bias_ih_l0 [12] -0.4350880980491638\n'
        'bias_hh_l0 [12] 0.5174673795700073\n'
        'weight_ih_l0_reverse [12, 3] 2.118440628051758\n'
        'weight_hh_l0_reverse [12, 4] -0.6116899251937866\n'
        'bias_ih_l0_reverse [12] 0.48317259550094604\n'
        'bias_hh_l0_reverse [12] 1.5783208012580872\n'
        'weight_ih_l1 [12, 8] -0.1529536247253418\n'
        'weight_hh_l1 [12, 4] -1.590214729309082\n'
        'bias_ih_l1 [12] -1.300244688987732\n'
        'bias_hh_l1 [12] 0.48189777135849\n'
        'weight_ih_l1_reverse [12, 8] 3.0043479204177856\n'
        'weight_hh_l1_reverse [12, 4] -3.9040945768356323\n'
        'bias_ih_l1_reverse [12] 0.06303805112838745\n'
        'bias_hh_l1_reverse [12] -0.5956099629402161'),
    'LSTM, 2 layers, bidirectional': (
        'weight_ih_l0 [12, 2] 0.125591040821746\n'
        'weight_hh_l0 [12, 3] 1.307105132844299\n'
        'bias_ih_l0 [12] -0.15033416729420424\n'
        'bias_hh_l0 [12] -0.021338053047657013\n'
        'weight_ih_l0_reverse [12, 2] 0.09512345306575298\n'
        'weight_hh_l0_reverse [12, 3] 2.446164548397064\n'
        'bias_ih_l0_reverse [12] 0.56318992190063\n'
        'bias_hh_l0_reverse [12] -0.526422992348671\n'
        'weight_ih_l1 [12, 6] 1.9865332543849945\n'
        'weight_hh_l1 [12, 3] 1.0667382990941405\n'
        'bias_ih_l1 [12] -0.5183770302683115\n'
        'bias_hh_l1 [12] -0.8790855836123228\n'
        'weight_ih_l1_reverse [12, 6] -3.532717526424676\n'
        'weight_hh_l1_reverse [12, 3] 1.2960851187817752\n'
        'bias_ih_l1_reverse [12] 0.22831759601831436\n'
        'bias_hh_l1_reverse [12] 0.054151467978954315'),
    'LSTM without bias, with a projection': (
        'weight_ih_l0 [16, 3] 1.0079283714294434\n'
        'weight_hh_l0 [16, 2] 0.8677628636360168\n'
        'weight_hr_l0 [2, 4] -0.8601248860359192'),
    'RNNCell': (
        'weight_ih [4, 3] 0.3269784450531006\n'
        'weight_hh [4, 4] 0.21533530950546265\n'
        'bias_ih [4] 0.43514448404312134\n'
        'bias_hh [4] -0.842109203338623'),
    'LSTMCell': (
        'weight_ih [8, 3] 0.1538169072009623\n'
        'weight_hh [8, 2] 0.5147446170449257\n'
        'bias_ih [8] 0.7568644378334284\n'
        'bias_hh [8] 0.18429551273584366'),
    'GRUCell without bias': (
        'weight_ih [12, 3] 0.13534903526306152\n'
        'weight_hh [12, 4] 0.9567297101020813'),
}


@pytest.mark.parametrize("name", INITIAL_WEIGHTS)
def test_initial_weights_are_pytorchs(name: str) -> None:
    args, kwargs = INITIAL_WEIGHTS[name]
    as_pytorch(lambda lib: _weights(lib, *args, **kwargs), ok(INITIAL_WEIGHTS_PRINTED[name]))
    torch = oracle()
    if torch is not None:  # bit for bit, not only the sums
        theirs, ours = _layer(torch, *args, **kwargs), _layer(tg, *args, **kwargs)
        for (n1, p1), (n2, p2) in zip(ours.named_parameters(), theirs.named_parameters(), strict=True):
            assert n1 == n2 and np.array_equal(p1.detach().numpy(), p2.detach().numpy()), n1


# -- outputs and every gradient ---------------------------------------------------------------------------------------
def _run(lib: ModuleType, cls: str, kwargs: dict, shape: tuple, dtype: str, with_state: bool) -> tuple[list, list]:
    """The layer's results (output, h_n[, c_n]) and the gradients of a weighted sum of them: for the input, h_0,
    c_0 when given, then every parameter in order. Training mode (dropout applies where asked)."""
    m = _layer(lib, cls, 3, 4, seed=0, **kwargs)
    dt = getattr(lib, dtype)
    m.to(dt)
    x = lib.randn(*shape).to(dt).requires_grad_()  # (drawn in float32: the same numbers in both dtypes)
    layers = (2 if kwargs.get("bidirectional") else 1) * kwargs.get("num_layers", 1)
    batch = () if len(shape) == 2 else (shape[0 if kwargs.get("batch_first") else 1],)
    states = []
    if with_state:
        states.append(lib.randn(layers, *batch, kwargs.get("proj_size") or 4).to(dt).requires_grad_())
        if cls == "LSTM":
            states.append(lib.randn(layers, *batch, 4).to(dt).requires_grad_())
    hx = (tuple(states) if cls == "LSTM" else states[0]) if states else None
    output, state = m(x, hx)
    results = [output, *(state if isinstance(state, tuple) else (state,))]
    loss = sum((r * lib.arange(r.numel(), dtype=dt).reshape(r.shape).sin()).sum() for r in results)
    loss.backward()
    grads = [x.grad, *[s.grad for s in states], *[p.grad for p in m.parameters()]]
    return [r.detach().numpy() for r in results], [g.numpy() for g in grads]


def _fingerprint(arrays: list) -> str:
    """Each array's shape and sum, to 6 decimals: enough to tell a wrong number, stable under rounding."""
    return " ".join(f"{list(a.shape)}:{math.fsum(a.reshape(-1).tolist()):.6f}" for a in arrays)


CONFIGS = {
    "RNN": ("RNN", {}, (5, 2, 3), True),
    "RNN relu, no state given": ("RNN", {"nonlinearity": "relu"}, (5, 2, 3), False),
    "RNN batch_first, 2 layers, bidirectional": ("RNN", {"batch_first": True, "num_layers": 2,
                                                          "bidirectional": True}, (2, 5, 3), True),
    "RNN unbatched, no bias": ("RNN", {"bias": False}, (5, 3), True),
    "LSTM": ("LSTM", {}, (5, 2, 3), True),
    "LSTM no state given": ("LSTM", {}, (5, 2, 3), False),
    "LSTM batch_first": ("LSTM", {"batch_first": True}, (2, 5, 3), True),
    "LSTM unbatched": ("LSTM", {}, (5, 3), True),
    "LSTM 2 layers, bidirectional": ("LSTM", {"num_layers": 2, "bidirectional": True}, (5, 2, 3), True),
    "LSTM no bias": ("LSTM", {"bias": False}, (5, 2, 3), True),
    "LSTM projection": ("LSTM", {"proj_size": 2, "num_layers": 2}, (5, 2, 3), True),
    "LSTM 3 layers, dropout": ("LSTM", {"num_layers": 3, "dropout": 0.5}, (5, 2, 3), True),
    "GRU": ("GRU", {}, (5, 2, 3), True),
    "GRU unbatched, batch_first, bidirectional": ("GRU", {"batch_first": True, "bidirectional": True}, (5, 3),
                                                  True),
    "GRU 2 layers, no bias, dropout": ("GRU", {"num_layers": 2, "bias": False, "dropout": 0.3}, (5, 2, 3), False),
}
FINGERPRINTS: dict[str, str] = {
    'RNN': (
        '[5, 2, 4]:-14.429347 [1, 2, 4]:-1.931378 [5, 2, 3]:-0.540826 [1, 2, 4]:0.868749 [4, 3]:-0.153810 '
        '[4, 4]:-5.446673 [4]:3.807241 [4]:3.807241'),
    'RNN relu, no state given': (
        '[5, 2, 4]:1.076438 [1, 2, 4]:0.000000 [5, 2, 3]:-0.087986 [4, 3]:-0.759659 [4, 4]:0.083032 '
        '[4]:0.751488 [4]:0.751488'),
    'RNN batch_first, 2 layers, bidirectional': (
        '[2, 5, 8]:-11.759103 [4, 2, 4]:-5.700574 [2, 5, 3]:-0.611588 [4, 2, 4]:-0.824076 [4, 3]:-1.673596 '
        '[4, 4]:-1.527520 [4]:0.941401 [4]:0.941401 [4, 3]:-5.339842 [4, 4]:1.587449 [4]:-0.211674 '
        '[4]:-0.211674 [4, 8]:0.581438 [4, 4]:-1.054465 [4]:-1.827587 [4]:-1.827587 [4, 8]:0.601848 [4, '
        '4]:3.457268 [4]:-1.004751 [4]:-1.004751'),
    'RNN unbatched, no bias': (
        '[5, 4]:0.458939 [1, 4]:-0.037705 [5, 3]:0.318918 [1, 4]:1.354829 [4, 3]:11.200448 [4, 4]:-5.121667'),
    'LSTM': (
        '[5, 2, 4]:3.477195 [1, 2, 4]:0.741376 [1, 2, 4]:1.693196 [5, 2, 3]:-1.192122 [1, 2, 4]:-0.180719 '
        '[1, 2, 4]:0.714247 [16, 3]:0.597236 [16, 4]:2.084498 [16]:2.662963 [16]:2.662963'),
    'LSTM no state given': (
        '[5, 2, 4]:1.963771 [1, 2, 4]:0.571596 [1, 2, 4]:1.301041 [5, 2, 3]:-1.113180 [16, 3]:0.889478 [16, '
        '4]:0.412085 [16]:1.946229 [16]:1.946229'),
    'LSTM batch_first': (
        '[2, 5, 4]:3.888885 [1, 2, 4]:0.760424 [1, 2, 4]:1.564113 [2, 5, 3]:-0.682213 [1, 2, 4]:-0.304363 '
        '[1, 2, 4]:0.397157 [16, 3]:1.026816 [16, 4]:-0.163002 [16]:0.976419 [16]:0.976419'),
    'LSTM unbatched': (
        '[5, 4]:1.176131 [1, 4]:0.304693 [1, 4]:0.618418 [5, 3]:-0.823504 [1, 4]:0.224371 [1, 4]:0.386533 '
        '[16, 3]:-0.880461 [16, 4]:-1.683576 [16]:2.319486 [16]:2.319486'),
    'LSTM 2 layers, bidirectional': (
        '[5, 2, 8]:-1.979147 [4, 2, 4]:-0.789703 [4, 2, 4]:-2.119905 [5, 2, 3]:1.103424 [4, 2, 4]:0.171266 '
        '[4, 2, 4]:0.505918 [16, 3]:3.211029 [16, 4]:-0.569189 [16]:1.132553 [16]:1.132553 [16, 3]:0.277438 '
        '[16, 4]:0.404090 [16]:-0.367426 [16]:-0.367426 [16, 8]:-0.657626 [16, 4]:0.067902 [16]:-1.288389 '
        '[16]:-1.288389 [16, 8]:0.580390 [16, 4]:-1.952474 [16]:0.002122 [16]:0.002122'),
    'LSTM no bias': (
        '[5, 2, 4]:0.353366 [1, 2, 4]:0.061517 [1, 2, 4]:0.019180 [5, 2, 3]:-1.308498 [1, 2, 4]:0.207534 [1, '
        '2, 4]:0.620792 [16, 3]:-5.662560 [16, 4]:0.545192'),
    'LSTM projection': (
        '[5, 2, 2]:0.811806 [2, 2, 2]:0.259607 [2, 2, 4]:-1.673065 [5, 2, 3]:-1.059426 [2, 2, 2]:0.059501 '
        '[2, 2, 4]:-0.046364 [16, 3]:2.109454 [16, 2]:0.329330 [16]:0.953960 [16]:0.953960 [2, 4]:-0.390500 '
        '[16, 2]:0.092766 [16, 2]:-0.007457 [16]:2.458569 [16]:2.458569 [2, 4]:0.744838'),
    'LSTM 3 layers, dropout': (
        '[5, 2, 4]:-5.440743 [3, 2, 4]:-0.193169 [3, 2, 4]:-1.050340 [5, 2, 3]:-1.125730 [3, 2, 4]:0.432763 '
        '[3, 2, 4]:0.366234 [16, 3]:-1.689612 [16, 4]:0.196310 [16]:2.120013 [16]:2.120013 [16, 4]:0.533553 '
        '[16, 4]:-0.467305 [16]:1.134331 [16]:1.134331 [16, 4]:0.018511 [16, 4]:0.755159 [16]:-0.569815 '
        '[16]:-0.569815'),
    'GRU': (
        '[5, 2, 4]:2.552288 [1, 2, 4]:-1.540294 [5, 2, 3]:-0.149847 [1, 2, 4]:-0.440989 [12, 3]:6.825027 '
        '[12, 4]:-0.347810 [12]:-0.676163 [12]:-0.621929'),
    'GRU unbatched, batch_first, bidirectional': (
        '[5, 8]:4.710230 [2, 4]:-0.663918 [5, 3]:-0.810020 [2, 4]:0.999692 [12, 3]:2.744650 [12, 4]:3.034379 '
        '[12]:3.314072 [12]:1.734570 [12, 3]:-1.663351 [12, 4]:-0.830026 [12]:-2.617494 [12]:-1.166609'),
    'GRU 2 layers, no bias, dropout': (
        '[5, 2, 4]:0.708169 [2, 2, 4]:0.359278 [5, 2, 3]:-0.312300 [12, 3]:1.739867 [12, 4]:-0.872378 [12, '
        '4]:1.372675 [12, 4]:0.160680'),
}


@pytest.mark.filterwarnings("ignore:LSTM with projections")  # (PyTorch warns once per process, so do we)
@pytest.mark.parametrize("name", CONFIGS)
def test_outputs_and_gradients_match_pytorch(name: str) -> None:
    """float64: PyTorch's numbers to 1e-10 (and the fingerprint written here); float32 (a float32 LSTM goes through
    its MkldnnRnnLayerBackward0 nodes): PyTorch's to 1e-5 of each tensor's largest value. The same seed gives the same
    dropout masks, so dropout's cases compare too."""
    cls, kwargs, shape, with_state = CONFIGS[name]
    ours64 = _run(tg, cls, kwargs, shape, "float64", with_state)
    assert _fingerprint(ours64[0] + ours64[1]) == FINGERPRINTS[name]
    ours32 = _run(tg, cls, kwargs, shape, "float32", with_state)
    for a, b in zip(ours32[0] + ours32[1], ours64[0] + ours64[1], strict=True):  # (same draws in both dtypes)
        assert a.dtype == np.float32 and np.abs(a - b).max() <= 1e-5 * max(np.abs(b).max(), 1e-3)
    torch = oracle()
    if torch is not None:
        for dtype, ours, tolerance in (("float64", ours64, 1e-10), ("float32", ours32, 1e-5)):
            theirs = _run(torch, cls, kwargs, shape, dtype, with_state)
            for a, b in zip(ours[0] + ours[1], theirs[0] + theirs[1], strict=True):
                assert a.shape == b.shape and np.abs(a - b).max() <= tolerance * max(np.abs(b).max(), 1e-3), dtype


# -- finite differences --------------------------------------------------------------------------------------------
def _f64(*shape: int, seed: int = 0) -> tg.Tensor:
    return tg.tensor(np.random.default_rng(seed).normal(size=shape), requires_grad=True)


@pytest.mark.parametrize("cls", ["LSTM", "GRU", "RNN"])
def test_derivatives_match_finite_differences(cls: str) -> None:
    """gradcheck and gradgradcheck in float64, for the input, h_0 (and c_0) and every parameter of a 2-layer
    bidirectional layer: backward, and the derivative of backward (create_graph)."""
    m = _layer(tg, cls, 2, 2, num_layers=2, bidirectional=True, dtype=tg.float64)
    params = list(m.parameters())
    states = [_f64(4, 2, 2, seed=1)] + ([_f64(4, 2, 2, seed=2)] if cls == "LSTM" else [])

    def fn(x: tg.Tensor, *rest: tg.Tensor) -> tuple:  # (the parameters are passed so that gradcheck perturbs them)
        hx = tuple(rest[:2]) if cls == "LSTM" else rest[0]
        output, state = m(x, hx)
        return (output, *state) if cls == "LSTM" else (output, state)

    inputs = (_f64(2, 2, 2), *states, *params)
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


@pytest.mark.parametrize("cls", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cell_derivatives_match_finite_differences(cls: str) -> None:
    m = _layer(tg, cls, 2, 3, dtype=tg.float64)
    states = [_f64(2, 3, seed=1)] + ([_f64(2, 3, seed=2)] if cls == "LSTMCell" else [])

    def fn(x: tg.Tensor, *rest: tg.Tensor) -> Any:
        return m(x, tuple(rest[:2]) if cls == "LSTMCell" else rest[0])

    inputs = (_f64(2, 2), *states, *m.parameters())
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_the_float32_lstm_node_has_second_derivatives() -> None:
    """The MkldnnRnnLayerBackward0 node recomputes its steps from its own inputs under create_graph, so a gradient of
    a gradient flows through it: the same numbers as the float64 layer's (which is made of plain ops)."""
    results = []
    for dtype in (tg.float32, tg.float64):
        m = _layer(tg, "LSTM", 3, 4, num_layers=2).to(dtype)
        x = tg.randn(5, 2, 3, generator=tg.Generator().manual_seed(0)).to(dtype).requires_grad_()
        output, (h, c) = m(x)
        assert type(output.grad_fn).__name__ == ("MkldnnRnnLayerBackward0" if dtype == tg.float32 else
                                                 "StackBackward0")
        (gx,) = tg.autograd.grad((output ** 2).sum() + h.sum() + (c * 2).sum(), [x], create_graph=True)
        results.append([g.numpy() for g in tg.autograd.grad((gx ** 2).sum(), [x, m.weight_hh_l0, m.bias_ih_l1])])
    for a, b in zip(*results, strict=True):
        assert np.allclose(a, b, rtol=1e-4, atol=1e-6)


def test_the_lstm_node_checks_its_saved_tensors() -> None:
    def twice(lib: ModuleType) -> Any:
        output, _ = _layer(lib, "LSTM", 3, 4)(lib.randn(5, 2, 3))
        output.sum().backward()
        output.sum().backward()

    def changed(lib: ModuleType) -> Any:
        m = _layer(lib, "LSTM", 3, 4)
        output, _ = m(lib.randn(5, 2, 3))
        with lib.no_grad():
            m.weight_hh_l0.mul_(2)
        output.sum().backward()

    raises(twice, RuntimeError, "Trying to backward through the graph a second time (or directly access saved "
           "tensors after they have already been freed). Saved intermediate values of the graph are freed when you "
           "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph "
           "a second time or if you need to access saved tensors after calling backward.")
    raises(changed, RuntimeError, "one of the variables needed for gradient computation has been modified by an "
           "inplace operation: [tinygrad_edu.FloatTensor [16, 4]] is at version 2; expected version 1 instead. Hint: "
           "enable anomaly detection to find the operation that failed to compute its gradient, with "
           "tinygrad_edu.autograd.set_detect_anomaly(True, check_nan=False).")


# -- the graph: node names ------------------------------------------------------------------------------------------
def _name(node: Any) -> str:
    return "None" if node is None else type(node).__name__


def _graph(lib: ModuleType, cls: str, shape: tuple = (5, 2, 3), dtype: str = "float32", state: bool = False,
           **kwargs: Any) -> Text:
    """The nodes of the results: each result's grad_fn and where its edges lead."""
    m = _layer(lib, cls, 3, 4, **kwargs).to(getattr(lib, dtype))
    x = lib.randn(*shape, dtype=getattr(lib, dtype))
    hx = None
    if state:
        h0 = lib.zeros(m.num_layers * (2 if m.bidirectional else 1), *shape[1:-1], 4, dtype=getattr(lib, dtype),
                       requires_grad=True)
        hx = (h0, h0.detach()) if cls == "LSTM" else h0
    output, hidden = m(x, hx)
    lines = []
    for what, t in zip(("output", "h_n", "c_n"), (output, *(hidden if isinstance(hidden, tuple) else (hidden,)))):
        edges = ", ".join(f"{_name(n)}:{nr}" for n, nr in t.grad_fn.next_functions)
        lines.append(f"{what}: {_name(t.grad_fn)} <- ({edges})")
    return Text("\n".join(lines))


NODE_NAMES = {
    "LSTM, float32": lambda lib: _graph(lib, "LSTM"),
    "LSTM, float32, with h_0 that requires grad": lambda lib: _graph(lib, "LSTM", state=True),
    "LSTM, float32, no bias": lambda lib: _graph(lib, "LSTM", bias=False),
    "LSTM, float32, batch_first": lambda lib: _graph(lib, "LSTM", batch_first=True),
    "LSTM, float32, unbatched": lambda lib: _graph(lib, "LSTM", (5, 3)),
    "LSTM, float32, 2 layers, bidirectional": lambda lib: _graph(lib, "LSTM", num_layers=2, bidirectional=True),
    "LSTM, float64": lambda lib: _graph(lib, "LSTM", dtype="float64"),
    "LSTM, float64, batch_first": lambda lib: _graph(lib, "LSTM", dtype="float64", batch_first=True),
    "LSTM, projection": lambda lib: _graph(lib, "LSTM", dtype="float64", proj_size=2),
    "RNN": lambda lib: _graph(lib, "RNN"),
    "RNN relu": lambda lib: _graph(lib, "RNN", nonlinearity="relu"),
    "RNN batch_first": lambda lib: _graph(lib, "RNN", batch_first=True),
    "RNN unbatched": lambda lib: _graph(lib, "RNN", (5, 3)),
    "GRU": lambda lib: _graph(lib, "GRU"),
    "GRU batch_first, bidirectional": lambda lib: _graph(lib, "GRU", batch_first=True, bidirectional=True),
}
NODE_NAMES_PRINTED: dict[str, str] = {
    'LSTM, float32': (
        'output: MkldnnRnnLayerBackward0 <- (None:0, AccumulateGrad:0, AccumulateGrad:0, AccumulateGrad:0, '
        'AccumulateGrad:0, None:0, None:0)\n'
        'h_n: StackBackward0 <- (MkldnnRnnLayerBackward0:1)\n'
        'c_n: StackBackward0 <- (MkldnnRnnLayerBackward0:2)'),
    'LSTM, float32, with h_0 that requires grad': (
        'output: MkldnnRnnLayerBackward0 <- (None:0, AccumulateGrad:0, AccumulateGrad:0, AccumulateGrad:0, '
        'AccumulateGrad:0, SelectBackward0:0, None:0)\n'
        'h_n: StackBackward0 <- (MkldnnRnnLayerBackward0:1)\n'
        'c_n: StackBackward0 <- (MkldnnRnnLayerBackward0:2)'),
    'LSTM, float32, no bias': (
        'output: MkldnnRnnLayerBackward0 <- (None:0, AccumulateGrad:0, AccumulateGrad:0, None:0, None:0, '
        'None:0, None:0)\n'
        'h_n: StackBackward0 <- (MkldnnRnnLayerBackward0:1)\n'
        'c_n: StackBackward0 <- (MkldnnRnnLayerBackward0:2)'),
    'LSTM, float32, batch_first': (
        'output: TransposeBackward0 <- (MkldnnRnnLayerBackward0:0)\n'
        'h_n: StackBackward0 <- (MkldnnRnnLayerBackward0:1)\n'
        'c_n: StackBackward0 <- (MkldnnRnnLayerBackward0:2)'),
    'LSTM, float32, unbatched': (
        'output: SqueezeBackward1 <- (MkldnnRnnLayerBackward0:0)\n'
        'h_n: SqueezeBackward1 <- (StackBackward0:0)\n'
        'c_n: SqueezeBackward1 <- (StackBackward0:0)'),
    'LSTM, float32, 2 layers, bidirectional': (
        'output: CatBackward0 <- (MkldnnRnnLayerBackward0:0, MkldnnRnnLayerBackward0:0)\n'
        'h_n: StackBackward0 <- (MkldnnRnnLayerBackward0:1, MkldnnRnnLayerBackward0:1, '
        'MkldnnRnnLayerBackward0:1, MkldnnRnnLayerBackward0:1)\n'
        'c_n: StackBackward0 <- (MkldnnRnnLayerBackward0:2, MkldnnRnnLayerBackward0:2, '
        'MkldnnRnnLayerBackward0:2, MkldnnRnnLayerBackward0:2)'),
    'LSTM, float64': (
        'output: StackBackward0 <- (MulBackward0:0, MulBackward0:0, MulBackward0:0, MulBackward0:0, '
        'MulBackward0:0)\n'
        'h_n: StackBackward0 <- (MulBackward0:0)\n'
        'c_n: StackBackward0 <- (AddBackward0:0)'),
    'LSTM, float64, batch_first': (
        'output: TransposeBackward0 <- (StackBackward0:0)\n'
        'h_n: StackBackward0 <- (MulBackward0:0)\n'
        'c_n: StackBackward0 <- (AddBackward0:0)'),
    'LSTM, projection': (
        'output: StackBackward0 <- (MmBackward0:0, MmBackward0:0, MmBackward0:0, MmBackward0:0, '
        'MmBackward0:0)\n'
        'h_n: StackBackward0 <- (MmBackward0:0)\n'
        'c_n: StackBackward0 <- (AddBackward0:0)'),
    'RNN': (
        'output: StackBackward0 <- (TanhBackward0:0, TanhBackward0:0, TanhBackward0:0, TanhBackward0:0, '
        'TanhBackward0:0)\n'
        'h_n: StackBackward0 <- (TanhBackward0:0)'),
    'RNN relu': (
        'output: StackBackward0 <- (ReluBackward0:0, ReluBackward0:0, ReluBackward0:0, ReluBackward0:0, '
        'ReluBackward0:0)\n'
        'h_n: StackBackward0 <- (ReluBackward0:0)'),
    'RNN batch_first': (
        'output: TransposeBackward1 <- (StackBackward0:0)\n'
        'h_n: StackBackward0 <- (TanhBackward0:0)'),
    'RNN unbatched': (
        'output: SqueezeBackward1 <- (StackBackward0:0)\n'
        'h_n: SqueezeBackward1 <- (StackBackward0:0)'),
    'GRU': (
        'output: StackBackward0 <- (AddBackward0:0, AddBackward0:0, AddBackward0:0, AddBackward0:0, '
        'AddBackward0:0)\n'
        'h_n: StackBackward0 <- (AddBackward0:0)'),
    'GRU batch_first, bidirectional': (
        'output: TransposeBackward1 <- (CatBackward0:0)\n'
        'h_n: StackBackward0 <- (AddBackward0:0, AddBackward0:0)'),
}


@pytest.mark.parametrize("name", NODE_NAMES)
def test_node_names_are_pytorchs(name: str) -> None:
    as_pytorch(NODE_NAMES[name], ok(NODE_NAMES_PRINTED[name]))


def _cell_graph(lib: ModuleType, cls: str, shape: tuple = (2, 3), **kwargs: Any) -> Text:
    result = _layer(lib, cls, 3, 4, **kwargs)(lib.randn(*shape))
    return Text(" ".join(_name(t.grad_fn) for t in (result if isinstance(result, tuple) else (result,))))


CELL_NODES = {
    "RNNCell": (lambda lib: _cell_graph(lib, "RNNCell"), "TanhBackward0"),
    "RNNCell relu": (lambda lib: _cell_graph(lib, "RNNCell", nonlinearity="relu"), "ReluBackward0"),
    "LSTMCell": (lambda lib: _cell_graph(lib, "LSTMCell"), "MulBackward0 AddBackward0"),
    "GRUCell": (lambda lib: _cell_graph(lib, "GRUCell"), "AddBackward0"),
    "LSTMCell unbatched": (lambda lib: _cell_graph(lib, "LSTMCell", (3,)), "SqueezeBackward1 SqueezeBackward1"),
    "GRUCell unbatched": (lambda lib: _cell_graph(lib, "GRUCell", (3,)), "SqueezeBackward1"),
}


@pytest.mark.parametrize("name", CELL_NODES)
def test_cell_node_names_are_pytorchs(name: str) -> None:
    fn, expected = CELL_NODES[name]
    as_pytorch(fn, ok(expected))


# -- modules: reprs, parameters, state -------------------------------------------------------------------------------
REPRS = {
    "LSTM": (lambda lib: lib.nn.LSTM(3, 3), "LSTM(3, 3)"),
    "RNN batch_first": (lambda lib: lib.nn.RNN(3, 4, batch_first=True), "RNN(3, 4, batch_first=True)"),
    "GRU 2 layers": (lambda lib: lib.nn.GRU(3, 4, num_layers=2), "GRU(3, 4, num_layers=2)"),
    "RNN everything, positional": (lambda lib: lib.nn.RNN(3, 4, 2, "relu", False, True, 0.5, True),
                                   "RNN(3, 4, num_layers=2, bias=False, batch_first=True, dropout=0.5, "
                                   "bidirectional=True)"),
    "LSTM projection": (lambda lib: lib.nn.LSTM(3, 4, proj_size=2), "LSTM(3, 4, proj_size=2)"),
    "GRU dropout 1": (lambda lib: lib.nn.GRU(3, 4, 2, dropout=1), "GRU(3, 4, num_layers=2, dropout=1.0)"),
    "LSTMCell": (lambda lib: lib.nn.LSTMCell(3, 4), "LSTMCell(3, 4)"),
    "RNNCell relu, no bias": (lambda lib: lib.nn.RNNCell(3, 4, False, "relu"),
                              "RNNCell(3, 4, bias=False, nonlinearity=relu)"),
    "GRUCell": (lambda lib: lib.nn.GRUCell(3, 4), "GRUCell(3, 4)"),
    "in a model": (lambda lib: lib.nn.Sequential(lib.nn.Embedding(9, 6), lib.nn.LSTM(6, 6)),
                   "Sequential(\n  (0): Embedding(9, 6)\n  (1): LSTM(6, 6)\n)"),
}


@pytest.mark.parametrize("name", REPRS)
def test_reprs_are_pytorchs(name: str) -> None:
    fn, expected = REPRS[name]
    as_pytorch(fn, ok(expected))


MODULES = {
    "named_parameters, bidirectional": (
        lambda lib: [n for n, _ in lib.nn.GRU(3, 4, num_layers=2, bidirectional=True).named_parameters()],
        "['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0', 'weight_ih_l0_reverse', 'weight_hh_l0_reverse', "
        "'bias_ih_l0_reverse', 'bias_hh_l0_reverse', 'weight_ih_l1', 'weight_hh_l1', 'bias_ih_l1', 'bias_hh_l1', "
        "'weight_ih_l1_reverse', 'weight_hh_l1_reverse', 'bias_ih_l1_reverse', 'bias_hh_l1_reverse']"),
    "named_parameters, projection without bias": (
        lambda lib: [(n, list(p.shape)) for n, p in lib.nn.LSTM(3, 4, bias=False, proj_size=2).named_parameters()],
        "[('weight_ih_l0', [16, 3]), ('weight_hh_l0', [16, 2]), ('weight_hr_l0', [2, 4])]"),
    "second layer reads both directions": (
        lambda lib: lib.nn.LSTM(3, 4, 2, bidirectional=True).weight_ih_l1.shape,
        "tinygrad_edu.Size([16, 8])"),
    "all_weights": (
        lambda lib: [[list(w.shape) for w in ws] for ws in lib.nn.RNN(3, 4, 2, bias=False).all_weights],
        "[[[4, 3], [4, 4]], [[4, 4], [4, 4]]]"),
    "flatten_parameters": (lambda lib: lib.nn.LSTM(3, 4).flatten_parameters(), "None"),
    "state_dict keys": (lambda lib: list(lib.nn.RNNCell(3, 4).state_dict()),
                        "['weight_ih', 'weight_hh', 'bias_ih', 'bias_hh']"),
    "cell without bias": (lambda lib: (lib.nn.GRUCell(3, 4, bias=False).bias_ih, lib.nn.GRUCell(3, 4).bias_hh.shape),
                          "(None, tinygrad_edu.Size([12]))"),
    "attributes d2l reads": (
        lambda lib: (lambda m: (m.input_size, m.hidden_size, m.num_layers, m.bidirectional, m.batch_first,
                                m.dropout, m.bias, m.proj_size))(lib.nn.GRU(28, 32, 2, bidirectional=True)),
        "(28, 32, 2, True, False, 0.0, True, 0)"),
    "state shapes, d2l's": (
        lambda lib: (lambda out: (out[0].shape, out[1][0].shape, out[1][1].shape))(
            lib.nn.LSTM(28, 32, num_layers=2, bidirectional=True)(lib.zeros(35, 4, 28))),
        "(tinygrad_edu.Size([35, 4, 64]), tinygrad_edu.Size([4, 4, 32]), tinygrad_edu.Size([4, 4, 32]))"),
    "unbatched shapes": (
        lambda lib: [t.shape for t in lib.nn.GRU(3, 4, 2, batch_first=True)(lib.zeros(5, 3))],
        "[tinygrad_edu.Size([5, 4]), tinygrad_edu.Size([2, 4])]"),
    "projected state shapes": (
        lambda lib: (lambda out: (out[0].shape, out[1][0].shape, out[1][1].shape))(
            lib.nn.LSTM(3, 4, proj_size=2).double()(lib.zeros(5, 2, 3, dtype=lib.float64))),
        "(tinygrad_edu.Size([5, 2, 2]), tinygrad_edu.Size([1, 2, 2]), tinygrad_edu.Size([1, 2, 4]))"),
    "no_grad: nothing recorded": (
        lambda lib: (lambda m: [t.requires_grad for t in lib.no_grad()(m)(lib.zeros(5, 2, 3))[1]])(
            lib.nn.LSTM(3, 4)),
        "[False, False]"),
    "eval: no dropout": (
        lambda lib: (lambda m, x: bool((m(x)[0] == m(x)[0]).all()))(lib.nn.GRU(3, 4, 3, dropout=0.9).eval(),
                                                                      lib.ones(5, 2, 3)),
        "True"),
}


@pytest.mark.parametrize("name", MODULES)
def test_modules_as_pytorchs(name: str) -> None:
    fn, expected = MODULES[name]
    as_pytorch(fn, ok(expected))


# -- misuse: PyTorch's errors and warnings -----------------------------------------------------------------------------
def _call(cls: str, x: tuple, *hx: tuple, dtype: str = "float32", **kwargs: Any) -> Any:
    """A case calling ``cls(3, 3, **kwargs)`` on zeros of shape x, with states of the shapes hx (a pair for LSTM)."""
    def case(lib: ModuleType) -> Any:
        states = [lib.zeros(*s) for s in hx]
        state = None if not states else tuple(states) if len(states) > 1 else states[0]
        return getattr(lib.nn, cls)(3, 3, **kwargs)(lib.zeros(*x, dtype=getattr(lib, dtype)), state)
    return case


ERRORS = {
    "input of rank 4": (_call("RNN", (5, 1, 2, 3)), ValueError, "RNN: Expected input to be 2D or 3D, got 4D tensor "
                        "instead"),
    "LSTM input of rank 1": (_call("LSTM", (3,)), ValueError, "LSTM: Expected input to be 2D or 3D, got 1D instead"),
    "GRU input of rank 4": (_call("GRU", (5, 1, 2, 3)), ValueError, "GRU: Expected input to be 2D or 3D, got 4D "
                            "instead"),
    "input size": (_call("LSTM", (5, 1, 4)), RuntimeError, "input.size(-1) must be equal to input_size. Expected 3, "
                   "got 4"),
    "hidden size": (_call("RNN", (5, 1, 3), (1, 2, 3)), RuntimeError, "Expected hidden size (1, 1, 3), got "
                    "[1, 2, 3]"),
    "hidden size, 2 layers": (_call("GRU", (5, 2, 3), (1, 2, 3), num_layers=2), RuntimeError,
                              "Expected hidden size (2, 2, 3), got [1, 2, 3]"),
    "LSTM h_0 size": (_call("LSTM", (5, 2, 3), (1, 1, 3), (1, 2, 3)), RuntimeError,
                      "Expected hidden[0] size (1, 2, 3), got [1, 1, 3]"),
    "LSTM c_0 size": (_call("LSTM", (5, 2, 3), (1, 2, 3), (1, 2, 4)), RuntimeError,
                      "Expected hidden[1] size (1, 2, 3), got [1, 2, 4]"),
    "LSTM given one tensor": (_call("LSTM", (5, 2, 3), (2, 2, 3)), RuntimeError,
                              "For batched 3-D input, hx and cx should also be 3-D but got (2-D, 2-D) tensors"),
    "LSTM given one tensor of one layer": (_call("LSTM", (5, 2, 3), (1, 2, 3)), IndexError,
                                           "index 1 is out of bounds for dimension 0 with size 1"),
    "unbatched input, batched state": (_call("RNN", (5, 3), (1, 1, 3)), RuntimeError,
                                       "For unbatched 2-D input, hx should also be 2-D but got 3-D tensor"),
    "batched input, unbatched state": (_call("GRU", (5, 1, 3), (1, 3)), RuntimeError,
                                       "For batched 3-D input, hx should also be 3-D but got 2-D tensor"),
    "LSTM unbatched input, batched state": (_call("LSTM", (5, 3), (1, 1, 3), (1, 3)), RuntimeError,
                                            "For unbatched 2-D input, hx and cx should also be 2-D but got (3-D, 2-D) "
                                            "tensors"),
    "dtype": (_call("LSTM", (5, 1, 3), dtype="float64"), ValueError,
              "RNN input dtype (tinygrad_edu.float64) does not match weight dtype (tinygrad_edu.float32). Convert "
              "input: input.to(tinygrad_edu.float32), or convert model: model.to(tinygrad_edu.float64)"),
    "nonlinearity": (lambda lib: lib.nn.RNN(3, 4, nonlinearity="sigmoid"), ValueError,
                     "Unknown nonlinearity 'sigmoid'. Select from 'tanh' or 'relu'."),
    "proj_size of a GRU": (lambda lib: lib.nn.GRU(3, 4, proj_size=2), ValueError,
                           "proj_size argument is only supported for LSTM, not RNN or GRU"),
    "proj_size too big": (lambda lib: lib.nn.LSTM(3, 4, proj_size=4), ValueError,
                          "proj_size has to be smaller than hidden_size"),
    "dropout 2": (lambda lib: lib.nn.LSTM(3, 4, dropout=2), ValueError, "dropout should be a number in range [0, 1] "
                  "representing the probability of an element being zeroed"),
    "input_size a float": (lambda lib: lib.nn.RNN(3.0, 4), TypeError, "input_size should be of type int, got: float"),
    "bias an int": (lambda lib: lib.nn.RNN(3, 4, bias=1), TypeError, "bias should be of type bool, got: int"),
    "no layers": (lambda lib: lib.nn.GRU(3, 4, num_layers=0), ValueError, "num_layers must be greater than zero"),
    "cell input rank": (lambda lib: lib.nn.GRUCell(3, 4)(lib.zeros(2, 2, 3)), ValueError,
                        "GRUCell: Expected input to be 1D or 2D, got 3D instead"),
    "cell input size": (lambda lib: lib.nn.LSTMCell(3, 4)(lib.zeros(2, 4)), RuntimeError,
                        "input has inconsistent input_size: got 4 expected 3"),
    "cell batch": (lambda lib: lib.nn.RNNCell(3, 4)(lib.zeros(2, 3), lib.zeros(1, 4)), RuntimeError,
                   "Input batch size 2 doesn't match hidden0 batch size 1"),
    "cell c size": (lambda lib: lib.nn.LSTMCell(3, 4)(lib.zeros(2, 3), (lib.zeros(2, 4), lib.zeros(2, 5))),
                    RuntimeError, "hidden1 has inconsistent hidden_size: got 5, expected 4"),
    "cell nonlinearity": (lambda lib: lib.nn.RNNCell(3, 4, nonlinearity="x")(lib.zeros(2, 5)), RuntimeError,
                          "Unknown nonlinearity: x"),
    "cell hx rank": (lambda lib: lib.nn.LSTMCell(3, 4)(lib.zeros(3), (lib.zeros(4), lib.zeros(1, 1, 4))), ValueError,
                     "LSTMCell: Expected hx[1] to be 1D or 2D, got 3D instead"),
}


@pytest.mark.parametrize("name", ERRORS)
def test_misuse_is_refused_in_pytorchs_words(name: str) -> None:
    fn, exc, message = ERRORS[name]
    raises(fn, exc, message)


def test_dropout_with_one_layer_warns() -> None:
    as_pytorch(lambda lib: lib.nn.LSTM(3, 3, dropout=0.5), (None, "LSTM(3, 3, dropout=0.5)", [
        "UserWarning: dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
        "num_layers greater than 1, but got dropout=0.5 and num_layers=1"]))


# -- speed ------------------------------------------------------------------------------------------------------------
def test_the_tutorials_tagger_trains_in_seconds() -> None:
    """The sequence-models tutorial's 300 epochs (2 sentences, Embedding -> LSTM(6, 6) -> Linear): about a second."""
    tg.manual_seed(1)
    embed, lstm, linear = tg.nn.Embedding(9, 6), tg.nn.LSTM(6, 6), tg.nn.Linear(6, 3)
    params = [*embed.parameters(), *lstm.parameters(), *linear.parameters()]
    optimizer = tg.optim.SGD(params, lr=0.1)
    data = [(tg.tensor([0, 1, 2, 3, 4]), tg.tensor([0, 1, 2, 0, 1])),
            (tg.tensor([5, 6, 7, 8]), tg.tensor([1, 2, 0, 1]))]
    start = time.perf_counter()
    for _ in range(300):
        for words, tags in data:
            optimizer.zero_grad()
            out, _ = lstm(embed(words).view(len(words), 1, -1))
            loss = tg.nn.functional.nll_loss(tg.log_softmax(linear(out.view(len(words), -1)), 1), tags)
            loss.backward()
            optimizer.step()
    assert time.perf_counter() - start < 10
    assert loss.item() < 0.1
