"""Module buffers, batch norm and instance norm, against PyTorch 2.13.

A buffer is a module's state that is not learned (BatchNorm's running statistics): ``register_buffer``,
``buffers()``/``named_buffers()``, saved by ``state_dict()`` unless non-persistent, restored by
``load_state_dict``, converted by ``.double()``. ``BatchNorm1d/2d/3d`` and ``InstanceNorm1d/2d/3d`` (and
``F.batch_norm``/``F.instance_norm``) normalise with the batch's statistics in training and, for batch norm, with
the running ones in eval; their gradients are checked against finite differences in float64 (twice, for
create_graph) and against PyTorch's, element by element. Each transcript runs with both libraries and must print
the same text (skipped without torch); the misuse cases must raise PyTorch's exception with PyTorch's message.
Also here: F.threshold and nn.Threshold, and a second derivative through an in-place change of a view (relu_ after
instance norm, whose output is a view), as in PyTorch's own autograd test.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg
import tinygrad_edu.nn.functional as F
from tinygrad_edu.autograd import gradcheck, gradgradcheck


def _needs_torch() -> ModuleType:
    torch = oracle()
    if torch is None:
        pytest.skip("needs torch")
    return torch


def _t(lib: ModuleType, shape: tuple, seed: int = 0, **kw: Any) -> Any:
    """A deterministic tensor of ``shape`` for either library (the same numbers in both)."""
    return lib.tensor(np.random.default_rng(seed).standard_normal(shape).tolist(), **kw)


# ------------------------------------------------------------------------------------------------ buffers
def buffers(lib: ModuleType) -> list[str]:
    m = lib.nn.Module()
    m.register_buffer("mask", lib.ones(2))
    m.register_buffer("cache", lib.zeros(1), persistent=False)
    m.register_buffer("empty", None)
    m.w = lib.nn.Parameter(lib.ones(1))
    m.mask = lib.tensor([1.0, 0.0])  # a buffer stays a buffer
    net = lib.nn.Sequential(lib.nn.Linear(1, 1), m)
    lines = [repr(list(net.state_dict())), repr([n for n, _ in net.named_buffers()]),
             repr([n for n, _ in m.named_buffers(prefix="m", recurse=False)]), repr(len(list(net.buffers()))),
             repr(m.mask), repr(m.empty), repr([n for n, _ in net.named_parameters()])]
    net.double()
    lines += [repr(m.mask.dtype), repr(m.cache.dtype), repr(m.w.dtype)]
    other = lib.nn.Sequential(lib.nn.Linear(1, 1), lib.nn.Module())
    other[1].register_buffer("mask", lib.zeros(2, dtype=lib.float64))
    other[1].w = lib.nn.Parameter(lib.zeros(1, dtype=lib.float64))
    other.load_state_dict(net.state_dict())
    del m.cache
    lines += [repr(other[1].mask), repr([n for n, _ in m.named_buffers()])]
    return lines


def test_buffers_as_pytorch() -> None:
    _needs_torch()
    as_pytorch(buffers)


@pytest.mark.parametrize(("case", "exc", "message"), [
    (lambda lib: lib.nn.Module().register_buffer(1, lib.ones(1)), TypeError, "buffer name should be a string. Got int"),
    (lambda lib: lib.nn.Module().register_buffer("a.b", lib.ones(1)), KeyError, "'buffer name can\\'t contain \".\"'"),
    (lambda lib: lib.nn.Module().register_buffer("", None), KeyError, "'buffer name can\\'t be empty string \"\"'"),
    (lambda lib: lib.nn.Module().register_buffer("training", None), KeyError,
     "\"attribute 'training' already exists\""),
    (lambda lib: lib.nn.Module.register_buffer(object.__new__(lib.nn.Module), "x", None), AttributeError,
     "cannot assign buffer before Module.__init__() call"),
    (lambda lib: setattr(lib.nn.BatchNorm1d(2), "running_mean", 3), TypeError,
     "cannot assign 'int' as buffer 'running_mean' (tinygrad_edu.nn.Buffer, tinygrad_edu.Tensor or None expected)"),
])
def test_buffer_misuse_as_pytorch(case: Any, exc: type[Exception], message: str) -> None:
    raises(case, exc, message)


def buffer_class(lib: ModuleType) -> list[str]:
    """``nn.Buffer``: a marked tensor that registers itself when assigned to a module."""
    m = lib.nn.Module()
    m.b = lib.nn.Buffer(lib.ones(2))
    m.c = lib.nn.Buffer(lib.ones(1), persistent=False)
    lines = [repr(m.state_dict()), repr([n for n, _ in m.named_buffers()]), repr(type(m.b).__name__),
             repr((isinstance(m.b, lib.nn.Buffer), isinstance(lib.ones(1), lib.nn.Buffer))),
             repr(issubclass(lib.nn.Buffer, lib.Tensor)), repr(lib.nn.Buffer(lib.ones(2, requires_grad=True))),
             repr(lib.nn.Buffer())]
    m.b = lib.zeros(2)  # (a plain tensor into a buffer's name: still the buffer)
    m.q = 3
    try:
        m.q = lib.nn.Buffer(lib.zeros(1))
    except KeyError as e:
        lines.append(repr(e))
    return [*lines, repr(m.state_dict())]


def test_buffer_class_as_pytorch() -> None:
    _needs_torch()
    as_pytorch(buffer_class)


def test_a_buffer_must_be_a_tensor() -> None:
    """PyTorch's message, which names "torch Tensor" (no dot, so _oracle leaves it alone): ours says tinygrad_edu."""
    message = "cannot assign 'int' object to buffer 'x' ({} Tensor or None required)"
    with pytest.raises(TypeError) as ours:
        tg.nn.Module().register_buffer("x", 3)
    assert str(ours.value) == message.format("tinygrad_edu")
    torch = oracle()
    if torch is not None:
        with pytest.raises(TypeError, match=message.format("torch").replace("(", r"\(").replace(")", r"\)")):
            torch.nn.Module().register_buffer("x", 3)


