"""Readers: every supported format to one step -> series table; messy input never raises."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from trainwreck.curves.readers import read_text
from trainwreck.curves.textlog import read_lines
from trainwreck.model import Gap, MetricTable

LOG = """\
{'loss': 2.5, 'grad_norm': 1.2, 'learning_rate': 5e-05, 'epoch': 0.1}
{'eval_loss': 2.2, 'eval_runtime': 1.0, 'epoch': 0.1}
{'loss': nan, 'grad_norm': inf, 'learning_rate': 4e-05, 'epoch': 0.2}
{'train_runtime': 10.0, 'train_loss': 1.5, 'epoch': 0.2}
"""
MEGATRON = (
    " iteration      100/    1000 | consumed samples:         3200 | elapsed time per "
    "iteration (ms): 123.4 | learning rate: 1.000E-04 | global batch size:    32 | lm loss: "
    "2.310000E+00 | loss scale: 65536.0 | grad norm: 1.234 | number of skipped iterations:   0 |"
)
OVERFLOW = (
    "[2024-01-01 10:00:00,123] [INFO] [deepspeed] OVERFLOW! Rank 0 Skipping step. "
    "Attempted loss scale: 65536, reducing to 32768"
)


def _table(result: MetricTable | Gap | None) -> MetricTable:
    assert isinstance(result, MetricTable), result
    return result


def test_hf_printed_dicts_count_logging_steps_and_skip_the_summary() -> None:
    table = _table(read_lines("train.log", enumerate(LOG.splitlines(), start=1)))
    assert table.series["loss"].steps.tolist() == [1, 2]
    assert math.isnan(table.series["loss"].values[1])
    assert table.series["eval_loss"].steps.tolist() == [1]
    assert np.isinf(table.series["grad_norm"].values[1])
    assert "no step numbers" in str(table.info["step_unit"])


def test_megatron_deepspeed_and_generic_lines() -> None:
    lines = [
        MEGATRON,
        OVERFLOW,
        "step=200 loss=1.5 lr=0.001",
        "Epoch 0: |  450/1000 [00:12<00:15, loss=1.23]",
    ]
    table = _table(read_lines("run.log", enumerate(lines, start=1)))
    assert table.series["loss"].steps.tolist() == [100, 200, 450]
    assert table.series["loss"].values.tolist() == [2.31, 1.5, 1.23]
    assert table.series["grad_norm"].values.tolist() == [1.234]
    assert table.series["loss_scale"].values.tolist() == [32768.0]  # the overflow at step 100 wins
    assert table.series["learning_rate"].values.tolist() == [1e-4, 1e-3]
    assert table.info["overflow_events"] == 1


def test_trainer_state_keeps_run_facts() -> None:
    state = {
        "global_step": 30,
        "max_steps": 30,
        "num_train_epochs": 3,
        "train_batch_size": 8,
        "log_history": [
            {"loss": 2.0, "learning_rate": 1e-4, "epoch": 1.0, "step": 10},
            {"eval_loss": 1.9, "epoch": 1.0, "step": 10},
            {"loss": float("nan"), "learning_rate": 5e-5, "epoch": 2.0, "step": 20},
        ],
    }
    table = _table(read_text("out/trainer_state.json", json.dumps(state)))
    assert table.info["max_steps"] == 30 and table.info["train_batch_size"] == 8
    assert table.series["loss"].steps.tolist() == [10, 20]
    assert table.series["eval_loss"].values.tolist() == [1.9]


def test_jsonl_with_truncated_line_strings_resume_and_infinity() -> None:
    rows = [{"step": s, "loss": 3.0 - s / 100, "time": 1000.0 + s} for s in range(1, 51)]
    rows += [{"step": s, "loss": 9.0} for s in range(40, 61)]  # resumed from step 40
    rows[5]["loss"] = "n/a"
    text = (
        "\n".join(json.dumps(r) for r in rows)
        + '\n{"step": 61, "loss": Infinity}\n{"step": 62, "lo'
    )
    table = _table(read_text("metrics.jsonl", text))
    loss = table.series["loss"]
    assert loss.steps.tolist() == [s for s in range(1, 62) if s != 6]
    assert loss.values[loss.steps.tolist().index(45)] == 9.0  # the latest segment wins
    assert np.isinf(loss.values[-1])
    assert any("logged more than once" in note for note in table.notes)
    assert any("not JSON objects" in note for note in table.notes)
    assert table.wall_seconds is not None and table.wall_seconds.values[0] == 1001.0


def test_lightning_csv_and_wandb_export() -> None:
    lightning = (
        "epoch,step,train_loss,val_loss\n0,49,2.0,\n0,49,,1.8\n1,99,1.5,\n1,99,,1.6\n2,149,1.2"
    )
    table = _table(read_text("lightning_logs/version_0/metrics.csv", lightning))
    assert table.series["loss"].steps.tolist() == [49, 99]
    assert table.series["eval_loss"].values.tolist() == [1.8, 1.6]
    assert any("wrong field count" in note for note in table.notes)
    wandb = 'Step,"run-7 - train/loss","run-7 - train/loss__MIN"\n1,2.5,2.4\n2,2.25,2.2\n'
    table = _table(read_text("wandb_export_2024.csv", wandb))
    assert set(table.series) == {"loss"}


def test_unreadable_inputs_become_gaps(tmp_path: Path) -> None:
    assert isinstance(read_text("m.json", "{not json"), Gap)
    assert isinstance(read_text("m.csv", "just a header\n"), Gap)
    assert isinstance(read_text("m.jsonl", '{"note": "no numbers"}\n'), Gap)


@pytest.mark.parametrize("step", ["1e400", "inf", "Infinity"])
def test_a_step_past_any_run_is_not_a_step(step: str) -> None:
    """Found by benchmarks/fuzz.py (seed 18): `int(float('1e400'))` raised OverflowError
    and the whole log's curve was lost; the line keeps its loss at the counted step."""
    lines = [f"{{'loss': 0.5, 'step': {step}}}", "{'loss': 0.4, 'step': 7}"]
    table = _table(read_lines("train.log", enumerate(lines, start=1)))
    assert table.series["loss"].values.tolist() == [0.5, 0.4]
    assert table.series["loss"].steps.tolist()[-1] == 7
