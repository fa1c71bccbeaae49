"""A loss already non-finite at step 0 was made before any optimizer step (issue 18)."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.analyzers.loss import FIRST_STEP, analyze
from trainwreck.evidence.collect import collect

BEFORE_UPDATE = "loss.non_finite_before_update"


def _finding_ids(tmp_path: Path, lines: list[str]) -> set[str]:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n")
    return {finding.id for finding in analyze(collect([str(log)]))}


@pytest.mark.parametrize(
    ("first_step", "fires"), [(FIRST_STEP, True), (FIRST_STEP + 1, False), (FIRST_STEP + 10, False)]
)
def test_only_a_non_finite_loss_at_step_zero_fires(
    tmp_path: Path, first_step: int, fires: bool
) -> None:
    lines = [f"{{'step': {first_step + i}, 'loss': nan}}" for i in range(3)]
    found = _finding_ids(tmp_path, lines)
    assert "loss.non_finite" in found
    assert (BEFORE_UPDATE in found) is fires


def test_a_finite_first_loss_does_not_fire(tmp_path: Path) -> None:
    lines = ["{'step': 0, 'loss': 2.31}", "{'step': 1, 'loss': nan}"]
    found = _finding_ids(tmp_path, lines)
    assert "loss.non_finite" in found and BEFORE_UPDATE not in found
