"""What tutorials reach for beyond the lessons (d2l, PyTorch's own tutorials): lazy layers, ``out=``, numpy's
argument names, the random-number spellings, legacy constructors and ``Variable``, bitwise ops, ``isin``,
``scatter_reduce``, ``save_on_cpu``. Each as PyTorch does it (random values are compared by shape and dtype)."""

from __future__ import annotations

import re
import warnings
from types import ModuleType
from typing import Any

import pytest
from _oracle import as_pytorch, oracle, raises


def lazy_linear(lib: ModuleType) -> Any:
    net = lib.nn.Sequential(lib.nn.LazyLinear(8), lib.nn.ReLU(), lib.nn.LazyLinear(2))
    before = repr(net)
    out = net(lib.ones(4, 5))
    out.sum().backward()
    return before, repr(net), out.shape, net[0].weight.shape, net[2].weight.grad.shape, type(net[0]).__name__


def out_argument(lib: ModuleType) -> Any:
    o, e, m = lib.empty(2), lib.empty(0), lib.zeros(2)
    r = lib.add(lib.ones(2), lib.ones(2), out=o)
    lib.mul(lib.ones(2), 3, out=e)
    lib.matmul(lib.ones(2, 2), lib.tensor([1.0, 2.0]), out=m)
    c = lib.cat([lib.ones(1), lib.zeros(1)], out=lib.empty(2))
    return r is o, o, e, m, c, o._version


def numpy_names(lib: ModuleType) -> Any:
    a = lib.arange(6.0).reshape(2, 3)
    return (a.sum(axis=0), a.sum(axis=1, keepdims=True), lib.sum(a, axis=0), a.mean(axis=1),
            a.mean(axis=0, keepdims=True))


def random_spellings(lib: ModuleType) -> Any:
    lib.manual_seed(0)
    x = lib.empty(3)
    return (lib.randn(size=(2, 3)).shape, lib.rand(size=(4,)).shape, lib.randint(10, (2, 3)).shape,
            lib.randint(10, (2, 3)).dtype, lib.randint(3, 10, size=(4,)).dtype, x.uniform_(-1, 1) is x,
            bool((x >= -1).all() and (x < 1).all()), lib.empty(2).normal_(0, 1).shape,
            lib.normal(0.0, 1.0, size=(2, 3)).shape, lib.normal(lib.zeros(3), lib.ones(3)).shape,
            lib.normal(lib.zeros(3), 2.0).shape, (lib.inf, lib.nan == lib.nan))


def random_in_place_graph(lib: ModuleType) -> Any:
    y = lib.ones(3, requires_grad=True) * 1
    y.uniform_()
    first = type(y.grad_fn).__name__
    y.normal_()
    return first, type(y.grad_fn).__name__


def normal_gradient(lib: ModuleType) -> Any:
    mean, std = lib.zeros(3, requires_grad=True), lib.ones(3, requires_grad=True)
    y = lib.normal(mean, 1.0) + lib.normal(0.0, std) + lib.normal(mean, std)
    y.sum().backward()
    return mean.grad, std.grad, type(y.grad_fn.next_functions[1][0]).__name__


def legacy_constructors(lib: ModuleType) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return (lib.FloatTensor([1, 2]), lib.LongTensor([1.7, 2]), lib.BoolTensor([1, 0]), lib.IntTensor([3]),
                lib.FloatTensor(2, 3).shape, lib.DoubleTensor(2).dtype, lib.FloatTensor(), lib.ByteTensor([2]),
                isinstance(lib.ones(1), lib.FloatTensor), isinstance(lib.ones(1, dtype=lib.int64), lib.FloatTensor),
                isinstance(lib.tensor([1]), lib.LongTensor))


def variable(lib: ModuleType) -> Any:
    t = lib.ones(2, requires_grad=True)
    v = lib.autograd.Variable(t * 2, requires_grad=True)
    (v * v).sum().backward()
    return (v, v.is_leaf, v.grad, lib.autograd.Variable(lib.ones(2)), isinstance(t, lib.autograd.Variable),
            type(v).__name__, lib.autograd.Variable())


