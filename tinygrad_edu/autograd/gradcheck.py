"""Checking backward formulas against the definition of the derivative (``torch.autograd.gradcheck``).

A function ``f`` from inputs ``x_1 ... x_n`` to outputs ``y_1 ... y_m`` has, for each pair, a Jacobian
``J[k, l] = d y[l] / d x[k]`` (one row per number of the input, one column per number of the output).
It can be computed two independent ways:

* **numerically**, from the definition, with no calculus at all: nudge number ``k`` of the input by
  ``±eps`` and watch the outputs move (a *central* difference, accurate to ``eps**2``)::

      J[k, :] ≈ (f(x + eps·e_k) - f(x - eps·e_k)) / (2·eps)

* **analytically**, by autograd: ``backward`` with ``gradient = e_l`` (a one-hot tensor shaped like the
  output) returns column ``l`` of J for every input at once: a vector-Jacobian product.

``gradcheck`` builds both and compares them with ``allclose(atol, rtol)``. If a hand-written backward
is wrong, they differ, and the error shows both matrices. Use float64 inputs: float32's rounding error
(about 1e-7 relative) is larger than what ``eps = 1e-6`` can resolve.

``gradgradcheck`` does the same for the *backward pass itself*: it checks the derivatives of
``autograd.grad(f(x), x, v, create_graph=True)`` with respect to ``x`` and ``v``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._creation import rand
from ..core.function import learners_gradients
from ..core.function import wrap as _wrap
from ..core.tensor import Tensor
from . import forward_ad
from .engine import grad

# PyTorch's gradcheck takes these too; those not read below change nothing (no sparse, batched or forward-mode AD).
_ACCEPTED = {"nondet_tol", "check_undefined_grad", "check_grad_dtypes", "fast_mode", "masked",
             "check_batched_grad", "check_batched_forward_grad", "check_forward_ad", "check_backward_ad",
             "gen_non_contig_grad_outputs", "check_fwd_over_rev", "check_rev_over_rev"}


class GradcheckError(RuntimeError):
    """Raised by gradcheck when the analytical and numerical gradients disagree."""


def _as_tuple(x: Any) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _outputs(result: Any) -> tuple[Tensor, ...]:
    """The outputs that have a derivative: floating-point tensors."""
    return tuple(t for t in _as_tuple(result) if isinstance(t, Tensor) and t.is_floating_point())


def _numerical_jacobians(func: Callable, inputs: tuple, index: int, eps: float) -> list[np.ndarray]:
    """J[k, :] for every output, nudging each number of ``inputs[index]`` by ±eps (in place, then restored)."""
    return _nudging(lambda: func(*inputs), inputs[index]._array, eps)


def _nudging(call: Callable[[], Any], array: np.ndarray, eps: float) -> list[np.ndarray]:
    """J[k, :] for every output of ``call()``, nudging each number of ``array`` by ±eps (in place, then restored)."""
    columns: list[list[np.ndarray]] = []
    # Grad mode stays on: gradgradcheck's func calls autograd.grad itself. The nudges write to the numpy
    # array directly, so no version counter moves and no graph sees them.
    for k in np.ndindex(array.shape):  # row-major, as ravel() numbers the elements
        old = array[k]
        array[k] = old + eps
        plus = [(o.shape, o.dtype, o._array.astype(np.float64).ravel()) for o in _outputs(call())]  # (copies: an
        array[k] = old - eps  # output may be the input itself, which the next nudge changes)
        minus = [(o.shape, o.dtype, o._array.astype(np.float64).ravel()) for o in _outputs(call())]
        array[k] = old
        for p, m in zip(plus, minus):  # a function whose outputs change shape or dtype has no Jacobian here
            for what, a, b in (("shape", p[0], m[0]), ("dtype", p[1], m[1])):
                if a != b:
                    raise AssertionError(f"Expected `func` to return outputs with the same {what} when inputs are "
                                         f"perturbed on index {k} by {eps}, but got: {what}s {a} and {b}.")
        columns.append([(p[2] - m[2]) / (2 * eps) for p, m in zip(plus, minus)])
    n_out = len(columns[0]) if columns else len(_outputs(call()))
    return [np.stack([c[i] for c in columns]) if columns else np.zeros((0, 0)) for i in range(n_out)]


def _analytical_jacobians(outputs: tuple[Tensor, ...], inputs: list[Tensor]) -> list[list[np.ndarray]]:
    """jac[i][j] = J of outputs[i] w.r.t. inputs[j], built one column (one output number) at a time."""
    jac = [[np.zeros((x.numel(), y.numel())) for x in inputs] for y in outputs]
    for i, y in enumerate(outputs):
        for col in range(y.numel()):
            onehot = np.zeros(y._array.shape, dtype=y._array.dtype)
            onehot.reshape(-1)[col] = 1
            grads = grad(y, inputs, _wrap(onehot), retain_graph=True, allow_unused=True)
            for j, g in enumerate(grads):
                if g is not None:
                    jac[i][j][:, col] = g._array.astype(np.float64).ravel()
    return jac


def _forward_jacobians(func: Callable, inputs: tuple, diff: list[int], keep: list[int]) -> list[list[np.ndarray]]:
    """jac[o][j] as :func:`_analytical_jacobians` gives it, from forward mode instead: each number of input j given
    the tangent 1 in turn (the others 0), the kept outputs' tangents are one row of each Jacobian."""
    outputs = _outputs(func(*inputs))
    jac = [[np.zeros((inputs[i].numel(), outputs[k].numel())) for i in diff] for k in keep]
    for j, i in enumerate(diff):
        x = inputs[i]
        for row in range(x.numel()):
            tangent = np.zeros(x._array.shape, dtype=x._array.dtype)
            tangent.reshape(-1)[row] = 1
            with forward_ad.dual_level():
                args = list(inputs)
                args[i] = forward_ad.make_dual(x, _wrap(tangent))
                results = _outputs(func(*args))
                for o, k in enumerate(keep):
                    t = forward_ad.unpack_dual(results[k]).tangent
                    if t is not None:
                        jac[o][j][row] = t._array.astype(np.float64).ravel()
    return jac


