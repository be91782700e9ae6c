"""``tinygrad_edu.utils.data`` (``torch.utils.data`` twin): mini-batches for a training loop.

A training loop wants the data a few examples at a time, in a new order each epoch. Three small ideas do it:

* a **dataset** answers ``len(ds)`` and ``ds[i]`` (one example, often a tuple ``(x, y)``): ``TensorDataset(X, Y)``
  gives ``(X[i], Y[i])``; any class with ``__getitem__`` and ``__len__`` will do;
* a **sampler** says in which order to visit the indices: 0, 1, 2, ... (``SequentialSampler``) or a fresh random
  permutation each epoch (``RandomSampler``, drawn from the library's random numbers, so ``manual_seed`` fixes it);
  ``BatchSampler`` cuts that order into lists of ``batch_size`` indices;
* a **collate** function turns the examples of one batch into tensors: ``default_collate`` stacks tensors along a
  new first dimension, makes numbers a tensor, and does so inside tuples, lists and dicts (a batch of ``(x, y)``
  pairs becomes the list ``[X_batch, Y_batch]``, as in PyTorch).

``DataLoader(dataset, batch_size, shuffle=True)`` puts them together: iterating over it gives one collated batch
per step. PyTorch can load batches in worker processes (``num_workers``); here the batches are made in the
learner's own process whatever ``num_workers`` says: the same batches, in the same order, without the processes.
"""

from . import dataloader, dataset, sampler
from .dataloader import DataLoader, default_collate, default_convert, get_worker_info
from .dataset import ChainDataset, ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = ["BatchSampler", "DataLoader", "Dataset", "RandomSampler", "Sampler", "SequentialSampler", "Subset",
           "TensorDataset", "default_collate", "default_convert", "get_worker_info", "random_split"]
__all__ += ["ChainDataset", "ConcatDataset", "IterableDataset", "SubsetRandomSampler", "WeightedRandomSampler"]
