"""How worker processes ended: elastic summaries, launcher lines, shell kills.

A process that died of SIGKILL leaves no traceback; the only evidence is an exit
code (-9 or 137) in a launcher's summary or a shell's "Killed", so those lines
are turned into ProcessExit records.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Sequence

from trainwreck.model import LogLine, ProcessExit

_FIELD = re.compile(r"^\s*(?P<key>rank|exitcode|traceback)\s*:\s*(?P<value>.*)$")
_ENTRY = re.compile(r"^\s*\[\d+\]:\s*$")
_LAUNCHER = re.compile(
    r"failed \(exitcode: (?P<code>-?\d+)\) local_rank: (?P<rank>\d+) \(pid: \d+\)"
)
# An exit status in words: a shell's "exit code 137", Python's "returned non-zero exit status 1",
# DeepSpeed's launcher "[launch.py:321:sigkill_handler] [...] exits with return code = -7".
_STATUS = (
    r"(?:exit(?:s|ed)?(?: with)? (?:return )?(?:code|status)|returned non-zero exit status)"
    r"[ :=]*(?P<code>-?\d+)"
)
_SHELL = re.compile(r"^(?:.*: line \d+: +\d+ )?Killed\b|" + _STATUS, re.IGNORECASE)
_SAID_STATUS = re.compile(_STATUS, re.IGNORECASE)
_SIGNAL = re.compile(r"Signal (\d+) \((SIG[A-Z]+)\)")


def signal_name(code: int | None) -> str | None:
    """SIGKILL for -9 and 137 (128 + 9), and so on for other signals."""
    if code is None:
        return None
    number = -code if code < 0 else code - 128 if 128 < code < 160 else 0
    try:
        return signal.Signals(number).name if number else None
    except ValueError:
        return None


def _elastic_entries(lines: Sequence[LogLine]) -> list[ProcessExit]:
    """Entries of a torch.distributed.elastic `Failures:` / `Root Cause` block."""
    exits: list[ProcessExit] = []
    current: dict[str, str] = {}
    start: LogLine | None = None
    for item in [*lines, None]:
        if item is None or _ENTRY.match(item.text):
            if start is not None and "exitcode" in current:
                exits.append(_elastic_exit(start, current))
            current, start = {}, item
            continue
        field = _FIELD.match(item.text)
        if field and start is not None:
            current[field.group("key")] = field.group("value").strip()
    return exits


def _elastic_exit(start: LogLine, values: dict[str, str]) -> ProcessExit:
    code_match = re.match(r"-?\d+", values.get("exitcode", ""))
    code = int(code_match.group()) if code_match else None
    rank_match = re.match(r"\d+", values.get("rank", ""))
    sig = _SIGNAL.search(values.get("traceback", ""))
    text = "; ".join(f"{key}: {value}" for key, value in values.items())
    return ProcessExit(
        source=start.source,
        line=start.line,
        rank=int(rank_match.group()) if rank_match else None,
        exitcode=code,
        signal=sig.group(2) if sig else signal_name(code),
        text=text,
    )


def said_exit_codes(text: str) -> list[int]:
    """The exit statuses a user's description quotes ("the launcher stops with 'exits with
    return code = -7'", batch-35's DeepSpeed-Chat thread), in order."""
    return [int(m.group("code")) for m in _SAID_STATUS.finditer(text)]


def parse_exits(lines: Sequence[LogLine]) -> list[ProcessExit]:
    """ProcessExit records from one source's retained lines, in log order."""
    exits = _elastic_entries(lines)
    for item in lines:
        launcher = _LAUNCHER.search(item.text)
        shell = None if launcher else _SHELL.search(item.text)
        rank: int | None
        if launcher:
            code = int(launcher.group("code"))
            rank = int(launcher.group("rank"))
        elif shell:
            code = int(shell.group("code")) if shell.group("code") else 137
            rank = item.rank
        else:
            continue
        exits.append(
            ProcessExit(
                source=item.source,
                line=item.line,
                rank=rank,
                exitcode=code,
                signal=signal_name(code),
                text=item.text,
            )
        )
    return _dedupe(sorted(exits, key=lambda exit_: exit_.line))


def _dedupe(exits: list[ProcessExit]) -> list[ProcessExit]:
    """A launcher line and the summary both report one death: keep the first."""
    seen: set[tuple[str, int | None, int | None]] = set()
    unique = []
    for exit_ in exits:
        key = (exit_.source, exit_.rank, exit_.exitcode)
        if key not in seen:
            seen.add(key)
            unique.append(exit_)
    return unique
