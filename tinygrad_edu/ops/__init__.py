"""Built-in operations. Each is a ``Function`` (forward and backward side by side, the math in its
docstring), exactly like the custom Functions learners write; only the node names are PyTorch's.

Forwards compute on numpy arrays. Backwards use Tensor operations, so that with ``create_graph=True``
the backward pass is itself recorded and can be differentiated again.
"""

from .._quiet import Quiet
from ..core.grad_mode import GradMode, Speed


def unrecorded() -> bool:
    """speed: inside a backward pass that records nothing (no create_graph; numpy's warnings off for the pass), where
    a backward may compute its gradient on arrays directly, the same numbers as the op it would run, without the op's
    bookkeeping. False with ``Speed.tricks`` off, which checks that the results are the same."""
    return Speed.tricks and not GradMode.enabled and Quiet.token is not None
