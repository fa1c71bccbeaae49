"""Pages written during batch-8's development, each checked on the first-sight case that
showed the mechanism had no page (benchmarks/first_sight/batch-8)."""

from __future__ import annotations

from pathlib import Path

from trainwreck.curation.cases import diagnose_folder

BATCH_8 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-8"


def test_a_view_after_transpose_in_attention_gets_the_contiguity_page_at_high() -> None:
    # judged wrong at a574aaf: a dtype-mismatch page led on the word "attention"
    report = diagnose_folder(BATCH_8 / "pytorch-char-gpt-attention-runtimeerror-repro")
    top = report.hypotheses[0]
    assert (top.id, top.confidence) == ("view-on-non-contiguous-tensor", "high")


def test_workers_joined_before_their_queue_is_read_get_the_join_page() -> None:
    # judged family at a574aaf (a DataLoader-deadlock page led; there is no DataLoader)
    report = diagnose_folder(BATCH_8 / "pytorch-shard-tokenizer-stuck-after-workers-done-repro")
    assert report.hypotheses[0].id == "multiprocessing-join-before-queue-drained"


def test_a_prefetch_thread_that_died_gets_the_dead_producer_page() -> None:
    # judged family at a574aaf (fork-after-threads led): "Exception in thread Thread-1
    # (_worker)" sits in the log a few steps before the last line
    report = diagnose_folder(BATCH_8 / "pytorch-training-stalls-mid-first-epoch-repro")
    assert report.hypotheses[0].id == "background-thread-died-consumer-waits"