def _compare(numerical: list[np.ndarray], analytical: list[np.ndarray], x: Tensor, j: int, rtol: float, atol: float,
             mode: str) -> None:
    """Raise GradcheckError, showing both Jacobians, where they differ (``mode``: how the analytical one was made)."""
    for o, (num, ana) in enumerate(zip(numerical, analytical)):
        if num.shape != ana.shape or not np.allclose(ana, num, rtol=rtol, atol=atol):
            shown = x._array.dtype  # (PyTorch builds both in the input's dtype)
            raise GradcheckError(f"Jacobian {mode}mismatch for output {o:d} with respect to input {j:d},\n"
                                 f"numerical:{_wrap(num.astype(shown))}\nanalytical:{_wrap(ana.astype(shown))}\n")


def gradcheck(func: Callable[..., Tensor | Sequence[Tensor]], inputs: Tensor | Sequence[Any], *,
              eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3, raise_exception: bool = True,
              **options: Any) -> bool:
    """True if autograd's gradients of ``func`` at ``inputs`` match finite differences.

    Every tensor in ``inputs`` with ``requires_grad=True`` is checked against every floating-point
    output. On a mismatch raises ``GradcheckError`` showing both Jacobians (or returns False with
    ``raise_exception=False``)::

        x = tinygrad_edu.randn(3, dtype=tinygrad_edu.float64, requires_grad=True)
        assert gradcheck(MyExp.apply, (x,))
    """
    unknown = set(options) - _ACCEPTED
    if unknown:
        raise TypeError(f"gradcheck() got an unexpected keyword argument '{sorted(unknown)[0]}'")
    inputs = _as_tuple(inputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them "
                         "have requires_grad=True.")
    for i in diff:
        if inputs[i]._array.dtype != np.float64:
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating "
                          "point or complex. ", UserWarning, stacklevel=2)
    # Only outputs that require grad have an analytical Jacobian to check; as in PyTorch, outputs and
    # inputs are numbered among the differentiable ones in the error message.
    outputs = _outputs(func(*inputs))
    keep = [k for k, o in enumerate(outputs) if o.requires_grad]
    if not keep:  # autograd says nothing depends on the inputs: finite differences must agree exactly
        for i in diff:
            if any(np.any(num != 0) for num in _numerical_jacobians(func, inputs, i, eps)):
                if not raise_exception:
                    return False
                raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    if options.get("check_forward_ad", False):  # J·t from forward mode (a Function's jvp), column by column
        try:
            forward = _forward_jacobians(func, inputs, diff, keep)
            for j, i in enumerate(diff):
                numerical = _numerical_jacobians(func, inputs, i, eps)
                _compare([numerical[k] for k in keep], [f[j] for f in forward], inputs[i], j, rtol, atol,
                         "computed with forward mode ")
        except GradcheckError:
            if raise_exception:
                raise
            return False
    if not options.get("check_backward_ad", True):
        return True
    checked = tuple(outputs[k] for k in keep)
    analytical = _analytical_jacobians(checked, [inputs[i] for i in diff])
    again = _analytical_jacobians(checked, [inputs[i] for i in diff])  # backward must give the same numbers again
    if any(np.abs(a - b).max(initial=0) > options.get("nondet_tol", 0.0)
           for row, row_again in zip(analytical, again) for a, b in zip(row, row_again)):
        if not raise_exception:
            return False
        raise GradcheckError(_NOT_REENTRANT.format(float(options.get("nondet_tol", 0.0))))
    try:
        for j, i in enumerate(diff):
            numerical = _numerical_jacobians(func, inputs, i, eps)
            _compare([numerical[k] for k in keep], [a[j] for a in analytical], inputs[i], j, rtol, atol, "")
        _backward_multiplies_by_grad_output(checked, [inputs[i] for i in diff])
        if options.get("check_undefined_grad", True):
            _undefined_grads_give_none_or_zeros(checked)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


