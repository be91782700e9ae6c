"""``torch.backends.openmp``: whether PyTorch's CPU kernels run on OpenMP threads. numpy's do not."""


def is_available() -> bool:
    return False
