"""The auditor over reports on real failures: ≥ 200 generated from the case memory.

Each bundled record's evidence is diagnosed as a new failure (its record left
out of the memory) and the report audited. The default run audits an even
sample; `-m slow` audits every record. Every rule must hold on each.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from audit_corpus import FAST_SAMPLE, generated_report, records, sample

from trainwreck.report.audit import Audited, audit
from trainwreck.report.audit.ranking import hypotheses_in_order

RECORDS = records()


def _audit_all(chosen: list[dict[str, object]], folder: Path) -> tuple[list[str], list[str]]:
    """(ranking violations, all violations) over the chosen records' reports."""
    ranking, everything = [], []
    for record in chosen:
        diagnosis, markdown = generated_report(record, folder)
        report = Audited(diagnosis, markdown)
        ranking += [f"{record['id']}: {f}" for f in hypotheses_in_order(report)]
        everything += [f"{record['id']}: {f}" for f in audit(diagnosis, markdown)]
    return ranking, everything


def test_the_store_gives_enough_generated_reports() -> None:
    assert len(RECORDS) >= 200
    chosen = sample(RECORDS, FAST_SAMPLE)
    assert len(chosen) == FAST_SAMPLE and len({r["id"] for r in chosen}) == FAST_SAMPLE


def test_a_sample_of_generated_reports_passes_the_audit(tmp_path: Path) -> None:
    ranking, everything = _audit_all(sample(RECORDS, FAST_SAMPLE), tmp_path)
    assert ranking == []
    assert everything == []


@pytest.mark.slow
def test_every_generated_report_passes_the_audit(tmp_path: Path) -> None:
    ranking, everything = _audit_all(RECORDS, tmp_path)
    assert ranking == []
    assert everything == []
