"""Read a torch.profiler trace (Chrome JSON, maybe gzipped) into a per-step ProfilerTrace.

Only what the throughput analyzers use is kept while the events stream past: the
`ProfilerStep#N` spans, the DataLoader's `__next__` spans, the operators and runtime calls
that can make the host wait for the device, kernel launches, and device intervals (as
numbers in arrays). Everything else is counted and dropped. The category and event names
are those torch's Kineto writes (`cpu_op`, `user_annotation`, `cuda_runtime`, `kernel`,
`gpu_memcpy`, `gpu_memset`), as in the real traces the tests read.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from trainwreck.evidence import trace_steps
from trainwreck.evidence.trace_events import Readable, TraceEvents
from trainwreck.evidence.trace_steps import Floats, Segments, Span
from trainwreck.limits import MAX_TRACE_RECORDS
from trainwreck.model import Gap, ProfilerTrace, TraceStep

STEP_PREFIX = "ProfilerStep#"
# torch/utils/data/dataloader.py at v2.13.0, L697/L721: each DataLoader iterator runs its
# __next__ inside record_function("enumerate(DataLoader)#<iterator class>.__next__").
_LOADER = re.compile(r"enumerate\(DataLoader\)#(?P<iterator>\w+)\.__next__")
# Operators that bring device data to the host: a scalar read (.item(), float(t), `if t:`),
# nonzero (also boolean-mask indexing), a copy (.cpu(), .tolist(), .to(device)).
MARKED_OPS = {
    "aten::item": "scalar read",
    "aten::_local_scalar_dense": "scalar read",
    "aten::nonzero": "nonzero",
    "aten::to": "copy",
    "aten::_to_copy": "copy",
    "aten::copy_": "copy",
}
# A copy on the CPU is a dtype cast as often as a transfer; without device events only
# these kinds are known to be host reads of device data.
HOST_READS = frozenset({"scalar read", "nonzero"})
SYNC_CALLS = frozenset({"cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize"})
LAUNCH_CALLS = frozenset({"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel"})
HOST_CALLS = frozenset({"cuda_runtime", "cuda_driver"})
DEVICE_WORK = frozenset({"kernel", "gpu_memcpy", "gpu_memset"})
COMPUTE, COMM, TRANSFER = 0, 1, 2  # kinds of device interval


@dataclass
class _Records:
    """What is kept of the events while they stream past."""

    steps: list[tuple[int, float, float]] = field(default_factory=list)
    waits: list[tuple[float, float]] = field(default_factory=list)
    ops: list[Span] = field(default_factory=list)
    calls: list[Span] = field(default_factory=list)
    launch_start: array[float] = field(default_factory=lambda: array("d"))
    launch_time: array[float] = field(default_factory=lambda: array("d"))
    device_start: array[float] = field(default_factory=lambda: array("d"))
    device_end: array[float] = field(default_factory=lambda: array("d"))
    device_kind: array[int] = field(default_factory=lambda: array("b"))
    loader: str | None = None
    device_seen: bool = False
    kept: int = 0
    dropped: int = 0

    def room(self) -> bool:
        """Whether one more record fits under MAX_TRACE_RECORDS (else it is counted as dropped)."""
        self.kept += 1
        if self.kept > MAX_TRACE_RECORDS:
            self.dropped += 1
        return self.kept <= MAX_TRACE_RECORDS

    def take(self, event: dict[str, object]) -> None:
        """Keep one event if it is one the analyzers use."""
        name, category = event.get("name"), event.get("cat")
        start, duration = _number(event.get("ts")), _number(event.get("dur"))
        if event.get("ph") != "X" or not isinstance(name, str) or start is None:
            return
        end = start + (duration or 0.0)
        if category == "user_annotation":
            self._annotation(name, start, end)
        elif category == "cpu_op" and name in MARKED_OPS and self.room():
            self.ops.append(Span(event.get("tid"), start, end, MARKED_OPS[name]))
        elif category in HOST_CALLS and name in SYNC_CALLS and self.room():
            self.calls.append(Span(event.get("tid"), start, end, name))
        elif category in HOST_CALLS and name in LAUNCH_CALLS and self.room():
            self.launch_start.append(start)
            self.launch_time.append(end - start)
        elif category in DEVICE_WORK:
            self._device(category, name, start, end)

    def _device(self, category: str, name: str, start: float, end: float) -> None:
        """A kernel, copy or memset: seen (the trace has device events) and kept if it fits."""
        self.device_seen = True
        if self.room():
            comm = category == "kernel" and "nccl" in name.lower()
            kind = COMM if comm else COMPUTE if category == "kernel" else TRANSFER
            self.device_start.append(start)
            self.device_end.append(end)
            self.device_kind.append(kind)

    def _annotation(self, name: str, start: float, end: float) -> None:
        if name.startswith(STEP_PREFIX) and name[len(STEP_PREFIX) :].isdigit():
            self.steps.append((int(name[len(STEP_PREFIX) :]), start, end))
        elif loader := _LOADER.fullmatch(name):
            self.waits.append((start, end - start))
            self.loader = self.loader or loader["iterator"]


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def read(source: str, stream: Readable) -> ProfilerTrace | Gap:
    """The trace's steps and statistics, or a Gap saying why there are none."""
    events = TraceEvents(stream)
    records = _Records()
    count = 0
    for event in events:
        count += 1
        records.take(event)
    if not records.steps:
        why = events.error or (
            f"a trace of {count} events without ProfilerStep# spans: profile with "
            "torch.profiler.schedule and call prof.step() once per training step"
        )
        return Gap(source=source, reason=why)
    notes = [f"read stopped: {events.error}"] if events.error else []
    if records.dropped:
        notes.append(
            f"{records.dropped} events past the first {MAX_TRACE_RECORDS} kept were left out; "
            "device busy time is not computed"
        )
    return _summary(source, records, events.header, count, tuple(notes))


