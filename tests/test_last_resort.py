"""The last resorts: a bug in one reader or analyzer costs its own part, never the report;
a bug anywhere else is one line, a hint to report it, and exit status 3 (not 2: bad input).

Real inputs and the real pipeline; only the faulty part is replaced by one that raises,
since no reader is known to be buggy (the fault is the input to this test).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import run_in_process
from trainwreck import analyzers
from trainwreck.cli import diagnose as diagnose_command
from trainwreck.evidence.collect import collect
from trainwreck.model import Evidence, Finding
from trainwreck.pipeline import diagnose

CASES = Path(__file__).parent / "cases"
OOM_LOG = next((CASES / "pytorch-oom-fragmentation-35901").glob("*.log"))


def _raise(*_: object, **__: object) -> None:
    raise ZeroDivisionError("planted fault")


def test_a_reader_bug_is_a_gap_and_the_other_inputs_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    metrics = tmp_path / "metrics.jsonl"
    metrics.write_text('{"step": 1, "loss": 2.0}\n{"step": 2, "loss": 1.5}\n')
    monkeypatch.setattr("trainwreck.evidence.collect.read_text", _raise)  # where it is looked up
    evidence = collect([str(metrics), str(OOM_LOG)])
    reasons = {gap.source: gap.reason for gap in evidence.gaps}
    assert "internal error (ZeroDivisionError: planted fault)" in reasons[str(metrics)]
    assert "please report it" in reasons[str(metrics)]
    assert any(line.source == str(OOM_LOG) for line in evidence.lines)


def test_an_analyzer_bug_drops_its_findings_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    def faulty(evidence: Evidence) -> list[Finding]:
        raise ZeroDivisionError("planted fault")

    faulty.__module__ = "trainwreck.analyzers.faulty"
    monkeypatch.setattr(analyzers, "ANALYZERS", (faulty, *analyzers.ANALYZERS))
    diagnosis = diagnose([str(OOM_LOG)])
    assert diagnosis.hypotheses  # the other analyzers and the KB still answer
    warning = next(w for w in diagnosis.warnings if w.startswith("analyzer faulty"))
    assert "its findings are left out" in warning and "ZeroDivisionError" in warning


def test_an_internal_error_is_one_line_and_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diagnose_command, "examine", _raise)  # the name the command calls
    monkeypatch.delenv("TRAINWRECK_DEBUG", raising=False)
    status, stderr = run_in_process(["diagnose", str(OOM_LOG)])
    assert status == 3
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr
    assert "internal error (ZeroDivisionError: planted fault)" in stderr
    assert "please report it" in stderr


def test_exit_statuses_are_in_the_help() -> None:
    status, _ = run_in_process(["--help"])
    assert status == 0
    from trainwreck.cli.app import cli

    help_text = cli.get_help(cli.make_context("trainwreck", [], resilient_parsing=True))
    for line in ("2  bad usage", "3  an internal error"):
        assert line in help_text
