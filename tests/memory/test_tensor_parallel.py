"""vLLM's tensor-parallel rules on head counts, at and around each boundary."""

from __future__ import annotations

import pytest

from trainwreck.memory.tensor_parallel import kv_heads_per_gpu, legal_sizes, tensor_parallel_problem


@pytest.mark.parametrize(
    ("heads", "kv_heads", "tp", "accepted"),
    [
        (32, 8, 1, True),
        (32, 8, 3, False),  # the attention heads do not divide: vLLM's start-up check
        (32, 8, 4, True),  # below the KV heads, dividing them
        (32, 8, 8, True),  # at the KV heads
        (32, 8, 16, True),  # above: each GPU keeps one replicated KV head
        (48, 8, 12, False),  # divides the 48 heads, but 12 neither divides 8 nor is a multiple
        (48, 8, 24, True),  # a multiple of the 8 KV heads
    ],
)
def test_tensor_parallel_rule(heads: int, kv_heads: int, tp: int, accepted: bool) -> None:
    assert (tensor_parallel_problem(heads, kv_heads, tp) is None) is accepted


def test_kv_heads_per_gpu_never_drops_below_one() -> None:
    assert [kv_heads_per_gpu(8, tp) for tp in (4, 8, 16)] == [2, 1, 1]


def test_legal_sizes_for_a_28_head_model() -> None:
    assert legal_sizes(28, 4, 8) == [1, 2, 4]
