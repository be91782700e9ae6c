"""Learning-rate schedules (``torch.optim.lr_scheduler`` twin): change ``group["lr"]`` as training goes on.

A large step size makes fast progress early; near a minimum it makes the parameters jump around it. A
scheduler lowers (or warms up, or cycles) each param group's ``lr`` by a rule of the epoch number::

    optimizer = optim.SGD(model.parameters(), lr=0.1)
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=30, gamma=0.1)
    for epoch in range(100):
        train_one_epoch(...)      # zero_grad, forward, backward, optimizer.step(), for every batch
        scheduler.step()          # after optimizer.step(): the next epoch uses the next lr

The timeline: creating the scheduler stores each group's starting lr as ``group["initial_lr"]`` (the
``base_lrs``) and takes step 0 (``last_epoch`` goes from -1 to 0; most rules leave the lr alone there).
Each ``scheduler.step()`` adds one to ``last_epoch`` and writes the new lr into every param group, where the
optimizer reads it on its next ``step()``. ``get_last_lr()`` tells what it wrote.

Most rules are *chainable*: the new lr is computed from the group's **current** lr (``lr <- lr * gamma``),
not from ``base_lrs`` and the epoch (``lr = base_lr * gamma ** epoch``). So two schedulers, or a change of
``group["lr"]`` by hand, combine by multiplication. The two forms agree on paper, not in floating point
(0.1 * 0.9 * 0.9 is not 0.1 * 0.9**2 to the last bit); like PyTorch, ``step()`` uses the chainable form, and
the closed form only when given an epoch (``step(epoch)``, deprecated).
"""

from __future__ import annotations

import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .optimizer import Optimizer

# (ChainedScheduler and CosineAnnealingWarmRestarts are not listed yet: tests/test_lr_scheduler.py pins this list)
__all__ = ["ConstantLR", "CosineAnnealingLR", "ExponentialLR", "LRScheduler", "LambdaLR", "LinearLR", "MultiStepLR",
           "MultiplicativeLR", "OneCycleLR", "ReduceLROnPlateau", "SequentialLR", "StepLR"]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. Please "
    "use `scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. Please open an issue if you are "
    "unable to replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose."
)


class LRScheduler:
    """Base class: a subclass gives ``get_lr()``, the rule that turns the current lrs (or ``base_lrs``) and
    ``last_epoch`` into the next lrs. Its ``state_dict()`` is every attribute but the optimizer, as in PyTorch.

    ``last_epoch`` other than -1 means "resuming": the groups must already hold ``initial_lr`` (from a loaded
    optimizer state), and the scheduler starts from there.
    """

    _get_lr_called_within_step = False  # get_lr() called by hand warns: get_last_lr() is what you want
    _is_initial = False  # True during the step taken by the constructor
    _not_saved: tuple[str, ...] = ("optimizer", "_optimizer_steps_at_start")

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])  # a second scheduler keeps the first one's
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                        "last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume training from a "
                        "checkpoint but haven't properly loaded the optimizer state\n2. You're using last_epoch >= 0 "
                        "for a fresh training run (not recommended)")
        self.base_lrs: list[float] = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        # the optimizer counts its step() calls: if the count has not moved when this scheduler first steps,
        # scheduler.step() came first (see step())
        self._optimizer_steps_at_start = optimizer._steps_taken
        self._initial_step()

    def _initial_step(self) -> None:
        """The constructor's step: to epoch 0 (or, resuming at ``last_epoch`` = k, to k + 1)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def step(self, epoch: int | None = None) -> None:
        """Move to the next epoch and write its lr into every param group. Call it after ``optimizer.step()``.
        ``epoch`` (deprecated) jumps to that epoch, with the closed-form rule where there is one."""
        if self._step_count == 1 and self.optimizer._steps_taken == self._optimizer_steps_at_start:
            # the first call after the constructor's: the optimizer has not stepped yet, so the first lr of
            # the schedule (set by the constructor) is never used
            warnings.warn(
                "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you "
                "should call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure "
                "to do this will result in PyTorch skipping the first value of the learning rate schedule. See more "
                "details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            group["lr"] = lr
        self._last_lr: list[float] = _lrs(self.optimizer)

    def get_lr(self) -> list[float]:
        """The lrs for ``last_epoch``, one per param group (``step()`` calls it; to read the lr, use
        ``get_last_lr()``)."""
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The lrs the last ``step()`` wrote, one per param group."""
        return self._last_lr

    def _warn_unless_in_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=3)

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to resume the schedule: each attribute but the optimizer (save the optimizer's
        own ``state_dict()`` next to it)."""
        return {key: value for key, value in self.__dict__.items() if key not in self._not_saved}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Resume from ``state_dict()``: the next ``step()`` continues the schedule where it was saved."""
        self.__dict__.update(state_dict)


