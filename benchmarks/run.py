"""Run the benchmarks, print a table, and write it (markdown) to ``benchmarks/results.md``.

    python -m benchmarks            # full run, about two minutes; writes benchmarks/results.md
    python -m benchmarks --quick    # smoke run in seconds; prints only (unless --output is given)
    python -m benchmarks --cases ab # only cases a and b
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import os
import platform
import sys
from pathlib import Path

import numpy as np

from .common import Result, optional
from .jacobians import jacobian_table, run_jacobians
from .memory import measure_growth
from .million import run_million_chain
from .mlp import run_mlp
from .per_op import BARE, run_long_chain, run_per_op
from .redraw import redraw_table, run_redraw
from .second_order import run_second_order
from .traced import trace_program, traced_table

RESULTS = Path(__file__).resolve().parent / "results.md"

# The targets. Ratios are tinygrad_edu's time divided by the other's (lower is better), both the fastest of
# the repeats: on a shared machine the minimum is the least disturbed estimate of the cost.
PER_OP_VS_HIPS = 1.0  # per op on 3-element tensors: no slower than HIPS autograd, the other tracing engine on numpy
SECOND_VS_HIPS = 1.0  # grad of grad on (1000,): no slower than HIPS autograd
MLP_VS_TORCH = 1.0  # the MLP step: no slower than torch on one thread
CHAIN_VS_TORCH = 2.5  # the 100,000-op chain: within 2.5x torch
MILLION_VS_TORCH = 10.0  # the 1,000,000-op chain: within 10x torch (and it finishes)
# What a learner steps through on the traced program (benchmarks/traced.py): (lines, files) at most.
TRACED_LIMITS = {"backward": (150, 4), "forward": (120, 4)}


def _fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def _find(results: list[Result], case_prefix: str, library: str) -> Result | None:
    return next((r for r in results if r.case.startswith(case_prefix) and r.library == library), None)


def _ratio(results: list[Result], case_prefix: str, other: str) -> float | None:
    """tinygrad_edu's best time over ``other``'s, in the case starting with ``case_prefix``."""
    mine, theirs = _find(results, case_prefix, "tinygrad_edu"), _find(results, case_prefix, other)
    if mine is None or theirs is None:
        return None
    return mine.best / theirs.best


def timing_table(results: list[Result]) -> str:
    lines = ["| case | library | median | min | per op (min) | × numpy (min) | notes |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for r in results:
        floor = _find(results, r.case, "numpy (by hand)")
        per_op = _fmt_time(r.best / r.ops) if r.ops else ""
        vs_numpy = f"{r.best / floor.best:.2f}" if floor else ""
        name = f"**{r.library}**" if r.library == "tinygrad_edu" else r.library
        name += f" {r.note}" if r.note in ("jacfwd", "jacrev") else ""
        lines.append(f"| {r.case} | {name} | {_fmt_time(r.seconds)} | {_fmt_time(r.best)} | {per_op} | "
                     f"{vs_numpy} | {r.note} |")
    return "\n".join(lines)


def memory_table(growth: dict) -> str:
    rss = "n/a" if growth["rss"] is None else f"{growth['rss']:,} B"
    return "\n".join([
        "| d. small MLP (32x20 -> 32 -> 4, SGD), after warm-up | value |",
        "| --- | ---: |",
        f"| steps measured | {growth['steps']:,} |",
        f"| traced growth (tracemalloc: Python + numpy) | {growth['traced']:,} B |",
        f"| traced growth per step | {growth['traced'] / growth['steps']:.3f} B |",
        f"| RSS growth | {rss} |",
        f"| cyclic garbage per step (objects only the GC frees) | {growth['cyclic_per_step']:g} |",
    ])


def _verdict(value: float | None, limit: float) -> tuple[str, str]:
    if value is None:
        return "not measured", ""
    return f"{value:.2f}×", "yes" if value <= limit else "**no**"


def _target(results: list[Result], case: str, other: str, limit: float, text: str) -> str | None:
    if not _find(results, case, "tinygrad_edu"):
        return None
    value, met = _verdict(_ratio(results, case, other), limit)
    return f"| {text} (tinygrad_edu / {other} ≤ {limit}) | {value} | {met} |"


def _reference(results: list[Result], case: str, other: str, text: str) -> str | None:
    ratio = _ratio(results, case, other)
    return None if ratio is None else f"| (for reference) {text}, tinygrad_edu / {other} | {ratio:.2f}× | |"


def targets_table(results: list[Result], growth: dict | None, traced: list | None = None) -> str:
    rows = [
        _target(results, "a.", "HIPS autograd", PER_OP_VS_HIPS, "per op on 3-element tensors no slower than HIPS"),
        _reference(results, "a.", "torch", "per op"),
        _reference(results, "a.", "MyGrad", "per op"),
        _reference(results, "a.", "micrograd", "per op (3 scalars)"),
        _reference(results, "a.", BARE, "per op"),
        _target(results, "f.", "HIPS autograd", SECOND_VS_HIPS, "second derivatives no slower than HIPS autograd"),
        _reference(results, "f.", "torch", "second derivatives"),
        _target(results, "b.", "torch", MLP_VS_TORCH, "MLP step no slower than torch (one thread)"),
        _reference(results, "b.", "numpy (by hand)", "MLP step"),
        _reference(results, "b.", "HIPS autograd", "MLP step"),
        _reference(results, "b.", "MyGrad", "MLP step"),
        _reference(results, "b2.", "torch", "tiny MLP step (the libraries' own work, no BLAS to speak of)"),
        _target(results, "c.", "torch", CHAIN_VS_TORCH, "long chain within 2.5× torch"),
        _reference(results, "c.", "HIPS autograd", "long chain"),
        _target(results, "i.", "torch", MILLION_VS_TORCH, "1,000,000-op chain within 10× torch"),
    ]
    lines = ["| target | measured | met |", "| --- | ---: | :---: |", *(r for r in rows if r is not None)]
    chain = _find(results, "c.", "tinygrad_edu")
    if chain:
        ok = "yes" if chain.note == "gradients finite" else "**no**"
        lines.append(f"| long chain runs, gradients finite | {_fmt_time(chain.seconds)} | {ok} |")
    if growth is not None:
        # A leak of even one small object per step adds 16+ bytes per step; a few bytes in total that do not grow
        # with the number of steps are Python's bookkeeping (which objects happen to be alive at the snapshot).
        per_step = growth["traced"] / growth["steps"]
        met = "yes" if per_step < 1 and growth["cyclic_per_step"] == 0 else "**no**"
        lines.append(f"| zero memory growth per step after warm-up | {per_step:.2f} B/step "
                     f"({growth['traced']:,} B in all) | {met} |")
    for t in traced or ():
        if t.what in TRACED_LIMITS:
            most_lines, most_files = TRACED_LIMITS[t.what]
            met = "yes" if len(t.lines) <= most_lines and len(t.files) <= most_files else "**no**"
            lines.append(f"| traced {t.what}: at most {most_lines} library lines in {most_files} files | "
                         f"{len(t.lines)} lines, {len(t.files)} files | {met} |")
    return "\n".join(lines)


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution) if optional(distribution) else None
    except importlib.metadata.PackageNotFoundError:
        return "installed"


def environment() -> str:
    torch, micrograd, mygrad = optional("torch"), optional("micrograd"), optional("mygrad")
    hips = _version("autograd")
    versions = [f"Python {platform.python_version()}", f"numpy {np.__version__}",
                f"torch {torch.__version__}" if torch else "torch not installed",
                f"HIPS autograd {hips}" if hips else "HIPS autograd not installed",
                f"MyGrad {mygrad.__version__}" if mygrad else "MyGrad not installed",
                "micrograd installed" if micrograd else "micrograd not installed"]
    return (f"{datetime.date.today().isoformat()}, {platform.machine()} {platform.system()}, {_cpu()}, "
            f"{os.cpu_count()} CPUs, one BLAS/torch thread; {', '.join(versions)}")


def _cpu() -> str:
    """The CPU's model name: which BLAS kernels run, and how fast torch's MKL is against numpy's OpenBLAS, depend
    on it (the same step has been 1.06x torch on one machine and 1.11x on another)."""
    try:
        with open("/proc/cpuinfo") as info:
            return next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), "CPU")
    except OSError:
        return platform.processor() or "CPU"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and few repeats: a smoke run")
    parser.add_argument("--cases", default="abcdefghi", help="which cases to run, e.g. 'ab' (default: abcdefghi)")
    parser.add_argument("--output", type=Path, default=None,
                        help=f"where to write the markdown (default: {RESULTS.name} for a full run, none for --quick)")
    args = parser.parse_args(argv)
    output = args.output if args.output is not None else (None if args.quick else RESULTS)

    results: list[Result] = []
    growth = None
    for case, run in [("a", run_per_op), ("b", run_mlp), ("c", run_long_chain), ("f", run_second_order),
                      ("h", run_jacobians), ("i", run_million_chain)]:
        if case in args.cases:
            print(f"running case {case} ...", file=sys.stderr, flush=True)
            results += run(args.quick)
    if "d" in args.cases:
        print("running case d ...", file=sys.stderr, flush=True)
        growth = measure_growth(50 if args.quick else 2000, warmup=10 if args.quick else 300)
    redraws = None
    if "e" in args.cases:
        print("running case e ...", file=sys.stderr, flush=True)
        redraws = run_redraw(args.quick)

    traced = trace_program() if "g" in args.cases else None

    sections = [f"Measured {environment()}{' (--quick: smoke-test sizes, not representative)' if args.quick else ''}."]
    if results:
        sections.append(timing_table(results))
    if any(r.case.startswith("h.") for r in results):
        sections.append(jacobian_table(results))
    if growth is not None:
        sections.append(memory_table(growth))
    if redraws is not None:
        sections.append(redraw_table(redraws))
    if traced is not None:
        sections.append(traced_table(traced))
    sections.append(targets_table(results, growth, traced))
    text = "\n\n".join(sections) + "\n"
    print(text, end="")
    if output is not None:
        output.write_text(text)
        print(f"written to {output}", file=sys.stderr)
    return 0
