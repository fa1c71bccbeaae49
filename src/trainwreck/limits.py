"""Every limit on what trainwreck reads, in one place, each with the reason for its number.

Whatever a user hands in (a FIFO in a run directory, a gzip bomb, a config
nested a thousand levels deep, a field of a million characters) must neither
hang, nor exhaust memory, nor crash. A limit hit is recorded as a Gap, which the
report shows as a warning, and the rest of the evidence is still read.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

from trainwreck.errors import UsageError

MIB = 2**20

# --- Bytes read per file -------------------------------------------------------------
# Configs, environment listings and model configs are read whole; real ones are KBs
# (a `pip freeze` of a large environment is ~20 KB). 5.5 MB of YAML took 30 s with
# PyYAML's pure-Python loader; libyaml's reads this in a few seconds.
MAX_CONFIG_BYTES = 8 * MIB
# JSONL/CSV metric histories are held as text and parsed in pieces: two million logged
# steps of ~120 bytes each, and the text plus its decoded copy stay under 1 GB of RSS.
MAX_METRICS_TEXT_BYTES = 256 * MIB
# A metrics JSON (trainer_state.json, a W&B export) is parsed whole into Python objects,
# about 8x its size in memory: 64 MiB (~500k log_history entries) stays under 1 GB.
MAX_METRICS_JSON_BYTES = 64 * MIB
# A flight-recorder dump is unpickled whole, like a metrics JSON: its ring buffer holds
# TORCH_FR_BUFFER_SIZE entries (2,000 in PyTorch's own examples) of a few KiB each with
# their stacks, so 64 MiB is an order of magnitude above a real one.
MAX_FLIGHT_DUMP_BYTES = 64 * MIB
# A torch.profiler trace is streamed one event at a time, keeping only step spans and the
# few events the throughput analyzers use; this bounds the time: a 171 MB trace read in
# 2.8 s with a 66 MB peak RSS (tests/evidence/test_profiler_trace.py), so 1 GiB in ~20 s.
MAX_PROFILER_TRACE_BYTES = 1024 * MIB
# Device intervals, marked operators and launch calls a trace reader keeps (a few numbers
# each, in arrays): a busy GPU runs ~10k kernels per second, so 4M covers 400 s of profile,
# far past the few steps a profiler schedule records, in about 100 MB.
MAX_TRACE_RECORDS = 4_000_000
# Logs are streamed in bounded memory; this bounds the time (the scanner reads a few
# hundred MB/s) of an endless stream on stdin (`yes | trainwreck diagnose -`).
MAX_LOG_BYTES = 4096 * MIB
# An MLflow metric file holds one `timestamp value step` line (~30 bytes) per logged
# value: two million steps, as for JSONL above. A run's metric files together stop at
# MAX_METRICS_TEXT_BYTES, read as one history.
MAX_MLFLOW_METRIC_BYTES = 64 * MIB
# An MLflow param file holds one value; a tag or param past this is not a setting.
MAX_PARAM_BYTES = 4096

# --- Decompression (gzip, xz) ----------------------------------------------------------
# Decompressed bytes per file, whatever the kind: 10 GiB of gzip ran past 300 s.
MAX_DECOMPRESSED_BYTES = 1024 * MIB
# Text logs compress 5-20x, very repetitive ones ~100x; a deflate bomb reaches ~1000x.
MAX_COMPRESSION_RATIO = 200
# Below this many decompressed bytes the ratio is not checked: a tiny file of one
# repeated line legitimately compresses past any ratio.
RATIO_FREE_BYTES = 64 * MIB

# --- Fields ----------------------------------------------------------------------------
# One CSV field or JSONL line: the csv module's own default field_size_limit, far past
# any metric name or number; a 200 MB string field in JSONL took 2.5 GB.
MAX_FIELD_CHARS = 131_072
# A package version in a listing: PEP 440 versions with a local label
# (`2.3.1+cu121.git1a2b3c4`) are tens of characters; Python refuses int() of 4,300 digits.
MAX_VERSION_CHARS = 128

# --- Structure -------------------------------------------------------------------------
# JSON/YAML/TOML nesting: DeepSpeed and recipe configs are < 10 deep; Python's parsers
# and `flatten` recurse, and a recursion limit of 1000 crashes near 980.
MAX_NESTING_DEPTH = 64
# YAML aliases (`*name`): a config reuses a handful of anchored blocks; a billion-laughs
# document multiplies a few hundred aliases into exponential size.
MAX_YAML_ALIASES = 256

# --- Config checks -------------------------------------------------------------------
# Unknown keys per document searched for a close spelling (a typo, or a field of
# another class): each search compares the key with every field of every candidate
# class, ~10 ms in pure Python, so 9,000 unknown keys took 131 s. TrainingArguments
# has under 200 fields; a config past this many unknown keys is no config of that class,
# and the keys past it are still reported, only without a suggestion.
MAX_TYPO_KEYS = 100

# --- Walks and calls -------------------------------------------------------------------
# Files per directory walk: a run directory holds tens to hundreds of files (one per
# rank and checkpoint); 100k tiny files took 56 s and 542 MB.
MAX_WALK_FILES = 5000
# Paths per call (CLI arguments, MCP `paths`): duplicates are read once; 100k paths
# through MCP took 190 s and 1.3 GB.
MAX_PATHS = 1000


class LimitExceeded(ValueError):
    """An input past one of these limits; the message says which, in one line."""


def decompressed_limit(compressed_bytes: int | None, kind_limit: int) -> int:
    """The most bytes a compressed file may decompress to: the kind's limit, the
    absolute cap, and the ratio past RATIO_FREE_BYTES, whichever is smallest."""
    ratio_limit = max(RATIO_FREE_BYTES, MAX_COMPRESSION_RATIO * (compressed_bytes or 0))
    return min(kind_limit, MAX_DECOMPRESSED_BYTES, ratio_limit)


def special_file(path: str) -> str | None:
    """Why a path that is no regular file or directory is not opened (a FIFO blocks
    forever, a device never ends), or None for a regular file or directory.

    os.stat follows symlinks, so a link to a FIFO is caught too; a path that cannot
    be stat'ed is left to the open that follows, which reports why.
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISFIFO(mode):
        what = "a FIFO (named pipe)"
    elif stat.S_ISSOCK(mode):
        what = "a socket"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        what = "a device"
    else:
        what = "not a regular file"
    return f"{what}, not a regular file; not opened"


