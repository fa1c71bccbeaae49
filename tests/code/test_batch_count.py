"""code.count_over_batches: a per-sample count divided by the number of batches."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.count_over_batches"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "correct = 0\nfor x, y in val_loader:\n"
            "    correct += (model(x).argmax(1) == y).sum().item()\n"
            "acc = 100.0 * correct / len(val_loader)",
            True,
        ),
        ("for x, y in loader:\n    hits += pred.eq(y).sum()\nprint(hits / len(loader))", True),
        (
            "correct = 0\nfor x, y in val_loader:\n"
            "    correct += (model(x).argmax(1) == y).sum().item()\n"
            "acc = correct / len(val_loader.dataset)",
            False,
        ),
        (
            "for x, y in loader:\n    total_loss += loss.item()\nprint(total_loss / len(loader))",
            False,
        ),
        (
            "for x, y in loader:\n    acc += (p == y).float().mean()\nprint(acc / len(loader))",
            False,
        ),
    ],
)
def test_fires_on_a_count_over_len_loader(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_validation_accuracy_of_5571_percent_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd the tool had no hypothesis for it.
    report = diagnose_folder(CASES / "repro-accuracy-over-batch-count")
    assert report.hypotheses[0].id == "accuracy-divided-by-batch-count"
