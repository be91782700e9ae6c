""""Learning PyTorch with Examples", control flow and weight sharing: a polynomial of random degree 3 to 5.

Checks: a Module whose forward picks how many terms to add with Python's ``random`` (seeded: the same draws in
both libraries) and reuses one Parameter ``e`` for every term of degree 4 and up, so its gradient sums over the
terms; SGD with momentum. The tutorial trains for 30000 steps; 1000 steps from fixed starting values show the
same thing quickly.
"""

import math
import random

import torch


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1))
        self.b = torch.nn.Parameter(torch.tensor(0.2))
        self.c = torch.nn.Parameter(torch.tensor(-0.1))
        self.d = torch.nn.Parameter(torch.tensor(0.05))
        self.e = torch.nn.Parameter(torch.tensor(0.0))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x**2 + self.d * x**3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x**exp
        return y

    def string(self):
        return (
            f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2"
            f" + {self.d.item():.4f} x^3 + {self.e.item():.5f} x^4 ? + {self.e.item():.5f} x^5 ?"
        )


random.seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = DynamicNet()
print(model)

# Weight sharing: e appears in every term of degree 4 and up, and its gradient is the sum over those terms.
x1 = torch.tensor([2.0])
y1 = model.e * x1**4 + model.e * x1**5
y1.sum().backward()
print(model.e.grad)
model.e.grad = None

criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(1000):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.4g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print(f"Result: {model.string()}")
