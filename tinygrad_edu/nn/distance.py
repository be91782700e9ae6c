"""Distance layers: ``PairwiseDistance`` and ``CosineSimilarity``, each the function of ``nn.functional`` with
its options stored (``F.pairwise_distance``, ``F.cosine_similarity``; ``F.pdist`` has no layer, as in PyTorch)."""

from __future__ import annotations

from .._tensor import Tensor
from . import functional as F
from .module import Module


class PairwiseDistance(Module):
    """The ``p``-norm of ``x1 - x2 + eps`` along the last dimension: the distance between each pair of rows."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim  # (PyTorch's attribute name for p)

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """The cosine of the angle between x1 and x2 along ``dim``, in [-1, 1]."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
