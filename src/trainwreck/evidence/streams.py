"""Byte streams that never raise: corrupt or truncated input ends the read early.

A truncated .gz (the job was killed while writing it) must still yield every
line before the damage, and say where reading stopped. A stream past its byte
limit (see `limits`) ends the same way, saying which limit stopped it.
"""

from __future__ import annotations

import gzip
import io
import lzma
import zlib
from typing import BinaryIO

from trainwreck.evidence.files import SNIFF_BYTES, looks_binary, max_bytes, open_binary
from trainwreck.limits import MAX_LOG_BYTES, MIB, decompressed_limit
from trainwreck.model import InputKind

_READ_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error, ValueError)
PIECE_BYTES = 256 * 1024


class SafeStream(io.RawIOBase):
    """Wrap a stream; the first read error is recorded and reads as end of file."""

    def __init__(
        self,
        inner: BinaryIO,
        head: bytes = b"",
        limit: int | None = None,
        packed: SafeStream | None = None,
    ) -> None:
        self.inner, self.head = inner, head
        self.error: str | None = None
        self.limit, self.count = limit, 0
        self.packed = packed  # the compressed stream beneath, whose size sets the ratio limit

    def _limit(self) -> int | None:
        if self.packed is None or self.limit is None:
            return self.limit
        return decompressed_limit(self.packed.count, self.limit)

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if self.head:
            if size is None or size < 0:
                head, self.head = self.head, b""
                return head + self.read()
            head, self.head = self.head[:size], self.head[size:]
            return head
        if self.error is not None:
            return b""
        if size is None or size < 0:
            return b"".join(iter(lambda: self.read(PIECE_BYTES), b""))
        pieces: list[bytes] = []
        remaining = size
        while remaining > 0:
            piece = self._read_piece(min(remaining, PIECE_BYTES))
            if not piece:
                break
            pieces.append(piece)
            remaining -= len(piece)
        return b"".join(pieces)

    def _read_piece(self, size: int) -> bytes:
        """Small reads, so a corrupt tail loses at most one piece of good data."""
        limit = self._limit()
        if limit is not None:
            size = min(size, limit - self.count)
            if size <= 0:
                return self._past_limit(limit)
        try:
            piece = self.inner.read(size) or b""
        except _READ_ERRORS as error:
            self.error = str(error) or type(error).__name__
            return b""
        self.count += len(piece)
        return piece

    def _past_limit(self, limit: int) -> bytes:
        """At the limit: end of file, recorded as an error only if there was more."""
        try:
            more = self.inner.read(1)
        except _READ_ERRORS:
            more = b""
        if more:
            self.error = f"stopped at {limit / MIB:g} MiB, the read limit for this input"
        return b""

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def stdin_stream(stdin: BinaryIO | None) -> tuple[SafeStream | None, str | None, str | None]:
    """(stream, compression, gap reason) for `-`: sniffed like a file."""
    if stdin is None:
        return None, None, "no standard input to read"
    raw = SafeStream(stdin, limit=MAX_LOG_BYTES)
    head = raw.read(SNIFF_BYTES)
    if raw.error:
        return None, None, f"cannot read standard input: {raw.error}"
    if not head:
        return None, None, "empty input on standard input"
    joined = SafeStream(raw, head)  # type: ignore[arg-type]
    if head.startswith(b"\x1f\x8b"):
        return _unpacked(gzip.GzipFile(fileobj=joined), raw), "gzip", None  # type: ignore[arg-type]
    if head.startswith(b"\xfd7zXZ\x00"):
        return _unpacked(lzma.LZMAFile(joined), raw), "xz", None  # type: ignore[arg-type]
    if looks_binary(head):
        return None, None, "binary data on standard input, not a log"
    return joined, None, None


def _unpacked(decompressor: BinaryIO, packed: SafeStream) -> SafeStream:
    """Decompressed stdin, within the log limit and the ratio to what was read of it."""
    return SafeStream(decompressor, limit=MAX_LOG_BYTES, packed=packed)


def read_limit(kind: InputKind, path: str, size: int | None, compressed: str | None) -> int:
    """Bytes to read of one file: its kind's limit, and for a compressed one the ratio."""
    limit = max_bytes(kind, path)
    return limit if compressed is None else decompressed_limit(size, limit)


def open_limited(
    path: str, kind: InputKind, size: int | None, compressed: str | None
) -> SafeStream:
    """A file (decompressed on the fly) as a stream that ends at its read limit or damage."""
    return SafeStream(open_binary(path, compressed), limit=read_limit(kind, path, size, compressed))


def read_whole(
    path: str, kind: InputKind, size: int | None, compressed: str | None
) -> tuple[str, str | None]:
    """A non-log file's text (invalid UTF-8 replaced) and why reading stopped early, if it did."""
    stream = open_limited(path, kind, size, compressed)
    try:
        data = stream.read()
    finally:
        stream.inner.close()
    return data.decode("utf-8", "replace"), stream.error
