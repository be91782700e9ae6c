"""``tinygrad_edu.linalg``: the norms learners reach for, ``torch.linalg.vector_norm`` and ``torch.linalg.norm``.

Built from the public Tensor operations, with PyTorch's names, defaults, node names and errors::

    vector_norm(x)                  sqrt(sum x^2), the length        (ord=2, over all elements)
    vector_norm(x, 1)               sum |x|
    vector_norm(x, inf) / (-inf)    max |x| / min |x|
    vector_norm(x, 0)               the number of non-zero elements
    vector_norm(x, p)               (sum |x|^p)^(1/p)
    norm(v)                         vector_norm(v), for any shape (flattened) when ord is not given
    norm(A, "fro" / inf / 1 ...)    matrix norms of a 2-D A (or over two dims)

The derivative of ``||x||_p`` is ``x |x|^(p-2) / ||x||^(p-1)``: for p = 2 the unit vector x / ||x||, for
p = 1 sign(x); for inf the gradient goes to the largest |x| (shared by ties), for 0 there is none. Where the
norm is 0 the gradient is taken as 0, as PyTorch does. p = 1 and 2 are ``Tensor.norm``'s own node; the
other orders are the Function below, so every vector norm prints ``grad_fn=<LinalgVectorNormBackward0>``.

``eigh(A)`` and ``eigvalsh(A)``, a symmetric matrix's eigenvalues (ascending) and eigenvectors, come with their
gradient (below). ``cross(x, y, dim=-1)``, the cross product of 3-vectors, is here too (``tinygrad_edu.cross``
without ``dim`` warns that its default will become this one's).

The matrix functions, each batched over leading dimensions, each with its derivative (the formula in its class's
docstring, written with Tensor operations so that second derivatives work too) and PyTorch's node::

    det(A)  slogdet(A)                      LinalgDetBackward0, LinalgSlogdetBackward0 (logdet: WhereBackward0)
    inv(A)  inv_ex(A)                       LinalgInvExBackward0   (singular: LinAlgError, a RuntimeError)
    solve(A, B, left=True)  solve_ex        LinalgSolveExBackward0 (B a matrix, or a vector: PyTorch's rule)
    solve_triangular(A, B, upper=...)       LinalgSolveTriangularBackward0
    svd(A, full_matrices=True)  svdvals(A)  LinalgSvdBackward0     (torch.svd: V, not Vh)
    pinv(A)                                 LinalgPinvBackward0
    qr(A, mode='reduced')                   LinalgQrBackward0
    cholesky(A, upper=False)  cholesky_ex   LinalgCholeskyExBackward0 (torch.cholesky: CholeskyBackward0)
    matrix_exp(A)                           LinalgMatrixExpBackward0 (scaling and squaring, Padé [13/13])
    lstsq(A, B)                             LinalgLstsqBackward0
    matrix_power(A, n)  multi_dot  vecdot  vander  matrix_norm  cond  matrix_rank  diagonal  matmul
                                            made of the ops above and the Tensor's (their nodes are those ops')

The signs of singular vectors (``svd``'s U and Vh) are LAPACK's choice: numpy's OpenBLAS and PyTorch's MKL agree
for square matrices and most tall ones, and differ for wide ones (a column of U and the row of Vh with it both
negated: the same decomposition). Only S, and functions of U and Vh that such a flip leaves alone, are defined:
so are their gradients. ``qr``'s signs (Householder's) agree. ``eig`` and ``eigvals`` are refused: their results
are complex, and tinygrad_edu has no complex dtype.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _messages
from ._C import _LinAlgError
from ._checks import broadcast_shapes
from ._dtype import LEGACY_NAMES
from ._printing import return_type
from ._tensor import Tensor, _wrap
from .autograd.function import Function
from .core.function import broadcast_from
from .ops.linalg import cross as _cross
from .ops.linalg import matmul
from .ops.more import multi_dot  # (with chain_matmul's ordering: the cheapest)
from .ops.selection import where
from .ops.shape import cat

__all__ = ["LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals",
           "eigvalsh", "inv", "inv_ex", "lstsq", "matmul", "matrix_exp", "matrix_norm", "matrix_power", "matrix_rank",
           "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "solve_ex", "solve_triangular", "svd", "svdvals",
           "vander", "vecdot", "vector_norm"]


class _VectorNorm(Function):
    """The orders other than 1 and 2 (see the module docstring for the derivatives)."""

    node_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, ord: float, dim: tuple[int, ...], keepdim: bool) -> Tensor:
        a = x.abs()
        if math.isinf(ord):
            n = (a.amax if ord > 0 else a.amin)(dim, keepdim)
        elif ord == 0:
            n = (a != 0).to(x.dtype).sum(dim, keepdim)
        else:
            n = (a ** ord).sum(dim, keepdim) ** (1 / ord)
        ctx.save_for_backward(x, n)
        ctx.ord, ctx.dim, ctx.keepdim = ord, dim, keepdim
        return n

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, n = ctx.saved_tensors
        if ctx.ord == 0:
            return None, None, None, None  # a count: no gradient at all (x.grad stays None, as in PyTorch)
        if not ctx.keepdim:  # put the reduced dimensions back, to broadcast against x
            for d in sorted(d % x.dim() for d in ctx.dim):
                g, n = g.unsqueeze(d), n.unsqueeze(d)
        if math.isinf(ctx.ord):  # to the largest (smallest) |x|, shared by ties
            chosen = (x.abs() == n).to(x.dtype)
            return x.sign() * chosen * g / chosen.sum(ctx.dim, keepdim=True), None, None, None
        p = ctx.ord
        if p < 1:  # |x|^(p-1) is infinite at 0, where the gradient is taken as 0
            scaled = x.sign() * (x.abs() ** (p - 1)).masked_fill(x == 0, 0.0)
            return scaled * g * n ** (1 - p), None, None, None
        scaled = x.sign() * x.abs() ** (p - 1)
        return scaled * (g / n ** (p - 1)).masked_fill(n == 0, 0.0), None, None, None


def _dims(dim: int | tuple[int, ...] | list[int] | None, ndim: int) -> tuple[int, ...] | None:
    """``dim`` as a tuple (None for every dimension: dim=() too, as in PyTorch), each checked against ``ndim``."""
    if dim is None:
        return None
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    n = max(ndim, 1)
    for d in dims:
        if not -n <= d < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return dims or None


def _check_float(x: Tensor) -> None:
    if not x.is_floating_point():
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{LEGACY_NAMES[x.dtype].removesuffix('Tensor')}")


def vector_norm(x: Tensor, ord: float = 2, dim: int | tuple[int, ...] | list[int] | None = None,
                keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """The ``ord``-norm of ``x`` seen as a vector (over all its elements, or along ``dim``)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"linalg_vector_norm(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    if isinstance(ord, str) or not isinstance(ord, (int, float)):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {type(ord).__name__}")
    _check_float(x)
    if dtype is not None:
        if not dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: dtype should be floating point or complex, but got "
                               f"{LEGACY_NAMES[dtype].removesuffix('Tensor')}")
        x = x.to(dtype)
    dims = _dims(dim, x.dim()) or tuple(range(x.dim()))
    if math.isinf(ord) and x.numel() == 0:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {ord} norm on an empty tensor because the "
                           "operation does not have an identity")
    if ord in (1, 2):
        return x.norm(ord, dims, keepdim)
    return _VectorNorm.apply(x, float(ord), dims, keepdim)


