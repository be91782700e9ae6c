"""``tinygrad_edu.nn.functional`` (``F``): activations and losses as plain functions.

Each loss is one ``Function``, like the built-in ops (forward on numpy, backward with Tensor ops so that
``create_graph=True`` can differentiate it again), with PyTorch's node name. ``g`` below is the gradient
arriving from above, per loss element; with ``reduction='mean'`` over n elements each element gets g / n.

=============================  =================================================  ===========================
loss (node)                    l for one element                                  dl/dx
=============================  =================================================  ===========================
mse_loss (MseLossBackward0)    (x - y)**2                                         2 (x - y)
bce_with_logits                -[y log s(x) + (1-y) log(1 - s(x))], s = sigmoid   s(x) - y
binary_cross_entropy           -[y log p + (1-y) log(1 - p)]                      (p - y) / (p (1 - p))
nll_loss (NllLossBackward0)    -x[t]   (x: log-probabilities, t: the class)       -1 at t, 0 elsewhere
cross_entropy                  nll_loss(log_softmax(x), t) = -x[t] + log sum e^x  softmax(x) - onehot(t)
smooth_l1_loss (beta b)        0.5 d**2 / b if |d| < b, else |d| - 0.5 b          d / b, or sign(d) beyond b
huber_loss (delta k)           0.5 d**2 if |d| < k, else k (|d| - 0.5 k)          d, or k sign(d) beyond k
soft_margin_loss               log(1 + exp(-y x))   (y = ±1)                      -y sigmoid(-y x)
multi_margin_loss (p, m)       sum_{j != t} max(0, m - x[t] + x[j])**p / C        per j: p h**(p-1) / C
=============================  =================================================  ===========================

(d = x - y.) l1_loss, kl_div, cosine_similarity, normalize, softmin, tanhshrink and the losses cosine_embedding,
margin_ranking, triplet_margin, poisson_nll and gaussian_nll are compositions of tensor ops, as in PyTorch;
F.pad lives in ``padding``, the convolutions in ``conv``, the poolings in ``pooling``, interpolate in
``upsampling``, fold, unfold and the pixel shuffles in ``fold``; layer_norm, batch_norm,
instance_norm, embedding and embedding_bag live in ``normalization`` and ``sparse``, next to their layers.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .._arrays import ordered_sum, sample_sum
from .._creation import default_generator  # the generator manual_seed seeds: dropout's masks
from .._dtype import CPP_NAMES, LEGACY_NAMES, promoted
from .._generator import in_memory_order
from .._tensor import Tensor, _wrap
from ..autograd.engine import grad as _grad
from ..core.derivatives import MulScalar, ThresholdBackward, rounded_once
from ..core.function import RESULT, Function
from ..core.grad_mode import GradMode, enable_grad, no_grad
from ..ops import elementwise, unrecorded
from ..ops.elementwise import DivScalar, _check_broadcast, _operands
from ..ops.inplace import inplace as _inplace
from ..ops.linalg import baddbmm, linear
from ..ops.linalg import matmul as _matmul
from ..ops.reduce import Softmax, _exp, _log
from ..ops.reduce import log_softmax as _log_softmax
from ..ops.reduce import softmax as _softmax
from ..ops.selection import where
from ..ops.shape import cat
from .conv import conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d
from .fold import fold, pixel_shuffle, pixel_unshuffle, unfold
from .linear import bilinear
from .normalization import batch_norm, group_norm, instance_norm, layer_norm, local_response_norm, rms_norm
from .pooling import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool2d,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_pool1d,
    max_pool2d,
    max_pool3d,
)
from .sparse import embedding, embedding_bag
from .upsampling import interpolate

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "dropout", "leaky_relu",
           "linear", "log_softmax", "mse_loss", "nll_loss", "one_hot", "relu", "sigmoid", "softmax", "tanh"]
__all__ += ["elu", "gelu", "hardtanh", "logsigmoid", "relu6", "silu", "softplus"]  # smooth and capped activations
__all__ += ["cosine_similarity", "embedding", "embedding_bag", "huber_loss", "kl_div", "l1_loss", "layer_norm",
            "normalize", "pairwise_distance", "smooth_l1_loss", "softmin"]
__all__ += ["celu", "glu", "hardsigmoid", "hardswish", "mish", "prelu", "selu", "softsign"]
__all__ += ["batch_norm", "instance_norm", "threshold", "threshold_"]
__all__ += ["celu_", "elu_", "hardtanh_", "leaky_relu_", "relu_", "selu_"]  # in place
__all__ += ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "avg_pool1d", "avg_pool2d", "conv1d", "conv2d", "conv3d",
            "max_pool1d", "max_pool2d"]
__all__ += ["conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]
__all__ += ["group_norm", "local_response_norm", "rms_norm"]
__all__ += ["alpha_dropout", "dropout1d", "dropout2d", "dropout3d", "feature_alpha_dropout"]
__all__ += ["fold", "interpolate", "pixel_shuffle", "pixel_unshuffle", "unfold"]
__all__ += ["bilinear", "pdist", "rrelu", "rrelu_", "softshrink"]
__all__ += ["hinge_embedding_loss", "multilabel_margin_loss", "multilabel_soft_margin_loss",
            "triplet_margin_with_distance_loss"]
__all__ += ["adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d", "avg_pool3d", "lp_pool1d", "lp_pool2d",
            "lp_pool3d", "max_pool3d"]

# PyTorch's numbering of the reductions, visible as ``loss.grad_fn._saved_reduction``.
_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}

# exp, log1p, expm1 and tanh of float32 arrays in float64, rounded once: PyTorch's kernels compute these with their
# own vectorised routines, within one float32 step of the correctly rounded value, which this gives (numpy's float32
# routines are further off). Values equal to PyTorch's: sigmoid and silu 96% (numpy's routines: 83%), softplus 93%
# (69%), logsigmoid 95% (73%), elu 99.96% (89%), mish 95% (63%), binary_cross_entropy 96% (83%), with logits 97%
# (64%; there in PyTorch's order too: (1 - y) x - log s(x)).
_log1p, _expm1, _tanh = (rounded_once(f) for f in (np.log1p, np.expm1, np.tanh))  # (exp and log: softmax's, reduce.py)


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce(losses: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "none":
        return losses
    total = ordered_sum(losses)  # (in PyTorch's order: a printed loss has PyTorch's last digit)
    return np.asarray(total / losses.size if reduction == "mean" else total, dtype=losses.dtype)


def _weight_and_reduce(d: Tensor, w: Tensor | None, reduction: str) -> Tensor:
    """A loss's gradient ``d = (dl/dx) * g``, then times the weight and, for the mean, divided by the number
    of elements: PyTorch's order of operations, so the gradients agree to the last bit."""
    if w is not None:
        d = d * w
    return DivScalar.apply(d, d._array.size) if reduction == "mean" else d  # (a C++ division: DivBackward1)


def _type_name(t: Tensor) -> str:
    return LEGACY_NAMES[t.dtype].removesuffix("Tensor")  # "Float", "Long" ... as in PyTorch's messages


def _set_reduction(ctx: Any, reduction: str) -> None:
    ctx.reduction, ctx._saved_reduction = reduction, _REDUCTIONS[reduction]


# ------------------------------------------------------------------------------------------------ mse
class MseLoss(Function):
    """Mean squared error: ``l_i = (x_i - y_i)**2``, then averaged, summed or kept (``reduction``).

    dl/dx_i = 2 (x_i - y_i) g_i  and  dl/dy_i = -2 (x_i - y_i) g_i. Written with tensor ops, so the
    second derivative comes out too: d2l/dx_i**2 = 2 g_i (2/n for the mean).
    """

    node_name = "MseLossBackward0"
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor, reduction: str) -> np.ndarray:
        ctx.save_for_backward(x, y)
        _set_reduction(ctx, reduction)
        a, b = promoted(x, y)  # (a float32 input and an int64 target: float32, as PyTorch computes it)
        d = a - b
        return _reduce(d * d, reduction)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        dx = (2 / x._array.size if ctx.reduction == "mean" else 2) * (x - y) * g
        return (dx if ctx.needs_input_grad[0] else None), (-dx if ctx.needs_input_grad[1] else None), None


def _legacy_reduction(size_average: Any, reduce: Any, stacklevel: int = 3) -> str:
    """The ``reduction`` that PyTorch's older ``size_average`` and ``reduce`` flags (each True when None) meant,
    with PyTorch's warning. (So ``nn.MSELoss(output, target)``, a loss built where it should be called, fails as in
    PyTorch: the tensors are taken for those flags, and a tensor of several numbers has no truth value.)"""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' instead.",
                  UserWarning, stacklevel=stacklevel)
    return reduction


def mse_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
             reduction: str = "mean") -> Tensor:
    """Mean squared error between ``input`` and ``target`` (which should have the same shape). (``size_average``
    and ``reduce``: PyTorch's older spelling of ``reduction``, see ``_legacy_reduction``.)"""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if input._array.shape != target._array.shape:
        # Almost always a bug: (3, 1) against (3,) broadcasts to (3, 3) and silently compares every pair.
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size "
                      f"({input.size()}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=2)
        _check_broadcast(input, target)
        shape = np.broadcast_shapes(input._array.shape, target._array.shape)
        input, target = input.expand(shape), target.expand(shape)
    input, target = _operands(input, target)
    return MseLoss.apply(input, target, reduction)


