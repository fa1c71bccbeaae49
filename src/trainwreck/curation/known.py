"""Known cases: real failures and the page their confirmed cause maps to.

The ablation (ablation.py) and the tests that name the case an analyzer decides
read them here: the suite's tests/cases folders; the first-sight folders whose
bundled case record names its page; the other bundled records that name one (their
evidence excerpt diagnosed as a log, with their symptoms); and, as a set of its
own, each case folder diagnosed again with the script its inputs leave out.
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from trainwreck.cases.records import BUNDLED, CaseRecord, read_records
from trainwreck.curation.cases import CASE_FILE, diagnose_folder, diagnose_unseen, find_cases
from trainwreck.model import Diagnosis

# How a record made from a case folder says so (records.py `collected`: "tests/cases",
# "first-sight batch-2"): it is diagnosed from its folder, which holds more than the
# record's excerpt.
SUITE_RECORDS = "tests/cases"
FIRST_SIGHT = "first-sight "
RECORD_LOG = "evidence.log"


@dataclass(frozen=True)
class Known:
    """A real case and the page its confirmed cause maps to."""

    name: str
    expected: str
    diagnose: Callable[[], Diagnosis]
    folder: Path | None = None


def folder_case(folder: Path, expected: str, *, with_scripts: bool = False) -> Known:
    """A case folder diagnosed on its inputs; `with_scripts` adds the scripts they leave out
    (a reproduction's script, a thread's snippet): what a user who hands in their code gets."""
    scripts = _left_out_scripts(folder) if with_scripts else ()
    name = "+".join([folder.name, *(p.name for p in scripts)])
    return Known(name, expected, functools.partial(diagnose_folder, folder, None, scripts), folder)


def _left_out_scripts(folder: Path) -> tuple[Path, ...]:
    meta = yaml.safe_load((folder / CASE_FILE).read_text(encoding="utf-8"))
    listed = set(meta.get("inputs") or ())
    return tuple(p for p in sorted(folder.glob("*.py")) if listed and p.name not in listed)


def suite_cases(root: Path) -> list[Known]:
    """tests/cases: each folder's `top_pattern`."""
    return [folder_case(case.path, case.top_pattern) for case in find_cases(root)]


def script_cases(cases: list[Known]) -> list[Known]:
    """The folder cases whose inputs leave a script out, diagnosed with it."""
    return [
        folder_case(case.folder, case.expected, with_scripts=True)
        for case in cases
        if case.folder and _left_out_scripts(case.folder)
    ]


def record_cases(first_sight: Path) -> list[Known]:
    """Bundled records that name their page: a first-sight folder's, else the excerpt's."""
    known = []
    for record in read_records(BUNDLED):
        if not record.page or record.collected.startswith(SUITE_RECORDS):
            continue
        folder = first_sight / record.collected.removeprefix(FIRST_SIGHT) / record.id
        if record.collected.startswith(FIRST_SIGHT) and (folder / CASE_FILE).is_file():
            known.append(folder_case(folder, record.page))
        else:
            run = functools.partial(_diagnose_record, record)
            known.append(Known(record.id, record.page, run))
    return known


def _diagnose_record(record: CaseRecord) -> Diagnosis:
    """The record's evidence excerpt as a log beside its symptoms, the record left out."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / RECORD_LOG
        log.write_text(record.evidence, encoding="utf-8")
        return diagnose_unseen((log,), record.symptoms, (record.source, record.id), None)
