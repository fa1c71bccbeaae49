"""Verification scripts have three outcomes: 0 fixed, 1 still failing, 2 could not run.

Each script comes from a real case's diagnosis and runs in a subprocess, as a user
runs it. A check that cannot run (a package missing, an unexpanded `$VAR`, a missing
file, too few ranks) must never exit 1, which reads as "the fix did not work".
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_case, load_case
from trainwreck.fixes.scripts.parameters import pick
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


def _requirements(script: str) -> list[str]:
    line = next(line for line in script.splitlines() if line.startswith("    'requirements': "))
    return str(ast.literal_eval(line.split(": ", 1)[1].rstrip(","))).split("|")


def test_package_probes_name_distributions_not_frameworks() -> None:
    """`pytorch` is the framework; pip installs the distribution `torch`; CUDA is no package."""
    probe = _verification("bitsandbytes-no-gpu-runtime-9").script
    assert _requirements(probe) == ["bitsandbytes", "transformers", "torch"]
    assert _requirements(_verification("pytorch-driver-too-old-65").script) == ["torch"]


def test_the_torch_probe_passes_where_torch_is_installed(tmp_path: Path) -> None:
    """It used to look for a distribution named `pytorch` and fail after the fix."""
    from importlib.metadata import version

    result = _run(_verification("pytorch-driver-too-old-65").script, tmp_path)
    assert f"torch: installed {version('torch')}, need any version: ok" in result.stdout
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_python_requirement_is_checked_against_this_interpreter(tmp_path: Path) -> None:
    """deepseek-vl requires Python <3.10,>=3.8; this interpreter is newer: still failing."""
    script = _verification("deepseek-vl-requires-python-24").script
    assert _requirements(script) == ["python<3.10,>=3.8"]
    result = _run(script, tmp_path)
    running = ".".join(map(str, sys.version_info[:3]))
    assert f"python: running {running}, need <3.10,>=3.8: MISMATCH" in result.stdout
    assert result.returncode == 1, result.stdout + result.stderr


def test_a_config_error_script_fails_while_the_fixed_settings_still_raise(tmp_path: Path) -> None:
    """deepke#394: load_best_model_at_end with save_strategy epoch. eval_strategy `steps`
    alone still raises the same ValueError: the script builds the fixed settings and says so."""
    pytest.importorskip("transformers")
    script = _verification("deepke-load-best-model-394").script
    still_raising = _run(script, tmp_path, "--settings", _settings(script, "steps"))
    assert still_raising.returncode == 1, still_raising.stdout + still_raising.stderr
    assert "requires the save and eval strategy to match" in still_raising.stdout
    assert "every key accepted" not in still_raising.stdout
    agreeing = _run(script, tmp_path, "--settings", _settings(script, "epoch"))
    assert agreeing.returncode == 0, agreeing.stdout + agreeing.stderr
    assert "TrainingArguments(" in agreeing.stdout and "constructed" in agreeing.stdout


def _settings(script: str, eval_strategy: str) -> str:
    """The script's own fixed settings (the run's, from the log) with eval_strategy set."""
    line = next(line for line in script.splitlines() if line.startswith("    'settings': "))
    settings = json.loads(ast.literal_eval(line.split(": ", 1)[1].rstrip(",")))
    arguments = settings["TrainingArguments"]
    assert arguments["save_strategy"] == "epoch" and arguments["load_best_model_at_end"] is True
    arguments["eval_strategy"] = eval_strategy
    return json.dumps(settings)


@pytest.mark.parametrize("found", [10**400, -(10**400)])
def test_a_value_past_floats_range_is_assumed_not_a_crash(found: int) -> None:
    """Found by benchmarks/fuzz.py (seed 18): float() of a 400-digit int raised
    OverflowError while filling a script's parameters."""
    parameter = pick("learning_rate", (found, "train.log:3"), 5e-05, "no learning rate logged")
    assert parameter.value == 5e-05
    assert parameter.source.startswith("[assumed]")
