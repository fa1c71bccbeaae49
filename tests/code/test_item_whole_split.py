"""code.item_processes_whole_split: __getitem__ tokenizes the whole stored list per item."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, BATCH_15, BATCH_16, file_findings, fires

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


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("item = (self.X[idx] - self.X.mean(axis=0)) / self.X.std(axis=0)", True),
        ("item = (self.X[idx] - np.mean(self.X, axis=0)) / np.std(self.X, axis=0)", True),
        ("item = self.df.iloc[idx] / self.df.max()", False),  # iloc: not indexed by idx directly
        # statistics kept from __init__: computed once
        ("item = (self.X[idx] - self.mean) / self.std", False),
        # a statistic of the row itself
        ("row = self.X[idx]\n        item = (row - row.mean()) / row.std()", False),
        # a statistic of another stored array than the one the item comes from
        ("item = self.X[idx] * self.weights.sum()", False),
    ],
)
def test_fires_on_statistics_recomputed_over_the_stored_array(body: str, expected: bool) -> None:
    assert fires(GETITEM.format(body=body), ID) is expected


def test_the_batch_15_sensor_table_is_found() -> None:
    """r15E: each row standardised with self.X.mean(axis=0) and self.X.std(axis=0) per item."""
    folder = BATCH_15 / "r15E-pytorch-tabular-dataloader-slow-repro"
    found = file_findings(folder / "train.py")[ID]
    assert (found.values["whole"], found.values["line"]) == ("self.X", 30)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("data = np.load(self.features_path)\n        item = data[idx]", True),
        ("frame = pd.read_csv(self.csv)\n        item = frame.values[idx]", True),
        ("frame = pd.read_csv(self.csv)\n        item = frame.iloc[idx]", True),
        ("item = torch.load(self.paths[idx])", False),  # one file per item is the usual layout
        ("data = np.load(self.features_path, mmap_mode='r')\n        item = data[idx]", False),
    ],
)
def test_a_whole_file_read_per_item_fires(body: str, expected: bool) -> None:
    assert fires(GETITEM.format(body=body), ID) == expected


def test_fires_on_the_batch_16_reproduction_that_reloads_its_features() -> None:
    found = file_findings(BATCH_16 / "r16E-pytorch-low-samples-per-sec-repro" / "train.py")[ID]
    assert (found.values["line"], found.values["whole"]) == (46, "self.feat_path")
