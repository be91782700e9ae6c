"""Benchmarks of tinygrad_edu against hand-written numpy, PyTorch and micrograd.

Run them with ``python -m benchmarks`` (``--quick`` for a smoke run); see ``benchmarks/README.md``.

BLAS libraries start one thread per core. For numbers that are stable and comparable (and that leave
the other core free), the benchmarks ask for a single thread, unless the caller set these variables
already. They only take effect when set before numpy is first imported, i.e. with ``python -m benchmarks``.
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
