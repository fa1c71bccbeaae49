"""No report of the real-case set presents a key its framework version lacks as verified."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_case, find_cases
from trainwreck.fixes.verify import framework_versions
from trainwreck.model import Diagnosis, Evidence
from trainwreck.verify.guard import verify_key

CASES = Path(__file__).parent.parent / "cases"


@pytest.fixture(scope="module")
def reports() -> list[tuple[str, Diagnosis]]:
    return [(case.path.name, diagnose_case(case)) for case in find_cases(CASES)]


def test_every_verified_change_exists_in_the_users_version(
    reports: list[tuple[str, Diagnosis]],
) -> None:
    checked = 0
    for name, diagnosis in reports:
        evidence_versions = framework_versions_of(diagnosis)
        for hypothesis in diagnosis.hypotheses:
            for fix in hypothesis.fixes:
                for change in fix.changes:
                    verdict = verify_key(change.path, change.after, evidence_versions)
                    if verdict.applicable:
                        checked += 1
                        assert verdict.exists or not change.verified, (name, change.path)
                        assert not (verdict.exists and verdict.is_default), (name, change.path)
    assert checked > 50  # the walk really covers framework keys


def framework_versions_of(diagnosis: Diagnosis) -> dict[str, str]:
    """The versions the report was checked against: the setup's, else the newest known."""
    return framework_versions(Evidence(setup=diagnosis.setup))
