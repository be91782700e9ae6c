"""``tinygrad_edu.autograd.graph`` (PyTorch's ``torch.autograd.graph``): the backward graph's node types, and hooks
on the tensors it saves. The nodes themselves are the core's (``tinygrad_edu/core/function.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _messages as M
from .._messages import FREED as FREED_MESSAGE
from .._messages import type_description
from ..core.function import FREED, AccumulateGrad, CopyBackwards, InferenceCounter, Node, SavedTensor, gradient_edge
from ..core.function import wrap as _wrap
from ..core.tensor import Tensor

SAVED_TENSOR_HOOKS = SavedTensor.hooks  # the (pack_hook, unpack_hook) pairs of the open blocks; the last applies

__all__ = ["FREED", "FREED_MESSAGE", "SAVED_TENSOR_HOOKS", "AccumulateGrad", "CopyBackwards", "Node",
           "PackedSavedTensor", "SavedTensor", "gradient_edge", "save_on_cpu", "saved_tensors_hooks",
           "type_description"]


class saved_tensors_hooks:  # noqa: N801  (PyTorch's name: torch.autograd.graph.saved_tensors_hooks)
    """Choose how the tensors saved for backward are kept::

        with tinygrad_edu.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
            y = x.exp()   # exp saves its result: the graph keeps pack_hook(result) instead

    Every tensor an operation saves inside the block (built-in ops and ``ctx.save_for_backward`` alike) is
    given to ``pack_hook``, and whatever it returns is what the graph holds. ``unpack_hook(packed)`` must give
    a tensor with the same values back; it runs each time the saved tensor is needed: by backward, or by a
    ``grad_fn._saved_*`` attribute, even after the block has ended. Uses: watching what a graph keeps (and
    so what a forward pass costs in memory), keeping a compressed copy or writing it to disk.

    The graph then trusts the hooks: there is no version check, so an in-place change to a tensor that
    pack_hook returned as it is goes unnoticed (as in PyTorch). Operations inside the pack hook save their
    tensors plainly, without calling the hooks again.
    """

    def __init__(self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Tensor]) -> None:
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        SAVED_TENSOR_HOOKS.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc: Any) -> None:
        SAVED_TENSOR_HOOKS.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801  (PyTorch's name)
    """PyTorch's way to keep a graph's saved tensors in CPU memory while the model runs on a GPU: each is packed
    as a copy in CPU memory and brought back at backward. Everything is on the CPU here, so each saved tensor is
    kept as a copy, as PyTorch's is (``pin_memory`` and ``device_type`` change nothing)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        super().__init__(lambda t: _wrap(t._array.copy()), lambda packed: packed)


class PackedSavedTensor(SavedTensor):
    """A tensor saved inside a ``saved_tensors_hooks`` block: kept as what the pack hook made of it. (No version
    check: the graph trusts the hooks, as PyTorch does.)

    Unpacked, it is a new tensor over the unpack hook's numbers with the *saved tensor's* history (its grad_fn, or
    the leaf's AccumulateGrad), as PyTorch rebuilds it: with create_graph, the gradient flows to what was saved,
    whatever the hooks computed (a pack hook's ``2 * x`` is a value, not a new path to x)."""

    __slots__ = ("edge", "packed", "unpack_hook")

    def __init__(self, tensor: Tensor, is_output: bool) -> None:
        self.unpack_hook = None
        if tensor._wrapped_number:  # the 2 of x * 2: never shown to the hooks (PyTorch keeps it to itself too)
            super().__init__(tensor, is_output)
            return
        if type(tensor._version_counter) is InferenceCounter:
            raise RuntimeError(M.INFERENCE_SAVED)
        pack_hook, unpack_hook = SAVED_TENSOR_HOOKS[-1]
        hooks = SAVED_TENSOR_HOOKS.copy()
        SAVED_TENSOR_HOOKS.clear()  # what the pack hook computes is saved plainly: no hooks calling themselves
        try:
            self.packed = pack_hook(tensor)
        finally:
            SAVED_TENSOR_HOOKS.extend(hooks)
        self.unpack_hook, self.counter, self.output_nr = unpack_hook, tensor._version_counter, tensor._output_nr
        self.edge = None if is_output else (tensor.grad_fn, tensor._accumulator, tensor._requires_grad)

    def unpack(self, node: Node) -> Tensor:
        if self.unpack_hook is None:
            return super().unpack(node)
        t = self.unpack_hook(self.packed)
        if not isinstance(t, Tensor):
            raise TypeError(M.UNPACK_HOOK_TYPE.format(type(t).__name__))
        grad_fn, accumulator, requires_grad = (node, None, True) if self.edge is None else self.edge
        out = _wrap(t._array, grad_fn, self.output_nr, self.counter)
        if grad_fn is None and requires_grad:  # a leaf's: gradients reach the saved leaf's .grad
            out._requires_grad, out._accumulator = True, accumulator
        return out


SavedTensor.packed = PackedSavedTensor
