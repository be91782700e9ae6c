"""Answers learners give in exercises/00_welcome.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

CASES = [
    # welcome-1: a tensor that requires grad
    Case("welcome-1", "forgets requires_grad", "t = torch.tensor([0.5, 1.5, 2.5])",
         hint="create t with requires_grad=True"),
    Case("welcome-1", "scales a tensor that requires grad: not a leaf",
         "t = torch.tensor([1.0, 3.0, 5.0], requires_grad=True) / 2", hint="so it is not a leaf"),
    Case("welcome-1", "a Python list", "t = [0.5, 1.5, 2.5]", hint="create tensors with tinygrad_edu.tensor"),
    Case("welcome-1", "right, with arange and requires_grad_()", "t = torch.arange(0.5, 3.0, 1.0).requires_grad_()",
         passes=True),

    # welcome-2: a derivative with backward()
    Case("welcome-2", "an integer u cannot require grad", """
        u = torch.tensor(2, requires_grad=True)
        f_u = u ** 3 - 4 * u
        f_u.backward()
        df_du = u.grad
        """, hint="write the numbers as floats", report="error: RuntimeError: Only Tensors of floating point"),
    Case("welcome-2", "u does not require grad: backward raises", """
        u = torch.tensor(2.0)
        f_u = u ** 3 - 4 * u
        f_u.backward()
        df_du = u.grad
        """, hint="create u with requires_grad=True"),
    Case("welcome-2", "reads u.grad before backward()", """
        u = torch.tensor(2.0, requires_grad=True)
        f_u = u ** 3 - 4 * u
        df_du = u.grad
        f_u.backward()
        """, hint="before f_u.backward() filled it"),
    Case("welcome-2", "types the derivative by hand", """
        u = torch.tensor(2.0, requires_grad=True)
        f_u = u ** 3 - 4 * u
        df_du = 3 * u ** 2 - 4
        """, hint="compute the derivative with autograd"),
    Case("welcome-2", "right, with the product written out and a copy of the gradient", """
        u = torch.tensor(2.0).requires_grad_()
        f_u = u * u * u - 4 * u
        f_u.backward()
        df_du = u.grad.clone()
        """, passes=True),

    # welcome-3: read a grad_fn
    Case("welcome-3", "returns the node itself", """
        def node_name(t):
            return t.grad_fn
        """, hint="returned the node itself"),
    Case("welcome-3", "returns str() of the node", """
        def node_name(t):
            return str(t.grad_fn)
        """, hint="str() of a node describes the object"),
    Case("welcome-3", "forgets the leaf, whose grad_fn is None", """
        def node_name(t):
            return t.grad_fn.name()
        """, hint="a leaf (a tensor no recorded operation made) has grad_fn None",
         report="AttributeError: 'NoneType' object has no attribute 'name'"),
    Case("welcome-3", "right, with the node's class name", """
        def node_name(t):
            return None if t.grad_fn is None else type(t.grad_fn).__name__
        """, passes=True),

    # welcome-4: the gradient of a small expression
    Case("welcome-4", "b does not require grad", """
        a = torch.tensor(3.0, requires_grad=True)
        b = torch.tensor(2.0)
        g_ab = a * b + b ** 2
        g_ab.backward()
        grad_a, grad_b = a.grad, b.grad
        """, hint="grad_b is None. backward() fills .grad only for leaf tensors that require grad",
         not_hint=("a + 2b",)),
    Case("welcome-4", "two backward calls, one per partial derivative", """
        a = torch.tensor(3.0, requires_grad=True)
        b = torch.tensor(2.0, requires_grad=True)
        g_ab = a * b + b ** 2
        g_ab.backward(retain_graph=True)
        grad_a = a.grad
        g_ab.backward()
        grad_b = b.grad
        """, hint="backward() ran twice without zeroing .grad"),
    Case("welcome-4", "the partial derivatives typed by hand", """
        a = torch.tensor(3.0, requires_grad=True)
        b = torch.tensor(2.0, requires_grad=True)
        g_ab = a * b + b ** 2
        grad_a, grad_b = b, a + 2 * b
        """, hint="call g_ab.backward(), once"),
    Case("welcome-4", "right, with copies of the gradients", """
        a = torch.tensor(3.0, requires_grad=True)
        b = torch.tensor(2.0, requires_grad=True)
        g_ab = a * b + b * b
        g_ab.backward()
        grad_a, grad_b = a.grad.clone(), b.grad.clone()
        """, passes=True),

    # welcome-5: a derivative function of your own
    Case("welcome-5", "returns the tensor x.grad", """
        def derivative(f, x0):
            x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
            f(x).backward()
            return x.grad
        """, hint=("is a tensor, where a Python float is asked for", ".item()")),
    Case("welcome-5", "returns f(x0)", """
        def derivative(f, x0):
            x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
            y = f(x)
            y.backward()
            return y.item()
        """, hint="the function's value"),
    Case("welcome-5", "float32", """
        def derivative(f, x0):
            x = torch.tensor(x0, requires_grad=True)
            f(x).backward()
            return x.grad.item()
        """, hint="dtype=torch.float64"),
    Case("welcome-5", "x does not require grad", """
        def derivative(f, x0):
            x = torch.tensor(x0, dtype=torch.float64)
            f(x).backward()
            return x.grad.item()
        """, hint="requires_grad=True", report="element 0 of tensors does not require grad"),
    Case("welcome-5", "right, with autograd.grad and float()", """
        def derivative(f, x0):
            x = torch.tensor(float(x0), dtype=torch.float64, requires_grad=True)
            (slope,) = torch.autograd.grad(f(x), x)
            return float(slope)
        """, passes=True),
]
