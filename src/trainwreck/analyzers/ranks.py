"""Which rank broke a multi-rank run, and in which collective.

Every rank of a distributed job prints its own error and most of them are
knock-on: the ranks left waiting time out, or see a peer's connection close, and
torchrun's summary names whichever failure it noticed first. The rank that
matters is the one that raised something else, the one that never arrived where
the others wait, or the one waiting in another collective. Read from the ranks'
tracebacks (the collective is the `torch.distributed` function a frame is in, the
call site the user's innermost frame) and from NCCL watchdog lines (`OpType`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from trainwreck.analyzers.nccl import WATCHDOG, rank_of
from trainwreck.evidence.roles import is_comm
from trainwreck.model import Evidence, ExceptionRecord, Finding, LogLine, SourceRef

FINDING_IDS: tuple[str, ...] = (
    "ranks.raised_first",
    "ranks.not_arrived",
    "ranks.collective_mismatch",
)

_C10D = "torch/distributed/distributed_c10d.py"
# What a rank prints when its own wait expired (gloo's TCP transport; NCCL's watchdog and
# blocking wait; the TCP store): it was in the collective, waiting for a peer.
_TIMED_OUT = re.compile(
    r"Timed out waiting (?P<ms>\d+)ms for (?:recv|send) operation|"
    r"Watchdog caught collective operation timeout|timed out in blocking wait|"
    r"Timeout\(ms\)=(?P<nccl_ms>\d+)\) ran for \d+ milliseconds before timing out"
)
# ProcessGroupNCCL's watchdog summary (torch >= 2.2; `[PG 0 Rank 2]` before 2.4): the work
# it timed out at and this rank's last enqueued and completed sequence numbers. A rank that
# only answered another rank's dump signal prints the last two without a work number.
_PROGRESS = re.compile(
    r"\[PG (?:ID )?(?P<pg>\d+)[^\]]*?Rank (?P<rank>\d+)\] (?:(?:Exception \(either an error or "
    r"timeout\) detected by watchdog at work|Timeout at NCCL work): (?P<at>\d+), )?"
    r"[^\n]*?[Ll]ast enqueued NCCL work: (?P<enqueued>-?\d+), last completed(?: NCCL work)?: "
    r"(?P<completed>-?\d+)"
)
_LAUNCHER_WRAPPERS = ("ChildFailedError", "ProcessRaisedException")
# Signals a launcher sends to the workers that are still running once one has failed.
_STOPPED_BY_LAUNCHER = frozenset({"SIGTERM", "SIGKILL"})
MS_PER_S = 1000


@dataclass(frozen=True)
class Wait:
    """Where one rank's communication error left it."""

    rank: int
    op: str  # the collective: the torch.distributed function, or NCCL's OpType
    site: str | None  # the user's call site, `file:line`
    timed_out: bool  # its own wait expired (else a peer's connection closed)
    timeout_ms: int | None
    ref: SourceRef

    @property
    def where(self) -> str:
        return f"{self.op} ({self.site})" if self.site else self.op


def _record_ranks(record: ExceptionRecord) -> tuple[int, ...]:
    if record.ranks:
        return record.ranks
    return (record.rank,) if record.rank is not None else ()


def _ref(record: ExceptionRecord) -> SourceRef:
    return SourceRef(
        source=record.source,
        line=record.message_ref_line,
        text=f"{record.type}: {record.message}".split("\n")[0],
    )


def _wait_of(rank: int, record: ExceptionRecord) -> Wait | None:
    """The collective a communication error was raised in, read from its frames."""
    ops = [f.function for f in record.frames if f.file.replace("\\", "/").endswith(_C10D)]
    if not ops or not ops[0]:
        return None
    user = record.user_frame
    timed = _TIMED_OUT.search(record.message)
    ms = (timed["ms"] or timed["nccl_ms"]) if timed else None
    return Wait(
        rank=rank,
        op=ops[0],  # the outermost: the torch.distributed call the user made
        site=f"{user.file}:{user.line}" if user else None,
        timed_out=timed is not None,
        timeout_ms=int(ms) if ms else None,
        ref=_ref(record),
    )


