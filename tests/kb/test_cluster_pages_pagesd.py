"""Pages written from case-memory clusters of wrong-output, NaN, divergence and slow-throughput
records (issue 17, writer pagesd): each page names the cause of the records it was written from
without the case memory (which holds those very threads), and a record of another mechanism in the
same class does not get it at the top.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from record_helpers import hypothesis_ids, record_hypothesis_ids

ROOT = Path(__file__).parents[2]

# page -> (records it was written from that its own evidence reaches, a same-class record of
# another mechanism that must not get it at the top)
PAGES = {
    "llm-runtime-gpu-backend-not-used": (
        [
            "llama-cpp-python-upgrade-rebuilt-without-cublas-blas0-cpu-787",
            "ollama-no-avx-cpu-disables-gpu-runner-cpu-only-2825",
        ],
        "centernet-cpu-contention-other-apps-data-time-slow-604",
    ),
    "fp16-loss-scale-warmup-overflow": (
        [
            "tablemaster-fp16-loss-scale-initial-grad-norm-nan-32",
            "cogvideo-deepspeed-fp16-initial-loss-scale-overflow-233",
        ],
        "transformers-label-smoothing-fp16-eval-nan-10674",
    ),
    "compiled-code-differs-from-eager": (
        [
            "pytorch-inductor-group-norm-decomp-addcdiv-wrong-181694",
            "jax-xla-triton-fusion-miscompile-sm120-wrong-results-39486",
        ],
        "jax-einsum-gpu-default-matmul-precision-22557",
    ),
    "lora-adapter-has-no-effect": (
        [
            "peft-alpaca-lora-empty-adapter-443b-286",
            "vllm-lora-target-modules-disjoint-base-output-55193",
            "trl-stack-llama-merge-script-lora-not-merged-386",
        ],
        "deepspeed-zero3-partition-file-empty-tensors-zero-to-fp32-212",
    ),
    "eos-not-appended-to-training-targets": (
        [
            "transformers-llama-fast-tokenizer-ignores-add-eos-token-23833",
            "ludwig-pad-appended-instead-of-eos-gemma-never-stops-3945",
        ],
        "mlx-examples-phi2-generate-ignores-eos-108",
    ),
    "runtime-model-port-diverges-from-reference": (
        [
            "vllm-glm4-garbage-without-enforce-eager-16618",
            "mistralrs-phi3-garbage-output-956",
            "transformers-gemma4-kv-shared-use-cache-false-6502",
            "sglang-dsv32-nsa-indexer-rope-ruler-drop-13495",
        ],
        "lm-eval-mbpp-apply-chat-template-pass-at-1-zero-2990",
    ),
}


@pytest.mark.parametrize(
    ("record", "page"),
    [(record, page) for page, (records, _) in PAGES.items() for record in records],
)
def test_page_names_the_records_it_was_written_from(tmp_path: Path, record: str, page: str) -> None:
    ids = record_hypothesis_ids(tmp_path, record)
    assert ids[:1] == [page], ids[:3]


@pytest.mark.parametrize(("page", "other"), [(page, other) for page, (_, other) in PAGES.items()])
def test_record_of_another_mechanism_does_not_get_the_page(
    tmp_path: Path, page: str, other: str
) -> None:
    assert page not in record_hypothesis_ids(tmp_path, other)[:1]


@pytest.mark.parametrize(
    ("line", "page"),
    [
        # Every layer offloaded to the GPU: a working GPU build.
        ("llm_load_tensors: offloaded 33/33 layers to GPU", "llm-runtime-gpu-backend-not-used"),
        # The scale at its floor is the collapse, not calibration.
        (
            "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1",
            "fp16-loss-scale-warmup-overflow",
        ),
        # A full-size adapter file.
        (
            "-rw-rw-r-- 1 ubuntu ubuntu  16M Apr  9 12:55 adapter_model.bin",
            "lora-adapter-has-no-effect",
        ),
        # vLLM's start-up advice about eager mode is not the garbage-unless-eager report.
        (
            "To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' "
            "in the CLI.",
            "runtime-model-port-diverges-from-reference",
        ),
    ],
)
def test_near_miss_does_not_raise_the_page(tmp_path: Path, line: str, page: str) -> None:
    assert page not in hypothesis_ids(tmp_path, line, None)[:1]
