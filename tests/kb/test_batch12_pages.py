"""Pages written after first-sight batch-12 was judged, each naming a batch-12 case it missed."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_folder

BATCH_12 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-12"


def test_per_position_logits_with_the_classes_last() -> None:
    # judged family at 0e5ddfc (a ragged-collate page led); the numbers name the layout
    report = diagnose_folder(
        BATCH_12 / "r3-accelerate-bilstm-pos-tagger-target-size-runtimeerror-repro"
    )
    top = report.hypotheses[0]
    assert top.id == "cross-entropy-class-dim-last"
    assert "[32, 12]" in top.root_cause and "[32, 19]" in top.root_cause


def test_the_all_linear_shorthand_on_an_old_peft() -> None:
    # High and judged family at 0e5ddfc: the generic target-modules page named the wrong change
    report = diagnose_folder(BATCH_12 / "t3-peft-all-linear-shortcut-old-peft")
    top = report.hypotheses[0]
    assert top.id == "peft-all-linear-before-0-8" and top.confidence == "high"


# Each reproduction below was judged wrong at 0e5ddfc; a code detector now reads the planted
# mistake in its train.py and the page for that mechanism leads.
CODE_READ = {
    "r3-pytorch-softmax-regression-manual-sgd-runtimeerror-repro": (
        "leaf-tensor-updated-in-place-with-grad-on"
    ),
    "r1-pytorch-store-demand-mape-loss-nan": "grad-nan-at-nondifferentiable-point",
    "r3-accelerate-wafer-cnn-val-acc-zero-repro": "max-values-used-as-predicted-class",
    "r3-transformers-trainer-headline-topic-bert-valueerror-unpack-repro": (
        "tokenizer-tensors-in-getitem-extra-batch-dim"
    ),
    "r1-pytorch-review-classifier-predict-script-random": "ids-assigned-in-set-iteration-order",
    "r3-pytorch-imu-cnn-train-loss-rises-each-epoch-repro": "dataset-item-modified-in-place",
    "r3-pytorch-defect-resnet-transfer-optimizer-valueerror-repro": (
        "optimizer-got-empty-parameter-list"
    ),
    "r2-pytorch-tile-cnn-no-progress-epoch0-repro": "process-pool-inside-dataset-with-workers",
    "r2-pytorch-eeg-sleep-dataset-build-cannot-allocate-repro": "tensor-slice-keeps-whole-storage",
    "r1-transformers-trainer-news-topic-loss-climbs": "trainer-optimizer-built-without-lr",
    "r1-transformers-trainer-toxic-flagger-never-flags": "class-weights-proportional-to-frequency",
    "r1-transformers-ticket-tagger-trainer-loss-nan": "class-weight-divides-by-zero-count",
    "r2-transformers-faq-gpt2-trainer-stuck-first-eval-repro": "regex-catastrophic-backtracking",
}


@pytest.mark.parametrize(("case", "page"), sorted(CODE_READ.items()))
def test_the_planted_mistake_leads(case: str, page: str) -> None:
    assert diagnose_folder(BATCH_12 / case).hypotheses[0].id == page
