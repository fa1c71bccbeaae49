"""Check several files together: each against its own framework, then across them all.

A file that cannot be read gets a report with `error` set; the others are still
checked, and the cross-file rules (world size from the accelerate config,
ZeRO-3 in one file with device_map in another) see every file that was read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import cache

from trainwreck.evidence.configs import Values, flatten
from trainwreck.redact import redact
from trainwreck.verify import contradictions, model_checks, model_config
from trainwreck.verify.check import check_document
from trainwreck.verify.contradictions import Found, Run
from trainwreck.verify.model import FileReport, Schema
from trainwreck.verify.read import ConfigSyntaxError, Document, read_file
from trainwreck.verify.schema import schema_for

RULES: tuple[Callable[[Run], Iterable[Found]], ...] = (
    contradictions.precision,
    contradictions.best_model,
    contradictions.deepspeed_batch,
    contradictions.zero3_device_map,
    model_checks.lora_targets,
    model_checks.context_length,
    model_checks.tensor_parallel,
    model_config.misspelled_keys,
    model_config.head_arithmetic,
    model_config.rope_type,
)


def _schema_of(versions: Mapping[str, str], use_live: bool) -> Callable[[str], Schema]:
    @cache
    def schema_of(framework: str) -> Schema:
        return schema_for(framework, versions, use_live)

    return schema_of


def check_documents(
    documents: list[Document],
    framework: str | None = None,
    versions: Mapping[str, str] | None = None,
    use_live: bool = True,
) -> list[FileReport]:
    schema_of = _schema_of(dict(versions or {}), use_live)
    reports = [check_document(document, schema_of, framework) for document in documents]
    run = Run(documents, reports, schema_of)
    extra: dict[int, list[object]] = {}
    for rule in RULES:
        for index, problem in rule(run):
            extra.setdefault(index, []).append(problem)
    return [
        replace(report, problems=report.problems + tuple(extra.get(i, ())))  # type: ignore[arg-type]
        for i, report in enumerate(reports)
    ]


def check_files(
    paths: Iterable[str],
    framework: str | None = None,
    versions: Mapping[str, str] | None = None,
    use_live: bool = True,
) -> list[FileReport]:
    """One report per path, in order; unreadable files carry `error`."""
    order: list[tuple[str, Document | str]] = []
    for path in paths:
        try:
            order.append((path, read_file(path)))
        except ConfigSyntaxError as exc:
            order.append((path, str(exc)))
    documents = [item for _, item in order if isinstance(item, Document)]
    checked = iter(check_documents(documents, framework, versions, use_live))
    return [
        next(checked)
        if isinstance(item, Document)
        else FileReport(redact(path), "unreadable", error=item)
        for path, item in order
    ]


def check_values(
    values: Mapping[str, object],
    framework: str | None = None,
    versions: Mapping[str, str] | None = None,
    use_live: bool = True,
    name: str = "<config>",
) -> FileReport:
    """Check an in-memory config (nested or already flat)."""
    flat: Values = flatten(dict(values))
    document = Document(name, flat, dict(values))
    return check_documents([document], framework, versions, use_live)[0]
