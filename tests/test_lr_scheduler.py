"""tinygrad_edu.optim.lr_scheduler against PyTorch: lr sequences to the last bit, resuming, warnings, errors.

Every check runs through ``_oracle.as_pytorch``: the expected values are spelled out here, and PyTorch (when
installed) must give exactly the same (floats compared by their repr, which round-trips every bit).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg
from tinygrad_edu import optim
from tinygrad_edu.optim.lr_scheduler import LRScheduler, ReduceLROnPlateau, StepLR, _LRScheduler

Make = Callable[[Any, Any], Any]  # (ls, optimizer) -> scheduler, where ls is lib.optim.lr_scheduler


def optimizer(lib: ModuleType, lrs: tuple[float, ...] = (0.1,), kind: str = "SGD") -> Any:
    """An optimizer with one param group per lr (parameters without gradients: step() changes nothing)."""
    groups = [{"params": [lib.nn.Parameter(lib.zeros(1))], "lr": lr} for lr in lrs]
    return lib.optim.SGD(groups, momentum=0.9) if kind == "SGD" else getattr(lib.optim, kind)(groups)


def schedule(make: Make, steps: int = 20, lrs: tuple[float, ...] = (0.1,), metrics: list[float] | None = None,
             kind: str = "SGD") -> Callable[[ModuleType], list]:
    """The lrs after construction and after each of ``steps`` epochs (optimizer.step(), then scheduler.step())."""
    def run(lib: ModuleType) -> list:
        opt = optimizer(lib, lrs, kind)
        scheduler = make(lib.optim.lr_scheduler, opt)
        seen = [scheduler.get_last_lr()]
        for epoch in range(steps):
            opt.step()
            scheduler.step() if metrics is None else scheduler.step(metrics[epoch])
            seen.append(scheduler.get_last_lr())
            assert seen[-1] == [group["lr"] for group in opt.param_groups]  # what it reports is what it wrote
        return seen
    return run


def same_lrs(run: Callable[[ModuleType], list]) -> list:
    """Run with both libraries: no error, no warning, the same lrs to the last bit. Ours are returned."""
    kind, text, caught = as_pytorch(run)
    assert (kind, caught) == (None, []), text
    return run(tg)


def first(seen: list, n: int | None = None) -> list[float]:
    """The first group's lr at each epoch."""
    return [lrs[0] for lrs in seen[:n]]


# ---------------------------------------------------------------------------------------------- lr sequences
def test_step_lr() -> None:
    seen = first(same_lrs(schedule(lambda ls, o: ls.StepLR(o, step_size=3, gamma=0.5))))
    assert seen[:10] == [0.1] * 3 + [0.1 * 0.5] * 3 + [0.1 * 0.5 * 0.5] * 3 + [0.1 * 0.5 * 0.5 * 0.5]


def test_multi_step_lr_counts_repeated_milestones_and_does_not_sort_them() -> None:
    seen = first(same_lrs(schedule(lambda ls, o: ls.MultiStepLR(o, milestones=[12, 2, 5, 5], gamma=0.1))))
    assert seen[:6] == [0.1, 0.1, 0.1 * 0.1, 0.1 * 0.1, 0.1 * 0.1, 0.1 * 0.1 * 0.1 ** 2]
    assert seen[12] == seen[5] * 0.1 and seen[13:] == [seen[12]] * 8


def test_exponential_lr_is_chained_not_closed_form() -> None:
    seen = first(same_lrs(schedule(lambda ls, o: ls.ExponentialLR(o, gamma=0.9))))
    assert seen[:4] == [0.1, 0.1 * 0.9, 0.1 * 0.9 * 0.9, 0.1 * 0.9 * 0.9 * 0.9]
    assert seen[3] == 0.07290000000000002 != 0.1 * 0.9**3 == 0.0729  # the two forms part in the last bits
    assert seen == pytest.approx([0.1 * 0.9**k for k in range(21)], rel=1e-14)


def test_lambda_lr_and_multiplicative_lr() -> None:
    seen = same_lrs(schedule(lambda ls, o: ls.LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: 0.5**e]), lrs=(0.1, 1.0)))
    assert seen[:3] == [[0.1, 1.0], [0.1 * (1 / 2), 0.5], [0.1 * (1 / 3), 0.25]]
    seen = first(same_lrs(schedule(lambda ls, o: ls.MultiplicativeLR(o, lambda e: 0.95 if e < 10 else 1.0))))
    assert seen[:3] == [0.1, 0.1 * 0.95, 0.1 * 0.95 * 0.95] and seen[10:] == [seen[9]] * 11


