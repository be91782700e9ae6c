"""Where tutorial programs stopped or printed something else than PyTorch: d2l's linear algebra, lazy
initialisation and read-write sections, and PyTorch's tensors and neural-networks tutorials.

Each case is run with tinygrad_edu and, when torch is installed, with torch (``_oracle.as_pytorch``); the
expected text is spelled out, so each test means something without torch.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, oracle, raises

import tinygrad_edu as tg


def _matrix(lib: ModuleType) -> Any:
    return lib.arange(6.0).reshape(2, 3)


# -- numpy's argument names: axis= for dim=, keepdims= for keepdim= (PyTorch's argument parser takes them) ----------
NUMPY_NAMES = {
    "cumsum": (lambda lib: _matrix(lib).cumsum(axis=0), "tensor([[0., 1., 2.],\n        [3., 5., 7.]])"),
    "torch.cumsum": (lambda lib: lib.cumsum(_matrix(lib), axis=1),
                     "tensor([[ 0.,  1.,  3.],\n        [ 3.,  7., 12.]])"),
    "cumprod": (lambda lib: _matrix(lib).cumprod(axis=1), "tensor([[ 0.,  0.,  0.],\n        [ 3., 12., 60.]])"),
    "cat": (lambda lib: lib.cat([_matrix(lib), _matrix(lib)], axis=1).shape, "tinygrad_edu.Size([2, 6])"),
    "stack": (lambda lib: lib.stack([_matrix(lib)] * 2, axis=2).shape, "tinygrad_edu.Size([2, 3, 2])"),
    "std, keepdims": (lambda lib: _matrix(lib).std(axis=0, keepdims=True),
                      "tensor([[2.1213, 2.1213, 2.1213]])"),
    "var": (lambda lib: _matrix(lib).var(axis=1), "tensor([1., 1.])"),
    "prod": (lambda lib: _matrix(lib).prod(axis=0, keepdims=True), "tensor([[ 0.,  4., 10.]])"),
    "softmax": (lambda lib: _matrix(lib).softmax(axis=1).sum(1), "tensor([1., 1.])"),
    "logsumexp": (lambda lib: _matrix(lib).logsumexp(axis=0), "tensor([3.0486, 4.0486, 5.0486])"),
    "amax": (lambda lib: _matrix(lib).amax(axis=0, keepdims=True), "tensor([[3., 4., 5.]])"),
    "median": (lambda lib: _matrix(lib).median(axis=0).values, "tensor([0., 1., 2.])"),
    "all": (lambda lib: _matrix(lib).all(axis=0), "tensor([False,  True,  True])"),
    "torch.any": (lambda lib: lib.any(_matrix(lib), axis=1), "tensor([True, True])"),
    "sort": (lambda lib: _matrix(lib).sort(axis=0, descending=True).indices,
             "tensor([[1, 1, 1],\n        [0, 0, 0]])"),
    "topk": (lambda lib: _matrix(lib).topk(1, axis=0).values, "tensor([[3., 4., 5.]])"),
    "gather": (lambda lib: _matrix(lib).gather(axis=0, index=lib.zeros(1, 3, dtype=lib.long)),
               "tensor([[0., 1., 2.]])"),
    "index_select": (lambda lib: _matrix(lib).index_select(axis=1, index=lib.tensor([2])),
                     "tensor([[2.],\n        [5.]])"),
    "unsqueeze": (lambda lib: _matrix(lib).unsqueeze(axis=0).shape, "tinygrad_edu.Size([1, 2, 3])"),
    "squeeze": (lambda lib: lib.ones(2, 1).squeeze(axis=1).shape, "tinygrad_edu.Size([2])"),
    "unbind": (lambda lib: len(_matrix(lib).unbind(axis=1)), "3"),
    "chunk": (lambda lib: len(_matrix(lib).chunk(2, axis=1)), "2"),
    "diff": (lambda lib: _matrix(lib).diff(axis=0), "tensor([[3., 3., 3.]])"),
    "sum, both numpy names": (lambda lib: lib.sum(_matrix(lib), axis=0, keepdims=True), "tensor([[3., 5., 7.]])"),
}


@pytest.mark.parametrize("name", NUMPY_NAMES)
def test_numpy_argument_names_are_taken(name: str) -> None:
    fn, expected = NUMPY_NAMES[name]
    as_pytorch(fn, (None, expected, []))


def test_a_dim_given_twice_is_refused() -> None:
    with pytest.raises(TypeError, match="got multiple values for argument 'dim'"):
        tg.arange(4.0).cumsum(0, axis=0)
    with pytest.raises(TypeError, match="got multiple values for argument 'dim'"):
        tg.arange(4.0).cumsum(dim=0, axis=0)


# -- torch.linalg.eigh and eigvalsh --------------------------------------------------------------------------------
def test_eigvalsh_as_d2l_prints_it() -> None:
    as_pytorch(lambda lib: lib.linalg.eigvalsh(lib.tensor([[1.0, 2, 3], [2, 0, 4], [3, 4, 5]])),
               (None, "tensor([-2.2628, -0.5985,  8.8612])", []))


def test_eigh_prints_its_named_pair_and_node() -> None:
    def eigh(lib: ModuleType) -> Any:
        A = lib.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
        result = lib.linalg.eigh(A)
        return result, result.eigenvalues.grad_fn.name()

    as_pytorch(lambda lib: eigh(lib)[0].eigenvalues,
               (None, "tensor([1.3820, 3.6180], grad_fn=<LinalgEighBackward0>)", []))
    text = repr(eigh(tg)[0])
    assert text.startswith("tinygrad_edu.return_types.linalg_eigh(\neigenvalues=tensor([1.3820, 3.6180]")
    assert "eigenvectors=tensor([[" in text


def test_the_gradients_of_eigenvalues_and_eigenvectors() -> None:
    """d(sum of eigenvalues)/dA is the identity (the trace); an eigenvector's gradient as PyTorch's formula gives it
    (compared to 4 decimals: the eigenvectors' signs are LAPACK's, the same in both here)."""

    def grads(lib: ModuleType) -> Any:
        A = lib.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
        lib.linalg.eigvalsh(A).sum().backward()
        trace = A.grad.round(decimals=4)
        A.grad = None
        r = lib.linalg.eigh(A)
        (r.eigenvectors[:, 0].sum() ** 2 + r.eigenvalues[1]).backward()
        return trace, A.grad

    as_pytorch(grads, (None, "(tensor([[1., 0.],\n        [0., 1.]]), "
                             "tensor([[0.0975, 0.3578],\n        [0.3578, 0.9025]]))", []))
    B = tg.randn(4, 4, dtype=tg.float64)
    assert tg.autograd.gradcheck(lambda x: tg.linalg.eigvalsh(x + x.T), (B.requires_grad_(),))
    assert tg.autograd.gradcheck(lambda x: tg.linalg.eigh(x + x.T).eigenvectors.abs(), (B,))


def test_second_derivatives_through_eigh() -> None:
    """The backward is written with Tensor operations on the saved eigenvalues and eigenvectors (outputs 0 and 1 of
    the node), so a second derivative flows back through it as through any op."""

    def second(lib: ModuleType) -> Any:
        B = lib.tensor([[1.0, 2.0, 0.5], [2.0, -1.0, 0.3], [0.5, 0.3, 2.0]], dtype=lib.float64,
                       requires_grad=True)
        r = lib.linalg.eigh(B)
        g, = lib.autograd.grad(r.eigenvectors[:, 0].sum() ** 2 + r.eigenvalues.pow(3).sum(), B, create_graph=True)
        return lib.autograd.grad(g.pow(2).sum(), B)[0].round(decimals=6)

    ours = as_pytorch(second)
    assert ours[0] is None and "dtype=tinygrad_edu.float64" in ours[1]
    B = tg.randn(3, 3, dtype=tg.float64, requires_grad=True)
    assert tg.autograd.gradgradcheck(lambda x: tg.linalg.eigvalsh(x + x.T), (B,))


def test_eigh_of_a_matrix_that_is_not_square() -> None:
    raises(lambda lib: lib.linalg.eigvalsh(lib.ones(2, 3)), RuntimeError,
           "linalg.eigh: A must be batches of square matrices, but they are 2 by 3 matrices")


# -- lazy modules: UninitializedParameter until the first input, or load_state_dict -------------------------------
def test_a_lazy_weight_before_its_first_input() -> None:
    as_pytorch(lambda lib: (lib.nn.LazyLinear(3), lib.nn.LazyLinear(3).weight, type(lib.nn.LazyLinear(3).bias),
                            lib.nn.LazyLinear(3).state_dict(), lib.nn.LazyLinear(3).weight.size()),
               (None, "(LazyLinear(in_features=0, out_features=3, bias=True), <UninitializedParameter>, <class "
                      "'tinygrad_edu.nn.parameter.UninitializedParameter'>, OrderedDict([('weight', "
                      "<UninitializedParameter>), ('bias', <UninitializedParameter>)]), tinygrad_edu.Size([0]))", []))
    raises(lambda lib: lib.nn.LazyLinear(3).weight.shape, RuntimeError,
           "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
           "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
           "`forward` to initialize the parameters before accessing their attributes.")


def test_a_lazy_module_takes_its_shape_from_its_first_input_keeping_its_parameter_objects() -> None:
    def run(lib: ModuleType) -> Any:
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.LazyLinear(4), lib.nn.ReLU(), lib.nn.LazyLinear(1))
        before = list(net.parameters())
        out = net(lib.ones(2, 3))
        return net, type(net[0].weight), net[0].weight.shape, out, all(a is b for a, b in zip(before,
                                                                                          net.parameters()))

    ours = as_pytorch(run)
    assert "Linear(in_features=3, out_features=4, bias=True)" in ours[1] and ours[1].endswith("True)")


def test_load_state_dict_gives_a_lazy_module_the_saved_shapes() -> None:
    """d2l's read-write section: a LazyLinear not run yet loads a saved Linear's weights."""

    def run(lib: ModuleType) -> Any:
        lib.manual_seed(0)
        source = lib.nn.Linear(5, 3)
        lazy = lib.nn.LazyLinear(3)
        keys = lazy.load_state_dict(source.state_dict())
        first = (keys, lazy, type(lazy.weight), lazy.weight.shape, lib.equal(lazy.weight, source.weight))
        return first, lazy(lib.ones(1, 5)), lazy

    as_pytorch(run)
    lazy = tg.nn.LazyLinear(3)
    lazy.load_state_dict(tg.nn.Linear(5, 3).state_dict())
    assert type(lazy.weight) is tg.nn.Parameter and lazy.weight.shape == (3, 5)


# -- class names as PyTorch prints them -------------------------------------------------------------------------------
def test_class_names_print_as_pytorchs() -> None:
    as_pytorch(lambda lib: (type(lib.zeros(1)), type(lib.nn.Linear(2, 1).bias), lib.Tensor, lib.nn.Parameter),
               (None, "(<class 'tinygrad_edu.Tensor'>, <class 'tinygrad_edu.nn.parameter.Parameter'>, <class "
                      "'tinygrad_edu.Tensor'>, <class 'tinygrad_edu.nn.parameter.Parameter'>)", []))


def test_a_saved_parameter_loads_back_as_a_parameter(tmp_path: Any) -> None:
    p = tg.nn.Parameter(tg.ones(2))
    tg.save({"p": p}, tmp_path / "p.pt")
    loaded = tg.load(tmp_path / "p.pt")["p"]
    assert type(loaded) is tg.nn.Parameter and np.array_equal(loaded.detach().numpy(), np.ones(2, np.float32))


# -- naming the GPU is allowed; putting a tensor there is not ------------------------------------------------------
def test_naming_the_gpu_is_allowed_as_in_pytorch() -> None:
    """PyTorch's tensors tutorial runs ``torch.cuda.is_available() & (torch.device('cuda').index is not None)``:
    ``&`` evaluates both sides, so the device is made even without a GPU."""
    as_pytorch(lambda lib: (lib.cuda.is_available() & (lib.device("cuda").index is not None), lib.device("cuda:1")),
               (None, "(False, device(type='cuda', index=1))", []))
    for move in (lambda: tg.zeros(2, device=tg.device("cuda")), lambda: tg.zeros(2).to(tg.device("cuda")),
                 lambda: tg.nn.Linear(1, 1).to(tg.device("cuda")), lambda: tg.nn.Linear(1, 1).to(device="cuda")):
        with pytest.raises(AssertionError, match="tinygrad_edu runs on the CPU only"):
            move()


# -- MSELoss of a float input and an integer target ---------------------------------------------------------------
def test_mse_loss_with_an_integer_target_is_float32() -> None:
    """PyTorch's neural-networks tutorial compares a float32 output with ``torch.arange(1, 11)`` (int64)."""

    def loss(lib: ModuleType) -> Any:
        x = lib.tensor([[0.5, 1.5, 2.5]], requires_grad=True)
        out = lib.nn.MSELoss()(x, lib.arange(1, 4).view(1, -1))
        out.backward()
        return out, x.grad

    as_pytorch(loss, (None, "(tensor(0.2500, grad_fn=<MseLossBackward0>), tensor([[-0.3333, -0.3333, -0.3333]]))",
                      []))


