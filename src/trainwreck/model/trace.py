"""A torch.profiler trace, summarised per profiled step: what the throughput analyzers read.

A trace holds every operator, kernel and runtime call (hundreds of MB); a diagnosis needs
only each ProfilerStep's span and what happened inside it: time waiting for the
DataLoader, host-device synchronisations, and, when the trace has device events, how
much of the step the GPU was busy and how much of its communication compute did not hide.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from trainwreck.model.base import Frozen

# What a synchronisation count means: in a trace with device events, a call that made the
# host wait (a cudaStreamSynchronize inside .item()); in a CPU-only trace, an operator that
# would make it wait on a GPU (.item() reads a value on the host: no device, no wait yet).
SyncEvidence = Literal["device", "host_reads"]


class TraceStep(Frozen):
    """One `ProfilerStep#N` and what ran within its span (times in microseconds)."""

    number: int
    duration_us: float
    data_wait_us: float = 0.0
    data_waits: int = 0
    # kind of synchronising call ("scalar read", "nonzero", "copy", "synchronize") -> count
    syncs: dict[str, int] = Field(default_factory=dict)
    sync_us: float = 0.0
    # None when the trace has no device events (a CPU-only profile)
    gpu_busy_us: float | None = None
    comm_us: float | None = None
    exposed_comm_us: float | None = None


class ProfilerTrace(Frozen):
    """One trace file, reduced to its steps and a few whole-trace statistics."""

    source: str
    steps: tuple[TraceStep, ...] = ()
    events: int = 0
    sync_evidence: SyncEvidence = "host_reads"
    device: str | None = None  # deviceProperties[0].name, e.g. "NVIDIA A100-SXM4-80GB"
    rank: int | None = None  # distributedInfo.rank
    world_size: int | None = None
    loader: str | None = None  # the DataLoader iterator class its __next__ events name
    kernels: int = 0  # kernels that started inside a step
    kernel_median_us: float | None = None
    launches: int = 0  # kernel launch calls (cudaLaunchKernel, ...) inside a step
    launch_median_us: float | None = None
    notes: tuple[str, ...] = ()  # what the reader had to leave out

    @property
    def has_device(self) -> bool:
        """Whether the trace recorded device activity (kernels, copies) within its steps."""
        return any(step.gpu_busy_us is not None for step in self.steps)

    def total(self, field: str) -> float:
        """The sum of one numeric TraceStep field over the steps (None counts as 0)."""
        return float(sum(getattr(step, field) or 0.0 for step in self.steps))

    @property
    def step_range(self) -> str:
        """`ProfilerStep#2..#6`: the steps a figure sums over, as the trace names them."""
        if not self.steps:
            return "no ProfilerStep"
        first, last = self.steps[0].number, self.steps[-1].number
        return f"ProfilerStep#{first}" + (f"..#{last}" if last != first else "")
