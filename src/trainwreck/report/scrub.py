"""The one place a Diagnosis is redacted before any renderer reads it."""

from __future__ import annotations

from typing import Any, cast

from trainwreck.model import Diagnosis
from trainwreck.redact import redact_data, redact_value


def scrub(diagnosis: Diagnosis) -> Diagnosis:
    """A copy of `diagnosis` with every secret replaced by a placeholder.

    Every string is redacted with its field name as context; a change's values
    are also read with the change's path as context, so a fix that shows the
    current `HF_TOKEN` or `WANDB_API_KEY` shows a placeholder instead.
    """
    data = cast(dict[str, Any], redact_data(diagnosis.model_dump()))
    for hypothesis in data["hypotheses"]:
        for fix in hypothesis["fixes"]:
            for change in fix["changes"]:
                for field in ("before", "after", "default"):
                    change[field] = _in_context(change["path"], change[field])
    return Diagnosis.model_validate(data)


def _in_context(path: str, value: object) -> object:
    if isinstance(value, str):
        return redact_value(path.removeprefix("env:").lstrip("-"), value)
    if isinstance(value, list):
        return [_in_context(path, item) for item in value]
    return value
