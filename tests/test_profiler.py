"""The profiler (``autograd.profiler`` and ``torch.profiler``): which ops and backward nodes it times, how they nest,
PyTorch's table, and that it leaves the library as it found it. Times are this machine's, so the tests check the
events' names, counts and arithmetic, and the table's layout, never a time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tinygrad_edu as tg
from tinygrad_edu.autograd.profiler import profile, record_function
from tinygrad_edu.core import engine as core_engine
from tinygrad_edu.core.function import AccumulateGrad, BackwardCFunction, Function


class MyReLU(tg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * (x > 0)


def _profiled() -> profile:
    """introyt's profiled loop, then a backward pass inside a record_function block."""
    x, y, z = tg.randn(2, 3, requires_grad=True), tg.rand(2, 3, requires_grad=True), tg.ones(2, 3, requires_grad=True)
    with profile(use_cuda=False) as prof:
        for _ in range(10):
            z = (z / x) * y
        with record_function("the backward"):
            (MyReLU.apply(z).sum()).backward()
    return prof


def test_every_op_and_backward_node_is_counted_under_pytorchs_names() -> None:
    counts = {e.key: e.count for e in _profiled().key_averages()}
    assert counts["aten::div"] == 10 and counts["aten::mul"] >= 10 and counts["aten::sum"] == 1
    assert counts["autograd::engine::evaluate_function: DivBackward0"] == 10
    assert counts["autograd::engine::evaluate_function: MulBackward0"] == 10
    assert counts["autograd::engine::evaluate_function: AccumulateGrad"] == 3
    assert counts["MyReLU"] == 1 and counts["autograd::engine::evaluate_function: MyReLUBackward"] == 1
    assert counts["the backward"] == 1


def test_self_time_leaves_out_the_calls_made_inside() -> None:
    prof = _profiled()
    (block,) = [e for e in prof.events() if e.name == "the backward"]
    nested = {e.name for e in block.children}
    assert "autograd::engine::evaluate_function: DivBackward0" in nested  # (the nodes ran inside the block)
    assert block.self_cpu_time_total == pytest.approx(block.cpu_time_total - sum(c.cpu_time_total
                                                                                 for c in block.children))
    top = [e for e in prof.events() if e in prof._events]
    assert prof.self_cpu_time_total == pytest.approx(sum(e.cpu_time_total for e in top))


def test_the_table_has_pytorchs_columns() -> None:
    text = _profiled().key_averages().table(sort_by="self_cpu_time_total", row_limit=4)
    lines = text.splitlines()
    assert lines[1].split() == ["Name", "Self", "CPU", "%", "Self", "CPU", "CPU", "total", "%", "CPU", "total",
                                "CPU", "time", "avg", "#", "of", "Calls"]
    assert lines[0] == lines[2] == lines[-2] and set(lines[0]) == {"-", " "}
    assert len(lines) == 3 + 4 + 2 and lines[-1].startswith("Self CPU time total: ")
    rows = [line.split() for line in lines[3:7]]
    selfs = [float(r[-6].rstrip("%")) for r in rows]  # (the Self CPU % column, counted from the right)
    assert selfs == sorted(selfs, reverse=True)  # sorted by self time, largest first


def test_the_library_is_left_as_it_was_even_after_an_error() -> None:
    before = (Function.__dict__["apply"], BackwardCFunction.__dict__["apply"], AccumulateGrad.__dict__["apply"],
              core_engine.learners_gradients)
    with pytest.raises(ZeroDivisionError), profile():
        tg.ones(2).exp()
        1 / 0  # noqa: B018
    assert before == (Function.__dict__["apply"], BackwardCFunction.__dict__["apply"],
                      AccumulateGrad.__dict__["apply"], core_engine.learners_gradients)
    with record_function("outside"):  # nothing to report to: nothing happens
        assert tg.ones(2).sum().item() == 2.0


def test_a_profile_inside_another_stays_empty_and_the_outer_one_records() -> None:
    with profile() as outer, profile() as inner:
        tg.ones(2).exp()
    assert inner.events() == [] and [e.name for e in outer.events()] == ["aten::exp"]
    with profile(enabled=False) as off:
        tg.ones(2).exp()
    assert off.events() == []


def test_chrome_trace_and_torch_profiler(tmp_path: Path) -> None:
    from tinygrad_edu.profiler import ProfilerActivity, supported_activities
    from tinygrad_edu.profiler import profile as new_profile

    model = tg.nn.Linear(4, 2)
    with new_profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        with record_function("model_inference"):
            model(tg.randn(3, 4))
        prof.step()
    names = [e.name for e in prof.events()]
    assert names == ["model_inference", "aten::t", "aten::addmm"] and supported_activities() == {ProfilerActivity.CPU}
    prof.export_chrome_trace(str(tmp_path / "trace.json"))
    trace = json.loads((tmp_path / "trace.json").read_text())["traceEvents"]
    assert [t["name"] for t in trace] == names and all(t["ph"] == "X" and t["dur"] >= 0 for t in trace)
