"""tinygrad_edu.linalg's matrix functions (det, slogdet, inv, solve, svd, qr, cholesky, pinv, matrix_exp, lstsq ...)
and their torch.* and Tensor forms, against PyTorch 2.13: values, first derivatives, gradcheck and gradgradcheck
in float64, node names, the named tuples as printed, and the errors of misuse.

Each comparison runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``); the expected text is
spelled out next to each case, so the tests mean something without torch. Singular vectors (svd's U and Vh) are
LAPACK's choice of signs, which numpy's OpenBLAS and PyTorch's MKL make differently for wide matrices: they are
compared through quantities a sign flip leaves alone (|U|, U diag(S) Vh, U U^T).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg

RNG = np.random.default_rng(7)
A33 = RNG.standard_normal((3, 3))
B233 = RNG.standard_normal((2, 3, 3))
TALL = RNG.standard_normal((5, 3))
WIDE = RNG.standard_normal((3, 5))
RHS = RNG.standard_normal((3, 2))
VEC = RNG.standard_normal(3)
SPD = A33 @ A33.T + np.eye(3)
SPD_BATCH = B233 @ B233.transpose(0, 2, 1) + np.eye(3)


def _leaves(lib: ModuleType, arrays: list[np.ndarray], dtype: Any = None) -> list[Any]:
    return [lib.tensor(a, dtype=dtype or lib.float64, requires_grad=True) for a in arrays]


def _outputs(result: Any) -> tuple:
    return tuple(result) if isinstance(result, tuple) else (result,)


def _numbers(t: Any) -> np.ndarray:
    return np.array(t.detach().tolist(), dtype=np.float64)


def _run(lib: ModuleType, fn: Callable, arrays: list[np.ndarray], loss: Callable | None, dtype: Any = None) -> tuple:
    """Values, node names and input gradients of ``fn(lib, *leaves)`` under ``loss`` (default: sum of squares)."""
    leaves = _leaves(lib, arrays, dtype and getattr(lib, dtype))
    out = _outputs(fn(lib, *leaves))
    nodes = [o.grad_fn.name() if o.grad_fn is not None else None for o in out]
    (loss or (lambda outs: sum((o ** 2).sum() for o in outs if o.is_floating_point() and o.requires_grad)))(
        out).backward()
    return [_numbers(o) for o in out], [n and n.replace("torch::", "tinygrad_edu::") for n in nodes], \
        [None if x.grad is None else _numbers(x.grad) for x in leaves]


# name: (fn(lib, *inputs), inputs, PyTorch's node names of the outputs, loss or None)
CASES: dict[str, tuple[Callable, list[np.ndarray], list[str | None], Callable | None]] = {
    "linalg.det": (lambda lib, a: lib.linalg.det(a), [A33], ["LinalgDetBackward0"], None),
    "det, batched": (lambda lib, a: lib.det(a), [B233], ["LinalgDetBackward0"], None),
    "Tensor.det": (lambda lib, a: a.det(), [A33], ["LinalgDetBackward0"], None),
    "linalg.slogdet": (lambda lib, a: tuple(lib.linalg.slogdet(a)), [B233],
                       ["LinalgSlogdetBackward0", "LinalgSlogdetBackward0"], lambda o: o[1].sum()),
    "torch.slogdet": (lambda lib, a: tuple(lib.slogdet(a)), [A33], ["LinalgSlogdetBackward0"] * 2,
                      lambda o: (o[0] * o[1]).sum()),
    "logdet": (lambda lib, a: lib.logdet(a), [SPD_BATCH], ["WhereBackward0"], None),
    "Tensor.logdet": (lambda lib, a: a.logdet(), [SPD], ["WhereBackward0"], None),
    "linalg.inv": (lambda lib, a: lib.linalg.inv(a), [B233], ["LinalgInvExBackward0"], None),
    "inverse": (lambda lib, a: lib.inverse(a), [A33], ["LinalgInvExBackward0"], None),
    "Tensor.inverse": (lambda lib, a: a.inverse(), [A33], ["LinalgInvExBackward0"], None),
    "inv_ex": (lambda lib, a: tuple(lib.linalg.inv_ex(a)), [A33], ["LinalgInvExBackward0", None], None),
    "solve": (lambda lib, a, b: lib.linalg.solve(a, b), [A33, RHS], ["LinalgSolveExBackward0"], None),
    "solve, a vector": (lambda lib, a, b: lib.linalg.solve(a, b), [A33, VEC], ["LinalgSolveExBackward0"], None),
    "solve, a vector for a batch": (lambda lib, a, b: lib.linalg.solve(a, b), [B233, VEC],
                                    ["LinalgSolveExBackward0"], None),
    "solve, vectors for a batch": (lambda lib, a, b: lib.linalg.solve(a, b), [B233, B233[:, 0]],
                                   ["LinalgSolveExBackward0"], None),
    "solve, broadcast": (lambda lib, a, b: lib.linalg.solve(a, b), [B233, RNG.standard_normal((4, 1, 3, 2))],
                         ["LinalgSolveExBackward0"], None),
    "solve, left=False": (lambda lib, a, b: lib.linalg.solve(a, b, left=False), [A33, RHS.T],
                          ["LinalgSolveExBackward0"], None),
    "solve_ex": (lambda lib, a, b: tuple(lib.linalg.solve_ex(a, b)), [A33, RHS], ["LinalgSolveExBackward0", None],
                 None),
    "solve_triangular": (lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=True), [A33 + 3 * np.eye(3), RHS],
                         ["LinalgSolveTriangularBackward0"], None),
    "solve_triangular, lower, right, unit": (
        lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=False, left=False, unitriangular=True),
        [A33, RHS.T], ["LinalgSolveTriangularBackward0"], None),
    "svdvals": (lambda lib, a: lib.linalg.svdvals(a), [TALL], ["LinalgSvdBackward0"], None),
    "svd's S": (lambda lib, a: lib.linalg.svd(a).S, [B233], ["LinalgSvdBackward0"], None),
    "svd: U diag(S) Vh": (lambda lib, a: (lambda r: r.U @ r.S.diag_embed() @ r.Vh)(
        lib.linalg.svd(a, full_matrices=False)), [WIDE], ["MmBackward0"], lambda o: (o[0] ** 3).sum()),
    "svd: |U|, |Vh|, tall": (lambda lib, a: (lambda r: (r.U.abs(), r.Vh.abs()))(lib.linalg.svd(a, full_matrices=False)),
                            [TALL], ["AbsBackward0", "AbsBackward0"], None),
    "svd: U U^T and Vh^T S Vh, wide": (lambda lib, a: (lambda r: (r.U @ r.U.mT, r.Vh.mT @ (r.Vh * r.S.unsqueeze(-1))))(
        lib.linalg.svd(a, full_matrices=False)), [WIDE], ["MmBackward0", "MmBackward0"],
        lambda o: (o[1] * o[1].new_tensor(np.arange(25.0).reshape(5, 5))).sum() + (o[0] ** 2).sum()),
    "torch.svd: V, not Vh": (lambda lib, a: (lambda r: (r.S, r.V.abs(), r.U.abs()))(lib.svd(a)), [A33],
                             ["LinalgSvdBackward0", "AbsBackward0", "AbsBackward0"], None),
    "Tensor.svd, some=False": (lambda lib, a: (lambda r: r.S)(a.svd(some=False)), [TALL], ["LinalgSvdBackward0"],
                               None),
    "pinv": (lambda lib, a: lib.linalg.pinv(a), [TALL], ["LinalgPinvBackward0"], None),
    "pinv, wide": (lambda lib, a: lib.linalg.pinv(a), [WIDE], ["LinalgPinvBackward0"], None),
    "pinverse": (lambda lib, a: lib.pinverse(a), [A33], ["LinalgPinvBackward0"], None),
    "Tensor.pinverse": (lambda lib, a: a.pinverse(), [A33], ["LinalgPinvBackward0"], None),
    "qr": (lambda lib, a: tuple(lib.linalg.qr(a)), [TALL], ["LinalgQrBackward0"] * 2, None),
    "qr, wide": (lambda lib, a: tuple(lib.linalg.qr(a)), [WIDE], ["LinalgQrBackward0"] * 2, None),
    "qr, batched": (lambda lib, a: tuple(lib.linalg.qr(a)), [B233], ["LinalgQrBackward0"] * 2, None),
    "qr, complete": (lambda lib, a: tuple(lib.linalg.qr(a, mode="complete")), [A33], ["LinalgQrBackward0"] * 2,
                     None),
    "cholesky": (lambda lib, a: lib.linalg.cholesky(a), [SPD_BATCH], ["LinalgCholeskyExBackward0"], None),
    "cholesky, upper": (lambda lib, a: lib.linalg.cholesky(a, upper=True), [SPD], ["LinalgCholeskyExBackward0"],
                        None),
    "cholesky_ex": (lambda lib, a: tuple(lib.linalg.cholesky_ex(a)), [SPD], ["LinalgCholeskyExBackward0", None],
                    None),
    "matrix_power 5": (lambda lib, a: lib.linalg.matrix_power(a, 5), [A33], ["MmBackward0"], None),
    "matrix_power -3": (lambda lib, a: lib.matrix_power(a, -3), [A33], ["MmBackward0"], None),
    "matrix_power -1": (lambda lib, a: a.matrix_power(-1), [A33], ["LinalgInvExBackward0"], None),
    "matrix_power 1": (lambda lib, a: lib.linalg.matrix_power(a, 1), [A33], ["CloneBackward0"], None),
    "matrix_power 0": (lambda lib, a: lib.linalg.matrix_power(a, 0), [A33], ["tinygrad_edu::autograd::CopyBackwards"],
                       None),
    "matrix_power, batched": (lambda lib, a: lib.linalg.matrix_power(a, 3), [B233], ["UnsafeViewBackward0"], None),
    "matrix_exp": (lambda lib, a: lib.linalg.matrix_exp(a), [B233], ["LinalgMatrixExpBackward0"], None),
    "matrix_exp, scaled and squared": (lambda lib, a: lib.matrix_exp(a), [8 * A33], ["LinalgMatrixExpBackward0"],
                                       lambda o: (o[0] / 1e4).sum()),
    "Tensor.matrix_exp": (lambda lib, a: a.matrix_exp(), [A33], ["LinalgMatrixExpBackward0"], None),
    "matrix_norm nuc": (lambda lib, a: lib.linalg.matrix_norm(a, "nuc"), [B233], ["SumBackward1"], None),
    "matrix_norm 2": (lambda lib, a: lib.linalg.matrix_norm(a, 2), [TALL], ["AmaxBackward0"], None),
    "matrix_norm -2, keepdim": (lambda lib, a: lib.linalg.matrix_norm(a, -2, dim=(0, 2), keepdim=True), [B233],
                                ["PermuteBackward0"], None),
    "norm(A, 2)": (lambda lib, a: lib.linalg.norm(a, 2), [A33], ["AmaxBackward0"], None),
    "norm(A, 'nuc')": (lambda lib, a: lib.linalg.norm(a, "nuc"), [WIDE], ["SumBackward1"], None),
    "cond": (lambda lib, a: lib.linalg.cond(a), [B233], ["SqueezeBackward1"], None),
    "cond -2": (lambda lib, a: lib.linalg.cond(a, -2), [TALL], ["SqueezeBackward1"], None),
    "multi_dot": (lambda lib, a, b, c: lib.linalg.multi_dot([a, b, c]), [TALL, A33, WIDE], ["ViewBackward0"], None),
    "multi_dot, vectors at the ends": (lambda lib, a, b, c: lib.linalg.multi_dot([a, b, c]), [VEC, A33, VEC],
                                       ["ViewBackward0"], None),
    "multi_dot, four": (lambda lib, a, b, c, d: lib.linalg.multi_dot([a, b, c, d]), [TALL, A33, WIDE, TALL],
                        ["ViewBackward0"], None),
    "vecdot": (lambda lib, a, b: lib.linalg.vecdot(a, b), [A33, B233], ["SumBackward1"], None),
    "diagonal": (lambda lib, a: lib.linalg.diagonal(a, offset=1), [B233], ["DiagonalBackward0"], None),
    "matmul": (lambda lib, a, b: lib.linalg.matmul(a, b), [A33, RHS], ["MmBackward0"], None),
    "vander": (lambda lib, a: lib.linalg.vander(a), [VEC], ["CatBackward0"], None),
    "vander, N": (lambda lib, a: lib.linalg.vander(a, N=5), [A33], ["CatBackward0"], None),
    "lstsq": (lambda lib, a, b: lib.linalg.lstsq(a, b).solution, [TALL, RNG.standard_normal((5, 2))],
              ["LinalgLstsqBackward0"], None),
    "lstsq, a vector": (lambda lib, a, b: lib.linalg.lstsq(a, b).solution, [TALL, RNG.standard_normal(5)],
                        ["LinalgLstsqBackward0"], None),
    "lstsq, gelsd's residuals": (lambda lib, a, b: tuple(lib.linalg.lstsq(a, b, driver="gelsd"))[:2],
                                 [TALL, RNG.standard_normal((5, 2))], ["LinalgLstsqBackward0"] * 2, None),
}


@pytest.mark.parametrize("name", CASES)
def test_values_nodes_and_gradients_as_pytorch(name: str) -> None:
    fn, arrays, nodes, loss = CASES[name]
    values, our_nodes, grads = _run(tg, fn, arrays, loss)
    assert our_nodes == nodes
    assert all(g is not None for g in grads)
    torch = oracle()
    if torch is None:
        return
    their_values, their_nodes, their_grads = _run(torch, fn, arrays, loss)
    assert our_nodes == their_nodes
    for ours, theirs in zip(values, their_values):
        if theirs.size:
            np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-10)
    for ours, theirs in zip(grads, their_grads):
        np.testing.assert_allclose(ours, theirs, rtol=1e-8, atol=1e-9)


@pytest.mark.parametrize("name", ["linalg.det", "linalg.inv", "solve", "svdvals", "qr", "cholesky", "matrix_exp",
                                  "pinv", "lstsq", "logdet"])
def test_float32_values_and_gradients_near_pytorch(name: str) -> None:
    fn, arrays, nodes, loss = CASES[name]
    values, our_nodes, grads = _run(tg, fn, arrays, loss, dtype="float32")
    assert our_nodes == nodes
    torch = oracle()
    if torch is not None:
        their_values, _, their_grads = _run(torch, fn, arrays, loss, dtype="float32")
        for ours, theirs in zip(values + grads, their_values + their_grads):
            np.testing.assert_allclose(ours, theirs, rtol=1e-3, atol=1e-3)


def _random(*shape: int) -> Any:
    return tg.randn(*shape, dtype=tg.float64, requires_grad=True)


def _spd(x: Any) -> Any:
    return x @ x.mT + tg.eye(x.shape[-1], dtype=tg.float64)


# Functions of the inputs whose first and second derivatives are checked against finite differences. svd and qr
# are checked through what does not depend on LAPACK's choice of signs.
GRADCHECKS: dict[str, tuple[Callable, Callable[[], list]]] = {
    "det": (lambda a: tg.linalg.det(a), lambda: [_random(2, 3, 3)]),
    "slogdet": (lambda a: tg.linalg.slogdet(a).logabsdet, lambda: [_random(3, 3)]),
    "logdet": (lambda a: tg.logdet(_spd(a)), lambda: [_random(3, 3)]),
    "inv": (lambda a: tg.linalg.inv(a), lambda: [_random(2, 3, 3)]),
    "solve": (lambda a, b: tg.linalg.solve(a, b), lambda: [_random(3, 3), _random(2, 3, 2)]),
    "solve, a vector": (lambda a, b: tg.linalg.solve(a, b), lambda: [_random(2, 3, 3), _random(3)]),
    "solve, left=False": (lambda a, b: tg.linalg.solve(a, b, left=False), lambda: [_random(3, 3), _random(2, 3)]),
    "solve_triangular": (lambda a, b: tg.linalg.solve_triangular(a + 3 * tg.eye(3, dtype=tg.float64), b,
                                                                 upper=True), lambda: [_random(3, 3), _random(3, 2)]),
    "svdvals": (lambda a: tg.linalg.svdvals(a), lambda: [_random(4, 3)]),
    "svd: U diag(S) Vh": (lambda a: (lambda r: r.U @ r.S.diag_embed() @ r.Vh)(tg.linalg.svd(a, full_matrices=False)),
                          lambda: [_random(3, 4)]),
    "svd: |U|, |Vh|": (lambda a: (lambda r: (r.U[:, :3].abs(), r.Vh.abs()))(tg.linalg.svd(a)), lambda: [_random(4, 3)]),
    "svd: V S U^T": (lambda a: (lambda r: (r.Vh.mT * r.S) @ r.U.mT)(tg.linalg.svd(a, full_matrices=False)),
                     lambda: [_random(4, 3)]),
    "pinv": (lambda a: tg.linalg.pinv(a), lambda: [_random(4, 3)]),
    "pinv, wide": (lambda a: tg.linalg.pinv(a), lambda: [_random(3, 4)]),
    "qr": (lambda a: tuple(tg.linalg.qr(a)), lambda: [_random(4, 3)]),
    "qr, wide": (lambda a: tuple(tg.linalg.qr(a)), lambda: [_random(3, 4)]),
    "cholesky": (lambda a: tg.linalg.cholesky(_spd(a)), lambda: [_random(3, 3)]),
    "cholesky, upper": (lambda a: tg.linalg.cholesky(_spd(a), upper=True), lambda: [_random(2, 3, 3)]),
    "matrix_power": (lambda a: tg.linalg.matrix_power(a, 3), lambda: [_random(3, 3)]),
    "matrix_power, negative": (lambda a: tg.linalg.matrix_power(a, -2), lambda: [_random(3, 3)]),
    "matrix_exp": (lambda a: tg.linalg.matrix_exp(a), lambda: [_random(2, 2, 2)]),
    "matrix_norm nuc": (lambda a: tg.linalg.matrix_norm(a, "nuc"), lambda: [_random(4, 3)]),
    "cond": (lambda a: tg.linalg.cond(a), lambda: [_random(3, 3)]),
    "multi_dot": (lambda a, b, c: tg.linalg.multi_dot([a, b, c]), lambda: [_random(2, 3), _random(3, 4),
                                                                             _random(4, 2)]),
    "vecdot": (lambda a, b: tg.linalg.vecdot(a, b), lambda: [_random(2, 3), _random(3)]),
    "vander": (lambda a: tg.linalg.vander(a), lambda: [_random(3)]),
    "lstsq": (lambda a, b: tg.linalg.lstsq(a, b).solution, lambda: [_random(5, 3), _random(5, 2)]),
    "lstsq's residuals": (lambda a, b: tg.linalg.lstsq(a, b, driver="gelsd").residuals,
                          lambda: [_random(5, 3), _random(5, 2)]),
}


@pytest.mark.parametrize("name", GRADCHECKS)
def test_gradcheck_and_gradgradcheck(name: str) -> None:
    fn, inputs = GRADCHECKS[name]
    tg.manual_seed(0)
    args = inputs()
    assert tg.autograd.gradcheck(fn, args)
    assert tg.autograd.gradgradcheck(fn, args)


# -- printing: the named tuples -----------------------------------------------------------------------------------
def _matrix(lib: ModuleType, requires_grad: bool = True) -> Any:
    return lib.tensor([[3.0, 1.0], [1.0, 2.0]], requires_grad=requires_grad)


PRINTED = {
    "linalg.slogdet": (lambda lib: lib.linalg.slogdet(_matrix(lib)),
                       "tinygrad_edu.return_types.linalg_slogdet(\nsign=tensor(1., grad_fn=<LinalgSlogdetBackward0>),\n"
                       "logabsdet=tensor(1.6094, grad_fn=<LinalgSlogdetBackward0>))"),
    "torch.slogdet": (lambda lib: lib.slogdet(_matrix(lib, False)),
                      "tinygrad_edu.return_types.slogdet(\nsign=tensor(1.),\nlogabsdet=tensor(1.6094))"),
    "Tensor.slogdet": (lambda lib: type(_matrix(lib).slogdet()).__name__, "'slogdet'"),
    "det, logdet": (lambda lib: (lib.linalg.det(_matrix(lib)), _matrix(lib).logdet()),
                    "(tensor(5., grad_fn=<LinalgDetBackward0>), tensor(1.6094, grad_fn=<WhereBackward0>))"),
    "logdet of a negative determinant": (lambda lib: lib.logdet(lib.tensor([[0.0, 1.0], [1.0, 0.0]])), "tensor(nan)"),
    "svd": (lambda lib: lib.linalg.svd(_matrix(lib, False)),
            "tinygrad_edu.return_types.linalg_svd(\nU=tensor([[-0.8507, -0.5257],\n        [-0.5257,  0.8507]]),\n"
            "S=tensor([3.6180, 1.3820]),\nVh=tensor([[-0.8507, -0.5257],\n        [-0.5257,  0.8507]]))"),
    "torch.svd": (lambda lib: lib.svd(lib.tensor([[2.0, 0.0], [0.0, 1.0]], requires_grad=True)),
                  "tinygrad_edu.return_types.svd(\nU=tensor([[1., 0.],\n        [0., 1.]], "
                  "grad_fn=<LinalgSvdBackward0>),\nS=tensor([2., 1.], grad_fn=<LinalgSvdBackward0>),\n"
                  "V=tensor([[1., 0.],\n        [0., 1.]], grad_fn=<TransposeBackward0>))"),
    "torch.svd without U and V": (lambda lib: lib.svd(lib.tensor([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0]]),
                                                   compute_uv=False),
                                  "tinygrad_edu.return_types.svd(\nU=tensor([[0., 0.],\n        [0., 0.]]),\n"
                                  "S=tensor([2.0000, 1.4142]),\nV=tensor([[0., 0., 0.],\n        [0., 0., 0.],\n"
                                  "        [0., 0., 0.]]))"),
    "qr": (lambda lib: lib.linalg.qr(_matrix(lib, False)),
           "tinygrad_edu.return_types.linalg_qr(\nQ=tensor([[-0.9487, -0.3162],\n        [-0.3162,  0.9487]]),\n"
           "R=tensor([[-3.1623, -1.5811],\n        [ 0.0000,  1.5811]]))"),
    "qr, mode='r'": (lambda lib: lib.linalg.qr(_matrix(lib, False), mode="r"),
                     "tinygrad_edu.return_types.linalg_qr(\nQ=tensor([]),\nR=tensor([[-3.1623, -1.5811],\n"
                     "        [ 0.0000,  1.5811]]))"),
    "inv_ex": (lambda lib: lib.linalg.inv_ex(_matrix(lib)),
               "tinygrad_edu.return_types.linalg_inv_ex(\ninverse=tensor([[ 0.4000, -0.2000],\n        [-0.2000,  "
               "0.6000]], grad_fn=<LinalgInvExBackward0>),\ninfo=tensor(0, dtype=tinygrad_edu.int32))"),
    "cholesky_ex": (lambda lib: lib.linalg.cholesky_ex(_matrix(lib, False)),
                    "tinygrad_edu.return_types.linalg_cholesky_ex(\nL=tensor([[1.7321, 0.0000],\n        [0.5774, "
                    "1.2910]]),\ninfo=tensor(0, dtype=tinygrad_edu.int32))"),
    "cholesky_ex, not positive-definite": (
        lambda lib: lib.linalg.cholesky_ex(lib.tensor([[1.0, 2.0], [2.0, 1.0]])),
        "tinygrad_edu.return_types.linalg_cholesky_ex(\nL=tensor([[ 1.,  0.],\n        [ 2., -3.]]),\n"
        "info=tensor(2, dtype=tinygrad_edu.int32))"),
    "solve_ex": (lambda lib: lib.linalg.solve_ex(_matrix(lib, False), lib.tensor([1.0, 2.0])),
                 "tinygrad_edu.return_types.linalg_solve_ex(\nresult=tensor([0., 1.]),\ninfo=tensor(0, "
                 "dtype=tinygrad_edu.int32))"),
    "lstsq": (lambda lib: (lambda r: (type(r).__name__, r.solution.round(decimals=4), *r[1:]))(lib.linalg.lstsq(
        lib.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), lib.tensor([[1.0], [2.0], [3.0]]))),
              "('linalg_lstsq', tensor([[1.],\n        [2.]]), tensor([]), tensor(2), tensor([]))"),
    "lstsq, gelsd": (lambda lib: lib.linalg.lstsq(lib.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
                                                  lib.tensor([[1.0], [2.0], [4.0]]), driver="gelsd"),
                     "tinygrad_edu.return_types.linalg_lstsq(\nsolution=tensor([[1.3333],\n        [2.3333]]),\n"
                     "residuals=tensor([0.3333]),\nrank=tensor(2),\nsingular_values=tensor([1.7321, 1.0000]))"),
    "matrix_rank": (lambda lib: (lib.linalg.matrix_rank(lib.tensor([[1.0, 2.0], [2.0, 4.0]])),
                                 lib.linalg.matrix_rank(lib.ones(2, 3), atol=1.0, rtol=0.0),
                                 lib.linalg.matrix_rank(lib.eye(3), hermitian=True)),
                    "(tensor(1), tensor(1), tensor(3))"),
    "matrix_power of integers": (lambda lib: lib.linalg.matrix_power(lib.tensor([[1, 2], [3, 4]]), 2),
                                 "tensor([[ 7, 10],\n        [15, 22]])"),
    "cond, other norms": (lambda lib: [round(lib.linalg.cond(_matrix(lib, False), p).item(), 4)
                                       for p in ("fro", "nuc", 1, -1, lib.inf)], "[3.0, 5.0, 3.2, 1.8, 3.2]"),
    "pinv's tolerances": (lambda lib: (lib.linalg.pinv(lib.ones(2, 2), rcond=0.1),
                                       lib.linalg.pinv(lib.tensor([[1.0, 0.0], [0.0, 1e-3]]), atol=1e-2)),
                          "(tensor([[0.2500, 0.2500],\n        [0.2500, 0.2500]]), tensor([[1., 0.],\n        "
                          "[0., 0.]]))"),
    "an empty batch": (lambda lib: (lib.linalg.inv(lib.zeros(2, 0, 0)).shape, lib.linalg.det(lib.zeros(0, 0))),
                       "(tinygrad_edu.Size([2, 0, 0]), tensor(1.))"),
}


@pytest.mark.parametrize("name", PRINTED)
def test_printed_as_pytorch_prints(name: str) -> None:
    fn, text = PRINTED[name]
    as_pytorch(fn, (None, text, []))


def test_the_deprecated_forms_warn_as_pytorch_warns() -> None:
    def run(lib: ModuleType) -> str:
        lib.set_warn_always(True)
        try:
            q, r = lib.qr(_matrix(lib, False))
            return f"{lib.cholesky(_matrix(lib)).grad_fn.name()} {(q @ r).round(decimals=4).tolist()}"
        finally:
            lib.set_warn_always(False)

    kind, text, warned = as_pytorch(run)
    assert (kind, text) == (None, "'CholeskyBackward0 [[3.0, 1.0], [1.0, 2.0]]'")
    assert warned[0].startswith("UserWarning: tinygrad_edu.qr is deprecated in favor of tinygrad_edu.linalg.qr")
    assert warned[1].startswith("UserWarning: tinygrad_edu.cholesky is deprecated in favor of "
                                "tinygrad_edu.linalg.cholesky")


# -- errors: PyTorch's types and messages --------------------------------------------------------------------------
SINGULAR = [[1.0, 2.0], [2.0, 4.0]]
NOT_PD = [[1.0, 2.0], [2.0, 1.0]]
LINALG_ERROR = "_LinAlgError"  # (torch.linalg.LinAlgError's class name: torch._C._LinAlgError)

ERRORS = [
    (lambda lib: lib.linalg.inv(lib.tensor(SINGULAR)), LINALG_ERROR,
     "linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the input matrix is "
     "singular."),
    (lambda lib: lib.inverse(lib.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]])), LINALG_ERROR,
     "linalg.inv: The diagonal element 3 is zero, the inversion could not be completed because the input matrix is "
     "singular."),
    (lambda lib: lib.linalg.inv(lib.zeros(2, 2)), LINALG_ERROR,
     "linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because the input matrix is "
     "singular."),
    (lambda lib: lib.linalg.inv(lib.stack([lib.eye(2), lib.tensor(SINGULAR)])), LINALG_ERROR,
     "linalg.inv: (Batch element 1): The diagonal element 2 is zero, the inversion could not be completed because the "
     "input matrix is singular."),
    (lambda lib: lib.linalg.matrix_power(lib.tensor(SINGULAR), -1), LINALG_ERROR,
     "linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the input matrix is "
     "singular."),
    (lambda lib: lib.linalg.inv(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "linalg.inv: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.inv(lib.ones(2, 3)), "RuntimeError",
     "linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda lib: lib.linalg.inv(lib.ones(3)), "RuntimeError",
     "linalg.inv: The input tensor A must have at least 2 dimensions."),
    (lambda lib: lib.linalg.det(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "linalg.det: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.det(lib.ones(2, 3)), "RuntimeError",
     "linalg.det: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda lib: lib.linalg.slogdet(lib.ones(3)), "RuntimeError",
     "linalg.slogdet: The input tensor A must have at least 2 dimensions."),
    (lambda lib: lib.logdet(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "logdet: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.logdet(lib.ones(2, 3)), "RuntimeError",
     "logdet: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda lib: lib.linalg.solve(lib.tensor(SINGULAR), lib.ones(2)), LINALG_ERROR,
     "tinygrad_edu.linalg.solve: The solver failed because the input matrix is singular."),
    (lambda lib: lib.linalg.solve(lib.stack([lib.eye(2), lib.ones(2, 2)]), lib.ones(2)), LINALG_ERROR,
     "tinygrad_edu.linalg.solve: (Batch element 1): The solver failed because the input matrix is singular."),
    (lambda lib: lib.linalg.solve(lib.tensor([[1, 2], [3, 4]]), lib.ones(2)), "RuntimeError",
     "linalg.solve: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(2, dtype=lib.float64)), "RuntimeError",
     "linalg.solve: Expected A and B to have the same dtype, but found A of type Float and B of type Double instead"),
    (lambda lib: lib.linalg.solve(lib.ones(2, 3), lib.ones(2)), "RuntimeError",
     "linalg.solve: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(3)), "RuntimeError",
     "linalg.solve: Incompatible shapes of A and B for the equation AX = B (2x2 and 3x1)"),
    (lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(3, 2)), "RuntimeError",
     "linalg.solve: Incompatible shapes of A and B for the equation AX = B (2x2 and 3x2)"),
    (lambda lib: lib.linalg.solve(lib.eye(2).expand(3, 4, 2, 2), lib.ones(4, 2)), "RuntimeError",
     "linalg.solve: Incompatible shapes of A and B for the equation AX = B (2x2 and 4x2)"),
    (lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(3), left=False), "RuntimeError",
     "linalg.solve: Incompatible shapes of A and B for the equation XA = B (3x3 and 3x1)"),
    (lambda lib: lib.linalg.solve(lib.eye(2), lib.tensor(1.0)), "RuntimeError",
     "linalg.solve: The input tensor B must have at least 2 dimensions."),
    (lambda lib: lib.linalg.solve(lib.eye(2).expand(4, 2, 2), lib.ones(3, 2, 2)), "RuntimeError",
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0"),
    (lambda lib: lib.linalg.solve_triangular(lib.eye(2), lib.ones(2), upper=True), "RuntimeError",
     "linalg.solve_triangular: The input tensor B must have at least 2 dimensions."),
    (lambda lib: lib.linalg.solve_triangular(lib.eye(2), lib.ones(3, 2), upper=True), "RuntimeError",
     "linalg.solve_triangular: Incompatible shapes of A and B for the equation AX = B (2x2 and 3x2)"),
    (lambda lib: lib.linalg.cholesky(lib.tensor(NOT_PD)), LINALG_ERROR,
     "linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the "
     "leading minor of order 2 is not positive-definite)."),
    (lambda lib: lib.linalg.cholesky(lib.stack([lib.eye(2), lib.tensor(NOT_PD)])), LINALG_ERROR,
     "linalg.cholesky: (Batch element 1): The factorization could not be completed because the input is not "
     "positive-definite (the leading minor of order 2 is not positive-definite)."),
    (lambda lib: lib.linalg.cholesky(lib.tensor([[-1.0, 0.0], [0.0, 1.0]])), LINALG_ERROR,
     "linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the "
     "leading minor of order 1 is not positive-definite)."),
    (lambda lib: lib.linalg.cholesky(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "linalg.cholesky: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.cholesky(lib.ones(2, 3)), "RuntimeError",
     "linalg.cholesky: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda lib: lib.linalg.svd(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "linalg.svd: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.svdvals(lib.ones(3)), "RuntimeError",
     "linalg.svd: The input tensor A must have at least 2 dimensions."),
    (lambda lib: lib.svd(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "linalg.svd: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.qr(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "linalg.qr: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.qr(lib.ones(3)), "RuntimeError",
     "linalg.qr: The input tensor A must have at least 2 dimensions."),
    (lambda lib: lib.linalg.qr(lib.ones(3, 3), mode="full"), "RuntimeError",
     "qr received unrecognized mode 'full' but expected one of 'reduced' (default), 'r', or 'complete'"),
    (lambda lib: lib.linalg.qr(lib.randn(3, 3, requires_grad=True), mode="r").R.sum().backward(), "RuntimeError",
     "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use linalg.qr(A, "
     "mode='reduced') if you are going to differentiate through linalg.qr."),
    (lambda lib: lib.linalg.qr(lib.randn(3, 2, requires_grad=True), mode="complete").Q.sum().backward(),
     "RuntimeError", "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."),
    (lambda lib: lib.linalg.pinv(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "linalg.pinv(Long{[2, 2]}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble "
     "types"),
    (lambda lib: lib.linalg.pinv(lib.ones(3)), "RuntimeError",
     "linalg.pinv(Float{[3]}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types"),
    (lambda lib: lib.linalg.matrix_power(lib.ones(2, 3), 2), "RuntimeError",
     "linalg.matrix_power: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda lib: lib.linalg.matrix_power(lib.tensor([[1, 2], [3, 4]]), -1), "RuntimeError",
     "linalg.inv: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.matrix_exp(lib.ones(2, 3)), "RuntimeError",
     "linalg.matrix_exp: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda lib: lib.matrix_exp(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "linalg.matrix_exp: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.matrix_norm(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.matrix_rank(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "This function doesn't handle types other than float and double"),
    (lambda lib: lib.linalg.matrix_rank(lib.ones(3)), "RuntimeError",
     "tinygrad_edu.linalg.matrix_rank: The input tensor input must have at least 2 dimensions."),
    (lambda lib: lib.linalg.cond(lib.ones(3)), "RuntimeError",
     "linalg.cond: The input tensor must have at least 2 dimensions."),
    (lambda lib: lib.linalg.cond(lib.ones(2, 3), 1), "RuntimeError",
     "linalg.cond(ord=1): A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda lib: lib.linalg.cond(lib.tensor([[1, 2], [3, 4]])), "RuntimeError",
     "linalg.svd: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.multi_dot([lib.eye(2)]), "RuntimeError",
     "multi_dot(): expected at least 2 tensors but got 1"),
    (lambda lib: lib.linalg.multi_dot([lib.eye(2), lib.ones(3, 3)]), "RuntimeError",
     "multi_dot(): tensors 0 and 1 with shapes [2, 2] and [3, 3] cannot be multiplied"),
    (lambda lib: lib.linalg.multi_dot([lib.eye(2), lib.ones(2, 2, 2)]), "RuntimeError",
     "multi_dot(): the last tensor must be 1D or 2D but got 3D"),
    (lambda lib: lib.linalg.multi_dot([lib.ones(2, 2, dtype=lib.float64), lib.ones(2, 2)]), "RuntimeError",
     "multi_dot(): all tensors must have be the same dtype but tensor 0 is double and tensor 1 float"),
    (lambda lib: lib.linalg.vecdot(lib.tensor([1, 2]), lib.tensor([1, 2])), "RuntimeError",
     "linalg.vecdot: Expected a floating point or complex tensor as input. Got Long"),
    (lambda lib: lib.linalg.vander(lib.ones(3), N=1), "RuntimeError", "N must be greater than 1."),
    (lambda lib: lib.linalg.lstsq(lib.tensor([[1, 2], [3, 4]]), lib.tensor([1, 2])), "RuntimeError",
     "This function doesn't handle types other than float and double"),
    (lambda lib: lib.linalg.lstsq(lib.eye(2), lib.ones(3, 1)), "RuntimeError",
     "tinygrad_edu.linalg.lstsq: input.size(-2) should match other.size(-2)"),
    (lambda lib: lib.linalg.lstsq(lib.eye(2), lib.ones(2, 1), driver="foo"), "RuntimeError",
     "tinygrad_edu.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"),
    (lambda lib: lib.linalg.eigvals(lib.ones(2, 3)), "RuntimeError",
     "linalg.eigvals: A must be batches of square matrices, but they are 2 by 3 matrices"),
]


@pytest.mark.parametrize(("call", "kind", "message"), ERRORS)
def test_misuse_raises_pytorchs_errors(call: Callable, kind: str, message: str) -> None:
    as_pytorch(call, (kind, message, []))


def test_linalg_error_is_a_runtime_error_as_in_pytorch() -> None:
    assert issubclass(tg.linalg.LinAlgError, RuntimeError)
    assert tg.linalg.LinAlgError is tg._C._LinAlgError
    with pytest.raises(tg.linalg.LinAlgError, match="singular"):
        tg.linalg.inv(tg.zeros(3, 3))
    torch = oracle()
    if torch is not None:
        assert issubclass(torch.linalg.LinAlgError, RuntimeError)
        assert torch.linalg.LinAlgError.__name__ == tg.linalg.LinAlgError.__name__


def test_eig_and_eigvals_are_refused_there_is_no_complex_dtype() -> None:
    for fn in (tg.linalg.eig, tg.linalg.eigvals):
        with pytest.raises(NotImplementedError, match="complex tensors .* tinygrad_edu has no complex dtype"):
            fn(tg.eye(2))
    torch = oracle()
    if torch is not None:  # (what PyTorch gives, and this library cannot hold)
        assert torch.linalg.eigvals(torch.eye(2)).dtype == torch.complex64


def test_singular_inputs_with_the_ex_forms() -> None:
    """inv_ex and solve_ex report a singular matrix in ``info`` instead of raising (the inverse is then nan here;
    PyTorch's holds what LAPACK left, infs and nans); check_errors=True raises."""
    r = tg.linalg.inv_ex(tg.stack([tg.eye(2), tg.tensor(SINGULAR)]))
    assert r.info.tolist() == [0, 2] and r.inverse[0].tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert bool(r.inverse[1].isnan().all())
    assert tg.linalg.solve_ex(tg.tensor(SINGULAR), tg.ones(2)).info.tolist() == 2
    with pytest.raises(tg.linalg.LinAlgError):
        tg.linalg.inv_ex(tg.tensor(SINGULAR), check_errors=True)
    as_pytorch(lambda lib: lib.linalg.inv_ex(lib.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]])).info,
               (None, "tensor(3, dtype=tinygrad_edu.int32)", []))


