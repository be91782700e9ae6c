"""``torch.utils.data`` as tutorials use it (d2l's ``load_array``, PyTorch's nn tutorial, Morvan's batch training,
Dive-into-DL's linear regression): datasets, samplers, collation and the DataLoader, compared with PyTorch.
A shuffled order comes from each library's own random numbers, so there the checks are on what any order shows
(every index once per epoch, the batch sizes), not on the order itself."""

from __future__ import annotations

import collections
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, raises


def sequential_batches(lib: ModuleType) -> Any:
    ds = lib.utils.data.TensorDataset(lib.arange(10.0).reshape(5, 2), lib.arange(5))
    loader = lib.utils.data.DataLoader(ds, batch_size=2)
    dropped = lib.utils.data.DataLoader(ds, batch_size=2, drop_last=True)
    return len(ds), ds[1], list(loader), len(loader), list(dropped), len(dropped), next(iter(loader))


def collation(lib: ModuleType) -> Any:
    collate = lib.utils.data.default_collate
    Point = collections.namedtuple("Point", "x y")
    return (collate([1.5, 2.0]), collate([1, 2]), collate([True, False]), collate(["a", "b"]),
            collate([{"a": 1, "b": lib.ones(2)}, {"a": 2, "b": lib.zeros(2)}]), collate([(1, 2.0), (3, 4.0)]),
            collate([[lib.tensor(1), lib.tensor(2)], [lib.tensor(3), lib.tensor(4)]]),
            collate([np.ones(2, np.float32), np.zeros(2, np.float32)]), collate([np.int64(3), np.int64(4)]),
            collate([Point(1, 2.0), Point(3, 4.0)]), collate([lib.tensor(1.0), lib.tensor(2.0)]))


def no_batching(lib: ModuleType) -> Any:
    ds = lib.utils.data.TensorDataset(lib.arange(3.0), lib.arange(3))
    loader = lib.utils.data.DataLoader(ds, batch_size=None)
    return list(loader), len(loader), list(lib.utils.data.DataLoader([np.ones(2)], batch_size=None))


def custom_dataset_and_sampler(lib: ModuleType) -> Any:
    class Squares(lib.utils.data.Dataset):
        def __len__(self) -> int:
            return 5

        def __getitem__(self, i: int) -> tuple:
            return float(i), i * i

    batches = lib.utils.data.BatchSampler(lib.utils.data.SequentialSampler(range(7)), 3, drop_last=False)
    loader = lib.utils.data.DataLoader(Squares(), batch_sampler=[[4, 0], [1]])
    subset = lib.utils.data.Subset(Squares(), [3, 1])
    return (list(lib.utils.data.DataLoader(Squares(), batch_size=2)), list(batches), len(batches), list(loader),
            subset[0], len(subset), lib.utils.data.get_worker_info())


def shuffled_epochs(lib: ModuleType) -> Any:
    lib.manual_seed(0)
    ds = lib.utils.data.TensorDataset(lib.arange(10), lib.arange(10) * 10)
    loader = lib.utils.data.DataLoader(ds, batch_size=4, shuffle=True, num_workers=0)
    epochs = [[(x.tolist(), y.tolist()) for x, y in loader] for _ in range(2)]
    every_index_once = all(sorted(i for x, _ in e for i in x) == list(range(10)) for e in epochs)
    pairs_kept = all(y == [10 * i for i in x] for e in epochs for x, y in e)
    sizes = [[len(x) for x, _ in e] for e in epochs]
    with_replacement = list(lib.utils.data.RandomSampler(range(3), replacement=True, num_samples=7))
    return (every_index_once, pairs_kept, sizes, len(loader), len(with_replacement),
            set(with_replacement) <= {0, 1, 2}, epochs[0] != epochs[1] or epochs[0] != sorted(epochs[0]))


def split(lib: ModuleType) -> Any:
    ds = lib.utils.data.TensorDataset(lib.arange(10))
    parts = lib.utils.data.random_split(ds, [7, 3])
    fractions = lib.utils.data.random_split(range(10), [0.5, 0.25, 0.25])
    every = sorted(int(p[i][0]) for p in parts for i in range(len(p)))
    return [len(p) for p in parts], every, [len(p) for p in fractions], type(parts[0]).__name__


PROGRAMS = {f.__name__: f for f in (sequential_batches, collation, no_batching, custom_dataset_and_sampler,
                                    shuffled_epochs, split)}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_as_pytorch(name: str) -> None:
    as_pytorch(PROGRAMS[name])


def test_a_worker_count_loads_the_same_batches() -> None:
    def program(lib: ModuleType) -> Any:
        ds = lib.utils.data.TensorDataset(lib.arange(6.0))
        return list(lib.utils.data.DataLoader(ds, batch_size=4, num_workers=2))

    as_pytorch(program)


def test_misuse_messages() -> None:
    def loader(lib: ModuleType, *args: Any, **kwargs: Any) -> Any:
        return lib.utils.data.DataLoader(*args, **kwargs)

    raises(lambda lib: loader(lib, [], batch_size=4, shuffle=True), ValueError,
           "num_samples should be a positive integer value, but got num_samples=0")
    raises(lambda lib: loader(lib, [1, 2], batch_size=0), ValueError,
           "batch_size should be a positive integer value, but got batch_size=0")
    raises(lambda lib: loader(lib, [1, 2], num_workers=-1), ValueError,
           "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
    raises(lambda lib: loader(lib, [1, 2], sampler=[0, 1], shuffle=True), ValueError,
           "sampler option is mutually exclusive with shuffle")
    raises(lambda lib: loader(lib, [1, 2], batch_sampler=[[0]], batch_size=2), ValueError,
           "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last")
    raises(lambda lib: loader(lib, [1, 2], batch_size=None, drop_last=True), ValueError,
           "batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
    raises(lambda lib: lib.utils.data.TensorDataset(lib.ones(2), lib.ones(3)), AssertionError,
           "Size mismatch between tensors")
    raises(lambda lib: lib.utils.data.random_split(range(3), [1, 1]), ValueError,
           "Sum of input lengths does not equal the length of the input dataset!")
    raises(lambda lib: lib.utils.data.Dataset()[0], NotImplementedError,
           "Subclasses of Dataset should implement __getitem__.")
    raises(lambda lib: list(loader(lib, [object()], batch_size=1)), TypeError,
           "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found "
           "<class 'object'>")
    raises(lambda lib: list(loader(lib, [[1, 2], [3]], batch_size=2)), RuntimeError,
           "each element in list of batch should be of equal size")