def test_constant_lr_and_linear_lr_warm_up() -> None:
    seen = first(same_lrs(schedule(lambda ls, o: ls.ConstantLR(o, factor=0.5, total_iters=3))))
    assert seen[:5] == [0.1 * 0.5] * 3 + [0.1 * 0.5 * (1 / 0.5)] * 2
    seen = first(same_lrs(schedule(lambda ls, o: ls.LinearLR(o, start_factor=0.25, total_iters=4))))
    assert seen[:6] == [0.025, 0.043750000000000004, 0.06250000000000001, 0.08125000000000002,
                        0.10000000000000002, 0.10000000000000002]  # chained: 0.1 + 2 ulp at the end
    assert seen == pytest.approx([0.1 * (0.25 + 0.75 * min(k, 4) / 4) for k in range(21)], rel=1e-14)


def test_cosine_annealing_lr_down_and_back_up() -> None:
    seen = first(same_lrs(schedule(lambda ls, o: ls.CosineAnnealingLR(o, T_max=10), steps=25)))
    assert seen[:3] == [0.1, 0.09755282581475769, 0.09045084971874738] and seen[10] == 0.0
    assert seen[20] == 0.10000000000000044  # back up after 2 * T_max, with the rounding of 20 chained steps
    closed = [0.5 * 0.1 * (1 + math.cos(math.pi * k / 10)) for k in range(26)]
    assert seen == pytest.approx(closed, rel=1e-11, abs=1e-15)
    seen = first(same_lrs(schedule(lambda ls, o: ls.CosineAnnealingLR(o, T_max=4, eta_min=0.01))))
    assert min(seen) == seen[4] == seen[12] == 0.01 and seen[8] == pytest.approx(0.1, rel=1e-14)


def test_reduce_lr_on_plateau() -> None:
    losses = [5, 4, 4.2, 4.1, 4.3, 3.99, 4, 4, 4, 2, 2, 2, 2, 2, 2]
    seen = same_lrs(schedule(lambda ls, o: ls.ReduceLROnPlateau(o, patience=1, factor=0.5, min_lr=[0.02, 0.2]),
                             steps=15, lrs=(0.1, 1.0), metrics=losses))
    # two epochs without improvement (more than patience=1) halve the lr, down to min_lr and no further
    assert first(seen) == [0.1] * 4 + [0.05] * 4 + [0.025] * 4 + [0.02] * 4
    assert [lrs[1] for lrs in seen][-5:] == [0.25] + [0.2] * 4
    # mode="max", absolute threshold, a cooldown; the metric may be a one-element tensor
    seen = same_lrs(schedule(lambda ls, o: ls.ReduceLROnPlateau(o, mode="max", threshold=0.5, threshold_mode="abs",
                                                              patience=0, cooldown=2), steps=10,
                             metrics=[1.0, 1.4, 2.0, 2.1, 2.2, 2.3, 2.4, 5.0, 5.1, 5.2]))
    # epoch 1 sets the best; 1.4 is not above 1.0 + 0.5: cut (no patience); 2.0 is a new best but epochs 3
    # and 4 are in the cooldown; 2.2 does not beat 2.0 + 0.5: cut; 5.0 is a new best; 5.1 is not: cut
    cut1, cut2, cut3 = 0.1 * 0.1, 0.1 * 0.1 * 0.1, 0.1 * 0.1 * 0.1 * 0.1
    assert first(seen) == [0.1, 0.1, cut1, cut1, cut1, cut2, cut2, cut2, cut2, cut3, cut3]

    def tensor_metric(lib: ModuleType) -> list:
        scheduler = lib.optim.lr_scheduler.ReduceLROnPlateau(optimizer(lib), patience=0)
        for loss in (1.0, 2.0):
            scheduler.step(lib.tensor(loss))
        return [scheduler.get_last_lr(), scheduler.best, scheduler.num_bad_epochs, scheduler.last_epoch]

    assert same_lrs(tensor_metric) == [[0.010000000000000002], 1.0, 0, 2]