def _matrix_norm(a: Tensor, ord: float | str, dim: tuple[int, int], keepdim: bool, dtype: Any) -> Tensor:
    if a.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if ord == "fro":
        return vector_norm(a, 2, dim, keepdim, dtype=dtype)
    if ord in ("nuc", 2, -2):
        return _singular_value_norm(a, ord, dim, keepdim, dtype)
    if isinstance(ord, str) or ord not in (1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord if isinstance(ord, str) else f'{ord:g}'} not supported.")
    rows, columns = (d % a.dim() for d in _dims(dim, a.dim()))
    first, then = (columns, rows) if math.isinf(ord) else (rows, columns)  # inf: the largest row sum; 1: column
    if not keepdim and first < then:
        then -= 1  # the first reduction removed a dimension before it
    sums = vector_norm(a, 1, first, keepdim, dtype=dtype)
    return sums.amax(then, keepdim) if ord > 0 else sums.amin(then, keepdim)


def norm(a: Tensor, ord: float | str | None = None, dim: int | tuple[int, ...] | list[int] | None = None,
         keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """A vector norm (``a`` 1-D, or ``dim`` an int, or no ``ord``) or a matrix norm (``a`` 2-D with an ``ord``,
    or ``dim`` two dimensions), as ``torch.linalg.norm`` chooses."""
    if isinstance(a, Tensor):
        _check_float(a)
    dims = (dim,) if isinstance(dim, int) else None if dim is None else tuple(dim)
    if dims is not None and len(dims) not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dims)}")
    if dims is None and ord is not None and a.dim() not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                           f"{a.dim()}D.")
    if dims is not None and len(dims) == 2 and dims[0] % max(a.dim(), 1) == dims[1] % max(a.dim(), 1):
        raise RuntimeError(f"dim {dims[0] % a.dim()} appears multiple times in the list of dims")
    if ord is None:
        return vector_norm(a, 2, dims, keepdim, dtype=dtype)
    if (dims is not None and len(dims) == 2) or (dims is None and a.dim() == 2) or isinstance(ord, str):
        return _matrix_norm(a, ord, dims or (-2, -1), keepdim, dtype)
    return vector_norm(a, ord, dims, keepdim, dtype=dtype)


def cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """``linalg.cross(x, y, dim=-1)``: the cross product of 3-vectors along ``dim`` (the last, by default)."""
    return _cross(input, other, dim)


linalg_eigh = return_type("linalg_eigh", "eigenvalues", "eigenvectors")


class _Eigh(Function):
    """A symmetric A = V diag(L) V^T, L ascending, V's columns orthonormal (only A's ``uplo`` triangle is read).

    Backward (PyTorch's, for symmetric matrices): with gL and gV the gradients of L and V,
    gA = V (diag(gL) + S / E) V^T, where S = (V^T gV - (V^T gV)^T) / 2 and E_ij = L_j - L_i off the diagonal.
    A change of A along an eigenvector's own direction moves its eigenvalue (the diagonal); the rest turns the
    eigenvectors into each other, the more the closer their eigenvalues are (the division by E). Written with
    Tensor operations on the saved outputs, so it is differentiable again (second derivatives)."""

    node_name = "LinalgEighBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor, uplo: str) -> tuple[Tensor, Tensor]:
        values, vectors = np.linalg.eigh(a._array, UPLO=uplo)
        L, V = _wrap(values), _wrap(vectors)  # noqa: N806  (the math's names)
        ctx.save_for_backward(L, V)
        ctx.set_materialize_grads(False)  # (an output not used is None: eigvalsh's gradient needs no division)
        return L, V

    @staticmethod
    def backward(ctx: Any, gL: Tensor | None, gV: Tensor | None) -> tuple:  # noqa: N803
        L, V = ctx.saved_tensors  # noqa: N806
        Vt = V.mT  # noqa: N806
        if gV is None:
            inner = gL.diag_embed() if gL is not None else V.new_zeros(V.shape)
        else:
            VtgV = Vt @ gV  # noqa: N806
            E = L.unsqueeze(-2) - L.unsqueeze(-1)  # noqa: N806
            eye = _wrap(np.eye(L.shape[-1], dtype=L._array.dtype))  # (E's diagonal is 0, and so is S's)
            inner = 0.5 * (VtgV - VtgV.mT) / (E + eye)
            if gL is not None:
                inner = inner + gL.diag_embed()
        return V @ inner @ Vt, None


def _check_square(a: Tensor, name: str) -> None:
    if a.dim() < 2 or a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are "
                           f"{a.shape[-2] if a.dim() > 1 else 1} by {a.shape[-1]} matrices")


def eigh(A: Tensor, UPLO: str = "L") -> linalg_eigh:  # noqa: N803  (PyTorch's names)
    """The eigenvalues (ascending) and eigenvectors (columns) of a symmetric matrix, or a batch of them."""
    _check_square(A, "eigh")
    return linalg_eigh(*_Eigh.apply(A, UPLO))


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:  # noqa: N803
    """The eigenvalues of a symmetric matrix, ascending (``eigh``'s first half, with its gradient)."""
    _check_square(A, "eigh")  # (PyTorch's message names eigh too)
    return _Eigh.apply(A, UPLO)[0]


# == the matrix functions ==========================================================================================
# Each factorisation is a Function whose forward asks numpy's LAPACK and whose backward is written with Tensor
# operations (so it can be differentiated again: gradgradcheck passes). Shapes: A is (..., n, n) or (..., m, n), a
# batch of matrices over the leading dimensions.

LinAlgError = _LinAlgError


def _name(x: Tensor) -> str:
    return LEGACY_NAMES[x.dtype].removesuffix("Tensor")


def _check_matrix(a: Tensor, name: str, square: bool = True, floating: bool = True) -> None:
    """PyTorch's checks, in its order: at least 2-D, square (batches of), floating point. ``name`` is the prefix
    of its messages ("linalg.inv", "logdet" ...)."""
    if not isinstance(a, Tensor):
        raise TypeError(f"{name.removeprefix('linalg.')}(): argument 'A' (position 1) must be Tensor, not "
                        f"{type(a).__name__}")
    if a.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if square and a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {a.shape[-2]} by "
                           f"{a.shape[-1]} matrices")
    if floating and not a.is_floating_point():
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {_name(a)}")


def _eye(n: int, like: Tensor) -> Tensor:
    return _wrap(np.eye(n, dtype=like._array.dtype))


def _batch_prefix(batch: tuple[int, ...], index: int) -> str:
    """PyTorch's "(Batch element i): " before a message about one matrix of a batch (nothing for one matrix)."""
    return f"(Batch element {index}): " if batch else ""


def _lu_info(a: np.ndarray) -> np.ndarray:
    """LAPACK's getrf ``info`` for each matrix: 0, or the (1-based) place of the first zero pivot of its LU
    factorisation with partial pivoting (the matrix is singular). Only asked once numpy refused a matrix."""
    n = a.shape[-1]
    flat = a.reshape(-1, n, n)
    info = np.zeros(len(flat), np.int32)
    for b, m in enumerate(flat):
        lu = np.array(m, copy=True)
        for k in range(n):
            p = k + int(np.abs(lu[k:, k]).argmax())
            lu[[k, p]] = lu[[p, k]]
            pivot = lu[k, k]
            if pivot == 0:
                info[b] = info[b] or k + 1
                continue
            lu[k + 1:, k] *= 1 / pivot  # (as LAPACK scales the column)
            lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
        if not info[b] and not np.isfinite(lu).all():
            info[b] = n
    return info.reshape(a.shape[:-2])