# -- a custom Function's saved outputs know which output they are (PyTorch's extending.rst, MyCube) -----------------
def test_a_saved_second_output_takes_its_own_gradient_in_double_backward() -> None:
    """A Function saving its second output: unpacked in backward, it is output 1 of the node, so a double backward
    sends its gradient to that output's slot. (It used to come back as output 0: wrong second derivatives.)"""

    def cube(lib: ModuleType) -> Any:
        class MyCube(lib.autograd.Function):
            @staticmethod
            def forward(x: Any) -> Any:
                return x ** 3, 3 * x ** 2

            @staticmethod
            def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
                ctx.save_for_backward(inputs[0], output[1])

            @staticmethod
            def backward(ctx: Any, grad_output: Any, grad_dx: Any) -> Any:
                x, dx = ctx.saved_tensors
                return grad_output * dx + grad_dx * 6 * x

        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        g, = lib.autograd.grad(MyCube.apply(x)[0].sum(), x, create_graph=True)
        return g.detach(), lib.autograd.grad(g.sum(), x)

    def two(lib: ModuleType) -> Any:
        class Two(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                a, b = x * 2, x * 3
                ctx.save_for_backward(a, b)
                return a, b

            @staticmethod
            def backward(ctx: Any, ga: Any, gb: Any) -> Any:
                _a, b = ctx.saved_tensors
                return ga * b

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a, _ = Two.apply(x)
        g, = lib.autograd.grad(a.sum(), x, create_graph=True)
        return [t.output_nr for t in a.grad_fn.saved_tensors], lib.autograd.grad(g.sum(), x)

    as_pytorch(cube, (None, "(tensor([ 3., 12., 27.]), (tensor([ 6., 12., 18.]),))", []))
    as_pytorch(two, (None, "([0, 1], (tensor([0., 0.]),))", []))


# -- the functional losses take the legacy size_average= and reduce= (yunjey's VAE: size_average=False) ------------
LEGACY_LOSSES = {
    "binary_cross_entropy": (lambda lib, F: F.binary_cross_entropy(  # noqa: N803
        lib.tensor([0.2, 0.9]), lib.tensor([0.0, 1.0]), size_average=False), "tensor(0.3285)", "sum"),
    "binary_cross_entropy_with_logits, positional": (lambda lib, F: F.binary_cross_entropy_with_logits(  # noqa: N803
        lib.tensor([0.2, 0.9]), lib.tensor([0.0, 1.0]), None, False), "tensor(1.1393)", "sum"),
    "cross_entropy": (lambda lib, F: F.cross_entropy(  # noqa: N803
        lib.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]]), lib.tensor([1, 2]), size_average=False), "tensor(0.5740)",
        "sum"),
    "nll_loss": (lambda lib, F: F.nll_loss(  # noqa: N803
        lib.tensor([[-1.0, -2.0], [-0.5, -0.1]]), lib.tensor([1, 0]), reduce=False), "tensor([2.0000, 0.5000])",
        "none"),
    "smooth_l1_loss": (lambda lib, F: F.smooth_l1_loss(  # noqa: N803
        lib.tensor([0.2, 0.9]), lib.tensor([0.0, 1.0]), size_average=False), "tensor(0.0250)", "sum"),
    "kl_div": (lambda lib, F: F.kl_div(  # noqa: N803
        lib.tensor([-1.0, -0.5]), lib.tensor([0.3, 0.7]), reduce=False), "tensor([-0.0612,  0.1003])", "none"),
}


