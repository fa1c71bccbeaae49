"""KV cache, sharding, quantization and the fit search: arithmetic checked by hand."""

from __future__ import annotations

import pytest

from trainwreck.errors import EvidenceError, UsageError
from trainwreck.memory.architectures import shape_of
from trainwreck.memory.budget import GIB, Training, total_of, training_budget
from trainwreck.memory.config import ModelConfig
from trainwreck.memory.fit import fit_search
from trainwreck.memory.gpus import parse_gpus
from trainwreck.memory.serving import Serving, kv_bytes_per_token, serving_budget

# Llama 3 70B's sizes (80 layers, 64 heads, 8 KV heads, hidden 8192).
LLAMA3_70B = {
    "model_type": "llama",
    "hidden_size": 8192,
    "intermediate_size": 28672,
    "num_hidden_layers": 80,
    "num_attention_heads": 64,
    "num_key_value_heads": 8,
    "vocab_size": 128256,
}
# Gemma 7B's attention: 16 heads of 256 on a 3072-wide model (head_dim != hidden / heads).
GEMMA_7B = {
    "model_type": "gemma",
    "hidden_size": 3072,
    "intermediate_size": 24576,
    "num_hidden_layers": 28,
    "num_attention_heads": 16,
    "num_key_value_heads": 16,
    "head_dim": 256,
    "vocab_size": 256000,
}


def _shape(values: dict[str, object]) -> object:
    return shape_of(ModelConfig(values, "test"))


def test_llama3_70b_kv_cache_is_10_gib_per_32k_sequence() -> None:
    shape = shape_of(ModelConfig(LLAMA3_70B, "llama-3-70b"))
    assert kv_bytes_per_token(shape) * 32_768 == 10 * GIB  # 2 × 80 × 8 × 128 × 2 B × 32768


def test_kv_cache_uses_config_head_dim_not_hidden_over_heads() -> None:
    shape = shape_of(ModelConfig(GEMMA_7B, "gemma-7b"))
    assert shape.head_dim == 256 != 3072 // 16
    assert kv_bytes_per_token(shape) == 2 * 28 * 16 * 256 * 2


def test_gqa_cache_counts_kv_heads_not_attention_heads() -> None:
    shape = shape_of(ModelConfig(LLAMA3_70B, "llama-3-70b"))
    assert kv_bytes_per_token(shape) * 8 == 2 * 80 * 64 * 128 * 2  # 64 heads would be 8x


def test_zero_stages_divide_the_right_terms() -> None:
    shape = shape_of(ModelConfig(LLAMA3_70B, "llama-3-70b"))
    lines = {}
    for stage in (0, 1, 2, 3):
        budget = training_budget(shape, Training(gpus=8, zero=stage, batch_size=1, seq_len=512))
        lines[stage] = {line.label.split(" ")[0]: int(line.value) for line in budget.lines}
    assert lines[1]["optimizer"] * 8 == pytest.approx(lines[0]["optimizer"] * 12 / 4, rel=1e-6)
    assert lines[1]["gradients"] == lines[0]["gradients"]  # stage 1 keeps full gradients
    assert lines[2]["gradients"] * 8 == pytest.approx(lines[1]["gradients"], rel=1e-6)
    assert lines[2]["weights"] == lines[0]["weights"]
    assert lines[3]["weights"] * 8 == pytest.approx(lines[0]["weights"], rel=1e-6)


def test_qlora_weights_are_a_quarter_of_bf16_plus_constants() -> None:
    shape = shape_of(ModelConfig(LLAMA3_70B, "llama-3-70b"))
    bf16 = training_budget(shape, Training(lora_r=16))
    nf4 = training_budget(shape, Training(lora_r=16, quant="nf4"))
    weights = {b: int(b.lines[0].value) for b in (bf16, nf4)}
    ratio = weights[nf4] / weights[bf16]
    assert 0.25 < ratio < 0.30  # 4 bits + 0.127 bits of constants; embeddings stay bf16


def test_fit_search_changes_fit_and_keep_the_effective_batch() -> None:
    shape = shape_of(ModelConfig(LLAMA3_70B, "llama-3-70b"))
    _, gpu = parse_gpus("A100-80GB")
    run = Training(batch_size=4, seq_len=4096, gpus=8, zero=2)
    assert total_of(training_budget(shape, run)) > gpu.capacity
    fixes = fit_search(shape, run, gpu.capacity)
    fitting = [fix for fix in fixes if fix.fits]
    assert fitting, [(f.action, f.total / GIB) for f in fixes]
    for fix in fitting:
        assert fix.total <= gpu.capacity * 0.9
        for name, (before, after) in fix.changes.items():
            assert before != after, name


def test_serving_budget_reports_tokens_that_fit() -> None:
    shape = shape_of(ModelConfig(LLAMA3_70B, "llama-3-70b"))
    _, gpu = parse_gpus("H100-SXM")
    # TP 2: 65.7 GiB of weights per GPU leave ~3.5 GiB, a 128k sequence needs 20 GiB
    budget = serving_budget(shape, Serving(max_model_len=131072, tensor_parallel=2), gpu.capacity)
    values = {line.label: int(line.value) for line in budget.lines}
    assert values["KV per token"] == 2 * 80 * 8 * 128 * 2 // 2
    assert values["one sequence at max_model_len"] == 20 * GIB
    tokens = values["KV cache budget"] // values["KV per token"]
    assert f"at most {tokens:,} tokens fit" in budget.result and 0 < tokens < 131072
    roomy = serving_budget(shape, Serving(max_model_len=131072, tensor_parallel=4), gpu.capacity)
    assert "holds 3 sequences" in roomy.result  # 36.3 GiB left / 10 GiB per sequence


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"batch_size": 0}, "--batch-size 0"),
        ({"seq_len": -5}, "--seq-len -5"),
        ({"zero": 4}, "--zero 4"),
        ({"offload_params": True}, "--offload-params"),
        ({"quant": "nf4"}, "--quant nf4"),
        ({"lora_r": 0}, "--lora r=0"),
    ],
)
def test_impossible_settings_name_the_value(settings: dict[str, object], named: str) -> None:
    shape = shape_of(ModelConfig(LLAMA3_70B, "llama-3-70b"))
    with pytest.raises(UsageError, match=named.replace("-", r"\-")):
        training_budget(shape, Training(**settings))  # type: ignore[arg-type]


def test_unknown_gpu_lists_the_known_ones() -> None:
    with pytest.raises(UsageError, match=r"known: .*A100-80GB"):
        parse_gpus("2xTPU-v5")


def test_unmodelled_architecture_gets_a_labelled_generic_estimate() -> None:
    values = {**LLAMA3_70B, "model_type": "deepseek_v9"}
    shape = shape_of(ModelConfig(values, "x"))
    assert shape.family.startswith("generic (deepseek_v9 is not modelled; supported: ")
    with pytest.raises(EvidenceError, match="lacks hidden_size"):
        shape_of(ModelConfig({"model_type": "mystery", "vocab_size": 10}, "x"))


def test_missing_config_keys_fall_back_to_marked_defaults() -> None:
    values = {k: v for k, v in LLAMA3_70B.items() if k != "num_key_value_heads"}
    config = ModelConfig(values, "no-kv-heads")
    shape = shape_of(config)
    assert shape.kv_heads == 64  # Llama's default: as many KV heads as attention heads
    assert config.origins["num_key_value_heads"].startswith("[assumed] 64 (https://github.com/")
    assert config.origins["hidden_size"] == "config.json:hidden_size"
