"""Context managers that also decorate: ``@no_grad()`` on a function, or on a generator (beside the core: read last,
or never). The core's grad modes (``core/grad_mode.py``) get it by inheriting ``Decorating``."""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


CLASS_DECORATED = ("Decorating classes is deprecated and will be disabled in future versions. You should only decorate "
                   "functions or methods. To preserve the current behavior of class decoration, you can directly "
                   "decorate the `__init__` method and nothing else.")


class Decorating:
    """A context manager that, called on a function, returns it wrapped to run inside a fresh copy of itself
    (``clone()``). Made with a function instead of its mode (``@no_grad`` without parentheses, ``@inference_mode``),
    it decorates that function."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and not kwargs and callable(args[0]):
            return cls()(args[0])
        if not args and len(kwargs) == 1 and callable(kwargs.get("mode")):  # inference_mode(mode=fn), as PyTorch
            return cls()(kwargs["mode"])
        return super().__new__(cls)

    def clone(self) -> Any:
        return type(self)()

    def __call__(self, fn: F) -> F:
        """Use as a decorator: the function runs inside a fresh copy of this context."""
        if inspect.isclass(fn):  # PyTorch still allows it, with a warning: only constructing the class gets the mode
            warnings.warn(CLASS_DECORATED, FutureWarning, stacklevel=2)
            cls = fn
            fn = lambda *args, **kwargs: cls(*args, **kwargs)  # noqa: E731
        if inspect.isgeneratorfunction(fn):
            return _wrap_generator(self.clone, fn)  # type: ignore[return-value]

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


def _wrap_generator(make_context: Callable[[], Any], fn: Callable) -> Callable:
    """A generator's body runs a piece at a time, between ``yield``s, while the caller does other
    things in between: so each piece (each send, throw or close) gets the mode, not the whole lifetime."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        gen = fn(*args, **kwargs)
        try:
            with make_context():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with make_context():
                        gen.close()
                    raise
                except BaseException as exc:  # thrown into us by the caller: pass it on to fn's generator
                    with make_context():
                        response = gen.throw(exc)
                else:
                    with make_context():
                        response = gen.send(request)
        except StopIteration as stop:
            return stop.value

    return wrapper


