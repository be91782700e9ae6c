"""``as_strided``/``as_strided_`` and the private or old names PyTorch's own autograd tests reach for
(``autograd._functions.Resize``, ``autograd._force_original_view_tracking``, ``autograd.torch``, ``volatile``),
against PyTorch 2.13 (the transcripts are skipped without torch; the rest runs without it).
"""

from __future__ import annotations

import importlib
import re
import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg
from tinygrad_edu.autograd import gradcheck, gradgradcheck


def _one_to_six() -> tg.Tensor:
    """1 ... 6 as a 2x3 float64 leaf, for the finite-difference checks."""
    return tg.tensor(np.arange(1.0, 7.0).reshape(2, 3), dtype=tg.float64, requires_grad=True)


def _needs_torch() -> None:
    if oracle() is None:
        pytest.skip("needs torch")


# ------------------------------------------------------------------------------------------------ as_strided
def as_strided(lib: ModuleType) -> list[str]:
    x = lib.arange(6.0).reshape(2, 3)
    lines = [f"{v!r} {v.storage_offset()} {v.stride()}" for v in (
        x.as_strided((2, 2), (1, 2)), x.as_strided((2, 2), (1, 2), 1), x[1].as_strided((2,), (1,)),
        lib.as_strided(x, (2,), (0,), 5))]
    a = lib.tensor([[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]], requires_grad=True)
    y = a.as_strided((2, 2), (1, 2), 1)
    node = y.grad_fn
    lines += [repr(y), repr((node._saved_size, node._saved_stride, node._saved_storage_offset)),
              repr(lib.autograd.grad(y, a, lib.tensor([[1.0, 2.0], [3.0, 4.0]]))), repr(y._base is a)]
    return lines


def as_strided_in_place(lib: ModuleType) -> list[str]:
    a = lib.tensor([[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]], requires_grad=True)
    b = a.clone()
    v = b[1]
    same = v.as_strided_((2,), (2,), 1)  # storage elements 1 and 3: b[0, 1], and b[1, 0] (the only one v covered)
    lines = [repr(same is v), repr(v), repr(v.grad_fn), repr(type(v.grad_fn.next_functions[0][0]).__name__),
             repr((v._version, b._version)), repr(lib.autograd.grad(v, a, lib.tensor([1.0, 2.0]), retain_graph=True))]
    c = a * 2
    w = c.view(-1)
    w.as_strided_((2,), (3,))
    w.mul_(10)  # an in-place change of the new view goes into c's history as any other
    lines += [repr(c), repr(lib.autograd.grad(c.sum(), a))]
    d = lib.ones(2, 3)
    d.as_strided_((3,), (2,))
    return [*lines, repr((d, d._version))]


@pytest.mark.parametrize("transcript", [as_strided, as_strided_in_place])
def test_transcripts_as_pytorch(transcript: Any) -> None:
    _needs_torch()
    as_pytorch(transcript)


