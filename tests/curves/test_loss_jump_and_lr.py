"""A tiny Llama trained at LR 5.0 (issue 18): the LR is fix 1, the step-2 jump is flagged.

Observed: fix 1 added warmup and kept LR 5.0; the 100x loss jump at step 2 (grad norm
0.9 → 804) was not flagged; the LR-above-recipe check needed `finetuning_type`. The run
is tests/fixes/fixtures/train_tiny_llama.py, trained here on the CPU; its config names
no training method.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from trainwreck import diagnose
from trainwreck.curves.jumps import JUMP_RATIO, loss_jump
from trainwreck.curves.table import TableBuilder
from trainwreck.model import MetricTable

TRAIN_SCRIPT = Path(__file__).parents[1] / "fixes" / "fixtures" / "train_tiny_llama.py"


def _train(run_dir: Path, log: Path, learning_rate: float) -> None:
    spec = importlib.util.spec_from_file_location("train_tiny_llama", TRAIN_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with log.open("w") as out:
        module.train(run_dir, learning_rate, out)


def test_lr_five_leads_with_the_learning_rate_and_flags_the_jump(tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    run_dir, log = tmp_path / "run", tmp_path / "train.log"
    _train(run_dir, log, 5.0)
    config = run_dir / "train_config.json"
    assert "finetuning_type" not in json.loads(config.read_text())
    report = diagnose([str(log)], config_files=[str(config)])
    top = report.hypotheses[0]
    assert top.id == "loss-divergence-high-learning-rate"
    assert top.fixes[0].action.startswith("Lower the peak learning rate itself: 5.0 is far above")
    found = {f.id: f for f in report.findings}
    assert "curves.lr_above_prior" in found
    jump = found["curves.loss_jump"]
    assert jump.values["step"] == 2 and isinstance(jump.values["ratio"], float)
    assert jump.values["ratio"] >= JUMP_RATIO and "grad norm" in jump.summary


def _table(losses: list[float]) -> MetricTable:
    steps = np.arange(1, len(losses) + 1, dtype=np.int64)
    builder = TableBuilder("unit.jsonl")
    builder.add_columns("loss", steps, np.array(losses, dtype=float), steps)
    return builder.build()


@pytest.mark.parametrize(("after", "flagged"), [(9.99, False), (10.0, True), (70.0, True)])
def test_a_jump_is_an_order_of_magnitude_in_one_step(after: float, flagged: bool) -> None:
    assert (loss_jump(_table([2.0, 1.0, after, 3.0])) is not None) is flagged


@pytest.mark.parametrize(("after", "flagged"), [(0.05, False), (0.5, False), (0.51, True)])
def test_a_jump_must_land_above_where_the_run_started(after: float, flagged: bool) -> None:
    # 0.001 → 0.5 is 500x but no higher than the first loss: late noise near zero
    assert (loss_jump(_table([0.5, 0.1, 0.001, after])) is not None) is flagged
