"""Derivatives by autograd, for the pictures: the few lines every explorer in ``teach`` shares.

A function ``f`` given to an explorer is ordinary Python written with tinygrad_edu operations, e.g.
``lambda x, y: x**2 + 3 * torch.sin(y)``. It is called on float64 tensors in two ways:

* at one point (0-dimensional tensors that require grad): the value there and, by backward, the partial
  derivatives there. This is the only way any derivative is obtained: autograd, never a formula typed in.
* on whole grids at once (a curve's x values, a contour map's X and Y). Elementwise operations broadcast, so one
  call evaluates every point. The partials at every grid point also come from one backward: for an elementwise
  f, ``f(X, Y).sum()`` is a sum of independent terms ``f(X[i, j], Y[i, j])``, and the derivative of the sum with
  respect to ``X[i, j]`` is exactly the partial derivative of f at that one point.

That is why f must be *elementwise* (each output number depends only on the numbers at the same position):
``x.sum()``, ``x.mean()`` or a matrix product would mix the points. The functions below check it and say so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .._creation import tensor
from .._dtype import float64
from .._tensor import Tensor
from ..autograd import grad, no_grad

__all__ = ["check_function", "check_range", "fmt", "grid_values", "grid_values_and_grads", "value_and_grad"]


def fmt(value: float) -> str:
    """A number for the text under a picture: 4 significant digits, no ``-0``, same text on every machine."""
    if not np.isfinite(value):
        return str(float(value))  # nan, inf, -inf
    text = f"{float(value):.4g}"
    return "0" if text == "-0" else text


def check_function(f: object, example: str, name: str = "f") -> None:
    """``f`` must be something we can call; ``example`` shows the learner what we expect."""
    if not callable(f):
        raise TypeError(f"{name} must be a function, for example {example}; got {type(f).__name__} {f!r}")


def check_range(name: str, interval: Sequence[float]) -> tuple[float, float]:
    """``(low, high)`` as two floats, low < high."""
    try:
        low, high = (float(v) for v in interval)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a pair of numbers (low, high), e.g. (-2, 2); got {interval!r}") from None
    if not (np.isfinite(low) and np.isfinite(high)) or low >= high:
        raise ValueError(f"{name} must be (low, high) with low < high, e.g. (-2, 2); got ({low:g}, {high:g}): "
                         "swap them if they are reversed")
    return low, high


def check_inside(name: str, value: float, interval: tuple[float, float], range_name: str) -> float:
    """``value`` as a float, checked to lie in ``interval`` (a slider cannot show a value outside its range)."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number; got {value!r}") from None
    low, high = interval
    if not low <= value <= high:
        raise ValueError(f"{name} = {value:g} is outside {range_name} = ({low:g}, {high:g}): "
                         f"choose {name} inside it, or widen {range_name}")
    return value


def _check_output(out: object, shape: tuple[int, ...], name: str) -> Tensor:
    if not isinstance(out, Tensor):
        raise TypeError(f"{name} must return a tinygrad_edu Tensor computed from its inputs with tinygrad_edu "
                        f"operations (x**2, torch.sin(x), x * y, ...); it returned {type(out).__name__}. "
                        "Use torch.sin, not math.sin or np.sin: autograd can only follow tinygrad_edu operations.")
    if tuple(out.shape) != shape:
        if shape == ():
            raise ValueError(f"{name} must return a single number (a 0-dimensional tensor) when given single "
                             f"numbers; it returned a tensor of shape {list(out.shape)}")
        raise ValueError(f"{name} must be elementwise: given tensors of shape {list(shape)} it must return the "
                         f"same shape, one value per point; it returned shape {list(out.shape)}. "
                         "Avoid sum(), mean() and matrix products inside it; write a constant c as c + 0 * x.")
    return out


def _inputs(arrays: Sequence[np.ndarray | float], requires_grad: bool) -> list[Tensor]:
    return [tensor(np.asarray(a, dtype=np.float64), dtype=float64, requires_grad=requires_grad) for a in arrays]


def value_and_grad(f: Callable[..., Tensor], point: Sequence[float], name: str = "f") -> tuple[float, np.ndarray]:
    """``f(*point)`` and its partial derivatives at ``point`` (a numpy vector), by one backward pass.

    If the result does not depend on the inputs at all (f returned a constant tensor), every partial is 0.
    Where f has a kink (``abs`` or ``relu`` at 0) you get what autograd gives there, as PyTorch does: the value
    its backward formula defines (0 for both), which is one of the one-sided slopes or between them.
    """
    inputs = _inputs([float(p) for p in point], requires_grad=True)
    with np.errstate(all="ignore"):
        out = _check_output(f(*inputs), (), name)
        if not out.requires_grad:
            return float(out.item()), np.zeros(len(inputs))
        partials = grad(out, inputs, allow_unused=True)
    return float(out.item()), np.array([0.0 if g is None else float(g.item()) for g in partials])


def _check_elementwise(f: Callable[..., Tensor], arrays: Sequence[np.ndarray], values: np.ndarray,
                       name: str) -> None:
    """The first grid point, computed alone, must equal its value in the grid call (catches ``x - x.mean()``)."""
    first = [float(np.ravel(a)[0]) for a in arrays]
    with no_grad(), np.errstate(all="ignore"):
        alone = float(_check_output(f(*_inputs(first, requires_grad=False)), (), name).item())
    in_grid = float(np.ravel(values)[0])
    if not (np.isclose(alone, in_grid, rtol=1e-9, atol=1e-12) or (np.isnan(alone) and np.isnan(in_grid))):
        raise ValueError(f"{name} must be elementwise: at the point {tuple(first)} it gives {alone:g} alone but "
                         f"{in_grid:g} when called on a whole grid, so each value depends on the other points. "
                         "Avoid sum(), mean() and matrix products inside it.")


def grid_values(f: Callable[..., Tensor], *arrays: np.ndarray, name: str = "f") -> np.ndarray:
    """f evaluated at every point of the grids ``arrays`` (all the same shape) in one call, without a graph."""
    with no_grad(), np.errstate(all="ignore"):
        values = _check_output(f(*_inputs(arrays, requires_grad=False)), np.shape(arrays[0]), name).numpy()
    _check_elementwise(f, arrays, values, name)
    return np.array(values, dtype=np.float64)


def grid_values_and_grads(f: Callable[..., Tensor], *arrays: np.ndarray,
                          name: str = "f") -> tuple[np.ndarray, list[np.ndarray]]:
    """f at every grid point and its partial derivatives there: one forward and one backward of ``f(...).sum()``.

    Returns ``(values, [df/d(first input), df/d(second input), ...])``, each shaped like the grid.
    """
    inputs = _inputs(arrays, requires_grad=True)
    with np.errstate(all="ignore"):
        out = _check_output(f(*inputs), np.shape(arrays[0]), name)
        values = np.array(out.detach().numpy(), dtype=np.float64)
        _check_elementwise(f, arrays, values, name)
        if not out.requires_grad:
            return values, [np.zeros_like(values) for _ in inputs]
        partials = grad(out.sum(), inputs, allow_unused=True)
    return values, [np.zeros_like(values) if g is None else np.array(g.numpy(), dtype=np.float64) for g in partials]
