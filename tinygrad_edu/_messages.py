"""PyTorch's exact messages, in one catalog the core raises by name (read last, or never).

The core says ``raise RuntimeError(M.FREED)``; the words are PyTorch 2.13's, so that a learner who meets an
error here meets the same text in PyTorch (and can search for it). ``{}`` marks what is filled in with
``.format(...)``. Only "torch" is spelled "tinygrad_edu" where PyTorch names itself.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ._dtype import LEGACY_NAMES, NO_COMPLEX, dtype, from_numpy  # noqa: F401  (NO_COMPLEX: the catalog's too)

# -- backward and autograd.grad --------------------------------------------------------------------------------
FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward."
)
IMPLICIT_GRAD = "grad can be implicitly created only for scalar outputs"
NO_GRAD_FN = "element {} of tensors does not require grad and does not have a grad_fn"
GRAD_TYPE = "gradients can be either Tensors or None, but got {}"
BATCHED_GRAD_SHAPE = ("If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch "
                      "dimension. The sizes of the remaining dimensions are expected to match the shape of "
                      "corresponding output, but a mismatch was detected: grad_output[{0}] has a shape of {1} and "
                      "output[{0}] has a shape of {2}. If you only want some tensors in `grad_output` to be "
                      "considered batched, consider using vmap.")
GRAD_SHAPE = "Mismatch in shape: grad_output[{0}] has a shape of {1} and output[{0}] has a shape of {2}."
BACKWARD_INPUTS_EMPTY = "`inputs` argument to `backward()` cannot be empty."
GRAD_INPUTS_EMPTY = "`inputs` argument to `grad()` cannot be empty."
INPUT_NEEDS_NO_GRAD = "One of the differentiated Tensors does not require grad"
UNUSED_INPUT = ("The differentiated Tensor at index {} appears to not have been used in the graph. Set "
                "allow_unused=True if this is the desired behavior.")
CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient "
    "which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you "
    "have to use this function, make sure to reset the .grad fields of your parameters to None after use to break "
    "the cycle and avoid the leak."
)
ONLY_INPUTS = ("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate gradient for "
               "other parts of the graph, please use tinygrad_edu.autograd.backward.")
MATERIALIZE_UNUSED = ("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                      "allow_unused=False.")

# -- saved tensors and in-place changes --------------------------------------------------------------------------
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it "
    "in autograd, or use `tinygrad_edu.no_grad()` instead of `tinygrad_edu.inference_mode()`."
)
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal "
    "tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details."
)
REGISTER_HOOKS_ARGUMENTS = ("register_hooks(): incompatible function arguments. The following argument types are "
                            "supported:\n    1. (self: tinygrad_edu._C._autograd.SavedTensor, arg0: collections.abc."
                            "Callable, arg1: collections.abc.Callable) -> None\n\nInvoked with: {}")
PACK_HOOK_INPLACE = ("A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack hook "
                     "cannot be modified by in-place operations as this can lead to unexpected side-effects. Please "
                     "open an issue if you need to perform in-place operations on the input to a pack hook.")
UNPACK_HOOK_TYPE = "Output of saved tensor unpack_hook expected to be a Tensor but got result of type {}"


def modified_inplace(saved: Any, node: Any) -> str:
    """The message for a saved tensor (``core.function.SavedTensor``) changed in place since ``node`` saved it (its
    gradient would be wrong). A saved output is named by that node (an input, by its own grad_fn)."""
    t = saved.tensor
    array, grad_fn, output_nr, version = (t._array, t.grad_fn, t._output_nr, t._version_counter[0]) if t is not None \
        else (saved.array, node, saved.output_nr, saved.counter[0])
    expected = saved.version
    if t is not None and t._base is not None and t._view_version != version and t._base._requires_grad and \
            t._view_made is None:  # a view whose base changed since: its history, asked for, is AsStrided's
        where = ", which is output 0 of AsStrided,"
    else:  # (SumBackward1's op is "Sum1")
        op = re.sub(r"Backward([1-9][0-9]*)$", r"\1", re.sub(r"Backward0?$", "", grad_fn.name())) if grad_fn else ""
        where = f", which is output {output_nr} of {op}," if grad_fn is not None else ""
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[{type_description(array)}]{where} is at version {version}; expected version {expected} instead. "
            "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
            "tinygrad_edu.autograd.set_detect_anomaly(True, check_nan=False).")


# -- hooks -------------------------------------------------------------------------------------------------------
HOOK_RETURNED = "expected Variable, but hook returned '{}'"
HOOK_RETURNED_TUPLE = "expected tuple, but hook returned '{}'"
HOOK_DTYPE = "hook '{}' has changed the type of value (was tinygrad_edu.{} got tinygrad_edu.{})"
HOOK_SIZE = "hook '{}' has changed the size of value"
HOOK_COUNT = "hook '{}' has returned an incorrect number of values (got {}, but expected {})"
POST_ACCUMULATE_RETURNED = "Tensor post accumulate grad hooks should return None."
HOOK_NONE_REPLACED = "can't replace a None gradient with a non-None value"

# -- custom Functions --------------------------------------------------------------------------------------------
NO_JVP = "You must implement the jvp function for custom autograd.Function to use it with forward mode AD."
NO_BACKWARD = ("You must implement either the backward or vjp method for your custom autograd.Function to use it "
               "with backward mode AD.")
GRAD_COUNT = "function {} returned an incorrect number of gradients (expected {}, got {})"
GRAD_FOR_NON_TENSOR = ("function {} returned a gradient different than None at position {}, but the corresponding "
                       "forward input was not a Variable")
INVALID_GRAD = "Function {} returned an invalid gradient at index {} - got [{}] but expected shape compatible with [{}]"
DIRTY_NOT_RETURNED = ("Some elements marked as dirty during the forward method were not returned as output. The "
                      "inputs that are modified inplace must all be outputs of the Function.")
LEAF_DIRTY = "a leaf Variable that requires grad has been used in an in-place operation."
DIRTY_NOT_INPUT = ("ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have been "
                   "mutated should be passed to ctx.mark_dirty().")
DIRTY_VIEW_OF_MANY = (
    "If your Function modifies inplace an input that is a view of another Tensor, your Function cannot return more "
    "than one Tensor. This is not supported by the current autograd engine. You should either make sure the input is "
    "not a view (using .clone() for example) or make your Function only return one Tensor (potentially splitting it "
    "into two Functions: one doing the inplace that returns a single Tensor and a second one that does the other "
    "operations). You can ask on the forum https://discuss.pytorch.org/ if you need help to do this change.")
JVP_NOT_INPLACE = ("An inplace custom Function is not modifying the forward mode gradients inplace. If the forward "
                   "is modifying an input inplace, then the jvp function must modify the corresponding gradient "
                   "inplace.")
JVP_NOT_AS_IS = ("An inplace custom Function is not returning the forward mode gradients as-is. If the forward is "
                 "modifying an input inplace, then the jvp function must modify the gradient inplace and return it "
                 "as-is.")
PURE_VIEW = ("Pure view custom Function can only have one input Tensor and one output Tensor. Open an issue if you "
             "need to support more.")

# -- in place on views (ops/views.py) ------------------------------------------------------------------------------
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
_WHY = {  # how the view was made (PyTorch's CreationMeta; None: DEFAULT) -> why the change is refused
    "no_grad": " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
               "moving both the view and the inplace either both inside the {} block (if you don't want the inplace "
               "to be tracked) or both outside (if you want the inplace to be tracked).",
    "multi": " This view is the output of a function that returns multiple views. Such functions do not allow the "
             "output views to be modified inplace. You should replace the inplace operation by an out-of-place one.",
    "custom": " This view was created inside a custom Function (or because an input was returned as-is) and the "
              "autograd logic to handle view+inplace would override the custom backward associated with the custom "
              "Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the "
              "output of the custom Function.",
}


def view_inplace(made: str, grad_fn: Any, output_nr: int, indirect: bool = False) -> str:
    """PyTorch's refusal of an in-place change to a view made in a way that forbids it (``made``: "no_grad",
    "inference", "multi" for one of several views an op returned, "custom" for a custom Function's output). Changed
    ``indirect``-ly: its base or another view of it was changed, and the view's history is asked for."""
    changed = "its base or another view of its base has been" if indirect else "is being"
    op = grad_fn is not None and re.sub(r"Backward0?$", "", grad_fn.name())
    if made in ("no_grad", "inference") or grad_fn is None:  # (no history: a view made without grad mode)
        head = f"Output {output_nr} of {op} is a view of a view which was created in" if grad_fn else \
            "A view was created in"
        head += (f" inference mode and {changed} modified inplace in normal mode." if made == "inference" else
                 f" no_grad mode and {changed} modified inplace with grad mode enabled.")
    else:
        head = f"Output {output_nr} of {op} is a view and {changed} modified inplace."
    return head + _WHY["no_grad" if made == "inference" else made].format(
        "inference_mode" if made == "inference" else "no_grad")


