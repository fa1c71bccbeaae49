"""`trainwreck kb lint`: every rule a pattern page must keep.

Schema errors, duplicate ids and bad regexes fail at load. On top of that: a
citation must be version-pinned, fires examples must match and quiet ones must
not, prevention guards need a numeric threshold, a fix must not recommend the
default, a numeric change states its direction, every finding id a page names
is one an analyzer declares, and each listed real case must exist and rank the
pattern first.
"""

from __future__ import annotations

import re
from pathlib import Path

from trainwreck.analyzers import FINDING_IDS
from trainwreck.curation.cases import diagnose_case, load_case
from trainwreck.errors import KnowledgeBaseError
from trainwreck.fixes.compare import direction, number
from trainwreck.fixes.guards import TEMPLATES
from trainwreck.fixes.guards.base import EVIDENCE_REF
from trainwreck.fixes.targets import target
from trainwreck.kb import PATTERNS_DIR, KnowledgeBase, load_from
from trainwreck.kb.compiled import stale
from trainwreck.kb.schema import Pattern

MOVING_TARGET = re.compile(
    r"/(?:blob|tree)/(?:main|master|HEAD)/|/latest/|/stable/|/docs/[\w-]+/main/|/en/main/"
)
_DIGIT = re.compile(r"\d")
# "<your value>", "{package}<FIRST_RELEASE": a placeholder, not a value ("torch<2.5" is fine).
_PLACEHOLDER = re.compile(r"<[A-Za-z]")


_CODE_FENCE = "```"


def _regexes(pattern: Pattern) -> list[re.Pattern[str]]:
    return [re.compile(s.regex) for s in pattern.signatures if s.regex]


def _matches(regexes: list[re.Pattern[str]], example: str) -> bool:
    """Whether a regex hits a line of the example: the engine matches line by line."""
    return any(r.search(line) for line in example.splitlines() for r in regexes)


def _reads_code(pattern: Pattern, example: str) -> bool:
    """A fenced code example on a page a code finding fires: the code detectors, not a regex,
    make it fire (tests/kb's pipeline test still requires it to rank its page first)."""
    fenced = _CODE_FENCE in example
    return fenced and any((s.finding or "").startswith("code.") for s in pattern.signatures)


def _examples(pattern: Pattern) -> list[str]:
    problems = []
    regexes = _regexes(pattern)
    for example in pattern.examples.fires:
        if regexes and not _reads_code(pattern, example) and not _matches(regexes, example):
            problems.append(f"fires example matches no signature: {example[:80]!r}")
    for example in pattern.examples.quiet:
        if _matches(regexes, example):
            problems.append(f"quiet example matches a signature: {example[:80]!r}")
    if not pattern.examples.cases and not pattern.examples.fires:
        problems.append("no examples: give a real case or fires lines")
    return problems


def _page(pattern: Pattern) -> list[str]:
    problems = [
        f"citation is a moving target: {c.url}"
        for c in pattern.citations
        if MOVING_TARGET.search(c.url)
    ]
    if len(pattern.prevention) < 2:
        problems.append("needs at least two prevention guards")
    problems += [
        f"prevention threshold has no number: {g.threshold!r}"
        for g in pattern.prevention
        if not _DIGIT.search(g.threshold)
    ]
    if sum(1 for g in pattern.prevention if g.code) < 2:
        problems.append("needs at least two prevention guards with code")
    for fix in pattern.fixes:
        problems += [
            f"fix has a placeholder, not a value, for {c.path}: {c.after!r}"
            for c in fix.changes
            if isinstance(c.after, str) and _PLACEHOLDER.search(c.after)
        ]
        problems += [
            f"fix recommends the default for {c.path}"
            for c in fix.changes
            if c.after is not None and c.after == c.default
        ]
    if all(s.frame for s in pattern.signatures):
        problems.append("frame signatures alone can never match")
    return (
        problems
        + _examples(pattern)
        + _guard_codes(pattern)
        + _directions(pattern)
        + _finding_ids(pattern)
        + _keywords(pattern)
    )


