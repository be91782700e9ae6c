"""The Tensor itself, against PyTorch: making tensors, their dtypes, and the autograd attributes every tensor carries.

Each check is written once, as a function of the library module ``lib`` (``tinygrad_edu`` or ``torch``). The test
asserts what tinygrad_edu does (the expected text is spelled out, so the tests mean something without torch) and,
when torch is installed, that PyTorch does exactly the same: same exception type, same message with "torch."
read as "tinygrad_edu.", same warnings, same printed result.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

# ------------------------------------------------------------------------------------------------ the oracle
from _oracle import as_pytorch, raises

import tinygrad_edu as tg
from tinygrad_edu import _messages


# ------------------------------------------------------------------------------------------------ tensor()
@pytest.mark.parametrize(("data", "dtype"), [
    (1.5, "float32"), ([1.0, 2.0], "float32"), ([[1, 2], [3, 4]], "int64"), (3, "int64"), ([True, False], "bool"),
    ([1, 2.5], "float32"), ([True, 2], "int64"), ([], "float32"),
])
def test_tensor_infers_pytorchs_dtype(data: Any, dtype: str) -> None:
    t = tg.tensor(data)
    assert t.dtype is getattr(tg, dtype) and isinstance(t, tg.Tensor) and t.is_leaf and not t.requires_grad
    as_pytorch(lambda lib: (lib.tensor(data), lib.tensor(data).dtype))


@pytest.mark.parametrize("np_dtype", [np.float64, np.float32, np.float16, np.int32, np.int64, np.int16, np.uint8,
                                      np.bool_])
def test_tensor_of_ndarray_keeps_its_dtype_and_copies(np_dtype: type) -> None:
    array = np.array([[1, 0], [3, 4]], dtype=np_dtype)
    t = tg.tensor(array)
    assert t.dtype.np == np.dtype(np_dtype) and t.shape == (2, 2)
    array[0, 0] = 7  # tensor() copies: the array and the tensor are separate from now on
    assert t.tolist()[0][0] == 1
    as_pytorch(lambda lib: lib.tensor(np.array([[1, 0], [3, 4]], dtype=np_dtype)))


def test_tensor_with_dtype_and_requires_grad() -> None:
    t = tg.tensor([1, 2], dtype=tg.float64, requires_grad=True)
    assert t.dtype is tg.float64 and t.requires_grad and t.is_leaf and t.grad is None and t.grad_fn is None
    as_pytorch(lambda lib: lib.tensor([1, 2], dtype=lib.float64, requires_grad=True),
               (None, "tensor([1., 2.], dtype=tinygrad_edu.float64, requires_grad=True)", []))


@pytest.mark.parametrize("make", [
    lambda lib: lib.tensor([1, 2], requires_grad=True),
    lambda lib: lib.ones(2, dtype=lib.int64, requires_grad=True),
    lambda lib: lib.arange(3, requires_grad=True),
], ids=["tensor", "ones", "arange"])
def test_factories_refuse_requires_grad_for_integers(make: Callable) -> None:
    raises(make, RuntimeError, "Only Tensors of floating point and complex dtype can require gradients")


def test_requires_grad_on_an_integer_tensor_is_refused() -> None:
    # The method and the attribute word it differently in PyTorch; both texts are kept.
    raises(lambda lib: lib.tensor([1, 2]).requires_grad_(), RuntimeError,
           "only Tensors of floating point dtype can require gradients")
    raises(lambda lib: setattr(lib.tensor([1, 2]), "requires_grad", True), RuntimeError,
           "only Tensors of floating point and complex dtype can require gradients")
    as_pytorch(lambda lib: lib.tensor([1, 2]).requires_grad_(False), (None, "tensor([1, 2])", []))


def test_tensor_of_a_tensor_warns_as_pytorch() -> None:
    as_pytorch(lambda lib: lib.tensor(lib.tensor([1.0, 2.0])), (None, "tensor([1., 2.])", [
        "UserWarning: To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
        "sourceTensor.detach().clone().requires_grad_(True), rather than tinygrad_edu.tensor(sourceTensor)."]))


# ------------------------------------------------------------------------------------------------ Tensor()
def test_tensor_constructor() -> None:
    as_pytorch(lambda lib: lib.Tensor([1, 2]), (None, "tensor([1., 2.])", []))  # always float32
    as_pytorch(lambda lib: lib.Tensor(np.array([1, 2])), (None, "tensor([1., 2.])", []))
    as_pytorch(lambda lib: lib.Tensor((2, 3)), (None, "tensor([2., 3.])", []))  # a tuple is data ...
    as_pytorch(lambda lib: lib.Tensor(2, 3).shape, (None, "tinygrad_edu.Size([2, 3])", []))  # ... sizes are sizes
    as_pytorch(lambda lib: lib.Tensor(lib.Size([2])).shape, (None, "tinygrad_edu.Size([2])", []))
    as_pytorch(lambda lib: lib.Tensor(), (None, "tensor([])", []))
    raises(lambda lib: lib.Tensor(2.5), TypeError, "new(): data must be a sequence (got float)")
    raises(lambda lib: lib.Tensor(-1), RuntimeError, "Trying to create tensor with negative dimension -1: [-1]")
    raises(lambda lib: lib.Tensor(2, 3.0), TypeError, "new(): argument 'size' failed to unpack the object at pos 2 "
           'with error "type must be tuple of ints,but got float"')

    def alias(lib: ModuleType) -> Any:
        t = lib.tensor([1, 2])
        a = lib.Tensor(t)  # an alias: same storage, same dtype
        a[0] = 9
        return t, a.dtype, t._version

    as_pytorch(alias, (None, "(tensor([9, 2]), tinygrad_edu.int64, 1)", []))


# ------------------------------------------------------------------------------------------------ factories
FACTORIES: dict[str, Callable[[ModuleType], Any]] = {
    "ones": lambda lib: lib.ones(2, 3),
    "ones tuple": lambda lib: lib.ones((2, 3)),
    "ones Size": lambda lib: lib.ones(lib.Size([1, 2])),
    "ones int64": lambda lib: lib.ones(2, dtype=lib.int64),
    "zeros requires_grad": lambda lib: lib.zeros(2, 2, requires_grad=True),
    "zeros 0-d": lambda lib: lib.zeros(()),
    "ones_like keeps dtype": lambda lib: lib.ones_like(lib.tensor([1, 2])),
    "zeros_like ignores requires_grad": lambda lib: lib.zeros_like(lib.tensor([1.0, 2.0], requires_grad=True)),
    "zeros_like requires_grad": lambda lib: lib.zeros_like(lib.tensor([1.0]), requires_grad=True),
    "ones_like dtype": lambda lib: lib.ones_like(lib.tensor([1, 2]), dtype=lib.float64),
    "full int": lambda lib: lib.full((2, 2), 7),
    "full float": lambda lib: lib.full((2,), 7.0),
    "full bool": lambda lib: lib.full([2], True),
    "full dtype": lambda lib: lib.full((2,), 1, dtype=lib.float32),
    "eye": lambda lib: lib.eye(3),
    "eye n m": lambda lib: lib.eye(2, 3),
    "eye requires_grad": lambda lib: lib.eye(2, requires_grad=True),
    "arange": lambda lib: lib.arange(5),
    "arange start end": lambda lib: lib.arange(1, 4),
    "arange float step": lambda lib: lib.arange(0, 1, 0.25),
    "arange negative step": lambda lib: lib.arange(5, 0, -2),
    "arange dtype": lambda lib: lib.arange(3, dtype=lib.float32),
    "linspace": lambda lib: lib.linspace(0, 1, 5),
    "linspace one step": lambda lib: lib.linspace(0, 1, 1),
    "linspace int": lambda lib: lib.linspace(0, 10, 3, dtype=lib.int64),
    "rand shape": lambda lib: (lib.rand(2, 3).shape, lib.rand(2, 3).dtype),
    "randn dtype": lambda lib: (lib.randn(4, dtype=lib.float64).shape, lib.randn(4, dtype=lib.float64).dtype),
    "rand requires_grad": lambda lib: (lib.rand(2, requires_grad=True).requires_grad, lib.rand(2).requires_grad),
}


@pytest.mark.parametrize("name", FACTORIES)
def test_factories_as_pytorch(name: str) -> None:
    as_pytorch(FACTORIES[name])


def test_factory_values() -> None:
    assert tg.ones(2, 3).tolist() == [[1.0] * 3] * 2 and tg.zeros(2).dtype is tg.float32
    assert tg.eye(2).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert tg.arange(5).tolist() == [0, 1, 2, 3, 4] and tg.arange(5).dtype is tg.int64
    assert tg.arange(0, 1, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75] and tg.arange(0, 1, 0.25).dtype is tg.float32
    assert tg.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert tg.full((2,), 7).dtype is tg.int64 and tg.full((2,), 7.0).dtype is tg.float32
    raises(lambda lib: lib.arange(0, 5, 0), RuntimeError, "step must be nonzero")
    raises(lambda lib: lib.ones(-1), RuntimeError, "Trying to create tensor with negative dimension -1: [-1]")


def test_random_factories() -> None:
    tg.manual_seed(0)
    u, n = tg.rand(1000), tg.randn(1000)
    assert u.dtype is tg.float32 and n.dtype is tg.float32 and u.is_leaf and not u.requires_grad
    assert u.min().item() >= 0.0 and u.max().item() < 1.0 and 0.4 < u.mean().item() < 0.6
    assert abs(n.mean().item()) < 0.15 and 0.85 < n.numpy().std() < 1.15


def test_manual_seed_makes_draws_repeatable() -> None:
    tg.manual_seed(42)
    a, b = tg.rand(3), tg.randn(2, 2)
    tg.manual_seed(42)
    assert tg.rand(3).tolist() == a.tolist() and tg.randn(2, 2).tolist() == b.tolist()
    assert tg.rand(3).tolist() != a.tolist()  # the stream moves on
    tg.manual_seed(43)
    assert tg.rand(3).tolist() != a.tolist()
    assert tg.initial_seed() == 43


def test_a_generator_has_its_own_stream() -> None:
    g = tg.Generator().manual_seed(7)
    first = tg.rand(4, generator=g).tolist()
    tg.manual_seed(0)
    expected_global = tg.rand(4).tolist()
    tg.manual_seed(0)
    g.manual_seed(7)
    assert tg.rand(4, generator=g).tolist() == first  # the generator restarts on its own seed ...
    assert tg.rand(4).tolist() == expected_global  # ... and drawing from it left the global stream alone
    assert tg.randn(2, generator=tg.Generator().manual_seed(1)).tolist() == \
        tg.randn(2, generator=tg.Generator().manual_seed(1)).tolist()


# ------------------------------------------------------------------------------------------------ shape & type
def test_size_prints_and_behaves_as_pytorchs() -> None:
    t = tg.ones(2, 2)
    assert str(t.shape) == repr(t.size()) == "tinygrad_edu.Size([2, 2])"
    assert t.shape == (2, 2) and isinstance(t.shape, tuple) and t.shape.numel() == 4
    as_pytorch(lambda lib: lib.ones(2, 3).size(), (None, "tinygrad_edu.Size([2, 3])", []))
    as_pytorch(lambda lib: (lib.ones(2, 3).size(1), lib.ones(2, 3).size(-1)), (None, "(3, 3)", []))
    as_pytorch(lambda lib: lib.tensor(1.0).shape, (None, "tinygrad_edu.Size([])", []))
    as_pytorch(lambda lib: lib.ones(2, 3, 4).shape[1:], (None, "tinygrad_edu.Size([3, 4])", []))
    as_pytorch(lambda lib: lib.ones(2, 3, 4).shape[0], (None, "2", []))
    # concatenating is what is tested here, hence the noqa for ruff's "use unpacking instead"
    as_pytorch(lambda lib: lib.Size([2]) + (3,), (None, "tinygrad_edu.Size([2, 3])", []))  # noqa: RUF005
    as_pytorch(lambda lib: (3,) + lib.Size([2]), (None, "tinygrad_edu.Size([3, 2])", []))  # noqa: RUF005
    as_pytorch(lambda lib: lib.Size([2, 3]) * 2, (None, "tinygrad_edu.Size([2, 3, 2, 3])", []))
    raises(lambda lib: lib.Size([2]) + [1], TypeError,  # noqa: RUF005
           "can only concatenate tuple (not list) to tinygrad_edu.Size")


def test_dim_numel_dtype() -> None:
    def info(lib: ModuleType) -> Any:
        t = lib.zeros(2, 3, 4)
        s = lib.tensor(5)
        return t.dim(), t.ndim, t.numel(), s.dim(), s.numel(), t.dtype, s.dtype, lib.zeros(0, 3).numel()

    as_pytorch(info, (None, "(3, 3, 24, 0, 1, tinygrad_edu.float32, tinygrad_edu.int64, 0)", []))


# ------------------------------------------------------------------------------------------------ conversion
def test_item() -> None:
    as_pytorch(lambda lib: (lib.tensor([2.5]).item(), lib.tensor(3).item(), lib.tensor(True).item()),
               (None, "(2.5, 3, True)", []))
    assert type(tg.tensor(3).item()) is int and type(tg.tensor([[2.5]]).item()) is float
    raises(lambda lib: lib.tensor([1.0, 2.0]).item(), RuntimeError,
           "a Tensor with 2 elements cannot be converted to Scalar")
    raises(lambda lib: lib.tensor([]).item(), RuntimeError, "a Tensor with 0 elements cannot be converted to Scalar")
    # item() of a tensor that requires grad just reads the number (no warning, unlike float(); see below)
    as_pytorch(lambda lib: (lib.tensor(2.0, requires_grad=True) * 2).item(), (None, "4.0", []))


def test_float_of_a_tensor_requiring_grad_warns_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # PyTorch warns once per process (TORCH_WARN_ONCE), so torch itself cannot be re-asked here.
    monkeypatch.setattr(_messages, "_warned", set())
    x = tg.tensor(2.0, requires_grad=True)
    with pytest.warns(UserWarning) as record:
        assert float(x * x) == 4.0
    assert [str(w.message) for w in record] == [
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
        "Consider using tensor.detach() first."]
    assert record[0].filename == __file__  # the warning points at the user's line
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(x) == 2.0 and float(x.detach()) == 2.0 and int(x) == 2 and x.item() == 2.0


def test_tolist() -> None:
    as_pytorch(lambda lib: lib.tensor([[1.0, 2.0], [3.0, 4.0]]).tolist(), (None, "[[1.0, 2.0], [3.0, 4.0]]", []))
    as_pytorch(lambda lib: lib.tensor(1.5).tolist(), (None, "1.5", []))
    as_pytorch(lambda lib: lib.tensor([1, 2], dtype=lib.int32).tolist(), (None, "[1, 2]", []))
    assert tg.tensor([1.0], requires_grad=True).tolist() == [1.0]  # no need to detach


def test_numpy() -> None:
    t = tg.tensor([1.0, 2.0])
    a = t.numpy()
    assert isinstance(a, np.ndarray) and a.dtype == np.float32
    a[0] = 5.0  # shares memory with the tensor
    assert t.tolist() == [5.0, 2.0]
    message = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    raises(lambda lib: lib.tensor([1.0], requires_grad=True).numpy(), RuntimeError, message)
    raises(lambda lib: (lib.tensor([1.0], requires_grad=True) * 2).numpy(), RuntimeError, message)
    as_pytorch(lambda lib: lib.tensor([1.0], requires_grad=True).numpy(force=True), (None, "array([1.], "
                                                                                         "dtype=float32)", []))
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    assert np.shares_memory(x.detach().numpy(), x.numpy(force=True))


# ------------------------------------------------------------------------------------------------ requires_grad
def test_requires_grad_and_is_leaf() -> None:
    def flags(lib: ModuleType) -> Any:
        a = lib.tensor([1.0, 2.0])
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        z = a * 2
        with lib.no_grad():
            w = x * 2
        return [(t.requires_grad, t.is_leaf, t.grad_fn is None) for t in (a, x, y, z, w)]

    as_pytorch(flags, (None, "[(False, True, True), (True, True, True), (True, False, False), (False, True, True), "
                             "(False, True, True)]", []))


def test_requires_grad_setter_and_method() -> None:
    def on_a_leaf(lib: ModuleType) -> Any:
        x = lib.tensor([1.0])
        same = x.requires_grad_()
        before = x.requires_grad
        x.requires_grad = False
        return same is x, before, x.requires_grad, x.is_leaf, x.requires_grad_(False) is x

    as_pytorch(on_a_leaf, (None, "(True, True, False, True, True)", []))

    def computed(lib: ModuleType) -> Any:
        return lib.tensor([1.0], requires_grad=True) * 2

    long_message = ("you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
                    "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
    raises(lambda lib: setattr(computed(lib), "requires_grad", False), RuntimeError, long_message)
    raises(lambda lib: computed(lib).requires_grad_(False), RuntimeError, long_message)
    raises(lambda lib: setattr(computed(lib), "requires_grad", True), RuntimeError,
           "you can only change requires_grad flags of leaf variables.")
    as_pytorch(lambda lib: computed(lib).requires_grad_(), (None, "tensor([2.], grad_fn=<MulBackward0>)", []))


def test_a_leaf_made_to_require_grad_later_gets_a_grad() -> None:
    x = tg.tensor([1.0, 2.0])
    x.requires_grad_()
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]


# ------------------------------------------------------------------------------------------------ grad
def test_grad_is_none_until_backward_fills_it() -> None:
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    assert x.grad is None
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0] and x.grad.is_leaf and not x.grad.requires_grad


def test_grad_assignment_is_checked() -> None:
    def assign(value: Callable[[ModuleType], Any], dtype: str = "float32") -> Callable[[ModuleType], Any]:
        def fn(lib: ModuleType) -> Any:
            x = lib.zeros(2, dtype=getattr(lib, dtype), requires_grad=True)
            x.grad = value(lib)
            return x.grad

        return fn

    as_pytorch(assign(lambda lib: lib.tensor([1.0, 1.0])), (None, "tensor([1., 1.])", []))
    as_pytorch(assign(lambda lib: None), (None, "None", []))
    raises(assign(lambda lib: 3), TypeError, "assigned grad expected to be a Tensor or None but got grad of type int")
    raises(assign(lambda lib: [1.0, 1.0]), TypeError,
           "assigned grad expected to be a Tensor or None but got grad of type list")
    raises(assign(lambda lib: lib.ones(3)), RuntimeError, "attempting to assign a gradient of size '[3]' to a tensor "
           "of size '[2]'. Please ensure that the gradient and the tensor are the same size")
    raises(assign(lambda lib: lib.ones(1, 2)), RuntimeError, "attempting to assign a gradient of size '[1, 2]' to a "
           "tensor of size '[2]'. Please ensure that the gradient and the tensor are the same size")
    tail = ("The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
            "tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with "
            "caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that assume they "
            "match.")
    for grad_dtype, cpp in [("float64", "double"), ("float16", "c10::Half"), ("int64", "long int"), ("int32", "int"),
                            ("bool", "bool"), ("uint8", "unsigned char")]:
        raises(assign(lambda lib, d=grad_dtype: lib.ones(2, dtype=getattr(lib, d))), RuntimeError,
               f"attempting to assign a gradient with dtype '{cpp}' to a tensor with grad_dtype 'Float'. {tail}")
    raises(assign(lambda lib: lib.ones(3), "float64"), RuntimeError,  # the dtype is checked before the size
           f"attempting to assign a gradient with dtype 'float' to a tensor with grad_dtype 'Double'. {tail}")


def test_grad_can_be_deleted_and_set_on_any_tensor() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.grad = lib.tensor([1.0, 1.0])
        del x.grad
        plain = lib.tensor([1.0, 2.0])
        plain.grad = lib.tensor([3.0, 3.0])  # allowed, though backward would never fill it
        return x.grad, plain.grad

    as_pytorch(fn, (None, "(None, tensor([3., 3.]))", []))


NONLEAF_WARNING = (
    "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
    "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you "
    "access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)


def test_reading_grad_of_a_non_leaf_warns() -> None:
    def read(lib: ModuleType) -> Any:
        y = lib.tensor([1.0, 2.0], requires_grad=True) * 2
        y.sum().backward()
        return y.grad

    as_pytorch(read, (None, "None", [NONLEAF_WARNING]))

    def retained(lib: ModuleType) -> Any:
        y = lib.tensor([1.0, 2.0], requires_grad=True) * 2
        y.retain_grad()
        y.sum().backward()
        return y.grad

    as_pytorch(retained, (None, "tensor([1., 1.])", []))  # no warning once it retains its grad
    as_pytorch(lambda lib: (lib.tensor([1.0]) * 2).grad, (None, "None", []))  # nor on tensors needing no grad


# ------------------------------------------------------------------------------------------------ data & detach
def test_data_is_detached_and_shares_storage_but_not_the_version() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x  # saves x
        d = x.data
        d[0] = 5.0  # seen through x, and not by autograd's version check
        y.sum().backward()  # so this uses the changed value without complaint (why detach() is safer)
        return x, d.requires_grad, d.is_leaf, d.grad_fn, x._version, x.grad

    as_pytorch(fn, (None, "(tensor([5., 2.], requires_grad=True), False, True, None, 0, tensor([10.,  4.]))", []))

    def of_a_non_leaf(lib: ModuleType) -> Any:
        d = (lib.tensor([1.0], requires_grad=True) * 2).data
        return d, d.requires_grad, d.grad_fn

    as_pytorch(of_a_non_leaf, (None, "(tensor([2.]), False, None)", []))


def test_data_assignment() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.data = lib.tensor([3.0, 4.0, 5.0])  # any shape: the tensor stays the same object and a leaf
        return x, x.is_leaf

    as_pytorch(fn, (None, "(tensor([3., 4., 5.], requires_grad=True), True)", []))
    raises(lambda lib: setattr(lib.tensor([1.0], requires_grad=True), "data", [1.0]), TypeError,
           "Variable data has to be a tensor, but got list")
    raises(lambda lib: setattr(lib.tensor([1.0], requires_grad=True), "data", lib.tensor([1])), RuntimeError,
           "data set to a tensor that requires gradients must be floating point or complex dtype")


def test_detach_shares_storage_and_version_counter() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        d = x.detach()
        d[0] = 5.0
        return x, d.requires_grad, d.is_leaf, d.grad_fn, x._version, d._version

    as_pytorch(fn, (None, "(tensor([5., 2.], requires_grad=True), False, True, None, 1, 1)", []))

    def stale(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        x.detach().zero_()  # the shared counter lets autograd notice
        y.sum().backward()

    raises(stale, RuntimeError, "one of the variables needed for gradient computation has been modified by an "
           "inplace operation: [tinygrad_edu.FloatTensor [2]] is at version 1; expected version 0 instead. Hint: "
           "enable anomaly detection to find the operation that failed to compute its gradient, with "
           "tinygrad_edu.autograd.set_detect_anomaly(True, check_nan=False).")


def test_detach_in_place() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        same = y.detach_()
        return same is y, y, y.requires_grad, y.is_leaf, y.grad_fn, x.detach_() is x, x.requires_grad

    as_pytorch(fn, (None, "(True, tensor([2., 4.]), False, True, None, True, False)", []))


def test_detach_in_place_refuses_views() -> None:
    raises(lambda lib: lib.tensor([1.0, 2.0], requires_grad=True)[0:1].detach_(), RuntimeError,
           "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for "
           "training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence "
           "detach_() cannot be called on these gradients. To fix this error, please refer to the "
           "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")


# ------------------------------------------------------------------------------------------------ retain_grad & hooks
def test_retain_grad() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.retain_grad()  # a leaf keeps its grad anyway: nothing changes
        y = x * 3
        flags = (x.retains_grad, y.retains_grad)
        y.retain_grad()
        y.retain_grad()  # twice is fine
        (y * y).sum().backward()
        return flags, y.retains_grad, y.grad, x.grad

    as_pytorch(fn, (None, "((False, False), True, tensor([ 6., 12.]), tensor([18., 36.]))", []))
    raises(lambda lib: lib.tensor([1.0]).retain_grad(), RuntimeError,
           "can't retain_grad on Tensor that has requires_grad=False")


def test_register_hook_returns_a_removable_handle() -> None:
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.tolist()))
    (x * 3).sum().backward()
    handle.remove()
    handle.remove()  # a second remove() does nothing
    (x * 3).sum().backward()
    assert seen == [[3.0, 3.0]] and x.grad.tolist() == [6.0, 6.0]

    with x.register_hook(lambda g: g * 0):  # a handle is also a context manager
        (x * 3).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]
    raises(lambda lib: lib.tensor([1.0]).register_hook(lambda g: g), RuntimeError,
           "cannot register a hook on a tensor that doesn't require gradient")


# ------------------------------------------------------------------------------------------------ versions & zero_
def test_version_counts_in_place_changes() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0])
        versions = [x._version]
        for change in (lambda: x.add_(1), lambda: x.mul_(2), lambda: x.__setitem__(0, 3.0), lambda: x.zero_()):
            change()
            versions.append(x._version)
        y = x + 1  # out of place: no change
        return versions, y._version, x

    as_pytorch(fn, (None, "([0, 1, 2, 3, 4], 0, tensor([0., 0.]))", []))


def test_zero_() -> None:
    def fn(lib: ModuleType) -> Any:
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
        same = x.zero_()
        return same is x, x, x._version

    as_pytorch(fn, (None, "(True, tensor([[0., 0.],\n        [0., 0.]]), 1)", []))
    raises(lambda lib: lib.tensor([1.0], requires_grad=True).zero_(), RuntimeError,
           "a leaf Variable that requires grad is being used in an in-place operation.")

    def under_no_grad(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            x.zero_()
        return x, x.is_leaf, x._version

    as_pytorch(under_no_grad, (None, "(tensor([0., 0.], requires_grad=True), True, 1)", []))


def test_device_is_the_cpu() -> None:
    """``device("cpu")`` prints and compares as PyTorch's, and every factory takes ``device=`` for the CPU."""
    as_pytorch(lambda lib: (repr(lib.device("cpu")), str(lib.device("cpu")), repr(lib.device("cpu:0")),
                            str(lib.device("cpu", 0)), lib.device("cpu").type, lib.device("cpu").index,
                            lib.device(lib.device("cpu")) == lib.device("cpu"),
                            lib.device("cpu") == lib.device("cpu:0")))
    cpu = tg.device("cpu")
    one = tg.ones(2)
    made = [tg.tensor([1.0], device=cpu), tg.zeros(2, device="cpu"), tg.ones(2, device=cpu),
            tg.full((2,), 1.0, device=cpu), tg.eye(2, device=cpu), tg.arange(3, device=cpu),
            tg.linspace(0, 1, 3, device=cpu), tg.rand(2, device=cpu), tg.randn(2, device=cpu),
            tg.randint(0, 5, (2,), device=cpu), tg.randperm(3, device=cpu), tg.as_tensor([1.0], device=cpu),
            tg.zeros_like(one, device=cpu), tg.ones_like(one, device=cpu), tg.full_like(one, 3.0, device=cpu),
            tg.rand_like(one, device=cpu), tg.randn_like(one, device=cpu)]
    assert all(str(t.device) == "cpu" for t in made)
    x = tg.ones(2, requires_grad=True)
    assert x.to(cpu) is x and x.to(device="cpu") is x and x.to("cpu") is x


