"""The shortcuts taken for speed must not change what a learner sees.

* AccumulateGrad keeps a fresh gradient as ``.grad`` instead of copying it, but only when nobody else
  can see it: never the caller's ``gradient`` tensor, a tensor a hook kept, or memory shared with either.
* A backward pass turns numpy's floating-point warnings off once for all its ops (built-in ops compute
  silently, as PyTorch does), yet the learner's own numpy code in a hook or a custom backward still warns,
  and numpy's settings are back as they were afterwards, even when backward fails.
* Gradients arriving at one node by several paths are summed in its buffer: the first sum is a new tensor nobody
  else holds, so the later ones are added into it in place (as PyTorch's buffers do), never into a gradient a hook
  or anybody else kept.
* Ops that record nothing (under no_grad, or inside backward without create_graph) take a short path that
  must give the same numbers, views and version counters as the long one. Inside such a backward pass,
  a formula's same-shape, same-dtype float arithmetic (``g * y``) is numpy's ufunc directly, and any other op of
  the derivative table that is not a view (``TanhBackward`` in tanh's formula) is its forward's array, wrapped.
* All of these sit behind one switch, ``tinygrad_edu.core.grad_mode.Speed.tricks``: with it off, every result is
  the same (the last tests).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import tinygrad_edu as tg


def _address(t: tg.Tensor) -> int:
    return t.detach().numpy().__array_interface__["data"][0]


# ------------------------------------------------------------------------------------------------ .grad kept
def test_a_fresh_gradient_becomes_grad_without_a_copy() -> None:
    w = tg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    x = tg.tensor([[1.0, 0.5], [2.0, 1.0]])
    y = x.mm(w.t())  # w's gradient arrives through TBackward0, a view of mm's result
    seen = []
    y.grad_fn.next_functions[1][0].register_hook(lambda grad_inputs, grad_outputs: seen.append(
        _address(grad_inputs[0])))  # the address only: keeping the tensor would (rightly) force a copy
    y.sum().backward()
    assert seen == [_address(w.grad)]
    np.testing.assert_allclose(w.grad.numpy(), [[3.0, 1.5], [3.0, 1.5]])
    y2 = x.mm(w.t())
    y2.sum().backward()  # accumulates into the kept array, in place
    np.testing.assert_allclose(w.grad.numpy(), [[6.0, 3.0], [6.0, 3.0]])


def test_the_callers_gradient_is_never_kept() -> None:
    x = tg.ones(2, 2, requires_grad=True)
    g = tg.ones(4)
    x.view(4).backward(g)  # ViewBackward0 passes a view of g on
    assert not np.shares_memory(x.grad.numpy(), g.numpy())
    x.view(4).backward(g)
    np.testing.assert_array_equal(g.numpy(), [1.0, 1.0, 1.0, 1.0])
    np.testing.assert_array_equal(x.grad.numpy(), [[2.0, 2.0], [2.0, 2.0]])
    leaf = tg.zeros(3, requires_grad=True)
    g3 = tg.tensor([1.0, 2.0, 3.0])
    leaf.backward(g3)  # straight into AccumulateGrad
    leaf.backward(g3)
    np.testing.assert_array_equal(g3.numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(leaf.grad.numpy(), [2.0, 4.0, 6.0])


def test_a_gradient_a_hook_kept_is_not_changed_by_later_accumulation() -> None:
    w = tg.tensor([1.0, 2.0], requires_grad=True)
    kept = []
    w.register_hook(kept.append)
    (w * tg.tensor([3.0, 4.0])).sum().backward()
    (w * tg.tensor([3.0, 4.0])).sum().backward()
    assert not np.shares_memory(kept[0].numpy(), w.grad.numpy())
    np.testing.assert_array_equal(kept[0].numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(w.grad.numpy(), [6.0, 8.0])


def test_one_gradient_sent_to_two_leaves_gives_them_separate_grads() -> None:
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    b = tg.tensor([3.0, 4.0], requires_grad=True)
    (a + b).backward(tg.tensor([1.0, 1.0]) * 2)  # AddBackward0 sends the same tensor to both
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
    (a + b).backward(tg.tensor([1.0, 1.0]))
    np.testing.assert_array_equal(a.grad.numpy(), [3.0, 3.0])
    np.testing.assert_array_equal(b.grad.numpy(), [3.0, 3.0])


def test_grads_returned_by_autograd_grad_and_retained_grads_are_not_the_leaf_grad() -> None:
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    (gx,) = tg.autograd.grad((x * 3).sum(), x)
    h = x * 3
    h.retain_grad()
    (h * 2).sum().backward()
    assert not np.shares_memory(gx.numpy(), x.grad.numpy())
    assert not np.shares_memory(h.grad.numpy(), x.grad.numpy())
    x.grad += 1  # changing .grad in place changes nothing else
    np.testing.assert_array_equal(gx.numpy(), [3.0, 3.0])
    np.testing.assert_array_equal(h.grad.numpy(), [2.0, 2.0])


def _many_paths(monkeypatch: pytest.MonkeyPatch, tricks: bool, create_graph: bool = False) -> tuple:
    """w used at each of 6 steps of a chain, so its node gets 6 gradients; a hook keeps each (with a copy of its
    numbers as it arrived). Returns w.grad, x.grad, how many tensor additions backward made, and the kept ones."""
    from tinygrad_edu.core.grad_mode import Speed

    monkeypatch.setattr(Speed, "tricks", tricks)
    additions, plain = [], tg.Tensor.__add__
    monkeypatch.setattr(tg.Tensor, "__add__", lambda self, other, **kw: additions.append(1) or plain(self, other, **kw))
    rng = np.random.default_rng(7)
    x = tg.tensor(rng.standard_normal(5).astype(np.float32), requires_grad=True)
    w = tg.tensor(rng.standard_normal(5).astype(np.float32), requires_grad=True)
    kept, y = [], x
    for _ in range(6):
        y = y * w
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: kept.append((grad_inputs[1],
                                                                               grad_inputs[1].detach().numpy().copy())))
    additions.clear()
    y.sum().backward(create_graph=create_graph)
    return w.grad, x.grad, len(additions), kept


def test_gradients_by_many_paths_are_added_into_the_engines_own_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    """speed: of w's 6 gradients, the first two make a new sum and the other four are added into it in place: one
    addition made as an op, not five, and the same bits as with the tricks off. Every gradient a hook kept on the way
    still holds the numbers it arrived with (it was never the sum)."""
    w_grad, x_grad, additions, kept = _many_paths(monkeypatch, tricks=True)
    plain_w, plain_x, plain_additions, _ = _many_paths(monkeypatch, tricks=False)
    assert (additions, plain_additions) == (1, 5)
    np.testing.assert_array_equal(w_grad.numpy(), plain_w.numpy())
    np.testing.assert_array_equal(x_grad.numpy(), plain_x.numpy())
    assert len(kept) == 6 and all(np.array_equal(g.detach().numpy(), numbers) for g, numbers in kept)
    assert not any(np.shares_memory(g.numpy(), w_grad.numpy()) for g, _ in kept)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")  # (PyTorch's warning, meant)
def test_a_recorded_backward_adds_gradients_as_ops(monkeypatch: pytest.MonkeyPatch) -> None:
    """With create_graph, every sum is recorded (AddBackward0), so that w.grad can be differentiated again."""
    w_grad, _, additions, _ = _many_paths(monkeypatch, tricks=True, create_graph=True)
    assert additions == 5 and w_grad.grad_fn is not None
    plain_w, _, _, _ = _many_paths(monkeypatch, tricks=False, create_graph=True)
    np.testing.assert_array_equal(w_grad.detach().numpy(), plain_w.detach().numpy())


# ------------------------------------------------------------------------------------------------ warnings
def test_builtin_ops_are_silent_and_numpy_settings_come_back() -> None:
    before = np.geterr()
    x = tg.tensor([0.0, 1e30, -1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = (x * x * 1e30).exp() + x.log() + 1 / x
        y.sum().backward()
    assert np.isinf(y.detach().numpy()).any() and np.isnan(x.grad.numpy()).any()
    assert np.geterr() == before


def test_the_learners_numpy_code_in_backward_still_warns() -> None:
    class Half(tg.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 0.5

        @staticmethod
        def backward(ctx, g):
            np.log(np.zeros(1))  # the learner's own numpy: warns, as it would outside backward
            return g * 0.5

    x = tg.tensor([1.0, 2.0], requires_grad=True)
    def hook(g: tg.Tensor) -> None:
        np.ones(1) / 0  # and in a hook

    x.register_hook(hook)
    with pytest.warns(RuntimeWarning) as caught:
        Half.apply(x).sum().backward()
    assert sorted(str(w.message) for w in caught) == ["divide by zero encountered in divide",
                                                      "divide by zero encountered in log"]
    np.testing.assert_array_equal(x.grad.numpy(), [0.5, 0.5])


def test_numpy_settings_come_back_when_backward_fails() -> None:
    before = np.geterr()
    x = tg.tensor([1.0], requires_grad=True)
    y = x.exp()
    y.add_(1)  # the saved result changed: backward raises
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()
    assert np.geterr() == before
    with pytest.warns(RuntimeWarning):
        np.ones(1) / 0


# ------------------------------------------------------------------------------------------------ no_grad
def test_ops_that_record_nothing_give_the_same_results() -> None:
    a = tg.tensor([[1.0, -2.0, 3.0]], requires_grad=True)
    b = tg.tensor([[0.5], [2.0]])
    recorded = [a * b, (a + b).exp(), a.t(), a.relu(), (a * b).sum(0, keepdim=True), a.tanh()]
    with tg.no_grad():
        plain = [a * b, (a + b).exp(), a.t(), a.relu(), (a * b).sum(0, keepdim=True), a.tanh()]
    for r, p in zip(recorded, plain):
        # (a view, a.t(), requires grad as its base does, with no history: as in PyTorch)
        assert r.grad_fn is not None and p.grad_fn is None and p.requires_grad == p._is_view()
        np.testing.assert_array_equal(r.detach().numpy(), p.detach().numpy())


def test_a_view_made_under_no_grad_still_shares_storage_and_version() -> None:
    x = tg.tensor([[1.0, 2.0], [3.0, 4.0]])
    with tg.no_grad():
        v = x.t()
        assert v._base is x
        v.add_(1)
    assert x._version == v._version == 1
    np.testing.assert_array_equal(x.numpy(), [[2.0, 3.0], [4.0, 5.0]])


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_a_broadcast_gradient_is_summed_the_same_with_and_without_create_graph() -> None:
    for create_graph in (False, True):
        b = tg.tensor([[1.0], [2.0]], requires_grad=True)
        x = tg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        (x * b).sum().backward(create_graph=create_graph)
        np.testing.assert_array_equal(b.grad.detach().numpy(), [[6.0], [15.0]])
        assert (b.grad.grad_fn is not None) == create_graph


def test_relu_masks_its_gradient_where_the_output_is_not_positive() -> None:
    """One comparison, PyTorch's (out <= 0): 0 there even for an infinite g, and g passes at a nan output."""
    x = tg.tensor([float("nan"), -1.0, 2.0, 0.0], requires_grad=True)
    x.relu().backward(tg.tensor([1.0, float("inf"), 3.0, float("inf")]))
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 0.0, 3.0, 0.0])


