"""``Sequential``: layers applied one after another; ``ModuleList``: layers kept in a list, applied by your code."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from .module import Module


def _at(container: Module, idx: int) -> Module:
    """The layer at position ``idx`` (negative counts from the end), with a clear error past the end."""
    modules = list(container._modules.values())
    if not -len(modules) <= idx < len(modules):
        raise IndexError(f"index {idx} is out of range")
    return modules[idx]


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

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self


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

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Any) -> ModuleList:
        for module in modules:
            self.append(module)
        return self
