"""The peak learning rate against the cited priors, from what a LoRA run prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck import diagnose

# PEFT's print_trainable_parameters() line for LoRA on a 6.7B Llama, as users paste it.
PEFT_LINE = "trainable params: 4,194,304 || all params: 6,742,609,920 || trainable%: 0.0622"


def _log(tmp_path: Path, rate: float, preamble: str = PEFT_LINE) -> Path:
    rows = [
        f"{{'loss': {2.5 - step / 100:.3f}, 'grad_norm': 1.1, 'learning_rate': {rate}, "
        f"'epoch': {step / 100:.2f}}}"
        for step in range(1, 60)
    ]
    path = tmp_path / "train.log"
    path.write_text("\n".join([preamble, *rows]) + "\n")
    return path


def _lr_findings(path: Path) -> dict[str, dict[str, object]]:
    return {
        f.id: dict(f.values)
        for f in diagnose([str(path)]).findings
        if f.id.startswith("curves.lr_") and f.id.endswith("_prior")
    }


@pytest.mark.parametrize(
    ("rate", "expected"),
    [(5e-3, "curves.lr_above_prior"), (1e-5, "curves.lr_below_prior"), (3e-4, None)],
)
def test_lora_rate_is_judged_against_the_7b_lora_recipe(
    tmp_path: Path, rate: float, expected: str | None
) -> None:
    found = _lr_findings(_log(tmp_path, rate))
    if expected is None:
        assert found == {}
    else:
        assert list(found) == [expected]
        assert found[expected]["prior_id"] == "lr-lora-7b-alpaca-lora"
        assert found[expected]["learning_rate"] == rate


def test_no_method_in_the_evidence_means_no_judgement(tmp_path: Path) -> None:
    """Without PEFT's printout nothing says this is fine-tuning: 5e-3 may be pretraining."""
    assert _lr_findings(_log(tmp_path, 5e-3, preamble="Starting training")) == {}


@pytest.mark.parametrize(("rate", "judged"), [(0.99, False), (1.0, True), (500, True)])
def test_without_method_or_size_only_a_rate_far_above_every_recipe_is_judged(
    tmp_path: Path, rate: float, judged: bool
) -> None:
    """The highest cited rate is torchvision's from-scratch SGD 0.1; ten times that is far
    above any recipe whatever the method, even with no curve logged."""
    (tmp_path / "config.yaml").write_text(f"learning_rate: {rate}\n")
    (tmp_path / "train.log").write_text("Starting training\n")
    found = _lr_findings(tmp_path)
    if not judged:
        assert found == {}
        return
    assert found["curves.lr_above_prior"]["prior_id"] == "lr-scratch-resnet18-torchvision"
    finding = next(f for f in diagnose([str(tmp_path)]).findings if f.id == "curves.lr_above_prior")
    assert finding.arithmetic is not None
    assert finding.arithmetic.lines[0].source.endswith("config.yaml:learning_rate")
