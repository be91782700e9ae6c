"""Float sums add their numbers in PyTorch's order, so their last bit is PyTorch's (``_arrays.ordered_sum``).

Floating-point addition is not associative: numpy sums along the fastest axis pairwise (blocks of 8), PyTorch's CPU
kernel in a cascade of blocks of 16, rows as four interleaved runs, contiguous numbers as 8-lane vectors. The
first tests build numbers whose sum shows the order, worked out by hand from the order the module describes; the
parity tests compare with torch bit for bit (random numbers, many shapes), forward and backward. Where PyTorch's
order depends on its thread count (one sum of 32,768 numbers or more) or the array is not row-major, numpy's sum
stays, and the tests say so.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import tinygrad_edu as tg
from tinygrad_edu import _arrays
from tinygrad_edu.core.grad_mode import Speed

BIG = 1e8  # a float32 whose neighbours are 8 apart: adding 1, 2 or 4 to it changes nothing


# -- the order, by hand -------------------------------------------------------------------------------------------
def test_a_row_of_five_is_four_interleaved_runs_with_the_leftover_added_to_the_first() -> None:
    """Five numbers: runs a0, a1, a2, a3; the leftover a4 goes into the first run; then the runs in order:
    (((a0 + a4) + a1) + a2) + a3. With a0 = a4 = 1 and a1, a2 = BIG, -BIG: 2 is lost against BIG, then 1 is
    added to 0, so 1; one number after another (numpy) gives 1 + BIG (lost) - BIG + 1 + 1 = 2."""
    row = np.array([1, BIG, -BIG, 1, 1], np.float32)
    assert tg.tensor(row).sum().item() == 1.0
    assert tg.tensor(np.stack([row, row])).sum(1).tolist() == [1.0, 1.0]
    assert np.add.reduce(row) == 2.0  # numpy's order, for contrast


def test_eight_contiguous_numbers_or_more_are_summed_lane_by_lane_leftovers_first() -> None:
    """Nine float32s: one 8-lane vector (lanes a0 ... a7) and a leftover a8. The leftover is added to 0 first, then
    the lanes in order: ((a8 + a0) + a1) + ... With a0 = BIG, a8 = -BIG and seven 1s: 0 + 7 = 7. numpy adds 8
    numbers pairwise, loses the 1s against BIG, and gives 0."""
    row = np.array([BIG, 1, 1, 1, 1, 1, 1, 1, -BIG], np.float32)
    assert tg.tensor(row).sum().item() == 7.0
    assert np.add.reduce(row) == 0.0


def test_a_column_of_thirty_two_is_two_blocks_of_sixteen() -> None:
    """Down a column the cascade sums blocks of 16 one number after another, then the blocks' sums. Blocks
    (BIG, fifteen 1s) and (-BIG, fifteen 1s) each lose their 1s: BIG - BIG = 0. One number after another, the
    first block's 1s are lost but the second's are not: 15."""
    column = np.array([BIG] + [1] * 15 + [-BIG] + [1] * 15, np.float32)
    table = np.repeat(column[:, None], 4, axis=1)  # four columns: each one a plain cascade
    assert tg.tensor(table).sum(0).tolist() == [0.0] * 4
    assert np.add.reduce(table, 0).tolist() == [15.0] * 4


def test_the_mean_is_the_sum_divided() -> None:
    row = np.array([1, BIG, -BIG, 1, 1], np.float32)
    assert tg.tensor(row).mean().item() == np.float32(1) / np.float32(5)
    assert tg.tensor(np.stack([row, row])).mean(1).tolist() == [np.float32(1) / np.float32(5)] * 2


def test_four_numbers_or_fewer_to_a_sum_are_numpys_sum() -> None:
    """Up to four numbers both orders are one after another (the core does not leave numpy for them)."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((50, 4)).astype(np.float32)
    assert np.array_equal(tg.tensor(a).sum(1).numpy(), np.add.reduce(a, 1))
    assert np.array_equal(tg.tensor(a[:4]).sum(0).numpy(), np.add.reduce(a[:4], 0))