def _inverse_arrays(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A's inverse and LAPACK's info (0, or the place of the zero pivot): numpy's inverse for every matrix that
    has one; nan for a singular one (PyTorch's holds whatever LAPACK left: inf and nan)."""
    try:
        return np.linalg.inv(a), np.zeros(a.shape[:-2], np.int32)
    except np.linalg.LinAlgError:
        info = _lu_info(a)
        if not info.any():  # (numpy refused where our LU found no zero pivot: the last pivot, then)
            info = np.where(np.abs(np.linalg.det(a)) == 0, a.shape[-1], 0).astype(np.int32)
    out = np.full(a.shape, np.nan, dtype=a.dtype)
    good = info == 0
    if good.any():
        out[good] = np.linalg.inv(a[good])
    return out, info


def _raise_singular(info: np.ndarray, batch: tuple[int, ...], message: str) -> None:
    """Raise LinAlgError for the first matrix whose ``info`` is not 0: ``message`` ("name: text") formatted with
    its info, the batch element named after the name."""
    flat = info.reshape(-1)
    bad = int(np.flatnonzero(flat)[0])
    name, text = message.split(": ", 1)
    raise LinAlgError(f"{name}: {_batch_prefix(batch, bad)}{text.format(int(flat[bad]))}")


# -- det, slogdet, logdet ------------------------------------------------------------------------------------------
class _Det(Function):
    """det(A), the product of the eigenvalues (of LU's pivots, times the permutation's sign).

    Backward: d det = det * tr(A^-1 dA), so gA = g det A^-T (the cofactor matrix, scaled). For a singular A
    (det = 0) that formula has no A^-1: with A = U diag(S) Vh, det = det(U) det(Vh) prod(S), and
    gA = U diag(g det(U) det(Vh) prod_{j != i} S_j) Vh, which holds for every A: the adjugate's transpose, as
    d det is. (PyTorch 2.13 gives a matrix of zeros where det is exactly 0, its known issue #104675: there the two
    libraries differ, and this one is right.)"""

    node_name = "LinalgDetBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Tensor:
        d = _wrap(np.asarray(np.linalg.det(a._array), dtype=a._array.dtype))
        ctx.save_for_backward(a, d)
        return d

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, d = ctx.saved_tensors
        scale = (g * d).unsqueeze(-1).unsqueeze(-1)
        singular = d._array == 0
        if not singular.any():
            return (scale * inv(a).mT,)
        n = a.shape[-1]
        eye = _eye(n, a)
        mask = _wrap(np.asarray(singular)[..., None, None])
        regular = scale * inv(where(mask, eye, a)).mT  # (a singular matrix replaced by I: no inverse asked of it)
        U, S, Vh = svd(a, full_matrices=False)  # noqa: N806
        others = (S.unsqueeze(-2) * (1 - eye) + eye).prod(-1)  # prod_{j != i} S_j
        alpha = (g * det(U) * det(Vh)).unsqueeze(-1)
        return (where(mask, U @ (alpha * others).diag_embed() @ Vh, regular),)


def det(A: Tensor) -> Tensor:  # noqa: N803
    """The determinant of a square matrix, or of each of a batch of them."""
    _check_matrix(A, "linalg.det")
    return _Det.apply(A)


linalg_slogdet = return_type("linalg_slogdet", "sign", "logabsdet")
slogdet_return = return_type("slogdet", "sign", "logabsdet")  # (torch.slogdet's)


class _Slogdet(Function):
    """det(A) = sign * exp(logabsdet), without the overflow of a product of many numbers.

    Backward: d log|det A| = tr(A^-1 dA), so gA = g_logabsdet A^-T. The sign (±1, or 0) is piecewise constant:
    no gradient flows from it."""

    node_name = "LinalgSlogdetBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> tuple[Tensor, Tensor]:
        sign, logabs = np.linalg.slogdet(a._array)
        dtype = a._array.dtype
        ctx.save_for_backward(a)
        ctx.set_materialize_grads(False)
        return _wrap(np.asarray(sign, dtype=dtype)), _wrap(np.asarray(logabs, dtype=dtype))

    @staticmethod
    def backward(ctx: Any, g_sign: Tensor | None, g_logabs: Tensor | None) -> tuple:
        (a,) = ctx.saved_tensors
        if g_logabs is None:
            return (None,)
        return (g_logabs.unsqueeze(-1).unsqueeze(-1) * inv(a).mT,)


def slogdet(A: Tensor) -> linalg_slogdet:  # noqa: N803
    """``(sign, logabsdet)`` with det(A) = sign * exp(logabsdet)."""
    _check_matrix(A, "linalg.slogdet")
    return linalg_slogdet(*_Slogdet.apply(A))


def _torch_slogdet(input: Tensor) -> slogdet_return:
    """``tinygrad_edu.slogdet``: linalg.slogdet, as the named pair ``torch.return_types.slogdet``."""
    _check_matrix(input, "linalg.slogdet")
    return slogdet_return(*_Slogdet.apply(input))


def logdet(input: Tensor) -> Tensor:
    """log(det A): nan where det < 0, -inf where det = 0 (slogdet's logabsdet, where the sign allows)."""
    _check_matrix(input, "logdet")
    sign, logabs = _Slogdet.apply(input)
    return where(sign == -1, math.nan, logabs)


# -- inv, inv_ex ---------------------------------------------------------------------------------------------------
linalg_inv_ex = return_type("linalg_inv_ex", "inverse", "info")


_SINGULAR_INV = ("linalg.inv: The diagonal element {} is zero, the inversion could not be completed because the "
                 "input matrix is singular.")


class _Inv(Function):
    """A^-1, with LAPACK's ``info`` (0, or the place of LU's zero pivot when A is singular).

    Backward: from A A^-1 = I, dA A^-1 + A d(A^-1) = 0, so d(A^-1) = -A^-1 dA A^-1 and gA = -A^-T g A^-T,
    written with the saved inverse (an output: a second derivative flows through it)."""

    node_name = "LinalgInvExBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor, check_errors: bool) -> tuple[Tensor, Tensor]:
        out, info = _inverse_arrays(a._array)
        if check_errors and info.any():
            _raise_singular(info, a.shape[:-2], _SINGULAR_INV)
        inverse, info_t = _wrap(out), _wrap(info)
        ctx.save_for_backward(inverse)
        ctx.mark_non_differentiable(info_t)
        ctx.set_materialize_grads(False)
        return inverse, info_t

    @staticmethod
    def backward(ctx: Any, g: Tensor | None, g_info: Tensor | None) -> tuple:
        (inverse,) = ctx.saved_tensors
        if g is None:
            return None, None
        t = inverse.mT
        return -(t @ g @ t), None


def inv(A: Tensor) -> Tensor:  # noqa: N803
    """The inverse of a square matrix (LinAlgError if it is singular)."""
    _check_matrix(A, "linalg.inv")
    return _Inv.apply(A, True)[0]


def inv_ex(A: Tensor, *, check_errors: bool = False) -> linalg_inv_ex:  # noqa: N803
    """``(inverse, info)``: the inverse without the error (info > 0 says which matrix was singular, and where)."""
    _check_matrix(A, "linalg.inv")
    return linalg_inv_ex(*_Inv.apply(A, check_errors))


def inverse(input: Tensor) -> Tensor:
    """``tinygrad_edu.inverse``: linalg.inv."""
    return inv(input)


# -- solve, solve_ex, solve_triangular -----------------------------------------------------------------------------
linalg_solve_ex = return_type("linalg_solve_ex", "result", "info")


def _is_vector_rhs(a: Tensor, b: Tensor) -> bool:
    """PyTorch's rule: B is a vector (or a batch of them) if it is 1-D, or has A's shape without its last dim."""
    return b.dim() == 1 or (b.dim() == a.dim() - 1 and tuple(b.shape) == tuple(a.shape[:-1]))


def _as_matrix_rhs(a: Tensor, b: Tensor, left: bool, name: str) -> tuple[np.ndarray, np.ndarray, bool]:
    """A and B as numpy arrays of matrices with a common batch shape (B a column, or a row if not ``left``, when
    it is a vector), after PyTorch's checks of their shapes."""
    vector = _is_vector_rhs(a, b)
    bb = b._array[..., :, None] if vector else b._array  # (a column, for X A = B too: PyTorch's)
    n, rows = a.shape[-1], bb.shape[-2] if left else bb.shape[-1]
    if rows != n:
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation {'AX = B' if left else 'XA = B'} "
                           f"({n}x{n} and {bb.shape[-2]}x{bb.shape[-1]})")
    batch = broadcast_shapes(bb.shape[:-2], a._array.shape[:-2])
    return (np.broadcast_to(a._array, batch + a._array.shape[-2:]), np.broadcast_to(bb, batch + bb.shape[-2:]),
            vector)


class _Solve(Function):
    """X with A X = B (``left``), or X A = B, without forming A^-1 (LU, then two triangular solves).

    Backward (left): X = A^-1 B, so dX = A^-1 dB - A^-1 dA X: gB = A^-T gX (one solve with A^T) and gA = -gB X^T.
    For X A = B: gB = gX A^-T (solve with A^T on the right) and gA = -X^T gB. A vector B is a column (for X A = B
    too, as PyTorch takes it); A and B broadcast over the batch dimensions, their gradients summed back."""

    node_name = "LinalgSolveExBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, left: bool, check_errors: bool) -> tuple[Tensor, Tensor]:
        A, B, vector = _as_matrix_rhs(a, b, left, "linalg.solve")  # noqa: N806
        info = np.zeros(A.shape[:-2], np.int32)
        try:
            x = np.linalg.solve(A, B) if left else np.swapaxes(np.linalg.solve(np.swapaxes(A, -1, -2),
                                                                               np.swapaxes(B, -1, -2)), -1, -2)
        except np.linalg.LinAlgError:
            info = np.maximum(_lu_info(A), 0)
            if check_errors or not info.any():
                first = int(np.flatnonzero(info.reshape(-1))[0]) if info.any() else 0
                raise LinAlgError("tinygrad_edu.linalg.solve: " + _batch_prefix(A.shape[:-2], first) +
                                  "The solver failed because the input matrix is singular.") from None
            x = np.full(np.broadcast_shapes(A.shape[:-2], B.shape[:-2]) + B.shape[-2:], np.nan, dtype=B.dtype)
        if vector:
            x = x[..., 0]
        result = _wrap(np.ascontiguousarray(x))
        ctx.save_for_backward(a, result)
        ctx.left, ctx.vector = left, vector
        broadcast_from(ctx, a, b)
        info_t = _wrap(info)
        ctx.mark_non_differentiable(info_t)
        ctx.set_materialize_grads(False)
        return result, info_t

    @staticmethod
    def backward(ctx: Any, g: Tensor | None, g_info: Tensor | None) -> tuple:
        a, x = ctx.saved_tensors
        if g is None:
            return None, None, None, None
        at = a.mT
        gb = solve(at, g, left=ctx.left)
        if ctx.vector:  # (back to matrices for the outer product)
            gb_m, x_m = gb.unsqueeze(-1), x.unsqueeze(-1)
        else:
            gb_m, x_m = gb, x
        ga = -(gb_m @ x_m.mT) if ctx.left else -(x_m.mT @ gb_m)
        return (ga if ctx.needs_input_grad[0] else None), (gb if ctx.needs_input_grad[1] else None), None, None


def _check_solve(A: Tensor, B: Tensor, name: str) -> None:  # noqa: N803
    _check_matrix(A, name)
    if B.dim() == 0:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    if A.dtype != B.dtype:
        raise RuntimeError(f"{name}: Expected A and B to have the same dtype, but found A of type {_name(A)} and B "
                           f"of type {_name(B)} instead")


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:  # noqa: N803
    """X with A X = B (or X A = B with ``left=False``): A square, B a matrix or a vector (batches of them)."""
    _check_solve(A, B, "linalg.solve")
    return _Solve.apply(A, B, left, True)[0]


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False) -> linalg_solve_ex:  # noqa: N803
    """``(result, info)``: solve without the error for a singular A (info > 0 for it)."""
    _check_solve(A, B, "linalg.solve")
    return linalg_solve_ex(*_Solve.apply(A, B, left, check_errors))