def variable_volatile(lib: ModuleType) -> Any:
    return lib.autograd.Variable(lib.ones(2), volatile=True)


def bitwise_and_isin(lib: ModuleType) -> Any:
    a, b = lib.tensor([1, 2, 3]), lib.tensor([3, 2, 1])
    return (lib.bitwise_xor(a, b), a ^ b, a.bitwise_xor(b), lib.bitwise_and(a, b), lib.bitwise_or(a, b),
            lib.tensor([True, False]) ^ lib.tensor([True, True]),
            lib.isin(lib.tensor([1, 2, 3, 4]), lib.tensor([2, 4])), lib.isin(lib.tensor([1, 2]), 2),
            lib.isin(lib.tensor([1, 2]), lib.tensor([2]), invert=True))


@pytest.mark.parametrize("reduce", ["sum", "mean", "amax", "amin", "prod"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_values_and_gradients(reduce: str, include_self: bool) -> None:
    def program(lib: ModuleType) -> Any:
        x = lib.tensor([[1.0, 5.0, 2.0], [3.0, 3.0, 0.5]], requires_grad=True)
        src = lib.tensor([[4.0, 5.0, 1.0, 2.0], [3.0, 0.5, 3.0, 2.0]], requires_grad=True)
        index = lib.tensor([[0, 1, 0, 1], [2, 2, 0, 2]])
        y = x.scatter_reduce(1, index, src, reduce, include_self=include_self)
        (y * lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
        return y.detach(), type(y.grad_fn).__name__, x.grad, src.grad

    as_pytorch(program)


def save_on_cpu(lib: ModuleType) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with lib.autograd.graph.save_on_cpu(pin_memory=True):
        y = (x * x).exp().sum()
    (g,) = lib.autograd.grad(y, x, create_graph=True)
    g.sum().backward()
    return [round(v, 3) for v in x.grad.tolist()]


def numpy_names_of_max_and_argmax(lib: ModuleType) -> Any:
    x = lib.tensor([[1.0, 5.0], [3.0, 2.0]])
    return (x.argmax(axis=1), lib.argmax(input=x, axis=0, keepdims=True), x.argmin(axis=0), x.max(axis=1),
            lib.max(x, axis=1, keepdims=True).values, x.min(axis=0).indices,
            lib.max(input=x, other=lib.tensor(2.0)), lib.min(input=x, other=lib.tensor([2.0, 2.0])))


def legacy_type_argument(lib: ModuleType) -> Any:
    x = lib.tensor([1.5, 2.0])
    return x.type(lib.LongTensor), x.type(lib.DoubleTensor), lib.ones(2, dtype=lib.int64).type(lib.FloatTensor)


def default_device_and_tensor_type(lib: ModuleType) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (PyTorch warns once a process that set_default_tensor_type is deprecated)
        lib.set_default_device("cpu")
        try:
            lib.set_default_tensor_type("torch.FloatTensor")
            lib.set_default_tensor_type(lib.FloatTensor)
            lib.set_default_dtype(lib.float32)
            generator = re.sub(r"0x[0-9a-f]+", "0x...", repr(lib.manual_seed(0)))
            return (lib.get_default_device(), lib.ones(2).dtype, lib.tensor([1.5]).dtype, lib.get_default_dtype(),
                    generator)
        finally:
            lib.set_default_device(None)  # (PyTorch's default device is a mode that would stay for the next tests)


def replacing_layers(lib: ModuleType) -> Any:
    nn = lib.nn
    seq = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Tanh())
    seq[0] = nn.Linear(1, 3)
    seq[-1] = nn.Sigmoid()
    before = repr(seq)
    del seq[1]
    layers = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])
    layers[1] = nn.Identity()
    del layers[:1]
    model = nn.Module()
    model.fc, model.head = nn.Linear(2, 2), nn.ReLU()
    model.fc = nn.Linear(2, 5)  # a new head for fine-tuning stays where the old one was
    model.add_module("head", nn.Tanh())
    return before, seq, layers, model, [n for n, _ in model.named_parameters()]