def test_sequential_lr_warm_up_then_decay() -> None:
    def make(ls: Any, o: Any) -> Any:
        return ls.SequentialLR(o, [ls.LinearLR(o, start_factor=0.5, total_iters=2), ls.ExponentialLR(o, gamma=0.5)],
                              milestones=[3])

    seen = first(same_lrs(schedule(make)))
    # the milestone (epoch 3) starts ExponentialLR at its epoch 0: base_lr, not 0.1 * 0.5
    assert seen[:6] == [0.05, 0.07500000000000001, 0.1, 0.1, 0.05, 0.025]


@pytest.mark.parametrize(("kind", "options"), [("SGD", {}), ("Adam", {"three_phase": True}),
                                               ("SGD", {"anneal_strategy": "linear", "pct_start": 0.5})])
def test_one_cycle_lr_and_its_momentum(kind: str, options: dict) -> None:
    def run(lib: ModuleType) -> list:
        opt = optimizer(lib, (0.1, 0.1), kind)
        scheduler = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=[1.0, 2.0], total_steps=20, **options)
        seen = []
        for _ in range(20):
            seen.append((scheduler.get_last_lr(), [g.get("momentum", g.get("betas")) for g in opt.param_groups]))
            opt.step()
            scheduler.step()
        return seen

    seen = same_lrs(run)
    # it starts at max_lr / div_factor = 0.04, as the cosine formula rounds it
    assert seen[0][0] == ([0.040000000000000036, 0.08000000000000007] if options.get("anneal_strategy") != "linear"
                          else [0.04, 0.08])
    assert max(lrs[1] for lrs, _ in seen) == 2.0  # the peak is max_lr
    assert seen[0][1][0] in (0.95, (0.95, 0.999))  # momentum (or beta1) starts at max_momentum


def test_get_last_lr_per_group_and_base_lrs() -> None:
    def run(lib: ModuleType) -> tuple:
        opt = optimizer(lib, (0.1, 0.3))
        scheduler = lib.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
        opt.step()
        scheduler.step()
        return (scheduler.get_last_lr(), scheduler.base_lrs, scheduler.last_epoch,
                [group["initial_lr"] for group in opt.param_groups])

    assert same_lrs(run) == ([0.05, 0.15], [0.1, 0.3], 1, [0.1, 0.3])


# ---------------------------------------------------------------------------------------------- state_dict
RESUMABLE: dict[str, Make] = {
    "StepLR": lambda ls, o: ls.StepLR(o, step_size=4, gamma=0.7),
    "MultiStepLR": lambda ls, o: ls.MultiStepLR(o, milestones=[3, 9, 9, 15]),
    "ConstantLR": lambda ls, o: ls.ConstantLR(o, factor=0.2, total_iters=9),
    "LinearLR": lambda ls, o: ls.LinearLR(o, start_factor=0.1, total_iters=12),
    "ExponentialLR": lambda ls, o: ls.ExponentialLR(o, gamma=0.9),
    "CosineAnnealingLR": lambda ls, o: ls.CosineAnnealingLR(o, T_max=8, eta_min=0.001),
    "LambdaLR": lambda ls, o: ls.LambdaLR(o, lambda epoch: 0.9**epoch),
    "MultiplicativeLR": lambda ls, o: ls.MultiplicativeLR(o, lambda epoch: 0.9),
    "SequentialLR": lambda ls, o: ls.SequentialLR(o, [ls.ConstantLR(o, 0.5, total_iters=3),
                                                    ls.CosineAnnealingLR(o, T_max=10)], milestones=[6]),
    "OneCycleLR": lambda ls, o: ls.OneCycleLR(o, max_lr=1.0, total_steps=20),
    "ReduceLROnPlateau": lambda ls, o: ls.ReduceLROnPlateau(o, patience=1, cooldown=1),
}
METRICS = [3.0, 2.0, 2.5, 2.4, 2.6, 2.0, 2.1, 2.2, 2.3, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0]


