"""``nanmedian``, ``aminmax`` and ``index_reduce`` (and scatter_reduce's product), against PyTorch 2.13.

Values, nodes and gradients print as PyTorch's do, with PyTorch's gradient semantics: a reduction that picks one
value shares g evenly among the elements equal to it (the nans, when it is nan); aminmax's two outputs each do,
and their shares add up; index_reduce's and scatter_reduce's products give each value the product of the *others*
at its place, zeros included, and refuse a second derivative when two zeros of the source meet at one place. Each
transcript runs with both libraries (skipped without torch); the finite-difference checks run without it.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg
from tinygrad_edu.autograd import gradcheck, gradgradcheck

NAN = float("nan")


def _needs_torch() -> None:
    if oracle() is None:
        pytest.skip("needs torch")


# ------------------------------------------------------------------------------------------------ nanmedian
def nanmedian(lib: ModuleType) -> list[str]:
    # (a slice of only nans: PyTorch's index is an accident of its selection beyond 3 nans, so at most 3 here)
    x = lib.tensor([[1.0, NAN, 3.0, 2.0], [NAN, NAN, 5.0, NAN], [4.0, 1.0, 2.0, 3.0]], requires_grad=True)
    whole, rows, cols = x.nanmedian(), lib.nanmedian(x, 1), lib.nanmedian(x, dim=0, keepdim=True)
    ties = lib.nanmedian(lib.tensor([1.0, 2.0, NAN, 3.0, 2.0, NAN, 2.0]), 0)
    lines = [repr(whole), repr(rows), repr(cols), repr(ties), repr(lib.nanmedian(lib.tensor([NAN] * 3), 0))]
    lines += [repr(g) for g in lib.autograd.grad((whole, cols.values), x, (lib.tensor(2.0), lib.ones(1, 4)))]
    lines += [repr(lib.nanmedian(lib.tensor([3, 1, 2]))), repr(lib.nanmedian(lib.tensor([])))]
    return lines


def aminmax(lib: ModuleType) -> list[str]:
    x = lib.tensor([[3.0, 1.0, 3.0, 1.0], [2.0, 2.0, 5.0, 0.0]], requires_grad=True)
    low, high = lib.aminmax(x)
    node = low.grad_fn
    lines = [repr(lib.aminmax(x)), repr(node.next_functions), repr(high.grad_fn is node),
             repr((node._saved_dim, node._saved_keepdim)), repr(node._saved_max)]
    lines += [repr(lib.autograd.grad(low + 2 * high, x))]
    by_row = x.aminmax(dim=-1, keepdim=True)
    lines += [repr(by_row), repr(lib.autograd.grad(by_row.max, x, lib.tensor([[1.0], [3.0]])))]
    by_col = lib.aminmax(x, dim=0)
    lines += [repr(lib.autograd.grad((by_col.min * lib.tensor([1.0, 2.0, 3.0, 4.0])).sum(), x))]
    lines += [repr(lib.aminmax(lib.tensor([True, False]))), repr(lib.aminmax(lib.tensor(3.0), dim=0))]
    return lines


def ties_and_nans(lib: ModuleType) -> list[str]:
    """PyTorch's own autograd test: every reduction that picks one value shares g among all its copies."""
    lines = []
    for f in (lib.min, lib.max, lib.median, lib.nanmedian, lib.amin, lib.amax):
        for values in ([1.0, 0.0, 1.0, 0.0, 1.0, 0.0], [NAN, NAN, NAN]):
            x = lib.tensor(values, requires_grad=True)
            f(x).backward()
            lines.append(repr(x.grad))
    return lines


@pytest.mark.parametrize("transcript", [nanmedian, aminmax, ties_and_nans])
def test_transcripts_as_pytorch(transcript: Any) -> None:
    _needs_torch()
    as_pytorch(transcript)


def test_ties_share_the_gradient_evenly() -> None:
    """What ties_and_nans checks, spelled out: three equal minima get a third of g each."""
    x = tg.tensor([3.0, 1.0, 3.0, 1.0], requires_grad=True)
    low, high = tg.aminmax(x)
    (low + high).backward()
    assert x.grad.tolist() == [0.5, 0.5, 0.5, 0.5]
    y = tg.tensor([NAN, NAN, NAN], requires_grad=True)
    y.max().backward()
    assert np.allclose(y.grad.numpy(), 1 / 3)


