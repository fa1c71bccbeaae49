"""Oscillation and clipping detectors: the values and arithmetic they report, and where the
clipping threshold comes from (a real config file read by `trainwreck curves`)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from helpers import run
from trainwreck.curves.detect import detect
from trainwreck.curves.facts import Fact, RunFacts
from trainwreck.curves.table import TableBuilder
from trainwreck.model import MetricTable


def _table(columns: dict[str, np.ndarray], steps: np.ndarray) -> MetricTable:
    builder = TableBuilder("metrics.jsonl")
    lines = np.arange(1, steps.size + 1, dtype=np.int64)
    for name, values in columns.items():
        builder.add_columns(name, steps, values, lines)
    return builder.build()


def _decaying_loss(rng: np.random.Generator, n: int) -> np.ndarray:
    return np.log(1.5 + 3 * np.exp(-np.arange(n) / (n / 5))) + rng.normal(0, 0.03, n)


def test_alternating_loss_is_an_oscillation_with_its_onset_and_swing() -> None:
    rng = np.random.default_rng(7)
    n, onset = 600, 240
    log_loss = _decaying_loss(rng, n)
    log_loss[onset:] += 0.5 * math.log(1.6) * np.where(np.arange(n - onset) % 2, 1, -1)
    steps = np.arange(1, n + 1, dtype=np.int64) * 10
    found = {f.id: f for f in detect(_table({"loss": np.exp(log_loss)}, steps))}
    assert set(found) == {"curves.oscillation"}  # its highs are not reported as spikes
    finding = found["curves.oscillation"]
    assert abs(int(finding.values["step"]) - int(steps[onset])) <= 40  # type: ignore[arg-type]
    assert finding.values["half_period_points"] == 1
    assert 1.45 <= float(finding.values["swing_ratio"]) <= 1.75  # type: ignore[arg-type]
    assert float(finding.values["lag_correlation"]) <= -0.75  # type: ignore[arg-type]
    assert finding.arithmetic is not None and len(finding.arithmetic.lines) == 5


def test_noise_as_large_as_the_swing_is_not_an_oscillation() -> None:
    rng = np.random.default_rng(8)
    log_loss = _decaying_loss(rng, 800) + rng.normal(0, 0.25, 800)
    steps = np.arange(1, 801, dtype=np.int64)
    assert not [f for f in detect(_table({"loss": np.exp(log_loss)}, steps)) if "oscill" in f.id]


def test_clipping_always_and_never_reached() -> None:
    rng = np.random.default_rng(9)
    n = 300
    steps = np.arange(1, n + 1, dtype=np.int64)
    columns = {"loss": np.exp(_decaying_loss(rng, n)), "grad_norm": np.exp(rng.normal(1, 0.2, n))}
    table = _table(columns, steps)
    lowest, highest = float(columns["grad_norm"].min()), float(columns["grad_norm"].max())

    def clipping(threshold: float) -> dict[str, object] | None:
        facts = RunFacts({"max_grad_norm": Fact(threshold, "args.json:max_grad_norm")})
        found = [f for f in detect(table, facts) if f.id == "curves.clipping"]
        return dict(found[0].values) if found else None

    always = clipping(lowest * 0.9)
    assert always is not None and always["mode"] == "always" and always["clipped_share"] == 1.0
    never = clipping(highest * 1.2)
    assert never is not None and never["mode"] == "never"
    assert never["max_grad_norm_seen"] == highest
    assert clipping(float(np.median(columns["grad_norm"]))) is None  # clipped some steps: fine
    assert clipping(0.0) is None  # 0 disables clipping in the HF Trainer


def test_curves_command_reads_the_threshold_from_a_config(tmp_path: Path) -> None:
    rows = [
        {"step": i, "loss": 2.0 / math.sqrt(i), "grad_norm": 3.0 + (i % 7) / 10}
        for i in range(1, 101)
    ]
    metrics = tmp_path / "metrics.jsonl"
    metrics.write_text("".join(json.dumps(row) + "\n" for row in rows))
    config = tmp_path / "args.json"
    config.write_text(json.dumps({"max_grad_norm": 1.0, "learning_rate": 1e-4}))
    result = run("curves", str(metrics), "--config", str(config), "--format", "json")
    assert result.returncode == 0, result.stderr
    (source,) = json.loads(result.stdout)["sources"]
    (clip,) = [f for f in source["findings"] if f["id"] == "curves.clipping"]
    assert clip["values"]["mode"] == "always"
    assert any(
        line["source"].endswith("args.json:max_grad_norm") for line in clip["arithmetic"]["lines"]
    )
