"""What the forward pass records: graph nodes, saved tensors, and ``Function``, the one mechanism behind every op.

A ``Node`` stands for one operation of the forward pass (it is what ``grad_fn`` points to). It knows

* ``next_functions``: one ``(node, output_nr)`` pair per tensor input of the operation, saying where the
  input's gradient must go next (``(None, 0)`` for an input that needs no gradient). A leaf that requires grad
  is represented by an ``AccumulateGrad`` node, whose job is to add the gradient into ``.grad``;
* its saved tensors (``ctx.save_for_backward``), each with the version it had, freed after backward ran.

Nodes point only *backwards* (to the nodes of their inputs) and never hold their own outputs, so a graph that
nobody references any more is freed at once by reference counting, with no cycles.

``Function`` is how a node is made. Subclass it with two static methods, exactly as in PyTorch::

    class Exp(Function):
        @staticmethod
        def forward(ctx, x):              # runs with grad recording off
            result = x.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):   # d(root)/d(result) -> d(root)/d(x)
            (result,) = ctx.saved_tensors
            return grad_output * result

    y = Exp.apply(x)

``apply`` runs ``forward`` and, when an input requires grad (and grad mode is on), records a node: an instance
of ``ExpBackward``, a class made for each Function. That node *is* the ``ctx`` forward received, so what forward
saved is what backward reads. The built-in ops are Functions too (made from the derivative table,
``derivatives.py``): their forwards compute on numpy arrays and their node classes carry PyTorch's names.
"""

from __future__ import annotations

import itertools
import traceback
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _legacy
from .. import _messages as M
from .grad_mode import GradMode, Speed

if TYPE_CHECKING:
    from .tensor import Tensor

_sequence_nr = itertools.count()


# -- Making tensors ---------------------------------------------------------------------------------------------
class Tensors:
    """The class this module and the engine make tensors of (an op's result, a gradient), and recognise them by.

    tensor.py imports this module, so this module cannot import tensor.py back: each Tensor class registers
    itself here instead (``Tensors.cls = Tensor``), first the core's, then the public ``tinygrad_edu.Tensor``,
    its subclass with the library's breadth (indexing, linear algebra...). PyTorch does the same: its C++ core
    makes every result an instance of the Python class ``torch.Tensor``, a subclass of ``torch._C.TensorBase``."""

    cls: type


def wrap(array: np.ndarray, grad_fn: Node | None = None, output_nr: int = 0, into: Tensor | None = None) -> Tensor:
    """A new tensor around ``array`` (no copy): what every op's result is. Its fields are Tensor's (tensor.py).
    (``into``: fill in a tensor being constructed instead.)"""
    t = object.__new__(Tensors.cls) if into is None else into
    t._array, t.grad_fn, t._output_nr, t._requires_grad = array, grad_fn, output_nr, grad_fn is not None
    t._grad = t._base = t._hooks = t._accumulator = None
    t._retains_grad = False
    t._version_counter = [0] if not GradMode.inference else InferenceCounter((0,))
    return t


class InferenceCounter(list):
    """The "version counter" of an inference tensor (made in ``inference_mode()``), which PyTorch does not track:
    it marks the tensor, and refuses in-place changes made outside inference mode with PyTorch's error. Every
    in-place op bumps a tensor's counter (``counter[0] += 1``), so this one place catches them all."""

    __slots__ = ()

    def __setitem__(self, index: Any, value: Any) -> None:
        self.check_inplace()

    @staticmethod
    def check_inplace() -> None:
        if not GradMode.inference:
            raise RuntimeError(M.INFERENCE_INPLACE)


# -- IEEE arithmetic ----------------------------------------------------------------------------------------------
class Quiet:
    """numpy's floating-point warnings, switched off while built-in ops compute. PyTorch computes as the hardware
    does, silently: 1/0 = inf, 0 * inf = nan, exp(1000) = inf. numpy warns about each unless told not to."""

    on = False
    state: Any = None  # the np.errstate a whole backward pass entered (engine.py), if it did

    @staticmethod
    def enter() -> None:
        Quiet.state = np.errstate(all="ignore")  # (an errstate can be entered only once: a new one each time)
        Quiet.state.__enter__()
        Quiet.on = True

    @staticmethod
    def exit() -> None:
        Quiet.on = False
        Quiet.state.__exit__()


