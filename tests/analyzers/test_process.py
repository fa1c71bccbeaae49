"""How processes ended: the exit statuses logs print and users quote, as signal findings.

`fixtures/deepspeed_launcher_exit_9.log` is the DeepSpeed launcher's report copied from
https://github.com/deepspeedai/DeepSpeed/issues/3232 (a DeepSpeed-Chat run whose rank was
killed); its "exits with return code = -9" was read as no exit at all before batch-35.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck import analyzers
from trainwreck.analyzers import process
from trainwreck.evidence.collect import collect
from trainwreck.model import Evidence

FIXTURES = Path(__file__).parent / "fixtures"


def _ids(evidence: Evidence) -> set[str]:
    return {finding.id for finding in process.analyze(evidence)}


def test_the_deepspeed_launchers_status_is_an_exit() -> None:
    evidence = collect([str(FIXTURES / "deepspeed_launcher_exit_9.log")])
    assert [(e.exitcode, e.signal) for e in evidence.exits] == [(-9, "SIGKILL")]
    assert _ids(evidence) == {"process.killed"}


@pytest.mark.parametrize(
    ("symptoms", "finding"),
    [
        # batch-35's DeepSpeed-Chat thread: the launcher's -7, a bus error
        (
            'The launcher stops with "exits with return code = -7" and no error message.',
            "process.sigbus",
        ),
        ("the container exited with exit code 135", "process.sigbus"),
        ("the job died: exit code 137", "process.killed"),
    ],
)
def test_an_exit_status_the_user_quotes_is_read_as_its_signal(symptoms: str, finding: str) -> None:
    found = process.analyze(Evidence(symptoms=symptoms))
    assert [f.id for f in found] == [finding]
    assert found[0].evidence[0].source == "symptoms" and found[0].evidence[0].line is None


@pytest.mark.parametrize(
    "symptoms", ["exits with return code = 0", "exit code 1 after the ValueError"]
)
def test_a_clean_exit_or_an_ordinary_error_status_names_no_signal(symptoms: str) -> None:
    assert process.analyze(Evidence(symptoms=symptoms)) == []


def test_the_sigbus_finding_is_declared_for_pages() -> None:
    assert "process.sigbus" in analyzers.FINDING_IDS