@pytest.mark.parametrize("dtype", [tg.float16, tg.float32, tg.float64])
def test_relus_mask_gives_the_same_bits_with_and_without_the_tricks(dtype: tg.dtype) -> None:
    """The mask as a bitwise and (the trick) and as np.where: the same bits, signed zeros, inf and nan included."""
    from tinygrad_edu.core.grad_mode import Speed

    out = [float("nan"), -1.0, 2.0, 0.0, 5.0, -0.0, 1.0, -2.0]
    g = [1.0, float("inf"), -0.0, float("-inf"), float("nan"), -3.0, -2.5, float("nan")]
    grads = []
    for tricks in (True, False):
        Speed.tricks = tricks
        try:
            x = tg.tensor(out, dtype=dtype, requires_grad=True)
            x.relu().backward(tg.tensor(g, dtype=dtype))
        finally:
            Speed.tricks = True
        grads.append(x.grad.numpy().tobytes())
    assert grads[0] == grads[1]
    expected = np.where(np.array(out) <= 0, 0.0, np.array(g)).astype(x.grad.numpy().dtype)
    assert grads[0] == expected.tobytes()


@pytest.mark.parametrize("dtype", [tg.float16, tg.float32, tg.float64])
def test_relu_gives_the_same_bits_and_layout_with_and_without_the_tricks(dtype: tg.dtype) -> None:
    """relu against an array of zeros (the trick) and against the number 0: the same bits (signed zeros, inf, nan and
    a nan's payload included) and the same layout, for row-major, transposed and strided inputs."""
    from tinygrad_edu.core.grad_mode import Speed

    values = np.array([float("nan"), -1.0, 2.0, 0.0, -0.0, float("inf"), float("-inf"), -3.5] * 5)
    a = values.astype(dtype.np).reshape(5, 8)
    if a.dtype == np.float32:
        a.view(np.uint32)[0, 0] = 0xFFC12345  # a negative nan with a payload
    results = []
    for tricks in (True, False):
        Speed.tricks = tricks
        try:
            x = tg.tensor(a)
            results.append([(r.numpy().tobytes(), r.stride()) for r in (x.relu(), x.t().relu(), x[:, ::3].relu())])
        finally:
            Speed.tricks = True
    assert results[0] == results[1]
    assert results[0][0][0] == np.maximum(a, 0, dtype=a.dtype).tobytes()


