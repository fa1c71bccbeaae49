"""code.dataset_item_modified_in_place: __getitem__ augments a view of the stored sample."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

GETITEM = """
class Windows(Dataset):
    def __getitem__(self, i):
        x = self.x[i]
        {body}
        return x, self.y[i]
"""
ID = "code.dataset_item_modified_in_place"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("x += 0.05 * torch.randn_like(x)", True),
        ("x *= np.random.uniform(0.8, 1.2)", True),
        ("x[torch.rand(x.shape) < 0.1] = 0", True),
        ("x.mul_(scale)", True),
        # copied first, or augmented out of place
        ("x = x.clone()\n        x += 0.05 * torch.randn_like(x)", False),
        ("x = x + 0.05 * torch.randn_like(x)", False),
        # a deterministic in-place offset on what may be a number
        ("x -= 1", False),
    ],
)
def test_fires_only_on_the_stored_view_changed(body: str, expected: bool) -> None:
    assert fires(GETITEM.format(body=body), ID) is expected


def test_the_imu_windows_are_found() -> None:
    script = BATCH_12 / "r3-pytorch-imu-cnn-train-loss-rises-each-epoch-repro" / "train.py"
    assert ID in file_findings(script)
