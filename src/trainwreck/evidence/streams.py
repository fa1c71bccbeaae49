"""Byte streams that never raise: corrupt or truncated input ends the read early.

A truncated .gz (the job was killed while writing it) must still yield every
line before the damage, and say where reading stopped.
"""

from __future__ import annotations

import gzip
import io
import lzma
from typing import BinaryIO

from trainwreck.evidence.files import SNIFF_BYTES, looks_binary

_READ_ERRORS = (OSError, EOFError, lzma.LZMAError, ValueError)
PIECE_BYTES = 256 * 1024


class SafeStream(io.RawIOBase):
    """Wrap a stream; the first read error is recorded and reads as end of file."""

    def __init__(self, inner: BinaryIO, head: bytes = b"") -> None:
        self.inner, self.head = inner, head
        self.error: str | None = None

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
        try:
            return self.inner.read(size) or b""
        except _READ_ERRORS as error:
            self.error = str(error) or type(error).__name__
            return b""

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def stdin_stream(stdin: BinaryIO | None) -> tuple[SafeStream | None, str | None, str | None]:
    """(stream, compression, gap reason) for `-`: sniffed like a file."""
    if stdin is None:
        return None, None, "no standard input to read"
    raw = SafeStream(stdin)
    head = raw.read(SNIFF_BYTES)
    if raw.error:
        return None, None, f"cannot read standard input: {raw.error}"
    if not head:
        return None, None, "empty input on standard input"
    joined = SafeStream(stdin, head)
    if head.startswith(b"\x1f\x8b"):
        return SafeStream(gzip.GzipFile(fileobj=joined)), "gzip", None  # type: ignore[arg-type]
    if head.startswith(b"\xfd7zXZ\x00"):
        return SafeStream(lzma.LZMAFile(joined)), "xz", None  # type: ignore[arg-type]
    if looks_binary(head):
        return None, None, "binary data on standard input, not a log"
    return joined, None, None
