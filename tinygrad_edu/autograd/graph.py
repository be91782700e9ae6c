"""``tinygrad_edu.autograd.graph`` (PyTorch's ``torch.autograd.graph``): the backward graph's node types, and hooks
on the tensors it saves. The nodes themselves are the core's (``tinygrad_edu/core/function.py``)."""

from __future__ import annotations

import abc
import contextlib
import heapq
import sys
import weakref
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from .. import _messages as M
from .._messages import FREED as FREED_MESSAGE
from .._messages import type_description
from ..core import engine as core_engine
from ..core.function import FREED, AccumulateGrad, CopyBackwards, InferenceCounter, SavedTensor, gradient_edge
from ..core.function import Node as _Node
from ..core.function import wrap as _wrap
from ..core.grad_mode import GradMode
from ..core.tensor import Tensor

# These nodes are C++ classes in PyTorch: name() gives the C++ name (torch::autograd::AccumulateGrad), ours here.
AccumulateGrad.name = lambda node: "tinygrad_edu::autograd::AccumulateGrad"
CopyBackwards.name = lambda node: "tinygrad_edu::autograd::CopyBackwards"

SAVED_TENSOR_HOOKS = SavedTensor.hooks  # the (pack_hook, unpack_hook) pairs of the open blocks; the last applies

__all__ = [
    "FREED",
    "FREED_MESSAGE",
    "SAVED_TENSOR_HOOKS",
    "AccumulateGrad",
    "CopyBackwards",
    "ExecutionEngine",
    "GradientEdge",
    "Node",
    "PackedSavedTensor",
    "SavedTensor",
    "allow_mutation_on_saved_tensors",
    "disable_saved_tensors_hooks",
    "edge_meta",
    "get_gradient_edge",
    "gradient_edge",
    "increment_version",
    "register_multi_grad_hook",
    "save_on_cpu",
    "saved_tensors_hooks",
    "saved_tensors_hooks_enabled",
    "type_description",
]


class Node(abc.ABC):  # noqa: B024  (PyTorch's Node declares its methods abstract; ours are the core Node's)
    """PyTorch's ``torch.autograd.graph.Node``: what every ``grad_fn`` is, ``isinstance(y.grad_fn, Node)``.

    As in PyTorch it is an abstract class the real node classes are *registered* with, not one they inherit from:
    PyTorch's nodes are C++ classes, ours derive from the core's ``Node`` (``tinygrad_edu/core/function.py``). So
    ``isinstance(y.grad_fn, torch.autograd.graph.Node)`` is True while ``torch.autograd.graph.Node`` is not in
    ``type(y.grad_fn).__mro__``, in both libraries."""

    @classmethod
    def __subclasshook__(cls, subclass: type) -> bool:
        # (NotImplemented, not False: the classes registered by hand, and Node itself, must still count)
        return True if cls is Node and issubclass(subclass, _Node) else NotImplemented


class GradientEdge(NamedTuple):
    """A place in the backward graph where a gradient arrives: output ``output_nr`` of ``node`` (PyTorch's
    ``torch.autograd.graph.GradientEdge``). ``autograd.grad`` and ``backward`` take one wherever they take a
    tensor: as an input, the gradient that reaches that edge is returned; as an output, the pass starts there
    (with the gradient given in ``grad_outputs``). So a backward pass can be cut in two::

        out, edge = f(x), get_gradient_edge(h)   # h: an intermediate tensor of f
        g_h, = autograd.grad(out, edge)          # d(out)/dh, through the graph above h
        g_x, = autograd.grad(edge, x, g_h)       # then on from h down to x: the same as grad(out, x)
    """

    node: Node
    output_nr: int
    ownership_token: Node | None = None


