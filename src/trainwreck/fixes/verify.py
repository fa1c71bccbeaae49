"""Fill a pattern's fix from the evidence and verify each key against the user's versions.

A change is `verified` when the pattern pins a source showing the key exists and
the user's installed version (when known) is inside the range that has the key.
`before` comes from a regex group, else from the user's own config when it sets
the key, else from the pattern. A template that cannot be filled leaves `before`
unknown (None), never a placeholder; a change whose `after` cannot be filled, or
that would be no fix (the run's value already, or against the direction the
cause needs), is dropped with a warning.
"""

from __future__ import annotations

import re

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from trainwreck.fixes.compare import denoted
from trainwreck.fixes.consistency import expected_direction, pointless
from trainwreck.fixes.named import brought_in
from trainwreck.fixes.owners import command_wrong_for_run, concerns, wrong_for_run
from trainwreck.fixes.targets import find_key, target
from trainwreck.kb.schema import PatternChange, PatternFix
from trainwreck.model import Change, Evidence, Fix, RunContext, Scalar
from trainwreck.verify.guard import verify_key
from trainwreck.verify.snapshots import versions

_TEMPLATE = re.compile(r"\{(\w+)\}")
# A parenthesis (with the space before it) that holds at least one template.
_PARENTHESIS = re.compile(r"\s*\([^()]*\{\w+\}[^()]*\)")
Value = Scalar | list[Scalar]


def _fill(value: Value, values: dict[str, Scalar]) -> Value:
    """Substitute "{name}" from values; a whole-string template keeps the value's type, and
    a number a regex captured as text is a number (`in_features=2`, not `'2'`)."""
    if not isinstance(value, str) or "{" not in value:
        return value
    whole = _TEMPLATE.fullmatch(value)
    if whole:
        found = values.get(whole.group(1))
        meant = denoted(found) if isinstance(found, str) else found
        return meant if isinstance(meant, int | float) and not isinstance(meant, bool) else found
    missing = [name for name in _TEMPLATE.findall(value) if values.get(name) is None]
    if missing:
        return None
    return _TEMPLATE.sub(lambda m: str(values[m.group(1)]), value)


def fill_text(text: str, values: dict[str, Scalar]) -> str:
    """Prose with "{name}" filled from values. A parenthesis holding a value the evidence
    lacks is left out ("differ (p: 1x2 ...)" reads "differ"); elsewhere a missing one
    reads as "the <name>"."""

    def parenthesis(match: re.Match[str]) -> str:
        names = _TEMPLATE.findall(match.group(0))
        return match.group(0) if all(values.get(name) is not None for name in names) else ""

    text = _PARENTHESIS.sub(parenthesis, text)

    def value(match: re.Match[str]) -> str:
        found = values.get(match.group(1))
        return str(found) if found is not None else f"the {match.group(1).replace('_', ' ')}"

    return _TEMPLATE.sub(value, text)


def _from_config(path: str, evidence: Evidence) -> Value:
    """The user's current value of a setting, from the first config that holds it."""
    where = target(path)
    for config in evidence.configs:
        key = find_key(config.values, where)
        if key is not None:
            return config.values[key]
    return None


def _before(change: PatternChange, values: dict[str, Scalar], evidence: Evidence) -> Value:
    """The run's value: what the log printed, else the user's config, else the pattern's."""
    templated = isinstance(change.before, str) and _TEMPLATE.search(change.before) is not None
    filled = _fill(change.before, values) if templated else None
    if filled is not None:
        return filled
    configured = _from_config(change.path, evidence)
    return configured if configured is not None or templated else change.before


def _no_fix(change: PatternChange, before: Value, after: Value) -> str | None:
    """Why this filled change must not be recommended, as a warning; None when it may."""
    if after is None and change.after is not None:
        return f"dropped `{change.path}`: its value cannot be computed from this evidence"
    problem = pointless(before, after, change.default, expected_direction(change))
    return f"dropped `{change.path}` → {after!r}: {problem}" if problem else None


def _verified(change: PatternChange, evidence: Evidence) -> tuple[bool, str | None]:
    if change.key_source is None:
        return False, None
    if change.available is None:
        return True, None
    version = evidence.installed_version(change.available.package)
    if version is None:
        return True, None
    try:
        ok = Version(version) in SpecifierSet(change.available.specifier)
    except (InvalidVersion, InvalidSpecifier):
        return False, None
    if ok:
        return True, None
    return False, (
        f"`{change.path}` needs {change.available.package}"
        f"{change.available.specifier}; you run {version}"
    )


_FRAMEWORKS = ("transformers", "trl", "peft", "accelerate", "deepspeed", "vllm")


def framework_versions(evidence: Evidence) -> dict[str, str]:
    """Each framework's version from the evidence, else the newest bundled schema.

    Never this machine's installation: the user's environment is what counts.
    """
    found = {}
    for framework in _FRAMEWORKS:
        installed = evidence.installed_version(framework)
        known = versions(framework)
        if installed or known:
            found[framework] = installed or known[-1]
    return found


