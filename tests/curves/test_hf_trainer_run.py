"""A real Hugging Face Trainer run on the CPU, diagnosed from the files it wrote.

The Trainer's printed log and its trainer_state.json are the evidence; a learning
rate 3000x the healthy one must show as divergence, the healthy run as nothing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck import diagnose

pytest.importorskip("transformers")
pytest.importorskip("accelerate")  # the Trainer needs it
SCRIPT = Path(__file__).parent / "fixtures" / "train_hf_trainer.py"


def _train(tmp_path: Path, learning_rate: str) -> tuple[Path, Path]:
    run = tmp_path / f"run-lr{learning_rate}"
    log = tmp_path / f"train-lr{learning_rate}.log"
    with log.open("w") as out:
        subprocess.run(
            [sys.executable, str(SCRIPT), str(run), learning_rate],
            stdout=out,
            stderr=subprocess.STDOUT,
            check=True,
            timeout=300,
        )
    (state,) = sorted(run.glob("checkpoint-*/trainer_state.json"))[-1:]
    return log, state


def _curve_findings(paths: list[Path]) -> set[str]:
    diagnosis = diagnose([str(path) for path in paths])
    return {f.id for f in diagnosis.findings if f.id.startswith(("loss.", "curves."))}


def test_too_high_learning_rate_diverges_in_log_and_trainer_state(tmp_path: Path) -> None:
    log, state = _train(tmp_path, "3.0")
    for evidence in ([log], [state]):
        diagnosis = diagnose([str(path) for path in evidence])
        assert "loss.diverged" in {f.id for f in diagnosis.findings}, evidence
        assert diagnosis.hypotheses[0].id == "loss-divergence-high-learning-rate"


def test_healthy_run_raises_no_curve_alarm(tmp_path: Path) -> None:
    log, state = _train(tmp_path, "0.001")
    assert _curve_findings([log]) == set()
    assert _curve_findings([state]) == set()
