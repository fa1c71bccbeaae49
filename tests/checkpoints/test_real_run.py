"""Checkpoints a real HF Trainer run wrote on the CPU, then damaged as disks and NaNs do.

The run (fixtures/train_nan_at_step.py) logs a NaN loss and gradient norm at step 9 and
saves every 2 steps, so checkpoint-10 and -12 hold NaN weights of their own. One healthy
checkpoint then gets a NaN planted in a weight and another is cut short: the last good
one, saved before step 9, must be named with the command that resumes from it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run
from trainwreck.checkpoints import inspect_checkpoints

pytest.importorskip("transformers")
pytest.importorskip("accelerate")  # the Trainer needs it
safetensors_numpy = pytest.importorskip("safetensors.numpy")
SCRIPT = Path(__file__).parent / "fixtures" / "train_nan_at_step.py"
BAD_ROW, MAX_STEPS = 8, 12  # row 8 is the 9th step's batch


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "output"
    subprocess.run(
        [sys.executable, str(SCRIPT), str(out), str(BAD_ROW), str(MAX_STEPS)],
        capture_output=True,
        check=True,
        timeout=300,
    )
    return out


@pytest.fixture
def output(trained: Path, tmp_path: Path) -> Path:
    """A fresh copy of the run's output, for a test to damage."""
    return Path(shutil.copytree(trained, tmp_path / "output"))


def plant_nan(path: Path) -> str:
    """Rewrite a safetensors file with one value of its first tensor set to NaN."""
    tensors = safetensors_numpy.load_file(str(path))
    name = sorted(tensors)[0]
    tensors[name].reshape(-1)[0] = float("nan")
    safetensors_numpy.save_file(tensors, str(path), metadata={"format": "pt"})
    return name


def cut_short(path: Path, missing_bytes: int = 3) -> None:
    os.truncate(path, path.stat().st_size - missing_bytes)


def _by_step(output: Path) -> dict[int | None, str]:
    report = inspect_checkpoints(str(output))
    return {c.step: c.status for c in report.checkpoints}


def test_the_run_itself_goes_nan_at_step_9(output: Path) -> None:
    report = inspect_checkpoints(str(output))
    assert report.bad_step is not None
    assert (report.bad_step.step, report.bad_step.last_finite_step) == (9, 8)
    assert _by_step(output) == {
        2: "ok",
        4: "ok",
        6: "ok",
        8: "ok",
        10: "non_finite",
        12: "non_finite",
    }
    assert report.resume is not None
    assert report.resume.checkpoint == str(output / "checkpoint-8")


def test_planted_nan_and_truncated_file_leave_checkpoint_4(output: Path) -> None:
    planted = plant_nan(output / "checkpoint-6" / "model.safetensors")
    cut_short(output / "checkpoint-8" / "model.safetensors")
    report = inspect_checkpoints(str(output))
    by_step = {c.step: c for c in report.checkpoints}
    (weights,) = [f for f in by_step[6].files if f.path.endswith("model.safetensors")]
    assert (weights.status, weights.bad_tensor, weights.nan_count) == ("non_finite", planted, 1)
    assert by_step[8].status == "truncated"
    assert report.resume is not None
    assert report.resume.checkpoint == str(output / "checkpoint-4")
    assert report.resume.command == (
        f'trainer.train(resume_from_checkpoint="{output / "checkpoint-4"}")'
    )


def test_a_truncated_optimizer_state_is_caught_through_torch(output: Path) -> None:
    pytest.importorskip("torch")
    cut_short(output / "checkpoint-8" / "optimizer.pt", missing_bytes=200)
    report = inspect_checkpoints(str(output))
    (optimizer,) = [f for f in report.checkpoints[3].files if f.path.endswith("optimizer.pt")]
    assert optimizer.status == "truncated", optimizer
    assert report.resume is not None
    assert report.resume.step == 6


def test_the_cli_names_the_last_good_checkpoint(output: Path) -> None:
    plant_nan(output / "checkpoint-6" / "model.safetensors")
    cut_short(output / "checkpoint-8" / "model.safetensors")
    done = run("checkpoints", str(output), "--format", "json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["resume"]["checkpoint"] == str(output / "checkpoint-4")
    assert answer["bad_step"]["step"] == 9
    markdown = run("checkpoints", str(output))
    assert f"**Resume from** `{output / 'checkpoint-4'}` (step 4)" in markdown.stdout
