"""The "Automatic differentiation with torch.autograd" walk-through: a one-layer net, its graph, its gradients.

Checks: grad_fn names in f-strings, w.grad/b.grad of binary_cross_entropy_with_logits (the weights are fixed
literals so the values are the same in both libraries), requires_grad under no_grad and after detach, and the
vector-Jacobian section: eye(4, 5) through (inp + 1).pow(2).t(), backward twice with retain_graph (gradients
accumulate), then zero_() and once more.
"""

import torch

x = torch.ones(5)  # input
y = torch.zeros(3)  # expected output
w = torch.linspace(-1.0, 1.0, 15).reshape(5, 3).requires_grad_()
b = torch.tensor([0.1, -0.2, 0.3], requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)

print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
print(loss)

loss.backward()
print(w.grad)
print(b.grad)
print(w.is_leaf, z.is_leaf, w.grad.shape, b.grad.dtype)

# Tracking on, off, and a detached copy.
z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)

z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad, z_det.grad_fn, z_det.is_leaf)

# Jacobian products: out is a matrix, so backward needs the vector v in v^T J.
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
print(out.grad_fn, out.shape)
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
