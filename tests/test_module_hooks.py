"""nn.Module hooks against PyTorch 2.13: forward pre-hooks, forward hooks, full backward (pre-)hooks.

Each check is a function of the library (``lib`` is tinygrad_edu or torch) whose outcome is spelled out
here and, when torch is installed, compared with what torch does (see ``_oracle.py``): the order hooks
run in, what they receive, what their return values replace, the backward graph the hooks add, and the
errors and warnings of misuse.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import Any

from _oracle import as_pytorch, raises

import tinygrad_edu as tg
from tinygrad_edu import nn

NO_INPUT_GRAD = (
    "UserWarning: Full backward hook is firing when gradients are computed with respect to module outputs since "
    "no inputs require gradients. See "
    "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook "
    "for more details."
)


def returns(fn: Callable[[ModuleType], Any], text: str, warnings: list[str] | None = None) -> None:
    """``fn`` returns something printed as ``text`` (with these warnings, none by default), in both libraries."""
    as_pytorch(fn, (None, text, warnings or []))


def linear(lib: ModuleType, weight: list, bias: list) -> Any:
    """A Linear layer with the given numbers (random ones would differ between the two libraries)."""
    layer = lib.nn.Linear(len(weight[0]), len(weight))
    with lib.no_grad():
        layer.weight.copy_(lib.tensor(weight))
        layer.bias.copy_(lib.tensor(bias))
    return layer


def graph(node: Any) -> Any:
    """The backward graph below ``node`` as nested (name, [inputs...]), None for an input with no node."""
    if node is None:
        return None
    return node.name(), [graph(n) for n, _ in node.next_functions]


def shapes(grads: tuple) -> list:
    return [None if g is None else list(g.shape) for g in grads]


# ------------------------------------------------------------------------------------------------ forward
def test_forward_hooks_run_in_order_and_prepend_goes_first() -> None:
    def fn(lib: ModuleType) -> Any:
        m = lib.nn.Identity()
        log = []
        m.register_forward_pre_hook(lambda mod, args: log.append("pre A"))
        m.register_forward_pre_hook(lambda mod, args: log.append("pre B"))
        m.register_forward_pre_hook(lambda mod, args: log.append("pre first"), prepend=True)
        m.register_forward_hook(lambda mod, args, out: log.append("fwd A"))
        m.register_forward_hook(lambda mod, args, out: log.append("fwd first"), prepend=True)
        m.register_forward_hook(lambda mod, args, out: log.append("fwd B"))
        m(lib.tensor(1.0))
        return log

    returns(fn, "['pre first', 'pre A', 'pre B', 'fwd first', 'fwd A', 'fwd B']")


def test_forward_pre_hook_replaces_the_arguments() -> None:
    def fn(lib: ModuleType) -> Any:
        class Add(lib.nn.Module):
            def forward(self, a: Any, b: Any) -> Any:
                return a + b

        m = Add()
        seen = []
        h1 = m.register_forward_pre_hook(lambda mod, args: (args[0] * 10, args[1]))  # a tuple: the new args
        h2 = m.register_forward_pre_hook(lambda mod, args: seen.append(args))  # None: args unchanged
        first = m(lib.tensor(1.0), lib.tensor(2.0))
        h1.remove()
        h2.remove()

        class Double(lib.nn.Module):
            def forward(self, x: Any) -> Any:
                return x * 2

        d = Double()
        d.register_forward_pre_hook(lambda mod, args: args[0] + 1)  # one value: wrapped into (value,)
        d.register_forward_pre_hook(lambda mod, args: seen.append(args))
        return first, seen, d(lib.tensor(3.0))

    returns(fn, "(tensor(12.), [(tensor(10.), tensor(2.)), (tensor(4.),)], tensor(8.))")


def test_forward_hook_sees_the_arguments_and_replaces_the_output() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = linear(lib, [[1.0, 2.0]], [0.5])
        seen = []
        layer.register_forward_hook(lambda mod, args, out: seen.append((type(mod).__name__, args, out)))
        layer.register_forward_hook(lambda mod, args, out: out * 100)
        layer.register_forward_hook(lambda mod, args, out: seen.append(out))  # sees the replaced output
        out = layer(lib.tensor([[1.0, 1.0]]))
        return seen, out

    returns(fn, "([('Linear', (tensor([[1., 1.]]),), tensor([[3.5000]], grad_fn=<AddmmBackward0>)), "
                "tensor([[350.]], grad_fn=<MulBackward0>)], tensor([[350.]], grad_fn=<MulBackward0>))")


def test_hooks_with_kwargs() -> None:
    def fn(lib: ModuleType) -> Any:
        class Scale(lib.nn.Module):
            def forward(self, x: Any, scale: float = 1.0) -> Any:
                return x * scale

        m = Scale()
        seen = []

        def pre(mod: Any, args: tuple, kwargs: dict) -> tuple:
            seen.append(("pre", args, dict(kwargs)))
            return (args[0] + 1,), {**kwargs, "scale": 10.0}

        m.register_forward_pre_hook(pre, with_kwargs=True)
        m.register_forward_pre_hook(lambda mod, args, kwargs: None, with_kwargs=True)  # None: unchanged
        m.register_forward_hook(lambda mod, args, kwargs, out: seen.append(("fwd", args, kwargs, out)),
                                with_kwargs=True)
        m.register_forward_hook(lambda mod, args, kwargs, out: out + kwargs["scale"], with_kwargs=True)
        out = m(lib.tensor(1.0), scale=3.0)
        return seen, out

    returns(fn, "([('pre', (tensor(1.),), {'scale': 3.0}), ('fwd', (tensor(2.),), {'scale': 10.0}, tensor(20.))], "
                "tensor(30.))")


def test_always_call_hooks_run_when_forward_raises() -> None:
    def fn(lib: ModuleType) -> Any:
        class Broken(lib.nn.Module):
            def forward(self, x: Any) -> Any:
                raise ValueError("forward failed")

        m = Broken()
        log = []
        m.register_forward_pre_hook(lambda mod, args: log.append("pre"))
        m.register_forward_hook(lambda mod, args, out: log.append("plain"))  # skipped: forward raised
        m.register_forward_hook(lambda mod, args, out: log.append(("always", args, out)), always_call=True)
        m.register_forward_hook(lambda mod, args, kwargs, out: log.append(("always kw", kwargs, out)),
                                always_call=True, with_kwargs=True)
        try:
            m(lib.tensor(1.0))
        except ValueError as e:
            log.append(str(e))
        return log

    returns(fn, "['pre', ('always', (tensor(1.),), None), ('always kw', {}, None), 'forward failed']")


def test_always_call_hook_errors_become_warnings_and_the_forward_error_wins() -> None:
    def fn(lib: ModuleType) -> Any:
        m = lib.nn.Linear(2, 2)

        def broken(mod: Any, args: tuple, out: Any) -> None:
            raise RuntimeError("hook failed too")

        m.register_forward_hook(broken, always_call=True)
        m(lib.ones(3, 5))  # the wrong width: forward raises

    as_pytorch(fn, ("RuntimeError", "mat1 and mat2 shapes cannot be multiplied (3x5 and 2x2)",
                    ["UserWarning: module forward hook with ``always_call=True`` raised an exception that was "
                     "silenced as another error was raised in forward: hook failed too"]))


def test_always_call_hook_runs_once_when_a_later_hook_raises() -> None:
    def fn(lib: ModuleType) -> Any:
        m = lib.nn.Identity()
        log = []
        m.register_forward_hook(lambda mod, args, out: log.append("always"), always_call=True)

        def failing(mod: Any, args: tuple, out: Any) -> None:
            raise KeyError("late")

        m.register_forward_hook(failing)
        m.register_forward_hook(lambda mod, args, out: log.append("always, not run yet"), always_call=True)
        try:
            m(lib.tensor(1.0))
        except KeyError:
            log.append("KeyError")
        return log

    returns(fn, "['always', 'always, not run yet', 'KeyError']")


def test_forward_pre_hook_with_kwargs_must_return_args_and_kwargs() -> None:
    def fn(lib: ModuleType) -> Any:
        m = lib.nn.Identity()
        m.register_forward_pre_hook(lambda mod, args, kwargs: args, with_kwargs=True)
        m(lib.tensor(1.0), lib.tensor(2.0), lib.tensor(3.0))

    raises(fn, RuntimeError, "forward pre-hook must return None or a tuple of (new_args, new_kwargs), but got "
                             "(tensor(1.), tensor(2.), tensor(3.)).")


def test_prepend_and_with_kwargs_are_keyword_only() -> None:
    raises(lambda lib: lib.nn.Identity().register_forward_hook(print, True), TypeError,
           "Module.register_forward_hook() takes 2 positional arguments but 3 were given")
    raises(lambda lib: lib.nn.Identity().register_forward_pre_hook(print, True), TypeError,
           "Module.register_forward_pre_hook() takes 2 positional arguments but 3 were given")


# ------------------------------------------------------------------------------------------------ handles
def test_handles_remove_their_own_registration() -> None:
    def fn(lib: ModuleType) -> Any:
        m = lib.nn.Identity()
        log = []

        def hook(mod: Any, args: tuple, out: Any) -> None:
            log.append(len(log))

        first = m.register_forward_hook(hook)
        second = m.register_forward_hook(hook)  # the same function twice: two registrations
        m(lib.tensor(1.0))
        first.remove()
        first.remove()  # removing twice is harmless
        m(lib.tensor(1.0))
        second.remove()
        m(lib.tensor(1.0))
        with m.register_forward_pre_hook(lambda mod, args: log.append("in the block")):
            m(lib.tensor(1.0))
        m(lib.tensor(1.0))
        return log

    returns(fn, "[0, 1, 2, 'in the block']")


def test_removed_hooks_leave_the_plain_path() -> None:
    m = nn.Linear(2, 2)
    assert not m._module_hooks  # no hooks yet: __call__ goes straight to forward
    handles = [m.register_forward_pre_hook(lambda mod, args: None), m.register_forward_hook(lambda *a: None),
               m.register_full_backward_pre_hook(lambda mod, g: None), m.register_full_backward_hook(lambda *a: None)]
    x = tg.ones(1, 2, requires_grad=True)
    assert m._module_hooks and m(x).grad_fn.name() == "BackwardHookFunctionBackward"
    for h in handles:
        h.remove()
    assert not m._module_hooks and m(x).grad_fn.name() == "AddmmBackward0"
    assert not nn.Linear(2, 2)._module_hooks  # hooks belong to one module, not to the class


# ------------------------------------------------------------------------------------------------ backward
def test_backward_hook_arguments_on_a_linear_layer() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = linear(lib, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [0.0, 0.0, 0.0])
        seen = []
        layer.register_full_backward_hook(lambda mod, gi, go: seen.append((type(mod).__name__, gi, go)))
        x = lib.tensor([[1.0, -1.0]], requires_grad=True)
        out = layer(x)
        (out * lib.tensor([[1.0, 2.0, 3.0]])).sum().backward()
        return seen, x.grad, layer.bias.grad

    # grad_output = d(loss)/d(out) = [1, 2, 3]; grad_input = grad_output @ W = [22, 28]: the gradient of x.
    returns(fn, "([('Linear', (tensor([[22., 28.]]),), (tensor([[1., 2., 3.]]),))], tensor([[22., 28.]]), "
                "tensor([1., 2., 3.]))")


def test_backward_hooks_add_border_nodes_to_the_graph() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = linear(lib, [[1.0, 2.0]], [0.0])
        layer.register_full_backward_hook(lambda mod, gi, go: None)
        x = lib.tensor([[1.0, 2.0]], requires_grad=True)
        out = layer(x)
        return graph(out.grad_fn), out, out._is_view(), out._base.grad_fn.name()

    returns(fn, "(('BackwardHookFunctionBackward', [('AddmmBackward0', [('tinygrad_edu::autograd::AccumulateGrad', "
                "[]), ('BackwardHookFunctionBackward', [('tinygrad_edu::autograd::AccumulateGrad', [])]), "
                "('TBackward0', [('tinygrad_edu::autograd::AccumulateGrad', [])])])]), "
                "tensor([[5.]], grad_fn=<BackwardHookFunctionBackward>), True, 'AddmmBackward0')")


def test_only_forward_hooks_add_no_nodes() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = linear(lib, [[1.0, 2.0]], [0.0])
        layer.register_forward_hook(lambda mod, args, out: None)
        layer.register_forward_pre_hook(lambda mod, args: None)
        out = layer(lib.tensor([[1.0, 2.0]], requires_grad=True))
        return out.grad_fn.name(), out._is_view()

    returns(fn, "('AddmmBackward0', False)")


def test_backward_hooks_with_several_inputs_and_outputs() -> None:
    def fn(lib: ModuleType) -> Any:
        class Mix(lib.nn.Module):
            def forward(self, a: Any, scale: float, b: Any, c: Any) -> Any:
                return a * scale + b, a * c, c * 2

        m = Mix()
        seen = []
        m.register_full_backward_pre_hook(lambda mod, go: seen.append(("pre", go)))
        m.register_full_backward_hook(lambda mod, gi, go: seen.append(("full", gi, go)))
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0], requires_grad=True)
        c = lib.tensor([5.0, 6.0])  # needs no gradient
        p, q, r = m(a, 3.0, b, c)
        nodes = graph(p.grad_fn)
        (p + q).sum().backward()  # r is not used
        return nodes, r.requires_grad, r.grad_fn, seen, a.grad, b.grad

    # The node at the inputs has one edge per tensor argument: a, b, and None for c that needs no gradient; the
    # node at the outputs one per output: p, q, and None for r. In the hooks, grad_input holds None for the number
    # 3.0 and zeros for c; grad_output holds None for r, which got no gradient.
    acc = "('tinygrad_edu::autograd::AccumulateGrad', [])"
    inputs = f"('BackwardHookFunctionBackward', [{acc}, {acc}, None])"
    nodes = (f"('BackwardHookFunctionBackward', [('AddBackward0', [('MulBackward0', [{inputs}, None]), {inputs}]), "
             f"('MulBackward0', [{inputs}, None]), None])")
    returns(fn, f"({nodes}, False, None, [('pre', (tensor([1., 1.]), tensor([1., 1.]), None)), "
                "('full', (tensor([8., 9.]), None, tensor([1., 1.]), tensor([0., 0.])), "
                "(tensor([1., 1.]), tensor([1., 1.]), None))], tensor([8., 9.]), tensor([1., 1.]))")


def test_forward_receives_views_of_the_inputs() -> None:
    def fn(lib: ModuleType) -> Any:
        class Look(lib.nn.Module):
            def forward(self, a: Any, b: Any) -> Any:
                seen.append((a._is_view(), a.grad_fn.name(), b._is_view(), b.grad_fn, b.requires_grad))
                return a + b

        seen = []
        m = Look()
        m.register_full_backward_hook(lambda mod, gi, go: None)
        m(lib.tensor([1.0], requires_grad=True), lib.tensor([2.0]))
        return seen

    returns(fn, "[(True, 'BackwardHookFunctionBackward', True, None, False)]")


def test_backward_pre_hook_replaces_grad_output() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = linear(lib, [[1.0, 2.0]], [0.0])
        seen = []
        layer.register_full_backward_pre_hook(lambda mod, go: (go[0] * 10,))
        layer.register_full_backward_pre_hook(lambda mod, go: seen.append(("pre", go)))  # sees the new one
        layer.register_full_backward_hook(lambda mod, gi, go: seen.append(("full", gi, go)))
        x = lib.tensor([[1.0, 1.0]], requires_grad=True)
        layer(x).sum().backward()
        return seen, x.grad, layer.weight.grad, layer.bias.grad  # every gradient below the layer is 10x

    returns(fn, "([('pre', (tensor([[10.]]),)), ('full', (tensor([[10., 20.]]),), (tensor([[10.]]),))], "
                "tensor([[10., 20.]]), tensor([[10., 10.]]), tensor([10.]))")


def test_backward_hook_replaces_grad_input() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = linear(lib, [[1.0, 2.0]], [0.0])
        seen = []
        layer.register_full_backward_hook(lambda mod, gi, go: seen.append(("first", gi)))
        layer.register_full_backward_hook(lambda mod, gi, go: (gi[0].clamp(max=1.5),))
        layer.register_full_backward_hook(lambda mod, gi, go: seen.append(("last", gi)))  # sees the new one
        layer.register_full_backward_hook(lambda mod, gi, go: seen.append(("prepended", gi)), prepend=True)
        x = lib.tensor([[1.0, 1.0]], requires_grad=True)
        layer(x).sum().backward()
        return seen, x.grad, layer.weight.grad  # the parameters' gradients are not grad_input: unchanged

    returns(fn, "([('prepended', (tensor([[1., 2.]]),)), ('first', (tensor([[1., 2.]]),)), "
                "('last', (tensor([[1.0000, 1.5000]]),))], tensor([[1.0000, 1.5000]]), tensor([[1., 1.]]))")


def test_backward_hooks_when_no_input_requires_grad() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = linear(lib, [[1.0, 2.0]], [0.0])
        seen = []
        layer.register_full_backward_hook(lambda mod, gi, go: seen.append((gi, go)))
        out = layer(lib.tensor([[1.0, 1.0]]))  # plain data, as fed to a first layer
        out.sum().backward()
        return seen, layer.weight.grad

    # No input node can run, so the hook fires at the outputs, with grad_input all None, and warns.
    returns(fn, "([((None,), (tensor([[1.]]),))], tensor([[1., 1.]]))", [NO_INPUT_GRAD])


def test_backward_hooks_do_nothing_without_grad() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = linear(lib, [[1.0, 2.0]], [0.0])
        seen = []
        layer.register_full_backward_hook(lambda mod, gi, go: seen.append("full"))
        layer.register_forward_hook(lambda mod, args, out: seen.append("forward"))
        with lib.no_grad():
            out = layer(lib.tensor([[1.0, 1.0]], requires_grad=True))
        out.mul_(2)  # a plain tensor: no view, no refusal
        return seen, out, out._is_view()

    returns(fn, "(['forward'], tensor([[6.]]), False)")


def test_backward_hooks_fire_on_every_backward() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = linear(lib, [[2.0]], [0.0])
        seen = []
        layer.register_full_backward_pre_hook(lambda mod, go: seen.append(("pre", go)))
        layer.register_full_backward_hook(lambda mod, gi, go: seen.append(("full", gi)))
        x = lib.tensor([[1.0]], requires_grad=True)
        out = layer(x)
        out.sum().backward(retain_graph=True)
        (out * 3).sum().backward()
        return seen

    returns(fn, "[('pre', (tensor([[1.]]),)), ('full', (tensor([[2.]]),)), ('pre', (tensor([[3.]]),)), "
                "('full', (tensor([[6.]]),))]")


def test_hooks_registered_after_forward_wait_for_the_next_call() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = linear(lib, [[2.0]], [0.0])
        seen = []
        handle = layer.register_full_backward_hook(lambda mod, gi, go: seen.append("registered before"))
        x = lib.tensor([[1.0]], requires_grad=True)
        out = layer(x)
        layer.register_full_backward_hook(lambda mod, gi, go: seen.append("registered after"))
        handle.remove()  # too late for this forward: its backward still calls it
        out.sum().backward()
        layer(x).sum().backward()
        return seen

    returns(fn, "['registered before', 'registered after']")


def test_output_that_is_not_a_tensor_warns() -> None:
    def fn(lib: ModuleType) -> Any:
        class AsDict(lib.nn.Module):
            def forward(self, x: Any) -> Any:
                return {"y": x * 2}

        m = AsDict()
        seen = []
        m.register_full_backward_hook(lambda mod, gi, go: seen.append("full"))
        m(lib.tensor([1.0], requires_grad=True))["y"].sum().backward()
        return seen

    returns(fn, "[]", ["UserWarning: For backward hooks to be called, module output should be a Tensor or a tuple "
                       "of Tensors but received <class 'dict'>"])


# ------------------------------------------------------------------------------------------------ modules
def test_hooks_on_a_sequential_and_its_layers() -> None:
    def fn(lib: ModuleType) -> Any:
        model = lib.nn.Sequential(linear(lib, [[1.0, -1.0], [2.0, 0.5]], [0.0, -4.0]), lib.nn.ReLU(),
                                  linear(lib, [[1.0, 3.0]], [0.0]))
        log = []
        for name, module in model.named_modules():
            name = name or "model"
            module.register_forward_pre_hook(lambda mod, args, name=name: log.append(f"pre {name}"))
            module.register_forward_hook(lambda mod, args, out, name=name: log.append(f"forward {name}"))
            module.register_full_backward_pre_hook(
                lambda mod, go, name=name: log.append(f"backward pre {name} {shapes(go)}"))
            module.register_full_backward_hook(
                lambda mod, gi, go, name=name: log.append(f"backward {name} {shapes(gi)} {shapes(go)}"))
        x = lib.tensor([[1.0, 2.0], [3.0, 1.0]], requires_grad=True)
        out = model(x)
        out.sum().backward()
        return log, x.grad

    returns(fn, "(['pre model', 'pre 0', 'forward 0', 'pre 1', 'forward 1', 'pre 2', 'forward 2', 'forward model', "
                "'backward pre model [[2, 1]]', 'backward pre 2 [[2, 1]]', 'backward 2 [[2, 2]] [[2, 1]]', "
                "'backward pre 1 [[2, 2]]', 'backward 1 [[2, 2]] [[2, 2]]', 'backward pre 0 [[2, 2]]', "
                "'backward 0 [[2, 2]] [[2, 2]]', 'backward model [[2, 2]] [[2, 1]]'], "
                "tensor([[0.0000, 0.0000],\n        [7.0000, 0.5000]]))")  # the first row: relu is off


def test_gradient_norms_per_layer() -> None:
    """The lesson's use: watch how big the gradients are as they flow back through the layers."""

    def fn(lib: ModuleType) -> Any:
        model = lib.nn.Sequential(linear(lib, [[1.0, -2.0], [0.5, 1.0]], [0.0, 0.0]), lib.nn.Tanh(),
                                  linear(lib, [[3.0, 4.0]], [1.0]))
        norms = {}
        for name, layer in model.named_children():
            layer.register_full_backward_hook(
                lambda mod, gi, go, name=name: norms.__setitem__(name, round(go[0].norm().item(), 4)))
        model(lib.tensor([[0.5, 0.25]], requires_grad=True)).sum().backward()
        return norms

    # x = [.5, .25] -> h = [0, .5] -> tanh -> out. At the last layer 1; above tanh w2 = [3, 4], norm 5; below
    # it [3, 4] * (1 - tanh(h)**2) = [3, 3.1458], norm 4.347: tanh's slope shrinks gradients as they pass.
    returns(fn, "{'2': 1.0, '1': 5.0, '0': 4.347}")