# -- forward mode (forward_ad) ----------------------------------------------------------------------------------
NESTED_FORWARD_AD = "Nested forward mode AD is not supported at the moment"
EXIT_NOT_LAST_LEVEL = ("Trying to exit a forward AD level that was not the last one that was created. This is not "
                       "supported.")
FORWARD_AD_INPLACE = ("tinygrad_edu's forward mode does not follow tangents through the in-place op of {}: use its "
                      "out-of-place form (x = x.exp() rather than x.exp_()) inside a dual level.")
DUAL_LEVEL_NEGATIVE = "Dual level must be a positive number."
NO_DUAL_LEVEL = ("Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() "
                 "first.")


def tangent_size(shape: tuple[int, ...], tangent_shape: tuple[int, ...]) -> str:
    return ("Trying to set a forward gradient that has a different size than that of the original Tensor, this is "
            f"not supported. Tensor is of size [{shape_list(shape)}] while the given forward gradient is of size "
            f"[{shape_list(tangent_shape)}].")


# -- tensors -----------------------------------------------------------------------------------------------------
NONLEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)  # PyTorch appends where in its C++ source the warning came from; that part is left out.
NOT_LEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
    "subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)
INFERENCE_REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
INFERENCE_VERSION = "Inference tensors do not track version counter."
NUMPY_REQUIRES_GRAD = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
FLOAT_REQUIRES_GRAD = ("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                       "Consider using tensor.detach() first.")
SAVED_DETACHED = ("Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is not "
                  "supported, please use out-of-place `.detach()` instead")
DETACH_VIEW = (
    "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for "
    "training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() "
    "cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution."
)
DEEPCOPY_NONLEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  If you "
    "were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, see "
    "https://github.com/pytorch/pytorch/pull/103001"
)
GRAD_ASSIGN_DTYPE = (
    "attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. The gradient must match the "
    "tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a "
    "specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and "
    "its gradient may break downstream systems that assume they match."
)
GRAD_ASSIGN_SIZE = ("attempting to assign a gradient of size '{}' to a tensor of size '{}'. Please ensure that the "
                    "gradient and the tensor are the same size")
