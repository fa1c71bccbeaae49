"""Pages written (or given a finding) for mechanisms first-sight batch-5 missed.

The cases are benchmarks/first_sight/batch-5 folders, development data since batch-5 was
judged at a35d49d (benchmarks/first_sight.md); each was judged wrong or family there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_folder

BATCH = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-5"


@pytest.mark.parametrize(
    ("case", "page"),
    [
        # torch's target-size warning, a loss stuck at 1.0: judged wrong (a zero-std NaN page led)
        (
            "pytorch-repro-mse-target-shape-broadcast-divergence",
            "regression-loss-target-shape-broadcast",
        ),
        # an 8-GPU MMDetection config on one GPU, losses in the billions: judged wrong (NaN pages)
        ("mmdetection-garpn-1gpu-lr-not-scaled-4383", "lr-not-scaled-to-gpu-count"),
        # only wandb's upload counter after the last epoch: judged family (DDP/DataLoader pages)
        ("wandb-upload-stall-end-of-epoch-hang-2", "wandb-sync-stalls-at-finish"),
        # `python train_WIP.py` into init_process_group: judged family (a rendezvous-store page)
        (
            "pytorch-distributed-rank-not-set-no-launcher-52",
            "distributed-env-vars-missing-no-launcher",
        ),
        # ESPnet's cudnn_deterministic default, timed on and off: judged family (other slow pages)
        ("espnet-cudnn-deterministic-default-slow-3041", "deterministic-mode-slow-kernels"),
    ],
)
def test_page_leads_on_the_case_it_was_written_for(case: str, page: str) -> None:
    assert diagnose_folder(BATCH / case).hypotheses[0].id == page
