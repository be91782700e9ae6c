"""``F.embedding_bag`` and ``nn.EmbeddingBag`` (bags of embeddings summed, averaged or maxed in one node), and the
3-d power-average pool ``F.lp_pool3d`` / ``nn.LPPool3d``.

As in ``test_nn_layers_extra``: printed cases run with tinygrad_edu and, when torch is installed, with torch
(``_oracle.as_pytorch``), the expected outcome spelled out next to each; values and gradients checked by finite
differences (float64) and against torch's when it is there (float64 to 1e-12, float32 to 1e-6).

Two places where PyTorch 2.13's CPU kernel is known to be wrong are checked against hand-computed numbers instead:
``scale_grad_by_freq`` divides some rows by another index's count (pytorch/pytorch#190063), and with
``include_last_offset`` the entries after the last offset land in the last bag in some modes and not in others.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, err, ok, oracle, outcome
from test_nn_layers_more import _inputs, check_against_pytorch, check_gradients, check_initial_weights

import tinygrad_edu as tg


def _f(lib: ModuleType) -> Any:
    return lib.nn.functional


def _table(lib: ModuleType, dtype: str = "float32", grad: bool = True) -> Any:
    """A (6, 2) table whose row r is (r, 10 - r): sums and maxima readable at a glance."""
    r = lib.arange(6, dtype=getattr(lib, dtype))
    return lib.stack([r, 10 - r], 1).requires_grad_(grad)


def _ids(lib: ModuleType, *values: int) -> Any:
    return lib.tensor(list(values))


def _bag(lib: ModuleType, *args: Any, **kwargs: Any) -> Any:
    """embedding_bag of the bags [1, 2, 4] [] [4, 3] [2, 2, 5] of the small table."""
    return _f(lib).embedding_bag(_ids(lib, 1, 2, 4, 4, 3, 2, 2, 5), _table(lib), _ids(lib, 0, 3, 3, 5), *args,
                                 **kwargs)


# -- what it prints --------------------------------------------------------------------------------------------------
SHOWN = {
    "reprs": (lambda lib: (lib.nn.EmbeddingBag(10, 3), lib.nn.EmbeddingBag(10, 3, 1.0, 3, True, "max", padding_idx=-2),
                           lib.nn.EmbeddingBag(4, 2, mode="sum", include_last_offset=True), lib.nn.LPPool3d(2, 3),
                           lib.nn.LPPool3d(1.5, (1, 2, 2), 1, True)),
        ok("(EmbeddingBag(10, 3, mode='mean'), EmbeddingBag(10, 3, max_norm=1.0, norm_type=3, scale_grad_by_freq=True, "
           "mode='max', padding_idx=8), EmbeddingBag(4, 2, mode='sum'), LPPool3d(norm_type=2, kernel_size=3, "
           "stride=None, ceil_mode=False), LPPool3d(norm_type=1.5, kernel_size=(1, 2, 2), stride=1, ceil_mode=True))")),
    "the three modes, an empty bag": (lambda lib: [_bag(lib, mode=m) for m in ("sum", "mean", "max")],
        ok("[tensor([[ 7., 23.],\n"
           "        [ 0.,  0.],\n"
           "        [ 7., 13.],\n"
           "        [ 9., 21.]], grad_fn=<EmbeddingBagBackward0>), tensor([[2.3333, 7.6667],\n"
           "        [0.0000, 0.0000],\n"
           "        [3.5000, 6.5000],\n"
           "        [3.0000, 7.0000]], grad_fn=<EmbeddingBagBackward0>), tensor([[4., 9.],\n"
           "        [0., 0.],\n"
           "        [4., 7.],\n"
           "        [5., 8.]], grad_fn=<EmbeddingBagBackward0>)]")),
    "padding_idx is left out of the bag, and of the mean": (lambda lib: _bag(lib, mode="mean", padding_idx=2),
        ok("tensor([[2.5000, 7.5000],\n"
           "        [0.0000, 0.0000],\n"
           "        [3.5000, 6.5000],\n"
           "        [5.0000, 5.0000]], grad_fn=<EmbeddingBagBackward0>)")),
    "fixed-size bags, per_sample_weights, include_last_offset": (
        lambda lib: (_f(lib).embedding_bag(lib.tensor([[0, 5], [1, 1]]), _table(lib, grad=False), mode="max"),
                     _f(lib).embedding_bag(_ids(lib, 1, 2, 3), _table(lib), _ids(lib, 0, 1, 3), mode="sum",
                                           per_sample_weights=lib.tensor([2.0, 0.5, -1.0])),
                     lib.nn.EmbeddingBag.from_pretrained(_table(lib), include_last_offset=True)(
                         _ids(lib, 1, 2, 3), _ids(lib, 0, 1, 3))),
        ok("(tensor([[ 5., 10.],\n"
           "        [ 1.,  9.]]), tensor([[ 2., 18.],\n"
           "        [-2., -3.],\n"
           "        [ 0.,  0.]], grad_fn=<EmbeddingBagBackward0>), tensor([[1.0000, 9.0000],\n"
           "        [2.5000, 7.5000]]))")),
    "the node and what it keeps": (
        lambda lib: [(lambda n: (n.name(), n._saved_mode, n._saved_padding_idx, n._saved_result1, n._saved_result2,
                                 n._saved_result3, n._saved_offsets, [m is None for m, _ in n.next_functions]))(
            _bag(lib, mode=m, padding_idx=p).grad_fn) for m, p in (("mean", None), ("max", 2), ("sum", None))],
        ok("[('EmbeddingBagBackward0', 1, 18446744073709551615, tensor([0, 0, 0, 2, 2, 3, 3, 3]), "
           "tensor([3, 0, 2, 3]), tensor([3, 0, 2, 3]), tensor([0, 3, 3, 5]), [False, True]), "
           "('EmbeddingBagBackward0', 2, 2, tensor([0, 0, 0, 2, 2, 3, 3, 3]), tensor([2, 0, 2, 1]), tensor([[4, 1],\n"
           "        [0, 0],\n"
           "        [4, 3],\n"
           "        [5, 5]]), tensor([0, 3, 3, 5]), [False, True]), ('EmbeddingBagBackward0', 0, 18446744073709551615, "
           "tensor([], dtype=tinygrad_edu.int64), tensor([0, 0, 0, 0]), tensor([0, 0, 0, 0]), tensor([0, 3, 3, 5]), "
           "[False, True])]")),
    "lp_pool3d composes avg_pool3d; p = inf is max_pool3d": (
        lambda lib: [y.grad_fn.name() for y in (
            _f(lib).lp_pool3d(lib.ones(1, 2, 2, 2, requires_grad=True), 2, 2),
            _f(lib).lp_pool3d(lib.ones(1, 2, 2, 2, requires_grad=True), float("inf"), 2),
            _f(lib).lp_pool2d(lib.ones(1, 2, 2, requires_grad=True), -float("inf"), 2))],
        ok("['PowBackward0', 'MaxPool3DWithIndicesBackward0', 'NegBackward0']")),
}


def _twice(lib: ModuleType, which: int) -> Any:
    """Differentiate a gradient of embedding_bag (create_graph=True) once more: not implemented, as in PyTorch."""
    w = _table(lib, "float64")
    p = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
    out = _f(lib).embedding_bag(_ids(lib, 1, 2, 3), w, _ids(lib, 0, 2), mode="sum", per_sample_weights=p)
    g = lib.autograd.grad((out ** 2).sum(), (w, p)[which], create_graph=True)[0]
    return g.grad_fn.name(), g.sum().backward()


ERRORS = {
    "offsets with a 2-d input": (
        lambda lib: _f(lib).embedding_bag(lib.tensor([[1, 2]]), _table(lib), _ids(lib, 0)),
        err("ValueError", "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
            "length sequences. However, found offsets of type <class 'tinygrad_edu.Tensor'>")),
    "no offsets with a 1-d input": (lambda lib: _f(lib).embedding_bag(_ids(lib, 1, 2), _table(lib)),
        err("ValueError", "offsets has to be a 1D Tensor but got None")),
    "2-d offsets": (lambda lib: _f(lib).embedding_bag(_ids(lib, 1, 2), _table(lib), lib.tensor([[0]])),
        err("ValueError", "offsets has to be a 1D Tensor")),
    "3-d input": (lambda lib: _f(lib).embedding_bag(lib.zeros(1, 1, 1, dtype=lib.long), _table(lib)),
        err("ValueError", "input has to be 1D or 2D Tensor, but got Tensor of dimension 3")),
    "offsets[0] is not 0": (lambda lib: _bag_at(lib, 1, 2),
        err("RuntimeError", "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
            "position 0. However, got 1\n[ tinygrad_edu.LongTensor{} ]")),
    "offsets past the input": (lambda lib: _bag_at(lib, 0, 4),
        err("RuntimeError", "offsets[-1] can not be greater than input's length 3 but got offsets[-1] of 4")),
    "include_last_offset without offsets": (
        lambda lib: _f(lib).embedding_bag(_ids(lib, 1), _table(lib), lib.zeros(0, dtype=lib.long),
                                          include_last_offset=True),
        err("RuntimeError", "include_last_offset: number of offset should be at least 1")),
    "float offsets": (lambda lib: _f(lib).embedding_bag(_ids(lib, 1), _table(lib), lib.tensor([0.0])),
        err("RuntimeError", "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            "Long, Int; but got tinygrad_edu.FloatTensor instead (while checking arguments for embedding_bag)")),
    "an index out of range": (lambda lib: _f(lib).embedding_bag(_ids(lib, 1, 6), _table(lib), _ids(lib, 0)),
        err("RuntimeError", "Index 1 of input takes value 6 which is not in the valid range [0, 6)")),
    "integer table": (lambda lib: _f(lib).embedding_bag(_ids(lib, 1), lib.ones(2, 2, dtype=lib.long), _ids(lib, 0)),
        err("RuntimeError", "Expected tensor for argument #1 'weight' to have one of the following scalar types: "
            "Half, BFloat16, Float, Double; but got tinygrad_edu.LongTensor instead (while checking arguments for "
            "embedding_bag)")),
    "1-d table": (lambda lib: _f(lib).embedding_bag(_ids(lib, 1), lib.ones(2), _ids(lib, 0)),
        err("ValueError", "weight has to be a 2D Tensor, but got Tensor of dimension 1")),
    "mode": (lambda lib: _bag(lib, mode="min"), err("ValueError", "mode has to be one of sum, mean or max")),
    "max mode, scale_grad_by_freq": (lambda lib: _bag(lib, mode="max", scale_grad_by_freq=True),
        err("ValueError", "max mode does not support scaling the gradient by the frequency")),
    "per_sample_weights in mean mode": (lambda lib: _bag(lib, per_sample_weights=lib.ones(8)),
        err("NotImplementedError", "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            "supported for mode='sum' (got mode='mean'). Please open a feature request on GitHub.")),
    "per_sample_weights of another shape": (lambda lib: _bag(lib, mode="sum", per_sample_weights=lib.ones(7)),
        err("ValueError", "embedding_bag: If per_sample_weights (tinygrad_edu.Size([7])) is not None, then it must "
            "have the same shape as the input (tinygrad_edu.Size([8]))")),
    "per_sample_weights of another dtype": (
        lambda lib: _bag(lib, mode="sum", per_sample_weights=lib.ones(8, dtype=lib.float64)),
        err("RuntimeError", "Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
            "'per_sample_weights'; but type tinygrad_edu.FloatTensor does not equal tinygrad_edu.DoubleTensor (while "
            "checking arguments for embedding_bag)")),
    "padding_idx out of range": (lambda lib: _bag(lib, padding_idx=-7),
        err("RuntimeError", "padding_idx must be within the number of embeddings, -6 through 5, but got -7")),
    "EmbeddingBag: padding_idx out of range": (lambda lib: lib.nn.EmbeddingBag(6, 2, padding_idx=6),
        err("AssertionError", "padding_idx must be within num_embeddings")),
    "from_pretrained: 1-d": (lambda lib: lib.nn.EmbeddingBag.from_pretrained(lib.ones(3)),
        err("AssertionError", "Embeddings parameter is expected to be 2-dimensional")),
    "the table's gradient is not differentiable": (lambda lib: _twice(lib, 0),
        err("NotImplementedError", "the derivative for '_embedding_bag_backward' is not implemented.")),
    "nor is per_sample_weights'": (lambda lib: _twice(lib, 1),
        err("RuntimeError", "derivative for aten::_embedding_bag_per_sample_weights_backward is not implemented")),
}


def _bag_at(lib: ModuleType, *offsets: int) -> Any:
    return _f(lib).embedding_bag(_ids(lib, 1, 2, 3), _table(lib), _ids(lib, *offsets))


GROUPS = {"shown": SHOWN, "errors": ERRORS}


@pytest.mark.parametrize(("group", "name"), [(g, n) for g, cases in GROUPS.items() for n in cases])
def test_as_pytorch(group: str, name: str) -> None:
    fn, expected = GROUPS[group][name]
    as_pytorch(fn, expected)


# -- values and gradients: finite differences, and PyTorch's numbers -------------------------------------------------
# A case: a function of (lib, *inputs) and the shapes of its inputs (all requiring grad), seeded normal numbers.
IDS, OFFSETS = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3], [0, 2, 2, 7]


def _bags(mode: str, **kwargs: Any) -> Callable[..., Any]:
    def fn(lib: ModuleType, w: Any, psw: Any = None) -> Any:
        return _f(lib).embedding_bag(lib.tensor(IDS), w, lib.tensor(OFFSETS), mode=mode, per_sample_weights=psw,
                                     **kwargs)
    return fn


BAGS: dict[str, tuple[Callable[..., Any], list[tuple[int, ...]]]] = {
    "sum": (_bags("sum"), [(10, 3)]),
    "mean": (_bags("mean"), [(10, 3)]),
    "max": (_bags("max"), [(10, 3)]),
    "sum, per_sample_weights": (_bags("sum"), [(10, 3), (10,)]),
    "sum, per_sample_weights, padding_idx": (_bags("sum", padding_idx=5), [(10, 3), (10,)]),
    "mean, padding_idx": (_bags("mean", padding_idx=1), [(10, 4)]),
    "max, padding_idx (negative)": (_bags("max", padding_idx=-1), [(10, 2)]),
    "mean, include_last_offset": (
        lambda lib, w: _f(lib).embedding_bag(lib.tensor(IDS), w, lib.tensor([0, 3, 3, 10]), mode="mean",
                                             include_last_offset=True), [(10, 3)]),
    "fixed-size bags, max": (lambda lib, w: _f(lib).embedding_bag(lib.tensor([[1, 2, 2], [0, 4, 1]]), w, mode="max"),
                             [(5, 3)]),
    "fixed-size bags, sum, per_sample_weights": (
        lambda lib, w, p: _f(lib).embedding_bag(lib.tensor([[1, 2], [0, 0]]), w, mode="sum", per_sample_weights=p),
        [(4, 3), (2, 2)]),
    "scale_grad_by_freq, every index twice": (
        lambda lib, w: _f(lib).embedding_bag(lib.tensor([0, 3, 2, 3, 0, 2]), w, lib.tensor([0, 4]),
                                             scale_grad_by_freq=True), [(4, 3)]),
}

POOLS: dict[str, tuple[Callable[..., Any], list[tuple[int, ...]]]] = {
    "lp_pool3d": (lambda lib, x: _f(lib).lp_pool3d(x, 2, 2), [(1, 2, 4, 4, 4)]),
    "LPPool3d, p = 3, stride, ceil_mode, unbatched": (
        lambda lib, x: lib.nn.LPPool3d(3, (2, 1, 2), stride=1, ceil_mode=True)(x.abs() + 0.5), [(2, 3, 3, 5)]),
    "lp_pool3d, p = inf": (lambda lib, x: _f(lib).lp_pool3d(x, float("inf"), (1, 2, 2)), [(1, 2, 3, 4, 4)]),
    "lp_pool1d, p = -inf": (lambda lib, x: _f(lib).lp_pool1d(x, -float("inf"), 2), [(2, 2, 6)]),
}

CASES = {**BAGS, **POOLS}


@pytest.mark.parametrize("name", [n for n in BAGS if "scale_grad_by_freq" not in n])  # (a rescaled gradient)
def test_embedding_bag_gradients_match_finite_differences(name: str) -> None:
    """(Only once: PyTorch's gradients of embedding_bag are not differentiable, and neither are these.)"""
    fn, shapes = BAGS[name]
    inputs = tuple(_inputs(tg, shapes, "float64"))
    assert tg.autograd.gradcheck(lambda *a: fn(tg, *a), inputs)


@pytest.mark.parametrize("name", POOLS)
def test_pool_gradients_match_finite_differences(name: str) -> None:
    check_gradients(POOLS[name])


@pytest.mark.parametrize(("dtype", "rtol"), [("float64", 1e-12), ("float32", 1e-6)])
@pytest.mark.parametrize("name", CASES)
def test_values_and_gradients_are_pytorchs(name: str, dtype: str, rtol: float) -> None:
    check_against_pytorch(name, dtype, rtol, CASES)


def test_max_norm_shrinks_the_rows_read_as_pytorch_does() -> None:
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")
    tables = []
    for lib in (tg, torch):
        lib.manual_seed(3)
        layer = lib.nn.EmbeddingBag(8, 3, max_norm=1.0, mode="sum")
        out = layer(lib.tensor([[1, 2], [2, 7]]))
        tables.append((out.detach().numpy(), layer.weight.detach().numpy()))
    for a, b in zip(*tables):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_scale_grad_by_freq_divides_each_row_by_its_own_count() -> None:
    """Row r's gradient is divided by how often r was read. PyTorch 2.13's CPU kernel divides row 3 here by row
    2's count (pytorch/pytorch#190063): the numbers are checked by hand."""
    w = _table(tg, "float64")
    tg.nn.functional.embedding_bag(_ids(tg, 1, 2, 2, 3), w, _ids(tg, 0, 2), mode="sum",
                                   scale_grad_by_freq=True).sum().backward()
    assert w.grad[:, 0].tolist() == [0.0, 1.0, 1.0, 1.0, 0.0, 0.0]


def test_bags_end_at_the_last_offset() -> None:
    """With include_last_offset, entries after the last offset are in no bag (PyTorch 2.13 adds them to the last
    bag in some modes and dtypes, not in others), and get no gradient."""
    for mode in ("sum", "mean", "max"):
        w = _table(tg, "float64")
        out = tg.nn.functional.embedding_bag(_ids(tg, 1, 2, 4, 5), w, _ids(tg, 0, 1, 3), mode=mode,
                                             include_last_offset=True)
        whole = tg.nn.functional.embedding_bag(_ids(tg, 1, 2, 4), w, _ids(tg, 0, 1), mode=mode)
        assert tg.equal(out, whole)
        out.sum().backward()
        assert w.grad[5].tolist() == [0.0, 0.0]


def test_embedding_bag_is_embedding_then_a_reduction() -> None:
    """What it computes, spelled out with embedding: the rows of each bag, summed, averaged or maxed."""
    w = tg.tensor(np.random.default_rng(4).standard_normal((7, 3)))
    ids = tg.tensor([[6, 0, 2, 2], [1, 5, 3, 0]])
    rows = tg.nn.functional.embedding(ids, w)
    for mode, reduce in (("sum", rows.sum(1)), ("mean", rows.mean(1)), ("max", rows.amax(1))):
        np.testing.assert_allclose(tg.nn.functional.embedding_bag(ids, w, mode=mode).numpy(), reduce.numpy(),
                                   rtol=1e-14)


LAYERS: dict[str, Callable[[ModuleType], Any]] = {
    "EmbeddingBag": lambda lib: lib.nn.EmbeddingBag(7, 5),
    "EmbeddingBag, padding_idx, float64": lambda lib: lib.nn.EmbeddingBag(4, 3, mode="max", padding_idx=-1,
                                                                         dtype=lib.float64),
}


@pytest.mark.parametrize("name", LAYERS)
def test_initial_weights_are_pytorchs_bit_for_bit(name: str) -> None:
    check_initial_weights(LAYERS[name])


def test_decreasing_offsets_are_refused() -> None:
    """Offsets that go back (a bag that would end before it starts) get the error PyTorch usually gives. Not compared
    with PyTorch run by run: its kernel then reads past what it checked, and what it says depends on memory."""
    kind, message, _ = outcome(lambda lib: _bag_at(lib, 0, 2, 1), tg)
    assert (kind, message) == ("RuntimeError", "Expected i < index_size to be true, but got false.  (Could this error "
                               "message be improved?  If so, please report an enhancement request to PyTorch.)")