# ------------------------------------------------------------------------------------------------ binary
class BinaryCrossEntropyWithLogits(Function):
    """Binary cross-entropy of logits x (scores before the sigmoid s) against targets y in [0, 1]:

        l = -[y log s(x) + (1 - y) log(1 - s(x))] = (1 - y) x + log(1 + e^-x)

    computed as PyTorch computes it, ``(1 - y) x - log s(x)`` with ``log s(x) = min(x, 0) - log(1 + e^-|x|)``:
    e^-|x| <= 1 never overflows, so x = +-100 is fine (log of s(x) itself would underflow to log 0). ``pos_weight``
    p scales the positive term: l = (1 - y) x + (1 + (p - 1) y) log(1 + e^-x). ``weight`` w multiplies every l.
    Derivatives:

        dl/dx = w ((p y + 1 - y) s(x) - p y)                 (= w (s(x) - y) without pos_weight)
        dl/dy = w (p log(1 + e^-x) - log(1 + e^x))           (= -w x without pos_weight)

    weight and pos_weight come in a tuple: they get no gradient and, as in PyTorch, no edge in
    ``next_functions``.
    """

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_names = ("self", "target", "weight", "pos_weight")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor, weights: tuple, reduction: str) -> np.ndarray:
        w, pw = weights
        ctx.save_for_backward(x, y, w, pw)
        _set_reduction(ctx, reduction)
        a, t = x._array, y._array
        log_sigmoid = np.minimum(a, 0) - _log1p(_exp(-np.abs(a)))  # log s(x) = -log(1 + e^-x), as logsigmoid's
        if pw is not None:  # (PyTorch's order: (1 - y) x - log s(x), the log weighted by 1 + (p - 1) y)
            log_sigmoid = log_sigmoid * ((pw._array - 1) * t + 1)
        losses = (1 - t) * a - log_sigmoid
        if w is not None:
            losses = losses * w._array
        return _reduce(losses.astype(a.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y, w, pw = ctx.saved_tensors
        dx = dy = None
        if ctx.needs_input_grad[0]:
            s = x.sigmoid()
            if pw is None:
                dx = (s - y) * g
            else:
                t = pw * y
                dx = ((t + 1 - y) * s - t) * g
            dx = _weight_and_reduce(dx, w, ctx.reduction)
        if ctx.needs_input_grad[1]:
            dy = -x * g if pw is None else (_softplus(-x) * pw - _softplus(x)) * g
            dy = _weight_and_reduce(dy, w, ctx.reduction)
        return dx, dy, None, None


def _softplus(x: Tensor) -> Tensor:
    """log(1 + e^x) with tensor ops, safe for large x: max(x, 0) + log(1 + e^-|x|)."""
    return x.relu() + ((-x.abs()).exp() + 1).log()


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     size_average: Any = None, reduce: Any = None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """Sigmoid + binary cross-entropy in one numerically stable step (use it rather than
    ``binary_cross_entropy(sigmoid(x), y)``)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if target._array.shape != input._array.shape:
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    if target._array.dtype.kind != "f":
        raise RuntimeError(f"result type {_type_name(input)} can't be cast to the desired output type "
                           f"{_type_name(target)}")
    return BinaryCrossEntropyWithLogits.apply(input, target, (weight, pos_weight), reduction)


class BinaryCrossEntropy(Function):
    """Binary cross-entropy of probabilities p in [0, 1] against targets y:

        l = -w [y log p + (1 - y) log(1 - p)]      (each log clamped at -100, so p = 0 or 1 stays finite)
        dl/dp = w (p - y) / (p (1 - p))            (the denominator clamped at 1e-12)
        dl/dy = w (log(1 - p) - log p) = -w logit(p)
    """

    node_name = "BinaryCrossEntropyBackward0"
    saved_names = ("self", "target", "weight")

    @staticmethod
    def forward(ctx: Any, p: Tensor, y: Tensor, weights: tuple, reduction: str) -> np.ndarray:
        (w,) = weights
        a, t = p._array, y._array
        if not np.all((a >= 0) & (a <= 1)):
            raise RuntimeError("all elements of input should be between 0 and 1")
        ctx.save_for_backward(p, y, w)
        _set_reduction(ctx, reduction)
        with np.errstate(divide="ignore"):  # log 0 = -inf, then clamped
            losses = (t - 1) * np.maximum(_log1p(-a), -100) - t * np.maximum(_log(a), -100)  # (PyTorch's order)
        if w is not None:
            losses = losses * w._array
        return _reduce(losses.astype(a.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        p, y, w = ctx.saved_tensors
        dp = dy = None
        if ctx.needs_input_grad[0]:
            dp = _weight_and_reduce(g * (p - y) / ((1 - p) * p).clamp(min=1e-12), w, ctx.reduction)
        if ctx.needs_input_grad[1]:
            dy = _weight_and_reduce(-(p / (1 - p)).log() * g, w, ctx.reduction)
        return dp, dy, None, None


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None,
                         reduce: Any = None, reduction: str = "mean") -> Tensor:
    """Binary cross-entropy of probabilities (e.g. after a sigmoid) against targets in [0, 1]."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if target._array.shape != input._array.shape:
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size "
                         f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if target._array.dtype != input._array.dtype:  # (integer labels: write them as floats, or target.float())
        raise RuntimeError(f"Found dtype {_type_name(target)} but expected {_type_name(input)}")
    return BinaryCrossEntropy.apply(input, target, (weight,), reduction)


# ------------------------------------------------------------------------------------------------ classes
class NllLossBackward(Function):
    """nll_loss's gradient as an op (PyTorch's ``nll_loss_backward``): zeros, except at each sample's target
    entry (n, t_n), which gets ``-w[t_n] * g`` (``g / total weight`` for the mean, g_n for 'none'). An ignored
    sample's entries stay 0.

    Recorded only with create_graph. Its own derivatives, as PyTorch defines them: linear in g, so d/dg is
    nll_loss itself applied to the incoming gradient; and 0 in x, on which the gradient does not depend.
    """

    node_name = "NllLossBackwardBackward0"

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, consts: tuple) -> np.ndarray:
        ctx.consts = consts
        return _nll_grad(g._array, x._array.dtype, consts[3])

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        target, weight, ignore_index, info = ctx.consts
        dg = nll_loss(gg, target, weight, ignore_index=ignore_index, reduction=info[4]) \
            if ctx.needs_input_grad[0] else None
        dx = _wrap(np.zeros_like(gg._array)) if ctx.needs_input_grad[1] else None
        return dg, dx, None


def _nll_grad(g: np.ndarray, dtype: np.dtype, info: tuple) -> np.ndarray:
    """:class:`NllLossBackward` on arrays: ``info`` is what the loss's forward kept (``ctx.info``)."""
    cols, kept, w_t, total, reduction, x_shape, a_shape = info
    grad = -(g / total) if reduction == "mean" else -g
    if reduction == "none":
        grad = grad.reshape(cols.shape)  # one per sample, lined up with cols
    values = grad if w_t is None else w_t * grad
    if kept is not None:
        values = np.where(kept, values, 0)  # an ignored sample's entry keeps its 0 (+0., whatever g is)
    m = np.zeros(a_shape, dtype=dtype)
    if len(a_shape) == 2:  # (N, C): one entry per row, set by fancy indexing (quicker than put_along_axis)
        m[np.arange(a_shape[0]), cols] = values
    else:
        np.put_along_axis(m, cols[:, None], np.broadcast_to(values, cols.shape)[:, None], 1)
    return m if a_shape == x_shape else m.reshape(x_shape)


class NllLoss2dBackward(NllLossBackward):
    node_name = "NllLoss2DBackwardBackward0"


class NllLoss(Function):
    """Negative log-likelihood of the target classes t, given log-probabilities x of shape (N, C):

        l_n = -w[t_n] x[n, t_n]       (0 where t_n == ignore_index; w = 1 without weight)
        'mean': sum_n l_n / sum_n w[t_n]          'sum': sum_n l_n

    Each l_n reads one entry of x, so dl/dx is 0 except at the entries (n, t_n): see
    :class:`NllLossBackward`. Extra dimensions (N, C, d1, ...) work the same way, the class being dimension 1.

    The target and weight come in a tuple: they get no gradient and no edge in ``next_functions``.
    """

    node_name = "NllLossBackward0"
    saved_names = ("self", "target", "weight", "total_weight")
    backward_op = NllLossBackward  # (its gradient, an op of its own)

    @staticmethod
    # every target ignored: 0 / 0 = nan, silently as in PyTorch
    def forward(ctx: Any, x: Tensor, consts: tuple, ignore_index: int, reduction: str) -> np.ndarray:
        target, weight = consts
        a = x._array if x._array.ndim > 1 else x._array.reshape(1, -1)  # a single sample is a batch of one
        t = target._array.reshape(a.shape[:1] + a.shape[2:])
        # The usual case, seen from one reduction: every target a class (the largest below C, read as unsigned: a
        # negative int64 reads as a huge number), and none ignored (ignore_index out of their range).
        hi = np.maximum.reduce(t.view(np.uint64) if t.dtype == np.int64 else t, None) if t.size else -1
        if hi < a.shape[1] and not 0 <= ignore_index <= hi:
            kept, cols = None, t
        else:
            kept = t != ignore_index
            cols = np.where(kept, t, 0)  # the column of each sample's class (column 0 for an ignored one)
            bad = kept & ((t < 0) | (t >= a.shape[1]))
            if bad.any():
                raise IndexError(f"Target {t[bad][0]} is out of bounds.")
        # Each sample's weight w[t_n], 0 where ignored; None when every one is 1 (no weight, nothing ignored).
        w_t = None if kept is None else kept.astype(a.dtype)
        if weight is not None:
            w_t = weight._array.astype(a.dtype)[cols] * (1 if w_t is None else w_t)
        # (N, C), the usual case: pick one entry per row by fancy indexing, quicker than take_along_axis
        picked = a[np.arange(a.shape[0]), cols] if a.ndim == 2 else np.take_along_axis(a, cols[:, None], 1)[:, 0]
        losses = -picked if w_t is None else -picked * w_t
        if kept is not None:
            losses[~kept] = 0  # an ignored sample's loss is 0 (not -x * 0, which may be -0.)
        in_order = kept is None and a.ndim == 2  # (PyTorch's order of its running sums, for (N, C) and nothing ignored)
        weights = None if w_t is None else sample_sum(w_t) if in_order else None
        total = np.asarray(t.size if w_t is None else w_t.sum() if weights is None else weights, dtype=a.dtype)
        ctx.info = (cols, kept, w_t, total, reduction, x._array.shape, a.shape)
        ctx._saved_ignore_index = ignore_index
        _set_reduction(ctx, reduction)
        ctx.save_for_backward(x, target, weight, _wrap(total))
        if reduction == "none":
            return losses.reshape(target._array.shape) if x._array.ndim > 1 else losses.reshape(())
        summed = sample_sum(losses) if in_order else None
        summed = np.add.reduce(losses, None) if summed is None else summed
        return np.asarray(summed / total if reduction == "mean" else summed, dtype=a.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, target, weight, _ = ctx.saved_tensors
        if unrecorded():  # speed: the gradient's array, not an op
            return _wrap(_nll_grad(g._array, x._array.dtype, ctx.info)), None, None, None
        consts = (target, weight, ctx._saved_ignore_index, ctx.info)
        return ctx._forward_cls.backward_op.apply(g, x, consts), None, None, None


class NllLoss2d(NllLoss):
    """The same loss for inputs with extra dimensions (N, C, d1, ...): PyTorch names the node apart."""

    node_name = "NllLoss2DBackward0"
    backward_op = NllLoss2dBackward


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None,
             ignore_index: int = -100, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood: ``input`` holds log-probabilities (N, C), ``target`` class indices (N,)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    a, t = input._array, target._array
    if a.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {a.ndim})")
    if a.ndim == 1 and t.ndim == 1 and t.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {t.shape[0]}")
    if a.ndim == 2 and (t.ndim == 0 or t.shape[0] != a.shape[0]):
        raise ValueError(f"Expected input batch_size ({a.shape[0]}) to match target batch_size "
                         f"({t.shape[0] if t.ndim else 0}).")
    if a.ndim <= 2 and t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if a.ndim > 2 and t.shape != a.shape[:1] + a.shape[2:]:
        raise RuntimeError(f"Expected target size {list(a.shape[:1] + a.shape[2:])}, got {list(t.shape)}")
    if t.dtype not in (np.int64, np.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_type_name(target)}")
    n_classes = a.shape[1] if a.ndim > 1 else a.shape[0]
    if weight is not None and weight._array.size != n_classes:
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes or no classes but "
                           f"got weight tensor of shape: {list(weight._array.shape)}")
    if a.ndim <= 2:
        return NllLoss.apply(input, (target, weight), ignore_index, reduction)
    if a.ndim == 4:
        return NllLoss2d.apply(input, (target, weight), ignore_index, reduction)
    # Other shapes go through the 4-d case, as in PyTorch: (N, C, d1, rest), and the losses viewed back.
    losses = NllLoss2d.apply(input.reshape(a.shape[0], a.shape[1], a.shape[2], -1),
                             (target.reshape(t.shape[0], t.shape[1], -1), weight), ignore_index, reduction)
    return losses.reshape(t.shape) if reduction == "none" else losses


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None,
                  ignore_index: int = -100, reduce: Any = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """Softmax + negative log-likelihood: ``input`` holds raw scores (logits) of shape (N, C).

    ``target`` is either class indices (N,) of dtype int64, or class probabilities of the input's shape.
    With indices this is ``nll_loss(log_softmax(input, 1), target)``, and its gradient is the famous
    ``softmax(input) - onehot(target)`` (divided by N for the mean).
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if label_smoothing > 1.0:  # (PyTorch lets a negative value through, as no smoothing)
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
    class_dim = 1 if input._array.ndim > 1 else 0
    if target._array.shape == input._array.shape:  # class probabilities, one row per sample
        if target._array.dtype.kind != "f":
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{_type_name(target)}")
        if label_smoothing > 0.0:  # mix the target with the uniform distribution over the C classes
            target = target * (1 - label_smoothing) + label_smoothing / input._array.shape[class_dim]
        logp = log_softmax(input, class_dim)
        if weight is not None:  # one weight per class, lined up with the class dimension
            logp = logp * weight.reshape((-1,) + (1,) * (input._array.ndim - class_dim - 1))
        terms = logp * target
        if reduction == "none":
            return -terms.sum(class_dim)
        total = -terms.sum()
        return DivScalar.apply(total, input._array.size // input._array.shape[class_dim]) \
            if reduction == "mean" else total
    logp = log_softmax(input, class_dim)
    loss = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing > 0.0:
        loss = _smoothed(loss, logp, target, weight, ignore_index, reduction, label_smoothing, class_dim)
    return loss


def _smoothed(nll: Tensor, logp: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int, reduction: str,
              eps: float, class_dim: int) -> Tensor:
    """Label smoothing: the target is (1 - eps) on the true class plus eps/C on every class, so the loss is
    ``(1 - eps) * nll + eps/C * sum_c -log p_c`` (times the class weights), the second term averaged over the same
    samples as nll's mean (the ones not ignored, weighted by their class's weight)."""
    classes = logp._array.shape[class_dim]
    if weight is not None:
        logp = logp * weight.reshape((-1,) + (1,) * (logp._array.ndim - class_dim - 1))
    smooth = -logp.sum(class_dim)
    ignored = target == ignore_index
    smooth = smooth.masked_fill(ignored, 0.0)
    if reduction == "mean":
        kept = target._array[~ignored._array]
        count = weight._array[kept].sum() if weight is not None else float(kept.size)
        smooth = smooth.sum() / _wrap(np.asarray(count, dtype=smooth._array.dtype))
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - eps) * nll + smooth * (eps / classes)


# ------------------------------------------------------------------------------------------------ activations
class LeakyRelu(Function):
    """x where x > 0, ``negative_slope * x`` elsewhere: a ReLU whose negative side keeps a small slope, so a
    unit pushed below 0 still gets a gradient. ``dx = g`` where x > 0, ``g * negative_slope`` elsewhere
    (:class:`LeakyReluBackward`)."""

    node_name = "LeakyReluBackward0"
    saved_names = ("self",)  # (and _saved_negative_slope, a number, set directly)

    @staticmethod
    def forward(ctx: Any, x: Tensor, negative_slope: float) -> np.ndarray:
        ctx._saved_negative_slope = negative_slope
        a = x._array
        out = np.where(a > 0, a, a * a.dtype.type(negative_slope))
        ctx.save_for_backward(x if ctx._forward_cls is LeakyRelu else RESULT)  # (in place: the output, x itself)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (saved,) = ctx.saved_tensors
        if ctx._forward_cls is not LeakyRelu and ctx._saved_negative_slope < 0:  # (the result's sign is then not x's)
            raise RuntimeError(_LEAKY_NEGATIVE_IN_PLACE)
        return LeakyReluBackward.apply(g, saved, ctx._saved_negative_slope), None


class LeakyReluOfResult(LeakyRelu):
    """leaky_relu computed in place (``F.leaky_relu_(x)``): x is overwritten, so the gradient is read from the
    result, whose sign is x's when the slope is not negative (PyTorch's LeakyReluBackward1)."""

    node_name = "LeakyReluBackward1"
    saved_names = ("result",)


_LEAKY_NEGATIVE_IN_PLACE = (
    "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. This is caused "
    "by calling in-place forward function with a negative slope, please call out-of-place version instead. File an "
    "issue at https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu backward calculation "
    "with negative slope")


class LeakyReluBackward(Function):
    """leaky_relu's gradient as an op (PyTorch's ``leaky_relu_backward``): g where x > 0, ``g * negative_slope``
    elsewhere. Recorded only with create_graph; like relu's, it is linear in g (its derivative there is the
    same op) and its derivative in x is 0."""

    node_name = "LeakyReluBackwardBackward0"
    saved_names = ("self",)  # (and _saved_negative_slope)

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, negative_slope: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx._saved_negative_slope = negative_slope
        a = g._array
        return np.where(x._array > 0, a, a * a.dtype.type(negative_slope))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        slope = ctx._saved_negative_slope
        dg = LeakyReluBackward.apply(gg, x, slope) if ctx.needs_input_grad[0] else None
        return dg, (_wrap(np.zeros_like(gg._array)) if ctx.needs_input_grad[1] else None), None


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x for x > 0, ``negative_slope * x`` otherwise (see :class:`LeakyRelu`)."""
    if inplace:
        return _inplace(input, lambda s: LeakyReluOfResult.apply(s, negative_slope))
    return LeakyRelu.apply(input, negative_slope)


