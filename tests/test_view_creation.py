"""How a view was made decides whether it may be changed in place (PyTorch's CreationMeta): while recording (yes),
in no_grad or inference mode, as one of several views an op returned, or by a custom Function (no: each with its own
message). A view of a tensor that requires grad requires grad however it was made; a view of an inference tensor is
an inference tensor, untracked. Each program runs with tinygrad_edu and, when torch is installed, with torch: results,
exception types and messages must be the same."""

from __future__ import annotations

import importlib
import warnings
from types import ModuleType
from typing import Any

import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg

CUSTOM = ("This view was created inside a custom Function (or because an input was returned as-is) and the autograd "
          "logic to handle view+inplace would override the custom backward associated with the custom Function, "
          "leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the output of the "
          "custom Function.")
MULTI = ("This view is the output of a function that returns multiple views. Such functions do not allow the output "
         "views to be modified inplace. You should replace the inplace operation by an out-of-place one.")
NO_GRAD = ("Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
           "moving both the view and the inplace either both inside the {} block (if you don't want the inplace to be "
           "tracked) or both outside (if you want the inplace to be tracked).")
CHANGED = "Output 0 of {} is a view and is being modified inplace. "
INDIRECT = "Output 0 of {} is a view and its base or another view of its base has been modified inplace. "


def fn(lib: ModuleType, name: str, forward: Any, backward: Any = lambda ctx, *g: g) -> Any:
    """A custom Function called ``name``, its forward and backward given as plain functions."""
    return type(name, (lib.autograd.Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})


def clone_of(lib: ModuleType, n: int = 3) -> Any:
    return lib.ones(n, requires_grad=True).clone()


def view_of_input(lib: ModuleType) -> Any:
    return fn(lib, "Narrow", lambda ctx, x: x.narrow(0, 0, 2))


REFUSED = {
    "a custom Function's view of its input": (
        lambda lib: view_of_input(lib).apply(clone_of(lib)).add_(1), CHANGED.format("Narrow") + CUSTOM),
    "a custom Function's view of a tensor it made": (
        lambda lib: fn(lib, "ViewOfTemp", lambda ctx, x: x.clone()[0]).apply(clone_of(lib)).mul_(2),
        CHANGED.format("ViewOfTemp") + CUSTOM),
    "an input a custom Function returned as it is": (
        lambda lib: fn(lib, "Same", lambda ctx, x: x).apply(clone_of(lib)).add_(1), CHANGED.format("Same") + CUSTOM),
    "a view of a custom Function's view": (
        lambda lib: view_of_input(lib).apply(clone_of(lib))[0].add_(1), CHANGED.format("Select") + CUSTOM),
    "a custom Function's view, of a tensor that needs no gradient": (
        lambda lib: view_of_input(lib).apply(lib.ones(3)).add_(lib.ones(2, requires_grad=True)),
        "A view was created in no_grad mode and is being modified inplace with grad mode enabled. " + CUSTOM),
    "one of a custom Function's two differentiable outputs": (
        lambda lib: fn(lib, "Two", lambda ctx, x: (x[:2], x * 2)).apply(clone_of(lib))[0].add_(1),
        CHANGED.format("Two") + MULTI),
    "a view made in inference mode": (
        lambda lib: _made_in(lib.inference_mode(), clone_of(lib)).add_(lib.ones(3)),
        "A view was created in inference mode and is being modified inplace in normal mode. " +
        NO_GRAD.format("inference_mode")),
    "a view of a view made in inference mode": (
        lambda lib: _made_in(lib.inference_mode(), clone_of(lib)).view(-1).add_(1),
        "Output 0 of View is a view of a view which was created in inference mode and is being modified inplace in "
        "normal mode. " + NO_GRAD.format("inference_mode")),
    # the view's history is asked for (to record a new op) after its base changed in place
    "a custom Function's view, used after its base changed": (
        lambda lib: (lambda b: (v := view_of_input(lib).apply(b), b.mul_(2), v * 2))(clone_of(lib)),
        INDIRECT.format("Narrow") + CUSTOM),
    "a view made in no_grad mode, used after its base changed": (
        lambda lib: (lambda b: (v := _made_in(lib.no_grad(), b), b.mul_(2), v * 2))(clone_of(lib)),
        "A view was created in no_grad mode and its base or another view of its base has been modified inplace with "
        "grad mode enabled. " + NO_GRAD.format("no_grad")),
}


