"""The check of ``betas`` that Adam's relatives share, with PyTorch's message."""

from __future__ import annotations


def check_betas(betas: tuple[float, float]) -> None:
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
