"""How a tensor prints: PyTorch's format, rebuilt step by step.

``repr(t)`` (and ``str(t)``, which is the same) is built in three stages, as in PyTorch's
``torch/_tensor_str.py``:

1. **Choose one number format for the whole tensor** (:class:`_Formatter`). Every element is printed the
   same way and padded to the same width, so that the columns line up::

       tensor([[-18.1909,   1.4176],
               [  1.5632,  -0.6163]])

2. **Lay out the nested brackets** (:func:`_tensor_str`). A row of a 2-D tensor starts under the first
   ``[`` of the row above; long rows wrap; tensors of more than ``threshold`` elements show only
   ``edgeitems`` items at each end of every dimension, with ``...`` in between.

3. **Add the suffixes** (:func:`_add_suffixes`): ``dtype=...``, ``size=...``, ``grad_fn=<...>`` or
   ``requires_grad=True``, each on a new line if it would make the line too long.

The print options live in one module-level object, :data:`PRINT_OPTS`, changed by :func:`set_printoptions`.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from . import _dtype, _meta


@dataclasses.dataclass
class PrintOptions:
    """The knobs of :func:`set_printoptions`, with PyTorch's defaults."""

    precision: int = 4  # digits after the decimal point
    threshold: float = 1000  # more elements than this: summarize with "..."
    edgeitems: int = 3  # items kept at each end of a summarized dimension
    linewidth: int = 80  # characters per line before wrapping
    sci_mode: bool | None = None  # None: let the formatter choose


PRINT_OPTS = PrintOptions()

_PROFILES: dict[str, dict[str, Any]] = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Change how tensors print, like ``torch.set_printoptions``.

    ``profile`` ("default", "short" or "full") first resets precision, threshold, edgeitems and linewidth;
    the other arguments then override it. Arguments left as ``None`` keep their current value, except
    ``sci_mode``: it is always set, so leaving it out means "choose automatically" again.

    >>> set_printoptions(precision=2)   # tensor([1.12])
    >>> set_printoptions(profile="default")
    """
    if profile in _PROFILES:  # like PyTorch, an unknown profile name is silently ignored
        for name, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, name, value)
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current print options, as keyword arguments for :func:`set_printoptions`."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Change the print options inside a ``with`` block only: ``with printoptions(precision=2): ...``."""
    saved = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**saved)


class _Formatter:
    """One way to write every element of a tensor, chosen after looking at all the elements shown.

    * integers and bools: ``str(value)`` (``3``, ``True``).
    * floats that are all whole numbers ("int mode"): no decimals, but a dot to show they are floats: ``27.``
    * floats spread over many orders of magnitude ("sci mode"): ``1.0000e-05``. Chosen when, among the
      nonzero finite values, largest / smallest > 1000, or largest > 1e8, or smallest < 1e-4.
    * other floats: ``precision`` decimals, ``0.1000``.

    Zeros, nan and inf take no part in the choice: they look fine in any format. Every element is then
    right-aligned to ``width``, the widest of the nonzero finite values (or of all values, for integers).
    A nan or inf wider than that is simply not padded.

    Floats are written from their exact value, as a Python float (a float64), with Python's formatting, as
    PyTorch does. The digits depend on the dtype: the float32 nearest to 0.25205 is 0.25205001..., printed
    ``0.2521``, while the float64 nearest to it is 0.25204999..., printed ``0.2520``.
    """

    def __init__(self, values: np.ndarray) -> None:
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if not self.floating:
            self.width = max([1] + [len(str(v)) for v in values.ravel().tolist()])
            return

        flat = values.ravel()
        nonzero_finite = flat[np.isfinite(flat) & (flat != 0)]
        if nonzero_finite.size == 0:
            return  # only zeros, nan and inf: int mode, width 1
        self.int_mode = bool(np.all(np.ceil(nonzero_finite) == nonzero_finite))
        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode
        else:
            magnitudes = np.abs(nonzero_finite)
            smallest, largest = float(magnitudes.min()), float(magnitudes.max())
            self.sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        self.width = max(len(self._text(v)) for v in nonzero_finite.tolist())

    def _text(self, value: float) -> str:
        """``value`` in the chosen format, without padding."""
        if not self.floating:
            return str(value)
        if self.sci_mode:
            return f"{value:.{PRINT_OPTS.precision}e}"
        if self.int_mode:
            text = f"{value:.0f}"
            return text if math.isinf(value) or math.isnan(value) else text + "."
        return f"{value:.{PRINT_OPTS.precision}f}"

    def format(self, value: float) -> str:
        """``value`` in the chosen format, padded on the left to the common width."""
        return self._text(value).rjust(self.width)


def _shown_elements(array: np.ndarray) -> np.ndarray:
    """The elements a summarized print shows: the first and last ``edgeitems`` of every long dimension.

    The formatter is built from these only, so a huge value hidden behind ``...`` does not widen the columns.
    """
    edge = PRINT_OPTS.edgeitems
    for axis, size in enumerate(array.shape):
        if size > 2 * edge:
            keep = np.concatenate((np.arange(edge), np.arange(size - edge, size)))
            array = np.take(array, keep, axis=axis)
    return array


