"""L-BFGS: a quasi-Newton method that builds a picture of the curvature from the last steps (PyTorch's rule)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.grad_mode import enable_grad, no_grad
from .optimizer import Optimizer


class LBFGS(Optimizer):
    """L-BFGS (Nocedal, 1980). Newton's step is -H g, with H the inverse Hessian; L-BFGS never forms H but
    estimates H g from the last ``history_size`` pairs (s, y) of a step s and the change y it made in the gradient
    (the two-loop recursion), scaled by ``H_diag = s.y / y.y``. Each ``step(closure)`` runs up to ``max_iter``
    iterations, calling ``closure()`` (which recomputes the loss and its gradients) after each move::

        d = -(H g)                            the direction (plain -g on the first iteration)
        p <- p + t d                          t = lr, and min(1, 1/|g|_1) * lr on the very first iteration

    It stops early when the gradient is below ``tolerance_grad``, or the step or the change in the loss below
    ``tolerance_change``. One parameter group only; the state (``d``, ``t``, the pairs ``old_dirs``/``old_stps``,
    ``ro``, ``H_diag``, counts) lives under the first parameter. ``line_search_fn="strong_wolfe"`` is not
    implemented here: the step length is the fixed t above.
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], lr: float = 1, max_iter: int = 20,
                 max_eval: int | None = None, tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9,
                 history_size: int = 100, line_search_fn: str | None = None) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {"lr": lr, "max_iter": max_iter, "max_eval": max_eval, "tolerance_grad": tolerance_grad,
                    "tolerance_change": tolerance_change, "history_size": history_size,
                    "line_search_fn": line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _flat_grad(self) -> np.ndarray:
        """All gradients as one vector (zeros for a parameter that got none)."""
        return np.concatenate([p._grad._array.ravel() if p._grad is not None else np.zeros(p._array.size,
                                                                                           p._array.dtype)
                               for p in self._params])

    def _move(self, t: Any, d: np.ndarray) -> None:
        """p <- p + t d, each parameter taking its slice of the flat direction, in place."""
        start = 0
        for p in self._params:
            n = p._array.size
            p._array += np.float32(t).astype(p._array.dtype) * d[start:start + n].reshape(p._array.shape)
            p._version_counter[0] += 1
            start += n

    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        """Up to ``max_iter`` iterations, each a move along the L-BFGS direction and a new ``closure()``."""
        self._steps_taken += 1
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        with enable_grad():
            orig_loss = closure()
        loss = orig_loss.item()
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if np.abs(flat_grad).max() <= tolerance_grad:  # already at a stationary point
            return orig_loss

        d, t = _array(state.get("d")), state.get("t")
        old_dirs = [_array(v) for v in state.get("old_dirs", [])]
        old_stps = [_array(v) for v in state.get("old_stps", [])]
        ro = [_array(v) for v in state.get("ro", [])]
        h_diag = _array(state.get("H_diag"))
        prev_flat_grad, prev_loss = _array(state.get("prev_flat_grad")), state.get("prev_loss")
        one = np.float32(1.0).astype(flat_grad.dtype)
        n_iter = 0
        with no_grad():
            while n_iter < max_iter:
                n_iter += 1
                state["n_iter"] += 1
                if state["n_iter"] == 1:  # no history yet: steepest descent
                    d = -flat_grad
                    old_dirs, old_stps, ro, h_diag = [], [], [], one
                else:
                    y = flat_grad - prev_flat_grad  # how the gradient changed over the last step s
                    s = d * _dtype_of(t, d)
                    ys = np.dot(y, s)
                    if ys > 1e-10:  # a pair that says the curvature is positive along s: remember it
                        if len(old_dirs) == group["history_size"]:
                            old_dirs.pop(0)
                            old_stps.pop(0)
                            ro.pop(0)
                        old_dirs.append(y)
                        old_stps.append(s)
                        ro.append(one / ys)
                        h_diag = ys / np.dot(y, y)
                    # the two-loop recursion: q = -g through the pairs newest first, scaled, then back out
                    al = [None] * len(old_dirs)
                    q = -flat_grad
                    for i in range(len(old_dirs) - 1, -1, -1):
                        al[i] = np.dot(old_stps[i], q) * ro[i]
                        q = q + (-al[i]) * old_dirs[i]
                    d = r = q * h_diag
                    for i in range(len(old_dirs)):
                        be_i = np.dot(old_dirs[i], r) * ro[i]
                        r += (al[i] - be_i) * old_stps[i]
                    state["al"] = [_wrap(np.asarray(a)) for a in al] + [None] * (group["history_size"] - len(al))
                prev_flat_grad = flat_grad.copy()
                prev_loss = loss
                # the first step of all is kept short: at most a unit step in the 1-norm of the gradient
                t = min(1.0, one / np.abs(flat_grad).sum()) * lr if state["n_iter"] == 1 else lr
                gtd = np.dot(flat_grad, d)
                if gtd > -tolerance_change:  # not a descent direction (or a flat one): stop
                    break
                if group["line_search_fn"] is not None:  # (asked for only here, where a line search would run)
                    if group["line_search_fn"] != "strong_wolfe":
                        raise RuntimeError("only 'strong_wolfe' is supported")
                    raise NotImplementedError("tinygrad_edu's LBFGS takes fixed steps: use line_search_fn=None")
                evals = 0
                self._move(t, d)
                if n_iter != max_iter:
                    with enable_grad():
                        loss = closure().item()
                    flat_grad = self._flat_grad()
                    evals = 1
                current_evals += evals
                state["func_evals"] += evals
                if n_iter == max_iter or current_evals >= max_eval:
                    break
                if np.abs(flat_grad).max() <= tolerance_grad:
                    break
                if np.abs(d * _dtype_of(t, d)).max() <= tolerance_change:
                    break
                if abs(loss - prev_loss) < tolerance_change:
                    break

        state["d"], state["t"] = _wrap(d), _scalar_state(t)
        state["old_dirs"], state["old_stps"] = [_wrap(v) for v in old_dirs], [_wrap(v) for v in old_stps]
        state["ro"], state["H_diag"] = [_wrap(np.asarray(v)) for v in ro], _scalar_state(h_diag)
        state["prev_flat_grad"], state["prev_loss"] = _wrap(prev_flat_grad), prev_loss
        return orig_loss


def _array(value: Any) -> Any:
    """A state entry back as an array (tensors are stored, as PyTorch stores them)."""
    return value._array if isinstance(value, Tensor) else value


def _dtype_of(t: Any, like: np.ndarray) -> Any:
    return np.asarray(t, dtype=like.dtype)


def _scalar_state(value: Any) -> Any:
    """A float32 number (from a tensor computation) is stored as a 0-d tensor, a Python number as it is."""
    return _wrap(np.asarray(value)) if isinstance(value, (np.ndarray, np.generic)) else value
