""""Learning PyTorch with Examples", custom autograd Function: y = a + b * P3(c + d * x), P3 the Legendre cubic.

Checks: a ``torch.autograd.Function`` subclass with static forward/backward, ``ctx.save_for_backward`` and
``ctx.saved_tensors``, ``Function.apply``, the node's name (``LegendrePolynomial3Backward``), parameters made
with ``torch.full((), value, ...)`` (deterministic, as in the tutorial), and the loss printed every 100 steps.
"""

import math

import torch


class LegendrePolynomial3(torch.autograd.Function):
    """P3(x) = (5x^3 - 3x) / 2, whose derivative is 3(5x^2 - 1) / 2."""

    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input**3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input**2 - 1)


dtype = torch.float
device = torch.device("cpu")
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)

a = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, device=device, dtype=dtype, requires_grad=True)
print(a, b)

learning_rate = 5e-6
P3 = LegendrePolynomial3.apply
print(type(P3(torch.tensor([0.5], requires_grad=True)).grad_fn).__name__)
print(P3(torch.tensor([0.0, 0.5, 1.0])))
for t in range(1000):
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, f"{loss.item():.4g}")
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None

# a and c converge to 0: their sign is rounding noise, so it is not printed.
result = f"Result: y = {a.item():.4f} + {b.item():.4f} * P3({c.item():.4f} + {d.item():.4f} x)"
print(result.replace("-0.0000", "0.0000"))