def _vector_str(row: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """A 1-D row: ``[1., 2., 3.]``, wrapped to the line width; ``indent`` is the column of its ``[``."""
    item_width = formatter.width + 2  # the item, a comma and a space
    items_per_line = max(1, (PRINT_OPTS.linewidth - indent) // item_width)
    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        items = ["..."]
    elif summarize and len(row) > 2 * edge:
        items = ([formatter.format(v) for v in row[:edge].tolist()] + [" ..."]
                 + [formatter.format(v) for v in row[-edge:].tolist()])
    else:
        items = [formatter.format(v) for v in row.tolist()]
    lines = [", ".join(items[i:i + items_per_line]) for i in range(0, len(items), items_per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(array: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Any number of dimensions, by recursion: each sub-tensor starts one column further right.

    Sub-tensors are separated by a comma, then one newline per dimension they have (so the 2-D blocks of a
    3-D tensor have a blank line between them), then the indentation.
    """
    if array.ndim == 0:
        return formatter.format(array.item())
    if array.ndim == 1:
        return _vector_str(array, indent, summarize, formatter)
    edge, size = PRINT_OPTS.edgeitems, len(array)
    if summarize and size > 2 * edge:
        rows = [_nested_str(array[i], indent + 1, summarize, formatter) for i in range(edge)]
        rows.append("...")
        rows += [_nested_str(array[i], indent + 1, summarize, formatter) for i in range(size - edge, size)]
    else:
        rows = [_nested_str(sub, indent + 1, summarize, formatter) for sub in array]
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(rows) + "]"


def _tensor_str(array: np.ndarray, indent: int) -> str:
    """The bracketed numbers of a non-empty tensor whose ``[`` is at column ``indent``."""
    summarize = array.size > PRINT_OPTS.threshold
    formatter = _Formatter(_shown_elements(array) if summarize else array)
    return _nested_str(array, indent, summarize, formatter)


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` for each suffix, or ``,\\n<indent>suffix`` if it would make the line too long.

    The line-length bookkeeping is PyTorch's own (it starts from the length of the last line plus 2), kept
    exactly so that the line breaks fall at the same places.
    """
    parts = [text]
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        # measured as PyTorch's text, which says "torch.float64" where ours says "tinygrad_edu.float64"
        length = len(suffix) - suffix.count("tinygrad_edu.") * (len("tinygrad_edu.") - len("torch."))
        if line_length + length + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line_length = indent + length
        else:
            parts.append(", " + suffix)
            line_length += length + 2
    return "".join(parts) + ")"


# A tensor of these dtypes prints no "dtype=": its values already tell (1. is a float, 1 an int64).
_DEFAULT_DTYPES = (_dtype.float32, _dtype.int64, _dtype.bool)


def tensor_repr(
    array: np.ndarray,
    dtype: _dtype.dtype,
    *,
    grad_fn_name: str | None = None,
    requires_grad: bool = False,
    prefix: str = "tensor(",
    indent: int | None = None,
    tangent: Any = None,
) -> str:
    """The text PyTorch prints for a tensor with these values, dtype and autograd state.

    >>> tensor_repr(np.array([1.0, 2.0, 3.0], np.float32), _dtype.float32, requires_grad=True)
    'tensor([1., 2., 3.], requires_grad=True)'
    >>> tensor_repr(np.array(27.0, np.float32), _dtype.float32, grad_fn_name="MeanBackward0")
    'tensor(27., grad_fn=<MeanBackward0>)'

    ``prefix`` opens the text and ``indent`` (default: ``len(prefix)``) is where continuation lines start.
    """
    if indent is None:
        indent = len(prefix)
    suffixes = []
    if _meta.is_meta(array):  # a meta tensor has no numbers to show: "...", then where it is and its size
        suffixes, body = ["device='meta'", f"size={tuple(array.shape)}"], "..."
    elif (array := np.asarray(array, dtype=dtype.np)).size == 0:
        # No values to read the shape or the type from, so say them, except what "[]" already tells.
        if array.ndim != 1:
            suffixes.append(f"size={tuple(array.shape)}")
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:  # "[...]" says nothing of the shape
            suffixes.append(f"size={tuple(array.shape)}")
        if dtype not in _DEFAULT_DTYPES:
            suffixes.append(f"dtype={dtype!r}")
        body = _tensor_str(array, indent)
    if body in ("...", "[]") and dtype is not _dtype.float32:  # (no numbers that tell an int from a float)
        suffixes.append(f"dtype={dtype!r}")
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:  # a dual tensor's (forward mode), printed as PyTorch formats it: a 0-d one as a number
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + body, suffixes, indent)


class Size(tuple):
    """The shape of a tensor: a tuple that prints as ``tinygrad_edu.Size([2, 2])``."""

    def __repr__(self) -> str:
        return f"tinygrad_edu.Size({list(self)})"

    __str__ = __repr__

    # Slicing, concatenating and repeating a Size give a Size again (a plain tuple would print differently).
    def __getitem__(self, key: Any) -> Any:
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other: Any) -> Size:
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to tinygrad_edu.Size")
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other: Any) -> Size:
        return Size(tuple(other) + tuple(self)) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, n: Any) -> Size:
        repeated = tuple.__mul__(self, n)
        return repeated if repeated is NotImplemented else Size(repeated)

    __rmul__ = __mul__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


def return_type(name: str, *fields: str) -> type:
    """PyTorch's ``torch.return_types.<name>``: the named tuple an op returns (``values, indices = x.max(0)``), printed
    field by field as PyTorch prints it, and named as PyTorch's is: ``type(r).__name__`` is ``max``, its class prints
    as ``<class 'tinygrad_edu.return_types.max'>``, and a missing attribute is refused in PyTorch's words
    (``x.max(1).backward()``: "'tinygrad_edu.return_types.max' object has no attribute 'backward'")."""
    full = f"tinygrad_edu.return_types.{name}"

    def shown(self: tuple) -> str:
        return f"{full}(\n" + ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self)) + ")"

    def missing(self: tuple, attribute: str) -> Any:  # (Python's own message would name the class by its short name)
        raise AttributeError(f"'{full}' object has no attribute '{attribute}'")

    cls = type(name, (collections.namedtuple(name, fields),), {"__slots__": (), "__repr__": shown,
                                                               "__getattr__": missing})
    cls.__module__ = "tinygrad_edu.return_types"
    return cls
