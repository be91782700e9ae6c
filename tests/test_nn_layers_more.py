"""The layers that tutorials past the basics reach for: transposed convolutions (a DCGAN's generator), upsampling and
``fold``/``unfold`` (U-Net style decoders), group and RMS normalisation, the channel dropouts, and the distances,
losses and poolings of d2l's later chapters.

The printed cases are run with tinygrad_edu and, when torch is installed, with torch (``_oracle.as_pytorch``); the
expected outcome is spelled out next to each, so each test means something without torch. Values and gradients are
checked by finite differences (``gradcheck`` and ``gradgradcheck``, float64, tiny cases) and against torch's when it
is there: float64 to 1e-12 relative, float32 to about 1e-5 (PyTorch's float32 kernels sum in another order).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _oracle import as_pytorch, err, ok, oracle
from test_conv_pool import _chain, _edges, _printed, _x  # (the printed-program and graph helpers, shared)

import tinygrad_edu as tg


# -- a DCGAN generator's step: ConvTranspose2d + BatchNorm2d + ReLU + Tanh, BCE loss, backward --------------------
def _dcgan(lib: ModuleType) -> None:
    nn = lib.nn
    lib.manual_seed(999)
    nz, ngf, nc = 8, 4, 3
    netG = nn.Sequential(
        nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),
        nn.BatchNorm2d(ngf * 2),
        nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
        nn.BatchNorm2d(ngf),
        nn.ReLU(True),
        nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
        nn.Tanh(),
    )

    def weights_init(m: Any) -> None:  # the tutorial's custom initialisation
        classname = m.__class__.__name__
        if classname.find("Conv") != -1:
            nn.init.normal_(m.weight.data, 0.0, 0.02)
        elif classname.find("BatchNorm") != -1:
            nn.init.normal_(m.weight.data, 1.0, 0.02)
            nn.init.constant_(m.bias.data, 0)

    netG.apply(weights_init)
    print(netG)
    netD = nn.Sequential(nn.Conv2d(nc, 1, 16, 1, 0, bias=False), nn.Sigmoid())
    criterion = nn.BCELoss()
    optimizerG = lib.optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
    noise = lib.randn(2, nz, 1, 1)
    fake = netG(noise)
    print(fake.shape, fake.grad_fn)
    print(fake[0, 0, :2, :4])
    output = netD(fake).view(-1)
    errG = criterion(output, lib.full((2,), 1.0))
    errG.backward()
    print(errG)
    print(netG[0].weight.grad[0, 0, 0])
    print(netG[3].weight.grad.abs().sum())
    optimizerG.step()
    print(netG[6].weight[0, 0, 0])


def _dropouts(lib: ModuleType) -> None:
    """The channel and alpha dropouts' masks after manual_seed: PyTorch's draws, number for number."""
    F = lib.nn.functional
    lib.manual_seed(0)
    y = F.dropout2d(lib.ones(2, 5, 2, 2, requires_grad=True), 0.4)
    print(y[:, :, 0, 0], y.grad_fn)
    print(F.dropout1d(lib.ones(3, 4), 0.5))
    print(F.dropout3d(lib.ones(1, 3, 1, 1, 2, dtype=lib.float64), 0.3).flatten())
    y = F.alpha_dropout(lib.ones(6, requires_grad=True), 0.3, True)
    print(y, y.grad_fn.next_functions[0][0])
    print(F.feature_alpha_dropout(lib.ones(2, 3, 1), 0.5, True))
    model = lib.nn.Sequential(lib.nn.Dropout2d(0.5), lib.nn.AlphaDropout(0.2))
    print(model(lib.ones(1, 4, 1, 1)).flatten())
    model.eval()
    print(model(lib.ones(1, 4, 1, 1)).flatten())


PROGRAMS = {
    "channel and alpha dropouts": (_printed(_dropouts),
        ok("tensor([[0.0000, 0.0000, 1.6667, 0.0000, 0.0000],\n"
           "        [0.0000, 1.6667, 1.6667, 1.6667, 1.6667]], grad_fn=<SelectBackward0>) <MulBackward0 object at "
           "0x...>\n"
           "tensor([[2., 2., 2., 2.],\n"
           "        [2., 2., 2., 2.],\n"
           "        [2., 2., 2., 2.]])\n"
           "tensor([1.4286, 1.4286, 1.4286, 1.4286, 1.4286, 1.4286], dtype=tinygrad_edu.float64)\n"
           "tensor([ 1.3150,  1.3150,  1.3150, -1.0595,  1.3150,  1.3150],\n"
           "       grad_fn=<AddBackward0>) <MulBackward0 object at 0x...>\n"
           "tensor([[[ 1.6656],\n"
           "         [-0.7792],\n"
           "         [ 1.6656]],\n"
           "\n"
           "        [[-0.7792],\n"
           "         [-0.7792],\n"
           "         [-0.7792]]])\n"
           "tensor([ 0.3090,  2.0668,  0.3090, -1.2362])\n"
           "tensor([1., 1., 1., 1.])\n")),
    "DCGAN generator step": (_printed(_dcgan),
        ok("Sequential(\n"
           "  (0): ConvTranspose2d(8, 8, kernel_size=(4, 4), stride=(1, 1), bias=False)\n"
           "  (1): BatchNorm2d(8, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)\n"
           "  (2): ReLU(inplace=True)\n"
           "  (3): ConvTranspose2d(8, 4, kernel_size=(4, 4), stride=(2, 2), padding=(1, 1), bias=False)\n"
           "  (4): BatchNorm2d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)\n"
           "  (5): ReLU(inplace=True)\n"
           "  (6): ConvTranspose2d(4, 3, kernel_size=(4, 4), stride=(2, 2), padding=(1, 1), bias=False)\n"
           "  (7): Tanh()\n"
           ")\n"
           "tinygrad_edu.Size([2, 3, 16, 16]) <TanhBackward0 object at 0x...>\n"
           "tensor([[ 0.0000,  0.0138, -0.0744,  0.0110],\n"
           "        [-0.0110, -0.0837, -0.0907, -0.0267]], grad_fn=<SliceBackward0>)\n"
           "tensor(0.6928, grad_fn=<BinaryCrossEntropyBackward0>)\n"
           "tensor([-0.0033,  0.0032, -0.0012, -0.0143])\n"
           "tensor(7.9118)\n"
           "tensor([ 0.0084, -0.0054, -0.0121, -0.0162], grad_fn=<SelectBackward0>)\n")),
}


# -- reprs -----------------------------------------------------------------------------------------------------------
REPRS = {
    "ConvTranspose2d": (lambda lib: lib.nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1),
        ok("ConvTranspose2d(3, 4, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), output_padding=(1, 1))")),
    "ConvTranspose1d, everything": (
        lambda lib: lib.nn.ConvTranspose1d(2, 4, 3, groups=2, bias=False, dilation=2, padding=2, output_padding=1),
        ok("ConvTranspose1d(2, 4, kernel_size=(3,), stride=(1,), padding=(2,), dilation=(2,), output_padding=(1,), "
           "groups=2, bias=False)")),
    "ConvTranspose3d": (lambda lib: lib.nn.ConvTranspose3d(2, 2, (1, 2, 3)),
        ok("ConvTranspose3d(2, 2, kernel_size=(1, 2, 3), stride=(1, 1, 1))")),
    "Upsample": (lambda lib: (lib.nn.Upsample(scale_factor=2), lib.nn.Upsample(scale_factor=(2, 3)),
                              lib.nn.Upsample(size=(3, 4), mode="bilinear", align_corners=True)),
        ok("(Upsample(scale_factor=2.0, mode='nearest'), Upsample(scale_factor=(2.0, 3.0), mode='nearest'), "
           "Upsample(size=(3, 4), mode='bilinear'))")),
    "UpsamplingNearest2d, UpsamplingBilinear2d": (
        lambda lib: (lib.nn.UpsamplingNearest2d(scale_factor=2), lib.nn.UpsamplingBilinear2d(size=3)),
        ok("(UpsamplingNearest2d(scale_factor=2.0, mode='nearest'), UpsamplingBilinear2d(size=3, mode='bilinear'))")),
    "PixelShuffle, PixelUnshuffle": (lambda lib: (lib.nn.PixelShuffle(2), lib.nn.PixelUnshuffle(3)),
        ok("(PixelShuffle(upscale_factor=2), PixelUnshuffle(downscale_factor=3))")),
    "Unfold, Fold": (
        lambda lib: (lib.nn.Unfold(2), lib.nn.Unfold((2, 3), dilation=2, padding=1, stride=(1, 2)),
                     lib.nn.Fold((4, 5), 2, stride=2)),
        ok("(Unfold(kernel_size=2, dilation=1, padding=0, stride=1), Unfold(kernel_size=(2, 3), dilation=2, "
           "padding=1, stride=(1, 2)), Fold(output_size=(4, 5), kernel_size=2, dilation=1, padding=0, stride=2))")),
    "GroupNorm": (lambda lib: (lib.nn.GroupNorm(2, 4), lib.nn.GroupNorm(2, 4, affine=False)),
        ok("(GroupNorm(2, 4, eps=1e-05, affine=True, bias=True), GroupNorm(2, 4, eps=1e-05, affine=False, "
           "bias=False))")),
    "RMSNorm": (lambda lib: (lib.nn.RMSNorm(3), lib.nn.RMSNorm([2, 3], eps=1e-6, elementwise_affine=False)),
        ok("(RMSNorm((3,), eps=None, elementwise_affine=True), RMSNorm((2, 3), eps=1e-06, elementwise_affine=False)"
           ")")),
    "dropouts": (lambda lib: (lib.nn.Dropout2d(0.2), lib.nn.AlphaDropout(0.1), lib.nn.Dropout1d(),
                              lib.nn.Dropout3d(), lib.nn.FeatureAlphaDropout(0.3, inplace=True)),
        ok("(Dropout2d(p=0.2, inplace=False), AlphaDropout(p=0.1, inplace=False), Dropout1d(p=0.5, inplace=False), "
           "Dropout3d(p=0.5, inplace=False), FeatureAlphaDropout(p=0.3, inplace=True))")),
    "LocalResponseNorm": (lambda lib: (lib.nn.LocalResponseNorm(2), lib.nn.LocalResponseNorm(3, 1e-3, 0.5, 2.0)),
        ok("(LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0), LocalResponseNorm(3, alpha=0.001, beta=0.5, "
           "k=2.0))")),
}


# -- nodes -----------------------------------------------------------------------------------------------------------
NODES = {
    "conv_transpose2d": (
        lambda lib: (lambda y: (_chain(y), _edges(y), y.grad_fn._saved_transposed, y.grad_fn._saved_output_padding,
                                y.grad_fn._saved_stride, y.grad_fn._saved_weight.shape))(
            lib.nn.functional.conv_transpose2d(_x(lib, 1, 2, 3, 3), _x(lib, 2, 3, 3, 3), None, 2, 1, 1)),
        ok("(['ConvolutionBackward0', 'tinygrad_edu::autograd::AccumulateGrad'], ['tinygrad_edu::autograd::Accumul"
           "ateGrad', 'tinygrad_edu::autograd::AccumulateGrad', None], True, (1, 1), (2, 2), tinygrad_edu.Size([2, 3,"
           " 3, 3]))")),
    "unbatched conv_transpose1d": (
        lambda lib: _chain(lib.nn.functional.conv_transpose1d(_x(lib, 2, 5), _x(lib, 2, 3, 3))),
        ok("['SqueezeBackward1', 'ConvolutionBackward0', 'UnsqueezeBackward0', 'tinygrad_edu::autograd::AccumulateG"
           "rad']")),
    "interpolate's nodes": (
        lambda lib: [lib.nn.functional.interpolate(x, **options).grad_fn.name() for x, options in (
            (_x(lib, 1, 1, 2, 3), {"scale_factor": 2}), (_x(lib, 1, 1, 4), {"size": 3}),
            (_x(lib, 1, 1, 2, 2, 2), {"size": 3}), (_x(lib, 1, 1, 2, 3), {"size": 5, "mode": "nearest-exact"}),
            (_x(lib, 1, 1, 4), {"size": 6, "mode": "linear"}), (_x(lib, 1, 1, 2, 3), {"size": 5, "mode": "bilinear"}),
            (_x(lib, 1, 1, 2, 2, 2), {"scale_factor": 2, "mode": "trilinear"}),
            (_x(lib, 1, 1, 4, 4), {"size": 3, "mode": "area"}))],
        ok("['UpsampleNearest2DBackward0', 'UpsampleNearest1DBackward0', 'UpsampleNearest3DBackward0', "
           "'UpsampleNearestExact2DBackward0', 'UpsampleLinear1DBackward0', 'UpsampleBilinear2DBackward0', "
           "'UpsampleTrilinear3DBackward0', 'AdaptiveAvgPool2DBackward0']")),
    "interpolate's saved options": (
        lambda lib: (lambda a, b: (a._saved_output_size, a._saved_scales_h, a._saved_scales_w, b._saved_output_size,
                                   b._saved_align_corners, b._saved_scales_h))(
            lib.nn.functional.interpolate(_x(lib, 1, 1, 2, 3), scale_factor=(2, 1.5)).grad_fn,
            lib.nn.functional.interpolate(_x(lib, 1, 1, 2, 3), size=(3, 3), mode="bilinear").grad_fn),
        ok("((4, 4), 2.0, 1.5, (3, 3), False, None)")),
    "pixel_shuffle, unfold, fold": (
        lambda lib: [f(x).grad_fn.name() for f, x in (
            (lambda x: lib.nn.functional.pixel_shuffle(x, 2), _x(lib, 1, 4, 2, 2)),
            (lambda x: lib.nn.functional.pixel_unshuffle(x, 2), _x(lib, 1, 1, 2, 2)),
            (lambda x: lib.nn.functional.unfold(x, 2), _x(lib, 1, 2, 3, 3)),
            (lambda x: lib.nn.functional.fold(x, (3, 3), 2), _x(lib, 1, 8, 4)))],
        ok("['PixelShuffleBackward0', 'PixelUnshuffleBackward0', 'Im2ColBackward0', 'Col2ImBackward0']")),
    "group_norm": (
        lambda lib: (lambda n: (n.name(), n._saved_N, n._saved_C, n._saved_HxW, n._saved_group, n._saved_eps,
                                n._saved_result1.shape, n._saved_result2.shape))(
            lib.nn.functional.group_norm(_x(lib, 2, 4, 3), 2).grad_fn),
        ok("('NativeGroupNormBackward0', 2, 4, 3, 2, 1e-05, tinygrad_edu.Size([2, 2]), tinygrad_edu.Size([2, 2]))")),
    "rms_norm, composed": (
        lambda lib: (_chain(lib.nn.functional.rms_norm(_x(lib, 2, 3), (3,))),
                     _edges(lib.nn.functional.rms_norm(_x(lib, 2, 3), (3,)))),
        ok("(['MulBackward0', 'tinygrad_edu::autograd::AccumulateGrad'], ['tinygrad_edu::autograd::AccumulateGrad', "
           "'RsqrtBackward0'])")),
    "local_response_norm, composed": (
        lambda lib: _edges(lib.nn.functional.local_response_norm(_x(lib, 1, 4, 3), 2)),
        ok("['tinygrad_edu::autograd::AccumulateGrad', 'PowBackward0']")),
}


# -- errors ----------------------------------------------------------------------------------------------------------
def _ct2(lib: ModuleType, x: tuple = (1, 3, 5, 5), w: tuple = (3, 4, 3, 3), **options: Any) -> Any:
    return lib.nn.functional.conv_transpose2d(lib.zeros(*x), lib.zeros(*w), **options)


def _layer_ct2(lib: ModuleType, size: Any) -> Any:
    lib.manual_seed(0)
    return lib.nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1)(lib.zeros(1, 3, 5, 5), output_size=size).shape


ERRORS = {
    "conv_transpose2d: output_padding >= stride": (lambda lib: _ct2(lib, output_padding=1),
        err("RuntimeError", "output padding must be smaller than either stride or dilation, but got "
                            "output_padding_height: 1 output_padding_width: 1 stride_height: 1 stride_width: 1 "
                            "dilation_height: 1 dilation_width: 1")),
    "conv_transpose1d: output_padding >= stride": (
        lambda lib: lib.nn.functional.conv_transpose1d(lib.zeros(2, 3, 5), lib.zeros(3, 2, 3), output_padding=1),
        err("RuntimeError", "output padding must be smaller than either stride or dilation, but got "
                            "output_padding_height: 0 output_padding_width: 1 stride_height: 1 stride_width: 1 "
                            "dilation_height: 1 dilation_width: 1")),
    "conv_transpose2d: channels": (lambda lib: _ct2(lib, w=(2, 4, 3, 3)),
        err("RuntimeError", "Given transposed=1, weight of size [2, 4, 3, 3], expected input[1, 3, 5, 5] to have 2 "
                            "channels, but got 3 channels instead")),
    "conv_transpose2d: bias": (lambda lib: _ct2(lib, bias=lib.zeros(3)),
        err("RuntimeError", "Given transposed=1, weight of size [3, 4, 3, 3], expected bias to be 1-dimensional "
                            "with 4 elements, but got bias of size [3] instead")),
    "conv_transpose2d: groups": (lambda lib: _ct2(lib, groups=2),
        err("RuntimeError", "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight "
                            "of size [[3, 4, 3, 3]] instead")),
    "conv_transpose2d: a plane": (lambda lib: _ct2(lib, x=(5, 5)),
        err("RuntimeError", "Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of "
                            "size: [5, 5]")),
    "conv_transpose2d: too much padding": (lambda lib: _ct2(lib, padding=(5, 1)),
        err("RuntimeError", "Given input size per channel: (5 x 5). Calculated output size per channel: (-3 x 5). "
                            "Output size is too small")),
    "conv_transpose2d: dilation 0": (lambda lib: _ct2(lib, dilation=0),
        err("RuntimeError", "dilation should be greater than zero, but got dilation_height: 0, dilation_width: 0")),
    "conv_transpose2d: negative padding": (lambda lib: _ct2(lib, padding=-1),
        err("RuntimeError", "negative padding is not supported")),
    "conv_transpose2d: dtypes": (lambda lib: _ct2(lib).double() + lib.nn.functional.conv_transpose2d(
        lib.zeros(1, 3, 2, 2, dtype=lib.float64), lib.zeros(3, 4, 3, 3)),
        err("RuntimeError", "expected scalar type Double but found Float")),
    "conv_transpose3d: output_padding": (
        lambda lib: lib.nn.functional.conv_transpose3d(lib.zeros(1, 3, 2, 2, 2), lib.zeros(3, 2, 2, 2, 2),
                                                       output_padding=1),
        err("RuntimeError", "output padding must be smaller than either stride or dilation, but got "
                            "output_padding_depth: 1 output_padding_height: 1 output_padding_width: 1 stride_depth: "
                            "1 stride_height: 1 stride_width: 1 dilation_depth: 1 dilation_height: 1 "
                            "dilation_width: 1")),
    "ConvTranspose2d: reflect padding": (lambda lib: lib.nn.ConvTranspose2d(3, 4, 3, padding_mode="reflect"),
        err("ValueError", 'Only "zeros" padding mode is supported for ConvTranspose2d')),
    "ConvTranspose2d: groups": (lambda lib: lib.nn.ConvTranspose2d(3, 4, 3, groups=2),
        err("ValueError", "in_channels must be divisible by groups")),
    "ConvTranspose2d: output_size": (lambda lib: _layer_ct2(lib, (1, 4, 10, 9)),
        ok("tinygrad_edu.Size([1, 4, 10, 9])")),
    "ConvTranspose2d: output_size out of range": (lambda lib: _layer_ct2(lib, (20, 20)),
        err("ValueError", "requested an output size of (20, 20), but valid sizes range from [9, 9] to [10, 10] (for "
                          "an input of tinygrad_edu.Size([5, 5]))")),
    "ConvTranspose2d: output_size of one number": (lambda lib: _layer_ct2(lib, [10]),
        err("ValueError", "ConvTranspose2D: for 4D input, output_size must have 2 or 4 elements (got 1)")),
}

def _up(lib: ModuleType, shape: tuple = (1, 2, 3, 4), **options: Any) -> Any:
    return lib.nn.functional.interpolate(lib.zeros(*shape), **options)


ERRORS.update({
    "interpolate: neither size nor scale": (lambda lib: _up(lib),
        err("ValueError", "either size or scale_factor should be defined")),
    "interpolate: both": (lambda lib: _up(lib, size=3, scale_factor=2),
        err("ValueError", "only one of size or scale_factor should be defined")),
    "interpolate: align_corners with nearest": (lambda lib: _up(lib, size=3, align_corners=True),
        err("ValueError", "align_corners option can only be set with the interpolating modes: linear | bilinear | "
                          "bicubic | trilinear")),
    "interpolate: bilinear on a signal": (lambda lib: _up(lib, (1, 2, 3), size=3, mode="bilinear"),
        err("NotImplementedError", "Got 3D input, but bilinear mode needs 4D input")),
    "interpolate: linear on an image": (lambda lib: _up(lib, size=3, mode="linear"),
        err("NotImplementedError", "Got 4D input, but linear mode needs 3D input")),
    "interpolate: three sizes for an image": (lambda lib: _up(lib, size=(3, 4, 5)),
        err("ValueError", "Input and output must have the same number of spatial dimensions, but got input with "
                          "spatial dimensions of [3, 4] and output size of (3, 4, 5). Please provide input tensor in "
                          "(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")),
    "interpolate: an unknown mode": (lambda lib: _up(lib, size=3, mode="foo"),
        err("NotImplementedError", "Input Error: Only 3D, 4D and 5D input Tensors supported (got 4D) for the modes: "
                                   "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
                                   "nearest-exact (got foo)")),
    "interpolate: sizes from a scale factor": (
        lambda lib: (_up(lib, scale_factor=0.5).shape, _up(lib, scale_factor=1.7, mode="bilinear").shape),
        ok("(tinygrad_edu.Size([1, 2, 1, 2]), tinygrad_edu.Size([1, 2, 5, 6]))")),
    "pixel_shuffle of a matrix": (lambda lib: lib.nn.functional.pixel_shuffle(lib.zeros(2, 3), 2),
        err("RuntimeError", "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 "
                            "dimension(s)")),
    "pixel_shuffle: channels": (lambda lib: lib.nn.functional.pixel_shuffle(lib.zeros(1, 5, 2, 2), 2),
        err("RuntimeError", "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                            "upscale_factor, but input.size(-3)=5 is not divisible by 4")),
    "pixel_unshuffle: height": (lambda lib: lib.nn.functional.pixel_unshuffle(lib.zeros(1, 1, 3, 2), 2),
        err("RuntimeError", "pixel_unshuffle expects height to be divisible by downscale_factor, but "
                            "input.size(-2)=3 is not divisible by 2")),
    "unfold: kernel larger than the input": (lambda lib: lib.nn.functional.unfold(lib.zeros(1, 1, 4, 4), 5),
        err("RuntimeError", "Given input with spatial size (4, 4), kernel_size=(5, 5), dilation=(1, 1), padding=(0, "
                            "0), calculated shape of the array of sliding blocks as (0, 0), but its components must "
                            "be at least one.")),
    "unfold of an unbatched map": (lambda lib: lib.nn.functional.unfold(lib.zeros(2, 4, 4), 2).shape,
        ok("tinygrad_edu.Size([8, 9])")),
    "fold: number of blocks": (lambda lib: lib.nn.functional.fold(lib.zeros(1, 8, 8), (4, 4), 2),
        err("RuntimeError", "Given output_size=(4, 4), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), "
                            "stride=(1, 1), expected size of input's dimension 2 to match the calculated number of "
                            "sliding blocks 3 * 3 = 9, but got input.size(2)=8.")),
    "fold: channels": (lambda lib: lib.nn.functional.fold(lib.zeros(1, 7, 9), (4, 4), 2),
        err("RuntimeError", "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                            "got input.size(1)=7 and kernel_size=(2, 2).")),
    "fold of a 4-d tensor": (lambda lib: lib.nn.functional.fold(lib.zeros(8, 9, 1, 1), (4, 4), 2),
        err("RuntimeError", "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                            "dimensions for input, but got: [8, 9, 1, 1]")),
})

ERRORS.update({
    "GroupNorm: groups": (lambda lib: lib.nn.GroupNorm(3, 4),
        err("ValueError", "num_channels (4) must be divisible by num_groups (3)")),
    "group_norm: channels": (lambda lib: lib.nn.functional.group_norm(lib.zeros(2, 3, 4), 2),
        err("RuntimeError", "Expected number of channels in input to be divisible by num_groups, but got input of "
                            "shape [2, 3, 4] and num_groups=2")),
    "group_norm of a vector": (lambda lib: lib.nn.functional.group_norm(lib.zeros(3), 1),
        err("RuntimeError", "Expected at least 2 dimensions for input tensor but received 1")),
    "group_norm: weight": (lambda lib: lib.nn.functional.group_norm(lib.zeros(2, 4, 3), 2, weight=lib.ones(3)),
        err("RuntimeError", "Expected weight to be a vector of size equal to the number of channels in input, but "
                            "got weight of shape [3] and input of shape [2, 4, 3]")),
    "rms_norm: shape": (lambda lib: lib.nn.functional.rms_norm(lib.zeros(2, 4, 3), (4,)),
        err("RuntimeError", "Given normalized_shape=[4], expected input with shape [*4], but got input of size[2, "
                            "4, 3]")),
    "rms_norm: weight": (lambda lib: lib.nn.functional.rms_norm(lib.zeros(2, 3), (3,), weight=lib.ones(2)),
        err("RuntimeError", "Expected weight to be of same shape as normalized_shape, but got weight of shape [2] "
                            "and normalized_shape = [3]")),
    "local_response_norm of a vector": (lambda lib: lib.nn.functional.local_response_norm(lib.zeros(3), 2),
        err("ValueError", "Expected 3D or higher dimensionality                          input (got 1 dimensions)")),
})

ERRORS.update({
    "dropout1d of a 4-d tensor": (lambda lib: lib.nn.functional.dropout1d(lib.ones(1, 2, 3, 4)),
        err("RuntimeError", "dropout1d: Expected 2D or 3D input, but received a 4D input. Note that dropout1d exists "
                            "to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, "
                            "and an optional batch dimension (i.e. 2D or 3D inputs).")),
    "Dropout2d: p": (lambda lib: lib.nn.Dropout2d(1.5),
        err("ValueError", "dropout probability has to be between 0 and 1, but got 1.5")),
    "alpha_dropout: p": (lambda lib: lib.nn.functional.alpha_dropout(lib.ones(2), -0.1, True),
        err("ValueError", "dropout probability has to be between 0 and 1, but got -0.1")),
    "dropout2d of a 5-d tensor warns": (
        lambda lib: lib.nn.functional.dropout2d(lib.ones(1, 1, 1, 1, 1), 0.5, training=False),
        (None, "tensor([[[[[1.]]]]])",
         ["UserWarning: dropout2d: Received a 5-D input to dropout2d, which is deprecated and will result in an "
          "error in a future release. To retain the behavior and silence this warning, please use dropout instead. "
          "Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial dimensions, a channel "
          "dimension, and an optional batch dimension (i.e. 3D or 4D inputs)."])),
})

GROUPS = {"programs": PROGRAMS, "reprs": REPRS, "nodes": NODES, "errors": ERRORS}


@pytest.mark.parametrize(("group", "name"), [(g, n) for g, cases in GROUPS.items() for n in cases])
def test_as_pytorch(group: str, name: str) -> None:
    fn, expected = GROUPS[group][name]
    as_pytorch(fn, expected)


# -- values and gradients: finite differences, and PyTorch's numbers -------------------------------------------------
# A case: a function of (lib, *inputs) and the shapes of its inputs (all requiring grad). Inputs are numpy's seeded
# normal numbers, the same in both libraries.
def _f(lib: ModuleType) -> Any:
    return lib.nn.functional


CASES: dict[str, tuple[Callable[..., Any], list[tuple[int, ...]]]] = {
    "conv_transpose2d": (lambda lib, x, w, b: _f(lib).conv_transpose2d(x, w, b), [(2, 3, 4, 5), (3, 2, 3, 2), (2,)]),
    "conv_transpose2d, stride, padding, output_padding": (
        lambda lib, x, w, b: _f(lib).conv_transpose2d(x, w, b, stride=(2, 3), padding=1, output_padding=(1, 2)),
        [(2, 3, 4, 4), (3, 2, 3, 3), (2,)]),
    "conv_transpose2d, groups, dilation": (
        lambda lib, x, w: _f(lib).conv_transpose2d(x, w, stride=2, padding=(2, 1), groups=2, dilation=(2, 1)),
        [(1, 4, 4, 3), (4, 3, 3, 2)]),
    "conv_transpose2d, output_padding under dilation": (
        lambda lib, x, w: _f(lib).conv_transpose2d(x, w, dilation=3, output_padding=2), [(1, 2, 3, 3), (2, 1, 2, 2)]),
    "conv_transpose2d, unbatched": (lambda lib, x, w: _f(lib).conv_transpose2d(x, w, stride=2),
                                    [(2, 3, 3), (2, 2, 2, 2)]),
    "conv_transpose1d": (lambda lib, x, w, b: _f(lib).conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1),
                         [(2, 3, 5), (3, 4, 3), (4,)]),
    "conv_transpose3d": (lambda lib, x, w, b: _f(lib).conv_transpose3d(x, w, b, stride=2, padding=1),
                         [(1, 2, 3, 2, 3), (2, 2, 3, 2, 2), (2,)]),
    "nearest x2": (lambda lib, x: _f(lib).interpolate(x, scale_factor=2), [(2, 2, 3, 4)]),
    "nearest to a size": (lambda lib, x: _f(lib).interpolate(x, size=(5, 3)), [(2, 2, 3, 4)]),
    "nearest, fractional scales": (lambda lib, x: _f(lib).interpolate(x, scale_factor=(1.7, 0.6)), [(1, 2, 3, 5)]),
    "nearest-exact": (lambda lib, x: _f(lib).interpolate(x, size=(5, 3), mode="nearest-exact"), [(1, 2, 3, 4)]),
    "nearest 1d, 3d": (lambda lib, x, y: (_f(lib).interpolate(x, size=7).sum() + _f(lib).interpolate(y, scale_factor=2)
                                          .sum(-1).sum()), [(1, 2, 3), (1, 1, 2, 3, 2)]),
    "bilinear": (lambda lib, x: _f(lib).interpolate(x, size=(5, 7), mode="bilinear"), [(2, 2, 3, 4)]),
    "bilinear, align_corners": (
        lambda lib, x: _f(lib).interpolate(x, size=(5, 2), mode="bilinear", align_corners=True), [(2, 2, 3, 4)]),
    "bilinear, scale_factor": (lambda lib, x: _f(lib).interpolate(x, scale_factor=1.6, mode="bilinear"),
                               [(1, 2, 3, 4)]),
    "bilinear, recomputed scale": (
        lambda lib, x: _f(lib).interpolate(x, scale_factor=1.6, mode="bilinear", recompute_scale_factor=True),
        [(1, 2, 3, 4)]),
    "linear 1d, both alignments": (
        lambda lib, x: (_f(lib).interpolate(x, size=7, mode="linear").sum(-1) *
                        _f(lib).interpolate(x, size=2, mode="linear", align_corners=True).sum(-1)), [(2, 2, 5)]),
    "trilinear": (lambda lib, x: _f(lib).interpolate(x, scale_factor=(2, 1.5, 1), mode="trilinear"),
                  [(1, 2, 2, 2, 3)]),
    "Upsample layers": (lambda lib, x: lib.nn.UpsamplingBilinear2d(scale_factor=2)(x) +
                        lib.nn.UpsamplingNearest2d(scale_factor=2)(x), [(1, 2, 3, 3)]),
    "pixel_shuffle": (lambda lib, x: _f(lib).pixel_shuffle(x, 2), [(2, 8, 2, 3)]),
    "pixel_unshuffle, extra dims": (lambda lib, x: _f(lib).pixel_unshuffle(x, 2), [(2, 1, 2, 4, 6)]),
    "unfold": (lambda lib, x: _f(lib).unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), [(2, 2, 5, 6)]),
    "fold": (lambda lib, x: _f(lib).fold(x, (5, 6), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
             [(2, 12, 12)]),
    "unfold, unbatched; fold, unbatched": (lambda lib, x: _f(lib).fold(_f(lib).unfold(x, 2), (3, 4), 2), [(2, 3, 4)]),
    "group_norm": (lambda lib, x, w, b: _f(lib).group_norm(x, 2, w, b), [(3, 4, 2, 3), (4,), (4,)]),
    "group_norm, no affine, 3-d": (lambda lib, x: _f(lib).group_norm(x, 3, eps=1e-3), [(2, 6, 4)]),
    "rms_norm": (lambda lib, x, w: _f(lib).rms_norm(x, (2, 3), w), [(2, 2, 3), (2, 3)]),
    "rms_norm, eps": (lambda lib, x: _f(lib).rms_norm(x, [3], eps=1e-3), [(4, 3)]),
    "local_response_norm": (lambda lib, x: _f(lib).local_response_norm(x, 3, alpha=0.1, k=1.5), [(2, 5, 3)]),
    "local_response_norm, 4-d": (lambda lib, x: _f(lib).local_response_norm(x, 2, alpha=0.2), [(2, 4, 2, 3)]),
}


def _inputs(lib: ModuleType, shapes: list[tuple[int, ...]], dtype: str) -> list[Any]:
    rng = np.random.default_rng(0)
    return [lib.tensor(rng.standard_normal(s), dtype=getattr(lib, dtype), requires_grad=True) for s in shapes]


def _values_and_grads(lib: ModuleType, name: str, dtype: str, cases: dict | None = None) -> list[np.ndarray]:
    """A case's value and its inputs' gradients for a fixed cotangent (cos 0, cos 1, ...)."""
    fn, shapes = (CASES if cases is None else cases)[name]
    inputs = _inputs(lib, shapes, dtype)
    y = fn(lib, *inputs)
    g = lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)), dtype=getattr(lib, dtype))
    y.backward(g)
    return [y.detach().numpy(), *(t.grad.numpy() for t in inputs)]


def check_gradients(case: tuple[Callable[..., Any], list[tuple[int, ...]]]) -> None:
    """A case's backward, and its own backward, against finite differences (float64)."""
    fn, shapes = case
    inputs = tuple(_inputs(tg, shapes, "float64"))
    assert tg.autograd.gradcheck(lambda *a: fn(tg, *a), inputs)
    assert tg.autograd.gradgradcheck(lambda *a: fn(tg, *a), inputs)


