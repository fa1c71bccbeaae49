"""An AnswerCheck as Markdown (one line per result) or JSON (`check-answer --format json`)."""

from __future__ import annotations

import json
from dataclasses import asdict

from trainwreck.answer_check.model import AnswerCheck, RuleResult


def _line(result: RuleResult) -> str:
    verdict = "PASS" if result.passed else "FAIL"
    where = f"line {result.line}" if result.line is not None else "-"
    return f"- {verdict} `{result.rule}` {where}: {result.message}"


def to_markdown(check: AnswerCheck) -> str:
    failed = len(check.failures)
    title = (
        "all rules pass" if failed == 0 else f"{failed} problem{'s' if failed > 1 else ''} found"
    )
    against = ", ".join(f"`{path}`" for path in check.evidence) or "none (quotes not looked up)"
    lines = [f"## Answer check: {title}", "", f"Evidence: {against}"]
    if check.env_listing:
        lines.append(f"Environment listing: `{check.env_listing}`")
    lines += ["", *(_line(result) for result in check.failures)]
    lines += [_line(result) for result in check.results if result.passed]
    return "\n".join(lines) + "\n"


def to_data(check: AnswerCheck) -> dict[str, object]:
    """The JSON shape: `passed`, what was checked against, and every result."""
    return {
        "passed": check.passed,
        "evidence": list(check.evidence),
        "env_listing": check.env_listing,
        "results": [asdict(result) for result in check.results],
    }


def to_json(check: AnswerCheck) -> str:
    return json.dumps(to_data(check), indent=2) + "\n"