@pytest.mark.parametrize("name", list(RESUMABLE))
def test_state_dict_has_pytorchs_keys_and_resumes_mid_schedule(name: str) -> None:
    make = RESUMABLE[name]
    plateau = name == "ReduceLROnPlateau"

    def advance(opt: Any, scheduler: Any, epochs: range) -> list:
        seen = []
        for epoch in epochs:
            opt.step()
            scheduler.step(METRICS[epoch]) if plateau else scheduler.step()
            seen.append(scheduler.get_last_lr())
        return seen

    def run(lib: ModuleType) -> tuple:
        opt = optimizer(lib, (0.1, 0.2))
        scheduler = make(lib.optim.lr_scheduler, opt)
        straight = advance(opt, scheduler, range(19))
        opt = optimizer(lib, (0.1, 0.2))
        scheduler = make(lib.optim.lr_scheduler, opt)
        advance(opt, scheduler, range(7))
        saved = copy.deepcopy((opt.state_dict(), scheduler.state_dict()))
        # resume: a new optimizer and scheduler, then the optimizer's state, then the scheduler's
        opt = optimizer(lib, (0.1, 0.2))
        scheduler = make(lib.optim.lr_scheduler, opt)
        opt.load_state_dict(saved[0])
        scheduler.load_state_dict(saved[1])
        resumed = advance(opt, scheduler, range(7, 19))
        return straight[7:] == resumed, list(saved[1])  # the keys, in PyTorch's order

    continued, keys = same_lrs(run)
    assert continued
    assert "optimizer" not in keys and "last_epoch" in keys
    if name not in ("ReduceLROnPlateau", "SequentialLR"):
        assert {"base_lrs", "_step_count", "_last_lr"} <= set(keys)


def test_lambda_state_dict_saves_callable_objects_not_functions() -> None:
    class Decay:
        def __init__(self) -> None:
            self.rate = 0.5

        def __call__(self, epoch: int) -> float:
            return self.rate**epoch

    def run(lib: ModuleType) -> tuple:
        opt = optimizer(lib, (0.1, 0.2))
        scheduler = lib.optim.lr_scheduler.LambdaLR(opt, [Decay(), lambda epoch: 1.0])
        saved = scheduler.state_dict()
        saved["lr_lambdas"][0]["rate"] = 0.25
        other = lib.optim.lr_scheduler.LambdaLR(opt, [Decay(), lambda epoch: 1.0])
        other.load_state_dict(saved)
        opt.step()
        other.step()
        return saved["lr_lambdas"], other.get_last_lr(), "lr_lambdas" in saved

    assert same_lrs(run) == ([{"rate": 0.25}, None], [0.025, 0.2], True)


def test_resuming_with_last_epoch() -> None:
    def run(lib: ModuleType) -> list:
        opt = optimizer(lib)
        for group in opt.param_groups:
            group["initial_lr"] = 0.1  # as a loaded optimizer state has it
        scheduler = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10, last_epoch=4)
        seen = [scheduler.get_last_lr()]
        opt.step()
        scheduler.step()
        return [*seen, scheduler.get_last_lr(), scheduler.last_epoch]

    # the constructor's step goes to epoch 5 keeping the loaded lr; the next one starts from the closed form
    assert same_lrs(run) == [[0.1], [0.06909830056250527], 6]

    message = ("param 'initial_lr' is not specified in param_groups[0] when resuming scheduler with last_epoch >= 0.\n"
               "This typically happens when:\n1. You're trying to resume training from a checkpoint but haven't "
               "properly loaded the optimizer state\n2. You're using last_epoch >= 0 for a fresh training run (not "
               "recommended)")
    raises(lambda lib: lib.optim.lr_scheduler.StepLR(optimizer(lib), step_size=2, last_epoch=3), KeyError,
           repr(message))


# ------------------------------------------------------------------------------------------------- warnings
ORDER_WARNING = ("UserWarning: Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 "
                 "and later, you should call them in the opposite order: `optimizer.step()` before "
                 "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value of the "
                 "learning rate schedule. See more details at "
                 "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")


def test_scheduler_step_before_optimizer_step_warns_once() -> None:
    def wrong_order(lib: ModuleType) -> list:
        opt = optimizer(lib)
        scheduler = lib.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
        for _ in range(3):
            scheduler.step()
            opt.step()
        return scheduler.get_last_lr()

    assert as_pytorch(wrong_order) == (None, "[0.0125]", [ORDER_WARNING])

    def stepped_before_the_scheduler_existed(lib: ModuleType) -> list:
        opt = optimizer(lib)
        opt.step()  # an epoch without a schedule does not count
        scheduler = lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        scheduler.step()
        return scheduler.get_last_lr()

    assert as_pytorch(stepped_before_the_scheduler_existed) == (None, "[0.05]", [ORDER_WARNING])