class _LRScheduler(LRScheduler):
    """The old name of ``LRScheduler``, kept (as in PyTorch) for code that subclasses it."""


def _lrs(optimizer: Optimizer) -> list[float]:
    return [group["lr"] for group in optimizer.param_groups]


def _per_group(name: str, optimizer: Optimizer, value: Any) -> list[Any]:
    """One value per param group: a list or tuple must have one per group; a single value is repeated."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. {name} has {len(value)} "
                             f"values, param_groups has {len(optimizer.param_groups)}.")
        return list(value)
    return [value] * len(optimizer.param_groups)


def _lambdas(optimizer: Optimizer, lr_lambda: Callable[[int], float] | Sequence[Callable[[int], float]],
             ) -> list[Callable[[int], float]]:
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
    return list(lr_lambda)


class _LambdaScheduler(LRScheduler):
    """A scheduler holding functions. In its state_dict a plain function or lambda cannot be saved (``None``
    in its place); a callable object saves its attributes."""

    lr_lambdas: list[Callable[[int], float]]

    def state_dict(self) -> dict[str, Any]:
        state = super().state_dict()
        del state["lr_lambdas"]
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state = dict(state_dict)  # the caller's dict is left as it was
        saved = state.pop("lr_lambdas")
        self.__dict__.update(state)
        for fn, attributes in zip(self.lr_lambdas, saved):
            if attributes is not None:
                fn.__dict__.update(attributes)


class LambdaLR(_LambdaScheduler):
    """Any rule as a function of the epoch: ``lr = base_lr * lr_lambda(epoch)``.

    ``lr_lambda`` is one function for every group or a list with one per group. Not chainable (it starts from
    ``base_lr`` each time). A linear warm-up over 5 epochs: ``lr_lambda=lambda epoch: min(1.0, (epoch + 1) / 5)``.
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable[[int], float] | Sequence[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_unless_in_step()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs, strict=True)]


