"""What a run left behind, read from the user's inputs with no judgement applied yet."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from pydantic import Field, InstanceOf

from trainwreck.model.base import CodeOrigin, Frozen, InputKind, Role, Scalar
from trainwreck.model.trace import ProfilerTrace

if TYPE_CHECKING:  # NumPy is imported only by the code that reads or analyses curves
    import numpy as np
    from numpy.typing import NDArray


class SourceRef(Frozen):
    """A pointer into the user's evidence: which file, which line, what it said."""

    source: str
    line: int | None = None
    text: str


class LogLine(Frozen):
    """One retained line of a log, with the rank that printed it when known."""

    source: str
    line: int
    text: str
    rank: int | None = None
    timestamp: str | None = None
    role: Role = "context"


class Frame(Frozen):
    """One frame of a traceback; `library` is None for the user's own code."""

    file: str
    line: int | None = None
    function: str | None = None
    code: str | None = None
    library: str | None = None
    log_line: int | None = None  # where the log prints this frame (`line` is the file's)


class ExceptionRecord(Frozen):
    """One exception with its frames, as printed in a traceback.

    `chain` says how it relates to the exception printed after it: "cause"
    ("The above exception was the direct cause"), "context" ("During handling of
    the above exception"), or None for the final exception.
    """

    type: str
    message: str
    frames: tuple[Frame, ...] = ()
    source: str
    line: int
    rank: int | None = None
    chain: Literal["cause", "context"] | None = None
    role: Role = "root"
    count: int = 1  # identical exceptions on several ranks are grouped
    ranks: tuple[int, ...] = ()  # every rank that printed it, when the log names ranks
    message_line: int | None = None  # the `Type: message` line; `line` is where it starts

    @property
    def message_ref_line(self) -> int:
        """The log line that prints `Type: message`, for quoting it."""
        return self.message_line if self.message_line is not None else self.line

    @property
    def user_frame(self) -> Frame | None:
        """The innermost frame in the user's own code, if any."""
        for frame in reversed(self.frames):
            if frame.library is None:
                return frame
        return None


class ProcessExit(Frozen):
    """How a worker process ended, e.g. from a torch.distributed.elastic summary.

    An exit code of -9 or 137 (SIGKILL) usually means the kernel OOM killer or a
    scheduler killed the process.
    """

    source: str
    line: int
    rank: int | None = None
    exitcode: int | None = None
    signal: str | None = None
    text: str


class InputFile(Frozen):
    """A file (or stdin) the user handed in and the role it was read as."""

    path: str
    kind: InputKind
    size_bytes: int | None = None
    lines_read: int | None = None
    compressed: str | None = None


class EnvListing(Frozen):
    """One environment listing as read: which file, and its package versions."""

    source: str
    packages: dict[str, str] = Field(default_factory=dict)


class CodeSnippet(Frozen):
    """Python source the user handed in, kept as code rather than as log lines.

    `first_line` is the line of `source` the text starts on, so a finding in
    the snippet cites `source:line` of the user's own file, log or description.
    """

    source: str
    first_line: int = 1
    text: str
    origin: CodeOrigin = "file"


class CollectiveCall(Frozen):
    """One collective a rank issued, as PyTorch's flight recorder kept it."""

    seq: int  # collective_seq_id (p2p_seq_id for a send/recv): the order ranks pair calls by
    p2p: bool = False
    group: str  # the process group, as the dump names it
    op: str  # all_reduce, barrier, ... (the dump's profiling name without its backend)
    input_sizes: tuple[tuple[int, ...], ...] = ()
    dtypes: tuple[str, ...] = ()
    state: str | None = None  # scheduled, started or completed
    site: str | None = None  # the user's innermost frame, `file:line`


class FlightDump(Frozen):
    """One rank's flight-recorder dump: its last collectives, oldest first."""

    source: str
    rank: int | None = None  # from the file name: PyTorch writes one dump per rank
    calls: tuple[CollectiveCall, ...] = ()


