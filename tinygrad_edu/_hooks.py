"""Hooks on graph nodes and tensors, the handles that remove them, and the rest of a node's public face (beside the
core: read last, or never).

``Node`` (``core/function.py``) inherits ``NodeHooks``: ``grad_fn.register_hook(fn)`` and friends file a hook in
one of the node's lists, made on first use, and sets ``_slow`` so that the engine takes its slower path, which
runs them (``engine._run_node`` says in which order), only for nodes that have some. A tensor's hooks and its
``retain_grad`` are filed on the node that computes its gradient; when an in-place change gives the tensor a new
node, ``new_history`` moves its ``retain_grad`` there and leaves its hooks behind, as PyTorch does.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from . import _checks as C
from . import _messages as M
from ._quiet import aloud


class RemovableHandle:
    """Returned by ``register_hook`` and friends: ``handle.remove()`` unregisters the hook."""

    def __init__(self, hooks: list, hook: Callable) -> None:
        self._hooks, self._hook = hooks, hook

    @classmethod
    def add(cls, hooks: list, hook: Callable) -> RemovableHandle:
        hooks.append(hook)
        return cls(hooks, hook)

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


class NodeHooks:
    """What a node keeps of the hooks registered on it, and on the tensors it made; and what else a learner can ask
    of a node beyond its ``apply``: ``name()``, calling it by hand, ``_sequence_nr()``, ``metadata``."""

    _slow = False  # any hook below? (or a learner's Function): the engine runs it through its slower path
    _pre_hooks: list | None = None
    _post_hooks: list | None = None
    _tensor_pre_hooks: dict[int, list] | None = None  # a tensor's register_hook hooks, by the tensor's output_nr
    _retain_grad: dict[int, Any] | None = None  # a weak reference to each output that retains its grad
    _metadata: dict | None = None

    @property
    def _raw_saved_tensors(self) -> tuple:
        """A custom Function's node: each tensor ``save_for_backward`` kept, as a ``SavedTensor`` handle."""
        saved = getattr(self, "_saved", None) or ()
        if any(isinstance(s, str) for s in saved):  # (freed after backward)
            raise RuntimeError(M.FREED)
        return tuple(RawSavedTensor(self, i) for i in range(len(saved)))

    def register_hook(self, fn: Callable[[tuple, tuple], Any]) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new grad_inputs."""
        self._slow = True
        if self._post_hooks is None:
            self._post_hooks = []
        return RemovableHandle.add(self._post_hooks, fn)

    def register_prehook(self, fn: Callable[[tuple], Any]) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        self._slow = True
        if self._pre_hooks is None:
            self._pre_hooks = []
        return RemovableHandle.add(self._pre_hooks, fn)

    def _add_tensor_pre_hook(self, output_nr: int, fn: Callable) -> RemovableHandle:
        self._slow = True
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        return RemovableHandle.add(self._tensor_pre_hooks.setdefault(output_nr, []), fn)

    def _add_retain_grad(self, output_nr: int, tensor: Any) -> None:
        self._slow = True
        if self._retain_grad is None:
            self._retain_grad = {}
        self._retain_grad[output_nr] = weakref.ref(tensor)  # the graph must not keep the tensor alive (nor a cycle)

    def name(self) -> str:
        return type(self).__name__

    def __call__(self, *grad_outputs: Any) -> Any:
        """Run this node's backward by hand: ``z.grad_fn(torch.tensor(1.))``, one gradient per output of its op."""
        if len(grad_outputs) != self._num_outputs:
            raise TypeError(f"expected {self._num_outputs} arguments, got {len(grad_outputs)} instead")
        grads = self.apply(*grad_outputs)
        return grads[0] if len(grads) == 1 else grads

    def _sequence_nr(self) -> int:
        """The order of creation; among nodes ready to run, the engine runs the newest first."""
        return self._seq

    @property
    def metadata(self) -> dict:
        """A dict for your own notes about this node (PyTorch has it too)."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata


class Running:
    """``with Running(node, saved_hooks):`` around the engine running ``node`` on its slower path (every node whose
    hooks or learner's code can run takes it). Meanwhile ``Running.node`` is that node (what
    ``torch._C._current_autograd_node()`` returns), and whatever that code does to the stack of open
    ``saved_tensors_hooks`` blocks (``saved_hooks``) is undone after: PyTorch keeps both per thread, and restores
    the thread's state around each node it runs."""

    node: Any = None

    def __init__(self, node: Any, saved_hooks: list) -> None:
        self.node, self.saved_hooks = node, saved_hooks

    def __enter__(self) -> None:
        self.outer, self.stack, Running.node = Running.node, self.saved_hooks.copy(), self.node

    def __exit__(self, *exc: object) -> None:
        Running.node, self.saved_hooks[:] = self.outer, self.stack


