"""The JSON report's schema, generated from the Diagnosis model: one definition, not two.

`to_json` writes `Diagnosis.model_dump(mode="json")`, so the model's serialization
schema is the contract. Two things are added that the types do not say: every
listed object is closed (no unlisted fields: a new field changes the committed
schema, so its snapshot test sees it). Required are DESIGN.md's contract keys and
the fields without a default: a release may add fields under the same schema
version, and a report written before a field existed stays valid.
`scripts/build_schema.py` writes the result to `diagnosis.schema.json`; a test
fails while that file is stale.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from trainwreck.model import Diagnosis

SCHEMA_PATH = Path(__file__).with_name("diagnosis.schema.json")
SCHEMA_VERSION = 1  # DESIGN.md: fields are added under the same version, never renamed
_HEADER = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": f"urn:trainwreck:diagnosis:{SCHEMA_VERSION}",
    "title": "trainwreck diagnose --format json",
    "description": (
        "The report contract (DESIGN.md), generated from trainwreck.model.Diagnosis by "
        "scripts/build_schema.py. Closed: a field this version does not list is an error."
    ),
}
# The keys DESIGN.md's contract promises in every report: required at the top even
# where the model gives them a default (an empty list).
CONTRACT_KEYS = (
    "schema_version",
    "tool",
    "grounding",
    "summary",
    "setup",
    "hypotheses",
    "arithmetic",
    "findings",
    "prevention",
    "warnings",
)
# Values the contract fixes that the model types leave open: (definition, field) -> schema.
# The root object (Diagnosis) is named "" because pydantic inlines it at the top.
_FIXED: dict[tuple[str, str], dict[str, Any]] = {
    ("", "schema_version"): {"const": SCHEMA_VERSION},
    ("ToolInfo", "name"): {"const": "trainwreck"},
}


def report_schema() -> dict[str, Any]:
    """The closed JSON Schema of what `to_json` writes."""
    generated = TypeAdapter(Diagnosis).json_schema(mode="serialization")
    definitions = generated.pop("$defs", {})
    objects = {"": generated, **definitions}
    for name, definition in objects.items():
        _close(definition)
        for field, fixed in _FIXED.items():
            if field[0] == name:
                definition["properties"][field[1]] = fixed
    generated["required"] = list(dict.fromkeys((*CONTRACT_KEYS, *generated.get("required", ()))))
    # The header first, and its title and description over the model's docstring.
    return {**_HEADER, **generated, **_HEADER, "$defs": definitions}


def schema_text() -> str:
    """The schema as the committed file holds it: 2-space JSON ending in a newline."""
    return json.dumps(report_schema(), indent=2, ensure_ascii=False) + "\n"


def _close(node: Any) -> None:
    """Close every object that lists its properties and drop field titles.

    A field's generated title only repeats its name; a free-form mapping (framework
    versions, matched values) lists no properties and stays open to its value type.
    """
    if isinstance(node, list):
        for item in node:
            _close(item)
        return
    if not isinstance(node, dict):
        return
    properties = node.get("properties")
    if isinstance(properties, dict):
        node["additionalProperties"] = False
        for field in properties.values():
            field.pop("title", None)
            _close(field)
    for key, value in node.items():
        if key != "properties":
            _close(value)