def test_right_order_get_lr_by_hand_and_step_with_epoch() -> None:
    def run(lib: ModuleType) -> list:
        opt = optimizer(lib)
        scheduler = lib.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        opt.step()
        scheduler.step()  # the right order: no warning
        by_hand = scheduler.get_lr()  # the rule's next value, not what get_last_lr() reports: warns
        scheduler.step(5)  # deprecated: jumps to epoch 5 with the closed form
        return [by_hand, scheduler.get_last_lr(), scheduler.last_epoch]

    kind, text, caught = as_pytorch(run)
    assert (kind, text) == (None, "[[0.1], [0.025], 5]")
    assert caught == ["UserWarning: To get the last learning rate computed by the scheduler, please use "
                      "`get_last_lr()`.",
                      "UserWarning: The epoch parameter in `scheduler.step()` was not necessary and is being "
                      "deprecated where possible. Please use `scheduler.step()` to step the scheduler. During the "
                      "deprecation, if epoch is different from None, the closed form is used instead of the new "
                      "chainable form, where available. Please open an issue if you are unable to replicate your "
                      "use case: https://github.com/pytorch/pytorch/issues/new/choose."]


# --------------------------------------------------------------------------------------------------- errors
def test_bad_arguments_raise_pytorchs_errors() -> None:
    def ls(lib: ModuleType) -> Any:
        return lib.optim.lr_scheduler

    raises(lambda lib: ls(lib).StepLR("sgd", step_size=1), TypeError, "str is not an Optimizer")
    raises(lambda lib: ls(lib).ReduceLROnPlateau([1, 2]), TypeError, "list is not an Optimizer")
    raises(lambda lib: ls(lib).ReduceLROnPlateau(optimizer(lib), factor=1.0), ValueError, "Factor should be < 1.0.")
    raises(lambda lib: ls(lib).ReduceLROnPlateau(optimizer(lib), mode="up"), ValueError, "mode up is unknown!")
    raises(lambda lib: ls(lib).ReduceLROnPlateau(optimizer(lib), threshold_mode="x"), ValueError,
           "threshold mode x is unknown!")
    raises(lambda lib: ls(lib).ReduceLROnPlateau(optimizer(lib), min_lr=[0.1, 0.2]), ValueError,
           "expected 1 min_lrs, got 2")
    raises(lambda lib: ls(lib).ConstantLR(optimizer(lib), factor=1.5), ValueError,
           "Constant multiplicative factor expected to be between 0 and 1.")
    raises(lambda lib: ls(lib).LinearLR(optimizer(lib), start_factor=0), ValueError,
           "Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
    raises(lambda lib: ls(lib).LinearLR(optimizer(lib), end_factor=-0.1), ValueError,
           "Ending multiplicative factor expected to be between 0 and 1.")
    raises(lambda lib: ls(lib).LambdaLR(optimizer(lib), [lambda e: 1.0] * 2), ValueError,
           "Expected 1 lr_lambdas, but got 2")
    raises(lambda lib: ls(lib).MultiplicativeLR(optimizer(lib), 0.9), TypeError,
           "lr_lambda should be a function, but got float")
    raises(lambda lib: ls(lib).OneCycleLR(optimizer(lib), max_lr=1.0), ValueError,
           "You must define either total_steps OR (epochs AND steps_per_epoch)")
    raises(lambda lib: ls(lib).OneCycleLR(optimizer(lib), max_lr=1.0, total_steps=0), ValueError,
           "Expected positive integer total_steps, but got 0")
    raises(lambda lib: ls(lib).OneCycleLR(optimizer(lib), max_lr=1.0, total_steps=10, pct_start=1), ValueError,
           "Expected float between 0 and 1 pct_start, but got 1")
    raises(lambda lib: ls(lib).OneCycleLR(optimizer(lib), max_lr=[1.0, 2.0], total_steps=10), ValueError,
           "max_lr must have the same length as optimizer.param_groups. max_lr has 2 values, param_groups has 1.")
    raises(lambda lib: ls(lib).OneCycleLR(optimizer(lib), max_lr=1.0, total_steps=10, anneal_strategy="exp"),
           ValueError, "anneal_strategy must be one of 'cos' or 'linear', instead got exp")

    def past_the_end(lib: ModuleType) -> None:
        opt = optimizer(lib)
        scheduler = ls(lib).OneCycleLR(opt, max_lr=1.0, total_steps=2)
        for _ in range(3):
            opt.step()
            scheduler.step()

    raises(past_the_end, ValueError, "Tried to step 3 times. The specified number of total steps is 2")


def test_sequential_lr_errors() -> None:
    def make(lib: ModuleType, which: str) -> Any:
        ls, opt, other = lib.optim.lr_scheduler, optimizer(lib), optimizer(lib, (0.5,))
        schedulers = {"none": [], "plateau": [ls.StepLR(opt, 2), ls.ReduceLROnPlateau(opt)],
                      "no optimizer": [ls.StepLR(opt, 2), "cosine"], "other": [ls.StepLR(opt, 2), ls.StepLR(other, 2)],
                      "milestones": [ls.StepLR(opt, 2), ls.StepLR(opt, 3)]}[which]
        return ls.SequentialLR(opt, schedulers, milestones=[])

    raises(lambda lib: make(lib, "none"), ValueError, "SequentialLR expects at least one scheduler, but got no "
           "scheduler.")
    raises(lambda lib: make(lib, "plateau"), ValueError, "SequentialLR does not support `ReduceLROnPlateau` "
           "scheduler as it requires additional kwargs to be specified when calling `step`, but got one at index 1 "
           "in the given schedulers sequence.")
    raises(lambda lib: make(lib, "no optimizer"), TypeError,
           "SequentialLR at index 1 should have `optimizer` as its attribute.")
    raises(lambda lib: make(lib, "milestones"), ValueError, "Sequential Schedulers expects number of schedulers "
           "provided to be one more than the number of milestone points, but got number of schedulers 2 and the "
           "number of milestones to be equal to 0")
    kind, text, _ = as_pytorch(lambda lib: make(lib, "other"))
    assert kind == "ValueError" and text.startswith("SequentialLR expects all schedulers to belong to the same "
                                                    "optimizer, but got scheduler StepLR at index 1 has SGD (")
    assert text.endswith("    lr: 0.5\n    maximize: False\n    momentum: 0.9\n    nesterov: False\n    "
                         "weight_decay: 0\n), which is different from SGD.")


def test_module_layout_as_pytorch() -> None:
    assert issubclass(_LRScheduler, LRScheduler) and issubclass(ReduceLROnPlateau, LRScheduler)
    assert optim.lr_scheduler.StepLR is StepLR
    torch = oracle()
    if torch is not None:
        names = {"LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR",
                 "ExponentialLR", "SequentialLR", "CosineAnnealingLR", "ReduceLROnPlateau", "OneCycleLR"}
        assert names == set(optim.lr_scheduler.__all__) and names <= set(torch.optim.lr_scheduler.__all__)


# ---------------------------------------------------------------------------------------------- end to end
def test_training_with_a_schedule_prints_what_pytorch_prints() -> None:
    """A small regression trained with SGD + momentum and a cosine schedule: the same printed losses and lrs."""
    rng = np.random.default_rng(0)
    x_data = rng.standard_normal((32, 2)).astype(np.float32)
    y_data = (x_data @ np.array([[1.5], [-2.0]], dtype=np.float32) + 0.3).astype(np.float32)
    w1 = (0.5 * rng.standard_normal((8, 2))).astype(np.float32)
    w2 = (0.5 * rng.standard_normal((1, 8))).astype(np.float32)

    def train(lib: ModuleType) -> str:
        model = lib.nn.Sequential(lib.nn.Linear(2, 8), lib.nn.Tanh(), lib.nn.Linear(8, 1))
        with lib.no_grad():
            for layer, w in ((model[0], w1), (model[2], w2)):
                layer.weight.copy_(lib.tensor(w))
                layer.bias.zero_()
        opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        scheduler = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=30)
        x, y, lines = lib.tensor(x_data), lib.tensor(y_data), []
        for epoch in range(30):
            opt.zero_grad()
            loss = lib.nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            scheduler.step()
            if epoch % 5 == 0 or epoch == 29:
                lines.append(f"epoch {epoch:2d}  lr {scheduler.get_last_lr()[0]:.6f}  loss {loss.item():.4f}")
        return "\n".join(lines)

    kind, _, caught = as_pytorch(train)
    assert (kind, caught) == (None, [])
    lines = train(tg).splitlines()
    assert lines[0].startswith("epoch  0  lr 0.099726  loss ") and lines[-1].startswith("epoch 29  lr 0.000000")
    losses = [float(line.split()[-1]) for line in lines]
    assert losses[-1] < 0.1 * losses[0]
