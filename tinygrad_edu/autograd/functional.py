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
differentiable (a Hessian of a Hessian...). ``strict=True`` refuses, with PyTorch's errors, outputs that do not
depend on the inputs. ``jacobian(..., strategy="forward-mode", vectorize=True)`` and ``hessian(...,
outer_jacobian_strategy="forward-mode", vectorize=True)`` use forward mode (``forward_ad``): a column per pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core.function import wrap as _wrap
from ..core.tensor import Tensor
from ..ops.shape import stack
from . import forward_ad
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


def _check_requires_grad(values: Sequence[Tensor | None], kind: str, strict: bool) -> None:
    """strict=True: refuse outputs (or gradients) that do not depend on the inputs, with PyTorch's messages."""
    if not strict:
        return
    for i, value in enumerate(values):
        if value is None:  # (only gradients can be None)
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode.")
        if not value.requires_grad:
            raise RuntimeError(_NOT_DIFFERENTIABLE[kind].format(i))


_NOT_DIFFERENTIABLE = {
    "outputs": "Output {} of the user-provided function does not require gradients. The outputs must be computed in a "
               "differentiable manner from the input when running in strict mode.",
    "grad_inputs": "The gradient with respect to input {} is independent of the inputs of the user-provided function. "
                   "This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with respect to "
                "input {} is independent of the input. This is not allowed in strict mode. You should ensure that "
                "your function is twice differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {} is independent of the input. This "
               "is not allowed in strict mode. You should ensure that your function is thrice differentiable and "
               "that the hessian depends on the inputs.",
}

_NONE_GRAD = {  # strict=True and a gradient that is None: which pass found it
    "back": "The output of the user-provided function is independent of input {}. This is not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {} in the grad_outputs when using "
                  "the double backward trick to compute forward mode gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {}. This is not allowed in "
                   "strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {} in the grad_jacobian. "
                         "This is not allowed in strict mode as it prevents from using the double backward trick to "
                         "replace forward mode AD.",
}


def _fill_in_zeros(grads: Sequence[Tensor | None], refs: Sequence[Tensor], strict: bool, create_graph: bool,
                   stage: str) -> tuple[Tensor, ...]:
    """None gradients become zeros (an input the outputs do not depend on), or PyTorch's error with strict=True."""
    filled = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(_NONE_GRAD[stage].format(i))
            g = _wrap(np.zeros_like(ref._array))
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode when create_graph=True.")
        filled.append(g)
    return tuple(filled)


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
          create_graph: bool) -> tuple[Tensor | None, ...]:
    """Σ vᵀ d(output)/d(inputs) by one backward pass, keeping the graph for the next call. Outputs that do
    not require grad contribute nothing; an input no output depends on gets None (``_fill_in_zeros``)."""
    used = [(o, v) for o, v in zip(outputs, vectors) if o.requires_grad]
    return grad([o for o, _ in used], inputs, [v for _, v in used], retain_graph=True, create_graph=create_graph,
                allow_unused=True) if used else (None,) * len(inputs)


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
    with enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "vjp")
        xs = _fresh(xs, create_graph)
        outputs_tuple, ys = _as_tuple(func(*xs), "outputs of the user-provided function", "vjp")
        _check_requires_grad(ys, "outputs", strict)
        vs = _vectors(v, ys, outputs_tuple, "vjp", create_graph, "The vector v can only be None if the user-provided "
                      "function returns a single Tensor with a single element.")
        result = _fill_in_zeros(_grad(ys, xs, vs, create_graph), xs, strict, create_graph, "back")
    return _one(_done(ys, create_graph), outputs_tuple), _one(_done(result, create_graph), inputs_tuple)


def jvp(func: Callable[..., Any], inputs: Tensor | tuple[Tensor, ...], v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Structure, Structure]:
    """``(func(inputs), Jv)``: the Jacobian-vector product (a directional derivative of every output), by the
    double-backward trick (see the module's docstring), as PyTorch computes it here. (Forward mode gives the same
    numbers in one forward pass: ``func.jvp``, ``forward_ad``.)"""
    with enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "jvp")
        xs = _fresh(xs, create_graph)
        vs = _vectors(v, xs, inputs_tuple, "jvp", create_graph, "The vector v can only be None if the input to the "
                      "user-provided function is a single Tensor with a single element.")
        outputs_tuple, ys = _as_tuple(func(*xs), "outputs of the user-provided function", "jvp")
        _check_requires_grad(ys, "outputs", strict)
        us = _zeros_input(ys)
        g = _grad(ys, xs, us, create_graph=True)  # g(u) = Jᵀu, recorded as a function of u
        _check_requires_grad(g, "grad_inputs", strict)
        g_used = [gi for gi in g if gi is not None]
        raw = _grad(g_used, us, vs, create_graph) if g_used else (None,) * len(us)  # vᵀ dg/du = vᵀJᵀ = (Jv)ᵀ
        result = _fill_in_zeros(raw, ys, strict, create_graph, "back_trick")
    return _one(_done(ys, create_graph), outputs_tuple), _one(_done(result, create_graph), outputs_tuple)


