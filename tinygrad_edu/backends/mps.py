"""``torch.backends.mps``: Apple's GPU, which is not here (``device = "mps" if torch.backends.mps.is_available()
else "cpu"`` picks the CPU)."""


def is_available() -> bool:
    return False


def is_built() -> bool:
    return False
