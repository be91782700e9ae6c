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
import re
import sys
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import LEGACY_NAMES, from_numpy
from .._tensor import InferenceCounter, RemovableHandle, Tensor, _typename, _wrap
from .grad_mode import GradMode

_sequence_nr = itertools.count()

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward."
)
FREED = "<freed>"  # a saved slot after backward released its tensor


def type_description(array: np.ndarray) -> str:
    """How PyTorch names a tensor's type and shape in error messages: ``tinygrad_edu.FloatTensor [3]``."""
    return f"tinygrad_edu.{LEGACY_NAMES[from_numpy(array.dtype)]} [{', '.join(map(str, array.shape))}]"


def _hook_name(fn: Callable) -> str:
    return getattr(fn, "__name__", "<unknown>")  # functools.partial and callable objects have no name


def check_hook_grad(fn: Callable, old: Tensor, new: Any) -> Tensor:
    """A hook may replace a gradient, but only by a tensor of the same dtype and shape: everything
    downstream (and ``.grad``) relies on a gradient being shaped like what it is the gradient of."""
    if not isinstance(new, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{_typename(new)}'")
    if new._array.dtype != old._array.dtype:
        raise RuntimeError(f"hook '{_hook_name(fn)}' has changed the type of value (was "
                           f"tinygrad_edu.{LEGACY_NAMES[old.dtype]} got tinygrad_edu.{LEGACY_NAMES[new.dtype]})")
    if new._array.shape != old._array.shape:
        raise RuntimeError(f"hook '{_hook_name(fn)}' has changed the size of value")
    return new


def check_node_hook_grads(fn: Callable, old: tuple, new: Any) -> tuple:
    """What a node hook returns replaces a whole tuple of gradients: same length, and each entry None
    or a valid replacement (a gradient that was None, "no gradient", cannot be conjured up)."""
    if not isinstance(new, tuple):
        raise TypeError(f"expected tuple, but hook returned '{_typename(new)}'")
    if len(new) != len(old):
        raise RuntimeError(f"hook '{_hook_name(fn)}' has returned an incorrect number of values (got {len(new)}, "
                           f"but expected {len(old)})")
    for o, n in zip(old, new):
        if n is not None:
            if o is None:
                raise RuntimeError("can't replace a None gradient with a non-None value")
            check_hook_grad(fn, o, n)
    return new


def _op_name(node: Node) -> str:
    """``AddBackward0`` -> ``Add``: how the in-place error message names the operation."""
    return re.sub(r"Backward\d*$", "", node.name())


def _refuse_inference(tensor: Tensor) -> None:
    if type(tensor._version_counter) is InferenceCounter:  # it could change unseen: no version to check
        raise RuntimeError(
            "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode "
            "in computation tracked by autograd. To work around this, you can make a clone to get a normal "
            "tensor and use it in autograd, or use `tinygrad_edu.no_grad()` instead of "
            "`tinygrad_edu.inference_mode()`.")


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    An input is kept as the tensor itself. An *output* of the node that saves it is kept as its parts
    (array, version counter) instead: holding the output tensor would make a cycle (output -> grad_fn ->
    saved output). When unpacked, the output is rebuilt with the node as its ``grad_fn``.
    """

    __slots__ = ("array", "counter", "output_nr", "tensor", "version")

    def __init__(self, tensor: Tensor, is_output: bool) -> None:
        _refuse_inference(tensor)
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
            where = f", which is output {self.output_nr if t is None else t._output_nr} of {_op_name(grad_fn)}," \
                if grad_fn is not None else ""
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace operation: "
                f"[{type_description(array)}]{where} is at version {counter[0]}; expected version {self.version} "
                "instead. Hint: enable anomaly detection to find the operation that failed to compute its "
                "gradient, with tinygrad_edu.autograd.set_detect_anomaly(True, check_nan=False)."
            )
        if t is not None:
            return t
        out = _wrap(self.array, node, self.output_nr)
        out._version_counter = self.counter
        return out


# The (pack_hook, unpack_hook) pairs of the open ``saved_tensors_hooks`` blocks; the last one applies.
SAVED_TENSOR_HOOKS: list[tuple[Callable[[Tensor], Any], Callable[[Any], Tensor]]] = []


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


class PackedSavedTensor(SavedTensor):
    """A tensor saved inside a ``saved_tensors_hooks`` block: kept as what the pack hook made of it."""

    __slots__ = ("packed", "unpack_hook")

    def __init__(self, tensor: Tensor, is_output: bool) -> None:
        if tensor._wrapped_number:  # the 2 of x * 2: never shown to the hooks (PyTorch keeps it to itself too)
            super().__init__(tensor, is_output)
            self.unpack_hook = None
            return
        _refuse_inference(tensor)
        pack_hook, self.unpack_hook = SAVED_TENSOR_HOOKS[-1]
        hooks = SAVED_TENSOR_HOOKS.copy()
        SAVED_TENSOR_HOOKS.clear()  # what the pack hook computes is saved plainly: no hooks calling themselves
        try:
            self.packed = pack_hook(tensor)
        finally:
            SAVED_TENSOR_HOOKS.extend(hooks)

    def unpack(self, node: Node) -> Tensor:
        if self.unpack_hook is None:
            return super().unpack(node)
        t = self.unpack_hook(self.packed)
        if not isinstance(t, Tensor):
            raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{type(t).__name__}")
        return t


class Node:
    """One operation in the backward graph (what a tensor's ``grad_fn`` is)."""

    next_functions: tuple[tuple[Node | None, int], ...] = ()
    _num_outputs = 1  # how many outputs the operation had: how many gradients apply() receives
    _saved: tuple[SavedTensor | None, ...] | None = None  # None: nothing saved; () or FREED slots after freeing
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
            if self._saved and self._saved[i] is None:  # nothing was saved there (x * 3 keeps no x): still None
                return None
            raise RuntimeError(FREED_MESSAGE)
        saved = self._saved[i] if self._saved else None
        return None if saved is None else saved.unpack(self)

    def _release_variables(self) -> None:
        """Free the saved tensors (what happens after backward unless retain_graph=True)."""
        if self._saved is not None:
            # Drop the tensors, but remember which slots held none: PyTorch still answers None for those.
            self._saved = tuple([None if s is None else FREED for s in self._saved]) if None in self._saved else ()
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


class CopyBackwards(Node):
    """The node of a copy made while recording: what ``.grad`` holds after ``backward(create_graph=True)``.

    As in PyTorch, it has two inputs: the fresh destination (no gradient) and the copied source, to
    which the gradient passes unchanged.
    """

    __module__ = "builtins"  # printed as PyTorch's C++ node classes are: <class 'CopyBackwards'>

    def __init__(self, source: Tensor) -> None:
        super().__init__()
        self.next_functions = ((None, 0), gradient_edge(source))

    def name(self) -> str:
        return "tinygrad_edu::autograd::CopyBackwards"  # PyTorch gives its C++ name (torch::autograd::...)

    def apply(self, grad: Tensor) -> tuple:
        return (None, grad)


def _recorded_copy(t: Tensor) -> Tensor:
    """A copy of ``t`` that autograd can differentiate through (when t requires grad)."""
    return _wrap(t._array.copy(), CopyBackwards(t) if t._requires_grad else None)


class AccumulateGrad(Node):
    """The node standing for a leaf that requires grad: it adds incoming gradients into ``variable.grad``."""

    __module__ = "builtins"  # printed as PyTorch's C++ node classes are: <class 'AccumulateGrad'>

    def __init__(self, variable: Tensor) -> None:
        super().__init__()
        self._seq = sys.maxsize  # as in PyTorch: accumulate as soon as a gradient is ready
        self.variable = variable

    def name(self) -> str:
        return "tinygrad_edu::autograd::AccumulateGrad"  # PyTorch gives its C++ name (torch::autograd::...)

    @property
    def _tensor_pre_hooks(self) -> dict[int, list] | None:
        """The leaf's ``register_hook`` hooks, kept on the tensor (which outlives this node). The engine
        runs them before accumulating, and also before ``autograd.grad`` captures a leaf's gradient."""
        hooks = self.variable._hooks
        return {0: hooks} if hooks else None

    def apply(self, grad: Tensor) -> tuple:
        return self.accumulate(grad, unshared=False)

    def accumulate(self, grad: Tensor, unshared: bool) -> tuple:
        """Add ``grad`` into ``.grad``. ``unshared``: nobody but the caller holds ``grad`` or its memory (the
        engine checks this for the gradients it made), so when ``.grad`` is empty ``grad`` may become it as it
        is, laid out like the variable, rather than be copied. PyTorch does the same ("stealing" the gradient):
        copying a whole weight's fresh gradient at every step is pure waste."""
        var = self.variable
        if var._grad is None:
            a = grad._array
            if GradMode.enabled:  # create_graph: store a recorded copy, so the gradient keeps its own graph
                var._grad = _recorded_copy(grad)  # (a copy: grad may be the caller's own tensor)
            elif unshared and a.dtype == var._array.dtype and a.strides == var._array.strides and a.flags.writeable:
                var._grad = _wrap(a)
            else:  # a copy: later steps add into .grad in place, which must not change anybody else's tensor
                var._grad = _wrap(np.array(a, dtype=var._array.dtype, copy=True))
        elif GradMode.enabled:
            var._grad = var._grad + grad
        else:
            g = var._grad
            if g._array.flags.writeable:  # in place, as in PyTorch: whoever holds x.grad sees the sum
                np.add(g._array, grad._array, out=g._array, casting="unsafe")
                g._version_counter[0] += 1  # (even if that .grad has a graph of its own, from create_graph)
            else:
                var._grad = _wrap(g._array + grad._array)
        if var._post_accumulate_hooks:
            for hook in list(var._post_accumulate_hooks):
                returned = hook(var)
                if returned is not None:
                    raise TypeError(f"expected Variable, but hook returned '{_typename(returned)}'")
        return ()


def _leaf_grad_accumulator(t: Tensor) -> AccumulateGrad:
    """The AccumulateGrad node of a leaf, made on first use and shared while any graph holds it."""
    acc = t._accumulator() if t._accumulator is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        t._accumulator = weakref.ref(acc)  # weak: the leaf must not keep its graph alive
    return acc


def gradient_edge(t: Tensor) -> tuple[Node | None, int]:
    """Where a gradient for ``t`` must be sent: ``(t.grad_fn, t.output_nr)``, or a leaf's AccumulateGrad."""
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    if t._requires_grad:
        return (_leaf_grad_accumulator(t), 0)
    return (None, 0)
