"""code.optimizer_rebuilt_in_loop: an optimizer or scheduler built inside the training loop."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.optimizer_rebuilt_in_loop"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "for x, y in loader:\n    opt = torch.optim.Adam(model.parameters(), lr=1e-3)\n"
            "    loss = crit(model(x), y)\n    opt.zero_grad()\n    loss.backward()\n"
            "    opt.step()",
            True,
        ),
        (
            "for epoch in range(10):\n    sched = StepLR(opt, 5)\n    for x, y in loader:\n"
            "        loss.backward()",
            True,
        ),
        (
            "opt = torch.optim.Adam(model.parameters(), lr=1e-3)\nfor x, y in loader:\n"
            "    loss.backward()\n    opt.step()",
            False,
        ),
        (
            "for lr in [1e-3, 1e-4]:\n    opt = torch.optim.SGD(model.parameters(), lr=lr)\n"
            "    for epoch in range(3):\n        for x, y in loader:\n            loss.backward()",
            False,
        ),
        (
            "for fold in range(5):\n    opt = AdamW(model.parameters())\n"
            "    for x, y in loader:\n        loss.backward()",
            False,
        ),
    ],
)
def test_fires_on_optimizers_built_per_step_or_epoch(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_regressor_that_rebuilds_adam_every_batch_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd the tool had no hypothesis for it.
    report = diagnose_folder(CASES / "repro-optimizer-rebuilt-each-step")
    assert report.hypotheses[0].id == "optimizer-recreated-in-training-loop"