class _SolveTriangular(Function):
    """X with A X = B (or X A = B), A triangular: only its upper (``upper``) or lower triangle is read, and its
    diagonal taken as ones if ``unitriangular``.

    Backward: as solve's, with A's gradient kept to the triangle that was read (strictly, if unitriangular):
    gB = A^-T gX (left) or gX A^-T, gA = -gB X^T (left) or -X^T gB, then triu/tril of it."""

    node_name = "LinalgSolveTriangularBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, upper: bool, left: bool, unitriangular: bool) -> Tensor:
        t = np.triu(a._array) if upper else np.tril(a._array)
        if unitriangular:
            n = t.shape[-1]
            t = t.copy()
            t[..., range(n), range(n)] = 1
        batch = broadcast_shapes(b._array.shape[:-2], t.shape[:-2])
        T, B = np.broadcast_to(t, batch + t.shape[-2:]), np.broadcast_to(b._array, batch + b._array.shape[-2:])  # noqa: N806
        with np.errstate(all="ignore"):
            try:
                x = np.linalg.solve(T, B) if left else np.swapaxes(
                    np.linalg.solve(np.swapaxes(T, -1, -2), np.swapaxes(B, -1, -2)), -1, -2)
            except np.linalg.LinAlgError:  # (a zero on the diagonal: LAPACK's trsm divides by it)
                x = np.full(B.shape, np.nan, dtype=B.dtype)
        result = _wrap(np.ascontiguousarray(x))
        ctx.save_for_backward(a, result)
        ctx.upper, ctx.left, ctx.unitriangular = upper, left, unitriangular
        broadcast_from(ctx, a, b)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, x = ctx.saved_tensors
        gb = solve_triangular(a.mT, g, upper=not ctx.upper, left=ctx.left, unitriangular=ctx.unitriangular)
        ga = None
        if ctx.needs_input_grad[0]:
            ga = -(gb @ x.mT) if ctx.left else -(x.mT @ gb)
            offset = 1 if ctx.unitriangular else 0
            ga = ga.triu(offset) if ctx.upper else ga.tril(-offset)
        return ga, (gb if ctx.needs_input_grad[1] else None), None, None, None


def solve_triangular(A: Tensor, B: Tensor, *, upper: bool, left: bool = True,  # noqa: N803
                     unitriangular: bool = False) -> Tensor:
    """X with A X = B (X A = B if not ``left``), A upper or lower triangular (``upper`` must be given)."""
    _check_matrix(A, "linalg.solve_triangular", floating=False)
    if B.dim() < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 dimensions.")
    n, rows = A.shape[-1], B.shape[-2] if left else B.shape[-1]
    if rows != n:
        shown = tuple(B.shape[-2:]) if left else tuple(B.shape[-2:])[::-1]
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {shown[0]}x{shown[1]})")
    if not A.is_floating_point():
        raise NotImplementedError(f"\"triangular_solve_cpu\" not implemented for '{_name(A)}'")
    return _SolveTriangular.apply(A, B, upper, left, unitriangular)


# -- svd, svdvals, pinv --------------------------------------------------------------------------------------------
def _lapack_svd(a: np.ndarray, **options: Any) -> Any:
    """numpy's SVD (LAPACK's gesdd), with PyTorch's error where it cannot converge: on nan or inf entries."""
    if not np.isfinite(a).all():
        raise _LinAlgError("linalg.svd: The algorithm failed to converge because the input matrix contained "
                           "non-finite values.")
    return np.linalg.svd(a, **options)


linalg_svd = return_type("linalg_svd", "U", "S", "Vh")
svd_return = return_type("svd", "U", "S", "V")  # (torch.svd's: V, not Vh)


