"""Pages written for mechanisms first-sight batch-6 missed (judged at 559cae3).

The cases are benchmarks/first_sight/batch-6 folders, development data since the batch was judged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_folder

BATCH = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-6"


@pytest.mark.parametrize(
    ("case", "page"),
    [
        # "got `LightningModule`": a Trainer from lightning.pytorch, a model on
        # pytorch_lightning; judged wrong (a transformers compute_loss page led)
        (
            "lightning-mixed-lightning-pytorch-lightning-imports-19252",
            "lightning-mixed-package-imports",
        ),
        # "Undefined dataset mllm_demo" from /kaggle/working: judged wrong (undefined-symbol page)
        (
            "llamafactory-kaggle-cwd-undefined-dataset-mllm-demo-7703",
            "llamafactory-dataset-info-not-found",
        ),
        # NaN in all results on a GTX 1660 SUPER with AMP: judged wrong (the double-step page led)
        ("ultralytics-gtx1660-amp-check-passes-nan-5294", "turing-gtx16-fp16-nan"),
        # vLLM built from source: nvcc 12.2 against a torch for CUDA 11.7 in pip's isolated build
        # environment; judged family (a Python-version page led)
        (
            "vllm-source-build-nvcc122-vs-torch-cu117-1060",
            "extension-build-cuda-differs-from-torch",
        ),
    ],
)
def test_page_leads_on_the_case_it_was_written_for(case: str, page: str) -> None:
    assert diagnose_folder(BATCH / case).hypotheses[0].id == page
