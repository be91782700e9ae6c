"""Answers learners give in exercises/09_custom_functions.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

ONE_INPUT = """
        class {name}(Function):
            @staticmethod
            def forward(ctx, x):
                {forward}

            @staticmethod
            def backward(ctx, grad_output):
                {backward}
        """

SAVED = "result = x.sigmoid()\n                ctx.save_for_backward(result)\n                return result"

HYPOT = """
        class Hypot(Function):
            @staticmethod
            def forward(ctx, a, b):
                h = (a * a + b * b).sqrt()
                ctx.save_for_backward(a, b, h)
                return h

            @staticmethod
            def backward(ctx, grad_output):
                a, b, h = ctx.saved_tensors
                return {gradients}


        a = torch.tensor([3.0, -1.0, 0.5], dtype={dtype}, requires_grad=True)
        b = torch.tensor([4.0, 2.0, -1.5], dtype={dtype}, requires_grad=True)
        hypot_ok = gradcheck(Hypot.apply, (a, b))
        """

BILINEAR = """
        class Bilinear(Function):
            @staticmethod
            def forward(ctx, x, mat, y):
                ctx.save_for_backward(x, mat, y)
                return x.dot(mat.mv(y))

            @staticmethod
            def backward(ctx, grad_output):
                x, mat, y = ctx.saved_tensors
                grad_x = grad_mat = grad_y = None
                if {need_x}:
                    grad_x = {grad_x}
                if {need_mat}:
                    grad_mat = {grad_mat}
                if {need_y}:
                    grad_y = grad_output * mat.t().mv(x)
                return grad_x, grad_mat, grad_y
        """

NEEDS = {f"need_{name}": f"ctx.needs_input_grad[{i}]" for i, name in enumerate(("x", "mat", "y"))}

CHECKER = """
        def backward_is_correct(function, *inputs):
            copies = tuple({copy} for t in inputs)
            return gradcheck(function.apply, copies{raising})


        square_ok = backward_is_correct(Square, torch.tensor([1.0, 2.0, 3.0]))
        """

CASES = [
    # custom-1: Sigmoid with its own backward
    Case("custom-1", "backward ignores grad_output", ONE_INPUT.format(name="Sigmoid",
        forward=SAVED, backward="result, = ctx.saved_tensors\n                return result * (1 - result)"),
         hint="backward ignored grad_output"),
    Case("custom-1", "keeps the output in ctx.result, not save_for_backward", ONE_INPUT.format(name="Sigmoid",
        forward="ctx.result = x.sigmoid()\n                return ctx.result",
        backward="return grad_output * ctx.result * (1 - ctx.result)"),
         hint="save it with ctx.save_for_backward"),
    Case("custom-1", "the derivative without (1 - σ)", ONE_INPUT.format(name="Sigmoid",
        forward=SAVED, backward="result, = ctx.saved_tensors\n                return grad_output * result"),
         hint="the factor (1 − σ(x)) is missing"),
    Case("custom-1", "right, saves x and recomputes σ", ONE_INPUT.format(name="Sigmoid",
        forward="ctx.save_for_backward(x)\n                return 1 / (1 + (-x).exp())",
        backward="x, = ctx.saved_tensors\n                s = x.sigmoid()\n"
                 "                return grad_output * s * (1 - s)"),
         passes=True),

    # custom-2: a two-input Function, verified by gradcheck
    Case("custom-2", "backward ignores grad_output: its own gradcheck raises",
         HYPOT.format(gradients="a / h, b / h", dtype="torch.float64"), hint="backward ignored grad_output",
         not_hint=("float64",)),
    Case("custom-2", "one gradient for two inputs",
         HYPOT.format(gradients="grad_output * a / h", dtype="torch.float64"),
         hint="one gradient per input of forward", report="returned an incorrect number of gradients"),
    Case("custom-2", "gradcheck on float32 inputs", HYPOT.format(
        gradients="grad_output * a / h, grad_output * b / h", dtype="torch.float32").replace(
        "gradcheck(Hypot.apply, (a, b))", "gradcheck(Hypot.apply, (a, b), raise_exception=False)"),
         hint="with float64 a and b"),
    Case("custom-2", "right, recomputes h in backward", """
        class Hypot(Function):
            @staticmethod
            def forward(ctx, a, b):
                ctx.save_for_backward(a, b)
                return torch.sqrt(a ** 2 + b ** 2)

            @staticmethod
            def backward(ctx, grad_output):
                a, b = ctx.saved_tensors
                scale = grad_output / torch.sqrt(a ** 2 + b ** 2)
                return scale * a, scale * b


        hypot_ok = gradcheck(Hypot.apply, (torch.randn(4, dtype=torch.float64, requires_grad=True),
                                           torch.randn(4, dtype=torch.float64, requires_grad=True)))
        """, passes=True),

    # custom-3: only the gradients that are needed
    Case("custom-3", "a transposed grad_mat", BILINEAR.format(
        **NEEDS, grad_x="grad_output * mat.mv(y)", grad_mat="grad_output * (y.unsqueeze(1) * x.unsqueeze(0))"),
         hint="a transposed matrix"),
    Case("custom-3", "computes every gradient", BILINEAR.format(
        need_x="True", need_mat="True", need_y="True", grad_x="grad_output * mat.mv(y)",
        grad_mat="grad_output * (x.unsqueeze(1) * y.unsqueeze(0))"), hint="skip it and return None"),
    Case("custom-3", "grad_x without grad_output", BILINEAR.format(
        **NEEDS, grad_x="mat.mv(y)", grad_mat="grad_output * (x.unsqueeze(1) * y.unsqueeze(0))"),
         hint="backward ignored grad_output"),
    Case("custom-3", "right, with torch.outer", BILINEAR.format(
        **NEEDS, grad_x="mat.mv(y) * grad_output", grad_mat="torch.outer(x, y) * grad_output"), passes=True),

    # custom-4: a straight-through estimator
    Case("custom-4", "backward returns the step's true derivative, 0", ONE_INPUT.format(name="StepSTE",
        forward="return (x > 0).float()", backward="return torch.zeros_like(grad_output)"),
         hint="the step's own derivative, 0", not_hint=("zeroed",)),
    Case("custom-4", "backward passes only where x > 0", ONE_INPUT.format(name="StepSTE",
        forward="ctx.save_for_backward(x)\n                return (x > 0).float()",
        backward="x, = ctx.saved_tensors\n                return grad_output * (x > 0).float()"),
         hint="as relu's backward does"),
    Case("custom-4", "forward returns the comparison itself", ONE_INPUT.format(name="StepSTE",
        forward="return x > 0", backward="return grad_output"), hint="convert it with .float()"),
    Case("custom-4", "right, a clone of grad_output", ONE_INPUT.format(name="StepSTE",
        forward="return torch.where(x > 0, 1.0, 0.0)", backward="return grad_output.clone()"), passes=True),

    # custom-5: catch a wrong backward
    Case("custom-5", "gradcheck raises: no raise_exception=False",
         CHECKER.format(copy="t.detach().double().requires_grad_()", raising=""),
         hint="raise_exception=False) returns False instead of raising", report="GradcheckError"),
    Case("custom-5", "float32 copies",
         CHECKER.format(copy="t.detach().requires_grad_()", raising=", raise_exception=False"),
         hint="check float64 copies"),
    Case("custom-5", "a point where the wrong backward happens to be right", CHECKER.format(
        copy="t.detach().double().requires_grad_()", raising=", raise_exception=False").replace(
        "torch.tensor([1.0, 2.0, 3.0])", "torch.tensor([0.0])"), hint="gradcheck should fail"),
    Case("custom-5", "right, catches the exception", """
        def backward_is_correct(function, *inputs):
            try:
                return gradcheck(function.apply, [t.detach().to(torch.float64).requires_grad_() for t in inputs])
            except Exception:
                return False


        square_ok = backward_is_correct(Square, torch.tensor([1.0, 2.0, 3.0]))
        """, passes=True),
]
