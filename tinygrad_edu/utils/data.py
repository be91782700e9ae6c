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

from __future__ import annotations

import collections.abc
import itertools
import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from .. import _creation
from .._tensor import Tensor
from ..ops.shape import stack

__all__ = ["BatchSampler", "DataLoader", "Dataset", "RandomSampler", "Sampler", "SequentialSampler", "Subset",
           "TensorDataset", "default_collate", "default_convert", "get_worker_info", "random_split"]


class Dataset:
    """A collection of examples: subclasses define ``__getitem__(i)`` (and ``__len__`` for a DataLoader)."""

    def __getitem__(self, index: Any) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    """Examples cut from tensors along their first dimension: ``ds[i]`` is ``(t[i] for t in tensors)``."""

    def __init__(self, *tensors: Tensor) -> None:
        assert all(tensors[0].size(0) == t.size(0) for t in tensors), "Size mismatch between tensors"
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The examples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset: Any, lengths: Sequence[float], generator: Any = None) -> list[Subset]:
    """Split ``dataset`` at random into parts of the given lengths (or fractions of it that add up to 1)."""
    generator = generator or _creation.default_generator
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            sizes.append(math.floor(len(dataset) * frac))
        for i in range(len(dataset) - sum(sizes)):  # the rest, one each, round robin
            sizes[i % len(sizes)] += 1
        for i, size in enumerate(sizes):
            if size == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
        lengths = sizes
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = _creation.randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, order[end - n:end]) for end, n in zip(itertools.accumulate(lengths), lengths)]


class Sampler:
    """An order in which to visit a dataset's indices (iterate over it)."""

    def __init__(self, data_source: Any = None) -> None:
        pass

    def __iter__(self) -> Iterator:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, 2, ..., len(data_source) - 1."""

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order, new at every pass: a permutation of the indices (or, with ``replacement``, ``num_samples``
    independent draws). Each pass seeds its own generator from the library's random numbers, as PyTorch does, so
    ``manual_seed`` makes the whole sequence of epochs repeat."""

    def __init__(self, data_source: Any, replacement: bool = False, num_samples: int | None = None,
                 generator: Any = None) -> None:
        self.data_source, self.replacement, self._num_samples, self.generator = (data_source, replacement,
                                                                                 num_samples, generator)
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = _creation.Generator().manual_seed(_creation.default_generator.random64())
        if self.replacement:  # (32 at a time, as PyTorch draws them)
            for start in range(0, self.num_samples, 32):
                yield from _creation.randint(0, n, (min(32, self.num_samples - start),), generator=generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from _creation.randperm(n, generator=generator).tolist()
        yield from _creation.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Cut the order of ``sampler`` into lists of ``batch_size`` indices (the last one shorter, or dropped)."""

    def __init__(self, sampler: Any, batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self) -> Iterator[list[int]]:
        indices = iter(self.sampler)
        while batch := list(itertools.islice(indices, self.batch_size)):
            if len(batch) < self.batch_size and self.drop_last:
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


_COLLATE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def default_collate(batch: Sequence[Any]) -> Any:
    """The examples of one batch as tensors: tensors (and numpy arrays) stacked along a new first dimension,
    Python floats as a float64 tensor and ints as an int64 one, strings left as a list; tuples, lists and dicts
    collated field by field (a batch of ``(x, y)`` pairs gives ``[stack of x, stack of y]``)."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(list(batch), 0)
    if isinstance(elem, (np.ndarray, np.generic)):
        if elem.dtype.kind in "SaUO":
            raise TypeError(_COLLATE_ERROR.format(elem.dtype))
        if isinstance(elem, np.ndarray) and elem.shape != ():
            return default_collate([_creation.as_tensor(b) for b in batch])
        return _creation.as_tensor(np.asarray(batch))
    if isinstance(elem, float):
        return _creation.tensor(batch, dtype=np.float64)
    if isinstance(elem, int):
        return _creation.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple keeps its type
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(e) != len(elem) for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(samples) for samples in zip(*batch)]
    raise TypeError(_COLLATE_ERROR.format(type(elem)))


def default_convert(data: Any) -> Any:
    """One example as tensors without batching (``batch_size=None``): numpy arrays become tensors."""
    if isinstance(data, np.ndarray) and data.dtype.kind not in "SaUO":
        return _creation.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, (list, tuple)):
        return [default_convert(d) for d in data]
    return data


def get_worker_info() -> None:
    """Batches are made in the main process here: there is never a worker to describe."""
    return None


class DataLoader:
    """Iterate over ``dataset`` in mini-batches: ``for X, y in DataLoader(ds, batch_size=32, shuffle=True)``.

    Each pass takes the indices from the sampler (a new random order when ``shuffle``), ``batch_size`` at a time,
    fetches those examples and collates them. ``len(loader)`` is the number of batches. ``num_workers``,
    ``pin_memory`` and the other multiprocessing options are accepted and change nothing: the batches are the same.
    """

    def __init__(self, dataset: Any, batch_size: int | None = 1, shuffle: bool | None = None, sampler: Any = None,
                 batch_sampler: Any = None, num_workers: int = 0, collate_fn: Callable | None = None,
                 pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn: Callable | None = None, multiprocessing_context: Any = None, generator: Any = None,
                 *, prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self.num_workers, self.pin_memory, self.timeout = num_workers, pin_memory, timeout
        self.worker_init_fn, self.prefetch_factor, self.persistent_workers = (worker_init_fn, prefetch_factor,
                                                                              persistent_workers)
        self.collate_fn = collate_fn or (default_collate if batch_sampler is not None else default_convert)

    def __iter__(self) -> Iterator[Any]:
        # Each pass draws a seed for worker processes, as PyTorch's does: the random numbers after it stay PyTorch's.
        (self.generator or _creation.default_generator).random64()
        if self.batch_sampler is None:  # no batching: one converted example at a time
            return (self.collate_fn(self.dataset[i]) for i in self.sampler)
        return (self.collate_fn([self.dataset[i] for i in batch]) for batch in self.batch_sampler)

    def __len__(self) -> int:
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)