def check_against_pytorch(name: str, dtype: str, rtol: float, cases: dict | None = None) -> None:
    """A case's value and gradients are PyTorch's, to ``rtol``."""
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")
    ours, theirs = (_values_and_grads(lib, name, dtype, cases) for lib in (tg, torch))
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name", CASES)
def test_gradcheck(name: str) -> None:
    check_gradients(CASES[name])


@pytest.mark.parametrize(("dtype", "rtol"), [("float64", 1e-12), ("float32", 1e-5)])
@pytest.mark.parametrize("name", CASES)
def test_values_and_gradients_are_pytorchs(name: str, dtype: str, rtol: float) -> None:
    check_against_pytorch(name, dtype, rtol)


SECOND = ["conv_transpose2d, stride, padding, output_padding", "conv_transpose2d, groups, dilation",
          "conv_transpose2d, output_padding under dilation", "conv_transpose1d", "bilinear", "nearest to a size",
          "pixel_shuffle", "fold", "group_norm"]


@pytest.mark.parametrize("name", SECOND)
def test_second_derivatives_are_pytorchs(name: str) -> None:
    """create_graph=True through the op: the gradient of a function of its gradients."""
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")

    def second(lib: ModuleType) -> list[np.ndarray]:
        fn, shapes = CASES[name]
        inputs = _inputs(lib, shapes, "float64")
        grads = lib.autograd.grad((fn(lib, *inputs) ** 2).sum(), inputs, create_graph=True)
        total = sum((g ** 3).sum() for g in grads)
        return [t.numpy() for t in lib.autograd.grad(total, inputs)]

    for a, b in zip(second(tg), second(torch)):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)


