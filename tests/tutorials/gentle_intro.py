""""A Gentle Introduction to torch.autograd": differentiation in autograd, and keeping parts out of the DAG.

Checks: Q = 3a^3 - b^2 backward with an external gradient, the ``9*a**2 == a.grad`` comparisons printing
``tensor([True, True])``; which results require grad; then a small model standing in for the tutorial's
pretrained network: freezing every parameter with ``requires_grad = False``, replacing the last layer, and
training only that layer (printed: which parameters get a gradient and which change in a step, never values
that depend on the random initialisation).
"""

import torch
from torch import nn, optim

a = torch.tensor([2.0, 3.0], requires_grad=True)
b = torch.tensor([6.0, 4.0], requires_grad=True)
Q = 3 * a**3 - b**2
print(Q)
external_grad = torch.tensor([1.0, 1.0])
Q.backward(gradient=external_grad)
print(a.grad, b.grad)
print(9 * a**2 == a.grad)
print(-2 * b == b.grad)

# Only one input needs to require grad for the output to require it.
torch.manual_seed(0)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
c = x + y
print(f"Does `c` require gradients?: {c.requires_grad}")
d = x + z
print(f"Does `d` require gradients?: {d.requires_grad}")


class SmallNet(nn.Module):
    """A feature extractor and a classifier head named ``fc``, like the tutorial's pretrained model."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU())
        self.fc = nn.Linear(16, 5)

    def forward(self, x):
        return self.fc(self.features(x))


model = SmallNet()
print(model)
data = torch.rand(4, 8)
labels = torch.rand(4, 5)

# Freeze everything, then put in a new head: its parameters require grad by default.
for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(16, 10)
print(model.fc)
print([(name, p.requires_grad) for name, p in model.named_parameters()])

optimizer = optim.SGD(model.fc.parameters(), lr=1e-2, momentum=0.9)
before = {name: p.clone() for name, p in model.named_parameters()}
prediction = model(data)
print(prediction.shape, prediction.grad_fn)
loss = (prediction - labels.repeat(1, 2)).sum()
loss.backward()
print([(name, p.grad is None) for name, p in model.named_parameters()])
optimizer.step()
print([(name, torch.equal(before[name], p)) for name, p in model.named_parameters()])
print(sum(p.numel() for p in model.parameters() if p.requires_grad), "trainable parameters")
