"""The device side of a torch.profiler trace: how idle, launch-bound, or waiting on comms.

Read only from traces with device events (kernels, copies) inside their ProfilerStep
spans. Busy time is the union of device intervals over all streams; communication is a
kernel whose name holds `nccl`, and it is exposed where no other kernel runs beside it.
"""

from __future__ import annotations

from trainwreck.analyzers.trace_lines import (
    GPU_IDLE_SHARE,
    idle_lines,
    idle_share,
    ms,
    part_lines,
    share,
    step_lines,
    step_ref,
)
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding, ProfilerTrace

FINDING_IDS: tuple[str, ...] = (
    "throughput.gpu_idle",
    "throughput.launch_bound",
    "throughput.exposed_comm",
)
# A kernel that finishes sooner than the host call that launched it: the host cannot queue
# work as fast as the device drains it, so the device waits on launches (both medians are
# measured in the same trace: kernel `dur` and cudaLaunchKernel `dur`).
LAUNCH_BOUND_RATIO = 1.0
# Communication no compute hides, as a share of step time. A judgement, not a published
# number: a tenth of the step is the least an overlap change (DDP bucket size, FSDP
# prefetch) is worth measuring for; of HTA's real multi-GPU test traces, the TorchRec
# all-to-all trace exposes 15% and the DDP and V100 ones 6-10%.
EXPOSED_COMM_SHARE = 0.1


def analyze(evidence: Evidence) -> list[Finding]:
    """GPU-idle, launch-bound and exposed-communication findings, per trace with device events."""
    findings: list[Finding] = []
    for trace in evidence.traces:
        idle = idle_share(trace)
        if idle is None:
            continue
        if idle >= GPU_IDLE_SHARE:
            findings.append(_idle(trace, idle))
            findings += [f for f in (_launch_bound(trace, idle),) if f is not None]
        findings += [f for f in (_exposed_comm(trace),) if f is not None]
    return findings


def _idle(trace: ProfilerTrace, idle: float) -> Finding:
    summary = (
        f"The device ran nothing for {idle:.0%} of the profiled steps' time "
        f"({trace.device or 'GPU'}), above the {GPU_IDLE_SHARE:.0%} a fed device leaves idle"
    )
    worst = min(trace.steps, key=lambda step: (step.gpu_busy_us or 0.0) / step.duration_us)
    return Finding(
        id="throughput.gpu_idle",
        title="The GPU sits idle for much of each training step",
        category="slow_throughput",
        summary=summary,
        evidence=(
            step_ref(
                trace,
                worst,
                f"device busy {ms(worst.gpu_busy_us or 0.0)} ms of {ms(worst.duration_us)} ms",
            ),
        ),
        values={"gpu_idle_share": idle, "device": trace.device, "steps": len(trace.steps)},
        arithmetic=Arithmetic(
            title="Device idle time inside the profiled steps",
            lines=(*step_lines(trace), *idle_lines(trace)),
            result=summary,
        ),
    )


def _launch_bound(trace: ProfilerTrace, idle: float) -> Finding | None:
    kernel, launch = trace.kernel_median_us, trace.launch_median_us
    if kernel is None or launch is None or kernel > LAUNCH_BOUND_RATIO * launch:
        return None
    lines = [
        *step_lines(trace),
        ArithmeticLine(
            label="median kernel duration",
            formula=f"median of {trace.kernels} kernel events inside the steps",
            value=round(kernel, 2),
            unit="us",
            source=f"{trace.source}: kernel dur",
        ),
        ArithmeticLine(
            label="median launch call",
            formula=f"median of {trace.launches} cudaLaunchKernel calls inside the steps",
            value=round(launch, 2),
            unit="us",
            source=f"{trace.source}: cuda_runtime dur",
        ),
        *idle_lines(trace),
    ]
    summary = (
        f"Half the kernels run {kernel:g} us or less, no longer than the {launch:g} us the "
        f"host takes to launch one, and the device idles {idle:.0%} of the step: the step is "
        "bound by launching many small kernels, not by the device"
    )
    return Finding(
        id="throughput.launch_bound",
        title="Kernels are too small to keep the GPU busy: the step is launch-bound",
        category="slow_throughput",
        summary=summary,
        values={
            "kernel_median_us": round(kernel, 2),
            "launch_median_us": round(launch, 2),
            "kernels_per_step": round(trace.kernels / len(trace.steps), 1),
            "gpu_idle_share": idle,
        },
        arithmetic=Arithmetic(
            title="Kernel length against launch cost", lines=tuple(lines), result=summary
        ),
    )


def _exposed_comm(trace: ProfilerTrace) -> Finding | None:
    comm, exposed = trace.total("comm_us"), trace.total("exposed_comm_us")
    total = trace.total("duration_us")
    fraction = share(exposed, total)
    if fraction < EXPOSED_COMM_SHARE:
        return None
    lines = [
        *step_lines(trace),
        ArithmeticLine(
            label="communication kernels",
            formula="union of kernel intervals whose name holds nccl",
            value=ms(comm),
            unit="ms",
            source=f"{trace.source}: nccl kernel events",
        ),
        *part_lines(
            trace,
            "of which no compute kernel overlaps",
            "|nccl or compute kernels| - |compute kernels| (lengths of unions)",
            exposed,
            f"{trace.source}: kernel events",
            "exposed communication share",
        ),
    ]
    summary = (
        f"Communication kernels run {ms(comm)} ms in the profiled steps and {ms(exposed)} ms "
        f"of it ({fraction:.0%} of step time) overlaps no compute: the step waits on comms"
    )
    worst = max(trace.steps, key=lambda step: step.exposed_comm_us or 0.0)
    return Finding(
        id="throughput.exposed_comm",
        title="Communication is not overlapped with compute: the step waits on collectives",
        category="slow_throughput",
        summary=summary,
        evidence=(
            step_ref(trace, worst, f"{ms(worst.exposed_comm_us or 0.0)} ms of nccl kernels alone"),
        ),
        values={
            "exposed_comm_share": fraction,
            "comm_ms_per_step": ms(comm / len(trace.steps)),
            "rank": trace.rank,
            "world_size": trace.world_size,
        },
        arithmetic=Arithmetic(
            title="Communication left exposed inside the profiled steps",
            lines=tuple(lines),
            result=summary,
        ),
    )
