"""The short Markdown report: the top answer on one screen, what `diagnose` prints by default.

A user reads the first screen of a report (issue 18: the bundled example's full
report was 179 lines). This one keeps what acting on the answer needs: the
diagnosis and where its evidence is, the first fix in full, the consolidated
config, one line per other fix and alternative, and a last line that counts
what `--full` adds. It says nothing the full report does not say.
"""

from __future__ import annotations

import re

from trainwreck.model import ConfigBlock, Diagnosis
from trainwreck.report.layout import (
    ASK,
    Alternative,
    FixStep,
    Primary,
    Ref,
    Report,
)
from trainwreck.report.markdown import (
    CONFIG_LANGUAGES,
    block_heading,
    code,
    fenced,
    finish,
    fix_step,
    nothing_matched,
    refs_text,
    versions_text,
)
from trainwreck.report.sections import build

# Sized so the bundled example (examples/llama-lora-oom) fits a 60-line screen.
QUOTE_CHARS = 160  # a CUDA OOM line is about 400; its first 160 name the request and the GPU
SENTENCE_CHARS = 140  # one line of a one-line fix or alternative
BLOCK_LINES = 12  # a longer consolidated block shows only its changed lines
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def to_short_markdown(diagnosis: Diagnosis) -> str:
    """The default Markdown report: the top hypothesis on one screen."""
    report = build(diagnosis)
    if report.primary is None:
        return finish(nothing_matched(report), report)
    top = report.primary
    lines = [
        *_undecided(report),
        *_diagnosis(report, top),
        *_fixes(top),
        *_config(top),
        *_alternatives(report.alternatives),
        *_left_out(report),
    ]
    return finish(lines, report)


def _page_refs(refs: tuple[Ref, ...]) -> str:
    """The KB page tags alone (the page holds the source links); links when there is none."""
    return refs_text(tuple(ref for ref in refs if ref.url is None) or refs)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _sentence(text: str) -> str:
    """The first sentence of `text`, clipped to one line."""
    return _clip(_SENTENCE_END.split(text.strip(), maxsplit=1)[0], SENTENCE_CHARS)


def _undecided(report: Report) -> list[str]:
    """Said first, with the evidence that would decide; the questions are in `--full`."""
    if not report.undecided:
        return []
    notice, *steps = report.undecided
    collect = [f"- {step}" for step in steps if not step.startswith(ASK)]
    return ["## Not Decided", "", notice, "", *collect, *([""] if collect else [])]


def _diagnosis(report: Report, top: Primary) -> list[str]:
    lines = ["## Diagnosis", "", report.summary, ""]
    lines += [f"**Root cause:** {top.root_cause.text} {_page_refs(top.root_cause.refs)}", ""]
    lines += [
        f"- **Confidence:** {top.confidence}",
        f"- **Version:** {versions_text(top.versions)}",
        f"- **Setup:** {_setup(report.setup)}",
        "- **Evidence:**" if top.evidence else "- **Evidence:** none quoted",
    ]
    lines += [f"  - {code(q.location)} {code(_clip(q.text, QUOTE_CHARS))}" for q in top.evidence]
    return [*lines, ""]


def _setup(items: tuple[tuple[str, str], ...]) -> str:
    """The setup on one line: what is known, then the names of what is not."""
    known = ", ".join(f"{label} {code(value)}" for label, value in items if value != "unknown")
    unknown = [label for label, value in items if value == "unknown"]
    missing = f"{', '.join(unknown)} unknown" if unknown else ""
    return "; ".join(part for part in (known, missing) if part)


def _fixes(top: Primary) -> list[str]:
    if not top.fixes:
        return []
    first, *others = top.fixes
    lines = ["### Fix", "", *fix_step(1, first)]
    lines += [_one_line_fix(number, step) for number, step in enumerate(others, start=2)]
    lines += [""] if others else []
    if (verify := top.verification) is not None:
        lines += [
            f"**Verify:** {code(verify.write)} writes a {code(verify.kind)} script; "
            f"{code(verify.run)} exits 0 once the failure is gone.",
            "",
        ]
    return lines


def _one_line_fix(number: int, step: FixStep) -> str:
    changes = "; ".join(
        f"{code(change.path)}: {code(change.before)} → {code(change.after)}"
        for change in step.changes
    )
    text = _sentence(step.action.text) + (f" ({changes})" if changes else "")
    return f"{number}. {text} ({step.cost})"


def _config(top: Primary) -> list[str]:
    if not top.config:
        return []
    lines = ["### Consolidated Config", ""]
    for block in top.config:
        text, note = _block_text(block, top.fixes[0] if top.fixes else None)
        lines += [block_heading(block), "", *fenced(text, CONFIG_LANGUAGES[block.format])]
        lines += [note, ""] if note else [""]
    return lines


def _block_text(block: ConfigBlock, first: FixStep | None) -> tuple[str, str]:
    """A block as it fits the screen: whole, or only the lines that set a changed key."""
    lines = block.text.splitlines()
    if len(lines) <= BLOCK_LINES or first is None:
        return block.text, ""
    names = {change.path.rsplit(".", 1)[-1] for change in first.changes}
    changed = [line for line in lines if any(name in line for name in names)]
    if not changed:
        return block.text, ""
    note = f"({len(changed)} of its {len(lines)} lines; `--full` shows the whole block)"
    return "\n".join(changed), note


def _alternatives(alternatives: tuple[Alternative, ...]) -> list[str]:
    if not alternatives:
        return []
    lines = ["### If That Doesn't Work", ""]
    lines += [
        f"{number}. **{alt.title}** ({alt.confidence}) {_page_refs(alt.root_cause.refs)}"
        for number, alt in enumerate(alternatives, start=1)
    ]
    return [*lines, ""]


def _count(number: int, noun: str) -> str | None:
    if not number:
        return None
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _left_out(report: Report) -> list[str]:
    """One line that says what the full report adds, so nothing is lost silently."""
    top = report.primary
    parts = [
        "the mechanism" if top is not None and top.mechanism is not None else None,
        "the questions that would decide"
        if any(step.startswith(ASK) for step in report.undecided)
        else None,
        "each alternative's check" if report.alternatives else None,
        _count(len(report.arithmetic), "arithmetic table"),
        _count(len(report.similar), "similar confirmed failure"),
        _count(len(report.prevention), "prevention guard"),
        _count(len(report.snippets), "snippet"),
        _count(len(report.warnings), "warning"),
    ]
    added = ", ".join(part for part in parts if part)
    return [f"*`--full` adds {added}.*", ""] if added else []
