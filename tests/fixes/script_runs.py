"""Running a generated verification script as a user does: written to a file, run with
flags (and a command after `--`), judged by its exit status and its last line."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

COULD_NOT_RUN = 2


def parameters_of(script: str) -> dict[str, object]:
    """The script's filled PARAMETERS block."""
    for node in ast.parse(script).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PARAMETERS":
            values = ast.literal_eval(node.value)
            assert isinstance(values, dict)
            return values
    raise AssertionError("no PARAMETERS block")


def run_script(script: str, tmp_path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "verify.py"
    path.write_text(script)
    return subprocess.run(
        [sys.executable, str(path), *flags],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def verdict(result: subprocess.CompletedProcess[str]) -> str:
    """The script's last line: PASS, FAIL or COULD NOT RUN, and why."""
    return result.stdout.strip().splitlines()[-1]
