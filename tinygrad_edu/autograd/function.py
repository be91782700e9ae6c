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

import traceback
import warnings
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap, gradient_edge
from .grad_mode import GradMode
from .graph import Node, SavedTensor


def _is_one_of(x: object, items: tuple | list) -> bool:
    """Identity membership. (``x in items`` would compare tensors with ``==``, element-wise; and a plain
    loop is cheaper than ``any(...)`` over a generator, on a path every recorded op takes.)"""
    for item in items:  # noqa: SIM110  (see above: deliberately not any())
        if item is x:
            return True
    return False


class FunctionCtx:
    """What ``forward`` can tell ``backward`` (the ``ctx`` argument)."""

    needs_input_grad: tuple[bool, ...] = ()
    _to_save: tuple = ()
    _non_differentiable: tuple = ()
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
        raise NotImplementedError("tinygrad_edu's custom Functions do not support in-place outputs")


class BackwardCFunction(Node, FunctionCtx):
    """Base of the node classes made for Functions (PyTorch's name for them)."""

    _forward_cls: type[Function]
    _num_outputs = 1

    def apply(self, *grad_outputs: Tensor | None) -> tuple:
        grads = self._forward_cls.backward(self, *grad_outputs)
        return grads if isinstance(grads, tuple) else (grads,)


class FunctionMeta(type):
    """Gives every Function subclass its node class: ``Exp`` gets ``ExpBackward``."""

    def __init__(cls, name: str, bases: tuple, namespace: dict) -> None:
        super().__init__(name, bases, namespace)
        node_name = namespace.get("node_name", f"{name}Backward")
        cls._backward_cls = type(node_name, (BackwardCFunction,), {"_forward_cls": cls, "__module__": cls.__module__,
                                                                   "__qualname__": node_name})
        cls._backward_cls._check_shapes = "node_name" not in namespace  # user Functions get their grads checked
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

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Run forward; if any input requires grad (and grad mode is on) record a node for backward."""
        ctx = cls._backward_cls()
        needs = tuple([isinstance(a, Tensor) and a._requires_grad for a in args])
        ctx.needs_input_grad = needs
        enabled = GradMode.enabled
        GradMode.enabled = False  # forward's own tensor ops must not be recorded
        try:
            out = cls.forward(ctx, *args)
        finally:
            GradMode.enabled = enabled
        record = enabled and True in needs
        if record and GradMode.anomaly:  # for the "Error detected in ..." warning, should backward fail
            ctx._forward_stack = traceback.extract_stack()

        many = isinstance(out, tuple)
        outputs = out if many else (out,)
        results = []
        if type(out) is np.ndarray:
            # Fast path for the usual case, one plain array out (every built-in op but a few): wrap it and,
            # when recording, make ctx its grad_fn. This is what the loop below does, minus its checks;
            # it matters because every op, and every op of every backward formula, comes through here.
            result = _wrap(out, ctx) if record and out.dtype.kind == "f" else _wrap(out)
            if cls.is_view:  # shares the input's storage, so its version counter too
                base = args[0]
                result._version_counter = base._version_counter
                result._base = base._base if base._base is not None else base
            if not record:
                return result
            results.append(result)
            outputs = ()
        for i, o in enumerate(outputs):
            if isinstance(o, np.ndarray):
                o = _wrap(o)
            elif isinstance(o, np.generic):  # numpy turns 0-d results into scalars; a tensor needs an array
                o = _wrap(np.asarray(o))
            elif isinstance(o, Tensor) and record and (o.grad_fn is not None or _is_one_of(o, args)):
                view = _wrap(o._array)  # forward returned an input (or a tensor with history): a new identity
                view._version_counter = o._version_counter
                o = view
            if cls.is_view and isinstance(o, Tensor):  # shares the input's storage, so its version counter too
                base = args[0]
                o._version_counter, o._base = base._version_counter, base._base if base._base is not None else base
            if record and isinstance(o, Tensor) and o._array.dtype.kind == "f" \
                    and not _is_one_of(o, ctx._non_differentiable):
                o.grad_fn, o._output_nr, o._requires_grad = ctx, i, True
            results.append(o)

        if record:
            # One edge per tensor argument (numbers, dims... get none), and which arguments were tensors.
            edges, is_tensor = [], []
            for a in args:
                tensor = isinstance(a, Tensor)
                is_tensor.append(tensor)
                if tensor:
                    edges.append(gradient_edge(a))
            ctx.next_functions, ctx._input_is_tensor = tuple(edges), tuple(is_tensor)
            if many:
                ctx._num_outputs = len(outputs)
                ctx._output_meta = tuple((r._array.shape, r._array.dtype) if isinstance(r, Tensor) else ((), np.float32)
                                         for r in results)
            if ctx._check_shapes:
                ctx._input_meta = tuple((a._array.shape, a._array.dtype) for a in args if isinstance(a, Tensor))
            if ctx._to_save:
                ctx._saved = tuple([None if t is None else SavedTensor(t, _is_one_of(t, results))
                                    for t in ctx._to_save])
                ctx._to_save = ()
        return tuple(results) if many else results[0]
