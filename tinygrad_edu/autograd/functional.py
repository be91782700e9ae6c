"""``tinygrad_edu.autograd.functional``: whole derivatives of a function (``torch.autograd.functional`` twin).

Autograd computes one kind of derivative: a vector-Jacobian product vᵀJ, by one backward pass
(:func:`autograd.grad` with ``grad_outputs=v``). Everything here is built from that:

==================  ==================================  ================================================
call                returns                             how
==================  ==================================  ================================================
``vjp(f, x, v)``    ``(f(x), vᵀJ)``                     one backward pass
``jacobian(f, x)``  J, shaped ``f(x).shape + x.shape``  one backward pass per element of f(x): row k is
                                                        e_kᵀJ, with e_k picking output element k
``jvp(f, x, v)``    ``(f(x), Jv)``                      the double-backward trick (below)
``hessian(f, x)``   H, shaped ``x.shape + x.shape``     the Jacobian of the gradient (f returns a scalar)
``vhp(f, x, v)``    ``(f(x), vᵀH)``                     a backward pass through the gradient
``hvp(f, x, v)``    ``(f(x), Hv)``                      the double-backward trick on the gradient
==================  ==================================  ================================================

The double-backward trick gets a Jacobian-*vector* product (what forward mode computes) from reverse mode:
g(u) = Jᵀu, the backward pass of f for a dummy u, is linear in u with Jacobian Jᵀ, so the backward pass of
g for v gives vᵀJᵀ = (Jv)ᵀ. (The value of u does not matter: zeros, which must require grad.)

``x`` is a tensor or a tuple of tensors (``f`` is called as ``f(*x)``); ``f`` returns a tensor or a tuple of
tensors, and results come in the same structure. The inputs are differentiated as fresh tensors, so their
``.grad`` is not touched. Results are detached unless ``create_graph=True``, which keeps them
differentiable (a Hessian of a Hessian...). Not implemented: ``strict=True``, ``vectorize=True`` and the
forward-mode strategies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core.function import wrap as _wrap
from ..core.tensor import Tensor
from ..ops.shape import stack
from .engine import grad
from .grad_mode import enable_grad

Structure = Any  # a Tensor, or a tuple of them (of tuples, for jacobian and hessian)


def _as_tuple(value: Any, what: str, fn_name: str) -> tuple[bool, tuple[Tensor, ...]]:
    """(was it a tuple?, the tensors as a tuple), refusing anything but tensors with PyTorch's message."""
    is_tuple = isinstance(value, tuple)
    values = value if is_tuple else (value,)
    for i, v in enumerate(values):
        if not isinstance(v, Tensor):
            which = f"value at index {i}" if is_tuple else f"given {what}"
            raise TypeError(f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors but the "
                            f"{which} has type {type(v)}.")
    return is_tuple, values


def _unsupported(fn_name: str, strict: bool, vectorize: bool = False, strategy: str = "reverse-mode") -> None:
    if strict or vectorize or strategy != "reverse-mode":
        raise NotImplementedError(
            f"tinygrad_edu.autograd.functional.{fn_name} computes with reverse mode only, without strict checks "
            "or vectorization: leave strict, vectorize and the strategy at their defaults (to see which inputs an "
            "output does not depend on, call autograd.grad(..., allow_unused=True) and look for None).")


