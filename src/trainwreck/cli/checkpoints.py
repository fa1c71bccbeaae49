"""`trainwreck checkpoints`: which checkpoint to resume from after a NaN or a crash."""

from __future__ import annotations

import os

import click

from trainwreck.checkpoints import inspect_checkpoints
from trainwreck.checkpoints.render import as_json, as_markdown
from trainwreck.cli.output import emit, markdown_or_json
from trainwreck.errors import UsageError
from trainwreck.redact import redact


@click.command("checkpoints")
@click.argument("directory")
@markdown_or_json
def checkpoints(directory: str, fmt: str) -> None:
    """Which checkpoint to resume from after a NaN or a crash.

    Checks every checkpoint under DIRECTORY (HF Trainer `checkpoint-<step>/` folders,
    Lightning `.ckpt`, plain `.pt`/`.pth`/`.safetensors` files): each tensor is read and
    tested for NaN/Inf (safetensors without torch; torch files only with
    `torch.load(weights_only=True)`, never a full unpickle), truncated files are named,
    and the step of each is set against the first non-finite loss or gradient norm in
    the run's metric history. Prints the last healthy checkpoint saved before it and
    the command that resumes from it.

    \b
    Examples:
      trainwreck checkpoints output/
      trainwreck checkpoints lightning_logs/version_0/checkpoints --format json
    """
    if not os.path.isdir(directory):
        why = "not a directory" if os.path.exists(directory) else "no such directory"
        raise UsageError(f"{directory}: {why}")
    report = inspect_checkpoints(directory)
    if not report.checkpoints:
        raise UsageError(f"no checkpoints found in {directory}")
    text = as_json(report) if fmt == "json" else as_markdown(report)
    emit(redact(text), None, markdown=fmt == "markdown")