_silently = np.errstate(all="ignore")(lambda fn, *args: fn(*args))  # numpy's decorator: a new error state each call
try:  # speed: the same error state, made once (numpy 2's own machinery behind np.errstate)
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj

    _IGNORE = _make_extobj(all="ignore")
except ImportError:  # (another numpy: np.errstate, as without the tricks)
    _extobj_contextvar = None


def quietly(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` with numpy's floating-point warnings off (a built-in op's forward, for instance)."""
    if Quiet.on:
        return fn(*args)
    if Speed.tricks and _extobj_contextvar is not None:  # speed: numpy's error state set from a prepared object
        token, Quiet.on = _extobj_contextvar.set(_IGNORE), True
        try:
            return fn(*args)
        finally:
            Quiet.on = False
            _extobj_contextvar.reset(token)
    Quiet.on = True
    try:
        return _silently(fn, *args)
    finally:
        Quiet.on = False


def aloud(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` with numpy's settings as the learner has them: their own code (a hook, a custom Function's
    backward) run while built-in ops are quiet, whose warnings must not be lost."""
    if not Quiet.on:
        return fn(*args)
    entered = Quiet.state is not None
    if entered:
        Quiet.exit()
    Quiet.on = False
    try:
        return fn(*args)
    finally:
        if entered:
            Quiet.enter()
        Quiet.on = True


# -- Nodes and saved tensors --------------------------------------------------------------------------------------
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

    def _unpack(self, i: int) -> Tensor | None:
        """Saved tensor ``i``, checked against in-place changes (what ``grad_fn._saved_self`` reads)."""
        if self._freed:
            if self._saved and self._saved[i] is None:  # nothing was saved there (x * 3 keeps no x): still None
                return None
            raise RuntimeError(M.FREED)
        saved = self._saved[i] if self._saved else None
        return None if saved is None else saved.unpack(self)

    def _release_variables(self) -> None:
        """Free the saved tensors (what happens after backward unless retain_graph=True)."""
        if self._saved is not None:
            # Drop the tensors, but remember which slots held none: PyTorch still answers None for those.
            self._saved = tuple([None if s is None else FREED for s in self._saved]) if None in self._saved else ()
            self._freed = True

    def register_hook(self, fn: Callable[[tuple, tuple], Any]) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = []
        return RemovableHandle.add(self._post_hooks, fn)

    def register_prehook(self, fn: Callable[[tuple], Any]) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = []
        return RemovableHandle.add(self._pre_hooks, fn)

    def _add_tensor_pre_hook(self, output_nr: int, fn: Callable) -> RemovableHandle:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        return RemovableHandle.add(self._tensor_pre_hooks.setdefault(output_nr, []), fn)

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


FREED = "<freed>"  # a saved slot after backward released its tensor


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    An input is kept as the tensor itself. An *output* of the node that saves it is kept as its parts (array,
    version counter) instead: holding the output tensor would make a cycle (output -> grad_fn -> saved output).
    When unpacked, the output is rebuilt with the node as its ``grad_fn``.
    """

    __slots__ = ("array", "counter", "output_nr", "tensor", "version")

    def __init__(self, tensor: Tensor, is_output: bool) -> None:
        if type(tensor._version_counter) is InferenceCounter:  # it could change unseen: no version to check
            raise RuntimeError(M.INFERENCE_SAVED)
        self.version = tensor._version_counter[0]
        if is_output:
            self.tensor = None
            self.array, self.counter, self.output_nr = tensor._array, tensor._version_counter, tensor._output_nr
        else:
            self.tensor = tensor

    def unpack(self, node: Node) -> Tensor:
        t = self.tensor
        counter = t._version_counter if t is not None else self.counter
        if counter[0] != self.version:  # changed in place since it was saved: the gradient would be wrong
            raise RuntimeError(M.modified_inplace(t._array if t is not None else self.array,
                                                  t.grad_fn if t is not None else node,
                                                  self.output_nr if t is None else t._output_nr,
                                                  counter[0], self.version))
        if t is not None:
            return t
        out = wrap(self.array, node, self.output_nr)
        out._version_counter = self.counter
        return out


# The (pack_hook, unpack_hook) pairs of the open ``autograd.graph.saved_tensors_hooks`` blocks; the last applies.
SAVED_TENSOR_HOOKS: list[tuple[Callable[[Tensor], Any], Callable[[Any], Tensor]]] = []


