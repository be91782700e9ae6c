"""Tensors print exactly as in PyTorch 2.13 (``tinygrad_edu._printing``).

The first tests pin down PyTorch's output for typical cases, as fixed strings. The parity tests then compare
with PyTorch itself on a few hundred generated arrays (skipped when torch is not installed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, raises

from tinygrad_edu import _dtype
from tinygrad_edu._printing import get_printoptions, printoptions, set_printoptions, tensor_repr


@pytest.fixture(autouse=True)
def _default_print_options() -> Iterator[None]:
    """Each test starts, and leaves, with the default print options."""
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


def show(values: object, dtype: _dtype.dtype = _dtype.float32, **kwargs: object) -> str:
    """The repr of a tensor holding ``values`` (converted to ``dtype``)."""
    return tensor_repr(np.array(values, dtype=dtype.np), dtype, **kwargs)


NAN, INF = float("nan"), float("inf")

FIXED_CASES = [
    # autograd suffixes
    (show([1.0, 2.0, 3.0], requires_grad=True), "tensor([1., 2., 3.], requires_grad=True)"),
    (show(27.0, grad_fn_name="MeanBackward0"), "tensor(27., grad_fn=<MeanBackward0>)"),
    (show(27.0, grad_fn_name="MeanBackward0", requires_grad=True), "tensor(27., grad_fn=<MeanBackward0>)"),
    (show([[3.0, 3.0], [3.0, 3.0]], grad_fn_name="AddBackward0"),
     "tensor([[3., 3.],\n        [3., 3.]], grad_fn=<AddBackward0>)"),
    (show([[-18.1909, 1.4176], [1.5632, -0.6163]], requires_grad=True),
     "tensor([[-18.1909,   1.4176],\n        [  1.5632,  -0.6163]], requires_grad=True)"),
    (show(335.7415, grad_fn_name="SumBackward0"), "tensor(335.7415, grad_fn=<SumBackward0>)"),
    # floats: fixed point, int mode, digits of the float32 value
    (show([4.5, 4.5]), "tensor([4.5000, 4.5000])"),
    (show([0.1, 0.2, 0.3]), "tensor([0.1000, 0.2000, 0.3000])"),
    (show([0.25205]), "tensor([0.2521])"),  # the float32 is 0.25205001...
    (show([0.25205], _dtype.float64), "tensor([0.2520], dtype=tinygrad_edu.float64)"),  # 0.25204999...
    (show([0.1, 0.2], _dtype.float16), "tensor([0.1000, 0.2000], dtype=tinygrad_edu.float16)"),
    (show([1.5, 2.0], _dtype.float64), "tensor([1.5000, 2.0000], dtype=tinygrad_edu.float64)"),
    (show([-0.0, 1.0]), "tensor([-0., 1.])"),
    (show([0.0, 0.0]), "tensor([0., 0.])"),
    # nan and inf take no part in the format and are padded to the others' width
    (show([NAN, 1.0, -INF]), "tensor([nan, 1., -inf])"),
    (show([0.5, NAN, INF, -INF]), "tensor([0.5000,    nan,    inf,   -inf])"),
    # scientific notation
    (show([0.1, 1e-5]), "tensor([1.0000e-01, 1.0000e-05])"),
    (show([1e-5, 1.0, 100.0]), "tensor([1.0000e-05, 1.0000e+00, 1.0000e+02])"),
    (show([1e9, 1.0]), "tensor([1.0000e+09, 1.0000e+00])"),
    (show(1e-9), "tensor(1.0000e-09)"),
    # integers and bools
    (show([1, 2, 3], _dtype.int64), "tensor([1, 2, 3])"),
    (show([-5, 100], _dtype.int64), "tensor([ -5, 100])"),
    (show(3, _dtype.int64), "tensor(3)"),
    (show(3, _dtype.int32), "tensor(3, dtype=tinygrad_edu.int32)"),
    (show([1, 2, 3], _dtype.uint8), "tensor([1, 2, 3], dtype=tinygrad_edu.uint8)"),
    (show([True, False], _dtype.bool), "tensor([ True, False])"),
    (show([True], _dtype.bool), "tensor([True])"),
    (show([[True, False], [False, True]], _dtype.bool), "tensor([[ True, False],\n        [False,  True]])"),
    # empty tensors say their size (unless 1-D) and their dtype (unless float32)
    (show(np.empty(0)), "tensor([])"),
    (show(np.empty((0, 3))), "tensor([], size=(0, 3))"),
    (show(np.empty(0), _dtype.int64), "tensor([], dtype=tinygrad_edu.int64)"),
    (show(np.empty(0), _dtype.float64), "tensor([], dtype=tinygrad_edu.float64)"),
    (show(np.empty((2, 0, 4)), _dtype.bool), "tensor([], size=(2, 0, 4), dtype=tinygrad_edu.bool)"),
    (show(np.empty((0, 2)), requires_grad=True), "tensor([], size=(0, 2), requires_grad=True)"),
    # layout: wrapping long rows, blank lines between the blocks of a 3-D tensor
    (show(np.arange(30.0)),
     ("tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
      "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
      "        28., 29.])")),
    (show(np.arange(24.0).reshape(2, 3, 4)),
     ("tensor([[[ 0.,  1.,  2.,  3.],\n         [ 4.,  5.,  6.,  7.],\n         [ 8.,  9., 10., 11.]],\n\n"
      "        [[12., 13., 14., 15.],\n         [16., 17., 18., 19.],\n         [20., 21., 22., 23.]]])")),
    (show([123456.789] * 8, _dtype.float64),
     ("tensor([123456.7890, 123456.7890, 123456.7890, 123456.7890, 123456.7890,\n"
      "        123456.7890, 123456.7890, 123456.7890], dtype=tinygrad_edu.float64)")),
    # summarization of more than 1000 elements
    (show(np.arange(1001), _dtype.int64), "tensor([   0,    1,    2,  ...,  998,  999, 1000])"),
    (show(np.arange(2000.0).reshape(2, 1000)),
     ("tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 9.9700e+02, 9.9800e+02,\n"
      "         9.9900e+02],\n"
      "        [1.0000e+03, 1.0010e+03, 1.0020e+03,  ..., 1.9970e+03, 1.9980e+03,\n"
      "         1.9990e+03]])")),
    # suffixes that do not fit go on a new line, indented under the first "["
    (show([[1.5] * 7] * 2, _dtype.float64, grad_fn_name="MulBackward0"),
     ("tensor([[1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000],\n"
      "        [1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000]],\n"
      "       dtype=tinygrad_edu.float64, grad_fn=<MulBackward0>)")),
    # "dtype=tinygrad_edu.float64" is 7 characters longer than "dtype=torch.float64": lines still break where
    # PyTorch's do (its text decides), so this one stays on the line, 7 characters past the width
    (show([1.5] * 6, _dtype.float64),
     "tensor([1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000], dtype=tinygrad_edu.float64)"),
    (show([1.5] * 7, _dtype.float64),
     "tensor([1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000],\n       dtype=tinygrad_edu.float64)"),
    # another prefix sets the indentation of the following lines
    (show([[1.0, 2.0], [3.0, 4.0]], prefix="Param("), "Param([[1., 2.],\n       [3., 4.]])"),
]


@pytest.mark.parametrize(("text", "expected"), FIXED_CASES)
def test_fixed_cases(text: str, expected: str) -> None:
    assert text == expected


def test_set_printoptions() -> None:
    set_printoptions(precision=2)
    assert show([1.12345]) == "tensor([1.12])"
    set_printoptions(threshold=5)  # precision stays 2
    assert show(np.arange(10), _dtype.int64) == "tensor([0, 1, 2,  ..., 7, 8, 9])"
    assert show([1.12345]) == "tensor([1.12])"
    set_printoptions(profile="default")
    assert show([1.12345]) == "tensor([1.1235])"
    assert show(np.arange(10), _dtype.int64) == "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"


def test_sci_mode_option() -> None:
    set_printoptions(sci_mode=False)
    assert show([1e-5, 1.0]) == "tensor([0.0000, 1.0000])"
    set_printoptions(sci_mode=True)
    assert show([1.0, 2.0]) == "tensor([1.0000e+00, 2.0000e+00])"
    set_printoptions(precision=3)  # sci_mode left out: automatic again
    assert show([1.0, 2.0]) == "tensor([1., 2.])"


def test_profiles_and_edgeitems() -> None:
    set_printoptions(profile="short")
    assert show(np.arange(1001.0)) == "tensor([   0.,    1.,  ...,  999., 1000.])"
    set_printoptions(profile="full")
    assert "..." not in show(np.arange(1001), _dtype.int64)
    set_printoptions(profile="default", edgeitems=0)
    assert show([1.0, 2.0]) == "tensor([1., 2.], size=(2,))"
    assert show(np.arange(2000.0).reshape(2, 1000)) == "tensor([...], size=(2, 1000))"
    set_printoptions(profile="default", linewidth=20)
    assert show([1.5] * 3, requires_grad=True) == (
        "tensor([1.5000,\n        1.5000,\n        1.5000],\n       requires_grad=True)")


def test_printoptions_context_manager_restores() -> None:
    defaults = get_printoptions()
    assert defaults == {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None}
    with printoptions(precision=1, sci_mode=True):
        assert show([2.5]) == "tensor([2.5e+00])"
    assert get_printoptions() == defaults


# ---------------------------------------------------------------------------------------------------------
# Parity with PyTorch on generated arrays

FLOAT_TYPES = [np.float32] * 6 + [np.float64] * 2 + [np.float16]
OTHER_TYPES = [np.int64, np.int64, np.int32, np.int16, np.int8, np.uint8, np.bool_]


def random_shape(rng: np.random.Generator) -> tuple[int, ...]:
    """Mostly small shapes of 0 to 3 dimensions, a few empty; one in five has more than 1000 elements."""
    if rng.random() < 0.2:
        return [(int(rng.integers(1001, 3000)),), (int(rng.integers(20, 60)), int(rng.integers(40, 80))),
                tuple(int(n) for n in rng.integers(8, 20, size=3))][int(rng.integers(3))]
    shape = [int(n) for n in rng.integers(1, 7, size=rng.integers(0, 4))]
    if shape and rng.random() < 0.1:  # empty
        shape[int(rng.integers(len(shape)))] = 0
    return tuple(shape)


def random_floats(rng: np.random.Generator, shape: tuple[int, ...], np_type: type) -> np.ndarray:
    """Normal values at a scale from 1e-9 to 1e10, sometimes whole, sometimes of mixed scales, with nan/inf."""
    low, high = (-6, 3) if np_type is np.float16 else (-9, 10)  # float16 stops at 65504
    kind = rng.integers(4)
    values = rng.standard_normal(shape)
    if kind == 0:
        values *= 10.0 ** rng.uniform(low, high)
    elif kind == 1:  # whole numbers: "int mode"
        values = np.round(values * 10.0 ** rng.uniform(0, high))
    elif kind == 2:  # each element at its own scale
        values *= 10.0 ** rng.uniform(low, high, size=shape)
    else:  # the usual tutorial range
        values *= 10.0 ** rng.uniform(-1, 2)
    values = np.asarray(values)  # np.round of a 0-d array gives a scalar
    if values.size and rng.random() < 0.3:
        for _ in range(int(rng.integers(1, 4))):
            index = tuple(int(rng.integers(n)) for n in values.shape)
            values[index] = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0])
    return values.astype(np_type)


def random_array(rng: np.random.Generator) -> np.ndarray:
    shape = random_shape(rng)
    if rng.random() < 0.65:
        return random_floats(rng, shape, FLOAT_TYPES[int(rng.integers(len(FLOAT_TYPES)))])
    np_type = OTHER_TYPES[int(rng.integers(len(OTHER_TYPES)))]
    if np_type is np.bool_:
        return np.asarray(rng.random(shape) < 0.5)
    info, bound = np.iinfo(np_type), 10 ** int(rng.integers(1, 16))
    return np.asarray(rng.integers(max(info.min, -bound), min(info.max, bound), size=shape, endpoint=True),
                      dtype=np_type)


_rng = np.random.default_rng(20240613)
ARRAYS = [random_array(_rng) for _ in range(200)]
SUFFIX_BREAK = re.compile(r",\n *(?=(?:size|dtype|grad_fn|requires_grad)=)")


def torch_repr(torch: ModuleType, array: np.ndarray, autograd: str | None) -> str:
    """What PyTorch prints for ``array``, with torch's module name replaced by ours."""
    t = torch.from_numpy(array.copy())
    if autograd == "requires_grad":
        t.requires_grad_()
    elif autograd == "grad_fn":
        t = t.requires_grad_() * 1  # same values, grad_fn=<MulBackward0>
    return repr(t).replace("torch.", "tinygrad_edu.")