def _postprocess(res: Any, outputs_tuple: bool, inputs_tuple: bool) -> Any:
    """A Jacobian's blocks (per output, per input) in the caller's structure, as PyTorch's ``_tuple_postprocess``."""
    if not inputs_tuple:
        res = tuple(el[0] for el in res)
    return res if outputs_tuple else res[0]


def jacobian(func: Callable[..., Any], inputs: Tensor | tuple[Tensor, ...], create_graph: bool = False,
             strict: bool = False, vectorize: bool = False, strategy: str = "reverse-mode") -> Structure:
    """The Jacobian J[i..., j...] = d func(x)[i...] / d x[j...], shaped ``output.shape + input.shape``.

    ``strategy="reverse-mode"`` (the default) builds it row by row: backward from output element k
    (``grad_outputs`` = e_k, the one-hot vector) gives e_kᵀJ, row k, so a function of many outputs costs many
    passes. ``strategy="forward-mode"`` builds it column by column: one forward pass with the tangent e_j
    (``forward_ad``) gives J·e_j, column j, so a function of many inputs costs many passes. PyTorch runs the passes
    of one strategy together when ``vectorize=True`` (with ``vmap``), and requires it for forward mode; here
    ``vectorize`` is accepted with PyTorch's rules, and the passes run one after another. With several inputs or
    outputs, the result is a tuple over inputs, or over outputs, or over outputs of tuples over inputs.
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function '
                             'has more outputs than inputs, "forward-mode" tends to be more performant. Otherwise, '
                             'prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError('tinygrad_edu.autograd.functional.jacobian: `create_graph=True` and '
                                      '`strategy="forward-mode"` are not supported together (yet). Please either set '
                                      '`create_graph=False` or `strategy="reverse-mode"`.')
        return _jacfwd(func, inputs, strict, vectorize)
    with enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "jacobian")
        xs = _fresh(xs, create_graph)
        outputs_tuple, ys = _as_tuple(func(*xs), "outputs of the user-provided function", "jacobian")
        _check_requires_grad(ys, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError("tinygrad_edu.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                               "supported together. Please either set `strict=False` or `vectorize=False`.")
        per_output = []
        for i, y in enumerate(ys):
            flat, rows = y.reshape(-1), []
            for k in range(y.numel()):  # row k: e_kᵀJ
                row = _grad((flat[k],), xs, (None,), create_graph)
                for j, g in enumerate(row):
                    if g is not None and strict and create_graph and not g.requires_grad:
                        raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. "
                                           "This is not allowed in strict mode when create_graph=True.")
                    if g is None and strict:
                        raise RuntimeError(f"Output {i} of the user-provided function is independent of input {j}. "
                                           "This is not allowed in strict mode.")
                rows.append(_fill_in_zeros(row, xs, False, False, "back"))
            per_output.append(tuple(stack([row[j] for row in rows]).reshape(tuple(y.shape) + tuple(x.shape)) if rows
                                    else _wrap(np.zeros(tuple(y.shape) + tuple(x.shape), x._array.dtype))
                                    for j, x in enumerate(xs)))
    return _postprocess(tuple(_done(blocks, create_graph) for blocks in per_output), outputs_tuple, inputs_tuple)


def _jacfwd(func: Callable[..., Any], inputs: Any, strict: bool, vectorize: bool) -> Structure:
    """The Jacobian column by column, by forward mode: the tangent e_j on input element j gives column J·e_j."""
    if strict:
        raise RuntimeError('tinygrad_edu.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` '
                           'are not supported together (yet). Please either set `strict=False` or '
                           '`strategy="reverse-mode"`.')
    inputs_tuple, xs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly "
                                  "implemented for `vectorize=True`.")
    columns, outputs_tuple, primals = [], False, ()
    for i, x in enumerate(xs):
        for j in range(x.numel()):
            tangents = [_wrap(np.zeros_like(t._array)) for t in xs]
            tangents[i]._array.reshape(-1)[j] = 1
            with forward_ad.dual_level():
                duals = [forward_ad.make_dual(t, u) for t, u in zip(xs, tangents)]
                outputs_tuple, ys = _as_tuple(func(*duals), "outputs", "jacobian")
                unpacked = [forward_ad.unpack_dual(y) for y in ys]
            primals = tuple(p for p, _ in unpacked)
            columns.append([t if t is not None else _wrap(np.zeros_like(p._array)) for p, t in unpacked])
    if not columns:  # (no input element: call once for the outputs' shapes)
        outputs_tuple, primals = _as_tuple(func(*xs), "outputs", "jacobian")
    counts = [x.numel() for x in xs]
    result = []
    for k, y in enumerate(primals):
        blocks, start = [], 0
        for x, n in zip(xs, counts):
            cols = [c[k] for c in columns[start:start + n]]
            shape = tuple(y.shape) + tuple(x.shape)
            if cols:  # (as PyTorch: the columns stacked in front, then moved to the back)
                jac = stack(cols)
                blocks.append(jac.permute(*range(1, jac.dim()), 0).reshape(shape))
            else:
                blocks.append(_wrap(np.zeros(shape, y._array.dtype)))
            start += n
        result.append(blocks)
    if not inputs_tuple:  # (PyTorch's structure: lists inside, when both are tuples)
        result = [el[0] for el in result]
    return result if outputs_tuple else result[0]


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
    of its gradient, the gradient computed with ``create_graph=True`` so that it can be differentiated. The outer
    Jacobian by reverse mode (double backward), or with ``outer_jacobian_strategy="forward-mode"`` (and
    ``vectorize=True``, as PyTorch requires) by forward mode over the reverse-mode gradient: forward-over-reverse."""
    inputs_tuple, xs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar(*args: Tensor) -> Tensor:
        out = func(*args)
        _check_requires_grad(_as_tuple(out, "outputs of the user-provided function", "hessian")[1], "outputs",
                             strict)
        return _one_number(out, "hessian").squeeze()

    def gradient(*args: Tensor) -> tuple[Tensor, ...]:
        if outer_jacobian_strategy == "forward-mode":  # (dual inputs, differentiated in reverse mode inside)
            args = tuple(a.requires_grad_(True) if a.is_leaf else a for a in args)
        jac = jacobian(scalar, args, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    h = jacobian(gradient, xs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                 strategy=outer_jacobian_strategy)  # per gradient piece, per input
    return h if inputs_tuple else h[0][0] if isinstance(h[0], (tuple, list)) else h[0]


def _gradient(func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool, strict: bool, fn_name: str) -> tuple:
    """What vhp and hvp start from: (inputs were a tuple?, the fresh inputs, the vectors v, f's one number,
    its gradient computed with create_graph=True so that it can be differentiated)."""
    inputs_tuple, xs = _as_tuple(inputs, "inputs", fn_name)
    xs = _fresh(xs, create_graph)
    vs = _vectors(v, xs, inputs_tuple, fn_name, create_graph, "The vector v can only be None if the input to the "
                  "user-provided function is a single Tensor with a single element.")
    out = func(*xs)
    _check_requires_grad(_as_tuple(out, "outputs of the user-provided function", fn_name)[1], "outputs", strict)
    y = _one_number(out, fn_name)
    g = _grad((y,), xs, (None,), create_graph=True)
    _check_requires_grad(g, "jacobian", strict)
    return inputs_tuple, xs, vs, y, g


def vhp(func: Callable[..., Any], inputs: Tensor | tuple[Tensor, ...], v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Tensor, Structure]:
    """``(func(inputs), vᵀH)`` for a function returning one number: backward through its gradient, with v as
    the gradient's weights. No Hessian is formed."""
    with enable_grad():
        inputs_tuple, xs, vs, y, g = _gradient(func, inputs, v, create_graph, strict, "vhp")
        used = [(gi, vi) for gi, vi in zip(g, vs) if gi is not None]
        raw = _grad([gi for gi, _ in used], xs, [vi for _, vi in used], create_graph) if used else (None,) * len(xs)
        result = _fill_in_zeros(raw, xs, strict, create_graph, "double_back")
    return _done((y,), create_graph)[0], _one(_done(result, create_graph), inputs_tuple)


def hvp(func: Callable[..., Any], inputs: Tensor | tuple[Tensor, ...], v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Tensor, Structure]:
    """``(func(inputs), Hv)`` for a function returning one number, by the double-backward trick on the gradient.
    (H is symmetric for the functions met in practice, so Hv = vᵀH and :func:`vhp`, one pass fewer, gives the
    same numbers; PyTorch computes hvp this way too.)"""
    with enable_grad():
        inputs_tuple, xs, vs, y, g = _gradient(func, inputs, v, create_graph, strict, "hvp")
        us = _zeros_input(xs)
        g_used = [gi for gi in g if gi is not None]
        gu = _grad(g_used, xs, us, create_graph=True) if g_used else (None,) * len(xs)  # uᵀH, as a function of u
        _check_requires_grad(g, "hessian", strict)
        gu_used = [(gi, ui) for gi, ui in zip(gu, us) if gi is not None]
        raw = _grad([gi for gi, _ in gu_used], [ui for _, ui in gu_used], vs, create_graph) if gu_used \
            else (None,) * len(xs)  # vᵀ d(Hᵀu)/du = (Hv)ᵀ
        result = _fill_in_zeros(raw, xs, strict, create_graph, "double_back_trick")
    return _done((y,), create_graph)[0], _one(_done(result, create_graph), inputs_tuple)