# The shape and dtype of the tensor behind each edge get_gradient_edge made: what a gradient starting there must
# have (PyTorch reads it from the node's input metadata). Weak: an edge must not keep its graph alive.
_EDGE_META: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def get_gradient_edge(tensor: Tensor) -> GradientEdge:
    """The edge where ``tensor``'s gradient is computed: ``(tensor.grad_fn, tensor.output_nr)``, or a leaf's
    AccumulateGrad. ``autograd.grad(loss, x)`` and ``autograd.grad(loss, get_gradient_edge(x))`` are the same."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require gradients")
    node, nr = gradient_edge(tensor)
    _EDGE_META.setdefault(node, {})[nr] = (tuple(tensor.shape), tensor.dtype)
    return GradientEdge(node, nr)


def edge_meta(edge: GradientEdge) -> tuple[tuple[int, ...], Any] | None:
    """The (shape, dtype) of the tensor ``edge`` was taken from, if get_gradient_edge made it."""
    return _EDGE_META.get(edge.node, {}).get(edge.output_nr)


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
        if _HOOKS_DISABLED:
            raise RuntimeError(_HOOKS_DISABLED[-1])
        SAVED_TENSOR_HOOKS.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc: Any) -> None:
        SAVED_TENSOR_HOOKS.pop()


_HOOKS_DISABLED: list[str] = []  # the messages of the open disable_saved_tensors_hooks blocks (the last applies)


class disable_saved_tensors_hooks:  # noqa: N801  (PyTorch's name)
    """Inside ``with disable_saved_tensors_hooks(message):`` saved-tensor hooks cannot be set: entering a
    ``saved_tensors_hooks`` block raises ``RuntimeError(message)`` (code that cannot work with them says why).
    Entering it while hooks are set raises the same."""

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message

    def __enter__(self) -> None:
        if SAVED_TENSOR_HOOKS:
            raise RuntimeError(self.error_message)
        _HOOKS_DISABLED.append(self.error_message)

    def __exit__(self, *exc: Any) -> None:
        _HOOKS_DISABLED.pop()


def saved_tensors_hooks_enabled() -> bool:
    """Whether saved-tensor hooks may be set now (no ``disable_saved_tensors_hooks`` block is open)."""
    return not _HOOKS_DISABLED


def increment_version(tensor: Tensor | Any) -> None:
    """Tell autograd that ``tensor`` (or each of several) was changed in place behind its back (say, through
    ``.numpy()``): its version goes up, so a graph that saved it refuses to use the old value. An inference
    tensor has no version to bump: it is left alone."""
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        if type(t._version_counter) is not InferenceCounter:
            t._version_counter[0] += 1


class save_on_cpu(saved_tensors_hooks):  # noqa: N801  (PyTorch's name)
    """PyTorch's way to keep a graph's saved tensors in CPU memory while the model runs on a GPU: each is packed
    as a copy in CPU memory and brought back at backward. Everything is on the CPU here, so each saved tensor is
    kept as a copy, as PyTorch's is (``pin_memory`` and ``device_type`` change nothing)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        super().__init__(lambda t: _wrap(t._array.copy()), lambda packed: packed)


class _AllowMutationOnSavedContext:
    """What an ``allow_mutation_on_saved_tensors`` block keeps: for each tensor saved inside it (through a small
    handle, which is all the graph holds), the tensor, its version and its numbers when saved. Emptied when the
    block ends, so a graph that outlives the block cannot be run."""

    def __init__(self) -> None:
        self.original: dict[object, tuple[Tensor, int, Any]] = {}

    def clear(self) -> None:
        self.original.clear()


_MUTATION_ALLOWED = [False]  # is an allow_mutation_on_saved_tensors block open? (they do not nest)
_OUTSIDE_MUTATION_BLOCK = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
                           "in which the graph was originally recorded.")  # (sic: PyTorch's words, run together)


