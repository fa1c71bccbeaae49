"""The report's content, computed once from a Diagnosis for every text format.

Markdown and HTML differ only in markup: what each section says (which claims,
which citations, how a value or a GPU is written, which config lines to copy) is
decided here, so the two renderers cannot drift apart. Every string in a Report
comes from a redacted copy of the Diagnosis.
"""

from __future__ import annotations

from dataclasses import replace

from trainwreck.cases.records import CASE_PREFIX, is_web, source_label
from trainwreck.fixes.consolidate import consolidate
from trainwreck.memory.budget import size_text
from trainwreck.model import (
    ArithmeticLine,
    ConfigBlock,
    Diagnosis,
    Fix,
    Hypothesis,
    Prevention,
    RunContext,
    Setup,
    SimilarCase,
    Verification,
)
from trainwreck.report.layout import (
    ASK,
    NO_KB,
    UNDECIDED,
    Alternative,
    ChangeLine,
    Claim,
    FixStep,
    Guard,
    Primary,
    Quote,
    Ref,
    Report,
    Similar,
    Table,
    Verify,
    Versions,
)
from trainwreck.report.scrub import scrub
from trainwreck.report.values import (
    format_number,
    format_value,
    missing_frameworks,
    version_command,
)

_QUOTE_MAX_CHARS = 600  # a CUDA OOM message is about 400


VERIFY_FILE = "verify.py"


def build(diagnosis: Diagnosis) -> Report:
    """Everything a text report says, from a redacted copy of `diagnosis`."""
    d = scrub(diagnosis)
    hypotheses = d.hypotheses
    return Report(
        summary=d.summary,
        setup=setup_items(d.setup) + context_items(d.context),
        undecided=undecided_items(d),
        primary=primary(hypotheses[0], d.setup, d.consolidated) if hypotheses else None,
        alternatives=tuple(alternative(h) for h in hypotheses[1:]),
        similar=tuple(similar(case) for case in d.similar_cases),
        arithmetic=tuple(
            Table(a.title, tuple(_row(line) for line in a.lines), a.result) for a in d.arithmetic
        ),
        prevention=_guards(d.prevention),
        snippets=d.snippets,
        inputs=tuple(_input_line(f.path, f.kind, f.lines_read) for f in d.inputs),
        findings=tuple(f"{f.title}: {f.summary}" for f in d.findings),
        warnings=d.warnings,
        footer=(
            f"{d.tool.name} {d.tool.version} · knowledge base {d.tool.kb_version}"
            f" · grounding: {d.grounding}"
        ),
    )


def refs(hypothesis: Hypothesis, *, with_urls: bool = True) -> tuple[Ref, ...]:
    """The tags every claim of a hypothesis carries; `[no KB]` when ungrounded.

    Without `with_urls`, only the KB pages (which hold the URLs), so that a list
    of fixes does not repeat the same links.
    """
    if not hypothesis.grounded or not hypothesis.citations:
        return NO_KB
    pages = dict.fromkeys(_kb_tag(c.page) for c in hypothesis.citations if c.page)
    urls = dict.fromkeys(c.url for c in hypothesis.citations if c.url and is_web(c.url))
    if pages and not with_urls:
        urls.clear()
    return (*(Ref(page) for page in pages), *(Ref("source", url) for url in urls))


def primary(h: Hypothesis, setup: Setup, consolidated: tuple[ConfigBlock, ...] = ()) -> Primary:
    tags = refs(h)
    return Primary(
        root_cause=Claim(h.root_cause, tags),
        mechanism=Claim(h.mechanism, tags) if h.mechanism else None,
        confidence=f"{h.confidence.capitalize()} ({shown_score(h)})"
        + (f": {h.why_confidence}" if h.why_confidence else ""),
        versions=versions(h, setup),
        evidence=tuple(
            Quote(f"{r.source}:{r.line}" if r.line is not None else r.source, _clip(r.text))
            for r in h.evidence
        ),
        fixes=tuple(_fix_step(f, refs(h, with_urls=False)) for f in h.fixes),
        config=consolidated or _paste_blocks(h),
        verification=_verify(h.verification),
    )


def _verify(verification: Verification | None) -> Verify | None:
    if verification is None:
        return None
    return Verify(
        kind=verification.kind,
        summary=verification.summary,
        write=f"--script {VERIFY_FILE}",
        run=f"python {VERIFY_FILE}",
        script=verification.script,
    )


# What a consolidated block not tied to a user's file holds; a file's block names the file.
CONFIG_LABELS = {
    "env": "Environment",
    "flags": "Command-line flags",
    "python": "In your code",
    "keys": "Settings",
}
PATCH_HINT = "`--patch DIR` writes the patched copy and changes.diff"


def _paste_blocks(h: Hypothesis) -> tuple[ConfigBlock, ...]:
    """The first fix as lines to paste, for a Diagnosis built without the user's files."""
    return consolidate(h.fixes[0].changes, ()).blocks if h.fixes else ()


def _fix_step(fix: Fix, tags: tuple[Ref, ...]) -> FixStep:
    changes = tuple(
        ChangeLine(c.path, format_value(c.before), format_value(c.after), c.reason, c.verified)
        for c in fix.changes
    )
    cost = f"cost: {fix.cost}" + (", destructive" if fix.destructive else "")
    return FixStep(Claim(fix.action, tags), changes, fix.commands, cost)


def versions(h: Hypothesis, setup: Setup) -> Versions:
    """The exact versions known, and a command for the involved ones that are not."""
    known = dict(sorted(setup.frameworks.items()))
    if setup.cuda:
        known["cuda"] = setup.cuda
    if setup.python:
        known["python"] = setup.python
    missing = missing_frameworks(h.frameworks or ("torch",), known)
    if not missing:
        return Versions(tuple(known.items()), None, None)
    return Versions(tuple(known.items()), f"{', '.join(missing)} unknown", version_command(missing))


