"""Answers learners give in exercises/04_tensors_and_graphs.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

PREDICTIONS = """
    predictions = {{
        "p": (True, True, None),
        "q": {q},
        "r": (True, False, {r}),
        "s": (True, False, "SumBackward0"),
        "t": (False, True, None),
        "u": (True, False, "MulBackward0"),
    }}
    """

GRAPH_5 = """
        v = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
        z = (v.exp() * v).sum()
        passes = []
        z.register_hook(lambda grad: passes.append(grad))"""  # indented as the answers it starts

CASES = [
    # graph-1: predict what the graph records
    Case("graph-1", "q as if recorded: switching p on later went back in time",
         PREDICTIONS.format(q='(True, False, "MulBackward0")', r='"MulBackward0"'),
         hint="does not go back in time"),
    Case("graph-1", "the node name as printed, with angle brackets",
         PREDICTIONS.format(q="(False, True, None)", r='"<MulBackward0>"'), hint="write just the name"),
    Case("graph-1", "a tensor left out", 'predictions = {"p": (True, True, None), "q": (False, True, None)}',
         hint="one entry for each of the tensors"),
    Case("graph-1", "right, with lists", """
        predictions = {name: list(triple) for name, triple in {
            "p": (True, True, None), "q": (False, True, None), "r": (True, False, "MulBackward0"),
            "s": (True, False, "SumBackward0"), "t": (False, True, None), "u": (True, False, "MulBackward0"),
        }.items()}
        """, passes=True),

    # graph-2: count the nodes of a graph
    Case("graph-2", "counts a shared node twice", """
        def count_nodes(t):
            count = 0
            stack = [t.grad_fn]
            while stack:
                node = stack.pop()
                if node is None:
                    continue
                count += 1
                stack.extend(n for n, _ in node.next_functions)
            return count
        """, hint="keep a set of the nodes seen"),
    Case("graph-2", "skips the AccumulateGrad nodes", """
        def count_nodes(t):
            seen, stack = set(), [t.grad_fn]
            while stack:
                node = stack.pop()
                if node is None or node in seen or type(node).__name__ == "AccumulateGrad":
                    continue
                seen.add(node)
                stack.extend(n for n, _ in node.next_functions)
            return len(seen)
        """, hint="the AccumulateGrad nodes"),
    Case("graph-2", "counts the None entries", """
        def count_nodes(t):
            seen, stack, nones = set(), [t.grad_fn], 0
            while stack:
                node = stack.pop()
                if node is None:
                    nones += 1
                    continue
                if node in seen:
                    continue
                seen.add(node)
                stack.extend(n for n, _ in node.next_functions)
            return len(seen) + nones
        """, hint="None is not a node"),
    Case("graph-2", "recursion", """
        def count_nodes(t):
            seen = set()

            def visit(node):
                if node is not None and node not in seen:
                    seen.add(node)
                    for n, _ in node.next_functions:
                        visit(n)

            visit(t.grad_fn)
            return len(seen)
        """, hint="walk the graph with a loop and a stack", report="RecursionError"),
    Case("graph-2", "right, breadth first with a deque", """
        from collections import deque


        def count_nodes(t):
            seen = set()
            queue = deque([t.grad_fn] if t.grad_fn is not None else [])
            while queue:
                node = queue.popleft()
                if node in seen:
                    continue
                seen.add(node)
                queue.extend(n for n, _ in node.next_functions if n is not None)
            return len(seen)
        """, passes=True),

    # graph-3: a graph that depends on the data
    Case("graph-3", "the factor as a Python number: the gradient misses it", """
        def clip(x, limit):
            total = x.abs().sum().item()
            if total > limit:
                return x * (limit / total)
            return x
        """, hint="do not detach it, or call .item() on it"),
    Case("graph-3", "a copy below the limit", """
        def clip(x, limit):
            total = x.abs().sum()
            if total > limit:
                return x * (limit / total)
            return x.clone()
        """, hint="return x itself"),
    Case("graph-3", "the length instead of the absolute sum", """
        def clip(x, limit):
            total = x.norm()
            if total > limit:
                return x * (limit / total)
            return x
        """, hint="rescaled by the length"),
    Case("graph-3", "right, divided then multiplied", """
        def clip(x, limit):
            total = x.abs().sum()
            return x / total * limit if total > limit else x
        """, passes=True),

    # graph-4: which .grad does backward fill?
    Case("graph-4", "x too", 'filled = {"w", "b", "h", "x"}', hint="x is a leaf, but it does not require grad"),
    Case("graph-4", "forgets h", 'filled = {"w", "b"}', hint="h.retain_grad() asked backward"),
    Case("graph-4", "scale too", 'filled = {"w", "b", "h", "scale"}', hint="only through detach() and no_grad()"),
    Case("graph-4", "a list", 'filled = ["w", "b", "h"]', hint="write a set of the names"),
    Case("graph-4", "right, built from a string", 'filled = set("w b h".split())', passes=True),

    # graph-5: two backward passes through one graph
    Case("graph-5", "the second backward without retain_graph", GRAPH_5 + """
        z.backward()
        z.backward()
        grad_twice = v.grad.clone()
        """, hint="pass retain_graph=True to the first backward()",
         report="Trying to backward through the graph a second time"),
    Case("graph-5", "runs the forward again", GRAPH_5 + """
        z.backward()
        (v.exp() * v).sum().backward()
        grad_twice = v.grad.clone()
        """, hint="the forward ran again"),
    Case("graph-5", "doubles one gradient by hand", GRAPH_5 + """
        z.backward()
        grad_twice = 2 * v.grad
        """, hint="backward ran once through z"),
    Case("graph-5", "right, both passes keep the graph", GRAPH_5 + """
        torch.autograd.backward(z, retain_graph=True)
        z.backward(retain_graph=True)
        grad_twice = v.grad.detach().clone()
        """, passes=True),
]