@contextlib.contextmanager
def allow_mutation_on_saved_tensors() -> Iterator[_AllowMutationOnSavedContext]:
    """Inside the block, a tensor saved for backward may be changed in place: backward uses the numbers it had when
    it was saved, where otherwise it would refuse ("one of the variables needed for gradient computation has been
    modified by an inplace operation")::

        with tinygrad_edu.autograd.graph.allow_mutation_on_saved_tensors():
            b = a.clone()
            out = (b**2).sum()   # pow saves b
            b.sin_()             # allowed: b's old numbers are kept for backward
            out.backward()       # a.grad = 2 * (b before sin_)

    Forward and backward must both run inside the block. It is saved-tensor hooks underneath, as in PyTorch: the
    pack hook keeps each saved tensor with a copy of its numbers, the unpack hook gives the tensor back if it is
    unchanged and the copy if it was changed. (PyTorch copies only when a change happens, which saves memory; the
    gradients are the same.)"""
    ctx = _AllowMutationOnSavedContext()

    def pack(tensor: Tensor) -> object:
        handle = object()
        ctx.original[handle] = (tensor, tensor._version_counter[0], tensor._array.copy())
        return handle

    def unpack(handle: object) -> Tensor:
        if not _MUTATION_ALLOWED[0] or handle not in ctx.original:
            raise AssertionError(_OUTSIDE_MUTATION_BLOCK)
        tensor, version, numbers = ctx.original[handle]
        return tensor if tensor._version_counter[0] == version else _wrap(numbers)

    with saved_tensors_hooks(pack, unpack):
        if _MUTATION_ALLOWED[0]:
            raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
        _MUTATION_ALLOWED[0] = True
        try:
            yield ctx
        finally:
            ctx.clear()
            _MUTATION_ALLOWED[0] = False


class PackedSavedTensor(SavedTensor):
    """A tensor saved inside a ``saved_tensors_hooks`` block: kept as what the pack hook made of it. (No version
    check: the graph trusts the hooks, as PyTorch does.)

    Unpacked, it is a new tensor over the unpack hook's numbers with the *saved tensor's* history (its grad_fn, or
    the leaf's AccumulateGrad), as PyTorch rebuilds it: with create_graph, the gradient flows to what was saved,
    whatever the hooks computed (a pack hook's ``2 * x`` is a value, not a new path to x)."""

    __slots__ = ("edge", "packed", "unpack_hook")

    def __init__(self, tensor: Tensor, is_output: bool, output_nr: int = 0) -> None:
        self.unpack_hook = None
        if tensor._wrapped_number:  # the 2 of x * 2: never shown to the hooks (PyTorch keeps it to itself too)
            super().__init__(tensor, is_output, output_nr)
            return
        if type(tensor._version_counter) is InferenceCounter:
            raise RuntimeError(M.INFERENCE_SAVED)
        pack_hook, unpack_hook = SAVED_TENSOR_HOOKS[-1]
        hooks, enabled, version = SAVED_TENSOR_HOOKS.copy(), GradMode.enabled, tensor._version_counter[0]
        SAVED_TENSOR_HOOKS.clear()  # what the pack hook computes is saved plainly: no hooks calling themselves
        GradMode.enabled = False  # (and not recorded, as in PyTorch)
        try:
            self.packed = pack_hook(tensor)
        finally:
            SAVED_TENSOR_HOOKS.extend(hooks)
            GradMode.enabled = enabled
        if tensor._version_counter[0] != version:
            raise RuntimeError(M.PACK_HOOK_INPLACE)
        self.unpack_hook, self.counter, self.output_nr = unpack_hook, tensor._version_counter, output_nr
        self.edge = None if is_output else (tensor.grad_fn, tensor._accumulator, tensor._requires_grad)

    def unpack(self, node: Node, peek: bool = False) -> Tensor:
        if self.unpack_hook is None:
            return super().unpack(node, peek)
        t = self.unpack_hook(self.packed)
        if not isinstance(t, Tensor):
            raise TypeError(M.UNPACK_HOOK_TYPE.format(type(t).__name__))
        grad_fn, accumulator, requires_grad = (node, None, True) if self.edge is None else self.edge
        out = _wrap(t._array, grad_fn, self.output_nr, t._version_counter)  # (the unpacked tensor's own counter)
        if grad_fn is None and requires_grad:  # a leaf's: gradients reach the saved leaf's .grad
            out._requires_grad, out._accumulator = True, accumulator
        return out




def _packed(node: Node) -> type:
    """The class of the tensors ``node`` saves through hooks. The node takes the engine's slower path, where its unpack
    hooks may ask which node runs (``_C._current_autograd_node()``) and register hooks on it that run at once."""
    node._slow = True
    return PackedSavedTensor


SavedTensor.packed = staticmethod(_packed)


