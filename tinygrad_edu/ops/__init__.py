"""Built-in operations. Each is a ``Function`` (forward and backward side by side, the math in its
docstring), exactly like the custom Functions learners write; only the node names are PyTorch's.

Forwards compute on numpy arrays. Backwards use Tensor operations, so that with ``create_graph=True``
the backward pass is itself recorded and can be differentiated again.
"""

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from .._quiet import Quiet
from ..core.grad_mode import GradMode, Speed

F = TypeVar("F", bound=Callable[..., Any])


def unrecorded() -> bool:
    """speed: inside a backward pass that records nothing (no create_graph; numpy's warnings off for the pass), where
    a backward may compute its gradient on arrays directly, the same numbers as the op it would run, without the op's
    bookkeeping. False with ``Speed.tricks`` off, which checks that the results are the same."""
    return Speed.tricks and not GradMode.enabled and Quiet.token is not None


def numpy_names(f: F) -> F:
    """Take numpy's argument names as well, as PyTorch's argument parser does for every function it parses:
    ``axis=`` for ``dim=``, ``keepdims=`` for ``keepdim=`` (d2l writes ``A.cumsum(axis=0)``, ``torch.cat(Xs,
    axis=1)``). Only a call that uses them pays for the renaming."""

    @functools.wraps(f)
    def renamed(*args: Any, **kwargs: Any) -> Any:
        if "axis" in kwargs or "keepdims" in kwargs:
            for numpy_name, name in (("axis", "dim"), ("keepdims", "keepdim")):
                if numpy_name in kwargs:
                    if name in kwargs:
                        raise TypeError(f"{f.__name__}() got multiple values for argument '{name}'")
                    kwargs[name] = kwargs.pop(numpy_name)
        return f(*args, **kwargs)

    return renamed  # type: ignore[return-value]