def test_buffers_are_no_parameters() -> None:
    """What a buffer is for: kept and saved with the model, invisible to optimizers."""
    bn = tg.nn.BatchNorm1d(3)
    assert [n for n, _ in bn.named_parameters()] == ["weight", "bias"]
    assert [n for n, _ in bn.named_buffers()] == ["running_mean", "running_var", "num_batches_tracked"]
    assert list(bn.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    assert not bn.running_mean.requires_grad


# ------------------------------------------------------------------------------------------------ batch norm
def batch_norm_module(lib: ModuleType, shape: tuple, **options: Any) -> list[str]:
    """Three steps (train, eval, train): outputs' gradients, the buffers and parameter gradients after each."""
    layer = {2: lib.nn.BatchNorm1d, 3: lib.nn.BatchNorm1d, 4: lib.nn.BatchNorm2d, 5: lib.nn.BatchNorm3d}[len(shape)]
    m = layer(shape[1], **options)
    lines = [repr(m)]
    for step, mode in enumerate((True, False, True)):
        m.train(mode)
        x = _t(lib, shape, step, requires_grad=True)
        y = m(x)
        lines.append(type(y.grad_fn).__name__)
        (y * _t(lib, shape, 10 + step)).sum().backward()
        lines += [repr(x.grad), repr(list(m.buffers())), repr([p.grad for p in m.parameters()])]
        m.zero_grad()
    return lines


@pytest.mark.parametrize(("shape", "options"), [
    ((4, 3), {}), ((4, 3, 2), {"momentum": None}), ((3, 2, 2, 3), {"affine": False}),
    ((4, 3), {"track_running_stats": False}), ((2, 2, 2, 1, 2), {"eps": 1e-3, "momentum": 0.5, "bias": False}),
])
def test_batch_norm_module_as_pytorch(shape: tuple, options: dict) -> None:
    _needs_torch()
    as_pytorch(lambda lib: batch_norm_module(lib, shape, **options))


def batch_norm_node(lib: ModuleType) -> list[str]:
    m = lib.nn.BatchNorm1d(3).double()
    x = _t(lib, (4, 3), dtype=lib.float64, requires_grad=True)
    node = m(x).grad_fn
    lines = [repr(node), repr(node.name()), repr(node._saved_running_mean is m.running_mean),
             repr(node._saved_training), repr(node._saved_eps), repr(node._saved_result1), repr(node._saved_result2),
             repr([type(f).__name__ for f, _ in node.next_functions]), repr(m.running_mean.dtype),
             repr(m.num_batches_tracked)]
    node = m.eval()(x).grad_fn
    return [*lines, repr(node._saved_result1), repr(node._saved_training)]


def test_batch_norm_node_as_pytorch() -> None:
    """NativeBatchNormBackward0, with what PyTorch's node keeps; the buffers moved to float64 by double()."""
    _needs_torch()
    as_pytorch(batch_norm_node)


@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (2, 3, 2, 3)])
def test_batch_norm_gradients_match_pytorch(shape: tuple) -> None:
    """F.batch_norm in training and eval: values, the running statistics and every gradient, in float32."""
    torch = _needs_torch()
    results = []
    for lib in (tg, torch):
        outs = []
        for training in (True, False):
            x, up = _t(lib, shape, 1, requires_grad=True), _t(lib, shape, 2)
            w, b = _t(lib, shape[1:2], 3, requires_grad=True), _t(lib, shape[1:2], 4, requires_grad=True)
            rm, rv = _t(lib, shape[1:2], 5), _t(lib, shape[1:2], 6).abs() + 0.5
            y = lib.nn.functional.batch_norm(x, rm, rv, w, b, training, 0.3, 1e-4)
            grads = lib.autograd.grad(y, (x, w, b), up)
            outs += [y.detach().numpy(), rm.numpy(), rv.numpy(), *(g.numpy() for g in grads)]
        results.append(outs)
    for ours, theirs in zip(*results):
        assert np.allclose(ours, theirs, rtol=1e-5, atol=1e-5), np.abs(ours - theirs).max()


