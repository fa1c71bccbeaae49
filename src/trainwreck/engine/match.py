"""Match knowledge-base signatures against evidence and analyzer findings.

Each pattern's signatures are tried against the retained log lines and the
exceptions (rendered `Type: message`), skipping advice and cascade lines unless
a signature opts in; findings and traceback frames match by id and path. The
strength of a match is 1 - prod(1 - weight) over the signatures that hit.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from trainwreck.evidence.literals import LiteralSet, Requirement, compiled, requirements
from trainwreck.kb import signature_regexes
from trainwreck.kb.schema import Pattern, Signature
from trainwreck.model import Evidence, Finding, Role, Scalar, SourceRef

_QUIET_ROLES: frozenset[Role] = frozenset({"advice", "cascade"})
_FEW = 8  # candidate texts a regex may as well test than narrow down further


@dataclass(frozen=True)
class Text:
    """Something a regex can match: a log line or an exception, with its role."""

    text: str
    ref: SourceRef
    role: Role


@dataclass(frozen=True)
class Hit:
    signature: Signature
    ref: SourceRef | None
    values: dict[str, Scalar] = field(default_factory=dict)


@dataclass(frozen=True)
class Match:
    """A pattern with the signatures that hit; scoring happens in `rank`."""

    pattern: Pattern
    hits: tuple[Hit, ...]

    @property
    def strength(self) -> float:
        return combine(hit.signature.weight for hit in self.hits)

    @property
    def values(self) -> dict[str, Scalar]:
        merged: dict[str, Scalar] = {}
        for hit in self.hits:
            for name, value in hit.values.items():
                merged.setdefault(name, value)
        return merged


def combine(weights: Iterable[float]) -> float:
    """Independent evidence combined: 1 - prod(1 - w)."""
    remaining = 1.0
    for weight in weights:
        remaining *= 1.0 - weight
    return 1.0 - remaining


class Corpus:
    """The texts a regex signature may match, indexed for fast first-hit search.

    A regex with required literals runs only on the texts that hold one of each
    required set (found with `str.find` over the lowercased, joined texts); one
    without runs once over the joined texts in C. Either way a hit is confirmed
    on its own text, so a match means exactly what a per-line `re.search` would.
    """

    def __init__(self, texts: list[Text], required: dict[str, Requirement | None]) -> None:
        """`required` maps each regex to the lowercase literal sets any match holds."""
        self.texts = texts
        self.required = required
        self.blob, self.starts = _joined([item.text for item in texts])
        self.lowered, self.lowered_starts = _joined([item.text.lower() for item in texts])
        self._holding_cache: dict[LiteralSet, set[int]] = {}

    def _holding(self, required: Requirement) -> list[int]:
        """Indexes of the texts that hold a literal of every required set, in order.

        A training log holds "loss" on most lines; "ctc" and "inf" as well on none.
        Many signatures share a set ("loss", "out of memory"): each is looked up once.
        """
        found = self._holding_set(required[0])
        for group in required[1:]:
            if len(found) <= _FEW:
                break
            found = found & self._holding_set(group)
        return sorted(found)

    def _holding_set(self, literals: LiteralSet) -> set[int]:
        if literals not in self._holding_cache:
            self._holding_cache[literals] = self._find_holding(literals)
        return self._holding_cache[literals]

    def _find_holding(self, literals: LiteralSet) -> set[int]:
        found: set[int] = set()
        for literal in literals:
            position = self.lowered.find(literal)
            while position != -1:
                index = bisect_right(self.lowered_starts, position) - 1
                found.add(index)
                following = index + 1
                if following >= len(self.lowered_starts):
                    break
                position = self.lowered.find(literal, self.lowered_starts[following])
        return found

    def _scanned(self, regex: str) -> Iterator[int]:
        """Indexes of texts where a scan of the joined texts finds a match start."""
        scanner = compiled(regex, re.MULTILINE)
        position = 0
        while (found := scanner.search(self.blob, position)) is not None:
            index = bisect_right(self.starts, found.start()) - 1
            yield index
            if index + 1 >= len(self.starts):
                return
            position = self.starts[index + 1]

    def first(self, regex: str, any_role: bool) -> tuple[Text, re.Match[str]] | None:
        """The first text (in evidence order) the regex matches, skipping quiet roles."""
        required = self.required.get(regex)
        candidates = self._holding(required) if required is not None else self._scanned(regex)
        for index in candidates:  # compiled only once a text could match
            item = self.texts[index]
            if not any_role and item.role in _QUIET_ROLES:
                continue
            if (found := compiled(regex).search(item.text)) is not None:
                return item, found
        return None


def _joined(texts: list[str]) -> tuple[str, list[int]]:
    """The texts joined by newlines, and where each one starts."""
    starts, offset = [], 0
    for text in texts:
        starts.append(offset)
        offset += len(text) + 1
    return "\n".join(texts), starts


def texts_of(evidence: Evidence, regexes: Sequence[str] = ()) -> Corpus:
    """Lines and exceptions (as `Type: message`) in evidence order."""
    texts = [
        Text(line.text, SourceRef(source=line.source, line=line.line, text=line.text), line.role)
        for line in evidence.lines
    ]
    for exc in evidence.exceptions:
        rendered = f"{exc.type}: {exc.message}"
        first_line = rendered.splitlines()[0] if rendered else rendered
        texts.append(
            Text(
                rendered,
                SourceRef(source=exc.source, line=exc.message_ref_line, text=first_line),
                exc.role,
            )
        )
    return Corpus(texts, requirements(regexes))


def _short_type(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _hit(
    sig: Signature, evidence: Evidence, texts: Corpus, findings: tuple[Finding, ...]
) -> Hit | None:
    if sig.regex is not None:
        if (first := texts.first(sig.regex, sig.any_role)) is not None:
            item, found = first
            return Hit(sig, item.ref, {k: v for k, v in found.groupdict().items() if v is not None})
    elif sig.exception is not None:
        for exc in evidence.exceptions:
            if exc.role in _QUIET_ROLES and not sig.any_role:
                continue
            if sig.exception in (exc.type, _short_type(exc.type)):
                return Hit(
                    sig,
                    SourceRef(
                        source=exc.source,
                        line=exc.message_ref_line,
                        text=f"{exc.type}: {exc.message}"[:300],
                    ),
                )
    elif sig.finding is not None:
        for finding in findings:
            if finding.id == sig.finding:
                return Hit(
                    sig, finding.evidence[0] if finding.evidence else None, dict(finding.values)
                )
    elif sig.frame is not None:
        regex = compiled(sig.frame)
        for exc in evidence.exceptions:
            for frame in exc.frames:
                if regex.search(frame.file):
                    line = frame.log_line if frame.log_line is not None else exc.line
                    return Hit(sig, SourceRef(source=exc.source, line=line, text=frame.file))
    return None


def _excluded(pattern: Pattern, texts: Corpus) -> bool:
    return any(texts.first(regex, any_role=True) for regex in pattern.excludes)


def match_pattern(
    pattern: Pattern, evidence: Evidence, texts: Corpus, findings: tuple[Finding, ...]
) -> Match | None:
    """The pattern's hits, or None when it is not a candidate.

    Every required signature must hit, except that a required group needs only
    one of its members to.
    """
    hits = []
    groups: dict[str, bool] = {}
    for sig in pattern.signatures:
        hit = _hit(sig, evidence, texts, findings)
        if sig.required and sig.group is not None:
            groups[sig.group] = groups.get(sig.group, False) or hit is not None
        elif hit is None and sig.required:
            return None
        if hit is not None:
            hits.append(hit)
    if not all(groups.values()) or not any(hit.signature.frame is None for hit in hits):
        return None
    if _excluded(pattern, texts):
        return None
    return Match(pattern, tuple(hits))


def match_all(
    patterns: Iterable[Pattern], evidence: Evidence, findings: tuple[Finding, ...]
) -> list[Match]:
    """Every pattern that has log or finding evidence behind it."""
    patterns = tuple(patterns)
    texts = texts_of(evidence, signature_regexes(patterns))
    matches = (match_pattern(pattern, evidence, texts, findings) for pattern in patterns)
    return [m for m in matches if m is not None]
