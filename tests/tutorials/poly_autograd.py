""""Learning PyTorch with Examples", tensors and autograd: fit a cubic to sin(x) on [-pi, pi] by hand.

Checks: choosing the device with ``torch.accelerator`` (the CPU here), linspace with dtype and device, torch.sin,
a scalar parameter from ``randn(())``, the loss ``(y_pred - y).pow(2).sum()`` printed with ``loss.item()`` every
100 steps, the update under no_grad and ``a.grad = None``. The parameters start from fixed values (overwritten in
place under no_grad after the random draw), so both libraries follow the same path (coefficients that converge to
0 are printed without the sign of their rounding noise); the losses are printed to 4 significant digits because
float32 sums of 2000 terms may differ in the last bits.
"""

import math

import torch

dtype = torch.float
# How current tutorials choose a device; without an accelerator it is the CPU.
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(device, torch.cuda.is_available(), torch.device(device))

x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)
print(x.shape, x.dtype, x.device, y[::400])

torch.manual_seed(0)
a = torch.randn((), device=device, dtype=dtype, requires_grad=True)
b = torch.randn((), device=device, dtype=dtype, requires_grad=True)
c = torch.randn((), device=device, dtype=dtype, requires_grad=True)
d = torch.randn((), device=device, dtype=dtype, requires_grad=True)
print(a.shape, a.requires_grad, a.is_leaf)
with torch.no_grad():
    for param, start in zip((a, b, c, d), (0.1, 0.2, -0.1, 0.05)):
        param.fill_(start)
print(a, d)

learning_rate = 1e-6
for t in range(1000):
    y_pred = a + b * x + c * x**2 + d * x**3
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

result = f"Result: y = {a.item():.3f} + {b.item():.3f} x + {c.item():.3f} x^2 + {d.item():.3f} x^3"
print(result.replace("-0.000", "0.000"))
print(a.grad, a.requires_grad, a.is_leaf)
