"""Which runs lie under the paths a user gives: a run is a folder that holds files, or a file.

A fleet is a tree of job folders, so a folder holding only folders is a container
and is searched further, while a folder holding files is one run, diagnosed whole
(as `trainwreck diagnose DIR` would read it). A torchrun `--log-dir` attempt folder
holds one sub-folder per rank: it is one run, its ranks read together. Discovery
yields one path at a time so a fleet of any size is never listed in memory at once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence

from trainwreck.errors import UsageError
from trainwreck.evidence.files import REPORT_SUFFIXES, SKIP_DIRS
from trainwreck.evidence.lines import ATTEMPT_FOLDER

_ATTEMPT = re.compile(ATTEMPT_FOLDER)


def _is_evidence(entry: os.DirEntry[str]) -> bool:
    return entry.is_file() and not entry.name.lower().endswith(REPORT_SUFFIXES)


def _runs_under(folder: str) -> Iterator[str]:
    """`folder` itself when it holds files, else the runs of its sub-folders in name order."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError:
        yield folder  # diagnose() records why it cannot be listed
        return
    if any(_is_evidence(entry) for entry in entries) or _ATTEMPT.fullmatch(
        os.path.basename(os.path.normpath(folder))
    ):
        yield folder
        return
    for entry in entries:
        if entry.is_dir() and entry.name not in SKIP_DIRS:
            yield from _runs_under(entry.path)


def runs(paths: Sequence[str]) -> Iterator[str]:
    """Every run under `paths`; a path that does not exist is bad input."""
    for path in paths:
        if not os.path.exists(path):
            raise UsageError(f"{path}: no such file or directory")
    for path in paths:
        yield from _runs_under(path) if os.path.isdir(path) else (path,)


def newest_mtime(run: str) -> float:
    """When the run last wrote anything: the newest modification time of its files."""
    if not os.path.isdir(run):
        return os.stat(run).st_mtime
    newest: float | None = None
    for root, dirs, files in os.walk(run):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        for name in files:
            try:
                mtime = os.stat(os.path.join(root, name)).st_mtime
            except OSError:
                continue
            newest = mtime if newest is None else max(newest, mtime)
    return os.stat(run).st_mtime if newest is None else newest
