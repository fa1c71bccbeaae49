"""The generated verification scripts, executed for real on the CPU.

Each script comes from a real diagnosis: of a broken tiny-Llama run this test
starts, or of a real case. Then it runs in a subprocess, as a user would run it.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from trainwreck import diagnose
from trainwreck.curation.cases import diagnose_case, load_case
from trainwreck.model import Diagnosis

FIXTURES = Path(__file__).parent / "fixtures"
TRAIN_SCRIPT = FIXTURES / "train_tiny_llama.py"
CASES = Path(__file__).parents[1] / "cases"
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "TRANSFORMERS_VERBOSITY": "error"}


def _write_script(diagnosis: Diagnosis, path: Path, kind: str) -> Path:
    verification = diagnosis.hypotheses[0].verification
    assert verification is not None and verification.kind == kind
    path.write_text(verification.script)
    return path


def _run(script: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    (result,) = _run_together(script, [list(flags)])
    return result


def _run_together(
    script: Path, flag_sets: list[list[str]]
) -> list[subprocess.CompletedProcess[str]]:
    """Run the script once per flag set, all at the same time (each pays torch's import)."""
    processes = [
        subprocess.Popen(
            [sys.executable, str(script), *flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        for flags in flag_sets
    ]
    results = []
    for process, flags in zip(processes, flag_sets, strict=True):
        stdout, stderr = process.communicate(timeout=300)
        results.append(subprocess.CompletedProcess(flags, process.returncode, stdout, stderr))
    return results


def test_stability_script_fails_with_the_old_rate_and_passes_with_the_fix(tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    run_dir = tmp_path / "run"
    log = tmp_path / "train.log"
    spec = importlib.util.spec_from_file_location("train_tiny_llama", TRAIN_SCRIPT)
    assert spec is not None and spec.loader is not None
    broken_run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(broken_run)
    with log.open("w") as out:  # the user's broken run, in-process: AdamW at 3.0
        broken_run.train(run_dir, 3.0, out)
    diagnosis = diagnose([str(log)], config_files=[str(run_dir / "train_config.json")])
    assert diagnosis.hypotheses[0].id == "loss-divergence-high-learning-rate"
    script = _write_script(diagnosis, tmp_path / "verify.py", "training-steps")
    text = script.read_text()
    assert f"'model': '{run_dir / 'model'}'" in text  # the user's model, from their config
    assert "'learning_rate': 0.3," in text  # 3.0 from the config, cut 10x by the fix

    broken, fixed = _run_together(script, [["--learning-rate", "3.0"], []])
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "FAIL" in broken.stdout
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    steps = re.findall(r"^step \d+ loss [\d.]+ grad_norm [\d.]+", fixed.stdout, re.M)
    assert len(steps) == 30  # loss and grad norm printed every step


@pytest.fixture
def server_factory() -> Iterator[object]:
    """Start real completion servers with a chosen delay; stop them afterwards."""
    started: list[subprocess.Popen[str]] = []

    def start(delay_seconds: float) -> str:
        process = subprocess.Popen(
            [sys.executable, str(FIXTURES / "openai_server.py"), str(delay_seconds)],
            stdout=subprocess.PIPE,
            text=True,
        )
        started.append(process)
        assert process.stdout is not None
        port = process.stdout.readline().split()[1]
        return f"http://127.0.0.1:{port}/v1/completions"

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=10)


def _serving_script(tmp_path: Path) -> Path:
    diagnosis = diagnose([str(CASES / "vllm-limo-preemption-29" / "train.log")])
    return _write_script(diagnosis, tmp_path / "load_test.py", "load-test")


def _latencies(stdout: str) -> tuple[float, float, float]:
    match = re.search(r"latency p50 ([\d.]+) s, p95 ([\d.]+) s, p99 ([\d.]+) s", stdout)
    assert match, stdout
    p50, p95, p99 = (float(group) for group in match.groups())
    return p50, p95, p99


def test_serving_script_reports_the_server_delay(tmp_path: Path, server_factory) -> None:  # type: ignore[no-untyped-def]
    script = _serving_script(tmp_path)
    endpoint = server_factory(0.3)
    result = _run(script, "--endpoint", endpoint, "--concurrency", "4", "--requests", "12")
    assert result.returncode == 0, result.stdout + result.stderr
    # Every request waits 0.3 s on the server; a threaded server overlaps the four
    # concurrent ones, so each latency is the delay plus local HTTP overhead
    # (milliseconds; 0.15 s leaves room for a loaded CI machine).
    for value in _latencies(result.stdout):
        assert 0.3 <= value < 0.45, result.stdout
    rate = float(re.search(r"throughput ([\d.]+) requests/s", result.stdout).group(1))  # type: ignore[union-attr]
    assert 4 / 0.45 < rate <= 4 / 0.3 + 0.5  # four in flight, each taking ~0.3 s
    slow = server_factory(0.6)
    failed = _run(
        script,
        "--endpoint",
        slow,
        "--concurrency",
        "4",
        "--requests",
        "8",
        "--max-p95-seconds",
        "0.5",
    )
    assert failed.returncode == 1, failed.stdout
    assert "FAIL: p95" in failed.stdout
    assert 0.6 <= _latencies(failed.stdout)[1] < 0.75


def test_dependency_probe_reports_the_installed_versions(tmp_path: Path) -> None:
    from importlib.metadata import version

    diagnosis = diagnose([str(CASES / "transformers-tokenizers-pin-4836" / "train.log")])
    script = _write_script(diagnosis, tmp_path / "probe.py", "package-probe")
    installed = version("packaging")
    satisfied, unsatisfied, own = _run_together(
        script,
        [
            ["--requirements", f"packaging=={installed}|click"],
            ["--requirements", "packaging<0.1|no-such-distribution-xyz>=1"],
            [],  # as generated: the case's own pin, checked against this environment
        ],
    )
    assert satisfied.returncode == 0, satisfied.stdout + satisfied.stderr
    assert f"packaging: installed {installed}, need =={installed}: ok" in satisfied.stdout
    assert f"click: installed {version('click')}, need any version: ok" in satisfied.stdout
    assert "import packaging: ok" in satisfied.stdout
    assert unsatisfied.returncode == 1
    assert f"packaging: installed {installed}, need <0.1: MISMATCH" in unsatisfied.stdout
    assert "no-such-distribution-xyz: not installed" in unsatisfied.stdout
    tokenizers = version("tokenizers")
    assert f"tokenizers: installed {tokenizers}, need <=0.23.0,>=0.22.0" in own.stdout
    assert own.returncode == (0 if "MISMATCH" not in own.stdout else 1)


def test_memory_script_measures_on_cpu_against_the_budget(tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    diagnosis = diagnose_case(load_case(CASES / "alpaca-llama7b-fsdp-v100-223"))
    script = _write_script(diagnosis, tmp_path / "peak.py", "peak-memory")
    small = ["--model", "tiny-llama", "--batch-size", "2", "--seq-len", "256"]
    fits, tight = _run_together(script, [small, [*small, "--budget-gib", "0.001"]])
    assert "no CUDA device: measured with tracemalloc instead" in fits.stdout
    assert "against the budget 31.750 GiB" in fits.stdout  # the arithmetic's capacity
    assert fits.returncode == 0, fits.stdout + fits.stderr
    assert 0 < _peak_mib(fits.stdout) < 31.75 * 1024
    assert tight.returncode == 1 and "FAIL: the peak step does not fit" in tight.stdout


@pytest.mark.slow
def test_memory_script_measures_the_step_not_a_constant(tmp_path: Path) -> None:
    """16x the batch must measure more: the CPU fallback sees the step's tensors."""
    pytest.importorskip("transformers")
    diagnosis = diagnose_case(load_case(CASES / "alpaca-llama7b-fsdp-v100-223"))
    script = _write_script(diagnosis, tmp_path / "peak.py", "peak-memory")
    shape = ["--model", "tiny-llama", "--seq-len", "256", "--batch-size"]
    small, large = _run_together(script, [[*shape, "2"], [*shape, "32"]])
    assert _peak_mib(small.stdout) < _peak_mib(large.stdout), small.stdout + large.stdout


def _peak_mib(stdout: str) -> float:
    match = re.search(r"measured peak [\d.]+ GiB \(([\d.]+) MiB\)", stdout)
    assert match, stdout
    return float(match.group(1))


@pytest.mark.slow
def test_collective_probe_runs_two_gloo_ranks(tmp_path: Path) -> None:
    diagnosis = diagnose_case(load_case(CASES / "llamafactory-tokenize-nccl-timeout-2424"))
    script = _write_script(diagnosis, tmp_path / "probe.py", "collective-probe")
    result = _run(script, "--world-size", "2", "--elements", "1024", "--timeout-seconds", "60")
    assert result.returncode == 0, result.stdout + result.stderr
    for rank in (0, 1):
        assert f"[rank {rank}/2]" in result.stdout and "barrier round 3 ok" in result.stdout


def test_the_learning_rate_comes_from_the_log_not_an_assumption(tmp_path: Path) -> None:
    """The run logged 'learning_rate': 5.0 every step and handed in no config: the script
    once assumed 5e-05 (transformers' default) and passed. With the logged rate it fails."""
    pytest.importorskip("transformers")
    run_dir = tmp_path / "run"
    log = tmp_path / "train.log"
    spec = importlib.util.spec_from_file_location("train_tiny_llama", TRAIN_SCRIPT)
    assert spec is not None and spec.loader is not None
    broken_run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(broken_run)
    with log.open("w") as out:
        broken_run.train(run_dir, 5.0, out)
    diagnosis = diagnose([str(log)])  # the log only: the rate is in its dicts, nowhere else
    script = _write_script(diagnosis, tmp_path / "verify.py", "training-steps")
    text = script.read_text()
    assert "'learning_rate': 5e-05" not in text
    rate_comment = text.splitlines()[text.splitlines().index("    'learning_rate': 0.5,") - 1]
    assert "train.log: learning_rate as logged (the peak over 60 steps) = 5.0" in rate_comment
    old_rate = _run(script, "--learning-rate", "5.0", "--model", str(run_dir / "model"))
    assert old_rate.returncode == 1 and "FAIL" in old_rate.stdout, old_rate.stdout
