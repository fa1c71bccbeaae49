"""A real (tiny) training run on the CPU, with a planted bug, diagnosed from the files it wrote.

The same script runs twice: at a learning rate that trains (0.01) and at 10x that
(0.1), where SGD with momentum diverges. The healthy run must raise no curve
alarm; the buggy one must be found from its metrics.jsonl / metrics.csv alone.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck import diagnose

SCRIPT = Path(__file__).parent / "fixtures" / "train_mlp.py"
CURVE_IDS = ("curves.", "loss.diverged", "loss.non_finite", "grad_norm.non_finite")


def _train(lr: float, out: Path) -> Path:
    pytest.importorskip("torch")
    out.mkdir()
    subprocess.run([sys.executable, str(SCRIPT), str(lr), str(out)], check=True, timeout=300)
    return out


def test_learning_rate_ten_times_too_high_is_found_from_the_metric_files(tmp_path: Path) -> None:
    healthy = diagnose([str(_train(0.01, tmp_path / "healthy"))])
    assert [f.id for f in healthy.findings if f.id.startswith(CURVE_IDS)] == []

    broken = diagnose([str(_train(0.1, tmp_path / "lr-10x"))])
    diverged = [f for f in broken.findings if f.id == "loss.diverged"]
    assert len(diverged) == 1, "one finding although the run wrote JSONL and CSV"
    ratio = diverged[0].values["ratio"]
    assert isinstance(ratio, float) and ratio > 100
    assert diverged[0].evidence[0].source.endswith(("metrics.jsonl", "metrics.csv"))
    assert "loss-divergence-high-learning-rate" in [h.id for h in broken.hypotheses[:3]]
