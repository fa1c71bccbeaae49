"""The memory-health blocks of `nvidia-smi -q` pasted into a log, per GPU, and what they show.

`nvidia-smi -q` prints, under each `GPU <bus id>` header, ECC error counters (a
`Volatile` block: since the last reset; an `Aggregate` block: over the GPU's life),
`Retired Pages` (older GPUs) and `Remapped Rows` (Ampere and newer). The shapes are
those quoted in stas00/ml-engineering's NVIDIA debugging notes
(compute/accelerator/nvidia/debug.md at 15de338c). The log reader keeps only lines
some regex wants, so the headers that give a counter its meaning are in `KEEP` too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from trainwreck.model import Arithmetic, ArithmeticLine, LogLine, Scalar

_GPU = re.compile(r"^GPU (?P<bus>[0-9A-Fa-f]{8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d)\s*$")
_SCOPE = re.compile(r"^\s+(?P<scope>Volatile|Aggregate)\s*$")
_SECTION = re.compile(r"(?i)^\s+(?P<section>Retired Pages|Remapped Rows)\s*$")
# `DRAM Uncorrectable : 3`; words after these (a finer split of a counter) are part of its name.
_COUNTER = re.compile(
    r"^\s+(?P<name>(?:SRAM|DRAM) (?:Correctable|Uncorrectable)[\w -]*?)\s*:\s*(?P<n>\d+)\s*$"
)
_FLAG = re.compile(
    r"^\s+(?P<flag>Pending Page Blacklist|Remapping Failure Occurred|Pending)"
    r"\s*:\s*(?P<value>Yes|No)\s*$"
)
# Any uncorrectable error counts: NVIDIA's Xid catalogue (row 48) says such an error reaches
# the application and only a GPU reset or node reboot clears it. Correctable errors alone
# do not count (the hardware fixed them), but are listed beside an uncorrectable one.
UNCORRECTABLE_MIN = 1
UNKNOWN_BUS = "unknown"  # the bus id of counters printed without their `GPU` header
KEEP: tuple[str, ...] = (
    _GPU.pattern,
    _SCOPE.pattern,
    _SECTION.pattern,
    _COUNTER.pattern,
    _FLAG.pattern,
)
# Which flag of which section says the GPU's memory waits for, or failed, a repair.
_FLAGS = {
    ("retired pages", "Pending Page Blacklist"): "page_blacklist_pending",
    ("remapped rows", "Pending"): "remap_pending",
    ("remapped rows", "Remapping Failure Occurred"): "remap_failure",
}


@dataclass
class GpuMemory:
    """One GPU's counters and repair flags, each with the line that printed it."""

    bus_id: str
    source: str
    counters: dict[tuple[str, str], tuple[int, LogLine]] = field(default_factory=dict)
    flags: dict[str, LogLine] = field(default_factory=dict)  # only the flags printed "Yes"

    def uncorrectable(self, scope: str) -> list[tuple[str, int, LogLine]]:
        """The uncorrectable counters of one scope (`Volatile` or `Aggregate`)."""
        return [
            (name, count, line)
            for (where, name), (count, line) in self.counters.items()
            if where == scope and "Uncorrectable" in name
        ]


@dataclass
class _Reader:
    """Where in an `nvidia-smi -q` listing the current line is."""

    gpu: GpuMemory | None = None
    scope: str | None = None
    section: str | None = None

    def _start(self, bus_id: str, line: LogLine, found: list[GpuMemory]) -> None:
        self.gpu, self.scope, self.section = GpuMemory(bus_id, line.source), None, None
        found.append(self.gpu)

    def feed(self, line: LogLine, found: list[GpuMemory]) -> None:
        text = line.text
        if match := _GPU.match(text):
            self._start(match["bus"].lower(), line, found)
        elif match := _SCOPE.match(text):
            if self.gpu is None:  # an ECC block pasted without its GPU header
                self._start(UNKNOWN_BUS, line, found)
            self.scope = match["scope"]
        elif self.gpu is None:
            return
        elif match := _SECTION.match(text):
            self.section, self.scope = match["section"].lower(), None
        elif (match := _COUNTER.match(text)) and self.scope is not None:
            self.gpu.counters[(self.scope, match["name"])] = (int(match["n"]), line)
        elif (match := _FLAG.match(text)) and match["value"] == "Yes":
            flag = _FLAGS.get((self.section or "", match["flag"]))
            if flag is not None:
                self.gpu.flags[flag] = line


