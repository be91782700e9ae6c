"""Samplers: the order in which to visit a dataset's indices (``torch.utils.data.sampler`` twin)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from ... import _creation, _dtype
from ..._tensor import Tensor


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


class SubsetRandomSampler(Sampler):
    """The given ``indices`` in a random order, new at every pass (a permutation drawn from ``generator``, by
    default the library's): e.g. the training part of a dataset split by hand."""

    def __init__(self, indices: Sequence[int], generator: Any = None) -> None:
        self.indices, self.generator = indices, generator

    def __iter__(self) -> Iterator[int]:
        for i in _creation.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights`` (which need not sum to 1):
    over-sample a rare class by giving its examples larger weights. With ``replacement=False`` no index repeats.

    The draws are PyTorch's ``multinomial``: with replacement, one float64 uniform u per draw, and the index is
    where u falls in the normalised cumulative weights; without, the ``num_samples`` largest w_i / e_i for
    exponential e_i (the Gumbel-max trick)."""

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator: Any = None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        weights_tensor = weights.to(_dtype.float64) if isinstance(weights, Tensor) else \
            _creation.as_tensor(weights, dtype=_dtype.float64)
        if weights_tensor.dim() != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights_tensor.shape)}")
        self.weights, self.num_samples, self.replacement, self.generator = (weights_tensor, num_samples,
                                                                            replacement, generator)

    def __iter__(self) -> Iterator[int]:
        generator = self.generator or _creation.default_generator
        yield from _creation.multinomial(self.weights, self.num_samples, self.replacement,
                                         generator=generator).tolist()

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


