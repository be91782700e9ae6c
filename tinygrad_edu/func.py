"""``tinygrad_edu.func``: derivatives as functions of functions (``torch.func`` twin, JAX's style).

``grad(f)`` is a new function that returns f's gradient; transforms compose: ``jacfwd(jacrev(f))`` is f's
Hessian, ``vmap(grad(loss))`` gives one gradient per example. Two ways to multiply by a Jacobian J underlie them all:

============================  =========================================  ===========================================
transform                     what it computes                           how, here
============================  =========================================  ===========================================
``vjp(f, x)``                 f(x), and a function v ↦ vᵀJ               reverse mode: one backward pass per v
``jvp(f, (x,), (t,))``        f(x), J·t                                  forward mode (``autograd.forward_ad``): one
                                                                         forward pass with tangents
``grad(f)``                   ∇f (f returns one number)                  one backward pass
``jacrev(f)`` / ``jacfwd(f)`` J, shaped ``f(x).shape + x.shape``         a vjp per output element / a jvp per input
                                                                         element: reverse suits few outputs,
                                                                         forward few inputs
``hessian(f)``                the Jacobian of the gradient               ``jacfwd(jacrev(f))``: forward-over-reverse
``linearize(f, x)``           f(x), and the function t ↦ J·t             a jvp per call
``vmap(f)``                   f on every slice of a batch, stacked       a loop over the batch (see :func:`vmap`)
``functional_call(m, p, x)``  the module m run with the parameters p     the parameters swapped in for the call
``stack_module_state(ms)``    several models' parameters, stacked        for ``vmap`` over an ensemble
============================  =========================================  ===========================================

How it works here: a transform differentiates with the autograd of this library (``autograd.grad`` and
``forward_ad``), not with PyTorch's functorch levels. Inputs to differentiate are used through fresh views that
require grad; results stay differentiable only when an input already required grad (a transform around this one,
or your own graph), so ``grad(grad(f))`` and ``jacfwd(jacrev(f))`` work. Forward mode has one level at a time (as
``forward_ad``): a jvp inside a jvp (``jacfwd(jacfwd(f))``) is refused; use ``jacfwd(jacrev(f))``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .autograd import forward_ad as fwAD
from .autograd.engine import grad as _autograd_grad
from .core.function import wrap
from .core.grad_mode import GradMode, enable_grad
from .core.tensor import Tensor
from .nn.module import Module
from .ops.shape import stack

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp", "linearize",
           "stack_module_state", "vjp", "vmap"]

Argnums = int | tuple[int, ...]


# -- the pieces every transform uses -------------------------------------------------------------------------------
def _fresh(x: Any) -> Any:
    """An input to differentiate: a view of it that requires grad (connected to it if it requires grad itself, and
    carrying its tangent in forward mode); for a tuple, list or dict of tensors (a model's parameters), each one."""
    if isinstance(x, (tuple, list, dict)):
        return _map(_fresh, x, check=True)
    if not isinstance(x, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    if x._array.dtype.kind != "f":
        raise RuntimeError("only Tensors of floating point dtype can require gradients")
    view = x.view_as(x)
    return view if view.requires_grad else view.requires_grad_(True)


def _lowered(t: Any) -> Any:
    """A result handed back when nothing around the transform differentiates it: no history (the fresh inputs'
    graph ends here), but its tangent kept if forward mode is on (a jvp around this transform reads it)."""
    if not isinstance(t, Tensor) or not t.requires_grad:
        return t
    plain = t.detach()
    plain._fw = t._fw
    return plain


def _map(fn: Callable[[Any], Any], tree: Any, check: bool = False) -> Any:
    """``fn`` on every tensor of a result (a tensor, or nested tuples, lists and dicts of them); ``check``: on
    anything else too (it refuses what is not a tensor)."""
    if isinstance(tree, (tuple, list)):
        return type(tree)(_map(fn, x, check) for x in tree)
    if isinstance(tree, dict):
        return {k: _map(fn, v, check) for k, v in tree.items()}
    return fn(tree) if check or isinstance(tree, Tensor) else tree


def _rebuilt(tree: Any, values: Any) -> Any:
    """The tensors of ``tree`` replaced, in order, by ``values`` (an iterator): the same structure."""
    if isinstance(tree, (tuple, list)):
        return type(tree)(_rebuilt(x, values) for x in tree)
    if isinstance(tree, dict):
        return {k: _rebuilt(v, values) for k, v in tree.items()}
    return next(values) if isinstance(tree, Tensor) else tree


def _leaves(tree: Any) -> list[Tensor]:
    """The tensors of a (nested) tuple, list or dict, in order."""
    if isinstance(tree, (tuple, list)):
        return [t for x in tree for t in _leaves(x)]
    if isinstance(tree, dict):
        return [t for v in tree.values() for t in _leaves(v)]
    return [tree] if isinstance(tree, Tensor) else []


def _argnums(argnums: Argnums, count: int) -> tuple[int, ...]:
    """The positions to differentiate, checked as PyTorch checks them."""
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    if not nums:
        raise RuntimeError("argnums must be non-empty")
    if len(set(nums)) != len(nums):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    for n in nums:
        if not -count <= n < count:
            raise RuntimeError(f"Got argnum={n}, but only {count} positional inputs")
    return tuple(n % count for n in nums)


def _pick(values: Sequence[Any], argnums: Argnums) -> Any:
    """The results for ``argnums``: one for an int, a tuple for a tuple."""
    return values[0] if isinstance(argnums, int) else tuple(values)


def _split_aux(out: Any, has_aux: bool, name: str) -> tuple[Any, Any]:
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(f"{name}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return out


# -- reverse mode -----------------------------------------------------------------------------------------------------
def grad_and_value(func: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False) -> Callable[..., Any]:
    """``grad_and_value(f)(*args)`` is ``(∇f, f(*args))``, by one backward pass (``(∇f, (f, aux))`` with
    ``has_aux``: f returns ``(output, aux)``). ``argnums`` picks which arguments (a tuple: a tuple of gradients)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nums = _argnums(argnums, len(args))
        args = list(args)
        outer = any(t.requires_grad for i in nums for t in _leaves(args[i]))
        for i in nums:
            args[i] = _fresh(args[i])
        with enable_grad():
            out, aux = _split_aux(func(*args, **kwargs), has_aux, "grad_and_value(f)(*args)")
            if not isinstance(out, Tensor):
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(out)}")
            if out.dim() != 0:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor "
                                   f"with {out.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")
            inputs = [t for i in nums for t in _leaves(args[i])]
            flat = _autograd_grad(out, inputs, create_graph=outer, allow_unused=True, materialize_grads=True) \
                if out.requires_grad else tuple(wrap(np.zeros_like(x._array)) for x in inputs)
        done = (lambda t: t) if outer else _lowered
        value = done(out) if not has_aux else (done(out), _map(done, aux))
        grads = _rebuilt([args[i] for i in nums], iter(flat))  # (in the arguments' structure: a dict for a dict)
        return _map(done, _pick(grads, argnums)), value

    return wrapper


def grad(func: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False) -> Callable[..., Any]:
    """``grad(f)`` is the function that returns the gradient of f (which returns one number) with respect to its
    first argument (``argnums``: others); with ``has_aux``, f returns ``(output, aux)`` and so does ``grad(f)``,
    ``(gradient, aux)``. Composes: ``grad(grad(f))`` is f'' for a function of one number."""
    both = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        grads, value = both(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return wrapper


def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple:
    """``(f(*primals), vjp_fn)``: ``vjp_fn(v)`` gives vᵀJ, one tensor per primal (a tuple), by a backward pass
    through the graph recorded once (call it as often as you like). With ``has_aux``: ``(output, vjp_fn, aux)``."""
    outer = any(p.requires_grad for p in _leaves(primals))
    xs = [_fresh(p) for p in primals]
    with enable_grad():
        out, aux = _split_aux(func(*xs), has_aux, "vjp(f, *primals)")
    outs = _leaves(out)
    done = (lambda t: t) if outer else _lowered

    inputs = _leaves(xs)  # (a primal may be a dict or tuple of tensors, a model's parameters: its gradient is one too)

    def vjp_fn(cotangents: Any) -> tuple[Any, ...]:
        cts = _leaves(cotangents)
        used = [(o, c) for o, c in zip(outs, cts) if o.requires_grad]
        with enable_grad():
            gs = _autograd_grad([o for o, _ in used], inputs, [c for _, c in used], retain_graph=True,
                                create_graph=outer, allow_unused=True,
                                materialize_grads=True) if used else [wrap(np.zeros_like(x._array)) for x in inputs]
        return tuple(_rebuilt(xs, iter([done(g) for g in gs])))

    result = _map(done, out)
    return (result, vjp_fn, _map(done, aux)) if has_aux else (result, vjp_fn)


def jacrev(func: Callable[..., Any], argnums: Argnums = 0, *, has_aux: bool = False,
           chunk_size: int | None = None) -> Callable[..., Any]:
    """The Jacobian by reverse mode, row by row: one vjp per element of the output (e_kᵀJ is row k). Cheap for few
    outputs, whatever the number of inputs. Shaped ``output.shape + input.shape``; tuples for several outputs
    (outside) or several argnums (inside). (``chunk_size`` is accepted and has no effect: rows are computed one
    at a time.)"""

    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        nums = _argnums(argnums, len(args))

        def inner(*xs: Tensor) -> Any:
            full = list(args)
            for i, x in zip(nums, xs):
                full[i] = x
            return func(*full)

        if has_aux:
            out, vjp_fn, aux = vjp(inner, *[args[i] for i in nums], has_aux=True)
        else:
            (out, vjp_fn), aux = vjp(inner, *[args[i] for i in nums]), None
        outs = _leaves(out)
        blocks = []
        for o_index, o in enumerate(outs):
            rows = []
            for k in range(o.numel()):
                onehot = [wrap(np.zeros_like(p._array)) for p in outs]
                onehot[o_index]._array.reshape(-1)[k] = 1
                rows.append(vjp_fn(tuple(onehot)))
            blocks.append(_pick([_rows_to_jacobian(rows, j, o, args[i]) for j, i in enumerate(nums)], argnums))
        jac = blocks[0] if isinstance(out, Tensor) else tuple(blocks)
        return (jac, aux) if has_aux else jac

    return wrapper


def _rows_to_jacobian(rows: list[tuple], j: int, out: Tensor, x: Any) -> Any:
    """The block of ``out``'s Jacobian for argument j, ``x``: shaped ``out.shape + x.shape``, or for a dict (or tuple)
    of tensors, a dict of such blocks, one per tensor."""
    blocks = [stack([_leaves(row[j])[n] for row in rows]).reshape(tuple(out.shape) + tuple(leaf.shape)) if rows else
              wrap(np.zeros(tuple(out.shape) + tuple(leaf.shape), leaf._array.dtype))
              for n, leaf in enumerate(_leaves(x))]
    return _rebuilt(x, iter(blocks))


# -- forward mode -----------------------------------------------------------------------------------------------------
def _structure(values: tuple) -> str:
    """A flat tuple's structure as PyTorch's pytree prints it: ``TreeSpec(tuple, None, [*,\\n  *])``."""
    return "TreeSpec(tuple, None, [" + ",\n  ".join("*" for _ in values) + "])"


def jvp(func: Callable[..., Any], primals: tuple, tangents: tuple, *, strict: bool = False,
        has_aux: bool = False) -> tuple:
    """``(f(*primals), J·tangents)``: one forward pass with the tangents attached (``forward_ad``). The Jacobian-
    vector product is the directional derivative of every output along ``tangents``: lesson 02's
    d/dh f(x + h·t) at h = 0, computed exactly. With ``has_aux``: ``(output, jvp_out, aux)``."""
    if not isinstance(primals, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")
    if not isinstance(tangents, tuple) or len(tangents) != len(primals):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                           "structure. For example, if primals is a tuple of 3 tensors, tangents also must be. Got "
                           f"primals with structure {_structure(primals)} and tangents with structure "
                           f"{_structure(tangents if isinstance(tangents, tuple) else (tangents,))}")
    if GradMode.dual is not None:
        raise NotImplementedError("tinygrad_edu.func.jvp: forward mode has one level at a time here, and a jvp (or "
                                  "jacfwd) is already running around this one. Compose forward over reverse instead: "
                                  "jacfwd(jacrev(f)), or jvp(grad(f), ...).")
    outer = any(x.requires_grad for x in _leaves((primals, tangents)))
    done = (lambda t: t) if outer else _lowered
    with fwAD.dual_level():  # (a primal may be a dict or tuple of tensors, its tangent the same structure)
        duals = [_rebuilt(p, iter([fwAD.make_dual(a, b) for a, b in zip(_leaves(p), _leaves(t))]))
                 for p, t in zip(primals, tangents)]
        out, aux = _split_aux(func(*duals), has_aux, "jvp(f, primals, tangents)")

        def split(o: Tensor) -> tuple[Tensor, Tensor]:
            primal, tangent = fwAD.unpack_dual(o)
            return done(primal), done(tangent) if tangent is not None else wrap(np.zeros_like(o._array))

        pairs = _map(split, out)
        aux = _map(lambda t: done(fwAD.unpack_dual(t).primal), aux)
    if isinstance(out, Tensor):
        primal_out, tangent_out = pairs
    else:
        primal_out, tangent_out = tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    return (primal_out, tangent_out, aux) if has_aux else (primal_out, tangent_out)


def jacfwd(func: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False, *,
           randomness: str = "error") -> Callable[..., Any]:
    """The Jacobian by forward mode, column by column: one jvp per element of the input (J·e_j is column j).
    Cheap for few inputs, whatever the number of outputs. Same shapes as :func:`jacrev`."""

    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        if GradMode.dual is not None:  # inside another jacfwd (jacfwd(jacfwd(f)), a Hessian): forward mode has one
            return jacrev(func, argnums, has_aux=has_aux)(*args)  # level here, so this Jacobian is by reverse mode:
        nums = _argnums(argnums, len(args))  # the same matrix, with the outer level's tangents flowing through it
        for i in nums:
            _fresh(args[i])  # (the checks: a floating-point tensor)
        columns: list[list[Any]] = []  # per argnum, the outputs of each jvp
        out = aux = None
        for i in nums:
            cols = []
            for j in range(args[i].numel()):
                tangents = tuple(wrap(np.zeros_like(a._array)) if k in nums else None for k, a in enumerate(args))
                tangents[i]._array.reshape(-1)[j] = 1
                primals = tuple(a for a, t in zip(args, tangents) if t is not None)
                result = jvp(_with_constants(func, args, tangents), primals,
                             tuple(t for t in tangents if t is not None), has_aux=has_aux)
                out, cols_out = result[0], result[1]
                aux = result[2] if has_aux else None
                cols.append(cols_out)
            columns.append(cols)
        if out is None:  # (an empty input: no column; call once for the output's shape)
            result = func(*args)
            out = result[0] if has_aux else result
            aux = result[1] if has_aux else None
        outs = _leaves(out)
        blocks = []
        for o_index, o in enumerate(outs):
            per_input = []
            for j, i in enumerate(nums):
                cols = [_leaves(c)[o_index] for c in columns[j]]
                shape = tuple(o.shape) + tuple(args[i].shape)
                per_input.append(stack(cols, dim=-1).reshape(shape) if cols else
                                 wrap(np.zeros(shape, o._array.dtype)))
            blocks.append(_pick(per_input, argnums))
        jac = blocks[0] if isinstance(out, Tensor) else tuple(blocks)
        return (jac, aux) if has_aux else jac

    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    return wrapper


def _with_constants(func: Callable[..., Any], args: tuple, tangents: tuple) -> Callable[..., Any]:
    """``func`` of the arguments that get a tangent, the others fixed at their values."""
    def inner(*duals: Tensor) -> Any:
        it = iter(duals)
        return func(*[next(it) if t is not None else a for a, t in zip(args, tangents)])

    return inner


def hessian(func: Callable[..., Any], argnums: Argnums = 0) -> Callable[..., Any]:
    """The Hessian of a function returning one number: ``jacfwd(jacrev(f))``, forward-over-reverse (the gradient by
    a backward pass, its Jacobian by forward passes, tangents flowing through the backward pass)."""
    return jacfwd(jacrev(func, argnums), argnums)


def linearize(func: Callable[..., Any], *primals: Any) -> tuple[Any, Callable[..., Any]]:
    """``(f(*primals), jvp_fn)``, with ``jvp_fn(*tangents)`` = J·tangents at ``primals``. (PyTorch traces f once
    and replays the linear part; here each call of jvp_fn runs one forward pass with tangents: same numbers.)"""
    out = _map(_lowered, func(*primals))

    def jvp_fn(*tangents: Tensor) -> Any:
        return jvp(func, primals, tangents)[1]

    return out, jvp_fn


# -- batching and modules --------------------------------------------------------------------------------------------
def vmap(func: Callable[..., Any], in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable[..., Any]:
    """``vmap(f)(xs)`` runs f on each slice of ``xs`` along ``in_dims`` and stacks the results along ``out_dims``:
    f written for one example works on a batch. ``vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)`` gives one
    gradient per example.

    Here vmap **loops**: it calls f once per example and stacks the results (PyTorch's vmap instead runs each op
    once on the whole batch, which is why it is fast). The results, their shapes and the errors for bad
    ``in_dims``/``out_dims`` are PyTorch's; the speed is a Python loop's. A mapped argument is a tensor or a
    tuple, list or dict of tensors (each mapped along the same dim); ``None`` passes an argument whole. Not
    detected here: ``.item()`` and other ways out of tensors inside f, which PyTorch's vmap refuses and a loop
    simply runs. (``chunk_size`` is accepted and has no effect.)"""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    name = getattr(func, "__name__", repr(func))

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        where = f"vmap({name}, in_dims={in_dims!r}, ...)(<inputs>)"
        if in_dims is not None and not isinstance(in_dims, (int, tuple)):
            raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) tuple matching the "
                             f"structure of inputs, got: {type(in_dims)}.")
        if in_dims is None:
            raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) tuple matching the "
                             "structure of inputs, got: <class 'NoneType'>.")
        dims = (in_dims,) * len(args) if isinstance(in_dims, int) else in_dims
        if len(dims) != len(args):
            raise ValueError(f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has "
                             f"structure {_structure(dims)} but inputs has structure {_structure(args)}.")
        sizes = []
        for arg, d in zip(args, dims):
            if d is None:
                continue
            if not isinstance(d, int):
                raise NotImplementedError(f"{where}: tinygrad_edu.func.vmap takes one in_dim per argument (an int, "
                                          f"or None), not {d!r}: a tuple or dict argument is mapped along one dim, "
                                          "the same for all its tensors.")
            for a in _leaves(arg) if isinstance(arg, (tuple, list, dict)) else [arg]:  # (a dict's tensors, each)
                if not isinstance(a, Tensor):
                    raise ValueError(f"{where}: Got in_dim={d} for an input but the input is of type {type(a)}. We "
                                     "cannot vmap over non-Tensor arguments, please use None as the respective in_dim")
                if not -a.dim() <= d < a.dim():
                    raise ValueError(f"{where}: Got in_dim={d} for some input, but that input is a Tensor of "
                                     f"dimensionality {a.dim()} so expected in_dim to satisfy -{a.dim()} <= in_dim "
                                     f"< {a.dim()}.")
                sizes.append(a.shape[d])
        if not sizes:
            raise ValueError("vmap: Expected at least one Tensor to vmap over")
        if len(set(sizes)) > 1:
            raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sizes} for the mapped dimension")
        results = [func(*[a if d is None else _map(lambda t, d=d, b=b: t.select(d, b), a) for a, d in zip(args, dims)],
                        **kwargs) for b in range(sizes[0])]
        return _stacked(results, out_dims, name, _example(func, args, dims, kwargs) if not results else None)

    return wrapper


def _example(func: Callable[..., Any], args: tuple, dims: tuple, kwargs: dict) -> Any:
    """For an empty batch, the result for one example, to know the shapes: f on zeros shaped as one slice."""
    def slice_of(t: Tensor, d: int) -> Tensor:
        return wrap(np.zeros(t._array.shape[:d % t.dim()] + t._array.shape[d % t.dim() + 1:], t._array.dtype))

    one = [a if d is None else _map(lambda t, d=d: slice_of(t, d), a) for a, d in zip(args, dims)]
    return func(*one, **kwargs)


def _stacked(results: list[Any], out_dims: Any, name: str, example: Any) -> Any:
    """The per-example results stacked along ``out_dims`` (a tuple of results: each stacked on its own)."""
    first = results[0] if results else example
    if isinstance(first, dict):  # (a dict of results, such as per-example gradients of a model's parameters)
        return {k: _stacked([r[k] for r in results], out_dims, name, first[k] if not results else None)
                for k in first}
    many = isinstance(first, tuple)
    dims = out_dims if isinstance(out_dims, tuple) else (out_dims,) * (len(first) if many else 1)
    if len(dims) != (len(first) if many else 1):
        raise ValueError(f"vmap({name}, ..., out_dims={out_dims!r})(<inputs>): out_dims is not compatible with the "
                         f"structure of `outputs`. out_dims has structure {_structure(dims)} but outputs has "
                         f"structure {_structure(first) if many else '*'}.")
    columns = list(zip(*results)) if many else [results]
    firsts = first if many else (first,)
    out = []
    for values, d, one in zip(columns if results else [[]] * len(dims), dims, firsts):
        if not isinstance(one, Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(one)}. Did you "
                             "mean to set out_dims= to None for output?")
        if d is None:  # (a result that is the same tensor for every example: a constant of f)
            if any(v is not values[0] for v in values):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
            out.append(one if not values else values[0])
            continue
        if not -(one.dim() + 1) <= d <= one.dim():
            raise IndexError(f"Dimension out of range (expected to be in range of [{-(one.dim() + 1)}, {one.dim()}],"
                             f" but got {d})")
        out.append(stack(list(values), dim=d) if values else
                   wrap(np.zeros((0, *one.shape), one._array.dtype)).movedim(0, d))
    return tuple(out) if many else out[0]


def functional_call(module: Module, parameter_and_buffer_dicts: dict[str, Tensor] | Sequence[dict[str, Tensor]],
                    args: Any = None, kwargs: dict[str, Any] | None = None, *, tie_weights: bool = True,
                    strict: bool = False) -> Any:
    """Run ``module(*args, **kwargs)`` with some of its parameters replaced by the given tensors (by their names in
    ``named_parameters()``), for this call only: the module as a function of its parameters, which ``grad`` and
    ``vmap`` can then transform. The module is left as it was afterwards."""
    dicts = parameter_and_buffer_dicts
    given = dict(dicts) if isinstance(dicts, dict) else {k: v for d in dicts for k, v in d.items()}
    names = [n for n, _ in module.named_parameters()]
    if strict:
        unexpected, missing = [k for k in given if k not in names], [n for n in names if n not in given]
        if unexpected or missing:
            lines = []
            if unexpected:
                lines.append("\tUnexpected key(s): " + ", ".join(f"'{k}'" for k in sorted(unexpected)) + ".")
            if missing:
                lines.append("\tMissing key(s): " + ", ".join(f"'{k}'" for k in sorted(missing)) + ".")
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n" + "\n".join(lines))
    swapped = []
    for full, value in given.items():
        if full not in names:
            continue
        *path, leaf = full.split(".")
        owner = module
        for part in path:
            owner = owner._modules[part]
        swapped.append((owner, leaf, owner._parameters[leaf]))
        owner._parameters[leaf] = value
    try:
        call_args = () if args is None else args if isinstance(args, tuple) else (args,)
        return module(*call_args, **(kwargs or {}))
    finally:
        for owner, leaf, original in reversed(swapped):
            owner._parameters[leaf] = original


def stack_module_state(models: Sequence[Module]) -> tuple[dict[str, Tensor], dict[str, Tensor]]:
    """``(params, buffers)``: the parameters and buffers of several models of one architecture, each name's tensors
    stacked along a new first dim, to run the whole ensemble at once: ``vmap(lambda p, b, x: functional_call(
    models[0], (p, b), x), (0, 0, None))(params, buffers, x)``. The stacked parameters are new leaves, unrelated to
    the models' own (pass them to an optimizer); they require grad where the models' do."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({m.training for m in models}) > 1:
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    named = [dict(m.named_parameters()) for m in models]
    params = {k: stack([n[k].detach() for n in named]).requires_grad_(p.requires_grad)
              for k, p in named[0].items()}
    named = [dict(m.named_buffers()) for m in models]
    return params, {k: stack([n[k] for n in named]) for k in named[0]}
