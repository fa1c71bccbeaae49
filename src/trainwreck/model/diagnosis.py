"""What the engine derives from the evidence, and the Diagnosis the renderers read."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from trainwreck.model.base import Category, Confidence, Frozen, Grounding, Scalar
from trainwreck.model.context import RunContext
from trainwreck.model.evidence import InputFile, Setup, SourceRef


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
