"""Activation layers: each wraps the function of the same name in ``nn.functional``.

A network of Linear layers alone is still one linear map (a product of matrices); a nonlinearity
between them is what lets it bend.
"""

from __future__ import annotations

from .._tensor import Tensor
from . import functional as F
from .module import Module


class ReLU(Module):
    """max(x, 0), element-wise. ``inplace=True`` overwrites the input instead of allocating."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    """tanh(x), element-wise: squashes into (-1, 1)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.tanh(input)


class Sigmoid(Module):
    """1 / (1 + e^-x), element-wise: squashes into (0, 1)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.sigmoid(input)


class Softmax(Module):
    """e^x / sum e^x along ``dim``: turns scores into probabilities."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    """log(softmax(x)) along ``dim``, computed stably (pair it with ``NLLLoss``)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)


class LeakyReLU(Module):
    """x for x > 0, ``negative_slope * x`` otherwise: a ReLU that keeps a small gradient for negative inputs."""

    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class Dropout(Module):
    """During training, zero each element with probability p (scaling the rest by 1 / (1 - p)); after
    ``model.eval()``, pass the input through unchanged. A regulariser: no unit can rely on any other."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
