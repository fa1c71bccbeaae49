"""Filling a pattern's fix and prose from the evidence, and verifying its keys."""

from __future__ import annotations

from trainwreck.fixes.verify import concrete_fix, fill_text
from trainwreck.kb.schema import PatternFix
from trainwreck.model import ConfigFile, Evidence, Setup


def test_prose_placeholders_fill_from_the_log_or_read_plainly() -> None:
    text = "param {param} is {model_shape} here"
    assert fill_text(text, {"param": "fc.weight"}) == "param fc.weight is the model shape here"


def _fix(available: str | None) -> PatternFix:
    change: dict[str, object] = {
        "path": "TrainingArguments.per_device_train_batch_size",
        "after": 1,
        "key_source": "https://github.com/huggingface/transformers/blob/v4.44.0/src/transformers/training_args.py",
    }
    if available:
        change["available"] = {"package": "transformers", "specifier": available}
    return PatternFix.model_validate({"action": "lower to {after_hint}", "changes": [change]})


def test_before_comes_from_the_users_config() -> None:
    evidence = Evidence(
        configs=(ConfigFile(source="args.json", values={"per_device_train_batch_size": 8}),)
    )
    fix, warnings = concrete_fix(_fix(None), {}, evidence)
    assert fix.changes[0].before == 8 and fix.changes[0].verified and warnings == []


def test_key_missing_in_the_users_version_is_unverified_with_a_warning() -> None:
    evidence = Evidence(setup=Setup(frameworks={"transformers": "4.30.0"}))
    fix, warnings = concrete_fix(_fix(">=4.40"), {}, evidence)
    assert not fix.changes[0].verified
    assert "4.30.0" in warnings[0]
