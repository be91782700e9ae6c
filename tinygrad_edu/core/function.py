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
import math
import operator
import sys
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _arrays, _hooks, _legacy, _steal
from .. import _checks as C
from .. import _messages as M
from .._quiet import Quiet, aloud, quiet_off, quiet_on, quietly
from .grad_mode import GradMode, Speed

if TYPE_CHECKING:
    from .tensor import Tensor

_sequence_nr = itertools.count()


class Tensors:
    """The class of every op's result: tensor.py registers the core's Tensor, then the public subclass itself."""

    cls: type
    views: Any  # ops/views.py: regrow(view), a view's history after its base changed; rebase(view, node)...


def wrap(array: np.ndarray, grad_fn: Node | None = None, output_nr: int = 0, counter: list | None = None) -> Tensor:
    """A new tensor around ``array`` (no copy): what every op's result is. Its fields are Tensor's (tensor.py).
    (``counter``: the version counter of another tensor over the same numbers, which it shares.)"""
    t = object.__new__(Tensors.cls)
    t._array, t.grad_fn, t._output_nr, t._requires_grad, t._base = array, grad_fn, output_nr, grad_fn is not None, None
    t._version_counter = counter if counter is not None else [0] if not GradMode.inference else InferenceCounter((0,))
    return t


class InferenceCounter(list):
    """The version counter of an inference tensor (made in ``inference_mode()``): it marks the tensor, and refuses
    in-place changes outside inference mode (every in-place op bumps ``counter[0]``, so this one place sees them)."""

    __slots__ = ()

    def __setitem__(self, index: Any, value: Any) -> None:
        if not GradMode.inference:
            raise RuntimeError(M.INFERENCE_INPLACE)


# -- Nodes and saved tensors --------------------------------------------------------------------------------------
class Node(_hooks.NodeHooks):
    """One operation in the backward graph (what a tensor's ``grad_fn`` is). Hooks, ``name()``...: ``_hooks``."""

    next_functions: tuple[tuple[Node | None, int], ...] = ()
    _num_outputs = 1  # how many outputs the operation had: how many gradients apply() receives
    _saved: tuple[SavedTensor | str | None, ...] | None = None  # None: nothing saved
    _freed = False
    _learners = False  # the node of a learner's Function?

    def __init__(self) -> None:
        self._seq = next(_sequence_nr)

    def apply(self, *grad_outputs: Tensor) -> tuple[Tensor | None, ...]:
        """Given d(root)/d(outputs), return d(root)/d(inputs), one per entry of next_functions."""
        raise NotImplementedError

    def _unpack(self, i: int) -> Tensor | None:
        """Saved tensor ``i``, checked against in-place changes (what ``grad_fn._saved_self`` reads)."""
        saved = self._saved[i] if self._saved else None
        if saved is FREED:
            raise RuntimeError(M.FREED)
        return None if saved is None else saved.unpack(self, peek=True)

    def _release_variables(self) -> None:
        """Free the saved tensors (after backward, unless retain_graph=True); an empty slot still answers None."""
        if self._saved is not None:
            self._saved, self._freed = tuple([s and FREED for s in self._saved]), True  # (FREED: a slot that held one)


