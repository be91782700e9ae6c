"""``tinygrad_edu.nn``: layers, losses and the Module system (``torch.nn`` twin).

* ``module``: ``Parameter`` and ``Module`` (registration of weights and sub-layers, state_dict, repr)
* ``linear``, ``activation``, ``container``, ``loss``: the layers
* ``functional`` (``F``): the same as functions; the losses are Functions with PyTorch's node names
* ``init``: weight initialisation
* ``utils``: ``clip_grad_norm_`` and ``clip_grad_value_``
"""

from . import functional, init, utils
from .activation import (
    ELU,
    GELU,
    Dropout,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from .container import ModuleList, Sequential
from .linear import Flatten, Identity, Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module, Parameter

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Flatten", "Identity", "LeakyReLU", "Linear",
           "LogSoftmax", "MSELoss", "Module", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
           "Softmax", "Tanh", "functional", "init", "utils"]
__all__ += ["ELU", "GELU", "Hardtanh", "LogSigmoid", "ReLU6", "SiLU", "Softplus"]