# -- a tensor's hooks, and what becomes of them when the tensor is changed in place ------------------------------------
def tensor_hook(tensor: Any, hook: Callable) -> RemovableHandle:
    """``tensor.register_hook(hook)``. A leaf's hooks are kept on the tensor, where its AccumulateGrad node reads them
    (that node must now take the engine's slower path). Any other tensor's go to the node that computes its gradient
    *now*, filed under the tensor's output number: an in-place change later gives the tensor a new node, and the hook
    stays with the old one (it sees the gradient of the value the tensor had when it was registered)."""
    if tensor.grad_fn is not None:
        return tensor.grad_fn._add_tensor_pre_hook(tensor._output_nr, hook)
    if tensor._hooks is None:
        tensor._hooks = []
    if tensor._accumulator is not None and tensor._accumulator() is not None:
        tensor._accumulator()._slow = True
    return RemovableHandle.add(tensor._hooks, hook)


def tensor_pre_hooks(node: Any, grads: list) -> list:
    """What the engine runs first when ``node`` is about to run: the hooks registered on the tensors it produced,
    each output's in the order registered (each may replace that output's gradient), then ``retain_grad``, which sees
    what those hooks made of it (but not what the node's own pre-hooks will)."""
    for nr, fns in (node._tensor_pre_hooks or {}).items():
        for fn in list(fns):  # (an output that got no gradient: its hooks are given None, as PyTorch gives them)
            new = aloud(fn, grads[nr])
            if new is not None and grads[nr] is not None:
                grads[nr] = C.hook_grad(fn, grads[nr], new)
    for nr, ref in list((node._retain_grad or {}).items()):
        t, g = ref(), grads[nr]
        if t is not None and g is not None:  # (a copy first, as PyTorch's clone: recorded under create_graph)
            t._grad = g.clone() if t._grad is None else t._grad + g
    return grads


def new_history(tensor: Any, node: Any, output_nr: int) -> None:
    """``tensor`` was changed in place (or a view of it, or its base): its history now ends in output ``output_nr`` of
    ``node`` (PyTorch's ``rebase_history``). Hooks registered on it so far stay with its old node; ``retain_grad``
    moves to the new one, since ``.grad`` is the gradient of the tensor's newest value."""
    old, old_nr = tensor.grad_fn, tensor._output_nr
    tensor.grad_fn, tensor._output_nr, tensor._requires_grad = node, output_nr, True
    if tensor._retains_grad and old is not None and old is not node:
        if old._retain_grad:
            old._retain_grad.pop(old_nr, None)
        node._add_retain_grad(output_nr, tensor)


def node_pre_hooks(node: Any, grads: list) -> list:
    """A node's pre-hooks (``grad_fn.register_prehook``), each given what the one before returned. (Returning, this
    lets go of every tuple a hook returned: an AccumulateGrad may then take the gradient as ``.grad``.)"""
    for fn in list(node._pre_hooks):
        new = aloud(fn, tuple(grads))
        if new is not None:
            grads = list(C.node_hook_grads(fn, tuple(grads), new))
    return grads


def node_post_hooks(node: Any, inputs: tuple, grads: tuple) -> tuple:
    """A node's post-hooks (``grad_fn.register_hook``): ``fn(grad_inputs, grad_outputs)``, each may replace the
    gradients the node computed."""
    for fn in list(node._post_hooks):
        new = aloud(fn, inputs, grads)
        if new is not None:
            inputs = C.node_hook_grads(fn, inputs, new)
    return inputs


