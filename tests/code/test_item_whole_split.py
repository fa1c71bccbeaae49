"""code.item_processes_whole_split: __getitem__ tokenizes the whole stored list per item."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

ID = "code.item_processes_whole_split"
GETITEM = """
class Texts(Dataset):
    def __getitem__(self, idx):
        {body}
        return item
"""


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "enc = self.tokenizer(self.texts, truncation=True)\n"
            "        item = {k: v[idx] for k, v in enc.items()}",
            True,
        ),
        ("item = self.tokenizer(self.texts[idx], truncation=True)", False),
        # the whole list processed, but not indexed by the item: a fixed prompt, say
        ("item = self.tokenizer(self.prompt)", False),
    ],
)
def test_fires_only_on_the_whole_list_per_item(body: str, expected: bool) -> None:
    assert fires(GETITEM.format(body=body), ID) is expected


def test_the_headline_dataset_is_found() -> None:
    folder = BATCH_12 / "r2-transformers-headline-bert-trainer-one-step-per-second-repro"
    assert ID in file_findings(folder / "train.py")
