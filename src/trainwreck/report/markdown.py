"""The Markdown report: what a person reads in a terminal, an issue or a PR.

Content comes from `sections.build`; this module only adds markup. Text taken
from the user's files (log lines, paths, values) is always inside code spans or
fenced blocks, so it cannot turn into markup.
"""

from __future__ import annotations

import re
from textwrap import indent

from trainwreck.fixes.formats.languages import by_language
from trainwreck.model import ConfigBlock, Diagnosis
from trainwreck.redact import redact
from trainwreck.report.layout import (
    NOTHING_MATCHED,
    Alternative,
    Claim,
    FixStep,
    Primary,
    Ref,
    Report,
    Similar,
    Table,
    Verify,
    Versions,
)
from trainwreck.report.sections import (
    CONFIG_LABELS,
    PATCH_HINT,
    build,
)
from trainwreck.report.values import UNVERIFIED

_BACKTICKS = re.compile(r"`+")


def to_markdown(diagnosis: Diagnosis) -> str:
    """The full Markdown report: every section (`--full`; the MCP server's answer)."""
    report = build(diagnosis)
    if report.primary is None:
        lines = nothing_matched(report)
    else:
        lines = [
            *_undecided(report),
            *_diagnosis(report, report.primary),
            *_fix(report.primary),
            *_config(report.primary),
            *_arithmetic(report.arithmetic),
            *_alternatives(report.alternatives),
            *_similar(report.similar),
            *_prevention(report),
            *_snippets(report),
            *_list_section("### Warnings", report.warnings),
        ]
    return finish(lines, report)


def finish(lines: list[str], report: Report) -> str:
    """The report's text with its footer; secrets are redacted again on the way out."""
    return redact("\n".join([*lines, "---", f"*{report.footer}*"]) + "\n")


def code(text: str) -> str:
    """An inline code span that survives backticks inside `text`."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{fence}{padded}{fence}"


def fenced(text: str, language: str = "") -> list[str]:
    """A fenced block longer than any backtick run inside `text`."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{language}", text, fence]


def refs_text(refs: tuple[Ref, ...]) -> str:
    return " ".join(f"[{r.text}]({r.url})" if r.url else f"[{r.text}]" for r in refs)


def _claim(claim: Claim) -> str:
    return f"{claim.text} {refs_text(claim.refs)}"


def _diagnosis(report: Report, primary: Primary) -> list[str]:
    lines = ["## Diagnosis", "", report.summary, ""]
    lines += [f"**Root cause:** {_claim(primary.root_cause)}", ""]
    if primary.mechanism is not None:
        lines += [f"**Mechanism:** {_claim(primary.mechanism)}", ""]
    lines += [f"**Confidence:** {primary.confidence}", ""]
    lines += [f"**Version:** {versions_text(primary.versions)}", "", "**Evidence:**", ""]
    lines += [f"- {code(q.location)} {code(q.text)}" for q in primary.evidence] or ["- none quoted"]
    return [*lines, "", *_setup(report), ""]


def versions_text(versions: Versions) -> str:
    known = ", ".join(f"{name} {code(version)}" for name, version in versions.known)
    if versions.command is None:
        return known
    text = f"{known}; {versions.unknown}" if known else versions.unknown
    return f"{text}: run {code(versions.command)}"


def _setup(report: Report) -> list[str]:
    return ["**User setup:**", "", *(f"- {label}: {code(value)}" for label, value in report.setup)]


def _fix(primary: Primary) -> list[str]:
    lines = ["### Fix", ""]
    for number, step in enumerate(primary.fixes, start=1):
        lines += fix_step(number, step)
    return lines + _verify(primary.verification)


def _verify(verify: Verify | None) -> list[str]:
    """What the verification script checks and how to get it; not the script itself."""
    if verify is None:
        return []
    return [
        "### Verify",
        "",
        f"A {code(verify.kind)} script checks the fix on your setup. {verify.summary}".rstrip(),
        "",
        f"Add {code(verify.write)} to this `trainwreck diagnose` command to write it, then run "
        f"{code(verify.run)}: exit 0 means the failure is gone, 1 that it is still there, 2 that "
        "the check could not run (it says why). Every "
        "value it was filled with has a flag (`--help`); the JSON report carries the script in "
        "`verification`.",
        "",
    ]