def read_gpus(lines: Iterable[LogLine]) -> list[GpuMemory]:
    """Every GPU block of every `nvidia-smi -q` listing in the lines, in order."""
    found: list[GpuMemory] = []
    readers: dict[str, _Reader] = {}
    for line in lines:
        readers.setdefault(line.source, _Reader()).feed(line, found)
    return found


@dataclass(frozen=True)
class Shown:
    """What a listing shows of one fault: values, the arithmetic, the lines that print it."""

    values: dict[str, Scalar]
    arithmetic: Arithmetic
    lines: list[LogLine]


def source_of(line: LogLine) -> str:
    """`file:line`, as arithmetic lines cite their inputs."""
    return f"{line.source}:{line.line}"


def _total(counts: list[tuple[str, int, LogLine]]) -> int:
    return sum(count for _, count, _ in counts)


def repair_flags(gpus: list[GpuMemory]) -> Shown | None:
    """The memory-repair flags printed "Yes", on the first GPU that has any."""
    flagged = [gpu for gpu in gpus if gpu.flags]
    if not flagged:
        return None
    gpu = flagged[0]
    values: dict[str, Scalar] = {flag: "Yes" for flag in gpu.flags}
    values.update(smi_bus_id=gpu.bus_id, gpus_flagged=len(flagged))
    lines = tuple(
        ArithmeticLine(label=flag, formula="nvidia-smi -q", value="Yes", source=source_of(line))
        for flag, line in gpu.flags.items()
    )
    result = f"nvidia-smi -q on GPU {gpu.bus_id}: {', '.join(gpu.flags)}"
    arithmetic = Arithmetic(title="GPU memory repair state", lines=lines, result=result)
    return Shown(values, arithmetic, list(gpu.flags.values()))


def ecc_counts(gpus: list[GpuMemory]) -> Shown | None:
    """Uncorrectable errors since the last reset, before it and over the GPU's life, on the
    first GPU whose Volatile uncorrectable counters reach UNCORRECTABLE_MIN."""
    faulty = [g for g in gpus if _total(g.uncorrectable("Volatile")) >= UNCORRECTABLE_MIN]
    if not faulty:
        return None
    gpu = faulty[0]
    volatile, aggregate = gpu.uncorrectable("Volatile"), gpu.uncorrectable("Aggregate")
    lines = [
        ArithmeticLine(
            label=f"{scope} {name}", formula="nvidia-smi -q", value=count, source=source_of(line)
        )
        for scope, counts in (("Volatile", volatile), ("Aggregate", aggregate))
        for name, count, line in counts
    ]
    since_reset, life = _total(volatile), _total(aggregate)
    lines.append(
        ArithmeticLine(
            label="uncorrectable since the last reset",
            formula="sum of the Volatile uncorrectable counters",
            value=since_reset,
            source="computed",
        )
    )
    values: dict[str, Scalar] = {
        "smi_bus_id": gpu.bus_id,
        "volatile_uncorrectable": since_reset,
        "gpus_with_errors": len(faulty),
    }
    result = f"GPU {gpu.bus_id}: {since_reset} uncorrectable error(s) since the last reset"
    if aggregate:
        earlier = life - since_reset
        values.update(aggregate_uncorrectable=life, earlier_uncorrectable=earlier)
        lines.append(
            ArithmeticLine(
                label="uncorrectable before the last reset",
                formula=f"Aggregate {life} - Volatile {since_reset}",
                value=earlier,
                source="computed",
            )
        )
        result += f", {earlier} more before it ({life} over the GPU's life)"
    arithmetic = Arithmetic(title="Uncorrectable ECC errors", lines=tuple(lines), result=result)
    return Shown(values, arithmetic, [line for _, count, line in volatile if count])
