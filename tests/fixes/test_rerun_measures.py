"""The reruns for slow runs, wrong outputs and local hangs, generated from real diagnoses and
run for real on the CPU against small commands that print what real runs print.

Each script comes from a golden case whose top hypothesis is of that class; the commands
given after `--` print tqdm bars, HF Trainer dicts, metric lines or a lock line and sleep.
"""

from __future__ import annotations

import shutil
import sys
from functools import cache
from pathlib import Path

import pytest
from script_runs import COULD_NOT_RUN, parameters_of, run_script, verdict

from trainwreck import diagnose
from trainwreck.curation.cases import diagnose_case, load_case
from trainwreck.fixes.scripts.readings import metric_in, rate_in

CASES = Path(__file__).parents[1] / "cases"
SLOW_CASE = CASES / "dion-recompile-limit-23"  # torch.compile recompiles: no data-loader fix
WRONG_CASE = CASES / "repro-argmax-over-batch-dim"  # its log prints val_acc each epoch
LOCK_CASE = CASES / "deepspeedexamples-torch-extensions-lock-302"
LOCK_LINE = "Using /root/.cache/torch_extensions/py311_cu121 as PyTorch extensions root..."


@cache
def script_of(case: Path, kind: str) -> str:
    verification = diagnose_case(load_case(case)).hypotheses[0].verification
    assert verification is not None and verification.kind == kind
    return verification.script


def python(*lines: str, sleep: float = 0) -> list[str]:
    """A command printing `lines` (flushed), then sleeping `sleep` seconds."""
    code = f"import time\nfor line in {list(lines)!r}:\n    print(line, flush=True)\n"
    return [sys.executable, "-c", code + f"time.sleep({sleep})"]


def bar(rate: str) -> str:
    return f" 40%|####      | 40/100 [00:20<00:30, {rate}, loss=1.2]"


@pytest.mark.parametrize(
    ("line", "reading"),
    [
        (bar("2.50it/s"), ("it/s", 2.5)),
        (bar("4.00s/it"), ("it/s", 0.25)),
        ("Map: 100%|####| 500/500 [00:03<00:00, 155.57 examples/s]", ("examples/s", 155.57)),
        ("{'train_runtime': 10.0, 'train_samples_per_second': '12.5'}", ("train_samples/s", 12.5)),
        (
            "Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: 55.1 tokens/s",
            ("generation tokens/s", 55.1),
        ),
        ("Throughput: 4.52 requests/s, 2314.17 total tokens/s", ("requests/s", 4.52)),
        (" iteration 10/ 100 | throughput per GPU (TFLOP/s/GPU): 187.3 |", ("TFLOP/s/GPU", 187.3)),
        ("step 7: 1234.5 tokens/s", ("tokens/s", 1234.5)),
        ("  0%|          | 0/100 [00:00<?, ?it/s]", None),
        ("copied 3.2 GB/s", None),
    ],
)
def test_rates_are_read_as_items_per_second(line: str, reading: tuple[str, float] | None) -> None:
    assert rate_in(line) == reading


@pytest.mark.parametrize(
    ("metric", "line", "value"),
    [
        ("val_acc", "epoch 10 train_loss 0.3428 val_acc 0.798", 0.798),
        ("val_acc", "epoch 4: train_loss=0.1050 val_acc=5571.4%", 5571.4),
        ("eval_accuracy", "{'eval_loss': 0.3, 'eval_accuracy': '0.91', 'epoch': 2.0}", 0.91),
        ("accuracy", "test accuracy: tensor(0.75)", 0.75),
        ("acc", "val_acc=0.5 top5_acc 0.9", None),  # neither is `acc` itself
    ],
)
def test_a_metric_is_read_from_one_line(metric: str, line: str, value: float | None) -> None:
    assert metric_in(metric, line) == value


# --- slow throughput: the rerun's rate against the one before the fix -------------------------


def test_the_slow_case_leaves_the_rate_before_the_fix_to_be_measured() -> None:
    values = parameters_of(script_of(SLOW_CASE, "rerun-throughput"))
    assert (values["throughput_before"], values["unit"], values["min_speedup"]) == (0.0, "", 1.1)


@pytest.mark.parametrize(
    ("rates", "status", "ending"),
    [
        (["2.40it/s", "2.50it/s", "2.60it/s"], 0, "PASS: the run is faster: 2.5 it/s against 2"),
        (["2.00it/s", "2.10it/s", "2.05it/s"], 1, "FAIL: the run is still slow: 2.05 it/s against"),
        (["0.40s/it", "0.40s/it"], 0, "PASS: the run is faster: 2.5 it/s"),  # 0.4 s an item
    ],
)
def test_a_rerun_is_judged_against_the_rate_before(
    tmp_path: Path, rates: list[str], status: int, ending: str
) -> None:
    command = python(*(bar(rate) for rate in rates))
    result = run_script(
        script_of(SLOW_CASE, "rerun-throughput"),
        tmp_path,
        *("--throughput-before", "2.0", "--unit", "it/s", "--", *command),
    )
    assert result.returncode == status, result.stdout + result.stderr
    assert verdict(result).startswith(ending)


def test_without_a_rate_before_the_rerun_measures_and_says_what_to_pass(tmp_path: Path) -> None:
    command = python("{'train_runtime': 8.0, 'train_samples_per_second': 31.25}")
    result = run_script(script_of(SLOW_CASE, "rerun-throughput"), tmp_path, "--", *command)
    assert result.returncode == COULD_NOT_RUN, result.stdout + result.stderr
    assert "throughput: 31.25 train_samples/s (median of 1 readings" in result.stdout
    assert verdict(result).endswith("--throughput-before <its rate> --unit train_samples/s")