class _Svd(Function):
    """A = U diag(S) Vh: U's and Vh's rows orthonormal, S >= 0 descending (k = min(m, n) of them).

    Backward (PyTorch's svd_backward, real case), on the k first columns of U and rows of Vh: with
    E_ij = S_j^2 - S_i^2 (1 on the diagonal), skew(X) = X - X^T,
        inner = (skew(U^T gU) S_row + S_col skew(Vh gVh^T)) / E + diag(gS)
        gA = U inner Vh, plus (I - U U^T) gU S^-1 Vh when m > n, or U S^-1 gVh (I - Vh^T Vh) when m < n.
    Only S, or functions of U and Vh that do not change when a column of U and the row of Vh with it both
    change sign (the gauge), have a gradient that means something: the signs are LAPACK's choice. Equal
    singular values divide by 0 (E), as in PyTorch."""

    node_name = "LinalgSvdBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor, full_matrices: bool) -> tuple[Tensor, Tensor, Tensor]:
        u, s, vh = _lapack_svd(a._array, full_matrices=full_matrices)
        U, S, Vh = _wrap(u), _wrap(s), _wrap(vh)  # noqa: N806
        ctx.save_for_backward(U, S, Vh)
        ctx.set_materialize_grads(False)
        return U, S, Vh

    @staticmethod
    def backward(ctx: Any, gU: Tensor | None, gS: Tensor | None, gVh: Tensor | None) -> tuple:  # noqa: N803
        U, S, Vh = ctx.saved_tensors  # noqa: N806
        k = S.shape[-1]
        if U.shape[-1] != k:  # (full_matrices: the columns past k take no part)
            U = U[..., :k]  # noqa: N806
            gU = None if gU is None else gU[..., :k]  # noqa: N806
        if Vh.shape[-2] != k:
            Vh = Vh[..., :k, :]  # noqa: N806
            gVh = None if gVh is None else gVh[..., :k, :]  # noqa: N806
        return _svd_backward(gU, gS, gVh, U, S, Vh), None


def _svd_backward(gU: Tensor | None, gS: Tensor | None, gVh: Tensor | None, U: Tensor, S: Tensor,  # noqa: N803
                  Vh: Tensor) -> Tensor | None:  # noqa: N803
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:
        if gS is None:
            return None
        return U @ (gS.unsqueeze(-1) * Vh)
    S2 = S * S  # noqa: N806
    eye = _eye(S.shape[-1], S)
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye  # noqa: N806
    inner = 0
    if gU is not None:
        UtgU = U.mT @ gU  # noqa: N806
        inner = (UtgU - UtgU.mT) * S.unsqueeze(-2)
    if gVh is not None:
        VhgV = Vh @ gVh.mT  # noqa: N806
        inner = inner + S.unsqueeze(-1) * (VhgV - VhgV.mT)
    inner = inner / E
    if gS is not None:
        inner = inner + gS.diag_embed()
    if m > n and gU is not None:
        gUSinv = gU / S.unsqueeze(-2)  # noqa: N806
        return (U @ inner + gUSinv - U @ (U.mT @ gUSinv)) @ Vh
    if m < n and gVh is not None:
        SinvgVh = gVh / S.unsqueeze(-1)  # noqa: N806
        return U @ (inner @ Vh + SinvgVh - (SinvgVh @ Vh.mT) @ Vh)
    return U @ inner @ Vh


def svd(A: Tensor, full_matrices: bool = True, *, driver: str | None = None) -> linalg_svd:  # noqa: N803
    """The singular value decomposition A = U diag(S) Vh (U (m, m) and Vh (n, n) unless ``full_matrices=False``:
    then (m, k) and (k, n), k = min(m, n)). The signs of U's columns and Vh's rows are LAPACK's (numpy's)."""
    _check_matrix(A, "linalg.svd", square=False)
    return linalg_svd(*_Svd.apply(A, full_matrices))


def svdvals(A: Tensor, *, driver: str | None = None) -> Tensor:  # noqa: N803
    """The singular values, descending (the node is svd's: U and Vh are computed for the gradient)."""
    _check_matrix(A, "linalg.svd", square=False)
    if not A.requires_grad:
        return _wrap(_lapack_svd(A._array, compute_uv=False))
    return _Svd.apply(A, False)[1]


def _torch_svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> svd_return:
    """``tinygrad_edu.svd`` (the old form): V, not Vh (``V = Vh.mT``), reduced unless ``some=False``; without
    ``compute_uv``, U and V are zeros."""
    _check_matrix(input, "linalg.svd", square=False)
    if not compute_uv:
        m, n = input.shape[-2], input.shape[-1]
        batch = tuple(input.shape[:-2])
        return svd_return(input.new_zeros((*batch, m, m)), svdvals(input), input.new_zeros((*batch, n, n)))
    U, S, Vh = _Svd.apply(input, not some)  # noqa: N806
    return svd_return(U, S, Vh.mT)


class _Pinv(Function):
    """The Moore-Penrose pseudo-inverse: V diag(1/S) U^T over the singular values above the tolerance
    max(atol, rtol * S_max) (the others count as 0).

    Backward (PyTorch's pinv_backward, A^+ = pinv(A)): for m <= n, with K = g^T A^+,
        gA = -(A^+ K)^T + K A^+^T - A A^+ K A^+^T + A^+^T A^+ (g^T - K A),
    and the transposed form for m > n. It holds where the rank does not change."""

    node_name = "LinalgPinvBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor, atol: float | None, rtol: float | None, hermitian: bool) -> Tensor:
        x = a._array
        u, s, vh = _lapack_svd(x, full_matrices=False)
        m, n = x.shape[-2:]
        if rtol is None:
            rtol = 0.0 if atol is not None and atol > 0 else np.finfo(x.dtype).eps * max(m, n)
        smax = s[..., :1] if s.shape[-1] else np.zeros((*s.shape[:-1], 1), x.dtype)
        cutoff = np.maximum(atol or 0.0, rtol * smax)
        with np.errstate(divide="ignore"):
            sinv = np.where(s > cutoff, 1 / np.where(s > cutoff, s, 1), 0).astype(x.dtype)
        result = _wrap(np.ascontiguousarray(np.swapaxes(vh, -1, -2) @ (sinv[..., :, None] * np.swapaxes(u, -1, -2))))
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, p = ctx.saved_tensors
        return _pinv_backward(g, p, a), None, None, None


def _pinv_backward(g: Tensor, p: Tensor, a: Tensor) -> Tensor:
    m, n = a.shape[-2], a.shape[-1]
    ph, gh = p.mT, g.mT
    if m <= n:
        K = gh @ p  # noqa: N806
        KpH = K @ ph  # noqa: N806
        return -(p @ K).mT + KpH - (a @ p) @ KpH + (ph @ p) @ (gh - K @ a)
    K = p @ gh  # noqa: N806
    pHK = ph @ K  # noqa: N806
    return -(K @ p).mT + (gh - a @ K) @ p @ ph + pHK - pHK @ p @ a


def pinv(A: Tensor, rcond: float | None = None, hermitian: bool = False, *, atol: float | None = None,  # noqa: N803
         rtol: float | None = None) -> Tensor:
    """The pseudo-inverse (``rcond``: the old name of ``rtol``)."""
    if not isinstance(A, Tensor) or A.dim() < 2 or not A.is_floating_point():
        shape = list(A.shape) if isinstance(A, Tensor) else []
        raise RuntimeError(f"linalg.pinv({_name(A)}{{{shape}}}): expected a tensor with 2 or more dimensions of "
                           "float, double, cfloat or cdouble types")
    if rcond is not None:
        rtol = rcond
    return _Pinv.apply(A, atol, rtol, hermitian)


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """``tinygrad_edu.pinverse``: linalg.pinv with the relative tolerance ``rcond``."""
    return pinv(input, rtol=rcond)


