"""Loss values that are constants: chance level, zero, identical (analyzers/loss_constants.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from arith_helpers import case, first_sight, found, logged, sources

from trainwreck.analyzers.loss_constants import MIN_POINTS


def _log(values: list[float], key: str = "loss") -> str:
    return "".join(
        f"{{'{key}': {value}, 'learning_rate': 0.001, 'step': {10 * step}}}\n"
        for step, value in enumerate(values, start=1)
    )


def test_frozen_model_run_sits_at_ln_3() -> None:
    """tests/cases repro: every parameter frozen, a 3-class head at chance: loss ~1.10."""
    diagnosis = case("repro-divergence-all-params-frozen")
    finding = found(diagnosis, "loss.")["loss.chance_level"]
    assert finding.title.startswith("loss stuck at ln 3 = 1.0986")
    assert sources(finding)["classes C"].startswith("[inferred]")
    assert diagnosis.hypotheses[0].id == "no-trainable-parameters"


def test_llamafactory_fp16_collapse_is_abrupt() -> None:
    """LlamaFactory#506: loss 2.7044 at step 4440, then exactly 0.0 at 4450 under fp16."""
    finding = found(first_sight("llamafactory-llama2-fp16-lora-loss-collapse-zero-506"), "loss.")
    zero = finding["loss.zero_abrupt"]
    assert "from step 4450, straight from 2.7044 at step 4440" in zero.summary


def test_zeros_after_a_nan_gradient_are_not_judged() -> None:
    """LlamaFactory#9631: grad_norm is NaN from the first step, the zeros follow from it."""
    diagnosis = first_sight("llamafactory-sdpa-deepspeed-step0-grad-nan-9631")
    assert not [f for f in found(diagnosis, "loss.") if f.startswith("loss.zero")]


@pytest.mark.parametrize(
    ("ratio", "matches"), [(1 - 0.021, False), (1 - 0.019, True), (1.019, True), (1.021, False)]
)
def test_chance_level_tolerance(tmp_path: Path, ratio: float, matches: bool) -> None:
    level = round(math.log(3) * ratio, 4)
    diagnosis = logged(tmp_path, _log([level] * 3 + [level + 0.0001, level - 0.0001] * 2))
    assert ("loss.chance_level" in found(diagnosis, "loss.")) is matches


@pytest.mark.parametrize(("spread", "matches"), [(0.09, True), (0.11, False)])
def test_a_level_must_be_flat(tmp_path: Path, spread: float, matches: bool) -> None:
    low = round(math.log(2) * (1 - spread / 2), 4)
    high = round(math.log(2) * (1 + spread / 2), 4)
    diagnosis = logged(tmp_path, _log([low, high] * 4))
    assert ("loss.chance_level" in found(diagnosis, "loss.")) is matches


@pytest.mark.parametrize(
    ("count", "matches"), [(MIN_POINTS - 1, False), (MIN_POINTS, True), (MIN_POINTS + 1, True)]
)
def test_a_level_needs_five_logged_values(tmp_path: Path, count: int, matches: bool) -> None:
    diagnosis = logged(tmp_path, _log([1.0986] * count))
    assert ("loss.chance_level" in found(diagnosis, "loss.")) is matches


def test_a_stated_class_count_is_the_one_tried(tmp_path: Path) -> None:
    at_ln3 = logged(tmp_path, "num_classes: 10\n" + _log([1.0986, 1.099, 1.0982] * 2))
    assert "loss.chance_level" not in found(at_ln3, "loss.")


def test_ln_of_the_vocabulary(tmp_path: Path) -> None:
    config = json.dumps({"model_type": "llama", "vocab_size": 32000})
    values = [10.37, 10.38, 10.36, 10.37, 10.375, 10.37]
    diagnosis = logged(tmp_path, _log(values), files={"config.json": config})
    finding = found(diagnosis, "loss.")["loss.chance_level"]
    assert finding.values["classes"] == 32000
    assert sources(finding)["classes C"] == "config.json:vocab_size"


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([0.0, 0.0, 0.0], "loss.zero_from_start"),
        ([2.1, 0.49, 0.0, 0.0], "loss.zero_gradual"),
        ([2.1, 0.5, 0.0, 0.0], "loss.zero_abrupt"),
        ([2.1, 0.0, 0.4], None),  # back above zero: not where the loss stays
    ],
)
def test_how_the_loss_reached_zero(
    tmp_path: Path, values: list[float], expected: str | None
) -> None:
    zeros = [f for f in found(logged(tmp_path, _log(values)), "loss.zero")]
    assert zeros == ([expected] if expected else [])


@pytest.mark.parametrize(("count", "matches"), [(2, False), (3, True)])
def test_identical_values(tmp_path: Path, count: int, matches: bool) -> None:
    diagnosis = logged(tmp_path, _log([0.8123] * count, key="eval_loss"))
    assert ("loss.identical" in found(diagnosis, "loss.")) is matches


def test_a_moving_loss_is_no_constant(tmp_path: Path) -> None:
    diagnosis = logged(tmp_path, _log([2.3, 1.9, 1.5, 1.2, 1.0, 0.8, 0.7, 0.6]))
    assert found(diagnosis, "loss.chance") == {}
    assert found(diagnosis, "loss.zero") == {}
    assert found(diagnosis, "loss.identical") == {}
