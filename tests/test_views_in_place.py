"""Views made in place, as PyTorch has them: ``transpose_``, ``t_``, ``squeeze_``, ``unsqueeze_`` change a tensor's
own shape and history (refused where any in-place change is: a leaf that requires grad, an inference tensor outside
inference mode); ``resize_`` changes its number of elements.

Each check runs with tinygrad_edu and, when torch is installed, with torch (``_oracle``): same result, same
exception type and message, same warnings.
"""

from __future__ import annotations

from types import ModuleType

from _oracle import as_pytorch, raises


def test_views_made_in_place() -> None:
    def run(lib: ModuleType) -> str:
        x = lib.arange(6.0).reshape(2, 3).requires_grad_()
        y = x.clone()
        y.t_()
        shapes = [tuple(y.shape)]
        y.unsqueeze_(0)
        shapes.append(tuple(y.shape))
        y.squeeze_(0)
        y.transpose_(0, 1)
        shapes.append(tuple(y.shape))
        (y * lib.arange(6.0).reshape(2, 3)).sum().backward()
        return f"{shapes} {y._version} {x.grad.tolist()}"

    as_pytorch(run, (None, repr("[(3, 2), (1, 3, 2), (2, 3)] 4 [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]"), []))
    raises(lambda lib: lib.ones(2, 3, requires_grad=True).t_(), RuntimeError,
           "a leaf Variable that requires grad is being used in an in-place operation.")

    def inference(lib: ModuleType) -> None:
        with lib.inference_mode():
            c = lib.ones(2, 3)
        c.transpose_(0, 1)

    raises(inference, RuntimeError, "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
           "make a clone to get a normal tensor before doing inplace update.See "
           "https://github.com/pytorch/rfcs/pull/17 for more details.")


def test_resize_keeps_the_first_elements_and_counts_a_version() -> None:
    def run(lib: ModuleType) -> str:
        x = lib.arange(6.0)
        versions = []
        for shape in [(2, 2), (2, 2), (3,)]:
            x.resize_(shape)
            versions.append(x._version)
        x.resize_as_(lib.ones(1, 3))
        return f"{x.tolist()} {versions} {x._version}"

    as_pytorch(run, (None, repr("[[0.0, 1.0, 2.0]] [1, 1, 2] 3"), []))
    raises(lambda lib: lib.ones(2, requires_grad=True).clone().resize_(3), RuntimeError,
           "cannot resize variables that require grad")


def test_a_view_asked_after_its_base_changed_in_place() -> None:
    """``v = x.select(0, 1)`` of a tensor that needs no grad, then ``x.add_(r)`` with r requiring grad: v now depends
    on r, and says so when asked (its history is regrown, as PyTorch's view is)."""

    def run(lib: ModuleType) -> str:
        r = lib.ones(1, dtype=lib.float64, requires_grad=True)
        x = lib.ones(5, dtype=lib.float64)
        v = x.select(0, 1)
        before = v.requires_grad
        x.add_(r * 3)
        after = v.requires_grad
        (v * 2).backward()
        return f"{before} {after} {v.tolist()} {r.grad.tolist()}"

    as_pytorch(run, (None, repr("False True 4.0 [6.0]"), []))


def test_a_view_of_a_view_made_without_grad() -> None:
    """A view made with grad mode on, of a view made without it (no_grad or inference mode), is refused in place with
    PyTorch's words for that case, naming the op that made it."""

    def run(lib: ModuleType, mode: str) -> None:
        x = lib.zeros(2)
        with lib.no_grad() if mode == "no_grad" else lib.inference_mode():
            y = x.view(2)
        y.requires_grad_(True)
        z = y.view(2)
        z /= 2

    raises(lambda lib: run(lib, "no_grad"), RuntimeError, "Output 0 of View is a view of a view which was created in "
           "no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous "
           "and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either "
           "both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want "
           "the inplace to be tracked).")
    raises(lambda lib: run(lib, "inference"), RuntimeError, "Output 0 of View is a view of a view which was created "
           "in inference mode and is being modified inplace in normal mode. Given that this use case is ambiguous and "
           "error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either "
           "both inside the inference_mode block (if you don't want the inplace to be tracked) or both outside (if "
           "you want the inplace to be tracked).")
