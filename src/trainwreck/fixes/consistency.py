"""Checks on what trainwreck emits. A violation is a bug in trainwreck, not in the user's run.

Every fix must be something a user can apply as written: no flag twice in one
command, no setting given two values, every value concrete, no change that
points against the mechanism (a cause about a value being too high never raises
it), no change to what the run already has or to the framework's default, and no
alternative's fix that recommends what the leading diagnosis names as the cause
(more workers when too many workers is the cause).
The engine uses the same predicates to drop such changes before they reach a
report; `check` runs them all on a finished Diagnosis.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from trainwreck.evidence.configs import parse_argv
from trainwreck.fixes.compare import Direction, Value, denoted, direction, same
from trainwreck.fixes.formats.command import command_blocks, one_line
from trainwreck.fixes.targets import normal_name, target
from trainwreck.kb import KnowledgeBase, load
from trainwreck.kb.schema import PatternChange
from trainwreck.model import Change, ConfigBlock, Diagnosis, Hypothesis

Rule = Literal["flag-twice", "two-values", "not-concrete", "direction", "no-op", "against-cause"]
_TEMPLATE = re.compile(r"\{\w+\}")
_PLACEHOLDER = re.compile(r"<[A-Za-z]|\bTODO\b|\bFIXME\b|\.\.\.")
# three or more plain words; identifiers (`full_shard auto_wrap offload`) are values
_PROSE = re.compile(r"[A-Za-z]+(?: [A-Za-z]+){2,}")
_ASSIGNMENT = re.compile(
    r"^\+?\s*(?:export\s+)?[\"']?(?P<key>[\w.-]+)[\"']?\s*[:=]\s*(?P<value>.*?)(?:\s+#.*)?,?$"
)


@dataclass(frozen=True)
class Violation:
    rule: Rule
    where: str  # `<hypothesis id> fix <n>` or `consolidated <format>`
    detail: str

    def __str__(self) -> str:
        return f"{self.where}: {self.rule}: {self.detail}"


def not_concrete(value: Value) -> str | None:
    """Why a recommended value is not one a user can apply as written, or None."""
    if value is None:
        return "no value (None would read as `unset`)"
    if not isinstance(value, str):
        return None
    if _TEMPLATE.search(value) or _PLACEHOLDER.search(value):
        return f"placeholder {value!r}"
    if _PROSE.fullmatch(value):
        return f"prose, not a value: {value!r}"
    return None


def pointless(before: Value, after: Value, default: Value, wanted: Direction | None) -> str | None:
    """Why a change is no fix: it is what the run has, the default, or against its direction."""
    if before is not None and same(before, after):
        return f"already {before!r}"
    if default is not None and same(after, default):
        return f"{after!r} is the default"
    moved = direction(before, after)
    if wanted is not None and moved is not None and moved != wanted:
        return f"the cause needs it {wanted}, but {before!r} -> {after!r} is {moved}"
    return None


def against_cause(change: Change, cause: Sequence[Change]) -> str | None:
    """Why a change recommends what the diagnosis's own fixes move away from, or None:
    it sets a setting back to the run's value they change, or moves it the other way."""
    leaf = target(change.path).leaf
    for named in cause:
        if target(named.path).leaf != leaf or same(named.before, named.after):
            continue
        if named.before is not None and same(change.after, named.before):
            return f"sets {leaf} to {change.after!r}, the value the diagnosis names as the cause"
        needed, moved = direction(named.before, named.after), direction(change.before, change.after)
        if needed is not None and moved is not None and moved != needed:
            return f"moves {leaf} {moved}; the diagnosis needs it {needed}"
    return None


def cause_settings(hypothesis: Hypothesis) -> list[Change]:
    """The settings a hypothesis's fixes change: what it names as the cause."""
    return [change for fix in hypothesis.fixes for change in fix.changes]


def without_advice_against(hypotheses: Sequence[Hypothesis]) -> list[Hypothesis]:
    """The alternatives without fixes that recommend what the leading diagnosis names
    as the cause; the leading hypothesis is kept as it is."""
    if not hypotheses:
        return []
    cause = cause_settings(hypotheses[0])
    kept = [hypotheses[0]]
    for other in hypotheses[1:]:
        fixes = tuple(
            fix
            for fix in other.fixes
            if not any(against_cause(change, cause) for change in fix.changes)
        )
        kept.append(other if fixes == other.fixes else other.model_copy(update={"fixes": fixes}))
    return kept


def expected_direction(change: PatternChange) -> Direction | None:
    """Which way the pattern needs the value to move: stated, or shown by its literals."""
    if change.direction in ("lower", "higher"):
        return change.direction
    if change.direction == "either" or any(
        isinstance(v, str) and _TEMPLATE.search(v) for v in (change.before, change.after)
    ):
        return None
    return direction(change.before, change.after)