# -- qr ------------------------------------------------------------------------------------------------------------
linalg_qr = return_type("linalg_qr", "Q", "R")
qr_return = return_type("qr", "Q", "R")  # (torch.qr's)


class _Qr(Function):
    """A = Q R, Q's columns orthonormal, R upper triangular (Householder reflections: LAPACK's geqrf, whose signs
    PyTorch's MKL and numpy's OpenBLAS agree on).

    Backward, for m >= n (Q (m, n), R (n, n)): with M = R gR^T - gQ^T Q and copyltu(M) the symmetric matrix
    with M's lower triangle, gA = (gQ + Q copyltu(M)) R^-T. For m < n, A = [X | Y] with X = Q U square and
    R = [U | V]: gY = Q gV, and gX is the square case's with gQ + Y gV^T in place of gQ and U for R."""

    node_name = "LinalgQrBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor, mode: str) -> tuple[Tensor, Tensor]:
        if mode == "r":
            r = np.linalg.qr(a._array, mode="r")
            Q, R = _wrap(np.zeros(0, a._array.dtype)), _wrap(np.ascontiguousarray(r))  # noqa: N806
        else:
            q, r = np.linalg.qr(a._array, mode=mode)
            Q, R = _wrap(np.ascontiguousarray(q)), _wrap(np.ascontiguousarray(r))  # noqa: N806
        ctx.save_for_backward(Q, R)
        ctx.mode = mode
        ctx.set_materialize_grads(False)
        return Q, R

    @staticmethod
    def backward(ctx: Any, gQ: Tensor | None, gR: Tensor | None) -> tuple:  # noqa: N803
        if ctx.mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                               "Please use linalg.qr(A, mode='reduced') if you are going to differentiate through "
                               "linalg.qr.")
        Q, R = ctx.saved_tensors  # noqa: N806
        m, n = Q.shape[-2], R.shape[-1]
        if ctx.mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
        if gQ is None and gR is None:
            return None, None
        if m >= n:
            return _qr_backward_square(gQ, gR, Q, R), None
        U, V = R[..., :, :m], R[..., :, m:]  # noqa: N806
        Y = Q @ V  # (A's last n - m columns)  # noqa: N806
        gX_Q = gQ  # noqa: N806
        if gR is not None:
            gV = gR[..., :, m:]  # noqa: N806
            gX_Q = Y @ gV.mT if gX_Q is None else gX_Q + Y @ gV.mT  # noqa: N806
        gX = _qr_backward_square(gX_Q, None if gR is None else gR[..., :, :m], Q, U)  # noqa: N806
        gY = Q @ gR[..., :, m:] if gR is not None else Q.new_zeros((*tuple(Q.shape[:-1]), n - m))  # noqa: N806
        return cat([gX, gY], -1), None


def _qr_backward_square(gQ: Tensor | None, gR: Tensor | None, Q: Tensor, R: Tensor) -> Tensor:  # noqa: N803
    M = 0  # noqa: N806
    if gR is not None:
        M = R @ gR.mT  # noqa: N806
    if gQ is not None:
        M = M - gQ.mT @ Q  # noqa: N806
    copyltu = M.tril() + M.tril(-1).mT
    b = Q @ copyltu if gQ is None else gQ + Q @ copyltu
    return solve_triangular(R.mT, b, upper=False, left=False)  # b R^-T


_QR_MODES = ("reduced", "complete", "r")


def qr(A: Tensor, mode: str = "reduced") -> linalg_qr:  # noqa: N803
    """A = Q R. ``mode``: 'reduced' (Q (m, k), R (k, n)), 'complete' (Q (m, m)), 'r' (R only, Q empty)."""
    _check_matrix(A, "linalg.qr", square=False)
    if mode not in _QR_MODES:
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or "
                           "'complete'")
    return linalg_qr(*_Qr.apply(A, mode))


def _torch_qr(input: Tensor, some: bool = True) -> qr_return:
    """``tinygrad_edu.qr`` (deprecated in PyTorch, with its warning): linalg.qr, 'reduced' if ``some``."""
    _messages.warn_once("torch.qr", "tinygrad_edu.qr is deprecated in favor of tinygrad_edu.linalg.qr and will be "
                        "removed in a future PyTorch release.\nThe boolean parameter 'some' has been replaced with a "
                        "string parameter 'mode'.\nQ, R = tinygrad_edu.qr(A, some)\nshould be replaced with\nQ, R = "
                        "tinygrad_edu.linalg.qr(A, 'reduced' if some else 'complete')")
    _check_matrix(input, "linalg.qr", square=False)
    return qr_return(*_Qr.apply(input, "reduced" if some else "complete"))


# -- cholesky ------------------------------------------------------------------------------------------------------
linalg_cholesky_ex = return_type("linalg_cholesky_ex", "L", "info")


def _cholesky_arrays(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lower factor and LAPACK's potrf info (0, or the order of the first leading minor that is not positive-
    definite: there the factor stops, as LAPACK's unblocked potf2 leaves it)."""
    try:
        return np.linalg.cholesky(a), np.zeros(a.shape[:-2], np.int32)
    except np.linalg.LinAlgError:
        pass
    n = a.shape[-1]
    flat = a.reshape(-1, n, n)
    out, info = np.tril(flat).copy(), np.zeros(len(flat), np.int32)
    for b in range(len(flat)):
        m = out[b]
        for j in range(n):
            d = m[j, j] - m[j, :j] @ m[j, :j]
            if not d > 0:  # (nan too)
                m[j, j], info[b] = d, j + 1
                break
            m[j, j] = math.sqrt(d)
            m[j + 1:, j] = (m[j + 1:, j] - m[j + 1:, :j] @ m[j, :j]) / m[j, j]
    return out.reshape(a.shape), info.reshape(a.shape[:-2])


class _Cholesky(Function):
    """A = L L^T for a symmetric positive-definite A (only its lower triangle is read), L lower triangular with a
    positive diagonal; ``upper``: U = L^T, A = U^T U.

    Backward (Murray 2016, as PyTorch): with Phi(X) the lower triangle of X with its diagonal halved,
    gA = L^-T sym(Phi(L^T gL)) L^-1, sym(X) = (X + X^T)/2 (two triangular solves): a symmetric gradient."""

    node_name = "LinalgCholeskyExBackward0"
    _prefix = "linalg.cholesky"

    @staticmethod
    def forward(ctx: Any, a: Tensor, upper: bool, check_errors: bool) -> Any:
        low, info = _cholesky_arrays(a._array)
        if check_errors and info.any():
            _raise_singular(info, a.shape[:-2], ctx._forward_cls._prefix + ": The factorization could not be "
                            "completed because the input is not positive-definite (the leading minor of order {} "
                            "is not positive-definite).")
        L = _wrap(np.ascontiguousarray(np.swapaxes(low, -1, -2) if upper else low))  # noqa: N806
        ctx.save_for_backward(L)
        ctx.upper = upper
        ctx.set_materialize_grads(False)
        if ctx._forward_cls is not _Cholesky:  # (torch.cholesky's node: one output)
            return L
        info_t = _wrap(info)
        ctx.mark_non_differentiable(info_t)
        return L, info_t

    @staticmethod
    def backward(ctx: Any, gL: Tensor | None, g_info: Tensor | None = None) -> tuple:  # noqa: N803
        (L,) = ctx.saved_tensors  # noqa: N806
        if gL is None:
            return None, None, None
        if ctx.upper:
            L, gL = L.mT, gL.mT  # noqa: N806
        phi = (L.mT @ gL).tril()
        phi = 0.5 * (phi + phi.tril(-1).mT)
        ga = solve_triangular(L.mT, phi, upper=True)
        return solve_triangular(L, ga, upper=False, left=False), None, None


class _CholeskyOld(_Cholesky):
    """``tinygrad_edu.cholesky``'s node (PyTorch's older op, the same factor and derivative)."""

    node_name = "CholeskyBackward0"
    _prefix = "cholesky"


def cholesky(A: Tensor, *, upper: bool = False) -> Tensor:  # noqa: N803
    """The Cholesky factor L of a symmetric positive-definite A = L L^T (U = L^T with ``upper``)."""
    _check_matrix(A, "linalg.cholesky")
    return _Cholesky.apply(A, upper, True)[0]


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False) -> linalg_cholesky_ex:  # noqa: N803
    """``(L, info)``: cholesky without the error (info > 0: the order of the leading minor that is not positive-
    definite; L is then LAPACK's partial factor)."""
    _check_matrix(A, "linalg.cholesky")
    return linalg_cholesky_ex(*_Cholesky.apply(A, upper, check_errors))


