"""`trainwreck checkpoints DIR`: after a NaN or a crash, which checkpoint to resume from.

`find` lists the checkpoints and their steps, `safetensors` and `torch_file` check every
tensor (safetensors without torch; torch files only through the weights-only loader),
`history` finds the first non-finite loss or gradient norm the run logged, and `choose`
names the last healthy checkpoint saved before it, with the command that resumes from it.
"""

from __future__ import annotations

from trainwreck.checkpoints.choose import choose
from trainwreck.checkpoints.find import Found, find_checkpoints
from trainwreck.checkpoints.history import first_bad_step
from trainwreck.checkpoints.model import Checkpoint, CheckpointReport, FileCheck
from trainwreck.checkpoints.safetensors import check_safetensors
from trainwreck.checkpoints.torch_file import check_torch_file

__all__ = ["CheckpointReport", "inspect_checkpoints"]


def _check(found: Found) -> Checkpoint:
    """Check each file; a Lightning checkpoint's own `global_step` overrides its name."""
    checks: list[FileCheck] = []
    step, step_source = found.step, found.step_source
    for path in found.files:
        if path.endswith(".safetensors"):
            checks.append(check_safetensors(path))
            continue
        check, loaded = check_torch_file(path)
        checks.append(check)
        global_step = loaded.get("global_step") if isinstance(loaded, dict) else None
        if found.framework == "lightning" and isinstance(global_step, int):
            step, step_source = global_step, "checkpoint:global_step"
    return Checkpoint(
        path=found.path,
        framework=found.framework,
        step=step,
        step_source=step_source,
        files=tuple(checks),
    )


def _notes(checkpoints: list[Checkpoint], chosen: str | None) -> tuple[str, ...]:
    notes = []
    if chosen is None:
        notes.append("no checkpoint is both healthy and saved before the first bad step")
    unchecked = [
        f"{check.path}: {check.reason}"
        for c in checkpoints
        if c.path == chosen
        for check in c.files
        if check.status == "unchecked"
    ]
    notes.extend(f"not checked in the chosen checkpoint: {text}" for text in unchecked)
    if any(c.step is None for c in checkpoints):
        notes.append("checkpoints whose step is unknown cannot be placed against the history")
    return tuple(notes)


def inspect_checkpoints(directory: str) -> CheckpointReport:
    """Every checkpoint under `directory` checked, and the one to resume from.

    Raises nothing for a broken file (it is a status); the caller checks that the
    directory exists and that `checkpoints` is not empty.
    """
    found = find_checkpoints(directory)
    checkpoints = [_check(f) for f in found]
    checkpoints.sort(key=lambda c: (c.step is None, c.step or 0, c.path))
    bad = first_bad_step(directory, [f.state_file for f in found if f.state_file])
    resume = choose(checkpoints, bad)
    return CheckpointReport(
        directory=directory,
        checkpoints=tuple(checkpoints),
        bad_step=bad,
        resume=resume,
        notes=_notes(checkpoints, resume.checkpoint if resume else None) if checkpoints else (),
    )