def _made_in(mode: Any, base: Any) -> Any:
    with mode:
        return base.view(-1)


@pytest.mark.parametrize("name", list(REFUSED))
def test_refused_in_place_changes_as_pytorch(name: str) -> None:
    program, message = REFUSED[name]
    raises(program, RuntimeError, message)


def dirty(lib: ModuleType, name: str, forward: Any) -> Any:
    """A custom Function that changes something in place and says so (``mark_dirty``)."""
    def marking(ctx: Any, *args: Any) -> Any:
        out, changed = forward(*args)
        ctx.mark_dirty(changed)
        return out

    return fn(lib, name, marking)


MARK_DIRTY = {
    "a view of a tensor forward made": (
        lambda lib: dirty(lib, "F", lambda x: ((v := x.clone().view_as(x)), v)).apply(clone_of(lib)),
        "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have been mutated should "
        "be passed to ctx.mark_dirty()."),
    "an input that is a view, with two outputs": (
        lambda lib: dirty(lib, "F", lambda x: ((x.add_(1), x * 2), x)).apply(clone_of(lib)[:2]),
        "If your Function modifies inplace an input that is a view of another Tensor, your Function cannot return "
        "more than one Tensor."),
    "an input that is one of several views": (
        lambda lib: dirty(lib, "F", lambda x: (x.add_(1), x)).apply(clone_of(lib).unbind()[0]),
        "Output 0 of Unbind is a view and is being modified inplace. " + MULTI),
}


@pytest.mark.parametrize("name", list(MARK_DIRTY))
def test_mark_dirty_refusals_as_pytorch(name: str) -> None:
    program, message = MARK_DIRTY[name]
    kind, text, caught = as_pytorch(program)  # (PyTorch's message on two outputs goes on: how to split the Function)
    assert kind == "RuntimeError" and text.startswith(message) and caught == []


def test_mark_dirty_of_a_tensor_forward_made_is_warned_about() -> None:
    as_pytorch(lambda lib: dirty(lib, "F", lambda x: ((c := x * 3), c)).apply(clone_of(lib)).grad_fn.name(),
               (None, "'FBackward'", ["UserWarning: " + MARK_DIRTY["a view of a tensor forward made"][1]]))


def outputs(lib: ModuleType) -> Any:
    """What a custom Function's outputs that share an input's storage are: views of it, or a detached alias."""
    same, narrow = fn(lib, "Same", lambda ctx, x: x), view_of_input(lib)
    x, plain = clone_of(lib), lib.ones(3)
    y, z = same.apply(x), same.apply(plain)
    with lib.no_grad():
        w, v = same.apply(x), narrow.apply(x)
    return [(t is src, t._base is src, t.requires_grad, t.is_leaf) for t, src in ((y, x), (z, plain), (w, x), (v, x))]


def test_outputs_sharing_an_input_are_views_as_pytorch() -> None:
    assert as_pytorch(outputs)[1] == repr([(False, True, True, False), (False, True, False, True),
                                          (False, False, False, True), (False, True, True, True)])


def test_a_pure_view_may_be_changed_in_place_as_pytorch() -> None:
    """``ctx._is_pure_view = True``: the output is a plain view of the one input, changed in place as any view
    (autograd replays the view: the Function's backward is not called)."""
    def program(lib: ModuleType) -> Any:
        called = []

        def forward(ctx: Any, x: Any) -> Any:
            ctx._is_pure_view = True
            return x[:2]

        def backward(ctx: Any, g: Any) -> Any:
            called.append(1)
            return lib.cat([g, lib.zeros(1)])

        a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = fn(lib, "Pure", forward, backward).apply(a.clone())
        y.mul_(a[:2])
        y.sum().backward()
        return a.grad.tolist(), called, type(y.grad_fn).__name__

    as_pytorch(program)


def test_a_pure_view_has_one_input_and_one_output() -> None:
    def forward(ctx: Any, x: Any, y: Any) -> Any:
        ctx._is_pure_view = True
        return x[:2]

    raises(lambda lib: fn(lib, "Pure", forward).apply(clone_of(lib), clone_of(lib)), RuntimeError,
           "Pure view custom Function can only have one input Tensor and one output Tensor. Open an issue if you "
           "need to support more.")


