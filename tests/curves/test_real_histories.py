"""Real metric histories from public issues and repos: the detectors must find the known event.

Fixtures and their sources: fixtures/real/SOURCES.md. The detectors are not tuned to
these files; a miss is kept as an xfail with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.curves.detect import detect
from trainwreck.curves.readers import read_text
from trainwreck.model import Finding, MetricTable

REAL = Path(__file__).parent / "fixtures" / "real"
CURVE_IDS = ("curves.", "loss.", "grad_norm.")


def _read(name: str) -> MetricTable:
    path = REAL / name
    table = read_text(str(path), path.read_text(encoding="utf-8"))
    assert isinstance(table, MetricTable), table
    return table


def _findings(name: str) -> dict[str, Finding]:
    return {f.id: f for f in detect(_read(name))}


def test_sources_lists_every_fixture() -> None:
    listed = (REAL / "SOURCES.md").read_text(encoding="utf-8")
    files = [p.name for p in REAL.iterdir() if p.name != "SOURCES.md"]
    assert len(files) >= 5
    assert all(f"`{name}`" in listed for name in files)


def test_chance_level_multiple_choice_run_is_a_plateau() -> None:
    found = _findings("quality_lrqa_chance_plateau_trainer_state.json")
    assert list(found) == ["curves.plateau"]
    assert found["curves.plateau"].values["start"] == pytest.approx(1.389, abs=0.01)
    assert found["curves.plateau"].values["end"] == pytest.approx(1.389, abs=0.01)


def test_whisper_eval_loss_rising_from_step_1000_is_overfitting() -> None:
    found = _findings("whisper_large_v2_japanese_eval_rise_trainer_state.json")
    assert list(found) == ["curves.overfitting"]
    values = found["curves.overfitting"].values
    assert values["step"] == 1000
    assert values["best_eval"] == pytest.approx(0.321, abs=1e-3)
    assert values["last_eval"] == pytest.approx(0.420, abs=1e-3)


def test_healthy_trainer_state_raises_no_alarm() -> None:
    found = _findings("trainer_state_viz_healthy_trainer_state.json")
    assert [i for i in found if i.startswith(CURVE_IDS)] == []


def test_grad_norm_went_non_finite_before_the_loss() -> None:
    found = _findings("modernbert_233_grad_norm_nan.log")
    assert found["grad_norm.non_finite"].values["step"] == 1  # first pasted line
    assert "loss.non_finite" not in found
    order = found["curves.non_finite_order"].values
    assert order["first"] == "grad_norm" and order["step"] == 1


def test_loss_nan_onset_at_epoch_3451() -> None:
    table = _read("gradnorm_tf_17_loss_nan.log")
    found = {f.id: f for f in detect(table)}
    # the log prints epochs, not steps: steps are logging-line ordinals, line 10 = epoch 3451
    assert found["loss.non_finite"].values["step"] == 10
    epoch = table.series["epoch"]
    assert epoch.values[list(epoch.steps).index(10)] == 3451
    assert found["loss.non_finite"].values["last_finite"] == pytest.approx(0.2106, abs=1e-4)


@pytest.mark.xfail(
    reason="overflow-only log: every overflow lands on step 1, so the scale history is one point",
    strict=True,
)
def test_apex_loss_scale_collapse_is_found() -> None:
    table = _read("apex_834_loss_scale_collapse.log")
    assert table.info["overflow_events"] == 17
    assert "curves.loss_scale_collapse" in _findings("apex_834_loss_scale_collapse.log")


def test_tf_loss_explosion_at_step_438_is_found() -> None:
    table = _read("tf_models_3868_loss_explodes.log")
    assert table.series["loss"].steps.tolist() == list(range(435, 442))
    found = _findings("tf_models_3868_loss_explodes.log")
    assert any(f.values.get("step") == 438 for f in found.values())