def test_where_the_order_depends_on_threads_or_layout_numpys_sum_stays() -> None:
    rng = np.random.default_rng(1)
    big = rng.standard_normal(_arrays.GRAIN).astype(np.float32)
    assert tg.tensor(big).sum().item() == np.add.reduce(big)  # one sum split between PyTorch's threads
    a = rng.standard_normal((7, 9)).astype(np.float32)
    t = tg.tensor(a).t()  # not row-major
    assert np.array_equal(t.sum(1).numpy(), a.T.sum(1))


def test_integers_bools_and_float16_keep_their_sums() -> None:
    assert tg.arange(10).sum().item() == 45 and tg.arange(10).sum().dtype == tg.int64
    assert tg.ones(7, dtype=tg.bool).sum().item() == 7
    h = tg.tensor([0.1] * 9, dtype=tg.float16)
    assert h.sum().dtype == tg.float16 and h.sum().item() == float(np.add.reduce(np.full(9, 0.1, np.float16)))


def test_empty_and_overflowing_sums_are_quiet_as_pytorchs() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert str(tg.tensor([]).mean()) == "tensor(nan)"
        assert str(tg.zeros(2, 0).mean(1)) == "tensor([nan, nan])"
        assert str(tg.full((3,), 3e38).sum()) == "tensor(inf)"
        assert str(tg.full((3, 5), 3e38).sum(1)) == "tensor([inf, inf, inf])"


def test_empty_sums_keep_their_shapes() -> None:
    assert [str(t) for t in (tg.zeros(0, 10).sum(1), tg.zeros(10, 0).sum(0), tg.zeros(0, 10).mean(1),
                             tg.zeros(3, 0, 7).sum((0, 2)), tg.zeros(5, 0).sum(1), tg.zeros(10, 0).sum())] == [
        "tensor([])", "tensor([])", "tensor([])", "tensor([])", "tensor([0., 0., 0., 0., 0.])", "tensor(0.)"]


def test_a_meta_tensors_sum_stays_meta() -> None:
    x = tg.empty(6, 7, device="meta")
    assert x.sum(1).device.type == "meta" and x.sum().is_meta and x.mean(0).shape == (7,)


def test_the_speed_switch_does_not_change_a_broadcast_gradient() -> None:
    """A bias's gradient is the batch's gradients summed (sum_to_shape); with the speed tricks on it is summed as an
    array, off through SumBackward1: the same bits either way."""
    rng = np.random.default_rng(2)
    x, c = (rng.standard_normal((64, 10)).astype(np.float32) for _ in range(2))
    grads = []
    for tricks in (True, False):
        Speed.tricks = tricks
        try:
            b = tg.zeros(10, requires_grad=True)
            ((tg.tensor(x) + b) * tg.tensor(c)).sum().backward()
            grads.append(b.grad.numpy())
        finally:
            Speed.tricks = True
    assert np.array_equal(grads[0], grads[1])
    assert np.array_equal(grads[0], _arrays.ordered_sum(c, (0,)))


