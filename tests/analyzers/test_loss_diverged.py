"""A training loss that diverged (analyzers/loss.py `loss.diverged`), at each cut-off."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.analyzers.loss import DIVERGED_RISE, MIN_POINTS_FOR_DIVERGENCE, analyze
from trainwreck.evidence.collect import collect

DIVERGED = "loss.diverged"


def _diverged(tmp_path: Path, losses: list[float]) -> bool:
    log = tmp_path / "train.log"
    lines = [f"{{'loss': {value}, 'step': {10 * step}}}" for step, value in enumerate(losses, 1)]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return DIVERGED in {finding.id for finding in analyze(collect([str(log)]))}


@pytest.mark.parametrize(
    ("count", "fires"),
    [(MIN_POINTS_FOR_DIVERGENCE - 1, False), (MIN_POINTS_FOR_DIVERGENCE, True), (12, True)],
)
def test_a_rise_counts_from_eight_logged_losses(tmp_path: Path, count: int, fires: bool) -> None:
    falling, rising = [1.5, 1.0], [3.0] * (count - 2)
    assert _diverged(tmp_path, falling + rising) is fires


@pytest.mark.parametrize(
    ("rise", "fires"),
    [(DIVERGED_RISE - 0.01, False), (DIVERGED_RISE, True), (DIVERGED_RISE + 0.01, True)],
)
def test_the_recent_loss_is_twice_the_lowest(tmp_path: Path, rise: float, fires: bool) -> None:
    losses = [1.5, 1.2, 1.0, 1.1, 1.3, rise, rise, rise]  # lowest 1.0, first below the rise
    assert _diverged(tmp_path, losses) is fires


def test_a_loss_still_below_where_it_started_has_not_diverged(tmp_path: Path) -> None:
    """Twice its lowest but under its first value: a run that dipped, not one that blew up."""
    assert not _diverged(tmp_path, [3.0, 1.2, 1.0, 1.1, 1.3, 2.5, 2.5, 2.5])
