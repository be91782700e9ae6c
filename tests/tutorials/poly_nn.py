""""Learning PyTorch with Examples", the nn package: the cubic fit as Linear(3, 1) on the features (x, x^2, x^3).

Checks: ``x.unsqueeze(-1).pow(p)`` with an integer tensor p (broadcast to 2000x3), ``nn.Sequential`` of
``nn.Linear(3, 1)`` and ``nn.Flatten(0, 1)``, ``nn.MSELoss(reduction='sum')``, ``model.zero_grad()``, the manual
update ``param -= learning_rate * param.grad`` under no_grad, indexing ``model[0]`` and ``weight[:, 0].item()``.
The layer's weights are set to fixed values first, so the printed losses do not depend on the random draw.
"""

import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(p.dtype, x.unsqueeze(-1).shape, xx.shape, xx.dtype)
print(xx[-1])

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1),
)
print(model)
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.2, -0.1, 0.05]]))
    model[0].bias.fill_(0.1)
print(model[0].weight, model[0].bias)
print(model(xx).shape, model(xx).grad_fn)

loss_fn = torch.nn.MSELoss(reduction="sum")
print(loss_fn)

learning_rate = 1e-6
for t in range(1000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.4g}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad

linear_layer = model[0]
print(
    f"Result: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x"
    f" + {linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3"
)
print(linear_layer.weight.grad is None, linear_layer.weight.grad.shape)
