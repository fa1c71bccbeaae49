"""Real reports for the auditor: the case suite's, and ones generated from the case memory.

The Markdown is the full report (`--full`): the short default shows a subset of it.
A generated report is the pipeline run on a bundled record's evidence (written to
a log file) and symptoms, with the record itself left out of the case memory,
so each one is a report on a real failure the tool has not seen.
Run as a script to write every violation: `python tests/report/audit_corpus.py OUT`.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from functools import cache
from importlib.resources import files
from pathlib import Path

from trainwreck.curation.cases import diagnose_case, diagnose_unseen, find_cases, load_case
from trainwreck.model import Diagnosis
from trainwreck.report import render

CASES_DIR = Path(__file__).parent.parent / "cases"
FAST_SAMPLE = 40  # generated reports in the default run; the slow test audits all records


def records() -> list[dict[str, object]]:
    """The bundled case memory's records, in file order."""
    text = files("trainwreck.cases").joinpath("data/bundled.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def sample(all_records: list[dict[str, object]], size: int) -> list[dict[str, object]]:
    """`size` records spread evenly over the store, so every source is represented."""
    step = max(1, len(all_records) // size)
    return all_records[::step][:size]


@cache
def case_report(name: str) -> tuple[Diagnosis, str]:
    """A tests/cases report, diagnosed as a new failure, and its Markdown."""
    diagnosis = diagnose_case(load_case(CASES_DIR / name))
    return diagnosis, render(diagnosis, "markdown", full=True)


def generated_report(record: dict[str, object], folder: Path) -> tuple[Diagnosis, str]:
    """The report on one record's evidence and symptoms, the record left out of the memory."""
    log = folder / f"{record['id']}.log"
    log.write_text(str(record["evidence"]), encoding="utf-8")
    symptoms = record.get("symptoms")
    own = (str(record["source"]), str(record["id"]))
    diagnosis = diagnose_unseen((log,), str(symptoms) if symptoms else None, own, None)
    return diagnosis, render(diagnosis, "markdown", full=True)


def _all_reports(folder: Path) -> Iterator[tuple[str, Diagnosis, str]]:
    for case in find_cases(CASES_DIR):
        yield (f"case {case.path.name}", *case_report(case.path.name))
    for record in records():
        yield (f"record {record['id']}", *generated_report(record, folder))


def main(out: Path) -> None:
    """Write every violation, one per line, and print the counts per rule."""
    from trainwreck.report.audit import audit

    counts: Counter[str] = Counter()
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        for name, diagnosis, markdown in _all_reports(Path(folder)):
            for finding in audit(diagnosis, markdown):
                counts[finding.rule] += 1
                lines.append(f"{name}\t{finding.rule}\t{finding.where}\t{finding.why}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(f"{rule}: {count}" for rule, count in counts.most_common()))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
