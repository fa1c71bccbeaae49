"""Find, open and sniff input files: which role each plays, and what cannot be read.

Compressed logs (gzip, xz) are opened transparently by magic bytes, whatever
their name. A binary file is a Gap, not a log: feeding it to the log scanner
would only produce noise.
"""

from __future__ import annotations

import gzip
import lzma
import os
import re
import stat
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, Literal

from trainwreck.errors import why_not_read
from trainwreck.evidence._text import clean
from trainwreck.evidence.flight_recorder import is_dump
from trainwreck.evidence.structured import load_json as _load_json
from trainwreck.limits import (
    MAX_CONFIG_BYTES,
    MAX_FLIGHT_DUMP_BYTES,
    MAX_LOG_BYTES,
    MAX_METRICS_JSON_BYTES,
    MAX_METRICS_TEXT_BYTES,
    MAX_PROFILER_TRACE_BYTES,
    MAX_WALK_FILES,
    special_file,
)
from trainwreck.model import Gap, InputKind

SNIFF_BYTES = 8192
SKIP_DIRS = frozenset({".git", "__pycache__", ".venv", "node_modules", ".ipynb_checkpoints"})
_MAGIC = {b"\x1f\x8b": "gzip", b"\xfd7zXZ\x00": "xz"}
_SQLITE = b"SQLite format 3\x00"  # MLflow's default store is an SQLite database
MetricStore = Literal["mlflow_run", "mlflow_db", "tensorboard"]
_TEXT_CONTROL = frozenset({7, 8, 9, 10, 12, 13, 27})


@dataclass(frozen=True)
class Candidate:
    """A file found under the user's paths, with the role it will be read as."""

    path: str
    kind: InputKind
    size_bytes: int | None
    compressed: str | None
    store: MetricStore | None = None  # metrics read by a store reader, not as text

    @property
    def name(self) -> str:
        """The path as evidence records it: a secret in a file name is redacted."""
        return clean(self.path)


