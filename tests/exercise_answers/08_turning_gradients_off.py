"""Answers learners give in exercises/08_turning_gradients_off.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

RECORDED = 'recorded = {{"r1": True, "r2": False, "r3": {r3}, "r4": {r4}, "r5": False, "r6": False, "r7": {r7}}}'

SGD = """
        def sgd_step(params, lr):
        {body}
        """

CASES = [
    # nograd-1: which lines record a graph?
    Case("nograd-1", "enable_grad() inside no_grad() taken for nothing", RECORDED.format(r3=False, r4=False, r7=True),
         hint="enable_grad() switches recording back on"),
    Case("nograd-1", "a detached copy that requires grad taken for untracked",
         RECORDED.format(r3=True, r4=False, r7=False), hint="requires_grad_() makes it require grad"),
    Case("nograd-1", "an operation on tensors that need no grad taken for recorded",
         RECORDED.format(r3=True, r4=True, r7=True), hint="q does not require grad"),
    Case("nograd-1", "right, with dict()",
         "recorded = dict(r1=True, r2=False, r3=True, r4=False, r5=False, r6=False, r7=True)", passes=True),

    # nograd-2: evaluate a model without building a graph
    Case("nograd-2", "records the graph, then detaches the result", """
        def evaluate(model, inputs, targets):
            return ((model(inputs) - targets) ** 2).mean().detach()
        """, hint="only its result detached"),
    Case("nograd-2", "switches recording off with a plain call", """
        def evaluate(model, inputs, targets):
            torch.set_grad_enabled(False)
            return ((model(inputs) - targets) ** 2).mean()
        """, hint="use a `with` block instead"),
    Case("nograd-2", "returns a Python float", """
        def evaluate(model, inputs, targets):
            with torch.no_grad():
                return ((model(inputs) - targets) ** 2).mean().item()
        """, hint="create tensors with tinygrad_edu.tensor"),
    Case("nograd-2", "right, with set_grad_enabled(False) as a block", """
        def evaluate(model, inputs, targets):
            with torch.set_grad_enabled(False):
                error = model(inputs) - targets
                return (error * error).mean()
        """, passes=True),

    # nograd-3: one step of gradient descent, by hand
    Case("nograd-3", "through .data", SGD.format(body="""
            for p in params:
                p.data -= lr * p.grad
                p.grad.zero_()"""), hint="the update went through .data"),
    Case("nograd-3", "rebinds the loop variable", SGD.format(body="""
            with torch.no_grad():
                for p in params:
                    p = p - lr * p.grad
            for p in params:
                p.grad.zero_()"""), hint="only gives the loop variable a new tensor"),
    Case("nograd-3", "zeroes the gradient before the update", SGD.format(body="""
            for p in params:
                p.grad.zero_()
            with torch.no_grad():
                for p in params:
                    p -= lr * p.grad"""), hint="the gradient was zeroed before the update"),
    Case("nograd-3", "updates in place without no_grad()", SGD.format(body="""
            for p in params:
                p -= lr * p.grad
                p.grad.zero_()"""), hint="update a parameter in place inside `with torch.no_grad():`",
         report="a leaf Variable that requires grad is being used in an in-place operation"),
    Case("nograd-3", "right, with sub_()", SGD.format(body="""
            with torch.no_grad():
                for p in params:
                    p.sub_(lr * p.grad)
                    p.grad.zero_()"""), passes=True),

    # nograd-4: a constant factor with detach()
    Case("nograd-4", "no detach(): the gradient goes through the sigmoid", """
        def damped(x):
            return (x * x.sigmoid()).sum()
        """, hint="the gradient flowed through the sigmoid too"),
    Case("nograd-4", "detaches x as well", """
        def damped(x):
            x = x.detach()
            return (x * x.sigmoid()).sum()
        """, hint="detach only the sigmoid"),
    Case("nograd-4", "right, the sigmoid under no_grad()", """
        def damped(x):
            with torch.no_grad():
                s = torch.sigmoid(x)
            return (s * x).sum()
        """, passes=True),

    # nograd-5: a slope that works even under no_grad()
    Case("nograd-5", "no enable_grad(): nothing is recorded under the caller's no_grad()", """
        def slope(f, x):
            t = x.detach().requires_grad_()
            (g,) = torch.autograd.grad(f(t).sum(), t)
            return g
        """, hint="switch recording back on with torch.enable_grad()",
         report="element 0 of tensors does not require grad"),
    Case("nograd-5", "makes the caller's x require grad", """
        def slope(f, x):
            with torch.enable_grad():
                x.requires_grad_()
                (g,) = torch.autograd.grad(f(x).sum(), x)
            return g
        """, hint="work on a copy"),
    Case("nograd-5", "right, backward on a copy", """
        def slope(f, x):
            with torch.set_grad_enabled(True):
                t = x.detach().clone().requires_grad_()
                f(t).sum().backward()
            return t.grad
        """, passes=True),
]
