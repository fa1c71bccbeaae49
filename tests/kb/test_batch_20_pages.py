"""Pages written or broadened from batch-20's first-sight misses lead on the case they explain.

Each case was judged wrong or family at 01690ec1 (benchmarks/first_sight/judged); the page
covers a mechanism that recurs across threads (its citations name several), not only the
wording of this one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_folder

BATCH_20 = Path(__file__).resolve().parents[2] / "benchmarks" / "first_sight" / "batch-20"


@pytest.mark.parametrize(
    ("case", "page"),
    [
        # "RuntimeError: received 0 items of ancdata": the receiving side of the descriptor
        # hand-over under the file_descriptor sharing strategy
        ("t20A-pyg-dataloader-ancdata-file-descriptors", "dataloader-shared-memory-open-failed"),
        # "Illegal instruction (core dumped)" from a library built with AVX2 on an Ivy Bridge Xeon
        ("t20F-llama-node-illegal-instruction", "native-library-needs-missing-cpu-instructions"),
        # XLA_PYTHON_CLIENT_MEM_FRACTION="100" in the posted code (a percentage for a ratio),
        # and the 11 GB cards whose NCCL had no memory left beside JAX's default pool
        ("t20F-jax-ppermute-xla-runtime-error", "jax-preallocation-starves-cuda-libraries"),
        ("t20F-jax-flax-2080ti-nccl-hang-crash", "jax-preallocation-starves-cuda-libraries"),
    ],
)
def test_the_batch_20_case_leads_with_its_page(case: str, page: str) -> None:
    assert diagnose_folder(BATCH_20 / case).hypotheses[0].id == page


def test_an_exported_model_compared_with_a_training_mode_reference() -> None:
    """t20F-onnxruntime-outputs-differ-from-pytorch (symptoms only, judged family at 01690ec1):
    ONNX Runtime outputs differ from the PyTorch model's on the same input."""
    case = BATCH_20 / "t20F-onnxruntime-outputs-differ-from-pytorch"
    assert diagnose_folder(case).hypotheses[0].id == "inference-in-train-mode-dropout-active"
