"""A CheckpointReport as Markdown or JSON (pure functions: report in, text out)."""

from __future__ import annotations

import json

from trainwreck.checkpoints.model import Checkpoint, CheckpointReport

_STATUS_WORDS = {
    "ok": "healthy",
    "non_finite": "NaN/Inf in tensors",
    "truncated": "truncated",
    "corrupt": "corrupt",
    "unchecked": "not checked",
}


def _detail(checkpoint: Checkpoint) -> str:
    """The first file that is not healthy, and why; else how many tensors were checked."""
    for check in checkpoint.files:
        if check.status != "ok":
            return f"{check.path.rsplit('/', 1)[-1]}: {check.reason}".replace("|", "\\|")
    return f"{sum(c.tensors for c in checkpoint.files)} tensors finite"


def as_markdown(report: CheckpointReport) -> str:
    lines = [f"# Checkpoints in {report.directory}", ""]
    resume = report.resume
    if resume is not None:
        lines += [
            f"**Resume from** `{resume.checkpoint}` (step {resume.step})",
            "",
            "```python",
            resume.command,
            "```",
            f"Source: {resume.citation.url} ({resume.citation.detail})",
            "",
            f"## {resume.arithmetic.title}",
            "",
            "| what | value | source |",
            "|---|---|---|",
            *(f"| {a.label} | {a.value} | {a.source} |" for a in resume.arithmetic.lines),
            "",
            resume.arithmetic.result,
            "",
        ]
    elif report.bad_step is not None:
        bad = report.bad_step
        lines += [
            f"First non-finite {bad.metric}: {bad.value} at step {bad.step} ({bad.source})",
            "",
        ]
    lines += [
        "## Every checkpoint",
        "",
        "| step | checkpoint | framework | status | detail |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {c.step if c.step is not None else '?'} | {c.path} | {c.framework} | "
        f"{_STATUS_WORDS[c.status]} | {_detail(c)} |"
        for c in report.checkpoints
    ]
    lines += ["", *(f"Note: {note}" for note in report.notes)]
    return "\n".join(lines).rstrip() + "\n"


def as_json(report: CheckpointReport) -> str:
    return json.dumps(report.model_dump(mode="json"), indent=2) + "\n"