def nesting_exceeded(data: object, limit: int = MAX_NESTING_DEPTH) -> bool:
    """True when lists/mappings nest deeper than `limit`, or into themselves (a recursive
    YAML alias). Walked without recursion, each container once: aliases share them."""
    heights: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[object, bool]] = [(data, False)]
    while stack:
        item, finished = stack.pop()
        children = _containers(item)
        key = id(item)
        if finished:
            on_path.discard(key)
            heights[key] = 1 + max((heights[id(child)] for child in children), default=0)
            if heights[key] > limit:
                return True
        elif key in on_path:
            return True
        elif key not in heights and isinstance(item, dict | list):
            on_path.add(key)
            stack.append((item, True))
            stack.extend((child, False) for child in children if id(child) not in heights)
    return False


def _containers(item: object) -> list[object]:
    """The lists and mappings directly inside one list or mapping."""
    values = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
    return [value for value in values if isinstance(value, dict | list)]


def read_small_text(path: str, stdin: BinaryIO, hint: str) -> str:
    """A small text input (an environment listing, a written answer) up to MAX_CONFIG_BYTES:
    `-` is stdin; never a FIFO or a device (they never end). Too large, or unreadable, is a
    one-line UsageError; `hint` says what to pass instead of an oversized file."""
    if path == "-":
        return _bounded_text(stdin, path, hint)
    special = special_file(path)
    if special:
        raise UsageError(f"{path}: {special}")
    try:
        with open(path, "rb") as handle:
            return _bounded_text(handle, path, hint)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from error


def _bounded_text(handle: BinaryIO, path: str, hint: str) -> str:
    data = handle.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise UsageError(f"{path}: larger than {MAX_CONFIG_BYTES // MIB} MiB; {hint}")
    return data.decode("utf-8", errors="replace")
