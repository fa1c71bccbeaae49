"""What an answer is checked against: the KB, the run's own files, the framework versions.

The evidence files are found the way `trainwreck diagnose` finds them
(`evidence.files.discover`: a run directory is walked, reports skipped) and kept as
whole redacted text, so an answer's quote of any line, kept by the log reader or
not, can be looked up; whitespace is collapsed on both sides. Model configs are the
`config.json` files among them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainwreck.answer_check.parse import Answer
from trainwreck.errors import UsageError
from trainwreck.evidence.collect import collect
from trainwreck.evidence.files import Candidate, discover, load_json, open_binary
from trainwreck.fixes.verify import framework_versions
from trainwreck.kb import KnowledgeBase, load
from trainwreck.limits import MIB
from trainwreck.model import Evidence
from trainwreck.redact import redact

# The most of one evidence file searched for quotes: a quote is an error line, and the
# line that ended a run sits in its last screens; 64 MiB holds a day of a chatty
# trainer's stdout, and the CLI answers in seconds on it.
MAX_QUOTE_SEARCH_BYTES = 64 * MIB
MODEL_CONFIG_NAME = "config.json"


@dataclass(frozen=True)
class Context:
    kb: KnowledgeBase
    evidence_texts: tuple[str, ...]  # collapsed, redacted; empty when no evidence was given
    versions: dict[str, str]  # framework -> version the keys are checked against
    model_configs: tuple[Mapping[str, Any], ...]

    @property
    def has_evidence(self) -> bool:
        return bool(self.evidence_texts)

    def quoted(self, quote: str) -> bool:
        """Whether a quote occurs in the evidence (each piece around an ellipsis)."""
        pieces = [collapse(piece) for piece in quote.replace("...", "…").split("…")]
        wanted = [piece for piece in pieces if piece]
        return any(all(piece in text for piece in wanted) for text in self.evidence_texts)


def collapse(text: str) -> str:
    return " ".join(text.split())


def _candidates(paths: Sequence[Path]) -> list[Candidate]:
    found = []
    for path in paths:
        if not os.path.exists(path):
            raise UsageError(f"{path}: no such file or directory (--evidence)")
        found += [item for item in discover(str(path)) if isinstance(item, Candidate)]
    return found


def _read(candidate: Candidate) -> str:
    try:
        with open_binary(candidate.path, candidate.compressed) as handle:
            data = handle.read(MAX_QUOTE_SEARCH_BYTES)
    except (OSError, EOFError, ValueError):
        return ""  # unreadable evidence holds no quote; the rules say so per quote
    return data.decode("utf-8", errors="replace")


def _versions(answer: Answer, env_listing: Path | None) -> dict[str, str]:
    """The listing's versions, else those the answer states, else the newest snapshot's."""
    evidence = Evidence()
    if env_listing is not None:
        if not os.path.isfile(env_listing):
            raise UsageError(f"{env_listing}: no such file (--env)")
        evidence = collect([], env_files=[str(env_listing)])
        if evidence.gaps and not evidence.environment:
            raise UsageError(f"{env_listing}: {evidence.gaps[0].reason} (--env)")
    versions = framework_versions(evidence)
    for name in versions:
        if evidence.installed_version(name) is None and name in answer.versions:
            versions[name] = answer.versions[name]
    return versions


def build(
    answer: Answer, evidence: Sequence[Path], env_listing: Path | None, kb: KnowledgeBase | None
) -> Context:
    """The context of one check; a path that does not exist is bad input (UsageError)."""
    texts, configs = [], []
    for candidate in _candidates(evidence):
        text = _read(candidate)
        texts.append(collapse(redact(text)))
        if os.path.basename(candidate.path) == MODEL_CONFIG_NAME:
            loaded = load_json(text)
            configs += [loaded] if isinstance(loaded, dict) else []
    return Context(kb or load(), tuple(texts), _versions(answer, env_listing), tuple(configs))