class Threshold(Function):
    """x where x > threshold, ``value`` elsewhere (relu is threshold(x, 0, 0)). Flat below the threshold:
    ``dx = g`` where x > threshold, 0 elsewhere (PyTorch's ``threshold_backward``, ``ThresholdBackwardBackward0``
    when create_graph records it)."""

    node_name = "ThresholdBackward0"
    saved_names = ("self",)  # (and _saved_threshold, a number)

    @staticmethod
    def forward(ctx: Any, x: Tensor, threshold: float, value: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx._saved_threshold = threshold
        a = x._array
        return np.where(a > threshold, a, np.asarray(value).astype(a.dtype))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return ThresholdBackward.apply(g, x, ctx._saved_threshold), None, None


class ThresholdInPlace(Threshold):
    """``threshold_``: the same, recorded as PyTorch records the in-place form (``ThresholdBackward1``)."""

    node_name = "ThresholdBackward1"


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """x where x > threshold, ``value`` elsewhere (see :class:`Threshold`); ``inplace=True`` writes into input."""
    if inplace:
        return _inplace(input, lambda s: ThresholdInPlace.apply(s, threshold, value))
    return Threshold.apply(input, threshold, value)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    return globals()["threshold"](input, threshold, value, inplace=True)


# The in-place activations as functions of their own, as PyTorch also offers them: ``F.relu_(x)`` is
# ``F.relu(x, inplace=True)``, the same node (ReluBackward0) recorded on x.
def relu_(input: Tensor) -> Tensor:
    return relu(input, inplace=True)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return elu(input, alpha, inplace=True)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return hardtanh(input, min_val, max_val, inplace=True)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return celu(input, alpha, inplace=True)


def selu_(input: Tensor) -> Tensor:
    return selu(input, inplace=True)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """In training, zero each element with probability p and scale the others by 1 / (1 - p), so that the
    expected value is unchanged; in evaluation (``training=False``) the input itself. As in PyTorch the graph
    records a multiplication by the (constant) mask: MulBackward0, whose gradient is masked the same way."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    a = input._array  # (the mask as PyTorch draws it: bernoulli(1 - p), then divided by 1 - p in a's dtype)
    keep = _dropout_keep(a, p) if p < 1 else np.zeros(a.shape, bool)
    mask = _wrap(keep.astype(a.dtype) / a.dtype.type(1 - p) if p < 1 else np.zeros(a.shape, a.dtype))
    return _inplace(input, lambda s: s * mask) if inplace else input * mask


def _dropout_keep(a: np.ndarray, p: float) -> np.ndarray:
    """Which elements dropout keeps, drawn as PyTorch draws them: into a tensor laid out like the input (a
    transposed input, such as batch_first attention's output, is filled in its memory order, not its index order)."""
    order = sorted(range(a.ndim), key=lambda d: a.strides[d], reverse=True)
    if a.flags.c_contiguous or not a.transpose(order).flags.c_contiguous:  # (only a permuted dense layout is kept)
        return default_generator.bernoulli(a.shape, 1 - p)
    return in_memory_order(a, lambda shape: default_generator.bernoulli(shape, 1 - p))


_SELU_ALPHA_PRIME = 1.7580993408473766  # selu's scale * alpha: the value alpha dropout sets dropped units to (negated)


def _noisy(input: Tensor, p: float, training: bool, inplace: bool, feature: bool, alpha: bool) -> Tensor:
    """The dropouts as PyTorch's ``_dropout_impl`` computes them: a mask ("noise") drawn with bernoulli(1 - p), of
    the input's shape or, for the feature dropouts, (N, C, 1, ...) (one draw per channel, broadcast over its cells);
    then input * noise / (1 - p), or, for alpha dropout, input * a noise + b, where a and b keep selu's mean 0 and
    variance 1 (a dropped unit becomes -a alpha', not 0). The graph: MulBackward0 (then AddBackward0 for alpha)."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    a = input._array
    if p == 0 or not training or a.size == 0:
        return input
    if p == 1:
        zero = _wrap(np.zeros((), a.dtype))
        return _inplace(input, lambda t: t * zero) if inplace else input * zero
    shape = (*a.shape[:2], *[1] * (a.ndim - 2)) if feature else a.shape
    noise = default_generator.bernoulli(shape, 1 - p).astype(a.dtype)
    if not alpha:
        mask = _wrap(noise / a.dtype.type(1 - p))
        return _inplace(input, lambda t: t * mask) if inplace else input * mask
    scale = 1 / math.sqrt((_SELU_ALPHA_PRIME ** 2 * p + 1) * (1 - p))
    b = _wrap((noise - 1) * a.dtype.type(_SELU_ALPHA_PRIME * scale) + a.dtype.type(_SELU_ALPHA_PRIME * scale * p))
    mask = _wrap(noise * a.dtype.type(scale))
    return _inplace(input, lambda t: t * mask + b) if inplace else input * mask + b


def _channel_dropout(name: str, input: Tensor, p: float, training: bool, inplace: bool, dims: int) -> Tensor:
    """dropout1d/2d/3d: whole channels of (N, C, *spatial) zeroed (``dims`` spatial dims, the batch optional)."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    ndim = input._array.ndim
    if dims == 1 and ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {ndim}D input. Note that dropout1d "
                           "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel "
                           "dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    if dims > 1 and ndim not in (dims + 1, dims + 2):
        warnings.warn(f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will result in an error "
                      "in a future release. To retain the behavior and silence this warning, please use dropout "
                      f"instead. Note that {name} exists to provide channel-wise dropout on inputs with {dims} spatial "
                      f"dimensions, a channel dimension, and an optional batch dimension (i.e. {dims + 1}D or "
                      f"{dims + 2}D inputs).", stacklevel=3)
    unbatched = ndim == dims + 1 and dims != 2  # (PyTorch reads a 3-d input to dropout2d as batched (N, C, L))
    if dims == 2 and ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                      "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
                      "will change in a future release to interpret the input as one without a batch dimension, i.e. "
                      "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
                      "dropout1d instead.", stacklevel=3)
    if unbatched:
        x = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
        out = _noisy(x, p, training, inplace, True, False)
        return out.squeeze_(0) if inplace else out.squeeze(0)
    return _noisy(input, p, training, inplace, True, False)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, L) or (C, L), each with probability p, scaling the rest by 1 / (1 - p)."""
    return _channel_dropout("dropout1d", input, p, training, inplace, 1)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole feature maps of (N, C, H, W) or (C, H, W): neighbouring pixels are correlated, so dropping single
    pixels would regularise little; dropping a channel removes a feature everywhere."""
    return _channel_dropout("dropout2d", input, p, training, inplace, 2)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W)."""
    return _channel_dropout("dropout3d", input, p, training, inplace, 3)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Dropout for selu networks: dropped units are set to selu's negative saturation and the result is shifted and
    scaled so that mean and variance stay as they were (see ``_noisy``)."""
    return _noisy(input, p, training, inplace, False, True)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Alpha dropout of whole channels (N, C, *)."""
    return _noisy(input, p, training, inplace, True, True)


# ``torch.dropout(input, p, train)`` and its kin: the functions at the top of torch that nn.functional's call, with
# ``train`` a required argument (and an in-place form of each).
_NO_TRAIN: Any = object()


def _train_given(name: str, train: Any) -> None:
    if train is _NO_TRAIN:  # (Python's own message would say "argument: 'train'"; PyTorch's parser words it so)
        raise TypeError(f'{name}() missing 1 required positional arguments: "train"')


def _top_dropout(name: str, feature: bool, alpha: bool, inplace: bool) -> Any:
    def fn(input: Tensor, p: float, train: bool = _NO_TRAIN) -> Tensor:
        _train_given(name, train)
        if not (feature or alpha):
            return dropout(input, p, train, inplace)
        return _noisy(input, p, train, inplace, feature, alpha)

    fn.__name__ = fn.__qualname__ = name
    kind = ("feature " if feature else "") + ("alpha " if alpha else "")
    fn.__doc__ = f"``torch.{name}(input, p, train)``: {kind}dropout{' in place' if inplace else ''} (nn.functional's)."
    return fn


dropout_top, dropout_top_ = _top_dropout("dropout", False, False, False), _top_dropout("dropout_", False, False, True)
feature_dropout, feature_dropout_ = (_top_dropout("feature_dropout", True, False, False),
                                     _top_dropout("feature_dropout_", True, False, True))
alpha_dropout_top, alpha_dropout_ = (_top_dropout("alpha_dropout", False, True, False),
                                     _top_dropout("alpha_dropout_", False, True, True))
feature_alpha_dropout_top, feature_alpha_dropout_ = (_top_dropout("feature_alpha_dropout", True, True, False),
                                                     _top_dropout("feature_alpha_dropout_", True, True, True))


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices (int64) as rows of 0s with a 1 at the class: shape ``tensor.shape + (num_classes,)``, int64.
    With ``num_classes=-1`` there are max(tensor) + 1 classes."""
    t = tensor._array
    if t.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if t.size and t.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1 and not t.size:
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    n = int(t.max()) + 1 if num_classes == -1 else num_classes
    if t.size and t.max() >= n:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return _wrap((t[..., None] == np.arange(n)).astype(np.int64))


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0). With ``inplace=True`` the result is written into ``input`` itself."""
    if inplace:
        return _inplace(input, lambda s: elementwise.Relu.apply(s))
    return elementwise.Relu.apply(input)


def sigmoid(input: Tensor) -> Tensor:
    return elementwise.Sigmoid.apply(input)


def tanh(input: Tensor) -> Tensor:
    return elementwise.Tanh.apply(input)


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    """PyTorch's old implicit choice when ``dim`` is not given (deprecated: always pass dim)."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                  "as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """e^x / sum e^x along ``dim``: non-negative numbers summing to 1 (probabilities)."""
    if dim is None:
        dim = _softmax_dim("softmax", input._array.ndim, _stacklevel)
    return _softmax(input, dim, dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: Any = None) -> Tensor:
    """log(softmax(x)) = x - log sum e^x, computed without overflow."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input._array.ndim, _stacklevel)
    return _log_softmax(input, dim, dtype)


# ------------------------------------------------------------------------------------------------ smooth activations
# PyTorch's constants (each rounded to the tensor's dtype where it is used), so that values agree to the last bit.
_SQRT1_2 = 0.7071067811865476  # 1 / sqrt 2
_PDF_SCALE = 0.3989422804014327  # 1 / sqrt(2 pi): the normal density is _PDF_SCALE * e^(-x**2 / 2)
_TANH_BETA, _TANH_KAPPA = 0.7978845608028654, 0.044715  # sqrt(2 / pi), and the cubic term's weight


def _erf(a: np.ndarray) -> np.ndarray:
    """The error function erf(z) = 2/sqrt(pi) * integral of e^(-t**2) from 0 to z, element-wise (numpy has none).

    float32, as PyTorch's CPU kernel computes it: Abramowitz and Stegun's formula 7.1.26,
    ``erf z = 1 - t (a1 + t (a2 + ... t a5)) e^(-z**2)`` with ``t = 1 / (1 + p |z|)``, sign restored, off by
    at most 1.5e-7 (about one float32 step near 1) and fast: a dozen array operations. Other dtypes (float64
    for gradcheck) get ``math.erf``, exact but one Python call per element.
    """
    if a.dtype != np.float32:
        return np.frompyfunc(math.erf, 1, 1)(a).astype(a.dtype)
    f = np.float32
    z = np.abs(a)
    t = f(1) / (f(0.3275911) * z + f(1))
    poly = (((f(1.061405429) * t - f(1.453152027)) * t + f(1.421413741)) * t - f(0.284496736)) * t + f(0.254829592)
    return np.copysign(f(1) - np.exp(-(a * a)) * t * poly, a)


def _gelu_values(a: np.ndarray, approximate: str) -> np.ndarray:
    """gelu(x) = x * Phi(x), Phi the standard normal's cumulative distribution."""
    if approximate == "tanh":
        inner = a.dtype.type(_TANH_BETA) * (a + a.dtype.type(_TANH_KAPPA) * (a * a * a))
        return a.dtype.type(0.5) * a * (1 + np.tanh(inner))
    erf = _erf(a * a.dtype.type(_SQRT1_2))
    if a.dtype != np.float32:
        return a * 0.5 * (1 + erf)
    # float32, as PyTorch's kernel: x/2 * erf + x/2 in one rounding (a fused multiply-add, done here in float64),
    # which is +0. where erf rounds to -1
    half = a * np.float32(0.5)
    return (half.astype(np.float64) * erf + half).astype(np.float32)


def _gelu_slope(a: np.ndarray, approximate: str) -> np.ndarray:
    """gelu'(x) = Phi(x) + x * phi(x) (phi the normal density), or the tanh form's derivative."""
    c = a.dtype.type
    if approximate == "tanh":
        a2 = a * a
        th = np.tanh(c(_TANH_BETA) * (a + c(_TANH_KAPPA) * (a2 * a)))
        d_inner = c(_TANH_BETA) * (1 + c(3) * c(_TANH_KAPPA) * a2)
        return c(0.5) * (1 + th) + c(0.5) * a * (1 - th * th) * d_inner
    cdf = c(0.5) * (1 + _erf(a * c(_SQRT1_2)))
    pdf = c(_PDF_SCALE) * np.exp(a * a * c(-0.5))
    return cdf + a * pdf


class Gelu(Function):
    """The Gaussian Error Linear Unit, the activation of transformers (BERT, GPT):

        gelu(x) = x * Phi(x) = x/2 * (1 + erf(x / sqrt 2))        Phi: the normal distribution's CDF

    x weighted by how likely a standard normal sample is to be below it: near x for large x, near 0 for very
    negative x, smooth in between (and slightly negative, with a minimum of -0.17 at x = -0.75).
    ``approximate='tanh'`` uses the older approximation x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x**3))).

        dx = g * (Phi(x) + x phi(x))          phi(x) = e^(-x**2/2) / sqrt(2 pi), the normal density
    """

    node_name = "GeluBackward0"
    saved_names = ("self",)  # (and _saved_approximate)

    @staticmethod
    def forward(ctx: Any, x: Tensor, approximate: str) -> np.ndarray:
        elementwise._check_float_kernel(x._array, "GeluKernelImpl")
        ctx.save_for_backward(x)
        ctx._saved_approximate = approximate
        return _gelu_values(x._array, approximate)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return GeluBackward.apply(g, x, ctx._saved_approximate), None


class GeluBackward(Function):
    """gelu's gradient ``g * gelu'(x)`` as an op (PyTorch's ``gelu_backward``). Linear in g (d/dg is this op
    again); in x, ``gg * g * gelu''(x)``, written with tensor ops so that it can be differentiated once more:

        gelu''(x) = phi(x) (2 - x**2)                                           (exact form)
        gelu''(x) = (1 - T**2) (u' + x/2 (u'' - 2 T u'**2))   T = tanh u, u = sqrt(2/pi) (x + 0.044715 x**3)
    """

    node_name = "GeluBackwardBackward0"
    saved_names = ("grad_output", "self")

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, approximate: str) -> np.ndarray:
        ctx.save_for_backward(g, x)
        ctx._saved_approximate = approximate
        return g._array * _gelu_slope(x._array, approximate)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, x = ctx.saved_tensors
        approximate = ctx._saved_approximate
        dg = GeluBackward.apply(gg, x, approximate) if ctx.needs_input_grad[0] else None
        dx = None
        if ctx.needs_input_grad[1]:
            x2 = x * x
            if approximate == "tanh":
                th = ((x + x2 * x * _TANH_KAPPA) * _TANH_BETA).tanh()
                du = (x2 * (3 * _TANH_KAPPA) + 1) * _TANH_BETA
                ddu = x * (6 * _TANH_KAPPA * _TANH_BETA)
                curvature = (1 - th * th) * (du + x * 0.5 * (ddu - th * du * du * 2))
            else:
                pdf = (x2 * -0.5).exp() * _PDF_SCALE
                curvature = pdf * 2 - x2 * pdf
            dx = gg * g * curvature
        return dg, dx, None


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """x * Phi(x), Phi the standard normal CDF (see :class:`Gelu`); ``approximate='tanh'`` for the tanh form."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return Gelu.apply(input, approximate)


class Silu(Function):
    """The Sigmoid Linear Unit (also called swish): x times its own sigmoid, ``silu(x) = x * s(x) = x / (1 + e^-x)``.
    Smooth like gelu, and close to it.

        dx = g * (s + x s (1 - s)) = g * s * (1 + x (1 - s))          s = sigmoid(x)
    """

    node_name = "SiluBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        elementwise._check_float_kernel(x._array, "silu_cpu")
        ctx.save_for_backward(x)
        a = x._array
        return a / (1 + _exp(-a))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        s = x.sigmoid()
        return g * s * (x * (1 - s) + 1)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x * sigmoid(x) (see :class:`Silu`)."""
    if inplace:
        return _inplace(input, Silu.apply)
    return Silu.apply(input)