def test_the_gradient_of_det_at_a_singular_matrix_is_its_adjugate() -> None:
    """d det(A)/dA is the transposed adjugate, defined everywhere (det is a polynomial). PyTorch 2.13 returns zeros
    where det is exactly 0 (its issue #104675); near it, both agree."""
    a = tg.tensor(SINGULAR, dtype=tg.float64, requires_grad=True)
    tg.linalg.det(a).backward()
    assert np.allclose(a.grad.tolist(), [[4.0, -2.0], [-2.0, 1.0]], atol=1e-14)
    near = tg.tensor([[1.0, 2.0], [2.0, 4.000001]], dtype=tg.float64, requires_grad=True)
    tg.linalg.det(near).backward()
    assert np.allclose(near.grad.tolist(), [[4.000001, -2.0], [-2.0, 1.0]])
    assert tg.autograd.gradcheck(tg.linalg.det, (tg.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=tg.float64,
                                                           requires_grad=True),))


def test_matrix_exp_of_known_matrices() -> None:
    """exp of a rotation generator is the rotation; of a nilpotent matrix, the finite series; of a diagonal, the
    exponentials of its entries."""
    t = 0.7
    r = tg.linalg.matrix_exp(tg.tensor([[0.0, -t], [t, 0.0]], dtype=tg.float64))
    assert np.allclose(r.tolist(), [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]], atol=1e-15)
    n = tg.linalg.matrix_exp(tg.tensor([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0], [0.0, 0.0, 0.0]], dtype=tg.float64))
    assert np.allclose(n.tolist(), [[1.0, 1.0, 3.5], [0.0, 1.0, 3.0], [0.0, 0.0, 1.0]], atol=1e-15)
    d = tg.linalg.matrix_exp(tg.tensor([[20.0, 0.0], [0.0, -3.0]], dtype=tg.float64))
    assert np.allclose(d.tolist(), [[math.exp(20), 0.0], [0.0, math.exp(-3)]], rtol=1e-13)


