"""``Parameter`` and ``Module``: how a network finds its own weights.

A ``Parameter`` is a tensor marked as "a weight of a model". A ``Module`` is a piece of a network: it
has a ``forward`` and attributes. Assigning a Parameter or another Module to an attribute *registers*
it (``Module.__setattr__`` files it in ``_parameters`` or ``_modules``), so that::

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(2, 4)    # a sub-Module, registered as "fc1"
            self.fc2 = nn.Linear(4, 1)

    list(Net().named_parameters())   # fc1.weight, fc1.bias, fc2.weight, fc2.bias

finds every weight, however deeply nested, without the author listing them. That list is what an
optimizer receives (``optim.SGD(model.parameters(), lr=0.1)``).

A *buffer* is a tensor a module keeps that is not learned: BatchNorm's running mean and variance, a fixed mask.
``self.register_buffer("running_mean", torch.zeros(3))`` files it in ``_buffers``: it is no parameter (no
optimizer sees it, no gradient is asked for it), but it is part of the model's state, so ``state_dict()`` saves
it, ``load_state_dict`` restores it and ``.double()`` converts it with the weights. ``persistent=False`` keeps
it out of ``state_dict`` (a value recomputed from the others, not worth saving).
"""

from __future__ import annotations

import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import numpy as np

from .. import _device, _dtype, _meta
from .._tensor import RemovableHandle, Tensor, _wrap
from .hooks import Hook, ModuleHooks, call_with_hooks
from .parameter import Buffer, Parameter, UninitializedParameter


def typename(value: Any) -> str:
    """How PyTorch names a value's type in error messages: ``tinygrad_edu.FloatTensor``, ``int``."""
    if isinstance(value, Tensor):
        return f"tinygrad_edu.{_dtype.LEGACY_NAMES[value.dtype]}"
    cls = type(value)
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


class _IncompatibleKeys(NamedTuple):
    """What ``load_state_dict`` returns: the keys it could not match."""

    missing_keys: list[str]
    unexpected_keys: list[str]

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, unexpected_keys={self.unexpected_keys!r})"


def zero_grad_(params: Iterator[Tensor], set_to_none: bool) -> None:
    """Forget the gradients of ``params``: ``.grad = None``, or zeros kept in place.

    Needed before each backward of a training loop, because backward *adds* into ``.grad``.
    """
    for p in params:
        g = p._grad
        if g is None:
            continue
        if set_to_none:
            p._grad = None
            continue
        if g._base is not None or not g._array.flags.writeable:
            # A view (or broadcast) left by a create_graph=True backward: writing zeros into it would
            # write into another tensor, and a view cannot be detached in place. Fresh zeros instead.
            p._grad = _wrap(np.zeros_like(g._array))
            continue
        if g.grad_fn is not None:  # a gradient made with create_graph=True: cut it from its graph first
            g.detach_()
        else:
            g.requires_grad_(False)
        g._array[...] = 0
        g._version_counter[0] += 1


