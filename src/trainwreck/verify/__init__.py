"""Config verification: every key checked against the schema of the user's framework version.

    check_files(paths)            -> [FileReport]   files, launch commands, mixed recipes
    check_values(values, ...)     -> FileReport     an in-memory config
    schema_for(framework, ...)    -> Schema         installed (live) or the nearest snapshot
    verify_key(path, ...)         -> KeyVerdict     for fixes: does this key exist, and its default

Schemas come from the installed framework when it is the version asked for,
otherwise from snapshots bundled under `schemas/`, written by
scripts/snapshot_schemas.py from each release's source.
"""

from __future__ import annotations

from trainwreck.verify.guard import KeyVerdict, verify_key
from trainwreck.verify.model import ClassSchema, FieldSchema, FileReport, Problem, Schema
from trainwreck.verify.run import check_files, check_values
from trainwreck.verify.schema import schema_for

__all__ = [
    "ClassSchema",
    "FieldSchema",
    "FileReport",
    "KeyVerdict",
    "Problem",
    "Schema",
    "check_files",
    "check_values",
    "schema_for",
    "verify_key",
]