def test_hooks_survive_deepcopy_and_leave_no_cycles() -> None:
    import copy

    layer = nn.Linear(2, 2)
    seen = []
    layer.register_full_backward_hook(lambda mod, gi, go: seen.append(mod))
    twin = copy.deepcopy(layer)
    twin(tg.ones(1, 2, requires_grad=True)).sum().backward()
    assert seen == [twin]

    gc.collect()
    gc.disable()  # freed by reference counting alone, as every graph must be
    try:
        out = layer(tg.ones(1, 2, requires_grad=True))
        refs = [weakref.ref(o) for o in (out, out.grad_fn, out.grad_fn.next_functions[0][0])]
        out.sum().backward()
        del out
        assert all(r() is None for r in refs)
    finally:
        gc.enable()


# ------------------------------------------------------------------------------------------------ errors
def test_backward_hooks_must_return_as_many_gradients() -> None:
    def pre(lib: ModuleType) -> Any:
        layer = lib.nn.Linear(2, 1)
        layer.register_full_backward_pre_hook(lambda mod, go: (go[0], go[0]))
        layer(lib.ones(1, 2, requires_grad=True)).sum().backward()

    def full(lib: ModuleType) -> Any:
        layer = lib.nn.Linear(2, 1)
        layer.register_full_backward_hook(lambda mod, gi, go: (gi[0], None))
        layer(lib.ones(1, 2, requires_grad=True)).sum().backward()

    raises(pre, RuntimeError, "Backward pre hook returned an invalid number of grad_output, got 2, but expected 1")
    raises(full, RuntimeError, "Backward hook returned an invalid number of grad_input, got 2, but expected 1")


