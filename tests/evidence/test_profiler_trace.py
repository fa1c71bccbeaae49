"""Reading torch.profiler traces: real ones, recorded here on the CPU and cut from HTA's data.

Fixtures (tests/analyzers/fixtures/traces, each with how it was made):
- planted_cpu.pt.trace.json.gz: scripts/record_profiler_trace.py on torch 2.13 (CPU), with
  the planting and each step's wall time measured apart from the profiler in planted_cpu.json;
- hta_torchrec_a100_step551 / hta_v100_step1010: one step each of two real multi-GPU traces
  from Holistic Trace Analysis' test data, cut by scripts/excerpt_trace.py.
"""

from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck.evidence import files, profiler_trace, trace_events
from trainwreck.evidence.collect import collect
from trainwreck.evidence.profiler_trace import read
from trainwreck.model import Gap, ProfilerTrace

TRACES = Path(__file__).parent.parent / "analyzers" / "fixtures" / "traces"
PLANTED = TRACES / "planted_cpu.pt.trace.json.gz"
A100 = TRACES / "hta_torchrec_a100_step551.pt.trace.json.gz"
V100 = TRACES / "hta_v100_step1010.pt.trace.json.gz"


def _read(path: Path) -> ProfilerTrace:
    with gzip.open(path, "rb") as stream:
        trace = read(path.name, stream)
    assert isinstance(trace, ProfilerTrace), trace
    return trace


