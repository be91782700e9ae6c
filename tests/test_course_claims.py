"""What the lessons 05b, 06b and 08b claim about PyTorch, checked against PyTorch itself.

Each claim is written once, as a function of the library module ``lib`` (``tinygrad_edu`` or ``torch``), and its
result is spelled out, so the test means something without torch; with torch installed (``.ci/run`` installs it)
the same function must give the same result with PyTorch.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg


def same_in_both(fn: Any, expected: Any) -> None:
    """``fn(lib)`` returns ``expected`` for tinygrad_edu, and for PyTorch when it is installed."""
    assert fn(tg) == expected
    torch = oracle()
    if torch is not None:
        assert fn(torch) == expected


# -- 05b: what a node is ----------------------------------------------------------------------------------------
def _exp_function(lib: ModuleType) -> type:
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, i: Any) -> Any:
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            (result,) = ctx.saved_tensors
            return grad_output * result

    return Exp


@pytest.mark.parametrize("op", ["mul", "add", "pow", "unbind", "sum", "custom"])
def test_a_node_is_a_graph_node_and_not_a_function(op: str) -> None:
    def node_facts(lib: ModuleType) -> tuple[bool, bool, bool]:
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        made = {"mul": lambda: a * 3, "add": lambda: a + a, "pow": lambda: 2 ** a, "unbind": lambda: a.unbind()[1],
                "sum": lambda: a.sum(), "custom": lambda: _exp_function(lib).apply(a)}[op]()
        node = made.grad_fn
        return (lib.autograd.Function in type(node).__mro__, isinstance(node, lib.autograd.Function),
                isinstance(node, lib.autograd.graph.Node))

    same_in_both(node_facts, (False, False, True))


def test_a_custom_function_class_is_a_function_and_its_node_is_named_after_it() -> None:
    def facts(lib: ModuleType) -> tuple[bool, str]:
        exp = _exp_function(lib)
        return issubclass(exp, lib.autograd.Function), type(exp.apply(lib.ones(2, requires_grad=True)).grad_fn).__name__

    same_in_both(facts, (True, "ExpBackward"))


def test_each_node_saves_what_its_formula_needs() -> None:
    names = ["_saved_self", "_saved_other", "_saved_result", "_saved_exponent"]

    def saved(lib: ModuleType) -> dict[str, list[str]]:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        made = {"add": x + w, "mul": x * w, "exp": x.exp(), "pow": x ** 2, "sum": x.sum()}
        return {op: [n for n in names if hasattr(t.grad_fn, n)] for op, t in made.items()}

    same_in_both(saved, {"add": [], "mul": ["_saved_self", "_saved_other"], "exp": ["_saved_result"],
                         "pow": ["_saved_self", "_saved_exponent"], "sum": []})


def test_the_index_in_next_functions_is_the_output_number() -> None:
    def indices(lib: ModuleType) -> tuple[tuple[int, ...], tuple[int, ...]]:
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        first, second, third = x.unbind()
        z = third * first + second
        return (tuple(i for _, i in z.grad_fn.next_functions),
                tuple(i for _, i in z.grad_fn.next_functions[0][0].next_functions))

    same_in_both(indices, ((0, 1), (2, 0)))


def test_a_hook_that_returns_a_tensor_replaces_the_gradient_behind_it() -> None:
    def clipped(lib: ModuleType) -> list[float]:
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        h = x * 2
        h.register_hook(lambda grad: grad.clamp(max=5.0))
        (h * h).sum().backward()
        return x.grad.tolist()

    same_in_both(clipped, [8.0, 10.0, 10.0])


def test_the_hook_mistakes_raise_as_in_pytorch() -> None:
    raises(lambda lib: lib.tensor([1.0]).register_hook(lambda g: g), RuntimeError,
           "cannot register a hook on a tensor that doesn't require gradient")

    def reshaping_hook(lib: ModuleType) -> None:
        h = lib.tensor([1.0, 2.0], requires_grad=True) * 2
        h.register_hook(lambda grad: grad.sum())
        h.sum().backward()

    raises(reshaping_hook, RuntimeError, "hook '<lambda>' has changed the size of value")


# -- 06b: gradients through broadcasting --------------------------------------------------------------------------
@pytest.mark.parametrize(("shape", "other"), [((3,), (4, 3)), ((3, 1), (1, 4)), ((1, 4), (3, 1)),
                                               ((2, 1, 4), (3, 1)), ((3, 1), (2, 3, 4)), ((), (2, 2))])
def test_a_broadcast_input_gets_the_sum_of_its_copies_gradients(shape: tuple, other: tuple) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    p_values, q_values = rng.standard_normal(shape), rng.standard_normal(other)
    g_values = rng.standard_normal(np.broadcast_shapes(shape, other))

    def gradient(lib: ModuleType) -> list:
        p = lib.tensor(p_values, requires_grad=True)
        (p * lib.tensor(q_values)).backward(lib.tensor(g_values))
        return [tuple(p.grad.shape), np.round(p.grad.numpy(), 6).tolist()]

    lead = len(g_values.shape) - len(shape)
    summed = (g_values * q_values).sum(axis=tuple(range(lead)))
    for d, n in enumerate(shape):
        if n == 1:
            summed = summed.sum(axis=d, keepdims=True)
    same_in_both(gradient, [shape, np.round(summed, 6).tolist()])


def _add_bias(lib: ModuleType, bias_grad: Any) -> type:
    class AddBias(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, b: Any) -> Any:
            return x + b

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            return grad_output, bias_grad(grad_output)

    return AddBias


def test_the_engine_sums_a_gradient_returned_in_the_broadcast_shape() -> None:
    def bias_grad(lib: ModuleType) -> list[float]:
        bias = lib.zeros(3, requires_grad=True)
        _add_bias(lib, lambda g: g).apply(lib.ones(4, 3), bias).sum().backward()
        return bias.grad.tolist()

    same_in_both(bias_grad, [4.0, 4.0, 4.0])


def test_a_gradient_that_lost_its_size_one_dimension_is_refused() -> None:
    def summed_away(lib: ModuleType) -> None:
        bias = lib.zeros(3, 1, requires_grad=True)
        _add_bias(lib, lambda g: g.sum(1)).apply(lib.ones(3, 4), bias).sum().backward()

    raises(summed_away, RuntimeError,
           "Function AddBiasBackward returned an invalid gradient at index 1 - got [3] but expected shape compatible "
           "with [3, 1]")


def test_an_update_with_an_unsummed_gradient_is_refused() -> None:
    def update(lib: ModuleType) -> None:
        bias = lib.zeros(3)
        bias -= 0.1 * lib.ones(4, 3)

    raises(update, RuntimeError, "output with shape [3] doesn't match the broadcast shape [4, 3]")


# -- 08b: train() and eval() against no_grad() ----------------------------------------------------------------------
def test_dropout_scales_what_it_keeps_in_training_and_passes_through_in_evaluation() -> None:
    def dropout(lib: ModuleType) -> tuple:
        lib.manual_seed(0)
        drop = lib.nn.Dropout(p=0.25)
        out = drop(lib.ones(1000))
        kept = sorted({round(v, 4) for v in out.tolist()})
        drop.eval()
        return drop.training, kept, drop(lib.ones(4)).tolist()

    same_in_both(dropout, (False, [0.0, 1.3333], [1.0, 1.0, 1.0, 1.0]))


def test_eval_changes_what_is_computed_and_no_grad_what_is_recorded() -> None:
    def combinations(lib: ModuleType) -> list[tuple[str, bool, bool, bool]]:
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 8), lib.nn.Dropout(p=0.5), lib.nn.Linear(8, 1))
        batch = lib.randn(4, 3)
        seen = []
        for mode in ["train", "eval"]:
            getattr(model, mode)()
            for recording in [True, False]:
                with lib.set_grad_enabled(recording):
                    first, second = model(batch), model(batch)
                seen.append((mode, recording, bool(lib.equal(first, second)), first.requires_grad))
        return seen

    same_in_both(combinations, [("train", True, False, True), ("train", False, False, False),
                                ("eval", True, True, True), ("eval", False, True, False)])


def test_eval_and_train_set_the_flag_of_every_layer() -> None:
    def flags(lib: ModuleType) -> list[bool]:
        model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Sequential(lib.nn.Dropout(), lib.nn.ReLU()))
        model.eval()
        after_eval = [m.training for m in model.modules()]
        model.train()
        return after_eval + [m.training for m in model.modules()]

    same_in_both(flags, [False] * 5 + [True] * 5)


def test_detach_returns_a_new_tensor_and_leaves_the_original_in_the_graph() -> None:
    as_pytorch(lambda lib: (lambda h: (h.grad_fn.name(), h.requires_grad, h.detach() is h, h.detach().requires_grad))(
        lib.tensor([1.0], requires_grad=True) * 3), (None, "('MulBackward0', True, False, False)", []))
