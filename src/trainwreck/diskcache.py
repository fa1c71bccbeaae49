"""A per-user on-disk memo for data derived from packaged files.

Most of a cold `trainwreck diagnose` used to go into work that depends only on
the knowledge base: validating its pages and reducing its regexes to literals.
Those results are pickled under the user's cache directory, keyed by a hash of
their inputs and of trainwreck's version, so a changed page or a new release
never reads a stale entry. The cache is an accelerator only: any failure to
read or write it falls back to computing the value.

`TRAINWRECK_CACHE_DIR` moves the cache; setting it to `off` disables it.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from trainwreck import __version__

T = TypeVar("T")
_ENV = "TRAINWRECK_CACHE_DIR"


def cache_dir() -> Path | None:
    """Where entries live, or None when the user turned the cache off."""
    chosen = os.environ.get(_ENV)
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "trainwreck"


def memo(kind: str, key: bytes, compute: Callable[[], T]) -> T:
    """The cached value for (`kind`, `key`), computed and stored on a miss."""
    directory = cache_dir()
    if directory is None:
        return compute()
    tag = f"{__version__}|{sys.version_info[:2]}|".encode()
    path = directory / f"{kind}-{hashlib.sha256(tag + key).hexdigest()[:20]}.pickle"
    try:
        value: T = pickle.loads(path.read_bytes())
        return value
    except Exception:  # missing, truncated or from an incompatible release: rebuild
        pass
    value = compute()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, delete=False, suffix=".tmp") as handle:
            handle.write(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(handle.name, path)  # atomic: a concurrent reader sees all or nothing
    except OSError:
        pass
    return value