def _watchdog_waits(lines: Iterable[LogLine]) -> dict[int, Wait]:
    """NCCL watchdog timeouts print no Python traceback: the op is WorkNCCL's OpType
    (the lines the nccl analyzer reads, with the rank that printed them)."""
    waits: dict[int, Wait] = {}
    for line in lines:
        match = WATCHDOG.search(line.text)
        rank = rank_of(line) if match else None
        if match and rank is not None:
            ref = SourceRef(source=line.source, line=line.line, text=line.text)
            waits.setdefault(
                rank, Wait(rank, match["op"].lower(), None, True, int(match["timeout"]), ref)
            )
    return waits


@dataclass(frozen=True)
class Progress:
    """How far one rank got in one process group, by its NCCL watchdog's summary."""

    rank: int
    group: str
    at: int | None  # the work its own watchdog timed out at
    enqueued: int
    ref: SourceRef


def _progress(lines: Iterable[LogLine]) -> dict[tuple[str, int], Progress]:
    found: dict[tuple[str, int], Progress] = {}
    for line in lines:
        match = _PROGRESS.search(line.text)
        if match:
            key = (match["pg"], int(match["rank"]))
            ref = SourceRef(source=line.source, line=line.line, text=line.text)
            at = int(match["at"]) if match["at"] else None
            found.setdefault(key, Progress(key[1], key[0], at, int(match["enqueued"]), ref))
    return found


@dataclass(frozen=True)
class Ranks:
    """Each rank's end: its own error, where it waited, how it exited, its last line."""

    known: tuple[int, ...]
    raised: dict[int, ExceptionRecord]
    waits: dict[int, Wait]
    stopped: frozenset[int]  # ended by a launcher's signal with no error of their own
    last_line: dict[int, LogLine]
    progress: dict[tuple[str, int], Progress]
    ops: dict[int, str]  # NCCL sequence number -> OpType, from the watchdog lines


def _by_time(
    raised: dict[int, ExceptionRecord], lines: Iterable[LogLine]
) -> dict[int, ExceptionRecord]:
    """The raising ranks, earliest first when every traceback's first line has a timestamp
    (per-rank files have no order between them); else in the evidence's order."""
    stamps = {(line.source, line.line): line.timestamp for line in lines}
    times = {rank: stamps.get((record.source, record.line)) for rank, record in raised.items()}
    if len(raised) < 2 or not all(times.values()):
        return raised
    return dict(sorted(raised.items(), key=lambda item: times[item[0]] or ""))


def read_ranks(evidence: Evidence) -> Ranks:
    raised: dict[int, ExceptionRecord] = {}
    waits: dict[int, Wait] = {}
    for record in evidence.exceptions:
        if record.chain is not None or record.type.endswith(_LAUNCHER_WRAPPERS):
            continue
        for rank in _record_ranks(record):
            if is_comm(record):
                wait = _wait_of(rank, record)
                if wait is not None:
                    waits.setdefault(rank, wait)
            elif record.role == "root":
                raised.setdefault(rank, record)
    for rank, wait in _watchdog_waits(evidence.lines).items():
        waits.setdefault(rank, wait)
    raised = _by_time(raised, evidence.lines)
    last_line = {line.rank: line for line in evidence.lines if line.rank is not None}
    stopped = frozenset(
        exit_.rank
        for exit_ in evidence.exits
        if exit_.rank is not None and exit_.signal in _STOPPED_BY_LAUNCHER
    )
    progress = _progress(evidence.lines)
    ops = {
        int(match["seq"]): match["op"].lower()
        for line in evidence.lines
        if (match := WATCHDOG.search(line.text)) and match["seq"] is not None
    }
    known = {*raised, *waits, *last_line, *stopped, *(rank for _, rank in progress)}
    known |= {exit_.rank for exit_ in evidence.exits if exit_.rank is not None}
    if evidence.setup.world_size:
        known |= set(range(evidence.setup.world_size))
    if known:  # ranks are numbered from 0: rank 3 printing means ranks 0-2 exist
        known |= set(range(max(known) + 1))
    return Ranks(
        tuple(sorted(known)),
        raised,
        waits,
        stopped - raised.keys() - waits.keys(),
        last_line,
        progress,
        ops,
    )


