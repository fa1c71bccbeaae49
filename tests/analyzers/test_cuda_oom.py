"""The CUDA OOM message's numbers: which explanation they support, at the thresholds."""

from __future__ import annotations

from pathlib import Path

import pytest
from arith_helpers import logged

from trainwreck.analyzers.cuda_oom import FRAGMENTED_SHARE
from trainwreck.curation.cases import diagnose_folder

BATCH_5 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-5"
GIB = 2**30


def _oom(total_gib: float, free_gib: float, mine_gib: float, unallocated_gib: float) -> str:
    """A torch >= 2.1 OOM message (the wording of the litgpt log below) with these numbers."""
    allocated = mine_gib - unallocated_gib
    return (
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 50.00 MiB. GPU 0 "
        f"has a total capacity of {total_gib:.2f} GiB of which {free_gib:.2f} GiB is free. "
        f"Including non-PyTorch memory, this process has {mine_gib:.2f} GiB memory in use. Of "
        f"the allocated memory {allocated:.2f} GiB is allocated by PyTorch, and "
        f"{unallocated_gib:.2f} GiB is reserved by PyTorch but unallocated.\n"
    )


def _ids(tmp_path: Path, text: str) -> set[str]:
    return {finding.id for finding in logged(tmp_path, text).findings}


def test_torch_21_capacty_spelling_is_read_and_the_card_is_full() -> None:
    # https://github.com/Lightning-AI/litgpt/issues/459: torch 2.1 printed "total capacty";
    # unread, the card's size was unknown and the other-process page led (judged family);
    # read, this process holds 23.57 of 23.69 GiB and the capacity page names the cause.
    report = diagnose_folder(BATCH_5 / "litgpt-vicuna-qlora-micro-batch-oom-459")
    assert "cuda.oom.capacity" in {finding.id for finding in report.findings}
    assert report.hypotheses[0].id == "cuda-oom-capacity"


@pytest.mark.parametrize(
    ("unallocated_share", "fragmented"),
    [(FRAGMENTED_SHARE - 0.01, False), (FRAGMENTED_SHARE, True), (FRAGMENTED_SHARE + 0.2, True)],
)
def test_fragmentation_needs_a_share_of_the_card_unallocated(
    tmp_path: Path, unallocated_share: float, fragmented: bool
) -> None:
    total = 40.0
    text = _oom(total, 0.04, total - 0.04, unallocated_share * total)
    ids = _ids(tmp_path, text)
    assert ("cuda.oom.fragmentation" in ids) is fragmented
    assert "cuda.oom.capacity" in ids  # the card is full either way
