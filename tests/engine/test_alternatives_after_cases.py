"""A confirmed case that takes the top leaves no unrelated, evidence-free alternative beside it.

Observed with the auditor (rule a) on a report generated from a real record: a
case hypothesis (dependency_conflict) led, and four OOM pages retrieved by the
symptoms alone, kept for the page it displaced, were listed as its alternatives.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

from trainwreck.curation.cases import diagnose_folder, diagnose_unseen

ROOT = Path(__file__).resolve().parents[2]

# A record where a case takes the top from a symptom-only page whose class kept four
# dependency pages as alternatives (the modernbert record first showed it; its own page
# now leads there, as a page for the processing_class keyword now leads the oumi record
# that stood in next, so a case-led record with three alternatives stands in).
RECORD = "t7-hydra-medical-reasoning-config-group-path"


def test_alternatives_are_filtered_against_the_final_top(tmp_path: Path) -> None:
    text = files("trainwreck.cases").joinpath("data/bundled.jsonl").read_text(encoding="utf-8")
    record = next(r for r in map(json.loads, text.splitlines()) if r["id"] == RECORD)
    log = tmp_path / "train.log"
    log.write_text(record["evidence"], encoding="utf-8")
    diagnosis = diagnose_unseen((log,), record["symptoms"], (record["source"], RECORD), None)
    top, *alternatives = diagnosis.hypotheses
    assert top.id.startswith("case:") and top.grounded
    assert [h.id for h in alternatives if not h.evidence and h.category != top.category] == []


def test_a_thread_matched_on_the_words_alone_keeps_the_displaced_pages_class() -> None:
    """batch-18's DeepSpeed scheduler thread: a look-alike thread of another class (a
    LLaMA-Factory repetition, matched on the description alone) took the top by 0.002 and the
    filter above dropped every config page, the one naming the cause included."""
    case = ROOT / "benchmarks/first_sight/batch-18/t18C-deepspeed-warmuplr-overrides-cosine"
    diagnosis = diagnose_folder(case)
    assert "deepspeed-config-scheduler-overrides-trainer" in [h.id for h in diagnosis.hypotheses]
