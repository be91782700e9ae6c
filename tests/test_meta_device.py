"""The meta device: tensors with a shape, a dtype and autograd's fields but no numbers, as PyTorch's.

Each case is written once as a function of the library (``lib``: tinygrad_edu or torch) with its expected outcome
spelled out; ``tests/_oracle.py`` checks tinygrad_edu against it, and PyTorch too when it is installed.
"""

from __future__ import annotations

import copy
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import Text, as_pytorch, oracle, raises

import tinygrad_edu as tg


def _lines(*values: Any) -> Text:
    return Text("\n".join(map(repr, values)))


def test_the_ways_to_make_a_meta_tensor_print_as_pytorchs() -> None:
    def made(lib: ModuleType) -> Text:
        x = lib.ones(3, 2, requires_grad=True)
        m = lib.empty(3, 2, device="meta")
        return _lines(m, lib.empty(3, 2, device="meta", dtype=lib.int64), lib.zeros(3, requires_grad=True,
                                                                                    device=lib.device("meta")),
                      lib.tensor([1.0, 2.0], device="meta"), lib.arange(5, device="meta"), lib.empty((), device="meta"),
                      lib.empty(0, device="meta"), lib.randn(2, device="meta"), lib.zeros_like(m), m.new_zeros(2),
                      x.to("meta"), m.to(lib.float64), lib.ones(2).to(m), lib.nn.Parameter(lib.empty(3, device="meta")))
    as_pytorch(made, (None, """tensor(..., device='meta', size=(3, 2))
tensor(..., device='meta', size=(3, 2), dtype=tinygrad_edu.int64)
tensor(..., device='meta', size=(3,), requires_grad=True)
tensor(..., device='meta', size=(2,))
tensor(..., device='meta', size=(5,), dtype=tinygrad_edu.int64)
tensor(..., device='meta', size=())
tensor(..., device='meta', size=(0,))
tensor(..., device='meta', size=(2,))
tensor(..., device='meta', size=(3, 2))
tensor(..., device='meta', size=(2,))
tensor(..., device='meta', size=(3, 2), grad_fn=<ToCopyBackward0>)
tensor(..., device='meta', size=(3, 2), dtype=tinygrad_edu.float64)
tensor(..., device='meta', size=(2,))
Parameter containing:
tensor(..., device='meta', size=(3,), requires_grad=True)""", []))


def test_the_default_device_makes_meta_tensors_and_layers() -> None:
    def made(lib: ModuleType) -> Text:
        with lib.device("meta"):
            a, layer = lib.tensor([1.0, 2.0]), lib.nn.Linear(2, 3)
        b = lib.ones(1)
        lib.set_default_device("meta")
        try:
            c, default = lib.ones(2), lib.get_default_device()
        finally:
            lib.set_default_device(None)  # (None, not "cpu": PyTorch then drops its device mode)
        return _lines(a, layer.weight, layer.bias.is_meta, b, c, default, lib.get_default_device())
    as_pytorch(made, (None, """tensor(..., device='meta', size=(2,))
Parameter containing:
tensor(..., device='meta', size=(3, 2), requires_grad=True)
True
tensor([1.])
tensor(..., device='meta', size=(2,))
device(type='meta')
device(type='cpu')""", []))


def test_device_is_meta_and_type() -> None:
    def meta(lib: ModuleType) -> Any:
        return lib.empty(2, device="meta")
    as_pytorch(lambda lib: (meta(lib).device, meta(lib).is_meta, lib.ones(2).is_meta, meta(lib).is_cpu,
                            lib.ones(2).is_cpu, meta(lib).type(), meta(lib).device == lib.device("meta")),
               (None, "(device(type='meta'), True, False, False, True, 'tinygrad_edu.meta.FloatTensor', True)", []))


