"""trainwreck.watch on real CPU training loops: a NaN reaches the diagnosis at its step, a
killed run leaves a readable file, SIGTERM a complete one, and a failing recorder never
stops training."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
import torch

import trainwreck
from trainwreck.pipeline import examine
from trainwreck.recorder import watch as watch_module

NAN_STEP = 7  # the step whose batch holds a NaN
STEPS = 12
EVERY = 5  # grad norm on steps 5 and 10
# Lines the child must have written before it is signalled: enough that the writer is busy.
LINES_BEFORE_SIGNAL = 200

# A child that trains until it is killed; argv: out folder, "chained" to install its own
# SIGTERM handler first (it prints how many `.step` calls had returned and exits 0) or
# "default".
CHILD = """
import signal, sys, torch, trainwreck
done = 0
def on_term(signum, frame):
    print(done, flush=True)
    sys.exit(0)
if sys.argv[2] == "chained":
    signal.signal(signal.SIGTERM, on_term)
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
handle = trainwreck.watch(model, optimizer, out=sys.argv[1], every=3)
while True:
    loss = model(torch.randn(8, 4)).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    handle.step(loss)
    done += 1
"""


def _train(
    handle: watch_module.Watch, model: torch.nn.Module, optimizer: torch.optim.Optimizer
) -> int:
    """A plain loop; its batch at NAN_STEP holds a NaN. Returns the steps it finished."""
    done = 0
    for step in range(1, STEPS + 1):
        batch = torch.randn(8, 4)
        if step == NAN_STEP:
            batch[0, 0] = math.nan
        loss = (model(batch) - 1).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        handle.step(loss)
        done += 1
    return done


def _records(path: Path) -> list[dict[str, float]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_nan_loss_is_recorded_at_its_step_and_diagnosed_as_the_onset(tmp_path: Path) -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    handle = trainwreck.watch(model, optimizer, str(tmp_path), EVERY)
    _train(handle, model, optimizer)
    handle.close()

    records = _records(tmp_path / "recorder-rank0.jsonl")
    assert [r["step"] for r in records] == list(range(1, STEPS + 1))
    assert all(math.isfinite(r["loss"]) for r in records[: NAN_STEP - 1])
    assert math.isnan(records[NAN_STEP - 1]["loss"])
    assert handle.first_nonfinite_step == NAN_STEP
    assert [r["step"] for r in records if "grad_norm" in r] == [EVERY, 2 * EVERY]
    assert all(r["learning_rate"] == 0.1 and r["step_time_s"] > 0 for r in records)

    diagnosis = trainwreck.diagnose([str(tmp_path)])
    onsets = [f for f in diagnosis.findings if f.id == "loss.non_finite"]
    assert [f.values["step"] for f in onsets] == [NAN_STEP]


def _run_child_until(tmp_path: Path, how: str, sig: signal.Signals) -> subprocess.Popen[str]:
    """Start the child, wait until it has written LINES_BEFORE_SIGNAL lines, signal it."""
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    out = tmp_path / "run"
    child = subprocess.Popen(
        [sys.executable, str(script), str(out), how], stdout=subprocess.PIPE, text=True
    )
    path, deadline = out / "recorder-rank0.jsonl", time.monotonic() + 60
    while not (path.exists() and path.read_bytes().count(b"\n") >= LINES_BEFORE_SIGNAL):
        assert child.poll() is None and time.monotonic() < deadline, "the child did not record"
        time.sleep(0.02)
    child.send_signal(sig)
    child.wait(timeout=30)
    return child


def test_a_run_killed_mid_write_parses_to_its_last_complete_line(tmp_path: Path) -> None:
    _run_child_until(tmp_path, "default", signal.SIGKILL)
    text = (tmp_path / "run" / "recorder-rank0.jsonl").read_text()
    complete = text[: text.rfind("\n") + 1].splitlines()
    assert [json.loads(line)["step"] for line in complete] == list(range(1, len(complete) + 1))

    evidence, _ = examine([str(tmp_path / "run")])
    (table,) = evidence.metrics
    assert len(table.series["loss"].values) == len(complete)
    assert set(table.series) >= {"loss", "learning_rate", "grad_norm"}


@pytest.mark.parametrize("how", ["chained", "default"])
def test_sigterm_leaves_a_complete_file(tmp_path: Path, how: str) -> None:
    child = _run_child_until(tmp_path, how, signal.SIGTERM)
    text = (tmp_path / "run" / "recorder-rank0.jsonl").read_text()
    assert text.endswith("\n")
    steps = [record["step"] for record in map(json.loads, text.splitlines())]
    assert steps == list(range(1, len(steps) + 1))
    if how == "chained":  # the handler before ours ran after the flush
        assert child.returncode == 0
        returned = int(child.communicate()[0])
        # Every step whose `.step` returned is on disk; the signal may also have come
        # inside one more `.step` call, or between its return and `done += 1`.
        assert steps[-1] - returned in (0, 1)
    else:  # no handler before ours: the process still dies of the signal
        assert child.returncode == -signal.SIGTERM


def test_a_raising_recorder_warns_once_and_training_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(params: list[torch.Tensor]) -> torch.Tensor:
        raise RuntimeError("planted failure")

    monkeypatch.setattr(watch_module, "_grad_norm", broken)
    model = torch.nn.Linear(4, 1)
    before = signal.getsignal(signal.SIGTERM)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        handle = trainwreck.watch(model, optimizer, out=str(tmp_path), every=3)
        finished = _train(handle, model, optimizer)
    assert finished == STEPS
    ours = [w for w in caught if "trainwreck.watch" in str(w.message)]
    assert len(ours) == 1 and "planted failure" in str(ours[0].message)
    assert [r["step"] for r in _records(tmp_path / "recorder-rank0.jsonl")] == [1, 2]
    assert signal.getsignal(signal.SIGTERM) == before  # disabling closed it: handler given back
    assert handle.steps == 2  # the optimizer hook raised in step 3; nothing recorded after it
