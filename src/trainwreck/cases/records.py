"""A case record: one confirmed real failure, as the case memory keeps it.

Records are data, one JSON object per line (`data/bundled.jsonl` for the public
threads the project collected; a team's local store for `learn`). Each says
where it came from and who confirmed the cause, so a match in a report can be
checked by reading the thread.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from trainwreck.errors import KnowledgeBaseError
from trainwreck.model import Category, Frozen

BUNDLED = Path(__file__).parent / "data" / "bundled.jsonl"
# How reports, hypotheses and citations name a record: `case:<id>`.
CASE_PREFIX = "case:"
_THREAD = re.compile(r"github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull|discussions)/(\d+)")

# Who established the cause: a maintainer's answer, a merged fix, the reporter after
# verifying a suggested fix, the thread without saying which of those (records made
# from the project's case folders, whose `source` thread holds the confirmation), a
# CPU reproduction run by the project, or a team's own resolved incident (`learn`).
ConfirmedBy = Literal["maintainer", "fix", "reporter", "thread", "reproduction", "team"]


class CaseRecord(Frozen):
    """One confirmed failure: the evidence lines that identify it, its cause and fix."""

    id: str
    source: str
    fix_url: str | None = None
    confirmed_by: ConfirmedBy
    category: Category
    frameworks: dict[str, str | None] = Field(default_factory=dict)
    hardware: str | None = None
    symptoms: str | None = None
    evidence: str
    cause: str
    fix: str | None = None
    page: str | None = None
    # How the record was collected, so the set can be extended the same way.
    collected: str


def read_records(path: Path) -> list[CaseRecord]:
    """Every record in a JSONL file; a bad line names its file and line number."""
    records = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:  # pydantic's own JSON reader: about twice as fast as json.loads, then validating
                records.append(CaseRecord.model_validate_json(line))
            except ValidationError as error:
                first = error.errors()[0]
                where = ".".join(str(part) for part in first["loc"])
                why = f"{where}: {first['msg']}" if where else first["msg"]
                raise KnowledgeBaseError(f"{path}:{number}: not a case record: {why}") from None
    return records


def dump_records(records: Iterable[CaseRecord]) -> Iterator[str]:
    """JSONL lines for records: one object per line, keys in the model's order."""
    for record in records:
        yield json.dumps(record.model_dump(), ensure_ascii=False) + "\n"


def thread_label(url: str) -> str:
    """`owner/repo#123` for a GitHub thread, else the URL."""
    match = _THREAD.search(url)
    return f"{match.group(1)}#{match.group(2)}" if match else url


def thread_key(url: str) -> str:
    """A thread's identity for deduplication: its label, case-folded."""
    return thread_label(url.strip()).lower()


def is_web(url: str) -> bool:
    """Only web links become links: a `javascript:` or `file:` URL, a path or an
    incident name stays text."""
    return url.startswith(("https://", "http://"))


def source_label(source: str, record_id: str) -> str:
    """How a report names a record: `owner/repo#123` for a thread, else `case:<id>`.

    A reproduction or a team's incident has no thread; its id says more than a path, and
    the `case:` prefix makes it a citation (the answer checker counts `[case:id]` as one).
    """
    return thread_label(source) if is_web(source) else f"{CASE_PREFIX}{record_id}"
