"""How processes ended: SIGKILL (the OOM killer), SIGSEGV, SIGABRT, SIGBUS.

Read from the exits the logs record and from an exit status the user quotes
("the launcher stops with 'exits with return code = -7'"): a launcher that
prints no traceback leaves the status as the only clue, and users copy it.
"""

from __future__ import annotations

from trainwreck.analyzers.said import SYMPTOMS
from trainwreck.evidence.exits import said_exit_codes, signal_name
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
    # The kernel sends SIGBUS when a process touches a page of a memory-mapped file that
    # cannot be backed - in ML runs mostly a full /dev/shm (DataLoader workers, NCCL's
    # shared-memory transport) in a container with Docker's small default.
    "process.sigbus": (
        frozenset({-7, 135}),
        frozenset({"SIGBUS"}),
        "A process died of a bus error (SIGBUS), usually shared memory (/dev/shm) exhausted",
    ),
}
FINDING_IDS: tuple[str, ...] = tuple(_SIGNALS)


def _kind(exit_record: ProcessExit) -> str | None:
    for finding_id, (codes, names, _title) in _SIGNALS.items():
        if exit_record.exitcode in codes or (exit_record.signal or "").upper() in names:
            return finding_id
    return None


def _said_exits(symptoms: str | None) -> list[ProcessExit]:
    """The exit statuses the description quotes, as exits cited to the symptoms."""
    return [
        ProcessExit(
            source=SYMPTOMS, line=0, exitcode=code, signal=signal_name(code), text=symptoms or ""
        )
        for code in said_exit_codes(symptoms or "")
    ]


def analyze(evidence: Evidence) -> list[Finding]:
    """One finding per kind of fatal signal, citing every exit that showed it."""
    by_kind: dict[str, list[ProcessExit]] = {}
    for exit_record in (*evidence.exits, *_said_exits(evidence.symptoms)):
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
                    SourceRef(
                        source=e.source,
                        line=None if e.source == SYMPTOMS else e.line,
                        text=e.text[:300],
                    )
                    for e in exits[:3]
                ),
                values={"ranks": ",".join(map(str, ranks)) or None, "exits": len(exits)},
            )
        )
    return findings