def _fresh(inputs: tuple[Tensor, ...], create_graph: bool) -> tuple[Tensor, ...]:
    """The tensors to differentiate with respect to. With create_graph, an input that requires grad is used
    through a view, so that the results stay connected to it and can be differentiated again."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(True)
                 for x in inputs)


def _vectors(v: Any, like: tuple[Tensor, ...], like_is_tuple: bool, fn_name: str, create_graph: bool,
             none_message: str) -> tuple[Tensor | None, ...]:
    """The vectors v, one per tensor of ``like``, checked for number and shape. ``None`` is allowed only
    where ``like`` is a single one-element tensor (then v is implicitly 1)."""
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(none_message)
        return (None,)
    _, vs = _as_tuple(v, "v", fn_name)
    if len(vs) != len(like):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(vs)}."
                           if like_is_tuple else "The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(vs, like)):
        if a.shape != b.shape:
            raise RuntimeError(f"{f'Entry {i} in ' if like_is_tuple else ''}v has invalid size: should be {b.shape} "
                               f"but got {a.shape}.")
    return tuple(a if create_graph and a.requires_grad else a.detach() for a in vs)


def _grad(outputs: Sequence[Tensor], inputs: tuple[Tensor, ...], vectors: Sequence[Tensor | None],
          create_graph: bool) -> tuple[Tensor, ...]:
    """Σ vᵀ d(output)/d(inputs) by one backward pass, keeping the graph for the next call. Outputs that do
    not require grad contribute nothing; an input no output depends on gets zeros (not None)."""
    used = [(o, v) for o, v in zip(outputs, vectors) if o.requires_grad]
    grads = grad([o for o, _ in used], inputs, [v for _, v in used], retain_graph=True, create_graph=create_graph,
                  allow_unused=True) if used else (None,) * len(inputs)
    return tuple(_wrap(np.zeros_like(x._array)) if g is None else g for g, x in zip(grads, inputs))


def _done(tensors: tuple[Tensor, ...], create_graph: bool) -> tuple[Tensor, ...]:
    """Results: detached, unless the caller wants to differentiate them again."""
    return tensors if create_graph else tuple(t.detach() for t in tensors)


def _zeros_input(like: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
    """The dummy u of the double-backward trick: zeros that require grad, one per tensor of ``like``."""
    return tuple(_wrap(np.zeros_like(t._array)).requires_grad_(True) for t in like)


def _one(values: tuple, is_tuple: bool) -> Structure:
    return values if is_tuple else values[0]


def vjp(func: Callable[..., Any], inputs: Tensor | tuple[Tensor, ...], v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Structure, Structure]:
    """``(func(inputs), vᵀJ)``: the vector-Jacobian product, what ``backward(v)`` computes, by one backward pass."""
    _unsupported("vjp", strict)
    with enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "vjp")
        xs = _fresh(xs, create_graph)
        outputs_tuple, ys = _as_tuple(func(*xs), "outputs of the user-provided function", "vjp")
        vs = _vectors(v, ys, outputs_tuple, "vjp", create_graph, "The vector v can only be None if the user-provided "
                      "function returns a single Tensor with a single element.")
        result = _grad(ys, xs, vs, create_graph)
    return _one(_done(ys, create_graph), outputs_tuple), _one(_done(result, create_graph), inputs_tuple)


def jvp(func: Callable[..., Any], inputs: Tensor | tuple[Tensor, ...], v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Structure, Structure]:
    """``(func(inputs), Jv)``: the Jacobian-vector product (a directional derivative of every output), by the
    double-backward trick (see the module's docstring)."""
    _unsupported("jvp", strict)
    with enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "jvp")
        xs = _fresh(xs, create_graph)
        vs = _vectors(v, xs, inputs_tuple, "jvp", create_graph, "The vector v can only be None if the input to the "
                      "user-provided function is a single Tensor with a single element.")
        outputs_tuple, ys = _as_tuple(func(*xs), "outputs of the user-provided function", "jvp")
        us = _zeros_input(ys)
        g = _grad(ys, xs, us, create_graph=True)  # g(u) = Jᵀu, recorded as a function of u
        result = _grad(g, us, vs, create_graph)  # vᵀ dg/du = vᵀJᵀ = (Jv)ᵀ
    return _one(_done(ys, create_graph), outputs_tuple), _one(_done(result, create_graph), outputs_tuple)


def jacobian(func: Callable[..., Any], inputs: Tensor | tuple[Tensor, ...], create_graph: bool = False,
             strict: bool = False, vectorize: bool = False, strategy: str = "reverse-mode") -> Structure:
    """The Jacobian J[i..., j...] = d func(x)[i...] / d x[j...], shaped ``output.shape + input.shape``.

    Row by row: backward from output element k (``grad_outputs`` = e_k, the one-hot vector) gives e_kᵀJ, row k.
    One pass per output element, so a function of many outputs costs many passes. With several inputs or
    outputs, the result is a tuple over inputs, or over outputs, or over outputs of tuples over inputs.
    """
    _unsupported("jacobian", strict, vectorize, strategy)

    with enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "jacobian")
        xs = _fresh(xs, create_graph)
        outputs_tuple, ys = _as_tuple(func(*xs), "outputs of the user-provided function", "jacobian")
        per_output = []
        for y in ys:
            flat = y.reshape(-1)
            rows = [_grad((flat[k],), xs, (None,), create_graph) for k in range(flat.numel())]  # rows[k][j]: row k
            blocks = tuple(stack([row[j] for row in rows]).reshape(tuple(y.shape) + tuple(x.shape)) if rows
                           else _wrap(np.zeros(tuple(y.shape) + tuple(x.shape), x._array.dtype))
                           for j, x in enumerate(xs))
            per_output.append(_one(_done(blocks, create_graph), inputs_tuple))
    return _one(tuple(per_output), outputs_tuple)