FREED = "<freed>"  # a saved slot after backward released its tensor
RESULT = "<result>"  # what a built-in's forward saves for its output, which does not exist yet


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved. An input is kept as the tensor itself; an
    *output* of the node that saves it as its parts (array, version counter): holding the output tensor would make a
    cycle (output -> grad_fn -> saved output). Unpacked, the output is rebuilt with the node as its ``grad_fn``."""

    __slots__ = ("array", "counter", "output_nr", "tensor", "version")
    hooks: list = []  # (pack, unpack) pairs of open saved_tensors_hooks blocks: then a ``packed`` is saved (graph.py)
    packed: Callable[[Node], type]  # packed(node): their class; the node then runs its hooks' way (graph.py)

    def __init__(self, tensor: Tensor, is_output: bool, output_nr: int = 0) -> None:
        if type(tensor._version_counter) is InferenceCounter:  # it could change unseen: no version to check
            raise RuntimeError(M.INFERENCE_SAVED)
        self.version, self.tensor = tensor._version_counter[0], None if is_output else tensor
        if is_output:  # (kept as its parts: see above; output_nr: which of the node's outputs it is)
            self.array, self.counter, self.output_nr = tensor._array, tensor._version_counter, output_nr

    def unpack(self, node: Node, peek: bool = False) -> Tensor:
        t = self.tensor  # (None: an output. peek: for grad_fn._saved_self, which shows an input even once detach_()-ed)
        if (t._version_counter if t is not None else self.counter)[0] != self.version or getattr(t, "_detached", None):
            C.refuse_saved(self, node, peek)  # changed in place since saved (the gradient would be wrong), or detached
        return t if t is not None else wrap(self.array, node, self.output_nr, self.counter)


class AccumulateGrad(Node):
    """The node standing for a leaf that requires grad: it adds incoming gradients into ``variable.grad``."""

    __module__ = "builtins"  # printed as PyTorch's C++ node classes are: <class 'AccumulateGrad'>

    def __init__(self, variable: Tensor) -> None:
        self._seq, self.variable = 2**63 - 1, variable  # (the highest number, as in PyTorch: accumulate at once)
        self._slow = variable._hooks is not None or variable._post_accumulate_hooks is not None  # (a leaf's hooks)

    @property
    def _tensor_pre_hooks(self) -> dict[int, list] | None:
        """The leaf's ``register_hook`` hooks, kept on the tensor (which outlives this node)."""
        return {0: self.variable._hooks} if self.variable._hooks else None

    def apply(self, grad: Tensor) -> tuple:
        """Add ``grad`` into ``.grad``, in place (as in PyTorch: whoever holds x.grad sees the sum)."""
        var = self.variable
        if var._grad is None and GradMode.enabled:  # create_graph: a recorded copy, keeping grad's own graph
            var._grad = wrap(grad._array.copy(), CopyBackwards(grad) if grad._requires_grad else None)
        elif var._grad is None:  # a copy (later steps add into .grad in place), unless nobody else can see grad: a
            var._grad = wrap(grad._array if (Speed.tricks or self._post_hooks) and grad._array.dtype == var._array.dtype
                             and grad._array.strides == var._array.strides and _unshared(grad, _UNSHARED) else
                             np.array(grad._array, dtype=var._array.dtype))  # trick, but post-hooks see it, as PyTorch
        elif GradMode.enabled or not var._grad._array.flags.writeable:
            var._grad = var._grad + grad
        else:
            quietly(np.add, var._grad._array, grad._array, var._grad._array)
            var._grad._version_counter[0] += 1  # (even if that .grad has a graph of its own, from create_graph)
        return ()  # (its hooks, the leaf's: engine.py runs them)


def _unshared(grad: Tensor, most: tuple | None = None) -> Any:
    """speed: whether nobody but the engine holds ``grad`` and its memory, so ``.grad`` may become it without a copy
    (PyTorch "steals" it too): anybody else's reference shows in the counts of references to the gradient, its
    array, the memory it views, and the tensor of that memory. (``most``: their counts when unshared, ``_steal``.)"""
    a, base, memory = grad._array, grad._base, grad._array.base
    own = a.flags.writeable and (memory is None or (type(memory) is np.ndarray and memory.base is None))
    counts = (sys.getrefcount(grad), sys.getrefcount(a), 0 if memory is None else sys.getrefcount(memory) -
              (base is not None and base._array is memory), 0 if base is None else sys.getrefcount(base))
    return counts if most is None else own and all(map(operator.le, counts, most))