def our_repr(array: np.ndarray, autograd: str | None) -> str:
    return tensor_repr(array, _dtype.from_numpy(array.dtype), requires_grad=autograd == "requires_grad",
                       grad_fn_name="MulBackward0" if autograd == "grad_fn" else None)


def assert_same(ours: str, theirs: str) -> None:
    """Equal texts; when a dtype is printed, the line break before the suffixes may differ (see above)."""
    if "dtype=" in theirs:
        ours, theirs = SUFFIX_BREAK.sub(", ", ours), SUFFIX_BREAK.sub(", ", theirs)
    assert ours == theirs


@pytest.mark.parametrize("index", range(len(ARRAYS)))
def test_parity_with_pytorch(index: int) -> None:
    torch = pytest.importorskip("torch")
    array = ARRAYS[index]
    autograd = [None, "requires_grad", "grad_fn"][index % 3] if array.dtype.kind == "f" else None
    assert_same(our_repr(array, autograd), torch_repr(torch, array, autograd))


OPTIONS = [
    {"precision": 2}, {"precision": 7}, {"sci_mode": True}, {"sci_mode": False}, {"linewidth": 40},
    {"linewidth": 120}, {"threshold": 10, "edgeitems": 1}, {"threshold": 20, "edgeitems": 0},
    {"profile": "short"}, {"profile": "full", "precision": 3},
]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_parity_with_pytorch_options(options: dict) -> None:
    torch = pytest.importorskip("torch")
    set_printoptions(**options)
    torch.set_printoptions(**options)
    try:
        for index, array in enumerate(ARRAYS[:60]):
            autograd = "requires_grad" if array.dtype.kind == "f" and index % 2 else None
            assert_same(our_repr(array, autograd), torch_repr(torch, array, autograd))
    finally:
        torch.set_printoptions(profile="default")



