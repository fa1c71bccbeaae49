"""Lines that report a fault of the GPU or its node, not of the program that ran on it.

The NVIDIA driver logs Xid events to the kernel log (`dmesg`, `journalctl -k`, syslog);
CUDA reports some of the same faults to the program ("uncorrectable ECC error
encountered"). A run's other ranks then only see a collective that never completes,
so such a line is the root of their timeouts (`roles.py`), and the GPU-fault analyzer
reads its code, bus id and host. Shapes are those NVIDIA's driver and CUDA print, as
quoted in public reports (see tests/analyzers/fixtures/gpu_faults/SOURCES.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainwreck.kb.xid import XidRow, xid_row

# `NVRM: Xid (PCI:0000:3b:00): 79, pid=..., GPU has fallen off the bus.`; older drivers
# print the bus id without `PCI:`, a MIG instance adds ` GPU-I:05` after it.
XID_LINE = re.compile(r"NVRM: Xid \((?P<where>[^)]*)\): (?P<xid>\d{1,3}),\s*(?P<detail>.*)")
# `NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.`, `NVRM: GPU at 0000:01:00.0 has fallen
# off the bus.`, and the multi-line `NVRM: fallen off the bus and is not responding to commands.`
FALLEN_OFF = re.compile(r"NVRM: .*fallen off the bus")
# CUDA's own words for the two faults it reports to the program (runtime, driver API, old THC).
ECC_MESSAGE = re.compile(
    r"uncorrectable ECC error encountered|cudaErrorECCUncorrectable|CUDA_ERROR_ECC_UNCORRECTABLE"
)
NVLINK_MESSAGE = re.compile(
    r"uncorrectable NVLink error detected|cudaErrorNvlinkUncorrectable|"
    r"CUDA_ERROR_NVLINK_UNCORRECTABLE"
)
# dcgmi diag's verdict on a GPU with uncorrectable memory errors (its table cell wraps the
# rest, "and row remappings are pending", onto the next line).
DCGM_MEMORY = re.compile(r"GPU (?P<gpu>\d+) has uncorrectable memory errors")
BUS_ID = re.compile(r"[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}(?:\.\d)?")
# syslog / `journalctl` prefix: `Apr 29 19:24:11 EVE kernel: NVRM: ...` (the host is optional)
SYSLOG_HOST = re.compile(
    r"^\w{3} +\d{1,2} \d\d:\d\d:\d\d (?:(?P<host>(?!kernel:)[\w.-]+) )?kernel:"
)
# NVLink generation-5 Xids say per event whether the link error was fatal.
NONFATAL = "Nonfatal"
# Cheap words that any line above holds, checked before a regex runs.
_HINTS = ("NVRM", "ncorrectable", "NCORRECTABLE")


@dataclass(frozen=True)
class XidEvent:
    """One Xid line: the code, its catalogue row (None for an unlisted code), where it hit."""

    code: int
    row: XidRow | None
    bus_id: str | None
    host: str | None
    detail: str


def xid_event(text: str) -> XidEvent | None:
    """The Xid a kernel-log line reports, or None for any other line (prose naming an Xid)."""
    match = XID_LINE.search(text)
    if match is None:
        return None
    code = int(match["xid"])
    bus = BUS_ID.search(match["where"])
    host = SYSLOG_HOST.match(text)
    return XidEvent(
        code=code,
        row=xid_row(code),
        bus_id=bus.group(0).lower() if bus else None,
        host=host["host"] if host else None,
        detail=match["detail"].strip(),
    )


def node_fault(text: str) -> bool:
    """Whether a line reports a GPU or node fault that ends or stalls the work on it.

    An Xid counts when the catalogue files it under a node family with an action to take
    (a recorded row remap, Xid 63, needs none); a generation-5 NVLink event only when fatal.
    """
    if not any(hint in text for hint in _HINTS):
        return False
    if (event := xid_event(text)) is not None:
        return event.row is not None and event.row.node_fault and NONFATAL not in event.detail
    return any(
        pattern.search(text) for pattern in (FALLEN_OFF, ECC_MESSAGE, NVLINK_MESSAGE, DCGM_MEMORY)
    )