BOOL_SUBTRACTION = ("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                    "`logical_xor()` operator instead.")
BOOL_SUBTRACTION_ONE = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                        "invert a mask, use the `~` or `logical_not()` operator instead.")
NEGATION_OF_BOOL = ("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a "
                    "mask, use the `~` or `logical_not()` operator instead.")

# How PyTorch's C++ core spells element types in some messages (the grad setter's).
CPP_TYPE_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double", "uint8": "unsigned char",
                  "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int", "bool": "bool"}


# -- PyTorch's argument parser, when no signature fits ----------------------------------------------------------
def invalid_combination(name: str, args: tuple, signatures: tuple[str, ...]) -> str:
    """``linspace() received an invalid combination of arguments - got (int, int), but expected one of: ...``"""
    return (f"{name}() received an invalid combination of arguments - got ({', '.join(map(typename, args))}), but "
            "expected one of:\n" + "".join(f" * ({sig})\n" for sig in signatures))


TENSOR_NEW_SIGNATURES = ("*, tinygrad_edu.device device = None", "tinygrad_edu.Storage storage", "Tensor other",
                         "tuple of ints size, *, tinygrad_edu.device device = None",
                         "object data, *, tinygrad_edu.device device = None")


def tensor_new_keywords(args: tuple, kwargs: dict) -> str:
    """``Tensor([1., 2.], requires_grad=True)``: the old constructor takes no ``requires_grad`` or ``dtype`` (use
    ``tinygrad_edu.tensor``). PyTorch's parser lists its signatures and, under each that takes as many arguments as
    were given (counting the ``*``), the keywords it did not match; it reads keywords from a hash map, which gives
    them back last first."""
    kinds = [typename(a) for a in args] + [f"{k}={_keyword_type(v)}" for k, v in reversed(kwargs.items())]
    got = "".join(f"{kind}, " for kind in kinds)[:-2 if args else None]  # (PyTorch's: "(requires_grad=bool, )")
    lines = []
    for sig in TENSOR_NEW_SIGNATURES:
        lines.append(f" * ({sig})\n")
        if len(sig.split(", ")) == len(args) + len(kwargs):
            lines.append(f"      didn't match because some of the keywords were incorrect: "
                         f"{', '.join(reversed(kwargs))}\n")
    return f"new() received an invalid combination of arguments - got ({got}), but expected one of:\n" + "".join(lines)


