"""The group ids of a previous triage's JSON, so a new triage can flag what is new."""

from __future__ import annotations

import json
from pathlib import Path

from trainwreck.errors import UsageError


def read_baseline(path: str) -> frozenset[str]:
    """Group ids of a `trainwreck triage --format json` file; anything else is bad input."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return frozenset(str(group["id"]) for group in data["groups"])
    except OSError as error:
        raise UsageError(f"cannot read baseline {path}: {error.strerror}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise UsageError(f"{path}: not a triage JSON file ({type(error).__name__})") from None
