"""Assign a Role to each line and exception: root, cascade, confirmation, advice.

The first real error is what a user needs; everything it sets off (NCCL timeouts
on the other ranks, the launcher's ChildFailedError or mp.spawn's
ProcessRaisedException wrapping a worker's own traceback, a second illegal memory
access, errors during interpreter teardown) is a cascade, and the hints a
framework prints ("For debugging consider passing CUDA_LAUNCH_BLOCKING=1") are
advice, never a cause. Decisions rest on structure (exception type, the library
of the failing frame) more than on exact messages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from trainwreck.evidence.node_faults import node_fault
from trainwreck.model import ExceptionRecord, LogLine, ProcessExit, Role

_ADVICE = re.compile(
    r"might be asynchronously reported at some other API call|consider passing "
    r"CUDA_LAUNCH_BLOCKING=1|Compile with `?TORCH_USE_CUDA_DSA|If reserved but unallocated "
    r"memory is large|See documentation for Memory Management|To prevent data inconsistency, the"
    r" current process is taking the entire process down|TORCH_DISTRIBUTED_DEBUG=DETAIL|"
    r"TORCH_SHOW_CPP_STACKTRACES=1|(?:re)?run with TORCH_DISABLE_ADDR2LINE",
)
_CONFIRMATION = re.compile(
    r"Out of memory: Killed process|oom-kill|oom_reaper|^Killed\b|Signal 9 \(SIGKILL\)|"
    r"exit(?:ed)?(?: with)? ?(?:code|status)[ :=]*(?:-9|137)\b",
    re.IGNORECASE,
)
_COMM = re.compile(
    r"NCCL|ProcessGroup|[Ww]atchdog|gloo|collective operation|Connection (?:closed|reset) by "
    r"peer|remote worker|DistBackendError|DistNetworkError|c10d|heartbeat",
)
_SHUTDOWN = re.compile(
    r"interpreter shutdown|likely shutting down|sys\.meta_path is None|Exception ignored in"
)
_ILLEGAL_ACCESS = "illegal memory access"
# What a launcher raises after a worker failed; the worker's own error is the cause.
_LAUNCHER_WRAPPERS = ("ChildFailedError", "ProcessRaisedException")
_ERRORISH = re.compile(
    r"error|exception|fatal|assertion .*failed|\bfailed\b|timeout|timed out", re.IGNORECASE
)


def is_comm(record: ExceptionRecord) -> bool:
    """A collective/transport failure: usually a symptom of another rank dying."""
    inner = record.frames[-1].file if record.frames else ""
    return bool(_COMM.search(record.type) or _COMM.search(record.message)) or (
        "torch/distributed/" in inner and "elastic" not in inner
    )


def _knock_on(record: ExceptionRecord, seen_illegal: bool) -> bool:
    """Cascades recognisable from the record alone."""
    return (
        record.type.endswith(_LAUNCHER_WRAPPERS)
        or bool(_SHUTDOWN.search(record.message))
        or (seen_illegal and _ILLEGAL_ACCESS in record.message)
    )


_FATAL_SIGNALS = frozenset({"SIGKILL", "SIGSEGV", "SIGABRT", "SIGBUS", "SIGILL", "SIGFPE"})


# A rank's own wait that expired, as gloo, NCCL's watchdog and the TCP store word it.
_OWN_TIMEOUT = re.compile(r"[Tt]imed? ?out|[Tt]imeout|Watchdog caught")


def _first_comm_root(
    records: Sequence[ExceptionRecord], comm: Sequence[bool], roles: Sequence[Role]
) -> int | None:
    """With no other failure, the comm error that stays root: the first rank whose own wait
    expired (a peer closing its connection follows from that), else the first one."""
    candidates = [i for i, from_comm in enumerate(comm) if from_comm and roles[i] == "root"]
    timed_out = [i for i in candidates if _OWN_TIMEOUT.search(records[i].message)]
    chosen = timed_out or candidates
    return chosen[0] if chosen else None


def exception_roles(
    records: Sequence[ExceptionRecord],
    exits: Sequence[ProcessExit] = (),
    lines: Sequence[LogLine] = (),
) -> list[ExceptionRecord]:
    """Roles for exceptions: comm errors are cascades when a non-comm failure exists.

    A worker killed by a signal leaves no traceback of its own, so a fatal signal
    in an exit record also makes the other ranks' comm errors cascades; so does a
    GPU or node fault in any line (an Xid in the kernel log of one node), and a comm
    error that itself reports one (the watchdog quoting an uncorrectable ECC error).
    """
    roles: list[Role] = []
    seen_illegal = False
    for record in records:
        roles.append("cascade" if _knock_on(record, seen_illegal) else "root")
        seen_illegal = seen_illegal or _ILLEGAL_ACCESS in record.message
    comm = [is_comm(record) and not node_fault(record.message) for record in records]
    has_real = (
        any(exit_.signal in _FATAL_SIGNALS for exit_ in exits)
        or any(
            role == "root" and not from_comm for role, from_comm in zip(roles, comm, strict=True)
        )
        or any(node_fault(line.text) for line in lines)
    )
    kept = None if has_real else _first_comm_root(records, comm, roles)
    for index, from_comm in enumerate(comm):
        if from_comm and roles[index] == "root" and index != kept:
            roles[index] = "cascade"
    return [
        record.model_copy(update={"role": role})
        for record, role in zip(records, roles, strict=True)
    ]


_EXCEPTION_LINE = re.compile(r"^\s*(?:[\w]+\.)*[A-Z]\w*(?:Error|Exception)\b:")


def _line_role(item: LogLine, comm_is_cascade: bool, first_comm: bool) -> Role:
    """A line's role; an exception line that ends with a hint is still the error."""
    if _ADVICE.search(item.text) and not _EXCEPTION_LINE.match(item.text):
        return "advice"
    if _CONFIRMATION.search(item.text):
        return "confirmation"
    if node_fault(item.text):
        return "root"
    if _COMM.search(item.text) and _ERRORISH.search(item.text):
        return "cascade" if comm_is_cascade or not first_comm else "root"
    return "context"


def line_roles(
    lines: Sequence[LogLine], records: Sequence[ExceptionRecord], exits: Sequence[ProcessExit] = ()
) -> list[LogLine]:
    """Roles for retained lines, consistent with the exceptions' roles."""
    root_starts = {(r.source, r.line) for r in records if r.role == "root"}
    comm_is_cascade = (
        any(e.signal in _FATAL_SIGNALS for e in exits)
        or any(r.role == "root" and not is_comm(r) for r in records)
        or any(node_fault(item.text) for item in lines)
    )
    result: list[LogLine] = []
    first_comm, any_root = True, bool(root_starts)
    for item in lines:
        role = _line_role(item, comm_is_cascade, first_comm)
        if role in ("cascade", "root") and _COMM.search(item.text):
            first_comm = False
        if (item.source, item.line) in root_starts and role == "context":
            role = "root"
        if not any_root and role == "context" and _ERRORISH.search(item.text):
            role, any_root = "root", True
        any_root = any_root or role == "root"
        result.append(item.model_copy(update={"role": role}) if role != item.role else item)
    return result
