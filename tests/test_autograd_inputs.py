"""The forms ``autograd.grad`` and ``backward`` take for their inputs and outputs, as PyTorch takes them: a dict of
tensors (``dict(model.named_parameters())``), a ``GradientEdge`` where a tensor would go, and a batch of
``grad_outputs`` whose shape does not fit.

Each check runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``): same result, same
exception type and message, same warnings.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from _oracle import as_pytorch, raises


def _xy(lib: ModuleType) -> tuple[Any, Any, Any]:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = lib.tensor([3.0, -1.0], requires_grad=True)
    return x, y, (x * x * y).sum()


def test_grad_of_a_dict_returns_a_dict_with_its_keys() -> None:
    def run(lib: ModuleType) -> str:
        x, y, z = _xy(lib)
        g = lib.autograd.grad(z, {"x": x, "y": y}, create_graph=True)
        gg = lib.autograd.grad(g["x"].sum(), {"x": x})
        return f"{type(g).__name__} {sorted(g)} {g['x'].tolist()} {g['y'].tolist()} {gg['x'].tolist()}"

    as_pytorch(run, (None, repr("dict ['x', 'y'] [6.0, -4.0] [1.0, 4.0] [6.0, -2.0]"), []))


def test_grad_of_a_dict_keeps_unused_and_materialized_entries() -> None:
    def run(lib: ModuleType) -> str:
        x, y, _ = _xy(lib)
        unused = lib.autograd.grad((x * 2).sum(), {0: x, 1: y}, allow_unused=True, retain_graph=True)
        zeros = lib.autograd.grad((x * 2).sum(), {0: x, 1: y}, materialize_grads=True)
        return f"{unused[1]} {zeros[1].tolist()} {list(zeros)}"

    as_pytorch(run, (None, repr("None [0.0, 0.0] [0, 1]"), []))


def test_other_mappings_and_empty_dicts_are_refused() -> None:
    from collections import OrderedDict

    raises(lambda lib: lib.autograd.grad(_xy(lib)[2], OrderedDict(x=_xy(lib)[0])), TypeError,
           "`inputs` argument to `grad()` must be a dict, not OrderedDict. Other Mapping types are not supported.")
    raises(lambda lib: lib.autograd.grad(_xy(lib)[2], {}), RuntimeError,
           "`inputs` argument to `grad()` cannot be empty.")
    raises(lambda lib: lib.autograd.backward(_xy(lib)[2], inputs={}), RuntimeError,
           "`inputs` argument to `backward()` cannot be empty.")


def test_backward_with_a_dict_of_inputs_fills_only_those() -> None:
    def run(lib: ModuleType) -> str:
        x, y, z = _xy(lib)
        z.backward(inputs={"x": x})
        a, b, w = _xy(lib)
        lib.autograd.backward(w, inputs={"b": b})
        return f"{x.grad.tolist()} {y.grad} {a.grad} {b.grad.tolist()}"

    as_pytorch(run, (None, repr("[6.0, -4.0] None None [1.0, 4.0]"), []))


def test_a_gradient_edge_is_an_input_like_its_tensor() -> None:
    """grad(out, get_gradient_edge(h)) is grad(out, h); an edge taken before an in-place change still leads to the
    old value's gradient."""

    def run(lib: ModuleType) -> str:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 3
        edge = lib.autograd.graph.get_gradient_edge(h)
        out = (h * h).sum()
        by_edge, = lib.autograd.grad(out, edge, retain_graph=True)
        by_tensor, = lib.autograd.grad(out, h, retain_graph=True)
        leaf, = lib.autograd.grad(out, lib.autograd.graph.get_gradient_edge(x))
        c = x.clone()
        old = lib.autograd.graph.GradientEdge(c.grad_fn, c.output_nr)
        c *= 2
        g_old, g_new = lib.autograd.grad(c.sum(), (old, c))
        return f"{by_edge.tolist()} {by_tensor.tolist()} {leaf.tolist()} {g_old.tolist()} {g_new.tolist()}"

    as_pytorch(run, (None, repr("[6.0, 12.0] [6.0, 12.0] [18.0, 36.0] [2.0, 2.0] [1.0, 1.0]"), []))


def test_a_backward_pass_cut_in_two_at_an_edge() -> None:
    """A gradient edge as the output: the pass starts there, with the gradient given for it."""

    def run(lib: ModuleType) -> str:
        x = lib.tensor([0.5, 1.0], requires_grad=True)
        tmp = x.sin().sum()
        out = tmp.exp() * 2
        edge = lib.autograd.graph.get_gradient_edge(tmp)
        g_tmp, = lib.autograd.grad(out, edge)
        g_x, = lib.autograd.grad(edge, x, grad_outputs=g_tmp, retain_graph=True)
        lib.autograd.backward(edge, retain_graph=True)
        return f"{[round(v, 4) for v in g_x.tolist()]} {[round(v, 4) for v in x.grad.tolist()]}"

    as_pytorch(run, (None, repr("[6.5762, 4.0488] [0.8776, 0.5403]"), []))


def test_an_edge_as_output_needs_a_gradient_of_its_shape() -> None:
    def edge(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return x, lib.autograd.graph.get_gradient_edge(x.sin())

    raises(lambda lib: lib.autograd.grad(edge(lib)[1], edge(lib)[0]), RuntimeError,
           "grad can be implicitly created only for scalar outputs")
    raises(lambda lib: lib.autograd.grad(edge(lib)[1], edge(lib)[0], grad_outputs=lib.ones(3)), RuntimeError,
           "Mismatch in shape: grad_output[0] has a shape of tinygrad_edu.Size([3]) and output[0] has a shape "
           "of tinygrad_edu.Size([2]).")
    raises(lambda lib: lib.autograd.graph.get_gradient_edge(lib.ones(2)), RuntimeError,
           "It is not possible to get the gradient edge for a Tensor that does not require gradients")


def test_materialize_grads_refuses_an_unreached_edge() -> None:
    def run(lib: ModuleType) -> Any:
        x = lib.tensor([1.0], requires_grad=True).clone()
        y = lib.tensor([1.0], requires_grad=True).clone()
        edge_y = lib.autograd.graph.GradientEdge(y.grad_fn, y.output_nr)
        return lib.autograd.grad(x.sum(), (x, edge_y), allow_unused=True, materialize_grads=True)

    raises(run, RuntimeError, "materialize_grads cannot be used when the given input is a GradientEdge")


def test_batched_grad_outputs_of_the_wrong_shape() -> None:
    def run(lib: ModuleType) -> Any:
        x = lib.ones(2, 2, requires_grad=True)
        return lib.autograd.grad(x.sum(), x, lib.ones(3, 1), is_grads_batched=True)

    raises(run, RuntimeError, "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as "
           "the batch dimension. The sizes of the remaining dimensions are expected to match the shape of "
           "corresponding output, but a mismatch was detected: grad_output[0] has a shape of tinygrad_edu.Size([]) "
           "and output[0] has a shape of tinygrad_edu.Size([]). If you only want some tensors in `grad_output` to "
           "be considered batched, consider using vmap.")
