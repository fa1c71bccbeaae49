"""The hyperparameter priors: every row cited, every key real, questions reach the right rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.errors import KnowledgeBaseError
from trainwreck.kb.priors import load_priors, query, read_priors
from trainwreck.verify.defaults import framework_default
from trainwreck.verify.snapshots import versions

# Rows whose setting is a script flag, not a field of a bundled framework schema
# (torchvision's reference train.py --lr): they name no key.
SCRIPT_FLAG_ROWS = {"lr-scratch-resnet18-torchvision"}


def test_every_row_cites_an_https_source_and_names_a_real_framework_key() -> None:
    rows = load_priors()
    assert len(rows) >= 25
    for row in rows:
        assert row.source.startswith("https://"), row.id
        assert len(row.establishes.split()) >= 8, row.id
        if row.id in SCRIPT_FLAG_ROWS:
            assert row.key is None, row.id
            continue
        assert row.key is not None, row.id
        found = framework_default(row.key)
        assert found is not None, f"{row.id}: {row.key} is not a field of the newest snapshot"


def test_a_row_without_an_https_source_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(
        "- {id: x, knob: learning_rate, method: full, value: '1e-5',\n"
        "   source: 'http://example.com/recipe', establishes: a b c d e f g h}\n"
    )
    with pytest.raises(KnowledgeBaseError, match="source must be an https URL"):
        read_priors(tmp_path)


@pytest.mark.parametrize(
    ("question", "first_id"),
    [
        ("learning rate for QLoRA on a 65B model", "lr-qlora-33b-65b"),
        ("lr for qlora 7b", "lr-qlora-7b"),
        ("adam epsilon with fp16", "adam-eps-fp16-master-weights"),
        ("adam eps bf16 pretraining", "adam-eps-llama2"),
        ("adam eps for bf16 fine-tuning", "bf16-exponent-range"),
        ("lora dropout for a 33B model with QLoRA", "lora-dropout-large"),
        ("vllm gpu_memory_utilization", "vllm-gpu-memory-utilization"),
        ("max_num_seqs", "vllm-max-num-seqs"),
        ("DPO learning rate", "lr-dpo-full-zephyr"),
        ("gradient clipping for pretraining", "grad-clip-pretraining"),
    ],
)
def test_questions_reach_the_row_for_their_setting(question: str, first_id: str) -> None:
    _, rows = query(question)
    assert rows[0].id == first_id


def test_the_default_is_read_for_the_users_version() -> None:
    oldest = versions("transformers")[0]
    found = framework_default(
        "transformers:TrainingArguments.learning_rate", {"transformers": oldest}
    )
    assert found is not None and found.version == oldest and found.value == 5e-05
    assert found.source.startswith("https://github.com/huggingface/transformers/blob/v")
