"""What old PyTorch code did and PyTorch now refuses, with PyTorch's words (beside the core: read last, or never)."""

from __future__ import annotations

import warnings
from typing import Any


class FunctionRefusals:
    """Old-style custom Functions: ``MyFunction()`` warns, ``MyFunction()(x)`` raises, as in PyTorch (a Function's
    methods are static: call ``MyFunction.apply(x)``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(f"{type(self)} should not be instantiated. Methods on autograd functions are all static, so you "
                      "should invoke them on the class itself. Instantiating an autograd function will raise an error "
                      "in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style "
            "autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )
