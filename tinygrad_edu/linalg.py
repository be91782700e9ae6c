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
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from ._dtype import LEGACY_NAMES
from ._tensor import Tensor, _wrap
from .autograd.function import Function
from .ops.linalg import cross as _cross
from .ops.more import multi_dot as _multi_dot

__all__ = ["cross", "eigh", "eigvalsh", "multi_dot", "norm", "vector_norm"]


def multi_dot(tensors: Any) -> Tensor:
    """The product of two or more matrices, multiplied in the order that costs fewest scalar products."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    for i, t in enumerate(tensors):
        if t.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D")
    return _multi_dot(tensors)


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
        raise NotImplementedError(f"linalg.norm(A, ord={ord!r}) is a sum or a bound of singular values, which needs a "
                                  "singular value decomposition: tinygrad_edu has none. Use 'fro', 1, -1, inf or -inf.")
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


class linalg_eigh(NamedTuple):  # noqa: N801  (PyTorch's torch.return_types.linalg_eigh)
    eigenvalues: Tensor
    eigenvectors: Tensor

    def __repr__(self) -> str:
        return (f"tinygrad_edu.return_types.linalg_eigh(\neigenvalues={self.eigenvalues!r},\n"
                f"eigenvectors={self.eigenvectors!r})")


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
