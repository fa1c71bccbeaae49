"""The JSON report is exactly the DESIGN.md contract, checked by its JSON Schema."""

from __future__ import annotations

import copy
import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from report_fixtures import empty_diagnosis, oom_diagnosis, ungrounded_diagnosis

from trainwreck.model import Diagnosis
from trainwreck.report import to_json
from trainwreck.report.contract import CONTRACT_KEYS, SCHEMA_PATH, schema_text

CASES_DIR = Path(__file__).parents[1] / "cases"


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = json.loads(files("trainwreck.report").joinpath("diagnosis.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.mark.parametrize("make", [oom_diagnosis, ungrounded_diagnosis, empty_diagnosis])
def test_output_validates_against_the_schema(validator: Draft202012Validator, make: Any) -> None:
    errors = [e.message for e in validator.iter_errors(json.loads(to_json(make())))]
    assert errors == []


@pytest.mark.parametrize(
    ("path", "bad_value"),
    [
        (["hypotheses", 0, "confidence"], "very high"),
        (["hypotheses", 0, "category"], "out_of_memory"),
        (["hypotheses", 0, "score"], 1.5),
        (["grounding"], "vibes"),
        (["schema_version"], 2),
    ],
)
def test_schema_rejects_values_outside_the_contract(
    validator: Draft202012Validator, path: list[Any], bad_value: object
) -> None:
    data = json.loads(to_json(oom_diagnosis()))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = bad_value
    assert not validator.is_valid(data)


def test_committed_schema_is_the_one_generated_from_the_model() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "diagnosis.schema.json is stale: run python scripts/build_schema.py and review the diff"
    )


def _objects(node: Any) -> list[dict[str, Any]]:
    """Every schema node that lists properties, at any depth."""
    if isinstance(node, list):
        return [found for item in node for found in _objects(item)]
    if not isinstance(node, dict):
        return []
    own = [node] if "properties" in node else []
    return own + [found for value in node.values() for found in _objects(value)]


def test_every_listed_object_is_closed(validator: Draft202012Validator) -> None:
    objects = _objects(validator.schema)
    assert len(objects) > 20  # the report's models, not only the top level
    assert [o.get("title", o["properties"]) for o in objects if o["additionalProperties"]] == []


@pytest.mark.parametrize(
    "path",
    [
        [],
        ["tool"],
        ["setup"],
        ["hypotheses", 0],
        ["hypotheses", 0, "fixes", 0, "changes", 0],
        ["hypotheses", 0, "citations", 0],
        ["arithmetic", 0, "lines", 0],
    ],
)
def test_schema_rejects_an_unknown_field(validator: Draft202012Validator, path: list[Any]) -> None:
    data = json.loads(to_json(oom_diagnosis()))
    target = data
    for key in path:
        target = target[key]
    assert validator.is_valid(data)
    target["unlisted_field"] = "a field the contract does not list"
    assert not validator.is_valid(data)


@pytest.mark.parametrize(
    "golden", sorted(CASES_DIR.glob("*/expected.json")), ids=lambda path: path.parent.name
)
def test_committed_case_reports_follow_the_schema(
    validator: Draft202012Validator, golden: Path
) -> None:
    report = json.loads(golden.read_text(encoding="utf-8"))
    assert [error.message for error in validator.iter_errors(report)] == []


@pytest.mark.parametrize("key", ["summary", "setup", "hypotheses", "warnings"])
def test_schema_requires_contract_keys(validator: Draft202012Validator, key: str) -> None:
    data = copy.deepcopy(json.loads(to_json(oom_diagnosis())))
    del data[key]
    assert not validator.is_valid(data)


def test_top_level_keys_follow_the_contract_order() -> None:
    keys = list(json.loads(to_json(oom_diagnosis())))
    assert [k for k in keys if k in CONTRACT_KEYS] == list(CONTRACT_KEYS)
    assert keys[0] == "schema_version"


def test_two_space_indent_and_trailing_newline() -> None:
    text = to_json(oom_diagnosis())
    assert text.startswith('{\n  "schema_version": 1,\n  "tool": {\n    "name": "trainwreck",')
    assert text.endswith("}\n")


def test_free_form_mappings_are_sorted_so_output_is_stable() -> None:
    diagnosis = oom_diagnosis()
    shuffled = dict(reversed(list(diagnosis.setup.frameworks.items())))
    other = diagnosis.model_copy(
        update={"setup": diagnosis.setup.model_copy(update={"frameworks": shuffled})}
    )
    assert to_json(other) == to_json(diagnosis)
    frameworks = json.loads(to_json(diagnosis))["setup"]["frameworks"]
    assert list(frameworks) == ["bitsandbytes", "peft", "torch", "transformers"]


def test_round_trips_to_the_same_diagnosis() -> None:
    diagnosis = oom_diagnosis()
    assert Diagnosis.model_validate(json.loads(to_json(diagnosis))) == diagnosis


def test_contract_fields_carry_the_diagnosis_content() -> None:
    top = json.loads(to_json(oom_diagnosis()))["hypotheses"][0]
    assert top["id"] == "cuda-oom-activations"
    assert top["evidence"][0] == {
        "source": "train.log",
        "line": 1184,
        "text": oom_diagnosis().hypotheses[0].evidence[0].text,
    }
    assert top["fixes"][0]["changes"][0] == {
        "path": "TrainingArguments.gradient_checkpointing",
        "before": False,
        "after": True,
        "default": False,
        "verified": True,
        "reason": "recompute activations in backward",
    }
