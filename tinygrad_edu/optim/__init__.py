"""``tinygrad_edu.optim``: optimizers that update parameters from their gradients (``torch.optim`` twin)."""

from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam
from .adamw import AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adam", "Optimizer", "RMSprop"]
__all__ += ["Adagrad", "AdamW"]