@pytest.mark.parametrize("name", LEGACY_LOSSES)
def test_functional_losses_take_size_average_and_reduce(name: str) -> None:
    fn, expected, reduction = LEGACY_LOSSES[name]
    as_pytorch(lambda lib: fn(lib, lib.nn.functional),
               (None, expected, [f"UserWarning: size_average and reduce args will be deprecated, please use "
                                 f"reduction='{reduction}' instead."]))


# -- a boolean mask of the wrong shape: PyTorch names the mask's dim and the dim of the tensor it indexes -----------
MASKS = {
    "after a slice": ((slice(None), [True, False]),
                      "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [2, 3, 4] "
                      "at index 1"),
    "after an integer (x[0] is indexed)": ((0, [True, False]),
                                           "The shape of the mask [2] at index 0 does not match the shape of the "
                                           "indexed tensor [3, 4] at index 0"),
    "after an ellipsis": ((Ellipsis, [True, False, True]),
                          "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor "
                          "[2, 3, 4] at index 2"),
    "an integer, then an ellipsis": ((0, Ellipsis, [True, False, True]),
                                     "The shape of the mask [3] at index 0 does not match the shape of the indexed "
                                     "tensor [3, 4] at index 1"),
}


@pytest.mark.parametrize("name", MASKS)
def test_a_mask_of_the_wrong_shape(name: str) -> None:
    key, message = MASKS[name]
    raises(lambda lib: lib.arange(24).view(2, 3, 4)[tuple(lib.tensor(k) if isinstance(k, list) else k for k in key)],
           IndexError, message)


