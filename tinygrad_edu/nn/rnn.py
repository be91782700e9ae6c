"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` and their one-step ``RNNCell``, ``LSTMCell``, ``GRUCell``.

A recurrent layer reads a sequence x_1 ... x_L one element at a time and carries a *hidden state* h from each step
to the next: h_t = cell(x_t, h_{t-1}). The same weights serve every step, so a sentence of any length goes through
one small set of parameters, and what the layer saw earlier reaches later steps through h. The three cells differ in
how the new state is made (gate equations in each class's docstring):

* ``RNN``: h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh), the plain (Elman) recurrence;
* ``LSTM``: a second state, the *cell* c, which gates decide to keep (f), write (i, g) and show (o); gradients
  flow along c through products by f instead of through a tanh at every step, so they survive long sequences;
* ``GRU``: one state and two gates (r, z), a lighter LSTM.

Everything is composed from the library's differentiable tensor ops (linear, sigmoid, tanh, mul, add, stack, cat),
so gradients (and ``create_graph`` second derivatives) come from the ops' own backward formulas; nothing here
writes a derivative by hand. The graph is PyTorch's on the CPU: the output of an ``RNN`` or ``GRU`` is the
``StackBackward0`` of the steps' states; a float32 ``LSTM``, which PyTorch runs with oneDNN (MKL-DNN), has one
``MkldnnRnnLayerBackward0`` node per layer and direction (see :class:`MkldnnRnnLayer`, which wraps the same
composed steps). As in PyTorch the input projections W_ih x_t of all steps are one matrix product, before the loop.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

import numpy as np

from .. import _arrays
from .._dtype import float32
from .._tensor import Tensor, _wrap
from ..autograd.engine import grad
from ..core.derivatives import SigmoidBackward
from ..core.function import RESULT, Function
from ..core.grad_mode import GradMode, enable_grad
from ..ops.linalg import linear
from ..ops.shape import cat, stack
from . import init
from .functional import dropout as _dropout
from .module import Module
from .parameter import Parameter

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}  # how many blocks of hidden_size rows W_ih stacks


# -- one step of each cell -----------------------------------------------------------------------------------------
# ``xw`` is x_t's projection W_ih x_t + b_ih, computed before (for a whole sequence at once in a layer, or per call in
# a cell); the step adds W_hh h + b_hh. The formulas are written as PyTorch's CPU kernels write them (RNN.cpp), in
# the same order, so that float32 results round the same way.
def _simple_step(xw: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None, relu: bool) -> Tensor:
    """h' = tanh(W_hh h + b_hh + xw), or relu(...) for ``nonlinearity='relu'``."""
    pre = linear(h, w_hh, b_hh) + xw
    return pre.relu() if relu else pre.tanh()


def _lstm_step(xw: Tensor, h: Tensor, c: Tensor, w_hh: Tensor, b_hh: Tensor | None, w_hr: Tensor | None,
               sigmoid: Any = Tensor.sigmoid) -> tuple[Tensor, Tensor]:
    """The four gates from one product, split in PyTorch's order i, f, g, o; c' = f c + i g, h' = o tanh(c')
    (then h' = W_hr h' with a projection). ``sigmoid``: oneDNN's own inside its node (:class:`OneDnnLogistic`)."""
    i, f, g, o = (linear(h, w_hh, b_hh) + xw).chunk(4, 1)
    c_new = sigmoid(f) * c + sigmoid(i) * g.tanh()
    h_new = sigmoid(o) * c_new.tanh()
    if w_hr is not None:
        h_new = h_new.matmul(w_hr.t())  # (PyTorch's matmul_hr: MmBackward0)
    return h_new, c_new


