""""Learning PyTorch with Examples", custom nn Modules: the cubic as a Module with four scalar Parameters.

Checks: ``nn.Parameter(torch.randn(()))`` registered as attributes (their names, shapes and repr), a ``string()``
method formatting ``.item()`` values, ``nn.MSELoss(reduction='sum')`` and ``torch.optim.SGD`` with
``zero_grad()``. After the random draw the parameters are set to fixed values, so the fit is the same in both
libraries.
"""

import math

import torch


class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        return self.a + self.b * x + self.c * x**2 + self.d * x**3

    def string(self):
        return f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3"


x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

torch.manual_seed(0)
model = Polynomial3()
print(model)
print([(name, tuple(p.shape), p.requires_grad, p.is_leaf) for name, p in model.named_parameters()])
with torch.no_grad():
    for param, start in zip(model.parameters(), (0.1, 0.2, -0.1, 0.05)):
        param.fill_(start)
print(model.a)
print(model.string())

criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(1000):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.4g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print(f"Result: {model.string()}")