def test_a_tensors_device_is_a_device_as_in_pytorch() -> None:
    """``x.device`` is ``device(type='cpu')``: printed ``cpu``, with ``.type``, equal to ``device("cpu")`` but not
    to the string "cpu" (PyTorch's device does not compare equal to strings either)."""
    as_pytorch(lambda lib: (repr(lib.ones(2).device), str(lib.ones(2).device), lib.ones(2).device.type,
                            lib.ones(2).device == lib.device("cpu"), lib.ones(2).device == "cpu", lib.ones(2).is_cpu,
                            str(lib.zeros(1, device=lib.ones(2).device).device)),
               (None, """("device(type='cpu')", 'cpu', 'cpu', True, False, True, 'cpu')""", []))


def test_other_devices_are_refused() -> None:
    assert (tg.device("cuda").type, tg.device("cuda").index) == ("cuda", None)  # (naming one is allowed, as in PyTorch)
    with pytest.raises(RuntimeError, match="^tinygrad_edu runs on the CPU only: there is no 'cuda' device$"):
        tg.zeros(2, device=tg.device("cuda"))
    with pytest.raises(RuntimeError, match="there is no 'cuda:0' device"):
        tg.zeros(2, device="cuda:0")
    with pytest.raises(RuntimeError, match="there is no 'mps' device"):
        tg.linspace(0, 1, 3, device="mps")
    with pytest.raises(RuntimeError, match="cannot move a tensor to 'cuda'"):
        tg.ones(2).to(device="cuda")


