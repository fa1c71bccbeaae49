"""Torch files are only loaded through the weights-only unpickler: checked, never run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from trainwreck.checkpoints import inspect_checkpoints
from trainwreck.checkpoints.find import step_from_name
from trainwreck.checkpoints.torch_file import check_torch_file

torch = pytest.importorskip("torch")


class Touches:
    """A pickle that creates a file when fully unpickled."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Path.touch, (self.marker,))


def test_a_pickle_that_needs_a_global_is_refused_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    path = tmp_path / "hparams.ckpt"
    torch.save({"state_dict": {"w": torch.ones(2)}, "hparams": Touches(marker)}, path)
    check, loaded = check_torch_file(str(path))
    assert check.status == "unchecked", check
    assert loaded is None
    assert not marker.exists()


def test_nan_in_a_nested_optimizer_state_is_named(tmp_path: Path) -> None:
    model = torch.nn.Linear(3, 2)
    optimizer = torch.optim.Adam(model.parameters())
    model(torch.ones(1, 3)).sum().backward()
    optimizer.step()
    state = optimizer.state_dict()
    state["state"][1]["exp_avg_sq"][0] = float("inf")
    path = tmp_path / "ckpt_step_40.pt"
    torch.save({"model": model.state_dict(), "optimizer": state, "step": 40}, path)
    check, _ = check_torch_file(str(path))
    assert (check.status, check.bad_tensor, check.inf_count) == (
        "non_finite",
        "optimizer.state.1.exp_avg_sq",
        1,
    )


def test_plain_files_resume_from_the_newest_healthy_one(tmp_path: Path) -> None:
    model = torch.nn.Linear(3, 2)
    for step in (10, 20, 30):
        torch.save(model.state_dict(), tmp_path / f"model_step{step}.pt")
    last = tmp_path / "model_step30.pt"
    os.truncate(last, last.stat().st_size // 2)
    report = inspect_checkpoints(str(tmp_path))
    assert [c.status for c in report.checkpoints] == ["ok", "ok", "truncated"]
    assert report.resume is not None and report.resume.step == 20
    assert report.resume.command.startswith("model.load_state_dict(")


@pytest.mark.parametrize(
    ("name", "step"),
    [
        ("epoch=2-step=300.ckpt", 300),
        ("ckpt_1200.pt", 1200),
        ("model-500.safetensors", 500),
        ("global_step70.pth", 70),
        ("model.safetensors", None),
    ],
)
def test_the_step_in_a_file_name(name: str, step: int | None) -> None:
    assert step_from_name(name) == step


def test_a_file_that_cannot_be_checked_does_not_rule_out_its_checkpoint(tmp_path: Path) -> None:
    """An HF folder whose optimizer state needs a global: the weights decide, with a note."""
    safetensors_torch = pytest.importorskip("safetensors.torch")
    folder = tmp_path / "checkpoint-50"
    folder.mkdir()
    safetensors_torch.save_file({"w": torch.ones(2)}, str(folder / "model.safetensors"))
    torch.save({"extra": Touches(tmp_path / "ran")}, folder / "optimizer.pt")
    report = inspect_checkpoints(str(tmp_path))
    assert report.checkpoints[0].status == "unchecked"
    assert report.resume is not None and report.resume.step == 50
    assert any("optimizer.pt" in note for note in report.notes)
    assert not (tmp_path / "ran").exists()