class CopyBackwards(Node):
    """The node of a copy made while recording: what ``.grad`` holds after ``backward(create_graph=True)``. As in
    PyTorch it has two inputs: the fresh destination (no gradient) and the copied source, which gets ``grad``."""

    __module__ = "builtins"

    def __init__(self, source: Tensor) -> None:
        super().__init__()
        self.next_functions = ((None, 0), gradient_edge(source))

    def apply(self, grad: Tensor) -> tuple:
        return (None, grad)


def gradient_edge(t: Tensor) -> tuple[Node | None, int]:
    """Where a gradient for ``t`` must be sent: ``(t.grad_fn, t.output_nr)``, or a leaf's AccumulateGrad. (A view out
    of date, its base changed in place since, first gets a new history: ``regrow``.)"""
    if t._base is not None and t._view_version != t._version_counter[0]:
        Tensors.views.regrow(t)
    if t.grad_fn is not None or not t._requires_grad or (t._base is not None and t._base._requires_grad):
        return (t.grad_fn, t._output_nr)  # (a view made without grad mode: it has no history, and takes no gradient)
    acc = t._accumulator() if t._accumulator is not None else None
    if acc is None:  # made on first use, and shared while any graph holds it
        acc = AccumulateGrad(t)
        t._accumulator = weakref.ref(acc)  # weak: the leaf must not keep its graph alive
    return (acc, 0)


def sum_to_shape(grad: Tensor, shape: tuple[int, ...], dtype: np.dtype | None = None) -> Tensor:
    """Sum a gradient of a broadcast result back down to an input's ``shape`` (and ``dtype``): broadcasting, undone.

    An input of shape ``(3, 1)`` used with one of shape ``(2, 3, 4)`` was used as if it were ``(2, 3, 4)``: a new
    leading dimension (size 2), and its size-1 dimension repeated 4 times. Every copy contributed to the output, so
    the input's gradient is the *sum* of the copies' gradients, over dim 0 (dropped) and dim 2 (kept as size 1)::

        sum_to_shape(g, (3, 1))   # g.shape == (2, 3, 4)  ->  g.sum((0, 2), keepdim=True).reshape(3, 1)
    """
    a, lead = grad._array, grad._array.ndim - len(shape)
    dims = (*range(lead), *[lead + i for i, n in enumerate(shape) if n == 1 and a.shape[lead + i] != 1])
    if dims and Speed.tricks and not GradMode.enabled:  # speed: nothing is recorded: the sum's array, not two ops
        grad = wrap(np.add.reduce(a, dims, keepdims=True).reshape(shape) if a.size <= 4 * math.prod(shape) else
                    _arrays.ordered_sum(a, dims, True).reshape(shape))  # as SumDim's (past 4 a sum: PyTorch's order)
    elif dims:  # (the dimensions in front dropped by a reshape)
        grad = grad.sum(dims, keepdim=True).reshape(shape) if lead else grad.sum(dims, keepdim=True)
    return grad if dtype is None or grad._array.dtype == dtype else grad.to(dtype)


def broadcast_from(ctx: FunctionCtx, *inputs: Tensor | None) -> None:
    """Tell the mechanism that forward broadcast (or promoted) these inputs, its first arguments in order (None if
    not): it sums each one's gradient down to its input's shape and dtype, so no backward has to (``x * b``)."""
    ctx._meta = tuple([None if t is None else (t._array.shape, t._array.dtype) for t in inputs])


def _as_inputs(grads: tuple, meta: tuple) -> tuple:
    """Each gradient made its input's (see ``broadcast_from``): summed down to its shape, in its dtype."""
    return tuple([g if g is None or m is None else sum_to_shape(g, *m) for g, m in itertools.zip_longest(grads, meta)])