PROGRAMS = {f.__name__: f for f in (lazy_linear, out_argument, numpy_names, random_spellings, random_in_place_graph,
                                    normal_gradient, legacy_constructors, variable, variable_volatile,
                                    bitwise_and_isin, save_on_cpu, numpy_names_of_max_and_argmax,
                                    legacy_type_argument, default_device_and_tensor_type, replacing_layers)}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_as_pytorch(name: str) -> None:
    as_pytorch(PROGRAMS[name])


def test_out_refused_when_recording() -> None:
    raises(lambda lib: lib.add(lib.ones(2, requires_grad=True), 1, out=lib.empty(2)), RuntimeError,
           "add(): functions with out=... arguments don't support automatic differentiation, but one of the "
           "arguments requires grad.")
    raises(lambda lib: lib.add(lib.ones(2), 1, out=lib.zeros(2, dtype=lib.int64)), RuntimeError,
           "result type Float can't be cast to the desired output type Long")
    raises(lambda lib: lib.autograd.Variable([1, 2]), TypeError, "Variable data has to be a tensor, but got list")


def test_a_resized_out_warns_as_pytorch() -> None:
    def program(lib: ModuleType) -> Any:
        o = lib.empty(3)
        return lib.add(lib.ones(2), 1, out=o) is o, o.shape

    as_pytorch(program)


def test_replacing_layers_refuses_as_pytorch() -> None:
    def container(lib: ModuleType) -> Any:
        return lib.nn.Sequential(lib.nn.ReLU())

    raises(lambda lib: container(lib).__setitem__(5, lib.nn.ReLU()), IndexError, "index 5 is out of range")
    raises(lambda lib: container(lib).__delitem__(-2), IndexError, "index -2 is out of range")
    raises(lambda lib: container(lib).__setitem__(0, 3), TypeError,
           "cannot assign 'int' as child module '0' (tinygrad_edu.nn.Module or None expected)")


def test_set_default_tensor_type_as_pytorch_and_its_limit() -> None:
    def wrong_kind(lib: ModuleType) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return lib.set_default_tensor_type("torch.IntTensor")

    raises(wrong_kind, TypeError, "only floating-point types are supported as the default type")
    import tinygrad_edu as tg

    with pytest.warns(UserWarning, match=r"set_default_tensor_type\(\) is deprecated as of PyTorch 2.1"):
        tg.set_default_tensor_type("torch.FloatTensor")
    with pytest.warns(UserWarning), pytest.raises(RuntimeError, match="default float type is float32 and cannot be "
                                                                      "changed to tinygrad_edu.float64: give dtype="):
        tg.set_default_tensor_type(tg.DoubleTensor)
    with pytest.raises(RuntimeError, match="there is no 'cuda' device"):
        tg.set_default_device("cuda")
    with pytest.raises(RuntimeError, match="cannot be changed to tinygrad_edu.float64: give dtype="):
        tg.set_default_dtype(tg.float64)
    raises(lambda lib: lib.set_default_dtype(lib.int64), TypeError,
           "only floating-point types are supported as the default type")


