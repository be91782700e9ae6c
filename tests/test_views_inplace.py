"""In-place changes to views, as PyTorch records them: the base's history rewritten as CopySlices, the view's as
AsStridedBackward0, version counters shared, and PyTorch's refusals. Each program runs with tinygrad_edu and, when
torch is installed, with torch; what they print (graphs, gradients, errors) must be the same."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from _oracle import as_pytorch, raises

import tinygrad_edu as tg


def names(node: Any, depth: int = 3) -> Any:
    """A node and the nodes it leads to, by class name, ``depth`` levels deep."""
    if node is None:
        return None
    if depth == 0:
        return type(node).__name__
    return [type(node).__name__, [names(n, depth - 1) for n, _ in node.next_functions]]


def x_of(lib: ModuleType) -> Any:
    return lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)


def gradients(lib: ModuleType, program: Any) -> Any:
    """The gradient of ``(program(x) ** 2).sum()`` at x, and the graph ``program`` made."""
    x = x_of(lib)
    y = program(x)
    graph = names(y.grad_fn)
    (y ** 2).sum().backward()
    return graph, [round(g, 3) for g in x.grad.flatten().tolist()]  # (float32: numpy and PyTorch round apart)


PROGRAMS = {
    "x[0].mul_(2) on a clone": lambda x: _then(x.clone(), lambda b: b[0].mul_(2)),
    "x[:, 1].mul_(3) on a non-leaf": lambda x: _then(x * 1, lambda b: b[:, 1].mul_(3)),
    "b[0] = y": lambda x: _then(x.clone(), lambda b: b.__setitem__(0, x[1] * 2)),
    "b[0, 1] = 5.": lambda x: _then(x.clone(), lambda b: b.__setitem__((0, 1), 5.0)),
    "b[:, :2] = y, broadcast": lambda x: _then(x.clone(), lambda b: b.__setitem__((slice(None), slice(None, 2)),
                                                                                 x[0, :1].exp())),
    "a view of a view": lambda x: _then(x.clone(), lambda b: b[1][1:].add_(x[0, 1:])),
    "transposed": lambda x: _then(x.clone(), lambda b: b.t()[2].div_(4)),
    "view(-1)": lambda x: _then(x.clone(), lambda b: b.view(-1)[1:5].sub_(x[0, 0])),
    "unsqueeze, then copy_": lambda x: _then(x.clone(), lambda b: b.unsqueeze(0)[0, 1].copy_(x[0])),
    "zeros, part copied from x": lambda x: _then(x.new_zeros(2, 3) if hasattr(x, "new_zeros") else None,
                                                 lambda b: b[1].copy_(x[0].sin())),
    "two changes": lambda x: _then(x.clone(), lambda b: (b[0].mul_(x[1]), b[:, 0].add_(1))),
    "b[0] = a 0-d tensor: fill_": lambda x: _then(x.clone(), lambda b: b.__setitem__(0, x[1, 1] * 3)),
    "b[1:] = y of shape (1, 3)": lambda x: _then(x.clone(), lambda b: b.__setitem__(slice(1, None), x[:1] * 3)),
    "advanced index: index_put": lambda x: _then(x.clone(), lambda b: b.__setitem__([0, 1], x[0].cos())),
}


def _then(b: Any, change: Any) -> Any:
    change(b)
    return b


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_in_place_on_a_view_rewrites_the_base_history_as_pytorch(name: str) -> None:
    as_pytorch(lambda lib: gradients(lib, PROGRAMS[name]))


def test_the_changed_view_is_a_strided_part_of_the_new_history() -> None:
    def program(lib: ModuleType) -> Any:
        x = x_of(lib)
        b = x.clone()
        v = b[1]
        v.mul_(2)
        node = v.grad_fn
        return (names(node), node.next_functions[0][0] is b.grad_fn, node._saved_size, node._saved_stride,
                node._saved_storage_offset, b.grad_fn.name(), b._version, v._version, v._base is b, v.is_leaf)

    as_pytorch(program)


def test_other_views_of_a_changed_base_follow_its_new_history() -> None:
    """A view made before its base changed gives the gradient of what it shows now, not of what it showed."""
    def program(lib: ModuleType) -> Any:
        x = x_of(lib)
        b = x.clone()
        v, w = b[0], b[:, 2]
        b.mul_(2)  # through the base
        b[1].add_(x[0])  # through another view
        (v.sum() + (w * w).sum()).backward()
        return x.grad.tolist(), b._version, w._version

    as_pytorch(program)


def test_second_derivatives_through_copyslices() -> None:
    def program(lib: ModuleType) -> Any:
        x = x_of(lib)
        b = x.clone()
        b[0, 1:].mul_(x[1, 1:] ** 2)
        (g,) = lib.autograd.grad((b ** 3).sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        return [round(v, 2) for v in gg.flatten().tolist()]

    as_pytorch(program)


def test_copyslices_frees_what_the_op_saved() -> None:
    """After backward, the op inside CopySlices has freed its saved tensors: a second backward raises."""
    def program(lib: ModuleType) -> Any:
        x = x_of(lib)
        b = x.clone()
        b[0].mul_(x[1])
        s = b.sum()
        s.backward()
        s.backward()

    as_pytorch(program)


def test_mark_dirty_on_a_view() -> None:
    """A Function changing a view in place and marking it dirty: the base's history is rewritten too."""
    def program(lib: ModuleType) -> Any:
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                a.mul_(2)
                ctx.mark_dirty(a)
                return a

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g * 2

        x = x_of(lib)
        b = x.clone()
        v = b[0]
        r = Double.apply(v)
        graph = (r is v, names(v.grad_fn), names(b.grad_fn))
        (b * b).sum().backward()
        return graph, x.grad.tolist()

    as_pytorch(program)


