"""A version change the user names (or two listings show) becomes a regression finding.

"Works with vllm 0.4.0, fails with 0.4.1" is the strongest clue a user gives:
it names the package and the window a regression entered. The finding carries
the package and both versions so the regression page can name them, and the
engine checks the failing version against the known-bug pages' ranges.
"""

from __future__ import annotations

from trainwreck.context.versions import version_changes
from trainwreck.model import Evidence, Finding, SourceRef, VersionChange

FINDING_IDS: tuple[str, ...] = ("version.regression",)

_WHERE = {"symptoms": "description names", "listings": "environment listings show"}


def _window(change: VersionChange) -> str:
    good = change.good or "the last version that worked"
    bad = change.bad or "the version that fails"
    return f"{good} -> {bad}"


def analyze(evidence: Evidence) -> list[Finding]:
    """One `version.regression` finding per package whose change the symptoms name."""
    return [
        Finding(
            id="version.regression",
            title=f"The failure follows a {change.package} version change ({_window(change)})",
            summary=f"The {_WHERE[change.source]} a {change.package} change: {change.text!r}.",
            evidence=(SourceRef(source=change.source, text=change.text),),
            values={
                "package": change.package,
                "good_version": change.good,
                "bad_version": change.bad,
            },
        )
        for change in version_changes(evidence)
    ]