@pytest.mark.parametrize(("case", "exc", "message"), [
    (lambda lib: lib.aminmax(lib.tensor([])), RuntimeError,
     "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity."),
    (lambda lib: lib.aminmax(lib.zeros(2, 0), dim=1), IndexError,
     "aminmax: Expected reduction dim 1 to have non-zero size."),
    (lambda lib: lib.aminmax(lib.zeros(2, 3), dim=2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda lib: lib.nanmedian(lib.zeros(2, 0), 1), IndexError,
     "median(): Expected reduction dim 1 to have non-zero size."),
])
def test_misuse_as_pytorch(case: Any, exc: type[Exception], message: str) -> None:
    raises(case, exc, message)


# ------------------------------------------------------------------------------------------------ index_reduce
def _index_reduce_cases(lib: ModuleType) -> list[str]:
    with warnings.catch_warnings():  # (PyTorch warns once per process that index_reduce is beta)
        warnings.simplefilter("ignore")
        source = lib.tensor([[0.0, 2.0, 3.0], [0.0, 0.0, 5.0], [1.0, 0.0, 2.0]], requires_grad=True)
        base = lib.tensor([[1.0, 0.0, 2.0], [3.0, 4.0, 0.0]], requires_grad=True)
        up = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        lines = []
        for reduce in ("prod", "mean", "amax", "amin"):
            for include_self in (True, False):
                out = base.index_reduce(0, lib.tensor([1, 1, 0]), source, reduce, include_self=include_self)
                lines += [repr(out), repr(lib.autograd.grad(out, (base, source), up))]
        by_column = lib.index_reduce(base, 1, lib.tensor([2, 0]), source[:2, :2], "amax")
        node = by_column.grad_fn
        lines += [repr(by_column), repr((node._saved_dim, node._saved_reduce, node._saved_include_self)),
                  repr(node._saved_index), repr(node._saved_source)]
        copy = base.clone()
        copy.index_reduce_(0, lib.tensor([1, 0]), lib.ones(2, 3) * 4, "prod")
        lines += [repr(copy), repr(lib.autograd.grad(copy.sum(), base))]
        return lines


def test_index_reduce_as_pytorch() -> None:
    _needs_torch()
    as_pytorch(_index_reduce_cases)


def test_index_reduce_warns_that_it_is_beta() -> None:
    """PyTorch's once-per-process warning (whichever test calls it first sees it here)."""
    from tinygrad_edu import _messages
    _messages._warned.discard("index_reduce")
    with pytest.warns(UserWarning, match=r"index_reduce\(\) is in beta and the API may change at any time."):
        tg.index_reduce(tg.zeros(2), 0, tg.tensor([0]), tg.ones(1), "amax")


def _two_zeros(lib: ModuleType, fn_name: str) -> list[str]:
    """Two zeros of the source meet at one place: the first derivative is fine, the second is refused."""
    x = lib.tensor([1.0], dtype=lib.float64, requires_grad=True)
    src = lib.tensor([0.0, 0.0], dtype=lib.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = getattr(lib, fn_name)(x, 0, lib.tensor([0, 0]), src, "prod")
    dx, dsrc = lib.autograd.grad(out, (x, src), lib.ones(1, dtype=lib.float64), create_graph=True)
    lines = [repr(dx), repr(dsrc)]
    try:
        lib.autograd.grad(dsrc.sum(), (x, src))
    except RuntimeError as e:
        lines.append(str(e))
    return lines


@pytest.mark.parametrize("fn_name", ["scatter_reduce", "index_reduce"])
def test_prod_second_derivative_with_two_zeros_is_refused_as_pytorch(fn_name: str) -> None:
    _needs_torch()
    as_pytorch(lambda lib: _two_zeros(lib, fn_name))


@pytest.mark.parametrize("fn_name", ["scatter_reduce", "index_reduce"])
def test_prod_second_derivative_with_two_zeros_is_refused(fn_name: str) -> None:
    lines = _two_zeros(tg, fn_name)
    assert lines[2].startswith(f"{fn_name}(): Double backward is unsupported for ")


INDEX_MISUSE = [
    (lambda lib: lib.zeros(2, 3).index_reduce(0, lib.tensor([1, 1]), lib.ones(2, 3), "sum"), RuntimeError,
     "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got sum."),
    (lambda lib: lib.zeros(2, 3).index_reduce(0, lib.tensor([1, 1.0]), lib.ones(2, 3), "prod"), RuntimeError,
     "index_reduce_(): Expected dtype int32/int64 for index but got: Float"),
    (lambda lib: lib.zeros(2, 3).index_reduce(0, lib.tensor([1, 2]), lib.ones(2, 3), "prod"), IndexError,
     "index out of range in self"),
    (lambda lib: lib.zeros(2, 3).index_reduce(0, lib.tensor([1, -1]), lib.ones(2, 3), "prod"), IndexError,
     "index out of range in self"),
    (lambda lib: lib.zeros(2, 3).index_reduce(0, lib.tensor([1, 1, 1]), lib.ones(2, 3), "prod"), RuntimeError,
     "index_reduce_(): Number of indices (3) should be equal to source.size(dim): (2), for dim: 0"),
    (lambda lib: lib.zeros(2, 3).index_reduce(0, lib.tensor([[1, 1]]), lib.ones(2, 3), "prod"), IndexError,
     "index_reduce_(): Index is supposed to be a vector, but got dim: 2 with type: Long and size: [1, 2]"),
    (lambda lib: lib.zeros(2, 3).index_reduce(0, lib.tensor([1, 1]), lib.ones(2, 4), "prod"), RuntimeError,
     "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = [2, 3] "
     "source.shape = [2, 4]"),
    (lambda lib: lib.zeros(2, 3).index_reduce(0, lib.tensor([1, 1]), lib.ones(2, 3, dtype=lib.float64), "prod"),
     RuntimeError, "index_reduce_(): self (Float) and source (Double) must have the same scalar type"),
    (lambda lib: lib.zeros(2, 3).index_reduce(1, lib.tensor([0]), lib.ones(2), "amax"), RuntimeError,
     "index_reduce_(): Indexing dim 1 is out of bounds of the source tensor with dim 1"),
]


@pytest.mark.parametrize("case", range(len(INDEX_MISUSE)))
def test_index_reduce_misuse_as_pytorch(case: int) -> None:
    fn, exc, message = INDEX_MISUSE[case]

    def quiet(lib: ModuleType) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(lib)

    raises(quiet, exc, message)


# ------------------------------------------------------------------------------------------------ finite differences
def _f64(values: Any) -> tg.Tensor:
    return tg.tensor(values, dtype=tg.float64, requires_grad=True)


IDX = tg.tensor([1, 1, 0])
SOURCE = [[0.5, 2.0, -3.0], [1.5, -0.7, 5.0], [1.2, 0.3, 2.5]]  # (no ties with BASE: max is smooth)
BASE = [[1.1, -0.4, 2.0], [3.0, 4.0, 0.6]]
GRADCHECKS: dict[str, Any] = {
    "aminmax": (lambda x: tg.aminmax(x), [[[3.0, 1.0, 2.5], [0.5, 2.0, 5.0]]]),
    "aminmax dim": (lambda x: tg.aminmax(x, dim=1, keepdim=True), [[[3.0, 1.0, 2.5], [0.5, 2.0, 5.0]]]),
    "nanmedian": (lambda x: tg.nanmedian(x), [[1.0, 5.0, 2.0, 4.0, 3.0]]),
    "nanmedian dim": (lambda x: tg.nanmedian(x, 0).values, [[[1.0, 5.0], [2.0, 4.0], [3.0, 0.0]]]),
    **{f"index_reduce {r} {s}": (lambda x, src, r=r, s=s: tg.index_reduce(x, 0, IDX, src, r, include_self=s),
                                 [BASE, SOURCE]) for r in ("prod", "mean", "amax", "amin") for s in (True, False)},
    "scatter_reduce prod with a zero": (lambda x, src: tg.scatter_reduce(x, 0, tg.tensor([0, 0, 1]), src, "prod"),
                                        [[1.5, 0.0], [0.0, 2.0, 3.0]]),
    "index_reduce prod with a zero": (lambda x, src: tg.index_reduce(x, 0, IDX, src, "prod"),
                                      [BASE, [[0.0, 2.0, -3.0], [1.5, -0.7, 5.0], [1.2, 0.3, 0.0]]]),
}


@pytest.mark.parametrize("name", GRADCHECKS)
def test_derivatives_match_finite_differences(name: str) -> None:
    fn, values = GRADCHECKS[name]
    inputs = [_f64(v) for v in values]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert gradcheck(fn, inputs)
        assert gradgradcheck(fn, inputs)
