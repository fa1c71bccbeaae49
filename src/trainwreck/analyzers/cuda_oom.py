"""Read the numbers out of a CUDA OOM message and say where the memory went.

PyTorch prints the request, the GPU's capacity, what is free, what this process
holds and what its caching allocator holds (allocated vs reserved-but-unallocated).
From those: memory held by other processes = total - free - this process, and
fragmentation = reserved-but-unallocated memory that could not serve the request.
"""

from __future__ import annotations

import re

from trainwreck.analyzers.units import SIZE, gib, to_bytes
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding, SourceRef

# Both message formats: torch >= 2.1 ("GPU 0 has a total capacity of ...") and
# older ("(GPU 0; 15.78 GiB total capacity; ...)").
_FIELDS: dict[str, re.Pattern[str]] = {
    "tried": re.compile(rf"Tried to allocate ({SIZE})"),
    # torch 2.1 printed "total capacty" (sic)
    "total": re.compile(rf"total capaci?ty of ({SIZE})|({SIZE}) total capacity"),
    "free": re.compile(rf"of which ({SIZE}) is free|({SIZE}) free"),
    "process": re.compile(rf"this process has ({SIZE}) memory in use"),
    "allocated": re.compile(rf"({SIZE}) is allocated by PyTorch|({SIZE}) already allocated"),
    "reserved_unallocated": re.compile(rf"({SIZE}) is reserved by PyTorch but unallocated"),
    "reserved_total": re.compile(rf"({SIZE}) reserved in total by PyTorch"),
}
# ROCm builds print the same message with "HIP" for "CUDA" (and no per-process line).
_OOM_TEXT = re.compile(r"(?:CUDA|HIP) out of memory")
_OOM = re.compile(rf"{_OOM_TEXT.pattern}|OutOfMemoryError")
# What explains the OOM. These cut-offs are the project's judgement (no published source),
# tested at their edges in tests/analyzers/test_cuda_oom.py.
OTHERS_MIN_BYTES = 2 * 2**30  # held by other processes: at least 2 GiB ...
OTHERS_MIN_SHARE = 10  # ... and at least a tenth of the card
# Reserved-but-unallocated memory below this share of the card is no explanation: even
# all of it returned (expandable_segments) buys a run that fills the card < 5% headroom,
# so the run is at capacity, not fragmented (a QLoRA run at 21.86 of 22.02 GiB with
# 0.45 GiB unallocated, first-sight batch-5).
FRAGMENTED_SHARE = 0.05
FULL_SHARE = 0.85  # this process holds at least this share of the card: the GPU is full
_GPU = re.compile(r"GPU (\d+)")
_LABELS = {
    "tried": "requested allocation",
    "total": "GPU total capacity",
    "free": "free on the GPU",
    "process": "in use by this process (incl. non-PyTorch)",
    "allocated": "allocated by PyTorch tensors",
    "reserved_unallocated": "reserved by PyTorch but unallocated",
    "reserved_total": "reserved in total by PyTorch",
}


def _parse(text: str) -> dict[str, int]:
    values: dict[str, int] = {}
    for name, regex in _FIELDS.items():
        match = regex.search(text)
        if match:
            size = to_bytes(next(group for group in match.groups() if group))
            if size is not None:
                values[name] = size
    if "reserved_unallocated" not in values and {"reserved_total", "allocated"} <= values.keys():
        values["reserved_unallocated"] = values["reserved_total"] - values["allocated"]
    return values


def _oom_message(evidence: Evidence) -> SourceRef | None:
    """The OOM text with the most numbers in it (exception message or log line)."""
    candidates = [
        SourceRef(source=exc.source, line=exc.message_ref_line, text=exc.message)
        for exc in evidence.exceptions
        if _OOM.search(exc.type + " " + exc.message)
    ]
    candidates += [
        SourceRef(source=line.source, line=line.line, text=line.text)
        for line in evidence.lines
        if _OOM_TEXT.search(line.text)
    ]
    return max(candidates, key=lambda ref: len(_parse(ref.text)), default=None)


