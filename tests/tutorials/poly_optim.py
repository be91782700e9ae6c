""""Learning PyTorch with Examples", the optim package: the same cubic, with RMSprop doing the updates.

Checks: ``torch.optim.RMSprop(model.parameters(), lr=1e-3)``, ``optimizer.zero_grad()`` / ``step()``, the
optimizer's repr, and the loss every 100 steps from fixed starting weights. RMSprop divides by the square root
of a running mean of squared gradients, so near the minimum every coordinate keeps stepping by about lr and the
path becomes sensitive to rounding: 600 steps (the tutorial runs 2000) keep to the part where float32 rounding
differences between the libraries stay invisible in 4 significant digits; coefficients that converge to 0 are
printed without their sign.
"""

import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)

model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.2, -0.1, 0.05]]))
    model[0].bias.fill_(0.1)
loss_fn = torch.nn.MSELoss(reduction="sum")

learning_rate = 1e-3
optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate)
print(optimizer)
for t in range(600):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.4g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

linear_layer = model[0]
result = (
    f"Result: y = {linear_layer.bias.item():.3f} + {linear_layer.weight[:, 0].item():.3f} x"
    f" + {linear_layer.weight[:, 1].item():.3f} x^2 + {linear_layer.weight[:, 2].item():.3f} x^3"
)
print(result.replace("-0.000", "0.000"))
print(sorted(optimizer.state[linear_layer.weight]), optimizer.param_groups[0]["alpha"])
