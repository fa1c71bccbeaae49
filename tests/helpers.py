"""Running the CLI as users do: a real subprocess, real exit codes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from trainwreck.cli.app import main
from trainwreck.model import Diagnosis

LOG_SUFFIXES = (".log", ".txt", ".out")
QUOTE_PROBE_CHARS = 40  # quotes are clipped and redacted further on; their start is verbatim


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


def misquoted(diagnosis: Diagnosis) -> list[tuple[str, int, str, str]]:
    """(log, cited line, quote, what that line says) for each log quote not on its line.

    Case-memory frame quotes join a frame's file, function and code; their file is checked.
    """
    refs = [ref for h in diagnosis.hypotheses for ref in h.evidence]
    refs += [ref for finding in diagnosis.findings for ref in finding.evidence]
    wrong = []
    for ref in refs:
        path = Path(ref.source)
        if ref.line is None or path.suffix not in LOG_SUFFIXES or not path.is_file():
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        said = lines[ref.line - 1] if 0 < ref.line <= len(lines) else ""
        probe = ref.text.strip()[:QUOTE_PROBE_CHARS]
        if probe not in said and ref.text.split(" ", 1)[0] not in said:
            wrong.append((ref.source, ref.line, ref.text, said))
    return wrong


def torch_error(code: str) -> str:
    """`Type: message` of the exception a torch snippet raises on the CPU (torch is installed)."""
    import torch
    import torch.nn.functional as functional
    import torch.utils.data  # noqa: F401  (binds torch.utils.data: default_collate, DataLoader)

    try:
        exec(code, {"torch": torch, "F": functional})
    except Exception as exc:  # the message is the fixture
        return f"{type(exc).__name__}: {exc}"
    raise AssertionError(f"{code!r} raised nothing")


DISTRIBUTED_JOBS = Path(__file__).parent / "distributed" / "jobs"
ONE_RANK_LIMIT_S = 60  # one process importing torch on a shared two-core machine


def one_rank_dumps(out: Path, *steps: str, buffer: int = 50) -> None:
    """Run collectives in a fresh one-rank gloo process and write its flight-recorder dumps
    (tests/distributed/jobs/one_rank_dumps.py) into `out`."""
    env = dict(os.environ, TORCH_FR_BUFFER_SIZE=str(buffer))
    script = DISTRIBUTED_JOBS / "one_rank_dumps.py"
    subprocess.run(
        [sys.executable, str(script), str(out), *steps],
        env=env,
        check=True,
        timeout=ONE_RANK_LIMIT_S,
        capture_output=True,
    )