# -- torch.autograd.graph.allow_mutation_on_saved_tensors (the example of PyTorch's autograd docs) ------------------
def _mutated_after_saving(lib: ModuleType) -> Any:
    """The docs' example: b is saved by pow, then changed in place; backward uses b as it was (a.grad = 2 b)."""
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        a = lib.ones(2, 3, requires_grad=True)
        b = a.clone() * lib.tensor([1.0, 2.0, 3.0])
        out = (b**2).sum()
        shown = repr(b.sin_())
        out.backward()
    return shown, a.grad


def test_a_saved_tensor_changed_in_place_inside_allow_mutation_on_saved_tensors() -> None:
    as_pytorch(_mutated_after_saving,
               (None, "('tensor([[0.8415, 0.9093, 0.1411],\\n        [0.8415, 0.9093, 0.1411]], "
                      "grad_fn=<SinBackward0>)', tensor([[ 2.,  8., 18.],\n        [ 2.,  8., 18.]]))", []))


def test_without_allow_mutation_the_same_change_is_refused() -> None:
    def changed(lib: ModuleType) -> Any:
        b = lib.ones(3, requires_grad=True).clone()
        out = (b**2).sum()
        b.sin_()
        out.backward()

    raises(changed, RuntimeError, "one of the variables needed for gradient computation has been modified by an "
           "inplace operation: [tinygrad_edu.FloatTensor [3]], which is output 0 of Sin, is at version 1; expected "
           "version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its "
           "gradient, with tinygrad_edu.autograd.set_detect_anomaly(True, check_nan=False).")


