"""``torch.compile`` and ``torch.compiler``: PyTorch 2's compiler, which traces a model's Python code and generates
fused kernels for it. The result computes the same numbers, faster.

tinygrad_edu has no compiler: every operation runs as it is called (what PyTorch calls eager mode), and that is what
the lessons show. ``torch.compile(model)`` returns what PyTorch returns, an ``OptimizedModule`` around the model (its
parameters are the model's own, named ``_orig_mod.<name>``), and ``torch.compile(fn)`` a function; both run the
original code unchanged, so a tutorial that compiles its model trains it the same way here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .nn.module import Module

__all__ = ["OptimizedModule", "compile", "disable", "is_compiling", "reset"]

MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


class OptimizedModule(Module):
    """A compiled module: the original one as ``_orig_mod``. Calling it calls the original (its hooks included);
    any attribute it does not have itself is the original's (``compiled.weight is model.weight``)."""

    def __init__(self, mod: Module) -> None:
        super().__init__()
        self._orig_mod = mod

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getattr__(name)
        except AttributeError:
            if name == "_orig_mod":
                raise
            return getattr(self._orig_mod, name)


def compile(model: Callable[..., Any] | None = None, *, fullgraph: bool = False, dynamic: bool | None = None,
            backend: str | Callable = "inductor", mode: str | None = None, options: dict | None = None,
            disable: bool = False) -> Any:
    """``torch.compile(model)``, ``torch.compile(fn)`` or ``@torch.compile(mode=...)``: see the module docstring.
    The arguments are checked as PyTorch checks them and otherwise change nothing."""
    if mode is not None and mode not in MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(MODES)}")
    if model is None:  # used as @torch.compile(...): the decorator
        return lambda fn: compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                                  options=options, disable=disable)
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if isinstance(model, Module):
        return OptimizedModule(model)

    @functools.wraps(model)
    def compiled(*args: Any, **kwargs: Any) -> Any:
        return model(*args, **kwargs)

    return compiled


def is_compiling() -> bool:
    """Whether the code runs while being compiled: never, here."""
    return False


def reset() -> None:
    """Forget what was compiled: nothing was."""


def disable(fn: Callable[..., Any] | None = None, recursive: bool = True) -> Any:
    """Keep ``fn`` out of compilation (``@torch.compiler.disable``): it runs as written, as everything does here."""
    return (lambda f: f) if fn is None else fn
