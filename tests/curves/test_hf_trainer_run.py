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


def test_rate_far_above_the_cited_lora_recipe_is_named_with_its_source(tmp_path: Path) -> None:
    """The Trainer's own file, beside a config naming a 7B LoRA run: 3.0 is 15000x the prior."""
    _, state = _train(tmp_path, "3.0")
    config = tmp_path / "lora.yaml"
    config.write_text(
        "model_name_or_path: meta-llama/Llama-2-7b-hf\nlora_r: 16\nlora_alpha: 32\n"
        "load_in_4bit: true\nlearning_rate: 3.0\n"
    )
    diagnosis = diagnose([str(state)], config_files=[str(config)])
    (finding,) = [f for f in diagnosis.findings if f.id == "curves.lr_above_prior"]
    assert finding.values["prior_id"] == "lr-qlora-7b"
    assert finding.arithmetic is not None
    sources = {line.label: line.source for line in finding.arithmetic.lines}
    assert sources["prior"].startswith("https://github.com/artidoro/qlora/blob/")
    assert sources["training method"].endswith("lora.yaml:lora_r, " + str(config) + ":load_in_4bit")
    assert diagnosis.hypotheses[0].id == "loss-divergence-high-learning-rate"
    healthy = diagnose([str(_train(tmp_path, "0.0002")[1])], config_files=[str(config)])
    assert "curves.lr_above_prior" not in {f.id for f in healthy.findings}


def test_healthy_run_raises_no_curve_alarm(tmp_path: Path) -> None:
    log, state = _train(tmp_path, "0.001")
    assert _curve_findings([log]) == set()
    assert _curve_findings([state]) == set()