# -- Function -------------------------------------------------------------------------------------------------
class FunctionCtx:
    """What ``forward`` can tell ``backward`` (the ``ctx`` argument)."""

    needs_input_grad: tuple[bool, ...] = ()
    _to_save = _non_differentiable = _dirty = _for_forward = ()  # (what the methods below are told: tuples of tensors)
    materialize_grads = True

    def save_for_backward(self, *tensors: Tensor | None) -> None:
        """Keep tensors for backward: autograd checks they were not changed in place since, and frees them after."""
        self._to_save = tensors

    def save_for_forward(self, *tensors: Tensor | None) -> None:
        """Keep tensors for ``jvp`` (forward mode), which reads them as ``ctx.saved_tensors``."""
        self._for_forward = tensors

    @property
    def saved_tensors(self) -> tuple[Tensor | None, ...]:
        if self._freed:
            raise RuntimeError(M.FREED)
        return () if self._saved is None else tuple([s and s.unpack(self) for s in self._saved])  # (none in forward)

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
    _meta: tuple | None = None  # the broadcast inputs' shapes and dtypes (``broadcast_from``)
    _pack_order: tuple[int, ...] | None = None  # which saved tensors to pack, in which order (None: all, in order)
    _seq = -1  # a node gets its sequence number when it is recorded (see Function.apply); most ctx never are
    __init__ = object.__init__  # (so nothing to do for the ctx of an op that records nothing)

    def apply(self, *grads: Tensor | None) -> tuple:
        """Run the Function's backward: one gradient per tensor input, each of its input's shape and dtype. (A
        learner's Function's node runs their backward as written, ``_as_written``; the engine checks its results.)"""
        result = self._forward_cls.backward(self, *grads)
        result = result if type(result) is tuple else (result,)
        if self._meta is not None:  # summed back down to the shapes of the inputs that were broadcast
            result = _as_inputs(result, self._meta)
        return result if self._input_is_tensor is None else tuple(itertools.compress(result, self._input_is_tensor))


def _as_written(node: BackwardCFunction, *grads: Tensor | None) -> Any:
    """A learner's Function's node's ``apply``: their backward, its results as it returns them (as PyTorch's)."""
    return node._forward_cls.backward(node, *grads)


def learners_gradients(node: BackwardCFunction, grads: list) -> tuple:
    """A learner's backward run by the engine, with their numpy settings: its results checked as PyTorch checks them,
    one gradient per tensor input, summed down to its shape and converted to its dtype. (``boxed_grads_call``: their
    backward as written, given the engine's own list, which it may empty, freeing each gradient once used.)"""
    cls = node._forward_cls
    result = aloud(cls._boxed_backward, node, grads) if cls.boxed_grads_call else aloud(node.apply, *grads)
    grads = C.learner_grads(node, result if isinstance(result, tuple) else (result,), Tensors.cls)
    return _as_inputs(tuple(grads), node._input_meta)


def _no_setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
    raise NotImplementedError("setup_context is not implemented.")


class FunctionMeta(type):
    """Gives every Function subclass its node class: ``Exp`` gets ``ExpBackward``, ``Mul`` (built in, named by
    PyTorch) ``MulBackward0``."""

    def __init__(cls, name: str, bases: tuple, namespace: dict) -> None:
        super().__init__(name, bases, namespace)
        forward = cls.forward  # (PyTorch 2's style: forward without ctx, then setup_context(ctx, inputs, output))
        if cls.setup_context is not _no_setup_context:
            def forward(ctx: Any, *args: Any) -> Any:
                output = cls.forward(*args)
                cls.setup_context(ctx, args, output)
                return output
        cls._forward_with_ctx = staticmethod(forward)
        node_name = namespace.get("node_name", f"{name}Backward")
        cls._builtin = "node_name" in namespace  # (a learner's Function names no node)
        if not cls._builtin and "apply" not in namespace:  # a learner's: keyword arguments bound as PyTorch binds them
            cls.apply = classmethod(lambda c, /, *a, **k: Function.apply.__func__(c, *C.function_arguments(c, a, k)))
        module = "builtins" if cls._builtin else "tinygrad_edu.autograd.function"  # (a built-in's: C++, in PyTorch)
        learners = {} if cls._builtin else {"_learners": True, "_slow": True, "apply": _as_written}
        cls._backward_cls = type(node_name, (BackwardCFunction,), {
            "_forward_cls": cls, "__module__": module, "__qualname__": node_name, "_pack_order": cls.pack_order,
            **learners})
        _hooks.saved_attributes(cls._backward_cls, cls.saved_names)  # grad_fn._saved_self and _raw_saved_self


