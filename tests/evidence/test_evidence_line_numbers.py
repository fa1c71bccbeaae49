"""Every evidence quote names the log line it was read from (a CPU run's real output)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import misquoted
from trainwreck.pipeline import diagnose

SCRIPTS = Path(__file__).parent / "fixtures" / "scripts"


def test_quotes_of_a_traceback_after_progress_lines_cite_their_own_lines(tmp_path: Path) -> None:
    """The frame and `Type: message` quotes were cited at the `Traceback` line (19), not at
    the lines that print them (28, 31)."""
    run = subprocess.run(
        [sys.executable, str(SCRIPTS / "f4_shape.py")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode != 0 and "mat1 and mat2" in run.stdout
    log = tmp_path / "f4_shape.log"
    log.write_text(run.stdout, encoding="utf-8")
    diagnosis = diagnose([str(log)])
    quotes = [ref for h in diagnosis.hypotheses for ref in h.evidence]
    assert any("linear.py" in ref.text for ref in quotes)
    assert misquoted(diagnosis) == []