def repeated_flags(command: str) -> list[str]:
    """The flags a command line gives more than once (`--a 1 --a 2`, `--a=1 --a 2`)."""
    try:
        words = shlex.split(one_line(command), comments=True)
    except ValueError:
        words = command.split()
    seen: dict[str, int] = {}
    for word in words:
        if word.startswith("--") and len(word) > 2:
            name = normal_name(word.partition("=")[0])
            seen[name] = seen.get(name, 0) + 1
    return sorted(name for name, count in seen.items() if count > 1)


def _directions(hypothesis: Hypothesis, kb: KnowledgeBase) -> dict[str, Direction | None]:
    pattern = kb.get(hypothesis.id) if hypothesis.grounded else None
    wanted: dict[str, Direction | None] = {}
    for change in (c for fix in pattern.fixes for c in fix.changes) if pattern else ():
        found = expected_direction(change)
        wanted[change.path] = found if wanted.get(change.path, found) == found else None
    return wanted


def _change_violations(where: str, change: Change, wanted: Direction | None) -> Iterator[Violation]:
    problem = not_concrete(change.after)
    if problem:
        yield Violation("not-concrete", where, f"{change.path}: {problem}")
    problem = pointless(change.before, change.after, change.default, wanted)
    if problem:
        rule: Rule = "direction" if problem.startswith("the cause") else "no-op"
        yield Violation(rule, where, f"{change.path}: {problem}")


def _two_values(where: str, settings: Iterable[tuple[str, Value]]) -> Iterator[Violation]:
    values: dict[str, Value] = {}
    for name, value in settings:
        if name in values and not same(values[name], value):
            yield Violation("two-values", where, f"{name}: {values[name]!r} and {value!r}")
        values.setdefault(name, value)


def _hypothesis_violations(hypothesis: Hypothesis, kb: KnowledgeBase) -> Iterator[Violation]:
    wanted = _directions(hypothesis, kb)
    for number, fix in enumerate(hypothesis.fixes):
        where = f"{hypothesis.id} fix {number}"
        for change in fix.changes:
            yield from _change_violations(where, change, wanted.get(change.path))
        yield from _two_values(where, ((target(c.path).leaf, c.after) for c in fix.changes))
        for command in fix.commands:
            for flag in repeated_flags(command):
                yield Violation("flag-twice", where, f"--{flag} in {command!r}")


def _commands(text: str) -> list[str]:
    return [text[start:end] for start, end in command_blocks(text)]


def _block_settings(block: ConfigBlock) -> Iterator[tuple[str, Value]]:
    """(setting, value) pairs a consolidated block sets, read back from its text."""
    if block.format == "command":  # the flags the fix set, in each rewritten command
        names = {normal_name(note.split(" — ", 1)[0]) for note in block.notes}
        for command in _commands(block.text):
            argv = parse_argv(one_line(command))
            yield from ((normal_name(k), v) for k, v in argv.items() if normal_name(k) in names)
        return
    if block.format == "flags":
        lines = [line for line in block.text.splitlines() if line.startswith("-")]
        yield from ((normal_name(k), v) for k, v in parse_argv(" ".join(lines)).items())
        return
    for line in block.text.splitlines():
        if block.format in ("yaml", "json") and not line.startswith("+"):
            continue
        match = _ASSIGNMENT.match(line.strip())
        if match and not line.startswith("+++"):
            leaf = normal_name(match.group("key").rsplit(".", 1)[-1])
            value = match.group("value").strip()
            if block.format == "python":  # a keyword argument: `drop_last=True,`
                value = value.removesuffix(",").rstrip()
            yield leaf, denoted(value.strip("\"'"))


def _consolidated_violations(blocks: tuple[ConfigBlock, ...]) -> Iterator[Violation]:
    for block in blocks:
        for command in _commands(block.text) if block.format == "command" else ():
            for flag in repeated_flags(command):
                yield Violation("flag-twice", f"consolidated {block.source}", f"--{flag}")
    settings = (pair for block in blocks for pair in _block_settings(block))
    yield from _two_values("consolidated", settings)


def check(diagnosis: Diagnosis, kb: KnowledgeBase | None = None) -> list[Violation]:
    """Every violation in a Diagnosis: all hypotheses' fixes and the consolidated config."""
    knowledge = kb or load()
    found = [v for h in diagnosis.hypotheses for v in _hypothesis_violations(h, knowledge)]
    cause = cause_settings(diagnosis.hypotheses[0]) if diagnosis.hypotheses else []
    for other in diagnosis.hypotheses[1:]:
        for number, fix in enumerate(other.fixes):
            for change in fix.changes:
                if problem := against_cause(change, cause):
                    found.append(Violation("against-cause", f"{other.id} fix {number}", problem))
    return found + list(_consolidated_violations(diagnosis.consolidated))
