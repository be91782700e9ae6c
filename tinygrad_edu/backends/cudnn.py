"""``torch.backends.cudnn``: NVIDIA's cuDNN, which is not here (see the package's docstring)."""

enabled = True  # (PyTorch's defaults: they matter only where cuDNN is)
benchmark = False
deterministic = False
allow_tf32 = True
benchmark_limit = 10


def is_available() -> bool:
    return False


def version() -> None:
    """cuDNN's version: None, as in PyTorch without it."""
    return None
