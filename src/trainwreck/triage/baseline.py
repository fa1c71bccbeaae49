"""The group ids of a previous triage's JSON, so a new triage can flag what is new."""

from __future__ import annotations

import json
from pathlib import Path

from trainwreck.errors import UsageError


def group_ids(data: object) -> frozenset[str]:
    """The group ids of a parsed triage JSON; KeyError/TypeError when it is not one."""
    return frozenset(str(group["id"]) for group in data["groups"])  # type: ignore[index]


def read_baseline(path: str) -> frozenset[str]:
    """Group ids of a `trainwreck triage --format json` file; anything else is bad input."""
    try:
        return group_ids(json.loads(Path(path).read_text(encoding="utf-8")))
    except OSError as error:
        raise UsageError(f"cannot read baseline {path}: {error.strerror}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise UsageError(f"{path}: not a triage JSON file ({type(error).__name__})") from None
