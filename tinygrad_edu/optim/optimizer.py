"""``Optimizer``: the base of SGD and Adam.

An optimizer holds the parameters to train, in *param groups* (each a dict: ``params`` plus options
like ``lr``; options not given in a group come from ``defaults``), and a ``state`` dict per parameter
(momentum buffers, running averages). A training step is::

    optimizer.zero_grad()    # backward *adds* into .grad, so forget the last step's gradients
    loss = loss_fn(model(x), y)
    loss.backward()          # fills p.grad for every parameter
    optimizer.step()         # p <- p - lr * (something made of p.grad)

``step`` changes each parameter *in place*: the same Parameter objects (which the model holds) get
new numbers. That happens outside autograd: the update must not become part of any graph.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.grad_mode import enable_grad, no_grad
from ..nn.module import typename, zero_grad_
from ._ops import add


class Optimizer:
    """Base class: subclasses give ``defaults`` and ``_update`` (the rule for one parameter)."""

    _steps_taken = 0  # step() calls so far: a learning-rate scheduler checks that step() ran before its own

    def __init__(self, params: Iterable[Tensor] | Iterable[dict], defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {typename(params)}")
        groups = list(params)  # a generator such as model.parameters() can be read only once
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add parameters with their own options, e.g. ``{"params": head.parameters(), "lr": 0.1}``."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        param_group["params"] = params = list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {typename(p)}")
            if not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        if len(set(params)) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          UserWarning, stacklevel=3)
        for group in self.param_groups:
            if not set(group["params"]).isdisjoint(params):
                raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's gradient: to None (the default), or to zeros in place."""
        zero_grad_((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient, in place. ``closure`` (optional) recomputes and
        returns the loss first; its value is returned."""
        self._steps_taken += 1
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p._grad is None:  # no gradient reached it (or zero_grad set it to None): leave it
                        continue
                    self._update(p, p._grad._array, self.state[p], group)
                    p._version_counter[0] += 1  # an in-place change: graphs that saved p will notice
        return loss

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to resume training later, as PyTorch lays it out (save it with the model's
        ``state_dict()``): ``"state"``, each parameter's buffers keyed by the parameter's position across the
        groups (0, 1, ...), and ``"param_groups"``, each group's options with those positions as ``"params"``.
        The buffers are the optimizer's own tensors, not copies."""
        position: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            packed["params"] = [position.setdefault(id(p), len(position)) for p in group["params"]]
            groups.append(packed)
        state = {position[id(p)]: buffers for p, buffers in self.state.items() if id(p) in position}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Resume from ``state_dict()``: the groups' options and the buffers, matched to this optimizer's
        parameters by position (so the model must have the same parameters, in the same order)."""
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(saved["params"]) != len(group["params"]) for saved, group in zip(groups, self.param_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's "
                             "group")
        parameter = {i: p for saved, group in zip(groups, self.param_groups) for i, p in zip(saved["params"],
                                                                                              group["params"])}
        self.state = defaultdict(dict)
        for i, buffers in state_dict["state"].items():
            p = parameter[i]
            self.state[p] = {key: _as_buffer(value, p, key) for key, value in buffers.items()}
        for saved, group in zip(groups, self.param_groups):
            group.update({key: value for key, value in saved.items() if key != "params"})

    def _update(self, p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        """Change ``p._array`` in place, from its gradient ``grad``. Subclasses implement the rule."""
        raise NotImplementedError

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            text += "".join(f"    {key}: {group[key]}\n" for key in sorted(group) if key != "params")
        return text + ")"


def _as_buffer(value: Any, p: Tensor, key: str) -> Any:
    """A loaded buffer in its parameter's dtype (the step count keeps its own). As in PyTorch, a buffer that
    already has that dtype is used as it is, not copied: load from a fresh ``state_dict`` (or from disk) when
    the optimizer that made it is still training."""
    if not isinstance(value, Tensor) or key == "step" or value._array.dtype.kind != "f" \
            or value._array.dtype == p._array.dtype:
        return value
    return _wrap(value._array.astype(p._array.dtype))


def check_flags(differentiable: bool) -> None:
    """PyTorch's ``foreach``/``fused`` only choose faster kernels (accepted, no effect here: numpy updates
    whole arrays at once). ``differentiable=True`` would need the update recorded in the graph."""
    if differentiable:
        raise NotImplementedError("tinygrad_edu's optimizers update parameters in place with numpy: "
                                  "differentiable=True is not supported")


def begin_step(p: Tensor, grad: np.ndarray, state: dict[str, Any], group: dict[str, Any], *buffers: str,
               **initial: np.ndarray) -> tuple[np.ndarray, float]:
    """How the adaptive optimizers (Adam and its relatives, Adadelta) begin a parameter's step. On the first, its
    state: ``step``, the ``initial`` values, then the named ``buffers`` as zeros of p's shape (the order a
    state_dict shows). Then the step is counted, the gradient negated for ``maximize``, and weight decay applied:
    wd * p added to the gradient, or, with ``decoupled_weight_decay``, p itself shrunk by lr * wd * p (AdamW's way).
    Returns the gradient to use and the step number t (1, 2, ...)."""
    if not state:
        state["step"] = _wrap(np.array(0.0, dtype=np.float32))
        state.update({name: _wrap(value) for name, value in initial.items()})
        state.update({name: _wrap(np.zeros_like(p._array)) for name in buffers})
    g = -grad if group["maximize"] else grad
    state["step"]._array += 1
    if (wd := group["weight_decay"]) != 0:
        if group.get("decoupled_weight_decay"):
            p._array *= p._array.dtype.type(1 - group["lr"] * wd)
        else:
            g = add(g, p._array, alpha=wd)
    return g, float(state["step"]._array)