def _gru_step(xw: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    """r and z gate, n the candidate state; h' = (1 - z) n + z h, computed as PyTorch does, (h - n) z + n."""
    x_r, x_z, x_n = xw.chunk(3, 1)
    h_r, h_z, h_n = linear(h, w_hh, b_hh).chunk(3, 1)
    r = (h_r + x_r).sigmoid()
    z = (h_z + x_z).sigmoid()
    n = (x_n + h_n * r).tanh()  # (r gates W_hn h + b_hn: b_hn sits inside the reset, as in PyTorch)
    return (h - n) * z + n


def _layer(mode: str, x: Tensor, h: Tensor, c: Tensor | None, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None,
           b_hh: Tensor | None, w_hr: Tensor | None, reverse: bool,
           sigmoid: Any = Tensor.sigmoid) -> tuple[Tensor, Tensor, Tensor | None]:
    """One direction of one layer over a whole sequence x (L, N, H_in): (output (L, N, H), last h, last c).

    ``reverse`` reads the sequence from its end (the second direction of a bidirectional layer); its outputs are
    put back in time order, so output[t] is always the state after reading x_t."""
    steps = linear(x, w_ih, b_ih).unbind(0)  # every step's W_ih x_t + b_ih, one product for the sequence
    outputs = []
    for xw in reversed(steps) if reverse else steps:
        if mode == "LSTM":
            h, c = _lstm_step(xw, h, c, w_hh, b_hh, w_hr, sigmoid)
        elif mode == "GRU":
            h = _gru_step(xw, h, w_hh, b_hh)
        else:
            h = _simple_step(xw, h, w_hh, b_hh, mode == "RNN_RELU")
        outputs.append(h)
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), h, c


# -- the node of a float32 LSTM layer ------------------------------------------------------------------------------
class OneDnnLogistic(Function):
    """The gates' sigmoid inside oneDNN's LSTM cell (:class:`MkldnnRnnLayer`): 1 / (1 + e^-x) with oneDNN's own exp,
    which is neither ATen's (whose sigmoid the table's entry follows, its exp rounded once) nor numpy's. Measured on
    one-step LSTMs, neither reproduces oneDNN's cell state more often (47-49% of values equal, the gates' products
    differing too); numpy's float32 exp stands in for oneDNN's here, as it always has. The gradient is sigmoid's."""

    node_name = "SigmoidBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> np.ndarray:
        ctx.save_for_backward(RESULT)
        a = x._array
        return 1 / (1 + np.exp(-a))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> Tensor:
        (s,) = ctx.saved_tensors
        return SigmoidBackward.apply(g, s)


class MkldnnRnnLayer(Function):
    """One LSTM layer (one direction) as one node, as PyTorch records a float32 LSTM on the CPU (``mkldnn_rnn_layer``):
    inputs (input, weight_ih, weight_hh, bias_ih, bias_hh, hx, cx), outputs (output, h_n, c_n).

    The computation inside is the same composed steps as everywhere else (:func:`_layer`): forward runs them on
    detached copies of the inputs with recording on, and keeps that inner graph; backward asks it for the gradients
    with ``autograd.grad``. For ``create_graph`` (backward run with recording on) the steps are recomputed from the
    node's own inputs instead, through fresh aliases of them, so that the gradients it returns depend on the inputs
    and can be differentiated again (the inner graph's copies are cut off from them).
    """

    node_name = "MkldnnRnnLayerBackward0"
    saved_names = ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_")

    @staticmethod
    def forward(ctx: Any, input: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor, b_hh: Tensor, hx: Tensor,
                cx: Tensor, has_biases: bool, reverse: bool, train: bool) -> tuple[np.ndarray, ...]:
        tensors = (input, w_ih, w_hh, b_ih, b_hh, hx, cx)
        ctx.save_for_backward(*tensors)  # (checked for in-place changes when backward reads them)
        ctx._saved_has_biases, ctx._saved_reverse, ctx._saved_train = has_biases, reverse, train
        ctx._saved_hidden_size, ctx._saved_num_layers, ctx._saved_mode = w_hh._array.shape[1], 1, 2  # (2: LSTM)
        ctx._saved_batch_first, ctx._saved_bidirectional = False, False
        copies = [t.detach().requires_grad_(need) for t, need in zip(tensors, ctx.needs_input_grad)]
        with enable_grad():
            results = MkldnnRnnLayer._run(copies, has_biases, reverse)
        ctx._inner = (copies, results)
        return tuple(r._array.copy() for r in results)  # (copies: the inner graph must not see outer changes)

    @staticmethod
    def _run(t: list[Tensor], has_biases: bool, reverse: bool) -> tuple[Tensor, ...]:
        b_ih, b_hh = (t[3], t[4]) if has_biases else (None, None)
        out, h, c = _layer("LSTM", t[0], t[5], t[6], t[1], t[2], b_ih, b_hh, None, reverse, OneDnnLogistic.apply)
        return out, h, c

    @staticmethod
    def backward(ctx: Any, g_out: Tensor, g_h: Tensor, g_c: Tensor) -> tuple:
        tensors = ctx.saved_tensors  # (raises if freed by an earlier backward, or changed in place since forward)
        wanted = [i for i, need in enumerate(ctx.needs_input_grad[:7]) if need]
        if GradMode.enabled:  # create_graph: recompute from aliases of the inputs, which lead back to them
            sources = [t.view_as(t) if i in wanted else t for i, t in enumerate(tensors)]
            results = MkldnnRnnLayer._run(sources, ctx._saved_has_biases, ctx._saved_reverse)
        else:
            sources, results = ctx._inner
        # oneDNN computes the layer's gradients in its own loops, not with PyTorch's sum kernel: its sums over the
        # steps run one step after another (numpy's order down an axis), not in PyTorch's cascade (_arrays.py)
        ordered, _arrays.IN_PYTORCH_ORDER[0] = _arrays.IN_PYTORCH_ORDER[0], False
        try:
            found = grad(results, [sources[i] for i in wanted], (g_out, g_h, g_c), retain_graph=True,
                         create_graph=GradMode.enabled, allow_unused=True)
        finally:
            _arrays.IN_PYTORCH_ORDER[0] = ordered
        grads: list[Tensor | None] = [None] * 10
        for i, g in zip(wanted, found):
            grads[i] = g if g is not None else _wrap(np.zeros_like(tensors[i]._array))
        if grads[3] is not None and grads[4] is not None:  # oneDNN adds the two biases into one, so both get the
            grads[4] = grads[3]  # same gradient (PyTorch's are equal): b_ih's here, summed over the steps in order
        return tuple(grads)


