"""A micro-batch cut carries the accumulation change that keeps the effective batch."""

from __future__ import annotations

from trainwreck.fixes.effective_batch import accumulation_change
from trainwreck.fixes.formats.literals import python_literal
from trainwreck.model import Change, ConfigFile, Evidence, Setup


def _evidence(accumulation: int | None = None, config: dict[str, int] | None = None) -> Evidence:
    configs = (ConfigFile(source="train.yaml", values=config),) if config else ()
    return Evidence(setup=Setup(grad_accum=accumulation), configs=configs)


def test_cut_by_a_divisor_raises_accumulation_by_the_same_factor() -> None:
    cut = Change(path="TrainingArguments.per_device_train_batch_size", before="4", after=1)
    change = accumulation_change(cut, _evidence(4))
    assert change is not None
    assert change.path == "TrainingArguments.gradient_accumulation_steps"
    assert (change.before, change.after) == (4, 16)
    assert change.reason == "keeps the effective batch: 4 x 4 = 1 x 16"


def test_accumulation_from_the_config_else_the_default_of_one() -> None:
    cut = Change(path="TrainingArguments.per_device_train_batch_size", before=8, after=2)
    from_config = accumulation_change(cut, _evidence(config={"gradient_accumulation_steps": 3}))
    assert from_config is not None and (from_config.before, from_config.after) == (3, 12)
    default = accumulation_change(cut, _evidence())
    assert default is not None and (default.before, default.after) == (1, 4)


def test_a_cut_that_is_not_a_divisor_says_the_effective_batch_moves() -> None:
    cut = Change(path="ds_config.train_micro_batch_size_per_gpu", before=6, after=4)
    change = accumulation_change(cut, _evidence(1))
    assert change is not None and change.path == "ds_config.gradient_accumulation_steps"
    assert change.after == 2 and "nearest above" in (change.reason or "")


def test_flags_keep_their_spelling() -> None:
    cut = Change(path="--per-device-train-batch-size", before=8, after=1)
    change = accumulation_change(cut, _evidence(2))
    assert change is not None and change.path == "--gradient-accumulation-steps"


def test_no_accumulation_change_without_a_micro_batch_cut() -> None:
    same = Change(path="TrainingArguments.per_device_train_batch_size", before=4, after=4)
    raised = Change(path="TrainingArguments.per_device_train_batch_size", before=1, after=4)
    other = Change(path="TrainingArguments.gradient_checkpointing", before=False, after=True)
    assert all(accumulation_change(c, _evidence(2)) is None for c in (same, raised, other))


def test_a_config_file_name_is_a_string_in_python_not_an_attribute() -> None:
    assert python_literal("ds_config.json") == "'ds_config.json'"
    assert python_literal("torch.bfloat16") == "torch.bfloat16"