class MultiplicativeLR(_LambdaScheduler):
    """A factor per epoch, from a function: ``lr <- lr * lr_lambda(epoch)`` at epochs 1, 2, ...

    With ``lr_lambda=lambda epoch: 0.95`` the lr shrinks by 5% per epoch.
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable[[int], float] | Sequence[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_unless_in_step()
        if self._is_initial:
            return _lrs(self.optimizer)
        return [group["lr"] * fn(self.last_epoch)
                for fn, group in zip(self.lr_lambdas, self.optimizer.param_groups, strict=True)]


class StepLR(LRScheduler):
    """Decay by ``gamma`` every ``step_size`` epochs::

        lr <- lr * gamma        at epochs step_size, 2 * step_size, ...
        (closed form: lr = base_lr * gamma ** (epoch // step_size))

    ``StepLR(optimizer, step_size=30, gamma=0.1)`` with lr 0.05: 0.05 for epochs 0-29, 0.005 for 30-59, ...
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_unless_in_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Decay by ``gamma`` at chosen epochs::

        lr <- lr * gamma ** k    at an epoch that appears k times in milestones
        (closed form: lr = base_lr * gamma ** (number of milestones <= epoch))

    ``MultiStepLR(optimizer, milestones=[30, 80], gamma=0.1)``: lr, then lr / 10 from epoch 30, lr / 100 from
    epoch 80. The milestones are counted, not checked for order (as in PyTorch).
    """

    def __init__(self, optimizer: Optimizer, milestones: Iterable[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_unless_in_step()
        if self.last_epoch not in self.milestones:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch] for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """A lower lr for the first ``total_iters`` epochs, then the full one (a simple warm-up)::

        lr <- lr * factor        at epoch 0
        lr <- lr * (1 / factor)  at epoch total_iters
        (closed form: lr = base_lr * factor before total_iters, base_lr from then on)
    """

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_unless_in_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return _lrs(self.optimizer)
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """The factor on ``base_lr`` goes in a straight line from ``start_factor`` (epoch 0) to ``end_factor``
    (epoch ``total_iters``), then stays. With s, e the factors and T = total_iters::

        closed form:  lr = base_lr * (s + (e - s) * min(epoch, T) / T)
        chainable:    lr <- lr * (1 + (e - s) / (T * s + (epoch - 1) * (e - s)))   for epochs 1..T

    (the chainable factor is the ratio of two consecutive closed-form values).
    """

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_unless_in_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _lrs(self.optimizer)
        s, e, t = self.start_factor, self.end_factor, self.total_iters
        return [group["lr"] * (1.0 + (e - s) / (t * s + (self.last_epoch - 1) * (e - s)))
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        s, e, t = self.start_factor, self.end_factor, self.total_iters
        return [base_lr * (s + (e - s) * min(t, self.last_epoch) / t) for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Decay by ``gamma`` every epoch::

        lr <- lr * gamma         at epochs 1, 2, ...
        (closed form: lr = base_lr * gamma ** epoch)
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_unless_in_step()
        if self._is_initial:  # resuming at last_epoch = k must not decay once more
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Half a cosine wave from ``base_lr`` down to ``eta_min`` over ``T_max`` epochs (then back up, and so on)::

        closed form:  lr_t = eta_min + (base_lr - eta_min) * (1 + cos(pi * t / T_max)) / 2
        chainable:    lr_t = eta_min + (lr_{t-1} - eta_min) * (1 + cos(pi * t / T_max)) / (1 + cos(pi * (t-1) / T_max))

    Slow at first, fastest half way, slow again near ``eta_min``. The chainable ratio is 0/0 where the wave
    starts to climb back (t = T_max + 1, 3 T_max + 1, ...): there the step adds
    ``(base_lr - eta_min) * (1 - cos(pi / T_max)) / 2`` instead. Resuming (``last_epoch`` given) starts from the
    closed form.
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:  # noqa: N803 (PyTorch's name)
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_unless_in_step()
        t, t_max, eta_min = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return _lrs(self.optimizer)
        if self._step_count == 1 and t > 0:
            return [eta_min + (base_lr - eta_min) * (1 + math.cos(t * math.pi / t_max)) / 2
                    for base_lr in self.base_lrs]
        if (t - 1 - t_max) % (2 * t_max) == 0:
            return [group["lr"] + (base_lr - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                    for base_lr, group in zip(self.base_lrs, self.optimizer.param_groups, strict=True)]
        return [(1 + math.cos(math.pi * t / t_max)) / (1 + math.cos(math.pi * (t - 1) / t_max))
                * (group["lr"] - eta_min) + eta_min for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing that starts again ("warm restart", SGDR: Loshchilov & Hutter, 2017)::

        lr = eta_min + (base_lr - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2

    ``T_cur`` counts the epochs since the last restart; when it reaches the cycle length ``T_i`` the lr jumps back
    to ``base_lr`` and the next cycle is ``T_mult`` times longer (``T_0``, ``T_0 * T_mult``, ...). ``step(epoch)``
    may be given a fractional epoch (e.g. ``epoch + i / iters``) to anneal within an epoch, batch by batch.
    """

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0,  # noqa: N803
                 last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}")
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_unless_in_step()
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch: float | None = None) -> None:
        """The next epoch, or ``epoch`` (which may be fractional): find the cycle it falls in and its place there."""
        self._step_count += 1
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:  # end of a cycle: restart, with a longer one
                self.T_cur %= self.T_i
                self.T_i *= self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:  # cycles T_0, T_0 m, T_0 m**2 ...: epoch falls in cycle n, where T_0 (m**n - 1) / (m - 1) <= epoch
                n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult**n
        else:
            self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            group["lr"] = lr
        self._last_lr = _lrs(self.optimizer)


def _check_schedulers(name: str, optimizer: Optimizer, schedulers: Sequence[LRScheduler], none: str) -> None:
    """What SequentialLR and ChainedScheduler ask of their schedulers: some, each of the same optimizer."""
    if len(schedulers) < 1:
        raise ValueError(f"{name} expects at least one scheduler{none}, but got no scheduler.")
    for i, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {i} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(f"{name} does not support `ReduceLROnPlateau` scheduler as it requires additional "
                             "kwargs to be specified when calling `step`, but got one at index "
                             f"{i} in the given schedulers sequence.")
        if optimizer != scheduler.optimizer:
            raise ValueError(f"{name} expects all schedulers to belong to the same optimizer, but got scheduler "
                             f"{type(scheduler).__name__} at index {i} has {scheduler.optimizer}, which is "
                             f"different from {type(optimizer).__name__}.")


