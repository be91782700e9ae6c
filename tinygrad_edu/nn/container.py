"""Containers. ``Sequential``: layers applied one after another; ``ModuleList`` and ``ModuleDict``: layers kept in a
list or by name, applied by your code; ``ParameterList`` and ``ParameterDict``: the same for single parameters."""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from .._tensor import Tensor
from .module import Module, Parameter, typename


def _at(container: Module, idx: int) -> Module:
    """The layer at position ``idx`` (negative counts from the end), with a clear error past the end."""
    modules = list(container._modules.values())
    if not -len(modules) <= idx < len(modules):
        raise IndexError(f"index {idx} is out of range")
    return modules[idx]


def _replace(container: Module, idx: int, module: Module) -> None:
    """``container[idx] = module``: the layer at that position replaced (its name kept), as ``setattr`` does."""
    _at(container, idx)
    setattr(container, list(container._modules)[idx], module)


def _delete(container: Module, idx: int | slice) -> None:
    """``del container[idx]``: the layer(s) removed, and the rest numbered again from 0, as PyTorch does."""
    names = list(container._modules)
    if isinstance(idx, slice):
        doomed = names[idx]
    else:
        _at(container, idx)
        doomed = [names[idx]]
    for name in doomed:
        del container._modules[name]
    container._modules = OrderedDict((str(i), m) for i, m in enumerate(container._modules.values()))


def _insert(container: Module, index: int, module: Module) -> None:
    """Put ``module`` at position ``index``: the layers from there on move one place right (renamed i -> i+1),
    last first, so that no layer is overwritten before it has moved."""
    n = len(container._modules)
    for i in range(n, index, -1):
        container._modules[str(i)] = container._modules[str(i - 1)]
    container._modules[str(index)] = module


def _pop(container: Any, key: int | slice) -> Any:
    """``container.pop(i)``: the layer at ``i``, removed (the others numbered again from 0)."""
    value = container[key]
    del container[key]
    return value


class Sequential(Module):
    """``Sequential(a, b, c)(x)`` is ``c(b(a(x)))``. The layers are named "0", "1", ... (or by the keys
    of an OrderedDict), which is where parameter names like ``0.weight`` come from."""

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, input: Any) -> Any:
        for module in self._modules.values():
            input = module(input)
        return input

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __getitem__(self, idx: int | slice) -> Any:
        """``seq[0]`` is the first layer; ``seq[1:]`` a new Sequential of the same layer objects."""
        if isinstance(idx, slice):
            return Sequential(OrderedDict(list(self._modules.items())[idx]))
        return _at(self, idx)

    def __setitem__(self, idx: int, module: Module) -> None:
        """``seq[-1] = nn.Linear(512, 10)``: swap a layer (say, to fine-tune a new head)."""
        _replace(self, idx, module)

    def __delitem__(self, idx: int | slice) -> None:
        _delete(self, idx)

    def append(self, module: Module) -> Sequential:
        """Add ``module`` at the end (named ``str(len(self))``)."""
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        """Put ``module`` before position ``index`` (``-len <= index <= len``), as ``list.insert`` does."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        _insert(self, index + n if index < 0 else index, module)
        return self

    def extend(self, sequential: Any) -> Sequential:
        """Append each layer of ``sequential`` (any iterable of modules)."""
        for layer in sequential:
            self.append(layer)
        return self

    def pop(self, key: int | slice) -> Any:
        return _pop(self, key)

    def __add__(self, other: Any) -> Sequential:
        """``a + b``: a new Sequential running a's layers, then b's (the same layer objects, not copies)."""
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        return Sequential(*self, *other)

    def __iadd__(self, other: Any) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        return self.extend(other)

    def __mul__(self, other: Any) -> Sequential:
        """``block * 3``: a new Sequential of the layers three times over; the same layer objects, so the
        repeats share their weights."""
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        return Sequential(*(list(self) * other))

    __rmul__ = __mul__


class ModuleList(Module):
    """A list of layers that the model registers (their parameters appear in ``parameters()``, named "0.weight"
    ...), for a ``forward`` that uses them in its own way, e.g. in a loop. A plain Python list would hide them."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return ModuleList(list(self._modules.values())[idx])
        return _at(self, idx)

    def __setitem__(self, idx: int, module: Module) -> None:
        _replace(self, idx, module)

    def __delitem__(self, idx: int | slice) -> None:
        _delete(self, idx)

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Any) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Put ``module`` before position ``index``, the later layers renamed one up."""
        _insert(self, index, module)

    def pop(self, key: int | slice) -> Any:
        return _pop(self, key)

    def __iadd__(self, modules: Any) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Any) -> ModuleList:
        """``a + b``: a new ModuleList of a's layers, then b's (any iterable of modules)."""
        combined = ModuleList()
        for module in itertools.chain(self, other):
            combined.append(module)
        return combined

    def __repr__(self) -> str:
        """Runs of equal layers are printed once, ``(0-2): 3 x Linear(...)``, as PyTorch prints a stack of
        identical blocks."""
        lines: list[str] = []
        runs: list[list[Any]] = []  # [first index, last index, repr]
        for i, module in enumerate(self._modules.values()):
            text = repr(module)
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        for first, last, text in runs:
            text = text.replace("\n", "\n  ")
            lines.append(f"({first}): {text}" if first == last else f"({first}-{last}): {last - first + 1} x {text}")
        if not lines:
            return "ModuleList()"
        return "ModuleList(\n" + "".join(f"  {line}\n" for line in lines) + ")"


class ModuleDict(Module):
    """Layers kept by name, like a dict (in insertion order), and registered: ``heads["cls"]`` is the layer, its
    parameters are named "cls.weight" ... For a ``forward`` that picks layers by name."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: object) -> bool:
        return key in self._modules

    def keys(self) -> Any:
        return self._modules.keys()

    def items(self) -> Any:
        return self._modules.items()

    def values(self) -> Any:
        return self._modules.values()

    def pop(self, key: str) -> Module:
        return self._modules.pop(key)

    def clear(self) -> None:
        self._modules.clear()

    def update(self, modules: Any) -> None:
        """Add (or replace) layers from a mapping or from (name, layer) pairs."""
        pairs = modules.items() if hasattr(modules, "items") else modules
        for key, module in pairs:
            self[key] = module


