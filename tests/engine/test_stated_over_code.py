"""A code finding shows what the code could do, not what this run did (first-sight batch-5).

Both cases were judged wrong at a35d49d: a detector's finding on the user's script put a
page of another class at the top, once at High.
"""

from __future__ import annotations

from pathlib import Path

from trainwreck.curation.cases import diagnose_folder

BATCH_5 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-5"


def test_a_forward_without_no_grad_does_not_outweigh_random_logits() -> None:
    # "different logits every time": the untrained classification head, not an OOM page
    # that the snippet's forward outside no_grad raised (huggingface/transformers#2770)
    report = diagnose_folder(BATCH_5 / "transformers-untrained-cls-head-random-output-2770")
    assert report.hypotheses[0].id == "classifier-head-newly-initialized"


def test_a_code_finding_alone_is_not_high() -> None:
    # a target standardised by its std is no NaN when the log shows a finite loss at 1.0;
    # the loss's own target-size warning names the cause
    report = diagnose_folder(BATCH_5 / "pytorch-repro-mse-target-shape-broadcast-divergence")
    top, *rest = report.hypotheses
    assert top.id == "regression-loss-target-shape-broadcast" and top.confidence == "high"
    zero_std = next(h for h in rest if h.id == "standardize-zero-std-feature")
    assert zero_std.confidence != "high"


BATCH_11 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-11"


def test_a_code_finding_of_a_related_class_is_a_guess() -> None:
    # "the loss runs negative, it is not learning": the script divides by a per-feature
    # std, but no NaN was logged; the NaN page may stay as a suspect, only as a guess
    # (it was Medium and wrong at 8a38e4c: the cause was a sign-flipped KL term)
    report = diagnose_folder(BATCH_11 / "r1-pytorch-sensor-vae-loss-runs-negative-repro")
    zero_std = next(h for h in report.hypotheses if h.id == "standardize-zero-std-feature")
    assert zero_std.confidence == "low"
    assert "your description states divergence" in zero_std.why_confidence