def test_allow_mutation_on_saved_tensors_wants_backward_inside_it_and_does_not_nest() -> None:
    def backward_after(lib: ModuleType) -> None:
        with lib.autograd.graph.allow_mutation_on_saved_tensors():
            out = (lib.ones(3, requires_grad=True).clone() ** 2).sum()
        out.backward()

    def nested(lib: ModuleType) -> None:
        with lib.autograd.graph.allow_mutation_on_saved_tensors(), lib.autograd.graph.allow_mutation_on_saved_tensors():
            pass

    raises(backward_after, AssertionError, "Trying to backward outside of the 'allow_mutation_on_saved_tensors' "
           "contextin which the graph was originally recorded.")
    raises(nested, RuntimeError, "allow_mutation_on_saved_tensors contexts cannot be nested")
    # a block that ended leaves the hooks and the switch as they were: the usual version check is back
    assert tg.autograd.graph.SAVED_TENSOR_HOOKS == [] and tg.autograd.graph._MUTATION_ALLOWED == [False]


# -- torch.autograd.set_multithreading_enabled and the anomaly_mode module ------------------------------------------
def test_multithreading_switch_is_kept_as_pytorch_keeps_it() -> None:
    def switched(lib: ModuleType) -> Any:
        seen = [lib.autograd.is_multithreading_enabled()]
        with lib.autograd.set_multithreading_enabled(False):
            seen.append(lib.autograd.is_multithreading_enabled())
        seen.append(lib.autograd.is_multithreading_enabled())
        lib.autograd.set_multithreading_enabled(False)  # a plain call sets it until set back
        seen.append(lib.autograd.is_multithreading_enabled())
        lib.autograd.set_multithreading_enabled(True)
        return seen

    as_pytorch(switched, (None, "[True, False, True, False]", []))