# ------------------------------------------------------------------------------------------------ formulas
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_formula_arithmetic_gives_the_same_gradients_with_and_without_recording() -> None:
    """create_graph=True records every formula op (the long path); without it, same-shape float arithmetic
    is numpy's own. Both must give identical gradients, including inf and nan."""
    def grads(create_graph: bool) -> list[np.ndarray]:
        x = tg.tensor([1.0, -2.0, 0.0, 3.0], requires_grad=True)
        y = tg.tensor([2.0, 0.5, 0.0, -1.0], requires_grad=True)
        loss = (x * y + x / y - (y - x).exp() + x.log()).sum()
        loss.backward(create_graph=create_graph)
        return [x.grad.detach().numpy(), y.grad.detach().numpy()]

    for fast, recorded in zip(grads(False), grads(True)):
        np.testing.assert_array_equal(fast, recorded)


def test_formula_arithmetic_skips_apply_only_where_nothing_can_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    from tinygrad_edu.ops import elementwise as ew

    calls = []
    original = ew.Mul.apply.__func__
    monkeypatch.setattr(ew.Mul, "apply", classmethod(lambda cls, *args: calls.append(args) or original(cls, *args)))
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    w = tg.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * w).sum()
    assert len(calls) == 1  # the forward's multiplication
    loss.backward()  # MulBackward0: g * w and g * x, both same-shape float32: numpy's multiply
    assert len(calls) == 1
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 4.0])

    n = tg.tensor([1, 2])  # an int64 factor: g * n promotes, so it takes the op's own path
    (x * n).sum().backward()
    assert len(calls) == 3
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 6.0])


