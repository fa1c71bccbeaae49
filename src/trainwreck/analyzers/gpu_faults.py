"""GPU hardware faults: Xid events, uncorrectable ECC and NVLink errors, a GPU off the bus.

A fault of one GPU stalls every rank that waits for it in a collective, so what the
other ranks print (timeouts) says nothing of the cause; the kernel log of the faulty
node, CUDA's error on its rank, or `nvidia-smi -q` does. Each Xid gets a `gpu.xid`
finding with NVIDIA's catalogue meaning and actions (`kb/xid.py`); each family of node
fault (`gpu.fallen_off_bus`, `gpu.ecc`, `gpu.memory_health`, `gpu.nvlink`,
`gpu.stopped`) gets one finding gathering every line that shows it, for the KB pages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from trainwreck.analyzers.nvidia_smi import KEEP as SMI_KEEP
from trainwreck.analyzers.nvidia_smi import (
    GpuMemory,
    Shown,
    ecc_counts,
    read_gpus,
    repair_flags,
    source_of,
)
from trainwreck.evidence.node_faults import (
    DCGM_MEMORY,
    ECC_MESSAGE,
    FALLEN_OFF,
    NONFATAL,
    NVLINK_MESSAGE,
    XidEvent,
    xid_event,
)
from trainwreck.kb.xid import NODE_FAMILIES
from trainwreck.model import (
    Arithmetic,
    ArithmeticLine,
    Evidence,
    Finding,
    LogLine,
    Scalar,
    SourceRef,
)

_TITLES: dict[str, str] = {
    "fallen_off_bus": "A GPU fell off the PCIe bus: the driver can no longer reach it",
    "ecc": "A GPU hit an uncorrectable memory (ECC) error",
    "memory_health": "A GPU's memory waits for, or failed, a repair (row remap, page retirement)",
    "nvlink": "An NVLink connection between GPUs failed",
    "stopped": "A GPU or its firmware stopped responding and needs a reset",
}
FINDING_IDS: tuple[str, ...] = ("gpu.xid", *(f"gpu.{family}" for family in _TITLES))
KEEP: tuple[str, ...] = (r"NVRM: Xid \(", FALLEN_OFF.pattern, *SMI_KEEP)
# Messages other than Xid lines, each naming the family it shows.
_MESSAGES: tuple[tuple[re.Pattern[str], str], ...] = (
    (FALLEN_OFF, "fallen_off_bus"),
    (ECC_MESSAGE, "ecc"),
    (NVLINK_MESSAGE, "nvlink"),
    (DCGM_MEMORY, "memory_health"),
)
# What `nvidia-smi -q` adds to a family's finding (or raises it alone).
_COUNTERS: dict[str, Callable[[list[GpuMemory]], Shown | None]] = {
    "ecc": ecc_counts,
    "memory_health": repair_flags,
}
# Lines quoted per finding, as the other analyzers do; the counts cover every line.
EVIDENCE_REFS = 3
# Xid 154's text: "GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required)".
_RECOVERY = re.compile(r"recovery action changed from .*? to 0x[0-9a-fA-F]+ \((?P<action>[^)]+)\)")


@dataclass(frozen=True)
class _Hit:
    """One line that shows a fault: its family, and the Xid it prints if any."""

    line: LogLine
    family: str
    event: XidEvent | None = None


def _hits(lines: Iterable[LogLine]) -> tuple[list[_Hit], list[_Hit]]:
    """Xid lines (every code) and family lines (node faults, not events the driver marks
    Nonfatal), in log order."""
    xids: list[_Hit] = []
    families: list[_Hit] = []
    for line in lines:
        event = xid_event(line.text)
        if event is not None:
            family: str = event.row.family if event.row else "unlisted"
            xids.append(_Hit(line, family, event))
            if family in NODE_FAMILIES and NONFATAL not in event.detail:
                families.append(_Hit(line, family, event))
            continue
        shown = next((name for regex, name in _MESSAGES if regex.search(line.text)), None)
        if shown is not None:
            families.append(_Hit(line, shown))
    return xids, families


def _ref(line: LogLine) -> SourceRef:
    return SourceRef(source=line.source, line=line.line, text=line.text)


def _place(hits: list[_Hit]) -> dict[str, Scalar]:
    """Bus id, host and rank of the first hit that names each, and how many GPUs."""
    buses = list(dict.fromkeys(hit.event.bus_id for hit in hits if hit.event and hit.event.bus_id))
    return {
        "bus_id": buses[0] if buses else None,
        "gpus": len(buses) or None,
        "host": next((hit.event.host for hit in hits if hit.event and hit.event.host), None),
        "rank": next((hit.line.rank for hit in hits if hit.line.rank is not None), None),
    }


def _xid_finding(code: int, hits: list[_Hit]) -> Finding:
    """What one Xid code means, by NVIDIA's catalogue, and where it was logged."""
    row = hits[0].event.row if hits[0].event else None
    values: dict[str, Scalar] = {"xid": code, "count": len(hits), **_place(hits)}
    if row is None:
        title = f"Xid {code} (not in the bundled NVIDIA catalogue rows)"
        summary = f"Xid {code} logged {len(hits)} time(s); look it up in NVIDIA's Xid catalogue"
    else:
        title = f"Xid {code}: {row.description} ({row.mnemonic})"
        summary = (
            f"Xid {code} logged {len(hits)} time(s): {row.meaning} NVIDIA's catalogue: immediate "
            f"action {row.immediate}, investigatory action {row.investigatory}."
        )
        values.update(
            mnemonic=row.mnemonic,
            meaning=row.meaning,
            immediate_action=row.immediate,
            investigatory_action=row.investigatory,
            family=row.family,
            catalogue=row.source,
        )
    return Finding(
        id="gpu.xid",
        title=title,
        category="crash" if row is not None and row.node_fault else None,
        summary=summary,
        evidence=tuple(_ref(hit.line) for hit in hits[:EVIDENCE_REFS]),
        values=values,
        arithmetic=_per_gpu(code, hits),
    )


