"""Verification scripts have three outcomes: 0 fixed, 1 still failing, 2 could not run.

Each script comes from a real case's diagnosis and runs in a subprocess, as a user
runs it. A check that cannot run (a package missing, an unexpanded `$VAR`, a missing
file, too few ranks) must never exit 1, which reads as "the fix did not work".
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck.kb.cases import diagnose_case, load_case
from trainwreck.model import Verification

CASES = Path(__file__).parents[1] / "cases"
COULD_NOT_RUN = 2


def _verification(case: str) -> Verification:
    diagnosis = diagnose_case(load_case(CASES / case))
    verification = diagnosis.hypotheses[0].verification
    assert verification is not None
    return verification


def _run(
    script: str, tmp_path: Path, *flags: str, python: str = sys.executable
) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "verify.py"
    path.write_text(script)
    return subprocess.run(
        [python, str(path), *flags], capture_output=True, text=True, timeout=300, check=False
    )


def test_an_unexpanded_shell_variable_could_not_run(tmp_path: Path) -> None:
    """The LLaMA-Factory launch command passes `--model_name_or_path $MODEL_PATH`."""
    verification = _verification("llamafactory-oom-13b-lora-a100-2908")
    assert "'model': '$MODEL_PATH'" in verification.script
    result = _run(verification.script, tmp_path)
    assert result.returncode == COULD_NOT_RUN, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1] == (
        "COULD NOT RUN: --model is '$MODEL_PATH': the shell variable $MODEL_PATH is not "
        "expanded here; pass its value: --model <value>"
    )


def test_a_missing_package_could_not_run(tmp_path: Path) -> None:
    """The system Python has no torch: the stability check cannot run there."""
    python = shutil.which("python3", path="/usr/bin:/bin")
    probe = [python or "", "-c", "import torch"]
    if python is None or subprocess.run(probe, capture_output=True, check=False).returncode == 0:
        pytest.skip("needs a Python without torch")
    verification = _verification("repro-divergence-no-grad-clipping")
    result = _run(verification.script, tmp_path, python=python)
    assert result.returncode == COULD_NOT_RUN, result.stdout + result.stderr
    assert "COULD NOT RUN: the module 'torch' is not installed in this environment" in result.stdout


def test_a_model_path_that_does_not_exist_could_not_run(tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    verification = _verification("repro-divergence-no-grad-clipping")
    missing = tmp_path / "no-such-model"
    missing.mkdir()
    result = _run(verification.script, tmp_path, "--model", str(missing))
    assert result.returncode == COULD_NOT_RUN, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1].startswith("COULD NOT RUN: ")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("flags", "why"), [((), "no world size"), (("--world-size", "1"), "1")])
def test_the_collective_probe_refuses_without_the_runs_world_size(
    tmp_path: Path, flags: tuple[str, ...], why: str
) -> None:
    """A lone rank's all_reduce returns at once: a probe at world size 1 proves nothing."""
    verification = _verification("llamafactory-tokenize-nccl-timeout-2424")
    assert "'world_size': 0," in verification.script  # the evidence gives no rank count
    result = _run(verification.script, tmp_path, *flags)
    assert result.returncode == COULD_NOT_RUN, result.stdout + result.stderr
    expected = "0" if why == "no world size" else "1"
    assert result.stdout.startswith(f"COULD NOT RUN: --world-size is {expected}: a collective")


def test_the_collective_probe_runs_at_the_world_size_the_evidence_gives() -> None:
    """automodel#1038 ran 4 ranks (its log says so): the probe is filled with 4."""
    script = _verification("automodel-ckpt-barrier-timeout-1038").script
    assert "'world_size': 4," in script
    assert "[assumed]" not in script.split("'world_size'")[0].rsplit("#", 1)[-1]


def test_a_torchrun_launch_at_another_size_could_not_run(tmp_path: Path) -> None:
    script = _verification("automodel-ckpt-barrier-timeout-1038").script
    path = tmp_path / "probe.py"
    path.write_text(script)
    env = {"RANK": "0", "WORLD_SIZE": "2", "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, env=env, check=False
    )
    assert result.returncode == COULD_NOT_RUN, result.stdout + result.stderr
    assert "launched with WORLD_SIZE=2 but the run had 4 ranks" in result.stdout
