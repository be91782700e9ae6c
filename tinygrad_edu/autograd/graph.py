"""``tinygrad_edu.autograd.graph`` (PyTorch's ``torch.autograd.graph``): the backward graph's node types, and hooks
on the tensors it saves. The nodes themselves are the core's (``tinygrad_edu/core/function.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._messages import FREED as FREED_MESSAGE
from .._messages import type_description
from ..core.function import (
    FREED,
    SAVED_TENSOR_HOOKS,
    AccumulateGrad,
    CopyBackwards,
    Node,
    PackedSavedTensor,
    SavedTensor,
    gradient_edge,
)
from ..core.tensor import Tensor

__all__ = ["FREED", "FREED_MESSAGE", "SAVED_TENSOR_HOOKS", "AccumulateGrad", "CopyBackwards", "Node",
           "PackedSavedTensor", "SavedTensor", "gradient_edge", "saved_tensors_hooks", "type_description"]


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