def test_an_entry_inside_backward_is_its_forwards_array_without_a_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """tanh's formula calls the TanhBackward entry: inside a backward pass that records nothing it makes no node (no
    ctx), with the tricks off it takes the long path; the gradients are the same bits, 0-d ones included."""
    from tinygrad_edu.core import derivatives
    from tinygrad_edu.core.grad_mode import Speed

    made: list[int] = []

    class Counted(derivatives.TanhBackward._backward_cls):  # (the node class: one instance per long-path call)
        def __init__(self) -> None:
            made.append(1)

    monkeypatch.setattr(derivatives.TanhBackward, "_backward_cls", Counted)

    def gradients() -> tuple[int, list]:
        made.clear()
        x, s = tg.tensor([0.5, -1.0, 2.0, 0.0], requires_grad=True), tg.tensor(0.25, requires_grad=True)
        (x.tanh() * 3).sum().backward()
        s.tanh().exp().backward()
        return len(made), [(g.numpy().tobytes(), g.dtype, g.shape) for g in (x.grad, s.grad)]

    fast_nodes, fast = gradients()
    try:
        Speed.tricks = False
        plain_nodes, plain = gradients()
    finally:
        Speed.tricks = True
    assert (fast_nodes, plain_nodes) == (0, 2)
    assert fast == plain
    assert fast[1][1:] == (tg.float32, ())


