"""How processes ended: SIGKILL (the OOM killer), SIGSEGV, SIGABRT."""

from __future__ import annotations

from trainwreck.model import Evidence, Finding, ProcessExit, SourceRef

# finding id -> (exit codes and signal names meaning it, title)
_SIGNALS: dict[str, tuple[frozenset[int], frozenset[str], str]] = {
    "process.killed": (
        frozenset({-9, 137}),
        frozenset({"SIGKILL"}),
        "A process was killed with SIGKILL (kernel OOM killer or scheduler)",
    ),
    "process.segfault": (
        frozenset({-11, 139}),
        frozenset({"SIGSEGV"}),
        "A process crashed with a segmentation fault (SIGSEGV)",
    ),
    "process.sigabrt": (
        frozenset({-6, 134}),
        frozenset({"SIGABRT"}),
        "A process aborted (SIGABRT), usually from a failed C++ check",
    ),
}
FINDING_IDS: tuple[str, ...] = tuple(_SIGNALS)


def _kind(exit_record: ProcessExit) -> str | None:
    for finding_id, (codes, names, _title) in _SIGNALS.items():
        if exit_record.exitcode in codes or (exit_record.signal or "").upper() in names:
            return finding_id
    return None


def analyze(evidence: Evidence) -> list[Finding]:
    """One finding per kind of fatal signal, citing every exit that showed it."""
    by_kind: dict[str, list[ProcessExit]] = {}
    for exit_record in evidence.exits:
        kind = _kind(exit_record)
        if kind:
            by_kind.setdefault(kind, []).append(exit_record)
    findings = []
    for kind, exits in by_kind.items():
        ranks = sorted({e.rank for e in exits if e.rank is not None})
        where = f" on rank(s) {', '.join(map(str, ranks))}" if ranks else ""
        codes = sorted({str(e.exitcode) for e in exits if e.exitcode is not None})
        findings.append(
            Finding(
                id=kind,
                title=_SIGNALS[kind][2],
                summary=f"{len(exits)} process exit(s){where}; "
                f"exit code(s) {', '.join(codes) or '?'}",
                evidence=tuple(
                    SourceRef(source=e.source, line=e.line, text=e.text) for e in exits[:3]
                ),
                values={"ranks": ",".join(map(str, ranks)) or None, "exits": len(exits)},
            )
        )
    return findings
