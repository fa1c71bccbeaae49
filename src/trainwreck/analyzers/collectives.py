"""The first collective where the ranks' flight recorders disagree.

Ranks pair collectives by their order in a process group (the dump's
`collective_seq_id`), not by name or call site. Walking the ranks' dumps in that
order, the first sequence number where the ranks issued different operations
(or shapes, or dtypes) is where the program diverged, and a sequence number
some ranks reached and others never issued names the ranks the rest waited for.
Each dump is a ring buffer that drops its oldest entries, so the walk starts at
the newest first entry among the ranks.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainwreck.analyzers.ranks import rank_list
from trainwreck.model import CollectiveCall, Evidence, Finding, FlightDump, SourceRef

FINDING_IDS: tuple[str, ...] = ("collective.mismatch", "collective.not_called")


def _describe(call: CollectiveCall) -> str:
    shapes = " ".join("x".join(map(str, shape)) or "scalar" for shape in call.input_sizes)
    dtype = f" {'/'.join(sorted(set(call.dtypes)))}" if call.dtypes else ""
    what = f"{call.op} [{shapes}{dtype}]" if shapes else call.op
    return f"{what} at {call.site}" if call.site else what


def _fingerprint(call: CollectiveCall) -> tuple[str, tuple[tuple[int, ...], ...], tuple[str, ...]]:
    return call.op, call.input_sizes, call.dtypes


def _ref(dump: FlightDump, call: CollectiveCall) -> SourceRef:
    return SourceRef(source=dump.source, text=f"collective #{call.seq}: {_describe(call)}")


def _by_group(dumps: Sequence[FlightDump]) -> dict[str, dict[int, dict[int, CollectiveCall]]]:
    """group -> rank -> sequence number -> call (collectives only; p2p has its own order)."""
    groups: dict[str, dict[int, dict[int, CollectiveCall]]] = {}
    for dump in dumps:
        if dump.rank is None:
            continue
        for call in dump.calls:
            if not call.p2p:
                groups.setdefault(call.group, {}).setdefault(dump.rank, {})[call.seq] = call
    return groups


def _mismatch(
    seq: int, calls: dict[int, CollectiveCall], sources: dict[int, FlightDump]
) -> Finding | None:
    kinds: dict[tuple[object, ...], list[int]] = {}
    for rank, call in sorted(calls.items()):
        kinds.setdefault(_fingerprint(call), []).append(rank)
    if len(kinds) < 2:
        return None
    groups = sorted(kinds.values(), key=lambda ranks: (len(ranks), ranks[0]))
    odd, rest = groups[0], [rank for ranks in groups[1:] for rank in ranks]
    others = "; ".join(f"{rank_list(ranks)} {_describe(calls[ranks[0]])}" for ranks in groups[1:])
    title = (
        f"collective #{seq} differs between ranks: {rank_list(odd)} called "
        f"{_describe(calls[odd[0]])}, {others} (flight recorder)"
    )
    return Finding(
        id="collective.mismatch",
        title=title,
        category="hang",
        summary=title,
        evidence=(_ref(sources[odd[0]], calls[odd[0]]), _ref(sources[rest[0]], calls[rest[0]])),
        values={
            "seq": seq,
            "rank": ",".join(map(str, odd)),
            "collective": calls[odd[0]].op,
            "site": calls[odd[0]].site,
            "other_collective": calls[rest[0]].op,
            "other_site": calls[rest[0]].site,
        },
    )


def _not_called(
    seq: int,
    calls: dict[int, CollectiveCall],
    missing: list[int],
    last: dict[int, int],
    sources: dict[int, FlightDump],
) -> Finding:
    first = calls[min(calls)]
    behind = "; ".join(f"rank {rank}'s last was #{last[rank]}" for rank in missing)
    title = (
        f"{rank_list(missing)} never issued collective #{seq} ({_describe(first)} on "
        f"{rank_list(calls)}); {behind} (flight recorder)"
    )
    return Finding(
        id="collective.not_called",
        title=title,
        category="hang",
        summary=title,
        evidence=(_ref(sources[min(calls)], first),),
        values={
            "seq": seq,
            "rank": ",".join(map(str, missing)),
            "collective": first.op,
            "site": first.site,
        },
    )


def _first_divergence(
    ranks: dict[int, dict[int, CollectiveCall]], sources: dict[int, FlightDump]
) -> Finding | None:
    start = max(min(calls) for calls in ranks.values())
    last = {rank: max(calls) for rank, calls in ranks.items()}
    for seq in sorted({seq for calls in ranks.values() for seq in calls if seq >= start}):
        present = {rank: calls[seq] for rank, calls in ranks.items() if seq in calls}
        mismatch = _mismatch(seq, present, sources)
        if mismatch is not None:
            return mismatch
        missing = sorted(rank for rank in ranks if seq not in ranks[rank] and last[rank] < seq)
        if missing:
            return _not_called(seq, present, missing, last, sources)
    return None


def analyze(evidence: Evidence) -> list[Finding]:
    """The first divergence in each process group that two or more ranks' dumps cover."""
    sources = {dump.rank: dump for dump in evidence.flight_dumps if dump.rank is not None}
    findings = []
    for ranks in _by_group(evidence.flight_dumps).values():
        if len(ranks) >= 2:
            finding = _first_divergence(ranks, sources)
            if finding is not None:
                findings.append(finding)
    return findings[:1]
