"""Parameter tensors of a model, from its config alone (no torch, no weights).

Each architecture is written out as the tensors its transformers implementation
creates, grouped as `Part`s (one shape, repeated `count` times across layers or
experts). Counting from this inventory gives the exact parameter count, the
number of tensors (optimizers keep per-tensor state) and the linear layers LoRA
can target; the test suite checks it against real transformers models.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from trainwreck.errors import EvidenceError
from trainwreck.memory.config import ModelConfig


@dataclass(frozen=True)
class Part:
    """`count` parameter tensors of one shape. `linear` names a LoRA-targetable layer."""

    name: str
    shape: tuple[int, ...]
    count: int
    linear: str | None = None

    @property
    def numel(self) -> int:
        return math.prod(self.shape) * self.count


@dataclass(frozen=True)
class Shape:
    """The sizes the activation and KV-cache arithmetic needs, with the parameters."""

    family: str
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    parts: tuple[Part, ...]
    experts_per_token: int = 0
    experts: int = 0
    decoder_layers: int = 0  # encoder-decoder models: decoder blocks (layers = encoder blocks)
    moe_inner: int = 0  # MoE: MLP width one token passes through (top-k experts + shared)

    @property
    def params(self) -> int:
        return sum(part.numel for part in self.parts)

    @property
    def tensors(self) -> int:
        return sum(part.count for part in self.parts)


def _linear(
    prefix: str, name: str, fan_in: int, fan_out: int, count: int, bias: bool
) -> list[Part]:
    parts = [Part(f"{prefix}.{name}.weight", (fan_out, fan_in), count, linear=name)]
    if bias:
        parts.append(Part(f"{prefix}.{name}.bias", (fan_out,), count))
    return parts


def _norm(name: str, size: int, count: int, bias: bool = False) -> list[Part]:
    parts = [Part(f"{name}.weight", (size,), count)]
    if bias:
        parts.append(Part(f"{name}.bias", (size,), count))
    return parts


_GATED = ("gate_proj", "up_proj", "down_proj")


def _gated_mlp(prefix: str, hidden: int, inner: int, count: int, bias: bool = False) -> list[Part]:
    return [
        *_linear(prefix, "gate_proj", hidden, inner, count, bias),
        *_linear(prefix, "up_proj", hidden, inner, count, bias),
        *_linear(prefix, "down_proj", inner, hidden, count, bias),
    ]


def _sparse_layers(config: ModelConfig, layers: int) -> int:
    """Qwen MoE: layers whose MLP is a mixture of experts (the rest are dense)."""
    step = config.get("decoder_sparse_step", 1)
    dense_only = set(config.get("mlp_only_layers", []) or [])
    return sum(1 for i in range(layers) if i not in dense_only and step > 0 and (i + 1) % step == 0)


def _llama_like(config: ModelConfig) -> Shape:
    """Llama, Mistral, Mixtral, Qwen2/2.5/3 (and MoE), Gemma/Gemma 2, Phi-3."""
    kind = config.model_type
    hidden = config.get("hidden_size", required=True)
    layers = config.get("num_hidden_layers", required=True)
    heads = config.get("num_attention_heads", required=True)
    kv_heads = config.get("num_key_value_heads", heads)
    head_dim = config.get("head_dim", hidden // heads)
    inner = config.get("intermediate_size", required=True)
    vocab = config.get("vocab_size", required=True)
    tied = config.get("tie_word_embeddings", kind in {"gemma", "gemma2"})
    qkv_bias = config.get("qkv_bias", True) if kind == "qwen2_moe" else kind == "qwen2"
    attention_bias = config.get("attention_bias", False) if kind not in {"qwen2"} else False
    layer = "model.layers.*"
    parts = [Part("model.embed_tokens.weight", (vocab, hidden), 1)]
    q_out, kv_out = heads * head_dim, kv_heads * head_dim
    attn = f"{layer}.self_attn"
    if kind == "phi3":
        parts += _linear(attn, "qkv_proj", hidden, q_out + 2 * kv_out, layers, False)
    else:
        bias = qkv_bias or attention_bias
        parts += _linear(attn, "q_proj", hidden, q_out, layers, bias)
        parts += _linear(attn, "k_proj", hidden, kv_out, layers, bias)
        parts += _linear(attn, "v_proj", hidden, kv_out, layers, bias)
    parts += _linear(attn, "o_proj", q_out, hidden, layers, attention_bias)
    if kind in {"qwen3", "qwen3_moe"}:
        parts += _norm(f"{attn}.q_norm", head_dim, layers) + _norm(
            f"{attn}.k_norm", head_dim, layers
        )
    norms = 4 if kind == "gemma2" else 2
    parts += _norm(f"{layer}.layernorm", hidden, layers * norms)
    experts = top_k = moe_inner = 0
    mlp = f"{layer}.mlp"
    if kind == "mixtral":
        experts = config.get("num_local_experts", 8)
        top_k = config.get("num_experts_per_tok", 2)
        parts.append(Part(f"{mlp}.gate.weight", (experts, hidden), layers))
        parts += _gated_mlp(f"{mlp}.experts.*", hidden, inner, layers * experts)
        moe_inner = top_k * inner
    elif kind in {"qwen2_moe", "qwen3_moe"}:
        experts = config.get("num_experts", required=True)
        top_k = config.get("num_experts_per_tok", required=True)
        expert_inner = config.get("moe_intermediate_size", required=True)
        sparse = _sparse_layers(config, layers)
        parts.append(Part(f"{mlp}.gate.weight", (experts, hidden), sparse))
        parts += _gated_mlp(f"{mlp}.experts.*", hidden, expert_inner, sparse * experts)
        moe_inner = top_k * expert_inner
        if kind == "qwen2_moe":
            shared = config.get("shared_expert_intermediate_size", required=True)
            moe_inner += shared
            parts += _gated_mlp(f"{mlp}.shared_expert", hidden, shared, sparse)
            parts.append(Part(f"{mlp}.shared_expert_gate.weight", (1, hidden), sparse))
        parts += _gated_mlp(mlp, hidden, inner, layers - sparse)
    elif kind == "phi3":
        parts += _linear(mlp, "gate_up_proj", hidden, 2 * inner, layers, False)
        parts += _linear(mlp, "down_proj", inner, hidden, layers, False)
    else:
        parts += _gated_mlp(mlp, hidden, inner, layers, config.get("mlp_bias", False))
    parts += _norm("model.norm", hidden, 1)
    if not tied:
        parts.append(Part("lm_head.weight", (vocab, hidden), 1, linear="lm_head"))
    return Shape(
        kind,
        hidden,
        layers,
        heads,
        kv_heads,
        head_dim,
        inner,
        vocab,
        tuple(parts),
        top_k,
        experts,
        moe_inner=moe_inner,
    )


def _gpt2(config: ModelConfig) -> Shape:
    hidden = config.first(("n_embd", "hidden_size"))
    layers = config.first(("n_layer", "num_hidden_layers"))
    heads = config.first(("n_head", "num_attention_heads"))
    inner = config.get("n_inner", 4 * hidden) or 4 * hidden
    vocab = config.get("vocab_size", required=True)
    positions = config.first(("n_positions", "max_position_embeddings"), 1024)
    block = "transformer.h.*"
    parts = [
        Part("transformer.wte.weight", (vocab, hidden), 1),
        Part("transformer.wpe.weight", (positions, hidden), 1),
        *_norm(f"{block}.ln", hidden, 2 * layers, bias=True),
        # Conv1D stores weights as (in, out); the count is what matters here
        *_linear(f"{block}.attn", "c_attn", hidden, 3 * hidden, layers, True),
        *_linear(f"{block}.attn", "c_proj", hidden, hidden, layers, True),
        *_linear(f"{block}.mlp", "c_fc", hidden, inner, layers, True),
        *_linear(f"{block}.mlp", "c_proj", inner, hidden, layers, True),
        *_norm("transformer.ln_f", hidden, 1, bias=True),
    ]
    head_dim = hidden // heads
    return Shape("gpt2", hidden, layers, heads, heads, head_dim, inner, vocab, tuple(parts))


def _gpt_neox(config: ModelConfig) -> Shape:
    hidden = config.get("hidden_size", required=True)
    layers = config.get("num_hidden_layers", required=True)
    heads = config.get("num_attention_heads", required=True)
    inner = config.get("intermediate_size", required=True)
    vocab = config.get("vocab_size", required=True)
    bias = config.get("attention_bias", True)
    block = "gpt_neox.layers.*"
    parts = [
        Part("gpt_neox.embed_in.weight", (vocab, hidden), 1),
        *_norm(f"{block}.layernorm", hidden, 2 * layers, bias=True),
        *_linear(f"{block}.attention", "query_key_value", hidden, 3 * hidden, layers, bias),
        *_linear(f"{block}.attention", "dense", hidden, hidden, layers, bias),
        *_linear(f"{block}.mlp", "dense_h_to_4h", hidden, inner, layers, True),
        *_linear(f"{block}.mlp", "dense_4h_to_h", inner, hidden, layers, True),
        *_norm("gpt_neox.final_layer_norm", hidden, 1, bias=True),
    ]
    if not config.get("tie_word_embeddings", False):
        parts.append(Part("embed_out.weight", (vocab, hidden), 1, linear="embed_out"))
    head_dim = hidden // heads
    return Shape("gpt_neox", hidden, layers, heads, heads, head_dim, inner, vocab, tuple(parts))


def _falcon(config: ModelConfig) -> Shape:
    hidden = config.first(("hidden_size", "n_embed"))
    layers = config.first(("num_hidden_layers", "n_layer"))
    heads = config.first(("num_attention_heads", "n_head"))
    vocab = config.get("vocab_size", required=True)
    head_dim = hidden // heads
    new_arch = config.get("new_decoder_architecture", False)
    multi_query = config.get("multi_query", True)
    kv_heads = config.get("num_kv_heads", heads) if new_arch else 1 if multi_query else heads
    inner = config.get("ffn_hidden_size", 4 * hidden) or 4 * hidden
    bias = config.get("bias", False)
    block = "transformer.h.*"
    if new_arch:
        ln_count = 2 if (config.get("num_ln_in_parallel_attn", 2) or 2) == 2 else 1
    else:
        ln_count = 1 if config.get("parallel_attn", True) else 2
    qkv_out = (heads + 2 * kv_heads) * head_dim
    parts = [
        Part("transformer.word_embeddings.weight", (vocab, hidden), 1),
        *_norm(f"{block}.ln", hidden, ln_count * layers, bias=True),
        *_linear(f"{block}.self_attention", "query_key_value", hidden, qkv_out, layers, bias),
        *_linear(f"{block}.self_attention", "dense", hidden, hidden, layers, bias),
        *_linear(f"{block}.mlp", "dense_h_to_4h", hidden, inner, layers, bias),
        *_linear(f"{block}.mlp", "dense_4h_to_h", inner, hidden, layers, bias),
        *_norm("transformer.ln_f", hidden, 1, bias=True),
    ]
    if not config.get("tie_word_embeddings", True):
        parts.append(Part("lm_head.weight", (vocab, hidden), 1, linear="lm_head"))
    return Shape("falcon", hidden, layers, heads, kv_heads, head_dim, inner, vocab, tuple(parts))


def _bert(config: ModelConfig) -> Shape:
    """BERT and RoBERTa encoders with the pooler (the published sizes include it)."""
    hidden = config.get("hidden_size", required=True)
    layers = config.get("num_hidden_layers", required=True)
    heads = config.get("num_attention_heads", required=True)
    inner = config.get("intermediate_size", required=True)
    vocab = config.get("vocab_size", required=True)
    positions = config.get("max_position_embeddings", 512)
    types = config.get("type_vocab_size", 2)
    block = "encoder.layer.*"
    parts = [
        Part("embeddings.word_embeddings.weight", (vocab, hidden), 1),
        Part("embeddings.position_embeddings.weight", (positions, hidden), 1),
        Part("embeddings.token_type_embeddings.weight", (types, hidden), 1),
        *_norm("embeddings.LayerNorm", hidden, 1, bias=True),
        *_linear(f"{block}.attention.self", "query", hidden, hidden, layers, True),
        *_linear(f"{block}.attention.self", "key", hidden, hidden, layers, True),
        *_linear(f"{block}.attention.self", "value", hidden, hidden, layers, True),
        *_linear(f"{block}.attention.output", "dense", hidden, hidden, layers, True),
        *_linear(f"{block}.intermediate", "dense", hidden, inner, layers, True),
        *_linear(f"{block}.output", "dense", inner, hidden, layers, True),
        *_norm(f"{block}.LayerNorm", hidden, 2 * layers, bias=True),
        *_linear("pooler", "dense", hidden, hidden, 1, True),
    ]
    kind = config.model_type
    return Shape(kind, hidden, layers, heads, heads, hidden // heads, inner, vocab, tuple(parts))


def _t5(config: ModelConfig) -> Shape:
    """T5 / Flan-T5 as T5ForConditionalGeneration (encoder, decoder, LM head).

    An untied LM head (Flan-T5, T5 v1.1 checkpoints) is counted as its checkpoint
    stores it; transformers 5 forces tying when it builds T5, so the test compares
    tied configs only.
    """
    d_model = config.get("d_model", required=True)
    d_kv = config.get("d_kv", 64)
    d_ff = config.get("d_ff", required=True)
    heads = config.get("num_heads", required=True)
    encoder = config.get("num_layers", required=True)
    decoder = config.get("num_decoder_layers", encoder)
    vocab = config.get("vocab_size", required=True)
    buckets = config.get("relative_attention_num_buckets", 32)
    gated = str(config.get("feed_forward_proj", "relu")).startswith("gated-")
    inner = heads * d_kv
    parts = [Part("shared.weight", (vocab, d_model), 1)]
    attention_blocks = encoder + 2 * decoder  # self-attention everywhere, cross in the decoder
    for name in ("q", "k", "v"):
        parts += _linear("*.Attention", name, d_model, inner, attention_blocks, False)
    parts += _linear("*.Attention", "o", inner, d_model, attention_blocks, False)
    parts.append(Part("*.relative_attention_bias.weight", (buckets, heads), 2))
    ff_blocks = encoder + decoder
    for name in ("wi_0", "wi_1") if gated else ("wi",):
        parts += _linear("*.DenseReluDense", name, d_model, d_ff, ff_blocks, False)
    parts += _linear("*.DenseReluDense", "wo", d_ff, d_model, ff_blocks, False)
    parts += _norm("*.layer_norm", d_model, 2 * encoder + 3 * decoder + 2)
    if not config.get("tie_word_embeddings", True):
        parts.append(Part("lm_head.weight", (vocab, d_model), 1, linear="lm_head"))
    return Shape(
        "t5",
        d_model,
        encoder,
        heads,
        heads,
        d_kv,
        d_ff,
        vocab,
        tuple(parts),
        decoder_layers=decoder,
    )


def _generic(config: ModelConfig) -> Shape:
    """An unmodelled model_type: a Llama-style decoder from the config's sizes alone,
    labelled `generic` so every report says it is an estimate."""
    needed = ("hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size")
    missing = [key for key in needed if key not in config.values]
    if missing:
        raise EvidenceError(
            f"{config.name}: model_type {config.model_type!r} is not modelled "
            f"(supported: {', '.join(SUPPORTED)}) and the config lacks {', '.join(missing)} "
            "for a generic estimate"
        )
    hidden = config.get("hidden_size")
    layers = config.get("num_hidden_layers")
    heads = config.get("num_attention_heads")
    kv_heads = config.get("num_key_value_heads", heads)
    head_dim = config.get("head_dim", hidden // heads)
    inner = config.get("intermediate_size", 4 * hidden)
    vocab = config.get("vocab_size")
    layer = "layers.*"
    parts = [
        Part("embed.weight", (vocab, hidden), 1),
        *_linear(layer, "q_proj", hidden, heads * head_dim, layers, False),
        *_linear(layer, "k_proj", hidden, kv_heads * head_dim, layers, False),
        *_linear(layer, "v_proj", hidden, kv_heads * head_dim, layers, False),
        *_linear(layer, "o_proj", heads * head_dim, hidden, layers, False),
        *_gated_mlp(f"{layer}.mlp", hidden, inner, layers),
        *_norm(f"{layer}.norm", hidden, 2 * layers + 1),
    ]
    if not config.get("tie_word_embeddings", False):
        parts.append(Part("lm_head.weight", (vocab, hidden), 1, linear="lm_head"))
    return Shape(
        f"generic ({config.model_type or 'no model_type'} is not modelled; supported: "
        f"{', '.join(SUPPORTED)})",
        hidden, layers, heads, kv_heads, head_dim, inner, vocab, tuple(parts),
    )  # fmt: skip


_FAMILIES: dict[str, Callable[[ModelConfig], Shape]] = {
    **dict.fromkeys(
        (
            "llama",
            "mistral",
            "mixtral",
            "qwen2",
            "qwen2_moe",
            "qwen3",
            "qwen3_moe",
            "gemma",
            "gemma2",
            "phi3",
        ),
        _llama_like,
    ),
    "gpt2": _gpt2,
    "gpt_neox": _gpt_neox,
    "falcon": _falcon,
    "bert": _bert,
    "roberta": _bert,
    "t5": _t5,
}
SUPPORTED: tuple[str, ...] = tuple(sorted(_FAMILIES))


def shape_of(config: ModelConfig) -> Shape:
    """The model's parameter inventory and sizes; unknown types raise with the list."""
    builder = _FAMILIES.get(config.model_type, _generic)
    try:
        return builder(config)
    except TypeError as exc:  # a non-numeric value where a size belongs
        raise EvidenceError(f"{config.name}: config.json holds a non-numeric size: {exc}") from exc
