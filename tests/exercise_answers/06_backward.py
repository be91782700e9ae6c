"""Answers learners give in exercises/06_backward.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

JACOBIAN = """
        def jacobian_by_hand(x):
            x0, x1, x2 = (float(t) for t in x)
            return torch.tensor({rows})
        """

BACKWARD_4 = """
        x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)  # made afresh each time this cell runs
        calls = 0"""

RIGHT_4 = BACKWARD_4 + """
        y = forward(x)
        y.sum().backward(retain_graph=True)
        g_sum = x.grad.clone()
        x.grad = None
        (y * y).sum().backward()
        g_squares = x.grad.clone()"""

W_ONLY = """
        def backward_w_only(loss_mean, per_sample, weights, w):
            {body}
        """

CASES = [
    # backward-1: a Jacobian by hand
    Case("backward-1", "transposed",
         JACOBIAN.format(rows="[[2 * x0 * x2, -1.0, 0.0], [0.0, 1.0, x2], [x0 ** 2, 0.0, x1]]"),
         hint="transposed: row i must hold", not_hint=("transpose of the expected",)),
    Case("backward-1", "the power rule's 2 forgotten",
         JACOBIAN.format(rows="[[x0 * x2, 0.0, x0 ** 2], [-1.0, 1.0, 0.0], [0.0, x2, x1]]"),
         hint="the power rule brings the 2 down"),
    Case("backward-1", "a matrix of zeros", """
        def jacobian_by_hand(x):
            return torch.zeros(3, 3)
        """, hint=("all zeros, but the expected values are not", "row i holds the derivatives of output i"),
         not_hint=("zeroed",)),
    Case("backward-1", "right, stacked row by row", """
        def jacobian_by_hand(x):
            x0, x1, x2 = (float(t) for t in x)
            rows = [[2 * x0 * x2, 0, x0 * x0], [-1, 1, 0], [0, x2, x1]]
            return torch.stack([torch.tensor(row, dtype=torch.float32) for row in rows])
        """, passes=True),

    # backward-2: a vector-Jacobian product with gradient=
    Case("backward-2", "makes the caller's x require grad", """
        def vjp(x, v):
            x.requires_grad_()
            g(x).backward(v)
            return x.grad
        """, hint="work on a copy of x"),
    Case("backward-2", "backward of the sum, without v", """
        def vjp(x, v):
            x = x.detach().requires_grad_()
            g(x).sum().backward()
            return x.grad
        """, hint="pass v as backward's gradient argument"),
    Case("backward-2", "J·v from exercise 1", """
        def vjp(x, v):
            return jacobian_by_hand(x) @ v
        """, hint="that is J·v"),
    Case("backward-2", "right, with a clone", """
        def vjp(x, v):
            copy = x.clone().requires_grad_()
            torch.autograd.backward(g(copy), v)
            return copy.grad
        """, passes=True),

    # backward-3: gradients accumulate
    Case("backward-3", "never resets w.grad", """
        def fresh_grad(loss_fn, w):
            loss_fn(w).backward()
            return w.grad.clone()
        """, hint=("backward() ran twice without zeroing .grad", "reset w.grad (to None, or .zero_())")),
    Case("backward-3", "returns w.grad itself", """
        def fresh_grad(loss_fn, w):
            if w.grad is not None:
                w.grad.zero_()
            loss_fn(w).backward()
            return w.grad
        """, hint="you returned w.grad itself"),
    Case("backward-3", "subtracts the old gradient afterwards", """
        def fresh_grad(loss_fn, w):
            old = w.grad.clone() if w.grad is not None else torch.zeros_like(w)
            loss_fn(w).backward()
            return w.grad - old
        """, hint="do not subtract it from the result afterwards"),
    Case("backward-3", "right, zero_() and a detached copy", """
        def fresh_grad(loss_fn, w):
            if w.grad is not None:
                w.grad.zero_()
            loss_fn(w).backward()
            return w.grad.detach().clone()
        """, passes=True),

    # backward-4: one forward pass, two backward passes
    Case("backward-4", "the second backward without retain_graph", BACKWARD_4 + """
        y = forward(x)
        y.sum().backward()
        g_sum = x.grad.clone()
        x.grad = None
        (y * y).sum().backward()
        g_squares = x.grad.clone()""", hint="pass retain_graph=True to the first backward()",
         report="before it defined `g_squares`"),
    Case("backward-4", "does not reset x.grad in between", BACKWARD_4 + """
        y = forward(x)
        y.sum().backward(retain_graph=True)
        g_sum = x.grad.clone()
        (y * y).sum().backward()
        g_squares = x.grad.clone()""", hint="the two gradients were added in x.grad"),
    Case("backward-4", "keeps x.grad itself as g_sum, then zero_()", BACKWARD_4 + """
        y = forward(x)
        y.sum().backward(retain_graph=True)
        g_sum = x.grad
        x.grad.zero_()
        (y * y).sum().backward()
        g_squares = x.grad.clone()""", hint="g_sum is x.grad itself"),
    Case("backward-4", "runs the forward twice", BACKWARD_4 + """
        forward(x).sum().backward()
        g_sum = x.grad.clone()
        x.grad = None
        (forward(x) ** 2).sum().backward()
        g_squares = x.grad.clone()""", hint="compute y = forward(x) once"),
    Case("backward-4", "a first attempt without the reset, then the solution (nothing to re-run above)",
         (BACKWARD_4 + """
        y = forward(x)
        y.sum().backward(retain_graph=True)
        g_sum = x.grad.clone()
        (y * y).sum().backward()
        g_squares = x.grad.clone()""", RIGHT_4), passes=True),
    Case("backward-4", "right, zero_() between the passes", BACKWARD_4 + """
        y = forward(x)
        y.sum().backward(retain_graph=True)
        g_sum = x.grad.clone()
        x.grad.zero_()
        (y ** 2).sum().backward()
        g_squares = x.grad.clone()""", passes=True),

    # backward-5: several outputs, chosen inputs
    Case("backward-5", "no inputs=: b gets a gradient too", W_ONLY.format(
        body="torch.autograd.backward([loss_mean, per_sample], grad_tensors=[torch.tensor(1.0), weights])"),
        hint="list only w in the `inputs` argument"),
    Case("backward-5", "weights every sample by 1", W_ONLY.format(
        body="torch.autograd.backward([loss_mean, per_sample], grad_tensors=[torch.tensor(1.0), torch.ones(2)], "
             "inputs=[w])"),
        hint="each sample's error was weighted by 1"),
    Case("backward-5", "only the mean loss", W_ONLY.format(body="loss_mean.backward(inputs=[w])"),
         hint="loss_mean's gradient alone"),
    Case("backward-5", "right, one backward of the weighted total", W_ONLY.format(
        body="(loss_mean + (weights * per_sample).sum()).backward(inputs=[w])"), passes=True),
]