_PROJ_WARNED = []  # PyTorch warns once per process that oneDNN has no projections (TORCH_WARN_ONCE)


def _rnn(mode: str, input: Tensor, hx: Tensor, cx: Tensor | None, weights: list[list[Tensor | None]],
         num_layers: int, dropout: float, train: bool, bidirectional: bool,
         batch_first: bool) -> tuple[Tensor, Tensor, Tensor | None]:
    """The whole stack (PyTorch's ``_VF.rnn_tanh``, ``lstm``, ``gru``): layer after layer, each direction of a layer
    reading the previous layer's output, with dropout between layers in training. Returns (output, h_n, c_n)."""
    directions = 2 if bidirectional else 1
    proj = mode == "LSTM" and weights[0][4] is not None
    one_node = mode == "LSTM" and input._array.dtype == np.float32 and input._array.size != 0  # (oneDNN's case)
    if one_node and proj:
        one_node = False
        if not _PROJ_WARNED:
            _PROJ_WARNED.append(True)
            warnings.warn("LSTM with projections is not supported with oneDNN. Using default implementation.",
                          UserWarning, stacklevel=3)
    one_node = one_node and GradMode.enabled  # (not recording: the same steps, without the node around them)
    # each layer's h_0: PyTorch's oneDNN path selects hx[k] (SelectBackward0), its default path unbinds hx
    h0s, c0s = (hx, cx) if one_node else (hx.unbind(0), None if cx is None else cx.unbind(0))
    x = input.transpose(0, 1) if batch_first else input
    final_h, final_c = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(directions):
            k = layer * directions + d
            w_ih, w_hh, b_ih, b_hh, w_hr = weights[k]
            h0, c0 = h0s[k], None if c0s is None else c0s[k]
            if one_node:
                has_biases = b_ih is not None
                if not has_biases:  # the node has 7 inputs all the same: a bias that does not exist is a constant
                    b_ih = b_hh = _wrap(np.zeros(0, input._array.dtype))
                out, h, c = MkldnnRnnLayer.apply(x, w_ih, w_hh, b_ih, b_hh, h0, c0, has_biases, d == 1, train)
            else:
                out, h, c = _layer(mode, x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr, d == 1)
            outs.append(out)
            final_h.append(h)
            final_c.append(c)
        x = outs[0] if directions == 1 else cat(outs, outs[0].dim() - 1)
        if dropout and train and layer < num_layers - 1:
            x = _dropout(x, dropout)
    if batch_first:  # (LSTM transposes out of place, RNN and GRU in place: different nodes, as in PyTorch)
        x = x.transpose(0, 1) if mode == "LSTM" else x.transpose_(0, 1)  # (TransposeBackward1)
    return x, stack(final_h, 0), stack(final_c, 0) if mode == "LSTM" else None


