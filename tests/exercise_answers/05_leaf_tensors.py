"""Answers learners give in exercises/05_leaf_tensors.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

PREDICTIONS = """
        predictions = {{
            "a": (True, True, None),
            "b": (False, True, None),
            "c": (True, False, {c}),
            "d": {d},
            "e": (False, True, None),
            "f": {f},
        }}"""

LEAF_3 = """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        h = x.exp()  # an intermediate: made by an operation
        loss = (h * h).sum()"""

LEAF_5 = """
        v = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)


        def loss_fn():
            return (v * v).sum()
        """

LEAF_6 = """
        _ = torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))


        def freeze(module):
            for parameter in module.parameters():
                {freeze}


        freeze({frozen})"""

PAIRS = """
        pairs = {{
            "p": {p},
            "q": (False, None),
            "r": {r},
            "m": (False, "ExpBackward0"),
            "s": {s},
        }}"""

CASES = [
    # leaf-1: predict requires_grad, is_leaf and grad_fn
    Case("leaf-1", "detach() keeps requires_grad",
         PREDICTIONS.format(c='"MulBackward0"', d='(True, True, None)', f="(False, True, None)"),
         hint="no history: it does not require grad"),
    Case("leaf-1", "no_grad() as if it recorded",
         PREDICTIONS.format(c='"MulBackward0"', d="(False, True, None)", f='(True, False, "MulBackward0")'),
         hint="under no_grad() nothing is recorded"),
    Case("leaf-1", "the node name without its number",
         PREDICTIONS.format(c='"MulBackward"', d="(False, True, None)", f="(False, True, None)"),
         hint="has grad_fn MulBackward0"),
    Case("leaf-1", "right, with lists", PREDICTIONS.format(c='"MulBackward0"', d="(False, True, None)",
                                                          f="(False, True, None)") + """
        predictions = {name: list(triple) for name, triple in predictions.items()}""", passes=True),

    # leaf-2: a weight an optimizer can update
    Case("leaf-2", "the one-liner: scaled after requires_grad",
         "w = torch.randn(3, 2, requires_grad=True) * 0.01", hint="The classic case is a scaled random weight"),
    Case("leaf-2", "forgets the scale", "w = torch.randn(3, 2, requires_grad=True)",
         hint="multiply the random numbers by 0.01"),
    Case("leaf-2", "forgets requires_grad", "w = torch.randn(3, 2) * 0.01", hint="create w with requires_grad=True"),
    Case("leaf-2", "right, by setting the attribute", "w = torch.randn(3, 2) * 0.01\nw.requires_grad = True",
         passes=True),

    # leaf-3: the gradient of an intermediate tensor
    Case("leaf-3", "no retain_grad()", LEAF_3 + """
        loss.backward()
        h_grad = h.grad""", hint="call .retain_grad() on it before backward()"),
    Case("leaf-3", "retain_grad() after backward()", LEAF_3 + """
        loss.backward()
        h.retain_grad()
        h_grad = h.grad""", hint="came after backward()"),
    Case("leaf-3", "by hand", LEAF_3 + """
        loss.backward()
        h_grad = 2 * h.detach()""", hint="compute h_grad with autograd"),
    Case("leaf-3", "right, with a copy", LEAF_3 + """
        h.retain_grad()
        loss.backward()
        h_grad = h.grad.clone()""", passes=True),

    # leaf-4: find the leaves of a graph
    Case("leaf-4", "a leaf reached twice is listed twice", """
        def leaves(t):
            found, stack = [], [t.grad_fn]
            while stack:
                node = stack.pop()
                if node is None:
                    continue
                if hasattr(node, "variable"):
                    found.append(node.variable)
                stack.extend(n for n, _ in node.next_functions)
            return found
        """, hint="add each leaf once"),
    Case("leaf-4", "returns the AccumulateGrad nodes", """
        def leaves(t):
            found, seen, stack = [], set(), [t.grad_fn]
            while stack:
                node = stack.pop()
                if node is None or node in seen:
                    continue
                seen.add(node)
                if hasattr(node, "variable"):
                    found.append(node)
                stack.extend(n for n, _ in node.next_functions)
            return found
        """, hint="these are the AccumulateGrad nodes"),
    Case("leaf-4", "recursion", """
        def leaves(t):
            found, seen = [], set()

            def visit(node):
                if node is None or node in seen:
                    return
                seen.add(node)
                if hasattr(node, "variable"):
                    found.append(node.variable)
                for n, _ in node.next_functions:
                    visit(n)

            visit(t.grad_fn)
            return found
        """, hint="walk the graph with a loop and a stack", report="RecursionError"),
    Case("leaf-4", "right, a dict of leaves by id", """
        def leaves(t):
            found, stack, seen = {}, [t.grad_fn], set()
            while stack:
                node = stack.pop()
                if node is None or node in seen:
                    continue
                seen.add(node)
                leaf = getattr(node, "variable", None)
                if leaf is not None:
                    found[id(leaf)] = leaf
                stack += [n for n, _ in node.next_functions]
            return list(found.values())
        """, passes=True),

    # leaf-5: gradients accumulate
    Case("leaf-5", "keeps v.grad itself, then zero_()", LEAF_5 + """
        loss_fn().backward()
        loss_fn().backward()
        grad_after_two = v.grad
        v.grad.zero_()
        loss_fn().backward()
        grad_fresh = v.grad""", hint=("grad_after_two is v.grad itself", ".clone()"),
         not_hint=("two backward() calls add up",)),
    Case("leaf-5", "one backward before the copy", LEAF_5 + """
        loss_fn().backward()
        grad_after_two = v.grad.clone()
        v.grad = None
        loss_fn().backward()
        grad_fresh = v.grad""", hint="call loss_fn().backward() twice"),
    Case("leaf-5", "never resets v.grad", LEAF_5 + """
        loss_fn().backward()
        loss_fn().backward()
        grad_after_two = v.grad.clone()
        loss_fn().backward()
        grad_fresh = v.grad""", hint="backward() ran 3 times without zeroing .grad"),
    Case("leaf-5", "right, resets with zero_() after a copy", LEAF_5 + """
        for _ in range(2):
            loss_fn().backward()
        grad_after_two = v.grad.clone()
        v.grad.zero_()
        loss_fn().backward()
        grad_fresh = v.grad""", passes=True),

    # leaf-6: freeze a layer
    Case("leaf-6", "rebinds the loop variable to a detached copy",
         LEAF_6.format(freeze="parameter = parameter.detach()", frozen="model[0]"),
         hint="changes nothing in the model"),
    Case("leaf-6", "sets an attribute of the module",
         LEAF_6.format(freeze="pass", frozen="model[0]").replace("for parameter in module.parameters():\n"
                                                                 "                pass",
                                                                 "module.requires_grad = False"),
         hint="changes nothing in the model"),  # the same effect as rebinding: one hint for both
    Case("leaf-6", "freezes the whole model", LEAF_6.format(freeze="parameter.requires_grad_(False)", frozen="model"),
         hint="freeze model[0] only"),
    Case("leaf-6", "right, with Module.requires_grad_", LEAF_6.format(freeze="pass", frozen="model[0]").replace(
        "for parameter in module.parameters():\n                pass", "module.requires_grad_(False)"),
         passes=True),

    # leaf-7: grad or grad_fn?
    Case("leaf-7", "an intermediate never keeps its grad",
         PAIRS.format(p="(True, None)", r='(False, "MulBackward0")', s='(False, "SumBackward0")'),
         hint="retain_grad() asked backward to keep its .grad"),
    Case("leaf-7", "a leaf's node taken for its grad_fn",
         PAIRS.format(p='(True, "AccumulateGrad")', r='(True, "MulBackward0")', s='(False, "SumBackward0")'),
         hint="leaves have no grad_fn"),
    Case("leaf-7", "the root keeps a grad",
         PAIRS.format(p="(True, None)", r='(True, "MulBackward0")', s='(True, "SumBackward0")'),
         hint="stores nothing in s.grad"),
    Case("leaf-7", "right, with lists",
         PAIRS.format(p="[True, None]", r='[True, "MulBackward0"]', s='[False, "SumBackward0"]'), passes=True),
]
