"""Answers learners give in exercises/07_higher_order.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

NTH = """
        def nth_derivative(f, x, n):
            x = x.detach().requires_grad_()
            value = f(x)
            for _ in range({times}):
                (value,) = torch.autograd.grad(value, x, create_graph={graph})
            return value.detach()
        """

CASES = [
    # higher-1: a second derivative
    Case("higher-1", "no create_graph on the first derivative", """
        def second_derivative(f, x):
            x = x.detach().requires_grad_()
            (first,) = torch.autograd.grad(f(x), x)
            (second,) = torch.autograd.grad(first, x)
            return second
        """, hint="compute the first with create_graph=True",
         report="element 0 of tensors does not require grad and does not have a grad_fn"),
    Case("higher-1", "writes into x.grad", """
        def second_derivative(f, x):
            x.requires_grad_(True)
            (first,) = torch.autograd.grad(f(x), x, create_graph=True)
            first.backward()
            return x.grad
        """, hint="leaves .grad alone"),
    Case("higher-1", "stops at the first derivative", """
        def second_derivative(f, x):
            x = x.detach().requires_grad_()
            (first,) = torch.autograd.grad(f(x), x, create_graph=True)
            return first
        """, hint="that is the first derivative"),
    Case("higher-1", "right, backward on a copy for the second", """
        def second_derivative(f, x):
            x = x.detach().requires_grad_()
            (first,) = torch.autograd.grad(f(x), x, create_graph=True)
            first.backward()
            return x.grad
        """, passes=True),

    # higher-2: a third derivative and beyond
    Case("higher-2", "one derivative too many", NTH.format(times="n + 1", graph="True"),
         hint="one derivative too many"),
    Case("higher-2", "one derivative too few", NTH.format(times="n - 1", graph="True"),
         hint="one derivative too few"),
    Case("higher-2", "no create_graph", NTH.format(times="n", graph="False"),
         hint="compute the first with create_graph=True", report="element 0 of tensors does not require grad"),
    Case("higher-2", "right, recursive", """
        def nth_derivative(f, x, n):
            x = x.detach().requires_grad_()

            def derivative(g, k):
                return g if k == 0 else derivative(torch.autograd.grad(g, x, create_graph=True)[0], k - 1)

            return derivative(f(x), n).detach()
        """, passes=True),

    # higher-3: a Hessian
    Case("higher-3", "no retain_graph between the rows", """
        def hessian(f, x):
            x = x.detach().requires_grad_()
            (grad_f,) = torch.autograd.grad(f(x), x, create_graph=True)
            return torch.stack([torch.autograd.grad(grad_f[i], x)[0] for i in range(x.numel())])
        """, hint="pass retain_graph=True to the first backward() (or grad())",
         report="Trying to backward through the graph a second time"),
    Case("higher-3", "no create_graph on the gradient", """
        def hessian(f, x):
            x = x.detach().requires_grad_()
            (grad_f,) = torch.autograd.grad(f(x), x)
            return torch.stack([torch.autograd.grad(grad_f[i], x, retain_graph=True)[0] for i in range(x.numel())])
        """, hint="compute the first with create_graph=True", report="element 0 of tensors does not require grad"),
    Case("higher-3", "rows by backward into x.grad, never zeroed", """
        def hessian(f, x):
            x = x.detach().requires_grad_()
            (grad_f,) = torch.autograd.grad(f(x), x, create_graph=True)
            rows = []
            for i in range(x.numel()):
                grad_f[i].backward(retain_graph=True)
                rows.append(x.grad.clone())
            return torch.stack(rows)
        """, hint="x.grad accumulated them"),
    Case("higher-3", "rows that keep their graph", """
        def hessian(f, x):
            x = x.detach().requires_grad_()
            (grad_f,) = torch.autograd.grad(f(x), x, create_graph=True)
            rows = [torch.autograd.grad(grad_f[i], x, create_graph=True)[0] for i in range(x.numel())]
            return torch.stack(rows)
        """, hint="the last grad calls need no create_graph"),
    Case("higher-3", "right, rows from grad_outputs", """
        def hessian(f, x):
            x = x.detach().requires_grad_()
            (grad_f,) = torch.autograd.grad(f(x), x, create_graph=True)
            eye = torch.eye(x.numel())
            rows = [torch.autograd.grad(grad_f, x, grad_outputs=eye[i], retain_graph=True)[0] for i in range(len(eye))]
            return torch.stack(rows)
        """, passes=True),

    # higher-4: a Hessian-vector product without the Hessian
    Case("higher-4", "no create_graph", """
        def hvp(f, x, v):
            x = x.detach().requires_grad_()
            (grad_f,) = torch.autograd.grad(f(x), x)
            return torch.autograd.grad((grad_f * v).sum(), x)[0]
        """, hint="compute the first with create_graph=True", report="element 0 of tensors does not require grad"),
    Case("higher-4", "the gradient of ∇f summed, without v", """
        def hvp(f, x, v):
            x = x.detach().requires_grad_()
            (grad_f,) = torch.autograd.grad(f(x), x, create_graph=True)
            return torch.autograd.grad(grad_f.sum(), x)[0]
        """, hint="weight ∇f by v first"),
    Case("higher-4", "a result that keeps its graph", """
        def hvp(f, x, v):
            x = x.detach().requires_grad_()
            (grad_f,) = torch.autograd.grad(f(x), x, create_graph=True)
            return torch.autograd.grad((grad_f * v).sum(), x, create_graph=True)[0]
        """, hint="the last grad call needs no create_graph"),
    Case("higher-4", "right, with grad_outputs", """
        def hvp(f, x, v):
            x = x.detach().requires_grad_()
            (grad_f,) = torch.autograd.grad(f(x), x, create_graph=True)
            return torch.autograd.grad(grad_f, x, grad_outputs=v)[0]
        """, passes=True),

    # higher-5: gradients of inputs that may be unused
    Case("higher-5", "a 0-d zero for an unused input", """
        def grads_or_zeros(output, inputs):
            grads = torch.autograd.grad(output, inputs, allow_unused=True)
            return [torch.tensor(0.0) if g is None else g for g in grads]
        """, hint="torch.zeros_like(t)", not_hint=("summed back", "broadcast together")),
    Case("higher-5", "no allow_unused", """
        def grads_or_zeros(output, inputs):
            return list(torch.autograd.grad(output, inputs))
        """, hint="pass allow_unused=True", report="appears to not have been used in the graph"),
    Case("higher-5", "None for an unused input", """
        def grads_or_zeros(output, inputs):
            return list(torch.autograd.grad(output, inputs, allow_unused=True))
        """, hint="allow_unused=True gives None for an unused input"),
    Case("higher-5", "backward into .grad", """
        def grads_or_zeros(output, inputs):
            output.backward()
            return [torch.zeros_like(t) if t.grad is None else t.grad for t in inputs]
        """, hint="do not call backward()"),
    Case("higher-5", "right, zeros from the shape", """
        def grads_or_zeros(output, inputs):
            grads = torch.autograd.grad(output, inputs, allow_unused=True)
            return [g if g is not None else torch.zeros(t.shape) for g, t in zip(grads, inputs)]
        """, passes=True),
]