def fix_step(number: int, step: FixStep) -> list[str]:
    lines = [f"{number}. {_claim(step.action)} ({step.cost})"]
    for change in step.changes:
        line = f"   - {code(change.path)}: {code(change.before)} → {code(change.after)}"
        if change.reason:
            line += f": {change.reason}"
        lines.append(line if change.verified else f"{line} {UNVERIFIED}")
    for language, text in by_language(step.commands):
        block = "\n".join(fenced(text, language))
        lines += ["", *(f"   {line}" for line in block.split("\n"))]  # every line under the item
    return [*lines, ""]


CONFIG_LANGUAGES = {
    "yaml": "diff",
    "json": "diff",
    "command": "bash",
    "env": "bash",
    "flags": "bash",
    "python": "python",
    "keys": "",
}


def _config(primary: Primary) -> list[str]:
    if not primary.config:
        return []
    lines = ["### Consolidated Config", ""]
    for block in primary.config:
        lines.append(block_heading(block))
        lines += ["", *fenced(block.text, CONFIG_LANGUAGES[block.format]), ""]
        lines += [f"- {code(note)}" for note in block.notes]
        lines += [""] if block.notes else []
    return lines


def block_heading(block: ConfigBlock) -> str:
    """Where a consolidated block goes: the user's file it patches, or what it holds."""
    if block.source:
        return f"{code(block.source)} ({PATCH_HINT}):"
    return f"{CONFIG_LABELS[block.format]}:"


def _arithmetic(tables: tuple[Table, ...]) -> list[str]:
    if not tables:
        return []
    lines = ["### Arithmetic", ""]
    for table in tables:
        lines += [
            f"**{table.title}**",
            "",
            "| Step | Formula | Value | Source |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {_cell(label)} | {_cell(code(formula))} | {_cell(value)} | {_cell(code(source))} |"
            for label, formula, value, source in table.rows
        ]
        lines += ["", f"**Result:** {table.result}", ""]
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _alternatives(alternatives: tuple[Alternative, ...]) -> list[str]:
    if not alternatives:
        return []
    lines = ["### If That Doesn't Work", ""]
    for number, alt in enumerate(alternatives, start=1):
        lines += [
            f"{number}. **{alt.title}** ({alt.confidence} confidence, {alt.score}): "
            f"{_claim(alt.root_cause)}",
            f"   - Check: {alt.check} (cost: {alt.check_cost})",
        ]
    return [*lines, ""]


def _similar(cases: tuple[Similar, ...]) -> list[str]:
    if not cases:
        return []
    lines = ["### Similar Confirmed Failures", ""]
    for case in cases:
        title = f"[{case.title}]({case.url})" if case.url else case.title
        lines.append(f"- {title}: {case.cause}")
        if case.fix:
            lines.append(f"  - Fix: {case.fix}")
        lines += [f"  - Matched: {code(line)}" for line in case.lines]
    return [*lines, ""]


def _prevention(report: Report) -> list[str]:
    if not report.prevention:
        return []
    lines = ["### Prevention", ""]
    for g in report.prevention:
        lines.append(f"- {g.guard} (threshold: {g.threshold}) {refs_text(g.refs)}")
        if g.code:
            block = "\n".join(fenced(g.code.rstrip("\n"), "python"))
            lines += ["", indent(block, "  "), ""]
    return lines if lines[-1] == "" else [*lines, ""]


def _snippets(report: Report) -> list[str]:
    lines = []
    for snippet in report.snippets:
        lines += [f"### {snippet.title}", "", *fenced(snippet.code, snippet.language), ""]
        lines += [f"{snippet.usage} [source]({snippet.citation})", ""]
    return lines


def _undecided(report: Report) -> list[str]:
    if not report.undecided:
        return []
    notice, *steps = report.undecided
    return ["## Not Decided", "", notice, "", *(f"- {step}" for step in steps), ""]


def _list_section(heading: str, items: tuple[str, ...]) -> list[str]:
    return [heading, "", *(f"- {item}" for item in items), ""] if items else []


def nothing_matched(report: Report) -> list[str]:
    """No hypothesis: say so, and show what was read and what could not be."""
    lines = [
        "## Diagnosis",
        "",
        NOTHING_MATCHED,
        "",
        report.summary,
        "",
        *_setup(report),
        "",
    ]
    lines += _list_section("### What Was Read", tuple(code(i) for i in report.inputs))
    lines += _list_section("### Findings", report.findings)
    lines += _arithmetic(report.arithmetic)
    return lines + _list_section("### Warnings", report.warnings)
