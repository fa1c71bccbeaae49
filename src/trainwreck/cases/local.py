"""A team's own resolved incidents: a SQLite file beside the bundled store.

`trainwreck learn` adds to it and `diagnose` searches it with the bundled
records. The file is the user's data directory's by default, or a shared path
(`TRAINWRECK_CASES`) a whole team points at; SQLite's write lock lets several
processes add at once without losing a record.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from trainwreck.cases.records import CaseRecord
from trainwreck.errors import UsageError

ENV_VAR = "TRAINWRECK_CASES"
# How long a writer waits for another process's write to finish before giving up.
LOCK_WAIT_SECONDS = 30.0
_SCHEMA = "CREATE TABLE IF NOT EXISTS records (id TEXT PRIMARY KEY, record TEXT NOT NULL)"


def default_path() -> Path:
    """`$TRAINWRECK_CASES`, else `$XDG_DATA_HOME/trainwreck/cases.sqlite` (~/.local/share)."""
    if shared := os.environ.get(ENV_VAR):
        return Path(shared).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "trainwreck" / "cases.sqlite"


def _connect(path: Path) -> sqlite3.Connection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, timeout=LOCK_WAIT_SECONDS, isolation_level=None)
        connection.execute(_SCHEMA)
    except (OSError, sqlite3.Error) as exc:
        raise UsageError(f"cannot open the case store {path}: {exc}") from None
    return connection


def add(path: Path, records: Iterable[CaseRecord]) -> int:
    """Store records (a record with a known id replaces it); how many were written."""
    rows = [(r.id, json.dumps(r.model_dump(), ensure_ascii=False)) for r in records]
    connection = _connect(path)
    try:
        connection.execute("BEGIN IMMEDIATE")  # one writer at a time; others wait
        connection.executemany("INSERT OR REPLACE INTO records VALUES (?, ?)", rows)
        connection.execute("COMMIT")
    except sqlite3.Error as exc:
        raise UsageError(f"cannot write the case store {path}: {exc}") from None
    finally:
        connection.close()
    return len(rows)


def read(path: Path) -> list[CaseRecord]:
    """Every record in the store; none when it does not exist yet (or is no regular file)."""
    if not path.is_file():
        return []
    connection = _connect(path)
    try:
        rows = connection.execute("SELECT record FROM records ORDER BY id").fetchall()
        return [CaseRecord.model_validate(json.loads(row[0])) for row in rows]
    except (sqlite3.Error, json.JSONDecodeError, ValidationError) as exc:
        first = str(exc).splitlines()[0]
        raise UsageError(f"the case store {path} is unreadable: {first}") from None
    finally:
        connection.close()