class Softplus(Function):
    """A smooth relu: ``softplus(x) = log(1 + e^(beta x)) / beta``. Where ``beta x > threshold`` it is x itself
    (log(1 + e^20) and 20 differ by 2e-9, below float32's resolution there; and e^(beta x) would overflow
    for beta x > 88).

        dx = g * sigmoid(beta x)        (= g where beta x > threshold)
    """

    node_name = "SoftplusBackward0"
    saved_names = ("self",)  # (and _saved_beta, _saved_threshold)

    @staticmethod
    def forward(ctx: Any, x: Tensor, beta: float, threshold: float) -> np.ndarray:
        elementwise._check_float_kernel(x._array, "softplus_cpu")
        ctx.save_for_backward(x)
        ctx._saved_beta, ctx._saved_threshold = beta, threshold
        a = x._array
        bx = a * a.dtype.type(beta)
        soft = _log1p(_exp(bx))  # (as PyTorch's kernel: exp, then log1p of it)
        return np.where(bx > threshold, a, soft / a.dtype.type(beta))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return SoftplusBackward.apply(g, x, ctx._saved_beta, ctx._saved_threshold), None, None


class SoftplusBackward(Function):
    """softplus's gradient ``g * z / (z + 1)``, z = e^(beta x) (g itself past the threshold), as an op
    (PyTorch's ``softplus_backward``). Linear in g; in x, ``gg * g * beta s (1 - s)`` with s = sigmoid(beta x)
    (0 where beta x >= threshold)."""

    node_name = "SoftplusBackwardBackward0"
    saved_names = ("grad_output", "self")

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, beta: float, threshold: float) -> np.ndarray:
        ctx.save_for_backward(g, x)
        ctx._saved_beta, ctx._saved_threshold = beta, threshold
        a, b = x._array, g._array
        bx = a * a.dtype.type(beta)
        z = np.exp(bx)
        return np.where(bx > threshold, b, b * z / (z + 1))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, x = ctx.saved_tensors
        beta, threshold = ctx._saved_beta, ctx._saved_threshold
        dg = SoftplusBackward.apply(gg, x, beta, threshold) if ctx.needs_input_grad[0] else None
        dx = None
        if ctx.needs_input_grad[1]:
            bx = x * beta
            s = bx.sigmoid()
            below = _wrap((bx._array < threshold).astype(x._array.dtype))
            dx = gg * g * (1 - s) * s * below * beta
        return dg, dx, None, None


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """log(1 + e^(beta x)) / beta, a smooth relu (see :class:`Softplus`)."""
    return Softplus.apply(input, beta, threshold)


class Elu(Function):
    """The Exponential Linear Unit: x for x > 0, ``alpha * (e^x - 1)`` below: a relu whose negative side
    bends smoothly down to -alpha, so negative inputs keep a gradient.

        dx = g                  for x > 0
        dx = g * alpha e^x      for x <= 0    (= g * (out + alpha))
    """

    node_name = "EluBackward0"
    saved_names = ("self",)  # (and _saved_alpha, _saved_scale, _saved_input_scale)

    @staticmethod
    def forward(ctx: Any, x: Tensor, alpha: float) -> np.ndarray:
        elementwise._check_float_kernel(x._array, "elu_cpu")
        ctx._saved_alpha, ctx._saved_scale, ctx._saved_input_scale = alpha, 1, 1
        a = x._array
        out = np.where(a > 0, a, _expm1(a) * a.dtype.type(alpha))
        ctx.save_for_backward(x if ctx._forward_cls is Elu else RESULT)  # (in place: the output, x itself)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (saved,) = ctx.saved_tensors
        return EluBackward.apply(g, saved, ctx._saved_alpha, ctx._forward_cls is not Elu), None


class EluOfResult(Elu):
    """elu computed in place (``F.elu(x, inplace=True)``): x is overwritten, so the gradient is computed from
    the result instead, alpha e^x = out + alpha (PyTorch's second formula, EluBackward1)."""

    node_name = "EluBackward1"
    saved_names = ("result",)


class EluBackward(Function):
    """elu's gradient as an op (PyTorch's ``elu_backward``): g where x > 0, ``g * alpha e^x`` elsewhere
    (from the result: ``g * (out + alpha)``). Linear in g; in x, ``gg * g * alpha e^x`` where x <= 0, else 0."""

    node_name = "EluBackwardBackward0"
    saved_names = ("grad_output", "self_or_result")

    @staticmethod
    def forward(ctx: Any, g: Tensor, saved: Tensor, alpha: float, is_result: bool) -> np.ndarray:
        ctx.save_for_backward(g, saved)
        ctx._saved_alpha, ctx.is_result = alpha, is_result
        a, b, al = saved._array, g._array, saved._array.dtype.type(alpha)
        return np.where(a <= 0, b * (a + al) if is_result else b * al * _exp(a), b)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, saved = ctx.saved_tensors
        alpha = ctx._saved_alpha
        dg = EluBackward.apply(gg, saved, alpha, ctx.is_result) if ctx.needs_input_grad[0] else None
        dsaved = None
        if ctx.needs_input_grad[1]:
            # d/dx of g alpha e^x is g alpha e^x; d/d(out) of g (out + alpha) is g. Both 0 on the linear side
            # and, as PyTorch defines it, at 0 itself (its mask is x < 0, where the forward's is x <= 0).
            negative = _wrap((saved._array < 0).astype(saved._array.dtype))
            ggg = gg * g if ctx.is_result else EluBackward.apply(gg * g, saved, alpha, False)
            dsaved = ggg * negative
        return dg, dsaved, None, None


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x for x > 0, alpha (e^x - 1) below (see :class:`Elu`)."""
    if inplace:
        return _inplace(input, lambda s: EluOfResult.apply(s, alpha))
    return Elu.apply(input, alpha)


class Hardtanh(Function):
    """x clamped to [min_val, max_val]: a piecewise-linear tanh. ``relu6`` is hardtanh(x, 0, 6).

        dx = g  strictly inside (min_val, max_val),  0 at and beyond the bounds
    """

    node_name = "HardtanhBackward0"
    saved_names = ("self",)  # (and _saved_min_val, _saved_max_val)

    @staticmethod
    def forward(ctx: Any, x: Tensor, min_val: float, max_val: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx._saved_min_val, ctx._saved_max_val = min_val, max_val
        a = x._array
        if a.dtype.kind != "f":
            return np.clip(a, math.ceil(min_val), math.floor(max_val)).astype(a.dtype)
        return np.clip(a, a.dtype.type(min_val), a.dtype.type(max_val))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return HardtanhBackward.apply(g, x, ctx._saved_min_val, ctx._saved_max_val), None, None


class HardtanhBackward(Function):
    """hardtanh's gradient as an op (PyTorch's ``hardtanh_backward``): g strictly between the bounds, 0
    elsewhere (masked, so an infinite g gives 0 there). Linear in g; its derivative in x is 0."""

    node_name = "HardtanhBackwardBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, min_val: float, max_val: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx._saved_min_val, ctx._saved_max_val = min_val, max_val
        a, b = x._array, g._array
        return np.where((a <= min_val) | (a >= max_val), b.dtype.type(0), b)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        dg = HardtanhBackward.apply(gg, x, ctx._saved_min_val, ctx._saved_max_val) if ctx.needs_input_grad[0] \
            else None
        return dg, (_wrap(np.zeros_like(gg._array)) if ctx.needs_input_grad[1] else None), None, None


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """x clamped to [min_val, max_val] (see :class:`Hardtanh`)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return _inplace(input, lambda s: Hardtanh.apply(s, min_val, max_val))
    return Hardtanh.apply(input, min_val, max_val)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """min(max(x, 0), 6): a relu capped at 6, recorded as hardtanh(x, 0, 6) (HardtanhBackward0)."""
    return hardtanh(input, 0.0, 6.0, inplace)


