"""``torch.backends.mkldnn``: PyTorch's CPU library for convolutions (oneDNN). tinygrad_edu's convolutions are
numpy's, so it is not used here."""

enabled = True


def is_available() -> bool:
    return False