class Function(_legacy.FunctionRefusals, metaclass=FunctionMeta):
    """Base class for operations with a hand-written backward. Call them with ``.apply(...)``."""

    node_name: str  # the node class's name: a built-in sets PyTorch's ("MulBackward0"); by default "<Name>Backward"
    saved_names: tuple[str, ...] = ()  # the saved tensors' names on the node, in save_for_backward order (_saved_self)
    is_view = False  # does the output share the first input's storage (view, transpose, indexing...)?
    pack_order: tuple[int, ...] | None = None  # the order saved-tensor hooks see them in, if not save_for_backward's
    refusal: Callable[..., None] | None = None  # a built-in's: raises PyTorch's error where numpy refused (ValueError)
    silent = False  # speed: a built-in whose forward meets no floating-point exception skips numpy's error state
    _bare = False  # speed: a derivative entry (not a view): inside a backward pass, just its forward's array wrapped
    boxed_grads_call = False  # True: backward(ctx, grads) takes the gradients as one list (autograd/function.py)

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(M.NO_BACKWARD)

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        """Forward mode: the outputs' tangents from the inputs' (zeros for a tensor input without one)."""
        raise NotImplementedError(M.NO_JVP)

    #: How forward mode runs an op's rule: ``_jvp(ctx, args, outputs, tangents)``. A derivative entry has its own
    #: (derivatives.py); a Function's calls its ``jvp`` (set outside the core, by ``autograd.forward_ad``).
    _jvp: Callable[..., Any]

    #: PyTorch 2's other way of writing forward: ``forward(*inputs)`` without ctx, and
    #: ``setup_context(ctx, inputs, output)`` to save what backward needs.
    setup_context = staticmethod(_no_setup_context)

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Run forward with grad mode off; if an input requires grad (and grad mode is on), record a node.

        Every op comes through here, and every op of every backward formula: the usual case is one array out,
        wrapped as a tensor, and inside no_grad or a backward pass nothing to record."""
        if cls._bare and Quiet.token is not None and not GradMode.enabled and GradMode.dual is None and Speed.tricks:
            return wrap(np.asanyarray(cls._forward_with_ctx(cls._backward_cls, *args)))  # speed: nothing to record
        ctx, enabled, level = cls._backward_cls(), GradMode.enabled, GradMode.dual
        ctx.needs_input_grad = tuple([isinstance(a, Tensors.cls) and a._requires_grad for a in args])
        ctx._seq = next(_sequence_nr) if (record := enabled and True in ctx.needs_input_grad) else -1  # (the order of
        # creation, which the engine follows; -1: not recorded)
        # a built-in op computes as PyTorch does, silently (1/0 is inf); a learner's, with the learner's settings
        token = quiet_on() if Quiet.token is None and cls._builtin and not (cls.silent and Speed.tricks) else None
        GradMode.enabled, GradMode.dual = False, None  # forward's own tensor ops are not recorded, nor give tangents
        try:
            out = cls._forward_with_ctx(ctx, *args)
        except (ValueError, TypeError):  # numpy refused (shapes that do not broadcast, bool - bool ...)
            if cls.refusal is not None:
                cls.refusal(*args)
            raise
        finally:
            GradMode.enabled, GradMode.dual = enabled, level
            if token is not None:
                quiet_off(token)
        if type(out) is not np.ndarray or ctx._learners:  # a tensor, several outputs, an input changed, a learner's ...
            return _outputs(cls, ctx, args, out, record, level)
        out = wrap(out, None, 0, args[0]._version_counter if cls.is_view else None)  # a view shares its input's
        if cls.is_view and type(out._version_counter) is not InferenceCounter:  # storage, so its version counter
            out._base = base = args[0] if args[0]._base is None else args[0]._base  # too; _base: the tensor owning it
            out._view_version, out._requires_grad = out._version_counter[0], base._requires_grad  # (no_grad too)
            out._view_made = MADE_IN[GradMode.enabled, GradMode.inference] or args[0]._view_made  # (see ops/views.py)
        if record and (out._base is not None or not cls.is_view):  # (an inference tensor's view is not recorded)
            if out._array.dtype.kind == "f":  # (an integer result has no gradient)
                out.grad_fn, out._requires_grad = ctx, True
            _record(ctx, args, (out,))
        return out if level is None else forward_tangents(cls, ctx, args, (out,), level)[0]  # forward mode: tangents


def _outputs(cls: type[Function], ctx: BackwardCFunction, args: tuple, out: Any, record: bool, level: Any) -> Any:
    """``apply`` for any forward but a built-in's one array: tensors (a learner's forward, or a built-in that
    saves its result), several outputs (a tuple), a numpy scalar, an input changed in place (``ctx.mark_dirty``)."""
    T = Tensors.cls  # noqa: N806
    many = isinstance(out, tuple)
    results, enabled = [], GradMode.enabled
    for o in out if many else (out,):
        if isinstance(o, (np.ndarray, np.generic)) and not ctx._learners:  # (numpy turns 0-d results into scalars;
            o = wrap(np.asanyarray(o))  # a learner's array stays one, as in PyTorch)
        elif _is_one_of(o, ctx._dirty):  # an input changed in place: it stays itself, with a new history
            if record:
                C.check_dirty(o, _is_one_of(o, args), len(out) if many else 1)
        elif isinstance(o, T) and record and (o.grad_fn is not None or _is_one_of(o, args)):
            o = wrap(o._array, counter=o._version_counter)  # forward returned an input (or a tensor with history): a
            # new tensor over the same storage and version counter (an output must be a tensor of its own)
        if cls.is_view and isinstance(o, T):  # (a view: as in apply; one of several: PyTorch forbids changing it)
            Tensors.views.as_view(o, args[0], "multi" if many and enabled else None)
        results.append(o)
    if any(not _is_one_of(t, results) for t in ctx._dirty):
        raise RuntimeError(M.DIRTY_NOT_RETURNED)
    if ctx._learners:  # a learner's outputs that share an input's storage: views PyTorch forbids changing (views.py)
        Tensors.views.custom_outputs(ctx, args, out if many else (out,), results, record)
    if record:
        _record(ctx, args, results)  # (first: a dirty input's edge leads to its history before this node)
        for i, o in enumerate(results):
            if isinstance(o, T) and o._array.dtype.kind == "f" and not _is_one_of(o, ctx._non_differentiable):
                _hooks.new_history(o, ctx, i)  # (a dirty input's retain_grad follows it to this node)
        if many:  # (the engine's slower path gives outputs that got no gradient zeros: _output_meta; None to a non-
            ctx._num_outputs, ctx._slow = len(results), True  # tensor, or a non-differentiable one if asked)
            keep = getattr(ctx, "_materialize_non_diff_grads", True)
            ctx._output_meta = tuple((r._array.shape, r._array.dtype) if isinstance(r, T) and (keep or not _is_one_of(
                r, ctx._non_differentiable)) else None for r in results)
    if level is not None:
        forward_tangents(cls, ctx, args, results, level)
    for t in ctx._dirty:  # a new version, as PyTorch counts it: the new history is a change too
        t._version_counter[0] += 1
        if record and t._base is not None:  # a view: its base's history is rewritten (ops/views.py)
            Tensors.views.rebase(t, ctx)
    ctx._dirty = ()  # (the node must not hold them: a view's base's history holds the node, a cycle)
    return tuple(results) if many else results[0]


def tangent(t: Tensor) -> Tensor | None:
    """A tensor's tangent at the open dual level (forward mode), or None."""
    return t._fw[1] if t._fw is not None and t._fw[0] is GradMode.dual else None