def post_accumulate_hooks(variable: Any) -> None:
    """A leaf's ``register_post_accumulate_grad_hook`` hooks, once its ``.grad`` is complete; they return nothing."""
    for hook in list(variable._post_accumulate_hooks):
        returned = hook(variable)
        if hasattr(returned, "_version_counter"):  # a tensor
            raise RuntimeError(M.POST_ACCUMULATE_RETURNED)
        if returned is not None:  # anything else: PyTorch's message when it expected a tensor
            raise TypeError(M.HOOK_RETURNED.format(M.typename(returned)))


# -- grad_fn._saved_self and grad_fn._raw_saved_self -------------------------------------------------------------------
def saved_attributes(node_cls: type, names: tuple[str, ...]) -> None:
    """A node class's ``_saved_<name>`` (the saved tensor, checked against in-place changes) and
    ``_raw_saved_<name>`` (PyTorch's handle on it, to give that one tensor its own pack and unpack hooks), for each
    name of its Function's ``saved_names``, in the order it saves them."""
    for i, name in enumerate(names):
        setattr(node_cls, f"_saved_{name}", property(lambda node, i=i: node._unpack(i)))
        setattr(node_cls, f"_raw_saved_{name}", property(lambda node, i=i: RawSavedTensor(node, i)))


class RawSavedTensor:
    """``grad_fn._raw_saved_self``: one saved tensor of a node, as PyTorch's ``torch._C._autograd.SavedTensor``.

    ``register_hooks(pack_hook, unpack_hook)`` runs ``pack_hook`` on the saved tensor at once and keeps only what
    it returns; ``unpack_hook`` gives the tensor back whenever backward (or ``_saved_self``) needs it. It is what
    ``saved_tensors_hooks`` does for every tensor saved inside its block, for this one tensor, after the fact."""

    __slots__ = ("_i", "_node")

    def __init__(self, node: Any, i: int) -> None:
        self._node, self._i = node, i

    def register_hooks(self, *hooks: Any) -> None:
        node, i = self._node, self._i
        if len(hooks) != 2 or not all(callable(h) for h in hooks):
            raise TypeError(M.REGISTER_HOOKS_ARGUMENTS.format(", ".join(map(repr, [self, *hooks]))))
        slot = self._slot(M.RAW_SAVED_FREED)
        if slot is None:
            raise RuntimeError(M.RAW_SAVED_UNDEFINED)
        if getattr(slot, "unpack_hook", None) is not None:
            raise RuntimeError(M.RAW_SAVED_HOOKS_TWICE)
        tensor = slot.unpack(node, peek=True)
        slot.hooks.append(hooks)  # (packed as a saved_tensors_hooks block would pack it)
        try:
            packed = slot.packed(node)(tensor, slot.tensor is None)
        finally:
            slot.hooks.pop()
        node._saved = (*node._saved[:i], packed, *node._saved[i + 1:])

    def unpack(self) -> Any:
        """The saved tensor (through its unpack hook, if it has one)."""
        return self._node._unpack(self._i)

    def _slot(self, freed: str = M.FREED) -> Any:
        """The node's slot (a SavedTensor, or None), or ``freed`` raised once backward has freed it."""
        slot = self._node._saved[self._i] if self._node._saved else None
        if isinstance(slot, str):
            raise RuntimeError(freed)
        return slot

    @property
    def data(self) -> Any:
        """What the node holds: a pack hook's result as it returned it, an input itself, an output detached."""
        slot = self._slot()
        if slot is None or getattr(slot, "unpack_hook", None) is not None:
            return None if slot is None else slot.packed
        return slot.tensor if slot.tensor is not None else slot.unpack(self._node, peek=True).detach()

    @property
    def unpack_hook(self) -> Any:
        """The unpack hook this saved tensor was packed with (None without hooks)."""
        slot = self._slot()
        return getattr(slot, "unpack_hook", None)


RawSavedTensor.__name__ = RawSavedTensor.__qualname__ = "SavedTensor"  # (PyTorch's name; ours says what it is)
