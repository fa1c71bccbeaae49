"""A pattern as a readable page (`trainwreck kb show`) and as a list row."""

from __future__ import annotations

from trainwreck.kb.schema import Pattern


def _change_line(path: str, before: object, after: object, reason: str | None) -> str:
    why = f" ({reason})" if reason else ""
    return f"  - `{path}`: {before if before is not None else 'current'} → {after}{why}"


def _example_line(example: str) -> str:
    """One line inline; a log excerpt (the error with its cause's lines) as a fenced block."""
    if "\n" not in example.rstrip("\n"):
        return f"- fires on: `{example.rstrip()}`"
    fence = "````" if "```" in example else "```"  # a pasted fenced code block stays inside
    body = "".join(f"  {line}\n" for line in example.strip("\n").splitlines())
    return f"- fires on:\n\n  {fence}\n{body}  {fence}"


def to_markdown(pattern: Pattern) -> str:
    """The whole page: cause, mechanism, fixes, discriminator, sources, examples."""
    lines = [
        f"# {pattern.title}",
        "",
        f"`kb:{pattern.id}` · {pattern.category} · " + ", ".join(pattern.frameworks),
        "",
        f"**Root cause.** {pattern.root_cause.strip()}",
        "",
        f"**Mechanism.** {' '.join(pattern.mechanism.split())}",
        "",
        "## Fixes",
        "",
    ]
    for number, fix in enumerate(pattern.fixes, 1):
        lines.append(f"{number}. {fix.action} (cost: {fix.cost})")
        lines += [_change_line(c.path, c.before, c.after, c.reason) for c in fix.changes]
        lines += [f"  - `{command}`" for command in fix.commands]
    lines += [
        "",
        f"**Discriminator** ({pattern.discriminator_cost}): {pattern.discriminator.strip()}",
    ]
    if pattern.affected:
        lines += [
            "",
            "**Affected versions:** "
            + "; ".join(
                f"{a.package}{a.specifier}" + (f" (fixed in {a.fixed_in})" if a.fixed_in else "")
                for a in pattern.affected
            ),
        ]
    lines += ["", "## Sources", ""] + [
        f"- [{c.url}]({c.url}): {c.detail.strip()}" for c in pattern.citations
    ]
    if pattern.prevention:
        lines += ["", "## Prevention", ""] + [
            f"- {g.guard} (threshold: {g.threshold})" for g in pattern.prevention
        ]
    if pattern.examples.fires or pattern.examples.cases:
        lines += ["", "## Examples", ""] + [
            _example_line(example) for example in pattern.examples.fires
        ]
        lines += [f"- real case: `{case}`" for case in pattern.examples.cases]
    return "\n".join(lines) + "\n"


def summary_row(pattern: Pattern) -> dict[str, object]:
    """What `kb list --format json` prints per pattern."""
    return {
        "id": pattern.id,
        "title": pattern.title,
        "category": pattern.category,
        "frameworks": list(pattern.frameworks),
        "citations": len(pattern.citations),
        "cases": list(pattern.examples.cases),
    }
