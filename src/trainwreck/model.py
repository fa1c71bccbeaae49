"""The vocabulary every stage speaks: immutable pydantic models.

Evidence flows in (what a run left behind), Findings and Hypotheses are derived
from it, and a Diagnosis flows out to the renderers. Field names of the models
that appear in `--format json` are a public contract (see DESIGN.md): add
fields freely, never rename them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, InstanceOf

if TYPE_CHECKING:  # NumPy is imported only by the code that reads or analyses curves
    import numpy as np
    from numpy.typing import NDArray

Category = Literal[
    "oom",
    "nan_inf",
    "divergence",
    "crash",
    "hang",
    "slow_throughput",
    "wrong_output",
    "dependency_conflict",
    "config_error",
]
CATEGORIES: tuple[Category, ...] = get_args(Category)
Confidence = Literal["high", "medium", "low"]
Grounding = Literal["kb", "web", "ungrounded"]
# What a matched line is to the failure: a root candidate, a knock-on effect of
# another failure, a record that confirms one (a kernel OOM-kill line), advice the
# framework printed (never a cause), or plain context.
Role = Literal["root", "cascade", "confirmation", "advice", "context"]
InputKind = Literal["log", "config", "env", "model_config", "metrics", "symptoms", "code"]
# Where Python source came from: a .py file, or code pasted into a log or the symptoms.
CodeOrigin = Literal["file", "log", "symptoms"]
Scalar = str | int | float | bool | None


class Frozen(BaseModel):
    """Base for every model: immutable, and strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


# ---------------------------------------------------------------- evidence


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


# ---------------------------------------------------------------- context

Hardware = Literal["cuda", "rocm", "mps", "tpu", "cpu"]
Phase = Literal[
    "install/import",
    "start-up",
    "first step",
    "training",
    "evaluation",
    "checkpoint save/load",
    "generation/serving",
]


class StatedClass(Frozen):
    """A failure class the user or the logs state, with the words that state it."""

    category: Category
    source: Literal["symptoms", "logs"]
    words: tuple[str, ...] = ()


class VersionChange(Frozen):
    """A version the run worked with and one it fails with: the strongest clue a user gives."""

    package: str
    good: str | None = None
    bad: str | None = None
    text: str
    source: str = "symptoms"


class RunContext(Frozen):
    """What kind of run failed and how, read before ranking (DESIGN.md, context model).

    `frameworks` maps each framework seen to where it was seen; a page for a
    framework that is absent does not rank on a shared word alone. `denied` holds the
    setups the user says the run does not use (fp16, DeepSpeed, LoRA, ...).
    """

    stated: StatedClass | None = None
    logged: StatedClass | None = None
    frameworks: dict[str, str] = Field(default_factory=dict)
    hardware: Hardware | None = None
    phase: Phase | None = None
    versions: dict[str, str] = Field(default_factory=dict)
    version_changes: tuple[VersionChange, ...] = ()
    denied: tuple[str, ...] = ()


# ---------------------------------------------------------------- analysis


class ArithmeticLine(Frozen):
    """One labelled step of a calculation, with where its input came from."""

    label: str
    formula: str
    value: float | int | str
    unit: str | None = None
    source: str


class Arithmetic(Frozen):
    title: str
    lines: tuple[ArithmeticLine, ...]
    result: str


class Finding(Frozen):
    """A deterministic fact an analyzer established, e.g. `oom.fragmentation`."""

    id: str
    title: str
    category: Category | None = None
    summary: str
    evidence: tuple[SourceRef, ...] = ()
    values: dict[str, Scalar] = Field(default_factory=dict)
    arithmetic: Arithmetic | None = None


class Citation(Frozen):
    """Where a claim comes from: a KB page and, when public, a pinned URL."""

    page: str
    url: str | None = None
    detail: str


class Change(Frozen):
    """One config change of a fix: `path: before -> after`."""

    path: str
    before: Scalar | list[Scalar] = None
    after: Scalar | list[Scalar] = None
    default: Scalar | list[Scalar] = None
    verified: bool = False
    reason: str | None = None


class Fix(Frozen):
    action: str
    changes: tuple[Change, ...] = ()
    commands: tuple[str, ...] = ()
    cost: str = "minutes"
    destructive: bool = False