def test_ops_on_meta_tensors_give_meta_tensors_of_the_right_shape_and_dtype() -> None:
    def ops(lib: ModuleType) -> Text:
        F = lib.nn.functional
        x, w, b = (lib.empty(4, 2, device="meta"), lib.empty(3, 2, device="meta", requires_grad=True),
                   lib.empty(3, device="meta"))
        h = F.linear(x, w, b)
        return _lines(h, F.relu(h), F.softmax(h, 1), lib.addmm(b, x, w.t()), x * 2, x.sum(), x.sum(1), h.sum(1),
                      x.mean(), x.argmax(1), x > 0, x.double(), lib.cat([x, x], 1), x.view(8), x[0], x.T @ x,
                      lib.tanh(x).exp(), x.max())
    as_pytorch(ops, (None, """tensor(..., device='meta', size=(4, 3), grad_fn=<AddmmBackward0>)
tensor(..., device='meta', size=(4, 3), grad_fn=<ReluBackward0>)
tensor(..., device='meta', size=(4, 3), grad_fn=<SoftmaxBackward0>)
tensor(..., device='meta', size=(4, 3), grad_fn=<AddmmBackward0>)
tensor(..., device='meta', size=(4, 2))
tensor(..., device='meta', size=())
tensor(..., device='meta', size=(4,))
tensor(..., device='meta', size=(4,), grad_fn=<SumBackward1>)
tensor(..., device='meta', size=())
tensor(..., device='meta', size=(4,), dtype=tinygrad_edu.int64)
tensor(..., device='meta', size=(4, 2), dtype=tinygrad_edu.bool)
tensor(..., device='meta', size=(4, 2), dtype=tinygrad_edu.float64)
tensor(..., device='meta', size=(4, 4))
tensor(..., device='meta', size=(8,))
tensor(..., device='meta', size=(2,))
tensor(..., device='meta', size=(2, 2))
tensor(..., device='meta', size=(4, 2))
tensor(..., device='meta', size=())""", []))


def test_backward_gives_meta_gradients() -> None:
    def grads(lib: ModuleType) -> Text:
        x, w = lib.empty(4, 2, device="meta"), lib.zeros(3, 2, device="meta", requires_grad=True)
        y = x @ w.T
        y.backward(lib.ones(4, 3, device="meta"))
        first = w.grad
        w.grad = None
        loss = w.sum()
        loss.backward()
        return _lines(y, first, loss, w.grad)
    as_pytorch(grads, (None, """tensor(..., device='meta', size=(4, 3), grad_fn=<MmBackward0>)
tensor(..., device='meta', size=(3, 2))
tensor(..., device='meta', size=(), grad_fn=<SumBackward0>)
tensor(..., device='meta', size=(3, 2))""", []))


def test_a_chain_of_ops_stays_meta_to_the_loss_and_back() -> None:
    """A training step's shape on a meta model: layer, activation, a loss reduced to a number, its backward. Every
    result, the 0-d ones of a chain included, stays meta, and so does every gradient."""
    def step(lib: ModuleType) -> Text:
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(2, 4), lib.nn.ReLU(), lib.nn.Linear(4, 3)).to("meta")
        x = lib.randn(5, 2, device="meta")
        out = model(x)
        loss = lib.nn.functional.cross_entropy(out, lib.zeros(5, dtype=lib.int64, device="meta"))
        loss.backward()
        h = model[0](x)
        return _lines(out, loss, (h * 2).sum(), (2 - h).relu().mean(), model[0].weight.grad, model[2].bias.grad)
    as_pytorch(step, (None, """tensor(..., device='meta', size=(5, 3), grad_fn=<AddmmBackward0>)
tensor(..., device='meta', size=(), grad_fn=<NllLossBackward0>)
tensor(..., device='meta', size=(), grad_fn=<SumBackward0>)
tensor(..., device='meta', size=(), grad_fn=<MeanBackward0>)
tensor(..., device='meta', size=(4, 2))
tensor(..., device='meta', size=(3,))""", []))


