"""Every code example of the course's source notes (../shared/seeds/), run with ``import tinygrad_edu as torch``.

Each test is one example, kept as close to the notes' code as possible, then checks what it prints or computes.
Where the notes are wrong (they claim ``backward()`` on a no_grad result "quietly computes nothing"), the test
pins down the true behaviour, which PyTorch shares: it raises.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import tinygrad_edu as torch
from tinygrad_edu import nn, optim
from tinygrad_edu.autograd import Function

ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def printed(capsys: pytest.CaptureFixture) -> str:
    return ADDRESS.sub(" at 0x...", capsys.readouterr().out)


def test_requires_grad_and_grad_fn(capsys: pytest.CaptureFixture) -> None:  # seed 000
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
    c = a + b
    d = torch.sum(c)
    print(c.requires_grad)
    print(c.grad_fn)
    print(d.requires_grad)
    print(d.grad_fn)
    assert printed(capsys) == "True\n<AddBackward0 object at 0x...>\nTrue\n<SumBackward0 object at 0x...>\n"

    # "torch.ones(c.size()) * 2 ... weights the gradient by 2"
    c.backward(torch.ones(c.size()) * 2)
    assert a.grad.tolist() == [2.0, 2.0, 2.0] and b.grad.tolist() == [2.0, 2.0, 2.0]


def test_no_grad_then_backward_raises() -> None:  # seed 000: the notes say backward "computes nothing"; it raises
    x = torch.randn(5, 5, requires_grad=True)
    y = torch.randn(5, 5)
    with torch.no_grad():
        z = x + y
    assert not z.requires_grad and z.grad_fn is None
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad and does not have a grad_fn$"):
        z.backward()


def test_set_grad_enabled_example() -> None:  # seed 000
    x = torch.randn(5, 5, requires_grad=True)
    y = torch.randn(5, 5)
    torch.set_grad_enabled(False)
    try:
        z = x + y
        with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
            z.backward()
    finally:
        torch.set_grad_enabled(True)
    z = x + y
    # The notes' second z.backward() fails too: z is 5x5, and only a scalar gets an implicit gradient of 1.
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar outputs$"):
        z.backward()
    z.sum().backward()
    assert np.array_equal(x.grad.numpy(), np.ones((5, 5), np.float32))


class MultiplyAdd(Function):  # seed 000
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        output = w * x + b
        return output

    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        grad_w = grad_output * x
        grad_x = grad_output * w
        grad_b = grad_output * 1
        return grad_w, grad_x, grad_b


def test_multiply_add_function() -> None:
    t = torch
    x = t.ones(1)
    w = t.rand(1, requires_grad=True)
    b = t.rand(1, requires_grad=True)
    z = MultiplyAdd.apply(w, x, b)
    z.backward()
    assert z.grad_fn.name() == "MultiplyAddBackward"
    assert w.grad.tolist() == [1.0] and b.grad.tolist() == [1.0] and x.grad is None


def test_leaf_intermediate_root() -> None:  # seed 001
    input_tensor = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    weight = torch.randn(3, requires_grad=True)
    bias = torch.randn(1, requires_grad=True)
    output = torch.matmul(input_tensor, weight) + bias
    target = torch.tensor([2.0])
    loss = torch.mean((output - target) ** 2)
    assert [t.is_leaf for t in (input_tensor, weight, bias, output, loss)] == [True, True, True, False, False]
    assert output.grad_fn.name() == "AddBackward0" and loss.grad_fn.name() == "MeanBackward0"
    loss.backward()
    residual = (input_tensor.detach() @ weight.detach() + bias.detach() - target).item()
    assert np.allclose(weight.grad.numpy(), 2 * residual * np.array([1.0, 2.0, 3.0]), rtol=1e-5)


def test_requires_grad_false_operand(capsys: pytest.CaptureFixture) -> None:  # seed 001
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.tensor([4.0, 5.0, 6.0], requires_grad=False)
    z = x * y
    # The notes say y "is not recorded in the graph": it has no node, but its value is saved for x's gradient.
    assert z.grad_fn.next_functions[1] == (None, 0)
    assert z.grad_fn._saved_other is y
    loss = z.sum()
    loss.backward()
    print(f"x的梯度: {x.grad}")
    print(f"y的梯度: {y.grad}")
    assert printed(capsys) == "x的梯度: tensor([4., 5., 6.])\ny的梯度: None\n"
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        z.grad_fn._saved_other  # noqa: B018  (backward freed it)


def test_retain_graph(capsys: pytest.CaptureFixture) -> None:  # seed 001
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x + 2
    z = sum(y * 3)
    z.backward(retain_graph=True)
    print("First backward, x.grad:", x.grad)
    z.backward()
    print("Second backward, x.grad:", x.grad)
    assert printed(capsys) == ("First backward, x.grad: tensor([3., 3., 3.])\n"
                               "Second backward, x.grad: tensor([6., 6., 6.])\n")


def test_no_grad_inference_with_model() -> None:  # seed 001
    model = nn.Linear(3, 1)
    input_tensor = torch.randn(2, 3)
    with torch.no_grad():
        output = model(input_tensor)
    assert not output.requires_grad
    output_with_grad = model(input_tensor)
    assert output_with_grad.requires_grad
    torch.set_grad_enabled(False)
    try:
        assert not model(input_tensor).requires_grad
    finally:
        torch.set_grad_enabled(True)
    assert model(input_tensor).grad_fn.name() == "AddmmBackward0"


def test_training_loop() -> None:  # seed 001
    model = nn.Linear(1, 1)
    optimizer = optim.SGD(model.parameters(), lr=0.01)
    input_tensor = torch.tensor([[1.0]], requires_grad=True)
    target = torch.tensor([[2.0]])
    losses = []
    for _epoch in range(100):
        optimizer.zero_grad()
        output = model(input_tensor)
        loss_function = nn.MSELoss()
        loss = loss_function(output, target)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0] * 0.1


def test_next_functions(capsys: pytest.CaptureFixture) -> None:  # seed 001
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x + 2
    z = y * 3
    print(z.grad_fn)
    print(z.grad_fn.next_functions)
    print(y.grad_fn)
    print(y.grad_fn.next_functions)
    assert printed(capsys) == (
        "<MulBackward0 object at 0x...>\n((<AddBackward0 object at 0x...>, 0), (None, 0))\n"
        "<AddBackward0 object at 0x...>\n((<AccumulateGrad object at 0x...>, 0), (None, 0))\n"
    )
    assert z.grad_fn.next_functions[0][0] is y.grad_fn
    assert y.grad_fn.next_functions[0][0].variable is x


def test_tensor_operations(capsys: pytest.CaptureFixture) -> None:  # seed 002
    x1 = torch.ones(3, 3)
    print(x1)
    x = torch.ones(2, 2, requires_grad=True)
    print(x)
    y = x + 2
    print(y)
    print(x.grad_fn)
    print(y.grad_fn)
    z = y * y * 3
    out = z.mean()
    print(z, out)
    out.backward()
    print(x.grad)
    assert printed(capsys) == (
        "tensor([[1., 1., 1.],\n        [1., 1., 1.],\n        [1., 1., 1.]])\n"
        "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)\n"
        "tensor([[3., 3.],\n        [3., 3.]], grad_fn=<AddBackward0>)\n"
        "None\n<AddBackward0 object at 0x...>\n"
        "tensor([[27., 27.],\n        [27., 27.]], grad_fn=<MulBackward0>) tensor(27., grad_fn=<MeanBackward0>)\n"
        "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n"
    )
    print(x.requires_grad)
    print((x ** 2).requires_grad)
    with torch.no_grad():
        print((x ** 2).requires_grad)
    y = x.detach()
    print(y.requires_grad)
    print(x.eq(y).all())
    assert printed(capsys) == "True\nTrue\nFalse\nFalse\ntensor(True)\n"


def test_requires_grad_(capsys: pytest.CaptureFixture) -> None:  # seed 002
    torch.manual_seed(0)
    a = torch.randn(2, 2)
    a = ((a * 3) / (a - 1))
    print(a.requires_grad)
    a.requires_grad_(True)
    print(a.requires_grad)
    b = (a * a).sum()
    print(b.requires_grad)
    print(b.grad_fn)
    assert printed(capsys) == "False\nTrue\nTrue\n<SumBackward0 object at 0x...>\n"
    assert repr(a).endswith(", requires_grad=True)") and repr(b).endswith(", grad_fn=<SumBackward0>)")


def test_bce_with_logits_example() -> None:  # seed 003
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    assert f"{z.grad_fn}".startswith("<AddBackward0 object at 0x")
    assert f"{loss.grad_fn}".startswith("<BinaryCrossEntropyWithLogitsBackward0 object at 0x")
    loss.backward()
    sig = 1 / (1 + np.exp(-z.detach().numpy()))
    assert np.allclose(b.grad.numpy(), sig / 3, atol=1e-6)
    assert np.allclose(w.grad.numpy(), np.ones((5, 1)) * sig / 3, atol=1e-6)
    z = torch.matmul(x, w) + b
    assert z.requires_grad
    with torch.no_grad():
        z = torch.matmul(x, w) + b
    assert not z.requires_grad


def test_requires_grad_propagation() -> None:  # seed 003
    x = torch.rand(5, 5)
    y = torch.rand(5, 5)
    z = torch.rand((5, 5), requires_grad=True)
    assert not (x + y).requires_grad
    assert (x + z).requires_grad


def test_non_scalar_output(capsys: pytest.CaptureFixture) -> None:  # seed 003
    inp = torch.eye(4, 5, requires_grad=True)
    out = (inp + 1).pow(2).t()
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"First call\n{inp.grad}")
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"\nSecond call\n{inp.grad}")
    inp.grad.zero_()
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"\nCall after zeroing gradients\n{inp.grad}")
    def matrix(diag: str, off: str) -> str:
        rows = ["[" + ", ".join(diag if j == i else off for j in range(5)) + "]" for i in range(4)]
        return "tensor([" + ",\n        ".join(rows) + "])"

    assert printed(capsys) == (f"First call\n{matrix('4.', '2.')}\n\nSecond call\n{matrix('8.', '4.')}\n\n"
                               f"Call after zeroing gradients\n{matrix('4.', '2.')}\n")


class Exp(Function):  # seed 003
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


def test_custom_exp() -> None:
    input = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
    output = Exp.apply(input)
    output.sum().backward()
    assert output.grad_fn.name() == "ExpBackward"
    assert np.allclose(input.grad.numpy(), np.exp([0.0, 1.0, 2.0]))


def test_retain_grad_and_hook() -> None:  # seed 003: "mid_tensor.retain_grad(); mid_tensor.register_hook(save_grad)"
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    mid_tensor = x * 3
    seen = {}

    def save_grad(grad):
        seen["mid"] = grad

    mid_tensor.retain_grad()
    mid_tensor.register_hook(save_grad)
    (mid_tensor ** 2).sum().backward()
    assert mid_tensor.grad.tolist() == [6.0, 12.0] and seen["mid"].tolist() == [6.0, 12.0]


class line(Function):  # noqa: N801  (seed 003's name)
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x, b)
        return w * x + b

    @staticmethod
    def backward(ctx, grad_out):
        w, x, _ = ctx.saved_tensors
        grad_w = grad_out * x
        grad_x = grad_out * w
        grad_b = grad_out
        return grad_w, grad_x, grad_b


def test_line_function(capsys: pytest.CaptureFixture) -> None:
    w = torch.rand(2, 2, requires_grad=True)
    x = torch.rand(2, 2, requires_grad=True)
    b = torch.rand(2, 2, requires_grad=True)
    out = line.apply(w, x, b)
    out.backward(torch.ones(2, 2))
    print(w, x, b)
    print(w.grad, x.grad, b.grad)
    assert np.array_equal(w.grad.numpy(), x.detach().numpy())
    assert np.array_equal(x.grad.numpy(), w.detach().numpy())
    assert printed(capsys).endswith("tensor([[1., 1.],\n        [1., 1.]])\n")


def test_chain_rule_example() -> None:  # seed 004: y = 2x, z = y*y, dz/dx = 8x
    x = torch.tensor(3.0, requires_grad=True)
    y = 2 * x
    z = y * y
    z.backward()
    assert x.grad.item() == 24.0


def test_autograd_grad_only_inputs() -> None:  # seed 004: only_inputs is deprecated and ignored
    x = torch.tensor(2.0, requires_grad=True)
    u = torch.tensor(1.0, requires_grad=True)
    y = x ** 3
    (g,) = torch.autograd.grad(y, x, only_inputs=False, retain_graph=True)
    assert g.item() == 12.0
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad(y, [x, u], retain_graph=True)
    assert torch.autograd.grad(y, [x, u], allow_unused=True)[1] is None