def setup_items(setup: Setup) -> tuple[tuple[str, str], ...]:
    """The user's setup as the report echoes it; unknowns say so."""
    gpu_parts = [
        f"{setup.gpu_count} x" if setup.gpu_count else "",
        setup.gpu_name or ("GPU" if setup.gpu_memory_gib else ""),
        f"({format_number(setup.gpu_memory_gib)} GiB)" if setup.gpu_memory_gib else "",
    ]
    gpus = setup.gpus or " ".join(part for part in gpu_parts if part) or None
    batch = setup.batch_size
    if batch is not None and setup.grad_accum:
        batch_text: str | None = f"{batch} (gradient accumulation {setup.grad_accum})"
    else:
        batch_text = None if batch is None else str(batch)
    distributed = setup.distributed
    if distributed and setup.world_size:
        distributed = f"{distributed}, world size {setup.world_size}"
    items = (
        ("Model", setup.model),
        ("GPUs", gpus),
        ("Batch size", batch_text),
        ("Sequence length", None if setup.seq_len is None else str(setup.seq_len)),
        ("Precision", setup.precision),
        ("Distributed", distributed),
    )
    return tuple((label, value or "unknown") for label, value in items)


def context_items(context: RunContext) -> tuple[tuple[str, str], ...]:
    """What the engine read about the run before ranking: shown so a user can correct it."""
    items: list[tuple[str, str]] = []
    if context.stated is not None:
        words = ", ".join(f'"{word}"' for word in context.stated.words[:3])
        items.append(("Failure you describe", f"{context.stated.category} ({words})"))
    if context.frameworks:
        items.append(("Frameworks seen", ", ".join(sorted(context.frameworks))))
    if context.denied:
        items.append(("Not used, you say", ", ".join(context.denied)))
    if context.unset:
        items.append(("Never turned on in your script", ", ".join(context.unset)))
    if context.memory_grows:
        items.append(("Memory", f'grows over the run ("{context.memory_grows[0]}")'))
    if context.hardware is not None:
        items.append(("Hardware", context.hardware))
    if context.phase is not None:
        items.append(("Phase", context.phase))
    for change in context.version_changes:
        window = f"works with {change.good or '?'}, fails with {change.bad or '?'}"
        items.append(("Version change", f"{change.package}: {window}"))
    return tuple(items)


def undecided_items(d: Diagnosis) -> tuple[str, ...]:
    """The not-decided notice, the evidence that would decide, and the questions."""
    if not d.undecided or not d.hypotheses:
        return ()
    lines = [UNDECIDED]
    lines += [f"Collect {request.what}: {request.how}" for request in d.next_evidence]
    lines += [f"{ASK}{question}" for question in d.questions]
    return tuple(lines)


def shown_score(h: Hypothesis) -> str:
    """The score as every hypothesis shows it, so equal scores read equal: "score 0.61"."""
    return f"score {h.score:.2f}"


def alternative(h: Hypothesis) -> Alternative:
    return Alternative(
        title=h.title,
        confidence=h.confidence.capitalize(),
        score=shown_score(h),
        root_cause=Claim(h.root_cause, refs(h)),
        check=h.discriminator or "no discriminating check recorded",
        check_cost=h.discriminator_cost,
    )


def similar(case: SimilarCase) -> Similar:
    versions = ", ".join(f"{name} {v}" for name, v in case.frameworks.items() if v)
    store = "" if case.store == "bundled" else f"; {case.store} store"
    label = source_label(case.source, case.id)
    return Similar(
        title=f"{label} ({case.similarity:.0%} similar; {case.category}"
        + (f"; {versions}" if versions else "")
        + f"; confirmed by: {case.confirmed_by}{store})",
        url=case.source if is_web(case.source) else None,
        cause=case.cause,
        fix=case.fix,
        lines=tuple(_clip(line) for line in case.lines[:2]),
    )


def _guards(preventions: tuple[Prevention, ...]) -> tuple[Guard, ...]:
    """Each guard once; code identical to an earlier guard's is shown only there."""
    guards, shown = [], set()
    for prevention in preventions:
        guard = _guard(prevention)
        if guard.code in shown:
            guard = replace(guard, code=None)
        shown.add(guard.code)
        guards.append(guard)
    return tuple(guards)


def _guard(prevention: Prevention) -> Guard:
    source = prevention.citation
    if is_web(source):
        tags: tuple[Ref, ...] = (Ref("source", source),)
    elif source:
        tags = (Ref(_kb_tag(source)),)
    else:
        tags = NO_KB
    if prevention.source:
        tags += (Ref("API", prevention.source),)
    return Guard(prevention.guard, prevention.threshold, tags, prevention.code)


def _row(line: ArithmeticLine) -> tuple[str, str, str, str]:
    if line.unit == "bytes" and isinstance(line.value, int | float):
        return (line.label, line.formula, size_text(line.value), line.source)
    value = format_number(line.value) + (f" {line.unit}" if line.unit else "")
    return (line.label, line.formula, value, line.source)


def _input_line(path: str, kind: str, lines_read: int | None) -> str:
    return f"{path} ({kind}" + (f", {lines_read:,} lines)" if lines_read is not None else ")")


def _clip(text: str) -> str:
    text = text.strip()
    return text if len(text) <= _QUOTE_MAX_CHARS else text[: _QUOTE_MAX_CHARS - 1] + "…"


def _kb_tag(page: str) -> str:
    """`kb:<id>` for a page; a case-memory record keeps its `case:<id>` tag."""
    return page if page.startswith(("kb:", CASE_PREFIX)) else f"kb:{page}"
