"""``Function``: an operation with a forward and a backward, the one mechanism behind every op.

Subclass it with two static methods, exactly as in PyTorch::

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

``apply`` runs ``forward`` and, when any input requires grad (and grad mode is on), records a node:
an instance of ``ExpBackward``, a class made for each Function. That node *is* the ``ctx`` forward
received, so what forward saved is what backward reads. Built-in ops (``ops/``) are Functions too;
their forwards compute on numpy arrays and may return one, and their node classes carry PyTorch's names
(``MulBackward0``...).
"""

from __future__ import annotations

import functools
import traceback
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from .._tensor import Tensor, _wrap
from .grad_mode import GradMode, no_grad
from .graph import SAVED_TENSOR_HOOKS, Node, PackedSavedTensor, SavedTensor, _sequence_nr, gradient_edge


def _is_one_of(x: object, items: tuple | list) -> bool:
    """Identity membership. (``x in items`` would compare tensors with ``==``, element-wise; and a plain
    loop is cheaper than ``any(...)`` over a generator, on a path every recorded op takes.)"""
    for item in items:  # noqa: SIM110  (see above: deliberately not any())
        if item is x:
            return True
    return False


F = TypeVar("F", bound=Callable[..., Any])


# -- IEEE arithmetic -------------------------------------------------------------------------------------------
# PyTorch computes as the hardware does: 1/0 = inf, 0 * inf = nan, exp(1000) = inf, log(-1) = nan, all silently.
# numpy warns about each unless told not to (np.errstate), so the built-in ops compute under
# np.errstate(all="ignore"): ``@ieee`` on their forward. Entering it costs about a microsecond, as much as the
# arithmetic on a small tensor, so a backward pass enters it once for all the ops of all its formulas
# (``silence_float_errors``) and ``@ieee`` skips it there.


class _FloatErrors:
    silenced = False  # True between silence_float_errors() and restore_float_errors(): numpy's warnings are off
    state: Any = None  # the np.errstate entered for that


def ieee(forward: F) -> F:
    """Decorate an op's ``forward``: run it with numpy's floating-point warnings off (as above)."""
    quiet = np.errstate(all="ignore")(forward)  # numpy's own decorator: enters the error state at every call

    @functools.wraps(forward)
    def run(*args: Any) -> Any:
        return forward(*args) if _FloatErrors.silenced else quiet(*args)

    return run  # type: ignore[return-value]


def silence_float_errors() -> tuple:
    """Turn numpy's floating-point warnings off until ``restore_float_errors(token)`` (the engine does this
    around a backward pass, as it sets grad mode). Returns the token."""
    token = (_FloatErrors.silenced, _FloatErrors.state)
    _FloatErrors.state = np.errstate(all="ignore")
    _FloatErrors.state.__enter__()
    _FloatErrors.silenced = True
    return token


def restore_float_errors(token: tuple) -> None:
    _FloatErrors.state.__exit__()
    _FloatErrors.silenced, _FloatErrors.state = token