class PackedSavedTensor(SavedTensor):
    """A tensor saved inside a ``saved_tensors_hooks`` block: kept as what the pack hook made of it. (No version
    check: the graph trusts the hooks, as PyTorch does.)"""

    __slots__ = ("packed", "unpack_hook")

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
        self.unpack_hook = unpack_hook

    def unpack(self, node: Node) -> Tensor:
        if self.unpack_hook is None:
            return super().unpack(node)
        t = self.unpack_hook(self.packed)
        if not isinstance(t, Tensors.cls):
            raise TypeError(M.UNPACK_HOOK_TYPE.format(type(t).__name__))
        return t


class AccumulateGrad(Node):
    """The node standing for a leaf that requires grad: it adds incoming gradients into ``variable.grad``."""

    __module__ = "builtins"  # printed as PyTorch's C++ node classes are: <class 'AccumulateGrad'>

    def __init__(self, variable: Tensor) -> None:
        super().__init__()
        self._seq = 2**63 - 1  # as in PyTorch: accumulate as soon as a gradient is ready
        self.variable = variable

    def name(self) -> str:
        return "tinygrad_edu::autograd::AccumulateGrad"  # PyTorch gives its C++ name (torch::autograd::...)

    @property
    def _tensor_pre_hooks(self) -> dict[int, list] | None:
        """The leaf's ``register_hook`` hooks, kept on the tensor (which outlives this node). The engine runs them
        before accumulating, and also before ``autograd.grad`` captures a leaf's gradient."""
        hooks = self.variable._hooks
        return {0: hooks} if hooks else None

    def apply(self, grad: Tensor, steal: bool = False) -> tuple:
        """Add ``grad`` into ``.grad``, in place (as PyTorch: whoever holds x.grad sees the sum). ``steal``: the
        engine knows nobody else holds ``grad``, so an empty ``.grad`` may become it without a copy."""
        var = self.variable
        if var._grad is None:
            a = grad._array
            if GradMode.enabled:  # create_graph: a recorded copy, so the gradient keeps its own graph
                var._grad = wrap(a.copy(), CopyBackwards(grad) if grad._requires_grad else None)
            elif steal and a.dtype == var._array.dtype and a.strides == var._array.strides and a.flags.writeable:
                var._grad = wrap(a)  # speed: PyTorch "steals" a gradient nobody else can see (engine._unshared)
            else:  # a copy: later steps add into .grad in place, which must not change anybody else's tensor
                var._grad = wrap(np.array(a, dtype=var._array.dtype, copy=True))
        elif GradMode.enabled:
            var._grad = var._grad + grad
        elif var._grad._array.flags.writeable:
            quietly(_add_into, var._grad._array, grad._array)
            var._grad._version_counter[0] += 1  # (even if that .grad has a graph of its own, from create_graph)
        else:
            var._grad = wrap(var._grad._array + grad._array)
        for hook in list(var._post_accumulate_hooks or ()):
            returned = hook(var)
            if returned is not None:
                raise TypeError(M.HOOK_RETURNED.format(M.typename(returned)))
        return ()


def _add_into(out: np.ndarray, a: np.ndarray) -> None:
    np.add(out, a, out=out, casting="unsafe")


class CopyBackwards(Node):
    """The node of a copy made while recording: what ``.grad`` holds after ``backward(create_graph=True)``. As in
    PyTorch it has two inputs: the fresh destination (no gradient) and the copied source, which gets ``grad``."""

    __module__ = "builtins"

    def __init__(self, source: Tensor) -> None:
        super().__init__()
        self.next_functions = ((None, 0), gradient_edge(source))

    def name(self) -> str:
        return "tinygrad_edu::autograd::CopyBackwards"

    def apply(self, grad: Tensor) -> tuple:
        return (None, grad)


def gradient_edge(t: Tensor) -> tuple[Node | None, int]:
    """Where a gradient for ``t`` must be sent: ``(t.grad_fn, t.output_nr)``, or a leaf's AccumulateGrad."""
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    if not t._requires_grad:
        return (None, 0)
    acc = t._accumulator() if t._accumulator is not None else None
    if acc is None:  # made on first use, and shared while any graph holds it
        acc = AccumulateGrad(t)
        t._accumulator = weakref.ref(acc)  # weak: the leaf must not keep its graph alive
    return (acc, 0)


