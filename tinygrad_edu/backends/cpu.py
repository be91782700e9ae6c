"""``torch.backends.cpu``: what the CPU offers."""

import numpy as np


def get_cpu_capability() -> str:
    """The widest vector instructions numpy found on this CPU (PyTorch reports its own kernels' choice: "AVX2",
    "AVX512", "DEFAULT"...)."""
    found = getattr(np._core._multiarray_umath, "__cpu_features__", {}) if hasattr(np, "_core") else {}
    return "AVX512" if found.get("AVX512F") else "AVX2" if found.get("AVX2") else "DEFAULT"
