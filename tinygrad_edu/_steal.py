"""The reference counts behind AccumulateGrad's gradient "stealing" (beside the core: read last, or never).

When the first gradient of a leaf arrives, ``.grad`` may become that very tensor instead of a copy, if nobody else
can see it: ``core/function.py``'s ``_unshared`` counts the references to the gradient, its array, the memory that
array views and the tensor that memory came in. What those counts are when the engine alone holds them depends on
how the engine calls AccumulateGrad (each call holds the arguments) and on the Python version: they are measured
once, here, rather than assumed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def unshared_counts(count: Callable[[Any], tuple]) -> tuple:
    """What ``count`` (``_unshared`` without limits) gives for a gradient only the engine holds, a view made by a
    view op, passed as the engine passes one (``node.apply(*grads)``, then into ``count``). Stand-ins play the
    tensors and the node."""
    class Stub:
        _base = None

        def apply(self, grad: Any) -> tuple:
            return count(grad)

    base, grad = Stub(), Stub()
    base._array = np.zeros(2)
    grad._array, grad._base = base._array[:1], base
    grads = [grad]
    del base, grad
    return Stub().apply(*grads)