def test_no_rate_in_the_output_or_a_crash_could_not_run(tmp_path: Path) -> None:
    script = script_of(SLOW_CASE, "rerun-throughput")
    flags = ("--throughput-before", "2.0", "--unit", "it/s", "--")
    silent = run_script(script, tmp_path, *flags, *python("epoch 1 done"))
    assert silent.returncode == COULD_NOT_RUN, silent.stdout + silent.stderr
    assert verdict(silent).startswith("COULD NOT RUN: the output shows no throughput")
    other_unit = run_script(script, tmp_path, *flags, *python(bar("3.0 examples/s")))
    assert other_unit.returncode == COULD_NOT_RUN
    assert "the output shows no it/s (it printed examples/s 3)" in verdict(other_unit)
    crash = [sys.executable, "-c", "print('" + bar("9.9it/s") + "'); raise SystemExit(3)"]
    crashed = run_script(script, tmp_path, *flags, *crash)
    assert crashed.returncode == COULD_NOT_RUN
    assert verdict(crashed).startswith("COULD NOT RUN: the command exited with status 3")


def test_a_rate_in_the_evidence_is_the_rate_before(tmp_path: Path) -> None:
    """The slow case's log with its progress bars: the median rate, sourced to its line."""
    log = tmp_path / "train.log"
    shutil.copy(SLOW_CASE / "train.log", log)
    with log.open("a") as bars:
        bars.writelines(f"{bar(rate)}\n" for rate in ("1.10it/s", "1.30it/s", "1.20it/s"))
    top = diagnose([str(log)]).hypotheses[0]
    assert top.verification is not None and top.verification.kind == "rerun-throughput"
    values = parameters_of(top.verification.script)
    assert (values["throughput_before"], values["unit"]) == (1.2, "it/s")
    assert "train.log:" in top.verification.script and "the median of 3 readings" in (
        top.verification.script
    )
    faster = run_script(top.verification.script, tmp_path, "--", *python(bar("1.40it/s")))
    assert faster.returncode == 0, faster.stdout + faster.stderr
    slower = run_script(top.verification.script, tmp_path, "--", *python(bar("1.25it/s")))
    assert slower.returncode == 1, slower.stdout + slower.stderr


# --- wrong output: the metric's last value against the user's expectation ---------------------


def test_the_metric_the_log_prints_is_filled_and_the_expectation_left_to_the_user() -> None:
    script = script_of(WRONG_CASE, "rerun-metric")
    values = parameters_of(script)
    assert (values["metric"], values["expect"]) == ("val_acc", "")
    assert "the log's last val_acc was 0.798" in script


@pytest.mark.parametrize(
    ("last", "status", "ending"),
    [
        ("0.867", 0, "PASS: val_acc = 0.867, expected >=0.85"),
        ("0.798", 1, "FAIL: the output is still wrong: val_acc = 0.798, expected >=0.85"),
    ],
)
def test_the_last_value_printed_is_judged(
    tmp_path: Path, last: str, status: int, ending: str
) -> None:
    command = python(
        "epoch 1 train_loss 1.39 val_acc 0.5", f"epoch 10 train_loss 0.34 val_acc {last}"
    )
    result = run_script(
        script_of(WRONG_CASE, "rerun-metric"), tmp_path, "--expect", ">=0.85", "--", *command
    )
    assert result.returncode == status, result.stdout + result.stderr
    assert verdict(result).startswith(ending)


def test_no_expectation_or_no_metric_value_could_not_run(tmp_path: Path) -> None:
    script = script_of(WRONG_CASE, "rerun-metric")
    command = python("epoch 10 train_loss 0.34 val_acc 0.9")
    unset = run_script(script, tmp_path, "--", *command)
    assert unset.returncode == COULD_NOT_RUN
    assert verdict(unset).startswith("COULD NOT RUN: --expect is '': pass the value")
    assert "rerunning" not in unset.stdout  # refused before running the command
    absent = run_script(script, tmp_path, "--expect", "<0.5", "--", *python("epoch 10 done"))
    assert absent.returncode == COULD_NOT_RUN
    assert verdict(absent).startswith("COULD NOT RUN: the output shows no val_acc value")


# --- a local hang: still stuck at the timeout on the lock line ---------------------------------


def test_the_lock_hang_gets_the_line_it_printed_not_a_stack_frame() -> None:
    values = parameters_of(script_of(LOCK_CASE, "rerun-hang"))
    assert str(values["command"]).endswith(
        "python -u main.py --local_rank=0 "
        "--model_name_or_path facebook/opt-1.3b --gradient_accumulation_steps 2 --lora_dim 128 "
        "--zero_stage 0 --deepspeed --output_dir ./output"
    )
    assert str(values["signature"]).startswith("Using (?P<extensions_root>")


@pytest.mark.parametrize(
    ("lines", "sleep", "status", "beginning"),
    [
        ([LOCK_LINE], 60, 1, "FAIL: the run is still stuck where it hung: it was still running"),
        (
            [LOCK_LINE, "Loading extension module fused_adam..."],
            60,
            0,
            "PASS: the run moved past the point where it hung",
        ),
        ([LOCK_LINE, "step 1 loss 2.3"], 0, 0, "PASS: the command finished with exit status 0"),
        (["loading the model"], 60, COULD_NOT_RUN, "COULD NOT RUN: the command was still running"),
    ],
)
def test_a_rerun_stuck_on_the_lock_line_fails(
    tmp_path: Path, lines: list[str], sleep: float, status: int, beginning: str
) -> None:
    result = run_script(
        script_of(LOCK_CASE, "rerun-hang"),
        tmp_path,
        *("--timeout-seconds", "1", "--", *python(*lines, sleep=sleep)),
    )
    assert result.returncode == status, result.stdout + result.stderr
    assert verdict(result).startswith(beginning)