def _arithmetic(values: dict[str, int], where: str) -> Arithmetic:
    lines = [
        ArithmeticLine(
            label=_LABELS[name],
            formula="from the OOM message",
            value=gib(size),
            unit="GiB",
            source=where,
        )
        for name, size in values.items()
        if name != "reserved_total"
    ]
    other = _held_by_others(values)
    if other is not None:
        mine = "this process" if values.get("process") else "reserved by PyTorch"
        lines.append(
            ArithmeticLine(
                label="held by other processes",
                value=gib(other),
                unit="GiB",
                formula=f"total - free - {mine}",
                source="computed",
            )
        )
    result = (
        f"requested {gib(values.get('tried', 0))} GiB with {gib(values.get('free', 0))} GiB free"
    )
    return Arithmetic(
        title="Where the GPU memory went at the OOM", lines=tuple(lines), result=result
    )


def _this_process(values: dict[str, int]) -> int | None:
    """This process's share: printed by torch >= 2.1, else what PyTorch reserved."""
    if values.get("process"):
        return values["process"]
    if "reserved_total" in values:
        return values["reserved_total"]
    if "allocated" in values:
        return values["allocated"] + values.get("reserved_unallocated", 0)
    return None


def _held_by_others(values: dict[str, int]) -> int | None:
    mine = _this_process(values)
    if mine is None or not {"total", "free"} <= values.keys():
        return None
    return max(0, values["total"] - values["free"] - mine)


FINDING_IDS: tuple[str, ...] = (
    "cuda.oom",
    "cuda.oom.other_process",
    "cuda.oom.fragmentation",
    "cuda.oom.capacity",
)


def _classify(values: dict[str, int]) -> list[tuple[str, str]]:
    """(finding id, summary) for each explanation the numbers support."""
    total, tried = values.get("total"), values.get("tried")
    found: list[tuple[str, str]] = []
    other = _held_by_others(values)
    if total and other is not None and other >= max(OTHERS_MIN_BYTES, total // OTHERS_MIN_SHARE):
        found.append(
            (
                "cuda.oom.other_process",
                f"{gib(other)} GiB of {gib(total)} GiB is held by other processes",
            )
        )
    unallocated = values.get("reserved_unallocated")
    others_hold_it = bool(found)
    if (
        tried
        and total
        and unallocated
        and not others_hold_it
        and unallocated >= tried
        and unallocated >= FRAGMENTED_SHARE * total
    ):
        found.append(
            (
                "cuda.oom.fragmentation",
                f"{gib(unallocated)} GiB reserved but unallocated could not serve a "
                f"{gib(tried)} GiB request: the cache is fragmented",
            )
        )
    in_use = _this_process(values) or 0
    if total and not others_hold_it and in_use >= FULL_SHARE * total:
        found.append(
            (
                "cuda.oom.capacity",
                f"this process holds {gib(in_use)} of {gib(total)} GiB: the GPU is full",
            )
        )
    return found


def oom_capacity(evidence: Evidence) -> int | None:
    """The GPU capacity in bytes that a CUDA OOM message printed, if any."""
    message = _oom_message(evidence)
    return _parse(message.text).get("total") if message is not None else None


def analyze(evidence: Evidence) -> list[Finding]:
    """A `cuda.oom` finding with the memory arithmetic, plus what explains it."""
    message = _oom_message(evidence)
    if message is None:
        return []
    values = _parse(message.text)
    if not values:
        return []
    where = f"{message.source}:{message.line}"
    gpu = _GPU.search(message.text)
    shown = {name: gib(size) for name, size in values.items()}
    arithmetic = _arithmetic(values, where)
    findings = [
        Finding(
            id="cuda.oom",
            title="CUDA out of memory",
            category="oom",
            summary=arithmetic.result,
            evidence=(message,),
            values={**shown, "gpu": gpu.group(1) if gpu else None},
            arithmetic=arithmetic,
        )
    ]
    for finding_id, summary in _classify(values):
        findings.append(
            Finding(
                id=finding_id,
                title=summary,
                category="oom",
                summary=summary,
                evidence=(message,),
                values=shown,
            )
        )
    return findings
