"""Throughput findings from real torch.profiler traces.

The CPU trace was recorded by scripts/record_profiler_trace.py with two planted stalls: a
Dataset whose __getitem__ sleeps a known time, and one .item() per layer. What the planting
implies is computed from its sleeps and the step times measured apart from the profiler
(planted_cpu.json), never written into the test. The GPU traces are single steps of real
multi-GPU runs from Holistic Trace Analysis' test data (see each .source file).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck.analyzers import gpu_timeline, throughput
from trainwreck.evidence.collect import collect
from trainwreck.model import Evidence, Finding

ROOT = Path(__file__).parent.parent.parent
TRACES = Path(__file__).parent / "fixtures" / "traces"
PLANTED = TRACES / "planted_cpu.pt.trace.json.gz"
A100 = TRACES / "hta_torchrec_a100_step551.pt.trace.json.gz"
V100 = TRACES / "hta_v100_step1010.pt.trace.json.gz"


def _findings(*paths: Path) -> dict[str, Finding]:
    evidence = collect([str(path) for path in paths])
    found = [*throughput.analyze(evidence), *gpu_timeline.analyze(evidence)]
    return {finding.id: finding for finding in found}


def _implied(planting_file: Path) -> tuple[float, float]:
    """The data-wait share and host reads per step the planting implies."""
    planting = json.loads(planting_file.read_text(encoding="utf-8"))
    walls = planting["step_wall_s"].values()
    slept = planting["batch_size"] * planting["sleep_s_per_sample"] * len(walls)
    return slept / sum(walls), float(planting["host_reads_per_step"])


def _check_planted(trace: Path, planting_file: Path) -> None:
    """Both planted stalls are named, each within 10% of what the planting implies."""
    wait_share, reads_per_step = _implied(planting_file)
    found = _findings(trace)
    data_wait, syncs = found["throughput.data_wait"], found["throughput.host_syncs"]
    assert data_wait.values["data_wait_share"] == pytest.approx(wait_share, rel=0.1)
    assert syncs.values["syncs_per_step"] == pytest.approx(reads_per_step, rel=0.1)
    assert syncs.values["sync_evidence"] == "host_reads"
    assert not {"throughput.gpu_idle", "throughput.launch_bound"} & set(found)  # no device


def test_planted_cpu_trace_names_the_data_wait_and_the_item_calls() -> None:
    _check_planted(PLANTED, TRACES / "planted_cpu.json")


@pytest.mark.slow
def test_a_freshly_recorded_trace_names_both_plantings(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    script = ROOT / "scripts" / "record_profiler_trace.py"
    result = subprocess.run(
        [sys.executable, str(script), str(tmp_path)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    _check_planted(tmp_path / "planted_cpu.pt.trace.json.gz", tmp_path / "planted_cpu.json")


def test_data_wait_arithmetic_adds_up() -> None:
    finding = _findings(PLANTED)["throughput.data_wait"]
    assert finding.arithmetic is not None
    lines = {line.label: line for line in finding.arithmetic.lines}
    total, waited = lines["time in those steps"].value, lines["waiting for the next batch"].value
    assert isinstance(total, float) and isinstance(waited, float)
    assert lines["data-wait share"].value == pytest.approx(waited / total, abs=1e-3)
    assert (
        "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"
        in lines["waiting for the next batch"].source
    )
    assert finding.evidence[0].source.endswith(PLANTED.name)


def test_a100_trace_idles_on_launches_copies_and_comms() -> None:
    found = _findings(A100)
    assert set(found) == {
        "throughput.host_syncs",
        "throughput.gpu_idle",
        "throughput.launch_bound",
        "throughput.exposed_comm",
    }
    (trace,) = collect([str(A100)]).traces
    (step,) = trace.steps
    idle = found["throughput.gpu_idle"].values["gpu_idle_share"]
    assert idle == pytest.approx(1 - step.gpu_busy_us / step.duration_us, abs=1e-3)
    assert idle >= gpu_timeline.GPU_IDLE_SHARE
    syncs = found["throughput.host_syncs"].values
    assert syncs["syncs_per_step"] == 15 and syncs["sync_evidence"] == "device"
    bound = found["throughput.launch_bound"].values
    assert bound["kernel_median_us"] <= bound["launch_median_us"]
    exposed = found["throughput.exposed_comm"].values["exposed_comm_share"]
    assert exposed == pytest.approx(step.exposed_comm_us / step.duration_us, abs=1e-3)


def test_syncs_behind_a_busy_gpu_are_not_a_finding() -> None:
    """The V100 step reads 10 values per step, but its GPU is busy 96% of the step: the host's
    waits are hidden behind queued work, so neither they nor the device are the bottleneck."""
    evidence = collect([str(V100)])
    (trace,) = evidence.traces
    assert sum(trace.steps[0].syncs.values()) > throughput.SYNCS_PER_STEP
    assert _findings(V100) == {}


def test_no_trace_no_findings() -> None:
    assert throughput.analyze(Evidence()) == [] and gpu_timeline.analyze(Evidence()) == []


def test_diagnose_leads_with_the_data_loader_page(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(PLANTED, run / PLANTED.name)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "trainwreck",
            "diagnose",
            str(run),
            "--symptoms",
            "training is slow",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = json.loads(result.stdout)
    hypotheses = [h["id"] for h in report["hypotheses"]]
    assert hypotheses[0] == "dataloader-few-workers", hypotheses
    assert "host-sync-every-step" in hypotheses
    assert {"throughput.data_wait", "throughput.host_syncs"} <= {
        f["id"] for f in report["findings"]
    }
    assert report["context"]["frameworks"]["pytorch"].startswith("torch.profiler trace")
    assert all("profiler" not in request["how"] for request in report["next_evidence"])
