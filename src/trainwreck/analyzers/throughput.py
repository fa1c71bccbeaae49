"""Host-side stalls in a torch.profiler trace: waiting for the DataLoader, waiting for the device.

Both are read per `ProfilerStep#N`: the time inside the DataLoader's `__next__`, and the
operators that brought device data to the host (`.item()`, `nonzero`, a copy) around a
synchronising runtime call. On a trace with device events a stall only counts while the
device is starved (`trace_lines.starved`): behind a busy GPU the host's wait is hidden.
"""

from __future__ import annotations

from trainwreck.analyzers.trace_lines import (
    idle_lines,
    ms,
    part_lines,
    share,
    starved,
    step_lines,
    step_ref,
)
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding, ProfilerTrace

FINDING_IDS: tuple[str, ...] = ("throughput.data_wait", "throughput.host_syncs")
# The dataloader pages' data-wait guard (fixes/guards/data.py, `data-wait`) fails a run
# whose data wait exceeds 20% of step time; the finding uses the same line.
DATA_WAIT_SHARE = 0.2
# host-sync-every-step.yaml: one or two synchronising calls per step (logging the loss)
# cost little; its guard allows at most 2 per step.
SYNCS_PER_STEP = 2
_SYNC_WORDS = {
    "scalar read": "scalar reads (.item(), float(t), if t)",
    "nonzero": "nonzero calls (also boolean-mask indexing)",
    "copy": "copies (.cpu(), .tolist(), .to(device))",
    "synchronize": "explicit synchronize calls",
}


def analyze(evidence: Evidence) -> list[Finding]:
    """A data-wait and a host-sync finding for each trace where that stall costs throughput."""
    findings: list[Finding] = []
    for trace in evidence.traces:
        if not trace.steps or not starved(trace):
            continue
        findings += [f for f in (_data_wait(trace), _host_syncs(trace)) if f is not None]
    return findings


def _data_wait(trace: ProfilerTrace) -> Finding | None:
    wait, total = trace.total("data_wait_us"), trace.total("duration_us")
    fraction = share(wait, total)
    if fraction < DATA_WAIT_SHARE:
        return None
    worst = max(trace.steps, key=lambda step: step.data_wait_us)
    loader = f"enumerate(DataLoader)#{trace.loader}.__next__"
    waits = sum(step.data_waits for step in trace.steps)
    lines = [
        *step_lines(trace),
        *part_lines(
            trace,
            "waiting for the next batch",
            f"sum of {waits} {loader} durations inside the steps",
            wait,
            f"{trace.source}: {loader}",
            "data-wait share",
        ),
        *(idle_lines(trace) if trace.has_device else []),
    ]
    summary = (
        f"{fraction:.0%} of the profiled steps' time ({ms(wait / len(trace.steps))} ms of "
        f"{ms(total / len(trace.steps))} ms per step) is spent waiting in the DataLoader's "
        f"__next__ ({trace.loader}), above the {DATA_WAIT_SHARE:.0%} a loader may take"
    )
    return Finding(
        id="throughput.data_wait",
        title="The training loop waits for the DataLoader for much of each step",
        category="slow_throughput",
        summary=summary,
        evidence=(
            step_ref(
                trace,
                worst,
                f"{loader} took {ms(worst.data_wait_us)} ms "
                f"of the step's {ms(worst.duration_us)} ms",
            ),
        ),
        values={
            "data_wait_share": fraction,
            "data_wait_ms_per_step": ms(wait / len(trace.steps)),
            "step_ms": ms(total / len(trace.steps)),
            "loader": trace.loader,
            "steps": len(trace.steps),
        },
        arithmetic=Arithmetic(
            title="Time each profiled step waits for its batch", lines=tuple(lines), result=summary
        ),
    )


def _host_syncs(trace: ProfilerTrace) -> Finding | None:
    kinds: dict[str, int] = {}
    for step in trace.steps:
        for kind, count in step.syncs.items():
            kinds[kind] = kinds.get(kind, 0) + count
    per_step = round(sum(kinds.values()) / len(trace.steps), 2)
    if per_step <= SYNCS_PER_STEP:
        return None
    waited, total = trace.total("sync_us"), trace.total("duration_us")
    device = trace.sync_evidence == "device"
    named = ", ".join(f"{count} {_SYNC_WORDS[kind]}" for kind, count in sorted(kinds.items()))
    counted = (
        "operators around a cudaStreamSynchronize/cudaDeviceSynchronize/cudaEventSynchronize call"
        if device
        else "aten::item/_local_scalar_dense and aten::nonzero operators (outermost only)"
    )
    lines = [
        *step_lines(trace),
        ArithmeticLine(
            label="synchronising calls" if device else "host reads of tensor values",
            formula=f"{named}: {counted}",
            value=sum(kinds.values()),
            source=f"{trace.source}: cpu_op{' and cuda_runtime' if device else ''} events",
        ),
        ArithmeticLine(
            label="per step",
            formula=f"{sum(kinds.values())} / {len(trace.steps)}",
            value=per_step,
            source="computed",
        ),
        ArithmeticLine(
            label="host time inside them",
            formula=f"sum of their durations: {ms(waited)} ms / {ms(total)} ms",
            value=share(waited, total),
            source=f"{trace.source}: their dur",
        ),
        *(idle_lines(trace) if device else []),
    ]
    summary = (
        f"{per_step:g} host-device synchronisations per profiled step ({named}); the host "
        f"waited {share(waited, total):.0%} of the step in them while the device idled"
        if device
        else f"{per_step:g} reads of tensor values on the host per profiled step ({named}); "
        "on a GPU each one waits until the device's queue has drained"
    )
    worst = max(trace.steps, key=lambda step: sum(step.syncs.values()))
    return Finding(
        id="throughput.host_syncs",
        title="The training step makes the host wait for the device several times",
        category="slow_throughput",
        summary=summary,
        evidence=(
            step_ref(
                trace, worst, f"{sum(worst.syncs.values())} synchronising calls: {worst.syncs}"
            ),
        ),
        values={
            "syncs_per_step": per_step,
            "sync_share": share(waited, total),
            "sync_kinds": named,
            "sync_evidence": trace.sync_evidence,
            "steps": len(trace.steps),
        },
        arithmetic=Arithmetic(
            title="Host-device synchronisations per profiled step",
            lines=tuple(lines),
            result=summary,
        ),
    )
