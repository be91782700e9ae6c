"""Devices: where a tensor's numbers live. tinygrad_edu computes with numpy in main memory, the CPU; and it has
PyTorch's ``meta`` device, for tensors with a shape and a dtype but no numbers (``_meta.py``)."""

from __future__ import annotations

from typing import Any


class NoCudaError(AssertionError, RuntimeError):
    """Asking for the GPU (``x.cuda()``, ``x.to("cuda")``, ``zeros(2, device="cuda")``). PyTorch built without CUDA
    raises AssertionError ("Torch not compiled with CUDA enabled"), which code written for a GPU may catch; this
    error is one, and a RuntimeError as every other refused device is. It prints as PyTorch's does,
    ``AssertionError: ...``, with a message that says there is no GPU here."""


NoCudaError.__module__, NoCudaError.__name__, NoCudaError.__qualname__ = "builtins", "AssertionError", "AssertionError"


def refuse(kind: str, message: str) -> None:
    """Refuse a device that is not the CPU: ``NoCudaError`` for the GPU, RuntimeError for any other."""
    raise (NoCudaError if kind == "cuda" else RuntimeError)(message)


class device:  # noqa: N801  (PyTorch's name)
    """Where a tensor's numbers live: ``device("cpu")``, printed ``cpu``.

    tinygrad_edu computes with numpy in main memory, so "cpu" is the only device with numbers; "meta" holds tensors
    without numbers (only shapes and dtypes, see ``_meta.py``). The class exists so that code written for PyTorch
    (``device = torch.device("cpu")``, ``torch.zeros(3, device=device)``) runs unchanged. As in PyTorch, naming
    another device is allowed (``torch.device("cuda").index``); putting a tensor there is an error at once rather
    than a silent copy on the CPU.

    As a context manager it is the default device of the factories inside the block, as in PyTorch:
    ``with torch.device("meta"): model = Net()`` builds the model's parameters on the meta device.
    """

    def __init__(self, type: str | device, index: int | None = None) -> None:
        if isinstance(type, device):
            type, index = type.type, type.index
        kind, _, number = str(type).partition(":")
        known_type(kind)
        self.type = kind
        self.index = int(number) if number else index

    def __repr__(self) -> str:
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __enter__(self) -> device:
        self._previous = Default.meta
        set_default_device(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        Default.meta = self._previous


# The device types PyTorch knows (one of which, the CPU, is here): another word is no device at all.
TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia", "xla",
         "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


def known_type(kind: str) -> None:
    """``device("gpu")``: PyTorch's message, which lists the device types there are."""
    if kind not in TYPES:
        raise RuntimeError(f"Expected one of {', '.join(TYPES)} device type at start of device string: {kind}")


class Default:
    """The default device of the factories: the CPU, unless ``set_default_device("meta")`` or a ``with
    torch.device("meta"):`` block made it the meta device."""

    meta = False


def on_cpu(where: Any) -> None:
    """Accept the ``device=`` argument of what makes only CPU tensors when it means the CPU (None, "cpu")."""
    if where is not None and (kind := device(where)).type != "cpu":
        refuse(kind.type, f"tinygrad_edu runs on the CPU only: there is no '{where}' device")


def wants_meta(where: Any) -> bool:
    """Whether a factory's ``device=`` argument puts its tensor on the meta device (None: the default device's
    choice); any device but the CPU and meta is refused."""
    if where is None:
        return Default.meta
    if (kind := device(where)).type not in ("cpu", "meta"):
        refuse(kind.type, f"tinygrad_edu runs on the CPU only: there is no '{where}' device")
    return kind.type == "meta"


CPU = device("cpu")  # what a tensor's ``.device`` is (a meta tensor's: META)
META = device("meta")


def set_default_device(where: Any) -> None:
    """The device factories use when not told: PyTorch's tutorials call ``torch.set_default_device(device)`` with
    the device they picked ("cpu" here), and ``"meta"`` makes them build tensors without numbers. Any other device
    is refused at once (None: back to the CPU)."""
    Default.meta = wants_meta(where) if where is not None else False


def get_default_device() -> device:
    return META if Default.meta else CPU
