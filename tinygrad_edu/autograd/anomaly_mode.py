"""``tinygrad_edu.autograd.anomaly_mode`` (PyTorch's ``torch.autograd.anomaly_mode``): where anomaly detection's two
switches live in PyTorch; here they are ``grad_mode``'s."""

from .grad_mode import detect_anomaly, set_detect_anomaly

__all__ = ["detect_anomaly", "set_detect_anomaly"]
