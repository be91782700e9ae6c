"""Details of PyTorch's autograd a learner meets at the edges: what ``setup_context`` is given, a saved tensor
detached in place, anomaly mode in a double backward, and which hooks ``autograd.grad`` runs.

Each check runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``): same result, same
exception type and message, same warnings.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from _oracle import as_pytorch, oracle, outcome, raises

import tinygrad_edu as tg


def _scale(lib: ModuleType, grads: int = 3) -> Any:
    """A Function in PyTorch 2's style whose forward has defaults; setup_context records the inputs it is given."""

    class Scale(lib.autograd.Function):
        seen: list = []

        @staticmethod
        def forward(x: Any, a: float = 2.0, b: Any = None) -> Any:
            return x * a

        @staticmethod
        def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
            Scale.seen.append(tuple(i if not isinstance(i, lib.Tensor) else "x" for i in inputs))
            ctx.a = inputs[1]

        @staticmethod
        def backward(ctx: Any, g: Any) -> tuple:
            return (g * ctx.a, None, None)[:grads]

    return Scale


def test_setup_context_sees_the_defaults_the_caller_left_out() -> None:
    """PyTorch binds the caller's arguments to forward's signature and fills in the defaults: setup_context's
    ``inputs`` always has one entry per parameter, however the caller called apply."""

    def run(lib: ModuleType) -> str:
        scale = _scale(lib)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        scale.apply(x)
        scale.apply(x, 5.0)
        scale.apply(x, b=7)
        scale.apply(x, a=3.0).sum().backward()
        return f"{scale.seen} {x.grad}"

    assert as_pytorch(run)[1] == repr("[('x', 2.0, None), ('x', 5.0, None), ('x', 2.0, 7), ('x', 3.0, None)] "
                                      "tensor([3., 3.])")


def test_setup_context_defaults_count_as_inputs_for_backward() -> None:
    """The filled-in defaults are inputs like the others: backward returns one gradient for each."""

    def run(lib: ModuleType) -> None:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        _scale(lib, grads=1).apply(x).sum().backward()

    raises(run, RuntimeError, "function ScaleBackward returned an incorrect number of gradients (expected 3, got 1)")


def test_setup_context_style_apply_checks_the_arguments_as_pytorch() -> None:
    """Arguments that do not fit forward's signature are refused by the binding, in Python's words."""
    raises(lambda lib: _scale(lib).apply(), TypeError, "missing a required argument: 'x'")
    raises(lambda lib: _scale(lib).apply(lib.ones(1), 1.0, 2, 3), TypeError, "too many positional arguments")

    def keyword_only(lib: ModuleType) -> Any:
        class KeywordOnly(lib.autograd.Function):
            @staticmethod
            def forward(x: Any, *, k: float = 3.0) -> Any:
                return x * k

            @staticmethod
            def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
                pass

        return KeywordOnly.apply(lib.ones(1))

    # a keyword-only parameter, even left to its default, is handed to forward as a keyword, which apply refuses
    raises(keyword_only, TypeError, "forward() got an unexpected keyword argument 'k'")


def test_a_saved_input_detached_in_place_is_refused_by_the_formula() -> None:
    """sin saves its input y; after ``y.detach_()`` y has lost the history the node saved it with, and PyTorch's
    backward refuses to use it (detaching in place, after the graph was built, is a bug to report)."""

    def run(lib: ModuleType) -> None:
        x = lib.ones(2, requires_grad=True)
        y = x * 2
        w = y.sin()
        y.detach_()
        w.sum().backward()

    raises(run, RuntimeError, "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
                              "This is not supported, please use out-of-place `.detach()` instead")


def test_where_pytorch_still_hands_out_a_saved_tensor_detached_in_place() -> None:
    """PyTorch checks only where a built-in formula reads a saved input: a saved output (exp's result), a learner's
    ``ctx.saved_tensors``, ``grad_fn._saved_self`` and tensors saved under saved_tensors_hooks are handed out."""

    def run(lib: ModuleType) -> str:
        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.save_for_backward(x)
                return x * 2

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                (x,) = ctx.saved_tensors
                return g * x

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y, z = x * 1, x * 3
        out = Twice.apply(y) + z.exp()
        w = z.cos()
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            u = x * 5
            h = u.sin()
        u.detach_()
        z.detach_()
        y.detach_()
        (out.sum() + h.sum()).backward()
        return f"{x.grad} {w.grad_fn._saved_self}"

    assert as_pytorch(run)[1] == repr("tensor([  62.6749, 1208.0911]) tensor([3., 6.])")


