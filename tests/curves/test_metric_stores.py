"""MLflow runs and TensorBoard event files, written by the real libraries, diagnosed end to end."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import assert_one_line_error, run
from trainwreck import diagnose
from trainwreck.curves.stores import TENSORBOARD_MISSING
from trainwreck.pipeline import examine

LOG_MLFLOW = Path(__file__).parent / "fixtures" / "log_mlflow.py"


def _mlflow_run(folder: Path, uri: str) -> None:
    pytest.importorskip("mlflow")
    # MLflow 3 refuses its file store unless asked; users of older runs have such folders.
    env = {**os.environ, "MLFLOW_ALLOW_FILE_STORE": "true"}
    subprocess.run(
        [sys.executable, str(LOG_MLFLOW), uri],
        cwd=folder,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )


def _first_nan(paths: list[Path]) -> tuple[int, str]:
    diagnosis = diagnose([str(path) for path in paths])
    finding = next(f for f in diagnosis.findings if f.id == "curves.non_finite_order")
    first = next(f for f in diagnosis.findings if f.id == "grad_norm.non_finite")
    assert isinstance(first.values["step"], int)
    return first.values["step"], finding.summary


@pytest.mark.parametrize("uri", ["file:./mlruns", "sqlite:///mlflow.db"], ids=["files", "sqlite"])
def test_mlflow_run_is_read_from_its_store(tmp_path: Path, uri: str) -> None:
    _mlflow_run(tmp_path, uri)
    store = tmp_path / ("mlruns" if uri.startswith("file") else "mlflow.db")
    step, order = _first_nan([store])
    assert step == 69  # the inf planted in grad_norm one step before the loss NaN
    assert order.startswith("first non-finite: grad_norm at step 69")
    evidence, _ = examine([str(store)])
    params = [c for c in evidence.configs if c.source.endswith("/params")]
    assert [c.values["learning_rate"] for c in params] == [2e-5]


def test_tensorboard_events_from_torch_summary_writer(tmp_path: Path) -> None:
    pytest.importorskip("tensorboard")
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(tmp_path / "runs"))
    for step in range(1, 101):
        writer.add_scalar("train/loss", 2.0 - step / 100 if step < 70 else math.nan, step)
        writer.add_scalar("train/grad_norm", math.inf if step == 69 else 1.0, step)
    writer.close()
    step, _ = _first_nan([tmp_path / "runs"])
    assert step == 69
    curves = run("curves", str(tmp_path / "runs"))
    assert curves.returncode == 0 and "grad_norm became non-finite" in curves.stdout

    hide = (
        "import sys; sys.modules['tensorboard'] = None; from trainwreck.cli.app import main; main()"
    )
    for command in ("diagnose", "curves"):  # the event file was all there was: say what to install
        without = subprocess.run(
            [sys.executable, "-c", hide, command, str(tmp_path / "runs")], capture_output=True
        )
        result = subprocess.CompletedProcess(
            without.args, without.returncode, without.stdout.decode(), without.stderr.decode()
        )
        assert_one_line_error(result)
        assert TENSORBOARD_MISSING in result.stderr
