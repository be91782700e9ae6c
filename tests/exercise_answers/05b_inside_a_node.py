"""Answers learners give in exercises/05b_inside_a_node.ipynb."""
# ruff: noqa: N999  (named after its notebook)

from exercise_answers import Case

NAMES = """
        node_names = {{"u": {u}, "v": {v}, "w": "PowBackward2",
                      "m1": "MulBackward0", "m2": {m2}, "m3": {m3}}}"""

HOOK = """
        def watch_and_clip(h, seen):
        {body}
        """

CASES = [
    # nodes-1: Function or node?
    Case("nodes-1", "believes the notes: a node is a Function",
         'answers = {"a": True, "b": True, "c": True, "d": True, "e": True}',
         hint="is not one: a node is an object of the graph"),
    Case("nodes-1", "the Function class taken for something else",
         'answers = {"a": False, "b": False, "c": False, "d": True, "e": False}',
         hint="a class you defined by subclassing torch.autograd.Function"),
    Case("nodes-1", "a node taken for no Node",
         'answers = {"a": True, "b": False, "c": False, "d": False, "e": False}',
         hint="every grad_fn is a torch.autograd.graph.Node"),
    Case("nodes-1", "right, by asking Python", """
        Function, Node = torch.autograd.Function, torch.autograd.graph.Node
        answers = {"a": issubclass(Double, Function), "b": isinstance(q.grad_fn, Function),
                   "c": isinstance(r.grad_fn, Function), "d": isinstance(r.grad_fn, Node),
                   "e": Function in type(q.grad_fn).__mro__}""", passes=True),

    # nodes-2: the number in the name
    Case("nodes-2", "the suffix taken for a count of multiplications",
         NAMES.format(u='"PowBackward0"', v='"PowBackward1"', m2='"MulBackward1"', m3='"MulBackward2"'),
         hint="does not count the multiplications"),
    Case("nodes-2", "the name without its number",
         NAMES.format(u='"PowBackward"', v='"PowBackward1"', m2='"MulBackward0"', m3='"MulBackward0"'),
         hint="pow's first formula"),
    Case("nodes-2", "a tensor exponent taken for a constant one",
         NAMES.format(u='"PowBackward0"', v='"PowBackward0"', m2='"MulBackward0"', m3='"MulBackward0"'),
         hint="pow's second formula"),
    Case("nodes-2", "right, read with name()", """
        node_names = {key: value.grad_fn.name() for key, value in
                      dict(u=u, v=v, w=w, m1=m1, m2=m2, m3=m3).items()}""", passes=True),

    # nodes-3: the number in an edge
    Case("nodes-3", "positions in next_functions taken for the indices", "add_indices = (0, 1)\nmul_indices = (0, 1)",
         hint="the position of each edge in next_functions"),
    Case("nodes-3", "every index taken for 0", "add_indices = (0, 0)\nmul_indices = (0, 0)",
         hint="one node with three outputs"),
    Case("nodes-3", "the unbound second taken for output 0", "add_indices = (0, 0)\nmul_indices = (2, 0)",
         hint="second is output 1 of UnbindBackward0"),
    Case("nodes-3", "right, from output_nr, as lists", """
        add_indices = [0, second.output_nr]
        mul_indices = [third.output_nr, first.output_nr]""", passes=True),

    # nodes-4: a value saved without a node
    Case("nodes-4", "None instead of the pair", """
        edge_for_scale = None
        saved_for_inp = scaled.grad_fn._saved_other""", hint="holds (node, index) pairs"),
    Case("nodes-4", "the first input's entry", """
        edge_for_scale = scaled.grad_fn.next_functions[0]
        saved_for_inp = scaled.grad_fn._saved_other""", hint="that is inp's entry"),
    Case("nodes-4", "_saved_self taken for what inp's gradient needs", """
        edge_for_scale = scaled.grad_fn.next_functions[1]
        saved_for_inp = scaled.grad_fn._saved_self""", hint="None is what _saved_self holds here"),
    Case("nodes-4", "inp's own value", """
        edge_for_scale = scaled.grad_fn.next_functions[1]
        saved_for_inp = inp.detach()""", hint="that is inp's own value"),
    Case("nodes-4", "right, found by looking for the edge without a node", """
        edge_for_scale = next(edge for edge in scaled.grad_fn.next_functions if edge[0] is None)
        saved_for_inp = scaled.grad_fn._saved_other.clone()""", passes=True),

    # nodes-5: a hook in the middle of a graph
    Case("nodes-5", "the hook only looks",
         HOOK.format(body="    return h.register_hook(lambda grad: seen.append(grad))"),
         hint="the hook must return the clipped tensor"),
    Case("nodes-5", "appends the clipped gradient", HOOK.format(body="""    def hook(grad):
                clipped = grad.clamp(-1.0, 1.0)
                seen.append(clipped)
                return clipped

            return h.register_hook(hook)"""), hint="seen holds the clipped gradient"),
    Case("nodes-5", "forgets to return the handle", HOOK.format(body="""    def hook(grad):
                seen.append(grad)
                return grad.clamp(-1.0, 1.0)

            h.register_hook(hook)"""), hint="return what h.register_hook(...) returns"),
    Case("nodes-5", "right, in one line",
         HOOK.format(body="    return h.register_hook(lambda grad: seen.append(grad) or grad.clamp(-1.0, max=1.0))"),
         passes=True),
]