def _summary(
    source: str,
    records: _Records,
    header: dict[str, object],
    count: int,
    notes: tuple[str, ...],
) -> ProfilerTrace:
    steps = sorted(records.steps, key=lambda step: step[1])
    starts, ends = [step[1] for step in steps], [step[2] for step in steps]
    device = records.device_seen
    start, end, kind = _arrays(records)
    kernels = (end - start)[(kind != TRANSFER) & trace_steps.inside(starts, ends, start)]
    launch_start = np.frombuffer(records.launch_start, dtype=np.float64)
    launch_time = np.frombuffer(records.launch_time, dtype=np.float64)
    launches = launch_time[trace_steps.inside(starts, ends, launch_start)]
    return ProfilerTrace(
        source=source,
        steps=tuple(_steps(steps, records, device)),
        events=count,
        sync_evidence="device" if device else "host_reads",
        device=_device_name(header),
        rank=_distributed(header, "rank"),
        world_size=_distributed(header, "world_size"),
        loader=records.loader,
        kernels=len(kernels),
        kernel_median_us=trace_steps.median(kernels),
        launches=len(launches),
        launch_median_us=trace_steps.median(launches),
        notes=notes,
    )


def _steps(
    steps: list[tuple[int, float, float]], records: _Records, device: bool
) -> list[TraceStep]:
    """Each step with the waits, synchronisations and device time that fall inside it."""
    starts, ends = [step[1] for step in steps], [step[2] for step in steps]
    fields: list[dict[str, float]] = [{} for _ in steps]
    syncs: list[dict[str, int]] = [{} for _ in steps]
    for at, duration in records.waits:
        if (index := trace_steps.step_of(starts, ends, at)) is not None:
            fields[index]["data_wait_us"] = fields[index].get("data_wait_us", 0.0) + duration
            fields[index]["data_waits"] = fields[index].get("data_waits", 0) + 1
    marked = (
        trace_steps.device_syncs(records.ops, records.calls)
        if device
        else [op for op in trace_steps.outermost(records.ops) if op.kind in HOST_READS]
    )
    for span in marked:
        if (index := trace_steps.step_of(starts, ends, span.start)) is not None:
            syncs[index][span.kind] = syncs[index].get(span.kind, 0) + 1
            fields[index]["sync_us"] = fields[index].get("sync_us", 0.0) + span.end - span.start
    complete = device and not records.dropped
    busy = _device_busy(records, starts, ends) if complete else [{} for _ in steps]
    return [
        TraceStep(
            number=number,
            duration_us=end - start,
            data_wait_us=fields[i].get("data_wait_us", 0.0),
            data_waits=int(fields[i].get("data_waits", 0)),
            syncs=syncs[i],
            sync_us=fields[i].get("sync_us", 0.0),
            **busy[i],
        )
        for i, (number, start, end) in enumerate(steps)
    ]


def _device_busy(
    records: _Records, starts: list[float], ends: list[float]
) -> list[dict[str, float]]:
    """Per step: device busy time, communication time, and the communication left exposed.

    Exposed = |comm or compute| - |compute| (lengths of unions): the communication no other
    kernel overlaps.
    """
    start, end, kind = _arrays(records)

    def segments(mask: NDArray[np.bool_]) -> Segments:
        return trace_steps.union(start[mask], end[mask])

    every, kernels = segments(kind >= 0), segments(kind != TRANSFER)
    compute, comm = segments(kind == COMPUTE), segments(kind == COMM)
    return [
        {
            "gpu_busy_us": trace_steps.covered(every, a, b),
            "comm_us": trace_steps.covered(comm, a, b),
            "exposed_comm_us": trace_steps.covered(kernels, a, b)
            - trace_steps.covered(compute, a, b),
        }
        for a, b in zip(starts, ends, strict=True)
    ]


def _arrays(records: _Records) -> tuple[Floats, Floats, NDArray[np.int8]]:
    """The kept device intervals as NumPy views (no copy): starts, ends, kinds."""
    return (
        np.frombuffer(records.device_start, dtype=np.float64),
        np.frombuffer(records.device_end, dtype=np.float64),
        np.frombuffer(records.device_kind, dtype=np.int8),
    )


def _device_name(header: dict[str, object]) -> str | None:
    devices = header.get("deviceProperties")
    first = devices[0] if isinstance(devices, list) and devices else None
    name = first.get("name") if isinstance(first, dict) else None
    return name if isinstance(name, str) else None


def _distributed(header: dict[str, object], key: str) -> int | None:
    info = header.get("distributedInfo")
    value = info.get(key) if isinstance(info, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None