def test_building_a_meta_model_draws_no_random_numbers() -> None:
    """A meta parameter has no numbers to fill: its initialisation draws nothing, so what is drawn next is what
    would have been drawn without it, as in PyTorch (a layer made on the CPU and then moved drew its weights)."""
    def after(lib: ModuleType) -> list:
        lib.manual_seed(0)
        with lib.device("meta"):
            lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 2))
        first = lib.rand(2).tolist()
        lib.manual_seed(0)
        lib.nn.Linear(3, 4).to("meta")
        return [first, lib.rand(1).tolist()]
    as_pytorch(after, (None, "[[0.49625658988952637, 0.7682217955589294], [0.6976675987243652]]", []))


# -- what has no numbers to give ---------------------------------------------------------------------------------
ITEM = "Tensor.item() cannot be called on meta tensors"
NO_DATA = "Cannot copy out of meta tensor; no data!"


@pytest.mark.parametrize(("read", "exc", "message"), [
    (lambda m: m.sum().item(), RuntimeError, ITEM),
    (lambda m: float(m.sum()), RuntimeError, ITEM),
    (lambda m: int(m[0, 0]), RuntimeError, ITEM),
    (lambda m: bool(m.sum()), RuntimeError, ITEM),
    (lambda m: m.item(), RuntimeError, "a Tensor with 6 elements cannot be converted to Scalar"),
    (lambda m: m.numpy(), TypeError, "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the "
                                     "tensor to host memory first."),
    (lambda m: np.asarray(m), TypeError, "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy "
                                         "the tensor to host memory first."),
    (lambda m: m.tolist(), NotImplementedError, NO_DATA),
    (lambda m: m.cpu(), NotImplementedError, NO_DATA),
    (lambda m: m.to("cpu"), NotImplementedError, NO_DATA),
    (lambda m: m.to(m.new_ones(1, device="cpu")), NotImplementedError, NO_DATA),
])
def test_what_reads_the_numbers_is_refused(read: Any, exc: type[Exception], message: str) -> None:
    raises(lambda lib: read(lib.empty(3, 2, device="meta")), exc, message)


def test_format_of_a_meta_scalar() -> None:
    as_pytorch(lambda lib: f"{lib.empty(3, device='meta').sum()}",
               (None, "\"tensor(..., device='meta', size=())\"", []))
    raises(lambda lib: format(lib.empty(3, device="meta").sum(), ".3f"), TypeError,
           "unsupported format string passed to Tensor.__format__")


# -- modules -----------------------------------------------------------------------------------------------------
def test_a_module_moved_to_meta_and_back() -> None:
    def moved(lib: ModuleType) -> Text:
        net = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3))
        weight = net[0].weight
        same = net.to("meta") is net and net[0].weight is not weight  # (new Parameter objects, as PyTorch's)
        return _lines(same, net[0].weight, net[1].running_mean, next(iter(net.state_dict().values())))
    as_pytorch(moved, (None, """True
Parameter containing:
tensor(..., device='meta', size=(3, 2), requires_grad=True)
tensor(..., device='meta', size=(3,))
tensor(..., device='meta', size=(3, 2))""", []))
    raises(lambda lib: lib.nn.Linear(2, 3).to("meta").to("cpu"), NotImplementedError,
           NO_DATA + " Please use tinygrad_edu.nn.Module.to_empty() instead of tinygrad_edu.nn.Module.to() when "
                     "moving module from meta to a different device.")
    raises(lambda lib: lib.nn.Linear(2, 3).to("meta").cpu(), NotImplementedError, NO_DATA)