def rank_list(ranks: Iterable[int]) -> str:
    """`rank 3` or `ranks 0, 1, 2`, in order."""
    listed = sorted(ranks)
    return ("rank " if len(listed) == 1 else "ranks ") + ", ".join(map(str, listed))


def _raised_first(ranks: Ranks) -> Finding | None:
    """A rank raised its own error; the others only waited for it or were stopped."""
    followers = (ranks.waits.keys() | ranks.stopped) - ranks.raised.keys()
    if not ranks.raised or not followers:
        return None
    rank, record = next(iter(ranks.raised.items()))  # the first to fail (see _by_time)
    user = record.user_frame
    site = f" at {user.file}:{user.line}" if user else ""
    message = record.message.split("\n")[0][:160]
    how = []
    waiting = sorted(followers & ranks.waits.keys())
    if waiting:
        ops = sorted({ranks.waits[r].where for r in waiting})
        how.append(f"{rank_list(waiting)} failed waiting in {' / '.join(ops)}")
    if followers & ranks.stopped:
        how.append(f"{rank_list(followers & ranks.stopped)} stopped by the launcher")
    title = (
        f"rank {rank} raised {record.type}{site} ({message}); the other ranks' failures follow "
        f"from it: {'; '.join(how)}"
    )
    return Finding(
        id="ranks.raised_first",
        title=title,
        category="crash",
        summary=title,
        evidence=(_ref(record), *(ranks.waits[r].ref for r in waiting[:2])),
        values={
            "rank": rank,
            "exception": record.type,
            "site": f"{user.file}:{user.line}" if user else None,
            "knock_on_ranks": ",".join(map(str, sorted(followers))),
        },
    )


def _timeout_s(waits: Iterable[Wait]) -> int | None:
    values = [wait.timeout_ms for wait in waits if wait.timeout_ms]
    return max(values) // MS_PER_S if values else None


def _collective_mismatch(ranks: Ranks) -> Finding | None:
    """Ranks that timed out in different collectives: their calls stopped pairing up."""
    groups: dict[str, list[Wait]] = {}
    for wait in ranks.waits.values():
        if wait.timed_out:
            groups.setdefault(wait.where, []).append(wait)
    if len(groups) < 2:
        return None
    ordered = sorted(groups.values(), key=lambda group: (len(group), group[0].rank))
    odd, rest = ordered[0], [wait for group in ordered[1:] for wait in group]
    odd_ranks = [wait.rank for wait in odd]
    others = "; ".join(
        f"{rank_list(w.rank for w in group)} in {group[0].where}" for group in ordered[1:]
    )
    title = (
        f"{rank_list(odd_ranks)} timed out in {odd[0].where} while {others}: "
        "the ranks no longer call the same collectives in the same order"
    )
    return Finding(
        id="ranks.collective_mismatch",
        title=title,
        category="hang",
        summary=title,
        evidence=tuple(wait.ref for wait in (odd[0], rest[0])),
        values={
            "rank": ",".join(map(str, odd_ranks)),
            "collective": odd[0].op,
            "site": odd[0].site,
            "other_collective": rest[0].op,
            "other_site": rest[0].site,
        },
    )


