"""code.dataset_caches_every_item: an unbounded cache in a dataset's item path."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.dataset_caches_every_item"
BATCH_10 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-10"

DATASET = """
class Leaves(Dataset):
    def __len__(self):
        return len(self.paths)

    @functools.lru_cache(maxsize=None)
    def load(self, idx):
        return decode(self.paths[idx])

    def __getitem__(self, idx):
        return self.load(idx)
"""
DICT_CACHE = """
class Leaves(Dataset):
    def __getitem__(self, idx):
        if idx not in self.cache:
            self.cache[idx] = decode(self.paths[idx])
        return self.cache[idx]
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (DATASET, True),
        (DATASET.replace("maxsize=None", "maxsize=256"), False),
        (DATASET.replace("@functools.lru_cache(maxsize=None)", "@functools.cache"), True),
        (DICT_CACHE, True),
        (DATASET.replace("def __getitem__", "def get"), False),  # not a dataset
    ],
)
def test_fires_only_for_an_unbounded_cache_in_a_dataset(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_image_classifier_whose_ram_grows_until_memoryerror_gets_its_page() -> None:
    # batch-10 reproduction, judged family at 2c91f17 (a host-allocation page led)
    report = diagnose_folder(BATCH_10 / "r2-pytorch-image-classifier-ram-grows-memoryerror-repro")
    assert report.hypotheses[0].id == "dataset-caches-every-item"
