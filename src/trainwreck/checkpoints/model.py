"""What `trainwreck checkpoints` found: each file's check, each checkpoint, the choice.

Frozen models like the rest of the library, so the CLI renders them and the JSON
output is their dump.
"""

from __future__ import annotations

from typing import Literal

from pydantic import computed_field

from trainwreck.model import Arithmetic, Citation
from trainwreck.model.base import Frozen

# ok: every tensor read and finite; non_finite: read, but a tensor holds NaN/Inf;
# truncated: the file ends before its own index says; corrupt: the index is inconsistent
# or the file does not load; unchecked: it cannot be checked safely here (no torch, or a
# pickle that needs more than tensors).
FileStatus = Literal["ok", "non_finite", "truncated", "corrupt", "unchecked"]
Framework = Literal["hf-trainer", "lightning", "plain"]


class FileCheck(Frozen):
    """One checkpoint file, tensor by tensor."""

    path: str
    status: FileStatus
    reason: str = ""
    tensors: int = 0
    # The first tensor holding a NaN or Inf, and the counts in it.
    bad_tensor: str | None = None
    nan_count: int = 0
    inf_count: int = 0


class Checkpoint(Frozen):
    """A checkpoint: an HF Trainer folder, a Lightning .ckpt, or a plain weights file."""

    path: str
    framework: Framework
    step: int | None
    step_source: str
    files: tuple[FileCheck, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def status(self) -> FileStatus:
        """The worst status of its files (a checkpoint is as good as its weakest file)."""
        order: tuple[FileStatus, ...] = ("truncated", "corrupt", "non_finite", "unchecked")
        for status in order:
            if any(check.status == status for check in self.files):
                return status
        return "ok"


class BadStep(Frozen):
    """The first step whose logged loss or gradient norm was not finite."""

    step: int
    metric: str
    value: str
    source: str
    last_finite_step: int | None


class Resume(Frozen):
    """The checkpoint to resume from, why, and how."""

    checkpoint: str
    step: int | None
    command: str
    citation: Citation
    arithmetic: Arithmetic


class CheckpointReport(Frozen):
    directory: str
    checkpoints: tuple[Checkpoint, ...]
    bad_step: BadStep | None
    resume: Resume | None
    # Why no checkpoint was chosen, or what limits the choice.
    notes: tuple[str, ...] = ()
