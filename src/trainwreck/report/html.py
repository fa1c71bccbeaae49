"""The HTML report: one self-contained file to attach to a ticket or open on a phone.

Content comes from `sections.build` (its shapes are in `layout`), the same as the
Markdown report. The page loads nothing (inline CSS, system fonts, no scripts), and
every piece of text is redacted and then escaped where it is inserted; the only links are citation
links, and only to http(s) addresses.
"""

from __future__ import annotations

import re
from html import escape

from trainwreck.curves.figures import Figures
from trainwreck.model import Diagnosis
from trainwreck.redact import redact
from trainwreck.report.layout import (
    NO_KB,
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

_CSS = """\
:root{color-scheme:light dark}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:48rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere}
h2{margin-top:0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;padding:.75rem;border-radius:6px;\
background:rgba(127,127,127,.12)}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}
.scroll{overflow-x:auto}
table{border-collapse:collapse}
th,td{border:1px solid rgba(127,127,127,.4);padding:.25rem .5rem;text-align:left;\
vertical-align:top}
.ref{font-size:.85em;white-space:nowrap}
.flag{color:#c5221f;font-weight:600}
footer{margin-top:2rem;font-size:.85em;opacity:.75}"""


def to_html(diagnosis: Diagnosis, figures: Figures | None = None) -> str:
    """Render a Diagnosis (and the caller's curve charts) as a standalone HTML page."""
    report = build(diagnosis)
    if report.primary is None:
        body = _nothing_matched(report, figures)
    else:
        body = [
            *_undecided(report),
            *_diagnosis(report, report.primary),
            *_fix(report.primary),
            *_config(report.primary),
            *_arithmetic(report.arithmetic),
            *_figures(figures),
            *_alternatives(report.alternatives),
            *_similar(report.similar),
            *_prevention(report),
            *_snippets(report),
            *_list_section("Warnings", report.warnings),
        ]
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en">',
            '<head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>trainwreck: {_text(report.summary)}</title>",
            f"<style>\n{_CSS}\n</style></head>",
            "<body><main>",
            *body,
            f"<footer>{_text(report.footer)}</footer>",
            "</main></body></html>",
            "",
        ]
    )


def _text(text: str) -> str:
    """Redact, then escape: a placeholder must show as text, not parse as a tag."""
    return escape(redact(text))


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def _prose(text: str) -> str:
    """Text whose `code spans` (as the Markdown report writes them) become <code>."""
    return _CODE_SPAN.sub(r"<code>\1</code>", _text(text))


def _code(text: str) -> str:
    return f"<code>{_text(text)}</code>"


def _pre(text: str) -> str:
    return f"<pre><code>{_text(text)}</code></pre>"


def _refs(refs: tuple[Ref, ...]) -> str:
    tags = [
        f'<a class="ref" href="{_text(r.url)}" rel="noreferrer">{_text(r.text)}</a>'
        if r.url
        else f'<span class="{"ref flag" if r in NO_KB else "ref"}">[{_text(r.text)}]</span>'
        for r in refs
    ]
    return " ".join(tags)


def _claim(claim: Claim) -> str:
    return f"{_prose(claim.text)} {_refs(claim.refs)}"


def _labelled(label: str, html_value: str) -> str:
    return f"<p><strong>{_text(label)}:</strong> {html_value}</p>"


def _diagnosis(report: Report, primary: Primary) -> list[str]:
    lines = ["<h2>Diagnosis</h2>", f"<p>{_prose(report.summary)}</p>"]
    lines.append(_labelled("Root cause", _claim(primary.root_cause)))
    if primary.mechanism is not None:
        lines.append(_labelled("Mechanism", _claim(primary.mechanism)))
    lines += [
        _labelled("Confidence", _text(primary.confidence)),
        _labelled("Version", _versions(primary.versions)),
        "<p><strong>Evidence:</strong></p>",
        "<ul>",
        *(f"<li>{_code(q.location)} {_code(q.text)}</li>" for q in primary.evidence),
        "</ul>",
    ]
    return lines + _setup(report)


def _versions(versions: Versions) -> str:
    known = ", ".join(f"{_text(name)} {_code(version)}" for name, version in versions.known)
    if versions.command is None:
        return known
    unknown = _text(versions.unknown or "")
    text = f"{known}; {unknown}" if known else unknown
    return f"{text}: run {_code(versions.command)}"


def _setup(report: Report) -> list[str]:
    items = (f"<li>{_text(label)}: {_code(value)}</li>" for label, value in report.setup)
    return ["<p><strong>User setup:</strong></p>", "<ul>", *items, "</ul>"]


def _fix(primary: Primary) -> list[str]:
    lines = ["<h3>Fix</h3>", "<ol>", *(_fix_step(step) for step in primary.fixes), "</ol>"]
    return lines + _verify(primary.verification)


def _verify(verify: Verify | None) -> list[str]:
    """What the verification script checks, how to get it, and the script folded away."""
    if verify is None:
        return []
    return [
        "<h3>Verify</h3>",
        f"<p>A {_code(verify.kind)} script checks the fix on your setup."
        + (f" {_prose(verify.summary)}</p>" if verify.summary else "</p>"),
        f"<p>Add {_code(verify.write)} to the <code>trainwreck diagnose</code> command to write "
        f"it, then run {_code(verify.run)}: exit 0 means the failure is gone, 1 that it is still "
        "there, 2 that the check could not run (it says why). Every value it was filled with "
        "has a flag (<code>--help</code>).</p>",
        f"<details><summary>The script</summary>{_pre(verify.script)}</details>",
    ]


