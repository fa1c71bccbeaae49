"""code.getitem_ignores_index: a Dataset.__getitem__ that never reads its index."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.getitem_ignores_index"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "class D(Dataset):\n    def __getitem__(self, idx):\n"
            "        return self.x[0], self.y[0]",
            True,
        ),
        (
            "class D(Dataset):\n    def __getitem__(self, i):\n        return self.x[self.cursor]",
            True,
        ),
        (
            "class D(Dataset):\n    def __getitem__(self, idx):\n"
            "        return self.x[idx], self.y[idx]",
            False,
        ),
        (
            "class D(Dataset):\n    def __getitem__(self, idx):\n"
            "        j = random.randint(0, 9)\n        return self.x[j]",
            False,
        ),
        (
            "class D(Dataset):\n    def __getitem__(self, idx):\n        raise NotImplementedError",
            False,
        ),
    ],
)
def test_fires_when_the_index_is_never_read(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_window_dataset_that_repeats_one_window_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd the tool had no hypothesis for it.
    report = diagnose_folder(CASES / "repro-getitem-ignores-index")
    assert report.hypotheses[0].id == "dataset-getitem-ignores-index"