def test_anomaly_mode_module_holds_the_switches() -> None:
    from tinygrad_edu.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly

    assert detect_anomaly is tg.autograd.detect_anomaly and set_detect_anomaly is tg.autograd.set_detect_anomaly


# -- torch.functional (introyt's models tutorial imports it as F) and torch.unravel_index ---------------------------
def test_torch_functional_holds_the_same_functions() -> None:
    import tinygrad_edu.functional as F

    assert F.einsum is tg.einsum and F.split is tg.split and F.norm is tg.norm and F.meshgrid is tg.meshgrid
    assert tg.unravel_index is F.unravel_index


UNRAVEL = {
    "a 0-d index": (lambda lib: lib.unravel_index(lib.tensor(4), (3, 2)), "(tensor(2), tensor(0))"),
    "several": (lambda lib: lib.unravel_index(lib.tensor([[22, 41, 37]]), (7, 6)),
                "(tensor([[3, 6, 6]]), tensor([[4, 5, 1]]))"),
    "negative and past the end (modulo the size)": (lambda lib: lib.unravel_index(lib.tensor([-1, 100]), (3, 2)),
                                                   "(tensor([2, 2]), tensor([1, 0]))"),
    "an int shape": (lambda lib: lib.unravel_index(lib.tensor(1), 6), "(tensor(1),)"),
}


@pytest.mark.parametrize("name", UNRAVEL)
def test_unravel_index(name: str) -> None:
    fn, expected = UNRAVEL[name]
    as_pytorch(fn, (None, expected, []))


def test_unravel_index_refusals() -> None:
    raises(lambda lib: lib.unravel_index(lib.tensor(1.0), (3, 2)), TypeError,
           "expected 'indices' to be integer dtype, but got tinygrad_edu.float32")
    raises(lambda lib: lib.unravel_index(lib.tensor(1), (3, -2)), ValueError,
           "'shape' cannot have negative values, but got (3, -2)")
    raises(lambda lib: lib.unravel_index(5, (3, 2)), AttributeError, "'int' object has no attribute 'is_complex'")


def test_is_complex_is_always_false_here() -> None:
    as_pytorch(lambda lib: (lib.ones(2).is_complex(), lib.is_complex(lib.arange(3))), (None, "(False, False)", []))
    raises(lambda lib: lib.is_complex(3), TypeError,
           "is_complex(): argument 'input' (position 1) must be Tensor, not int")


# -- storages: the memory a tensor and its views share ---------------------------------------------------------------
def test_a_view_and_its_base_share_one_storage() -> None:
    def shared(lib: ModuleType) -> Any:
        t = lib.arange(6.0)
        s, view, copy = t.untyped_storage(), t[2:].view(2, 2), t[2:].clone()
        return (s.nbytes(), s.size(), len(s), s.data_ptr() == t.data_ptr(),
                view.untyped_storage().data_ptr() == s.data_ptr(), copy.untyped_storage().data_ptr() == s.data_ptr(),
                view.data_ptr() - t.data_ptr(), view.storage_offset(), s.element_size(), str(s.device), s.is_shared())

    as_pytorch(shared, (None, "(24, 24, 24, True, True, False, 8, 2, 1, 'cpu', False)", []))


