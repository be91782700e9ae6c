"""``tinygrad_edu.optim``: optimizers that update parameters from their gradients (``torch.optim`` twin)."""

from . import lr_scheduler
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adam", "Optimizer", "RMSprop"]
__all__ += ["Adagrad", "AdamW"]
__all__ += ["Adadelta", "Adamax", "NAdam", "RAdam"]
__all__ += ["LBFGS"]
