"""The knowledge base: failure patterns as validated YAML data, packaged with the wheel.

`load()` reads every `patterns/<category>/<id>.yaml` once per process and
returns a `KnowledgeBase`; `kb.search` and `kb.lint` work on that object.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml
from pydantic import ValidationError

from trainwreck.errors import KnowledgeBaseError
from trainwreck.kb.compiled import COMPILED, REBUILD, parse
from trainwreck.kb.schema import Pattern
from trainwreck.tables import read_yaml

PATTERNS_DIR = Path(__file__).parent / "patterns"


@dataclass(frozen=True, eq=False)
class KnowledgeBase:
    """All patterns, by id, plus a content hash that versions the KB.

    Compared and hashed by identity, so caches keyed on it stay cheap.
    """

    patterns: tuple[Pattern, ...]
    version: str
    sources: dict[str, Path]

    def get(self, page_id: str) -> Pattern | None:
        """The pattern with this id or alias (`kb:` prefix allowed)."""
        wanted = page_id.removeprefix("kb:")
        for pattern in self.patterns:
            if pattern.id == wanted or wanted in pattern.aliases:
                return pattern
        return None

    def keep_parts(self, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
        """Each signature (and `extra`) regex as a self-contained group, ready to join."""
        return _keep_parts((*signature_regexes(self.patterns), *extra))

    def keep_regex(self, extra: tuple[str, ...] = ()) -> re.Pattern[str]:
        """One regex matching any line a signature (or an `extra` regex) could match.

        The log reader keeps such lines.
        """
        return _keep_regex(self.keep_parts(extra))


def signature_regexes(patterns: tuple[Pattern, ...]) -> list[str]:
    """Every signature and exclusion regex of the patterns, in page order."""
    regexes: list[str] = []
    for pattern in patterns:
        regexes.extend(sig.regex for sig in pattern.signatures if sig.regex)
        regexes.extend(pattern.excludes)
    return regexes


def _group_body(regex: str, name: str) -> str | None:
    """The pattern inside `(?P<name>...)`, found by balancing its parentheses."""
    start = regex.find(f"(?P<{name}>")
    if start < 0:
        return None
    return _body_from(regex, start + len(name) + 5)


def _structural(regex: str, start: int = 0) -> Iterator[int]:
    """Where the regex's own syntax stands from `start`: every index outside an escape
    and outside a character class."""
    index, in_class = start, False
    while index < len(regex):
        char = regex[index]
        if char == "\\":
            index += 2
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        elif not in_class:
            yield index
        index += 1


def _numbered_group_starts(regex: str) -> list[int]:
    """Where the body of each capturing group (named or not) begins, in group-number order."""
    starts: list[int] = []
    for index in _structural(regex):
        if regex[index] != "(":
            continue
        if not regex.startswith("?", index + 1):
            starts.append(index + 1)
        elif regex.startswith("?P<", index + 1):
            starts.append(regex.index(">", index) + 1)
    return starts


def _body_from(regex: str, body_start: int) -> str | None:
    """The pattern from `body_start` to the parenthesis that closes its group."""
    depth = 1
    for index in _structural(regex, body_start):
        if regex[index] in "()":
            depth += 1 if regex[index] == "(" else -1
            if depth == 0:
                return regex[body_start:index]
    return None


_NUMBERED_BACKREFERENCE = re.compile(r"(?<!\\)\\([1-9])")


def _without_backreferences(regex: str) -> str:
    """Each back-reference (`(?P=name)`, `\\1`) widened to its group's own pattern: the
    text it must repeat matches that pattern too. (Widening to `.+?` inside a repeated
    group backtracks exponentially on a long line that almost matches.)"""
    if _NUMBERED_BACKREFERENCE.search(regex) is None and "(?P=" not in regex:
        return regex  # nearly every signature: nothing to widen, so no scan of its groups

    def widened(match: re.Match[str]) -> str:
        body = _group_body(regex, match.group(1))
        return f"(?:{body})" if body is not None else ".+?"

    starts = _numbered_group_starts(regex)

    def widened_number(match: re.Match[str]) -> str:
        number = int(match.group(1))
        body = _body_from(regex, starts[number - 1]) if number <= len(starts) else None
        return f"(?:{body})" if body is not None else ".+?"

    # A numbered back-reference (`\1`) too: joined with other parts it would name
    # another part's group (a manual-SGD page's `(\w+) = \1 - lr * \1.grad`).
    numbered = _NUMBERED_BACKREFERENCE.sub(widened_number, regex)
    return re.sub(r"\(\?P=(\w+)\)", widened, numbered)


@cache
def _keep_parts(regexes: tuple[str, ...]) -> tuple[str, ...]:
    # Named groups would clash when joined, and back-references would dangle; the
    # reader only needs a superset ("could this line match"), so widen them.
    plain = [re.sub(r"\(\?P<\w+>", "(?:", _without_backreferences(regex)) for regex in regexes]
    cased = [f"(?:{regex})" for regex in plain if not regex.startswith("(?i)")]
    folded = [f"(?i:{regex.removeprefix('(?i)')})" for regex in plain if regex.startswith("(?i)")]
    return (*cased, *folded)


@cache
def _keep_regex(parts: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(parts) or r"(?!x)x")


def read_pattern(path: Path) -> Pattern:
    """Load and validate one pattern file, naming the file in any error."""
    try:
        data = read_yaml(path)
        return Pattern.model_validate(data)
    except (OSError, yaml.YAMLError) as exc:
        raise KnowledgeBaseError(f"{path}: cannot read: {exc}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise KnowledgeBaseError(f"{path}: {where}: {first['msg']}") from exc


def load_from(directory: Path) -> KnowledgeBase:
    """Load and validate every pattern under `directory`; duplicate ids are an error."""
    paths = sorted(directory.rglob("*.yaml"))
    patterns, sources = _validated(paths)
    return KnowledgeBase(patterns, version_of(paths), sources)


def version_of(paths: list[Path]) -> str:
    """The KB version: page count and a hash of every page file's bytes."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return f"{len(paths)}p-{digest.hexdigest()[:10]}"


def _validated(paths: list[Path]) -> tuple[tuple[Pattern, ...], dict[str, Path]]:
    patterns: list[Pattern] = []
    sources: dict[str, Path] = {}
    for path in paths:
        pattern = read_pattern(path)
        for name in (pattern.id, *pattern.aliases):
            if name in sources:
                raise KnowledgeBaseError(f"{path}: id {name!r} already used by {sources[name]}")
            sources[name] = path
        patterns.append(pattern)
    return tuple(patterns), sources


@cache
def load() -> KnowledgeBase:
    """The packaged knowledge base (compiled at build time), loaded once per process."""
    try:
        patterns, sources, version = parse(COMPILED.read_text(encoding="utf-8"), PATTERNS_DIR)
    except (OSError, ValueError, KeyError) as exc:
        raise KnowledgeBaseError(
            f"{COMPILED}: the compiled knowledge base is missing or broken ({exc}); {REBUILD}"
        ) from None
    return KnowledgeBase(patterns, version, sources)