# -- parity with PyTorch, bit for bit --------------------------------------------------------------------------------
CASES = [((2, 5), (1,)), ((2, 5), (0,)), ((50, 5), (0,)), ((200, 7), (0,)), ((20, 64), (0,)), ((20, 300), (0,)),
         ((300, 3), (0,)), ((1000, 10), (0,)), ((4, 10, 6), (1,)), ((4, 10, 6), (0, 1)), ((4, 10, 6), (0, 2)),
         ((64, 128), (0,)), ((64, 128), (1,)), ((3, 4, 5, 6), (0, 2)), ((3, 4, 5, 6), (1, 3)),
         ((3, 4, 5, 6), (0, 2, 3)),
         ((8, 3, 7, 7), (0, 2, 3)), ((2000,), None), ((5,), None), ((33,), None), ((100,), None), ((2, 1, 9), (2,)),
         ((2, 1, 9), (0, 2)), ((9, 1, 2), (0, 1)), ((5, 40), (1,)), ((5, 17), (1,)), ((5, 31), (1,)), ((5, 1000), (1,)),
         ((17, 33), (0,)), ((300, 33), (0,)), ((40, 40, 5), (0, 1)), ((10, 3, 3), None), ((128, 784), (0,)),
         ((128, 784), (1,)), ((3, 4, 9, 6), (0, 2)), ((3, 4, 5, 16), (0, 2)), ((30000,), None), ((20000, 4), (0,))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("shape", "dim"), CASES, ids=[f"{s}-{d}" for s, d in CASES])
def test_sums_and_means_are_pytorchs_bit_for_bit(shape: tuple, dim: tuple | None, dtype: str) -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(sum(shape) + len(dim or ()))
    for _ in range(3):
        a = (rng.standard_normal(shape) * rng.uniform(0.1, 100) + rng.uniform(-3, 3)).astype(dtype)
        ours, theirs = tg.from_numpy(a), torch.from_numpy(a)
        for keepdim in (False, True):
            if dim is None:
                pairs = [(ours.sum(), theirs.sum()), (ours.mean(), theirs.mean())]
            else:
                pairs = [(ours.sum(dim, keepdim=keepdim), theirs.sum(dim, keepdim=keepdim)),
                         (ours.mean(dim, keepdim=keepdim), theirs.mean(dim, keepdim=keepdim))]
            for got, want in pairs:
                assert got.shape == tuple(want.shape)
                assert np.array_equal(got.numpy(), want.numpy()), (shape, dim, keepdim)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
