"""Closed-form peak vs exact mode (the real architecture on fake tensors) within 10%."""

from __future__ import annotations

import pytest

from trainwreck.memory.architectures import shape_of
from trainwreck.memory.budget import Training, total_of, training_budget
from trainwreck.memory.config import ModelConfig, load_config
from trainwreck.memory.exact import measure

pytest.importorskip("torch")
pytest.importorskip("transformers")

TINY = {
    "llama": {"hidden_size": 256, "intermediate_size": 688, "num_hidden_layers": 3,
              "num_attention_heads": 8, "num_key_value_heads": 2, "vocab_size": 8000},
    "mistral": {"hidden_size": 256, "intermediate_size": 704, "num_hidden_layers": 2,
                "num_attention_heads": 4, "num_key_value_heads": 1, "vocab_size": 6000},
    "gpt2": {"n_embd": 256, "n_layer": 3, "n_head": 8, "vocab_size": 8000, "n_positions": 2048},
}  # fmt: skip


def _ratio(config: ModelConfig, run: Training) -> float:
    closed = total_of(training_budget(shape_of(config), run))
    return closed / measure(config, run).peak


@pytest.mark.parametrize("name", sorted(TINY))
@pytest.mark.parametrize(
    ("batch", "seq", "dtype", "checkpointing"),
    [(2, 256, "fp32", False), (4, 512, "bf16", False), (2, 1024, "bf16", True)],
)
def test_tiny_models_agree_with_exact_mode(
    name: str, batch: int, seq: int, dtype: str, checkpointing: bool
) -> None:
    config = ModelConfig({**TINY[name], "model_type": name}, name)
    run = Training(
        batch_size=batch, seq_len=seq, dtype=dtype, gradient_checkpointing=checkpointing,
        context_gib=0,
    )  # fmt: skip
    assert 0.9 <= _ratio(config, run) <= 1.1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("model", "batch", "seq", "dtype", "checkpointing"),
    [
        ("openai-community/gpt2", 4, 1024, "fp32", False),
        ("meta-llama/Llama-3.2-1B", 1, 1024, "bf16", False),
        ("meta-llama/Llama-3.2-1B", 2, 2048, "bf16", True),
    ],
)
def test_real_configs_agree_with_exact_mode(
    model: str, batch: int, seq: int, dtype: str, checkpointing: bool
) -> None:
    run = Training(
        batch_size=batch, seq_len=seq, dtype=dtype, gradient_checkpointing=checkpointing,
        context_gib=0,
    )  # fmt: skip
    assert 0.9 <= _ratio(load_config(model), run) <= 1.1
