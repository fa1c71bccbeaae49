"""Unreadable folders and files, for real, also when the suite runs as root (as CI does).

Root reads past file modes through two capabilities; the child process that runs
`trainwreck` drops them from its bounding set before exec, so a folder of mode 000
really cannot be listed (a probe checks that first). Dropping to the `nobody` user
instead would not do here: the interpreter may live under /root, mode 0700.
Without root, chmod 000 alone locks the folder.
Issue 16: unreadable subfolders were skipped without a warning, and a file inside
one (`diagnose locked/train.log`) crashed with PermissionError, exit status 3.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from trainwreck.curation.cases import load_case

# linux/prctl.h and linux/capability.h
PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE = 1  # write, read and search past file modes
CAP_DAC_READ_SEARCH = 2  # read and search past file modes
CASES = Path(__file__).resolve().parents[1] / "cases"
# A real traceback: DeepSpeed building a CUDA op on a machine without CUDA_HOME.
CASE = load_case(CASES / "minimind-deepspeed-cuda-home-48")


def _without_read_override() -> None:
    """Run in the child before exec: root loses the capabilities that ignore file modes."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_without_read_override,
        check=False,
    )


@pytest.fixture
def run_dir(tmp_path: Path) -> Iterator[Path]:
    """A run folder: a readable real log, a locked folder with a log, and a locked log."""
    (tmp_path / "train.log").write_bytes(CASE.inputs[0].read_bytes())
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "rank1.log").write_text("RuntimeError: the log nobody may read\n")
    (tmp_path / "zz.log").write_text("RuntimeError: the other log nobody may read\n")
    (tmp_path / "zz.log").chmod(0)
    locked.chmod(0)
    yield tmp_path
    locked.chmod(0o755)


def test_the_folder_is_really_locked(run_dir: Path) -> None:
    probe = _run("-c", f"import os; os.listdir({str(run_dir / 'locked')!r})")
    assert probe.returncode == 1 and "PermissionError" in probe.stderr, probe


def test_an_unreadable_folder_and_file_are_warnings_and_the_log_beside_is_diagnosed(
    run_dir: Path,
) -> None:
    result = _run("-m", "trainwreck", "diagnose", str(run_dir), "--format", "json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    assert f"{run_dir / 'locked'}: cannot list: permission denied" in report["warnings"]
    assert f"{run_dir / 'zz.log'}: cannot read: permission denied" in report["warnings"]
    assert report["hypotheses"][0]["id"] == CASE.top_pattern
    assert "nobody may read" not in result.stdout


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (["diagnose"], "rank1.log"),
        (["check", "--no-live"], "rank1.log"),
        (["env", "--from"], "rank1.log"),
        (["curves"], "rank1.log"),
        (["diagnose"], ""),  # the locked folder itself
    ],
)
def test_a_path_inside_a_locked_folder_is_one_line_exit_2(
    run_dir: Path, command: list[str], name: str
) -> None:
    path = run_dir / "locked" / name
    result = _run("-m", "trainwreck", *command, str(path))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "permission denied" in result.stderr.lower(), result.stderr
