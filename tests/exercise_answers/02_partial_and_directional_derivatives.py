"""Answers learners give in exercises/02_partial_and_directional_derivatives.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

PARTIALS = """
    def df_dx(x, y):
        return {dx}


    def df_dy(x, y):
        return {dy}
    """

CASES = [
    # partial-1: partial derivatives by hand
    Case("partial-1", "forgets the derivative of -x", PARTIALS.format(dx="3 * x ** 2 * y", dy="x ** 3 + 4 * y"),
         hint="(-x)' = -1"),
    Case("partial-1", "the two swapped", PARTIALS.format(dx="x ** 3 + 4 * y", dy="3 * x ** 2 * y - 1"),
         hint="df_dx and df_dy are swapped"),
    Case("partial-1", "(2y²)' taken as 2y", PARTIALS.format(dx="3 * x ** 2 * y - 1", dy="x ** 3 + 2 * y"),
         hint="the exponent comes down"),
    Case("partial-1", "right, terms in another order", PARTIALS.format(dx="-1 + 3 * y * x * x", dy="4 * y + x ** 3"),
         passes=True),

    # partial-2: partial derivatives with autograd
    Case("partial-2", "returns the gradient tensors", """
        def partials(fn, x0, y0):
            x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
            y = torch.tensor(y0, dtype=torch.float64, requires_grad=True)
            fn(x, y).backward()
            return x.grad, y.grad
        """, hint=("partials(f, 2.0, -1.0)[0] is a tensor", ".item()")),
    Case("partial-2", "a list, not a tuple", """
        def partials(fn, x0, y0):
            x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
            y = torch.tensor(y0, dtype=torch.float64, requires_grad=True)
            fn(x, y).backward()
            return [x.grad.item(), y.grad.item()]
        """, hint="as a tuple"),
    Case("partial-2", "the same two tensors in every call: the gradients add up", """
        x = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
        y = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)


        def partials(fn, x0, y0):
            with torch.no_grad():
                x.fill_(x0)
                y.fill_(y0)
            fn(x, y).backward()
            return x.grad.item(), y.grad.item()
        """, hint="make fresh tensors in every call"),
    Case("partial-2", "right, with autograd.grad", """
        def partials(fn, x0, y0):
            x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
            y = torch.tensor(y0, dtype=torch.float64, requires_grad=True)
            gx, gy = torch.autograd.grad(fn(x, y), (x, y))
            return gx.item(), gy.item()
        """, passes=True),

    # directional-1: the directional derivative
    Case("directional-1", "does not normalise the direction", """
        def directional_derivative(fn, point, direction):
            t = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
            fn(point[0] + t * direction[0], point[1] + t * direction[1]).backward()
            return t.grad.item()
        """, hint="not as a unit vector", not_hint=("backward() ran",)),
    Case("directional-1", "divides by a + b", """
        def directional_derivative(fn, point, direction):
            a, b = direction
            t = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
            fn(point[0] + t * a / (a + b), point[1] + t * b / (a + b)).backward()
            return t.grad.item()
        """, hint="divided by a + b"),
    Case("directional-1", "returns a tensor", """
        def directional_derivative(fn, point, direction):
            length = math.hypot(*direction)
            t = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
            fn(point[0] + t * direction[0] / length, point[1] + t * direction[1] / length).backward()
            return t.grad
        """, hint="is a tensor, where a Python float is asked for"),
    Case("directional-1", "right, from the gradient, with torch.linalg.norm", """
        def directional_derivative(fn, point, direction):
            x = torch.tensor(point[0], dtype=torch.float64, requires_grad=True)
            y = torch.tensor(point[1], dtype=torch.float64, requires_grad=True)
            fn(x, y).backward()
            d = torch.tensor(direction, dtype=torch.float64)
            u = d / torch.linalg.norm(d)
            return (x.grad * u[0] + y.grad * u[1]).item()
        """, passes=True),

    # directional-2: every direction at once
    Case("directional-2", "degrees given to cos and sin", """
        def directional_all(grad, degrees):
            return grad[0] * torch.cos(degrees) + grad[1] * torch.sin(degrees)
        """, hint="take radians"),
    Case("directional-2", "cos and sin swapped", """
        def directional_all(grad, degrees):
            radians = degrees * math.pi / 180
            return grad[0] * torch.sin(radians) + grad[1] * torch.cos(radians)
        """, hint="cos and sin are swapped"),
    Case("directional-2", "math.radians on a tensor", """
        def directional_all(grad, degrees):
            radians = math.radians(degrees)
            return grad[0] * torch.cos(radians) + grad[1] * torch.sin(radians)
        """, hint="use the tensor's own operations", report="only one element tensors can be converted"),
    Case("directional-2", "right, with torch.pi and a stack of directions", """
        def directional_all(grad, degrees):
            theta = degrees / 180 * torch.pi
            return torch.stack([theta.cos(), theta.sin()], dim=1) @ grad
        """, passes=True),

    # directional-3: the direction in which nothing changes
    Case("directional-3", "the gradient's direction", """
        def level_direction(fn, point):
            x = torch.tensor(point[0], dtype=torch.float64, requires_grad=True)
            y = torch.tensor(point[1], dtype=torch.float64, requires_grad=True)
            fn(x, y).backward()
            g = torch.stack([x.grad, y.grad])
            return g / torch.sqrt((g ** 2).sum())
        """, hint="u points along the gradient"),
    Case("directional-3", "perpendicular but not of length 1", """
        def level_direction(fn, point):
            x = torch.tensor(point[0], dtype=torch.float64, requires_grad=True)
            y = torch.tensor(point[1], dtype=torch.float64, requires_grad=True)
            fn(x, y).backward()
            return torch.stack([-y.grad, x.grad])
        """, hint="a unit vector has length 1"),
    Case("directional-3", "a tuple of numbers", """
        def level_direction(fn, point):
            x = torch.tensor(point[0], dtype=torch.float64, requires_grad=True)
            y = torch.tensor(point[1], dtype=torch.float64, requires_grad=True)
            fn(x, y).backward()
            length = math.hypot(x.grad.item(), y.grad.item())
            return (-y.grad.item() / length, x.grad.item() / length)
        """, hint="create tensors with tinygrad_edu.tensor"),
    Case("directional-3", "right, the other perpendicular", """
        def level_direction(fn, point):
            x = torch.tensor(point[0], dtype=torch.float64, requires_grad=True)
            y = torch.tensor(point[1], dtype=torch.float64, requires_grad=True)
            fn(x, y).backward()
            g = torch.stack([y.grad, -x.grad])
            return g / torch.linalg.vector_norm(g)
        """, passes=True),
]
