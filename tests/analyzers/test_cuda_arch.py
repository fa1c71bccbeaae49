"""gpu.cuda_older_than_architecture: a CUDA runtime older than the GPU's generation.

The TensorFlow log is batch-35's first-sight thread (tensorflow/tensorflow#44349): TF 2.2
loading libcudart 10.1 on an RTX 3090 (compute capability 8.6, which CUDA 11.1 introduced).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.analyzers import cuda_arch
from trainwreck.evidence.collect import collect
from trainwreck.model import Evidence

TF_RTX3090 = (
    Path(__file__).parent.parent.parent
    / "benchmarks/first_sight/batch-35/t35h-tensorflow-rtx3090-model-does-not-learn-on-gpu"
)


def test_tensorflow_on_cuda_10_1_under_an_rtx_3090() -> None:
    (finding,) = cuda_arch.analyze(collect([str(TF_RTX3090 / "train.log")]))
    assert finding.values == {
        "gpu": "RTX 3090",
        "capability": "8.6",
        "cuda": "10.1",
        "needed": "11.1",
    }
    assert finding.evidence[0].line == 7  # the loader's libcudart line


@pytest.mark.parametrize(
    ("said", "fires"),
    [
        ("GeForce RTX 3090; Successfully opened dynamic library libcudart.so.10.2", True),
        ("GeForce RTX 3090; Successfully opened dynamic library libcudart.so.11.1", False),
        ("NVIDIA A100; Successfully opened dynamic library cudart64_101.dll", True),
        # a torch build's CUDA is not read: torch warns on its own, and its PTX runs on new cards
        ("RTX 3090, torch 1.7.1+cu102", False),
        ("RTX 5090 and CUDA used to build PyTorch: 12.6", False),
        # nvidia-smi's "CUDA Version" is the driver's ceiling, not the runtime
        ("GeForce RTX 3090 | Driver Version: 455.23 CUDA Version: 11.0", False),
        # older than the table (Pascal): no claim
        ("GTX 1080 with libcudart.so.8.0", False),
    ],
)
def test_the_runtime_against_the_first_release_for_the_architecture(said: str, fires: bool) -> None:
    assert bool(cuda_arch.analyze(Evidence(symptoms=said))) == fires


@pytest.mark.parametrize(
    ("capability", "needed"),
    [((7, 0), (9, 0)), ((8, 6), (11, 1)), ((8, 7), (11, 4)), ((9, 0), (11, 8)), ((12, 0), (12, 8))],
)
def test_a_capability_between_rows_takes_the_lower_rows_release(
    capability: tuple[int, int], needed: tuple[int, int]
) -> None:
    assert cuda_arch.needed_cuda(capability) == needed


@pytest.mark.parametrize(
    ("said", "fires"),
    [
        # from CUDA 11 on the file names the major only: 11.x under an RTX 3090 is no claim
        ("RTX 3090 loaded libcudart.so.11.0", False),
        ("RTX 3090 loaded cudart64_110.dll", False),
        # ...but an 11.x runtime under a Blackwell card, which needs CUDA 12.8, is
        ("RTX 5090 loaded libcudart.so.11.0", True),
        ("RTX 5090 loaded cudart64_12.dll", False),
        ("RTX 3090 loaded cudart64_92.dll", True),
    ],
)
def test_library_names_that_carry_the_major_only(said: str, fires: bool) -> None:
    assert bool(cuda_arch.analyze(Evidence(symptoms=said))) == fires
