"""``torch.backends``: which accelerated libraries PyTorch may call, and their switches.

Code written for a GPU sets ``torch.backends.cudnn.deterministic = True`` and ``torch.backends.cudnn.benchmark =
False`` for reproducible runs, and picks its device with ``torch.backends.mps.is_available()``. tinygrad_edu computes
with numpy on the CPU: there is no cuDNN, no Apple GPU (MPS) and no CUDA here, so every ``is_available()`` answers
False and the switches are plain attributes, accepted and remembered, that change nothing.
"""

from . import cpu, cuda, cudnn, mkldnn, mps, openmp

__all__ = ["cpu", "cuda", "cudnn", "mkldnn", "mps", "openmp"]
