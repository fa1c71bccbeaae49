"""A Triage as JSON or as a Markdown table: formatting only, the fold decided the content."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from trainwreck.redact import redact
from trainwreck.triage.group import Group, Triage


def _when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="seconds")


def _frameworks(group: Group) -> dict[str, list[str]]:
    return {name: sorted(versions) for name, versions in sorted(group.frameworks.items())}


def _group_json(group: Group) -> dict[str, object]:
    return {
        "id": group.id,
        "cause": group.cause,
        "count": group.count,
        "runs": group.runs,
        "first_seen": _when(group.first_seen),
        "last_seen": _when(group.last_seen),
        "fix": group.fix,
        "frameworks": _frameworks(group),
        "confidence": dict(sorted(group.confidence.items())),
        "new": group.new,
    }


def to_json(triage: Triage) -> str:
    data = {
        "groups": [_group_json(group) for group in triage.groups],
        "runs": triage.runs,
        "failed_to_read": triage.failed_to_read,
        "failed_count": triage.failed_count,
    }
    return redact(json.dumps(data, indent=2)) + "\n"


def _cell(text: str | None) -> str:
    return (text or "").replace("|", "\\|").replace("\n", " ")


def _row(group: Group) -> str:
    versions = ", ".join(f"{n} {'/'.join(v)}" for n, v in _frameworks(group).items())
    mark = " **new**" if group.new else ""
    cells = (
        f"`{group.id}`{mark}",
        _cell(group.cause),
        str(group.count),
        f"{_when(group.first_seen)} to {_when(group.last_seen)}",
        _cell(versions),
        _cell(group.fix),
        _cell(group.runs[0]) + (f" (+{group.count - 1})" if group.count > 1 else ""),
    )
    return "| " + " | ".join(cells) + " |"


def to_markdown(triage: Triage) -> str:
    lines = [
        f"# Triage: {triage.runs} runs, {len(triage.groups)} causes",
        "",
        "| cause id | cause | runs | first to last seen (UTC) | frameworks | fix | example |",
        "|---|---|---|---|---|---|---|",
        *(_row(group) for group in triage.groups),
    ]
    if triage.failed_count:
        lines += ["", f"{triage.failed_count} run(s) could not be read:"]
        lines += [
            f"- {_cell(item['run'])}: {_cell(item['reason'])}" for item in triage.failed_to_read
        ]
    return redact("\n".join(lines)) + "\n"