@pytest.mark.parametrize("args", [(-8.0, 8.0, 0.1), (1.5, 100.0, 0.7), (-3.14, 3.14, 0.01), (0, 50, 0.37),
                                  (1, -2, -0.3), (0.5, 1000.3, 0.77), (0, 3000, 0.25)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_arange_to_the_last_bit(args: tuple, dtype: str) -> None:
    """d2l and Dive-into-DL plot ReLU over ``arange(-8.0, 8.0, 0.1)``: element 80 is 4.4e-16 in PyTorch (its
    gradient 1, not 0), so the printed values and gradients differ unless every bit is PyTorch's."""
    def program(lib: ModuleType) -> Any:
        x = lib.arange(*args, dtype=getattr(lib, dtype), requires_grad=True)
        lib.relu(x).sum().backward()
        return x.tolist(), x.grad.tolist()

    as_pytorch(program)


def test_raw_saved_tensor_hooks_as_pytorch() -> None:
    """PyTorch's notes on autograd: ``grad_fn._raw_saved_self.register_hooks(pack, unpack)`` hooks one saved tensor
    after the fact (packed at once, unpacked when backward reads it); one pair per slot."""
    def program(lib: ModuleType) -> Any:
        seen = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.pow(2)
        raw = y.grad_fn._raw_saved_self
        raw.register_hooks(lambda t: seen.append(("pack", t.tolist())) or t * 10,
                           lambda p: seen.append(("unpack", p.tolist())) or p / 10)
        y.sum().backward(retain_graph=True)
        z = x.exp()
        z.grad_fn._raw_saved_result.register_hooks(lambda t: seen.append("pack result") or t,
                                                   lambda p: seen.append("unpack result") or p)
        z.sum().backward()
        return seen, x.grad, type(raw).__name__

    as_pytorch(program)
    raises(_hook_again, RuntimeError, "Calling register_hooks on a saved tensor whose hooks have already been set. "
           "Hint: only one pair of hooks is allowed at a time.")


def _hook_again(lib: ModuleType) -> None:
    y = lib.ones(2, requires_grad=True).pow(2)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)


def test_raw_saved_tensor_refusals_as_pytorch() -> None:
    def freed(lib: ModuleType) -> Any:
        z = lib.ones(2, requires_grad=True).exp()
        z.sum().backward()
        z.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)

    raises(freed, RuntimeError, "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate "
           "values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if "
           "you need to backward through the graph a second time or if you need to access saved variables after "
           "calling backward.")
    raises(lambda lib: (lib.ones(2, requires_grad=True) * 2).grad_fn._raw_saved_self.register_hooks(
        lambda t: t, lambda t: t), RuntimeError,
        "Calling register_hooks on a saved tensor with value None is forbidden")
    raises(lambda lib: lib.ones(2, requires_grad=True).pow(2).grad_fn._raw_saved_nothing, AttributeError,
           "'PowBackward0' object has no attribute '_raw_saved_nothing'")


def test_cuda_methods_refuse_as_moving_to_cuda_does() -> None:
    """``x.cuda()`` and ``model.cuda()`` from GPU tutorials: refused like ``.to("cuda")``, saying there is no GPU
    (PyTorch built without CUDA raises too: an AssertionError, "Torch not compiled with CUDA enabled")."""
    import tinygrad_edu as tg

    with pytest.raises(RuntimeError, match=r"runs on the CPU only; cannot move a tensor to 'cuda'"):
        tg.ones(2).cuda()
    with pytest.raises(RuntimeError, match=r"cannot move a tensor to 'cuda:1'"):
        tg.ones(2).cuda(1)
    with pytest.raises(RuntimeError, match=r"runs on the CPU only; cannot move a module to 'cuda'"):
        tg.nn.Linear(1, 1).cuda()


@pytest.mark.parametrize("call", [lambda lib: lib.ones(2).cuda(), lambda lib: lib.zeros(2, device="cuda"),
                                  lambda lib: lib.ones(2).to("cuda:0"), lambda lib: lib.nn.Linear(1, 1).cuda()])
def test_asking_for_the_gpu_is_an_assertion_error_as_in_pytorch_without_cuda(call: Any) -> None:
    """Code written for a GPU may catch PyTorch's AssertionError: it catches ours, which prints as PyTorch's
    (``AssertionError: ...``) and is a RuntimeError too, as every other refused device."""
    import traceback

    import tinygrad_edu as tg

    for lib in (tg, oracle()):
        if lib is not None:
            with pytest.raises(AssertionError) as caught:
                call(lib)
    with pytest.raises(RuntimeError) as caught:
        call(tg)
    assert traceback.format_exception_only(caught.value)[-1].startswith(
        "AssertionError: tinygrad_edu runs on the CPU only")