def _keywords(pattern: Pattern) -> list[str]:
    """A keyword with unbalanced brackets is a YAML flow list split at a comma inside a call
    (`zip(range(n), loader)` became `zip(range(n)` and `loader)`): a piece such as `1)` then
    names the page in unrelated descriptions. The piece after the comma closes a bracket it never
    opened; a keyword that only opens one is a prefix (`list(set(`) and stays."""
    return [
        f"keyword {keyword!r} closes a bracket it never opened: quote the whole keyword in the YAML"
        for keyword in pattern.keywords
        if keyword.count(")") > keyword.count("(") or keyword.count("]") > keyword.count("[")
    ]


def _finding_ids(pattern: Pattern) -> list[str]:
    """Every finding id a page names is one an analyzer declares: a typo would never fire."""
    named = [("finding", s.finding) for s in pattern.signatures if s.finding]
    for fix in pattern.fixes:
        named += [("when", name) for name in fix.when]
        named += [("unless", name) for name in fix.unless]
    named += [("ruled_out_by", name) for name in pattern.ruled_out_by]
    return [
        f"{field} names a finding no analyzer emits: {name!r}"
        for field, name in named
        if name not in FINDING_IDS
    ]


def _guard_codes(pattern: Pattern) -> list[str]:
    """Each guard's template exists and gets only its own params, numbers where they are numbers."""
    problems = []
    for code in (g.code for g in pattern.prevention if g.code):
        known = TEMPLATES.get(code.template)
        if known is None:
            problems.append(f"unknown guard template {code.template!r}")
            continue
        unknown = sorted(set(code.params) - set(known.defaults))
        if unknown:
            problems.append(f"guard template {code.template!r} has no params {unknown}")
        for key, value in code.params.items():
            default = known.defaults.get(key)
            numeric = isinstance(default, int | float) and not isinstance(default, bool)
            # YAML reads `1e-06` as a string: a threshold must stay a number (or "{group}").
            if numeric and isinstance(value, str) and not EVIDENCE_REF.match(value):
                problems.append(f"guard param {key} must be a number, got {value!r}")
    return problems


def _directions(pattern: Pattern) -> list[str]:
    """A numeric change states which way it moves unless its literals show it, and never
    contradicts them; an env switch (`NCCL_P2P_DISABLE: 1`) is not a quantity."""
    problems = []
    for change in (c for fix in pattern.fixes for c in fix.changes):
        moves = direction(change.before, change.after)
        if change.direction in ("lower", "higher") and moves and moves != change.direction:
            problems.append(
                f"direction of {change.path} says {change.direction}, "
                f"but {change.before!r} -> {change.after!r} is {moves}"
            )
        quantity = isinstance(change.after, int | float) and not isinstance(change.after, bool)
        stated = change.direction is not None or number(change.before) is not None
        if quantity and not stated and target(change.path).kind != "env":
            problems.append(
                f"numeric change of {change.path} needs a direction (lower|higher|either)"
            )
    return problems


def _case_problems(pattern: Pattern, kb: KnowledgeBase, root: Path) -> list[str]:
    problems = []
    for name in pattern.examples.cases:
        directory = root / name
        if not (directory / "case.yaml").is_file():
            problems.append(f"example case not found: {name}")
            continue
        case = load_case(directory)
        hypotheses = diagnose_case(case, kb).hypotheses
        top = hypotheses[0].id if hypotheses else None
        if top != pattern.id:
            problems.append(f"does not rank first on {name} (top: {top})")
    return problems


def lint(kb_dir: Path, root: Path | None) -> tuple[KnowledgeBase | None, list[str]]:
    """All problems as 'id: message' lines; `root` is where example case paths resolve."""
    try:
        kb = load_from(kb_dir)
    except KnowledgeBaseError as exc:
        return None, [str(exc)]
    problems = []
    if kb_dir.resolve() == PATTERNS_DIR.resolve() and stale(kb.version):
        problems.append(
            "(all): the compiled knowledge base is stale: run python scripts/build_kb.py"
        )
    try:
        kb.keep_regex()
    except re.error as exc:
        problems.append(f"(all): signatures do not combine into one regex: {exc}")
    for pattern in kb.patterns:
        found = _page(pattern)
        if root is not None:
            found += _case_problems(pattern, kb, root)
        problems += [f"{pattern.id}: {problem}" for problem in found]
    return kb, problems