# -- the layers ------------------------------------------------------------------------------------------------------
class RNNBase(Module):
    """What ``RNN``, ``LSTM`` and ``GRU`` share: the parameters of every layer and direction, their initialisation,
    the checks of the input and the hidden state, and the repr.

    Layer k (0 first) and direction (``""`` forwards, ``"_reverse"`` backwards) own ``weight_ih_l{k}`` (G*H, H_in),
    ``weight_hh_l{k}`` (G*H, H) and, with ``bias``, ``bias_ih_l{k}`` and ``bias_hh_l{k}`` (G*H,), G being the
    number of gates (1, 4 or 3). Layers after the first read the previous one's output, D*H numbers (D = 2 when
    bidirectional). Registered in PyTorch's order, and each drawn U(-1/sqrt(H), 1/sqrt(H)) in that order, so that
    after the same ``manual_seed`` the weights are PyTorch's own.
    """

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.mode = mode
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.bidirectional, self.proj_size = bias, batch_first, bidirectional, proj_size
        # (PyTorch's checks, in its order, with its messages)
        if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        self.dropout = float(dropout)
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                          stacklevel=3)
        for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                                  ("input_size", input_size, int)):
            if not isinstance(value, kind):
                raise TypeError(f"{name} should be of type {kind.__name__}, got: {type(value).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        np_dtype = (dtype or float32).np
        directions = 2 if bidirectional else 1
        real_hidden = proj_size or hidden_size  # (the size of h: with a projection, h is W_hr times the LSTM's)
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(directions):
                in_size = input_size if layer == 0 else real_hidden * directions
                shapes = [(gate_size, in_size), (gate_size, real_hidden)]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    shapes += [(gate_size,), (gate_size,)]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size:
                    shapes.append((proj_size, hidden_size))
                    names.append("weight_hr_l{}{}")
                names = [n.format(layer, "_reverse" if direction else "") for n in names]
                for name, shape in zip(names, shapes):
                    setattr(self, name, Parameter(_wrap(np.empty(shape, np_dtype))))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list[Parameter]:
        """The parameters in PyTorch's flat order (read each time: a parameter replaced by assignment is seen)."""
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters grouped by layer and direction: ``[[weight_ih_l0, weight_hh_l0, bias_ih_l0, ...], ...]``."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """Packs the weights into one block for cuDNN in PyTorch, on a GPU; here (as on PyTorch's CPU) nothing."""

    def reset_parameters(self) -> None:
        """Every parameter (weights and biases alike) drawn U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    # -- the checks of forward (PyTorch's, with its messages) --
    def check_input(self, input: Tensor, batch_sizes: Any = None) -> None:
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype != weight_dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). Convert "
                             f"input: input.to({weight_dtype}), or convert model: model.to({input.dtype})")
        if input.dim() != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.size(-1)}")

    def get_expected_hidden_size(self, input: Tensor, batch_sizes: Any = None) -> tuple[int, int, int]:
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        return ((2 if self.bidirectional else 1) * self.num_layers, mini_batch, self.proj_size or self.hidden_size)

    def check_hidden_size(self, hx: Tensor, expected_hidden_size: tuple[int, int, int],
                          msg: str = "Expected hidden size {}, got {}") -> None:
        if tuple(hx.size()) != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes: Any = None) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def _batched(self, name: str, input: Tensor, hx: Tensor | None) -> tuple[Tensor, Tensor | None, bool]:
        """An unbatched input (L, H_in) becomes a batch of one, and its hx (D*num_layers, H) too."""
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}: tinygrad_edu has no PackedSequence; give a tensor (L, N, H_in), or pad the "
                            "sequences to one length")
        if input.dim() not in (2, 3):
            tensor = " tensor" if name == "RNN" else ""  # (RNN's message says "4D tensor", GRU's "4D")
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tensor} instead")
        is_batched = input.dim() == 3
        if not is_batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        return input, hx, is_batched

    def _zeros(self, input: Tensor, size: int) -> Tensor:
        directions = 2 if self.bidirectional else 1
        batch = input.size(0) if self.batch_first else input.size(1)
        return _wrap(np.zeros((self.num_layers * directions, batch, size), input._array.dtype))

    def _layer_weights(self) -> list[list[Tensor | None]]:
        """Per layer and direction: [w_ih, w_hh, b_ih, b_hh, w_hr], None where there is none."""
        result = []
        for names in self._all_weights:
            w = [getattr(self, n) for n in names]
            b = w[2:4] if self.bias else [None, None]
            result.append([w[0], w[1], *b, w[-1] if self.proj_size else None])
        return result

    def _run(self, input: Tensor, hx: Tensor, cx: Tensor | None) -> tuple[Tensor, Tensor, Tensor | None]:
        return _rnn(self.mode, input, hx, cx, self._layer_weights(), self.num_layers, self.dropout, self.training,
                    self.bidirectional, self.batch_first)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


_SHAPES = """
    Shapes (L sequence length, N batch, D = 2 if bidirectional else 1, H hidden_size): input (L, N, H_in), or
    (N, L, H_in) with ``batch_first=True``, or (L, H_in) unbatched; output (L, N, D*H), the last layer's state at
    every step (both directions side by side); h_0 and h_n (D*num_layers, N, H), every layer's first and last state
    (``batch_first`` does not apply to them), without N when unbatched. h_0 defaults to zeros.
"""


class RNN(RNNBase):
    """An Elman recurrent layer: at each step, for each layer,

        h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)        (``nonlinearity='relu'``: relu instead of tanh)

    x_t being the input for the first layer and the previous layer's h_t above it. ``layer(input, h_0)`` returns
    ``(output, h_n)``.
    """

    _kind = "RNN"  # (the name its messages give it)

    __doc__ += _SHAPES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:  # (PyTorch's positional order: input_size, hidden_size, num_layers, nonlinearity, bias...)
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        input, hx, is_batched = self._batched(self._kind, input, hx)
        if hx is None:
            hx = self._zeros(input, self.hidden_size)
        self.check_forward_args(input, hx)
        output, h_n, _ = self._run(input, hx, None)
        if not is_batched:
            output, h_n = output.squeeze(0 if self.batch_first else 1), h_n.squeeze(1)
        return output, h_n


class LSTM(RNNBase):
    """A long short-term memory layer: two states, h and the cell c. At each step, for each layer, four gates
    from x_t and h_{t-1} (W_ih stacks their rows in this order, i, f, g, o, and so do W_hh and the biases):

        i_t = sigmoid(W_ii x_t + b_ii + W_hi h_{t-1} + b_hi)      input gate: how much of g to write
        f_t = sigmoid(W_if x_t + b_if + W_hf h_{t-1} + b_hf)      forget gate: how much of c to keep
        g_t = tanh(W_ig x_t + b_ig + W_hg h_{t-1} + b_hg)         the candidate values
        o_t = sigmoid(W_io x_t + b_io + W_ho h_{t-1} + b_ho)      output gate: how much of c to show
        c_t = f_t * c_{t-1} + i_t * g_t
        h_t = o_t * tanh(c_t)

    ``layer(input, (h_0, c_0))`` returns ``(output, (h_n, c_n))``; c_0 and c_n have h's shapes, with H itself even
    with a projection: ``proj_size=P`` makes h_t = W_hr (o_t * tanh(c_t)), of size P (``weight_hr_l{k}`` (P, H)).
    """

    __doc__ += _SHAPES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor, batch_sizes: Any = None) -> tuple[int, int, int]:
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        return ((2 if self.bidirectional else 1) * self.num_layers, mini_batch, self.hidden_size)

    def check_forward_args(self, input: Tensor, hidden: tuple[Tensor, Tensor],  # type: ignore[override]
                           batch_sizes: Any = None) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def forward(self, input: Tensor,  # type: ignore[override]
                hx: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        if not isinstance(input, Tensor):
            self._batched("LSTM", input, None)  # (refused there)
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        is_batched = input.dim() == 3
        if not is_batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
        if hx is None:
            hx = (self._zeros(input, self.proj_size or self.hidden_size), self._zeros(input, self.hidden_size))
        else:
            # hx is a pair (h_0, c_0); a single tensor is indexed as PyTorch indexes it, and refused as it is
            if is_batched and (hx[0].dim() != 3 or hx[1].dim() != 3):
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            if not is_batched:
                if hx[0].dim() != 2 or hx[1].dim() != 2:
                    raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                                       f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx)
        output, h_n, c_n = self._run(input, hx[0], hx[1])
        if not is_batched:
            output, h_n, c_n = output.squeeze(0 if self.batch_first else 1), h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)


class GRU(RNNBase):
    """A gated recurrent unit layer. At each step, for each layer, two gates and a candidate state (W_ih stacks
    their rows in this order, r, z, n, and so do W_hh and the biases):

        r_t = sigmoid(W_ir x_t + b_ir + W_hr h_{t-1} + b_hr)          reset gate
        z_t = sigmoid(W_iz x_t + b_iz + W_hz h_{t-1} + b_hz)          update gate
        n_t = tanh(W_in x_t + b_in + r_t * (W_hn h_{t-1} + b_hn))     candidate state
        h_t = (1 - z_t) * n_t + z_t * h_{t-1}

    ``layer(input, h_0)`` returns ``(output, h_n)``.
    """

    _kind = "GRU"  # (the name its messages give it)

    __doc__ += _SHAPES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    forward = RNN.forward  # (the same steps)


# -- the cells: one step, the loop is the caller's -------------------------------------------------------------------
def _check_cell(input: Tensor, hx: Tensor, input_size: int, hidden_size: int, label: int) -> None:
    """PyTorch's checks of a cell's input and state (``check_rnn_cell_forward_input`` and ``..._hidden``)."""
    if input.size(1) != input_size:
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {input_size}")
    if input.size(0) != hx.size(0):
        raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{label} batch size {hx.size(0)}")
    if hx.size(1) != hidden_size:
        raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {hx.size(1)}, expected {hidden_size}")


class RNNCellBase(Module):
    """What the cells share: ``weight_ih`` (G*H, H_in), ``weight_hh`` (G*H, H), ``bias_ih`` and ``bias_hh`` (G*H,)
    (None with ``bias=False``), all drawn U(-1/sqrt(H), 1/sqrt(H)) in that order, as PyTorch draws them."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        np_dtype = (dtype or float32).np
        self.weight_ih = Parameter(_wrap(np.empty((num_chunks * hidden_size, input_size), np_dtype)))
        self.weight_hh = Parameter(_wrap(np.empty((num_chunks * hidden_size, hidden_size), np_dtype)))
        if bias:
            self.bias_ih = Parameter(_wrap(np.empty(num_chunks * hidden_size, np_dtype)))
            self.bias_hh = Parameter(_wrap(np.empty(num_chunks * hidden_size, np_dtype)))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, name: str, input: Tensor, hx: Tensor | None) -> tuple[Tensor, Tensor, bool]:
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = _wrap(np.zeros((input.size(0), self.hidden_size), input._array.dtype))
        elif not is_batched:
            hx = hx.unsqueeze(0)
        return input, hx, is_batched


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu). ``cell(x, h)`` returns h';
    x (N, H_in) or (H_in,), h (N, H) or (H,), zeros if not given."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, is_batched = self._prepare("RNNCell", input, hx)
        if self.nonlinearity not in ("tanh", "relu"):  # (checked before the sizes, as PyTorch does)
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        _check_cell(input, hx, self.input_size, self.hidden_size, 0)
        ret = _simple_step(linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh,
                           self.nonlinearity == "relu")
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One step of an LSTM (gates i, f, g, o as in :class:`LSTM`): ``cell(x, (h, c))`` returns (h', c');
    h and c (N, H) or (H,), zeros if not given."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _wrap(np.zeros((input.size(0), self.hidden_size), input._array.dtype))
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        _check_cell(input, hx[0], self.input_size, self.hidden_size, 0)
        _check_cell(input, hx[1], self.input_size, self.hidden_size, 1)
        h, c = _lstm_step(linear(input, self.weight_ih, self.bias_ih), hx[0], hx[1], self.weight_hh, self.bias_hh,
                          None)
        return (h, c) if is_batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One step of a GRU (gates r, z and candidate n as in :class:`GRU`): ``cell(x, h)`` returns h';
    h (N, H) or (H,), zeros if not given."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, is_batched = self._prepare("GRUCell", input, hx)
        _check_cell(input, hx, self.input_size, self.hidden_size, 0)
        ret = _gru_step(linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