def test_singular_vector_signs_are_lapacks_and_the_decomposition_is_the_same() -> None:
    """numpy's OpenBLAS and PyTorch's MKL choose the same signs for square matrices, and may choose others for wide
    ones: U diag(S) Vh is A either way, and |U|, S agree."""
    torch = oracle()
    ours = tg.linalg.svd(tg.tensor(WIDE), full_matrices=False)
    assert np.allclose((ours.U @ ours.S.diag_embed() @ ours.Vh).tolist(), WIDE, atol=1e-12)
    if torch is not None:
        theirs = torch.linalg.svd(torch.tensor(WIDE), full_matrices=False)
        assert np.allclose(np.abs(ours.U.tolist()), theirs.U.abs().numpy(), atol=1e-12)
        assert np.allclose(ours.S.tolist(), theirs.S.numpy(), atol=1e-12)
        square_ours, square_theirs = tg.linalg.svd(tg.tensor(A33)), torch.linalg.svd(torch.tensor(A33))
        assert np.allclose(square_ours.U.tolist(), square_theirs.U.numpy(), atol=1e-12)


NON_FINITE = {
    "svdvals": lambda lib, a: lib.linalg.svdvals(a),
    "svd": lambda lib, a: lib.linalg.svd(a),
    "torch.svd": lambda lib, a: lib.svd(a),
    "pinv": lambda lib, a: lib.linalg.pinv(a),
    "nuclear norm": lambda lib, a: lib.linalg.matrix_norm(a, "nuc"),
    "matrix_rank": lambda lib, a: lib.linalg.matrix_rank(a),
}


