"""`trainwreck checkpoints`: bad input is one line and exit 2; a result is exit 0."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import assert_one_line_error, run

safetensors_numpy = pytest.importorskip("safetensors.numpy")
np = pytest.importorskip("numpy")


def test_a_missing_directory(tmp_path: Path) -> None:
    assert_one_line_error(run("checkpoints", str(tmp_path / "nowhere")))


def test_a_file_instead_of_a_directory(tmp_path: Path) -> None:
    path = tmp_path / "model.safetensors"
    path.write_bytes(b"")
    assert_one_line_error(run("checkpoints", str(path)))


def test_a_directory_without_checkpoints(tmp_path: Path) -> None:
    (tmp_path / "train.log").write_text("step 1 loss 2.0\n")
    done = run("checkpoints", str(tmp_path))
    assert_one_line_error(done)
    assert "no checkpoints found" in done.stderr


def test_a_checkpoint_gives_exit_0(tmp_path: Path) -> None:
    weights = {"w": np.ones((2, 2), dtype=np.float32)}
    safetensors_numpy.save_file(weights, str(tmp_path / "step_100.safetensors"))
    done = run("checkpoints", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "step_100.safetensors` (step 100)" in done.stdout
