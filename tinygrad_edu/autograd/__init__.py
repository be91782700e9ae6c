"""``tinygrad_edu.autograd``: the machinery that computes gradients (``torch.autograd`` twin)."""

from . import _functions, anomaly_mode, forward_ad, functional, profiler
from .engine import BackwardStep, BackwardTrace, backward, grad, trace_backward
from .function import Function, FunctionCtx
from .grad_mode import (
    _force_original_view_tracking,
    _unsafe_preserve_version_counter,
    detect_anomaly,
    enable_grad,
    inference_mode,
    is_anomaly_enabled,
    is_grad_enabled,
    is_multithreading_enabled,
    is_view_replay_enabled,
    no_grad,
    set_detect_anomaly,
    set_grad_enabled,
    set_multithreading_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import Node
from .graph import SavedTensorHandle as SavedTensor
from .variable import Variable

__all__ = [
    "BackwardStep", "BackwardTrace", "Function", "FunctionCtx", "GradcheckError", "Node", "SavedTensor", "backward",
    "detect_anomaly", "enable_grad", "forward_ad", "functional", "grad", "gradcheck", "gradgradcheck", "inference_mode",
    "is_anomaly_enabled", "is_grad_enabled", "is_multithreading_enabled", "is_view_replay_enabled", "no_grad",
    "set_detect_anomaly", "set_grad_enabled", "set_multithreading_enabled",
    "trace_backward",  # trace_backward & co: tinygrad_edu only
]
