"""Version pairs a log line states that cannot work together (env/pairs.py)."""

from __future__ import annotations

from arith_helpers import first_sight, found, sources, values

from trainwreck.env.pairs import CUDNN_RULE


def test_deepspeed_nvcc_12_beside_torch_built_for_11() -> None:
    """DeepSpeed's op builder refused nvcc 12.2 for a torch built with CUDA 11.7."""
    finding = found(first_sight("deepspeed-cuda-toolkit-torch-mismatch-91"), "env.")[
        "env.nvcc_mismatch"
    ]
    shown = values(finding)
    assert shown["requirement"] == "nvcc CUDA 11.x (torch was built with 11.7)"
    assert shown["installed"] == "12.2"
    assert shown["satisfied"] == "no"
    assert sources(finding)["installed"].endswith("train.log:1")
    assert (
        "deepspeedai/DeepSpeed/blob/v0.16.0/op_builder/builder.py"
        in sources(finding)["requirement"]
    )


def test_jax_cudnn_runtime_older_than_its_build() -> None:
    """jax#15361: cuDNN 8.5.0 loaded for a jaxlib compiled with 8.6.0."""
    finding = found(first_sight("jax-cudnn-runtime-older-than-build-15361"), "env.")[
        "env.cudnn_older"
    ]
    shown = values(finding)
    assert shown["requirement"] == "cuDNN 8.x with minor >= 6"
    assert shown["installed"] == "8.5.0"
    assert sources(finding)["requirement"] == CUDNN_RULE
