"""Answers learners give in exercises/07b_forward_mode.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

CASES = [
    # fwd-1: dual numbers by hand
    Case("fwd-1", "multiplies the tangents", """
        def dual_mul(a, b):
            return (a[0] * b[0], a[1] * b[1])
        """, hint="ε² = 0 drops exactly that term"),
    Case("fwd-1", "only the first factor's tangent", """
        def dual_mul(a, b):
            return (a[0] * b[0], a[1] * b[0])
        """, hint="only one factor's tangent counted"),
    Case("fwd-1", "right, multiplying out and dropping ε²", """
        def dual_mul(a, b):
            (a0, a1), (b0, b1) = a, b
            value = a0 * b0
            tangent = a0 * b1 + a1 * b0  # the a1 * b1 term goes with ε², which is 0
            return value, tangent
        """, passes=True),

    # fwd-2: a directional derivative by forward mode
    Case("fwd-2", "returns the primal", """
        def directional_derivative(f, p, u):
            with fwAD.dual_level():
                return fwAD.unpack_dual(f(fwAD.make_dual(p, u))).primal
        """, hint="that is f(p), the primal part"),
    Case("fwd-2", "reads the tangent after the level", """
        def directional_derivative(f, p, u):
            with fwAD.dual_level():
                y = f(fwAD.make_dual(p, u))
            return fwAD.unpack_dual(y).tangent
        """, hint="read it inside the dual_level block"),
    Case("fwd-2", "right, with func.jvp", """
        def directional_derivative(f, p, u):
            _, tangent = func.jvp(f, (p,), (u,))
            return tangent
        """, passes=True),

    # fwd-3: a Jacobian column by column
    Case("fwd-3", "stacks the columns as rows", """
        def jacobian_forward(f, x):
            columns = []
            for j in range(x.numel()):
                e_j = torch.zeros(x.numel())
                e_j[j] = 1.0
                with fwAD.dual_level():
                    columns.append(fwAD.unpack_dual(f(fwAD.make_dual(x, e_j))).tangent)
            return torch.stack(columns)
        """, hint="that is Jᵀ"),
    Case("fwd-3", "one pass with every input moving", """
        def jacobian_forward(f, x):
            with fwAD.dual_level():
                return fwAD.unpack_dual(f(fwAD.make_dual(x, torch.ones(x.numel())))).tangent
        """, hint="move one input at a time"),
    Case("fwd-3", "right, the basis from torch.eye", """
        def jacobian_forward(f, x):
            basis = torch.eye(x.numel())
            columns = []
            with fwAD.dual_level():
                for j in range(x.numel()):
                    columns.append(fwAD.unpack_dual(f(fwAD.make_dual(x, basis[j]))).tangent)
            return torch.stack(columns, dim=1)
        """, passes=True),

    # fwd-4: which mode is cheaper
    Case("fwd-4", "the other way round", """
        def cheaper_mode(n_inputs, n_outputs):
            return "reverse" if n_inputs < n_outputs else "forward"
        """, hint="forward mode needs one pass per input"),
    Case("fwd-4", "always reverse, as training does", """
        def cheaper_mode(n_inputs, n_outputs):
            return "reverse"
        """, hint="reverse mode needs one pass per output"),
    Case("fwd-4", "right, comparing the passes", """
        def cheaper_mode(n_inputs, n_outputs):
            forward_passes, reverse_passes = n_inputs, n_outputs
            return "forward" if forward_passes < reverse_passes else "reverse"
        """, passes=True),

    # fwd-5: a Hessian-vector product, forward over reverse
    Case("fwd-5", "returns the primal of jvp", """
        def hvp(f, x, v):
            gradient, _ = func.jvp(func.grad(f), (x,), (v,))
            return gradient
        """, hint="that is ∇f(x), the primal part"),
    Case("fwd-5", "tangent of ones instead of v", """
        def hvp(f, x, v):
            _, hv = func.jvp(func.grad(f), (x,), (torch.ones_like(x),))
            return hv
        """, hint="the tangent must be v"),
    Case("fwd-5", "right, a dual tensor through autograd.grad", """
        def hvp(f, x, v):
            with fwAD.dual_level():
                xd = fwAD.make_dual(x, v).requires_grad_(True)
                (g,) = torch.autograd.grad(f(xd), xd)
                return fwAD.unpack_dual(g).tangent
        """, passes=True),

    # fwd-6: per-example gradients
    Case("fwd-6", "the gradient of the summed loss", """
        def per_example_grads(w, xs, ys):
            return func.grad(lambda w: ((xs @ w - ys) ** 2).sum())(w)
        """, hint="the gradient of the summed loss"),
    Case("fwd-6", "the gradient of the mean loss", """
        def per_example_grads(w, xs, ys):
            return func.grad(lambda w: ((xs @ w - ys) ** 2).mean())(w)
        """, hint="the gradient of the mean loss"),
    Case("fwd-6", "right, a loop of grads instead of vmap", """
        def per_example_grads(w, xs, ys):
            def loss(w, x, y):
                return (w @ x - y) ** 2

            return torch.stack([func.grad(loss)(w, xs[k], ys[k]) for k in range(len(xs))])
        """, passes=True),
]
