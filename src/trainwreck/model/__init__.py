"""The vocabulary every stage speaks: immutable pydantic models.

Evidence flows in (what a run left behind, `evidence`), the run's context is read
from it (`context`), Findings and Hypotheses are derived from both, and a Diagnosis
flows out to the renderers (`diagnosis`); `base` holds the words they share. Field
names of the models that appear in `--format json` are a public contract (see
DESIGN.md): add fields freely, never rename them.
"""

from __future__ import annotations

from trainwreck.model.base import (
    CATEGORIES,
    Category,
    CodeOrigin,
    Confidence,
    Frozen,
    Grounding,
    InputKind,
    Role,
    Scalar,
)
from trainwreck.model.context import (
    Hardware,
    Phase,
    RunContext,
    StatedClass,
    VersionChange,
)
from trainwreck.model.diagnosis import (
    Arithmetic,
    ArithmeticLine,
    Change,
    Citation,
    ConfigBlock,
    Diagnosis,
    EvidenceRequest,
    Finding,
    Fix,
    Hypothesis,
    Prevention,
    SimilarCase,
    Snippet,
    ToolInfo,
    Verification,
)
from trainwreck.model.evidence import (
    CodeSnippet,
    CollectiveCall,
    ConfigFile,
    EnvListing,
    Evidence,
    ExceptionRecord,
    FlightDump,
    Frame,
    Gap,
    InputFile,
    LogLine,
    MetricSeries,
    MetricTable,
    ProcessExit,
    Setup,
    SourceRef,
)
from trainwreck.model.trace import ProfilerTrace, SyncEvidence, TraceStep

__all__ = [
    "CATEGORIES",
    "Arithmetic",
    "ArithmeticLine",
    "Category",
    "Change",
    "Citation",
    "CodeOrigin",
    "CodeSnippet",
    "CollectiveCall",
    "Confidence",
    "ConfigBlock",
    "ConfigFile",
    "Diagnosis",
    "EnvListing",
    "Evidence",
    "EvidenceRequest",
    "ExceptionRecord",
    "Finding",
    "Fix",
    "FlightDump",
    "Frame",
    "Frozen",
    "Gap",
    "Grounding",
    "Hardware",
    "Hypothesis",
    "InputFile",
    "InputKind",
    "LogLine",
    "MetricSeries",
    "MetricTable",
    "Phase",
    "Prevention",
    "ProcessExit",
    "ProfilerTrace",
    "Role",
    "RunContext",
    "Scalar",
    "Setup",
    "SimilarCase",
    "Snippet",
    "SourceRef",
    "StatedClass",
    "SyncEvidence",
    "ToolInfo",
    "TraceStep",
    "Verification",
    "VersionChange",
]