def _fix_step(step: FixStep) -> str:
    changes = []
    for change in step.changes:
        item = f"{_code(change.path)}: {_code(change.before)} → {_code(change.after)}"
        if change.reason:
            item += f": {_prose(change.reason)}"
        if not change.verified:
            item += f' <span class="flag">{_text(UNVERIFIED)}</span>'
        changes.append(f"<li>{item}</li>")
    parts = [f"<li>{_claim(step.action)} ({_text(step.cost)})"]
    if changes:
        parts.append(f"<ul>{''.join(changes)}</ul>")
    if step.commands:
        parts.append(_pre("\n".join(step.commands)))
    return "".join(parts) + "</li>"


def _config(primary: Primary) -> list[str]:
    if not primary.config:
        return []
    parts = ["<h3>Consolidated Config</h3>"]
    for block in primary.config:
        if block.source:
            label = f"<code>{_text(block.source)}</code> ({_text(PATCH_HINT)}):"
        else:
            label = f"{_text(CONFIG_LABELS[block.format])}:"
        parts += [f"<p>{label}</p>", _pre(block.text)]
        if block.notes:
            notes = "".join(f"<li><code>{_text(note)}</code></li>" for note in block.notes)
            parts.append(f"<ul>{notes}</ul>")
    return parts


def _arithmetic(tables: tuple[Table, ...]) -> list[str]:
    if not tables:
        return []
    lines = ["<h3>Arithmetic</h3>"]
    header = "<tr><th>Step</th><th>Formula</th><th>Value</th><th>Source</th></tr>"
    for table in tables:
        rows = "".join(
            f"<tr><td>{_text(label)}</td><td>{_code(formula)}</td><td>{_text(value)}</td>"
            f"<td>{_code(source)}</td></tr>"
            for label, formula, value, source in table.rows
        )
        lines += [
            f"<h4>{_text(table.title)}</h4>",
            f'<div class="scroll"><table>{header}{rows}</table></div>',
            _labelled("Result", _prose(table.result)),
        ]
    return lines


def _alternatives(alternatives: tuple[Alternative, ...]) -> list[str]:
    if not alternatives:
        return []
    items = (
        f"<li><strong>{_text(alt.title)}</strong> ({_text(alt.confidence)} confidence, "
        f"{_text(alt.score)}): "
        f"{_claim(alt.root_cause)}<br>Check: {_prose(alt.check)} "
        f"(cost: {_text(alt.check_cost)})</li>"
        for alt in alternatives
    )
    return ["<h3>If That Doesn't Work</h3>", "<ol>", *items, "</ol>"]


def _similar(cases: tuple[Similar, ...]) -> list[str]:
    if not cases:
        return []
    items = []
    for case in cases:
        fix = f"<br>Fix: {_prose(case.fix)}" if case.fix else ""
        matched = "".join(f"<br>Matched: <code>{_text(line)}</code>" for line in case.lines)
        title = (
            f'<a href="{_text(case.url)}" rel="noreferrer">{_text(case.title)}</a>'
            if case.url
            else _text(case.title)
        )
        items.append(f"<li>{title}: {_prose(case.cause)}{fix}{matched}</li>")
    return ["<h3>Similar Confirmed Failures</h3>", "<ul>", *items, "</ul>"]


def _prevention(report: Report) -> list[str]:
    if not report.prevention:
        return []
    items = (
        f"<li>{_prose(g.guard)} (threshold: {_prose(g.threshold)}) {_refs(g.refs)}"
        + (_pre(g.code.rstrip("\n")) if g.code else "")
        + "</li>"
        for g in report.prevention
    )
    return ["<h3>Prevention</h3>", "<ul>", *items, "</ul>"]


def _snippets(report: Report) -> list[str]:
    lines = []
    for snippet in report.snippets:
        lines += [
            f"<h3>{_text(snippet.title)}</h3>",
            f"<pre><code>{_text(snippet.code)}</code></pre>",
            f'<p>{_prose(snippet.usage)} <a href="{_text(snippet.citation)}">source</a></p>',
        ]
    return lines


def _list_section(heading: str, items: tuple[str, ...]) -> list[str]:
    if not items:
        return []
    return [
        f"<h3>{_text(heading)}</h3>",
        "<ul>",
        *(f"<li>{_prose(i)}</li>" for i in items),
        "</ul>",
    ]


def _figures(figures: Figures | None) -> list[str]:
    """Curve charts inline (the SVG is made by trusted code); or how to get them."""
    if figures is None or not (figures.items or figures.missing):
        return []
    lines = ["<h3>Curves</h3>"]
    if figures.missing:
        lines.append(f"<p>{_text(figures.missing)}</p>")
    for figure in figures.items:
        lines.append(
            f"<figure>{figure.svg}<figcaption><strong>{_text(figure.title)}</strong>: "
            f"{_prose(figure.caption)}</figcaption></figure>"
        )
    return lines


def _undecided(report: Report) -> list[str]:
    if not report.undecided:
        return []
    notice, *steps = report.undecided
    return [
        "<h2>Not Decided</h2>",
        f"<p>{_prose(notice)}</p>",
        "<ul>",
        *(f"<li>{_prose(step)}</li>" for step in steps),
        "</ul>",
    ]


def _nothing_matched(report: Report, figures: Figures | None) -> list[str]:
    """No hypothesis: say so, and show what was read and what could not be."""
    lines = [
        "<h2>Diagnosis</h2>",
        f"<p>{_prose(NOTHING_MATCHED)}</p>",
        f"<p>{_prose(report.summary)}</p>",
        *_setup(report),
        *_list_section("What Was Read", report.inputs),
        *_list_section("Findings", report.findings),
        *_arithmetic(report.arithmetic),
        *_figures(figures),
    ]
    return lines + _list_section("Warnings", report.warnings)