def _not_arrived(ranks: Ranks) -> Finding | None:
    """Ranks timed out in one collective; a rank with no error of its own never came."""
    timed = [wait for wait in ranks.waits.values() if wait.timed_out]
    if not timed or len({wait.where for wait in timed}) > 1:
        return None
    # Only ranks the evidence shows doing something else. A rank with no line at all may
    # simply be missing from the logs given (rank 0's log of an 8-GPU job), unless the
    # timeouts come from one log the ranks share: there its own timeout would show too.
    summarised = {rank for _, rank in ranks.progress}  # NCCL's own count judged them
    others = [
        r
        for r in ranks.known
        if r not in ranks.waits and r not in ranks.raised and r not in summarised
    ]
    shared = len({wait.ref.source for wait in timed}) == 1 and len(timed) >= 2
    absent = [r for r in others if shared or r in ranks.last_line or r in ranks.stopped]
    if not absent:
        return None
    where = timed[0].where
    timeout = _timeout_s(timed)
    waited = f"waited {timeout} s and " if timeout is not None else ""
    stopped = [r for r in absent if r in ranks.stopped]
    silent = [r for r in others if r not in ranks.last_line and r not in ranks.stopped]
    notes = []
    if stopped:
        notes.append(f"{rank_list(stopped)} printed no error and ended by the launcher's signal")
    if silent and shared:
        notes.append(f"{rank_list(silent)} printed no timeout in the log the others share")
    elif silent:
        notes.append(f"no line of {rank_list(silent)} is in the evidence")
    last = [ranks.last_line[r] for r in absent if r in ranks.last_line]
    if last:
        notes.append(f"last line of rank {last[0].rank}: {last[0].text[:120]!r}")
    title = (
        f"{rank_list(absent)} never reached {where}, where {rank_list(w.rank for w in timed)} "
        f"{waited}timed out" + (f" ({'; '.join(notes)})" if notes else "")
    )
    refs = [timed[0].ref, *(SourceRef(source=x.source, line=x.line, text=x.text) for x in last[:1])]
    return Finding(
        id="ranks.not_arrived",
        title=title,
        category="hang",
        summary=title,
        evidence=tuple(refs),
        values={
            "rank": ",".join(map(str, absent)),
            "collective": timed[0].op,
            "site": timed[0].site,
            "waiting_ranks": ",".join(str(w.rank) for w in sorted(timed, key=lambda w: w.rank)),
            "timeout_s": timeout,
        },
    )


def _never_enqueued(ranks: Ranks) -> Finding | None:
    """NCCL's summaries: ranks whose last enqueued work is below the one others timed out at
    never issued that collective (the rank to look at; the others only waited for it)."""
    for group in sorted({key[0] for key in ranks.progress}):
        rows = [row for key, row in ranks.progress.items() if key[0] == group]
        timed = [row for row in rows if row.at is not None]
        if not timed:
            continue
        at = max(row.at for row in timed if row.at is not None)
        behind = sorted(row.rank for row in rows if row.enqueued < at)
        ahead = sorted(row.rank for row in rows if row.enqueued >= at)
        if not behind or not ahead:
            continue
        op = ranks.ops.get(at)
        enqueued = {row.rank: row.enqueued for row in rows}
        title = (
            f"{rank_list(behind)} never enqueued NCCL work #{at}"
            + (f" ({op})" if op else "")
            + f" that {rank_list(ahead)} enqueued and waited in (last enqueued: "
            + ", ".join(f"rank {rank} #{enqueued[rank]}" for rank in behind[:4])
            + f"; the others up to #{max(enqueued[rank] for rank in ahead)})"
        )
        first = next(row for row in rows if row.rank == behind[0])
        return Finding(
            id="ranks.not_arrived",
            title=title,
            category="hang",
            summary=title,
            evidence=(first.ref, timed[0].ref),
            values={
                "rank": ",".join(map(str, behind)),
                "collective": op,
                "seq": at,
                "waiting_ranks": ",".join(map(str, ahead)),
                "timeout_s": _timeout_s(ranks.waits.values()),
            },
        )
    return None


def analyze(evidence: Evidence) -> list[Finding]:
    """At most one finding: the raising rank first, then diverged or absent ranks."""
    ranks = read_ranks(evidence)
    if len(ranks.known) < 2:
        return []
    for rule in (_raised_first, _collective_mismatch, _never_enqueued, _not_arrived):
        finding = rule(ranks)
        if finding is not None:
            return [finding]
    return []
