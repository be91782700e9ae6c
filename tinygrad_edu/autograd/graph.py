"""The backward graph: the nodes that ``grad_fn`` points to, and how they hold saved values.

A ``Node`` stands for one operation of the forward pass. It knows

* ``next_functions``: one ``(node, output_nr)`` pair per input of the operation, saying where the
  input's gradient must go next (``(None, 0)`` for inputs that need no gradient). Leaves that require
  grad are represented by an ``AccumulateGrad`` node, whose job is to add the gradient into ``.grad``.
* its saved values (``ctx.save_for_backward``), which backward needs and which are freed after it runs.
* hooks, run by the engine around ``apply``.

Nodes point only *backwards* (to the nodes of their inputs) and never hold their own outputs, so a
graph that nobody references any more is freed at once by reference counting, with no cycles.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import LEGACY_NAMES, from_numpy
from .._tensor import RemovableHandle, Tensor, _wrap

_sequence_nr = itertools.count()

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward."
)


def type_description(array: np.ndarray) -> str:
    """How PyTorch names a tensor's type and shape in error messages: ``tinygrad_edu.FloatTensor [3]``."""
    return f"tinygrad_edu.{LEGACY_NAMES[from_numpy(array.dtype)]} [{', '.join(map(str, array.shape))}]"


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    An input is kept as the tensor itself. An *output* of the node that saves it is kept as its parts
    (array, version counter) instead: holding the output tensor would make a cycle (output -> grad_fn ->
    saved output). When unpacked, the output is rebuilt with the node as its ``grad_fn``.
    """

    __slots__ = ("array", "counter", "output_nr", "tensor", "version")

    def __init__(self, tensor: Tensor, is_output: bool) -> None:
        self.version = tensor._version_counter[0]
        if is_output:
            self.tensor = None
            self.array, self.counter, self.output_nr = tensor._array, tensor._version_counter, tensor._output_nr
        else:
            self.tensor = tensor

    def unpack(self, node: Node) -> Tensor:
        t = self.tensor
        counter = t._version_counter if t is not None else self.counter
        if counter[0] != self.version:
            array = t._array if t is not None else self.array
            grad_fn = t.grad_fn if t is not None else node
            where = f", which is output {self.output_nr if t is None else t._output_nr} of {grad_fn.name()}," \
                if grad_fn is not None else ""
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace operation: "
                f"[{type_description(array)}]{where} is at version {counter[0]}; expected version {self.version} "
                "instead. Hint: enable anomaly detection to find the operation that failed to compute its "
                "gradient, with torch.autograd.set_detect_anomaly(True)."
            )
        if t is not None:
            return t
        out = _wrap(self.array, node, self.output_nr)
        out._version_counter = self.counter
        return out


class Node:
    """One operation in the backward graph (what a tensor's ``grad_fn`` is)."""

    next_functions: tuple[tuple[Node | None, int], ...] = ()
    _saved: tuple[SavedTensor | None, ...] | None = None  # None: nothing saved; () after freeing
    _freed = False
    _pre_hooks: list | None = None
    _post_hooks: list | None = None
    _tensor_pre_hooks: dict[int, list] | None = None
    _retain_grad: dict[int, Any] | None = None
    _metadata: dict | None = None

    def __init__(self) -> None:
        self._seq = next(_sequence_nr)

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def apply(self, *grad_outputs: Tensor) -> tuple[Tensor | None, ...]:
        """Given d(root)/d(outputs), return d(root)/d(inputs), one per entry of next_functions."""
        raise NotImplementedError

    def __call__(self, *grad_outputs: Tensor) -> Any:
        """Run this node's backward by hand: ``z.grad_fn(torch.tensor(1.))``."""
        grads = self.apply(*grad_outputs)
        return grads[0] if len(grads) == 1 else grads

    def _sequence_nr(self) -> int:
        """The order of creation; among nodes ready to run, the engine runs the newest first."""
        return self._seq

    # -- saved values --------------------------------------------------------------------------------
    def _unpack(self, i: int) -> Tensor | None:
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        saved = self._saved[i] if self._saved else None
        return None if saved is None else saved.unpack(self)

    def _release_variables(self) -> None:
        """Free the saved tensors (what happens after backward unless retain_graph=True)."""
        if self._saved is not None:
            self._saved = ()
            self._freed = True

    # -- hooks -----------------------------------------------------------------------------------------
    def register_hook(self, fn: Callable[[tuple, tuple], Any]) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = []
        self._post_hooks.append(fn)
        return RemovableHandle(self._post_hooks, fn)

    def register_prehook(self, fn: Callable[[tuple], Any]) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = []
        self._pre_hooks.append(fn)
        return RemovableHandle(self._pre_hooks, fn)

    def _add_tensor_pre_hook(self, output_nr: int, fn: Callable) -> RemovableHandle:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        hooks = self._tensor_pre_hooks.setdefault(output_nr, [])
        hooks.append(fn)
        return RemovableHandle(hooks, fn)

    def _add_retain_grad(self, output_nr: int, tensor_ref: Any) -> None:
        if self._retain_grad is None:
            self._retain_grad = {}
        self._retain_grad[output_nr] = tensor_ref

    @property
    def metadata(self) -> dict:
        """A dict for your own notes about this node (PyTorch has it too)."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata


class AccumulateGrad(Node):
    """The node standing for a leaf that requires grad: it adds incoming gradients into ``variable.grad``."""

    def __init__(self, variable: Tensor) -> None:
        super().__init__()
        self._seq = sys.maxsize  # as in PyTorch: accumulate as soon as a gradient is ready
        self.variable = variable

    def apply(self, grad: Tensor) -> tuple:
        from .grad_mode import GradMode

        var = self.variable
        if var._hooks:
            for hook in list(var._hooks):
                new = hook(grad)
                if new is not None:
                    grad = new
        if var._grad is None:
            if GradMode.enabled:  # create_graph: keep the gradient's own graph
                var._grad = grad
            else:
                var._grad = _wrap(np.array(grad._array, dtype=var._array.dtype, copy=True))
        elif GradMode.enabled:
            var._grad = var._grad + grad
        else:
            g = var._grad
            if g._requires_grad or not g._array.flags.writeable:
                var._grad = _wrap(g._array + grad._array)
            else:
                np.add(g._array, grad._array, out=g._array, casting="unsafe")
        return ()
