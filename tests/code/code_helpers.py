"""Run the code analyzer on code as the evidence reader would hand it over."""

from __future__ import annotations

import textwrap
from pathlib import Path

from trainwreck.analyzers import code
from trainwreck.model import CodeSnippet, Evidence, Finding

ROOT = Path(__file__).resolve().parents[2]
BATCH_1 = ROOT / "benchmarks" / "first_sight" / "batch-1"
BATCH_11 = ROOT / "benchmarks" / "first_sight" / "batch-11"
BATCH_12 = ROOT / "benchmarks" / "first_sight" / "batch-12"
BATCH_15 = ROOT / "benchmarks" / "first_sight" / "batch-15"
BATCH_16 = ROOT / "benchmarks" / "first_sight" / "batch-16"
BATCH_33 = ROOT / "benchmarks" / "first_sight" / "batch-33"
BATCH_34 = ROOT / "benchmarks" / "first_sight" / "batch-34"
BATCH_35 = ROOT / "benchmarks" / "first_sight" / "batch-35"
BATCH_36 = ROOT / "benchmarks" / "first_sight" / "batch-36"
CASES = ROOT / "tests" / "cases"


def findings(source: str, name: str = "train.py") -> dict[str, Finding]:
    """The code findings for one file's text, by id."""
    evidence = Evidence(code=(CodeSnippet(source=name, text=textwrap.dedent(source)),))
    return {finding.id: finding for finding in code.analyze(evidence)}


def fires(source: str, finding_id: str) -> bool:
    return finding_id in findings(source)


def file_findings(path: Path) -> dict[str, Finding]:
    """The code findings for a real file, read as the evidence reader reads a .py input."""
    return findings(path.read_text(encoding="utf-8"), str(path))
