"""Writing outputs (-o, --script, --plot): never through a symlink, never onto an input.

Real files and links in tmp_path, the real CLI in-process (issue 16, "Writing").
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from helpers import run_in_process
from trainwreck.errors import UsageError
from trainwreck.write import write_file

CASES = Path(__file__).parent / "cases"
SCRIPT_CASE = CASES / "transformers-tokenizers-pin-4836" / "train.log"  # has a script


def _log(tmp_path: Path) -> Path:
    log = tmp_path / "train.log"
    log.write_bytes(SCRIPT_CASE.read_bytes())
    return log


def test_script_through_a_dangling_link_is_refused_without_force(tmp_path: Path) -> None:
    outside = tmp_path / "outside" / "planted.py"
    outside.parent.mkdir()
    link = tmp_path / "verify.py"
    link.symlink_to(outside)  # dangling: following it would create `planted.py`
    status, stderr = run_in_process(["diagnose", str(_log(tmp_path)), "--script", str(link)])
    assert status == 2 and "--force" in stderr
    assert not outside.exists()


def test_force_replaces_the_link_and_writes_mode_0644(tmp_path: Path) -> None:
    target = tmp_path / "keep.py"
    target.write_text("mine\n")
    link = tmp_path / "verify.py"
    link.symlink_to(target)
    status, stderr = run_in_process(
        ["diagnose", str(_log(tmp_path)), "--script", str(link), "--force"]
    )
    assert status == 0, stderr
    assert not link.is_symlink() and link.read_text().startswith("#!/usr/bin/env python3")
    assert stat.S_IMODE(link.stat().st_mode) == 0o644
    assert target.read_text() == "mine\n"


@pytest.mark.parametrize("how", ["same name", "hardlink"])
def test_report_is_never_written_onto_an_input(tmp_path: Path, how: str) -> None:
    log = _log(tmp_path)
    output = log
    if how == "hardlink":
        output = tmp_path / "report.md"
        os.link(log, output)
    before = log.read_bytes()
    status, stderr = run_in_process(["diagnose", str(log), "-o", str(output)])
    assert status == 2 and "one of your input files" in stderr
    assert log.read_bytes() == before


def test_plot_is_never_written_onto_its_metrics(tmp_path: Path) -> None:
    metrics = tmp_path / "metrics.jsonl"
    metrics.write_text("".join(f'{{"step": {n}, "loss": {2.0 / n}}}\n' for n in range(1, 50)))
    before = metrics.read_bytes()
    status, stderr = run_in_process(["curves", str(metrics), "--plot", str(metrics)])
    assert status == 2 and "one of your input files" in stderr
    assert metrics.read_bytes() == before


def test_output_replaces_a_link_instead_of_writing_through_it(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("untouched\n")
    link = tmp_path / "report.md"
    link.symlink_to(elsewhere)
    write_file(link, "report\n", replace=True)
    assert link.read_text() == "report\n" and not link.is_symlink()
    assert elsewhere.read_text() == "untouched\n"
    with pytest.raises(UsageError, match="--force"):
        write_file(link, "again\n", replace=False)
