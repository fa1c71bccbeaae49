"""Check reports as Markdown or JSON: pure functions of the reports.

The reports were read from redacted text; what is rendered is redacted again,
the second net every output passes through.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from trainwreck.redact import redact, redact_data
from trainwreck.verify.model import FileReport

CHECK_SCHEMA_VERSION = 1


def problem_count(reports: Sequence[FileReport], severity: str = "error") -> int:
    return sum(1 for r in reports for p in r.problems if p.severity == severity)


def as_json(reports: Sequence[FileReport]) -> str:
    body = {
        "schema_version": CHECK_SCHEMA_VERSION,
        "files": [
            {
                "path": r.path,
                "kind": r.kind,
                "target": r.target,
                "frameworks": r.frameworks,
                "keys_checked": r.keys_checked,
                "notes": list(r.notes),
                "error": r.error,
                "problems": [p.as_dict() for p in r.problems],
            }
            for r in reports
        ],
        "errors": problem_count(reports),
        "warnings": problem_count(reports, "warning"),
    }
    return json.dumps(redact_data(body), indent=2) + "\n"


def _file(report: FileReport) -> list[str]:
    lines = [f"## {report.path}", ""]
    if report.error:
        return [*lines, f"Not checked: {report.error}", ""]
    versions = ", ".join(f"{k} {v}" for k, v in sorted(report.frameworks.items()))
    lines.append(
        f"Checked {report.keys_checked} keys as {report.target or report.kind}"
        + (f" ({versions})" if versions else "")
        + "."
    )
    lines += [f"> {note}" for note in report.notes]
    lines.append("")
    if not report.problems:
        return [*lines, "No problems found.", ""]
    for problem in report.problems:
        where = f"line {problem.line}: " if problem.line else ""
        fix = f" Suggestion: `{problem.suggestion}`." if problem.suggestion else ""
        stop = "" if problem.message.endswith((".", "?", ")")) else "."
        lines.append(
            f"- **{problem.severity}** ({problem.kind}) {where}{problem.message}{stop}{fix}"
        )
    return [*lines, ""]


def as_markdown(reports: Sequence[FileReport]) -> str:
    lines = ["# trainwreck check", ""]
    for report in reports:
        lines += _file(report)
    errors, warnings = problem_count(reports), problem_count(reports, "warning")
    lines.append(f"{len(reports)} file(s): {errors} error(s), {warnings} warning(s).")
    return redact("\n".join(lines) + "\n")
