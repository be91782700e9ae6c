"""Answers learners give in exercises/01_derivatives.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

SLOPES = """
    kinks = [{kinks}]
    autograd_slopes = []
    for point in kinks:
        x = torch.tensor(point, requires_grad=True)
        g(x).backward()
        autograd_slopes.append({slope})
    """

CASES = [
    # deriv-1: a central difference
    Case("deriv-1", "divides by h instead of 2h", """
        def central_difference(f, x0, h):
            right = f(torch.tensor(x0 + h, dtype=torch.float64))
            left = f(torch.tensor(x0 - h, dtype=torch.float64))
            return ((right - left) / h).item()
        """, hint="divide by 2h", not_hint=("backward()",)),
    Case("deriv-1", "a forward difference", """
        def central_difference(f, x0, h):
            right = f(torch.tensor(x0 + h, dtype=torch.float64))
            here = f(torch.tensor(x0, dtype=torch.float64))
            return ((right - here) / h).item()
        """, hint="forward difference"),
    Case("deriv-1", "float32 tensors", """
        def central_difference(f, x0, h):
            right = f(torch.tensor(x0 + h))
            left = f(torch.tensor(x0 - h))
            return ((right - left) / (2 * h)).item()
        """, hint="float32"),
    Case("deriv-1", "returns the tensor", """
        def central_difference(f, x0, h):
            right = f(torch.tensor(x0 + h, dtype=torch.float64))
            left = f(torch.tensor(x0 - h, dtype=torch.float64))
            return (right - left) / (2 * h)
        """, hint="is a tensor, where a Python float is asked for"),
    Case("deriv-1", "right, with .item() first and Python arithmetic", """
        def central_difference(f, x0, h):
            right = f(torch.tensor(x0 + h, dtype=torch.float64)).item()
            left = f(torch.tensor(x0 - h, dtype=torch.float64)).item()
            return (right - left) / (2 * h)
        """, passes=True),

    # deriv-2: pick a good h
    Case("deriv-2", "h so small that round-off dominates", "good_h = 1e-12", hint="round-off",
         not_hint=("1e-5", "1e-05")),
    Case("deriv-2", "h so large that truncation dominates", "good_h = 1e-2", hint="truncation",
         not_hint=("1e-5", "1e-05")),
    Case("deriv-2", "a negative step", "good_h = -1e-5", hint="a step is a positive number"),
    Case("deriv-2", "right, a smaller step that still works", "good_h = 1e-6", passes=True),

    # deriv-3: where is it not differentiable?
    Case("deriv-3", "guesses 0 at both kinks", "kinks = [-2.0, 1.0]\nautograd_slopes = [0.0, 0.0]",
         hint="0 at both kinks is a guess", not_hint=("zeroed",)),
    Case("deriv-3", "the kinks in decreasing order", SLOPES.format(kinks="1.0, -2.0", slope="x.grad.item()"),
         hint="in increasing order"),
    Case("deriv-3", "the sign of relu's kink", SLOPES.format(kinks="1.0, 2.0", slope="x.grad.item()"),
         hint="at x = -2, not 2"),
    Case("deriv-3", "keeps the gradient tensors", SLOPES.format(kinks="-2.0, 1.0", slope="x.grad"),
         hint="is a tensor, where a Python float is asked for"),
    Case("deriv-3", "right, with autograd.grad", """
        kinks = [-2.0, 1.0]
        autograd_slopes = []
        for point in kinks:
            x = torch.tensor(point, requires_grad=True)
            (slope,) = torch.autograd.grad(g(x), x)
            autograd_slopes.append(float(slope))
        """, passes=True),

    # deriv-4: a derivative by hand
    Case("deriv-4", "sin instead of cos", """
        def dp_by_hand(x):
            return 3 * x ** 2 - 4 * x + torch.sin(x)
        """, hint="(sin x)' = cos x, not sin x"),
    Case("deriv-4", "-cos", """
        def dp_by_hand(x):
            return 3 * x ** 2 - 4 * x - torch.cos(x)
        """, hint="it is (cos x)' that is -sin x"),
    Case("deriv-4", "drops the factor 2 of 2x²", """
        def dp_by_hand(x):
            return 3 * x ** 2 - 2 * x + torch.cos(x)
        """, hint="the factor 2 in front stays"),
    Case("deriv-4", "right, as methods", """
        def dp_by_hand(x):
            return 3 * x * x - 4 * x + x.cos()
        """, passes=True),

    # deriv-5: the chain rule
    Case("deriv-5", "forgets the inner derivative", """
        def dz_dx_by_chain(x):
            return torch.cos(x ** 2)
        """, hint="the inner derivative is missing"),
    Case("deriv-5", "the outer derivative at x", """
        def dz_dx_by_chain(x):
            return torch.cos(x) * 2 * x
        """, hint="the outer derivative is taken at x"),
    Case("deriv-5", "right, factors the other way round", """
        def dz_dx_by_chain(x):
            return 2 * x * (x * x).cos()
        """, passes=True),

    # deriv-6: instantaneous speed
    Case("deriv-6", "backward on a vector", """
        def speed(position, times):
            t = torch.tensor(times, requires_grad=True)
            position(t).backward()
            return t.grad
        """, hint="reduce the result (.sum())", report="grad can be implicitly created only for scalar outputs"),
    Case("deriv-6", "returns the positions", """
        def speed(position, times):
            t = torch.tensor(times, requires_grad=True)
            return position(t)
        """, hint="these are the positions"),
    Case("deriv-6", "right, one backward per time", """
        def speed(position, times):
            rates = []
            for time in times:
                t = torch.tensor(time, requires_grad=True)
                position(t).backward()
                rates.append(t.grad)
            return torch.stack(rates)
        """, passes=True),
]
