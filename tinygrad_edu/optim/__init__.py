"""``tinygrad_edu.optim``: optimizers that update parameters from their gradients (``torch.optim`` twin)."""

from . import lr_scheduler
from .adam import Adam
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adam", "Optimizer", "RMSprop"]
