"""The shape of a guard template, shared by the modules that define them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from trainwreck.model import Scalar

ParamValue = Scalar | tuple[Scalar, ...]
# A param given as "{group}" takes that value from the evidence when the log printed it.
EVIDENCE_REF = re.compile(r"^\{(\w+)\}$")


@dataclass(frozen=True)
class GuardTemplate:
    """One guard: `code` is a `string.Template` over `defaults`' keys; `source` pins its API."""

    name: str
    summary: str
    defaults: Mapping[str, ParamValue]
    source: str
    code: str