class LogSigmoid(Function):
    """log(sigmoid(x)) = -log(1 + e^-x), computed as ``min(x, 0) - log(1 + e^-|x|)`` so that neither
    exponential overflows: log_sigmoid(-100) is -100, not log(0) = -inf.

        dx = g * (1 - sigmoid(x)) = g * sigmoid(-x)
    """

    node_name = "LogSigmoidBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        elementwise._check_float_kernel(x._array, "log_sigmoid_cpu")
        ctx.save_for_backward(x)
        a = x._array
        return np.minimum(a, 0) - _log1p(_exp(-np.abs(a)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return LogSigmoidBackward.apply(g, x)


class LogSigmoidBackward(Function):
    """log_sigmoid's gradient as an op (PyTorch's ``log_sigmoid_backward``), stable for large |x|:
    ``g * (1[x < 0] -+ z / (1 + z))`` with z = e^-|x| (+ for x >= 0). Linear in g; in x,
    ``gg * g * s (s - 1)`` with s = sigmoid(x) (the derivative of 1 - s)."""

    node_name = "LogSigmoidBackwardBackward0"
    saved_names = ("grad_output", "self")

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(g, x)
        a = x._array
        negative = a < 0
        z = _exp(-np.abs(a))
        return g._array * (negative.astype(a.dtype) - np.where(negative, 1, -1).astype(a.dtype) * (z / (1 + z)))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, x = ctx.saved_tensors
        dg = LogSigmoidBackward.apply(gg, x) if ctx.needs_input_grad[0] else None
        if not ctx.needs_input_grad[1]:
            return dg, None
        s = x.sigmoid()
        return dg, gg * g * (s - 1) * s


def logsigmoid(input: Tensor) -> Tensor:
    """log(sigmoid(x)), computed stably (see :class:`LogSigmoid`)."""
    return LogSigmoid.apply(input)


# ------------------------------------------------------------------------------------------------ more losses
# l1_loss and kl_div are compositions of tensor ops (as in PyTorch, whose graphs show their last op: MeanBackward0
# ...); smooth_l1_loss and huber_loss are Functions of their own, whose gradients are ops too (PyTorch's
# smooth_l1_loss_backward and huber_loss_backward), so that create_graph shows the same nodes.


def _same_size(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """``input`` and ``target`` broadcast to one shape, with PyTorch's warning when their shapes differ (almost
    always a bug: a (3, 1) input against a (3,) target compares every pair)."""
    if input._array.shape != target._array.shape:
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size "
                      f"({input.size()}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=3)
        _check_broadcast(input, target)
        shape = np.broadcast_shapes(input._array.shape, target._array.shape)
        input, target = input.expand(shape), target.expand(shape)
    return input, target


def _apply_reduction(losses: Tensor, reduction: str) -> Tensor:
    return losses.mean() if reduction == "mean" else losses.sum() if reduction == "sum" else losses


def l1_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
            weight: Tensor | None = None) -> Tensor:
    """Mean absolute error ``mean(|input - target|)``: like mse_loss but linear in the error, so an outlier
    weighs in proportion to its distance, not its square. dl/dx = sign(x - y) (0 at x = y). ``weight``
    (input's shape) multiplies each error; the mean is then a weighted mean, sum(w |d|) / sum(w)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    input, target = _same_size(input, target)
    if weight is None:
        _check_reduction(reduction)
        return _apply_reduction((input - target).abs(), reduction)
    losses = _weighted((input - target).abs(), weight, input, reduction)
    return losses.sum() / weight.sum() if reduction == "mean" else losses


def _weighted(losses: Tensor, weight: Tensor, input: Tensor, reduction: str) -> Tensor:
    """Per-element losses times ``weight``, summed for 'sum' (the caller divides for 'mean')."""
    if weight._array.shape != input._array.shape:
        raise ValueError("Weights and input must have the same size.")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")
    losses = losses * weight
    return losses.sum() if reduction == "sum" else losses


class SmoothL1Loss(Function):
    """Squared near 0, absolute further away: with d = x - y,

        l = 0.5 d**2 / beta        for |d| < beta
        l = |d| - 0.5 beta         elsewhere          (the two pieces meet with the same value and slope)
        dl/dx = d / beta inside, sign(d) outside: the gradient never exceeds 1 in size (robust to outliers)

    ``HuberLoss`` is the same curve scaled by delta = beta. See :class:`SmoothL1LossBackward` for the gradient op.
    """

    node_name = "SmoothL1LossBackward0"
    saved_names = ("self", "target")  # (and _saved_beta, _saved_reduction)
    huber = False

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor, reduction: str, k: float) -> np.ndarray:
        ctx.save_for_backward(x, y)
        _set_reduction(ctx, reduction)
        setattr(ctx, "_saved_delta" if ctx._forward_cls.huber else "_saved_beta", k)
        ctx.k = k
        a = x._array
        kk = a.dtype.type(k)
        z = np.abs(a - y._array)
        if ctx._forward_cls.huber:
            losses = np.where(z < kk, a.dtype.type(0.5) * z * z, kk * (z - a.dtype.type(0.5) * kk))
        else:
            losses = np.where(z < kk, a.dtype.type(0.5) * z * z / kk, z - a.dtype.type(0.5) * kk)
        return _reduce(losses, reduction)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        op = HuberLossBackward if ctx._forward_cls.huber else SmoothL1LossBackward
        # (the curve depends on x - y only: y's gradient is the same op with the roles swapped, as in PyTorch)
        dx = op.apply(g, x, y, ctx.reduction, ctx.k) if ctx.needs_input_grad[0] else None
        dy = op.apply(g, y, x, ctx.reduction, ctx.k) if ctx.needs_input_grad[1] else None
        return dx, dy, None, None


class HuberLoss(SmoothL1Loss):
    """The Huber loss: ``0.5 d**2`` for |d| < delta, ``delta (|d| - 0.5 delta)`` elsewhere: smooth_l1_loss times
    delta, so the slope far away is delta (dl/dx = d inside, delta sign(d) outside)."""

    node_name = "HuberLossBackward0"
    saved_names = ("self", "target")  # (and _saved_delta, _saved_reduction)
    huber = True


class SmoothL1LossBackward(Function):
    """smooth_l1_loss's gradient as an op (PyTorch's ``smooth_l1_loss_backward``), n the number of elements for
    the mean (1 otherwise), d = x - y::

        g * sign(d) / n   for |d| >= beta         d g / (n beta)   inside

    Linear in g (d/dg: the same op applied to gg, summed back to g's shape); in x, ``gg g / (n beta)`` inside and
    0 outside (the curvature of the quadratic piece)."""

    node_name = "SmoothL1LossBackwardBackward0"
    saved_names = ("grad_output", "self", "target")
    huber = False

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, y: Tensor, reduction: str, k: float) -> np.ndarray:
        ctx.save_for_backward(g, x, y)
        ctx.reduction, ctx.k = reduction, k
        a = x._array
        t = a.dtype.type
        norm, kk, b = t(1 / a.size if reduction == "mean" else 1), t(k), g._array
        d = a - y._array
        if ctx._forward_cls.huber:  # PyTorch's order of the products, so the bits agree
            inside, outside = norm * d * b, norm * b * kk
            return np.where(d <= -kk, -outside, np.where(d >= kk, outside, inside))
        inside, outside = norm * d * b / kk, norm * b
        return np.where(d < -kk, -outside, np.where(d > kk, outside, inside))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, x, y = ctx.saved_tensors
        op, k, reduction = ctx._forward_cls, ctx.k, ctx.reduction
        dg = dx = dy = None
        if ctx.needs_input_grad[0]:
            dg = op.apply(gg, x, y, "none", k)
            if reduction != "none":
                dg = dg.sum() / x._array.size if reduction == "mean" else dg.sum()
        if ctx.needs_input_grad[1] or ctx.needs_input_grad[2]:
            a = x._array - y._array
            inside = _wrap((np.abs(a) < k).astype(a.dtype))
            curvature = 1 if op.huber else 1 / k
            if reduction == "mean":
                curvature /= a.size
            dx = gg * g * inside * curvature
            dy = -dx if ctx.needs_input_grad[2] else None
            dx = dx if ctx.needs_input_grad[1] else None
        return dg, dx, dy, None, None


class HuberLossBackward(SmoothL1LossBackward):
    """huber_loss's gradient as an op: ``g d / n`` inside, ``g delta sign(d) / n`` outside (see above)."""

    node_name = "HuberLossBackwardBackward0"
    huber = True


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """Squared error near 0, absolute error beyond ``beta`` (see :class:`SmoothL1Loss`); beta = 0 is l1_loss."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    input, target = _same_size(input, target)
    if beta == 0:
        return _apply_reduction((input - target).abs(), reduction)
    input, target = _operands(input, target)
    return SmoothL1Loss.apply(input, target, reduction, beta)


def huber_loss(input: Tensor, target: Tensor, *, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """Squared error near 0, linear with slope ``delta`` beyond it (see :class:`HuberLoss`). ``weight`` (optional)
    multiplies each element's loss before the reduction."""
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    input, target = _same_size(input, target)
    input, target = _operands(input, target)
    if weight is None:
        _check_reduction(reduction)
        return HuberLoss.apply(input, target, reduction, delta)
    losses = _weighted(HuberLoss.apply(input, target, "none", delta), weight, input, reduction)
    return losses.mean() if reduction == "mean" else losses


_KL_MEAN_WARNING = ("reduction: 'mean' divides the total loss by both the batch size and the support size."
                    "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                    "'mean' will be changed to behave the same as 'batchmean' in the next major release.")


def kl_div(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """Kullback-Leibler divergence KL(target || q), with ``input`` the log-probabilities log q (e.g. from
    ``log_softmax``) and ``target`` the probabilities p (or log p with ``log_target=True``)::

        l = p (log p - log q)         (0 where p = 0: p log p -> 0)
        dl/d(log q) = -p              dl/dp = log p + 1 - log q

    ``reduction='batchmean'`` (sum / batch size) gives the true divergence of each sample averaged over the batch;
    'mean' divides by the number of elements as well, and PyTorch warns about it."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction == "mean":
        warnings.warn(_KL_MEAN_WARNING, UserWarning, stacklevel=2)
    elif reduction != "batchmean":
        _check_reduction(reduction)
    losses = target.exp() * (target - input) if log_target else _xlogx(target) - target * input
    if reduction == "batchmean":
        total = losses.sum()
        return total / input._array.shape[0] if input._array.ndim else total
    return _apply_reduction(losses, reduction)


def _xlogx(p: Tensor) -> Tensor:
    """p log p with its limit 0 at p = 0 (PyTorch's xlogy(p, p)), where the product would be 0 * -inf = nan."""
    return where(p == 0, 0.0, p * p.log())


# ------------------------------------------------------------------------------------------------ distances
def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Tensor | None = None) -> Tensor:
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``, so a zero vector stays zero): unit
    vectors, e.g. before a dot product that should measure only the angle."""
    if out is not None:
        raise NotImplementedError("tinygrad_edu's normalize returns a new tensor: call it without out=")
    return input / PNorm.apply(input, p, dim, True).clamp(min=eps).expand_as(input)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """cos of the angle between x1 and x2 along ``dim``: ``sum(x1 x2) / (|x1| |x2|)``, in [-1, 1] (each norm at
    least ``eps``). The inputs broadcast; each is normalised first, which keeps the products from overflowing."""
    if x1._array.shape != x2._array.shape:
        _check_broadcast(x1, x2)
        shape = np.broadcast_shapes(x1._array.shape, x2._array.shape)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = PNorm.apply(x1, 2.0, dim, True).clamp(min=eps)
    n2 = PNorm.apply(x2, 2.0, dim, True).clamp(min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


class AddScalar(Function):
    """x + c for a number c, as PyTorch records ``add(Tensor, Scalar)`` inside pairwise_distance (``x + 0.5`` in
    Python is AddBackward0 there too): the gradient passes unchanged, d(x + c)/dx = 1."""

    node_name = "AddBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor, other: float) -> np.ndarray:
        a = x._array
        return np.asarray(a + a.dtype.type(other), a.dtype)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g, None

    @staticmethod
    def jvp(ctx: Any, x_t: Tensor | None, _: Any) -> Tensor | None:
        return x_t


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """The ``p``-norm of ``x1 - x2 + eps`` along the last dimension: the distance between each pair of rows
    (eps keeps the gradient of the 2-norm finite when two rows are equal)."""
    d = AddScalar.apply(x1 - x2, eps)
    return PNorm.apply(d, p, max(x1._array.ndim, x2._array.ndim) - 1 if d._array.ndim else 0, keepdim)


class PNorm(Function):
    """The p-norm along one dimension, ``(sum |x|**p) ** (1/p)`` (p = inf: max |x|), PyTorch's ``norm`` (NormBackward1).

        dn/dx = sign(x) |x|**(p-1) / n**(p-1)      (p = 2: x / n; p = 1: sign x; p = inf: sign x at the maxima,
                                                    shared equally between ties; 0 where n = 0)
    """

    node_name = "NormBackward1"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx: Any, x: Tensor, p: float, dim: int, keepdim: bool) -> np.ndarray:
        a = x._array
        if a.dtype.kind != "f":
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                               f"{_type_name(x)}")
        dim = dim % a.ndim if a.ndim else None
        ctx.p, ctx.dim, ctx.keepdim = p, dim, keepdim
        z = np.abs(a)
        if p == math.inf:
            n = z.max(axis=dim, keepdims=True)
        elif p == 0:
            n = (z != 0).sum(axis=dim, keepdims=True).astype(a.dtype)
        elif p == 2:
            n = np.sqrt((z * z).sum(axis=dim, keepdims=True))
        else:
            n = (z ** a.dtype.type(p)).sum(axis=dim, keepdims=True) ** a.dtype.type(1 / p)
        result = _wrap(n.astype(a.dtype) if keepdim or dim is None else n.astype(a.dtype).squeeze(dim))
        ctx.save_for_backward(x, result)  # the output itself: with create_graph, its own history is differentiated
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, n = ctx.saved_tensors
        p = ctx.p
        if not ctx.keepdim and ctx.dim is not None:
            g, n = g.unsqueeze(ctx.dim), n.unsqueeze(ctx.dim)
        safe = n + _wrap((n._array == 0).astype(n._array.dtype))  # 1 where n = 0: the gradient is 0 there
        if p == 0:
            return x * 0, None, None, None
        if p == 1:
            return g * x.sign(), None, None, None
        if p == 2:
            return x / safe * g, None, None, None
        if p == math.inf:
            at_max = _wrap((np.abs(x._array) == n._array).astype(x._array.dtype))
            return g * x.sign() * at_max / at_max.sum(ctx.dim, keepdim=True), None, None, None
        return g * x.sign() * (x.abs() / safe) ** (p - 1), None, None, None


def _pnorm_grad(d: Tensor, n: Tensor, g: Tensor, p: float) -> Tensor:
    """pdist's gradient with respect to each difference d of a pair, from its distance n (PyTorch's kernel)::

        p = 2: g d / n     p = 1: g sign(d)     p = inf: g sign(d) at the largest |d| (every tie, in full)
        else:  g sign(d) |d|**(p-1) / n**(p-1)  (0 where n = 0, and where d = 0 for p < 1, not 0 * inf)
    """
    if p == 0:
        return d * 0
    if p == 1:
        return g * d.sign()
    safe = n + _wrap((n._array == 0).astype(n._array.dtype))  # 1 where n = 0: the gradient is 0 there
    if p == 2:
        return g * d / safe
    if p == math.inf:
        return g * d.sign() * _wrap((np.abs(d._array) == n._array).astype(d._array.dtype))
    size = d.abs() + _wrap((d._array == 0).astype(d._array.dtype)) if p < 1 else d.abs()  # (0 ** negative)
    return g * d.sign() * (size / safe) ** (p - 1)


class Pdist(Function):
    """The p-norm distance between every pair of rows i < j of an (N, M) input, in the order of the upper
    triangle (row 0 with 1, 2, ..., then row 1 with 2, ...): N (N - 1) / 2 numbers.

    Each distance depends on two rows only, through their difference d = x_i - x_j: its gradient (see
    ``_pnorm_grad``) is added to row i and subtracted from row j. The backward is written with tensor ops, so
    create_graph records it (PyTorch raises for a second derivative of pdist; here it is defined)."""

    node_name = "PdistBackward0"
    saved_names = ("self", "result")  # (and _saved_p)

    @staticmethod
    def forward(ctx: Any, x: Tensor, p: float) -> Tensor:
        a = x._array
        rows, cols = np.triu_indices(a.shape[0], 1)
        d = np.abs(a[rows] - a[cols])
        if p == math.inf:
            n = d.max(axis=1, initial=0)
        elif p == 0:
            n = (d != 0).sum(axis=1).astype(a.dtype)
        elif p == 2:
            n = np.sqrt((d * d).sum(axis=1))
        else:
            n = (d ** a.dtype.type(p)).sum(axis=1) ** a.dtype.type(1 / p)
        result = _wrap(n.astype(a.dtype))
        ctx.save_for_backward(x, result)
        ctx._saved_p, ctx.pairs = p, (_wrap(rows.astype(np.int64)), _wrap(cols.astype(np.int64)))
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, n = ctx.saved_tensors
        rows, cols = ctx.pairs
        gd = _pnorm_grad(x.index_select(0, rows) - x.index_select(0, cols), n.unsqueeze(1), g.unsqueeze(1),
                         ctx._saved_p)
        return (x * 0).index_add(0, rows, gd).index_add(0, cols, -gd), None


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm distances between all pairs of rows of an (N, M) input: the upper triangle of the (N, N)
    distance matrix, flattened (``N (N - 1) / 2`` numbers; each pair once, the zero diagonal left out)."""
    a = input._array
    if a.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {a.ndim}D")
    if a.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return Pdist.apply(input, float(p))


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """softmax(-x) along ``dim``: probabilities that favour the smallest entries."""
    if dim is None:
        dim = _softmax_dim("softmin", input._array.ndim, _stacklevel)
    return _softmax(-input, dim, dtype)


# ------------------------------------------------------------------------------------------------ more activations
_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805  # the constants that make selu self-normalising


class ScaledElu(Function):
    """The elu family in one formula (PyTorch's): ``scale * x`` for x > 0, ``scale * alpha * (e^(s x) - 1)`` below
    (s = input_scale). selu is scale 1.0507, alpha 1.6733, s = 1; celu(alpha) is scale 1, s = 1 / alpha.

        dx = g * scale                           for x > 0
        dx = g * scale * alpha * s * e^(s x)     for x <= 0     (= g * s * (out + scale * alpha), from the result)

    See :class:`ScaledEluBackward` for the gradient op.
    """

    node_name = "EluBackward0"
    saved_names = ("self",)  # (and _saved_alpha, _saved_scale, _saved_input_scale)
    kernel = "elu_cpu"
    from_result = False

    @staticmethod
    def forward(ctx: Any, x: Tensor, alpha: float, scale: float, input_scale: float) -> np.ndarray:
        elementwise._check_float_kernel(x._array, ctx._forward_cls.kernel)
        ctx._saved_alpha, ctx._saved_scale, ctx._saved_input_scale = alpha, scale, input_scale
        a = x._array
        t = a.dtype.type
        out = np.where(a > 0, a * t(scale), _expm1(a * t(input_scale)) * t(alpha * scale))
        ctx.save_for_backward(RESULT if ctx._forward_cls.from_result else x)  # (in place: the output)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (saved,) = ctx.saved_tensors
        return ScaledEluBackward.apply(g, saved, ctx._saved_alpha, ctx._saved_scale, ctx._saved_input_scale,
                                       ctx._forward_cls.from_result), None, None, None


class ScaledEluOfResult(ScaledElu):
    """selu computed in place: x is overwritten, so the gradient comes from the result (EluBackward1)."""

    node_name = "EluBackward1"
    saved_names = ("result",)
    from_result = True


class Celu(ScaledElu):
    """celu(x) = max(0, x) + min(0, alpha (e^(x / alpha) - 1)): elu with the exponential stretched by alpha, so
    that its slope at 0 is 1 from both sides (continuously differentiable for every alpha)."""

    node_name = "CeluBackward0"
    saved_names = ("self",)  # (and _saved_alpha)
    kernel = "elu_cpu"


class CeluOfResult(ScaledElu):
    node_name = "CeluBackward1"
    saved_names = ("result",)
    from_result = True


class ScaledEluBackward(Function):
    """The elu family's gradient as an op (PyTorch's ``elu_backward``, node EluBackwardBackward0). Linear in g; in
    x, ``gg * g * scale * alpha * s**2 * e^(s x)`` where x < 0 (from the result: ``gg * g * s``), else 0."""

    node_name = "EluBackwardBackward0"
    saved_names = ("grad_output", "self_or_result")

    @staticmethod
    def forward(ctx: Any, g: Tensor, saved: Tensor, alpha: float, scale: float, input_scale: float,
                is_result: bool) -> np.ndarray:
        ctx.save_for_backward(g, saved)
        ctx.consts = (alpha, scale, input_scale, is_result)
        a, b = saved._array, g._array
        t = a.dtype.type
        neg = b * t(input_scale) * (a + t(alpha * scale)) if is_result else \
            b * t(input_scale) * t(alpha * scale) * _exp(a * t(input_scale))
        return np.where(a <= 0, neg, b * t(scale))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, saved = ctx.saved_tensors
        alpha, scale, input_scale, is_result = ctx.consts
        dg = ScaledEluBackward.apply(gg, saved, *ctx.consts) if ctx.needs_input_grad[0] else None
        dsaved = None
        if ctx.needs_input_grad[1]:
            negative = _wrap((saved._array < 0).astype(saved._array.dtype))
            if is_result:
                dsaved = gg * g * negative * input_scale
            else:  # d/dx of g scale alpha s e^(s x): s times the same gradient op applied to gg * g, where x < 0
                dsaved = ScaledEluBackward.apply(gg * g, saved, alpha, scale, input_scale, False) * negative \
                    * input_scale
        return dg, dsaved, None, None, None, None


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """scale * elu(x, alpha) with PyTorch's constants (scale 1.0507, alpha 1.6733): chosen so that activations
    of mean 0 and variance 1 keep them layer after layer (self-normalising networks)."""
    if inplace:
        return _inplace(input, lambda s: ScaledEluOfResult.apply(s, _SELU_ALPHA, _SELU_SCALE, 1))
    return ScaledElu.apply(input, _SELU_ALPHA, _SELU_SCALE, 1)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """max(0, x) + min(0, alpha (e^(x/alpha) - 1)) (see :class:`Celu`)."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    if inplace:
        return _inplace(input, lambda s: CeluOfResult.apply(s, alpha, 1, 1 / alpha))
    return Celu.apply(input, alpha, 1, 1 / alpha)


class Mish(Function):
    """mish(x) = x * tanh(softplus(x)): smooth and non-monotonic like silu, with a slightly lower minimum.

        dx = g * (t + x * sigmoid(x) * (1 - t**2))        t = tanh(softplus(x))
    """

    node_name = "MishBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        elementwise._check_float_kernel(x._array, "mish_cpu")
        ctx.save_for_backward(x)
        a = x._array
        return a * _tanh(_log1p(_exp(a)))  # (PyTorch's kernel: tanh of softplus as log1p of exp; inf for a large x)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        t = Softplus.apply(x, 1.0, 20.0).tanh()  # (the Function: its derivative at 0 is 1/2, not the kinks' 0)
        return g * (t + x * x.sigmoid() * (1 - t * t))


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """x * tanh(softplus(x)) (see :class:`Mish`)."""
    if inplace:
        return _inplace(input, Mish.apply)
    return Mish.apply(input)


def softsign(input: Tensor) -> Tensor:
    """x / (1 + |x|): a cheap tanh-like squashing into (-1, 1), approaching the bounds slowly (like 1/x, not
    exponentially). A composition of tensor ops, as in PyTorch (its node is DivBackward0)."""
    return input / (input.abs() + 1)


class Hardsigmoid(Function):
    """A piecewise-linear sigmoid: ``relu6(x + 3) / 6``, 0 below -3, 1 above 3, x/6 + 1/2 between.

        dx = g / 6 strictly between -3 and 3, 0 elsewhere
    """

    node_name = "HardsigmoidBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        elementwise._check_float_kernel(x._array, "hardsigmoid_cpu")
        ctx.save_for_backward(x)
        a = x._array
        t = a.dtype.type
        return np.minimum(np.maximum(a + t(3), t(0)), t(6)) / t(6)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        a = x._array
        return where(_wrap((a > -3) & (a < 3)), g / 6, 0.0)  # (masked, so an infinite g still gives 0 outside)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """relu6(x + 3) / 6 (see :class:`Hardsigmoid`)."""
    if inplace:
        return _inplace(input, Hardsigmoid.apply)
    return Hardsigmoid.apply(input)


class Hardswish(Function):
    """x * hardsigmoid(x): a piecewise-quadratic silu (MobileNetV3), cheap on phones.

        dx = 0 for x <= -3,   g for x >= 3,   g * (x / 3 + 1/2) between     (see :class:`HardswishBackward`)
    """

    node_name = "HardswishBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        elementwise._check_float_kernel(x._array, "hardswish_cpu")
        ctx.save_for_backward(x)
        a = x._array
        t = a.dtype.type
        return a * np.minimum(np.maximum(a + t(3), t(0)), t(6)) / t(6)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return HardswishBackward.apply(g, x)


class HardswishBackward(Function):
    """hardswish's gradient as an op (PyTorch's ``hardswish_backward``). Linear in g; in x, ``gg * g / 3``
    strictly between -3 and 3 (the quadratic piece's curvature), 0 elsewhere."""

    node_name = "HardswishBackwardBackward0"
    saved_names = ("grad_output", "self")

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(g, x)
        a, b = x._array, g._array
        t = a.dtype.type
        return np.where(a <= -3, t(0), np.where(a < 3, b * (a / t(3) + t(0.5)), b))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, x = ctx.saved_tensors
        dg = HardswishBackward.apply(gg, x) if ctx.needs_input_grad[0] else None
        dx = None
        if ctx.needs_input_grad[1]:
            a = x._array
            dx = where(_wrap((a > -3) & (a < 3)), gg * g / 3, 0.0)
        return dg, dx


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """x * relu6(x + 3) / 6 (see :class:`Hardswish`)."""
    if inplace:
        return _inplace(input, Hardswish.apply)
    return Hardswish.apply(input)


class Prelu(Function):
    """A leaky relu whose negative slope w is learned: ``x`` for x > 0, ``w * x`` otherwise. w has one entry, or
    one per channel (dimension 1 of x).

        dx = g (x > 0),  g * w (x <= 0)           dw = sum of g * x over the entries where x <= 0 (per channel)
    """

    node_name = "PreluKernelBackward0"
    saved_names = ("self", "weight")

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor) -> np.ndarray:
        ctx.save_for_backward(x, weight)
        a = x._array
        return np.where(a > 0, a, _channel_view(weight, a.ndim)._array * a).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, weight = ctx.saved_tensors
        a = x._array
        positive = _wrap((a > 0).astype(a.dtype))
        dx = dw = None
        if ctx.needs_input_grad[0]:
            dx = g * (positive + (1 - positive) * _channel_view(weight, a.ndim))
        if ctx.needs_input_grad[1]:
            per_entry = g * x * (1 - positive)
            if weight._array.size == 1:
                dw = per_entry.sum().reshape(weight._array.shape)
            else:
                dims = tuple(d for d in range(a.ndim) if d != 1)
                dw = per_entry.sum(dims) if dims else per_entry
        return dx, dw


def _channel_view(weight: Tensor, ndim: int) -> Tensor:
    """The weight shaped to broadcast along dimension 1 (the channels) of an ndim-dimensional input."""
    if weight._array.size == 1 or ndim < 2:
        return weight.reshape(())
    return weight.reshape([-1] + [1] * (ndim - 2))


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """x for x > 0, weight * x otherwise, weight one slope or one per channel (see :class:`Prelu`)."""
    if weight._array.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    channels = input._array.shape[1] if input._array.ndim >= 2 else 1
    if weight._array.size != 1 and weight._array.size != channels:
        raise RuntimeError("Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                           f"{weight._array.size} and channel size = {channels}.")
    input, weight = _operands(input, weight)
    return Prelu.apply(input, weight)


class Glu(Function):
    """The gated linear unit: split x in two halves a, b along ``dim``, return ``a * sigmoid(b)``: b decides how
    much of a passes (the gate of LSTMs and of transformer feed-forward variants).

        da = g * s          db = g * a * s * (1 - s)          s = sigmoid(b); dx is [da, db] joined along dim
    """

    node_name = "GluBackward0"
    saved_names = ("self",)  # (and _saved_dim)

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx._saved_dim = dim
        a, b = np.split(x._array, 2, axis=dim)
        return a / (1 + np.exp(-b))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        a, b = x.chunk(2, ctx._saved_dim)
        s = b.sigmoid()
        da = g * s
        return cat([da, da * a * (1 - s)], ctx._saved_dim), None


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """a * sigmoid(b) for the two halves a, b of the input along ``dim`` (see :class:`Glu`)."""
    if input._array.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = dim % input._array.ndim
    if input._array.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {input._array.shape[d]}")
    return Glu.apply(input, d)


# ------------------------------------------------------------------------------------------------ padding
from .padding import pad  # noqa: E402  (its own module, next to its Functions; F.pad is where programs look)

__all__ += ["pad"]


# ------------------------------------------------------------------------------------------------ more losses
# Compositions of tensor ops where PyTorch composes them too (so their nodes are the same: MeanBackward0 for the
# mean, ClampMinBackward0 for a hinge); soft_margin_loss and multi_margin_loss are Functions with PyTorch's nodes.


class ClampMin(Function):
    """max(x, m), the hinge of the margin losses: dl/dx = g where x >= m, 0 below (PyTorch's ``clamp_min``)."""

    node_name = "ClampMinBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, m: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx._saved_min = m
        return np.maximum(x._array, np.asarray(m, dtype=x._array.dtype))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return g * _wrap((x._array >= ctx._saved_min).astype(g._array.dtype)), None


class Softshrink(Function):
    """Shrink towards 0 by ``lambd``: x - lambd above lambd, x + lambd below -lambd, 0 between (the proximal step
    of an L1 penalty: small values become exactly 0). Its slope is 1 outside [-lambd, lambd] and 0 inside::

        dx = g where |x| > lambd, 0 elsewhere
    """

    node_name = "SoftshrinkBackward0"
    saved_names = ("self",)  # (and _saved_lambd, a number)

    @staticmethod
    def forward(ctx: Any, x: Tensor, lambd: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx._saved_lambd = lambd
        a = x._array
        lam = a.dtype.type(lambd)
        return np.where(a > lam, a - lam, np.where(a < -lam, a + lam, a * 0))  # (a * 0: a NaN stays NaN)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        a, lam = x._array, ctx._saved_lambd
        return g * _wrap(~((a >= -lam) & (a <= lam)) * np.ones((), g._array.dtype)), None


_LARGEST = {np.dtype(np.float16): "65504", np.dtype(np.float32): "3.40282e+38", np.dtype(np.float64): "1.79769e+308"}


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x - lambd for x > lambd, x + lambd for x < -lambd, 0 otherwise (see :class:`Softshrink`)."""
    a = input._array
    if a.dtype.kind != "f":
        raise NotImplementedError(f'"softshrink_check" not implemented for \'{_type_name(input)}\'')
    if lambd < 0:
        raise RuntimeError(f"lambda must be in range [0, {_LARGEST[a.dtype]}] for input dtype {_type_name(input)}, "
                           f"but found {lambd:g}")
    return Softshrink.apply(input, lambd)


class RreluWithNoise(Function):
    """Randomized leaky ReLU: x for x > 0, ``r * x`` otherwise. In training each non-positive element draws its
    own slope r, uniform in [lower, upper] (a noise that regularises, as dropout does); in evaluation every slope
    is the mean (lower + upper) / 2, a plain leaky_relu. The slopes are the ``noise`` the node keeps::

        dx = g * noise       (noise: r where x <= 0, 1 where x > 0; in evaluation the leaky_relu's gradient)
    """

    node_name = "RreluWithNoiseBackward0"
    saved_names = ("self", "noise")  # (and _saved_lower, _saved_upper, _saved_training)

    @staticmethod
    def forward(ctx: Any, x: Tensor, lower: float, upper: float, training: bool) -> np.ndarray:
        a = x._array
        ctx._saved_lower, ctx._saved_upper, ctx._saved_training = lower, upper, training
        if training:  # PyTorch's loop: one float64 uniform per element <= 0, in memory order, cast to the dtype
            noise = np.ones(a.shape, a.dtype)
            low = a <= 0
            u = default_generator.uniform((int(low.sum()),), np.float64)
            # the bounds first rounded to the input's dtype (PyTorch's opmath type), then u * (hi - lo) + lo in
            # float64 with two roundings, not one fused step
            lo, hi = float(a.dtype.type(lower)), float(a.dtype.type(upper))
            noise[low] = (u * (hi - lo) + lo).astype(a.dtype)
            out = np.where(low, a * noise, a)
        else:
            noise = np.ones(a.shape, a.dtype)
            slope = a.dtype.type((lower + upper) / 2)
            noise[~(a > 0)] = slope
            out = np.where(a > 0, a, a * slope)
        ctx.save_for_backward(x, _wrap(noise))
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        _, noise = ctx.saved_tensors
        return g * noise, None, None, None


class RreluWithNoiseInPlace(RreluWithNoise):
    """``rrelu_``: the same, recorded as PyTorch records the in-place form."""

    node_name = "RreluWithNoiseBackward1"


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """Randomized leaky ReLU (see :class:`RreluWithNoise`): random negative slopes in [lower, upper] while
    training, their mean in evaluation. ``F.rrelu``'s default is evaluation (``training=False``), unlike
    ``nn.RReLU``, which follows the module's train()/eval()."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if input._array.dtype.kind != "f":
        kernel = "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(input)}\'')
    if inplace:
        return _inplace(input, lambda s: RreluWithNoiseInPlace.apply(s, lower, upper, training))
    return RreluWithNoise.apply(input, lower, upper, training)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False) -> Tensor:
    return rrelu(input, lower, upper, training, inplace=True)


def tanhshrink(input: Tensor) -> Tensor:
    """x - tanh(x): near 0 like x**3 / 3 (small inputs shrink to almost nothing), far away like x -+ 1."""
    return input - input.tanh()


def _reduction_of(size_average: Any, reduce: Any, reduction: str) -> str:
    """``reduction``, or what PyTorch's older two flags meant (with their warning), checked."""
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce, stacklevel=4)
    _check_reduction(reduction)
    return reduction


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """Pull pairs together (target 1) or push them apart (target -1), by the cosine of their angle::

        l = 1 - cos(x1, x2)              if y = 1
        l = max(0, cos(x1, x2) - margin) if y = -1

    (each squared length gets 1e-12, so a zero vector gives cos 0, not nan). Rows are pairs (1-d target) or the
    inputs are one pair (0-d target)."""
    reduction = _reduction_of(size_average, reduce, reduction)
    t_dim = target._array.ndim
    if t_dim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1._array.ndim != t_dim + 1 or input2._array.ndim != t_dim + 1:
        raise RuntimeError(f"{t_dim}D target tensor expects {t_dim + 1}D input tensors, but found inputs with sizes "
                           f"{list(input1._array.shape)} and {list(input2._array.shape)}.")
    eps = 1e-12
    dim = t_dim  # the feature dimension: 1 for a batch, 0 for one pair
    prod = (input1 * input2).sum(dim)
    denom = (((input1 * input1).sum(dim) + eps) * ((input2 * input2).sum(dim) + eps)).sqrt()
    cos = prod / denom
    zeros = cos.detach() * 0
    losses = where(target == 1, 1 - cos, zeros) + where(target == -1, ClampMin.apply(cos - margin, 0.0), zeros)
    return _apply_reduction(losses, reduction)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """Rank pairs: ``l = max(0, -y (x1 - x2) + margin)``; y = 1 asks x1 to be larger by at least ``margin``,
    y = -1 asks x2 to be."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if not input1._array.ndim == input2._array.ndim == target._array.ndim:
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    return _apply_reduction(ClampMin.apply(-target * (input1 - input2) + margin, 0.0), reduction)


def _check_triplet(anchor: Tensor, positive: Tensor, negative: Tensor) -> None:
    """The triplet losses' common check: the three inputs have the same number of dims."""
    dims = (anchor._array.ndim, positive._array.ndim, negative._array.ndim)
    if len(set(dims)) != 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average: Any = None, reduce: Any = None,
                        reduction: str = "mean") -> Tensor:
    """Metric learning: an anchor should be nearer its positive than its negative, by ``margin``::

        l = max(0, d(a, p) - d(a, n) + margin)        d: pairwise_distance (p-norm)

    ``swap=True`` uses the nearer of d(a, n) and d(p, n) (the harder negative)."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet(anchor, positive, negative)
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = d_neg.minimum(pairwise_distance(positive, negative, p, eps))
    return _apply_reduction(ClampMin.apply(margin + d_pos - d_neg, 0.0), reduction)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function: Any = None, margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean") -> Tensor:
    """``triplet_margin_loss`` with any distance: ``max(0, d(a, p) - d(a, n) + margin)``, d a function of two
    tensors (``pairwise_distance`` by default; e.g. ``1 - cosine_similarity``)."""
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet(anchor, positive, negative)
    distance = distance_function if distance_function is not None else pairwise_distance
    d_pos, d_neg = distance(anchor, positive), distance(anchor, negative)
    if swap:
        d_neg = d_neg.minimum(distance(positive, negative))
    _check_reduction(reduction)
    return _apply_reduction(ClampMin.apply(margin + d_pos - d_neg, 0.0), reduction)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average: Any = None,
                         reduce: Any = None, reduction: str = "mean") -> Tensor:
    """For distances x and labels y = 1 (similar) or -1 (dissimilar): ``l = x`` if y = 1, ``max(0, margin - x)``
    if y = -1; similar pairs pulled together, dissimilar ones pushed to at least ``margin`` apart."""
    reduction = _reduction_of(size_average, reduce, reduction)
    zeros = input.detach() * 0
    pushed = where(target != 1, ClampMin.apply(margin - input, 0.0), zeros)
    return _apply_reduction(pushed + where(target != -1, input, zeros), reduction)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None,
                                reduce: Any = None, reduction: str = "mean") -> Tensor:
    """Several labels per sample, each a yes/no: the binary cross-entropy of sigmoid(x) for each of the C classes
    (target 0 or 1), averaged over the classes: one loss per sample, then ``reduction``."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum(dim=input.dim() - 1) / input.size(input.dim() - 1)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not valid")
    return _apply_reduction(loss, reduction)