def broadcast_shapes(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape two shapes broadcast to (aligned on the right; a 1 stretches), with PyTorch's message if none."""
    nd = max(len(a), len(b))
    a, b = (1,) * (nd - len(a)) + tuple(a), (1,) * (nd - len(b)) + tuple(b)
    for d in range(nd - 1, -1, -1):  # PyTorch checks from the last dimension, and reports the first misfit
        if a[d] != b[d] and a[d] != 1 and b[d] != 1:
            raise RuntimeError(f"The size of tensor a ({a[d]}) must match the size of tensor b ({b[d]}) at "
                               f"non-singleton dimension {d}")
    return tuple(n if m == 1 else m for m, n in zip(a, b))


def sum_to_shape(grad: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Sum a gradient of a broadcast result back down to an input's ``shape``: broadcasting, undone once.

    An input of shape ``(3, 1)`` added to one of shape ``(2, 3, 4)`` was used as if it were ``(2, 3, 4)``: a
    new leading dimension (size 2), and its size-1 dimension repeated 4 times. Every copy contributed to the
    output, so the input's gradient is the *sum* of the copies' gradients, over dim 0 (dropped) and dim 2
    (kept as size 1)::

        sum_to_shape(g, (3, 1))   # g.shape == (2, 3, 4)  ->  g.sum((0, 2), keepdim=True).reshape(3, 1)
    """
    gshape = grad._array.shape
    if gshape == shape:
        return grad
    lead = len(gshape) - len(shape)
    dims = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape) if n == 1 and gshape[lead + i] != 1)
    if Speed.tricks and not GradMode.enabled:  # speed: nothing is recorded, so numpy's sum rather than two ops
        return wrap(grad._array.sum(axis=dims, keepdims=True).reshape(shape))
    out = grad.sum(dims, keepdim=True) if dims else grad
    return out.reshape(shape) if lead else out


# -- Function -------------------------------------------------------------------------------------------------
class FunctionCtx:
    """What ``forward`` can tell ``backward`` (the ``ctx`` argument)."""

    needs_input_grad: tuple[bool, ...] = ()
    _to_save: tuple = ()
    _non_differentiable: tuple = ()
    _dirty: tuple = ()
    materialize_grads = True

    def save_for_backward(self, *tensors: Tensor | None) -> None:
        """Keep tensors for backward. Saving (rather than ``ctx.x = x``) lets autograd check they were not
        changed in place meanwhile, and free them once backward has run."""
        self._to_save = tensors

    @property
    def saved_tensors(self) -> tuple[Tensor | None, ...]:
        if self._freed:
            raise RuntimeError(M.FREED)
        if self._saved is None:
            return tuple(self._to_save)
        return tuple([None if s is None else s.unpack(self) for s in self._saved])

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        """Outputs that have no gradient (e.g. argmax indices): they will not require grad."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = value

    def mark_dirty(self, *tensors: Tensor) -> None:
        """Inputs forward changed in place (and returns): their history now ends in this Function's node."""
        self._dirty = tensors


class BackwardCFunction(Node, FunctionCtx):
    """Base of the node classes made for Functions (PyTorch's name for them)."""

    _forward_cls: type[Function]
    _input_is_tensor: tuple[bool, ...] | None = None  # which forward arguments were tensors; None: all of them
    _pack_order: tuple[int, ...] | None = None  # which saved tensors to pack, in which order (None: all, in order)
    _seq = -1  # a node gets its sequence number when it is recorded (see Function.apply); most ctx never are
    __init__ = object.__init__  # (so nothing to do for the ctx of an op that records nothing)

    def apply(self, *grad_outputs: Tensor | None) -> tuple:
        grads = self._forward_cls.backward(self, *grad_outputs)
        return grads if isinstance(grads, tuple) else (grads,)

    def __repr__(self) -> str:  # a learner's Function's node: <tinygrad_edu.autograd.function.MyExpBackward ...>
        cls = type(self)
        name = cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"
        return f"<{name} object at {hex(id(self))}>"


def _no_setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
    raise NotImplementedError("setup_context is not implemented.")


class FunctionMeta(type):
    """Gives every Function subclass its node class: ``Exp`` gets ``ExpBackward``, ``Mul`` (built in, named by
    PyTorch) ``MulBackward0``."""

    def __init__(cls, name: str, bases: tuple, namespace: dict) -> None:
        super().__init__(name, bases, namespace)
        # forward as apply calls it, ctx first. With a setup_context of its own (PyTorch 2's style), forward takes
        # only the inputs, and setup_context(ctx, inputs, output) fills in ctx afterwards.
        forward = cls.forward
        if cls.setup_context is _no_setup_context:
            cls._forward_with_ctx = staticmethod(forward)
        else:
            def forward_then_setup(ctx: Any, *args: Any) -> Any:
                output = forward(*args)
                cls.setup_context(ctx, args, output)
                return output

            cls._forward_with_ctx = staticmethod(forward_then_setup)
        node_name = namespace.get("node_name", f"{name}Backward")
        cls._builtin = "node_name" in namespace  # (a learner's Function names no node)
        # PyTorch's built-in nodes are C++ classes (<class 'MulBackward0'>); a Python Function's node is
        # <class 'torch.autograd.function.MyExpBackward'>: tinygrad_edu.autograd.function, here.
        module = "builtins" if cls._builtin else "tinygrad_edu.autograd.function"
        cls._backward_cls = type(node_name, (BackwardCFunction,), {"_forward_cls": cls, "__module__": module,
                                                                   "__qualname__": node_name})
        cls._backward_cls._check_shapes = not cls._builtin  # a learner's backward gets its gradients checked
        cls._backward_cls._pack_order = cls.pack_order
        for i, saved in enumerate(namespace.get("saved_names", ())):  # e.g. grad_fn._saved_self
            setattr(cls._backward_cls, f"_saved_{saved}", property(lambda node, i=i: node._unpack(i)))


class Function(_legacy.FunctionRefusals, metaclass=FunctionMeta):
    """Base class for operations with a hand-written backward. Call them with ``.apply(...)``."""

    #: name of the node class (built-ins set PyTorch's, e.g. "MulBackward0"; default "<Name>Backward")
    node_name: str
    #: names under which saved tensors appear on the node, in save_for_backward order (``_saved_self``...)
    saved_names: tuple[str, ...] = ()
    #: True for ops whose output shares the first input's storage (view, transpose, indexing...)
    is_view = False
    #: the order in which saved-tensor hooks see the saved tensors, when not save_for_backward's
    pack_order: tuple[int, ...] | None = None
    #: a built-in op whose forward cannot meet a floating-point exception (inf, nan): it skips numpy's error state
    silent = False

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(M.NO_BACKWARD)

    #: PyTorch 2's other way of writing forward: ``forward(*inputs)`` without ctx, and
    #: ``setup_context(ctx, inputs, output)`` to save what backward needs.
    setup_context = staticmethod(_no_setup_context)

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Run forward; if any input requires grad (and grad mode is on) record a node for backward.

        Every op, and every op of every backward formula, comes through here: the usual cases take the shortest
        path, one array out and, inside no_grad or a backward pass, nothing to record."""
        T = Tensors.cls  # noqa: N806
        needs: tuple[bool, ...] = ()
        for a in args:  # (a plain loop: cheaper than a comprehension for 1-3 arguments)
            needs += (isinstance(a, T) and a._requires_grad,)
        ctx = cls._backward_cls()
        ctx.needs_input_grad = needs
        record = GradMode.enabled and True in needs
        # A built-in op computes as PyTorch does, silently (1/0 is inf); a learner's code runs with their settings.
        quiet = cls._builtin and not (cls.silent and Speed.tricks)  # speed: ops that cannot overflow skip it
        if GradMode.enabled:
            if record:
                ctx._seq = next(_sequence_nr)  # the order of creation, which the engine follows
            GradMode.enabled = False  # forward's own tensor ops must not be recorded
            try:
                out = quietly(cls._forward_with_ctx, ctx, *args) if quiet else cls._forward_with_ctx(ctx, *args)
            finally:
                GradMode.enabled = True
        else:  # grad mode is off already (no_grad, or a backward pass): nothing to switch, nothing to record
            out = quietly(cls._forward_with_ctx, ctx, *args) if quiet else cls._forward_with_ctx(ctx, *args)
        if type(out) is np.ndarray:  # the usual case, one plain array: the new tensor's numbers
            out = wrap(out)
        elif not isinstance(out, T) or ctx._dirty:
            return cls._many_outputs(ctx, args, out, record)
        if record and (out.grad_fn is not None or _is_one_of(out, args)):  # an input, or a tensor with history
            out = _alias(out)
        if cls.is_view:  # shares the input's storage, so its version counter too
            base = args[0]
            out._version_counter = base._version_counter
            out._base = base._base if base._base is not None else base
        if not record:
            return out
        if out._array.dtype.kind == "f" and not _is_one_of(out, ctx._non_differentiable):
            out.grad_fn, out._output_nr, out._requires_grad = ctx, 0, True
        _record(ctx, args, (out,))
        return out

    @classmethod
    def _many_outputs(cls, ctx: BackwardCFunction, args: tuple, out: Any, record: bool) -> Any:
        """``apply`` for a forward that returned several outputs (a tuple), a numpy scalar, or an input it changed
        in place (``ctx.mark_dirty``)."""
        many = isinstance(out, tuple)
        results = []
        for o in out if many else (out,):
            if isinstance(o, (np.ndarray, np.generic)):  # (numpy turns 0-d results into scalars)
                o = wrap(np.asarray(o))
            elif _is_one_of(o, ctx._dirty):  # an input changed in place: it stays itself, with a new history
                if record:
                    _check_dirty(o)
            elif isinstance(o, Tensors.cls) and record and (o.grad_fn is not None or _is_one_of(o, args)):
                o = _alias(o)  # forward returned an input (or a tensor with history): a new identity
            if cls.is_view and isinstance(o, Tensors.cls):
                base = args[0]
                o._version_counter, o._base = base._version_counter, base._base if base._base is not None else base
            results.append(o)
        if any(not _is_one_of(t, results) for t in ctx._dirty):
            raise RuntimeError(M.DIRTY_NOT_RETURNED)
        if record:
            _record(ctx, args, results)  # (first: the edges of a dirty input lead to its history before this node)
            for i, o in enumerate(results):
                if isinstance(o, Tensors.cls) and o._array.dtype.kind == "f" and \
                        not _is_one_of(o, ctx._non_differentiable):
                    o.grad_fn, o._output_nr, o._requires_grad = ctx, i, True
            if many:
                ctx._num_outputs = len(results)
                ctx._output_meta = tuple((r._array.shape, r._array.dtype) if isinstance(r, Tensors.cls)
                                         else ((), np.float32) for r in results)
        for t in ctx._dirty:  # a new version, as PyTorch counts it: the new history is a change too
            t._version_counter[0] += 1
        return tuple(results) if many else results[0]


def _is_one_of(x: object, items: tuple | list) -> bool:
    """Identity membership (``x in items`` would compare tensors with ``==``, element-wise)."""
    for item in items:  # noqa: SIM110  (a plain loop: cheaper than any() over a generator, on a hot path)
        if item is x:
            return True
    return False


def _check_dirty(t: Tensor) -> None:
    """An input a Function changed in place may take on its node only if autograd could have recorded the
    change: not a leaf that requires grad (its .grad would be the gradient of a value it no longer holds)."""
    if t.grad_fn is None and t._requires_grad:
        raise RuntimeError(M.LEAF_DIRTY)
    if t._base is not None:
        raise RuntimeError(M.VIEW_DIRTY)


def _alias(t: Tensor) -> Tensor:
    """A new tensor over ``t``'s storage and version counter (an output must be a tensor of its own)."""
    out = wrap(t._array)
    out._version_counter = t._version_counter
    return out


def _record(ctx: BackwardCFunction, args: tuple, results: tuple | list) -> None:
    """Link the node ``ctx`` into the graph: one edge per tensor argument (numbers, dims... get none), and the
    tensors forward saved, each with its version now."""
    T = Tensors.cls  # noqa: N806
    edges = tuple([gradient_edge(a) for a in args if isinstance(a, T)])
    ctx.next_functions = edges
    if len(edges) != len(args):
        ctx._input_is_tensor = tuple([isinstance(a, T) for a in args])
    if ctx._check_shapes:  # a learner's Function: the gradients its backward returns are checked against these
        ctx._input_meta = tuple((a._array.shape, a._array.dtype) for a in args if isinstance(a, T))
    if ctx._to_save:
        saved: list[SavedTensor | None] = [None] * len(ctx._to_save)
        make = PackedSavedTensor if SAVED_TENSOR_HOOKS else SavedTensor
        for i in ctx._pack_order or range(len(saved)):  # the order a pack hook sees them in
            t = ctx._to_save[i]
            if t is not None:
                saved[i] = make(t, _is_one_of(t, results))
        ctx._saved, ctx._to_save = tuple(saved), ()
    if GradMode.anomaly:  # for the "Error detected in ..." warning, should backward fail
        ctx._forward_stack = traceback.extract_stack()
