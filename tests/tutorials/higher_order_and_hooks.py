"""Beyond the basics, as autograd tutorials show it: autograd.grad, second derivatives, hooks and retain_grad.

Checks: ``torch.autograd.grad`` returning a tuple, ``create_graph=True`` then a second ``grad`` for
d2/dx2 of x^3, ``allow_unused``, a tensor hook that doubles a gradient (and its removal handle), a hook on an
intermediate result that only prints, ``retain_grad()`` on a non-leaf, node hooks' input/output gradients, and a
custom Function whose backward is written with tensor ops, so it can be differentiated twice. It also imports
``torch.nn as nn``, ``torch.nn.functional as F`` and ``Function`` from ``torch.autograd``, as tutorials do.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function

x = torch.tensor(2.0, requires_grad=True)
y = x**3
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print(dy)  # 3x^2 = 12
(d2y,) = torch.autograd.grad(dy, x)
print(d2y)  # 6x = 12
print(x.grad)

u = torch.tensor([1.0, 2.0], requires_grad=True)
v = torch.tensor([3.0, 4.0], requires_grad=True)
out = (u * u).sum()
print(torch.autograd.grad(out, [u, v], allow_unused=True))
try:
    torch.autograd.grad((u * u).sum(), [u, v])
except RuntimeError as e:
    print(type(e).__name__, str(e))

# Hooks on tensors.
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
handle = w.register_hook(lambda g: g * 2)
(w * w).sum().backward()
print(w.grad)  # 2w, doubled
handle.remove()
w.grad = None
(w * w).sum().backward()
print(w.grad)

h = w * 3
h.register_hook(lambda g: print("gradient reaching h:", g))
h.retain_grad()
s = (h**2).sum()
s.retain_grad()
w.grad = None
s.backward()
print(h.grad, s.grad, h.retains_grad, w.grad)


def node_hook(grad_inputs, grad_outputs):
    print("MulBackward0 got", grad_outputs, "gave", grad_inputs)


m = torch.tensor([1.0, 2.0], requires_grad=True)
p = m * torch.tensor([5.0, 6.0])
p.grad_fn.register_hook(node_hook)
p.sum().backward()

# Hessian-vector product with two grad calls.
q = torch.tensor([1.0, -1.0], requires_grad=True)
f = (q**3).sum() + q[0] * q[1]
(g,) = torch.autograd.grad(f, q, create_graph=True)
vec = torch.tensor([1.0, 0.0])
(hv,) = torch.autograd.grad((g * vec).sum(), q)
print(g, hv)


class Cube(Function):
    """x^3, with a backward made of tensor operations: differentiable again under create_graph."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x**2


z = torch.tensor([1.0, 2.0], requires_grad=True)
(first,) = torch.autograd.grad(Cube.apply(z).sum(), z, create_graph=True)
(second,) = torch.autograd.grad(first.sum(), z)
print(first, second)

act = nn.Tanh()
r = torch.tensor([-1.0, 0.5], requires_grad=True)
F.relu(act(r) * 2).sum().backward()
print(r.grad)