def test_f_strings_format_a_0d_tensor_as_its_number() -> None:
    """``f"{loss}"`` prints the number (PyTorch formats a 0-d tensor as ``item()``), ``f"{loss:.3f}"`` rounds it;
    other tensors print as str() and refuse a format spec."""
    def run(lib: ModuleType) -> str:
        loss = lib.tensor(0.5, requires_grad=True) * 3
        return (f"{loss} | {loss:.3f} | {lib.tensor(3)} | {lib.tensor(True)} | {lib.tensor(7):>3} | "
                f"{lib.tensor([1.0, 2.0])} | " + format(lib.tensor(2.5)))

    as_pytorch(run, (None, "'1.5 | 1.500 | 3 | True |   7 | tensor([1., 2.]) | 2.5'", []))
    raises(lambda lib: f"{lib.tensor([1.0, 2.0]):.2f}", TypeError,
           "unsupported format string passed to Tensor.__format__")


def test_node_classes_print_as_pytorchs() -> None:
    """A built-in node's class prints as PyTorch's C++ classes do (<class 'MulBackward0'>); a learner's
    Function's node lives in autograd.function, as in PyTorch, and its repr says so."""

    def nodes(lib: ModuleType) -> str:
        class MyExp(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x.exp()

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y, z = x * 2, MyExp.apply(x)
        return (f"{type(y.grad_fn)} {type(y.grad_fn.next_functions[0][0])} {type(z.grad_fn)} {z.grad_fn} "
                f"{y.grad_fn}")

    text = as_pytorch(nodes)[1]
    assert text.startswith("\"<class 'MulBackward0'> <class 'AccumulateGrad'> "
                           "<class 'tinygrad_edu.autograd.function.MyExpBackward'> "
                           "<tinygrad_edu.autograd.function.MyExpBackward object at 0x...> <MulBackward0 object at")


def test_lines_break_where_pytorchs_do_despite_the_longer_module_name() -> None:
    """PyTorch decides where to break a line from its own text, "dtype=torch.float64"; ours says
    "dtype=tinygrad_edu.float64", 7 characters longer, and must still break (or not) at the same place."""
    as_pytorch(lambda lib: lib.tensor([0.1257, -0.1321, 0.6404], dtype=lib.float64, requires_grad=True),
               (None, "tensor([ 0.1257, -0.1321,  0.6404], dtype=tinygrad_edu.float64, requires_grad=True)", []))


RETURN_TYPES = {
    "max": lambda lib: lib.tensor([[1.0, 3.0], [2.0, 0.0]]).max(0),
    "sort": lambda lib: lib.tensor([3.0, 1.0]).sort(),
    "aminmax": lambda lib: lib.aminmax(lib.tensor([3.0, 1.0])),
    "linalg_slogdet": lambda lib: lib.linalg.slogdet(lib.eye(2)),
    "slogdet": lambda lib: lib.slogdet(lib.eye(2)),
    "frexp": lambda lib: lib.frexp(lib.tensor([8.0])),
}


@pytest.mark.parametrize("name", RETURN_TYPES)
def test_return_types_are_named_as_pytorchs(name: str) -> None:
    """Named tuples print as PyTorch's, their class too, and an attribute they lack is refused in PyTorch's words
    (``x.max(1).backward()`` is a classic slip)."""
    def described(lib: ModuleType) -> Any:
        r = RETURN_TYPES[name](lib)
        try:
            r.backward()
        except AttributeError as e:
            return repr(type(r)), type(r).__name__, isinstance(r, tuple), str(e)

    as_pytorch(described, (None, f"(\"<class 'tinygrad_edu.return_types.{name}'>\", '{name}', True, "
                                 f"\"'tinygrad_edu.return_types.{name}' object has no attribute 'backward'\")", []))
