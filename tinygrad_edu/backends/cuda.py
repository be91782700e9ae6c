"""``torch.backends.cuda``: NVIDIA's GPU, which is not here; its switches are remembered and change nothing."""


class _Matmul:
    """``torch.backends.cuda.matmul.allow_tf32`` and its companions."""

    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True
    allow_bf16_reduced_precision_reduction = True


matmul = _Matmul()


def is_built() -> bool:
    return False
