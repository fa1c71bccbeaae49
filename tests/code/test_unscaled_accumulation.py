"""code.accumulation_loss_not_divided: hand-written accumulation with an undivided loss."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.accumulation_loss_not_divided"
LOOP = (
    "for i, (x, y) in enumerate(loader):\n"
    "{loss}\n"
    "{backward}\n"
    "    if (i + 1) % accum == 0:\n"
    "        optimizer.step()\n"
    "        optimizer.zero_grad()"
)


@pytest.mark.parametrize(
    ("loss", "backward", "expected"),
    [
        ("    loss = crit(model(x), y)", "    loss.backward()", True),
        ("    loss = crit(model(x), y)", "    accelerator.backward(loss)", True),
        ("    loss = crit(model(x), y) / accum", "    loss.backward()", False),
        ("    loss = crit(model(x), y)\n    loss = loss / accum", "    loss.backward()", False),
        ("    loss = crit(model(x), y)", "    (loss / accum).backward()", False),
        ("    loss = crit(model(x), y)", "    scaler.scale(loss / accum).backward()", False),
    ],
)
def test_fires_only_when_no_loss_is_divided(loss: str, backward: str, expected: bool) -> None:
    assert fires(LOOP.format(loss=loss, backward=backward), ID) is expected


def test_steps_every_batch_or_under_accelerate_accumulate_stay_quiet() -> None:
    every = "for x, y in loader:\n    loss = crit(model(x), y)\n    loss.backward()\n    opt.step()"
    assert not fires(every, ID)
    managed = (
        "for i, (x, y) in enumerate(loader):\n    with accelerator.accumulate(model):\n"
        "        loss = crit(model(x), y)\n        accelerator.backward(loss)\n"
        "        if i % 4 == 0:\n            optimizer.step()"
    )
    assert not fires(managed, ID)


def test_the_regressor_that_goes_nan_under_accumulation_gets_its_page() -> None:
    # A CPU reproduction written after batch-11's ECG reproduction, where this page ranks second
    # behind a NaN page that the stated "accuracy at chance" pulls up.
    report = diagnose_folder(CASES / "repro-manual-accumulation-undivided")
    assert report.hypotheses[0].id == "manual-accumulation-loss-not-divided"