def test_a_tensor_detached_in_place_can_be_saved_again_as_a_leaf() -> None:
    """The refusal is for the nodes that saved the tensor while it had its history: used after ``detach_()``, it is
    a leaf like any other, saved and read without complaint."""

    def run(lib: ModuleType) -> str:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        keep = y.sin()  # a node that saved y with its history, kept alive
        y.detach_()
        (y * x).sum().backward()  # mul saves y, now a leaf
        y.requires_grad_()
        y.cos().sum().backward()  # cos saves y, a leaf that requires grad
        return f"{x.grad} {y.grad} {keep.grad_fn.name()}"

    assert as_pytorch(run)[1] == repr("tensor([2., 4.]) tensor([-0.9093,  0.7568]) SinBackward0")


def _own_frames(text: str) -> str:
    """A warning's text with only the checked program's frames in its tracebacks (``run`` and the backwards it calls:
    each library shows its own frames too, and the test's frames differ between the two calls)."""
    lines, kept, skip = text.split("\n"), [], False
    for line in lines:
        if line.startswith("  File "):
            skip = __file__ not in line or not line.endswith((" in run", " in backward"))
        elif not line.startswith("    "):
            skip = False
        if not skip:
            kept.append(line)
    return "\n".join(kept)


def test_anomaly_mode_shows_the_nodes_whose_backward_made_the_failing_node() -> None:
    """A backward formula that fails in a third-order backward: anomaly mode shows where the failing node's forward
    ran (inside the backward of Sq, during the second pass), then, one warning each, where the node that made it ran
    its forward, and the node that made that one, back to the learner's first forward."""

    def run(lib: ModuleType) -> Any:
        class Bad(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x.clone()

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                raise ValueError("a backward formula that fails")

        class Sq(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                (x,) = ctx.saved_tensors
                return Bad.apply(g * 2 * x)  # Bad's node: made by SqBackward

        class Cube(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.save_for_backward(x)
                return x**3

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                (x,) = ctx.saved_tensors
                return Sq.apply(x) * 3 * g  # Sq's node: made by CubeBackward

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.detect_anomaly():
            y = Cube.apply(x).sum()
            (gx,) = lib.autograd.grad(y, x, create_graph=True)
            (ggx,) = lib.autograd.grad(gx.sum(), x, create_graph=True)
            ggx.sum().backward()

    def seen(lib: ModuleType) -> tuple:
        kind, text, caught = outcome(run, lib)
        return kind, text, [_own_frames(w) for w in caught]

    ours = seen(tg)
    assert ours[:2] == ("ValueError", "a backward formula that fails")
    assert [w.split("\n")[0] for w in ours[2]] == [
        "UserWarning: Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
        "enabled for debugging.",
        "UserWarning: Error detected in BadBackward. Traceback of forward call that caused the error:",
        "UserWarning: ", "UserWarning: "]
    assert "Previous calculation was induced by SqBackward. Traceback of forward call that induced the previous " \
           "calculation:" in ours[2][2]
    assert "return Sq.apply(x) * 3 * g  # Sq's node: made by CubeBackward" in ours[2][2]
    assert "Previous calculation was induced by CubeBackward." in ours[2][3] and "y = Cube.apply(x).sum()" in ours[2][3]
    if oracle() is not None:
        assert ours == seen(oracle())


def test_anomaly_mode_says_when_a_node_has_no_forward_recorded() -> None:
    """A graph built with anomaly mode off, then run backward with it on: the failing node's warning says there is
    no forward pass information, and how to get it, instead of saying nothing."""

    def run(lib: ModuleType) -> Any:
        class Nan(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x.sum()

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g.expand(3) * float("nan")

        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = Nan.apply(x)  # (anomaly mode off: no traceback kept)
        with lib.autograd.detect_anomaly():
            y.backward()

    ours = as_pytorch(run)
    assert ours[:2] == ("RuntimeError", "Function 'NanBackward' returned nan values in its 0th output.")
    assert ours[2][1] == ("UserWarning: Error detected in NanBackward. No forward pass information available. Enable "
                          "detect anomaly during forward pass for more information.")


def test_anomaly_mode_prints_its_warning_when_warnings_are_errors(capsys: Any) -> None:
    """``warnings.simplefilter("error")`` would turn anomaly mode's report into an exception that hides the real
    error; as in PyTorch, the report goes to stderr and the real error (here the version check's) is raised."""
    import warnings

    def run(lib: ModuleType) -> tuple:
        with warnings.catch_warnings(record=True):  # (keeps "Anomaly Detection has been enabled" out of the log)
            a = lib.tensor([1.0, 2.0], requires_grad=True)
            with lib.autograd.detect_anomaly():
                warnings.simplefilter("error")
                d1 = a + 1
                d2 = d1**2
                d1 += 1
                try:
                    lib.autograd.grad(d2.sum(), a)
                except RuntimeError as e:
                    return str(e).split(":")[0], "Error detected in PowBackward0" in capsys.readouterr().err
        return "no error", False

    ours = run(tg)
    assert ours == ("one of the variables needed for gradient computation has been modified by an inplace operation",
                    True)
    if oracle() is not None:
        assert run(oracle()) == ours


def test_autograd_grad_runs_the_hooks_of_the_nodes_it_needs_only() -> None:
    """``autograd.grad(y, x)`` runs only the nodes leading to x: the hooks of tensors off that path (a leaf it does
    not ask for, a non-leaf whose node leads elsewhere) do not fire, as in PyTorch, which does not queue those
    nodes. A tensor asked for gets its own hooks (they change what is captured); ``backward(inputs=...)`` alike."""

    def run(lib: ModuleType) -> str:
        seen: list = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        x.register_hook(lambda g: seen.append("x"))
        w.register_hook(lambda g: seen.append("w"))
        w.register_post_accumulate_grad_hook(lambda t: seen.append("w accumulated"))
        z = w * 2
        z.register_hook(lambda g: seen.append("z"))
        z.grad_fn.register_prehook(lambda g: seen.append("z's node pre-hook"))
        z.grad_fn.register_hook(lambda gi, go: seen.append("z's node hook"))
        m = x * z
        m.register_hook(lambda g: seen.append("m"))
        y = m.sum()
        report = []
        for inputs in ([x], [z], [x, w]):
            grads = lib.autograd.grad(y, inputs, retain_graph=True)
            report.append(f"{[tuple(g.tolist()) for g in grads]} {seen}")
            seen.clear()
        y.backward(inputs=[x])
        return "; ".join([*report, f"{seen} {x.grad} {w.grad}"])

    assert as_pytorch(run)[1] == repr(
        "[(6.0, 8.0)] ['m', 'x']; [(1.0, 2.0)] ['m', 'z']; [(6.0, 8.0), (2.0, 4.0)] ['m', 'x', 'z', \"z's node "
        "pre-hook\", \"z's node hook\", 'w']; ['m', 'x'] tensor([6., 8.]) None")


def test_pack_hooks_see_a_nodes_saved_tensors_in_pytorchs_order_whichever_inputs_need_a_gradient() -> None:
    """A node saves in one order, all its formulas' (``other`` before ``self`` for div and maximum), whichever of
    its inputs need a gradient: a pack hook sees them in that order, as in PyTorch, in a double backward too."""

    def run(lib: ModuleType) -> list:
        seen = []
        for needs in [(True, True), (True, False), (False, True)]:
            for op in (lambda a, b: a / b, lib.maximum, lambda a, b: a * b):
                log: list = []
                with lib.autograd.graph.saved_tensors_hooks(lambda t, log=log: log.append(t.detach().sum().item()) or t,
                                                            lambda t: t):
                    op(lib.tensor([1.0, 2.0], requires_grad=needs[0]), lib.tensor([3.0, 5.0], requires_grad=needs[1]))
                seen.append(log)
        x, y, log = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([3.0, 5.0], requires_grad=True), []
        with lib.autograd.graph.saved_tensors_hooks(lambda t: log.append(t.detach().sum().item()) or t, lambda t: t):
            gx, gy = lib.autograd.grad((x / y).sum(), (x, y), create_graph=True)
            (gx * gy).sum().backward()
        return [*seen, [round(v, 3) for v in log]]

    result = as_pytorch(run)[1]
    assert result.startswith("[[8.0, 3.0], [8.0, 3.0], [8.0, 3.0], [8.0], [8.0, 3.0], [8.0], [8.0, 3.0], [8.0, 3.0], "
                             "[3.0]"), result


# -- custom Functions called with keyword arguments ----------------------------------------------------------------
def _shift(lib: ModuleType) -> Any:
    """An old-style Function (forward takes ctx) with defaults; its backward reports what needs a gradient."""

    class Shift(lib.autograd.Function):
        needs: list = []

        @staticmethod
        def forward(ctx: Any, x: Any, a: Any = 2.0, b: Any = 5.0, c: int = 1) -> Any:
            return x * a + b

        @staticmethod
        def backward(ctx: Any, g: Any) -> tuple:
            Shift.needs.append(ctx.needs_input_grad)
            return g * 2, g * 3, g * 4, None

    return Shift


def test_keyword_arguments_of_an_old_style_function_are_inputs_at_their_parameters_places() -> None:
    """``F.apply(x, b=t, a=s)``: each keyword argument takes its parameter's place after ctx (a tensor among them
    gets its gradient, an edge in ``next_functions``), and defaults stay forward's own, as in PyTorch."""

    def run(lib: ModuleType) -> Any:
        shift = _shift(lib)
        x, t1 = lib.ones(2, requires_grad=True), lib.tensor([7.0, 7.0], requires_grad=True)
        y = shift.apply(x, b=t1, a=lib.tensor([3.0, 3.0]), c=4)
        edges = [node is None for node, _ in y.grad_fn.next_functions]
        y.sum().backward()
        return y, edges, shift.needs, x.grad, t1.grad, shift.apply(x, a=3)

    assert as_pytorch(run)[1] == (
        "(tensor([10., 10.], grad_fn=<ShiftBackward>), [False, True, False], [(True, False, True, False)], "
        "tensor([2., 2.]), tensor([4., 4.]), tensor([8., 8.], grad_fn=<ShiftBackward>))")


def test_keyword_arguments_of_an_old_style_function_are_refused_as_pytorch_refuses_them() -> None:
    x = tg.ones(2)
    for args, kwargs, message in [
            ((x,), {"z": 1}, "forward() got an unexpected keyword argument 'z'"),
            ((x,), {"x": x}, "forward() got multiple values for argument 'x'"),
            ((), {"a": 1, "b": 2}, "forward() missing required argument: 'x' (position 0)"),
            ((x,), {"b": x}, "forward() missing required argument: 'a' (position 1)")]:
        raises(lambda lib, args=args, kwargs=kwargs: _shift(lib).apply(
            *[lib.ones(2) for _ in args], **{k: lib.ones(2) if v is x else v for k, v in kwargs.items()}),
            TypeError, message)


# -- what a node saves, and in which order a pack hook sees it --------------------------------------------------------
def _packed(lib: ModuleType, op: Any, n_inputs: int) -> list:
    """For each way the inputs can need a gradient: the (sums of the) tensors a pack hook sees, in order."""
    seen = []
    for needs in [(True,) * n_inputs, *[tuple(i == j for j in range(n_inputs)) for i in range(n_inputs)]]:
        log: list = []
        inputs = [lib.tensor([[1.5, 2.0, 0.5], [3.0, 5.0, 1.0], [4.0, 6.0, 2.0]][k], requires_grad=need)
                  for k, need in enumerate(needs)]
        with lib.autograd.graph.saved_tensors_hooks(lambda t, log=log: log.append(round(t.detach().sum().item(), 3))
                                                    or t, lambda t: t):
            op(lib, *inputs)
        seen.append(log)
    return seen


def test_a_node_saves_what_pytorch_saves_whichever_inputs_need_a_gradient() -> None:
    """The result is always saved; an input only one formula names only if that formula's input needs a gradient
    (``x ** y`` with only x requiring grad still keeps y, x and the result). Also the outer ring's two-input ops,
    whose ``_saved_self`` and ``_saved_other`` name the right tensors."""
    ops = {"pow": (lambda lib, a, b: a ** b, 2), "hypot": (lambda lib, a, b: lib.hypot(a, b), 2),
           "fmod": (lambda lib, a, b: lib.fmod(a, b), 2), "remainder": (lambda lib, a, b: a % b, 2),
           "logaddexp": (lambda lib, a, b: lib.logaddexp(a, b), 2), "dist": (lambda lib, a, b: lib.dist(a, b), 2),
           "cross": (lambda lib, a, b: lib.linalg.cross(a, b), 2),
           "addcmul": (lambda lib, a, b, c: lib.addcmul(a, b, c, value=0.5), 3),
           "addcdiv": (lambda lib, a, b, c: lib.addcdiv(a, b, c, value=0.5), 3),
           "clamp": (lambda lib, a, b, c: lib.clamp(a, b, c), 3)}

    def run(lib: ModuleType) -> dict:
        return {name: _packed(lib, op, n) for name, (op, n) in ops.items()}

    result = as_pytorch(run)[1]
    assert result.startswith("{'pow': [[9.0, 4.0, 35.875], [9.0, 4.0, 35.875], [9.0, 4.0, 35.875]]"), result
    assert "'fmod': [[9.0, 4.0], [], [9.0, 4.0]]" in result, result

    def names(lib: ModuleType) -> list:
        a, b = lib.tensor([3.0, 1.0, 2.0], requires_grad=True), lib.tensor([4.0, 0.5, 1.0], requires_grad=True)
        nodes = [lib.hypot(a, b), lib.logaddexp(a, b), lib.fmod(a, b), a % b, lib.dist(a, b), lib.linalg.cross(a, b)]
        return [(y.grad_fn._saved_self.sum().item(), y.grad_fn._saved_other.sum().item()) for y in nodes]

    assert as_pytorch(names)[1] == repr([(6.0, 5.5)] * 6)


def test_clamp_with_tensor_bounds_gives_each_bound_its_gradient() -> None:
    """``clamp(x, min, max)`` with tensors: each element's gradient goes to whichever of x, min, max it is (max where
    max < min), ClampBackward0; one bound alone too."""

    def run(lib: ModuleType) -> tuple:
        x = lib.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 2.0, 6.0, 0.0], requires_grad=True)
        lo = lib.tensor([2.0, 2.0, 1.0, 5.0, 1.0, 3.0, 7.0, 0.0], requires_grad=True)
        hi = lib.tensor([3.0, 4.0, 3.0, 4.0, 2.0, 1.0, 5.0, 0.0], requires_grad=True)
        y = lib.clamp(x, lo, hi)
        y.backward(lib.arange(1.0, 9.0))
        grads = [x.grad, lo.grad, hi.grad]
        x.grad = lo.grad = None
        z = x.clamp(min=lo)
        z.backward(lib.arange(1.0, 9.0))
        return y, grads, z, x.grad, lo.grad

    assert "ClampBackward0" in as_pytorch(run)[1]
    as_pytorch(lambda lib: lib.clamp(lib.zeros(3, requires_grad=True), lib.zeros(3), lib.ones(1)))  # (bounds broadcast)


def test_tanh_and_the_other_function_forms_write_into_out() -> None:
    """``torch.tanh(x, out=y)`` (the traced program's op) takes ``out=`` as PyTorch's does; forms PyTorch gives no
    ``out=`` refuse it, and a result that requires grad is refused."""

    def run(lib: ModuleType) -> tuple:
        x, y = lib.tensor([0.5, 1.0]), lib.empty(2)
        same = lib.tanh(x, out=y) is y
        return same, y, lib.exp(x, out=lib.empty(3)), lib.sum(x, 0, out=lib.empty(()))

    assert as_pytorch(run)[0] is None
    raises(lambda lib: lib.t(lib.ones(2, 2), out=lib.empty(2, 2)), TypeError,
           "t() got an unexpected keyword argument 'out'")
    raises(lambda lib: lib.tanh(lib.ones(2, requires_grad=True), out=lib.empty(2)), RuntimeError,
           "tanh(): functions with out=... arguments don't support automatic differentiation, but one of the "
           "arguments requires grad.")


def test_raw_saved_tensors_take_their_own_pack_and_unpack_hooks() -> None:
    """``grad_fn._raw_saved_self.register_hooks(pack, unpack)``, as PyTorch's saved-tensor hooks tutorial uses it:
    pack runs at once, unpack whenever the tensor is needed, and the refusals (twice, None, bad arguments)."""

    def run(lib: ModuleType) -> list:
        log: list = []
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x.pow(2)
        y.grad_fn._raw_saved_self.register_hooks(lambda t: log.append("pack") or t * 1, lambda t: log.append("unpack")
                                                 or t)
        log.append(y.grad_fn._saved_self)
        y.sum().backward()
        z = x.exp()
        z.grad_fn._raw_saved_result.register_hooks(lambda t: log.append("pack result") or t, lambda t: t)
        z.sum().backward()
        return [*log, x.grad]

    assert as_pytorch(run)[1] == "['pack', 'unpack', tensor([1., 2., 3.], requires_grad=True), 'unpack', " \
        "'pack result', tensor([ 4.7183, 11.3891, 26.0855])]"
    hooks = (lambda t: t, lambda t: t)
    raises(lambda lib: _twice(lib, hooks), RuntimeError, "Calling register_hooks on a saved tensor whose hooks have "
           "already been set. Hint: only one pair of hooks is allowed at a time.")
    raises(lambda lib: (lib.ones(2, requires_grad=True) * lib.ones(2)).grad_fn._raw_saved_self.register_hooks(*hooks),
           RuntimeError, "Calling register_hooks on a saved tensor with value None is forbidden")


def _twice(lib: ModuleType, hooks: tuple) -> None:
    with lib.autograd.graph.saved_tensors_hooks(*hooks):
        y = lib.ones(2, requires_grad=True).pow(2)
    y.grad_fn._raw_saved_self.register_hooks(*hooks)


def test_a_raw_saved_tensor_shows_what_the_node_holds_and_a_pack_hook_may_not_change_its_input() -> None:
    """``_raw_saved_self.data`` is what the node holds (the pack hook's result; an input itself; an output detached),
    ``unpack_hook`` the hook; a custom Function's node lists its ``_raw_saved_tensors``; a pack hook that changes
    its input in place is refused, as in PyTorch."""

    def run(lib: ModuleType) -> list:
        a = lib.tensor(2.0, requires_grad=True)
        unpack = lambda t: t  # noqa: E731
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t * 1, unpack):
            b = a**2
        c = b.exp()
        d = c**2
        raws = b.grad_fn._raw_saved_self, c.grad_fn._raw_saved_result, d.grad_fn._raw_saved_self
        return [raws[0].unpack_hook is unpack, raws[1].data is c, raws[1].data.requires_grad, raws[1].unpack_hook,
                raws[2].data is c, len(_ident(lib).apply(a).grad_fn._raw_saved_tensors)]

    assert as_pytorch(run)[1] == "[True, False, False, None, True, 2]"

    def inc(x: Any) -> Any:
        x += 1
        return x

    def changing(lib: ModuleType) -> None:
        with lib.autograd.graph.saved_tensors_hooks(inc, lambda x: x):
            lib.exp(lib.ones(2, requires_grad=True))

    raises(changing, RuntimeError, "A saved tensor pack hook is modifying its input in place. Tensors provided as "
           "input to pack hook cannot be modified by in-place operations as this can lead to unexpected "
           "side-effects. Please open an issue if you need to perform in-place operations on the input to a pack "
           "hook.")


def _ident(lib: ModuleType) -> Any:
    class Ident(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x, None)
            return x.clone()

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g

    return Ident


def test_inverse_hyperbolic_functions_and_their_in_place_forms_as_pytorch() -> None:
    """asinh, acosh, atanh with PyTorch's derivatives (second ones too); their in-place forms have none."""

    def run(lib: ModuleType) -> list:
        x = lib.tensor([0.5, 2.0, -3.0, 1.0], requires_grad=True)
        seen = []
        for name in ("asinh", "acosh", "atanh"):
            y = getattr(lib, name)(x)
            (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
            seen += [y, g, lib.autograd.grad(g.sum(), x)[0]]
            try:
                getattr(lib, name + "_")(x.clone()).sum().backward()
            except NotImplementedError as e:
                seen.append(str(e))
        return seen

    as_pytorch(run)


def test_set_gives_a_leaf_new_storage_and_a_new_accumulator() -> None:
    """``x.set_(y)`` inside no_grad: x takes y's numbers and shape; the graph recorded before still ends at x's old
    gradient accumulator, so it no longer reaches x (PyTorch's "not used in the graph"); refused in grad mode."""

    def run(lib: ModuleType) -> list:
        p = lib.nn.Parameter(lib.ones(4, dtype=lib.float64))
        shapes = []
        for _ in range(2):
            with lib.no_grad():
                p.set_(p[1:])
                p.grad = None
            lib.cat((p, p)).sum().backward()
            shapes.append((tuple(p.shape), p.grad))
        x = lib.ones(2, requires_grad=True)
        out = x.clone()
        with lib.no_grad():
            x.set_(lib.zeros(3))
        return [*shapes, x, lib.autograd.grad(out.sum(), x, allow_unused=True)]

    assert as_pytorch(run)[1].endswith("tensor([0., 0., 0.], requires_grad=True), (None,)]")
    raises(lambda lib: lib.ones(2, requires_grad=True).set_(lib.ones(3)), RuntimeError,
           "a leaf Variable that requires grad is being used in an in-place operation.")
    raises(lambda lib: lib.ones(2).set_(lib.ones(2, dtype=lib.int64)), RuntimeError,
           "Could not set tensor of type long int to a tensor of type float")


def test_graph_node_is_an_abstract_class_nodes_are_registered_with() -> None:
    """``torch.autograd.graph.Node`` is what every ``grad_fn`` is an instance of, built-in or a learner's Function's,
    without being one of its classes (PyTorch's nodes are C++ classes registered with it): lesson 05b's claim."""

    def run(lib: ModuleType) -> tuple:
        node_class = lib.autograd.graph.Node
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = a.exp()

        class Id(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x.clone()

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g

        c = Id.apply(a)
        functions = lib._C._functions
        return (isinstance(b.grad_fn, node_class), node_class in type(b.grad_fn).__mro__,
                isinstance(b.grad_fn.next_functions[0][0], node_class), isinstance(c.grad_fn, node_class),
                node_class in type(c.grad_fn).__mro__, issubclass(functions.AccumulateGrad, node_class),
                isinstance(functions.AccumulateGrad, node_class), issubclass(functions.DelayedError, node_class),
                isinstance(None, node_class), isinstance(node_class, node_class), issubclass(node_class, node_class))

    assert run(tg) == (True, False, True, True, False, True, False, True, False, False, True)
    if oracle() is not None:
        assert run(oracle()) == run(tg)


def _deep(lib: ModuleType, depth: float, fail_at: float | None = None) -> Any:
    """A Function whose backward runs backward through a new copy of itself: ``depth`` nested backward passes."""

    class Deeper(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            with lib.enable_grad():
                ctx.x = x.detach().requires_grad_() - 1
            return ctx.x.detach()

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            if fail_at is not None and float(ctx.x) == fail_at:
                raise ValueError(f"stopped at {fail_at}")
            if ctx.x >= 0:
                with lib.enable_grad():
                    Deeper.apply(ctx.x).sum().backward()
            return g * 2

    v = lib.tensor(depth, requires_grad=True)
    Deeper.apply(v).sum().backward()
    return v.grad


def test_a_backward_that_calls_backward_two_thousand_levels_deep() -> None:
    """A reentrant backward thousands of levels deep finishes, as in PyTorch (whose engine, past a depth, goes on
    on another thread; so does ours), and an error raised at the bottom reaches the learner with its own type."""
    assert float(_deep(tg, 2000.0)) == 2.0
    assert as_pytorch(lambda lib: _deep(lib, 300.0, fail_at=5.0))[:2] == ("ValueError", "stopped at 5.0")
    if oracle() is not None:
        assert float(_deep(oracle(), 2000.0)) == 2.0


def test_autograd_grad_through_a_view_whose_base_another_view_changed() -> None:
    """``w`` is a view of ``b``; changing another view of ``b`` in place rebuilds ``w``'s history when ``w`` is next
    used, so that node is newer than the node using it. ``autograd.grad`` must still find the path down to ``x``
    (``backward`` always did): d/dx of sum(w * w) is 2w in the row w covers."""

    def run(lib: ModuleType) -> Any:
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        b = x.clone()
        v, w = b[0], b[1]
        v.mul_(2)
        return lib.autograd.grad((w * w).sum(), x, allow_unused=True)

    assert as_pytorch(run)[:2] == (None, "(tensor([[0., 0.],\n        [6., 8.]]),)")


def test_a_learners_forward_returning_an_array_gives_the_array_back() -> None:
    """PyTorch hands back what a custom forward returns that is not a tensor, a numpy array too (and records no
    node for it); only tensors become outputs with a history."""

    def run(lib: ModuleType) -> Any:
        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x.detach().numpy() * 2, x * 2

            @staticmethod
            def backward(ctx: Any, g_array: Any, g: Any) -> Any:
                return g * 2

        x = lib.ones(2, requires_grad=True)
        array, tensor = Twice.apply(x)
        tensor.sum().backward()
        return type(array).__name__, array.tolist(), type(tensor.grad_fn).__name__, x.grad

    assert as_pytorch(run)[:2] == (None, "('ndarray', [2.0, 2.0], 'TwiceBackward', tensor([2., 2.]))")
