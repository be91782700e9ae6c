"""The "Autograd mechanics" notes, grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode, eval().

Checks: what each mode does to ``requires_grad`` and ``grad_fn`` of a result, that they nest and work as
decorators, that ``set_grad_enabled`` works as a function and as a context manager, that inference-mode tensors
report ``is_inference()``, and that ``model.eval()`` / ``train()`` only flip ``training`` and leave autograd on.
Also ``requires_grad_()`` on a leaf, and the error for it on a non-leaf that does not require grad.
"""

import torch
from torch import nn

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

with torch.no_grad():
    y = x * 2
    print(y.requires_grad, y.grad_fn, torch.is_grad_enabled())
    with torch.enable_grad():
        w = x * 2
    print(w.requires_grad, w.grad_fn.name())

with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
torch.set_grad_enabled(False)
print((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
print((x * 2).requires_grad, torch.is_grad_enabled())


@torch.no_grad()
def doubler(t):
    return t * 2


@torch.enable_grad()
def tripler(t):
    return t * 3


print(doubler(x).requires_grad)
with torch.no_grad():
    print(tripler(x).requires_grad)

with torch.inference_mode():
    inf = x * 2
    print(inf.requires_grad, torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(inf.is_inference(), x.is_inference(), torch.is_inference_mode_enabled())
with torch.inference_mode(mode=False):
    print((x * 2).requires_grad)

model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
model.eval()
print(model.training, model[0].training)
out = model(torch.ones(1, 2))
print(out.requires_grad, out.grad_fn.name())
model.train()
print(model.training)

# requires_grad_: flips a leaf in place and returns it.
t = torch.zeros(3)
print(t.requires_grad_() is t, t.requires_grad, t.is_leaf)
print(t.requires_grad_(False).requires_grad)
n = t * 2
try:
    (x * 2).requires_grad_(False)
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print(type(e).__name__, str(e))
