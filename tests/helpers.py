"""Running the CLI as users do: a real subprocess, real exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from trainwreck.cli import main


def run(
    *args: str, stdin: bytes = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "trainwreck", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        check=False,
    )
    return subprocess.CompletedProcess(
        result.args, result.returncode, result.stdout.decode(), result.stderr.decode()
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("trainwreck: error: ")


def run_in_process(args: list[str], stdin: bytes = b"") -> tuple[int, str]:
    """`trainwreck ARGS` through the real entry point in this process: (exit status, stderr)."""
    with CliRunner().isolation(input=stdin) as (_, stderr, _output):
        try:
            main(args)
            status = 0
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
        return status, stderr.getvalue().decode()
