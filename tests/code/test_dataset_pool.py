"""code.pool_in_dataset: a process pool on a dataset that DataLoader workers fork."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

SOURCE = """
class Tiles(Dataset):
    def __init__(self):
        self.pool = multiprocessing.Pool(4)
    def __getitem__(self, i):
        return self.pool.map(crop, [i] * 4)
loader = DataLoader(Tiles(), batch_size=8, num_workers={workers})
"""
ID = "code.pool_in_dataset"


@pytest.mark.parametrize(
    ("workers", "expected"), [("2", True), ("args.workers", True), ("0", False)]
)
def test_fires_only_when_workers_copy_the_pool(workers: str, expected: bool) -> None:
    assert fires(SOURCE.format(workers=workers), ID) is expected


def test_a_pool_outside_a_dataset_is_quiet() -> None:
    source = "pool = Pool(4)\nloader = DataLoader(ds, num_workers=4)"
    assert not fires(source, ID)


def test_the_tile_dataset_is_found() -> None:
    script = BATCH_12 / "r2-pytorch-tile-cnn-no-progress-epoch0-repro" / "train.py"
    assert ID in file_findings(script)