_NOT_REENTRANT = (
    "Backward is not reentrant, i.e., running backward with same input and grad_output multiple times gives different "
    "values, although analytical gradient matches numerical gradient.The tolerance for nondeterminism was {}.\n\n"
    "NOTE: If your op relies on non-deterministic operations i.e., it is listed here:\n"
    "https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html\nthis failure might be "
    "expected.\n\nIf you are adding a new operator, please file an issue and then use one of the\nworkarounds. The "
    "workaround depends on how your test invokes gradcheck/gradgradcheck.\nIf the test\n- manually invokes "
    "gradcheck/gradgradcheck, then call gradcheck/gradgradcheck\n  with `nondet_tol=<tol>` as a keyword argument.\n"
    "- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test\n  to have "
    "`gradcheck_nondet_tol=<tol>`.\n- is a Module test (e.g., in common_nn.py), then modify the corresponding\n  "
    "module_test entry to have `gradcheck_nondet_tol=<tol>`\n")


def _backward_multiplies_by_grad_output(outputs: tuple[Tensor, ...], inputs: list[Tensor]) -> None:
    """A backward is linear in the gradient it receives: zero gradients in must give zero gradients out."""
    zeros = [_wrap(np.zeros_like(o._array)) for o in outputs]
    for g, x in zip(grad(outputs, inputs, zeros, retain_graph=True, allow_unused=True), inputs):
        if g is None:
            continue
        if np.any(g._array != 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if g._array.dtype != x._array.dtype:
            raise GradcheckError("grad is incorrect type")
        if g._array.shape != x._array.shape:
            raise GradcheckError("grad is incorrect size")


def _undefined_grads_give_none_or_zeros(outputs: tuple[Tensor, ...]) -> None:
    """A Function's backward must accept outputs that got no gradient (None, when it asked not to materialize zeros)
    and then give None or zeros: what PyTorch checks by sending undefined gradients. (Built-in ops' nodes do.)"""
    for o in outputs:  # the hooks on an output are given its undefined gradient too (None), as in PyTorch
        for fn in ((o.grad_fn._tensor_pre_hooks or {}).get(o._output_nr, ()) if o.grad_fn is not None else ()):
            try:
                fn(None)
            except Exception as error:
                warnings.warn(_UNDEFINED_BC, UserWarning, stacklevel=3)
                raise GradcheckError(_UNDEFINED_UNHANDLED) from error
    for node in {id(o.grad_fn): o.grad_fn for o in outputs if o.grad_fn is not None}.values():
        if not node._learners:
            continue
        given = [None if not node.materialize_grads or meta is None else _wrap(np.zeros(*meta))
                 for meta in getattr(node, "_output_meta", [(outputs[0]._array.shape, outputs[0]._array.dtype)])]
        try:
            result = learners_gradients(node, given)
        except Exception as error:
            warnings.warn(_UNDEFINED_BC, UserWarning, stacklevel=3)
            raise GradcheckError(_UNDEFINED_UNHANDLED) from error
        if any(g is not None and np.any(g._array != 0) for g in result):
            warnings.warn(_UNDEFINED_BC, UserWarning, stacklevel=3)
            raise GradcheckError("Expected all input grads to be undefined or zero when all output grads are undefined "
                                 'or zero. Please look at "Notes about undefined output gradients" in '
                                 '"tools/autograd/derivatives.yaml"')


_PRIVATE_API = ("`{}` was part of PyTorch's private API and not meant to be exposed. We are deprecating it and it will "
                "be removed in a future version of PyTorch. If you have a specific use for this or feature request "
                "for this to be a stable API, please file us an issue at https://github.com/pytorch/pytorch/issues/new")


def get_numerical_jacobian(fn: Callable[[tuple], Any], inputs: Any, target: Any = None, eps: float = 1e-3,
                           grad_out: float = 1.0) -> tuple[Tensor, ...]:
    """Deprecated in PyTorch (with this warning): the finite-difference Jacobian of ``fn(inputs)``'s first output
    with respect to each tensor of ``target`` (default: the inputs that require grad), one row per number of it."""
    warnings.warn(_PRIVATE_API.format("get_numerical_jacobian"), FutureWarning, stacklevel=2)
    if grad_out != 1.0:
        raise ValueError("Expected grad_out to be 1.0. get_numerical_jacobian no longer supports values of "
                         "grad_out != 1.0.")
    targets = [t for t in _as_tuple(inputs if target is None else target) if isinstance(t, Tensor) and t.requires_grad]
    return tuple(_wrap(_nudging(lambda: fn(inputs), t._array, eps)[0]) for t in targets)


def get_analytical_jacobian(inputs: Any, output: Tensor, nondet_tol: float = 0.0,
                            grad_out: float = 1.0) -> tuple[tuple[Tensor, ...], bool, bool, bool]:
    """Deprecated in PyTorch (with this warning): autograd's Jacobian of ``output`` with respect to each input that
    requires grad, computed twice: (jacobians, whether both agree within ``nondet_tol``, sizes ok, types ok)."""
    warnings.warn(_PRIVATE_API.format("get_analytical_jacobian"), FutureWarning, stacklevel=2)
    if grad_out != 1.0:
        raise ValueError("Expected grad_out to be 1.0. get_analytical_jacobian no longer supports values of "
                         "grad_out != 1.0.")
    diff = [t for t in _as_tuple(inputs) if isinstance(t, Tensor) and t.requires_grad]
    first, again = (_analytical_jacobians((output,), diff)[0] for _ in range(2))
    reentrant = all(np.abs(a - b).max(initial=0) <= nondet_tol for a, b in zip(first, again))
    return tuple(_wrap(j) for j in first), reentrant, True, True


_UNDEFINED_UNHANDLED = ('Expected backward function to handle undefined output grads. Please look at "Notes about '
                        'undefined output gradients" in "tools/autograd/derivatives.yaml"')
_UNDEFINED_BC = ("Backwards compatibility: New undefined gradient support checking feature is enabled by default, but "
                 "it may break existing callers of this function. If this is true for you, you can call this function "
                 'with "check_undefined_grad=False" to disable the feature')


def gradgradcheck(func: Callable[..., Tensor | Sequence[Tensor]], inputs: Tensor | Sequence[Any],
                  grad_outputs: Tensor | Sequence[Tensor] | None = None, *, eps: float = 1e-6,
                  atol: float = 1e-5, rtol: float = 1e-3, raise_exception: bool = True, **options: Any) -> bool:
    """Check second derivatives: gradcheck applied to the backward pass of ``func``.

    The function checked is ``(x, v) -> autograd.grad(func(x), x, v, create_graph=True)``, so both
    "how the gradient changes with x" (the Hessian, for a scalar output) and "how it changes with the
    incoming gradient v" are compared with finite differences. ``v`` (``grad_outputs``) is random in
    [-1, 1) unless given.
    """


    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outs = _outputs(func(*inputs))
        grad_outputs = tuple((rand(*o.shape, dtype=o.dtype) * 2 - 1).requires_grad_() for o in outs)
    grad_outputs = _as_tuple(grad_outputs)
    n = len(grad_outputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]

    def backward_of_func(*args: Any) -> tuple[Tensor, ...]:
        outs = _outputs(func(*args[:-n]))
        grads = grad(outs, [args[i] for i in diff], args[-n:], create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(backward_of_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, **options)