def _torch_cholesky(input: Tensor, upper: bool = False) -> Tensor:
    """``tinygrad_edu.cholesky`` (deprecated in PyTorch, with its warning)."""
    _messages.warn_once("torch.cholesky", "tinygrad_edu.cholesky is deprecated in favor of "
                        "tinygrad_edu.linalg.cholesky and will be removed in a future PyTorch release.\nL = "
                        "tinygrad_edu.cholesky(A)\nshould be replaced with\nL = tinygrad_edu.linalg.cholesky(A)\nand\n"
                        "U = tinygrad_edu.cholesky(A, upper=True)\nshould be replaced with\nU = "
                        "tinygrad_edu.linalg.cholesky(A).mH\nThis transform will produce equivalent results for all "
                        "valid (symmetric positive definite) inputs.")
    _check_matrix(input, "cholesky")
    return _CholeskyOld.apply(input, upper, True)


# -- matrix_power, matrix_exp --------------------------------------------------------------------------------------
def matrix_power(A: Tensor, n: int) -> Tensor:  # noqa: N803
    """A^n by repeated squaring (PyTorch's order of products, so the same graph of MmBackward0 nodes); A^-n is
    inv(A)^n, A^0 the identity (a copy of I into a clone of A: a zero gradient), A^1 a clone."""
    _check_matrix(A, "linalg.matrix_power", floating=False)
    if n == 0:
        out = A.clone()
        out.copy_(_eye(A.shape[-1], A).expand(A.shape))
        return out
    if n < 0:
        A, n = inv(A), -n  # noqa: N806
    elif n == 1:
        return A.clone()
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = A if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return result


_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
           10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152  # (Higham 2005: the 1-norm below which Padé [13/13] is exact to float64's precision)


