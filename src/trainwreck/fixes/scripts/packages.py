"""Parameters of the package probe: the requirements to check and the fixed settings to build.

A dependency conflict is fixed when each involved distribution is installed at a
version the requirement allows and imports. A config error is fixed when the
framework class accepts the fixed settings: the probe builds the class with the
run's settings and the fix applied, so a fix that still raises the run's error fails.
"""

from __future__ import annotations

import json
import re

from packaging.utils import canonicalize_name

from trainwreck.context.frameworks import PACKAGE_FRAMEWORK, distribution
from trainwreck.fixes.scripts.parameters import Context, Parameter
from trainwreck.model import Scalar

_REQUIREMENT_CHANGE = "requirements.txt"
# A requirement's project name: letters, digits, dots, dashes and underscores (PEP 508).
_PROJECT = re.compile(r"\s*[A-Za-z0-9][A-Za-z0-9._-]*")
# A page's regex group naming a boolean option the error message shows is on
# (`--load_best_model_at_end requires ...`): the run had it set to true.
OPTION_ON = "option_on"
# An enum member as a message prints it (`IntervalStrategy.STEPS` read as `STEPS`);
# the class takes its value in lower case (`steps`).
_ENUM_MEMBER = re.compile(r"[A-Z][A-Z0-9_]*")

Settings = dict[str, dict[str, Scalar | list[Scalar]]]


def package_parameters(ctx: Context) -> list[Parameter]:
    """The requirements the diagnosis names, the fix's class keys, and the fixed settings."""
    requirements = _requirements(ctx)
    keys = list(dict.fromkeys(c.path for f in ctx.hypothesis.fixes for c in f.changes))
    class_keys = [path for path in keys if _class_key(path)]
    settings, sources = _settings(ctx)
    modules = [
        package.replace("-", "_")
        for framework in ctx.hypothesis.frameworks
        if (package := distribution(framework)) is not None
    ]
    return [
        Parameter(
            "requirements",
            "|".join(requirements) or "torch",
            "; ".join(dict.fromkeys(requirements.values())) or "[assumed] torch",
        ),
        Parameter(
            "keys",
            "|".join(class_keys),
            "the fix's keys of framework classes" if class_keys else "no class keys in the fix",
        ),
        Parameter(
            "settings",
            json.dumps(settings, sort_keys=True) if settings else "",
            sources or "the fix sets no framework class",
        ),
        Parameter(
            "modules",
            "|".join(modules),
            "where the classes live: the frameworks involved, searched first",
        ),
    ]


def _requirements(ctx: Context) -> dict[str, str]:
    """Requirement text -> where it came from, each named by its distribution."""
    found: dict[str, str] = {}
    for fix in ctx.hypothesis.fixes:
        for change in fix.changes:
            if change.path == _REQUIREMENT_CHANGE and isinstance(change.after, str):
                found.setdefault(change.after, f"fix: {change.path} → {change.after}")
    requirement = ctx.hypothesis.values.get("requirement")
    if isinstance(requirement, str) and requirement:
        found.setdefault(requirement, "the requirement your log printed")
    python = ctx.hypothesis.values.get("requires_python")
    if isinstance(python, str) and python:
        found.setdefault(f"python{python}", "the Python versions your log says it needs")
    found = {_distribution_named(text): source for text, source in found.items()}
    named = {_split(text)[0] for text in found}
    for framework in ctx.hypothesis.frameworks:
        package = distribution(framework)
        if package is not None and package not in named and framework not in named:
            found.setdefault(package, "the frameworks involved (any version)")
    return found


def _settings(ctx: Context) -> tuple[Settings, str]:
    """Per class the first fix sets keys of: the run's settings with the fix applied, and
    where the run's settings came from. The probe passes a class only what it accepts."""
    fix = ctx.hypothesis.fixes[0] if ctx.hypothesis.fixes else None
    changes = [c for c in fix.changes if _class_key(c.path)] if fix else []
    if not changes:
        return {}, ""
    run, sources = _run_settings(ctx)
    settings: Settings = {}
    for change in changes:
        owner, _, key = change.path.partition(".")
        settings.setdefault(owner, dict(run))[key] = change.after
    fixed = ", ".join(f"{c.path} → {c.after}" for c in changes)
    return settings, "; ".join([*sources, f"fix: {fixed}"])


def _run_settings(ctx: Context) -> tuple[dict[str, Scalar | list[Scalar]], list[str]]:
    """The run's top-level config keys and the values its log printed, with their sources."""
    settings: dict[str, Scalar | list[Scalar]] = {}
    sources: list[str] = []
    for config in ctx.evidence.configs:
        top = {k: v for k, v in config.values.items() if "." not in k and v is not None}
        if top:
            settings.update({k: v for k, v in top.items() if k not in settings})
            sources.append(f"{config.source}: its top-level keys")
    printed = []
    for name, value in ctx.hypothesis.values.items():
        if name == OPTION_ON and isinstance(value, str):
            settings[value], name = True, value
        elif isinstance(value, str) and _ENUM_MEMBER.fullmatch(value):
            settings[name] = value.lower()
        elif value is not None:
            settings[name] = value
        printed.append(name)
    if printed:
        sources.append(f"the log: {', '.join(printed)}")
    return settings, sources


def _class_key(path: str) -> bool:
    """`TrainingArguments.bf16`-shaped: a class name and one key."""
    head, _, key = path.partition(".")
    return head[:1].isupper() and key.isidentifier()


def _split(requirement: str) -> tuple[str, str]:
    """(canonical project name, the rest): `Torch>=2` -> ("torch", ">=2")."""
    match = _PROJECT.match(requirement)
    if match is None:
        return requirement, ""
    return canonicalize_name(match.group(0).strip()), requirement[match.end() :]


def _distribution_named(requirement: str) -> str:
    """`pytorch>=2.1` as pip spells it, `torch>=2.1`: a framework name becomes its
    distribution; a package name (`jaxlib`, `protobuf`) stays as written."""
    name, rest = _split(requirement)
    package = None if name in PACKAGE_FRAMEWORK else distribution(name)
    return requirement if package is None else package + rest
