"""Pages for mechanisms first-sight batch-7 missed that recur across threads (issue 15, writer
pagesf): each leads on its batch-7 case and on another real record, and a record of another
mechanism in the same class does not get it at the top.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trainwreck import diagnose
from trainwreck.cases import load_memory
from trainwreck.curation.cases import diagnose_folder

ROOT = Path(__file__).parents[2]
BATCH_7 = ROOT / "benchmarks" / "first_sight" / "batch-7"
CASES = ROOT / "tests" / "cases"
BUNDLED = ROOT / "src" / "trainwreck" / "cases" / "data" / "bundled.jsonl"

SHUFFLED = "eval-loader-shuffled-predictions-misaligned"
PADDED = "distributed-eval-pads-duplicate-samples"
DIVERGED = "rank-local-decision-diverges"


def _top_of_folder(folder: Path) -> str:
    return diagnose_folder(folder).hypotheses[0].id


def _ranked_for_record(tmp_path: Path, record: str) -> list[str]:
    """A bundled record diagnosed from its own evidence and symptoms, without case memory."""
    with BUNDLED.open(encoding="utf-8") as handle:
        row = next(r for r in map(json.loads, handle) if r["id"] == record)
    log = tmp_path / "evidence.log"
    log.write_text(row["evidence"] + "\n", encoding="utf-8")
    found = diagnose([str(log)], symptoms=row.get("symptoms"), cases=load_memory(bundled=False))
    return [h.id for h in found.hypotheses]


@pytest.mark.parametrize(
    ("folder", "page"),
    [
        (BATCH_7 / "torch-eval-dataloader-shuffle-label-mismatch-repro", SHUFFLED),
        (CASES / "repro-eval-loader-shuffled-val-labels", SHUFFLED),
        (BATCH_7 / "lightning-ddp-distributedsampler-pads-test-set-wrong-acc-4732", PADDED),
        (
            BATCH_7 / "transformers-earlystopping-ungathered-metrics-rank-divergence-hang-17478",
            DIVERGED,
        ),
        (BATCH_7 / "rfdetr-ddp-segm-map-sync-collective-count-hang-1085", DIVERGED),
    ],
)
def test_the_page_leads_on_its_cases(folder: Path, page: str) -> None:
    assert _top_of_folder(folder) == page


def test_the_padding_page_leads_on_accelerates_duplicated_gather(tmp_path: Path) -> None:
    """accelerate#350: gather returned 24 samples for a 22-sample validation set."""
    ranked = _ranked_for_record(tmp_path, "accelerate-gather-duplicated-eval-samples-350")
    assert ranked[0] == PADDED


@pytest.mark.parametrize(
    ("folder", "page"),
    [
        # wrong_output of another mechanism: a strict=False load that loaded nothing
        (BATCH_7 / "torch-load-state-dict-strict-false-module-prefix-repro", SHUFFLED),
        (BATCH_7 / "torch-load-state-dict-strict-false-module-prefix-repro", PADDED),
        # hangs of other mechanisms: uneven batches per rank; a collective on rank 0 only
        (BATCH_7 / "ddp-uneven-shard-batches-extra-allreduce-hang-repro", DIVERGED),
        (BATCH_7 / "ddp-rank0-eval-bn-buffer-broadcast-hang-repro", DIVERGED),
    ],
)
def test_another_mechanism_of_the_class_does_not_get_it_first(folder: Path, page: str) -> None:
    assert _top_of_folder(folder) != page


def test_a_shuffled_training_loader_alone_is_not_this_page(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(
        "```python\ntrain_loader = DataLoader(train_ds, batch_size=64, shuffle=True)\n"
        "for xb, yb in train_loader:\n    loss = loss_fn(model(xb), yb)\n```\n"
        "epoch 4 train_loss 0.0900 train_acc 0.9840\n",
        encoding="utf-8",
    )
    ranked = [h.id for h in diagnose([str(log)], cases=load_memory(bundled=False)).hypotheses]
    assert SHUFFLED not in ranked