def _per_gpu(code: int, hits: list[_Hit]) -> Arithmetic:
    """How many times each GPU logged the code: one GPU or many tells a card from a node."""
    per_gpu: dict[str, list[_Hit]] = {}
    for hit in hits:
        per_gpu.setdefault((hit.event.bus_id if hit.event else None) or "?", []).append(hit)
    return Arithmetic(
        title=f"Xid {code} events",
        lines=tuple(
            ArithmeticLine(
                label=f"Xid {code} on GPU {bus}",
                formula="kernel-log lines that print it",
                value=len(group),
                source=source_of(group[0].line),
            )
            for bus, group in per_gpu.items()
        ),
        result=f"{len(hits)} event(s) on {len(per_gpu)} GPU(s)",
    )


def _recovery(xids: list[_Hit]) -> str | None:
    """The last recovery action an Xid 154 line states, if any."""
    actions = [m["action"] for hit in xids if (m := _RECOVERY.search(hit.line.text))]
    return actions[-1] if actions else None


def analyze(evidence: Evidence) -> list[Finding]:
    """`gpu.xid` per code logged, then one finding per family of node fault shown."""
    xids, families = _hits(evidence.lines)
    gpus = read_gpus(evidence.lines)
    recovery = _recovery(xids)
    by_code: dict[int, list[_Hit]] = {}
    for hit in xids:
        if hit.event is not None:
            by_code.setdefault(hit.event.code, []).append(hit)
    findings = [_xid_finding(code, hits) for code, hits in by_code.items()]
    by_family: dict[str, list[_Hit]] = {}
    for hit in families:
        by_family.setdefault(hit.family, []).append(hit)
    for family in _TITLES:
        finding = _family_finding(family, by_family.get(family, []), gpus, recovery)
        if finding is not None:
            findings.append(finding)
    return findings


def _family_finding(
    family: str, hits: list[_Hit], gpus: list[GpuMemory], recovery: str | None
) -> Finding | None:
    """One family's finding from its lines and, for memory, the `nvidia-smi -q` counters."""
    counters = _COUNTERS[family](gpus) if family in _COUNTERS else None
    if not hits and counters is None:
        return None
    values: dict[str, Scalar] = {"count": len(hits) or None, **_place(hits)}
    codes = sorted({hit.event.code for hit in hits if hit.event})
    values["xid"] = codes[0] if codes else None
    values["xids"] = ",".join(map(str, codes)) or None
    if recovery is not None:  # what the driver says the fault now needs (Xid 154)
        values["recovery_action"] = recovery
    refs = [_ref(hit.line) for hit in hits[:EVIDENCE_REFS]]
    summary = _summary(hits, values)
    arithmetic = None
    if counters is not None:
        arithmetic = counters.arithmetic
        values.update(counters.values)
        refs += [_ref(line) for line in counters.lines]
        summary = f"{summary}; {arithmetic.result}" if hits else arithmetic.result
    return Finding(
        id=f"gpu.{family}",
        title=_TITLES[family],
        category="crash",
        summary=summary,
        evidence=tuple(refs[:EVIDENCE_REFS]),
        values=values,
        arithmetic=arithmetic,
    )


def _summary(hits: list[_Hit], values: dict[str, Scalar]) -> str:
    """Where the fault is (GPU, host, rank), which Xids, how many lines and the first one."""
    if not hits:
        return ""
    where = f"GPU {values['bus_id']}" if values["bus_id"] else "a GPU"
    host = f" on host {values['host']}" if values["host"] else ""
    rank = f" (rank {values['rank']})" if values["rank"] is not None else ""
    xids = f"Xid {values['xids']}; " if values["xids"] else ""
    first = source_of(hits[0].line)
    return f"{where}{host}{rank}: {xids}{len(hits)} line(s) show it, first {first}"
