"""The "Autograd mechanics" notes, in-place operations: the version counter and the errors that keep gradients right.

Checks: ``_version`` counting in-place changes; changing a tensor saved for backward raises at backward with
PyTorch's message (read here up to the version numbers' sentence); in-place on a leaf that requires grad raises;
the same in-place change under no_grad is allowed; and an in-place op on a result that nothing saved is fine
and renames its node (``MulBackward0`` becomes ``AddBackward0``).
"""

import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()
print(b._version)
c = b * 2
b.add_(1)  # sigmoid saved its result for backward: now it is stale
print(b._version, b.grad_fn.name())
try:
    c.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).split(";")[0])

try:
    a.add_(1)
except RuntimeError as e:
    print(type(e).__name__, str(e))

with torch.no_grad():
    a.mul_(2)
print(a, a._version, a.is_leaf)

d = a * 3  # MulBackward0 saves a (a leaf), not d: changing d is safe
d.add_(1)
print(d.grad_fn.name(), d._version)
d.sum().backward()
print(a.grad)

e = torch.tensor([4.0, 5.0])
e[0] = 7.0
e.zero_()
print(e, e._version)