class _OfSchedulers(LRScheduler):
    """A scheduler made of schedulers (ChainedScheduler, SequentialLR): saved as its own attributes, and each inner
    scheduler's state_dict under ``"_schedulers"``."""

    _not_saved = ("optimizer", "_schedulers")  # the inner schedulers are saved by their own state_dict

    def state_dict(self) -> dict[str, Any]:
        """Its own attributes, and each inner scheduler's state_dict under ``"_schedulers"``."""
        state = super().state_dict()
        state["_schedulers"] = [scheduler.state_dict() for scheduler in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state = dict(state_dict)
        inner = state.pop("_schedulers")
        self.__dict__.update(state)
        for scheduler, saved in zip(self._schedulers, inner):
            scheduler.load_state_dict(saved)


class ChainedScheduler(_OfSchedulers):
    """Several schedulers at once: each ``step()`` steps every one of them, in order, so their (chainable) factors
    multiply, e.g. a constant warm-up factor for 2 epochs times an exponential decay."""

    def __init__(self, schedulers: Sequence[LRScheduler], optimizer: Optimizer | None = None) -> None:
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler to be chained, but got no "
                             "scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check_schedulers(type(self).__name__, optimizer, schedulers, " to be chained")
        self._schedulers = list(schedulers)
        self.optimizer = optimizer
        self._last_lr = _lrs(self._schedulers[-1].optimizer)

    def step(self) -> None:  # type: ignore[override]
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = _lrs(self._schedulers[-1].optimizer)


class SequentialLR(_OfSchedulers):
    """One scheduler after another: ``schedulers[i]`` runs from ``milestones[i-1]`` until ``milestones[i]``.

    A warm-up then a decay: ``SequentialLR(opt, [LinearLR(opt, 0.1, total_iters=5), ExponentialLR(opt, 0.9)],
    milestones=[5])``. At a milestone the next scheduler starts at its own epoch 0 (from ``base_lrs``, by its
    closed form).
    """

    def __init__(self, optimizer: Optimizer, schedulers: list[LRScheduler], milestones: list[int],
                 last_epoch: int = -1) -> None:
        _check_schedulers(type(self).__name__, optimizer, schedulers, "")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be one more than the "
                             f"number of milestone points, but got number of schedulers {len(schedulers)} and the "
                             f"number of milestones to be equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # each scheduler took its step 0 when created: undo all that, and take step 0 of the first one only
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        self.recursive_undo()
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def recursive_undo(self, sched: Any = None) -> None:
        """Take back the step each scheduler (nested ones too) took when it was created."""
        sched = self if sched is None else sched
        if hasattr(sched, "_schedulers"):
            for inner in sched._schedulers:
                self.recursive_undo(inner)
        elif hasattr(sched, "last_epoch"):
            sched.last_epoch -= 1

    def step(self) -> None:  # type: ignore[override]
        """Step the scheduler whose turn it is (at a milestone, start the next one at its epoch 0)."""
        self.last_epoch += 1
        i = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[i]
        if i > 0 and self._milestones[i - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ReduceLROnPlateau(LRScheduler):
    """Lower the lr when a measured quantity stops improving: ``scheduler.step(val_loss)`` once per epoch.

    A value is an *improvement* when it beats the best so far by the threshold::

        mode="min", threshold_mode="rel":  value < best * (1 - threshold)
        mode="min", threshold_mode="abs":  value < best - threshold
        mode="max", threshold_mode="rel":  value > best * (1 + threshold)
        mode="max", threshold_mode="abs":  value > best + threshold

    After more than ``patience`` epochs in a row without one: ``lr <- max(lr * factor, min_lr)`` (skipped if
    that changes lr by ``eps`` or less), then ``cooldown`` epochs in which bad epochs are not counted.
    It reacts to data, not to the epoch number: it has no ``get_lr`` and no ``base_lrs``.
    """

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0,
                 min_lr: Sequence[float] | float = 0, eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(f"expected {len(optimizer.param_groups)} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = _lrs(optimizer)
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _reset(self) -> None:
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def _init_is_better(self, mode: str, threshold: float, threshold_mode: str) -> None:
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf  # anything beats it
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def _is_better(self, a: float, best: float) -> bool:
        """Whether ``a`` is an improvement on ``best`` (the table above)."""
        if self.mode == "min":
            return a < (best * (1.0 - self.threshold) if self.threshold_mode == "rel" else best - self.threshold)
        return a > (best * (self.threshold + 1.0) if self.threshold_mode == "rel" else best + self.threshold)

    def step(self, metrics: Any, epoch: int | None = None) -> None:  # type: ignore[override]
        """Record this epoch's value of the watched quantity (a number or a one-element tensor)."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs during the cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = _lrs(self.optimizer)

    def _reduce_lr(self) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):  # a group was added since
            if self.default_min_lr is None:
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` ({len(groups)}) differs from when "
                    f"`ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually due to a new param group "
                    "being added to the optimizer. Please modify the `min_lrs` field to match the length of the "
                    "`optimizer` param groups.")
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, min_lr in zip(groups, self.min_lrs):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, min_lr)
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)


class OneCycleLR(LRScheduler):
    """The "1cycle" policy, stepped once per **batch**: up from ``max_lr / div_factor`` to ``max_lr`` over the
    first ``pct_start`` of ``total_steps``, then down to ``initial_lr / final_div_factor``. Within a phase
    from ``start`` to ``end``, with p the fraction of the phase done::

        anneal_strategy="cos":     lr = end + (start - end) / 2 * (cos(pi * p) + 1)
        anneal_strategy="linear":  lr = start + (end - start) * p

    With ``cycle_momentum`` the momentum (or Adam's beta1) moves the opposite way, between ``max_momentum``
    and ``base_momentum``. ``three_phase=True`` goes back down to ``initial_lr`` symmetrically, then to the
    minimum. Not chainable: each lr comes from the phase ends stored in the param groups.
    """

    def __init__(self, optimizer: Optimizer, max_lr: float | Sequence[float], total_steps: int | None = None,
                 epochs: int | None = None, steps_per_epoch: int | None = None, pct_start: float = 0.3,
                 anneal_strategy: str = "cos", cycle_momentum: bool = True,
                 base_momentum: float | Sequence[float] = 0.85, max_momentum: float | Sequence[float] = 0.95,
                 div_factor: float = 25.0, final_div_factor: float = 1e4, three_phase: bool = False,
                 last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        # each phase: the step it ends at, and which group keys hold its start and end lr and momentum
        up = {"end_step": float(pct_start * self.total_steps) - 1, "start_lr": "initial_lr", "end_lr": "max_lr",
              "start_momentum": "max_momentum", "end_momentum": "base_momentum"}
        if three_phase:
            self._schedule_phases = [
                up,
                {"end_step": float(2 * pct_start * self.total_steps) - 2, "start_lr": "max_lr",
                 "end_lr": "initial_lr", "start_momentum": "base_momentum", "end_momentum": "max_momentum"},
                {"end_step": self.total_steps - 1, "start_lr": "initial_lr", "end_lr": "min_lr",
                 "start_momentum": "max_momentum", "end_momentum": "max_momentum"}]
        else:
            self._schedule_phases = [
                up,
                {"end_step": self.total_steps - 1, "start_lr": "max_lr", "end_lr": "min_lr",
                 "start_momentum": "base_momentum", "end_momentum": "max_momentum"}]
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for group, top in zip(optimizer.param_groups, max_lrs):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            max_momentums = _per_group("max_momentum", optimizer, max_momentum)
            base_momentums = _per_group("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for group, top, bottom in zip(optimizer.param_groups, max_momentums, base_momentums, strict=True):
                    self._set_momentum(group, top)
                    group["max_momentum"] = top
                    group["base_momentum"] = bottom
        super().__init__(optimizer, last_epoch)

    def _set_momentum(self, group: dict[str, Any], value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list[float]:
        self._warn_unless_in_step()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total steps is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step - start_step) / (end_step - start_step)
                    lrs.append(self._anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        self._set_momentum(group, self._anneal(group[phase["start_momentum"]],
                                                               group[phase["end_momentum"]], pct))
                    break
                start_step = end_step
        return lrs
