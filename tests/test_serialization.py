"""save / load: checkpoints as in PyTorch (torch.save / torch.load), weights-only by default."""

from __future__ import annotations

import io
import pickle
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from _oracle import as_pytorch

import tinygrad_edu as tg
from tinygrad_edu import nn


def test_a_checkpoint_round_trips_and_training_resumes(tmp_path: Path) -> None:
    """A dict of state dicts and numbers, saved to a path, loads back equal; a model and optimizer restored
    from it continue exactly as the uninterrupted ones do."""
    tg.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    opt = tg.optim.Adam(model.parameters(), lr=0.05)
    x, y = tg.randn(8, 3), tg.randn(8, 1)

    def step(m: nn.Module, o: tg.optim.Optimizer) -> float:
        o.zero_grad()
        loss = nn.functional.mse_loss(m(x), y)
        loss.backward()
        o.step()
        return loss.item()

    for _ in range(3):
        step(model, opt)
    path = tmp_path / "ckpt.pt"
    tg.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 3, "note": "after 3"}, path)
    checkpoint = tg.load(path)
    assert checkpoint["epoch"] == 3 and checkpoint["note"] == "after 3"
    assert list(checkpoint["model"]) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    restored = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    restored.load_state_dict(checkpoint["model"])
    restored_opt = tg.optim.Adam(restored.parameters(), lr=0.05)
    restored_opt.load_state_dict(checkpoint["optimizer"])
    assert [step(model, opt) for _ in range(3)] == [step(restored, restored_opt) for _ in range(3)]


def test_tensors_keep_dtype_values_and_requires_grad() -> None:
    buf = io.BytesIO()
    x = tg.tensor([1.5, -2.0], requires_grad=True)
    tg.save([x, x * 2, tg.arange(3), tg.tensor(2.5, dtype=tg.float64), nn.Parameter(tg.ones(2))], buf)
    buf.seek(0)
    a, b, c, d, p = tg.load(buf)
    assert repr(a) == "tensor([ 1.5000, -2.0000], requires_grad=True)" and a is not x
    assert repr(b) == "tensor([ 3., -4.], requires_grad=True)" and b.grad_fn is None  # the values, not the graph
    assert c.dtype == tg.int64 and d.dtype == tg.float64 and isinstance(p, nn.Parameter)


def test_loading_refuses_objects_unless_asked() -> None:
    """Unpickling can run code: by default only data loads. A whole Module needs weights_only=False."""
    buf = io.BytesIO()
    tg.manual_seed(0)
    model = nn.Linear(2, 1)
    tg.save(model, buf)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed.*weights_only=False"):
        tg.load(buf)
    buf.seek(0)
    again = tg.load(buf, weights_only=False)
    assert isinstance(again, nn.Linear) and np.array_equal(again.weight.detach().numpy(), model.weight.detach().numpy())


def test_map_location_is_cpu_only() -> None:
    buf = io.BytesIO()
    tg.save({"w": tg.ones(1)}, buf)
    buf.seek(0)
    assert tg.load(buf, map_location="cpu")["w"].tolist() == [1.0]
    buf.seek(0)
    with pytest.raises(RuntimeError, match="CPU only"):
        tg.load(buf, map_location="cuda:0")


def test_same_calls_as_pytorch() -> None:
    """The calls a tutorial makes work the same with torch (each library reads its own files)."""

    def round_trip(lib: ModuleType) -> str:
        buf = io.BytesIO()
        lib.save({"w": lib.tensor([1.0, 2.0]), "step": 7}, buf)
        buf.seek(0)
        return repr(lib.load(buf, weights_only=True))

    as_pytorch(round_trip, (None, repr("{'w': tensor([1., 2.]), 'step': 7}"), []))


def test_mmap_loads_a_checkpoint_file(tmp_path: Path) -> None:
    """``torch.load(path, mmap=True, weights_only=True)``, as the checkpoint-loading recipe calls it: the same values
    as without mmap; from an open buffer, PyTorch's error (mmap needs a file path)."""

    def loaded(lib: ModuleType) -> str:
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save({"w": lib.tensor([1.0, 2.0])}, path)
        return repr(lib.load(path, mmap=True, weights_only=True))

    as_pytorch(loaded, (None, repr("{'w': tensor([1., 2.])}"), []))

    def from_buffer(lib: ModuleType) -> object:
        buf = io.BytesIO()
        lib.save({"w": lib.ones(1)}, buf)
        buf.seek(0)
        return lib.load(buf, mmap=True)

    as_pytorch(from_buffer, ("ValueError", "f must be a file path in order to use the mmap argument", []))
