"""What an agent hands the server is data: bounded in size, text only, paths only where allowed.

Each check raises `ToolInputError` with one line the agent can act on; the
server turns it into a tool error and keeps serving.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from trainwreck.errors import UsageError

MAX_LOG_BYTES = 20 * 2**20  # 20 MiB of log text per call
MAX_TEXT_CHARS = 200_000  # symptoms, status, configs: a paste, not a dump
_SAMPLE_CHARS = 2**20  # how much of a text the binary check looks at
_BINARY_SHARE = 0.05  # more control characters than this is not a log
_TEXT_CONTROLS = frozenset("\t\n\r\f\b\x1b")  # tabs, progress bars, ANSI colours


class ToolInputError(UsageError):
    """An argument the server refuses; the message is the one line the agent sees."""


@dataclass(frozen=True)
class Policy:
    """What the person who started the server allowed: readable roots and the network."""

    allowed: tuple[Path, ...] = ()
    online: bool = False

    @classmethod
    def from_options(cls, allow: Sequence[str], online: bool) -> Policy:
        return cls(tuple(Path(p).expanduser().resolve() for p in allow), online)

    def path(self, text: str) -> str:
        """`text` resolved, when it lies under an allowed root; else a ToolInputError."""
        if not self.allowed:
            raise ToolInputError(
                f"{text}: file paths are disabled; start the server with --allow DIR to permit "
                "reading under DIR, or pass the text itself"
            )
        resolved = Path(text).expanduser().resolve()
        if not any(resolved == root or root in resolved.parents for root in self.allowed):
            roots = ", ".join(str(root) for root in self.allowed)
            raise ToolInputError(f"{text}: outside the allowed paths ({roots})")
        return str(resolved)

    def paths(self, texts: Sequence[str] | None) -> list[str]:
        return [self.path(text) for text in texts or ()]


def text_argument(name: str, value: str | None, limit: int = MAX_TEXT_CHARS) -> str | None:
    """A free-text argument, refused when oversized or binary."""
    if value is None:
        return None
    if len(value) > limit:
        raise ToolInputError(f"{name} is {len(value):,} characters; the limit is {limit:,}")
    _refuse_binary(name, value)
    return value


def log_stream(logs: str | None) -> io.BytesIO | None:
    """Log text as the byte stream the pipeline reads for stdin, within MAX_LOG_BYTES."""
    if not logs:
        return None
    data = logs.encode("utf-8", errors="replace")
    if len(data) > MAX_LOG_BYTES:
        raise ToolInputError(
            f"logs is {len(data) / 2**20:.1f} MiB; the limit is {MAX_LOG_BYTES // 2**20} MiB "
            "(pass the tail of the log, or a path under an --allow root)"
        )
    _refuse_binary("logs", logs)
    return io.BytesIO(data)


def _refuse_binary(name: str, value: str) -> None:
    sample = value[:_SAMPLE_CHARS]
    odd = sum(
        1
        for char in sample
        if char == "\ufffd"
        or (ord(char) < 32 and char not in _TEXT_CONTROLS)
        or 127 <= ord(char) < 160
    )
    if sample and odd / len(sample) > _BINARY_SHARE:
        raise ToolInputError(
            f"{name} does not look like text ({odd / len(sample):.0%} control or undecodable "
            "characters); pass the log text, not a binary file"
        )