def test_a_learners_backward_arithmetic_is_an_op_as_always() -> None:
    """In a learner's backward, tensor arithmetic is the op (silent about inf, as PyTorch), not numpy's raw
    ufunc under the learner's numpy settings."""
    class Inverse(tg.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return 1 / a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return -g / (a * a)

    x = tg.tensor([0.0, 2.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Inverse.apply(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [-np.inf, -0.25])


# ------------------------------------------------------------------------------------------------ the switch
def _many_programs() -> list:
    """A spread of programs whose every result (values, gradients, second derivatives, graph shape, warnings' absence)
    is collected: the speed tricks must change none of it."""
    import tinygrad_edu as lib

    out = []
    x = lib.tensor([[1.0, -2.0, 0.0], [3.0, 0.5, -1.0]], requires_grad=True)
    w = lib.tensor([0.5, -1.5, 2.0], requires_grad=True)
    b = lib.tensor([[0.1], [0.2]], requires_grad=True)
    y = (lib.tanh(x * w + b).exp() / (x * x + 1) - x.relu().sqrt() + (w ** 2).sum()).mean()
    y.backward(create_graph=True)
    out += [y, x.grad, w.grad, b.grad, [type(n).__name__ for n, _ in y.grad_fn.next_functions]]
    (gx,) = lib.autograd.grad(x.grad.sum(), x)
    out.append(gx)
    z = lib.tensor([0.0, 1e30, -1.0, float("inf")], requires_grad=True)
    (z * z * 1e30 + z.log() + 1 / z + z.sigmoid()).sum().backward()
    out.append(z.grad)
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for _ in range(3):
        (a * lib.tensor([1.0, 2.0, 3.0]) + a.clamp(1.5, 2.5)).sum().backward()  # .grad accumulates in place
    out.append(a.grad)
    lib.manual_seed(0)
    m = lib.nn.Linear(3, 2)
    loss = lib.nn.functional.cross_entropy(m(x.detach()), lib.tensor([0, 1]))
    loss.backward()
    out += [loss, m.weight.grad, m.bias.grad]
    out += _classifier_programs(lib)
    return [o if isinstance(o, list) else (o.detach().numpy().copy(), o.dtype) for o in out]


def _classifier_programs(lib: object) -> list:
    """A classifier's training step (Linear, ReLU, Linear, cross-entropy) in the loss's variants: the backward of
    t(), log_softmax and nll_loss (computed on arrays with the tricks on), their gradients' values and layouts."""
    out: list = []
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(5, 4), lib.nn.ReLU(), lib.nn.Linear(4, 3))
    x, target = lib.randn(6, 5), lib.tensor([0, 2, 1, 1, 0, 2])
    weight = lib.tensor([0.5, 2.0, 1.0])
    variants = [{}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": weight}, {"ignore_index": 1},
                {"weight": weight, "ignore_index": 2, "reduction": "sum"}]
    for kwargs in variants:
        model.zero_grad()
        logits = model(x)
        loss = lib.nn.functional.cross_entropy(logits * 1e3 if kwargs.get("reduction") == "sum" else logits, target,
                                               **kwargs)
        loss.backward(lib.ones_like(loss) if loss.dim() else None)
        grads = [p.grad for p in model.parameters()]
        out += [loss, *grads, [g.stride() for g in grads]]
    images = lib.randn(2, 3, 2, 2, requires_grad=True)  # (N, C, d1, d2): nll_loss's other gradient path
    lib.nn.functional.cross_entropy(images, lib.tensor([[[0, 1], [2, 0]], [[1, 1], [0, 2]]])).backward()
    return [*out, images.grad]


def test_results_are_identical_with_the_speed_tricks_switched_off() -> None:
    """``core.grad_mode.Speed.tricks`` switches every speed trick off at once (numpy's error state entered per op
    instead of once per backward pass, no gradient stealing, no ufunc for a formula's arithmetic, sums as ops, every
    op under numpy's error state): the numbers, dtypes and graphs must be exactly the same, and nothing may warn."""
    from tinygrad_edu.core.grad_mode import Speed

    assert Speed.tricks
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", "Using backward\\(\\) with create_graph=True")
        fast = _many_programs()
        try:
            Speed.tricks = False
            plain = _many_programs()
        finally:
            Speed.tricks = True
    assert len(fast) == len(plain)
    for f, p in zip(fast, plain):
        if isinstance(f, list):
            assert f == p
        else:
            assert f[1] == p[1]
            np.testing.assert_array_equal(f[0], p[0])


def test_a_classifiers_backward_computes_on_arrays_only_with_the_tricks_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside a backward pass that records nothing, t(), log_softmax and nll_loss compute their gradients on arrays
    (no op); with the switch off, or with create_graph, each runs its gradient's op."""
    from tinygrad_edu.core.grad_mode import Speed
    from tinygrad_edu.nn import functional as F
    from tinygrad_edu.ops import reduce, shape

    calls: list[str] = []
    for cls in (shape.T, reduce.LogSoftmaxBackwardData, F.NllLossBackward):
        original = cls.apply.__func__
        monkeypatch.setattr(cls, "apply", classmethod(
            lambda c, *args, original=original: calls.append(c.__name__) or original(c, *args)))

    def backward(**kwargs: bool) -> list[str]:
        layer = tg.nn.Linear(3, 2)
        loss = F.cross_entropy(layer(tg.ones(4, 3)), tg.tensor([0, 1, 1, 0]))
        calls.clear()
        loss.backward(**kwargs)
        return sorted(set(calls))

    assert backward() == []
    try:
        Speed.tricks = False
        assert backward() == ["LogSoftmaxBackwardData", "NllLossBackward", "T"]
    finally:
        Speed.tricks = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (create_graph's warning about the cycle through .grad)
        assert backward(create_graph=True) == ["LogSoftmaxBackwardData", "NllLossBackward", "T"]


def test_with_the_tricks_off_the_plain_paths_run() -> None:
    """The switch really switches: with it off, AccumulateGrad copies a fresh gradient rather than keeping it, and a
    formula's arithmetic goes through the op."""
    from tinygrad_edu.core import derivatives
    from tinygrad_edu.core.grad_mode import Speed

    calls = []
    original = derivatives.Mul.apply.__func__
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    w = tg.tensor([3.0, 4.0], requires_grad=True)
    try:
        Speed.tricks = False
        derivatives.Mul.apply = classmethod(lambda cls, *args: calls.append(args) or original(cls, *args))
        (x * w).sum().backward()
    finally:
        Speed.tricks = True
        del derivatives.Mul.apply  # (Mul takes Function's apply again, as before: not a copy of its own)
    assert len(calls) == 3  # the forward's product, then g * w and g * x in backward, each an op
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 4.0])
