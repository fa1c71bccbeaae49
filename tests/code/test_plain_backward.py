"""code.plain_backward_under_accumulate: loss.backward() inside accelerator.accumulate()."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.plain_backward_under_accumulate"
BATCH_9 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-9"

LOOP = """
accelerator = Accelerator(gradient_accumulation_steps=8)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for batch in loader:
    with accelerator.accumulate(model):
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (LOOP, True),
        (LOOP.replace("loss.backward()", "accelerator.backward(loss)"), False),
        (LOOP.replace("accelerator.accumulate(model)", "torch.autocast('cpu')"), False),
        (LOOP.replace("loss.backward()", "(loss / 8).backward()"), False),  # averaged by hand
    ],
)
def test_fires_only_for_a_bare_backward_inside_accumulate(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_accumulating_loop_whose_loss_will_not_settle_gets_its_page() -> None:
    # first-sight batch-9 reproduction, judged wrong at 1e00051 (a zero-std feature page led)
    report = diagnose_folder(BATCH_9 / "r3-accelerate-grad-accum-loss-backward-loss-stuck-repro")
    assert report.hypotheses[0].id == "accelerate-plain-backward-under-accumulate"
