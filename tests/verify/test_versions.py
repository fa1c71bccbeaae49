"""The same key read against different releases: accepted, deprecated, renamed, not yet there."""

from __future__ import annotations

from trainwreck.verify import check_values, schema_for, verify_key
from trainwreck.verify.history import key_history
from trainwreck.verify.snapshots import FRAMEWORKS, nearest, versions

CONFIG = {"output_dir": "out", "evaluation_strategy": "steps", "eval_steps": 100}


def _problems(transformers: str) -> list[tuple[str, str, str | None]]:
    report = check_values(CONFIG, "transformers", {"transformers": transformers}, use_live=False)
    return [(p.kind, p.key, p.suggestion) for p in report.problems]


def test_evaluation_strategy_is_reported_differently_per_version() -> None:
    assert _problems("4.40.2") == []  # the only spelling then
    assert _problems("4.46.3") == [("deprecated", "evaluation_strategy", "eval_strategy")]
    assert _problems("4.52.4") == [("renamed", "evaluation_strategy", "eval_strategy")]


def test_new_spelling_on_an_old_release_is_not_yet_there() -> None:
    report = check_values(
        {"eval_strategy": "steps"}, "transformers", {"transformers": "4.40.2"}, use_live=False
    )
    assert [(p.kind, p.suggestion) for p in report.problems] == [
        ("not-yet", "upgrade transformers to >= 4.41.2")
    ]


def test_trl_max_seq_length_history() -> None:
    history = key_history("trl", "SFTConfig", "max_seq_length")
    assert history.replaced_by == "max_length"
    assert "0.19.1" in history.present_in and "0.20.0" not in history.present_in


def test_every_framework_has_six_minor_releases() -> None:
    for framework in FRAMEWORKS:
        minors = {tuple(v.split(".")[:2]) for v in versions(framework)}
        assert len(minors) >= 6, framework


def test_nearest_snapshot_says_what_it_assumed() -> None:
    assert nearest("transformers", "4.46.3") == ("4.46.3", None)
    chosen, note = nearest("transformers", "4.47.0")
    assert chosen == "4.46.3" and note and "4.47.0" in note
    chosen, note = nearest("deepspeed", "0.16.8")
    assert chosen == "0.15.4"
    schema = schema_for("trl", {"trl": "0.19.1", "transformers": "4.52.4"})
    assert "learning_rate" in schema.classes["SFTConfig"].fields  # TrainingArguments merged in
    assert "learning_rate" not in schema.classes["ModelConfig"].fields


def test_guard_verifies_keys_and_flags_defaults() -> None:
    bf16 = verify_key("TrainingArguments.bf16", True, {"transformers": "4.46.3"})
    assert bf16.verified and bf16.default is False and not bf16.is_default
    assert bf16.check_command and "dataclasses.fields(transformers.TrainingArguments)" in (
        bf16.check_command
    )
    old = verify_key("TrainingArguments.evaluation_strategy", "steps", {"transformers": "4.52.4"})
    assert not old.verified and old.replaced_by == "eval_strategy"
    same = verify_key("TrainingArguments.gradient_checkpointing", False, {"transformers": "4.46.3"})
    assert same.is_default
    stage = verify_key("ds_config.zero_optimization.stage", 3, {"deepspeed": "0.16.9"})
    assert stage.verified and stage.default == 0
    assert not verify_key("torch.backends.cudnn.enabled").applicable
    assumed = verify_key("LoraConfig.r", 16, {"peft": "0.13.0"})
    assert assumed.verified and assumed.note and "0.12.0" in assumed.note
