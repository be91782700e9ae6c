"""Gradients whose memory nobody else holds, reused: two speed tricks of the engine (beside the core: read last, or
never). PyTorch does both.

* **Stealing.** When the first gradient of a leaf arrives, ``.grad`` may become that very tensor instead of a copy,
  if nobody else can see it: ``core/function.py``'s ``_unshared`` counts the references to the gradient, its array,
  the memory that array views and the tensor that memory came in. What those counts are when the engine alone holds
  them depends on how the engine calls AccumulateGrad (each call holds the arguments) and on the Python version:
  they are measured once, here, rather than assumed.
* **Adding in place.** Where gradients for one node arrive by several paths, the engine adds them in the node's
  buffer (``added``). The first sum is a new tensor that only the buffer holds, so each later gradient can be added
  into it in place, as PyTorch's ``InputBuffer`` does, rather than allocating a new sum for every path (a parameter
  used at every step of a long chain gets hundreds).
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


def added(total: Any, g: Any, node: Any, sums: set | None) -> Any:
    """``total + g``, two gradients for ``node`` arriving by different paths (tensors of the core). ``sums`` holds the
    nodes whose buffer holds a sum this backward pass made (None: no tricks, or a recorded backward, whose sums must
    be ops): into such a sum, ``g`` is added in place, the same numbers without a new array. (A node of one output
    only, so that the buffer has one slot; ``g`` of the sum's shape and dtype, so that nothing is broadcast or cast.)"""
    if node in (sums or ()) and g._array.shape == total._array.shape and g._array.dtype == total._array.dtype:
        np.add(total._array, g._array, out=total._array)
        return total
    if sums is not None and node._num_outputs == 1:
        sums.add(node)
    return total + g
