"""The rerun check for crashes, generated from real diagnoses and run for real on the CPU.

A crash recorded by `trainwreck run` is diagnosed; the script it gets reruns the
recorded command and is run, as a user would, against the same crash, a fixed command,
another error, no command, a command that hangs, and a program that does not exist.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest
from script_runs import COULD_NOT_RUN, parameters_of, run_script, verdict

from helpers import run
from trainwreck import diagnose
from trainwreck.curation.cases import diagnose_case, load_case
from trainwreck.fixes.scripts.parameters import Context
from trainwreck.fixes.scripts.rerun import rerun_parameters
from trainwreck.model import Hypothesis, Verification
from trainwreck.pipeline import examine

CASES = Path(__file__).parents[1] / "cases"
# The error of the real case pytorch-mm-shape-3, raised by a one-line program.
MATMUL_ERROR = "RuntimeError('mat1 and mat2 shapes cannot be multiplied (1x2 and 6x64)')"
CRASH = [sys.executable, "-c", f"raise {MATMUL_ERROR}"]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Verification:
    """The script of a crash `trainwreck run` recorded: its command.txt and output.log."""
    out = tmp_path_factory.mktemp("run") / "crashed"
    result = run("run", "--out", str(out), "--", *CRASH)
    assert result.returncode == 1, result.stderr
    top = diagnose([str(out)]).hypotheses[0]
    assert (top.id, top.category) == ("shape-mismatch-matmul", "crash")
    assert top.verification is not None and top.verification.kind == "rerun"
    return top.verification


def test_the_recorded_command_is_filled_in_with_the_pages_signature(
    recorded: Verification,
) -> None:
    values = parameters_of(recorded.script)
    assert values["command"] == shlex.join(CRASH)
    assert str(values["signature"]).startswith(r"mat1 and mat2 shapes cannot be multiplied \(")
    assert "# kb:shape-mismatch-matmul: its signature matching" in recorded.script


def test_the_same_crash_fails(recorded: Verification, tmp_path: Path) -> None:
    result = run_script(recorded.script, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert verdict(result) == (
        "FAIL: the failure is still there (the command exited with status 1): RuntimeError: "
        "mat1 and mat2 shapes cannot be multiplied (1x2 and 6x64)"
    )


def test_a_fixed_command_passes(recorded: Verification, tmp_path: Path) -> None:
    result = run_script(recorded.script, tmp_path, "--", sys.executable, "-c", "print('trained')")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "trained" in result.stdout  # the command's output is shown as it runs
    assert verdict(result) == "PASS: the command finished with exit status 0"


def test_another_error_still_fails_and_says_it_is_another(
    recorded: Verification, tmp_path: Path
) -> None:
    """The run still crashes, so the check fails; the line says it is not this failure."""
    other = "raise ValueError('num_labels must be positive')"
    result = run_script(recorded.script, tmp_path, "--", sys.executable, "-c", other)
    assert result.returncode == 1, result.stdout + result.stderr
    line = verdict(result)
    assert line.startswith("FAIL: the command still crashes, with another error, not this")
    assert line.endswith("ValueError: num_labels must be positive")


def test_a_command_past_the_timeout_without_the_failure_passes(
    recorded: Verification, tmp_path: Path
) -> None:
    sleeper = "import time; print('step 1', flush=True); time.sleep(60)"
    result = run_script(
        recorded.script, tmp_path, "--timeout-seconds", "1", "--", sys.executable, "-c", sleeper
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert verdict(result).startswith("PASS: the command ran past the 1 s timeout without")


def test_the_failure_printed_by_a_command_that_then_hangs_fails(
    recorded: Verification, tmp_path: Path
) -> None:
    """One rank raised and printed the error while the others wait: still this failure."""
    hangs = (
        "import time; print('RuntimeError: mat1 and mat2 shapes cannot be multiplied "
        "(8x16 and 32x64)', flush=True); time.sleep(60)"
    )
    result = run_script(
        recorded.script, tmp_path, "--timeout-seconds", "1", "--", sys.executable, "-c", hangs
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert verdict(result).startswith(
        "FAIL: the failure is still there (the command was still running after 1 s)"
    )


def test_a_program_that_does_not_exist_could_not_run(
    recorded: Verification, tmp_path: Path
) -> None:
    result = run_script(
        recorded.script, tmp_path, "--", "trainwreck-no-such-program", "--epochs", "1"
    )
    assert result.returncode == COULD_NOT_RUN, result.stdout + result.stderr
    assert verdict(result).startswith("COULD NOT RUN: the shell could not start the command")


def test_a_case_without_a_command_could_not_run_until_one_is_given(tmp_path: Path) -> None:
    """pytorch-mm-shape-3 holds the traceback only: the command must come after --."""
    verification = diagnose_case(load_case(CASES / "pytorch-mm-shape-3")).hypotheses[0].verification
    assert verification is not None and verification.kind == "rerun"
    assert parameters_of(verification.script)["command"] == ""
    bare = run_script(verification.script, tmp_path)
    assert bare.returncode == COULD_NOT_RUN, bare.stdout + bare.stderr
    assert verdict(bare).startswith("COULD NOT RUN: no command to rerun: give the command")
    # The same failure at other shapes is still this failure: the page's regex widens them.
    other_shapes = MATMUL_ERROR.replace("1x2 and 6x64", "8x16 and 32x64")
    given = run_script(
        verification.script, tmp_path, "--", sys.executable, "-c", f"raise {other_shapes}"
    )
    assert given.returncode == 1, given.stdout + given.stderr
    assert verdict(given).startswith("FAIL: the failure is still there")


def test_a_launch_line_in_the_log_is_the_command() -> None:
    verification = (
        diagnose_case(load_case(CASES / "pick-invalid-device-ordinal-14"))
        .hypotheses[0]
        .verification
    )
    assert verification is not None and verification.kind == "rerun"
    command = str(parameters_of(verification.script)["command"])
    assert command.startswith("CUDA_VISIBLE_DEVICES=1,2 python -m torch.distributed.launch")


def _unpaged_signature(tmp_path: Path, error_line: str) -> tuple[re.Pattern[str], str]:
    """The signature of a crash no page knows: (regex, its source)."""
    log = tmp_path / "train.log"
    log.write_text(
        "Traceback (most recent call last):\n"
        '  File "train.py", line 9, in <module>\n'
        "    step(batch)\n"
        f"{error_line}\n"
    )
    evidence, _ = examine([str(log)])
    unpaged = Hypothesis(
        id="case:no-page",
        title="a crash no page knows",
        category="crash",
        root_cause="unknown",
        mechanism="unknown",
        confidence="low",
        score=0.1,
    )
    parameters = {p.name: p for p in rerun_parameters(Context(unpaged, evidence, ()))}
    return re.compile(str(parameters["signature"].value)), parameters["signature"].source


def test_without_a_page_the_final_exception_is_the_signature(tmp_path: Path) -> None:
    """Its type and message, with the address and numbers widened."""
    signature, source = _unpaged_signature(
        tmp_path,
        "mylib.errors.FrobnicatorError: frobnicator at 0x7f3a12 failed after 41 steps (rank 3)",
    )
    assert source.endswith(": the final exception, numbers widened")
    again = (
        "[rank1]: mylib._impl.FrobnicatorError: frobnicator at 0x55aa failed after 7 steps (rank 1)"
    )
    assert signature.search(again)
    assert not signature.search("FrobnicatorError: frobnicator at 0x55aa refused its input")
    assert not signature.search("ValueError: frobnicator at 0x7f3a12 failed after 41 steps")


def test_a_shell_variable_in_the_message_is_widened_not_refused(tmp_path: Path) -> None:
    """The script refuses values holding `$VAR`; a message quoting one must not trip that."""
    signature, _ = _unpaged_signature(
        tmp_path, "mylib.DatasetMissing: no dataset at $DATA_DIR/train.json"
    )
    assert "DATA_DIR" not in signature.pattern
    assert signature.search("mylib.DatasetMissing: no dataset at /mnt/data/train.json")