class Verification(Frozen):
    """A runnable script that exits 0 when the fix works; `summary` says what it checks."""

    kind: str
    script: str
    summary: str = ""


class Hypothesis(Frozen):
    """A ranked candidate root cause with its evidence, sources and fixes."""

    id: str
    title: str
    category: Category
    root_cause: str
    mechanism: str
    confidence: Confidence
    score: float = Field(ge=0.0, le=1.0)
    grounded: bool = True
    evidence: tuple[SourceRef, ...] = ()
    values: dict[str, Scalar] = Field(default_factory=dict)
    citations: tuple[Citation, ...] = ()
    fixes: tuple[Fix, ...] = ()
    discriminator: str = ""
    discriminator_cost: str = "minutes"
    verification: Verification | None = None
    why_confidence: str = ""
    # The frameworks the failure mode involves (a KB pattern's `frameworks`), so a
    # report can name the versions that matter or the command that prints them.
    frameworks: tuple[str, ...] = ()


class Prevention(Frozen):
    guard: str
    threshold: str
    citation: str
    # The guard as paste-ready Python with the threshold filled in, and the
    # version-pinned page of the API that code relies on.
    code: str | None = None
    source: str | None = None


class Snippet(Frozen):
    """Ready-to-paste code that captures more evidence the next time the failure happens."""

    title: str
    language: str
    code: str
    usage: str
    citation: str


class ConfigBlock(Frozen):
    """The chosen fix's changes as they are set in one place, in that place's own format.

    `format` is `yaml`, `json` or `command` for a patched copy of a user's file
    (`source`; `text` is then the unified diff, or the rewritten command), and
    `env`, `flags`, `python` or `keys` for lines to paste where no user file holds
    the setting. `notes` say what changed and why where the format has no comments.
    """

    format: Literal["yaml", "json", "command", "env", "flags", "python", "keys"]
    text: str
    source: str | None = None
    notes: tuple[str, ...] = ()


class EvidenceRequest(Frozen):
    """Evidence that would decide between the candidates, and how to produce it."""

    what: str
    how: str
    separates: tuple[str, ...] = ()  # hypothesis ids it tells apart


class SimilarCase(Frozen):
    """A confirmed real failure from the case memory whose evidence resembles this run's.

    `similarity` is the share of the record's identifying words (weighted by how
    rare they are across the store) that this run's evidence also has, scaled
    down when fewer rare words matched than a specific match needs; `lines` are
    the record's evidence lines that matched, `matched` the run's lines they
    matched. `store` says where it came from:
    the bundled store of public threads, or a team's local store (`learn`).
    """

    id: str
    source: str
    fix_url: str | None = None
    confirmed_by: str
    category: Category
    frameworks: dict[str, str | None] = Field(default_factory=dict)
    cause: str
    fix: str | None = None
    page: str | None = None
    similarity: float = Field(ge=0.0, le=1.0)
    lines: tuple[str, ...] = ()
    matched: tuple[SourceRef, ...] = ()  # this run's lines that matched them
    store: str = "bundled"


class ToolInfo(Frozen):
    name: str = "trainwreck"
    version: str
    kb_version: str


class Diagnosis(Frozen):
    """The result of one `diagnose()` call; renderers know only this."""

    schema_version: int = 1
    tool: ToolInfo
    grounding: Grounding
    summary: str
    setup: Setup
    context: RunContext = Field(default_factory=RunContext)
    hypotheses: tuple[Hypothesis, ...] = ()
    # True when no hypothesis reached Medium: the report says so first, then asks for
    # the evidence (`next_evidence`) and the answers (`questions`) that would decide.
    undecided: bool = False
    next_evidence: tuple[EvidenceRequest, ...] = ()
    questions: tuple[str, ...] = ()
    arithmetic: tuple[Arithmetic, ...] = ()
    findings: tuple[Finding, ...] = ()
    prevention: tuple[Prevention, ...] = ()
    snippets: tuple[Snippet, ...] = ()
    warnings: tuple[str, ...] = ()
    inputs: tuple[InputFile, ...] = ()
    # The top hypothesis's first fix, consolidated in the user's own formats.
    consolidated: tuple[ConfigBlock, ...] = ()
    # Confirmed real failures that look like this one (the case memory), closest first.
    similar_cases: tuple[SimilarCase, ...] = ()
