"""NVIDIA's Xid catalogue as knowledge-base data: what a code means and what to do about it.

The rows live in `data/xid.yaml`, each citing the NVIDIA page it comes from. Log readers
(which lines are a fault of the node) and the GPU-fault analyzer (what a code means) share
this one table, so a code is classified in one place. It is read on first use only: most
runs print no Xid at all.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from trainwreck.errors import KnowledgeBaseError
from trainwreck.kb.schema import HttpsUrl
from trainwreck.tables import read_yaml

TABLE = Path(__file__).parent / "data" / "xid.yaml"

Family = Literal[
    "fallen_off_bus", "ecc", "memory_health", "nvlink", "stopped", "application", "cleanup", "info"
]
# Families that are a fault of the GPU or the node rather than of the program that ran on it.
NODE_FAMILIES: frozenset[Family] = frozenset(
    {"fallen_off_bus", "ecc", "memory_health", "nvlink", "stopped"}
)
# The catalogue's immediate action for events that need nothing done (a recorded row remap).
NO_ACTION = "IGNORE"


class XidRow(BaseModel):
    """One catalogue row: the code, NVIDIA's names and actions, our family, the source."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: int
    mnemonic: str
    description: str
    immediate: str
    investigatory: str
    family: Family
    meaning: str
    source: HttpsUrl

    @property
    def node_fault(self) -> bool:
        """A fault of the GPU or node that needs an action: the cause, not a bystander."""
        return self.family in NODE_FAMILIES and self.immediate != NO_ACTION


class XidCatalogue(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    catalogue: HttpsUrl
    rows: tuple[XidRow, ...]


@cache
def catalogue() -> dict[int, XidRow]:
    """Code -> row, read once; a broken table is a KnowledgeBaseError naming the file."""

    try:
        data = read_yaml(TABLE)
        rows = XidCatalogue.model_validate(data).rows
    except (OSError, yaml.YAMLError, ValidationError) as exc:
        raise KnowledgeBaseError(f"{TABLE}: cannot read: {exc}") from exc
    return {row.code: row for row in rows}


def xid_row(code: int) -> XidRow | None:
    """The catalogue row of a code, or None for a code the table does not list."""
    return catalogue().get(code)