class Gap(Frozen):
    """Evidence that could not be read; the rest is still diagnosed."""

    source: str
    reason: str


class Setup(Frozen):
    """The user's setup as far as the evidence shows it. Unknowns stay None."""

    model: str | None = None
    gpus: str | None = None
    gpu_name: str | None = None
    gpu_count: int | None = None
    gpu_memory_gib: float | None = None
    frameworks: dict[str, str] = Field(default_factory=dict)
    python: str | None = None
    cuda: str | None = None
    batch_size: int | None = None
    grad_accum: int | None = None
    seq_len: int | None = None
    precision: str | None = None
    distributed: str | None = None
    world_size: int | None = None


class ConfigFile(Frozen):
    """A parsed config (JSON/YAML/TOML, or a launch command's argv) as flat keys."""

    source: str
    values: dict[str, Scalar | list[Scalar]] = Field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class MetricSeries:
    """One metric's logged values in step order, as NumPy arrays.

    A plain dataclass rather than a pydantic model: a curve can hold millions of
    points, which validation would copy. `lines` gives each point's line in the
    source (0 when unknown), so findings can point back at the evidence.
    """

    name: str
    steps: NDArray[np.int64]
    values: NDArray[np.float64]
    lines: NDArray[np.int64]

    def __len__(self) -> int:
        return int(self.steps.shape[0])


@dataclass(frozen=True, eq=False)
class MetricTable:
    """Every metric one source logged: step -> series, with wall time when known.

    `info` holds run facts the source states (`global_step`, `train_batch_size`,
    `num_train_epochs`, `max_steps`, `step_unit`); `notes` says what was done to
    messy input (a resumed run's repeated steps, unreadable rows).
    """

    source: str
    series: Mapping[str, MetricSeries]
    wall_seconds: MetricSeries | None = None
    info: Mapping[str, Scalar] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


class Evidence(Frozen):
    """Everything read from the user's inputs, with no judgement applied yet."""

    files: tuple[InputFile, ...] = ()
    lines: tuple[LogLine, ...] = ()
    exceptions: tuple[ExceptionRecord, ...] = ()
    exits: tuple[ProcessExit, ...] = ()
    configs: tuple[ConfigFile, ...] = ()
    environment: dict[str, str] = Field(default_factory=dict)
    model_config_values: dict[str, Scalar | list[Scalar]] = Field(default_factory=dict)
    setup: Setup = Field(default_factory=Setup)
    symptoms: str | None = None
    # Python source: .py files, and code pasted into logs or the symptoms.
    code: tuple[CodeSnippet, ...] = ()
    gaps: tuple[Gap, ...] = ()
    # Metric histories read from metric files (not from log lines); not in the JSON report.
    metrics: tuple[InstanceOf[MetricTable], ...] = ()
    # Machine facts an environment listing states (driver, driver_cuda, torch_cuda, python,
    # nvcc_cuda, gpu): read by the environment analyzer; not in the JSON report.
    environment_facts: dict[str, str] = Field(default_factory=dict)
    # Each listing on its own, in the order given: two listings (the working environment
    # first) show a version change. Not in the JSON report.
    listings: tuple[EnvListing, ...] = ()
    # Flight-recorder dumps, one per rank. Not in the JSON report.
    flight_dumps: tuple[FlightDump, ...] = ()
    # torch.profiler traces, each reduced to its profiled steps. Not in the JSON report.
    traces: tuple[ProfilerTrace, ...] = ()

    def installed_version(self, package: str) -> str | None:
        """The user's version of a package, from the env listing or the setup."""
        key = package.lower().replace("_", "-")
        for table in (self.environment, self.setup.frameworks):
            for name, version in table.items():
                if name.lower().replace("_", "-") == key:
                    return version
        return None

    @property
    def final_exception(self) -> ExceptionRecord | None:
        """The last root-role exception: what actually ended the run."""
        roots = [exc for exc in self.exceptions if exc.role == "root" and exc.chain is None]
        return roots[-1] if roots else (self.exceptions[-1] if self.exceptions else None)
