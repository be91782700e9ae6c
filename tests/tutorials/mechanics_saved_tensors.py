"""The "Autograd mechanics" notes, saved tensors: what a node keeps for backward, and when it is the same object.

Checks: ``y = x.pow(2)`` saves its input as ``grad_fn._saved_self``, which is ``x`` itself and equal to it;
``y = x.exp()`` saves its output as ``grad_fn._saved_result``, equal to ``y`` but not the same Python object
(saving an output would otherwise make a reference cycle); exponents saved as plain numbers; and the error for
reading a saved tensor after backward freed it.
"""

import torch

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))  # True
print(x is y.grad_fn._saved_self)  # True
print(y.grad_fn._saved_exponent, type(y.grad_fn._saved_exponent).__name__)

x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))  # True
print(y is y.grad_fn._saved_result)  # False

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
c = a * b
print(c.grad_fn._saved_other, c.grad_fn._saved_other is b)
print(c.grad_fn._saved_self is a)

z = (a * a).sum()
saved = z.grad_fn.next_functions[0][0]
print(saved.name(), saved._saved_self)
z.backward()
try:
    print(saved._saved_self)
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