def _f64(shape: tuple, seed: int) -> tg.Tensor:
    return _t(tg, shape, seed, dtype=tg.float64, requires_grad=True)


GRADCHECKS: dict[str, Any] = {
    "batch_norm training": (lambda x, w, b: F.batch_norm(x, None, None, w, b, True), [(4, 3, 2), (3,), (3,)]),
    "batch_norm eval": (lambda x, w, b: F.batch_norm(x, tg.zeros(3, dtype=tg.float64) + 0.3,
                                                     tg.ones(3, dtype=tg.float64) * 2, w, b, False),
                        [(4, 3), (3,), (3,)]),
    "batch_norm no weight": (lambda x: F.batch_norm(x, None, None, training=True, eps=0.1), [(2, 2, 3, 2)]),
    "instance_norm": (lambda x, w, b: F.instance_norm(x, weight=w, bias=b), [(2, 3, 4), (3,), (3,)]),
    "instance_norm 2d": (lambda x: F.instance_norm(x), [(2, 2, 2, 3)]),
}


@pytest.mark.parametrize("name", GRADCHECKS)
def test_derivatives_match_finite_differences(name: str) -> None:
    """gradcheck and gradgradcheck in float64: backward's formula, and its own derivative (create_graph)."""
    fn, shapes = GRADCHECKS[name]
    inputs = [_f64(shape, i) for i, shape in enumerate(shapes)]
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_batch_norm_normalises_each_channel_and_tracks_the_batches() -> None:
    """Training: each channel leaves with mean 0 and variance 1; the running statistics move by momentum towards
    the batch's (its unbiased variance). Eval: the running statistics are used, one sample gives its own answer."""
    a = np.random.default_rng(0).normal(3, 2, (8, 2, 5)).astype(np.float32)
    m = tg.nn.BatchNorm1d(2, momentum=0.25)
    out = m(tg.tensor(a)).detach().numpy()
    assert np.allclose(out.mean((0, 2)), 0, atol=1e-5) and np.allclose(out.var((0, 2)), 1, atol=1e-3)
    assert np.allclose(m.running_mean.numpy(), 0.25 * a.mean((0, 2)), atol=1e-6)
    assert np.allclose(m.running_var.numpy(), 0.75 + 0.25 * a.transpose(1, 0, 2).reshape(2, -1).var(1, ddof=1))
    assert m.num_batches_tracked.item() == 1
    m.eval()
    one = m(tg.tensor(a[:1])).detach().numpy()
    expected = (a[:1] - m.running_mean.numpy()[:, None]) / np.sqrt(m.running_var.numpy()[:, None] + 1e-5)
    assert np.allclose(one, expected, atol=1e-6)
    assert m.num_batches_tracked.item() == 1  # (eval leaves the buffers alone)


