"""In a tie of pages the symptoms' words retrieved, a page about a code mistake nobody showed
follows the page the words describe."""

from __future__ import annotations

from pathlib import Path

from trainwreck.curation.cases import diagnose_folder

BATCH_10 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-10"


def test_a_worker_hang_described_in_words_leads_with_the_loader_page() -> None:
    # Symptoms only (no code): the DataLoader-timeout page (judged right at first sight) and the
    # dataset-process-pool page tie on the words; the pool page's cause would be in unseen code.
    report = diagnose_folder(BATCH_10 / "t2-torch-dataloader-opencv-macos-worker-hang")
    ids = [h.id for h in report.hypotheses]
    assert ids[0] == "dataloader-timeout"
    assert ids.index("process-pool-inside-dataset-with-workers") > 0
