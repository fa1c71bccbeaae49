"""Real-case regression: each case's top hypothesis and category, and its golden renders.

Cases are real logs from public issues (tests/cases/*/case.yaml names the source).
Run `pytest --update-golden` to rewrite expected.md / expected.json, then review the diff.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import cache
from importlib.resources import files
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from helpers import misquoted
from trainwreck.analyzers import FINDING_IDS
from trainwreck.curation.cases import Case, diagnose_case, find_cases
from trainwreck.model import Diagnosis
from trainwreck.report import render
from trainwreck.report.audit import Audited, audit
from trainwreck.report.audit.ranking import alternatives_supported, hypotheses_in_order

CASES_DIR = Path(__file__).parent / "cases"
CASES = find_cases(CASES_DIR)
KB_VERSION_MARK = "<kb-version>"
SCREEN_LINES = 60  # issue 18: the default report fits one screen


@cache
def diagnosed(case: Case) -> Diagnosis:
    """One diagnosis per case, shared by the tests that read it."""
    return diagnose_case(case)


def test_there_are_enough_real_cases() -> None:
    assert len(CASES) >= 25
    assert len({case.category for case in CASES}) == 9


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_case_ranks_expected_pattern_first(case: Case) -> None:
    diagnosis = diagnosed(case)
    assert diagnosis.hypotheses, "no hypothesis at all"
    top = diagnosis.hypotheses[0]
    assert (top.category, top.id) == (case.category, case.top_pattern)
    assert top.grounded and top.citations


SCHEMA = json.loads(files("trainwreck.report").joinpath("diagnosis.schema.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_case_json_follows_the_contract(case: Case) -> None:
    report = json.loads(render(diagnosed(case), "json"))
    errors = sorted(Draft202012Validator(SCHEMA).iter_errors(report), key=str)
    assert not errors, errors[0].message


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_case_short_report_fits_one_screen(case: Case) -> None:
    """The default Markdown report (issue 18: the top answer on one screen)."""
    assert len(render(diagnosed(case), "markdown").splitlines()) <= SCREEN_LINES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_case_golden_renders(case: Case, update_golden: bool) -> None:
    diagnosis = diagnosed(case)
    for fmt, name in (("markdown", "expected.md"), ("json", "expected.json")):
        # The KB's version changes with any page edit and the checkout can live
        # anywhere (a reproduced case's log records the folder it ran in, and code
        # findings cite it); goldens pin everything else.
        rendered = re.sub(
            rf"[^\s`'\"]*/tests/cases/{re.escape(case.path.name)}",
            f"tests/cases/{case.path.name}",
            # `full`: the golden Markdown is the full report, so it also shows `--full`
            # keeps everything the report said before the short default.
            render(diagnosis, fmt, full=True).replace(diagnosis.tool.kb_version, KB_VERSION_MARK),  # type: ignore[arg-type]
        )
        golden = case.path / name
        if update_golden:
            golden.write_text(rendered, encoding="utf-8")
            continue
        if not golden.exists():
            pytest.fail(f"{golden} is missing: run pytest --update-golden and review it")
        assert rendered == golden.read_text(encoding="utf-8"), (
            f"{name} changed: review and --update-golden"
        )


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_case_findings_are_declared_by_their_analyzers(case: Case) -> None:
    """Each finding id the case's analyzers emit is in the registry `kb lint` checks pages by."""
    assert sorted({f.id for f in diagnosed(case).findings} - FINDING_IDS) == []


REPRODUCED = [case for case in CASES if (case.path / "repro.py").is_file()]


@pytest.mark.parametrize("case", REPRODUCED, ids=lambda case: case.path.name)
def test_reproduced_case_still_fails_the_same_way(case: Case, tmp_path: Path) -> None:
    """Rerun the broken script on the CPU and diagnose its fresh output."""
    pytest.importorskip("torch")
    result = subprocess.run(
        [sys.executable, str(case.path / "repro.py")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    log = tmp_path / "train.log"
    log.write_text(result.stdout + result.stderr, encoding="utf-8")
    fresh = Case(
        tmp_path, case.source, case.category, case.top_pattern, case.symptoms, (log,), False
    )
    assert diagnose_case(fresh).hypotheses[0].id == case.top_pattern


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_case_log_quotes_cite_their_own_lines(case: Case) -> None:
    assert misquoted(diagnosed(case)) == []


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_case_report_order_agrees_with_its_scores(case: Case) -> None:
    """Shown best first; each alternative has log evidence or shares the top one's class."""
    report = Audited(diagnosed(case), "")
    assert [*hypotheses_in_order(report), *alternatives_supported(report)] == []


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_case_report_passes_the_audit(case: Case) -> None:
    diagnosis = diagnosed(case)
    markdown = render(diagnosis, "markdown", full=True)  # the short default shows a subset
    assert [str(finding) for finding in audit(diagnosis, markdown)] == []
