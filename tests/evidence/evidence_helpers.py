"""Helpers for evidence tests: run small broken scripts for real and keep their output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


def run_broken(code: str, tmp_path: Path, *flags: str, env: dict[str, str] | None = None) -> Path:
    """Run `code` with this interpreter; save stdout+stderr as a log file and return it."""
    script = tmp_path / "train.py"
    script.write_text(code)
    result = subprocess.run(
        [sys.executable, *flags, str(script)],
        capture_output=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        cwd=tmp_path,
    )
    assert result.returncode != 0, "the broken script was expected to fail"
    log = tmp_path / "train.log"
    log.write_bytes(result.stdout + result.stderr)
    return log