def _as_parameter(value: Any) -> Any:
    """A tensor put in a ParameterList/Dict becomes a Parameter (sharing its memory); other values stay as given."""
    return value if isinstance(value, Parameter) or not isinstance(value, Tensor) else Parameter(value)


class ParameterList(Module):
    """Parameters kept in a list and registered (named "0", "1", ...): e.g. one weight per step of a loop whose
    length is chosen at run time. A plain Python list would hide them from ``parameters()`` and the optimizer."""

    def __init__(self, values: Any = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def __len__(self) -> int:
        return self._size

    def _index(self, idx: int) -> str:
        if not -self._size <= idx < self._size:
            raise IndexError(f"index {idx} is out of range")
        return str(idx % self._size)

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return ParameterList([self[i] for i in range(self._size)[idx]])
        return getattr(self, self._index(idx))

    def __setitem__(self, idx: int, value: Any) -> None:
        setattr(self, self._index(idx), _as_parameter(value))

    def __iter__(self) -> Iterator[Any]:
        return iter([self[i] for i in range(self._size)])

    def append(self, value: Any) -> ParameterList:
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values: Any) -> ParameterList:
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({i}): {_describe(p, str(p.dtype) if isinstance(p, Tensor) else '')}"
                         for i, p in enumerate(self))


def _describe(value: Any, type_text: str) -> str:
    """One line per entry, as PyTorch prints its parameter containers: the kind, dtype and size, not the numbers."""
    if not isinstance(value, Tensor):
        return f"Object of type: {type(value).__name__}"
    size = "x".join(str(s) for s in value._array.shape)
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    return f"{kind} containing: [{type_text} of size {size}]"


class ParameterDict(Module):
    """Parameters kept by name, like a dict, and registered under those names."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}  # the names in insertion order
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        self._keys[key] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def keys(self) -> Any:
        return self._keys.keys()

    def items(self) -> Any:
        return [(k, self[k]) for k in self._keys]

    def values(self) -> Any:
        return [self[k] for k in self._keys]

    def get(self, key: str, default: Any = None) -> Any:
        if key not in self._keys:
            return default
        return self[key]

    def pop(self, key: str) -> Any:
        value = self[key]
        del self[key]
        return value

    def clear(self) -> None:
        for key in list(self._keys):
            del self[key]

    def update(self, parameters: Any) -> None:
        """Add (or replace) entries from a mapping or from (name, value) pairs. A plain dict's entries are added
        in sorted order of their names, as PyTorch does (an OrderedDict or ParameterDict keeps its own order)."""
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif hasattr(parameters, "items"):
            pairs = sorted(parameters.items())
        else:
            pairs = list(parameters)
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): {_describe(p, typename(p) if isinstance(p, Tensor) else '')}"
                         for k, p in self.items())
