"""Files trainwreck writes (-o, --plot, --script, --patch): created anew, never written through.

A symlink at the target is never followed (a dangling one would otherwise create
a file wherever it points): the file is created with O_EXCL and O_NOFOLLOW, and
replacing an existing target, where allowed, removes the link itself. Nothing
is written onto an input, under its own name or another (a hardlink): the same
device and inode are refused.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from trainwreck.errors import UsageError

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
FILE_MODE = 0o644  # scripts too: they are run with `python script.py`, never executed bare


def _identity(path: str | Path) -> tuple[int, int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def is_input(path: str | Path, inputs: Sequence[str | Path]) -> bool:
    """True when `path` is one of `inputs` (the same file, whatever its name)."""
    target = _identity(path)
    if target is None:
        return False
    return any(target in {_identity(i), _identity(os.path.realpath(i))} for i in inputs)


def write_file(
    path: str | Path,
    text: str,
    *,
    replace: bool,
    inputs: Sequence[str | Path] = (),
    what: str = "",
) -> None:
    """Create `path` holding `text` (mode 0644); an existing target is replaced only when
    `replace`, and never when it is an input. Any refusal is a one-line UsageError."""
    label = f"{what}: {path}" if what else str(path)
    if is_input(path, inputs):
        raise UsageError(f"{label} is one of your input files; choose another output")
    if os.path.lexists(path):
        if not replace:
            raise UsageError(f"{label} exists; pass --force to overwrite it")
        if os.path.isdir(path) and not os.path.islink(path):
            raise UsageError(f"{label} is a directory")
        _remove(path, label)
    try:
        descriptor = os.open(path, _CREATE, FILE_MODE)
    except OSError as exc:
        raise UsageError(f"cannot write {label}: {exc.strerror}") from exc
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)


def _remove(path: str | Path, label: str) -> None:
    """Remove the old file or link (never what a link points to)."""
    try:
        os.unlink(path)
    except OSError as exc:
        raise UsageError(f"cannot replace {label}: {exc.strerror}") from exc
