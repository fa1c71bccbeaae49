"""Read PyTorch flight-recorder dumps without ever running what a pickle asks for.

A dump (`torch._C._distributed_c10d._dump_fr_trace()`, or the files NCCL's
watchdog writes with TORCH_NCCL_DUMP_ON_TIMEOUT) is a pickle of plain dicts,
lists, strings and numbers: checked on torch 2.13, loading one never resolves
a global. So the unpickler here refuses every global; a file that needs one is
not a dump, whatever its name, and is refused with a one-line reason. The JSON
form (`_dump_fr_trace_json`) carries the same entries without stacks.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import re

from trainwreck.evidence.tracebacks import frame_library
from trainwreck.model import CollectiveCall, FlightDump

# Keys only a dump has, looked for in a file's first bytes: the pickle stores dict keys as
# plain strings, the JSON form sorts its keys (comm_lib_version comes first).
_PICKLE_MARKERS = (b"collective_seq_id", b"comm_lib_version", b"pg_config")
_JSON_MARKERS = ('"comm_lib_version"', '"collective_seq_id"')
_PICKLE_PROTOCOL_OPCODE = 0x80  # pickle protocol 2 and later start with PROTO
# PyTorch writes `<prefix><rank>` per rank (nccl_trace_rank_3); the JSON form may add .json.
_RANK_IN_NAME = re.compile(r"(\d+)(?:\.json)?$")


class DumpRefused(ValueError):
    """A file that looks like a dump but is not one PyTorch wrote; never loaded further."""


def is_dump(head: bytes) -> bool:
    """Whether a file's first bytes are a flight-recorder dump (pickle or JSON)."""
    if head[:1] == bytes([_PICKLE_PROTOCOL_OPCODE]):
        return any(marker in head for marker in _PICKLE_MARKERS)
    text = head.lstrip()[:1]
    return text == b"{" and any(marker.encode() in head for marker in _JSON_MARKERS)


class _PlainUnpickler(pickle.Unpickler):
    """Dicts, lists, tuples, strings and numbers only: every global is refused."""

    def find_class(self, module: str, name: str) -> object:
        raise DumpRefused(
            f"refused: the pickle asks for {module}.{name}, and a flight-recorder dump holds "
            "only plain values; it was not loaded"
        )


def _entries(data: bytes) -> list[object]:
    if data[:1] == bytes([_PICKLE_PROTOCOL_OPCODE]):
        try:
            loaded = _PlainUnpickler(io.BytesIO(data)).load()
        except DumpRefused:
            raise
        except Exception as error:  # a damaged pickle raises any of a dozen types
            raise DumpRefused(f"not a readable flight-recorder dump: {error}") from None
    else:
        try:
            loaded = json.loads(data)
        except ValueError as error:
            raise DumpRefused(f"not a readable flight-recorder dump: {error}") from None
    entries = loaded.get("entries") if isinstance(loaded, dict) else None
    if not isinstance(entries, list):
        raise DumpRefused("not a flight-recorder dump: it has no list of entries")
    return entries


def _site(frames: object) -> str | None:
    """The user's innermost frame (the dump lists the innermost first)."""
    if not isinstance(frames, list):
        return None
    for frame in frames:
        if isinstance(frame, dict):
            filename = str(frame.get("filename", ""))
            if filename and frame_library(filename) is None:
                return f"{filename}:{frame.get('line')}"
    return None


def _sizes(value: object) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list):
        return ()
    return tuple(tuple(int(n) for n in shape) for shape in value if isinstance(shape, list | tuple))


def _call(entry: dict[str, object]) -> CollectiveCall | None:
    p2p = bool(entry.get("is_p2p"))
    seq = entry.get("p2p_seq_id" if p2p else "collective_seq_id", entry.get("seq_id"))
    name = str(entry.get("profiling_name", ""))
    if not isinstance(seq, int) or not name:
        return None
    group = entry.get("process_group")
    dtypes = entry.get("input_dtypes")
    return CollectiveCall(
        seq=seq,
        p2p=p2p,
        group=str(group[0] if isinstance(group, list | tuple) and group else entry.get("pg_id")),
        op=name.split(":", 1)[-1],
        input_sizes=_sizes(entry.get("input_sizes")),
        dtypes=tuple(map(str, dtypes)) if isinstance(dtypes, list) else (),
        state=str(entry["state"]) if entry.get("state") is not None else None,
        site=_site(entry.get("frames")),
    )


def read_dump(source: str, data: bytes) -> FlightDump:
    """One dump's collectives; DumpRefused says why a file is not one."""
    calls = [_call(entry) for entry in _entries(data) if isinstance(entry, dict)]
    match = _RANK_IN_NAME.search(os.path.basename(source))
    return FlightDump(
        source=source,
        rank=int(match.group(1)) if match else None,
        calls=tuple(call for call in calls if call is not None),
    )
