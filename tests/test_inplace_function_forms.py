"""The in-place forms PyTorch offers as functions (``F.relu_(x)``, ``torch.selu_(x)``, ``torch.fill_(x, v)``,
``torch.dropout(x, p, train)``): the fused-conv-bn tutorial calls ``F.relu_`` on its activations. Each records the
node the in-place method records (``F.leaky_relu_`` is ``LeakyReluBackward1``, which reads the result), and gives
PyTorch's errors. Run with tinygrad_edu and, when installed, torch: same printing, same messages.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from _oracle import as_pytorch, err, ok


def _nonleaf(lib: ModuleType, values: list[float] | None = None) -> Any:
    """A tensor with history (in place on a leaf that requires grad is refused): a leaf times 1."""
    return lib.tensor(values or [-2.0, 0.5, 1.0], requires_grad=True) * 1


def _grad_after(lib: ModuleType, fn: Any, values: list[float] | None = None) -> tuple:
    leaf = lib.tensor(values or [-2.0, 0.5, 1.0], requires_grad=True)
    out = fn(leaf * 1)
    out.sum().backward()
    return out, leaf.grad


CASES = {
    "F.relu_": (lambda lib: _grad_after(lib, lib.nn.functional.relu_), ok(
        "(tensor([0.0000, 0.5000, 1.0000], grad_fn=<ReluBackward0>), tensor([0., 1., 1.]))")),
    "F.elu_": (lambda lib: _grad_after(lib, lib.nn.functional.elu_), ok(
        "(tensor([-0.8647,  0.5000,  1.0000], grad_fn=<EluBackward1>), tensor([0.1353, 1.0000, 1.0000]))")),
    "F.leaky_relu_": (lambda lib: _grad_after(lib, lambda t: lib.nn.functional.leaky_relu_(t, 0.1)), ok(
        "(tensor([-0.2000,  0.5000,  1.0000], grad_fn=<LeakyReluBackward1>), tensor([0.1000, 1.0000, 1.0000]))")),
    "F.leaky_relu_ saves its result": (lambda lib: sorted(
        n for n in dir(lib.nn.functional.leaky_relu_(_nonleaf(lib), 0.1).grad_fn) if n.startswith("_saved_")),
        ok("['_saved_negative_slope', '_saved_result']")),
    "F.leaky_relu_ with a negative slope: no backward": (
        lambda lib: _grad_after(lib, lambda t: lib.nn.functional.leaky_relu_(t, -0.5)), err(
            "RuntimeError", "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
            "supported. This is caused by calling in-place forward function with a negative slope, please call "
            "out-of-place version instead. File an issue at https://github.com/pytorch/pytorch if you do require "
            "supporting in-place leakRelu backward calculation with negative slope")),
    "nn.LeakyReLU(inplace=True)": (lambda lib: lib.nn.LeakyReLU(0.2, inplace=True)(_nonleaf(lib)), ok(
        "tensor([-0.4000,  0.5000,  1.0000], grad_fn=<LeakyReluBackward1>)")),
    "F.hardtanh_": (lambda lib: _grad_after(lib, lib.nn.functional.hardtanh_), ok(
        "(tensor([-1.0000,  0.5000,  1.0000], grad_fn=<HardtanhBackward0>), tensor([0., 1., 0.]))")),
    "torch.selu_": (lambda lib: lib.selu_(_nonleaf(lib)), ok(
        "tensor([-1.5202,  0.5254,  1.0507], grad_fn=<EluBackward1>)")),
    "torch.celu_": (lambda lib: lib.celu_(_nonleaf(lib), 2.0), ok(
        "tensor([-1.2642,  0.5000,  1.0000], grad_fn=<CeluBackward1>)")),
    "torch.threshold": (lambda lib: lib.threshold(_nonleaf(lib), 0.7, 9.0), ok(
        "tensor([9., 9., 1.], grad_fn=<ThresholdBackward0>)")),
    "torch.dropout, not training": (lambda lib: lib.dropout(_nonleaf(lib), 0.5, False), ok(
        "tensor([-2.0000,  0.5000,  1.0000], grad_fn=<MulBackward0>)")),
    "torch.dropout, training": (lambda lib: (lib.manual_seed(0), lib.dropout(lib.ones(2, 3), 0.5, True))[1], ok(
        "tensor([[0., 0., 2.],\n        [0., 0., 0.]])")),
    "torch.feature_dropout": (lambda lib: (lib.manual_seed(0), lib.feature_dropout(lib.ones(2, 3, 4), 0.5, True))[1][
        :, :, 0], ok("tensor([[0., 0., 2.],\n        [0., 0., 0.]])")),
    "torch.dropout_ without train": (lambda lib: lib.dropout_(lib.ones(2), 0.5), err(
        "TypeError", 'dropout_() missing 1 required positional arguments: "train"')),
    "torch.alpha_dropout, not training": (lambda lib: lib.alpha_dropout(lib.ones(2), 0.5, False), ok(
        "tensor([1., 1.])")),
    "torch.fill_ and zero_": (lambda lib: (lib.fill_(lib.ones(2), 3.0), lib.zero_(lib.ones(2))), ok(
        "(tensor([3., 3.]), tensor([0., 0.]))")),
    "torch.clip_": (lambda lib: lib.clip_(lib.tensor([-2.0, 2.0]), -1, 1), ok("tensor([-1.,  1.])")),
    "torch.arccos_ records AcosBackward0": (lambda lib: lib.arccos_(_nonleaf(lib, [0.5])), ok(
        "tensor([1.0472], grad_fn=<AcosBackward0>)")),
    "Tensor.addmv_": (lambda lib: _nonleaf(lib).addmv_(lib.ones(3, 3), lib.ones(3), beta=2, alpha=0.5), ok(
        "tensor([-2.5000,  2.5000,  3.5000], grad_fn=<AddmvBackward0>)")),
    "torch.detach_": (lambda lib: (lambda t: (lib.detach_(t), t.requires_grad))(_nonleaf(lib)), ok(
        "(tensor([-2.0000,  0.5000,  1.0000]), False)")),
}




def _changed_after(lib: ModuleType, fn: Any) -> Any:
    """An in-place activation whose result (which its node saved) is changed again before backward."""
    y = fn(_nonleaf(lib))
    y.mul_(2)
    return y.sum().backward()


_STALE = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
          "[tinygrad_edu.FloatTensor [3]], which is output 0 of {}, is at version 2; expected version 1 instead. "
          "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
          "tinygrad_edu.autograd.set_detect_anomaly(True, check_nan=False).")
for _name, _fn, _node in (("F.elu_", lambda lib: lib.nn.functional.elu_, "Elu1"),
                          ("F.leaky_relu_", lambda lib: lib.nn.functional.leaky_relu_, "LeakyRelu1"),
                          ("torch.selu_", lambda lib: lib.selu_, "Elu1"),
                          ("torch.celu_", lambda lib: lib.celu_, "Celu1")):
    CASES[f"{_name}: its saved result changed again is caught"] = (
        lambda lib, fn=_fn: _changed_after(lib, fn(lib)), err("RuntimeError", _STALE.format(_node)))


@pytest.mark.parametrize("name", CASES)
def test_inplace_function_forms(name: str) -> None:
    fn, expected = CASES[name]
    as_pytorch(fn, expected)


# -- writing into an expanded tensor -----------------------------------------------------------------------------------
# ``expand`` repeats memory: every element of ``ones(1).expand(3)`` is the same number. PyTorch writes through such a
# view where the written-to elements are distinct (one element, an advanced index) or all get one value (fill_,
# zero_), and refuses where two written-to elements share memory. numpy's broadcast views are read-only, and its
# "assignment destination is read-only" used to leak.
_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")


def _then(fn: Any) -> Any:
    """Run ``fn(g)`` on ``g = ones(1).expand(3)`` and return g: what the write did to the shared number."""
    def run(lib: ModuleType) -> Any:
        g = lib.ones(1).expand(3)
        fn(g)
        return g
    return run


EXPANDED = {
    "one element": (_then(lambda g: g.__setitem__(0, 0.0)), ok("tensor([0., 0., 0.])")),
    "one element, in place": (_then(lambda g: g[0].add_(1)), ok("tensor([2., 2., 2.])")),
    "0 / 0 into one element": (_then(lambda g: g[0].div_(0)), ok("tensor([inf, inf, inf])")),
    "fill_": (_then(lambda g: g.fill_(2)), ok("tensor([2., 2., 2.])")),
    "zero_": (_then(lambda g: g.zero_()), ok("tensor([0., 0., 0.])")),
    "an advanced index": (_then(lambda g: g.__setitem__([0], 5.0)), (None, "tensor([5., 5., 5.])", [
        "UserWarning: Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before performing "
        "this operation. This also applies to advanced indexing e.g. tensor[indices] = tensor"])),
    "one column of a 2-d expand": (lambda lib: (lambda g: (g.__setitem__((0, 1), 7.0), g)[1])(
        lib.zeros(3).expand(2, 3)), ok("tensor([[0., 7., 0.],\n        [0., 7., 0.]])")),
    "add_ on all": (_then(lambda g: g.add_(1)), err("RuntimeError", _OVERLAP)),
    "add_ on a slice of two": (_then(lambda g: g[1:].add_(1)), err("RuntimeError", _OVERLAP)),
    "a number into a slice of two": (_then(lambda g: g.__setitem__(slice(0, 2), 5.0)), err("RuntimeError", _OVERLAP)),
    "copy_": (_then(lambda g: g.copy_(g.new_tensor([1.0, 2.0, 3.0]))), err("RuntimeError", _OVERLAP)),
    "with history: the gradient through the write": (lambda lib: (lambda x: (
        (lambda g: (g.__setitem__(0, x[0] * 5), (g.sum() + g.sum()).backward(), x.grad)[2])((x * 2).expand(3))))(
        lib.tensor([3.0], requires_grad=True)), ok("tensor([30.])")),
}


@pytest.mark.parametrize("name", EXPANDED)
def test_writing_into_an_expanded_tensor(name: str) -> None:
    fn, expected = EXPANDED[name]
    as_pytorch(fn, expected)


def _printed_after_base_changed(lib: ModuleType) -> str:
    """``v = b[0:2]``, then ``b[1] = 5`` through another view: v, printed, has its new history, the part it covers of
    b's (AsStridedBackward0), as PyTorch prints it; an expanded view written through one element likewise."""
    b = lib.ones(4, requires_grad=True).clone()
    v = b[0:2]
    b[1] = 5.0
    g = (lib.tensor([3.0], requires_grad=True) * 2).expand(3)
    g[0] = 0.0
    return f"{v}\n{g}"


def test_a_view_prints_its_new_history_after_its_base_changed() -> None:
    as_pytorch(_printed_after_base_changed, ok(
        "'tensor([1., 5.], grad_fn=<AsStridedBackward0>)\\ntensor([0., 0., 0.], grad_fn=<AsStridedBackward0>)'"))