def compression(path: str) -> str | None:
    """'gzip' or 'xz' by magic bytes (falling back to the suffix), else None."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(6)
    except OSError:
        return None
    for magic, name in _MAGIC.items():
        if head.startswith(magic):
            return name
    return None


def open_binary(path: str, compressed: str | None) -> BinaryIO:
    """Open a file for reading bytes, decompressing on the fly."""
    if compressed == "gzip":
        return gzip.open(path, "rb")  # type: ignore[return-value]
    if compressed == "xz":
        return lzma.open(path, "rb")  # type: ignore[return-value]
    return open(path, "rb")


def looks_binary(head: bytes) -> bool:
    """NUL bytes, or many control bytes, in the first 8 KiB mean not a text log."""
    if not head:
        return False
    if b"\x00" in head:
        return True
    control = sum(1 for byte in head if byte < 32 and byte not in _TEXT_CONTROL)
    return control / len(head) > 0.1


def _strip_compression_suffix(name: str) -> str:
    for suffix in (".gz", ".xz"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def kind_by_name(path: str, head: str) -> InputKind:
    """The role of a file from its name and its first few KiB of text."""
    name = _strip_compression_suffix(os.path.basename(path).lower())
    if name.endswith(".py"):
        return "code"
    if (
        name == "trainer_state.json"
        or name.endswith((".jsonl", ".ndjson"))
        or name == "metrics.csv"
    ):
        return "metrics"
    if name.endswith((".csv", ".tsv")) and _metric_header(head):
        return "metrics"
    if name.endswith(".json"):
        return _json_kind(name, head)
    if name.endswith((".yaml", ".yml", ".toml", ".cfg", ".ini")):
        return "config"
    if name.startswith(("requirements", "env", "pip_", "pip-", "conda", "collect_env")) or (
        "nvidia-smi" in name or "nvidia_smi" in name
    ):
        return "env" if name.endswith((".txt", ".log", ".out")) or "." not in name else "log"
    return _text_kind(head)


_METRIC_COLUMN = re.compile(
    r"(?i)(?:^|[,\t/ _])(?:loss|step|lr|learning_rate|grad_norm)(?:$|[,\t_ ])"
)


def _metric_header(head: str) -> bool:
    """A CSV whose header row names a step or a loss column holds a metric history."""
    return bool(_METRIC_COLUMN.search(head.split("\n", 1)[0]))


def is_profiler_trace(name: str, head: str) -> bool:
    """A Chrome trace, as torch.profiler writes it: named *.pt.trace.json, or a JSON object
    whose head names its event list (or the schemaVersion and deviceProperties that Kineto
    writes before it, which push the list past the sniffed head on a node of many GPUs)."""
    if name.endswith(".pt.trace.json"):
        return True
    if not head.lstrip().startswith("{"):
        return False
    return '"traceEvents"' in head or ('"schemaVersion"' in head and '"deviceProperties"' in head)


def _json_kind(name: str, head: str) -> InputKind:
    if is_profiler_trace(name, head):
        return "profiler_trace"
    if name.startswith(("ds_config", "deepspeed", "training_args", "accelerate", "fsdp")):
        return "config"
    if '"model_type"' in head or '"architectures"' in head:
        return "model_config"
    if '"log_history"' in head:
        return "metrics"
    return "config"


def _text_kind(head: str) -> InputKind:
    """Sniff an environment listing by its content, whatever its name."""
    first = head[:2000]
    markers = (
        "Package    ",
        "Package  ",
        "# packages in environment",
        "PyTorch version:",
        "NVIDIA-SMI ",
        "Collecting environment information",
    )
    if any(marker in first for marker in markers):
        return "env"
    lines = [line for line in first.splitlines()[:20] if line.strip()]
    if lines and sum("==" in line and " " not in line.strip() for line in lines) > len(lines) * 0.8:
        return "env"
    return "log"


REPORT_SUFFIXES = (".md", ".html", ".htm")
# Kinds read as a stream up to their limit (the rest a Gap), not refused for their size.
STREAMED: tuple[InputKind, ...] = ("log", "profiler_trace")
# What a run directory is searched for (kind_by_name, walk), said when nothing is found.
LOOKED_FOR = (
    "looked in every folder (but .git and caches) for logs (*.log, *.txt, *.out, any text), "
    "metrics (trainer_state.json, *.jsonl, metrics.csv, TensorBoard events, MLflow runs), "
    "configs (*.yaml, *.json, *.toml), torch.profiler traces (*.pt.trace.json), "
    "environment listings and *.py code; "
    "Markdown and HTML reports are skipped"
)


def is_mlflow_run(path: str) -> bool:
    """`mlruns/<experiment>/<run>/`: a meta.yaml beside a metrics folder."""
    return os.path.isfile(os.path.join(path, "meta.yaml")) and os.path.isdir(
        os.path.join(path, "metrics")
    )


def is_event_file(path: str) -> bool:
    """A TensorBoard event file (binary records, read by the tensorboard package)."""
    return ".tfevents." in os.path.basename(path)


def walk(path: str) -> Iterator[str | Gap]:
    """Files under a directory in sorted order, skipping VCS and cache folders.

    Markdown and HTML files are skipped too: in a run directory they are reports
    (trainwreck's own among them) and READMEs, not what the run printed. An
    MLflow run folder is yielded whole: its metric files only make sense together.
    A folder that cannot be listed, and the files past MAX_WALK_FILES, are Gaps.
    """
    unlisted: list[OSError] = []
    count = 0
    for root, dirs, files in os.walk(path, onerror=unlisted.append):
        yield from (_unlisted_gap(error) for error in unlisted)
        unlisted.clear()
        if is_mlflow_run(root):
            dirs[:] = []
            yield root
            continue
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            if name.lower().endswith(REPORT_SUFFIXES):
                continue
            count += 1
            if count > MAX_WALK_FILES:
                yield Gap(source=path, reason=f"more than {MAX_WALK_FILES} files; the rest skipped")
                return
            yield os.path.join(root, name)
    yield from (_unlisted_gap(error) for error in unlisted)


def _unlisted_gap(error: OSError) -> Gap:
    return Gap(source=str(error.filename or "?"), reason=f"cannot list: {why_not_read(error)}")


def sniff(path: str) -> Candidate | Gap:
    """Decide how to read one file (or MLflow run folder), or why it cannot be read."""
    if is_mlflow_run(path):
        return Candidate(path, "metrics", None, None, "mlflow_run")
    special = special_file(path)
    if special:
        return Gap(source=path, reason=special)
    try:
        size = os.path.getsize(path)
        packed = compression(path)
        with open_binary(path, packed) as handle:
            head = _read_head(handle)
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as error:
        return Gap(source=path, reason=f"cannot read: {why_not_read(error)}")
    if not head:
        return Gap(source=path, reason="empty file")
    if packed is None and (is_event_file(path) or head.startswith(_SQLITE)):
        store: MetricStore = "tensorboard" if is_event_file(path) else "mlflow_db"
        return Candidate(path, "metrics", size, None, store)
    if packed is None and is_dump(head):
        return Candidate(path=path, kind="flight_recorder", size_bytes=size, compressed=None)
    if looks_binary(head):
        return Gap(source=path, reason="binary file, not a log")
    text = head.decode("utf-8", "replace")
    if '"schema_version"' in text and '"name": "trainwreck"' in text:
        return Gap(source=path, reason="a trainwreck report, not evidence")
    kind = kind_by_name(path, text)
    if kind not in STREAMED and size > max_bytes(kind, path) and packed is None:
        return Gap(source=path, reason=f"{kind} file too large to read ({size} bytes)")
    return Candidate(path=path, kind=kind, size_bytes=size, compressed=packed)


def _read_head(handle: BinaryIO) -> bytes:
    """Up to SNIFF_BYTES; a corrupt compressed stream still yields what came before."""
    pieces: list[bytes] = []
    for _ in range(SNIFF_BYTES // 1024):
        try:
            piece = handle.read(1024)
        except (EOFError, lzma.LZMAError, zlib.error, OSError):
            if pieces:
                break
            raise
        if not piece:
            break
        pieces.append(piece)
    return b"".join(pieces)


def discover(path: str) -> list[Candidate | Gap]:
    """All readable inputs under one user-given path, or a Gap saying why not."""
    try:  # Path.exists raises on a file inside a folder we may not search (EACCES)
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as error:
        return [Gap(source=path, reason=why_not_read(error))]
    if stat.S_ISDIR(mode):
        found = [file if isinstance(file, Gap) else sniff(file) for file in walk(path)]
        return found or [
            Gap(source=path, reason=f"the directory has no readable logs: {LOOKED_FOR}")
        ]
    return [sniff(path)]


def max_bytes(kind: InputKind, path: str) -> int:
    """The most of a file that is read: logs are streamed, a JSON is parsed whole."""
    if kind == "log":
        return MAX_LOG_BYTES
    if kind == "flight_recorder":
        return MAX_FLIGHT_DUMP_BYTES
    if kind == "profiler_trace":
        return MAX_PROFILER_TRACE_BYTES
    if kind != "metrics":
        return MAX_CONFIG_BYTES
    name = _strip_compression_suffix(path.lower())
    return MAX_METRICS_JSON_BYTES if name.endswith(".json") else MAX_METRICS_TEXT_BYTES


def load_json(text: str) -> object:
    """JSON within the nesting limit, or None instead of raising on bad input."""
    try:
        result: object = _load_json(text)
    except ValueError:
        return None
    return result
