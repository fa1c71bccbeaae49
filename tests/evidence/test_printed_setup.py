"""The setup a real log states about its own run (a settings printout, an engine's config
line, DeepSpeed's batch check, the GPU a warning names) fills the report's setup block."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.evidence.collect import collect
from trainwreck.evidence.printed import printed_settings
from trainwreck.model import LogLine

CASES = Path(__file__).parents[1] / "cases"


def _setup(case: str) -> dict[str, object]:
    inputs = [str(p) for p in sorted((CASES / case).iterdir()) if p.suffix == ".log"]
    return collect(inputs).setup.model_dump()


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("repro-nan-adam-eps-fp16", {"precision": "fp16", "batch_size": 32}),
        ("repro-nan-input-features", {"batch_size": 32}),
        (
            "vllm-max-model-len-kv-cache-2418",
            {"precision": "fp16", "seq_len": 4096, "model": "/home/***/***/models/alpaca-2"},
        ),
        ("deepspeed-batch-size-7-gpus-346", {"batch_size": 2, "grad_accum": 18, "world_size": 7}),
        ("pytorch-oom-fragmentation-35901", {"gpu_memory_gib": 23.65}),
        ("vllm-bf16-v100-946", {"gpu_name": "Tesla V100-SXM2-32GB"}),
        ("cosmos-reason1-sm120-blackwell-57", {"gpu_name": "NVIDIA GeForce RTX 5090"}),
        ("lightning-tf32-matmul-precision-8", {"gpu_name": "NVIDIA GeForce RTX 3060"}),
    ],
)
def test_setup_a_real_log_states(case: str, expected: dict[str, object]) -> None:
    setup = _setup(case)
    assert {key: setup[key] for key in expected} == expected


def _line(text: str) -> list[LogLine]:
    return [LogLine(source="train.log", line=1, text=text)]


@pytest.mark.parametrize(
    "text",
    [
        "tensor([0.5000, nan], device='cuda:0', dtype=torch.float16)",  # a tensor, not the run
        "if batch_size=32 then",  # one pair in prose
        "RuntimeError: expected scalar type Half but found Float",
    ],
)
def test_a_tensor_repr_or_prose_is_no_settings_printout(text: str) -> None:
    assert printed_settings(_line(text)) == {}


def test_two_pairs_make_a_printout() -> None:
    found = printed_settings(_line("lr=0.001 batch_size=32"))
    assert found == {"lr": 0.001, "batch_size": 32}
