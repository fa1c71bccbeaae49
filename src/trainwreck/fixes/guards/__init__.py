"""Prevention guards as paste-ready Python: parameterised templates, each with a source.

A knowledge-base pattern names a template and its thresholds (`code: {template, params}`);
`render` fills the template so the user gets complete code (imports included) with the
pattern's numbers in it. Every template cites a version-pinned page of the API it relies on.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Template
from typing import TYPE_CHECKING

from trainwreck.errors import KnowledgeBaseError
from trainwreck.fixes.guards import (
    compilation,
    data,
    distributed,
    environment,
    generation,
    memory,
    setup_checks,
    training,
)
from trainwreck.fixes.guards.base import EVIDENCE_REF, GuardTemplate, ParamValue
from trainwreck.model import Prevention, Scalar

if TYPE_CHECKING:
    from trainwreck.kb.schema import PatternPrevention


def _registry() -> dict[str, GuardTemplate]:
    modules = (
        training,
        setup_checks,
        data,
        memory,
        distributed,
        environment,
        compilation,
        generation,
    )
    templates = [t for module in modules for t in module.TEMPLATES]
    return {t.name: t for t in templates}


TEMPLATES: dict[str, GuardTemplate] = _registry()


def template(name: str) -> GuardTemplate:
    try:
        return TEMPLATES[name]
    except KeyError:
        raise KnowledgeBaseError(f"unknown guard template: {name}") from None


def resolve(
    name: str, params: Mapping[str, Scalar | list[Scalar]], evidence: Mapping[str, Scalar]
) -> dict[str, ParamValue]:
    """The template's defaults overlaid with the pattern's params, "{group}" read from evidence.

    An evidence reference the log did not print keeps the template's default.
    """
    chosen = template(name)
    unknown = set(params) - set(chosen.defaults)
    if unknown:
        raise KnowledgeBaseError(f"guard template {name} has no params {sorted(unknown)}")
    values: dict[str, ParamValue] = dict(chosen.defaults)
    for key, value in params.items():
        ref = EVIDENCE_REF.match(value) if isinstance(value, str) else None
        if ref:
            found = evidence.get(ref.group(1))
            if found is not None:
                values[key] = _as_number(found)
        else:
            values[key] = tuple(value) if isinstance(value, list) else value
    return values


def render(
    name: str,
    params: Mapping[str, Scalar | list[Scalar]],
    evidence: Mapping[str, Scalar] | None = None,
) -> str:
    """Complete Python for the guard with every threshold filled in."""
    values = resolve(name, params, evidence or {})
    return Template(template(name).code).substitute({k: repr(v) for k, v in values.items()})


def guard_prevention(
    guard: PatternPrevention, pattern_id: str, evidence: Mapping[str, Scalar]
) -> Prevention:
    """A pattern's guard for the report: its prose, and its code filled from the evidence."""
    code = guard.code
    return Prevention(
        guard=guard.guard,
        threshold=guard.threshold,
        citation=f"kb:{pattern_id}",
        code=render(code.template, code.params, evidence) if code else None,
        source=template(code.template).source if code else None,
    )


def _as_number(value: Scalar) -> Scalar:
    if isinstance(value, str):
        try:
            number = float(value.replace(",", ""))
        except ValueError:
            return value
        return int(number) if number.is_integer() else number
    return value