# ------------------------------------------------------------------------------------------------ instance norm
def instance_norm_module(lib: ModuleType, layer: str, shape: tuple, **options: Any) -> list[str]:
    m = getattr(lib.nn, layer)(3, **options)
    lines = [repr(m), repr(list(m.state_dict()))]
    for step, mode in enumerate((True, False)):
        m.train(mode)
        x = _t(lib, shape, step, requires_grad=True)
        y = m(x)
        lines.append(f"{type(y.grad_fn).__name__} <- {type(y.grad_fn.next_functions[0][0]).__name__}")
        (y * _t(lib, shape, 10 + step)).sum().backward()
        lines += [repr(x.grad), repr(list(m.buffers())), repr([p.grad for p in m.parameters()])]
        m.zero_grad()
    return lines


@pytest.mark.parametrize(("layer", "shape", "options"), [
    ("InstanceNorm2d", (2, 3, 2, 2), {}), ("InstanceNorm2d", (3, 2, 3), {"affine": True}),
    ("InstanceNorm1d", (2, 3, 4), {"track_running_stats": True, "momentum": 0.5}),
    ("InstanceNorm3d", (1, 3, 2, 1, 2), {"affine": True, "bias": False}),
])
def test_instance_norm_module_as_pytorch(layer: str, shape: tuple, options: dict) -> None:
    _needs_torch()
    as_pytorch(lambda lib: instance_norm_module(lib, layer, shape, **options))


def test_instance_norm_warns_as_pytorch_when_num_features_is_unused() -> None:
    _needs_torch()
    as_pytorch(lambda lib: lib.nn.InstanceNorm2d(3)(lib.ones(2, 4, 2, 2) * lib.arange(2.0)).shape,
               (None, "tinygrad_edu.Size([2, 4, 2, 2])",
                ["UserWarning: input's size at dim=1 does not match num_features. You can silence this warning by not "
                 "passing in num_features, which is not used because affine=False"]))


