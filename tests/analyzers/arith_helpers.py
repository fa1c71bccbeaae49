"""Diagnosing real fixtures for the arithmetic analyzers: first-sight cases, case logs, tmp logs."""

from __future__ import annotations

from pathlib import Path

from trainwreck.curation.cases import diagnose_folder
from trainwreck.model import Diagnosis, Finding
from trainwreck.pipeline import examine

ROOT = Path(__file__).parent.parent.parent
BATCH_1 = ROOT / "benchmarks" / "first_sight" / "batch-1"
CASES = ROOT / "tests" / "cases"


def first_sight(name: str) -> Diagnosis:
    """A batch-1 case diagnosed as the benchmark does: its listed inputs and its symptoms."""
    return diagnose_folder(BATCH_1 / name)


def case(name: str) -> Diagnosis:
    """A tests/cases case diagnosed on its listed inputs (else every evidence file)."""
    return diagnose_folder(CASES / name)


def logged(
    tmp_path: Path, text: str, symptoms: str | None = None, files: dict[str, str] | None = None
) -> Diagnosis:
    """Diagnose `text` written as train.log (plus any named files) in a fresh folder."""
    (tmp_path / "train.log").write_text(text, encoding="utf-8")
    for name, content in (files or {}).items():
        (tmp_path / name).write_text(content, encoding="utf-8")
    return examine([str(tmp_path)], symptoms=symptoms)[1]


def run_script(name: str, *, fails: bool = True) -> str:
    """What a fixture script printed when run on the CPU (stdout and stderr, as a log holds).

    `fails=False` for a silent failure: the run ends normally, its log shows what went wrong.
    """
    import subprocess
    import sys

    script = Path(__file__).parent / "fixtures" / name
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False
    )
    assert (result.returncode != 0) is fails, f"{name}: exit status {result.returncode}"
    return result.stdout + result.stderr


def found(diagnosis: Diagnosis, prefix: str) -> dict[str, Finding]:
    """The diagnosis's findings whose id starts with `prefix`, by id."""
    return {f.id: f for f in diagnosis.findings if f.id.startswith(prefix)}


def sources(finding: Finding) -> dict[str, str]:
    """Each arithmetic line's label -> where its input came from."""
    assert finding.arithmetic is not None
    return {line.label: line.source for line in finding.arithmetic.lines}


def values(finding: Finding) -> dict[str, object]:
    """Each arithmetic line's label -> its value."""
    assert finding.arithmetic is not None
    return {line.label: line.value for line in finding.arithmetic.lines}
