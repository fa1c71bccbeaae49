"""Detectors against generated runs with planted events (tests/curves/curve_generator.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from curve_generator import KINDS, generate
from curve_scoring import EVENTS, score

from trainwreck.curves.detect import detect
from trainwreck.curves.facts import Fact, RunFacts
from trainwreck.curves.robust import trailing_median_at, trailing_min
from trainwreck.curves.table import TableBuilder
from trainwreck.model import MetricTable

RUNS_PER_KIND = 10


def test_planted_events_are_found_with_few_false_alarms() -> None:
    totals: dict[str, Counter[str]] = {event: Counter() for event in EVENTS}
    for seed in range(RUNS_PER_KIND * len(KINDS)):
        run = generate(1000 + seed, KINDS[seed % len(KINDS)])
        for event, counts in score(run.planted, detect(run.table(), run.facts())).items():
            totals[event].update(counts)
    for event, counts in totals.items():
        assert counts["tp"] > 0, event
        assert counts["tp"] / (counts["tp"] + counts["fn"]) >= 0.9, (event, counts)
        assert counts["tp"] / (counts["tp"] + counts["fp"]) >= 0.9, (event, counts)


@pytest.mark.parametrize("seed", range(5))
def test_healthy_runs_raise_no_alarm(seed: int) -> None:
    run = generate(2000 + seed, "healthy")
    assert detect(run.table(), run.facts()) == []


def test_nan_order_names_the_metric_that_went_first() -> None:
    for seed in range(20):
        run = generate(3000 + seed, "nan")
        found = {f.id: f for f in detect(run.table())}
        first = min(run.planted.nan_steps, key=lambda name: run.planted.nan_steps[name])
        assert found["curves.non_finite_order"].values["first"] == first
        expected = "backward pass" if first == "grad_norm" else "forward pass or the data"
        assert expected in found["curves.non_finite_order"].summary


def test_periodic_spikes_compare_period_with_steps_per_epoch() -> None:
    run = next(r for s in range(40) if (r := generate(4000 + s, "periodic")).planted.epoch_matches)
    finding = next(f for f in detect(run.table()) if f.id == "curves.periodic_spikes")
    assert finding.values["period_steps"] == run.planted.period_steps
    assert finding.values["confidence"] == "high"
    # Same spikes, but the batch arithmetic says an epoch is 3x longer: say so, lower confidence.
    period = run.planted.period_steps or 0
    facts = RunFacts(
        {
            "num_examples": Fact(period * 3 * 32, "config:num_examples"),
            "micro_batch": Fact(32, "config:per_device_train_batch_size"),
        }
    )
    finding = next(f for f in detect(run.table(), facts) if f.id == "curves.periodic_spikes")
    assert finding.values["confidence"] == "medium"
    assert "does not match" in finding.summary
    assert finding.arithmetic is not None
    assert any("ceil" in line.formula for line in finding.arithmetic.lines)


def _table(columns: dict[str, np.ndarray], steps: np.ndarray) -> MetricTable:
    builder = TableBuilder("unit.jsonl")
    for name, values in columns.items():
        builder.add_columns(name, steps, values, np.arange(1, steps.size + 1))
    return builder.build()


def test_loss_scale_collapse_and_lr_schedule_checks() -> None:
    steps = np.arange(1, 201, dtype=np.int64)
    scale = 65536.0 / 2.0 ** np.minimum(np.arange(200) // 10, 16)
    lr = np.where(steps < 60, 1e-4 * (1 - steps / 60), 0.0)
    loss = 2.0 + 0.01 * np.sin(steps)
    found = {
        f.id: f
        for f in detect(_table({"loss": loss, "loss_scale": scale, "learning_rate": lr}, steps))
    }
    assert found["curves.loss_scale_collapse"].values["lowest"] == 1.0
    decay = found["curves.lr_decay_early"]
    assert decay.values["schedule_end_step"] == 60 and decay.values["run_end_step"] == 200
    facts = RunFacts({"warmup_steps": Fact(100, "args:warmup_steps")})
    flat_lr = np.full(200, 1e-4)
    found = {
        f.id: f for f in detect(_table({"loss": loss, "learning_rate": flat_lr}, steps), facts)
    }
    assert "curves.lr_no_warmup" in found
    found = {f.id: f for f in detect(_table({"loss": loss, "learning_rate": 0 * flat_lr}, steps))}
    assert {"curves.lr_zero", "curves.plateau"} <= set(found)


def test_grad_norm_spike_before_loss_spike_is_reported() -> None:
    rng = np.random.default_rng(7)
    steps = np.arange(1, 501, dtype=np.int64)
    loss = np.exp(np.log(1.0 + 3 * np.exp(-steps / 100)) + rng.normal(0, 0.02, 500))
    grad = np.exp(rng.normal(0, 0.1, 500))
    grad[297] *= 40
    loss[299:303] *= [6.0, 3.0, 1.5, 1.1]
    found = {f.id: f for f in detect(_table({"loss": loss, "grad_norm": grad}, steps))}
    lead = found["curves.grad_norm_before_spike"]
    assert lead.values == {"grad_step": 298, "loss_step": 300, "lead_steps": 2}


@pytest.mark.parametrize("window", [1, 2, 3, 16, 31, 33])
def test_trailing_statistics_match_their_definition(window: int) -> None:
    """The doubling minimum and the on-demand median equal the plain sliding-window ones."""
    values = np.random.default_rng(window).normal(size=500)
    padded = np.concatenate([np.full(window, values[0]), values[:-1]])
    windows = np.lib.stride_tricks.sliding_window_view(padded, window)
    assert np.array_equal(trailing_min(values, window), windows.min(axis=1))
    at = np.array([0, 1, 7, 250, 499])
    assert np.array_equal(trailing_median_at(values, window, at), np.median(windows[at], axis=1))