@pytest.mark.parametrize("create_graph", [False, True])
def test_broadcast_gradients_are_pytorchs_bit_for_bit(create_graph: bool) -> None:
    """A Linear layer's bias gradient (the batch's gradients summed), and a gradient broadcast over two dims."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    for n, m in ((64, 128), (64, 10), (37, 6), (5, 3)):
        x, w = rng.standard_normal((n, 8)).astype(np.float32), rng.standard_normal((m, 8)).astype(np.float32)
        b, c = rng.standard_normal(m).astype(np.float32), rng.standard_normal((n, m)).astype(np.float32)
        got = []
        for lib in (tg, torch):
            bias = lib.tensor(b, requires_grad=True)
            out = lib.nn.functional.linear(lib.tensor(x), lib.tensor(w), bias)
            (out * lib.tensor(c)).sum().backward(create_graph=create_graph)
            got.append(bias.grad.detach().numpy())
        assert np.array_equal(*got), (n, m)
    s, c = rng.standard_normal((1, 6, 1)).astype(np.float32), rng.standard_normal((7, 6, 9)).astype(np.float32)
    got = []
    for lib in (tg, torch):
        scale = lib.tensor(s, requires_grad=True)
        (scale * lib.tensor(c)).sum().backward(create_graph=create_graph)
        got.append(scale.grad.detach().numpy())
    assert np.array_equal(*got)


def test_a_float32_lstm_gives_both_biases_one_gradient_as_onednn_does() -> None:
    """PyTorch runs a float32 LSTM layer in oneDNN, which adds b_ih and b_hh into one bias: their gradients are the
    same tensor's. oneDNN's own loops sum over the steps, so inside that node the sums are not PyTorch's cascade."""
    def grads(lib: Any) -> tuple:
        lib.manual_seed(0)
        lstm = lib.nn.LSTM(6, 6)
        out, _ = lstm(lib.randn(5, 1, 6))
        (out * lib.randn(5, 1, 6)).sum().backward()
        return lstm.bias_ih_l0.grad.numpy(), lstm.bias_hh_l0.grad.numpy()

    assert np.array_equal(*grads(tg))
    assert _arrays.IN_PYTORCH_ORDER[0]  # (back on after backward)
    try:
        import torch
    except ImportError:
        return
    assert np.array_equal(*grads(torch))
    np.testing.assert_allclose(grads(tg)[0], grads(torch)[0], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("loss", ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"])
def test_a_losss_mean_is_pytorchs_bit_for_bit(loss: str) -> None:
    """The element-wise losses are exact in float32, and their mean sums in PyTorch's order: ``loss.item()`` prints
    PyTorch's 17 digits."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    for _ in range(30):
        n = int(rng.integers(5, 300))
        a, b = (rng.uniform(0.05, 0.95, n).astype(np.float32) for _ in range(2))
        ours = getattr(tg.nn.functional, loss)(tg.tensor(a), tg.tensor(b)).item()
        assert ours == getattr(torch.nn.functional, loss)(torch.tensor(a), torch.tensor(b)).item(), n


# -- the sums inside PyTorch's softmax, log_softmax and nll_loss kernels ------------------------------------------
def test_a_row_of_softmax_adds_as_vectors_then_lanes_in_halves() -> None:
    """Along the last dim, PyTorch's kernel adds a row's exps one vector after another, then the lanes in halves
    (lane i plus lane i + half). Nine equal-sized lanes of 1s with BIG in the last lane show it: with 16 lanes (a
    64-byte vector) lanes 0-7 pair with 8-15, so BIG meets 1 and loses it; one number after another keeps more."""
    from tinygrad_edu._arrays import VECTOR_BYTES, vector_row_sums

    lanes = VECTOR_BYTES // 4
    row = np.ones((1, lanes), np.float32)
    row[0, -1] = BIG
    halves = row[0]
    while halves.size > 1:
        halves = halves[: halves.size // 2] + halves[halves.size // 2:]
    assert vector_row_sums(row)[0] == halves[0]
    short = np.array([[1, BIG, -BIG, 1]], np.float32)  # shorter than a vector: one after another
    assert vector_row_sums(short)[0] == 1.0


def test_nll_loss_adds_the_first_sample_last() -> None:
    """PyTorch's nll_loss puts the first sample's term at the top of its running sums: (x1 + x2 + ...) + x0."""
    picked = np.array([[BIG], [1.0], [-BIG], [1.0]], np.float32)  # one class: each row's log-probability
    loss = tg.nn.functional.nll_loss(tg.tensor(-picked), tg.zeros(4, dtype=tg.long), reduction="sum")
    assert loss.item() == ((np.float32(1) + np.float32(-BIG)) + np.float32(1)) + np.float32(BIG)


def test_nll_loss_adds_the_other_terms_in_blocks_of_16() -> None:
    """The terms after the first go through PyTorch's cascade: blocks of 16 in order, the leftover, then the blocks'
    sums. BIG then 15 zeros fill the first block, 16 ones the second (16, exactly), -BIG is left over: (-BIG + (BIG +
    16)) + 1 = 17, where one number after another loses every 1 to BIG (1) and numpy's pairwise sum gives 12."""
    big = np.float32(2**25)  # (its neighbours are 4 apart: BIG + 1 is BIG, BIG + 16 is exact)
    terms = np.array([1.0, big] + [0.0] * 15 + [1.0] * 16 + [-big], np.float32)
    loss = tg.nn.functional.nll_loss(tg.tensor(-terms[:, None]), tg.zeros(34, dtype=tg.long), reduction="sum")
    assert loss.item() == 17.0


def test_cross_entropy_log_softmax_and_softmax_are_pytorchs() -> None:
    """``loss.item()`` of a cross-entropy is PyTorch's in nearly every case (its exp is within PyTorch's own exp's
    error, not always its bits): 296 of 300 random batches when measured; here at least 95%."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    same, rows, total_rows = 0, 0, 0
    for _ in range(100):
        b, c = int(rng.integers(2, 200)), int(rng.integers(2, 20))
        x, y = (rng.standard_normal((b, c)) * 2).astype(np.float32), rng.integers(0, c, b)
        same += tg.nn.functional.cross_entropy(tg.tensor(x), tg.tensor(y)).item() == \
            torch.nn.functional.cross_entropy(torch.tensor(x), torch.tensor(y)).item()
        ours, theirs = tg.log_softmax(tg.tensor(x), 1).numpy(), torch.log_softmax(torch.tensor(x), 1).numpy()
        rows, total_rows = rows + int((ours == theirs).all(1).sum()), total_rows + b
    assert same >= 95 and rows >= 0.9 * total_rows, (same, rows, total_rows)


def test_a_cross_entropys_gradient_rounds_its_exp_once_as_pytorchs() -> None:
    """log_softmax's gradient, ``g - e^l * sum(g)``, with e^l rounded once from float64 as the forward's: for the
    logits below PyTorch's gradient is [-0.8758240938186646, 0.46743208169937134, 0.4083920419216156], where numpy's
    float32 exp gives 0.408392071723938 for the last. On random batches of a cross-entropy, at least 85% of the
    gradient's values are PyTorch's (90% measured; 63% with numpy's float32 exp)."""
    x = tg.tensor([[0.0341927669942379, 1.3597475290298462, 1.224721074104309]], requires_grad=True)
    tg.nn.functional.cross_entropy(x, tg.tensor([0])).backward()
    assert x.grad.tolist() == [[-0.8758240938186646, 0.46743208169937134, 0.4083920419216156]]
    torch = pytest.importorskip("torch")
    rng, same, total = np.random.default_rng(12), 0, 0
    for _ in range(50):
        logits, y = (rng.standard_normal((64, 10)) * 3).astype(np.float32), rng.integers(0, 10, 64)
        ours, theirs = tg.tensor(logits, requires_grad=True), torch.tensor(logits, requires_grad=True)
        tg.nn.functional.cross_entropy(ours, tg.tensor(y)).backward()
        torch.nn.functional.cross_entropy(theirs, torch.tensor(y)).backward()
        same, total = same + int((ours.grad.numpy() == theirs.grad.numpy()).sum()), total + logits.size
    assert same >= 0.85 * total, same / total


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_short_rows_of_log_softmax_are_the_same_with_the_speed_tricks_off(dtype: type) -> None:
    """speed: rows shorter than a vector (a batch of logits) are computed as columns: the same numbers and layout."""
    rng = np.random.default_rng(13)
    for shape in ((64, 10), (3, 1), (5, 2), (7, 40), (2, 3, 4)):
        x = tg.tensor((rng.standard_normal(shape) * 3).astype(dtype))
        fast = tg.log_softmax(x, -1)
        Speed.tricks = False
        try:
            plain = tg.log_softmax(x, -1)
        finally:
            Speed.tricks = True
        assert fast.numpy().tobytes() == plain.numpy().tobytes() and fast.is_contiguous(), shape


def test_the_vector_width_follows_pytorchs_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from tinygrad_edu._arrays import _vector_bytes

    for chosen, width in (("avx2", 32), ("AVX512", 64), ("default", 32)):
        monkeypatch.setenv("ATEN_CPU_CAPABILITY", chosen)
        assert _vector_bytes() == width
    monkeypatch.delenv("ATEN_CPU_CAPABILITY")
    assert _vector_bytes() in (32, 64)  # (from the CPU's flags)


def test_softplus_rounds_its_exp_then_its_log1p_as_pytorchs_kernel() -> None:
    """PyTorch's float32 softplus is log1p of an exp already rounded to float32; computed so, 93% of random values
    are PyTorch's to the last bit (numpy's float32 routines: 69%)."""
    assert str(tg.nn.functional.softplus(tg.tensor([100.0, -100.0, 0.0]))) == \
        "tensor([1.0000e+02, 3.7835e-44, 6.9315e-01])"
    torch = pytest.importorskip("torch")
    x = (np.random.default_rng(6).standard_normal(20000) * 4).astype(np.float32)
    for beta in (1.0, 2.0):
        ours = tg.nn.functional.softplus(tg.tensor(x), beta=beta).numpy()
        assert (ours == torch.nn.functional.softplus(torch.tensor(x), beta=beta).numpy()).mean() > 0.9


def test_sigmoid_and_silu_divide_by_one_plus_an_exp_rounded_once() -> None:
    """PyTorch's float32 sigmoid and silu are 1 / (1 + e) and x / (1 + e), e = exp(-x) within its own exp's error:
    with e rounded once from float64, 96% of random values are PyTorch's to the last bit (numpy's float32 exp: 83%).
    At x = -1.9955840110778809, PyTorch's sigmoid is 0.11966734379529953 and numpy's float32 exp would give
    0.11966735869646072."""
    x = tg.tensor([-1.9955840110778809, 1.0661181211471558])
    assert x.sigmoid().tolist() == [0.11966734379529953, 0.7438579797744751]
    assert tg.nn.functional.silu(tg.tensor([-1.8698233366012573])).item() == -0.24973765015602112
    torch = pytest.importorskip("torch")
    x = (np.random.default_rng(8).standard_normal(20000) * 3).astype(np.float32)
    for name in ("sigmoid", "silu"):
        ours = getattr(tg.nn.functional, name)(tg.tensor(x)).numpy()
        assert (ours == getattr(torch.nn.functional, name)(torch.tensor(x)).numpy()).mean() > 0.94, name


@pytest.mark.parametrize(("name", "least"), [("logsigmoid", 0.93), ("elu", 0.99), ("selu", 0.99), ("celu", 0.99),
                                             ("mish", 0.93)])
def test_activations_round_their_exp_log1p_and_tanh_as_pytorchs_kernels(name: str, least: float) -> None:
    """exp, log1p, expm1 and tanh inside these kernels rounded once from float64 (mish as PyTorch's, tanh of log1p of
    exp): logsigmoid 95% of values PyTorch's (numpy's float32 routines: 73%), elu, selu, celu 99.96% (89-91%), mish
    95% (63%)."""
    torch = pytest.importorskip("torch")
    x = (np.random.default_rng(9).standard_normal(20000) * 3).astype(np.float32)
    ours = getattr(tg.nn.functional, name)(tg.tensor(x)).numpy()
    assert (ours == getattr(torch.nn.functional, name)(torch.tensor(x)).numpy()).mean() >= least


def test_binary_cross_entropies_are_pytorchs_in_its_order() -> None:
    """binary_cross_entropy is (y - 1) max(log1p(-p), -100) - y max(log p, -100), with logits (1 - y) x - log s(x),
    the logs rounded once: 96% of the elements PyTorch's (numpy's order and routines: 83% and 64%)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(10)
    x, y = (rng.standard_normal(20000) * 3).astype(np.float32), (rng.uniform(0, 1, 20000) > 0.5).astype(np.float32)
    p, pos = (1 / (1 + np.exp(-x))).astype(np.float32), rng.uniform(0.5, 2, 20000).astype(np.float32)
    cases = [("binary_cross_entropy", (p, y), {}), ("binary_cross_entropy_with_logits", (x, y), {}),
             ("binary_cross_entropy_with_logits", (x, y), {"pos_weight": pos})]
    for name, arrays, extra in cases:
        ours = getattr(tg.nn.functional, name)(*map(tg.tensor, arrays), reduction="none",
                                               **{k: tg.tensor(v) for k, v in extra.items()}).numpy()
        theirs = getattr(torch.nn.functional, name)(*map(torch.tensor, arrays), reduction="none",
                                                    **{k: torch.tensor(v) for k, v in extra.items()}).numpy()
        assert (ours == theirs).mean() > 0.94, (name, extra.keys())
