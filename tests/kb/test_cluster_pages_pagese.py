"""Pages written from case-memory clusters of crash, oom, hang, config-error and dependency
records (issue 17, writer pagese): each page leads on the records it was written from without the
case memory (which holds those very threads), and stays out of the lead on a record of another
mechanism in the same class.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from record_helpers import hypothesis_ids, record_hypothesis_ids

ROOT = Path(__file__).parents[2]

# Page -> records it was written from whose own evidence and symptoms put it first (at least two
# per page; the others filed in cases/filed-pagese.yaml carry prose only, or no watchdog line).
LEADS = {
    "nccl-release-bug-on-gpu": [
        "nccl-2251-rtx5090-maxsharedmem-1637",
        "nccl-cumem-host-peer-access-t4-error217-64109",
        "vllm-custom-allreduce-nccl-2181-invalid-argument-3688",
        "nccl-2262-blackwell-workstation-illegal-access-512k-2418",
    ],
    "collective-timeout-shorter-than-rank-work": [
        "megatron-patch-qwen72b-save-timeout-436",
        "particleflow-rank0-only-end-epoch-test-nccl-timeout-390",
    ],
    "peft-no-default-target-modules": [
        "peft-012-gemma2-no-default-target-modules-2128",
        "chatglmtuning-peft-target-modules-unmapped-149",
    ],
    "vllm-max-num-batched-tokens-below-max-model-len": [
        "vllm-v1-max-num-batched-tokens-chunked-prefill-11061",
        "verl-vllm024-chunked-prefill-off-max-batched-tokens-7624",
    ],
    "extension-build-cuda-differs-from-torch": [
        "deepspeed-cuda-toolkit-torch-mismatch-91",
        "vllm-source-build-nvcc122-vs-torch-cu117-1060",
    ],
    "transformers-v5-breaks-v4-code": [
        "cruijff-kit-transformers5-apply-chat-template-batchencoding-mismatch-302",
        "vllm-transformers5-rope-validation-list-set-8305",
        "trl-liger-old-transformers53-mm-token-type-ids-5216",
    ],
}

# Page -> a record of the same class whose confirmed cause is another mechanism.
OTHER_MECHANISM = {
    "nccl-release-bug-on-gpu": "pytorch-master-port-hardcoded-eaddrinuse-22",
    "collective-timeout-shorter-than-rank-work": (
        "prodigy-fsdp-frozen-shard-early-return-allreduce-hang-35"
    ),
    "peft-no-default-target-modules": "ms-swift-qwen35-lora-automodel-target-regex-8294",
    "vllm-max-num-batched-tokens-below-max-model-len": (
        "llamafactory-unsloth-deepspeed-zero3-incompatible-6940"
    ),
    "extension-build-cuda-differs-from-torch": "flash-attn-build-isolation-no-torch-17",
    "transformers-v5-breaks-v4-code": "minimind-new-transformers-disables-torch201-588",
}


@pytest.mark.parametrize(
    ("page", "record"), [(page, record) for page, records in LEADS.items() for record in records]
)
def test_page_leads_on_the_records_it_was_written_from(
    tmp_path: Path, page: str, record: str
) -> None:
    ids = record_hypothesis_ids(tmp_path, record)
    assert ids[:1] == [page], ids[:3]


@pytest.mark.parametrize(("page", "record"), sorted(OTHER_MECHANISM.items()))
def test_page_stays_out_of_the_lead_on_another_mechanism(
    tmp_path: Path, page: str, record: str
) -> None:
    assert page not in record_hypothesis_ids(tmp_path, record)[:1]


def test_nccl_version_line_alone_does_not_name_a_release_bug(tmp_path: Path) -> None:
    """Every NCCL_DEBUG=INFO log prints its version; that alone is no evidence of a bug."""
    line = "localhost:11326:11326 [0] NCCL INFO NCCL version 2.25.1+cuda12.2"
    assert "nccl-release-bug-on-gpu" not in hypothesis_ids(tmp_path, line, None)[:1]