def _where(framework: str, version: str | None, evidence: Evidence) -> str:
    """`framework version`, saying so when the version was assumed, not the user's."""
    where = f"{framework} {version}"
    if evidence.installed_version(framework) is None:
        where += " (the newest known; your version is not in the evidence)"
    return where


def _schema_verdict(
    path: str, after: Value, evidence: Evidence, versions: dict[str, str]
) -> tuple[bool | None, bool, str | None]:
    """(exists, is the default, warning) from the framework's schema; None: not ours to say."""
    verdict = verify_key(path, after, versions)
    if not verdict.applicable or verdict.framework is None:
        return None, False, None
    where = _where(verdict.framework, verdict.version, evidence)
    if verdict.exists:
        return True, verdict.is_default, None
    warning = f"`{path}` is not a key of {where}"
    if verdict.replaced_by:
        warning += f"; it was renamed to `{verdict.replaced_by}`"
    if verdict.check_command:
        warning += f"; check: {verdict.check_command}"
    return False, False, warning


def _renamed(
    path: str, after: Value, evidence: Evidence, versions: dict[str, str]
) -> tuple[str, str] | None:
    """(the key's name in the user's version, a note) when only the name differs there."""
    verdict = verify_key(path, after, versions)
    other = verify_key(verdict.alternative, after, versions) if verdict.alternative else None
    if other is None or not other.exists or other.is_default or other.framework is None:
        return None
    where = _where(other.framework, other.version, evidence)
    return other.path, f"`{path}` is `{other.path}` in {where}: the fix uses that name"


def keys_verified(fix: Fix, evidence: Evidence) -> bool:
    """Whether every framework key the fix sets exists in the user's version: a fix to lead with."""
    versions = framework_versions(evidence)
    return all(
        _schema_verdict(c.path, c.after, evidence, versions)[0] is not False for c in fix.changes
    )


def _listed_once(changes: list[tuple[Change, bool]]) -> tuple[Change, ...]:
    """One change per key: a key a fix sets under its old name (renamed to the user's
    version's) and under its own name keeps its own entry, whose default is that name's."""
    kept: dict[str, tuple[Change, bool]] = {}
    for change, renamed in changes:
        held = kept.get(change.path)
        if held is None or (held[1] and not renamed):
            kept[change.path] = (change, renamed)
    return tuple(change for change, _ in kept.values())


def _concrete_change(
    change: PatternChange,
    values: dict[str, Scalar],
    evidence: Evidence,
    versions: dict[str, str],
    warnings: list[str],
) -> tuple[Change, bool] | None:
    """One filled, verified change and whether it was renamed; None when it is no fix.
    Each warning it raises is appended to `warnings` once."""
    after = _fill(change.after, values)
    before = _before(change, values, evidence)
    no_fix = _no_fix(change, before, after)
    if no_fix:
        warnings.append(no_fix)
        return None
    verified, warning = _verified(change, evidence)
    exists, is_default, schema_warning = _schema_verdict(change.path, after, evidence, versions)
    if is_default:
        warnings.append(f"dropped `{change.path}` → {after!r}: already the default")
        return None
    if exists is not None:
        verified = exists and warning is None
    for text in (warning, schema_warning):
        if text and text not in warnings:
            warnings.append(text)
    path, renamed = change.path, None
    if exists is False and (renamed := _renamed(change.path, after, evidence, versions)):
        (path, note), verified = renamed, True
        warnings.append(note)
    filled = Change(
        path=path,
        before=before,
        after=after,
        default=change.default,
        verified=verified,
        reason=change.reason,
    )
    return filled, renamed is not None


def concrete_fix(
    fix: PatternFix,
    values: dict[str, Scalar],
    evidence: Evidence,
    context: RunContext | None = None,
) -> tuple[Fix, list[str]]:
    """The fix with values filled in, and a warning per key the user's version lacks.

    A key of a framework we hold schemas for is verified against that framework's
    version (the evidence's, else the newest known); a change to the value that
    version already defaults to is no fix and is dropped. A key that version knows
    under another name (renamed before or after it) is emitted under that name.
    With the run's `context`, a change or command for another stack is left out
    and a warning about a framework the run does not show is not given (`owners`).
    """
    warnings: list[str] = []
    versions = framework_versions(evidence)
    filled: list[tuple[Change, bool]] = []
    brings = brought_in(fix.action)
    for change in fix.changes:
        if context is not None and wrong_for_run(change.path, context, brings):
            continue
        concerned = context is None or concerns(change.path, context)
        change_warnings: list[str] = []
        concrete = _concrete_change(change, values, evidence, versions, change_warnings)
        if concerned:
            warnings.extend(w for w in change_warnings if w not in warnings)
        if concrete is not None:
            filled.append(concrete)
    commands = tuple(
        cmd
        for cmd in (_fill(c, values) for c in fix.commands)
        if isinstance(cmd, str)
        and (context is None or not command_wrong_for_run(cmd, context, brings))
    )
    return Fix(
        action=fill_text(fix.action, values),
        changes=_listed_once(filled),
        commands=commands,
        cost=fix.cost,
        destructive=fix.destructive,
    ), warnings