def test_in_place_relu_after_instance_norm() -> None:
    """nn.ReLU(inplace=True) after InstanceNorm2d changes a view (instance norm's output is one): the gradient is
    still right (PyTorch's own autograd tests use this pair)."""
    net = tg.nn.Sequential(tg.nn.InstanceNorm2d(2), tg.nn.ReLU(True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = _f64((2, 2, 3, 2), 0)
        assert gradcheck(net, (x,))


# ------------------------------------------------------------------------------------------------ misuse
MISUSE = [
    (lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3), lib.zeros(3), lib.ones(3), weight=lib.ones(4)),
     RuntimeError, "weight should contain 3 elements not 4"),
    (lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3), lib.zeros(3), lib.ones(4)),
     RuntimeError, "running_var should contain 3 elements not 4"),
    (lambda lib: lib.nn.BatchNorm1d(3)(lib.ones(2, 4)), RuntimeError, "running_mean should contain 4 elements not 3"),
    (lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3, dtype=lib.float64), lib.zeros(3), lib.ones(3)),
     RuntimeError, "mixed dtype (CPU): all inputs must share same datatype."),
    (lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3), lib.zeros(3), lib.ones(3),
                                              weight=lib.ones(3, dtype=lib.float64)),
     RuntimeError, "mixed dtype (CPU): expect parameter to have scalar type of Float"),
    (lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3).long(), lib.zeros(3), lib.ones(3)),
     NotImplementedError, "\"batch_norm\" not implemented for 'Long'"),
    (lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3), lib.zeros(3), None, training=True),
     ValueError, "running_mean and running_var must either both be None or neither be None"),
    (lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3), None, lib.ones(3)),
     RuntimeError, "running_mean must be defined in evaluation mode"),
    (lambda lib: lib.nn.BatchNorm2d(3)(lib.ones(2, 3)), ValueError, "expected 4D input (got 2D input)"),
    (lambda lib: lib.nn.BatchNorm1d(3)(lib.ones(2, 3, 1, 1)), ValueError, "expected 2D or 3D input (got 4D input)"),
    (lambda lib: lib.nn.BatchNorm1d(3)(lib.ones(1, 3)), ValueError,
     "Expected more than 1 value per channel when training, got input size tinygrad_edu.Size([1, 3])"),
    (lambda lib: lib.nn.functional.instance_norm(lib.ones(2, 3)), ValueError,
     "Expected more than 1 spatial element when training, got input size tinygrad_edu.Size([2, 3])"),
    (lambda lib: lib.nn.InstanceNorm2d(3, affine=True)(lib.ones(2, 4, 2, 2)), ValueError,
     "expected input's size at dim=1 to match num_features (3), but got: 4."),
    (lambda lib: lib.nn.InstanceNorm2d(3)(lib.ones(2, 3)), ValueError, "expected 3D or 4D input (got 2D input)"),
]


@pytest.mark.parametrize("case", range(len(MISUSE)))
def test_misuse_as_pytorch(case: int) -> None:
    raises(*MISUSE[case])


# ------------------------------------------------------------------------------------------------ in place on a view
def double_backward_through_in_place_relu(lib: ModuleType) -> list[str]:
    """PyTorch's test: instance norm's output is a view, ReLU(inplace=True) changes it; the gradient, differentiated
    again, must go through the base's new history (the saved result of relu_ carries the view's history)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (num_features 2, one channel: PyTorch warns it is unused)
        net = lib.nn.Sequential(lib.nn.InstanceNorm2d(2), lib.nn.ReLU(True))
        x = lib.tensor([[[[1.0, 3.0, 2.0]]]], requires_grad=True)
        (g,) = lib.autograd.grad(net(x).pow(2), [x], grad_outputs=x.new_ones(x.shape), create_graph=True)
    lines = [repr(g), repr(lib.autograd.grad(g.sum(), [x]))]
    y = lib.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    z = (y * 3).view(3, 1)
    out = lib.nn.functional.threshold(z, 1.0, -2.0, True)
    (gz,) = lib.autograd.grad(out.pow(3).sum(), y, create_graph=True)
    return [*lines, repr(out), repr(gz), repr(lib.autograd.grad(gz.sum(), y)), repr(lib.nn.Threshold(0.1, 20, True))]


def test_double_backward_through_an_in_place_change_of_a_view_as_pytorch() -> None:
    _needs_torch()
    as_pytorch(double_backward_through_in_place_relu)


def threshold(lib: ModuleType) -> list[str]:
    x = lib.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    y = lib.nn.functional.threshold(x, 0.6, -3.0)
    z = x * 1
    w = lib.nn.functional.threshold_(z, 0.6, -3.0)
    (g,) = lib.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    return [repr(y), repr(y.grad_fn._saved_threshold), repr(w), repr(w is z), repr(g), repr(g.grad_fn),
            repr(lib.nn.Threshold(0.1, 20)(x)), repr(lib.nn.functional.threshold(lib.tensor([1, 2, 3]), 1, 0))]


def test_threshold_as_pytorch() -> None:
    _needs_torch()
    as_pytorch(threshold)


def test_threshold_derivatives_match_finite_differences() -> None:
    x = _f64((3, 4), 7)
    assert gradcheck(lambda t: F.threshold(t * 1, 0.1, -2.0, True), (x,))
    assert gradgradcheck(lambda t: F.threshold(t, 0.1, -2.0).pow(3), (x,))