def test_views_made_without_grad_mode_as_pytorch() -> None:
    """A view of a tensor that requires grad requires grad, even made in no_grad or inference mode (an op on it is
    recorded, with no gradient flowing back through it); a view of an inference tensor is one, untracked."""
    def program(lib: ModuleType) -> Any:
        a = lib.ones(2, 3, requires_grad=True).clone()
        with lib.no_grad():
            n = a.view(-1)
        with lib.inference_mode():
            i = a.view(-1)
            c, d = lib.ones(2, 3, requires_grad=True), lib.ones(2, 3)
        y, v, u = i * 2, c.view(-1), d.unbind()[0]
        return ([(t.requires_grad, t.is_leaf, t._is_view(), lib.is_inference(t)) for t in (n, i, v, u)],
                repr(n), y.grad_fn.name(), y.grad_fn.next_functions[0][0])

    as_pytorch(program)


def test_an_inplace_custom_function_changes_its_tangent_in_place_as_pytorch() -> None:
    """Forward mode: a Function that changes an input in place (mark_dirty) must change that input's tangent in place
    too, and return it as it is."""
    def inplace_mul(lib: ModuleType, jvp: Any) -> Any:
        def forward(ctx: Any, x: Any) -> Any:
            ctx.mark_dirty(x)
            return x.mul_(2)

        return type("InplaceMul", (fn(lib, "F", forward),), {"jvp": staticmethod(jvp)})

    def program(lib: ModuleType, jvp: Any) -> Any:
        fw = importlib.import_module(lib.__name__ + ".autograd.forward_ad")
        with fw.dual_level():
            x = fw.make_dual(lib.ones(2), lib.ones(2))
            y = inplace_mul(lib, jvp).apply(x)
            return y is x, fw.unpack_dual(y).tangent.tolist()

    with warnings.catch_warnings():  # (run once first: torch's first dual level warns about torch.jit)
        warnings.simplefilter("ignore")
        for lib in (tg, oracle()):
            lib and program(lib, lambda ctx, t: t.mul_(2))
    as_pytorch(lambda lib: program(lib, lambda ctx, t: t.mul_(2)))
    raises(lambda lib: program(lib, lambda ctx, t: t), RuntimeError,
           "An inplace custom Function is not modifying the forward mode gradients inplace. If the forward is "
           "modifying an input inplace, then the jvp function must modify the corresponding gradient inplace.")
    raises(lambda lib: program(lib, lambda ctx, t: t.mul_(2).clone().add_(0)), RuntimeError,
           "An inplace custom Function is not returning the forward mode gradients as-is. If the forward is modifying "
           "an input inplace, then the jvp function must modify the gradient inplace and return it as-is.")


def test_a_view_whose_history_would_be_refused_prints_invalid_as_pytorch() -> None:
    def program(lib: ModuleType) -> Any:
        a = lib.ones(2, requires_grad=True)
        with lib.no_grad():
            b = a[:1]
            b *= 2
        return b

    assert as_pytorch(program)[1] == "tensor([2.], grad_fn=<Invalid>)"


# -- the in-place shape changes are PyTorch ops of their own, with nodes named apart ---------------------------------
IN_PLACE_SHAPES = {
    "t_": (lambda x: x.t_(), "TBackward1"),
    "transpose_": (lambda x: x.transpose_(0, 1), "TransposeBackward1"),
    "swapdims_": (lambda x: x.swapdims_(0, 1), "TransposeBackward1"),
    "squeeze_()": (lambda x: x.squeeze_(), "SqueezeBackward3"),
    "squeeze_(0)": (lambda x: x.squeeze_(0), "SqueezeBackward4"),
    "squeeze_((0,))": (lambda x: x.squeeze_((0,)), "SqueezeBackward5"),
    "unsqueeze_": (lambda x: x.unsqueeze_(0), "UnsqueezeBackward1"),
}


@pytest.mark.parametrize("name", IN_PLACE_SHAPES)
def test_in_place_shape_changes_print_their_own_node(name: str) -> None:
    change, node = IN_PLACE_SHAPES[name]

    def changed(lib: ModuleType) -> Any:
        leaf = lib.ones(1, 2, requires_grad=True)
        x = change(leaf.clone())
        x.sum().backward()
        return type(x.grad_fn).__name__, type(x.grad_fn.next_functions[0][0]).__name__, leaf.grad

    as_pytorch(changed, (None, f"('{node}', 'CloneBackward0', tensor([[1., 1.]]))", []))
