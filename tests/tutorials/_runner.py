"""Run tutorial programs with the real torch or with tinygrad_edu standing in for it.

    python _runner.py torch|tinygrad_edu OUTDIR program.py ...

writes ``OUTDIR/<program>.stdout`` and ``.stderr`` and ``.rc`` for each program. With ``tinygrad_edu``, every loaded
tinygrad_edu module is registered under the ``torch`` name too, so ``import torch``, ``import torch.nn as nn``,
``from torch import nn, optim``, ``import torch.nn.functional as F`` and ``from torch.autograd import Function``
all find tinygrad_edu. The library is imported once (importing torch takes seconds); each program then runs as
``__main__`` in a forked child, so it starts from the library's fresh state and cannot affect the next one.
"""

import os
import runpy
import sys
import traceback
from pathlib import Path


def load(library: str) -> None:
    if library == "torch":
        import torch

        # One thread: a forked child must not inherit a thread pool the parent started (it would hang), and
        # sums then run in one fixed order on every machine.
        torch.set_num_threads(1)
        # PyTorch loads some parts on first use (an optimizer's first step takes seconds): do that once here,
        # not again in every forked child. Nothing of this reaches the programs, which start with fresh objects.
        x = torch.ones(2, requires_grad=True)
        torch.nn.functional.binary_cross_entropy_with_logits(x, torch.zeros(2)).backward()
        torch.optim.SGD([x], lr=0.1).step()
        repr(x)
    elif library == "tinygrad_edu":
        import tinygrad_edu

        for name, module in list(sys.modules.items()):
            if name == "tinygrad_edu" or name.startswith("tinygrad_edu."):
                sys.modules["torch" + name[len("tinygrad_edu"):]] = module
        assert sys.modules["torch"] is tinygrad_edu
    else:
        raise SystemExit(f"unknown library {library!r}: expected torch or tinygrad_edu")


def run_one(program: Path, outdir: Path) -> int:
    """Run ``program`` in this (child) process with stdout and stderr sent to files; its exit code."""
    stem = outdir / program.stem
    with open(f"{stem}.stdout", "w") as out, open(f"{stem}.stderr", "w") as err:
        sys.stdout, sys.stderr = out, err
        try:
            runpy.run_path(str(program), run_name="__main__")
        except SystemExit as e:
            return e.code if isinstance(e.code, int) else 1
        except BaseException:
            traceback.print_exc()
            return 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
    return 0


def main() -> None:
    library, outdir, programs = sys.argv[1], Path(sys.argv[2]), [Path(p) for p in sys.argv[3:]]
    if len(programs) == 1:  # one program: run it right here
        load(library)
        rc = run_one(programs[0], outdir)
        (outdir / f"{programs[0].stem}.rc").write_text(str(rc))
        return
    if not hasattr(os, "fork"):  # no fork (Windows): a fresh interpreter per program, slower but the same
        import subprocess

        for program in programs:
            rc = subprocess.run([sys.executable, __file__, library, str(outdir), str(program)]).returncode
            (outdir / f"{program.stem}.rc").write_text(str(rc))
        return
    load(library)
    for program in programs:
        pid = os.fork()
        if pid == 0:
            os._exit(run_one(program, outdir))
        _, status = os.waitpid(pid, 0)
        (outdir / f"{program.stem}.rc").write_text(str(os.waitstatus_to_exitcode(status)))


if __name__ == "__main__":
    main()
