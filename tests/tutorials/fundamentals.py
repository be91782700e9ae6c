""""The Fundamentals of Autograd" (the introductory video series): follow a graph backwards by hand, then train.

Checks: ``linspace(0, 2 pi, steps=25, requires_grad=True)`` through sin, the printed tensors with their
grad_fn, walking ``grad_fn.next_functions`` from the sum back to the leaf (names and output indices), a.grad
equal to 2 cos(a); a two-layer model's weights and gradients over a step with ``zero_grad(set_to_none=False)``
(only shapes and facts independent of the random draw are printed); ``requires_grad = False`` on a leaf,
no_grad as context manager and decorator, detach; the in-place error for ``torch.sin_`` on a leaf; the
doubling-until-large loop and its backward with a gradient vector.
"""

import math

import torch

a = torch.linspace(0.0, 2.0 * math.pi, steps=25, requires_grad=True)
print(a)
b = torch.sin(a)
print(b)
c = 2 * b
print(c)
d = c + 1
print(d)
out = d.sum()
print(out)

print("d:")
print(d.grad_fn.name())
print([(f.name() if f else None, i) for f, i in d.grad_fn.next_functions])
print([(f.name() if f else None, i) for f, i in d.grad_fn.next_functions[0][0].next_functions])
print([(f.name() if f else None, i) for f, i in d.grad_fn.next_functions[0][0].next_functions[0][0].next_functions])
leaf = d.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
print(leaf.name(), leaf.variable is a, leaf.next_functions)
print("c:", c.grad_fn.name(), "a:", a.grad_fn)

out.backward()
print(a.grad)
print(torch.allclose(a.grad, 2 * torch.cos(a.detach()), atol=1e-6))

BATCH_SIZE, DIM_IN, HIDDEN_SIZE, DIM_OUT = 16, 1000, 100, 10


class TinyModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = torch.nn.Linear(DIM_IN, HIDDEN_SIZE)
        self.relu = torch.nn.ReLU()
        self.layer2 = torch.nn.Linear(HIDDEN_SIZE, DIM_OUT)

    def forward(self, x):
        return self.layer2(self.relu(self.layer1(x)))


torch.manual_seed(0)
some_input = torch.randn(BATCH_SIZE, DIM_IN, requires_grad=False)
ideal_output = torch.randn(BATCH_SIZE, DIM_OUT, requires_grad=False)
model = TinyModel()
print(model)
print(model.layer2.weight[0][0:10].shape, model.layer2.weight.grad)

optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
prediction = model(some_input)
loss = (ideal_output - prediction).pow(2).sum()
print(loss.grad_fn.name(), loss.shape)
loss.backward()
before = model.layer2.weight.detach().clone()
print(model.layer2.weight.grad[0][0:10].shape, model.layer2.weight.grad.abs().sum() > 0)
optimizer.step()
moved = model.layer2.weight.detach() - before
print(torch.allclose(moved, -0.001 * model.layer2.weight.grad, atol=1e-7))
optimizer.zero_grad(set_to_none=False)
print(model.layer2.weight.grad[0][0:10])

# Turning autograd off and on.
a = torch.ones(2, 3, requires_grad=True)
print(a)
b1 = 2 * a
print(b1)
a.requires_grad = False
b2 = 2 * a
print(b2)

a = torch.ones(2, 3, requires_grad=True) * 2
b = torch.ones(2, 3, requires_grad=True) * 3
c1 = a + b
print(c1)
with torch.no_grad():
    c2 = a + b
print(c2)
c3 = a * b
print(c3)


def add_tensors1(x, y):
    return x + y


@torch.no_grad()
def add_tensors2(x, y):
    return x + y


print(add_tensors1(a, b))
print(add_tensors2(a, b))

x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
y = x.detach()
print(x)
print(y)

a = torch.linspace(0.0, 2.0 * math.pi, steps=25, requires_grad=True)
try:
    torch.sin_(a)
except RuntimeError as e:
    print(type(e).__name__, e)

# A graph whose length depends on the data: double until the norm passes 1000.
x = torch.tensor([0.3, -0.7, 1.1], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
