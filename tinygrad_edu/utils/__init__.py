"""``tinygrad_edu.utils`` (``torch.utils`` twin): ``data``, the datasets and the loader that serves mini-batches."""

from . import data

__all__ = ["data"]