def test_backward_hooks_must_keep_shapes_and_dtypes() -> None:
    def pre_shape(lib: ModuleType) -> Any:
        layer = lib.nn.Linear(2, 1)
        layer.register_full_backward_pre_hook(lambda mod, go: (lib.ones(3),))
        layer(lib.ones(1, 2, requires_grad=True)).sum().backward()

    def full_dtype(lib: ModuleType) -> Any:
        layer = lib.nn.Linear(2, 1)
        layer.register_full_backward_hook(lambda mod, gi, go: (gi[0].double(),))
        layer(lib.ones(1, 2, requires_grad=True)).sum().backward()

    raises(pre_shape, RuntimeError, "hook 'hook' has changed the size of value")
    raises(full_dtype, RuntimeError,
           "hook 'hook' has changed the type of value (was tinygrad_edu.FloatTensor got tinygrad_edu.DoubleTensor)")


def test_backward_hook_without_input_grads_must_return_none() -> None:
    def fn(lib: ModuleType) -> Any:
        layer = lib.nn.Linear(2, 1)
        layer.register_full_backward_hook(lambda mod, gi, go: (lib.ones(1, 2),))
        layer(lib.ones(1, 2)).sum().backward()

    as_pytorch(fn, ("RuntimeError", "Backward hook for Modules where no input requires gradient should always "
                                    "return None or None for all gradients.", [NO_INPUT_GRAD]))


