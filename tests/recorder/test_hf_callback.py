"""TrainwreckCallback inside real transformers Trainer runs on the CPU: one record per logged
step, equal to what the Trainer itself logged; a NaN reaches the diagnosis at its step; a
failing callback warns once and the training finishes."""

from __future__ import annotations

import importlib.util
import json
import math
import signal
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from trainwreck.pipeline import diagnose, examine

pytest.importorskip("accelerate")  # the Trainer needs it
hf_callback = pytest.importorskip("trainwreck.recorder.hf_callback")
transformers = pytest.importorskip("transformers")

# The checkpoint tests' real Trainer run: a linear regression, one row per step, in order,
# with an inf in row BAD_ROW, so step BAD_ROW + 1 logs a NaN loss.
FIXTURE = Path(__file__).parents[1] / "checkpoints" / "fixtures" / "train_nan_at_step.py"
BAD_ROW = 6
STEPS = 10
RAISE_ON_WRITE = 3  # the write that raises in the failing-callback test


def _fixture() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_nan_at_step", FIXTURE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _train(tmp_path: Path, callback: Any, bad_row: int, logging_steps: int) -> Any:
    """A real Trainer run of STEPS steps with `callback`; returns the Trainer."""
    fixture = _fixture()
    args = transformers.TrainingArguments(
        output_dir=str(tmp_path / "trainer"),
        max_steps=STEPS,
        save_strategy="no",
        logging_steps=logging_steps,
        logging_nan_inf_filter=False,
        per_device_train_batch_size=1,
        report_to="none",
        use_cpu=True,
        seed=0,
        disable_tqdm=True,
    )
    rows = fixture.Rows(bad_row, STEPS + 1)
    trainer = transformers.Trainer(
        model=fixture.Regression(), args=args, train_dataset=rows, callbacks=[callback]
    )
    trainer.train()
    return trainer


def _records(path: Path) -> list[dict[str, float]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_nan_is_recorded_at_its_step_and_diagnosed_as_the_onset(tmp_path: Path) -> None:
    out = tmp_path / "recorded"
    callback = hf_callback.TrainwreckCallback(out=str(out))
    _train(tmp_path, callback, BAD_ROW, logging_steps=1)

    records = _records(out / "recorder-rank0.jsonl")
    assert [r["step"] for r in records] == list(range(1, STEPS + 1))
    assert all(math.isfinite(r["loss"]) for r in records[:BAD_ROW])
    assert math.isnan(records[BAD_ROW]["loss"])
    assert callback.recorder.first_nonfinite_step == BAD_ROW + 1
    assert all(r["step_time_s"] > 0 and "learning_rate" in r for r in records)
    assert all("data_wait_s" in r for r in records[1:])  # the first step has no step before

    onsets = [f for f in diagnose([str(out)]).findings if f.id == "loss.non_finite"]
    assert [f.values["step"] for f in onsets] == [BAD_ROW + 1]


def test_only_logged_steps_are_recorded_with_the_trainers_own_values(tmp_path: Path) -> None:
    out = tmp_path / "recorded"
    callback = hf_callback.TrainwreckCallback(out=str(out))
    trainer = _train(tmp_path, callback, bad_row=STEPS, logging_steps=3)  # no bad row reached

    records = _records(out / "recorder-rank0.jsonl")
    logged = [entry for entry in trainer.state.log_history if "loss" in entry]
    assert [r["step"] for r in records] == [entry["step"] for entry in logged] == [3, 6, 9]
    for record, entry in zip(records, logged, strict=True):
        for key in ("loss", "learning_rate", "grad_norm"):
            assert record[key] == pytest.approx(entry[key]), key

    evidence, _ = examine([str(out)])
    (table,) = evidence.metrics
    assert len(table.series["loss"].values) == len(records)
    assert set(table.series) >= {"loss", "learning_rate", "grad_norm"}


def test_a_raising_callback_warns_once_and_training_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = 0
    write = hf_callback.Recorder.write

    def failing_write(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == RAISE_ON_WRITE:
            raise RuntimeError("planted failure")
        write(self, *args, **kwargs)

    monkeypatch.setattr(hf_callback.Recorder, "write", failing_write)
    before = signal.getsignal(signal.SIGTERM)
    out = tmp_path / "recorded"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trainer = _train(tmp_path, hf_callback.TrainwreckCallback(out=str(out)), STEPS, 1)

    assert trainer.state.global_step == STEPS
    ours = [w for w in caught if "TrainwreckCallback" in str(w.message)]
    assert len(ours) == 1 and "planted failure" in str(ours[0].message)
    assert calls == RAISE_ON_WRITE  # disabled: no write after the failing one
    assert [r["step"] for r in _records(out / "recorder-rank0.jsonl")] == [1, 2]
    assert signal.getsignal(signal.SIGTERM) == before  # disabling closed it: handler given back