@pytest.mark.parametrize(("case", "exc", "message"), [
    (lambda lib: lib.zeros(2, 3).as_strided((3, 3), (3, 1)), RuntimeError,
     "setStorage: sizes [3, 3], strides [3, 1], storage offset 0, and itemsize 4 requiring a storage size of 36 are "
     "out of bounds for storage of size 24"),
    (lambda lib: lib.zeros(2, 3).as_strided((2, 2), (1, -1)), RuntimeError,
     "as_strided: Negative strides are not supported at the moment, got strides: [1, -1]"),
    (lambda lib: lib.zeros(2, 3).as_strided((2, 2), (1,)), RuntimeError, "mismatch in length of strides and shape"),
    (lambda lib: lib.zeros(2, 3).as_strided((2, 2), (1, 2), -1), RuntimeError, "Tensor: invalid storage offset -1"),
    (lambda lib: lib.ones(2, requires_grad=True).as_strided_((2,), (1,)), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
])
def test_as_strided_misuse_as_pytorch(case: Any, exc: type[Exception], message: str) -> None:
    raises(case, exc, message)


def _creation_meta_errors(lib: ModuleType) -> list[tuple[str | None, str | None]]:
    """PyTorch's own test of in-place *view* ops: as_strided_ on a view is refused as an in-place change of that view
    would be (made in no_grad; one of several views), and a refusal carried by the view stays with it."""

    def refusal(step: Any) -> str | None:
        try:
            step()
        except RuntimeError as e:
            return re.sub(r"\. .*", "", str(e))  # (the first sentence)
        return None

    seen = []
    for multi in (False, True):
        for grad_view in (True, False):
            for grad_inplace in (True, False):
                base = lib.rand(2, 3, requires_grad=True).clone()
                with lib.set_grad_enabled(grad_view):
                    view = base.unbind()[0] if multi else base.view_as(base)
                with lib.set_grad_enabled(grad_inplace):
                    first = refusal(lambda v=view: v.as_strided_((1, 0), (2, 2)))
                seen.append((first, None if first else refusal(lambda v=view: v.add_(1))))
    return seen


def test_in_place_view_refusals_as_pytorch() -> None:
    _needs_torch()
    as_pytorch(_creation_meta_errors)


def test_as_strided_derivatives_match_finite_differences() -> None:
    x = _one_to_six()
    for args in (((2, 2), (1, 2)), ((3,), (2,), 0), ((2, 2), (0, 1), 2)):  # (the last reads elements twice)
        fn = lambda t, args=args: t.as_strided(*args) * t.as_strided(*args)  # noqa: E731
        assert gradcheck(fn, (x,)) and gradgradcheck(fn, (x,))


# ------------------------------------------------------------------------------------------------ private and old names
def resize(lib: ModuleType) -> list[str]:
    resize = importlib.import_module(f"{lib.__name__}.autograd._functions").Resize  # (torch imports it on demand)
    x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = resize.apply(x, (3, 2))
    lines = [repr(y), repr(type(y.grad_fn).__name__), repr(lib.autograd.grad((y * y).sum(), x))]
    try:
        resize.apply(x, (3, 3))
    except RuntimeError as e:
        lines.append(str(e))
    return lines


def test_resize_as_pytorch() -> None:
    _needs_torch()
    as_pytorch(resize)


def test_resize_gives_the_gradient_to_the_same_edge_as_pytorch_test_grad_to_node() -> None:
    x = tg.rand(2, requires_grad=True).clone()
    x = tg.autograd._functions.Resize.apply(x, (2,))
    out = x.clone()
    edge = tg.autograd.graph.get_gradient_edge(x)
    assert tg.autograd.grad(out.sum(), edge)[0].tolist() == tg.autograd.grad(out.sum(), x)[0].tolist() == [1.0, 1.0]


def view_replay(lib: ModuleType) -> list[Any]:
    """The switch as PyTorch's test drives it: a call sets it, ``with`` restores it, a decorator sets it only while
    its function runs (and leaves it as it was where it decorates)."""
    flag = lib.autograd.is_view_replay_enabled
    seen = [flag()]
    with lib.autograd._force_original_view_tracking(True):
        seen.append(flag())
    seen.append(flag())
    with lib.autograd._force_original_view_tracking(False):
        lib.autograd._force_original_view_tracking(True)
        seen.append(flag())
    seen.append(flag())
    lib.autograd._force_original_view_tracking(True)
    seen.append(flag())

    @lib.autograd._force_original_view_tracking(False)
    def inside() -> bool:
        return flag()

    seen += [flag(), inside(), flag()]
    lib.autograd._force_original_view_tracking(False)
    return [*seen, flag()]


def test_view_replay_switch_as_pytorch() -> None:
    assert view_replay(tg) == [False, True, False, True, False, True, True, False, True, False]
    _needs_torch()
    as_pytorch(view_replay)


def view_replay_graphs(lib: ModuleType) -> list[str]:
    """With the switch on, a view changed in place (or a view of that base, used later) gets its own ops again on
    the base's new history; with it off, AsStridedBackward0. The gradients are the same."""
    lines = []
    for replay in (True, False):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        with lib.autograd._force_original_view_tracking(replay):
            flat = x.clone().view(-1)
            flat.mul_(3)
            b = x.clone()
            row, col = b[0], b.t()[1:]
            row.mul_(2)
            both = (col * col).sum() + row.sum()
        both.backward()  # (autograd.grad(both, x) loses col's part here: a bug of the library's, not of replay)
        lines += [repr(flat), repr(flat.grad_fn.next_functions), repr(row.grad_fn), repr(col.grad_fn),
                  repr(col.grad_fn.next_functions[0][0]), repr(lib.autograd.grad((flat * flat).sum(), x)),
                  repr(x.grad)]
    return lines


def test_view_replay_keeps_the_gradients() -> None:
    x = _one_to_six()

    def fn(t: tg.Tensor) -> tg.Tensor:
        b = t * 1
        b.t()[1:].unsqueeze(0).mul_(t[0, 1:].view(1, 2, 1))  # a chain of three views, changed by another one
        return b

    with tg.autograd._force_original_view_tracking(True):
        assert gradcheck(fn, (x,)) and gradgradcheck(fn, (x,))
        b = x * 1
        part = b.t()[1:].unsqueeze(0)
        part.mul_(2)
        assert [type(n).__name__ for n in (part.grad_fn, part.grad_fn.next_functions[0][0])] == \
            ["UnsqueezeBackward0", "SliceBackward0"]


def test_view_replay_as_pytorch() -> None:
    _needs_torch()
    as_pytorch(view_replay_graphs)


def volatile(lib: ModuleType) -> bool:
    return lib.autograd.torch.randn(3, 3).volatile


def test_volatile_warns_as_pytorch() -> None:
    assert tg.autograd.torch is tg
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert volatile(tg) is False
    as_pytorch(volatile, (None, "False", ["UserWarning: volatile was removed (Variable.volatile is always False)"]))