VIEW_FROM_FUNCTION = ("Output 0 of BackwardHookFunction is a view and is being modified inplace. This view was created "
                      "inside a custom Function (or because an input was returned as-is) and the autograd logic to "
                      "handle view+inplace would override the custom backward associated with the custom Function, "
                      "leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the "
                      "output of the custom Function.")
VIEW_OF_MANY = ("Output 1 of BackwardHookFunction is a view and is being modified inplace. This view is the output "
                "of a function that returns multiple views. Such functions do not allow the output views to be "
                "modified inplace. You should replace the inplace operation by an out-of-place one.")


def test_in_place_changes_of_the_hooked_views_are_refused() -> None:
    def output(lib: ModuleType) -> Any:
        layer = lib.nn.Linear(2, 2)
        layer.register_full_backward_hook(lambda mod, gi, go: None)
        layer(lib.ones(1, 2, requires_grad=True)).relu_()

    def inplace_relu_after_hooked_layer(lib: ModuleType) -> Any:  # the classic way to meet the error
        model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.ReLU(inplace=True))
        model[0].register_full_backward_hook(lambda mod, gi, go: None)
        model(lib.ones(1, 2))

    def second_of_two_outputs(lib: ModuleType) -> Any:
        class Two(lib.nn.Module):
            def forward(self, a: Any) -> Any:
                return a * 2, a * 3

        m = Two()
        m.register_full_backward_pre_hook(lambda mod, go: None)
        _, b = m(lib.ones(2, requires_grad=True))
        b.add_(1)

    def input_in_forward(lib: ModuleType) -> Any:
        class Scale(lib.nn.Module):
            def forward(self, a: Any, b: Any) -> Any:
                b.mul_(2)  # b is a view made by the hook node
                return a + b

        m = Scale()
        m.register_full_backward_hook(lambda mod, gi, go: None)
        m(lib.ones(2, requires_grad=True), lib.ones(2) * lib.ones(2, requires_grad=True))

    raises(output, RuntimeError, VIEW_FROM_FUNCTION)
    raises(inplace_relu_after_hooked_layer, RuntimeError, VIEW_FROM_FUNCTION)
    raises(second_of_two_outputs, RuntimeError, VIEW_OF_MANY)
    raises(input_in_forward, RuntimeError, VIEW_OF_MANY)


def test_in_place_changes_that_autograd_does_not_see_are_allowed() -> None:
    def fn(lib: ModuleType) -> Any:
        class Scale(lib.nn.Module):
            def forward(self, a: Any, b: Any) -> Any:
                b.mul_(2)  # b needs no gradient: its view is not part of the graph
                return a * b

        m = Scale()
        m.register_full_backward_hook(lambda mod, gi, go: None)
        out = m(lib.ones(2, requires_grad=True), lib.ones(2))
        with lib.no_grad():
            out.add_(1)  # not recorded
        return out.detach()

    returns(fn, "tensor([3., 3.])")
