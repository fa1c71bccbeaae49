"""What a report holds, section by section, before any markup.

`sections.build` fills these from a Diagnosis; the Markdown, HTML and short
renderers only add markup to them. The fixed sentences every renderer shows
(the undecided preamble, the nothing-matched notice) live here beside the shapes.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainwreck.model import ConfigBlock, Snippet


@dataclass(frozen=True)
class Ref:
    """A citation tag: `[kb:<id>]`, a linked source (`url` set) or `[no KB]`."""

    text: str
    url: str | None = None


NO_KB = (Ref("no KB"),)
UNDECIDED = (
    "Not decided: no hypothesis reached Medium confidence, so the ranking below is a guess. "
    "This evidence would decide between them:"
)
ASK = "Ask: "  # starts a question among the undecided items (the rest are evidence to collect)
NOTHING_MATCHED = (
    "No known failure pattern matched this evidence, so there is no root cause to report."
)


@dataclass(frozen=True)
class Claim:
    text: str
    refs: tuple[Ref, ...]


@dataclass(frozen=True)
class Quote:
    location: str  # "train.log:1042"
    text: str


@dataclass(frozen=True)
class Versions:
    known: tuple[tuple[str, str], ...]
    unknown: str | None  # "transformers, peft unknown": involved, not in the evidence
    command: str | None  # prints the unknown versions


@dataclass(frozen=True)
class ChangeLine:
    path: str
    before: str
    after: str
    reason: str | None
    verified: bool


@dataclass(frozen=True)
class FixStep:
    action: Claim
    changes: tuple[ChangeLine, ...]
    commands: tuple[str, ...]
    cost: str  # "cost: minutes, destructive"


@dataclass(frozen=True)
class Verify:
    """The Verify section: what the script checks and how to write and run it.

    The script itself (often 150 lines) stays out of the text reports; `--script`
    writes it and the JSON report carries it.
    """

    kind: str
    summary: str
    write: str  # the option that writes it: "--script verify.py"
    run: str  # "python verify.py"
    script: str


@dataclass(frozen=True)
class Primary:
    """The best hypothesis: root cause, confidence, versions, evidence, fixes."""

    root_cause: Claim
    mechanism: Claim | None
    confidence: str  # "High (score 0.91): why"
    versions: Versions
    evidence: tuple[Quote, ...]
    fixes: tuple[FixStep, ...]
    config: tuple[ConfigBlock, ...]
    verification: Verify | None


@dataclass(frozen=True)
class Alternative:
    title: str
    confidence: str  # "Medium"
    score: str  # "score 0.61", as the primary's confidence shows its own
    root_cause: Claim
    check: str
    check_cost: str


@dataclass(frozen=True)
class Similar:
    """One confirmed failure from the case memory, as the report lists it."""

    title: str  # "huggingface/peft#1234 (82% similar; crash; confirmed by: maintainer)"
    url: str | None  # a web link only (a team's record may hold any text)
    cause: str
    fix: str | None
    lines: tuple[str, ...]  # the thread's evidence lines that matched this run's


@dataclass(frozen=True)
class Table:
    title: str
    rows: tuple[tuple[str, str, str, str], ...]  # label, formula, value + unit, source
    result: str


@dataclass(frozen=True)
class Guard:
    guard: str
    threshold: str
    refs: tuple[Ref, ...]
    code: str | None = None  # paste-ready Python; `refs` then ends with its API source


@dataclass(frozen=True)
class Report:
    summary: str
    setup: tuple[tuple[str, str], ...]
    # Set when no hypothesis reached Medium: said first, with what would decide.
    undecided: tuple[str, ...]
    primary: Primary | None
    alternatives: tuple[Alternative, ...]
    similar: tuple[Similar, ...]
    arithmetic: tuple[Table, ...]
    prevention: tuple[Guard, ...]
    snippets: tuple[Snippet, ...]
    inputs: tuple[str, ...]
    findings: tuple[str, ...]
    warnings: tuple[str, ...]
    footer: str