class MultilabelMarginLoss(Function):
    """The multi-label hinge: each sample's target lists its classes (class indices, ended by the first -1); every
    target class j should score at least 1 above every other class i::

        l = sum_j sum_i max(0, 1 - (x[y_j] - x[i])) / C        (j over the targets, i over the non-targets)

    Piecewise linear, so each active hinge gives +1/C to x[i] and -1/C to x[y_j] (times g); the node keeps
    ``_saved_self``, ``_saved_target``, ``_saved_is_target``."""

    node_name = "MultilabelMarginLossBackward0"
    saved_names = ("self", "target", "is_target")

    @staticmethod
    def forward(ctx: Any, x: Tensor, target: Tensor, reduction: str) -> np.ndarray:
        a, t = np.atleast_2d(x._array), np.atleast_2d(target._array)
        n, c = a.shape
        valid = np.cumprod(t >= 0, axis=1).astype(bool)  # the targets before the first -1
        safe = np.where(valid, t, 0)
        is_target = np.zeros((n, c), bool)
        for k in range(t.shape[1]):  # (a loop over the target slots: a -1's slot marks nothing)
            is_target[np.arange(n)[valid[:, k]], safe[valid[:, k], k]] = True
        scores = np.take_along_axis(a, safe, axis=1)  # (n, targets)
        hinge = 1 - scores[:, :, None] + a[:, None, :]  # (n, targets, classes)
        active = (hinge > 0) & valid[:, :, None] & ~is_target[:, None, :]
        losses = (np.where(active, hinge, 0).sum((1, 2)) / c).astype(a.dtype)
        grad = active.sum(1).astype(a.dtype) / c  # +1/C for each class i, per active hinge
        np.add.at(grad, (np.arange(n)[:, None].repeat(t.shape[1], 1), safe), -active.sum(2) / c)
        ctx.grad = _wrap(grad.reshape(x._array.shape).astype(a.dtype))
        ctx.save_for_backward(x, target, _wrap(is_target.reshape(x._array.shape).astype(a.dtype)))
        ctx.reduction, ctx.batch = reduction, x._array.ndim == 2
        _set_reduction(ctx, reduction)
        if reduction == "none":
            return losses if ctx.batch else losses.reshape(())
        return _reduce(losses, reduction)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        if ctx.reduction == "none" and ctx.batch:
            g = g.unsqueeze(1)
        elif ctx.reduction == "mean" and ctx.batch:
            g = g / ctx.grad.shape[0]
        return g * ctx.grad, None, None


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
                           reduction: str = "mean") -> Tensor:
    """The multi-label hinge loss (see :class:`MultilabelMarginLoss`): input (N, C) or (C,) scores, target of the
    same shape holding class indices, the list of each sample's classes ended by -1."""
    reduction = _reduction_of(size_average, reduce, reduction)
    a, t = input._array, target._array
    if t.dtype != np.int64:
        raise RuntimeError(f"expected scalar type Long but found {_type_name(target)}")
    if a.ndim > 2 or (a.ndim == 2 and t.shape != a.shape) or (a.ndim < 2 and t.shape != a.shape):
        raise RuntimeError(f"inconsistent target size: {list(t.shape)} for input of size: {list(a.shape)}")
    if a.ndim == 0:
        return MultilabelMarginLoss.apply(input.reshape(1), target.reshape(1), reduction).reshape(())
    return MultilabelMarginLoss.apply(input, target, reduction)


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: Any = None, eps: float = 1e-8, reduce: Any = None,
                     reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of counts ``target`` under a Poisson distribution of rate λ::

        l = λ - y log λ   (+ log y!, by Stirling's y log y - y + log(2πy)/2 for y > 1, if ``full``)

    With ``log_input`` (the default) the input is log λ, so l = exp(x) - y x; otherwise λ itself (and
    log(λ + eps), so that λ = 0 gives no infinity)."""
    reduction = _reduction_of(size_average, reduce, reduction)
    losses = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        losses = losses + stirling.masked_fill(target <= 1, 0)
    return _apply_reduction(losses, reduction)


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of ``target`` under a normal distribution of mean ``input`` and variance ``var``::

        l = (log var + (x - y)**2 / var) / 2     (+ log(2π) / 2 if ``full``)

    ``var`` is the input's shape, or one fewer trailing dimension (or a trailing 1): one variance for all of a
    row (homoscedastic). It is clamped to at least ``eps`` for stability, the clamp left out of the gradient."""
    if isinstance(var, (int, float)):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = input.detach() * 0 + float(var)
    if var._array.shape != input._array.shape:
        if input._array.shape[:-1] == var._array.shape:  # one variance per row: lined up with the last dimension
            var = var.unsqueeze(-1)
        elif not (input._array.shape[:-1] == var._array.shape[:-1] and var._array.ndim and var._array.shape[-1] == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not valid")
    if (var._array < 0).any():
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with no_grad():  # a clamp that the gradient does not see: it flows as if var were used as given
        var.clamp_(min=eps)
    losses = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        losses = losses + 0.5 * math.log(2 * math.pi)
    return _apply_reduction(losses, reduction)


class SoftMarginLoss(Function):
    """The logistic loss of a ±1 label, ``l = log(1 + exp(-y x))``; dl/dx = -y sigmoid(-y x)."""

    node_name = "SoftMarginLossBackward0"
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor, reduction: str) -> np.ndarray:
        ctx.save_for_backward(x, y)
        _set_reduction(ctx, reduction)
        a, b = promoted(x, y)
        return _reduce(np.log1p(np.exp(-a * b)), reduction)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return SoftMarginLossGrad.apply(g, x, y, ctx.reduction), None, None


class SoftMarginLossGrad(Function):
    """The gradient of :class:`SoftMarginLoss`, ``dx = -y s g`` with s = sigmoid(-y x) (/ n for the mean), as a
    node of its own (PyTorch's name), so that ``create_graph`` differentiates it again::

        d(dx)/dx = y**2 s (1 - s) g        d(dx)/dg = -y s
    """

    node_name = "SoftMarginLossBackwardBackward0"
    saved_names = ("grad_output", "self", "target")

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, y: Tensor, reduction: str) -> np.ndarray:
        ctx.save_for_backward(g, x, y)
        _set_reduction(ctx, reduction)
        a, b = promoted(x, y)
        s = 1 / (1 + np.exp(a * b))  # sigmoid(-y x)
        dx = (-b * s * g._array).astype(a.dtype)
        return (dx / np.asarray(a.size, dtype=a.dtype)) if reduction == "mean" else dx

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, x, y = ctx.saved_tensors
        s = (-y * x).sigmoid()
        if ctx.reduction == "mean":
            gg = DivScalar.apply(gg, x._array.size)
        d_g = -y * s * gg
        d_x = gg * g * y * y * s * (1 - s)
        if ctx.reduction != "none":  # a single number came in: its gradient is the sum over the elements
            d_g = d_g.sum()
        return (d_g if ctx.needs_input_grad[0] else None), (d_x if ctx.needs_input_grad[1] else None), None, None