def unsilenced(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` with numpy's error state as the learner set it: for their own code (a hook, a custom
    Function's backward) called during a backward pass, whose numpy warnings must not be lost."""
    if not _FloatErrors.silenced:
        return fn(*args)
    _FloatErrors.state.__exit__()  # back to the learner's settings for a moment
    _FloatErrors.silenced = False
    try:
        return fn(*args)
    finally:
        _FloatErrors.state = np.errstate(all="ignore")  # (an errstate is entered once: a new one)
        _FloatErrors.state.__enter__()
        _FloatErrors.silenced = True


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
            from .graph import FREED_MESSAGE

            raise RuntimeError(FREED_MESSAGE)
        if self._saved is None:
            return tuple(self._to_save)
        return tuple([None if s is None else s.unpack(self) for s in self._saved])  # (a list: quicker than a generator)

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
    """Gives every Function subclass its node class: ``Exp`` gets ``ExpBackward``."""

    def __init__(cls, name: str, bases: tuple, namespace: dict) -> None:
        super().__init__(name, bases, namespace)
        # forward as apply calls it, ctx first. With a setup_context of its own (PyTorch 2's style), forward
        # takes only the inputs, and setup_context(ctx, inputs, output) fills in ctx afterwards.
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
        builtin = "node_name" in namespace  # (a learner's Function names no node)
        # Where PyTorch's node classes live, for their printed names: its built-in nodes are C++ classes
        # (<class 'MulBackward0'>), a Python Function's node is <class 'torch.autograd.function.MyExpBackward'>.
        module = "builtins" if builtin else __name__
        cls._backward_cls = type(node_name, (BackwardCFunction,), {"_forward_cls": cls, "__module__": module,
                                                                   "__qualname__": node_name})
        cls._backward_cls._check_shapes = not builtin  # user Functions get their grads checked
        for i, saved in enumerate(namespace.get("saved_names", ())):  # e.g. grad_fn._saved_self
            setattr(cls._backward_cls, f"_saved_{saved}", property(lambda node, i=i: node._unpack(i)))


class Function(metaclass=FunctionMeta):
    """Base class for operations with a hand-written backward. Call them with ``.apply(...)``."""

    #: name of the node class (built-ins set PyTorch's, e.g. "MulBackward0"; default "<Name>Backward")
    node_name: str
    #: names under which saved tensors appear on the node, in save_for_backward order (``_saved_self``...)
    saved_names: tuple[str, ...] = ()
    #: True for ops whose output shares the first input's storage (view, transpose, indexing...)
    is_view = False
    #: the order in which saved-tensor hooks see the saved tensors, when not save_for_backward's (PyTorch packs
    #: a product's second operand first, for instance)
    pack_order: tuple[int, ...] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(f"{type(self)} should not be instantiated. Methods on autograd functions are all static, so you "
                      "should invoke them on the class itself. Instantiating an autograd function will raise an error "
                      "in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Old-style ``MyFunction()(x)``: refused, as in PyTorch (call ``MyFunction.apply(x)``)."""
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style "
            "autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom autograd.Function to use it "
            "with backward mode AD."
        )

    #: PyTorch 2's other way of writing forward: ``forward(*inputs)`` without ctx, and
    #: ``setup_context(ctx, inputs, output)`` to save what backward needs.
    setup_context = staticmethod(_no_setup_context)

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Run forward; if any input requires grad (and grad mode is on) record a node for backward.

        Every op, and every op of every backward formula, comes through here: so the usual cases take the
        shortest path, one array out and, inside no_grad or a backward pass, nothing to record."""
        needs: tuple[bool, ...] = ()
        for a in args:  # (a plain loop: every op runs this, and a comprehension costs more for 1-3 arguments)
            needs += (isinstance(a, Tensor) and a._requires_grad,)
        ctx = cls._backward_cls()
        ctx.needs_input_grad = needs
        if GradMode.enabled:
            record = True in needs
            if record:
                ctx._seq = next(_sequence_nr)  # the order of creation, which the engine follows
            GradMode.enabled = False  # forward's own tensor ops must not be recorded
            try:
                out = cls._forward_with_ctx(ctx, *args)
            finally:
                GradMode.enabled = True
        else:  # grad mode is off already (inside no_grad, or a backward pass): nothing to switch, nothing to record
            out = cls._forward_with_ctx(ctx, *args)
            record = False
        if type(out) is np.ndarray:  # the usual case, one plain array: the new tensor's numbers
            out = _wrap(out)
        elif not isinstance(out, Tensor) or ctx._dirty:
            return cls._many_outputs(ctx, args, out, record)
        if record and (out.grad_fn is not None or _is_one_of(out, args)):  # an input, or a tensor with history
            out = _alias(out)
        if cls.is_view:  # shares the input's storage, so its version counter too
            base = args[0]
            out._version_counter = base._version_counter
            out._base = base._base if base._base is not None else base
        if not record:  # (the path of every op of a backward formula when create_graph is False)
            return out
        if out._array.dtype.kind == "f" and not _is_one_of(out, ctx._non_differentiable):
            out.grad_fn, out._output_nr, out._requires_grad = ctx, 0, True
        _record(ctx, args, (out,))
        return out

    @classmethod
    def _many_outputs(cls, ctx: BackwardCFunction, args: tuple, out: Any, record: bool) -> Any:
        """``apply`` for a forward that returned several outputs (a tuple), a numpy scalar, or an input it
        changed in place (``ctx.mark_dirty``)."""
        many = isinstance(out, tuple)
        results = []
        for o in out if many else (out,):
            if isinstance(o, np.ndarray):
                o = _wrap(o)
            elif isinstance(o, np.generic):  # numpy turns 0-d results into scalars; a tensor needs an array
                o = _wrap(np.asarray(o))
            elif _is_one_of(o, ctx._dirty):  # an input changed in place: it stays itself, with a new history
                if record:
                    _check_dirty(o)
            elif isinstance(o, Tensor) and record and (o.grad_fn is not None or _is_one_of(o, args)):
                o = _alias(o)  # forward returned an input (or a tensor with history): a new identity
            if cls.is_view and isinstance(o, Tensor):  # shares the input's storage, so its version counter too
                base = args[0]
                o._version_counter, o._base = base._version_counter, base._base if base._base is not None else base
            results.append(o)
        if any(not _is_one_of(t, results) for t in ctx._dirty):
            raise RuntimeError("Some elements marked as dirty during the forward method were not returned as output. "
                               "The inputs that are modified inplace must all be outputs of the Function.")
        if record:
            _record(ctx, args, results)  # (first: the edges of a dirty input lead to its history before this node)
            for i, o in enumerate(results):
                if isinstance(o, Tensor) and o._array.dtype.kind == "f" and not _is_one_of(o, ctx._non_differentiable):
                    o.grad_fn, o._output_nr, o._requires_grad = ctx, i, True
            if many:
                ctx._num_outputs = len(results)
                ctx._output_meta = tuple((r._array.shape, r._array.dtype) if isinstance(r, Tensor) else ((), np.float32)
                                         for r in results)
        for t in ctx._dirty:  # a new version, as PyTorch counts it: the new history is a change too
            t._version_counter[0] += 1
        return tuple(results) if many else results[0]


def _check_dirty(t: Tensor) -> None:
    """An input a Function changed in place may take on its node only if autograd could have recorded the
    change: not a leaf that requires grad (its .grad would be the gradient of a value it no longer holds)."""
    if t.grad_fn is None and t._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
    if t._base is not None:
        raise RuntimeError("tinygrad_edu does not record in-place changes of views in custom Functions; "
                           "clone() the view before passing it in.")


def _alias(t: Tensor) -> Tensor:
    """A new tensor over ``t``'s storage and version counter (an output must be a tensor of its own)."""
    out = _wrap(t._array)
    out._version_counter = t._version_counter
    return out


def _packed(tensors: tuple, results: tuple | list, order: tuple[int, ...] | None) -> tuple:
    """The saved tensors, packed by the saved-tensor hooks in ``order`` (the op's ``pack_order``): a pack hook
    can see the order, and it is PyTorch's."""
    packed: list[PackedSavedTensor | None] = [None] * len(tensors)
    for i in order or range(len(tensors)):
        t = tensors[i]
        if t is not None:
            packed[i] = PackedSavedTensor(t, _is_one_of(t, results))
    return tuple(packed)


def _record(ctx: BackwardCFunction, args: tuple, results: tuple | list) -> None:
    """Link the node ``ctx`` into the graph: one edge per tensor argument (numbers, dims... get none), and
    the tensors forward saved, each with its version now."""
    edges = tuple([gradient_edge(a) for a in args if isinstance(a, Tensor)])
    ctx.next_functions = edges
    if len(edges) != len(args):
        ctx._input_is_tensor = tuple([isinstance(a, Tensor) for a in args])
    if ctx._check_shapes:  # a learner's Function: the gradients its backward returns will be checked against these
        ctx._input_meta = tuple((a._array.shape, a._array.dtype) for a in args if isinstance(a, Tensor))
    if ctx._to_save:
        if SAVED_TENSOR_HOOKS:  # inside saved_tensors_hooks: each tensor packed by the hook
            ctx._saved = _packed(ctx._to_save, results, ctx._forward_cls.pack_order)
        else:
            ctx._saved = tuple([None if t is None else SavedTensor(t, _is_one_of(t, results)) for t in ctx._to_save])
        ctx._to_save = ()
    if GradMode.anomaly:  # for the "Error detected in ..." warning, should backward fail
        ctx._forward_stack = traceback.extract_stack()


# -- once_differentiable -----------------------------------------------------------------------------------------
class DelayedError(Function):
    """A node that fails when backward reaches it: ``once_differentiable`` puts it on the gradients it
    returns while a graph is being built, so that differentiating them again explains why it cannot."""

    node_name = "Error"

    @staticmethod
    def forward(ctx: Any, *tensors: Tensor | None) -> tuple:
        return tuple(None if t is None else t._array for t in tensors)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor | None) -> tuple:
        raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")


def once_differentiable(backward: F) -> F:
    """Decorate a custom Function's ``backward`` that is not itself differentiable (say, it computes on
    numpy arrays): it runs without recording, and under ``create_graph=True`` the gradients it returns
    lead to a node that raises if anything tries to differentiate through them."""

    @functools.wraps(backward)
    def wrapper(ctx: Any, *grad_outputs: Any) -> Any:
        with no_grad():
            outputs = backward(ctx, *grad_outputs)
        if not GradMode.enabled or not any(isinstance(g, Tensor) and g._requires_grad for g in grad_outputs):
            return outputs  # no graph being built through this backward: nothing to guard
        many = isinstance(outputs, tuple)
        guarded = DelayedError.apply(*[None if g is None else _wrap(g._array).requires_grad_()
                                       for g in (outputs if many else (outputs,))])
        return guarded if many else guarded[0]

    return wrapper  # type: ignore[return-value]
