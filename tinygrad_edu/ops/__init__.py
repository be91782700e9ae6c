"""Built-in operations. Each is a ``Function`` (forward and backward side by side, the math in its
docstring), exactly like the custom Functions learners write; only the node names are PyTorch's.

Forwards compute on numpy arrays. Backwards use Tensor operations, so that with ``create_graph=True``
the backward pass is itself recorded and can be differentiated again.
"""