def soft_margin_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
                     reduction: str = "mean") -> Tensor:
    """Two-class logistic loss with labels ±1: ``log(1 + exp(-y x))`` (see :class:`SoftMarginLoss`)."""
    reduction = _reduction_of(size_average, reduce, reduction)
    _check_broadcast(input, target)
    if input._array.shape != target._array.shape:
        shape = np.broadcast_shapes(input._array.shape, target._array.shape)
        input, target = input.expand(shape), target.expand(shape)
    return SoftMarginLoss.apply(input, target, reduction)


class MultiMarginLoss(Function):
    """The multi-class hinge loss of a support vector machine, per sample with class y among C::

        l = sum over j != y of max(0, margin - x[y] + x[j])**p * w[y] / C

    dl/dx[j] = p h**(p-1) w[y] / C for each j with h = margin - x[y] + x[j] > 0, and dl/dx[y] minus their sum.
    (Its gradient is computed on arrays: PyTorch cannot differentiate it a second time either.)"""

    node_name = "MultiMarginLossBackward0"
    saved_names = ("self", "target", "weight")

    @staticmethod
    def forward(ctx: Any, x: Tensor, target: Tensor, p: int, margin: float, weight: Tensor | None,
                reduction: str) -> np.ndarray:
        ctx.save_for_backward(x, target, weight)
        _set_reduction(ctx, reduction)
        ctx._saved_p, ctx._saved_margin = p, margin
        a = x._array.reshape(-1, x._array.shape[-1]) if x._array.ndim else x._array.reshape(1, 1)
        t = target._array.reshape(-1)
        rows = np.arange(a.shape[0])
        h = np.asarray(margin, dtype=a.dtype) - a[rows, t][:, None] + a
        h[rows, t] = 0  # the true class is no competitor of itself
        h = np.maximum(h, 0)
        terms = h if p == 1 else h * h
        if weight is not None:
            terms = terms * weight._array[t][:, None]
        losses = (terms.sum(axis=1, dtype=a.dtype) / a.shape[1]).astype(a.dtype)
        if reduction == "none":
            return losses.reshape(target._array.shape) if x._array.ndim == 2 else losses.reshape(())
        return _reduce(losses, reduction)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, target, weight = ctx.saved_tensors
        dx = MultiMarginLossGrad.apply(g, x, target, weight, ctx._saved_p, ctx._saved_margin, ctx.reduction)
        return dx, None, None, None, None, None


class MultiMarginLossGrad(Function):
    """The gradient of :class:`MultiMarginLoss`, computed on arrays. With ``create_graph=True`` it is a node that
    cannot be differentiated again, as in PyTorch (whose node is called NotImplemented)."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, target: Tensor, weight: Tensor | None, p: int, margin: float,
                reduction: str) -> np.ndarray:
        a = x._array.reshape(-1, x._array.shape[-1]) if x._array.ndim else x._array.reshape(1, 1)
        t = target._array.reshape(-1)
        rows = np.arange(a.shape[0])
        h = np.asarray(margin, dtype=a.dtype) - a[rows, t][:, None] + a
        h[rows, t] = 0
        slope = np.where(h > 0, 1 if p == 1 else 2 * h, 0).astype(a.dtype)
        if weight is not None:
            slope = slope * weight._array[t][:, None]
        gg = np.broadcast_to(g._array.reshape(-1, 1), (a.shape[0], 1)).astype(a.dtype)
        if reduction == "mean":
            gg = gg / a.shape[0]
        dx = (slope * gg / a.shape[1]).astype(a.dtype)
        dx[rows, t] -= dx.sum(axis=1)
        return dx.reshape(x._array.shape)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple:
        raise RuntimeError("derivative for aten::multi_margin_loss_backward is not implemented")


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                      size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """Multi-class hinge loss: the true class's score should beat every other by ``margin`` (see
    :class:`MultiMarginLoss`). input (N, C) or (C,), target (N,) or () class indices; ``weight`` per class."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight._array.ndim != 1:
        raise ValueError("weight must be one-dimensional")
    a, t = input._array, target._array
    n = a.shape[0] if a.ndim == 2 else 1
    classes = a.shape[-1] if a.ndim else 1
    if a.ndim > 2 or (a.ndim == 2 and a.shape[1] == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(a.shape)}")
    if t.ndim > 1 or t.size != n:
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{n}], but got {list(t.shape)}. Input has "
                           f"shape {list(a.shape)}.")
    if weight is not None and weight._array.size != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got {list(weight._array.shape)}")
    if t.size and (t.min() < 0 or t.max() >= classes):
        raise RuntimeError("target out of range")
    return MultiMarginLoss.apply(input, target, p, float(margin), weight, reduction)


__all__ += ["cosine_embedding_loss", "gaussian_nll_loss", "margin_ranking_loss", "multi_margin_loss",
            "poisson_nll_loss", "soft_margin_loss", "tanhshrink", "triplet_margin_loss"]


# ------------------------------------------------------------------------------------------------ attention
# Scaled dot-product attention and the multi-head attention of ``nn.MultiheadAttention``, composed from the tensor ops
# above (matmul, softmax, dropout, linear), as PyTorch composes them on the CPU when it records a graph: backward and
# create_graph come from those ops, and the nodes are PyTorch's (UnsafeViewBackward0 over BmmBackward0 for a batched
# matmul, SafeSoftmaxBackward0, BaddbmmBackward0 ...).

class SafeSoftmax(Softmax):
    """softmax along ``dim``, except that a row whose inputs are all -inf gives zeros instead of nan (0 / 0): the
    softmax of attention, where a query may see no key at all (every key masked). PyTorch's ``_safe_softmax``.

    Its gradient is softmax's, s * (g - sum(g * s)), which is 0 on such a row, since s is."""

    node_name = "SafeSoftmaxBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> np.ndarray:
        s = Softmax.forward(ctx, x, dim)
        s[np.logical_and.reduce(np.isneginf(x._array), ctx.dim, keepdims=True).repeat(s.shape[ctx.dim], ctx.dim)] = 0
        return s