def test_no_gpu_so_tutorials_choose_the_cpu() -> None:
    assert (tg.cuda.is_available(), tg.cuda.device_count()) == (False, 0)
    assert (tg.accelerator.is_available(), tg.accelerator.current_accelerator(), tg.accelerator.device_count()) == (
        False, None, 0)
    device = tg.accelerator.current_accelerator().type if tg.accelerator.is_available() else "cpu"
    assert str(tg.zeros(1, device=device).device) == "cpu"


def test_python_numbers_from_tensors() -> None:
    """float(), int() and math functions take a one-element tensor; anything larger is PyTorch's ValueError."""
    as_pytorch(lambda lib: (float(lib.tensor([2.5])), int(lib.tensor(2.7)), round(lib.tensor(2.567).item(), 1)),
               (None, "(2.5, 2, 2.6)", []))
    raises(lambda lib: float(lib.tensor([1.0, 2.0])), ValueError,
           "only one element tensors can be converted to Python scalars")
    raises(lambda lib: int(lib.tensor([1, 2])), ValueError,
           "only one element tensors can be converted to Python scalars")
    raises(lambda lib: [1, 2][lib.tensor(1.0)], TypeError,
           "only integer tensors of a single element can be converted to an index")


def test_comparing_with_something_that_is_not_a_number() -> None:
    """Only tensors, numbers and arrays compare element by element; otherwise Python's rules, as in PyTorch."""
    as_pytorch(lambda lib: (lib.tensor([1.0]) == None, lib.tensor([1.0]) != None,  # noqa: E711
                            lib.tensor([1.0]) == "a", lib.tensor([1.0]) == [1.0], lib.tensor([1.0, 2.0]) == 1.0),
               (None, "(False, True, False, False, tensor([ True, False]))", []))
    raises(lambda lib: lib.tensor([1.0]) < None, TypeError,
           "'<' not supported between instances of 'Tensor' and 'NoneType'")


