"""`trainwreck run` on real commands: a 2-process torchrun (gloo) job whose rank 1 raises,
a command that succeeds, one killed by a forwarded SIGTERM, and one that does not exist.

Each runs the real CLI in a child process, so the exit status seen is the one a shell sees.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from trainwreck.evidence.collect import collect
from trainwreck.recorder.run import COMMAND_FILE, ENVIRONMENT_FILE, OUTPUT_LOG

JOB = Path(__file__).parents[1] / "distributed" / "jobs" / "rank_raises.py"
JOB_LIMIT_S = 120  # two CPU processes importing torch on two cores, the 4 s timeout, diagnosis
SIGNAL_WAIT_S = 60  # for a child python to start and print its first line
TRAINWRECK = [sys.executable, "-m", "trainwreck"]


def _run(*args: str, timeout: float = JOB_LIMIT_S) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, OMP_NUM_THREADS="1")
    return subprocess.run(
        [*TRAINWRECK, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def test_a_torchrun_job_failing_on_rank_1_is_recorded_and_diagnosed(tmp_path: Path) -> None:
    out = tmp_path / "run"
    torchrun = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2"]
    torchrun += ["--standalone", "--monitor-interval", "3", "--tee", "3", str(JOB)]
    done = _run("run", "--out", str(out), "--", *torchrun)
    assert done.returncode == 1, done.stderr[-2000:]  # torchrun's own status, passed through
    assert shlex.split((out / COMMAND_FILE).read_text()) == torchrun
    assert (
        "[default1]:[rank1]: ValueError: corrupt sample in batch 2"
        in (out / OUTPUT_LOG).read_text()
    )
    assert "[default1]:[rank1]: ValueError: corrupt sample in batch 2" in done.stderr  # tee'd live
    assert "Rank 1 stopped on its own error (ValueError)" in done.stdout
    assert f"rank 1 raised ValueError at {JOB}:13" in done.stdout
    assert collect([str(out)]).environment["torch"] == version("torch")


def test_a_command_that_succeeds_exits_0_without_a_diagnosis(tmp_path: Path) -> None:
    done = _run("run", "--out", str(tmp_path), "--", sys.executable, "-c", "print('all good')")
    assert done.returncode == 0
    assert done.stdout == "all good\n"
    assert (tmp_path / OUTPUT_LOG).read_text() == "all good\n"
    assert (tmp_path / ENVIRONMENT_FILE).is_file()


def test_a_sigterm_is_forwarded_and_its_status_passed_through(tmp_path: Path) -> None:
    sleeper = "import time; print('started', flush=True); time.sleep(60)"
    with subprocess.Popen(
        [*TRAINWRECK, "run", "--out", str(tmp_path), "--", sys.executable, "-c", sleeper],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as recorder:
        assert recorder.stdout is not None
        assert recorder.stdout.readline() == "started\n"  # the child runs: its line came through
        recorder.send_signal(signal.SIGTERM)
        assert recorder.wait(SIGNAL_WAIT_S) == 128 + signal.SIGTERM


def test_a_command_config_file_is_copied(tmp_path: Path) -> None:
    config = tmp_path / "train.yaml"
    config.write_text("learning_rate: 0.001\n")
    out = tmp_path / "run"
    code = "import sys; sys.exit(3)"
    done = _run("run", "--out", str(out), "--", sys.executable, "-c", code, f"--config={config}")
    assert done.returncode == 3
    assert (out / "configs" / "train.yaml").read_text() == config.read_text()


def test_a_missing_command_exits_2_with_one_line(tmp_path: Path) -> None:
    done = _run("run", "--out", str(tmp_path / "run"), "--", "no-such-command-here")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "trainwreck: error: command not found: no-such-command-here"
    ]
    assert not (tmp_path / "run").exists()
