"""What code running inside backward (a hook, an unpack hook) can see and change, as in PyTorch: which node runs
(``torch._C._current_autograd_node()``), hooks it registers on that node, and the stack of ``saved_tensors_hooks``
blocks, which PyTorch restores around each node it runs.

Each program runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``): the same result.
"""

from __future__ import annotations

import gc
import weakref
from types import ModuleType
from typing import Any

from _oracle import as_pytorch


def _same(run: Any, expected: str) -> None:
    as_pytorch(run, (None, repr(expected), []))


def test_the_current_node_is_the_one_whose_hook_runs() -> None:
    def run(lib: ModuleType) -> str:
        seen = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        z = y.sum()
        y.register_hook(lambda g: seen.append(lib._C._current_autograd_node() is y.grad_fn))
        z.grad_fn.register_prehook(lambda gs: seen.append(lib._C._current_autograd_node() is z.grad_fn))
        z.backward()
        return f"{seen} {lib._C._current_autograd_node()}"

    _same(run, "[True, True] None")


def test_an_unpack_hook_sees_its_node_and_a_post_hook_it_registers_runs() -> None:
    def run(lib: ModuleType) -> str:
        seen = []

        def unpack(t: Any) -> Any:
            node = lib._C._current_autograd_node()
            seen.append(node.name())
            node.register_hook(lambda grad_inputs, grad_outputs: (
                seen.append(f"post {grad_outputs}") or tuple(g / 2 for g in grad_inputs)))
            return t

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
            y = (x * x).sum()
        y.backward()  # registered while the node ran: the post hook is not given its incoming gradients
        return f"{seen} {x.grad.tolist()}"

    _same(run, "['MulBackward0', 'MulBackward0', 'post ()', 'post ()'] [0.5, 1.0]")


def test_what_a_hook_does_to_the_saved_tensors_hooks_stack_is_undone_after_its_node() -> None:
    def run(lib: ModuleType) -> str:
        graph = lib.autograd.graph
        inner = graph.saved_tensors_hooks(lambda t: t, lambda t: t)

        def unpack(t: Any) -> Any:
            outer.__exit__()  # pops the innermost block: undone once the node has run
            inner.__enter__()  # pushes one: undone too
            return t

        outer = graph.saved_tensors_hooks(lambda t: t, unpack)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with outer:
            x.sin().sum().backward()
        y = x.exp()  # no block is open any more: a saved tensor can take its own hooks
        y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)
        return f"{x.grad.tolist() == x.cos().tolist()}"

    _same(run, "True")


def test_an_unpack_hook_entering_a_block_does_not_keep_it_alive() -> None:
    def run(lib: ModuleType) -> str:
        def scope() -> Any:
            def unpack(t: Any) -> Any:
                block().__enter__()
                return t

            hooks = lib.autograd.graph.saved_tensors_hooks(lambda t: t, unpack)
            block = weakref.ref(hooks)
            x = lib.tensor([1.0, 2.0], requires_grad=True)
            with hooks:
                x.sin().sum().backward()
            return weakref.ref(unpack)

        gc.disable()
        try:
            return f"{scope()() is None}"
        finally:
            gc.enable()

    _same(run, "True")