VIEW_OF_LEAF = "a view of a leaf Variable that requires grad is being used in an in-place operation."
NO_GRAD_VIEW = ("A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that "
                "this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both "
                "the view and the inplace either both inside the no_grad block (if you don't want the inplace to be "
                "tracked) or both outside (if you want the inplace to be tracked).")
INFERENCE_VIEW = ("A view was created in inference mode and is being modified inplace in normal mode. Given that "
                  "this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving "
                  "both the view and the inplace either both inside the inference_mode block (if you don't want the "
                  "inplace to be tracked) or both outside (if you want the inplace to be tracked).")


def multi(op: str, i: int) -> str:
    return (f"Output {i} of {op} is a view and is being modified inplace. This view is the output of a function that "
            "returns multiple views. Such functions do not allow the output views to be modified inplace. You should "
            "replace the inplace operation by an out-of-place one.")


def _in(mode: Any, make: Any) -> Any:
    with mode:
        return make()


REFUSALS = {
    "a view of a leaf": (lambda lib, x: x[0].mul_(2), VIEW_OF_LEAF),
    "x[0] = y on a leaf": (lambda lib, x: x.__setitem__(0, lib.ones(3)), VIEW_OF_LEAF),
    "made in no_grad, of a non-leaf": (lambda lib, x: _in(lib.no_grad(), lambda: (b := x.clone(), b[0])[1]
                                                          ).mul_(x[0]), NO_GRAD_VIEW),
    "made in no_grad, of a leaf": (lambda lib, x: _in(lib.no_grad(), lambda: x[0]).mul_(2), NO_GRAD_VIEW),
    "made in inference mode": (lambda lib, x: (lambda b: _in(lib.inference_mode(), lambda: b[0]))(x * 1).mul_(x[0]),
                               INFERENCE_VIEW),
    "unbind's output": (lambda lib, x: x.clone().unbind(0)[1].mul_(2), multi("Unbind", 1)),
    "split's output": (lambda lib, x: x.clone().split(1)[0].mul_(2), multi("Split", 0)),
    "chunk's output": (lambda lib, x: x.clone().chunk(2)[1].add_(1), multi("Split", 1)),
    "mark_dirty on a view of a leaf": (lambda lib, x: _dirty(lib).apply(x[0]), VIEW_OF_LEAF),
}


def _dirty(lib: ModuleType) -> Any:
    class Twice(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            ctx.mark_dirty(a)
            return a.mul_(2)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2

    return Twice


@pytest.mark.parametrize("name", list(REFUSALS))
def test_refused_in_place_changes_of_views_as_pytorch(name: str) -> None:
    fn, message = REFUSALS[name]
    raises(lambda lib: fn(lib, x_of(lib)), RuntimeError, message)


def test_views_share_the_version_counter_and_in_place_without_grad_still_works() -> None:
    def program(lib: ModuleType) -> Any:
        x = x_of(lib)
        with lib.no_grad():
            v = x[0]
            v.mul_(2)  # both in no_grad: allowed, not recorded
        b = lib.zeros(2, 3)
        w = b.t()[1]
        w.add_(1)
        return x.tolist(), x._version, v._version, b.tolist(), b._version, w._version, b.requires_grad

    as_pytorch(program)


def test_a_view_made_without_grad_of_a_tensor_without_grad_takes_in_a_gradient() -> None:
    def program(lib: ModuleType) -> Any:
        x = x_of(lib)
        z = lib.zeros(2, 3)
        z[0] = x[1]
        graph = (names(z.grad_fn), z.requires_grad, z.is_leaf)
        z.sum().backward()
        return graph, x.grad.tolist()

    as_pytorch(program)


def test_view_records_how_it_was_made() -> None:
    x = tg.ones(2, 3, requires_grad=True)
    with tg.no_grad():
        assert x[0]._view_made == "no_grad"
    assert x[0]._view_made is None and x[0][1:]._view_made is None
    assert x.unbind(0)[1]._view_made == "multi"  # (one of several views: its node names the op)