def test_storages_print_as_pytorchs() -> None:
    as_pytorch(lambda lib: lib.tensor([1, 2], dtype=lib.int8).untyped_storage(),
               (None, " 1\n 2\n[tinygrad_edu.storage.UntypedStorage(device=cpu) of size 2]", []))
    import tinygrad_edu.storage

    tinygrad_edu.storage._WARNED.clear()  # (both warn once per process: this test wants to see it)
    torch = oracle()
    if torch is not None:
        torch.storage._warn_typed_storage_removal.__dict__["has_warned"] = False
    kind, text, warned = as_pytorch(lambda lib: (lib.tensor([1.5, 2.0]).storage(), lib.tensor([1]).storage().tolist()))
    assert kind is None and text == ("( 1.5\n 2.0\n[tinygrad_edu.storage.TypedStorage(dtype=tinygrad_edu.float32, "
                                     "device=cpu) of size 2], [1])")
    assert warned[:1] == ["UserWarning: TypedStorage is deprecated. It will be removed in the future and "
                          "UntypedStorage will be the only storage class. This should only matter to you if you are "
                          "using storages directly.  To access UntypedStorage directly, use tensor.untyped_storage() "
                          "instead of tensor.storage()"]


# -- complex numbers: PyTorch has them, the library says plainly that it has not ---------------------------------------
@pytest.mark.parametrize("data", [1 + 2j, [1, 2j], np.array([1 + 2j]), np.array([1j], dtype=np.complex64)])
def test_complex_data_is_refused_in_words_that_say_why(data: Any) -> None:
    with pytest.raises(TypeError, match=r"^tinygrad_edu has no complex dtypes \(the course's derivatives are real\): "
                                        r".* would be a complex tensor in PyTorch\. Use real numbers here, or PyTorch "
                                        r"itself for complex autograd\.$"):
        tg.tensor(data)
    if isinstance(data, np.ndarray):
        with pytest.raises(TypeError, match="^tinygrad_edu has no complex dtypes"):
            tg.from_numpy(data)


# -- lazy batch norm (d2l's transformer chapter compares layer and batch norm with nn.LazyBatchNorm1d) -------------
def test_lazy_batch_norm_takes_its_features_from_the_first_input() -> None:
    def lazy(lib: ModuleType) -> Any:
        bn = lib.nn.LazyBatchNorm1d()
        before = (repr(bn), repr(bn.weight), repr(bn.running_mean), repr(bn.num_batches_tracked))
        out = bn(lib.tensor([[1.0, 2.0], [2.0, 3.0]]))
        return before, out, repr(bn), type(bn).__name__, bn.running_mean, bn.weight.shape

    as_pytorch(lazy, (None, "(('LazyBatchNorm1d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, "
                            "track_running_stats=True)', '<UninitializedParameter>', '<UninitializedBuffer>', "
                            "'tensor(0)'), tensor([[-1.0000, -1.0000],\n        [ 1.0000,  1.0000]], "
                            "grad_fn=<NativeBatchNormBackward0>), 'BatchNorm1d(2, eps=1e-05, momentum=0.1, "
                            "affine=True, bias=True, track_running_stats=True)', 'BatchNorm1d', "
                            "tensor([0.1500, 0.2500]), tinygrad_edu.Size([2]))", []))
    as_pytorch(lambda lib: repr(lib.nn.LazyBatchNorm2d(affine=False)),
               (None, "'LazyBatchNorm2d(0, eps=1e-05, momentum=0.1, affine=False, bias=False, "
                      "track_running_stats=True)'", []))
    as_pytorch(lambda lib: lib.nn.LazyBatchNorm2d()(lib.ones(2, 3, 4, 4)).shape,
               (None, "tinygrad_edu.Size([2, 3, 4, 4])", []))
