"""``tinygrad_edu.autograd.Variable``: what old tutorials wrap tensors in.

Before PyTorch 0.4 a tensor had to be wrapped in a ``Variable`` to take part in autograd; since then every tensor
does, and ``Variable`` is kept only so that old code runs: ``Variable(t, requires_grad=True)`` gives a new tensor
sharing t's numbers (a detached leaf), and every tensor counts as a Variable (``isinstance(t, Variable)``).
``volatile=True`` (the old ``no_grad``) has no effect, with PyTorch's warning.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core.function import wrap
from ..core.tensor import Tensor
from .graph import ExecutionEngine


class _VariableMeta(type):
    def __instancecheck__(cls, other: Any) -> bool:
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False)``: ``data.detach().requires_grad_(requires_grad)`` (see the module)."""

    _execution_engine = ExecutionEngine()  # (queue_callback: run a function once the running backward pass ends)

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = False, volatile: bool = False) -> Any:
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with tinygrad_edu.no_grad():` instead.",
                          UserWarning, stacklevel=2)
        if data is None:
            return wrap(np.zeros((0,), dtype=np.float32))
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)