def forward_tangents(cls: type[Function], ctx: Any, args: tuple, outputs: tuple | list, level: object) -> Any:
    """Forward mode, the one step (inside a dual level, ``forward_ad``): each output gets its tangent, J·t, from the
    inputs' tangents by the op's rule (``cls._jvp``). The rule runs with forward mode off (a tangent has no tangent of
    its own), but recorded if grad mode is on: a tangent can be differentiated in reverse mode. Returns the outputs."""
    tangents = [tangent(a) if isinstance(a, Tensors.cls) else None for a in args]
    if tangents.count(None) == len(tangents):
        return outputs
    GradMode.dual = None
    try:
        results = cls._jvp(ctx, args, tuple(outputs), tangents)
    finally:
        GradMode.dual = level
    for o, t in zip(outputs, results if isinstance(results, (tuple, list)) else (results,)):
        if t is not None and isinstance(o, Tensors.cls) and o._array.dtype.kind == "f":
            o._fw = (level, t)
    for s in ctx._saved or ():  # a saved output is kept as itself, with its tangent, for forward-over-reverse (a
        if type(s) is SavedTensor and s.tensor is None:  # cycle, output -> node -> output, which gc frees)
            s.tensor = outputs[s.output_nr]
    return outputs


MADE_IN = {(True, False): None, (True, True): None, (False, False): "no_grad", (False, True): "inference"}  # (a view)


