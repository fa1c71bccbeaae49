"""Case-memory records diagnosed as new runs: how pages written from clusters are tested.

Each record's evidence is written to a log and diagnosed with its symptoms and the case
memory switched off, so a page is shown to name the records it was written from on
its own, not by recognising them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from trainwreck import diagnose
from trainwreck.cases import load_memory

BUNDLED = Path(__file__).parents[2] / "src" / "trainwreck" / "cases" / "data" / "bundled.jsonl"


@cache
def records() -> dict[str, dict[str, str]]:
    """The bundled store's records by id."""
    with BUNDLED.open(encoding="utf-8") as handle:
        return {row["id"]: row for row in map(json.loads, handle)}


def hypothesis_ids(tmp_path: Path, evidence: str, symptoms: str | None) -> list[str]:
    """The shown hypotheses' ids, best first, for `evidence` as a log and `symptoms`."""
    log = tmp_path / "evidence.log"
    log.write_text(evidence + "\n", encoding="utf-8")
    found = diagnose([str(log)], symptoms=symptoms, cases=load_memory(bundled=False))
    return [h.id for h in found.hypotheses]


def record_hypothesis_ids(tmp_path: Path, record: str) -> list[str]:
    """The shown hypotheses' ids for one record's evidence and symptoms."""
    row = records()[record]
    return hypothesis_ids(tmp_path, row["evidence"], row.get("symptoms"))
