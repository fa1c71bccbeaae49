"""`--patch DIR`: patched copies of the user's files and one unified diff, in a directory
the user names. The originals are only read; a file already in DIR is replaced only
when asked (`force`), and a copy that would land on an original is always refused.
A secret in an original is a placeholder in its copy (the user puts it back).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from trainwreck.errors import UsageError
from trainwreck.fixes.consolidate import PatchedFile, consolidate, read_user_files
from trainwreck.model import Diagnosis
from trainwreck.redact import PLACEHOLDER_PREFIX, redact
from trainwreck.write import is_input, write_file

DIFF_NAME = "changes.diff"


@dataclass(frozen=True)
class PatchResult:
    """What was written: one copy per patched file, and the diff (None when nothing to patch)."""

    copies: tuple[Path, ...]
    diff: Path | None
    redacted: bool = False  # a copy holds a placeholder where its original holds a secret


def patched_files(diagnosis: Diagnosis) -> tuple[PatchedFile, ...]:
    """The user's files the top hypothesis's first fix patches, read again from disk."""
    if not diagnosis.hypotheses or not diagnosis.hypotheses[0].fixes:
        return ()
    changes = diagnosis.hypotheses[0].fixes[0].changes
    return consolidate(changes, read_user_files(diagnosis.inputs)).files


def _copy_names(files: tuple[PatchedFile, ...]) -> list[str]:
    """Each copy keeps its file's name; two inputs of one name get their folder's in front."""
    names = [Path(f.path).name for f in files]
    repeated = Counter(names)
    return [
        f"{Path(f.path).parent.name or 'input'}-{name}" if repeated[name] > 1 else name
        for f, name in zip(files, names, strict=True)
    ]


def _check_targets(targets: list[Path], originals: list[Path], force: bool) -> None:
    """Refuse before anything is written: nothing lands on an original, nothing is
    overwritten without `force`."""
    protected = {path.resolve() for path in originals}
    for path in targets:
        if path.resolve() in protected or is_input(path, originals):
            raise UsageError(
                f"--patch: {path} is one of your input files; choose another directory"
            )
        if os.path.lexists(path) and not force:  # a dangling symlink exists too
            raise UsageError(f"--patch: {path} already exists (add --force to overwrite it)")


def write_patch(diagnosis: Diagnosis, directory: Path, *, force: bool = False) -> PatchResult:
    """Write the patched copies and `changes.diff` into `directory` (created if missing)."""
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"--patch: {directory} is not a directory")
    files = patched_files(diagnosis)
    if not files:
        return PatchResult((), None)
    copies = [directory / name for name in _copy_names(files)]
    diff_path = directory / DIFF_NAME
    _check_targets([*copies, diff_path], [Path(f.path) for f in files], force)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--patch: cannot write to {directory}: {exc.strerror}") from exc
    originals = [Path(f.path) for f in files]
    for file, copy in zip(files, copies, strict=True):
        write_file(copy, redact(file.patched), replace=force, inputs=originals, what="--patch")
    diff = redact("".join(f.diff() for f in files))
    write_file(diff_path, diff, replace=force, inputs=originals, what="--patch")
    redacted = any(PLACEHOLDER_PREFIX in file.patched for file in files)
    return PatchResult(tuple(copies), diff_path, redacted)