LAYERS: dict[str, Callable[[ModuleType], Any]] = {
    "ConvTranspose2d": lambda lib: lib.nn.ConvTranspose2d(3, 6, 5),
    "ConvTranspose2d, groups, no bias": lambda lib: lib.nn.ConvTranspose2d(4, 6, (3, 2), groups=2, bias=False),
    "ConvTranspose1d": lambda lib: lib.nn.ConvTranspose1d(2, 5, 3),
    "ConvTranspose3d": lambda lib: lib.nn.ConvTranspose3d(2, 2, 2),
}


def check_initial_weights(make: Callable[[ModuleType], Any]) -> None:
    """A layer made after the same seed has PyTorch's parameters, bit for bit."""
    torch = oracle()
    if torch is None:
        pytest.skip("torch is the yardstick here")
    tg.manual_seed(7)
    torch.manual_seed(7)
    ours, theirs = make(tg), make(torch)
    for (key, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters(), strict=True):
        assert a.shape == b.shape and np.array_equal(a.detach().numpy(), b.detach().numpy()), key


@pytest.mark.parametrize("name", LAYERS)
def test_initial_weights_are_pytorchs_bit_for_bit(name: str) -> None:
    check_initial_weights(LAYERS[name])


def test_conv_transpose_is_the_adjoint_of_conv() -> None:
    """<conv_transpose(x, w), y> = <x, conv(y, w)>: the defining property, checked without torch."""
    rng = np.random.default_rng(1)
    x, w, y = (tg.tensor(rng.standard_normal(s)) for s in ((2, 4, 3, 4), (4, 3, 3, 3), (2, 3, 5, 8)))
    F = tg.nn.functional
    left = (F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=(0, 1)) * y).sum()
    right = (x * F.conv2d(y, w, stride=2, padding=1)).sum()
    assert abs(left.item() - right.item()) < 1e-10
