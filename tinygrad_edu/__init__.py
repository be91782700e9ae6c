"""tinygrad_edu: a small, readable twin of PyTorch's autograd, on numpy.

``import tinygrad_edu as torch`` and autograd tutorial code runs unchanged. The layers, bottom up:

* beside the core (read last, or never): ``_messages`` (PyTorch's exact texts), ``_dtype`` (dtypes and promotion),
  ``_printing``, ``_device``, ``_legacy``
* ``core``: what a learner reads: the Tensor, nodes and Function, the derivative table, the engine, grad modes
* ``ops``, ``autograd``: the ops that need a class of their own, autograd's public modules around the core
* ``_tensor``: the public Tensor, the core's with the rest of PyTorch's methods; ``_creation``, ``_functions``
* ``nn``, ``optim``: layers, losses and optimizers built from the ops
* ``viz``, ``teach``, ``grading``: for learners and instructors
"""

import sys as _sys
from math import e, inf, nan, pi

from . import (
    _messages,
    _tensor,  # (first: every op's result is an instance of its Tensor class)
    autograd,
    backends,  # torch.backends: cudnn, mps, cuda ... none of which is here; their switches are accepted
    compiler,  # torch.compile and torch.compiler: the model runs as written (see its docstring)
    distributions,  # torch.distributions: Normal, Bernoulli, Categorical, Multinomial, Uniform, kl_divergence
    func,  # torch.func: grad, vjp, jvp, jacrev, jacfwd, hessian, vmap ...
    functional,  # torch.functional: einsum, split, norm ... as PyTorch keeps them there too
    linalg,  # torch.linalg: norms, det, inv, solve, svd, qr, cholesky ...
    nn,
    optim,
    profiler,  # torch.profiler: profile, record_function
    random,  # torch.random: manual_seed, get_rng_state, fork_rng ...
    special,  # torch.special: expit, gammaln, entr, ndtr ...
    testing,  # torch.testing.assert_close
    utils,  # torch.utils.data: Dataset, TensorDataset, DataLoader
)
from ._C import _functions
from ._creation import (
    Generator,
    arange,
    as_tensor,
    default_generator,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    get_rng_state,
    initial_seed,
    linspace,
    manual_seed,
    multinomial,
    ones,
    ones_like,
    poisson,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
    tensor,
    zeros,
    zeros_like,
)
from ._device import device, get_default_device, set_default_device
from ._dtype import (
    bool,
    double,
    dtype,
    finfo,
    float,
    float16,
    float32,
    float64,
    half,
    iinfo,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    short,
    uint8,
)
from ._functions import *  # noqa: F403  (torch.exp, torch.sum, torch.matmul ...)
from ._functions import __all__ as _function_names
from ._printing import set_printoptions
from ._runtime import *  # noqa: F403  (set_num_threads, use_deterministic_algorithms, typename ...)
from ._serialization import load, save
from ._tensor import Size, Tensor
from .autograd.grad_mode import is_anomaly_enabled, is_inference_mode_enabled
from .compiler import compile
from .core.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from .func import vmap  # (torch.vmap is torch.func.vmap)
from .functional import unravel_index
from .linalg import _torch_cholesky as cholesky
from .linalg import _torch_qr as qr
from .linalg import _torch_slogdet as slogdet
from .linalg import _torch_svd as svd
from .linalg import det, inverse, logdet, matrix_exp, matrix_power, pinverse
from .nn.functional import (  # (PyTorch has these at the top too: torch.conv2d, torch.cosine_similarity ...)
    adaptive_avg_pool1d,
    adaptive_max_pool1d,
    alpha_dropout_,
    avg_pool1d,
    bilinear,
    celu,
    celu_,
    conv1d,
    conv2d,
    conv3d,
    cosine_similarity,
    feature_alpha_dropout_,
    feature_dropout,
    feature_dropout_,
    hinge_embedding_loss,
    max_pool1d,
    max_pool2d,
    max_pool3d,
    pairwise_distance,
    pdist,
    rrelu,
    rrelu_,
    selu,
    selu_,
    threshold,
    threshold_,
)
from .nn.functional import alpha_dropout_top as alpha_dropout
from .nn.functional import dropout_top as dropout
from .nn.functional import dropout_top_ as dropout_
from .nn.functional import feature_alpha_dropout_top as feature_alpha_dropout
from .storage import TypedStorage, UntypedStorage

__version__ = "0.1.0"
autograd.torch = _sys.modules[__name__]  # (PyTorch's autograd imports torch, so old code reaches it as autograd.torch)


def is_tensor(obj: object) -> bool:
    """Whether ``obj`` is a tensor (``isinstance(obj, Tensor)``)."""
    return isinstance(obj, Tensor)


def numel(t: Tensor) -> int:
    return t.numel()


def set_warn_always(b: bool) -> None:
    """With True, the warnings PyTorch gives once per process (``backward(create_graph=True)``'s ...) are given
    every time: useful in tests that check for them."""
    _messages.WARN_ALWAYS[0] = True if b else False  # noqa: SIM210  (here bool is tinygrad_edu.bool)


def is_warn_always_enabled() -> bool:
    return _messages.WARN_ALWAYS[0]


class cuda:  # noqa: N801  (PyTorch's module name)
    """There is no GPU here. Tutorials choose their device with ``"cuda" if torch.cuda.is_available() else "cpu"``:
    the answer is always no, so that code runs on the CPU unchanged."""

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def device_count() -> int:
        return 0


class accelerator:  # noqa: N801  (PyTorch's module name)
    """The device-neutral form of the same question, as current PyTorch tutorials ask it::

        device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

    No accelerator is available, so ``current_accelerator()`` is None and the code picks "cpu"."""

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def current_accelerator(check_available: bool = False) -> device | None:
        return None

    @staticmethod
    def device_count() -> int:
        return 0
