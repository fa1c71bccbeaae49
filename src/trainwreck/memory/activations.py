"""Bytes of activations saved for backward, per transformer block and for the loss.

The structure follows Korthikanti et al. 2022 ("Reducing Activation Recomputation
in Large Transformer Models", https://huggingface.co/papers/2205.05198): per
block, terms proportional to batch × sequence × width, plus an attention-score
term proportional to batch × heads × sequence² when the scores are materialised.
The coefficients are counts of the tensors each implementation saves, taken from
transformers 5.24's Llama-style and GPT-2 blocks and checked against
`torch.autograd.graph.saved_tensors_hooks` in the test suite. Simplified away:
tensors whose size does not grow with batch × sequence (RoPE tables, masks,
per-row norm statistics) and the transient peak inside a single kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainwreck.memory.architectures import Shape

FP32 = 4
_LLAMA_LIKE = {
    "llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi3",
    "mixtral", "qwen2_moe", "qwen3_moe",
}  # fmt: skip
_KORTHIKANTI_URL = (
    "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.28.1/_sources/libraries/"
    "neuronx-distributed/activation_memory_reduction.rst"
)


@dataclass(frozen=True)
class Activations:
    """Saved-for-backward bytes: all blocks, the final norm, and the loss's logits."""

    blocks: int
    final: int
    logits: int
    formula: str
    source: str
    recompute: int = 0  # checkpointing: one block's full activations, live during its backward

    @property
    def total(self) -> int:
        return self.blocks + self.final + self.logits


def _llama_block(shape: Shape, tokens: int, batch: int, seq: int, act: int, eager: bool) -> int:
    """One Llama-style block: two RMSNorms (each an fp32 copy of its input plus two
    tensors in the activation dtype), q and the attention output, k and v, four
    MLP-width tensors (gate, its activation, up, their product), and either the
    softmax statistics (SDPA/flash) or the full score matrix (eager)."""
    h, kv_width = shape.hidden, shape.kv_heads * shape.head_dim
    inner = shape.moe_inner or shape.intermediate  # MoE: each token's top-k experts
    hidden = tokens * h * (6 * act + 2 * FP32)
    keys_values = 2 * tokens * kv_width * act
    mlp = 4 * tokens * inner * act
    scores = _scores(shape, batch, seq, act) if eager else batch * shape.heads * seq * FP32
    return hidden + keys_values + mlp + scores


def _scores(shape: Shape, batch: int, seq: int, act: int) -> int:
    """The eager score matrix: softmax output in fp32, plus its cast when act < fp32."""
    per_copy = batch * shape.heads * seq * seq
    return per_copy * (FP32 + (act if act < FP32 else 0))


def _gpt2_block(shape: Shape, tokens: int, batch: int, seq: int, act: int) -> int:
    """One GPT-2 block: ten width-h tensors, five MLP-width tensors (the tanh GELU
    keeps intermediates) and three score-sized tensors (softmax, dropout, the
    probabilities fed to the value matmul), which stay fp32 even in half precision."""
    return (
        tokens * (10 * shape.hidden + 5 * shape.intermediate) * act
        + 3 * batch * shape.heads * seq * seq * FP32
    )


def _generic_block(shape: Shape, tokens: int, batch: int, seq: int, act: int) -> int:
    """Korthikanti's sbh(34 + 5as/h) bytes for 16-bit activations, scaled to `act`."""
    per_16bit = tokens * shape.hidden * 34 + 5 * batch * shape.heads * seq * seq
    return per_16bit * act // 2


def activations(
    shape: Shape, batch: int, seq: int, act_bytes: int, *, checkpointing: bool, eager: bool
) -> Activations:
    """Saved activations for one micro-batch of `batch` × `seq` tokens."""
    tokens = batch * seq
    layers = shape.layers + shape.decoder_layers
    if shape.family in _LLAMA_LIKE:
        per_block = _llama_block(shape, tokens, batch, seq, act_bytes, eager)
        formula = (
            f"{layers} × [b·s·h·(6·{act_bytes}+8) + 2·b·s·kv·{act_bytes} + 4·b·s·I·{act_bytes}"
            + (" + b·a·s²·scores]" if eager else " + b·a·s·4]")
        )
    elif shape.family == "gpt2":
        per_block = _gpt2_block(shape, tokens, batch, seq, act_bytes)
        formula = f"{layers} × [b·s·(10h + 5I)·{act_bytes} + 3·b·a·s²·4]"
    else:
        per_block = _generic_block(shape, tokens, batch, seq, act_bytes)
        formula = f"{layers} × s·b·h·(34 + 5·a·s/h) × {act_bytes}/2 B (generic estimate)"
    recompute = 0
    if checkpointing:  # each block keeps its input; its backward recomputes the rest
        # materialised scores also need their fp32 gradient while that block runs backward
        scores_grad = (
            batch * shape.heads * seq * seq * FP32 if shape.family == "gpt2" or eager else 0
        )
        blocks, recompute = layers * tokens * shape.hidden * act_bytes, per_block + scores_grad
        formula = f"{layers} blocks × b·s·h × {act_bytes} B (block inputs under checkpointing)"
    else:
        blocks = layers * per_block
    final = tokens * shape.hidden * (FP32 + 2 * act_bytes)
    logits = tokens * shape.vocab * FP32  # the loss upcasts logits and keeps log-probs
    return Activations(blocks, final, logits, formula, _KORTHIKANTI_URL, recompute)
