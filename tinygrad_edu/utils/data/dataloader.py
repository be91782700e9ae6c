"""``DataLoader`` and the collate functions (``torch.utils.data.dataloader`` twin): programs import
``default_collate`` from here (``from torch.utils.data.dataloader import default_collate``)."""

from __future__ import annotations

import collections.abc
import contextlib
import copy
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ... import _creation
from ..._tensor import Tensor
from ...ops.shape import stack
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

_END = object()  # what next() gives for an ended stream

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


class WorkerInfo:
    """What ``get_worker_info()`` tells a dataset's code about the worker running it: ``id``, ``num_workers``,
    ``seed`` and ``dataset`` (the worker's own copy of the dataset)."""

    def __init__(self, **kwargs: Any) -> None:
        self.__keys = tuple(kwargs)
        self.__dict__.update(kwargs)

    def __repr__(self) -> str:
        return f"WorkerInfo({', '.join(f'{k}={getattr(self, k)}' for k in self.__keys)})"


_worker: WorkerInfo | None = None  # the worker whose code is running, while a stream's worker is stepped


def get_worker_info() -> WorkerInfo | None:
    """None in the main process. A map-style dataset's batches are always made there (the batches are the same as
    with workers). Only an IterableDataset with ``num_workers`` > 0 runs as workers (see ``DataLoader``), and its
    ``__iter__`` then sees which worker it is."""
    return _worker


@contextlib.contextmanager
def _as_worker(info: WorkerInfo) -> Iterator[None]:
    global _worker
    outer, _worker = _worker, info
    try:
        yield
    finally:
        _worker = outer


def _worker_copy(dataset: Any) -> Any:
    """A worker's own copy of the dataset, as a forked worker process has one: a deep copy, or, for a dataset
    holding something that cannot be copied (a module, an open file), a shallow one (its own attributes)."""
    try:
        return copy.deepcopy(dataset)
    except (TypeError, copy.Error):
        return copy.copy(dataset)


class _InfiniteConstantSampler(Sampler):
    """The sampler of a stream (an IterableDataset): no index to give, as often as asked."""

    def __iter__(self) -> Iterator[None]:
        while True:
            yield None


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
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:  # a stream has no indices: nothing to shuffle or sample, only to cut into batches
            for option, value in (("shuffle", shuffle), ("sampler", sampler), ("batch_sampler", batch_sampler)):
                if value not in (None, False) if option == "shuffle" else value is not None:
                    raise ValueError(f"DataLoader with IterableDataset: expected unspecified {option} option, but "
                                     f"got {option}={value}")
            sampler = _InfiniteConstantSampler()
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
        base_seed = (self.generator or _creation.default_generator).random64()
        if self._iterable:
            return self._stream_batches(base_seed)
        if self.batch_sampler is None:  # no batching: one converted example at a time
            return (self.collate_fn(self.dataset[i]) for i in self.sampler)
        return (self.collate_fn([self.dataset[i] for i in batch]) for batch in self.batch_sampler)

    def _stream_batches(self, base_seed: int) -> Iterator[Any]:
        """An IterableDataset's examples, ``batch_size`` at a time in the stream's order (the last batch shorter,
        or dropped).

        With ``num_workers`` = n > 0, PyTorch gives each of n worker processes its own copy of the dataset, and each
        iterates over all of it (the same examples n times over, unless ``__iter__`` or ``worker_init_fn`` splits
        the work by ``get_worker_info()``); the batches arrive from the workers in turn. Here the workers are n
        copies stepped in turn in this process, each seeing its own ``get_worker_info()``: the same batches in the
        same order. (Random numbers drawn inside a worker are not PyTorch's: its workers reseed themselves.)"""
        if self.num_workers == 0:
            yield from self._batches(iter(self.dataset))
            return
        workers = []
        for wid in range(self.num_workers):
            info = WorkerInfo(id=wid, num_workers=self.num_workers, seed=base_seed + wid,
                              dataset=_worker_copy(self.dataset))
            with _as_worker(info):
                if self.worker_init_fn is not None:
                    self.worker_init_fn(wid)
                workers.append((info, self._batches(iter(info.dataset))))
        while workers:  # one batch from each worker in turn; a worker whose stream ended drops out
            for entry in list(workers):
                info, batches = entry
                with _as_worker(info):
                    batch = next(batches, _END)
                if batch is _END:
                    workers.remove(entry)
                else:
                    yield batch

    def _batches(self, stream: Iterator[Any]) -> Iterator[Any]:
        if self.batch_size is None:
            yield from (self.collate_fn(example) for example in stream)
            return
        while batch := list(itertools.islice(stream, self.batch_size)):
            if len(batch) < self.batch_size and self.drop_last:
                return
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if self._iterable:  # only if the stream knows its length (TypeError otherwise, as len() of it raises)
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)
