"""code.weight_rebound_by_update: a manual update that rebinds the weight's name."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.weight_rebound_by_update"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("w = w - lr * w.grad", True),
        ("self.w = self.w - 0.01 * self.w.grad", True),
        ("with torch.no_grad():\n    w -= lr * w.grad", False),
        ("w.data = w.data - lr * w.grad.data", False),  # updates the leaf's data in place
        ("v = w - lr * w.grad", False),  # a copy; w itself stays the leaf
    ],
)
def test_fires_only_when_the_name_is_rebound(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_tutorial_regression_that_hits_nonetype_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd only the ungrounded crash fallback answered.
    report = diagnose_folder(CASES / "repro-manual-sgd-rebinds-weight")
    assert report.hypotheses[0].id == "manual-update-rebinds-weight-tensor"