def _check_sdpa_inputs(query: Tensor, key: Tensor, value: Tensor) -> None:
    """PyTorch's checks of the three inputs' dtypes and dimensions (``validate_sdpa_input``), in its words."""
    names = [CPP_NAMES[t._array.dtype] for t in (query, key, value)]
    if len(set(names)) > 1:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: {names[0]} "
                           f"key.dtype: {names[1]} and value.dtype: {names[2]} instead.")
    dims = [t._array.ndim for t in (query, key, value)]
    if min(dims) < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{dims[0]} key.dim: {dims[1]} and value.dim: {dims[2]} instead.")


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """Attention: each query row takes a weighted average of the value rows, weighted by how well it matches each key.

        attention(Q, K, V) = softmax(Q K^T * scale + M) V          scale = 1 / sqrt(E) unless given

    Q (..., L, E) holds L queries, K (..., S, E) and V (..., S, Ev) S keys and their values; the leading dimensions
    (batch, heads) broadcast. Row i of softmax(...) (L, S) sums to 1: how much query i attends to each key.
    The mask M is added before the softmax: a float mask as it is, a bool mask as 0 where True (the key may be
    seen) and -inf where False (it may not: its weight becomes 0). ``is_causal=True`` is the bool mask of the
    lower triangle (query i sees keys 0..i), and cannot be given with a mask. A query that sees no key at all gets
    zeros (see :class:`SafeSoftmax`). ``dropout_p`` drops attention weights (always: pass 0 in evaluation, as
    MultiheadAttention does). ``enable_gqa``: K and V may have fewer heads (dim -3) than Q, each serving a group
    of query heads (grouped-query attention).

    The composition is PyTorch's math kernel: the scale is split as sqrt(scale) on Q and on K^T (MulBackward1 each)
    before the product, so that float32 rounds as it does there, and the nodes are the math kernel's. Where PyTorch
    calls its fused flash-attention kernel instead (see :func:`_is_flash_case`: 4-D inputs of one batch size whose
    heads have one size, no dropout, no mask or one that needs no gradient; MultiheadAttention with
    need_weights=False and the Transformer layers without dropout reach it), the graph has its one node,
    ``ScaledDotProductFlashAttentionForCpuBackward0`` (:class:`FlashAttention`), around the same composed
    computation: the values are the composition's (PyTorch's fused kernel agrees with them to rounding).
    """
    _check_sdpa_inputs(query, key, value)
    if attn_mask is not None and attn_mask._array.dtype not in (np.bool_, np.float32, query._array.dtype):
        raise RuntimeError("Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {CPP_NAMES[attn_mask._array.dtype]} and  query.dtype: "
                           f"{CPP_NAMES[query._array.dtype]} instead.")
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if _is_flash_case(query, key, value, attn_mask, dropout_p, enable_gqa):
        return FlashAttention.apply(query, key, value, (attn_mask, is_causal, scale, enable_gqa))
    return _attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)


def _attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None, dropout_p: float,
               is_causal: bool, scale: float | None, enable_gqa: bool, scores: list | None = None) -> Tensor:
    """The composed attention of :func:`scaled_dot_product_attention` (its inputs checked); ``scores``, if given,
    receives the masked, scaled scores the softmax reads."""
    factor = math.sqrt(scale if scale is not None else 1.0 / math.sqrt(query.size(-1)))
    if is_causal:  # (a constant: the lower triangle, query i sees keys up to i)
        attn_mask = _wrap(np.tril(np.ones((query.size(-2), key.size(-2)), np.bool_)))
    if attn_mask is not None and attn_mask._array.dtype == np.bool_:  # True: seen (0), False: hidden (-inf)
        attn_mask = _wrap(np.where(attn_mask._array, 0, -np.inf).astype(query._array.dtype))
    if enable_gqa:
        heads = query.size(-3)
        if heads % key.size(-3) or heads % value.size(-3):
            raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
        key = key.repeat_interleave(heads // key.size(-3), -3)
        value = value.repeat_interleave(heads // value.size(-3), -3)
    attn = _matmul(MulScalar.apply(query, factor), MulScalar.apply(key.transpose(-2, -1), factor))
    if attn_mask is not None:
        attn = attn + attn_mask
    if scores is not None:
        scores.append(attn)
    attn = SafeSoftmax.apply(attn, -1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p)
    return _matmul(attn, value)


def _is_flash_case(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None, dropout_p: float,
                   enable_gqa: bool) -> bool:
    """Whether PyTorch 2.13 on the CPU records its fused node (found by trying its cases): while recording, for 4-D
    query, key and value of one batch size, one head size E (values included), the same number of heads (or heads
    that group, with enable_gqa), no dropout, no empty tensor, and no mask or a 2-D or 4-D one that needs no
    gradient (bool or float, broadcasting; a causal mask too). Otherwise it runs its math kernel: the composition."""
    q, k, v = query._array, key._array, value._array
    if not GradMode.enabled or not (query.requires_grad or key.requires_grad or value.requires_grad):
        return False
    if q.ndim != 4 or k.ndim != 4 or v.ndim != 4 or dropout_p > 0.0 or 0 in (q.size, k.size, v.size):
        return False
    if not q.shape[0] == k.shape[0] == v.shape[0] or not q.shape[3] == k.shape[3] == v.shape[3]:
        return False
    if not (k.shape[1] == v.shape[1] == q.shape[1] or enable_gqa):
        return False
    return attn_mask is None or (attn_mask.dim() in (2, 4) and not attn_mask.requires_grad)


class FlashAttention(Function):
    """Attention as one node, as PyTorch records it on the CPU where its fused kernel runs (``_scaled_dot_product_
    flash_attention_for_cpu``): inputs query, key, value; the mask, causality and scale are settings of the node.

    Forward runs the composed computation (:func:`_attention`) on the inputs without recording and keeps, as PyTorch
    does, the output and the log-sum-exp of each query's scores (the softmax's normaliser, logsumexp (N, H, L)).
    Backward recomputes the composition from aliases of the saved inputs, recording, and asks it for the gradients
    with ``autograd.grad``: the gradients are the composition's exactly. PyTorch's node does not differentiate its
    own backward: with ``create_graph=True`` the gradients come out of a NotImplemented node that raises PyTorch's
    error if reached (:class:`FlashAttentionGrad`).
    """

    node_name = "ScaledDotProductFlashAttentionForCpuBackward0"
    saved_names = ("query", "key", "value", "output", "logsumexp")

    @staticmethod
    def forward(ctx: Any, query: Tensor, key: Tensor, value: Tensor, settings: tuple) -> tuple[np.ndarray, ...]:
        mask, is_causal, scale, gqa = settings
        if mask is not None and mask._array.dtype == np.bool_:  # (kept as PyTorch keeps it: 0 seen, -inf hidden)
            mask = _wrap(np.where(mask._array, 0, -np.inf).astype(query._array.dtype))
        scores: list[Tensor] = []
        out = _attention(query, key, value, mask, 0.0, is_causal, scale, gqa, scores)._array
        s = scores[0]._array
        top = np.max(s, axis=-1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0)
        with np.errstate(divide="ignore"):
            lse = (np.log(np.exp(s - top).sum(-1)) + top[..., 0]).astype(s.dtype)
        ctx.save_for_backward(query, key, value, RESULT, _wrap(lse))
        ctx.settings = (mask, is_causal, scale, gqa)
        ctx._saved_attn_mask, ctx._saved_is_causal, ctx._saved_scale, ctx._saved_dropout_p = mask, is_causal, scale, 0.0
        # PyTorch's kernel lays its output out in memory as the query is laid out: MultiheadAttention's query is a
        # view of (L, N, H, E) memory, so its permute(2, 0, 1, 3).contiguous() is then free (no CloneBackward0)
        order = sorted(range(4), key=lambda d: -query._array.strides[d])
        return np.ascontiguousarray(out.transpose(order)).transpose(np.argsort(order))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        query, key, value, out, _ = ctx.saved_tensors  # (raises if freed, or changed in place since forward)
        wanted = [i for i in range(3) if ctx.needs_input_grad[i]]
        mask, is_causal, scale, gqa = ctx.settings
        record = GradMode.enabled  # create_graph: the gradients must lead back to the inputs
        inputs = (query, key, value)
        sources = [t.view_as(t) if record else t.detach().requires_grad_() if i in wanted else t.detach()
                   for i, t in enumerate(inputs)]
        with enable_grad():
            result = _attention(*sources, mask, 0.0, is_causal, scale, gqa)
            found = _grad(result, [sources[i] for i in wanted], g, create_graph=record, allow_unused=True)
        found = [f if f is not None else _wrap(np.zeros_like(inputs[i]._array)) for i, f in zip(wanted, found)]
        if record:
            found = list(FlashAttentionGrad.apply(query, key, value, out, tuple(f._array for f in found)))
        grads: list[Tensor | None] = [None] * 4
        for i, f in zip(wanted, found):
            grads[i] = f
        return tuple(grads)


class FlashAttentionGrad(Function):
    """The gradients of :class:`FlashAttention` under ``create_graph``: PyTorch's node for them is NotImplemented
    (its edges: query, key, value and the attention's output), which raises if a backward pass reaches it."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx: Any, query: Tensor, key: Tensor, value: Tensor, out: Tensor,
                grads: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
        return tuple(g.copy() for g in grads)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple:
        raise RuntimeError("derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not "
                           "implemented")


FlashAttentionGrad._backward_cls.name = lambda node: "tinygrad_edu::autograd::NotImplemented"


def _none_or_dtype(input: Tensor | None) -> Any:
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or tinygrad_edu.Tensor")


def _canonical_mask(mask: Tensor | None, mask_name: str, other_type: Any, other_name: str, target_type: Any,
                    check_other: bool = True) -> Tensor | None:
    """A mask as multi-head attention adds it: a float mask as it is, a bool mask as -inf where True (hidden) and 0
    where False. (The opposite sense of a bool mask in :func:`scaled_dot_product_attention`: there True means seen.)"""
    if mask is None:
        return None
    kind = mask._array.dtype
    if kind != np.bool_ and kind.kind != "f":
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=3)
    if kind == np.bool_:
        mask = _wrap(np.where(mask._array, -np.inf, 0).astype(target_type.np))
    return mask


def _mha_shape_check(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None,
                     attn_mask: Tensor | None, num_heads: int) -> bool:
    """Whether the input is batched (query 3-D) or not (2-D); PyTorch's AssertionError if the shapes disagree."""
    dims = query.dim()
    if dims not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {dims}-D query tensor")
    kind = "batched (3-D)" if dims == 3 else "unbatched (2-D)"
    if key.dim() != dims or value.dim() != dims:
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be {dims}-D but found "
                             f"{key.dim()}-D and {value.dim()}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != dims - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or {dims - 1}-D but found "
                             f"{key_padding_mask.dim()}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                                 f"{attn_mask.dim()}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if dims == 2 and attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
    return dims == 3


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | None = None) -> list[Tensor]:
    """q W_q^T + b_q, k W_k^T + b_k, v W_v^T + b_v with the three weights stacked in one (3E, E) matrix ``w``.
    Self-attention (q, k, v the same tensor) projects once, with all of w, and splits the result; encoder-decoder
    attention (k, v the same) projects k once with the last 2E rows. PyTorch's steps, so its nodes."""
    e = q.size(-1)
    if k is v:
        if q is k:
            proj = linear(q, w, b).unflatten(-1, (3, e)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return [proj[0], proj[1], proj[2]]
        w_q, w_kv = w.split([e, e * 2])
        b_q, b_kv = (None, None) if b is None else b.split([e, e * 2])
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, e)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return [linear(q, w_q, b_q), kv[0], kv[1]]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return [linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)]


def _in_projection(q: Tensor, k: Tensor, v: Tensor, w_q: Tensor, w_k: Tensor, w_v: Tensor, b_q: Tensor | None = None,
                   b_k: Tensor | None = None, b_v: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """The three projections with separate weights (keys and values of other sizes than the queries: kdim, vdim)."""
    e_q, e_k, e_v = q.size(-1), k.size(-1), v.size(-1)
    for what, t, shape in (("query weights", w_q, (e_q, e_q)), ("key weights", w_k, (e_q, e_k)),
                           ("value weights", w_v, (e_q, e_v)), ("query bias", b_q, (e_q,)), ("key bias", b_k, (e_q,)),
                           ("value bias", b_v, (e_q,))):
        if t is not None and tuple(t.shape) != shape:
            raise AssertionError(f"expecting {what} shape of {shape}, but got {t.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
                                 in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None,
                                 bias_v: Tensor | None, add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor,
                                 out_proj_bias: Tensor | None, training: bool = True,
                                 key_padding_mask: Tensor | None = None, need_weights: bool = True,
                                 attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False,
                                 q_proj_weight: Tensor | None = None, k_proj_weight: Tensor | None = None,
                                 v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
                                 static_v: Tensor | None = None, average_attn_weights: bool = True,
                                 is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
    """Multi-head attention (Vaswani et al. 2017), the computation of ``nn.MultiheadAttention``:

        head_i = attention(Q W_i^Q, K W_i^K, V W_i^V)         i = 1 .. num_heads, each of E / num_heads features
        MultiHead(Q, K, V) = concat(head_1, ..., head_h) W^O + b^O

    Inputs are (L, N, E) for the queries and (S, N, E_k), (S, N, E_v) for keys and values (sequence first), or
    unbatched (L, E). The projections W^Q, W^K, W^V are the rows of ``in_proj_weight`` (3E, E), or the separate
    ``q/k/v_proj_weight``; each head is a slice of E / h of their outputs. ``key_padding_mask`` (N, S) hides keys
    per batch element (True or -inf: hidden), ``attn_mask`` (L, S) or (N*h, L, S) per query; both are added to the
    scores. ``bias_k``/``bias_v`` append one learned key and value, ``add_zero_attn`` one of zeros.

    Returns (output (L, N, E), weights): with ``need_weights`` the attention weights, averaged over the heads
    (N, L, S) or per head (N, h, L, S); without, None, and the attention is
    :func:`scaled_dot_product_attention`'s (as PyTorch, which does not form the weights then).
    """
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:  # (a batch of one, taken away at the end)
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # (the hint alone: attention builds the causal mask itself)
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False  # (merged with the padding, the mask is no longer causal)
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    # the projections: q, k, v (sequence, batch, E)
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    if attn_mask is not None:  # always 3-D from here: (1 or N*h, L, S)
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:  # one more key and value, learned, that every query may attend to
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    # the heads: (N*h, sequence, head_dim), batch and head first
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _static(k, static_k, "static_k", bsz * num_heads, head_dim)
    v = _static(v, static_v, "static_v", bsz * num_heads, head_dim)
    if add_zero_attn:  # one more key and value, zeros
        zeros = _wrap(np.zeros((bsz * num_heads, 1, head_dim), k._array.dtype))
        k, v = cat([k, zeros], dim=1), cat([v, zeros], dim=1)
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:  # merged into the mask: one row of S per batch element and head
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    if need_weights:  # the weights are formed, to be returned: softmax(q k^T / sqrt(head_dim) + mask)
        q_scaled = q * math.sqrt(1.0 / float(head_dim))
        if attn_mask is not None:
            weights = baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = q_scaled.bmm(k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        out = weights.bmm(v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:  # (N, h, L, S) for scaled_dot_product_attention, or (1, 1, L, S) to broadcast
        attn_mask = attn_mask.unsqueeze(0) if attn_mask.size(0) == 1 else attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    return (out if is_batched else out.squeeze(1)), None


def _static(t: Tensor, static: Tensor | None, name: str, heads: int, head_dim: int) -> Tensor:
    """Keys (or values) per head, (N*h, S, head_dim): the projection's, or ``static_k``/``static_v`` given as such."""
    if static is None:
        return t.view(t.shape[0], heads, head_dim).transpose(0, 1)
    if static.size(0) != heads:
        raise AssertionError(f"expecting {name}.size(0) of {heads}, but got {static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static.size(2)}")
    return static


__all__ += ["multi_head_attention_forward", "scaled_dot_product_attention"]