@pytest.mark.parametrize("name", NON_FINITE)
def test_an_svd_of_non_finite_entries_is_refused_as_pytorch_refuses_it(name: str) -> None:
    fn = NON_FINITE[name]
    raises(lambda lib: fn(lib, lib.tensor([[1.0, float("nan")], [3.0, 4.0]])), tg.linalg.LinAlgError,
           "linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.")


def test_cond_ends_on_pytorchs_nodes_and_is_inf_for_a_singular_matrix() -> None:
    def nodes(lib: ModuleType) -> Any:
        a = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64, requires_grad=True)
        return [type(lib.linalg.cond(a, p).grad_fn).__name__ for p in ("fro", "nuc", 1, math.inf, -1)]

    as_pytorch(nodes, (None, "['NanToNumBackward0', 'MulBackward0', 'NanToNumBackward0', 'NanToNumBackward0', "
                             "'NanToNumBackward0']", []))
    singular = tg.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=tg.float64)
    # (PyTorch's nuclear-norm value here is whatever LAPACK's inverse of an exactly singular matrix held: 2.5e16)
    assert [tg.linalg.cond(singular, p).item() for p in ("fro", "nuc", 1)] == [math.inf] * 3
    batch = tg.stack([singular, tg.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=tg.float64)])
    assert tg.linalg.cond(batch, "nuc").tolist() == [math.inf, pytest.approx(17.0)]
