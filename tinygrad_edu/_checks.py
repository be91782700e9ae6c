"""The checks behind PyTorch's error messages about shapes and dims (beside the core: read last, or never).

The core computes with numpy and lets numpy refuse; when it does, these say why in PyTorch's words. A few are
also the rules themselves, where numpy's differ (a dim counted from the end, a -1 in a shape).
"""

from __future__ import annotations

import inspect
import math
import os
import re
import sys
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _messages as M
from ._dtype import LEGACY_NAMES, dtype, from_numpy
from ._messages import shape_list


def wrap_dim(d: int, ndim: int) -> int:
    """A dim counted from the end (-1 is the last) counted from the start, checked with PyTorch's message."""
    n = max(ndim, 1)
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d % n


def reduction_dtype(value: Any, name: str, dim: Any) -> Any:
    """The ``dtype=`` of a reduction, ``x.sum(dtype=tinygrad_edu.float64)`` (a Python type means its default dtype:
    ``float`` is float64), for ``Tensor.to``; PyTorch's TypeError for anything else, ``dtype="float"``."""
    if isinstance(value, (dtype, np.dtype)):
        return value
    if value in (float, int, bool):
        return np.dtype(value)
    raise TypeError(M.reduction_dtype(name, dim, value))


def view_sizes(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The sizes of a view or reshape, refused as PyTorch refuses a negative one but a single -1 (numpy would take
    any negative size as "work this one out")."""
    if min(shape, default=0) < -1:
        for i, s in enumerate(shape):  # (in order: a second -1 before the bad size is the first error)
            if s == -1 and -1 in shape[:i]:
                raise RuntimeError("only one dimension can be inferred")
            if s < -1:
                raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape [{shape_list(shape)}]")
    return shape


def infer_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    """``shape`` with its -1 (if any) worked out from the number of elements."""
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if (-1 in shape and (known == 0 or numel % known)) or (-1 not in shape and known != numel):
        raise RuntimeError(f"shape '[{shape_list(shape)}]' is invalid for input of size {numel}")
    return tuple(numel // known if s == -1 else s for s in shape)


def reshaped_view(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """``a`` seen with a new shape, sharing its memory; None when its layout needs a copy for that."""
    try:
        return np.reshape(a, shape, copy=False)  # numpy refuses (rather than copying) when the layout does not allow
    except ValueError:
        return None


VIEW_STRIDES = ("view size is not compatible with input tensor's size and stride (at least one dimension spans "
                "across two contiguous subspaces). Use .reshape(...) instead.")


def expanded_shape(a: np.ndarray, shape: tuple[int, ...]) -> tuple[int, ...]:
    """What ``expand(shape)`` expands ``a`` to (a -1 keeps a size), with PyTorch's messages if it cannot."""
    lead = len(shape) - a.ndim
    if lead < 0:
        raise RuntimeError(f"expand(tinygrad_edu.{LEGACY_NAMES[from_numpy(a.dtype)]}{{[{shape_list(a.shape)}]}}, "
                           f"size=[{shape_list(shape)}]): the number of sizes provided ({len(shape)}) must be "
                           f"greater or equal to the number of dimensions in the tensor ({a.ndim})")
    target = tuple(a.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
    check_expand(a.shape, target, shape)
    return target


def check_expand(shape: tuple[int, ...], target: tuple[int, ...], asked: tuple[int, ...] | None = None) -> None:
    """Can a tensor of ``shape`` be expanded (broadcast) to ``target``? PyTorch's message if not."""
    lead = len(target) - len(shape)
    for i in reversed(range(len(shape))):  # PyTorch checks from the last dimension, and reports the first misfit
        if shape[i] != 1 and shape[i] != target[lead + i]:
            raise RuntimeError(f"The expanded size of the tensor ({target[lead + i]}) must match the existing size "
                               f"({shape[i]}) at non-singleton dimension {lead + i}.  Target sizes: "
                               f"[{shape_list(target if asked is None else asked)}].  Tensor sizes: "
                               f"[{shape_list(shape)}]")


def broadcast_shapes(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape two shapes broadcast to (aligned on the right; a 1 stretches), with PyTorch's message if none."""
    nd = max(len(a), len(b))
    a, b = (1,) * (nd - len(a)) + tuple(a), (1,) * (nd - len(b)) + tuple(b)
    for d in range(nd - 1, -1, -1):  # PyTorch checks from the last dimension, and reports the first misfit
        if a[d] != b[d] and a[d] != 1 and b[d] != 1:
            raise RuntimeError(f"The size of tensor a ({a[d]}) must match the size of tensor b ({b[d]}) at "
                               f"non-singleton dimension {d}")
    return tuple(n if m == 1 else m for m, n in zip(a, b))


def index_message(numpy_message: str, shape: tuple[int, ...], key: Any) -> str:
    """What PyTorch says where numpy refuses ``x[key]`` (x of ``shape``; an IndexError), in PyTorch's words."""
    if numpy_message.startswith("arrays used as indices must be of integer"):
        return "tensors used as indices must be long, int, byte or bool tensors"
    wrong = re.match(r"boolean index did not match indexed array along (?:axis|dimension) (\d+)", numpy_message)
    keys = key if isinstance(key, tuple) else (key,)
    masks = [i for i, k in enumerate(keys) if getattr(k, "dtype", None) == np.bool_]
    if wrong and masks and all(k is not None for k in keys):  # numpy names x's axis; PyTorch the mask's own dim,
        m, axis = masks[0], int(wrong.group(1))  # and the dim of the tensor it indexes: x after the integers before
        mask = keys[m]  # it (for x[0, mask], x[0])
        dots = next((i for i, k in enumerate(keys[:m]) if k is Ellipsis), None)
        used = [0 if k is Ellipsis else mask.ndim if k is mask else 1 for k in keys]  # (the dims each key takes)
        start = sum(used[:m]) if dots is None else len(shape) - sum(used[dots + 1:])  # (where the mask starts in x)
        gone = [d for d, k in enumerate(keys[:m if dots is None else dots])
                if isinstance(k, (int, np.integer)) and not isinstance(k, bool)]
        indexed = tuple(n for d, n in enumerate(shape) if d not in gone)
        return (f"The shape of the mask [{shape_list(mask.shape)}] at index {axis - start} does not match the shape "
                f"of the indexed tensor [{shape_list(indexed)}] at index {axis - len(gone)}")
    return numpy_message.replace("axis", "dimension")


def setitem_refusal(target: np.ndarray, value: np.ndarray) -> None:
    """``x[key] = value`` where value does not fit x[key]: PyTorch expands value (its leading 1s dropped) to
    x[key]'s shape, and says why it cannot."""
    sizes = value.shape
    while sizes and sizes[0] == 1:
        sizes = sizes[1:]
    expanded_shape(value.reshape(sizes), target.shape)


# -- what PyTorch's argument parser says of an argument that is not a tensor (where ours met an AttributeError) ----
def tensor_arguments(function: str, names: tuple[str, ...], values: tuple, tensor: type) -> None:
    """Each value (None allowed after the first) must be a ``tensor``: ``linear(): argument 'input' (position 1)
    must be Tensor, not list``."""
    for i, (name, value) in enumerate(zip(names, values)):
        if not isinstance(value, tensor) and (i == 0 or value is not None):
            raise TypeError(f"{function}(): argument '{name}' (position {i + 1}) must be Tensor, not "
                            f"{M.typename(value)}")


def tensor_list(function: str, tensors: Any, tensor: type) -> None:
    """``cat``'s and ``stack``'s first argument: a sequence of tensors (not one tensor, nor numbers in the list)."""
    if isinstance(tensors, tensor):
        raise TypeError(f"{function}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    for i, t in enumerate(tensors):
        if not isinstance(t, tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {M.typename(t)}")


# -- what PyTorch says where numpy refuses an op's arguments (a ValueError): ``Function.refusal`` ------------------
def broadcast_refusal(x: Any, y: Any, *rest: Any) -> None:
    """What numpy refused in a two-input op, as PyTorch says it: shapes that do not broadcast."""
    broadcast_shapes(x._array.shape, y._array.shape)


def subtraction_refusal(x: Any, y: Any, *rest: Any) -> None:
    """``a - b`` with a bool tensor (or a Python bool) on either side: numpy computes ``bool - 1`` and refuses
    only two bools; PyTorch refuses both, pointing to ``~`` for a mask."""
    bools = (x._array.dtype == np.bool_) + (y._array.dtype == np.bool_)
    if bools:
        raise RuntimeError(M.BOOL_SUBTRACTION if bools == 2 else M.BOOL_SUBTRACTION_ONE)
    broadcast_refusal(x, y)


def each_once(dims: tuple[int, ...]) -> tuple[int, ...]:
    """``dims`` (counted from 0), if none is given twice: ``x.sum((1, 1))`` is refused."""
    for d in dims:
        if dims.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return dims


def dims_refusal(x: Any, dim: tuple[int, ...], *rest: Any) -> None:
    each_once(dim)  # a reduction's dims that numpy refused


def view_refusal(x: Any, shape: tuple[int, ...]) -> None:
    infer_shape(shape, x._array.size)  # a shape of the wrong size; else the layout needs a copy
    raise RuntimeError(VIEW_STRIDES)


def expand_refusal(x: Any, shape: tuple[int, ...]) -> None:
    expanded_shape(x._array, shape)


def no_integer_kernel(a: np.ndarray, name: str, dim: int) -> None:
    """``softmax`` of integers: PyTorch has no kernel for them (pass ``dtype=`` or convert first)."""
    if a.dtype.kind not in "fc":
        raise NotImplementedError(f'"{name}_{"lastdim_" if dim == a.ndim - 1 else ""}kernel_impl" not implemented for '
                                  f"'{LEGACY_NAMES[from_numpy(a.dtype)].removesuffix('Tensor')}'")


def float_only(a: np.ndarray, name: str) -> np.ndarray:
    """``a``, if it is floating point: ``mean`` and friends cannot choose an output dtype for integers."""
    if a.dtype.kind != "f":
        raise RuntimeError(f"{name}(): could not infer output dtype. Input dtype must be either a floating point or "
                           f"complex dtype. Got: {LEGACY_NAMES[from_numpy(a.dtype)].removesuffix('Tensor')}")
    return a


# -- what backward() is given, what hooks and a learner's backward may return (the engine runs them) ---------------
def with_defaults(forward: Callable, args: tuple, kwargs: dict) -> tuple:
    """The inputs of a Function written in PyTorch 2's style, as its ``setup_context`` sees them: the caller's
    arguments bound to ``forward``'s signature, the defaults they left out filled in (PyTorch binds them so)."""
    bound = inspect.signature(forward).bind(*args, **kwargs)  # (TypeError: missing a required argument: 'x')
    bound.apply_defaults()
    if bound.kwargs:  # a keyword-only parameter: PyTorch hands it to forward, which its own apply then refuses
        raise TypeError(f"forward() got an unexpected keyword argument '{next(iter(bound.kwargs))}'")
    return bound.args


def function_arguments(function: Any, args: tuple, kwargs: dict) -> tuple:
    """A learner's ``Function.apply(*args, **kwargs)`` as PyTorch passes them on. A PyTorch 2-style Function (with
    ``setup_context``) binds them to forward's signature, defaults filled in (``with_defaults``). An old-style one puts
    each keyword argument at its parameter's place after ctx and leaves defaults to forward: a keyword argument is an
    input like the others, and a tensor given by keyword gets its gradient too."""
    forward = function.forward
    if function._forward_with_ctx is not forward:  # (forward without ctx, and setup_context: FunctionMeta wraps it)
        return with_defaults(forward, args, kwargs)
    if not kwargs:
        return args
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = [p.name for p in inspect.signature(forward).parameters.values() if p.kind in kinds][1:]
    slots, missing = list(args), object()
    for name, value in kwargs.items():
        if name not in names:
            raise TypeError(f"forward() got an unexpected keyword argument '{name}'")
        at = names.index(name)
        if at < len(args):
            raise TypeError(f"forward() got multiple values for argument '{name}'")
        slots += [missing] * (at + 1 - len(slots))
        slots[at] = value
    for at, value in enumerate(slots):
        if value is missing:
            raise TypeError(f"forward() missing required argument: '{names[at]}' (position {at})")
    return tuple(slots)


def refuse_saved(saved: Any, node: Any, peek: bool) -> None:
    """Why a saved tensor cannot be used: changed in place since it was saved, or (an input) detached in place.
    PyTorch checks the latter only where a built-in's formula reads it, not for a learner's ``ctx.saved_tensors``
    nor ``grad_fn._saved_self`` (``peek``), which still get the tensor."""
    t = saved.tensor
    old = t._detached() if t is not None and t._detached is not None else None  # the history detach_() took away
    if old is not None and not (peek or node._learners) and any(f is old for f, _ in node.next_functions):
        raise RuntimeError(M.SAVED_DETACHED)  # (saved while it had that history: the node's edge still leads there)
    if (t._version_counter if t is not None else saved.counter)[0] != saved.version:
        raise RuntimeError(M.modified_inplace(saved, node))


def some_inputs(inputs: tuple) -> tuple:
    """``autograd.grad``'s inputs, checked first (before the outputs, as PyTorch does): that there are some."""
    if not inputs:
        raise RuntimeError(M.GRAD_INPUTS_EMPTY)
    return inputs


def inputs_require_grad(inputs: tuple, tensor: type) -> None:
    """``autograd.grad``'s inputs, checked once the outputs were: each a ``tensor`` that requires grad."""
    for t in inputs:
        if not isinstance(t, tensor):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {M.typename(t)}")
        if not t._requires_grad:
            raise RuntimeError(M.INPUT_NEEDS_NO_GRAD)


def backward_inputs(inputs: tuple, tensor: type) -> tuple:
    """``backward(inputs=...)``: some, each a ``tensor``."""
    if not inputs:
        raise RuntimeError(M.BACKWARD_INPUTS_EMPTY)
    for t in inputs:
        if not isinstance(t, tensor):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {M.typename(t)}")
    return inputs


def flag(value: Any, function: str, argument: str) -> bool:
    """``value``, if it is a bool: PyTorch's argument parser takes no 1 or None for a flag (``function``'s first
    positional argument)."""
    if not isinstance(value, bool):
        raise TypeError(f"{function}(): argument '{argument}' (position 1) must be bool, not {M.typename(value)}")
    return value


def learners_inputs(saved: tuple, args: tuple, tensor: type) -> tuple:
    """A learner's Function, as its node is recorded: what its forward gave ``ctx.save_for_backward`` must be
    tensors (or None); returns its tensor inputs' shapes and dtypes (to check what its backward returns)."""
    for i, t in enumerate(saved):
        if t is not None and not isinstance(t, tensor):
            raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                            f"{M.typename(t)}")
    return tuple([(a._array.shape, a._array.dtype) for a in args if isinstance(a, tensor)])


def check_requires_grad(t: Any, value: Any, attribute: bool = False, inference: bool = False) -> None:
    """``x.requires_grad = value`` (``attribute``) or ``x.requires_grad_(value)``: PyTorch words the refusals of
    its attribute and its method differently; both texts are kept. ``inference``: x is an inference tensor, outside
    inference mode."""
    if not isinstance(value, bool):
        raise RuntimeError("requires_grad must be a bool") if attribute else TypeError(
            f"requires_grad_(): argument 'requires_grad' (position 1) must be bool, not {type(value).__name__}")
    if t.grad_fn is not None and (value if attribute else not value):
        raise RuntimeError("you can only change requires_grad flags of leaf variables." if attribute else
                           M.NOT_LEAF_REQUIRES_GRAD)
    if value and t.grad_fn is None and t._array.dtype.kind not in "fc":
        raise RuntimeError(f"only Tensors of floating point {'and complex ' if attribute else ''}dtype can require "
                           "gradients")
    if value and t.grad_fn is None and inference:
        raise RuntimeError(M.INFERENCE_REQUIRES_GRAD)


def check_grad_assignment(t: Any, value: Any, tensor: type) -> None:
    """``x.grad = value`` by hand: a tensor of x's dtype and shape."""
    if not isinstance(value, tensor):
        raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {M.typename(value)}")
    if value is t:
        raise RuntimeError("can't assign Variable as its own grad")
    if value._array.dtype != t._array.dtype:
        raise RuntimeError(M.GRAD_ASSIGN_DTYPE.format(M.CPP_TYPE_NAMES[value._array.dtype.name],
                                                      M.legacy_name(t).removesuffix("Tensor")))
    if value._array.shape != t._array.shape:
        raise RuntimeError(M.GRAD_ASSIGN_SIZE.format(list(value._array.shape), list(t._array.shape)))


def check_roots(outputs: tuple, grads: Any, tensor: type) -> None:
    """The roots of backward and their gradients, as PyTorch checks them: a given gradient must be a tensor of its
    output's shape; none is needed only for a scalar; every root must require grad. (Paired with ``zip``, as in
    PyTorch: extra gradients are ignored, too few is an error.)"""
    grads = ((grads,) if isinstance(grads, tensor) else tuple(grads)) if grads is not None else \
        (None,) * len(outputs)  # (a number is not a gradient: PyTorch's TypeError, "'float' object is not iterable")
    n = 0
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if not isinstance(out, tensor):
            raise AssertionError("Expected output to be a tinygrad_edu.Tensor")
        if g is None:
            if out._requires_grad and out._array.size != 1:
                raise RuntimeError(M.IMPLICIT_GRAD)
        elif not isinstance(g, tensor):
            raise TypeError(M.GRAD_TYPE.format(type(g).__name__))
        elif g._array.shape != out._array.shape:
            raise RuntimeError(M.GRAD_SHAPE.format(i, g.shape, out.shape))
        n += 1
    if n != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {n} gradients")
    for i, t in enumerate(outputs):
        if not t._requires_grad:
            raise RuntimeError(M.NO_GRAD_FN.format(i))


def hook_grad(fn: Callable, old: Any, new: Any) -> Any:
    """A hook may replace a gradient, but only by a tensor of the same dtype and shape."""
    if not isinstance(new, type(old)):
        raise TypeError(M.HOOK_RETURNED.format(M.typename(new)))
    if new._array.dtype != old._array.dtype:
        raise RuntimeError(M.HOOK_DTYPE.format(M.hook_name(fn), M.legacy_name(old), M.legacy_name(new)))
    if new._array.shape != old._array.shape:
        raise RuntimeError(M.HOOK_SIZE.format(M.hook_name(fn)))
    return new


def node_hook_grads(fn: Callable, old: tuple, new: Any) -> tuple:
    """What a node hook returns replaces a whole tuple of gradients: same length, each None or a valid replacement
    (a gradient that was None, "no gradient", cannot be conjured up)."""
    if not isinstance(new, tuple):
        raise TypeError(M.HOOK_RETURNED_TUPLE.format(M.typename(new)))
    if len(new) != len(old):
        raise RuntimeError(M.HOOK_COUNT.format(M.hook_name(fn), len(new), len(old)))
    for o, n in zip(old, new):
        if n is not None:
            if o is None:
                raise RuntimeError(M.HOOK_NONE_REPLACED)
            hook_grad(fn, o, n)
    return new


def learner_grads(node: Any, result: tuple, tensor: type) -> list:
    """What a learner's ``backward`` returned, checked as PyTorch checks it: one gradient per forward argument
    (extra Nones allowed), None for those that were not tensors, and for a tensor input None or a tensor of its
    shape (or one that broadcasts to it). Returns the gradients of the tensor inputs."""
    is_tensor = node._input_is_tensor or (True,) * len(node.next_functions)
    if len(result) != len(is_tensor) and not (len(result) > len(is_tensor) and
                                              all(g is None for g in result[len(is_tensor):])):
        raise RuntimeError(M.GRAD_COUNT.format(node.name(), len(is_tensor), len(result)))
    grads = []
    for i, (g, tensor_arg) in enumerate(zip(result, is_tensor)):
        if not tensor_arg:
            if g is not None:
                raise RuntimeError(M.GRAD_FOR_NON_TENSOR.format(node.name(), i + 1))
            continue
        if g is not None:
            if not isinstance(g, tensor):
                raise RuntimeError(f"expected Variable or None (got {M.typename(g)})")
            shape = node._input_meta[len(grads)][0]
            try:
                fits = np.broadcast_shapes(g._array.shape, shape) == g._array.shape
            except ValueError:
                fits = False
            if not fits:
                raise RuntimeError(M.INVALID_GRAD.format(node.name(), len(grads), shape_list(g._array.shape),
                                                         shape_list(shape)))
        grads.append(g)
    return grads


def check_dirty(t: Any, is_input: bool, outputs: int) -> None:
    """An input a Function changed in place may take on its node only if autograd could have recorded the
    change: not a leaf that requires grad (its .grad would be the gradient of a value it no longer holds), nor a view
    PyTorch forbids changing; a view, only if it is the one output (its base's history is rewritten: one node).
    Marking a tensor that is not an input is refused if it is a view (of a tensor forward made), else warned about."""
    if t.grad_fn is None and (t._requires_grad or (t._base is not None and t._base._requires_grad)):
        raise RuntimeError(M.LEAF_DIRTY)  # (a view with no history of its own, made in forward: a leaf too)
    if not is_input and t._base is not None:
        raise RuntimeError(M.DIRTY_NOT_INPUT)
    if not is_input:
        warnings.warn(M.DIRTY_NOT_INPUT, UserWarning, stacklevel=4)
    if t._base is not None and outputs > 1:
        raise RuntimeError(M.DIRTY_VIEW_OF_MANY)
    if t._base is not None:
        check_view_inplace(t)


def check_view_inplace(t: Any) -> None:
    """PyTorch's refusals of an in-place change to a view that autograd would record: a view made in no_grad or
    inference mode (was the change meant to be recorded?), one of several views an op returned (``unbind``,
    ``split``: their node cannot be rewritten), a custom Function's output (its backward would be bypassed), a view
    whose maker forbids it (``nn`` hooks), a view of a leaf."""
    if t._view_made is not None:
        raise RuntimeError(M.view_inplace(t._view_made, t.grad_fn, t._output_nr))
    refusal = getattr(t, "_inplace_error", None)
    if refusal is not None:
        raise RuntimeError(refusal)
    if t._base.grad_fn is None and (t._requires_grad or t._base._requires_grad):
        raise RuntimeError(M.VIEW_OF_LEAF_INPLACE)


ANOMALY_RUNNING: list = []  # the nodes anomaly mode is running (innermost last): a node made meanwhile is their child


def remember_forward(node: Any) -> None:
    """Anomaly mode: where the learner's code made ``node`` and, if a backward formula made it (create_graph), the
    node whose backward that was: its parent, whose own forward the warnings show too."""
    node._forward_stack = traceback.extract_stack()
    node._anomaly_parent = ANOMALY_RUNNING[-1] if ANOMALY_RUNNING else None


def _learners_lines(stack: list) -> str:
    """A forward's traceback, the learner's lines only: frames inside tinygrad_edu would hide them."""
    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    return "".join(traceback.format_list([f for f in stack if not os.path.abspath(f.filename).startswith(package)]))


def _warn_forward(node: Any, induced_by: str | None) -> None:
    """One of anomaly mode's warnings: where ``node``'s forward ran (or that nobody recorded it: the forward ran
    with anomaly mode off). As in PyTorch, a warning that the learner's filters turn into an error is printed to
    stderr instead, so the error that is being reported still reaches them."""
    stack = getattr(node, "_forward_stack", None)
    if stack is None:
        message = (f"Error detected in {node.name()}. No forward pass information available. Enable detect anomaly "
                   "during forward pass for more information.")
    elif induced_by is None:
        message = (f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
                   + _learners_lines(stack))
    else:
        message = (f"\n\nPrevious calculation was induced by {induced_by}. Traceback of forward call that induced "
                   "the previous calculation:\n" + _learners_lines(stack))
    try:
        warnings.warn(message, UserWarning, stacklevel=4)
    except Warning:
        print(f"Warning: {message}", file=sys.stderr)


def report_anomaly(node: Any, grads: list, run: Callable, check_nan: bool) -> tuple:
    """Anomaly detection (``set_detect_anomaly``): run the node; if it fails (or, with check_nan, returns nan),
    show where its forward ran, in the learner's own code, and (a node a backward made, in a double backward)
    where each node whose backward made it ran its forward, then let the error go on."""
    ANOMALY_RUNNING.append(node)
    try:
        inputs = run(node, grads)
        if check_nan:
            for i, g in enumerate(inputs):
                with np.errstate(all="ignore"):
                    if g is not None and np.isnan(g._array).any():
                        raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
        return inputs
    except Exception:
        _warn_forward(node, None)
        parent = getattr(node, "_anomaly_parent", None)
        while parent is not None:  # (a node a backward made: the node whose backward made it, and so on up)
            _warn_forward(parent, parent.name())
            parent = getattr(parent, "_anomaly_parent", None)
        raise
    finally:
        ANOMALY_RUNNING.pop()
