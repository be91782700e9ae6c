"""The checks of hyperparameters the optimizers share, with PyTorch's messages."""

from __future__ import annotations


def check_betas(betas: tuple[float, float]) -> None:
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")


# How PyTorch's messages name each hyperparameter ("Invalid learning rate: -1")
_WORDS = {"lr": "learning rate", "eps": "epsilon value"}


def check_values(**values: float) -> None:
    """Refuse a hyperparameter out of range, in PyTorch's words and in the order given (PyTorch's order, which decides
    the message when two are wrong): each at least 0, ``rho`` at most 1 too, ``betas`` each in [0, 1)."""
    for name, value in values.items():
        if name == "betas":
            check_betas(value)
        elif not value >= 0.0 or (name == "rho" and not value <= 1.0):
            raise ValueError(f"Invalid {_WORDS.get(name, name + ' value')}: {value}")
