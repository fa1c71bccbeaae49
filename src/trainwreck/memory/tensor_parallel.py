"""Which tensor-parallel sizes vLLM accepts for a model, and how many KV heads each GPU keeps.

vLLM refuses to start when the TP size does not divide the attention heads
(ModelConfig.verify_with_parallel_config in vllm/config.py). Its QKV layer then
splits the KV heads evenly when there are more KV heads than GPUs and gives each GPU
one replicated KV head when there are fewer; both splits go through `divide`, which
asserts an exact division (QKVParallelLinear.__init__ in vllm/model_executor/layers/linear.py).
"""

from __future__ import annotations

VLLM_HEADS_CHECK_URL = (
    "https://github.com/vllm-project/vllm/blob/0004438383ee731a6e44708609d175c48528a8d0/"
    "vllm/config.py"
)
VLLM_KV_SPLIT_URL = (
    "https://github.com/vllm-project/vllm/blob/0036d38de46c5d48fdedeb658dedc0fc0f95677d/"
    "vllm/model_executor/layers/linear.py"
)


def kv_heads_per_gpu(kv_heads: int, tensor_parallel: int) -> int:
    """KV heads one GPU stores: an even share, or one replicated head when TP exceeds them."""
    return max(1, kv_heads // tensor_parallel)


def legal_sizes(heads: int, kv_heads: int, most: int) -> list[int]:
    """Every TP size up to `most` that vLLM accepts for these head counts."""
    return [tp for tp in range(1, most + 1) if tensor_parallel_problem(heads, kv_heads, tp) is None]


def tensor_parallel_problem(heads: int, kv_heads: int, tensor_parallel: int) -> str | None:
    """Why vLLM refuses `tensor_parallel` for these head counts; None when it accepts it."""
    if heads % tensor_parallel:
        return (
            f"the model's {heads} attention heads are not divisible by tensor parallel size "
            f"{tensor_parallel}"
        )
    if kv_heads % tensor_parallel and tensor_parallel % kv_heads:
        return (
            f"tensor parallel size {tensor_parallel} neither divides the model's {kv_heads} KV "
            "heads nor is a multiple of them"
        )
    return None