def _keyword_type(value: Any) -> str:
    return "tinygrad_edu.dtype" if isinstance(value, dtype) else typename(value)


_FACTORY_OPTIONS = ("*, Tensor out = None, tinygrad_edu.dtype dtype = None, tinygrad_edu.layout layout = None, "
                    "tinygrad_edu.device device = None, bool pin_memory = False, bool requires_grad = False")
LINSPACE_SIGNATURES = tuple(f"{a} start, {b} end, int steps, {_FACTORY_OPTIONS}"
                            for a, b in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"),
                                         ("Number", "Number")))


# -- how messages name things --------------------------------------------------------------------------------------
def typename(value: Any) -> str:
    """A value's type as PyTorch names it in messages: ``float``, ``numpy.float64``, ``Tensor``."""
    cls = type(value)  # (a class written in Python is known by its name alone: C's tp_name, as PyTorch reads it)
    return cls.__name__ if cls.__module__ == "builtins" or cls.__flags__ & _HEAP_TYPE else \
        f"{cls.__module__}.{cls.__name__}"


_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class defined in Python (not one of C's static types)


def legacy_name(t: Any) -> str:
    """A tensor's old-style type name: ``FloatTensor``."""
    return LEGACY_NAMES[from_numpy(t._array.dtype)]


def type_description(array: np.ndarray) -> str:
    """How PyTorch names a tensor's type and shape in error messages: ``tinygrad_edu.FloatTensor [3]``."""
    return f"tinygrad_edu.{LEGACY_NAMES[from_numpy(array.dtype)]} [{', '.join(map(str, array.shape))}]"


def shape_list(shape: tuple[int, ...]) -> str:
    return ", ".join(map(str, shape))


def hook_name(fn: Callable) -> str:
    return getattr(fn, "__name__", "<unknown>")  # functools.partial and callable objects have no name


_warned: set[str] = set()


WARN_ALWAYS: list[bool] = [False]  # torch.set_warn_always(True): the warnings given once are given every time


def warn_once(key: str, message: str, stacklevel: int = 3) -> None:
    """Emit a UserWarning the first time only, as PyTorch's ``TORCH_WARN_ONCE`` does (once per process), or every
    time after ``set_warn_always(True)``."""
    if key not in _warned or WARN_ALWAYS[0]:
        _warned.add(key)
        warnings.warn(message, UserWarning, stacklevel=stacklevel)

# grad_fn._raw_saved_<name>.register_hooks(pack_hook, unpack_hook)
RAW_SAVED_UNDEFINED = "Calling register_hooks on a saved tensor with value None is forbidden"
RAW_SAVED_HOOKS_TWICE = ("Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one "
                         "pair of hooks is allowed at a time.")
RAW_SAVED_FREED = ("Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values of the "
                   "graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you "
                   "need to backward through the graph a second time or if you need to access saved variables after "
                   "calling backward.")


def reduction_dtype(name: str, dim: Any, value: Any) -> str:
    """``x.sum(dtype="float")``: PyTorch lists the signatures when only dtype was given, else names the argument."""
    if dim is not None:
        return f"{name}(): argument 'dtype' must be tinygrad_edu.dtype, not {type(value).__name__}"
    return (f"{name}() received an invalid combination of arguments - got (dtype={type(value).__name__}, ), but "
            "expected one of:\n * (*, tinygrad_edu.dtype dtype = None)\n"
            " * (tuple of ints dim, bool keepdim = False, *, tinygrad_edu.dtype dtype = None)\n")