def test_negating_a_mask_says_to_use_not() -> None:
    raises(lambda lib: -lib.tensor([True, False]), RuntimeError,
           "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
           "the `~` or `logical_not()` operator instead.")


def test_pytorchs_words_for_three_more_mistakes() -> None:
    """requires_grad set to a non-bool; an index out of range (PyTorch names the key's place in the index);
    nested lists that are not a grid (PyTorch names the first list of the wrong length)."""

    def set_flag(lib: ModuleType) -> None:
        lib.tensor([1.0]).requires_grad = 1

    raises(set_flag, RuntimeError, "requires_grad must be a bool")
    raises(lambda lib: lib.tensor([1.0]).requires_grad_(1), TypeError,
           "requires_grad_(): argument 'requires_grad' (position 1) must be bool, not int")
    for key, message in (((0, 5), "index 5 is out of bounds for dimension 1 with size 3"),
                         ((..., 9), "index 9 is out of bounds for dimension 1 with size 4"),
                         ((None, 0, 9), "index 9 is out of bounds for dimension 2 with size 3")):
        raises(lambda lib, key=key: lib.ones(2, 3, 4)[key], IndexError, message)
    for data, kind, message in (([[1, 2], [3]], ValueError, "expected sequence of length 2 at dim 1 (got 1)"),
                                ([[[1, 2], [3, 4]], [[1, 2], [3]]], ValueError,
                                 "expected sequence of length 2 at dim 2 (got 1)"),
                                ([1, [2]], TypeError, "'list' object cannot be interpreted as an integer"),
                                ([1.5, [2]], TypeError, "must be real number, not list"),
                                ([[1, 2], 3], TypeError, "not a sequence")):
        raises(lambda lib, data=data: lib.tensor(data), kind, message)


def test_expand_reports_the_last_misfit_dimension() -> None:
    raises(lambda lib: lib.ones(3, 4).expand(2, 3), RuntimeError,
           "The expanded size of the tensor (3) must match the existing size (4) at non-singleton dimension 1.  "
           "Target sizes: [2, 3].  Tensor sizes: [3, 4]")


def test_a_size_that_is_not_an_integer_is_refused_not_truncated() -> None:
    """``x.view(n / 2, -1)`` (a float from ``/``) is a TypeError, as in PyTorch; it used to become ``view(2, -1)``
    silently. Integer-valued sizes of any kind still work: numpy integers, 0-d integer tensors, ``Size``."""
    import numpy as np

    x = tg.ones(4)
    for shaped in (lambda: x.view(4 / 2, -1), lambda: x.reshape(2.0, 2), lambda: x.expand(2.5)):
        with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
            shaped()
    assert x.view(np.int64(2), 2).shape == x.view(tg.tensor(2), -1).shape == x.view(tg.Size([2, 2])).shape == (2, 2)
