"""``tinygrad_edu.nn``: layers, losses and the Module system (``torch.nn`` twin).

* ``module``: ``Parameter`` and ``Module`` (registration of weights and sub-layers, state_dict, repr)
* ``linear``, ``activation``, ``container``, ``loss``: the layers
* ``functional`` (``F``): the same as functions; the losses are Functions with PyTorch's node names
* ``init``: weight initialisation
"""

from . import functional, init
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .container import Sequential
from .linear import Flatten, Identity, Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module, Parameter

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Flatten", "Identity", "Linear", "LogSoftmax",
           "MSELoss", "Module", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh",
           "functional", "init"]
