"""Pages and detectors written after first-sight batch-13 was judged, each for a case it missed."""

from __future__ import annotations

from pathlib import Path

from trainwreck.curation.cases import diagnose_folder

BATCH_13 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-13"


def test_an_attention_mask_passed_as_a_key_padding_mask() -> None:
    # judged family at 73b2481 (the generic non-finite-loss page led): the code reads the flip
    report = diagnose_folder(BATCH_13 / "r1-transformers-trainer-encoder-eval-loss-nan-repro")
    assert report.hypotheses[0].id == "attention-fully-masked-row-nan"


def test_a_onecycle_schedule_one_step_short_per_epoch() -> None:
    # judged wrong at 73b2481 (a full-disk page led on words): the message now has its page
    report = diagnose_folder(
        BATCH_13 / "r3-pytorch-onecycle-meter-digit-cnn-crash-last-epoch-repro"
    )
    top = report.hypotheses[0]
    assert top.id == "onecycle-stepped-past-total-steps"


def test_masks_of_0_and_255_into_a_bce_loss() -> None:
    # judged wrong at 73b2481 (the BCE target-shape page led on words): the negative loss
    # now leads with the out-of-range target page
    report = diagnose_folder(BATCH_13 / "r1-accelerate-crack-segmentation-loss-negative-repro")
    assert report.hypotheses[0].id == "bce-targets-outside-zero-one"
