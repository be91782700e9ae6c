"""The benchmarks run (quick mode only), and the step they time computes what the hand-written numpy
step computes. Correctness only: nothing here looks at how long anything took."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # benchmarks/ is a folder of the repository, not part of the installed package
    sys.path.insert(0, str(ROOT))

from benchmarks import jacobians, mlp, per_op, redraw, run  # noqa: E402


def test_quick_run_prints_and_writes_the_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.md"
    assert run.main(["--quick", "--output", str(out)]) == 0
    text = out.read_text()
    assert text == capsys.readouterr().out
    for heading in ("| case | library |", "| target | measured | met |", "traced growth", "| e. explorer redraw"):
        assert heading in text
    for case in ("a. per-op overhead", "b. MLP training step", "c. 2,000-op chain", "h. Jacobian of tanh(W x), wide"):
        assert f"| {case}" in text and "**tinygrad_edu**" in text
    assert "NON-FINITE" not in text


def test_quick_run_writes_nothing_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "RESULTS", tmp_path / "results.md")
    assert run.main(["--quick", "--cases", "c"]) == 0
    assert not (tmp_path / "results.md").exists()


def test_mlp_step_matches_hand_written_numpy() -> None:
    """Same weights in, same loss, gradients and updated weights out, over a few steps."""
    x, y = mlp.make_data(16, 20, 5)
    model = mlp.make_model(20, 12, 5)
    ref = mlp.NumpyMLP.like(model)
    step = mlp.tinygrad_step(model, x, y)
    for _ in range(3):
        loss = step()
        ref_loss = ref.step(x, y)
        np.testing.assert_allclose(loss.item(), ref_loss, rtol=1e-5)
        params = dict(zip(["w1", "b1", "w2", "b2"], model.parameters()))
        for name, p in params.items():
            assert p.grad.dtype == p.dtype and p.grad.shape == p.shape
            np.testing.assert_allclose(p.grad.numpy(), ref.grads[name], rtol=1e-4, atol=1e-6, err_msg=name)
            np.testing.assert_allclose(p.detach().numpy(), getattr(ref, name), rtol=1e-5, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("make", [mlp.hips_step, mlp.mygrad_step], ids=["HIPS autograd", "MyGrad"])
def test_peer_mlp_steps_match_hand_written_numpy(make: Callable[..., Callable[[], float] | None]) -> None:
    """Each peer's timed step computes the step the others do: the same loss, and the same weights after it."""
    x, y = mlp.make_data(16, 20, 5)
    model = mlp.make_model(20, 12, 5)
    ref = mlp.NumpyMLP.like(model)
    params = [p.detach().numpy().copy() for p in model.parameters()]
    step = make(params, x, y)
    if step is None:
        pytest.skip("not installed (make peers installs it)")
    for _ in range(3):
        np.testing.assert_allclose(step(), ref.step(x, y), rtol=1e-6)
        for p, name in zip(params, ["w1", "b1", "w2", "b2"]):
            assert p.dtype == np.float32
            np.testing.assert_allclose(p, getattr(ref, name), rtol=1e-5, atol=1e-7, err_msg=name)


def test_hand_written_chain_gradients_match_tinygrad() -> None:
    """The numpy floor of the per-op case computes the same gradients as the library it is compared with."""
    ours = [np.asarray(g) for g in per_op.tinygrad_chain(40)()]
    floor = per_op.numpy_chain(40)()
    for a, b in zip(ours, floor):
        np.testing.assert_allclose(a, b, rtol=1e-5)


def test_bare_engine_gradients_match_hand_written_numpy() -> None:
    """The bare engine, the per-op case's Python floor, computes the same gradients as the numpy floor."""
    bare = per_op.bare_chain(40)()
    floor = per_op.numpy_chain(40)()
    for a, b in zip(bare, floor):
        np.testing.assert_allclose(a, b, rtol=1e-5)


def test_memory_growth_is_measured() -> None:
    from benchmarks.memory import measure_growth

    growth = measure_growth(steps=5, warmup=2)
    assert set(growth) == {"steps", "traced", "rss", "cyclic_per_step"}
    assert growth["cyclic_per_step"] == 0  # the training step leaves no reference cycles behind


def test_redraw_case_times_two_ways_to_the_same_picture() -> None:
    """Case e compares the fast redraw of a slider move with a full rebuild: both must show the same picture."""
    from io import BytesIO

    from matplotlib.image import imread

    make, control, positions = redraw.explorers()["slice_explorer"]
    explorer = make()
    explorer.update(**{control: float(positions[3])})
    fast, full = (imread(BytesIO(bytes(png))) for png in (explorer.image.value, redraw.full_rebuild(explorer)))
    assert fast.shape == full.shape and np.abs(fast - full).mean() < 1e-3
    table = redraw.redraw_table([redraw.Redraw("slice_explorer", fast=0.02, full=0.2, moves=3)])
    assert "| slice_explorer (3 moves) | 20.0 ms | 200.0 ms | 10.0× |" in table


def test_the_timed_jacobians_are_the_jacobian() -> None:
    """jacfwd and jacrev of the timed function give the Jacobian written by hand with numpy."""
    jacobians.check()
def test_the_million_op_chain_case_runs_and_reports_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """Case i in a quick run (20,000 ops): each library in a fresh process, its peak memory in the notes."""
    assert run.main(["--quick", "--cases", "i"]) == 0
    text = capsys.readouterr().out
    assert "| i. 20,000-op chain" in text and "peak memory" in text and "within 10× torch" in text
