"""Answers learners give in exercises/11_under_the_hood.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

VERSIONS = 'versions = {{"a": 3, "b": {b}, "c": 1, "d": {d}, "e": {e}}}'

ENGINE = """
        def backward(root):
            deps = count_deps(root)
            root.grad = 1.0
            ready = [root]
            while ready:
                v = ready.pop()
                for parent, local in zip(v.parents, v.local_grads):
        {body}
        """

META = """
        meta = {{
            "w": (True, 0, False, False),
            "h": {h},
            "row1": {row1},
            "v": (False, 0, True, False),
            "k": {k},
        }}"""

CASES = [
    # hood-1: predict _version
    Case("hood-1", "a view with a counter of its own", VERSIONS.format(b=1, d=3, e=0),
         hint="one storage, one counter"),
    Case("hood-1", "detach() with a counter of its own", VERSIONS.format(b=3, d=1, e=0),
         hint="shares a's numbers and its version counter"),
    Case("hood-1", "a new tensor inherits a's version", VERSIONS.format(b=3, d=3, e=3),
         hint="a new tensor, never changed in place"),
    Case("hood-1", "right, with dict()", "versions = dict(a=3, b=3, c=1, d=3, e=0)", passes=True),

    # hood-2: count the dependencies
    Case("hood-2", "counts the values fed, not the edges", """
        def count_deps(root):
            deps, stack = {root: 0}, [root]
            while stack:
                v = stack.pop()
                for parent in set(v.parents):
                    if parent not in deps:
                        deps[parent] = 0
                        stack.append(parent)
                    deps[parent] += 1
            return deps
        """, hint="that counts the values each one feeds, not the edges"),
    Case("hood-2", "leaves the root out", """
        def count_deps(root):
            deps, stack, seen = {}, [root], {root}
            while stack:
                v = stack.pop()
                for parent in v.parents:
                    deps[parent] = deps.get(parent, 0) + 1
                    if parent not in seen:
                        seen.add(parent)
                        stack.append(parent)
            return deps
        """, hint="the root included"),
    Case("hood-2", "recursion", """
        def count_deps(root):
            deps = {root: 0}

            def visit(v):
                for parent in v.parents:
                    first = parent not in deps
                    deps[parent] = deps.get(parent, 0) + 1
                    if first:
                        visit(parent)

            visit(root)
            return deps
        """, hint="walk the graph with a loop and a stack", report="RecursionError"),
    Case("hood-2", "right, with a Counter and a seen set", """
        from collections import Counter


        def count_deps(root):
            deps, seen, stack = Counter({root: 0}), {root}, [root]
            while stack:
                for parent in stack.pop().parents:
                    deps[parent] += 1
                    if parent not in seen:
                        seen.add(parent)
                        stack.append(parent)
            return dict(deps)
        """, passes=True),

    # hood-3: backward, the engine's way
    Case("hood-3", "passes gradients on too early: a parent is ready at once", ENGINE.format(body="""
                    parent.grad += local * v.grad
                    ready.append(parent)"""), hint="before all the gradients for it had arrived",
         not_hint=("compare with",)),
    Case("hood-3", "overwrites .grad instead of adding", ENGINE.format(body="""
                    parent.grad = local * v.grad
                    deps[parent] -= 1
                    if deps[parent] == 0:
                        ready.append(parent)"""), hint="add into .grad (+=)"),
    Case("hood-3", "forgets the local derivative", ENGINE.format(body="""
                    parent.grad += v.grad
                    deps[parent] -= 1
                    if deps[parent] == 0:
                        ready.append(parent)"""), hint="the local derivative is missing"),
    Case("hood-3", "right, a topological order instead of counts", """
        def backward(root):
            order, seen, stack = [], set(), [(root, False)]
            while stack:
                v, done = stack.pop()
                if done:
                    order.append(v)
                elif v not in seen:
                    seen.add(v)
                    stack.append((v, True))
                    stack.extend((p, False) for p in v.parents)
            root.grad = 1.0
            for v in reversed(order):
                for parent, local in zip(v.parents, v.local_grads):
                    parent.grad += local * v.grad
        """, passes=True),

    # hood-4: read the autograd metadata
    Case("hood-4", "row1 as output 0", META.format(h="(False, 0, False, True)", row1="(False, 0, True, False)",
                                                   k="(True, 0, False, False)"), hint="row1 is output 1"),
    Case("hood-4", "a detached tensor taken for a view", META.format(
        h="(False, 0, False, True)", row1="(False, 1, True, False)", k="(True, 0, True, False)"),
         hint="PyTorch does not report it as a view"),
    Case("hood-4", "retain_grad() not seen on h", META.format(
        h="(False, 0, False, False)", row1="(False, 1, True, False)", k="(True, 0, False, False)"),
         hint="h.retain_grad() sets retains_grad"),
    Case("hood-4", "right, with lists", META.format(h="[False, 0, False, True]", row1="[False, 1, True, False]",
                                                   k="[True, 0, False, False]"), passes=True),
]