def _events(path: Path) -> list[dict[str, object]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        events: list[dict[str, object]] = json.load(handle)["traceEvents"]
    return events


def _union_us(intervals: list[tuple[float, float]], start: float, end: float) -> float:
    """An independent oracle: sort, merge, clip, add up (plain Python)."""
    total, reach = 0.0, start
    for low, high in sorted(intervals):
        low, high = max(low, reach), min(high, end)
        if high > low:
            total += high - low
            reach = high
    return total


def _kind(path: Path) -> str:
    candidate = files.sniff(str(path))
    assert isinstance(candidate, files.Candidate), candidate
    return candidate.kind


def test_sniffed_as_a_trace_by_name_and_by_content(tmp_path: Path) -> None:
    assert _kind(PLANTED) == "profiler_trace"
    renamed = tmp_path / "rank0.json"  # HTA's own names: no .pt.trace
    with gzip.open(A100, "rb") as source:
        renamed.write_bytes(source.read())
    assert _kind(renamed) == "profiler_trace"
    config = tmp_path / "config.json"
    config.write_text('{"events": [], "lr": 0.1}', encoding="utf-8")
    assert _kind(config) == "config"


def test_planted_cpu_trace_steps_match_the_wall_clock() -> None:
    trace = _read(PLANTED)
    planting = json.loads((TRACES / "planted_cpu.json").read_text(encoding="utf-8"))
    walls = planting["step_wall_s"]
    assert [step.number for step in trace.steps] == [int(n) for n in walls]
    assert trace.sync_evidence == "host_reads" and not trace.has_device
    assert trace.loader == "_SingleProcessDataLoaderIter"
    for step in trace.steps:
        assert step.duration_us / 1e6 == pytest.approx(walls[str(step.number)], rel=0.05)
        assert step.data_waits == 1
        assert step.syncs == {"scalar read": planting["host_reads_per_step"]}


def test_device_trace_counts_only_reads_that_waited() -> None:
    trace = _read(A100)
    events = _events(A100)
    assert (trace.device, trace.rank, trace.world_size) == ("NVIDIA A100-SXM4-80GB", 0, 16)
    # The step reads 189 scalars on the host, but none of them around a synchronising call:
    # those tensors were already on the CPU. The 15 copies that waited are what counts.
    scalar_reads = [e for e in events if e.get("name") == "aten::_local_scalar_dense"]
    assert len(scalar_reads) == 189
    (step,) = trace.steps
    assert step.syncs == {"copy": 15}


def test_device_busy_and_exposed_comm_match_an_independent_union() -> None:
    trace = _read(A100)
    events = _events(A100)
    (step,) = trace.steps
    span = next(e for e in events if e.get("name") == "ProfilerStep#551")
    start = float(span["ts"])
    end = start + float(span["dur"])

    def intervals(keep: object) -> list[tuple[float, float]]:
        return [
            (float(e["ts"]), float(e["ts"]) + float(e["dur"]))
            for e in events
            if e.get("ph") == "X" and keep(e)
        ]

    device = intervals(lambda e: e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"))
    nccl = intervals(lambda e: e.get("cat") == "kernel" and "nccl" in str(e["name"]).lower())
    compute = intervals(lambda e: e.get("cat") == "kernel" and "nccl" not in str(e["name"]).lower())
    assert step.gpu_busy_us == pytest.approx(_union_us(device, start, end))
    assert step.comm_us == pytest.approx(_union_us(nccl, start, end))
    exposed = _union_us(nccl + compute, start, end) - _union_us(compute, start, end)
    assert step.exposed_comm_us == pytest.approx(exposed)
    assert 0 < step.exposed_comm_us <= step.comm_us


def test_events_split_across_pieces_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = _read(V100)
    monkeypatch.setattr(trace_events, "PIECE_BYTES", 97)  # every event straddles pieces
    assert _read(V100) == whole


def test_truncated_trace_keeps_the_steps_before_the_cut() -> None:
    with gzip.open(PLANTED, "rb") as handle:
        text = handle.read()
    cut = text.index(b'"name": "ProfilerStep#6"')  # a job killed while exporting
    trace = read("cut.pt.trace.json", io.BytesIO(text[:cut]))
    assert isinstance(trace, ProfilerTrace)
    assert [step.number for step in trace.steps][:4] == [2, 3, 4, 5]
    assert any("truncated" in note for note in trace.notes)


def test_a_truncated_trace_is_a_gap_in_the_report(tmp_path: Path) -> None:
    with gzip.open(PLANTED, "rb") as handle:
        text = handle.read()
    cut = tmp_path / "killed.pt.trace.json"
    cut.write_bytes(text[: len(text) // 2])
    evidence = collect([str(cut)])
    assert evidence.traces and any("truncated" in gap.reason for gap in evidence.gaps)


def test_past_the_record_limit_device_time_is_not_guessed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(profiler_trace, "MAX_TRACE_RECORDS", 1000)
    trace = _read(A100)
    assert trace.sync_evidence == "device" and not trace.has_device
    assert any("left out" in note for note in trace.notes)


def test_a_trace_without_profiler_steps_is_a_gap() -> None:
    text = b'{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 2}]}'
    result = read("no_schedule.json", io.BytesIO(text))
    assert isinstance(result, Gap) and "prof.step()" in result.reason
    assert isinstance(read("empty.json", io.BytesIO(b"{}")), Gap)


def test_collect_puts_the_trace_on_evidence(tmp_path: Path) -> None:
    shutil.copy(PLANTED, tmp_path / PLANTED.name)
    (tmp_path / "train.log").write_text("epoch 1 done\n", encoding="utf-8")
    evidence = collect([str(tmp_path)])
    assert [f.kind for f in evidence.files] == ["profiler_trace", "log"]
    (trace,) = evidence.traces
    assert len(trace.steps) == 8 and trace.source.endswith(PLANTED.name)


# Peak RSS of a fresh process reading one trace (VmHWM: this process alone).
MEASURE = r"""
import json, sys, time
from trainwreck.evidence.collect import collect
start = time.perf_counter()
evidence = collect([sys.argv[1]])
seconds = time.perf_counter() - start
with open("/proc/self/status") as status:
    rss = next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "max_rss_mb": rss,
                  "steps": len(evidence.traces[0].steps), "gaps": len(evidence.gaps)}))
"""


def _big_trace(path: Path, copies: int) -> int:
    """The A100 step repeated `copies` times, each shifted past the last and renumbered."""
    events = _events(A100)
    meta = [e for e in events if e.get("ph") == "M"]
    timed = [e for e in events if e.get("ph") != "M"]
    span = next(e for e in timed if e.get("name") == "ProfilerStep#551")
    shift = float(span["dur"]) + 1.0
    with path.open("w", encoding="utf-8") as out:
        out.write('{"schemaVersion": 1, "traceEvents": [\n')
        out.write(",\n".join(json.dumps(e) for e in meta))
        for copy in range(copies):
            for event in timed:
                moved = {**event, "ts": float(event["ts"]) + copy * shift}
                if moved.get("name") == "ProfilerStep#551":
                    moved["name"] = f"ProfilerStep#{copy}"
                out.write(",\n" + json.dumps(moved))
        out.write("\n]}\n")
    return copies


@pytest.mark.slow
def test_a_200mb_trace_reads_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "big.pt.trace.json"
    steps = _big_trace(path, 48)  # ~4.3 MB per copy
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    measured = json.loads(result.stdout)
    print(f"\n{path.stat().st_size / 1e6:.0f} MB trace: {measured}")
    assert measured["steps"] == steps and measured["gaps"] == 0
    assert measured["max_rss_mb"] < 300
