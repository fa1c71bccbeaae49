"""loss.above_uniform_guess: the Trainer's first logged loss far above ln V is a sum, not a mean."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from trainwreck.analyzers import loss_scale
from trainwreck.analyzers.loss_scale import FACTOR, LARGEST_COMMON_VOCAB
from trainwreck.evidence.collect import collect

UNSLOTH = (
    Path(__file__).parents[2]
    / "benchmarks/first_sight/batch-2/unsloth-gemma4-ga-high-loss-4982/train.log"
)
THRESHOLD = FACTOR * math.log(LARGEST_COMMON_VOCAB)


def _findings(tmp_path: Path, *lines: str) -> list[str]:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [f.id for f in loss_scale.analyze(collect([str(log)]))]


def test_fires_on_the_unsloth_gemma4_run_that_logged_a_first_loss_of_186() -> None:
    (found,) = loss_scale.analyze(collect([str(UNSLOTH)]))
    assert found.values["loss"] == 185.9
    assert found.values["ratio"] == pytest.approx(185.9 / math.log(LARGEST_COMMON_VOCAB), 0.01)


@pytest.mark.parametrize(
    ("first", "fires"),
    [(THRESHOLD * 0.99, False), (THRESHOLD, False), (THRESHOLD * 1.01, True)],
)
def test_threshold_is_factor_times_ln_of_the_largest_common_vocabulary(
    tmp_path: Path, first: float, fires: bool
) -> None:
    line = f"{{'loss': {first!r}, 'grad_norm': 3.1, 'learning_rate': 1e-05, 'epoch': 0.01}}"
    assert _findings(tmp_path, line) == (["loss.above_uniform_guess"] if fires else [])


def test_a_stated_vocabulary_lowers_the_threshold(tmp_path: Path) -> None:
    # 2 x ln 32000 = 20.75: a first loss of 22 is a sum for a 32k vocabulary.
    config = tmp_path / "config.json"
    config.write_text('{"vocab_size": 32000, "model_type": "llama"}', encoding="utf-8")
    log = tmp_path / "train.log"
    log.write_text("{'loss': 22.0, 'grad_norm': 3.1, 'epoch': 0.01}\n", encoding="utf-8")
    (found,) = loss_scale.analyze(collect([str(log), str(config)]))
    assert found.values["vocab"] == 32000


def test_only_the_trainers_logging_dict_is_read(tmp_path: Path) -> None:
    # A hand-written loop may log a summed or MSE loss of any size.
    assert _findings(tmp_path, "step 1 loss 185.9", "step 2 loss 120.3") == []
