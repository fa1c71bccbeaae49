"""The symptom search keeps the stated class's best pages among its hits.

Real case from first-sight batch-8 (diffusers#2606): the user states a hang ("stuck"),
and the twenty best symptom hits held no hang page, so the top answer was a config
page the gate had demoted for its class. With the stated class's own best pages
retrieved, a hang page leads.
"""

from __future__ import annotations

from pathlib import Path

from trainwreck.curation.cases import diagnose_folder

BATCH = Path(__file__).parent.parent.parent / "benchmarks" / "first_sight" / "batch-8"


def test_a_stated_hang_gets_a_hang_page_at_the_top() -> None:
    diagnosis = diagnose_folder(BATCH / "diffusers-lora-deepspeed-checkpoint-step-stuck-2606")
    assert diagnosis.context.stated is not None
    assert diagnosis.context.stated.category == "hang"
    assert diagnosis.hypotheses[0].category == "hang"
