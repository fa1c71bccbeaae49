"""What every profiler-trace finding's arithmetic starts from: which steps, how long, how idle.

A share is only as good as what it divides by, so each finding shows the steps it summed
(as the trace names them) and their total time before its own figures.
"""

from __future__ import annotations

from trainwreck.model import ArithmeticLine, ProfilerTrace, SourceRef, TraceStep

# A device idle for more than this share of the profiled steps is starving: the
# dataloader-few-workers page's guard alerts when GPU utilisation falls below 70%. Below
# it, a host-side stall (a data wait, a sync) is hidden behind work already queued.
GPU_IDLE_SHARE = 0.3


def ms(microseconds: float) -> float:
    """Microseconds (the trace's unit) as milliseconds, to 0.01 ms."""
    return round(microseconds / 1000, 2)


def share(part: float, whole: float) -> float:
    """part / whole to three places; 0 for an empty whole."""
    return round(part / whole, 3) if whole > 0 else 0.0


def step_lines(trace: ProfilerTrace) -> list[ArithmeticLine]:
    """How many profiled steps the figures cover, and their total time."""
    return [
        ArithmeticLine(
            label="profiled steps",
            formula=trace.step_range,
            value=len(trace.steps),
            source=f"{trace.source}: ProfilerStep# spans",
        ),
        ArithmeticLine(
            label="time in those steps",
            formula="sum of the ProfilerStep# durations",
            value=ms(trace.total("duration_us")),
            unit="ms",
            source=f"{trace.source}: ProfilerStep# dur",
        ),
    ]


def part_lines(
    trace: ProfilerTrace, label: str, formula: str, part_us: float, source: str, share_label: str
) -> list[ArithmeticLine]:
    """A time spent inside the steps, and its share of their total: the two lines every
    stall's arithmetic shows after the steps."""
    total = trace.total("duration_us")
    return [
        ArithmeticLine(label=label, formula=formula, value=ms(part_us), unit="ms", source=source),
        ArithmeticLine(
            label=share_label,
            formula=f"{ms(part_us)} / {ms(total)}",
            value=share(part_us, total),
            source="computed",
        ),
    ]


def idle_share(trace: ProfilerTrace) -> float | None:
    """The share of the steps' time no kernel, copy or memset ran; None without device events."""
    if not trace.has_device:
        return None
    return share(
        trace.total("duration_us") - trace.total("gpu_busy_us"), trace.total("duration_us")
    )


def idle_lines(trace: ProfilerTrace) -> list[ArithmeticLine]:
    """The device's busy time inside the steps and the idle share it leaves."""
    busy = trace.total("gpu_busy_us")
    return [
        ArithmeticLine(
            label="device busy inside the steps",
            formula="union of kernel, gpu_memcpy and gpu_memset intervals, all streams",
            value=ms(busy),
            unit="ms",
            source=f"{trace.source}: kernel/gpu_memcpy/gpu_memset events",
        ),
        ArithmeticLine(
            label="device idle share",
            formula=f"1 - {ms(busy)} / {ms(trace.total('duration_us'))}",
            value=idle_share(trace) or 0.0,
            source="computed",
        ),
    ]


def starved(trace: ProfilerTrace) -> bool:
    """Whether a host-side stall can cost throughput: no device events (the host is the
    device), or a device idle for at least GPU_IDLE_SHARE of the steps."""
    idle = idle_share(trace)
    return idle is None or idle >= GPU_IDLE_SHARE


def step_ref(trace: ProfilerTrace, step: TraceStep, text: str) -> SourceRef:
    """A pointer to one step of the trace (a trace has no lines to cite)."""
    return SourceRef(source=trace.source, text=f"ProfilerStep#{step.number}: {text}")
