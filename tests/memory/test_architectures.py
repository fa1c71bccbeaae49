"""The parameter inventory equals the tensors transformers really builds, per architecture."""

from __future__ import annotations

from typing import Any

import pytest

from trainwreck.memory.architectures import shape_of
from trainwreck.memory.config import ModelConfig

transformers = pytest.importorskip("transformers")

_DECODER = {
    "hidden_size": 64,
    "intermediate_size": 96,
    "num_hidden_layers": 3,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "vocab_size": 211,
}
# Tiny configs per model_type, with the keys that change the parameter set.
TINY: dict[str, dict[str, Any]] = {
    "llama": _DECODER,
    "llama-bias": {**_DECODER, "attention_bias": True, "mlp_bias": True, "model_type": "llama"},
    "mistral": _DECODER,
    "qwen2": _DECODER,
    "qwen3": {**_DECODER, "head_dim": 24},
    "gemma": {**_DECODER, "head_dim": 32},
    "gemma2": {**_DECODER, "head_dim": 32},
    "phi3": {**_DECODER, "pad_token_id": 0},
    "mixtral": {**_DECODER, "num_local_experts": 4, "num_experts_per_tok": 2},
    "qwen2_moe": {
        **_DECODER,
        "num_experts": 4,
        "num_experts_per_tok": 2,
        "moe_intermediate_size": 40,
        "shared_expert_intermediate_size": 72,
        "mlp_only_layers": [1],
    },
    "qwen3_moe": {
        **_DECODER,
        "num_experts": 4,
        "num_experts_per_tok": 2,
        "moe_intermediate_size": 40,
        "decoder_sparse_step": 2,
    },
    "gpt2": {"n_embd": 64, "n_layer": 3, "n_head": 4, "vocab_size": 211, "n_positions": 128},
    "gpt_neox": {
        "hidden_size": 64,
        "num_hidden_layers": 3,
        "num_attention_heads": 4,
        "intermediate_size": 256,
        "vocab_size": 211,
    },
    "falcon": {
        "hidden_size": 64,
        "num_hidden_layers": 3,
        "num_attention_heads": 4,
        "vocab_size": 211,
    },
    "falcon-new": {
        "model_type": "falcon",
        "hidden_size": 64,
        "num_hidden_layers": 3,
        "num_attention_heads": 4,
        "num_kv_heads": 2,
        "new_decoder_architecture": True,
        "vocab_size": 211,
    },
    "bert": {
        "hidden_size": 64,
        "num_hidden_layers": 3,
        "num_attention_heads": 4,
        "intermediate_size": 96,
        "vocab_size": 211,
    },
    "roberta": {
        "hidden_size": 64,
        "num_hidden_layers": 3,
        "num_attention_heads": 4,
        "intermediate_size": 96,
        "vocab_size": 211,
        "max_position_embeddings": 130,
        "type_vocab_size": 1,
    },
    "t5": {
        "d_model": 64,
        "d_kv": 16,
        "d_ff": 96,
        "num_layers": 3,
        "num_decoder_layers": 2,
        "num_heads": 4,
        "vocab_size": 211,
    },
    "t5-gated": {
        "model_type": "t5",
        "d_model": 64,
        "d_kv": 16,
        "d_ff": 96,
        "num_layers": 2,
        "num_heads": 4,
        "vocab_size": 211,
        "feed_forward_proj": "gated-gelu",
    },
}


def _real_model(model_type: str, values: dict[str, Any]) -> Any:
    config = transformers.AutoConfig.for_model(model_type, **values)
    if model_type in {"bert", "roberta"}:
        return transformers.AutoModel.from_config(config)
    if model_type == "t5":
        return transformers.T5ForConditionalGeneration(config)
    return transformers.AutoModelForCausalLM.from_config(config)


@pytest.mark.parametrize("name", sorted(TINY))
def test_inventory_matches_real_parameters(name: str) -> None:
    values = dict(TINY[name])
    model_type = values.pop("model_type", name)
    model = _real_model(model_type, values)
    real = list(model.parameters())  # shared (tied) tensors appear once
    shape = shape_of(ModelConfig({**values, "model_type": model_type}, name))
    assert shape.params == sum(p.numel() for p in real)
    dense = model_type not in {"mixtral", "qwen2_moe", "qwen3_moe"}  # experts may be fused
    if dense:
        assert shape.tensors == len(real)
