"""The JSON report: the stable contract other tools and the benchmark read.

It is `Diagnosis.model_dump(mode="json")` (field names are the contract; see
DESIGN.md and `diagnosis.schema.json`) of the redacted Diagnosis. Keys follow
the models' field order, and the keys of free-form mappings (framework versions,
matched values) are sorted, so the same Diagnosis always gives the same bytes.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from trainwreck.model import Diagnosis
from trainwreck.report.scrub import scrub


def to_json(diagnosis: Diagnosis) -> str:
    """Render a Diagnosis as 2-space-indented JSON text ending in a newline."""
    clean = scrub(diagnosis)
    data = _sort_mappings(clean, clean.model_dump(mode="json"))
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _sort_mappings(value: object, dumped: Any) -> Any:
    """`dumped` with the keys of every plain dict in `value` sorted.

    Walks the model beside its dump: a model's keys keep their field order, a
    dict field (whose order is whatever the evidence happened to give) is sorted.
    """
    if isinstance(value, BaseModel):
        return {key: _sort_mappings(getattr(value, key), item) for key, item in dumped.items()}
    if isinstance(value, dict):
        return {key: _sort_mappings(value[key], dumped[key]) for key in sorted(dumped)}
    if isinstance(value, list | tuple):
        pairs = zip(value, dumped, strict=True)
        return [_sort_mappings(item, dumped_item) for item, dumped_item in pairs]
    return dumped