class Module:
    """Base class of every layer and model: subclass it, assign layers in ``__init__``, write ``forward``.

    Calling the module (``model(x)``) runs ``forward(x)``, and the module's hooks around it if it has any
    (``register_forward_hook`` and friends, below).
    """

    training: bool
    _parameters: dict[str, Parameter | None]
    _modules: dict[str, Module | None]
    _buffers: dict[str, Tensor | None]
    _non_persistent_buffers_set: set[str]
    _module_hooks: ModuleHooks | None = None  # made by the first register_*hook; falsy while no hook is registered

    def __init__(self) -> None:
        # object.__setattr__ skips our own __setattr__, which needs these two dicts to exist already.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        hooks = self._module_hooks
        if not hooks:  # the usual case, every layer of every training step: one test, then straight to forward
            return self.forward(*args, **kwargs)
        return call_with_hooks(self, hooks, args, kwargs)

    # ------------------------------------------------------------------------------ hooks
    def _add_hook(self, kind: str, hook: Hook, prepend: bool) -> RemovableHandle:
        if self._module_hooks is None:
            self._module_hooks = ModuleHooks()
        hooks: list[Hook] = getattr(self._module_hooks, kind)
        if prepend:
            hooks.insert(0, hook)
        else:
            hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_forward_pre_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """Call ``hook(module, args)`` before each ``forward``; ``args`` is the tuple of positional arguments.

        If it returns something other than None, that becomes the arguments (a single value is wrapped in a
        1-tuple). With ``with_kwargs=True`` it is ``hook(module, args, kwargs)`` and returns None or
        ``(new_args, new_kwargs)``. ``prepend=True`` runs it before the hooks already registered.
        ``handle.remove()`` (or leaving ``with module.register_forward_pre_hook(...):``) unregisters it.
        """
        return self._add_hook("forward_pre", Hook(hook, with_kwargs), prepend)

    def register_forward_hook(self, hook: Callable[..., Any], *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """Call ``hook(module, args, output)`` after each ``forward``: the place to look at activations.

        If it returns something other than None, that replaces the output (for the next hooks and the caller).
        With ``with_kwargs=True`` it is ``hook(module, args, kwargs, output)``. With ``always_call=True`` it
        runs even when forward raises (with ``output`` None), and an error of its own then becomes a warning.
        """
        return self._add_hook("forward", Hook(hook, with_kwargs, always_call), prepend)

    def register_full_backward_pre_hook(self, hook: Callable[..., Any], prepend: bool = False) -> RemovableHandle:
        """Call ``hook(module, grad_output)`` when backward reaches this module's outputs.

        ``grad_output`` holds d(root)/d(output) per output (None for one that is not a tensor or got no
        gradient). A returned tuple of the same length replaces it: the gradients then flow on from there.
        Side effect, as in PyTorch: forward receives views of its input tensors and the caller views of its
        outputs (see ``nn.hooks``), which must not be modified in place.
        """
        return self._add_hook("backward_pre", Hook(hook), prepend)

    def register_full_backward_hook(self, hook: Callable[..., Any], prepend: bool = False) -> RemovableHandle:
        """Call ``hook(module, grad_input, grad_output)`` when backward has gone through this module.

        ``grad_input`` holds d(root)/d(input) per positional argument of forward: None for one that is not a
        tensor, zeros for a tensor that needs no gradient; all None when no input requires grad (the hook then
        fires as soon as ``grad_output`` is known, with a warning). A returned tuple of the same length
        replaces ``grad_input``. Gradients of the module's parameters are not part of it: they go straight to
        ``.grad``. The same side effects as ``register_full_backward_pre_hook``.
        """
        return self._add_hook("backward", Hook(hook), prepend)

    # ------------------------------------------------------------------------------ registration
    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        modules = self.__dict__.get("_modules")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=params)
            params[name] = value
        elif params is not None and name in params:  # a registered parameter can only become None
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(tinygrad_edu.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=modules)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(tinygrad_edu.nn.Module or None expected)")
            modules[name] = None
        elif isinstance(value, Buffer):  # nn.Buffer(t): registered as a buffer, as register_buffer registers it
            self.register_buffer(name, value, value.persistent)
        elif name in self.__dict__.get("_buffers", ()):  # a buffer stays a buffer: a new tensor, or None
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(tinygrad_edu.nn.Buffer, tinygrad_edu.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        # Python calls this only when normal lookup failed: registered things live in the two dicts.
        for store in ("_parameters", "_buffers", "_modules"):
            d = self.__dict__.get(store)
            if d is not None and name in d:
                return d[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def _forget(self, name: str, keep: dict | None = None) -> None:
        """Remove ``name`` wherever it is stored, before storing it again in ``keep``. Not from ``keep`` itself: a
        layer replaced (``model.fc = nn.Linear(512, 10)``) keeps its place in the order, as in PyTorch."""
        self.__dict__.pop(name, None)
        for store in (self._parameters, self._buffers, self._modules):
            if store is not keep:
                store.pop(name, None)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Register ``param`` (or None: "this layer has no bias") under ``name``."""
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(tinygrad_edu.nn.Parameter or None required)")
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {typename(name)}")
        if "." in name:  # (a dotted name is a path to a sub-module's parameter in state_dict)
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if name not in self._parameters and hasattr(self, name):  # would hide a method or another attribute
            raise KeyError(f"attribute '{name}' already exists")
        self._forget(name, keep=self._parameters)
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Keep ``tensor`` as part of the module's state that is not learned (BatchNorm's running statistics).

        It reads back as ``self.name``, is listed by ``buffers()``, saved by ``state_dict()`` (unless
        ``persistent=False``) and converted by ``.to()``/``.double()``; no optimizer sees it. None registers the
        name without a tensor (BatchNorm with ``track_running_stats=False``)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if name not in self._buffers and hasattr(self, name):
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(tinygrad_edu Tensor or None required)")
        self._forget(name, keep=self._buffers)
        self._buffers[name] = tensor.to("meta") if tensor is not None and _device.Default.meta else tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Register a sub-module under ``name`` (what ``self.name = module`` does)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if name not in self._modules and hasattr(self, name):  # would hide a method or another attribute
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:  # a dotted name is a path ("encoder.fc"): get_submodule and state_dict split on the dots
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._forget(name, keep=self._modules)
        self._modules[name] = module

    def register_module(self, name: str, module: Module | None) -> None:
        """The same as ``add_module``."""
        self.add_module(name, module)

    # ------------------------------------------------------------------------------ finding by dotted name
    def get_submodule(self, target: str) -> Module:
        """The sub-module at the dotted path ``target`` (``"encoder.layers.0"``); ``""`` is this module.

        Each step is an attribute lookup, so ``model.get_submodule("a.b")`` is ``model.a.b``, checked at each
        step to be a Module, with an error that names where the path broke.
        """
        if target == "":
            return self
        module = self
        for item in target.split("."):
            if not hasattr(module, item):
                raise AttributeError(f"{type(module).__name__} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return module

    def _get_leaf(self, target: str) -> tuple[Module, str]:
        """The module holding ``target``'s last name, and that name: ``"fc.weight"`` -> (self.fc, "weight")."""
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(f"{type(module).__name__} has no attribute `{name}`")
        return module, name

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at the dotted path ``target``, as ``named_parameters()`` names it (``"fc1.weight"``)."""
        module, name = self._get_leaf(target)
        param = getattr(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at the dotted path ``target``, as ``named_buffers()`` names it (``"bn.running_mean"``)."""
        module, name = self._get_leaf(target)
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(module, name)

    # ------------------------------------------------------------------------------ walking the tree
    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """This module and all below it, parents before children: ``("", self), ("fc1", ...)``."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, f"{prefix}.{name}" if prefix else name, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """The direct sub-modules, each once."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def _named_members(self, store: str, prefix: str, recurse: bool,
                       remove_duplicate: bool) -> Iterator[tuple[str, Tensor]]:
        """The tensors of one store (``_parameters`` or ``_buffers``) here and, with ``recurse``, below: dotted
        names, None entries skipped, a tensor shared by two layers listed once unless ``remove_duplicate=False``."""
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        seen = set()
        for module_prefix, module in modules:
            for name, t in getattr(module, store).items():
                if t is None or (remove_duplicate and t in seen):
                    continue
                seen.add(t)
                yield (f"{module_prefix}.{name}" if module_prefix else name), t

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``("fc1.weight", Parameter), ...``: each module's own parameters, then its children's.

        A parameter shared by two layers is listed once (so an optimizer updates it once).
        """
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)  # type: ignore[return-value]

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """``("bn.running_mean", tensor), ...``: each module's buffers, then its children's."""
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn`` on every sub-module, then on this one (e.g. to re-initialise weights)."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------------------ modes & gradients
    def train(self, mode: bool = True) -> Module:
        """Set training mode here and below (layers like dropout act differently in eval mode)."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Switch gradient tracking of every parameter (``requires_grad_(False)`` freezes the module)."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the parameters' gradients (to None by default, else to zeros)."""
        zero_grad_(self.parameters(), set_to_none)

    def to(self, *args: Any, dtype: Any = None, **kwargs: Any) -> Module:
        """Convert floating-point parameters (and their grads) to ``dtype``, in place; e.g. ``.double()``
        before ``gradcheck``. Floating-point buffers are replaced by converted copies (as PyTorch does: a buffer
        is state, not a tensor an optimizer holds); integer ones (``num_batches_tracked``) stay as they are.
        The devices are "cpu" and "meta": ``to("meta")`` puts a new Parameter of the same shape and dtype, without
        numbers, in the place of each (as PyTorch does); back from meta there is nothing to copy (``to_empty``)."""
        for a in (*args, kwargs.get("device")):
            if isinstance(a, _dtype.dtype):
                dtype = a
            elif isinstance(a, (str, _device.device)) and str(a).partition(":")[0] == "meta":
                self._to_meta()
            elif isinstance(a, (str, _device.device)) and str(a) != "cpu":
                _device.refuse(str(a).partition(":")[0],
                               f"tinygrad_edu runs on the CPU only; cannot move a module to '{a}'")
            elif isinstance(a, (str, _device.device)):
                self._refuse_meta(" Please use tinygrad_edu.nn.Module.to_empty() instead of tinygrad_edu.nn.Module."
                                  "to() when moving module from meta to a different device.")
        if dtype is not None:
            for p in self.parameters():
                if p._array.dtype.kind == "f" and p._array.dtype != dtype.np:
                    # The Parameter object stays the same (an optimizer may hold it); only its numbers change.
                    p._array = p._array.astype(dtype.np)
                    if p._grad is not None:
                        p._grad = _wrap(p._grad._array.astype(dtype.np))
            for module in self.modules():
                for name, b in module._buffers.items():
                    if b is not None and b._array.dtype.kind == "f" and b._array.dtype != dtype.np:
                        module._buffers[name] = b.to(dtype)
        return self

    def double(self) -> Module:
        return self.to(_dtype.float64)

    def float(self) -> Module:
        return self.to(_dtype.float32)

    def half(self) -> Module:
        """Floating-point parameters and buffers to float16 (2 bytes a number, about 3 significant digits)."""
        return self.to(_dtype.float16)

    def cpu(self) -> Module:
        self._refuse_meta("")
        return self

    def _tensors(self, recurse: bool = True) -> Iterator[tuple[dict, str, Tensor]]:
        """Every parameter and buffer of this module (and below), as (the dict holding it, its name, it)."""
        for module in self.modules() if recurse else (self,):
            for store in (module._parameters, module._buffers):
                yield from ((store, name, t) for name, t in list(store.items()) if t is not None)

    def _refuse_meta(self, hint: str) -> None:
        """To the CPU from the meta device: PyTorch's refusal, there being no numbers to copy (``hint``: what
        ``to`` adds to it)."""
        if any(_meta.is_meta(t._array) for _, _, t in self._tensors()):
            raise NotImplementedError(_meta.NO_DATA + hint)

    def _to_meta(self) -> None:
        """``to("meta")``: every parameter (with its grad) and buffer replaced by a meta one of its shape and dtype."""
        for store, name, t in self._tensors():
            if isinstance(t, Parameter):  # (a new Parameter, as PyTorch's: an optimizer's old one keeps its numbers)
                store[name] = Parameter(_wrap(_meta.empty(t._array.shape, t._array.dtype)), t.requires_grad)
                if t._grad is not None:
                    store[name].grad = _wrap(_meta.empty(t._grad._array.shape, t._grad._array.dtype))
            else:
                store[name] = t.to("meta")

    def to_empty(self, *, device: Any, recurse: bool = True) -> Module:
        """Give every parameter and buffer new, uninitialised storage on ``device`` (PyTorch's memory as it
        was; here zeros): the way from a model built on the meta device to one whose numbers can be set (by
        ``reset_parameters()`` or ``load_state_dict``). The Parameter objects stay the same."""
        meta = _device.wants_meta(device)
        for _, _, t in self._tensors(recurse):
            dtype = np.dtype(t._array.dtype.str)  # (without the meta mark)
            t._array = _meta.empty(t._array.shape, dtype) if meta else np.zeros(t._array.shape, dtype)
        return self

    def cuda(self, device: Any = None) -> Module:
        """``model.cuda()``, from tutorials written for a GPU: there is none here, so it is refused as
        ``model.to("cuda")`` is, with a message that says so."""
        return self.to("cuda" if device is None else f"cuda:{device}" if isinstance(device, int) else str(device))

    # ------------------------------------------------------------------------------ saving & loading
    def state_dict(self, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> dict[str, Tensor]:
        """Every parameter and persistent buffer by dotted name (each module's parameters, then its buffers, then
        its children's), detached (sharing memory) unless ``keep_vars``."""
        if destination is None:
            destination = OrderedDict()
        persistent = [(n, b) for n, b in self._buffers.items() if n not in self._non_persistent_buffers_set]
        for name, p in [*self._parameters.items(), *persistent]:
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination, prefix + name + ".", keep_vars)
        return destination

    def load_state_dict(self, state_dict: dict[str, Tensor], strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        """Copy the values of ``state_dict`` into this module's parameters and persistent buffers, in place.

        With ``strict`` (the default), missing or unexpected keys are an error. Shape mismatches always are.
        With ``assign``, the tensors of ``state_dict`` take the places of the module's own (a parameter's
        ``requires_grad`` kept): the way to fill a model built on the meta device, which has nowhere to copy to.
        """
        own = self.state_dict(keep_vars=True)
        errors = []
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        for key, param in own.items():
            if key not in state_dict:
                continue
            src = state_dict[key]
            if not isinstance(src, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected tinygrad_edu.Tensor or '
                              f"Tensor-like object from checkpoint but received {type(src)}")
            elif isinstance(param, UninitializedParameter):  # a lazy module not run yet: it takes the saved shape
                param.materialize(src._array.shape)
                np.copyto(param._array, src._array, casting="unsafe")
            elif src._array.shape != param._array.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape {src.shape} from checkpoint, "
                              f"the shape in current model is {param.shape}.")
            elif assign:
                self._assign(key, src, param)
            elif _meta.is_meta(param._array) and not _meta.is_meta(src._array):
                warnings.warn(f"for {key}: copying from a non-meta parameter in the checkpoint to a meta parameter in "
                              "the current model, which is a no-op. (Did you mean to pass `assign=True` to assign "
                              "items in the state dictionary to their corresponding key in the module instead of "
                              "copying them in place?)", UserWarning, stacklevel=2)
            else:
                np.copyto(param._array, src._array, casting="unsafe")
                param._version_counter[0] += 1
        if strict:
            if unexpected:
                keys = ", ".join(f'"{k}"' for k in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(type(self).__name__,
                                                                                   "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    def _assign(self, key: str, src: Tensor, own: Tensor) -> None:
        """``load_state_dict(..., assign=True)``: ``src`` in the place of ``own`` (a parameter stays a Parameter,
        with own's ``requires_grad``)."""
        *path, name = key.split(".")
        module = self.get_submodule(".".join(path)) if path else self
        if name in module._parameters:
            module._parameters[name] = src.requires_grad_(own.requires_grad) if isinstance(src, Parameter) else \
                Parameter(src, requires_grad=own.requires_grad)
        else:
            module._buffers[name] = src

    # ------------------------------------------------------------------------------ printing
    def extra_repr(self) -> str:
        """What goes between the parentheses of the repr, e.g. ``in_features=2, out_features=3, bias=True``."""
        return ""

    def __repr__(self) -> str:
        """One line for a leaf layer, ``Linear(in_features=2, ...)``; a container shows one child a line::

            Sequential(
              (0): Linear(in_features=2, out_features=3, bias=True)
              (1): ReLU()
            )
        """
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        for name, module in self._modules.items():
            child = repr(module).replace("\n", "\n  ")  # a nested container's lines move 2 spaces right
            lines.append(f"({name}): {child}")
        if not self._modules and len(lines) <= 1:
            return f"{type(self).__name__}({''.join(lines)})"
        return type(self).__name__ + "(\n" + "".join(f"  {line}\n" for line in lines) + ")"