def _expm(a: np.ndarray) -> np.ndarray:
    """exp(A) by scaling and squaring: A / 2^s has a 1-norm below theta13, its exponential is the Padé [13/13]
    approximant, then squared s times (Higham 2005). In float64, whatever A's dtype."""
    x = a.astype(np.float64)
    n = x.shape[-1]
    if x.size == 0:
        return x.astype(a.dtype)
    norm1 = np.abs(x).sum(-2).max(-1)
    s = np.maximum(0, np.ceil(np.log2(np.maximum(norm1, 1e-300) / _THETA13))).astype(int)
    x = x / (2.0 ** s)[..., None, None]
    b, eye = _PADE13, np.eye(n)
    x2 = x @ x
    x4 = x2 @ x2
    x6 = x4 @ x2
    u = x @ (x6 @ (b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 + b[3] * x2 + b[1] * eye)
    v = x6 @ (b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 + b[0] * eye
    r = np.linalg.solve(v - u, v + u)
    for i in range(int(s.max(initial=0))):
        r = np.where((s > i)[..., None, None], r @ r, r)
    return r.astype(a.dtype)


class _MatrixExp(Function):
    """exp(A) = I + A + A^2/2! + ... (scaling and squaring with a Padé approximant, in numpy).

    Backward: the derivative of exp at A in the direction E is the top-right block of exp([[A, E], [0, A]]);
    its adjoint, gA, is the top-right block of exp([[A^T, g], [0, A^T]]) (Mathias 1996), computed with this
    same Function on the 2n-by-2n matrix, so it is differentiable again."""

    node_name = "LinalgMatrixExpBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> np.ndarray:
        ctx.save_for_backward(a)
        return _expm(a._array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        n, at = a.shape[-1], a.mT
        block = cat([cat([at, g], -1), cat([g.new_zeros(g.shape), at], -1)], -2)
        return (matrix_exp(block)[..., :n, n:],)


def matrix_exp(A: Tensor) -> Tensor:  # noqa: N803
    """The matrix exponential exp(A) = sum_k A^k / k!."""
    _check_matrix(A, "linalg.matrix_exp")
    return _MatrixExp.apply(A)


# -- norms, rank, condition number ---------------------------------------------------------------------------------
def matrix_norm(A: Tensor, ord: float | str = "fro", dim: tuple[int, int] = (-2, -1), keepdim: bool = False,  # noqa: N803
                *, dtype: Any = None) -> Tensor:
    """A matrix norm: 'fro', 'nuc' (sum of singular values), 2 / -2 (the largest / smallest), 1 / -1 (column
    sums), inf / -inf (row sums)."""
    if A.dim() >= 2 and not A.is_floating_point():
        raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {_name(A)}")
    return _matrix_norm(A, ord, tuple(dim), keepdim, dtype)


def _singular_value_norm(a: Tensor, ord: float | str, dim: tuple[int, int], keepdim: bool, dtype: Any) -> Tensor:
    """'nuc', 2 and -2: the sum, largest and smallest singular values of the matrices over ``dim``."""
    if dtype is not None:
        a = a.to(dtype)
    rows, columns = (d % a.dim() for d in _dims(dim, a.dim()))
    order = [d for d in range(a.dim()) if d not in (rows, columns)] + [rows, columns]  # (PyTorch's permute)
    s = svdvals(a.permute(order))
    reduce = s.sum if ord == "nuc" else s.amax if ord == 2 else s.amin
    if not keepdim:
        return reduce(-1)
    return reduce(-1, keepdim=True).unsqueeze(-1).permute([order.index(d) for d in range(a.dim())])


def matrix_rank(A: Tensor, tol: float | None = None, hermitian: bool = False, *,  # noqa: N803
                atol: float | None = None, rtol: float | None = None) -> Tensor:
    """The number of singular values above max(atol, rtol * S_max) (rtol: eps * max(m, n) if neither is given;
    ``tol``, the old name of atol). An int64 count, with no gradient."""
    if not isinstance(A, Tensor) or A.dim() < 2:
        raise RuntimeError("tinygrad_edu.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if not A.is_floating_point():
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    x = A._array
    s = np.abs(np.linalg.eigvalsh(x)) if hermitian else _lapack_svd(x, compute_uv=False)
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else np.finfo(x.dtype).eps * max(x.shape[-2:])
    smax = s.max(-1, keepdims=True, initial=0)
    return _wrap(np.asarray((s > np.maximum(atol or 0.0, rtol * smax)).sum(-1), dtype=np.int64))


def cond(A: Tensor, p: float | str | None = None) -> Tensor:  # noqa: N803
    """The condition number: S_max / S_min for p = None or 2 (S_min / S_max for -2), else
    ``matrix_norm(A, p) * matrix_norm(inv(A), p)`` (inf for a singular A)."""
    if not isinstance(A, Tensor) or A.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if p is None or p in (2, -2):
        s = svdvals(A)
        ratio = s[..., :1] / s[..., -1:] if p != -2 else s[..., -1:] / s[..., :1]
        return ratio.squeeze(-1)
    shown = f"'{p}'" if isinstance(p, str) else f"{p:g}"
    _check_matrix(A, f"linalg.cond(ord={shown})")
    inverse_ = inv_ex(A).inverse
    if p != "nuc":
        r = matrix_norm(A, p) * matrix_norm(inverse_, p)
        return r.nan_to_num(math.inf, math.inf, -math.inf)  # (a singular A's 0 * inf: inf)
    singular = ~np.isfinite(inverse_._array).all(axis=(-2, -1))  # (no inverse: no singular values to sum)
    if not singular.any():
        return matrix_norm(A, p) * matrix_norm(inverse_, p)
    inverse_ = where(_wrap(singular[..., None, None]), 0.0, inverse_)
    return where(_wrap(singular), math.inf, matrix_norm(A, p) * matrix_norm(inverse_, p))


# -- products and friends ------------------------------------------------------------------------------------------
def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """The dot products of the vectors along ``dim``: (x * y).sum(dim), x and y broadcast."""
    for t in (x, y):
        if not t.is_floating_point():
            raise RuntimeError(f"linalg.vecdot: Expected a floating point or complex tensor as input. Got {_name(t)}")
    return (x * y).sum(dim)


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:  # noqa: N803
    """The diagonals of a batch of matrices (``Tensor.diagonal`` with the last two dimensions as default)."""
    return A.diagonal(offset, dim1, dim2)


def vander(x: Tensor, N: int | None = None) -> Tensor:  # noqa: N803
    """The Vandermonde matrix with columns x^0, x^1, ..., x^(N-1) (N = the length of x by default)."""
    n = x.shape[-1] if x.dim() else 1
    N = n if N is None else N  # noqa: N806
    if N <= 1 or x.dim() == 0:
        raise RuntimeError("N must be greater than 1.")
    ones = x.new_ones((*tuple(x.shape), 1))
    powers = x.unsqueeze(-1).expand((*tuple(x.shape), N - 1)).cumprod(-1)
    return cat([ones, powers], -1)


# -- lstsq ---------------------------------------------------------------------------------------------------------
linalg_lstsq = return_type("linalg_lstsq", "solution", "residuals", "rank", "singular_values")


_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


class _Lstsq(Function):
    """X minimising ||A X - B|| (the minimum-norm one if A is rank-deficient): X = A^+ B, computed by numpy's
    LAPACK (gelsd). What the driver reports (PyTorch's): residuals (the squared error of each column, for m > n
    and full rank, not with gelsy), the rank (not with gels), the singular values (gelsd and gelss).

    Backward: X = A^+ B, so gB = A^+^T gX and gA is pinv's backward with g = gX B^T; a residual's gradient
    (envelope theorem, X optimal): gA = 2 (A X - B) X^T g_r, gB = -2 (A X - B) g_r."""

    node_name = "LinalgLstsqBackward0"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, rcond: float | None, driver: str, vector: bool) -> tuple:
        A, B = a._array, (b._array[..., None] if vector else b._array)  # noqa: N806
        batch = broadcast_shapes(A.shape[:-2], B.shape[:-2])
        A, B = np.broadcast_to(A, batch + A.shape[-2:]), np.broadcast_to(B, batch + B.shape[-2:])  # noqa: N806
        m, n = A.shape[-2:]
        rc = np.finfo(A.dtype).eps * max(m, n) if rcond is None else rcond
        xs, ranks, svals = [], [], []
        for a2, b2 in zip(A.reshape(-1, m, n), B.reshape(-1, *B.shape[-2:])):
            x, _, rank, sv = np.linalg.lstsq(a2, b2, rcond=rc)
            xs.append(x), ranks.append(rank), svals.append(sv)
        k = B.shape[-1]
        x = np.array(xs, dtype=A.dtype).reshape((*batch, n, k))
        rank = np.array(ranks, dtype=np.int64).reshape(batch)
        full = m > n and bool((rank == n).all()) and driver != "gelsy"
        residuals = ((A @ x - B) ** 2).sum(-2) if full else np.zeros(0, A.dtype)
        singular = (np.array(svals, A.dtype).reshape((*batch, min(m, n))) if driver in ("gelsd", "gelss")
                    else np.zeros(0, A.dtype))
        solution = _wrap(np.ascontiguousarray(x[..., 0] if vector else x))
        ctx.save_for_backward(a, b, solution)
        ctx.vector, ctx.full = vector, full
        res_t, rank_t = _wrap(np.asarray(residuals)), _wrap(rank if driver != "gels" else np.zeros(0, np.int64))
        sv_t = _wrap(singular)
        ctx.mark_non_differentiable(rank_t, sv_t)
        ctx.set_materialize_grads(False)
        return solution, res_t, rank_t, sv_t

    @staticmethod
    def backward(ctx: Any, gX: Tensor | None, g_res: Tensor | None, *_: Any) -> tuple:  # noqa: N803
        a, b, x = ctx.saved_tensors
        if ctx.vector:
            b, x, gX = b.unsqueeze(-1), x.unsqueeze(-1), None if gX is None else gX.unsqueeze(-1)  # noqa: N806
        ga = gb = None
        if gX is not None:
            p = pinv(a)
            ga = _pinv_backward(gX @ b.mT, p, a)
            gb = p.mT @ gX
        if g_res is not None and ctx.full:
            r = (a @ x - b) * g_res.unsqueeze(-2)
            ga = 2 * r @ x.mT if ga is None else ga + 2 * r @ x.mT
            gb = -2 * r if gb is None else gb - 2 * r
        if ctx.vector and gb is not None:
            gb = gb.squeeze(-1)
        return ga, gb, None, None, None


def lstsq(A: Tensor, B: Tensor, rcond: float | None = None, *, driver: str | None = None) -> linalg_lstsq:  # noqa: N803
    """The least-squares solution of A X = B, with PyTorch's named quadruple (solution, residuals, rank,
    singular_values); the driver (default 'gelsy', as PyTorch's on the CPU) only chooses what else is reported."""
    if not A.is_floating_point() or not B.is_floating_point():
        raise RuntimeError("This function doesn't handle types other than float and double")
    driver = "gelsy" if driver is None else driver
    if driver not in _DRIVERS:
        raise RuntimeError("tinygrad_edu.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    vector = B.dim() == A.dim() - 1
    if (B.shape[-1] if vector else B.shape[-2]) != A.shape[-2]:
        raise RuntimeError("tinygrad_edu.linalg.lstsq: input.size(-2) should match other.size(-2)")
    return linalg_lstsq(*_Lstsq.apply(A, B, rcond, driver, vector))


# -- eig, eigvals: complex results ---------------------------------------------------------------------------------
def _no_complex(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"linalg.{name} returns complex tensors (a real matrix that is not symmetric can have complex eigenvalues "
        f"and eigenvectors), and tinygrad_edu has no complex dtype. For a symmetric matrix use linalg.eigh or "
        f"linalg.eigvalsh (real, ascending); for the sizes of a matrix's action, linalg.svdvals.")


def eig(A: Tensor) -> Any:  # noqa: N803
    """Refused: the eigenvalues of a general matrix are complex numbers (see :func:`eigh` for symmetric ones)."""
    _check_matrix(A, "linalg.eig", floating=False)
    raise _no_complex("eig")


def eigvals(A: Tensor) -> Any:  # noqa: N803
    """Refused, as :func:`eig`."""
    _check_matrix(A, "linalg.eigvals", floating=False)
    raise _no_complex("eigvals")


# -- Tensor methods ------------------------------------------------------------------------------------------------
# PyTorch's Tensor has these methods; they are attached here, where the functions are (the Tensor class is below
# this module in the layers, and knows nothing of it).
Tensor.det = det
Tensor.logdet = logdet
Tensor.slogdet = _torch_slogdet
Tensor.inverse = inverse
Tensor.svd = _torch_svd
Tensor.qr = _torch_qr
Tensor.cholesky = _torch_cholesky
Tensor.matrix_power = matrix_power
Tensor.matrix_exp = matrix_exp
Tensor.pinverse = pinverse