class SavedTensorHandle:
    """``torch.autograd.SavedTensor``: what a node keeps of a saved tensor. Only autograd makes them (a node's saved
    tensors); made by hand, PyTorch refuses, and so does this."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("Trying to create a SavedTensor object from Python is forbidden.")


class _Handles:
    """What ``register_multi_grad_hook`` returns: ``remove()`` takes its hooks off every tensor."""

    def __init__(self, handles: list) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


class _FinalCallbacks(_Node):
    """A node the engine runs last in a backward pass (it has the lowest priority of all): it calls the callbacks
    queued with ``Variable._execution_engine.queue_callback``, including those they queue themselves."""

    def __init__(self) -> None:
        super().__init__()
        self._seq, self.callbacks = -(2**63), []

    def apply(self, *grads: Any) -> tuple:
        while self.callbacks:
            self.callbacks.pop(0)()
        return ()


class ExecutionEngine:
    """``Variable._execution_engine``: PyTorch's handle on its engine; what code reaches for is ``queue_callback``."""

    @staticmethod
    def queue_callback(callback: Callable[[], None]) -> None:
        """Run ``callback()`` when the backward pass running now has run all its nodes (the innermost pass, when a
        node's backward runs a backward of its own)."""
        frame = sys._getframe(1)
        while frame is not None and frame.f_code is not core_engine.run_backward.__code__:
            frame = frame.f_back
        if frame is None:
            raise RuntimeError("Final callbacks can only be installed during backward pass.")
        run = frame.f_locals
        last = next((node for node in run["buffers"] if type(node) is _FinalCallbacks), None)
        if last is None:  # the first callback of this pass: queue the node that runs them, behind every other
            last = _FinalCallbacks()
            run["buffers"][last] = [None]
            heapq.heappush(run["ready"], (-last._seq, next(run["order"]), last))
            if run["slow"] is not None and run["slow"].needed is not None:
                run["slow"].needed.add(last)
        last.callbacks.append(callback)


def _current_pass() -> tuple[dict, Any]:
    """The backward pass running now: the engine's dependency counts (every node it will reach) and what its slower
    path knows (which nodes autograd.grad needs). A hook runs inside ``run_backward``: its frame holds them."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code is not core_engine.run_backward.__code__:
        frame = frame.f_back
    if frame is None:
        raise RuntimeError("register_multi_grad_hook's hooks run only inside a backward pass")
    return frame.f_locals["deps"], frame.f_locals["slow"]


def _will_run(node: Node | None, deps: dict, slow: Any) -> bool:
    """Whether this pass will run ``node`` (PyTorch's ``_will_engine_execute_node``)."""
    if node is None or node not in deps:
        return False
    return slow is None or slow.needed is None or node in slow.needed or any(node is n for n, _ in slow.capture)


def register_multi_grad_hook(tensors: Any, fn: Callable[..., None], *, mode: str = "all") -> _Handles:
    """Call ``fn`` once per backward pass with the gradients of several tensors.

    ``mode="all"``: ``fn(grads)`` once the gradients of all the tensors this pass reaches are computed, ``grads``
    one per tensor (None for one the pass does not reach). ``mode="any"``: ``fn(grad)`` with the first of them to be
    computed, once per pass. Registered as a tensor hook on each tensor; a pass is recognised by the engine's own
    bookkeeping (``_current_pass``)."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    waiting: dict[int, list] = {}  # a pass's id -> [its dependency counts, the grads so far, how many to wait for]
    last_any: list = [None]  # mode "any": the pass fn last ran in

    def node_of(t: Tensor) -> Node | None:
        return t.grad_fn if t.grad_fn is not None else (t._accumulator() if t._accumulator is not None else None)

    def hook(i: int) -> Callable[[Tensor], None]:
        def inner(grad: Tensor) -> None:
            deps, slow = _current_pass()
            if mode == "any":
                if last_any[0] is not deps:
                    last_any[0] = deps
                    fn(grad)
                return
            entry = waiting.get(id(deps))
            if entry is None or entry[0] is not deps:
                expected = sum(_will_run(node_of(t), deps, slow) for t in tensors)
                entry = waiting[id(deps)] = [deps, [None] * len(tensors), expected]
            entry[1][i], entry[2] = grad, entry[2] - 1
            if entry[2] == 0:
                del waiting[id(deps)]
                fn(tuple(entry[1]))

        return inner

    return _Handles([t.register_hook(hook(i)) for i, t in enumerate(tensors)])
