"""torch built against NumPy 1.x under NumPy 2: one rule for `env --from` and `diagnose`."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import run
from trainwreck.env import check, read_listing
from trainwreck.pipeline import diagnose


@pytest.mark.parametrize(
    ("torch", "numpy", "conflict"),
    [
        ("2.1.0", "2.0.1", True),  # the observed pair
        ("2.3.0", "2.0.1", True),  # below the first torch release that runs under NumPy 2
        ("2.3.1", "2.0.1", False),  # at it
        ("2.4.0", "2.0.1", False),  # above it
        ("2.1.0", "1.26.4", False),  # NumPy 1.x: the ABI torch was built for
    ],
)
def test_torch_against_numpy2(torch: str, numpy: str, conflict: bool) -> None:
    env = read_listing(f"torch=={torch}\nnumpy=={numpy}\n")
    found = [c for c in check(env) if c.package == "torch" and c.dependency == "numpy"]
    assert bool(found) is conflict


def test_env_from_and_diagnose_report_the_same_conflict(tmp_path: Path) -> None:
    listing = tmp_path / "freeze.txt"
    listing.write_text("torch==2.1.0\nnumpy==2.0.1\n")
    result = run("env", "--from", str(listing))
    assert result.returncode == 1, result.stdout
    assert "torch 2.1.0" in result.stdout and "numpy 2.0.1" in result.stdout
    log = tmp_path / "train.log"
    log.write_text("Traceback (most recent call last):\nRuntimeError: something failed\n")
    findings = diagnose([str(log)], env_files=[str(listing)]).findings
    assert any(f.values.get("package") == "torch" and f.id == "env.numpy_abi" for f in findings), [
        (f.id, f.values) for f in findings
    ]
