"""The global switches of autograd, below everything that reads them.

``GradMode.enabled`` decides whether operations record the backward graph (``no_grad`` and friends, in
``autograd.grad_mode``, flip it). ``GradMode.inference`` is on inside ``inference_mode()``: tensors made then
are *inference tensors*, so even creating a tensor reads it, which is why it lives below the tensor.
"""


class GradMode:
    """The one global switch. (PyTorch keeps it per thread; one thread is all a notebook uses.)"""

    enabled: bool = True
    inference: bool = False
    anomaly: bool = False  # set_detect_anomaly: record each node's forward call stack
    anomaly_check_nan: bool = True  # ... and raise when a node's backward returns nan
