"""``save`` and ``load``: checkpoints on disk (``torch.save`` / ``torch.load`` twins), written with pickle.

A checkpoint is usually a dict of state dicts and numbers::

    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, "ckpt.pt")
    checkpoint = torch.load("ckpt.pt")
    model.load_state_dict(checkpoint["model"])

Unpickling a file can run any code the file names, so, as in PyTorch 2.6 and later, ``load`` accepts only
data by default (``weights_only=True``): tensors, numbers, strings, and lists, tuples, dicts of them. A whole
pickled object (a Module saved with ``save(model, f)``) needs ``weights_only=False``: only for files you trust.
The files are tinygrad_edu's own (plain pickle); they do not load into PyTorch, nor PyTorch's into tinygrad_edu.
"""

from __future__ import annotations

import os
import pickle
from typing import IO, Any

# What a weights-only load may build, besides Python's own containers and numbers: tensors and parameters,
# the numpy arrays, dtypes and scalars inside them, and the OrderedDict a state_dict is.
_DATA_GLOBALS = {
    ("tinygrad_edu._tensor", "_rebuild"), ("tinygrad_edu.nn.parameter", "Parameter"),
    ("tinygrad_edu.nn.module", "Parameter"),  # (where it lived before: files saved then)
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"), ("numpy.core.multiarray", "scalar"),
    ("numpy", "ndarray"), ("numpy", "dtype"), ("collections", "OrderedDict"), ("_codecs", "encode"),
}


class _DataUnpickler(pickle.Unpickler):
    """An unpickler that builds only what ``_DATA_GLOBALS`` lists."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _DATA_GLOBALS:
            raise pickle.UnpicklingError(
                f"Weights only load failed: the file holds a {module}.{name}, which is not a tensor, number, string "
                "or container of them. If you trust where the file comes from, load it with weights_only=False "
                "(unpickling can run arbitrary code).")
        return super().find_class(module, name)


def save(obj: Any, f: str | os.PathLike | IO[bytes], pickle_protocol: int = 2) -> None:
    """Write ``obj`` (tensors, state dicts, numbers... or any picklable object) to the file ``f``: a path, or a
    file opened for binary writing."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as file:
            pickle.dump(obj, file, protocol=pickle_protocol)
    else:
        pickle.dump(obj, f, protocol=pickle_protocol)


def load(f: str | os.PathLike | IO[bytes], map_location: Any = None, *, weights_only: bool | None = None,
         mmap: bool | None = None) -> Any:
    """Read back what ``save`` wrote. ``weights_only`` (the default, True) refuses anything but data; pass
    False for a whole pickled object from a file you trust. ``map_location`` may only name the CPU. ``mmap=True``
    (PyTorch: map the file's tensors into memory rather than read them, for checkpoints larger than memory) asks
    for a file path, as in PyTorch; the tensors are then read as usual, which gives the same values."""
    if mmap and not isinstance(f, (str, os.PathLike)):
        raise ValueError("f must be a file path in order to use the mmap argument")
    if map_location is not None and str(map_location) != "cpu":
        raise RuntimeError(f"tinygrad_edu runs on the CPU only: cannot load onto {map_location!r} "
                           "(use map_location='cpu', or leave it out)")
    unpickler = _DataUnpickler if weights_only is None or weights_only else pickle.Unpickler
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return unpickler(file).load()
    return unpickler(f).load()