def test_to_empty_gives_cpu_storage_of_the_same_shapes() -> None:
    # (PyTorch's storage is uninitialised, so only shapes, dtypes and devices are compared; here it is zeros)
    def emptied(lib: ModuleType) -> Text:
        net = lib.nn.Linear(2, 3).to("meta").to_empty(device="cpu")
        return _lines(*[(n, tuple(p.shape), p.device, p.dtype, p.requires_grad) for n, p in net.named_parameters()])
    as_pytorch(emptied, (None, """('weight', (3, 2), device(type='cpu'), tinygrad_edu.float32, True)
('bias', (3,), device(type='cpu'), tinygrad_edu.float32, True)""", []))
    assert not tg.nn.Linear(2, 3).to("meta").to_empty(device="cpu").weight.detach().numpy().any()


def test_load_state_dict_with_assign_fills_a_meta_model() -> None:
    def loaded(lib: ModuleType) -> Text:
        lib.manual_seed(0)
        sd = lib.nn.Linear(2, 3).state_dict()
        with lib.device("meta"):
            model = lib.nn.Linear(2, 3)
        result = model.load_state_dict(sd, assign=True)
        return _lines(result, model.weight, model.bias.requires_grad, model(lib.ones(1, 2)).device,
                      lib.equal(model.weight, sd["weight"]))
    out = as_pytorch(loaded)
    assert out[1].startswith("<All keys matched successfully>\nParameter containing:\ntensor([[")
    assert out[1].endswith("requires_grad=True)\nTrue\ndevice(type='cpu')\nTrue")


def test_load_state_dict_without_assign_warns_and_stays_meta() -> None:
    def loaded(lib: ModuleType) -> Text:
        sd = lib.nn.Linear(2, 3).state_dict()
        model = lib.nn.Linear(2, 3).to("meta")
        return _lines(model.load_state_dict(sd), model.bias)
    warning = ("UserWarning: for {}: copying from a non-meta parameter in the checkpoint to a meta parameter in the "
               "current model, which is a no-op. (Did you mean to pass `assign=True` to assign items in the state "
               "dictionary to their corresponding key in the module instead of copying them in place?)")
    as_pytorch(loaded, (None, "<All keys matched successfully>\nParameter containing:\n"
                              "tensor(..., device='meta', size=(3,), requires_grad=True)",
                        [warning.format("weight"), warning.format("bias")]))


def test_the_model_ensembling_tutorial_on_a_meta_base_model() -> None:
    """PyTorch's model-ensembling tutorial: the models' parameters stacked, one meta copy of the model as the
    structure, ``functional_call`` under ``vmap``: the same outputs as running the models one by one."""
    def ensemble(lib: ModuleType) -> Any:
        lib.manual_seed(0)

        class MLP(lib.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.fc1, self.fc2 = lib.nn.Linear(4, 8), lib.nn.Linear(8, 3)

            def forward(self, x: Any) -> Any:
                return self.fc2(lib.nn.functional.relu(self.fc1(x)))

        models = [MLP() for _ in range(3)]
        x = lib.randn(5, 4)
        params, buffers = lib.func.stack_module_state(models)
        base = copy.deepcopy(models[0]).to("meta")

        def fmodel(params: Any, buffers: Any, x: Any) -> Any:
            return lib.func.functional_call(base, (params, buffers), (x,))

        batched = lib.vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
        looped = lib.stack([m(x) for m in models])
        return batched, looped, base.fc1.weight.is_meta

    batched, looped, meta = ensemble(tg)
    assert meta and batched.shape == (3, 5, 3) and not batched.is_meta
    np.testing.assert_allclose(batched.detach().numpy(), looped.detach().numpy(), rtol=1e-6, atol=1e-6)
    torch = oracle()
    if torch is not None:
        theirs = ensemble(torch)[0]
        np.testing.assert_allclose(batched.detach().numpy(), theirs.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_other_devices_stay_refused() -> None:
    with pytest.raises(RuntimeError, match="there is no 'mps' device"):
        tg.zeros(2, device="mps")
    with pytest.raises(RuntimeError, match="cannot move a module to 'mps'"):
        tg.nn.Linear(2, 3).to("mps")
    assert tg.get_default_device() == tg.device("cpu") and not tg.ones(2).is_meta
