"""What an agent hands the server is data: bounded in size, text only, paths only where allowed.

Each check raises `ToolInputError` with one line the agent can act on; the
server turns it into a tool error and keeps serving.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from trainwreck.errors import UsageError
from trainwreck.evidence.files import walk
from trainwreck.limits import MAX_PATHS
from trainwreck.verify.keys import closest

MAX_LOG_BYTES = 20 * 2**20  # 20 MiB of log text per call
MAX_TEXT_CHARS = 200_000  # symptoms, status, configs: a paste, not a dump
MAX_ID_CHARS = 200  # a page id or a framework name: a few words
MAX_PATH_CHARS = 4096  # PATH_MAX on Linux: no real path is longer
MAX_NAMES_SHOWN = 5  # unknown argument names quoted in one error line
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
        """`text` resolved (symlinks included), when it lies under an allowed root, and so
        does every file below it that a directory walk would read; else a ToolInputError."""
        if not self.allowed:
            raise ToolInputError(
                f"{_shown(text)}: file paths are disabled; start the server with --allow DIR to "
                "permit reading under DIR, or pass the text itself"
            )
        if len(text) > MAX_PATH_CHARS:
            raise ToolInputError(
                f"a path of {len(text):,} characters; the limit is {MAX_PATH_CHARS}"
            )
        resolved = self._inside(text, text)
        if os.path.isdir(resolved):  # Path.is_dir raises on a name past NAME_MAX
            for below in _walked(str(resolved)):
                self._inside(below, text)
        return str(resolved)

    def _inside(self, path: str, given: str) -> Path:
        """`path` with every symlink resolved, when it lies under an allowed root."""
        resolved = Path(path).expanduser().resolve()
        if not any(resolved == root or root in resolved.parents for root in self.allowed):
            roots = ", ".join(str(root) for root in self.allowed)
            via = "" if path == given else f" (through {_shown(path)}, a link out of it)"
            raise ToolInputError(f"{_shown(given)}: outside the allowed paths ({roots}){via}")
        return resolved

    def paths(self, texts: Sequence[str] | None) -> list[str]:
        """Each path once, at most MAX_PATHS of them, each checked as `path` does."""
        unique = list(dict.fromkeys(texts or ()))
        if len(unique) > MAX_PATHS:
            raise ToolInputError(f"{len(unique):,} paths; the limit is {MAX_PATHS:,}")
        return [self.path(text) for text in unique]


def known_arguments(given: Iterable[str], accepted: Sequence[str]) -> None:
    """Refuse, by name, an argument no parameter takes: the SDK drops it silently, so a
    misspelt `log` would be answered as if no log had been given."""
    unknown = [name for name in given if name not in accepted]
    if not unknown:
        return
    shown = unknown[:MAX_NAMES_SHOWN]
    names = ", ".join(repr(_shown(name)) for name in shown)
    if len(unknown) > len(shown):
        names += f" and {len(unknown) - len(shown):,} more"
    near = dict.fromkeys(
        found for name in shown if len(name) <= MAX_ID_CHARS and (found := closest(name, accepted))
    )
    hint = f" (did you mean {', '.join(map(repr, near))}?)" if near else ""
    plural = "s" if len(unknown) > 1 else ""
    raise ToolInputError(
        f"unknown argument{plural} {names}{hint}; accepted: {', '.join(accepted) or 'none'}"
    )


def _walked(folder: str) -> list[str]:
    """Every file the evidence walk reads under `folder`, MLflow run folders' files too."""
    found = []
    for item in walk(folder):
        if isinstance(item, str):
            found.append(item)
            if os.path.isdir(item):  # an MLflow run, read whole
                found.extend(
                    os.path.join(root, name) for root, _, names in os.walk(item) for name in names
                )
    return found


def _shown(text: str) -> str:
    """A path or id as an answer quotes it: never more than MAX_ID_CHARS of what was sent."""
    return text if len(text) <= MAX_ID_CHARS else f"{text[:MAX_ID_CHARS]}... ({len(text):,} chars)"


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