def _one_number(out: Any, fn_name: str) -> Tensor:
    """The output of a function that must return one number (hessian, vhp, hvp), checked as PyTorch does."""
    out_tuple, _ = _as_tuple(out, "outputs of the user-provided function", fn_name)
    if out_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if out.numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")
    return out


def hessian(func: Callable[..., Any], inputs: Tensor | tuple[Tensor, ...], create_graph: bool = False,
            strict: bool = False, vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Structure:
    """The Hessian H[i..., j...] = d² func / dx[i...] dx[j...] of a function returning one number: the Jacobian
    of its gradient, the gradient computed with ``create_graph=True`` so that it can be differentiated."""
    _unsupported("hessian", strict, vectorize, outer_jacobian_strategy)
    inputs_tuple, xs = _as_tuple(inputs, "inputs", "hessian")

    def scalar(*args: Tensor) -> Tensor:
        return _one_number(func(*args), "hessian").squeeze()

    def gradient(*args: Tensor) -> tuple[Tensor, ...]:
        return jacobian(scalar, args, create_graph=True)

    h = jacobian(gradient, xs, create_graph=create_graph)  # a tuple (per gradient piece) of tuples (per input)
    return h if inputs_tuple else h[0][0]


def _gradient(func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool, fn_name: str) -> tuple:
    """What vhp and hvp start from: (inputs were a tuple?, the fresh inputs, the vectors v, f's one number,
    its gradient computed with create_graph=True so that it can be differentiated)."""
    inputs_tuple, xs = _as_tuple(inputs, "inputs", fn_name)
    xs = _fresh(xs, create_graph)
    vs = _vectors(v, xs, inputs_tuple, fn_name, create_graph, "The vector v can only be None if the input to the "
                  "user-provided function is a single Tensor with a single element.")
    y = _one_number(func(*xs), fn_name)
    return inputs_tuple, xs, vs, y, _grad((y,), xs, (None,), create_graph=True)


def vhp(func: Callable[..., Any], inputs: Tensor | tuple[Tensor, ...], v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Tensor, Structure]:
    """``(func(inputs), vᵀH)`` for a function returning one number: backward through its gradient, with v as
    the gradient's weights. No Hessian is formed."""
    _unsupported("vhp", strict)
    with enable_grad():
        inputs_tuple, xs, vs, y, g = _gradient(func, inputs, v, create_graph, "vhp")
        result = _grad(g, xs, vs, create_graph)
    return _done((y,), create_graph)[0], _one(_done(result, create_graph), inputs_tuple)


def hvp(func: Callable[..., Any], inputs: Tensor | tuple[Tensor, ...], v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Tensor, Structure]:
    """``(func(inputs), Hv)`` for a function returning one number, by the double-backward trick on the gradient.
    (H is symmetric for the functions met in practice, so Hv = vᵀH and :func:`vhp`, one pass fewer, gives the
    same numbers; PyTorch computes hvp this way too.)"""
    _unsupported("hvp", strict)
    with enable_grad():
        inputs_tuple, xs, vs, y, g = _gradient(func, inputs, v, create_graph, "hvp")
        us = _zeros_input(xs)
        gu = _grad(g, xs, us, create_graph=True)  # uᵀH, recorded as a function of u
        result = _grad(gu, us, vs, create_graph)  # vᵀ d(Hᵀu)/du = (Hv)ᵀ
    return _done((y,), create_graph)[0], _one(_done(result, create_graph), inputs_tuple)
