"""``tinygrad_edu.nn``: layers, losses and the Module system (``torch.nn`` twin).

* ``module``: ``Parameter`` and ``Module`` (registration of weights and sub-layers, state_dict, repr)
* ``linear`` (``Linear``, ``Bilinear`` ...), ``activation``, ``distance`` (``PairwiseDistance``,
  ``CosineSimilarity``), ``container``, ``loss``, ``normalization`` (LayerNorm, BatchNorm*, InstanceNorm*),
  ``sparse`` (Embedding, EmbeddingBag): the layers
* ``functional`` (``F``): the same as functions; the losses are Functions with PyTorch's node names (or
  compositions of tensor ops where PyTorch composes them too)
* ``rnn``: the recurrent layers ``RNN``, ``LSTM``, ``GRU`` and their one-step cells ``RNNCell``, ``LSTMCell``,
  ``GRUCell`` (a float32 LSTM's layers are ``MkldnnRnnLayerBackward0`` nodes, as on PyTorch's CPU)
* ``activation`` also holds ``MultiheadAttention`` (as PyTorch's does); ``F.scaled_dot_product_attention`` and
  ``F.multi_head_attention_forward`` compose attention from matmul, softmax and dropout (recorded as one
  ``ScaledDotProductFlashAttentionForCpuBackward0`` node where PyTorch's CPU runs its fused kernel)
* ``transformer``: ``TransformerEncoderLayer``, ``TransformerEncoder``, ``TransformerDecoderLayer``,
  ``TransformerDecoder`` and ``Transformer``
* ``padding``: ``F.pad`` (constant, reflect, replicate, circular) and its layers (``ZeroPad2d`` ...)
* ``conv``: convolutions, ``F.conv1d``/``conv2d``/``conv3d`` and their layers (``Conv2d``, ``LazyConv2d`` ...)
* ``upsampling``: ``F.interpolate`` and ``Upsample``; ``fold``: ``F.unfold``/``F.fold`` and the pixel shuffles
* ``pooling``: max, average, adaptive and power-average pooling in 1, 2 and 3 dims (``F.max_pool2d``,
  ``MaxPool3d``, ``AvgPool2d``, ``AdaptiveAvgPool2d``, ``AdaptiveMaxPool2d``, ``LPPool2d`` ...)
* ``init``: weight initialisation
* ``utils``: ``clip_grad_norm_`` and ``clip_grad_value_``, ``parameters_to_vector`` and ``vector_to_parameters``
"""

from . import functional, init, parameter, utils
from .activation import (
    CELU,
    ELU,
    GELU,
    GLU,
    SELU,
    AlphaDropout,
    Dropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    FeatureAlphaDropout,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    MultiheadAttention,
    PReLU,
    ReLU,
    ReLU6,
    RReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softmin,
    Softplus,
    Softshrink,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import (
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
    LazyConv1d,
    LazyConv2d,
    LazyConv3d,
)
from .distance import CosineSimilarity, PairwiseDistance
from .fold import Fold, PixelShuffle, PixelUnshuffle, Unfold
from .linear import Bilinear, Flatten, Identity, LazyLinear, Linear, NonDynamicallyQuantizableLinear, Unflatten
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MarginRankingLoss,
    MSELoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss,
    PoissonNLLLoss,
    SmoothL1Loss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from .module import Module
from .normalization import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    GroupNorm,
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    LayerNorm,
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyBatchNorm3d,
    LocalResponseNorm,
    RMSNorm,
)
from .padding import (
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from .parameter import Buffer, Parameter, UninitializedParameter
from .pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveAvgPool3d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AvgPool1d,
    AvgPool2d,
    AvgPool3d,
    LPPool1d,
    LPPool2d,
    LPPool3d,
    MaxPool1d,
    MaxPool2d,
    MaxPool3d,
)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .sparse import Embedding, EmbeddingBag
from .transformer import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Flatten", "Identity", "LazyLinear",
           "LeakyReLU", "Linear",
           "LogSoftmax", "MSELoss", "Module", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
           "Softmax", "Tanh", "functional", "init", "utils"]
__all__ += ["ELU", "GELU", "Hardtanh", "LogSigmoid", "ReLU6", "SiLU", "Softplus"]
__all__ += ["Embedding", "EmbeddingBag", "LayerNorm", "ModuleDict", "ParameterDict", "ParameterList", "Unflatten"]
__all__ += ["HuberLoss", "KLDivLoss", "L1Loss", "SmoothL1Loss"]
__all__ += ["CELU", "GLU", "SELU", "Hardsigmoid", "Hardswish", "Mish", "PReLU", "Softsign"]
__all__ += ["Buffer", "Threshold"]
__all__ += ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
            "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d"]
__all__ += ["CosineEmbeddingLoss", "GaussianNLLLoss", "MarginRankingLoss", "MultiMarginLoss", "PoissonNLLLoss",
            "SoftMarginLoss", "Tanhshrink", "TripletMarginLoss"]
__all__ += ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
            "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
            "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]
__all__ += ["Conv1d", "Conv2d", "Conv3d", "LazyConv1d", "LazyConv2d", "LazyConv3d"]
__all__ += ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AvgPool1d", "AvgPool2d", "MaxPool1d", "MaxPool2d"]
__all__ += ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase"]
__all__ += ["MultiheadAttention", "NonDynamicallyQuantizableLinear", "Transformer", "TransformerDecoder",
            "TransformerDecoderLayer", "TransformerEncoder", "TransformerEncoderLayer"]
__all__ += ["ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]
__all__ += ["Fold", "PixelShuffle", "PixelUnshuffle", "Unfold", "Upsample", "UpsamplingBilinear2d",
            "UpsamplingNearest2d"]
__all__ += ["GroupNorm", "LocalResponseNorm", "RMSNorm"]
__all__ += ["AlphaDropout", "Dropout1d", "Dropout2d", "Dropout3d", "FeatureAlphaDropout"]
__all__ += ["Bilinear", "CosineSimilarity", "PairwiseDistance", "RReLU", "Softmin", "Softshrink"]
__all__ += ["AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AvgPool3d", "LPPool1d", "LPPool2d",
            "LPPool3d", "MaxPool3d"]
__all__ += ["HingeEmbeddingLoss", "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss", "TripletMarginWithDistanceLoss"]
