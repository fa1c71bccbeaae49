"""code.grads_cleared_before_step: zero_grad() between backward() and the optimizer step."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.grads_cleared_before_step"
LOOP = "for x, y in loader:\n    loss = crit(model(x), y)\n{body}"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("    loss.backward()\n    optimizer.zero_grad()\n    optimizer.step()", True),
        ("    loss.backward()\n    model.zero_grad()\n    opt.step()", True),
        ("    optimizer.zero_grad()\n    loss.backward()\n    optimizer.step()", False),
        ("    loss.backward()\n    optimizer.step()\n    optimizer.zero_grad()", False),
        # accumulation: the reset follows the step inside the same branch
        (
            "    loss.backward()\n    if step % 4 == 0:\n        optimizer.step()\n"
            "        optimizer.zero_grad()",
            False,
        ),
    ],
)
def test_fires_only_when_the_reset_sits_between_backward_and_step(
    body: str, expected: bool
) -> None:
    assert fires(LOOP.format(body=body), ID) is expected


def test_the_spam_classifier_whose_loss_never_moves_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd "no trainable parameters" (Low) led.
    report = diagnose_folder(CASES / "repro-zero-grad-between-backward-and-step")
    assert report.hypotheses[0].id == "grads-zeroed-between-backward-and-step"
