"""Tensor hooks and ``retain_grad`` when the tensor is then changed in place, and the order hooks run in.

An in-place change gives a tensor a new node (its history now ends in the in-place op). A hook registered before
stays with the old node, so it sees the gradient of the value the tensor had then; ``retain_grad`` moves to the new
node, so ``.grad`` is the gradient of the newest value; a hook registered after goes to the new node. The same holds
for a view changed in place (its base's new node is CopySlices) and for one output of a node with several.

Each program runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``): the same result.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from _oracle import as_pytorch
from test_views_inplace import _dirty as twice_in_place


def _same(run: Any, expected: str) -> None:
    as_pytorch(run, (None, repr(expected), []))


def test_retain_grad_follows_the_tensor_to_its_new_value() -> None:
    def run(lib: ModuleType) -> str:
        a = lib.tensor([1.0], requires_grad=True)
        b = a.clone()
        b.retain_grad()
        b.mul_(2)
        b.mul_(3)  # twice in place: still the gradient of b's newest value
        (b * 5).sum().backward()
        return f"{b.grad.tolist()} {a.grad.tolist()} {b.retains_grad}"

    _same(run, "[5.0] [30.0] True")


def test_hooks_registered_before_see_the_old_value_after_the_new() -> None:
    def run(lib: ModuleType) -> str:
        seen = []
        a = lib.tensor([1.0], requires_grad=True)
        b = a.clone()
        b.register_hook(lambda g: seen.append(("before", g.tolist())))
        b.mul_(2)
        b.register_hook(lambda g: seen.append(("after", g.tolist())))
        (b * 5).sum().backward()
        return f"{seen} {a.grad.tolist()}"

    _same(run, "[('after', [5.0]), ('before', [10.0])] [10.0]")


def test_a_hook_before_the_change_may_still_replace_the_old_gradient() -> None:
    def run(lib: ModuleType) -> str:
        a = lib.tensor([1.0], requires_grad=True)
        b = a.clone()
        b.register_hook(lambda g: g * 100)
        b.retain_grad()  # on the new node after mul_: it does not see the hook's change, which comes later
        b.mul_(2)
        b.sum().backward()
        return f"{b.grad.tolist()} {a.grad.tolist()}"

    _same(run, "[1.0] [200.0]")


def test_retain_grad_of_a_base_whose_view_is_changed_in_place() -> None:
    def run(lib: ModuleType) -> str:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        base = x.clone()
        base.retain_grad()
        base[:1].mul_(3)  # base's new node: CopySlices, and .grad follows it
        (base * lib.tensor([10.0, 20.0])).sum().backward()
        return f"{type(base.grad_fn).__name__} {base.grad.tolist()} {x.grad.tolist()}"

    _same(run, "CopySlices [10.0, 20.0] [30.0, 20.0]")


def test_retain_grad_of_a_view_changed_in_place_and_of_its_sibling() -> None:
    def run(lib: ModuleType) -> str:
        base = lib.tensor([1.0], requires_grad=True).clone()
        view, view2 = base[:], base[:]
        view.retain_grad()
        view2.retain_grad()
        view.mul_(2)  # view2 too gets a new node (the next time it is used), and its retained grad follows
        (view * 3 + view2).sum().backward()
        return f"{view.grad.tolist()} {view2.grad.tolist()}"

    _same(run, "[3.0] [1.0]")


def test_hooks_on_views_stay_with_their_old_nodes() -> None:
    def run(lib: ModuleType) -> str:
        seen = []
        base = lib.tensor([1.0], requires_grad=True).clone()
        view, view2 = base[:], base[:]
        view.register_hook(lambda g: seen.append("old view"))
        view2.register_hook(lambda g: seen.append("old view2"))
        view.mul_(2)
        view2.grad_fn  # noqa: B018  (asked, view2 gets its new node)
        view2.register_hook(lambda g: seen.append(("new view2", g.tolist())))
        (view + view2).sum().backward()
        return f"{seen}"

    _same(run, "[('new view2', [1.0])]")


def test_one_output_of_several_changed_in_place() -> None:
    def run(lib: ModuleType) -> str:
        seen = []
        b = lib.tensor([[1.0, 2.0], [3.0, 5.0]], requires_grad=True)
        var, mean = lib.var_mean(b, dim=0)
        var.retain_grad()
        mean.retain_grad()
        var.register_hook(lambda g: seen.append(("old var", g.tolist())))
        mean.register_hook(lambda g: seen.append(("mean", g.tolist())))
        var.mul_(2)
        var.register_hook(lambda g: seen.append(("new var", g.tolist())))
        (var * 3 + mean).sum().backward()
        return f"{sorted(seen)} {var.grad.tolist()} {mean.grad.tolist()} {b.grad.tolist()}"

    _same(run, "[('mean', [1.0, 1.0]), ('new var', [3.0, 3.0]), ('old var', [6.0, 6.0])] [3.0, 3.0] [1.0, 1.0] "
               "[[-11.5, -17.5], [12.5, 18.5]]")


def test_an_input_a_custom_function_changes_in_place_keeps_its_retained_grad() -> None:
    def run(lib: ModuleType) -> str:
        a = lib.tensor([1.0], requires_grad=True)
        b = a.clone()
        b.retain_grad()
        c = twice_in_place(lib).apply(b)  # (mark_dirty(b), b.mul_(2); backward: g * 2)
        (c * 7).sum().backward()
        return f"{c is b} {b.grad.tolist()} {a.grad.tolist()}"

    _same(run, "True [7.0] [14.0]")


def test_an_in_place_view_op_leaves_retain_grad_and_hooks_where_they_were() -> None:
    """``t_()``, ``unsqueeze_()``...: the tensor takes the view's node, but PyTorch does not move its retain_grad (nor
    its hooks): they stay with the node it had, and see the gradient of the value before the transpose."""

    def run(lib: ModuleType) -> str:
        seen = []
        a = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        b = a * 1
        b.retain_grad()
        b.register_hook(lambda g: seen.append(g.tolist()))
        b.t_()
        (b * lib.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        return f"{b.grad.tolist()} {seen}"

    _same(run, "[[1.0, 3.0], [2.0, 4.0]] [[[1.0, 3.0], [2.0, 4.0]]]")


# -- the order: tensor hooks, node pre-hooks, the node, post hooks ----------------------------------------------------
def _clone_with_hooks(lib: ModuleType, log: list) -> tuple[Any, Any]:
    """A leaf ``a`` and ``b = a.clone()``, whose node has a pre-hook (x2) registered before a hook on b (x3)."""
    a = lib.tensor(1.0, requires_grad=True)
    b = a.clone()
    b.grad_fn.register_prehook(lambda gs: log.append("node pre") or (gs[0] * 2,))
    b.register_hook(lambda g: log.append("tensor") or g * 3)
    return a, b


def test_tensor_hooks_run_before_the_nodes_pre_hooks_and_retain_grad_between() -> None:
    def run(lib: ModuleType) -> str:
        log: list = []
        a, b = _clone_with_hooks(lib, log)
        b.retain_grad()
        b.grad_fn.register_hook(lambda gi, go: log.append(("node post", gi[0].item(), go[0].item())))
        b.sum().backward()
        return f"{log} {b.grad.item()} {a.grad.item()}"

    _same(run, "['tensor', 'node pre', ('node post', 6.0, 6.0)] 3.0 6.0")


def test_on_a_leaf_tensor_hooks_then_accumulate_grad_then_post_accumulate() -> None:
    def run(lib: ModuleType) -> str:
        log = []
        a = lib.tensor([1.0], requires_grad=True)
        acc = a.view_as(a).grad_fn.next_functions[0][0]
        a.register_post_accumulate_grad_hook(lambda t: log.append(("post accumulate", t.grad.tolist())))
        acc.register_hook(lambda gi, go: log.append("accumulate post"))
        acc.register_prehook(lambda gs: log.append("accumulate pre") or (gs[0] - 1,))
        a.register_hook(lambda g: log.append("tensor") or g * 10)
        (a * 2).sum().backward()
        return f"{log} {a.grad.tolist()}"

    _same(run, "['tensor', 'accumulate pre', ('post accumulate', [19.0]), 'accumulate post'] [19.0]")


def test_backward_with_inputs_runs_a_non_leaf_inputs_node_and_its_hooks() -> None:
    def run(lib: ModuleType) -> str:
        log: list = []
        a, b = _clone_with_hooks(lib, log)
        a.register_hook(lambda g: log.append("leaf"))  # a is not an input: its node does not run
        (b * 5).backward(inputs=(b,))
        return f"{log} {b.grad.item()} {a.grad}"

    _same(run, "['tensor', 'node pre'] 15.0 None")


def test_accumulate_grads_post_hooks_see_the_gradient_grad_became() -> None:
    """The first gradient of a leaf becomes its ``.grad`` without a copy when nothing else holds it, so the
    AccumulateGrad node's post-hooks, given that gradient, see what the post-accumulate hooks did to ``.grad``;
    a gradient a hook kept is copied instead."""

    def run(lib: ModuleType) -> str:
        t = lib.tensor([1.0, 2.0], requires_grad=True)
        acc = t.view_as(t).grad_fn.next_functions[0][0]
        t.register_hook(lambda g: g - 2)
        acc.register_prehook(lambda gs: (gs[0] / 5,))

        def add_half(leaf: Any) -> None:
            leaf.grad.add_(0.5)

        t.register_post_accumulate_grad_hook(add_half)
        acc.register_hook(lambda grad_inputs, grad_outputs: setattr(t, "grad", grad_outputs[0] * 10))
        t.sum().backward()

        kept = []
        u = lib.tensor([1.0, 2.0], requires_grad=True)
        u.register_hook(kept.append)
        u.register_post_accumulate_grad_hook(add_half)
        u.view_as(u).grad_fn.next_functions[0][0].register_hook(lambda gi, go: None)
        u.sum().backward()
        return f"{t.grad.tolist()} {kept[0].tolist()} {u.grad.tolist()}"

    _same(run, "[3.0, 3.0] [1.0, 1.0] [1.5, 1.5]")
