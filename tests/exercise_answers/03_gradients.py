"""Answers learners give in exercises/03_gradients.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

ASCENT = """
    def steepest_ascent(fn, point):
        x = torch.tensor(point[0], dtype=torch.float64, requires_grad=True)
        y = torch.tensor(point[1], dtype=torch.float64, requires_grad=True)
        fn(x, y).backward()
        g = torch.stack([x.grad, y.grad])
        length = torch.sqrt((g ** 2).sum())
        return {result}
    """

TRAIN = """
def train(x, y, lr, steps):
    w = torch.tensor(0.0, requires_grad=True)
    for _ in range(steps):
        loss = mse(w, x, y)
        loss.backward()
{update}
    return w
"""

CASES = [
    # gradient-1: the direction of steepest ascent
    Case("gradient-1", "returns the rate as a tensor", ASCENT.format(result="g / length, length"),
         hint="is a tensor, where a Python float is asked for"),
    Case("gradient-1", "does not normalise u", ASCENT.format(result="g, length.item()"),
         hint="u is the gradient itself"),
    Case("gradient-1", "the direction of descent", ASCENT.format(result="-g / length, length.item()"),
         hint="steepest descent"),
    Case("gradient-1", "the squared length as the rate", ASCENT.format(result="g / length, (g ** 2).sum().item()"),
         hint="the sum of the squares"),
    Case("gradient-1", "right, with torch.linalg.norm", """
        def steepest_ascent(fn, point):
            x = torch.tensor(point[0], dtype=torch.float64, requires_grad=True)
            y = torch.tensor(point[1], dtype=torch.float64, requires_grad=True)
            fn(x, y).backward()
            g = torch.stack([x.grad, y.grad])
            n = torch.linalg.norm(g)
            return g / n, n.item()
        """, passes=True),

    # descent-1: gradient descent
    Case("descent-1", "climbs: adds lr · gradient", """
        def descend(fn, start, lr, steps):
            p = torch.tensor(start, dtype=torch.float64)
            for _ in range(steps):
                x = p[0].detach().requires_grad_()
                y = p[1].detach().requires_grad_()
                fn(x, y).backward()
                p = p + lr * torch.stack([x.grad, y.grad])
            return p
        """, hint=("the sign is flipped", "Descent subtracts")),
    Case("descent-1", "one leaf for the whole walk, never zeroed", """
        def descend(fn, start, lr, steps):
            p = torch.tensor(start, dtype=torch.float64, requires_grad=True)
            for _ in range(steps):
                fn(p[0], p[1]).backward()
                with torch.no_grad():
                    p -= lr * p.grad
            return p
        """, hint="gradients add up in .grad"),
    Case("descent-1", "returns a list", """
        def descend(fn, start, lr, steps):
            x, y = start
            for _ in range(steps):
                tx = torch.tensor(x, dtype=torch.float64, requires_grad=True)
                ty = torch.tensor(y, dtype=torch.float64, requires_grad=True)
                fn(tx, ty).backward()
                x, y = x - lr * tx.grad.item(), y - lr * ty.grad.item()
            return [x, y]
        """, hint="create tensors with tinygrad_edu.tensor"),
    Case("descent-1", "right, with autograd.grad and a fresh leaf per step", """
        def descend(fn, start, lr, steps):
            p = torch.tensor(start, dtype=torch.float64)
            for _ in range(steps):
                q = p.clone().requires_grad_()
                (g,) = torch.autograd.grad(fn(q[0], q[1]), q)
                p = p - lr * g
            return p
        """, passes=True),

    # descent-2: choosing the learning rate
    Case("descent-2", "a negative bad rate", "lr_good = 0.1\nlr_bad = -0.1", hint="a negative rate climbs"),
    Case("descent-2", "a good rate too small", "lr_good = 0.01\nlr_bad = 0.25", hint="too small a rate crawls"),
    Case("descent-2", "a good rate too large", "lr_good = 0.19\nlr_bad = 0.25", hint="too large a rate overshoots"),
    Case("descent-2", "a bad rate that still converges", "lr_good = 0.1\nlr_bad = 0.15",
         hint="the walk diverges when that factor is below -1"),
    Case("descent-2", "right, other rates", "lr_good = 0.09\nlr_bad = 1.0", passes=True),

    # fit-1: a loss over a parameter
    Case("fit-1", "the sum instead of the mean", """
        def mse(w, x, y):
            return ((w * x - y) ** 2).sum()
        """, hint="not the sum"),
    Case("fit-1", "the absolute error", """
        def mse(w, x, y):
            return (w * x - y).abs().mean()
        """, hint="the mean absolute error", not_hint=("not the sum",)),
    Case("fit-1", "the root of the mean squared error", """
        def mse(w, x, y):
            return ((w * x - y) ** 2).mean().sqrt()
        """, hint="no square root"),
    Case("fit-1", "a Python float", """
        def mse(w, x, y):
            return ((w * x - y) ** 2).mean().item()
        """, hint="create tensors with tinygrad_edu.tensor"),
    Case("fit-1", "right, the sum divided by the number of samples", """
        def mse(w, x, y):
            return ((y - w * x) ** 2).sum() / len(x)
        """, passes=True),

    # fit-2: training w with a hand-written loop
    Case("fit-2", "never zeroes the gradient", TRAIN.format(update="""\
        with torch.no_grad():
            w -= lr * w.grad"""), hint="gradients add up in .grad"),
    Case("fit-2", "updates out of place: w = w - lr * w.grad", TRAIN.format(update="""\
        w = w - lr * w.grad
        w.grad.zero_()"""), hint="a parameter rebound with p = p - ...",
         report="AttributeError: 'NoneType' object has no attribute 'zero_'"),
    Case("fit-2", "updates in place without no_grad()", TRAIN.format(update="""\
        w -= lr * w.grad
        w.grad.zero_()"""), hint="inside `with torch.no_grad():`",
         report="a leaf Variable that requires grad is being used in an in-place operation"),
    Case("fit-2", "right, with sub_() and .grad = None", TRAIN.format(update="""\
        with torch.no_grad():
            w.sub_(lr * w.grad)
        w.grad = None"""), passes=True),
]
