"""Indexing, cutting and reshaping ops against PyTorch 2.13: ``where`` as a method, gather, scatter, scatter_add,
index_select, index_add, index_fill, masked_select, take, split, chunk, flip, roll, rot90, tile, repeat_interleave,
broadcast_to, swapdims, unflatten, movedim, tril, triu, diag, diagonal, diag_embed, trace, the stacks, meshgrid,
unique, the ``new_*`` factories and the memory layout (stride, storage_offset, data_ptr ...).

Each check runs the same function with both libraries through ``_oracle`` (PyTorch only when installed); the
expected text is spelled out here, PyTorch's own output, so each test means something without torch. What
the text cannot show (derivatives in float64) is checked against finite differences with gradcheck.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, raises

import tinygrad_edu as tg
from tinygrad_edu.autograd import gradcheck, gradgradcheck

# ------------------------------------------------------------------------------------------------ the table
BASE = [[0.5, -1.0, 2.0, 3.5], [1.5, 0.0, -2.5, 4.0], [-0.5, 1.0, 3.0, -3.0]]


def _i(lib: ModuleType, data: Any) -> Any:
    """An index tensor (int64, or bool for a mask)."""
    return lib.tensor(data)


# name: the op, as a function of the library and the input x (BASE, or its first row)
CASES: dict[str, Any] = {
    "where method": lambda lib, x: x.where(x > 0, lib.zeros(3, 4)),
    "gather": lambda lib, x: x.gather(1, _i(lib, [[0, 0], [3, 1], [2, 2]])),
    "gather smaller index": lambda lib, x: lib.gather(x, 0, _i(lib, [[2, 0, 1]])),
    "index_select": lambda lib, x: x.index_select(0, _i(lib, [2, 0, 2])),
    "index_select dim 1": lambda lib, x: lib.index_select(x, 1, _i(lib, [3, 1])),
    "scatter": lambda lib, x: x.scatter(0, _i(lib, [[1, 2, 0, 1]]), x[2:] * 2),
    "scatter value": lambda lib, x: x.scatter(1, _i(lib, [[0], [3], [1]]), 9.0),
    "scatter_": lambda lib, x: x.clone().scatter_(1, _i(lib, [[0], [3], [1]]), x[:, 1:2] * 3),
    "scatter_add": lambda lib, x: x.scatter_add(1, _i(lib, [[0, 0], [1, 3], [2, 2]]), x[:, :2] * 3),
    "scatter_add_": lambda lib, x: lib.zeros(2, 4, dtype=x.dtype).scatter_add_(
        0, _i(lib, [[1, 0, 1, 1], [1, 1, 0, 0], [0, 0, 0, 1]]), x),
    "index_add": lambda lib, x: x.index_add(0, _i(lib, [0, 2, 0]), x * 2),
    "index_add alpha": lambda lib, x: x[:2].index_add(1, _i(lib, [1, 1]), x[:2, 2:], alpha=-2),
    "index_add_": lambda lib, x: lib.zeros(4, 4, dtype=x.dtype).index_add_(0, _i(lib, [3, 0, 3]), x),
    "index_fill": lambda lib, x: x.index_fill(1, _i(lib, [0, 2]), -1.0),
    "index_fill tensor": lambda lib, x: x.index_fill(0, _i(lib, [1]), (x * x).sum()),
    "index_fill_": lambda lib, x: (x * 1).index_fill_(1, _i(lib, [-1]), 0.5),
    "masked_select": lambda lib, x: x.masked_select(x > 1),
    "masked_select broadcast": lambda lib, x: lib.masked_select(x, _i(lib, [True, False, True, False])),
    "take": lambda lib, x: x.take(_i(lib, [[0, 5], [11, 5]])),
    "take negative": lambda lib, x: lib.take(x, _i(lib, [-1, 3])),
    "split": lambda lib, x: x.split(3, 1),
    "split sizes": lambda lib, x: lib.split(x, [1, 2]),
    "chunk": lambda lib, x: x.chunk(2, 1),
    "chunk uneven": lambda lib, x: lib.chunk(x, 2),
    "narrow": lambda lib, x: x.narrow(1, 1, 2),
    "narrow from the end": lambda lib, x: lib.narrow(x, 1, -2, 2),
    "select": lambda lib, x: x.select(1, -1),
    "unbind": lambda lib, x: x.unbind(1),
    "flip": lambda lib, x: x.flip(0, 1),
    "flip list": lambda lib, x: lib.flip(x, [1]),
    "fliplr": lambda lib, x: x.fliplr(),
    "flipud": lambda lib, x: lib.flipud(x),
    "roll": lambda lib, x: x.roll(1, 1),
    "roll two dims": lambda lib, x: lib.roll(x, (1, -1), (0, 1)),
    "roll flat": lambda lib, x: x.roll(5),
    "rot90": lambda lib, x: x.rot90(),
    "rot90 back": lambda lib, x: lib.rot90(x, -1, (1, 0)),
    "rot90 twice": lambda lib, x: x.rot90(2),
    "tile": lambda lib, x: x.tile(2),
    "tile more dims": lambda lib, x: lib.tile(x, (2, 1, 1)),
    "repeat_interleave": lambda lib, x: x.repeat_interleave(2, dim=1),
    "repeat_interleave flat": lambda lib, x: lib.repeat_interleave(x, 2),
    "repeat_interleave tensor": lambda lib, x: x.repeat_interleave(_i(lib, [1, 0, 2]), dim=0),
    "broadcast_to": lambda lib, v: v.broadcast_to(2, 4),
    "swapdims": lambda lib, x: x.swapdims(0, 1),
    "swapaxes": lambda lib, x: lib.swapaxes(x, 1, 0),
    "unflatten": lambda lib, x: x.unflatten(1, (2, -1)),
    "movedim": lambda lib, x: x.reshape(3, 2, 2).movedim(0, -1),
    "movedim two": lambda lib, x: lib.movedim(x.reshape(3, 2, 2), (0, 1), (2, 0)),
    "tril": lambda lib, x: x.tril(),
    "triu": lambda lib, x: lib.triu(x, 1),
    "tril negative": lambda lib, x: x.tril(-1),
    "diag vector": lambda lib, v: v.diag(),
    "diag vector offset": lambda lib, v: lib.diag(v, -1),
    "diag matrix": lambda lib, x: x.diag(),
    "diag matrix offset": lambda lib, x: lib.diag(x, 1),
    "diagonal": lambda lib, x: x.diagonal(),
    "diagonal negative": lambda lib, x: lib.diagonal(x, -1),
    "diagonal 3d": lambda lib, x: x.reshape(3, 2, 2).diagonal(0, 1, 2),
    "diag_embed": lambda lib, x: x.diag_embed(),
    "diag_embed offset dims": lambda lib, x: lib.diag_embed(x, 1, 0, 2),
    "trace": lambda lib, x: x.trace(),
    "hstack": lambda lib, x: lib.hstack([x, x[:, :1]]),
    "hstack vectors": lambda lib, x: lib.hstack([x[0], x[1, :2]]),
    "vstack": lambda lib, x: lib.vstack([x, x[0]]),
    "dstack": lambda lib, x: lib.dstack([x, x * 2]),
    "dstack vectors": lambda lib, x: lib.dstack([x[0], x[1]]),
    "column_stack": lambda lib, x: lib.column_stack([x[0], x[1]]),
    "column_stack matrix": lambda lib, x: lib.column_stack([x[0], x.t()]),
    "meshgrid ij": lambda lib, x: lib.meshgrid(x[0], x[1, :3], indexing="ij"),
    "meshgrid xy": lambda lib, x: lib.meshgrid(x[0], x[1, :3], indexing="xy"),
}


VECTOR = {"broadcast_to", "diag vector", "diag vector offset"}  # these take BASE[0], a vector
# ops whose backward formulas were written before (their create_graph nodes differ from PyTorch's): values only
OLD_BACKWARD = {"narrow", "narrow from the end", "select", "tile", "tile more dims"}


def _up(n: int) -> list[float]:
    """An incoming gradient with mixed signs: -2.5 .. 2.5 in steps of 0.5, in a scrambled order."""
    return [((i * 7) % 11 - 5) / 2 for i in range(n)]


def transcript(lib: ModuleType, name: str) -> str:
    """The result, the gradient of x for a mixed-sign incoming gradient g (with create_graph=True, so it shows
    the node of the backward formula's last op), and d/dg of sum(gradient * w): the backward's own backward."""
    x = lib.tensor(BASE[0] if name in VECTOR else BASE, requires_grad=True)
    out = CASES[name](lib, x)
    outs = list(out) if isinstance(out, tuple) else [out]
    gs = [lib.tensor(_up(o.numel()), requires_grad=True).reshape(o.shape) for o in outs]
    (gx,) = lib.autograd.grad(outs, x, gs, create_graph=True)
    w = lib.tensor([1.0, -2.0, 0.5, 3.0] if name in VECTOR else [[(i * 3 + j) % 5 - 2.0 for j in range(4)]
                                                                 for i in range(3)])
    hs = lib.autograd.grad((gx * w).sum(), gs, allow_unused=True)
    return "\n".join([*map(repr, outs), repr(gx.detach() if name in OLD_BACKWARD else gx), *map(repr, hs)])


# What PyTorch prints for each (see transcript).
EXPECTED = {
    'where method': (
        'tensor([[0.5000, 0.0000, 2.0000, 3.5000],\n'
        '        [1.5000, 0.0000, 0.0000, 4.0000],\n'
        '        [0.0000, 1.0000, 3.0000, 0.0000]], grad_fn=<WhereBackward0>)\n'
        'tensor([[-2.5000,  0.0000, -1.0000,  2.5000],\n'
        '        [ 0.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  1.5000, -0.5000,  0.0000]], grad_fn=<WhereBackward0>)\n'
        'tensor([[-2.,  0.,  0.,  1.],\n'
        '        [ 1.,  0.,  0., -1.],\n'
        '        [ 0.,  0.,  1.,  0.]])'
    ),
    'gather': (
        'tensor([[0.5000, 0.5000],\n'
        '        [4.0000, 0.0000],\n'
        '        [3.0000, 3.0000]], grad_fn=<GatherBackward0>)\n'
        'tensor([[-1.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  2.5000,  0.0000, -1.0000],\n'
        '        [ 0.0000,  0.0000, -1.0000,  0.0000]], grad_fn=<ScatterAddBackward0>)\n'
        'tensor([[-2., -2.],\n'
        '        [-1.,  2.],\n'
        '        [ 1.,  1.]])'
    ),
    'gather smaller index': (
        'tensor([[-0.5000, -1.0000, -2.5000]], grad_fn=<GatherBackward0>)\n'
        'tensor([[ 0.0000,  1.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000, -1.0000,  0.0000],\n'
        '        [-2.5000,  0.0000,  0.0000,  0.0000]], grad_fn=<ScatterAddBackward0>)\n'
        'tensor([[-1., -1., -2.]])'
    ),
    'index_select': (
        'tensor([[-0.5000,  1.0000,  3.0000, -3.0000],\n'
        '        [ 0.5000, -1.0000,  2.0000,  3.5000],\n'
        '        [-0.5000,  1.0000,  3.0000, -3.0000]], grad_fn=<IndexSelectBackward0>)\n'
        'tensor([[ 0.5000, -1.5000,  2.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [-4.5000,  2.5000, -1.5000,  0.0000]], grad_fn=<IndexAddBackward0>)\n'
        'tensor([[-1.,  0.,  1.,  2.],\n'
        '        [-2., -1.,  0.,  1.],\n'
        '        [-1.,  0.,  1.,  2.]])'
    ),
    'index_select dim 1': (
        'tensor([[ 3.5000, -1.0000],\n'
        '        [ 4.0000,  0.0000],\n'
        '        [-3.0000,  1.0000]], grad_fn=<IndexSelectBackward0>)\n'
        'tensor([[ 0.0000,  1.0000,  0.0000, -2.5000],\n'
        '        [ 0.0000,  2.5000,  0.0000, -1.0000],\n'
        '        [ 0.0000, -1.5000,  0.0000,  0.5000]], grad_fn=<IndexAddBackward0>)\n'
        'tensor([[ 1., -1.],\n'
        '        [-1.,  2.],\n'
        '        [ 2.,  0.]])'
    ),
    'scatter': (
        'tensor([[ 0.5000, -1.0000,  6.0000,  3.5000],\n'
        '        [-1.0000,  0.0000, -2.5000, -6.0000],\n'
        '        [-0.5000,  2.0000,  3.0000, -3.0000]], grad_fn=<ScatterBackward0>)\n'
        'tensor([[-2.5000,  1.0000,  0.0000,  2.5000],\n'
        '        [ 0.0000, -1.5000,  2.0000,  0.0000],\n'
        '        [-1.0000,  3.0000, -2.5000, -2.5000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-2., -1.,  2.,  1.],\n'
        '        [-2.,  2., -2.,  4.],\n'
        '        [-1.,  0.,  1.,  2.]])'
    ),
    'scatter value': (
        'tensor([[ 9.0000, -1.0000,  2.0000,  3.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000,  9.0000],\n'
        '        [-0.5000,  9.0000,  3.0000, -3.0000]], grad_fn=<ScatterBackward1>)\n'
        'tensor([[ 0.0000,  1.0000, -1.0000,  2.5000],\n'
        '        [ 0.5000, -1.5000,  2.0000,  0.0000],\n'
        '        [-2.0000,  0.0000, -0.5000, -2.5000]], grad_fn=<ScatterBackward1>)\n'
        'tensor([[ 0., -1.,  0.,  1.],\n'
        '        [ 1.,  2., -2.,  0.],\n'
        '        [-1.,  0.,  1.,  2.]])'
    ),
    'scatter_': (
        'tensor([[-3.0000, -1.0000,  2.0000,  3.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000,  0.0000],\n'
        '        [-0.5000,  3.0000,  3.0000, -3.0000]], grad_fn=<ScatterBackward0>)\n'
        'tensor([[ 0.0000, -6.5000, -1.0000,  2.5000],\n'
        '        [ 0.5000, -1.5000,  2.0000,  0.0000],\n'
        '        [-2.0000,  4.5000, -0.5000, -2.5000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-3., -1.,  0.,  1.],\n'
        '        [ 1.,  2., -2.,  6.],\n'
        '        [-1.,  0.,  1.,  2.]])'
    ),
    'scatter_add': (
        'tensor([[-1.0000, -1.0000,  2.0000,  3.5000],\n'
        '        [ 1.5000,  4.5000, -2.5000,  4.0000],\n'
        '        [-0.5000,  1.0000,  4.5000, -3.0000]], grad_fn=<ScatterAddBackward0>)\n'
        'tensor([[-10.0000,  -6.5000,  -1.0000,   2.5000],\n'
        '        [ -4.0000,  -1.5000,   2.0000,   0.0000],\n'
        '        [ -3.5000,   0.0000,  -0.5000,  -2.5000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-11.,  -1.,   0.,   1.],\n'
        '        [  1.,   5.,  -2.,   5.],\n'
        '        [ -1.,   0.,  -2.,   2.]])'
    ),
    'scatter_add_': (
        'tensor([[-0.5000,  0.0000,  0.5000,  4.0000],\n'
        '        [ 2.0000,  0.0000,  2.0000,  0.5000]], grad_fn=<ScatterAddBackward0>)\n'
        'tensor([[ 0.5000,  1.0000,  2.0000,  0.0000],\n'
        '        [ 0.5000, -1.5000, -1.0000,  2.5000],\n'
        '        [-2.5000,  1.0000, -1.0000,  0.0000]], grad_fn=<GatherBackward0>)\n'
        'tensor([[-1., -1., -1., -1.],\n'
        '        [-1.,  2.,  0.,  3.]])'
    ),
    'index_add': (
        'tensor([[ 0.5000, -1.0000, 12.0000,  4.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000,  4.0000],\n'
        '        [ 2.5000,  1.0000, -2.0000,  5.0000]], grad_fn=<IndexAddBackward0>)\n'
        'tensor([[-7.5000,  3.0000, -3.0000,  7.5000],\n'
        '        [-3.5000,  1.5000,  1.0000, -5.0000],\n'
        '        [-7.0000,  3.5000, -2.5000,  2.5000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-8., -3.,  2.,  7.],\n'
        '        [ 1.,  2., -2., -1.],\n'
        '        [ 1.,  4., -3.,  0.]])'
    ),
    'index_add alpha': (
        'tensor([[  0.5000, -12.0000,   2.0000,   3.5000],\n'
        '        [  1.5000,  -3.0000,  -2.5000,   4.0000]], grad_fn=<IndexAddBackward0>)\n'
        'tensor([[-2.5000,  1.0000, -3.0000,  0.5000],\n'
        '        [ 0.5000, -1.5000,  5.0000,  3.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-2., -3.,  0.,  1.],\n'
        '        [ 1.,  8., -2., -1.]])'
    ),
    'index_add_': (
        'tensor([[ 1.5000,  0.0000, -2.5000,  4.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  5.0000,  0.5000]], grad_fn=<IndexAddBackward0>)\n'
        'tensor([[ 1.0000, -1.0000,  2.5000,  0.5000],\n'
        '        [-2.5000,  1.0000, -1.0000,  2.5000],\n'
        '        [ 1.0000, -1.0000,  2.5000,  0.5000]], grad_fn=<ExpandBackward0>)\n'
        'tensor([[ 1.,  2., -2., -1.],\n'
        '        [ 0.,  0.,  0.,  0.],\n'
        '        [ 0.,  0.,  0.,  0.],\n'
        '        [-3., -1.,  1.,  3.]])'
    ),
    'index_fill': (
        'tensor([[-1.0000, -1.0000, -1.0000,  3.5000],\n'
        '        [-1.0000,  0.0000, -1.0000,  4.0000],\n'
        '        [-1.0000,  1.0000, -1.0000, -3.0000]], grad_fn=<IndexFillBackward0>)\n'
        'tensor([[ 0.0000,  1.0000,  0.0000,  2.5000],\n'
        '        [ 0.0000, -1.5000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  1.5000,  0.0000, -2.5000]], grad_fn=<IndexFillBackward0>)\n'
        'tensor([[ 0., -1.,  0.,  1.],\n'
        '        [ 0.,  2.,  0., -1.],\n'
        '        [ 0.,  0.,  0.,  2.]])'
    ),
    'index_fill tensor': (
        'tensor([[ 0.5000, -1.0000,  2.0000,  3.5000],\n'
        '        [61.2500, 61.2500, 61.2500, 61.2500],\n'
        '        [-0.5000,  1.0000,  3.0000, -3.0000]], grad_fn=<IndexFillBackward1>)\n'
        'tensor([[-1.5000, -1.0000,  3.0000,  9.5000],\n'
        '        [ 3.0000,  0.0000, -5.0000,  8.0000],\n'
        '        [-3.0000,  3.5000,  5.5000, -8.5000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-2., -1.,  0.,  1.],\n'
        '        [ 7.,  7.,  7.,  7.],\n'
        '        [-1.,  0.,  1.,  2.]])'
    ),
    'index_fill_': (
        'tensor([[ 0.5000, -1.0000,  2.0000,  0.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000,  0.5000],\n'
        '        [-0.5000,  1.0000,  3.0000,  0.5000]], grad_fn=<IndexFillBackward0>)\n'
        'tensor([[-2.5000,  1.0000, -1.0000,  0.0000],\n'
        '        [ 0.5000, -1.5000,  2.0000,  0.0000],\n'
        '        [-2.0000,  1.5000, -0.5000,  0.0000]], grad_fn=<MulBackward0>)\n'
        'tensor([[-2., -1.,  0.,  0.],\n'
        '        [ 1.,  2., -2.,  0.],\n'
        '        [-1.,  0.,  1.,  0.]])'
    ),
    'masked_select': (
        'tensor([2.0000, 3.5000, 1.5000, 4.0000, 3.0000],\n'
        '       grad_fn=<MaskedSelectBackward0>)\n'
        'tensor([[ 0.0000,  0.0000, -2.5000,  1.0000],\n'
        '        [-1.0000,  0.0000,  0.0000,  2.5000],\n'
        '        [ 0.0000,  0.0000,  0.5000,  0.0000]],\n'
        '       grad_fn=<MaskedScatterBackward0>)\n'
        'tensor([ 0.,  1.,  1., -1.,  1.])'
    ),
    'masked_select broadcast': (
        'tensor([ 0.5000,  2.0000,  1.5000, -2.5000, -0.5000,  3.0000],\n'
        '       grad_fn=<MaskedSelectBackward0>)\n'
        'tensor([[-2.5000,  0.0000,  1.0000,  0.0000],\n'
        '        [-1.0000,  0.0000,  2.5000,  0.0000],\n'
        '        [ 0.5000,  0.0000, -1.5000,  0.0000]],\n'
        '       grad_fn=<MaskedScatterBackward0>)\n'
        'tensor([-2.,  0.,  1., -2., -1.,  1.])'
    ),
    'take': (
        'tensor([[ 0.5000,  0.0000],\n'
        '        [-3.0000,  0.0000]], grad_fn=<TakeBackward0>)\n'
        'tensor([[-2.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  3.5000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000, -1.0000]], grad_fn=<PutBackward0>)\n'
        'tensor([[-2.,  2.],\n'
        '        [ 2.,  2.]])'
    ),
    'take negative': (
        'tensor([-3.0000,  3.5000], grad_fn=<TakeBackward0>)\n'
        'tensor([[ 0.0000,  0.0000,  0.0000,  1.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000, -2.5000]], grad_fn=<PutBackward0>)\n'
        'tensor([2., 1.])'
    ),
    'split': (
        'tensor([[ 0.5000, -1.0000,  2.0000],\n'
        '        [ 1.5000,  0.0000, -2.5000],\n'
        '        [-0.5000,  1.0000,  3.0000]], grad_fn=<SplitBackward0>)\n'
        'tensor([[ 3.5000],\n'
        '        [ 4.0000],\n'
        '        [-3.0000]], grad_fn=<SplitBackward0>)\n'
        'tensor([[-2.5000,  1.0000, -1.0000, -2.5000],\n'
        '        [ 2.5000,  0.5000, -1.5000,  1.0000],\n'
        '        [ 2.0000,  0.0000, -2.0000, -1.0000]], grad_fn=<CatBackward0>)\n'
        'tensor([[-2., -1.,  0.],\n'
        '        [ 1.,  2., -2.],\n'
        '        [-1.,  0.,  1.]])\n'
        'tensor([[ 1.],\n'
        '        [-1.],\n'
        '        [ 2.]])'
    ),
    'split sizes': (
        'tensor([[ 0.5000, -1.0000,  2.0000,  3.5000]],\n'
        '       grad_fn=<SplitWithSizesBackward0>)\n'
        'tensor([[ 1.5000,  0.0000, -2.5000,  4.0000],\n'
        '        [-0.5000,  1.0000,  3.0000, -3.0000]],\n'
        '       grad_fn=<SplitWithSizesBackward0>)\n'
        'tensor([[-2.5000,  1.0000, -1.0000,  2.5000],\n'
        '        [-2.5000,  1.0000, -1.0000,  2.5000],\n'
        '        [ 0.5000, -1.5000,  2.0000,  0.0000]], grad_fn=<CatBackward0>)\n'
        'tensor([[-2., -1.,  0.,  1.]])\n'
        'tensor([[ 1.,  2., -2., -1.],\n'
        '        [-1.,  0.,  1.,  2.]])'
    ),
    'chunk': (
        'tensor([[ 0.5000, -1.0000],\n'
        '        [ 1.5000,  0.0000],\n'
        '        [-0.5000,  1.0000]], grad_fn=<SplitBackward0>)\n'
        'tensor([[ 2.0000,  3.5000],\n'
        '        [-2.5000,  4.0000],\n'
        '        [ 3.0000, -3.0000]], grad_fn=<SplitBackward0>)\n'
        'tensor([[-2.5000,  1.0000, -2.5000,  1.0000],\n'
        '        [-1.0000,  2.5000, -1.0000,  2.5000],\n'
        '        [ 0.5000, -1.5000,  0.5000, -1.5000]], grad_fn=<CatBackward0>)\n'
        'tensor([[-2., -1.],\n'
        '        [ 1.,  2.],\n'
        '        [-1.,  0.]])\n'
        'tensor([[ 0.,  1.],\n'
        '        [-2., -1.],\n'
        '        [ 1.,  2.]])'
    ),
    'chunk uneven': (
        'tensor([[ 0.5000, -1.0000,  2.0000,  3.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000,  4.0000]], grad_fn=<SplitBackward0>)\n'
        'tensor([[-0.5000,  1.0000,  3.0000, -3.0000]], grad_fn=<SplitBackward0>)\n'
        'tensor([[-2.5000,  1.0000, -1.0000,  2.5000],\n'
        '        [ 0.5000, -1.5000,  2.0000,  0.0000],\n'
        '        [-2.5000,  1.0000, -1.0000,  2.5000]], grad_fn=<CatBackward0>)\n'
        'tensor([[-2., -1.,  0.,  1.],\n'
        '        [ 1.,  2., -2., -1.]])\n'
        'tensor([[-1.,  0.,  1.,  2.]])'
    ),
    'narrow': (
        'tensor([[-1.0000,  2.0000],\n'
        '        [ 0.0000, -2.5000],\n'
        '        [ 1.0000,  3.0000]], grad_fn=<SliceBackward0>)\n'
        'tensor([[ 0.0000, -2.5000,  1.0000,  0.0000],\n'
        '        [ 0.0000, -1.0000,  2.5000,  0.0000],\n'
        '        [ 0.0000,  0.5000, -1.5000,  0.0000]])\n'
        'tensor([[-1.,  0.],\n'
        '        [ 2., -2.],\n'
        '        [ 0.,  1.]])'
    ),
    'narrow from the end': (
        'tensor([[ 2.0000,  3.5000],\n'
        '        [-2.5000,  4.0000],\n'
        '        [ 3.0000, -3.0000]], grad_fn=<SliceBackward0>)\n'
        'tensor([[ 0.0000,  0.0000, -2.5000,  1.0000],\n'
        '        [ 0.0000,  0.0000, -1.0000,  2.5000],\n'
        '        [ 0.0000,  0.0000,  0.5000, -1.5000]])\n'
        'tensor([[ 0.,  1.],\n'
        '        [-2., -1.],\n'
        '        [ 1.,  2.]])'
    ),
    'select': (
        'tensor([ 3.5000,  4.0000, -3.0000], grad_fn=<SelectBackward0>)\n'
        'tensor([[ 0.0000,  0.0000,  0.0000, -2.5000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  1.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000, -1.0000]])\n'
        'tensor([ 1., -1.,  2.])'
    ),
    'unbind': (
        'tensor([ 0.5000,  1.5000, -0.5000], grad_fn=<UnbindBackward0>)\n'
        'tensor([-1.,  0.,  1.], grad_fn=<UnbindBackward0>)\n'
        'tensor([ 2.0000, -2.5000,  3.0000], grad_fn=<UnbindBackward0>)\n'
        'tensor([ 3.5000,  4.0000, -3.0000], grad_fn=<UnbindBackward0>)\n'
        'tensor([[-2.5000, -2.5000, -2.5000, -2.5000],\n'
        '        [ 1.0000,  1.0000,  1.0000,  1.0000],\n'
        '        [-1.0000, -1.0000, -1.0000, -1.0000]], grad_fn=<StackBackward0>)\n'
        'tensor([-2.,  1., -1.])\n'
        'tensor([-1.,  2.,  0.])\n'
        'tensor([ 0., -2.,  1.])\n'
        'tensor([ 1., -1.,  2.])'
    ),
    'flip': (
        'tensor([[-3.0000,  3.0000,  1.0000, -0.5000],\n'
        '        [ 4.0000, -2.5000,  0.0000,  1.5000],\n'
        '        [ 3.5000,  2.0000, -1.0000,  0.5000]], grad_fn=<FlipBackward0>)\n'
        'tensor([[-2.5000, -0.5000,  1.5000, -2.0000],\n'
        '        [ 0.0000,  2.0000, -1.5000,  0.5000],\n'
        '        [ 2.5000, -1.0000,  1.0000, -2.5000]], grad_fn=<FlipBackward0>)\n'
        'tensor([[ 2.,  1.,  0., -1.],\n'
        '        [-1., -2.,  2.,  1.],\n'
        '        [ 1.,  0., -1., -2.]])'
    ),
    'flip list': (
        'tensor([[ 3.5000,  2.0000, -1.0000,  0.5000],\n'
        '        [ 4.0000, -2.5000,  0.0000,  1.5000],\n'
        '        [-3.0000,  3.0000,  1.0000, -0.5000]], grad_fn=<FlipBackward0>)\n'
        'tensor([[ 2.5000, -1.0000,  1.0000, -2.5000],\n'
        '        [ 0.0000,  2.0000, -1.5000,  0.5000],\n'
        '        [-2.5000, -0.5000,  1.5000, -2.0000]], grad_fn=<FlipBackward0>)\n'
        'tensor([[ 1.,  0., -1., -2.],\n'
        '        [-1., -2.,  2.,  1.],\n'
        '        [ 2.,  1.,  0., -1.]])'
    ),
    'fliplr': (
        'tensor([[ 3.5000,  2.0000, -1.0000,  0.5000],\n'
        '        [ 4.0000, -2.5000,  0.0000,  1.5000],\n'
        '        [-3.0000,  3.0000,  1.0000, -0.5000]], grad_fn=<FlipBackward0>)\n'
        'tensor([[ 2.5000, -1.0000,  1.0000, -2.5000],\n'
        '        [ 0.0000,  2.0000, -1.5000,  0.5000],\n'
        '        [-2.5000, -0.5000,  1.5000, -2.0000]], grad_fn=<FlipBackward0>)\n'
        'tensor([[ 1.,  0., -1., -2.],\n'
        '        [-1., -2.,  2.,  1.],\n'
        '        [ 2.,  1.,  0., -1.]])'
    ),
    'flipud': (
        'tensor([[-0.5000,  1.0000,  3.0000, -3.0000],\n'
        '        [ 1.5000,  0.0000, -2.5000,  4.0000],\n'
        '        [ 0.5000, -1.0000,  2.0000,  3.5000]], grad_fn=<FlipBackward0>)\n'
        'tensor([[-2.0000,  1.5000, -0.5000, -2.5000],\n'
        '        [ 0.5000, -1.5000,  2.0000,  0.0000],\n'
        '        [-2.5000,  1.0000, -1.0000,  2.5000]], grad_fn=<FlipBackward0>)\n'
        'tensor([[-1.,  0.,  1.,  2.],\n'
        '        [ 1.,  2., -2., -1.],\n'
        '        [-2., -1.,  0.,  1.]])'
    ),
    'roll': (
        'tensor([[ 3.5000,  0.5000, -1.0000,  2.0000],\n'
        '        [ 4.0000,  1.5000,  0.0000, -2.5000],\n'
        '        [-3.0000, -0.5000,  1.0000,  3.0000]], grad_fn=<RollBackward0>)\n'
        'tensor([[ 1.0000, -1.0000,  2.5000, -2.5000],\n'
        '        [-1.5000,  2.0000,  0.0000,  0.5000],\n'
        '        [ 1.5000, -0.5000, -2.5000, -2.0000]], grad_fn=<RollBackward0>)\n'
        'tensor([[ 1., -2., -1.,  0.],\n'
        '        [-1.,  1.,  2., -2.],\n'
        '        [ 2., -1.,  0.,  1.]])'
    ),
    'roll two dims': (
        'tensor([[ 1.0000,  3.0000, -3.0000, -0.5000],\n'
        '        [-1.0000,  2.0000,  3.5000,  0.5000],\n'
        '        [ 0.0000, -2.5000,  4.0000,  1.5000]], grad_fn=<RollBackward0>)\n'
        'tensor([[ 0.0000,  0.5000, -1.5000,  2.0000],\n'
        '        [-2.5000, -2.0000,  1.5000, -0.5000],\n'
        '        [ 2.5000, -2.5000,  1.0000, -1.0000]], grad_fn=<RollBackward0>)\n'
        'tensor([[ 0.,  1.,  2., -1.],\n'
        '        [-1.,  0.,  1., -2.],\n'
        '        [ 2., -2., -1.,  1.]])'
    ),
    'roll flat': (
        'tensor([[ 4.0000, -0.5000,  1.0000,  3.0000],\n'
        '        [-3.0000,  0.5000, -1.0000,  2.0000],\n'
        '        [ 3.5000,  1.5000,  0.0000, -2.5000]], grad_fn=<RollBackward0>)\n'
        'tensor([[-1.5000,  2.0000,  0.0000, -2.0000],\n'
        '        [ 1.5000, -0.5000, -2.5000, -2.5000],\n'
        '        [ 1.0000, -1.0000,  2.5000,  0.5000]], grad_fn=<RollBackward0>)\n'
        'tensor([[-1., -1.,  0.,  1.],\n'
        '        [ 2., -2., -1.,  0.],\n'
        '        [ 1.,  1.,  2., -2.]])'
    ),
    'rot90': (
        'tensor([[ 3.5000,  4.0000, -3.0000],\n'
        '        [ 2.0000, -2.5000,  3.0000],\n'
        '        [-1.0000,  0.0000,  1.0000],\n'
        '        [ 0.5000,  1.5000, -0.5000]], grad_fn=<Rot90Backward0>)\n'
        'tensor([[ 1.5000,  2.0000,  2.5000, -2.5000],\n'
        '        [-0.5000,  0.0000,  0.5000,  1.0000],\n'
        '        [-2.5000, -2.0000, -1.5000, -1.0000]], grad_fn=<Rot90Backward0>)\n'
        'tensor([[ 1., -1.,  2.],\n'
        '        [ 0., -2.,  1.],\n'
        '        [-1.,  2.,  0.],\n'
        '        [-2.,  1., -1.]])'
    ),
    'rot90 back': (
        'tensor([[ 3.5000,  4.0000, -3.0000],\n'
        '        [ 2.0000, -2.5000,  3.0000],\n'
        '        [-1.0000,  0.0000,  1.0000],\n'
        '        [ 0.5000,  1.5000, -0.5000]], grad_fn=<Rot90Backward0>)\n'
        'tensor([[ 1.5000,  2.0000,  2.5000, -2.5000],\n'
        '        [-0.5000,  0.0000,  0.5000,  1.0000],\n'
        '        [-2.5000, -2.0000, -1.5000, -1.0000]], grad_fn=<Rot90Backward0>)\n'
        'tensor([[ 1., -1.,  2.],\n'
        '        [ 0., -2.,  1.],\n'
        '        [-1.,  2.,  0.],\n'
        '        [-2.,  1., -1.]])'
    ),
    'rot90 twice': (
        'tensor([[-3.0000,  3.0000,  1.0000, -0.5000],\n'
        '        [ 4.0000, -2.5000,  0.0000,  1.5000],\n'
        '        [ 3.5000,  2.0000, -1.0000,  0.5000]], grad_fn=<Rot90Backward0>)\n'
        'tensor([[-2.5000, -0.5000,  1.5000, -2.0000],\n'
        '        [ 0.0000,  2.0000, -1.5000,  0.5000],\n'
        '        [ 2.5000, -1.0000,  1.0000, -2.5000]], grad_fn=<Rot90Backward0>)\n'
        'tensor([[ 2.,  1.,  0., -1.],\n'
        '        [-1., -2.,  2.,  1.],\n'
        '        [ 1.,  0., -1., -2.]])'
    ),
    'tile': (
        'tensor([[ 0.5000, -1.0000,  2.0000,  3.5000,  0.5000, -1.0000,  2.0000,  3.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000,  4.0000,  1.5000,  0.0000, -2.5000,  4.0000],\n'
        '        [-0.5000,  1.0000,  3.0000, -3.0000, -0.5000,  1.0000,  3.0000, -3.0000]],\n'
        '       grad_fn=<RepeatBackward0>)\n'
        'tensor([[-2.0000, -0.5000,  1.0000,  2.5000],\n'
        '        [-1.0000,  0.5000,  2.0000, -2.0000],\n'
        '        [ 0.0000,  1.5000, -2.5000, -1.0000]])\n'
        'tensor([[-2., -1.,  0.,  1., -2., -1.,  0.,  1.],\n'
        '        [ 1.,  2., -2., -1.,  1.,  2., -2., -1.],\n'
        '        [-1.,  0.,  1.,  2., -1.,  0.,  1.,  2.]])'
    ),
    'tile more dims': (
        'tensor([[[ 0.5000, -1.0000,  2.0000,  3.5000],\n'
        '         [ 1.5000,  0.0000, -2.5000,  4.0000],\n'
        '         [-0.5000,  1.0000,  3.0000, -3.0000]],\n'
        '\n'
        '        [[ 0.5000, -1.0000,  2.0000,  3.5000],\n'
        '         [ 1.5000,  0.0000, -2.5000,  4.0000],\n'
        '         [-0.5000,  1.0000,  3.0000, -3.0000]]], grad_fn=<RepeatBackward0>)\n'
        'tensor([[-1.5000,  0.0000,  1.5000,  3.0000],\n'
        '        [-1.0000,  0.5000,  2.0000, -2.0000],\n'
        '        [-0.5000,  1.0000, -3.0000, -1.5000]])\n'
        'tensor([[[-2., -1.,  0.,  1.],\n'
        '         [ 1.,  2., -2., -1.],\n'
        '         [-1.,  0.,  1.,  2.]],\n'
        '\n'
        '        [[-2., -1.,  0.,  1.],\n'
        '         [ 1.,  2., -2., -1.],\n'
        '         [-1.,  0.,  1.,  2.]]])'
    ),
    'repeat_interleave': (
        'tensor([[ 0.5000,  0.5000, -1.0000, -1.0000,  2.0000,  2.0000,  3.5000,  3.5000],\n'
        '        [ 1.5000,  1.5000,  0.0000,  0.0000, -2.5000, -2.5000,  4.0000,  4.0000],\n'
        '        [-0.5000, -0.5000,  1.0000,  1.0000,  3.0000,  3.0000, -3.0000, -3.0000]],\n'
        '       grad_fn=<ViewBackward0>)\n'
        'tensor([[-1.5000,  1.5000, -1.0000,  2.0000],\n'
        '        [-0.5000, -3.0000,  0.0000,  3.0000],\n'
        '        [ 0.5000, -2.0000,  1.0000, -1.5000]], grad_fn=<SqueezeBackward1>)\n'
        'tensor([[-2., -2., -1., -1.,  0.,  0.,  1.,  1.],\n'
        '        [ 1.,  1.,  2.,  2., -2., -2., -1., -1.],\n'
        '        [-1., -1.,  0.,  0.,  1.,  1.,  2.,  2.]])'
    ),
    'repeat_interleave flat': (
        'tensor([ 0.5000,  0.5000, -1.0000, -1.0000,  2.0000,  2.0000,  3.5000,  3.5000,\n'
        '         1.5000,  1.5000,  0.0000,  0.0000, -2.5000, -2.5000,  4.0000,  4.0000,\n'
        '        -0.5000, -0.5000,  1.0000,  1.0000,  3.0000,  3.0000, -3.0000, -3.0000],\n'
        '       grad_fn=<ViewBackward0>)\n'
        'tensor([[-1.5000,  1.5000, -1.0000,  2.0000],\n'
        '        [-0.5000, -3.0000,  0.0000,  3.0000],\n'
        '        [ 0.5000, -2.0000,  1.0000, -1.5000]], grad_fn=<ViewBackward0>)\n'
        'tensor([-2., -2., -1., -1.,  0.,  0.,  1.,  1.,  1.,  1.,  2.,  2., -2., -2.,\n'
        '        -1., -1., -1., -1.,  0.,  0.,  1.,  1.,  2.,  2.])'
    ),
    'repeat_interleave tensor': (
        'tensor([[ 0.5000, -1.0000,  2.0000,  3.5000],\n'
        '        [-0.5000,  1.0000,  3.0000, -3.0000],\n'
        '        [-0.5000,  1.0000,  3.0000, -3.0000]], grad_fn=<IndexSelectBackward0>)\n'
        'tensor([[-2.5000,  1.0000, -1.0000,  2.5000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [-1.5000,  0.0000,  1.5000, -2.5000]], grad_fn=<IndexAddBackward0>)\n'
        'tensor([[-2., -1.,  0.,  1.],\n'
        '        [-1.,  0.,  1.,  2.],\n'
        '        [-1.,  0.,  1.,  2.]])'
    ),
    'broadcast_to': (
        'tensor([[ 0.5000, -1.0000,  2.0000,  3.5000],\n'
        '        [ 0.5000, -1.0000,  2.0000,  3.5000]], grad_fn=<ExpandBackward0>)\n'
        'tensor([-2.0000, -0.5000,  1.0000,  2.5000], grad_fn=<ViewBackward0>)\n'
        'tensor([[ 1.0000, -2.0000,  0.5000,  3.0000],\n'
        '        [ 1.0000, -2.0000,  0.5000,  3.0000]])'
    ),
    'swapdims': (
        'tensor([[ 0.5000,  1.5000, -0.5000],\n'
        '        [-1.0000,  0.0000,  1.0000],\n'
        '        [ 2.0000, -2.5000,  3.0000],\n'
        '        [ 3.5000,  4.0000, -3.0000]], grad_fn=<TransposeBackward0>)\n'
        'tensor([[-2.5000,  2.5000,  2.0000,  1.5000],\n'
        '        [ 1.0000,  0.5000,  0.0000, -0.5000],\n'
        '        [-1.0000, -1.5000, -2.0000, -2.5000]], grad_fn=<TransposeBackward0>)\n'
        'tensor([[-2.,  1., -1.],\n'
        '        [-1.,  2.,  0.],\n'
        '        [ 0., -2.,  1.],\n'
        '        [ 1., -1.,  2.]])'
    ),
    'swapaxes': (
        'tensor([[ 0.5000,  1.5000, -0.5000],\n'
        '        [-1.0000,  0.0000,  1.0000],\n'
        '        [ 2.0000, -2.5000,  3.0000],\n'
        '        [ 3.5000,  4.0000, -3.0000]], grad_fn=<TransposeBackward0>)\n'
        'tensor([[-2.5000,  2.5000,  2.0000,  1.5000],\n'
        '        [ 1.0000,  0.5000,  0.0000, -0.5000],\n'
        '        [-1.0000, -1.5000, -2.0000, -2.5000]], grad_fn=<TransposeBackward0>)\n'
        'tensor([[-2.,  1., -1.],\n'
        '        [-1.,  2.,  0.],\n'
        '        [ 0., -2.,  1.],\n'
        '        [ 1., -1.,  2.]])'
    ),
    'unflatten': (
        'tensor([[[ 0.5000, -1.0000],\n'
        '         [ 2.0000,  3.5000]],\n'
        '\n'
        '        [[ 1.5000,  0.0000],\n'
        '         [-2.5000,  4.0000]],\n'
        '\n'
        '        [[-0.5000,  1.0000],\n'
        '         [ 3.0000, -3.0000]]], grad_fn=<ViewBackward0>)\n'
        'tensor([[-2.5000,  1.0000, -1.0000,  2.5000],\n'
        '        [ 0.5000, -1.5000,  2.0000,  0.0000],\n'
        '        [-2.0000,  1.5000, -0.5000, -2.5000]], grad_fn=<ViewBackward0>)\n'
        'tensor([[[-2., -1.],\n'
        '         [ 0.,  1.]],\n'
        '\n'
        '        [[ 1.,  2.],\n'
        '         [-2., -1.]],\n'
        '\n'
        '        [[-1.,  0.],\n'
        '         [ 1.,  2.]]])'
    ),
    'movedim': (
        'tensor([[[ 0.5000,  1.5000, -0.5000],\n'
        '         [-1.0000,  0.0000,  1.0000]],\n'
        '\n'
        '        [[ 2.0000, -2.5000,  3.0000],\n'
        '         [ 3.5000,  4.0000, -3.0000]]], grad_fn=<PermuteBackward0>)\n'
        'tensor([[-2.5000,  2.5000,  2.0000,  1.5000],\n'
        '        [ 1.0000,  0.5000,  0.0000, -0.5000],\n'
        '        [-1.0000, -1.5000, -2.0000, -2.5000]], grad_fn=<ReshapeAliasBackward0>)\n'
        'tensor([[[-2.,  1., -1.],\n'
        '         [-1.,  2.,  0.]],\n'
        '\n'
        '        [[ 0., -2.,  1.],\n'
        '         [ 1., -1.,  2.]]])'
    ),
    'movedim two': (
        'tensor([[[ 0.5000,  1.5000, -0.5000],\n'
        '         [-1.0000,  0.0000,  1.0000]],\n'
        '\n'
        '        [[ 2.0000, -2.5000,  3.0000],\n'
        '         [ 3.5000,  4.0000, -3.0000]]], grad_fn=<PermuteBackward0>)\n'
        'tensor([[-2.5000,  2.5000,  2.0000,  1.5000],\n'
        '        [ 1.0000,  0.5000,  0.0000, -0.5000],\n'
        '        [-1.0000, -1.5000, -2.0000, -2.5000]], grad_fn=<ReshapeAliasBackward0>)\n'
        'tensor([[[-2.,  1., -1.],\n'
        '         [-1.,  2.,  0.]],\n'
        '\n'
        '        [[ 0., -2.,  1.],\n'
        '         [ 1., -1.,  2.]]])'
    ),
    'tril': (
        'tensor([[ 0.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 1.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [-0.5000,  1.0000,  3.0000,  0.0000]], grad_fn=<TrilBackward0>)\n'
        'tensor([[-2.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.5000, -1.5000,  0.0000,  0.0000],\n'
        '        [-2.0000,  1.5000, -0.5000,  0.0000]], grad_fn=<TrilBackward0>)\n'
        'tensor([[-2.,  0.,  0.,  0.],\n'
        '        [ 1.,  2.,  0.,  0.],\n'
        '        [-1.,  0.,  1.,  0.]])'
    ),
    'triu': (
        'tensor([[ 0.0000, -1.0000,  2.0000,  3.5000],\n'
        '        [ 0.0000,  0.0000, -2.5000,  4.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000, -3.0000]], grad_fn=<TriuBackward0>)\n'
        'tensor([[ 0.0000,  1.0000, -1.0000,  2.5000],\n'
        '        [ 0.0000,  0.0000,  2.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000, -2.5000]], grad_fn=<TriuBackward0>)\n'
        'tensor([[ 0., -1.,  0.,  1.],\n'
        '        [ 0.,  0., -2., -1.],\n'
        '        [ 0.,  0.,  0.,  2.]])'
    ),
    'tril negative': (
        'tensor([[ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 1.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [-0.5000,  1.0000,  0.0000,  0.0000]], grad_fn=<TrilBackward0>)\n'
        'tensor([[ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [-2.0000,  1.5000,  0.0000,  0.0000]], grad_fn=<TrilBackward0>)\n'
        'tensor([[ 0.,  0.,  0.,  0.],\n'
        '        [ 1.,  0.,  0.,  0.],\n'
        '        [-1.,  0.,  0.,  0.]])'
    ),
    'diag vector': (
        'tensor([[ 0.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000, -1.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  2.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  3.5000]], grad_fn=<DiagEmbedBackward0>)\n'
        'tensor([-2.5000, -1.5000, -0.5000,  0.5000], grad_fn=<DiagonalBackward0>)\n'
        'tensor([[ 1.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000, -2.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.5000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  3.0000]])'
    ),
    'diag vector offset': (
        'tensor([[ 0.0000,  0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.5000,  0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000, -1.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  2.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  3.5000,  0.0000]],\n'
        '       grad_fn=<DiagEmbedBackward0>)\n'
        'tensor([-1.5000, -2.5000,  2.0000,  1.0000], grad_fn=<DiagonalBackward0>)\n'
        'tensor([[ 0.0000,  0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 1.0000,  0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000, -2.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.5000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  3.0000,  0.0000]])'
    ),
    'diag matrix': (
        'tensor([0.5000, 0.0000, 3.0000], grad_fn=<DiagonalBackward0_copy>)\n'
        'tensor([[-2.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  1.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000, -1.0000,  0.0000]],\n'
        '       grad_fn=<DiagonalBackwardBackward0>)\n'
        'tensor([-2.,  2.,  1.])'
    ),
    'diag matrix offset': (
        'tensor([-1.0000, -2.5000, -3.0000], grad_fn=<DiagonalBackward0_copy>)\n'
        'tensor([[ 0.0000, -2.5000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  1.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000, -1.0000]],\n'
        '       grad_fn=<DiagonalBackwardBackward0>)\n'
        'tensor([-1., -2.,  2.])'
    ),
    'diagonal': (
        'tensor([0.5000, 0.0000, 3.0000], grad_fn=<DiagonalBackward0>)\n'
        'tensor([[-2.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  1.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000, -1.0000,  0.0000]],\n'
        '       grad_fn=<DiagonalBackwardBackward0>)\n'
        'tensor([-2.,  2.,  1.])'
    ),
    'diagonal negative': (
        'tensor([1.5000, 1.0000], grad_fn=<DiagonalBackward0>)\n'
        'tensor([[ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [-2.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  1.0000,  0.0000,  0.0000]],\n'
        '       grad_fn=<DiagonalBackwardBackward0>)\n'
        'tensor([1., 0.])'
    ),
    'diagonal 3d': (
        'tensor([[ 0.5000,  3.5000],\n'
        '        [ 1.5000,  4.0000],\n'
        '        [-0.5000, -3.0000]], grad_fn=<DiagonalBackward0>)\n'
        'tensor([[-2.5000,  0.0000,  0.0000,  1.0000],\n'
        '        [-1.0000,  0.0000,  0.0000,  2.5000],\n'
        '        [ 0.5000,  0.0000,  0.0000, -1.5000]], grad_fn=<ViewBackward0>)\n'
        'tensor([[-2.,  1.],\n'
        '        [ 1., -1.],\n'
        '        [-1.,  2.]])'
    ),
    'diag_embed': (
        'tensor([[[ 0.5000,  0.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000, -1.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  2.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  0.0000,  3.5000]],\n'
        '\n'
        '        [[ 1.5000,  0.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000, -2.5000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  0.0000,  4.0000]],\n'
        '\n'
        '        [[-0.5000,  0.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000,  1.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  3.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  0.0000, -3.0000]]], grad_fn=<DiagEmbedBackward0>)\n'
        'tensor([[-2.5000, -1.5000, -0.5000,  0.5000],\n'
        '        [-1.5000, -0.5000,  0.5000,  1.5000],\n'
        '        [-0.5000,  0.5000,  1.5000,  2.5000]], grad_fn=<DiagonalBackward0>)\n'
        'tensor([[[-2.,  0.,  0.,  0.],\n'
        '         [ 0., -1.,  0.,  0.],\n'
        '         [ 0.,  0.,  0.,  0.],\n'
        '         [ 0.,  0.,  0.,  1.]],\n'
        '\n'
        '        [[ 1.,  0.,  0.,  0.],\n'
        '         [ 0.,  2.,  0.,  0.],\n'
        '         [ 0.,  0., -2.,  0.],\n'
        '         [ 0.,  0.,  0., -1.]],\n'
        '\n'
        '        [[-1.,  0.,  0.,  0.],\n'
        '         [ 0.,  0.,  0.,  0.],\n'
        '         [ 0.,  0.,  1.,  0.],\n'
        '         [ 0.,  0.,  0.,  2.]]])'
    ),
    'diag_embed offset dims': (
        'tensor([[[ 0.0000,  0.5000,  0.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000,  1.5000,  0.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000, -0.5000,  0.0000,  0.0000,  0.0000]],\n'
        '\n'
        '        [[ 0.0000,  0.0000, -1.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  0.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  1.0000,  0.0000,  0.0000]],\n'
        '\n'
        '        [[ 0.0000,  0.0000,  0.0000,  2.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  0.0000, -2.5000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  0.0000,  3.0000,  0.0000]],\n'
        '\n'
        '        [[ 0.0000,  0.0000,  0.0000,  0.0000,  3.5000],\n'
        '         [ 0.0000,  0.0000,  0.0000,  0.0000,  4.0000],\n'
        '         [ 0.0000,  0.0000,  0.0000,  0.0000, -3.0000]],\n'
        '\n'
        '        [[ 0.0000,  0.0000,  0.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  0.0000,  0.0000,  0.0000],\n'
        '         [ 0.0000,  0.0000,  0.0000,  0.0000,  0.0000]]],\n'
        '       grad_fn=<DiagEmbedBackward0>)\n'
        'tensor([[ 1.0000,  2.0000, -2.5000, -1.5000],\n'
        '        [ 2.0000, -2.5000, -1.5000, -0.5000],\n'
        '        [-2.5000, -1.5000, -0.5000,  0.5000]], grad_fn=<DiagonalBackward0>)\n'
        'tensor([[[ 0., -2.,  0.,  0.,  0.],\n'
        '         [ 0.,  1.,  0.,  0.,  0.],\n'
        '         [ 0., -1.,  0.,  0.,  0.]],\n'
        '\n'
        '        [[ 0.,  0., -1.,  0.,  0.],\n'
        '         [ 0.,  0.,  2.,  0.,  0.],\n'
        '         [ 0.,  0.,  0.,  0.,  0.]],\n'
        '\n'
        '        [[ 0.,  0.,  0.,  0.,  0.],\n'
        '         [ 0.,  0.,  0., -2.,  0.],\n'
        '         [ 0.,  0.,  0.,  1.,  0.]],\n'
        '\n'
        '        [[ 0.,  0.,  0.,  0.,  1.],\n'
        '         [ 0.,  0.,  0.,  0., -1.],\n'
        '         [ 0.,  0.,  0.,  0.,  2.]],\n'
        '\n'
        '        [[ 0.,  0.,  0.,  0.,  0.],\n'
        '         [ 0.,  0.,  0.,  0.,  0.],\n'
        '         [ 0.,  0.,  0.,  0.,  0.]]])'
    ),
    'trace': (
        'tensor(3.5000, grad_fn=<TraceBackward0>)\n'
        'tensor([[-2.5000,  0.0000,  0.0000,  0.0000],\n'
        '        [ 0.0000, -2.5000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000, -2.5000,  0.0000]], grad_fn=<ViewBackward0>)\n'
        'tensor(1.)'
    ),
    'hstack': (
        'tensor([[ 0.5000, -1.0000,  2.0000,  3.5000,  0.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000,  4.0000,  1.5000],\n'
        '        [-0.5000,  1.0000,  3.0000, -3.0000, -0.5000]], grad_fn=<CatBackward0>)\n'
        'tensor([[-2.0000,  1.0000, -1.0000,  2.5000],\n'
        '        [ 0.0000,  2.0000,  0.0000, -2.0000],\n'
        '        [ 2.0000, -2.5000,  1.0000, -1.0000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-2., -1.,  0.,  1., -2.],\n'
        '        [ 1.,  2., -2., -1.,  1.],\n'
        '        [-1.,  0.,  1.,  2., -1.]])'
    ),
    'hstack vectors': (
        'tensor([ 0.5000, -1.0000,  2.0000,  3.5000,  1.5000,  0.0000],\n'
        '       grad_fn=<CatBackward0>)\n'
        'tensor([[-2.5000,  1.0000, -1.0000,  2.5000],\n'
        '        [ 0.5000, -1.5000,  0.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000]], grad_fn=<AddBackward0>)\n'
        'tensor([-2., -1.,  0.,  1.,  1.,  2.])'
    ),
    'vstack': (
        'tensor([[ 0.5000, -1.0000,  2.0000,  3.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000,  4.0000],\n'
        '        [-0.5000,  1.0000,  3.0000, -3.0000],\n'
        '        [ 0.5000, -1.0000,  2.0000,  3.5000]], grad_fn=<CatBackward0>)\n'
        'tensor([[-1.5000,  0.0000,  1.5000,  3.0000],\n'
        '        [ 0.5000, -1.5000,  2.0000,  0.0000],\n'
        '        [-2.0000,  1.5000, -0.5000, -2.5000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-2., -1.,  0.,  1.],\n'
        '        [ 1.,  2., -2., -1.],\n'
        '        [-1.,  0.,  1.,  2.],\n'
        '        [-2., -1.,  0.,  1.]])'
    ),
    'dstack': (
        'tensor([[[ 0.5000,  1.0000],\n'
        '         [-1.0000, -2.0000],\n'
        '         [ 2.0000,  4.0000],\n'
        '         [ 3.5000,  7.0000]],\n'
        '\n'
        '        [[ 1.5000,  3.0000],\n'
        '         [ 0.0000,  0.0000],\n'
        '         [-2.5000, -5.0000],\n'
        '         [ 4.0000,  8.0000]],\n'
        '\n'
        '        [[-0.5000, -1.0000],\n'
        '         [ 1.0000,  2.0000],\n'
        '         [ 3.0000,  6.0000],\n'
        '         [-3.0000, -6.0000]]], grad_fn=<CatBackward0>)\n'
        'tensor([[-0.5000,  4.0000, -2.5000,  2.0000],\n'
        '        [ 1.0000, -5.5000, -1.0000,  3.5000],\n'
        '        [ 2.5000, -4.0000,  0.5000, -0.5000]], grad_fn=<AddBackward0>)\n'
        'tensor([[[-2., -4.],\n'
        '         [-1., -2.],\n'
        '         [ 0.,  0.],\n'
        '         [ 1.,  2.]],\n'
        '\n'
        '        [[ 1.,  2.],\n'
        '         [ 2.,  4.],\n'
        '         [-2., -4.],\n'
        '         [-1., -2.]],\n'
        '\n'
        '        [[-1., -2.],\n'
        '         [ 0.,  0.],\n'
        '         [ 1.,  2.],\n'
        '         [ 2.,  4.]]])'
    ),
    'dstack vectors': (
        'tensor([[[ 0.5000,  1.5000],\n'
        '         [-1.0000,  0.0000],\n'
        '         [ 2.0000, -2.5000],\n'
        '         [ 3.5000,  4.0000]]], grad_fn=<CatBackward0>)\n'
        'tensor([[-2.5000, -1.0000,  0.5000,  2.0000],\n'
        '        [ 1.0000,  2.5000, -1.5000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000]], grad_fn=<AddBackward0>)\n'
        'tensor([[[-2.,  1.],\n'
        '         [-1.,  2.],\n'
        '         [ 0., -2.],\n'
        '         [ 1., -1.]]])'
    ),
    'column_stack': (
        'tensor([[ 0.5000,  1.5000],\n'
        '        [-1.0000,  0.0000],\n'
        '        [ 2.0000, -2.5000],\n'
        '        [ 3.5000,  4.0000]], grad_fn=<CatBackward0>)\n'
        'tensor([[-2.5000, -1.0000,  0.5000,  2.0000],\n'
        '        [ 1.0000,  2.5000, -1.5000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-2.,  1.],\n'
        '        [-1.,  2.],\n'
        '        [ 0., -2.],\n'
        '        [ 1., -1.]])'
    ),
    'column_stack matrix': (
        'tensor([[ 0.5000,  0.5000,  1.5000, -0.5000],\n'
        '        [-1.0000, -1.0000,  0.0000,  1.0000],\n'
        '        [ 2.0000,  2.0000, -2.5000,  3.0000],\n'
        '        [ 3.5000,  3.5000,  4.0000, -3.0000]], grad_fn=<CatBackward0>)\n'
        'tensor([[-1.5000, -1.0000, -0.5000,  0.0000],\n'
        '        [-1.0000,  2.0000, -0.5000,  2.5000],\n'
        '        [ 2.5000,  0.0000, -2.5000,  0.5000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-2., -2.,  1., -1.],\n'
        '        [-1., -1.,  2.,  0.],\n'
        '        [ 0.,  0., -2.,  1.],\n'
        '        [ 1.,  1., -1.,  2.]])'
    ),
    'meshgrid ij': (
        'tensor([[ 0.5000,  0.5000,  0.5000],\n'
        '        [-1.0000, -1.0000, -1.0000],\n'
        '        [ 2.0000,  2.0000,  2.0000],\n'
        '        [ 3.5000,  3.5000,  3.5000]], grad_fn=<ExpandBackward0>)\n'
        'tensor([[ 1.5000,  0.0000, -2.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000],\n'
        '        [ 1.5000,  0.0000, -2.5000]], grad_fn=<ExpandBackward0>)\n'
        'tensor([[-2.5000,  1.5000,  0.0000, -1.5000],\n'
        '        [ 3.5000,  1.0000, -7.0000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-2., -2., -2.],\n'
        '        [-1., -1., -1.],\n'
        '        [ 0.,  0.,  0.],\n'
        '        [ 1.,  1.,  1.]])\n'
        'tensor([[ 1.,  2., -2.],\n'
        '        [ 1.,  2., -2.],\n'
        '        [ 1.,  2., -2.],\n'
        '        [ 1.,  2., -2.]])'
    ),
    'meshgrid xy': (
        'tensor([[ 0.5000, -1.0000,  2.0000,  3.5000],\n'
        '        [ 0.5000, -1.0000,  2.0000,  3.5000],\n'
        '        [ 0.5000, -1.0000,  2.0000,  3.5000]], grad_fn=<ExpandBackward0>)\n'
        'tensor([[ 1.5000,  1.5000,  1.5000,  1.5000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000],\n'
        '        [-2.5000, -2.5000, -2.5000, -2.5000]], grad_fn=<ExpandBackward0>)\n'
        'tensor([[-4.0000,  1.0000,  0.5000,  0.0000],\n'
        '        [ 0.0000,  1.0000, -3.5000,  0.0000],\n'
        '        [ 0.0000,  0.0000,  0.0000,  0.0000]], grad_fn=<AddBackward0>)\n'
        'tensor([[-2., -1.,  0.,  1.],\n'
        '        [-2., -1.,  0.,  1.],\n'
        '        [-2., -1.,  0.,  1.]])\n'
        'tensor([[ 1.,  1.,  1.,  1.],\n'
        '        [ 2.,  2.,  2.,  2.],\n'
        '        [-2., -2., -2., -2.]])'
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_values_gradients_and_second_derivatives_as_pytorch(name: str) -> None:
    as_pytorch(lambda lib: transcript(lib, name), (None, repr(EXPECTED[name]), []))


@pytest.mark.parametrize("name", list(CASES))
def test_derivatives_match_finite_differences(name: str) -> None:
    # (moved off 0, where ``x > 0`` has a jump, and off 1 for ``x > 1``)
    x = tg.tensor(np.add(BASE[0] if name in VECTOR else BASE, 0.25), dtype=tg.float64, requires_grad=True)
    fn = CASES[name]
    assert gradcheck(lambda t: fn(tg, t), (x,))
    assert gradgradcheck(lambda t: fn(tg, t), (x,))


# ------------------------------------------------------------------------------------------------ corners
def _grads(op: Any) -> Any:
    """The op's result on a 0-d leaf and that leaf's gradient for sum(result)."""
    def run(lib: ModuleType) -> Any:
        x = lib.tensor(5.0, requires_grad=True)
        y = op(lib, x)
        y.sum().backward()
        return y, x.grad

    return run


# Corners: 0-d tensors (taken as having one element along dim 0), empty pieces, offsets past the edge.
EDGES = [
    _grads(lambda lib, x: x.gather(0, _i(lib, 0))),
    _grads(lambda lib, x: x.gather(0, _i(lib, [0, 0]))),
    _grads(lambda lib, x: x.index_select(0, _i(lib, [0]))),
    _grads(lambda lib, x: x.take(_i(lib, [0, 0]))),
    _grads(lambda lib, x: x.scatter(0, _i(lib, 0), 2.0)),
    _grads(lambda lib, x: lib.zeros(()).scatter_add(0, _i(lib, 0), x)),
    _grads(lambda lib, x: lib.zeros(()).index_add(0, _i(lib, [0]), x)),
    _grads(lambda lib, x: x.masked_select(_i(lib, [True, False, True]))),
    _grads(lambda lib, x: x.flip(0)),
    _grads(lambda lib, x: x.repeat_interleave(3)),
    _grads(lambda lib, x: lib.dstack([x, x])),
    _grads(lambda lib, x: lib.column_stack([x, x])),
    lambda lib: lib.tensor(5.0).index_select(0, _i(lib, [0, 0])),
    lambda lib: lib.ones(0, 3).split(2),
    lambda lib: lib.arange(4.0).chunk(5),
    lambda lib: lib.ones(2, 3).gather(1, lib.zeros(2, 0, dtype=lib.int64)),
    lambda lib: lib.arange(6.0).reshape(2, 3).rot90(-3),
    lambda lib: lib.arange(6.0).reshape(2, 3).diagonal(5),
    lambda lib: lib.arange(6.0).reshape(2, 3).triu(-5),
    lambda lib: lib.zeros(3).index_add(0, _i(lib, [0, 0, 2]), lib.ones(3), alpha=2),
    lambda lib: lib.zeros(3).scatter_add(0, _i(lib, [0, 0, 2]), lib.ones(3)),
]
# What PyTorch gives for each.
EDGE_EXPECTED = [
    (None, '(tensor(5., grad_fn=<GatherBackward0>), tensor(1.))', []),
    (None, '(tensor([5., 5.], grad_fn=<GatherBackward0>), tensor(2.))', []),
    (None, '(tensor(5., grad_fn=<IndexSelectBackward0>), tensor(1.))', []),
    (None, '(tensor([5., 5.], grad_fn=<TakeBackward0>), tensor(2.))', []),
    (None, '(tensor(2., grad_fn=<ScatterBackward1>), tensor(0.))', []),
    (None, '(tensor(5., grad_fn=<ScatterAddBackward0>), tensor(1.))', []),
    (None, '(tensor(5., grad_fn=<IndexAddBackward0>), tensor(1.))', []),
    (None, '(tensor([5., 5.], grad_fn=<MaskedSelectBackward0>), tensor(2.))', []),
    (None, '(tensor(5., grad_fn=<FlipBackward0>), tensor(1.))', []),
    (None, '(tensor([5., 5., 5.], grad_fn=<ViewBackward0>), tensor(3.))', []),
    (None, '(tensor([[[5., 5.]]], grad_fn=<CatBackward0>), tensor(2.))', []),
    (None, '(tensor([[5., 5.]], grad_fn=<CatBackward0>), tensor(2.))', []),
    ('RuntimeError', 'index_select(): Index to scalar can have only 1 value, got 2 value(s)', []),
    (None, '(tensor([], size=(0, 3)),)', []),
    (None, '(tensor([0.]), tensor([1.]), tensor([2.]), tensor([3.]))', []),
    (None, 'tensor([], size=(2, 0))', []),
    (None, 'tensor([[2., 5.],\n        [1., 4.],\n        [0., 3.]])', []),
    (None, 'tensor([])', []),
    (None, 'tensor([[0., 1., 2.],\n        [3., 4., 5.]])', []),
    (None, 'tensor([4., 0., 2.])', []),
    (None, 'tensor([2., 0., 1.])', []),
]


@pytest.mark.parametrize("case", range(len(EDGES)))
def test_corner_cases_as_pytorch(case: int) -> None:
    as_pytorch(EDGES[case], EDGE_EXPECTED[case])


# ------------------------------------------------------------------------------------------------ errors
def _x(lib: ModuleType) -> Any:
    return lib.tensor(BASE, requires_grad=True)


ERRORS = [
    (lambda lib: _x(lib).gather(1, _i(lib, [0, 1])), RuntimeError,
     "Index tensor must have the same number of dimensions as input tensor"),
    (lambda lib: _x(lib).gather(1, _i(lib, [[0, 4]])), RuntimeError,
     "index 4 is out of bounds for dimension 1 with size 4"),
    (lambda lib: _x(lib).gather(1, _i(lib, [[-1, 1]])), RuntimeError,
     "index -1 is out of bounds for dimension 1 with size 4"),
    (lambda lib: _x(lib).gather(1, _i(lib, [[0.0, 1.0]])), RuntimeError,
     "gather(): Expected dtype int32/int64 for index"),
    (lambda lib: _x(lib).gather(1, _i(lib, [[0, 1]] * 4)), RuntimeError,
     "Size does not match at dimension 0 expected index [4, 2] to be no larger than self [3, 4] apart from "
     "dimension 1"),
    (lambda lib: _x(lib).gather(2, _i(lib, [[0]])), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda lib: _x(lib).scatter(1, _i(lib, [[0, 1]]), lib.ones(1, 1)), RuntimeError,
     "Expected index [1, 2] to be no larger than self [3, 4] apart from dimension 1 and to be no larger size than "
     "src [1, 1]"),
    (lambda lib: _x(lib).scatter(1, _i(lib, [[0]]), lib.ones(1, 1, dtype=lib.float64)), RuntimeError,
     "scatter(): Expected self.dtype to be equal to src.dtype"),
    (lambda lib: _x(lib).scatter(0, _i(lib, [[5]]), 1.0), RuntimeError,
     "index 5 is out of bounds for dimension 0 with size 3"),
    (lambda lib: _x(lib).scatter(1, _i(lib, [[0.0]]), 2.0), RuntimeError,
     "scatter(): Expected dtype int32/int64 for index"),
    (lambda lib: _x(lib).scatter_add(1, _i(lib, [[0]]), lib.ones(1, 1, dtype=lib.float64)), RuntimeError,
     "scatter(): Expected self.dtype to be equal to src.dtype"),
    (lambda lib: _x(lib).scatter_(1, _i(lib, [[0]]), 2.0), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    (lambda lib: _x(lib).index_select(0, _i(lib, [3])), IndexError, "index out of range in self"),
    (lambda lib: _x(lib).index_select(0, _i(lib, [-1])), IndexError, "index out of range in self"),
    (lambda lib: _x(lib).index_select(0, _i(lib, [[1]])), IndexError,
     "index_select(): Index is supposed to be a vector"),
    (lambda lib: _x(lib).index_select(0, _i(lib, [1.0])), RuntimeError,
     "index_select(): Expected dtype int32 or int64 for index"),
    (lambda lib: _x(lib).index_add(0, _i(lib, [0]), lib.ones(2, 4)), RuntimeError,
     "index_add_(): Number of indices (1) should be equal to source.size(dim): (2), for dim: 0"),
    (lambda lib: _x(lib).index_add(0, _i(lib, [0]), lib.ones(1, 4, dtype=lib.float64)), RuntimeError,
     "index_add_(): self (Float) and source (Double) must have the same scalar type"),
    (lambda lib: _x(lib).index_add(0, _i(lib, [-1]), lib.ones(1, 4)), RuntimeError,
     "index -1 is out of bounds for dimension 0 with size 3"),
    (lambda lib: _x(lib).index_fill(0, _i(lib, [5]), 1.0), IndexError,
     "index 5 is out of bounds for dimension 0 with size 3"),
    (lambda lib: _x(lib).index_add(0, _i(lib, [0.0]), lib.ones(1, 4)), RuntimeError,
     "index_add_(): Expected dtype int32/int64 for index but got: Float"),
    (lambda lib: _x(lib).index_add(0, _i(lib, [[0]]), lib.ones(1, 4)), IndexError,
     "index_add_(): Index is supposed to be a vector, but got dim: 2 with type: Long and size: [1, 1]"),
    (lambda lib: _x(lib).index_fill(0, _i(lib, [0.0]), 1.0), IndexError,
     "index_fill_(): Expected dtype int64 for index."),
    (lambda lib: _x(lib).index_fill(0, lib.tensor([0], dtype=lib.int32), 1.0), IndexError,
     "index_fill_(): Expected dtype int64 for index."),
    (lambda lib: _x(lib).index_fill(0, _i(lib, [[0]]), 1.0), RuntimeError, "Index has to be a vector/scalar"),
    (lambda lib: _x(lib).index_fill(0, _i(lib, [0]), lib.ones(2)), RuntimeError,
     "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s)."),
    (lambda lib: _x(lib).scatter_add(0, _i(lib, [[0.0]]), _x(lib)), RuntimeError,
     "scatter(): Expected dtype int32/int64 for index"),
    (lambda lib: _x(lib).gather(0, lib.tensor([[0]], dtype=lib.int16)), RuntimeError,
     "gather(): Expected dtype int32/int64 for index"),
    (lambda lib: _x(lib).masked_select(lib.ones(3, 4)), RuntimeError, "masked_select: expected BoolTensor for mask"),
    (lambda lib: _x(lib).masked_select(lib.ones(2, 4, dtype=lib.bool)), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    (lambda lib: _x(lib).take(_i(lib, [12])), IndexError, "out of range: tried to access index 12 on a tensor of 12 "
     "elements."),
    (lambda lib: _x(lib).take(_i(lib, [-13])), IndexError, "out of range: tried to access index -13 on a tensor of "
     "12 elements."),
    (lambda lib: _x(lib).take(_i(lib, [1.0])), RuntimeError, "take(): Expected a long tensor for index, but got Float"),
    (lambda lib: _x(lib).split(0), RuntimeError,
     "split_size can only be 0 if dimension size is 0, but got dimension size of 3"),
    (lambda lib: _x(lib).split([1, 2], 1), RuntimeError,
     "split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size at dimension 1), but got "
     "split_sizes=[1, 2]"),
    (lambda lib: _x(lib).split(2, 5), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got "
     "5)"),
    (lambda lib: _x(lib).chunk(0), RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0"),
    (lambda lib: _x(lib).flip(0, 0), RuntimeError, "dim 0 appears multiple times in the list of dims"),
    (lambda lib: _x(lib).flip(), TypeError, 'flip() missing 1 required positional arguments: "dims"'),
    (lambda lib: lib.arange(3.0).fliplr(), RuntimeError, "Input must be >= 2-d."),
    (lambda lib: lib.tensor(1.0).flipud(), RuntimeError, "Input must be >= 1-d."),
    (lambda lib: _x(lib).roll(1, (0, 1)), RuntimeError, "shifts and dimensions must align. shifts: 1, dims:2"),
    (lambda lib: _x(lib).roll((1, 2)), RuntimeError, "shifts and dimensions must align. shifts: 2, dims:0"),
    (lambda lib: _x(lib).roll(1, 3), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got "
     "3)"),
    (lambda lib: _x(lib).rot90(1, [0]), RuntimeError, "expected total rotation dims == 2, but got dims = 1"),
    (lambda lib: _x(lib).rot90(1, [0, 0]), RuntimeError,
     "expected rotation dims to be different, but got dim0 = 0 and dim1 = 0"),
    (lambda lib: lib.arange(3.0).rot90(), RuntimeError, "expected total dims >= 2, but got total dims = 1"),
    (lambda lib: _x(lib).repeat_interleave(-1), RuntimeError, "Repeats must be non-negative"),
    (lambda lib: _x(lib).repeat_interleave(_i(lib, [1, 2]), dim=0), RuntimeError,
     "repeats must have the same size as input along dim, but got repeats.size(0) = 2 and input.size(0) = 3"),
    (lambda lib: _x(lib).broadcast_to(3, 5), RuntimeError,
     "The expanded size of the tensor (5) must match the existing size (4) at non-singleton dimension 1.  Target "
     "sizes: [3, 5].  Tensor sizes: [3, 4]"),
    (lambda lib: _x(lib).unflatten(1, (2, 3)), RuntimeError,
     "unflatten: Provided sizes [2, 3] don't multiply up to the size of dim 1 (4) in the input tensor"),
    (lambda lib: _x(lib).movedim((0, 1), (1,)), RuntimeError,
     "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same number of dims as "
     "destination ([1] dims)"),
    (lambda lib: lib.arange(3.0).tril(), RuntimeError, "tril: input tensor must have at least 2 dimensions"),
    (lambda lib: lib.arange(3.0).triu(), RuntimeError, "triu: input tensor must have at least 2 dimensions"),
    (lambda lib: lib.ones(2, 2, 2).diag(), RuntimeError, "diag(): Supports 1D or 2D tensors. Got 3D"),
    (lambda lib: lib.tensor(3.0).diag(), RuntimeError, "diag(): Supports 1D or 2D tensors. Got 0D"),
    (lambda lib: _x(lib).diagonal(0, 1, 1), RuntimeError, "diagonal dimensions cannot be identical 1, 1"),
    (lambda lib: lib.ones(2, 2, 2).trace(), RuntimeError, "trace: expected a matrix, but got tensor with dim 3"),
    (lambda lib: lib.ones(2, 2, dtype=lib.bool).trace(), NotImplementedError, "\"trace\" not implemented for 'Bool'"),
    (lambda lib: lib.hstack([]), RuntimeError, "hstack expects a non-empty TensorList"),
    (lambda lib: lib.vstack([]), RuntimeError, "vstack expects a non-empty TensorList"),
    (lambda lib: lib.meshgrid(lib.ones(2), indexing="foo"), RuntimeError,
     'tinygrad_edu.meshgrid: indexing must be one of "xy" or "ij", but received: foo'),
    (lambda lib: lib.empty(), TypeError, 'empty() missing 1 required positional arguments: "size"'),
    (lambda lib: _x(lib).stride(5), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got "
     "5)"),
    (lambda lib: _x(lib).narrow(1, 3, 2), RuntimeError, "start (3) + length (2) exceeds dimension size (4)."),
    (lambda lib: _x(lib).select(1, 4), IndexError,
     "select(): index 4 out of range for tensor of size [3, 4] at dimension 1"),
    (lambda lib: _x(lib).select(1, -5), IndexError,
     "select(): index -5 out of range for tensor of size [3, 4] at dimension 1"),
    (lambda lib: lib.tensor(1.0).select(0, 0), IndexError, "select() cannot be applied to a 0-dim tensor."),
    (lambda lib: _x(lib).narrow(1, -5, 2), IndexError,
     "start out of range (expected to be in range of [-4, 4], but got -5)"),
    (lambda lib: _x(lib).narrow(1, 1, -1), RuntimeError, "narrow(): length must be non-negative."),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_as_pytorch(case: int) -> None:
    raises(*ERRORS[case])


def test_scatter_from_a_larger_src_fails_in_backward_as_in_pytorch() -> None:
    """Only index's part of src is used; PyTorch's gradient formula for src then has index's shape, and its
    engine refuses it. The forward pass works."""
    def run(lib: ModuleType) -> Any:
        x = _x(lib)
        src = x[:, 1:] * 3  # 3 columns, of which index uses one
        out = x.clone().scatter_(1, _i(lib, [[0], [3], [1]]), src)
        out.sum().backward()

    raises(run, RuntimeError,
           "Function ScatterBackward0 returned an invalid gradient at index 1 - got [3, 1] but expected shape "
           "compatible with [3, 3]")


# ------------------------------------------------------------------------------------------------ views, in place
def test_split_chunk_and_diagonal_give_views_that_share_memory() -> None:
    """Writing through a piece writes into x (and bumps the version counter they share)."""
    def run(lib: ModuleType) -> Any:
        x = lib.arange(12.0).reshape(3, 4)
        rest = x.split([1, 3], 1)[1]
        rest[0, 0] = 100.0
        halves = x.chunk(2)
        x.diagonal().fill_(-1.0)
        return x, x._version, rest._version, [h.shape for h in halves], x.diagonal(1), x.narrow(0, 1, 2).flip(0)

    as_pytorch(run, (None, "(tensor([[ -1., 100.,   2.,   3.],\n        [  4.,  -1.,   6.,   7.],\n        "
                           "[  8.,   9.,  -1.,  11.]]), 2, 2, [tinygrad_edu.Size([2, 4]), tinygrad_edu.Size([1, 4])], "
                           "tensor([100.,   6.,  11.]), tensor([[ 8.,  9., -1., 11.],\n        [ 4., -1.,  6.,  7.]]))",
                     []))


def test_chunk_may_give_fewer_pieces() -> None:
    """chunk cuts pieces of ceil(size / chunks): 6 elements in 4 chunks are 3 pieces of 2."""
    as_pytorch(lambda lib: [t.tolist() for t in lib.arange(6).chunk(4)] + [t.tolist() for t in lib.arange(5).chunk(3)],
               (None, "[[0, 1], [2, 3], [4, 5], [0, 1], [2, 3], [4]]", []))


@pytest.mark.parametrize("op", ["scatter_", "scatter_add_", "index_add_", "index_fill_", "tril_", "triu_"])
def test_in_place_forms_record_the_same_node(op: str) -> None:
    args = {"scatter_": (1, [[0], [2]], 5.0), "scatter_add_": (1, [[0, 0], [2, 1]], "src"),
            "index_add_": (0, [1], "src1"), "index_fill_": (1, [0, 2], 5.0), "tril_": (), "triu_": (1,)}[op]

    def run(lib: ModuleType) -> Any:
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        y = x * 1
        src = {"src": x[:, :2] * 2, "src1": x[:1] * 2}
        a = [lib.tensor(v) if isinstance(v, list) else src.get(v, v) for v in args]
        y2 = getattr(y, op)(*a)
        y.sum().backward()
        return y2 is y, y, x.grad

    expected = {
        "scatter_": "(True, tensor([[5., 2., 3.],\n        [4., 5., 5.]], grad_fn=<ScatterBackward1>), "
                    "tensor([[0., 1., 1.],\n        [1., 1., 0.]]))",
        "scatter_add_": "(True, tensor([[ 7.,  2.,  3.],\n        [ 4., 15., 14.]], grad_fn=<ScatterAddBackward0>), "
                        "tensor([[3., 3., 1.],\n        [3., 3., 1.]]))",
        "index_add_": "(True, tensor([[ 1.,  2.,  3.],\n        [ 6.,  9., 12.]], grad_fn=<IndexAddBackward0>), "
                      "tensor([[3., 3., 3.],\n        [1., 1., 1.]]))",
        "index_fill_": "(True, tensor([[5., 2., 5.],\n        [5., 5., 5.]], grad_fn=<IndexFillBackward0>), "
                       "tensor([[0., 1., 0.],\n        [0., 1., 0.]]))",
        "tril_": "(True, tensor([[1., 0., 0.],\n        [4., 5., 0.]], grad_fn=<TrilBackward0>), "
                 "tensor([[1., 0., 0.],\n        [1., 1., 0.]]))",
        "triu_": "(True, tensor([[0., 2., 3.],\n        [0., 0., 6.]], grad_fn=<TriuBackward0>), "
                 "tensor([[0., 1., 1.],\n        [0., 0., 1.]]))",
    }[op]
    as_pytorch(run, (None, expected, []))


# ------------------------------------------------------------------------------------------------ more of each op
def test_where_method_with_a_number_and_integer_ops() -> None:
    """``x.where(cond, other)`` is ``where(cond, x, other)``; the index ops keep integer dtypes (no gradient)."""
    def run(lib: ModuleType) -> Any:
        i = lib.tensor([[1, 2, 3], [4, 5, 6]])
        return (i.where(i > 2, 0.5), i.gather(1, lib.tensor([[2], [0]], dtype=lib.int32)), i.flip(1), i.trace(),
                i.tril(), i.repeat_interleave(2), i.index_select(1, lib.tensor([2, 2], dtype=lib.int32)))

    as_pytorch(run, (None, "(tensor([[0.5000, 0.5000, 3.0000],\n        [4.0000, 5.0000, 6.0000]]), tensor([[3],\n    "
                           "    [4]]), tensor([[3, 2, 1],\n        [6, 5, 4]]), tensor(6), tensor([[1, 0, 0],\n        "
                           "[4, 5, 0]]), tensor([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]), tensor([[3, 3],\n        [6, "
                           "6]]))", []))


def test_meshgrid_warns_once_without_indexing_and_accepts_a_list() -> None:
    def run(lib: ModuleType) -> Any:
        return lib.meshgrid(lib.tensor([1, 2]), lib.tensor([3, 4, 5]))

    expected = ("(tensor([[1, 1, 1],\n        [2, 2, 2]]), tensor([[3, 4, 5],\n        [3, 4, 5]]))",
                "(tensor([[1, 2, 3],\n        [1, 2, 3]]), tensor([[4, 4, 4],\n        [5, 5, 5]]))")
    warning = "UserWarning: tinygrad_edu.meshgrid: in an upcoming release, it will be required to pass the indexing " \
              "argument."
    first = as_pytorch(run)  # PyTorch warns once per process: maybe here, maybe already earlier
    assert first[:2] == (None, expected[0]) and first[2] in ([], [warning])
    as_pytorch(run, (None, expected[0], []))  # never twice
    as_pytorch(lambda lib: lib.meshgrid([lib.tensor([1, 2, 3]), lib.tensor([4, 5])], indexing="xy"),
               (None, expected[1], []))


def test_unique_sorts_counts_and_has_no_derivative() -> None:
    def run(lib: ModuleType) -> Any:
        x = lib.tensor([3.0, 1.0, 3.0, 2.0], requires_grad=True)
        m = lib.tensor([[1, 2], [1, 2], [0, 5]])
        return (x.unique(), lib.unique(x, return_inverse=True, return_counts=True), m.unique(dim=0, return_counts=True),
                m.unique(return_inverse=True))

    as_pytorch(run, (None, "(tensor([1., 2., 3.], grad_fn=<Unique2Backward0>), (tensor([1., 2., 3.], "
                           "grad_fn=<Unique2Backward0>), tensor([2, 0, 2, 1]), tensor([1, 1, 2])), "
                           "(tensor([[0, 5],\n        [1, 2]]), tensor([1, 2])), (tensor([0, 1, 2, 5]), "
                           "tensor([[1, 2],\n        [1, 2],\n        [0, 3]])))", []))
    raises(lambda lib: lib.tensor([3.0, 1.0], requires_grad=True).unique().sum().backward(), NotImplementedError,
           "the derivative for '_unique2' is not implemented.")
    raises(lambda lib: lib.tensor([[3.0, 1.0]], requires_grad=True).unique(dim=0).sum().backward(),
           NotImplementedError, "the derivative for 'unique_dim' is not implemented.")


# ------------------------------------------------------------------------------------------------ factories
def test_new_factories_take_the_dtype_of_the_tensor() -> None:
    def run(lib: ModuleType) -> Any:
        i, f = lib.tensor([1, 2]), lib.tensor([1.0], dtype=lib.float64)
        return (i.new_tensor([1.5, 2.7]), f.new_zeros(2, 3), f.new_ones((2,)), i.new_full((2,), 7),
                f.new_full([1, 2], 7), i.new_zeros(2, dtype=lib.float32), f.new_ones(1, requires_grad=True),
                i.new_empty(2, 3).shape, f.new_empty((1,)).dtype)

    as_pytorch(run, (None, "(tensor([1, 2]), tensor([[0., 0., 0.],\n        [0., 0., 0.]], "
                           "dtype=tinygrad_edu.float64), tensor([1., 1.], dtype=tinygrad_edu.float64), tensor([7, 7]), "
                           "tensor([[7., 7.]], dtype=tinygrad_edu.float64), tensor([0., 0.]), tensor([1.], "
                           "dtype=tinygrad_edu.float64, "
                           "requires_grad=True), tinygrad_edu.Size([2, 3]), tinygrad_edu.float64)", []))


def test_new_tensor_from_a_tensor_copies_and_warns() -> None:
    def run(lib: ModuleType) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.new_tensor(x)
        y[0] = 5.0
        return x, y

    as_pytorch(run, (None, "(tensor([1., 2.], requires_grad=True), tensor([5., 2.]))",
                     ["UserWarning: To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), rather "
                      "than tensor.new_tensor(sourceTensor)."]))


def test_empty_and_empty_like_give_the_shape_and_dtype_asked_for() -> None:
    """Their values are unspecified in PyTorch (whatever memory held): only shape, dtype and flags compare."""
    def run(lib: ModuleType) -> Any:
        x = lib.ones(2, 3, dtype=lib.float64)
        ts = (lib.empty(2, 3), lib.empty((4,), dtype=lib.int64), lib.empty_like(x), lib.empty_like(x, dtype=lib.int32),
              lib.empty(2, requires_grad=True))
        return [(t.shape, t.dtype, t.requires_grad) for t in ts]

    as_pytorch(run, (None, "[(tinygrad_edu.Size([2, 3]), tinygrad_edu.float32, False), (tinygrad_edu.Size([4]), "
                           "tinygrad_edu.int64, False), (tinygrad_edu.Size([2, 3]), tinygrad_edu.float64, False), "
                           "(tinygrad_edu.Size([2, 3]), tinygrad_edu.int32, False), (tinygrad_edu.Size([2]), "
                           "tinygrad_edu.float32, True)]", []))


# ------------------------------------------------------------------------------------------------ memory layout
def test_strides_and_storage_offsets_count_elements_as_in_pytorch() -> None:
    """A 3x4 tensor steps 4 elements per row and 1 per column; its transpose reads the same memory the other way
    round; an expanded dim steps 0; ``x[1, 1:]`` starts 5 elements into the storage."""
    def run(lib: ModuleType) -> Any:
        x = lib.arange(12.0).reshape(3, 4)
        v = x[1, 1:]
        return (x.stride(), x.t().stride(), x.stride(-1), x[:, 2].stride(), x[0].expand(5, 4).stride(),
                lib.tensor(1.0).stride(), x.storage_offset(), v.storage_offset(), x[:, 2].storage_offset(),
                x.t().is_contiguous(), x.diagonal().stride(), x.split(2, 1)[1].storage_offset())

    as_pytorch(run, (None, "((4, 1), (1, 4), 1, (4,), (0, 1), (), 0, 5, 2, False, (5,), 2)", []))


def test_element_size_nbytes_and_data_ptr() -> None:
    def run(lib: ModuleType) -> Any:
        x = lib.zeros(3, 4)
        sizes = [lib.zeros(1, dtype=d).element_size() for d in (lib.float32, lib.float64, lib.int64, lib.bool,
                                                                 lib.float16, lib.int32)]
        return (sizes, x.nbytes, x.itemsize, x[1:].nbytes, x.data_ptr() == x[0].data_ptr() == x.view(12).data_ptr(),
                x[1].data_ptr() - x.data_ptr(), x.t().data_ptr() == x.data_ptr(), x.clone().data_ptr() == x.data_ptr())

    as_pytorch(run, (None, "([4, 8, 8, 1, 2, 4], 48, 4, 32, True, 16, True, False)", []))