def _is_one_of(x: object, items: tuple | list) -> int:
    """Identity membership (``x in items`` would compare tensors with ``==``): x's position + 1, or 0 if absent."""
    for i, item in enumerate(items):  # (a plain loop: cheaper than any() over a generator, on a hot path)
        if item is x:
            return i + 1
    return 0


def _record(ctx: BackwardCFunction, args: tuple, results: tuple | list) -> None:
    """Link the node ``ctx`` into the graph: one edge per tensor argument (numbers, dims... get none), and what
    forward saved, each tensor with its version now."""
    T = Tensors.cls  # noqa: N806
    ctx.next_functions = tuple([(a.grad_fn, a._output_nr) if a.grad_fn is not None and a._base is None else
                                gradient_edge(a) for a in args if isinstance(a, T)])  # (made by an op: its node)
    if len(ctx.next_functions) != len(args):
        ctx._input_is_tensor = tuple([isinstance(a, T) for a in args])
    if ctx._learners:  # (a learner's: what it saved; its tensor inputs' shapes and dtypes, to check its backward)
        ctx._input_meta = C.learners_inputs(ctx._to_save, args, T)
    if ctx._to_save:
        make, saved = SavedTensor.packed(ctx) if SavedTensor.hooks else SavedTensor, [None] * len(ctx._to_save)
        for i in ctx._pack_order or range(len(saved)):  # the order a pack hook sees them in
            t = ctx._to_save[i]
            if t is not None:  # (RESULT: a built-in's output, made after its forward saved it)
                nr = 0 if t is RESULT or t is results[0] else _is_one_of(t, results) - 1 if len(results) > 1 else -1
                saved[i] = make(results[0] if t is RESULT else t, nr >= 0, max(nr, 0))  # (an output: which one)
        ctx._saved, ctx._to_save = tuple(saved), ()
    if GradMode.anomaly:  # (where the learner's code made it, for the "Error detected in ..." warning)
        C.remember_forward(ctx)


_UNSHARED = _steal.unshared_counts(_unshared)  # (measured once: what _unshared counts when nobody else holds it)
