"""Forward-mode AD as PyTorch's forward-mode tutorial shows it, and torch.func's transforms built on it.

Checks: ``dual_level``, ``make_dual`` and ``unpack_dual`` (the named tuple, tangents printed inside dual tensors,
None outside the level), a tangent through element-wise ops, matmul, a reduction and nn.functional; a custom
Function with ``jvp`` and ``save_for_forward``; ``torch.func``: ``jvp``, ``jacfwd`` against ``jacrev``, ``hessian``,
``vmap(grad)`` per-example gradients with ``functional_call``; ``autograd.functional.jacobian`` in forward mode.
"""

import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
from torch.func import functional_call, grad, hessian, jacfwd, jacrev, jvp, vmap

primal = torch.tensor([0.5, -1.0, 2.0])
tangent = torch.tensor([1.0, 0.0, 0.0])


def fn(x, y):
    return x**2 + y**2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(dual_input)
    dual_output = fn(dual_input, primal)
    print(dual_output)
    jvp_result = fwAD.unpack_dual(dual_output).tangent
    print(jvp_result)
    print(fwAD.unpack_dual(dual_output))
    w = torch.tensor([[1.0, 2.0, 3.0], [0.5, -0.5, 0.0]])
    print(fwAD.unpack_dual(w @ dual_input).tangent)
    print(fwAD.unpack_dual(F.softmax(dual_input, dim=0)).tangent)
    print(fwAD.unpack_dual(torch.tanh(dual_input).sum()))
    print(fwAD.unpack_dual(primal))
print(fwAD.unpack_dual(dual_output).tangent)


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        ctx.save_for_forward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.result

    @staticmethod
    def jvp(ctx, grad_input):
        (result,) = ctx.saved_tensors
        return grad_input * result


with fwAD.dual_level():
    print(Fn.apply(fwAD.make_dual(primal, tangent)))


def f(x):
    return torch.sin(x) * x.sum()


x = torch.tensor([0.1, 0.2, 0.3])
print(jvp(f, (x,), (torch.ones(3),)))
print(jacfwd(f)(x))
print(torch.allclose(jacfwd(f)(x), jacrev(f)(x)))
print(hessian(lambda x: (x**3).sum())(x))

model = torch.nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.2, 0.3]]))
    model.bias.fill_(0.5)
params = {k: v.detach() for k, v in model.named_parameters()}
xs = torch.arange(12.0).reshape(4, 3) / 10
ys = torch.tensor([[1.0], [0.0], [1.0], [0.0]])


def loss(p, x1, y1):
    return F.mse_loss(functional_call(model, p, (x1.unsqueeze(0),)), y1.unsqueeze(0))


per_example = vmap(grad(loss), in_dims=(None, 0, 0))(params, xs, ys)
print(per_example["weight"].shape, per_example["bias"])
print(torch.autograd.functional.jacobian(f, x, strategy="forward-mode", vectorize=True))
