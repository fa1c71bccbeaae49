"""code.slice_view_retained: views of a large tensor kept in a list or saved."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

ID = "code.slice_view_retained"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("for a in starts:\n    windows.append(sig[:, a:a + 3000])", True),
        ("torch.save(emb[:, :128], 'part.pt')", True),
        # copied slices hold only themselves
        ("for a in starts:\n    windows.append(sig[:, a:a + 3000].clone())", False),
        ("torch.save(emb[:, :128].clone(), 'part.pt')", False),
        # a one-dimensional slice may be a list's copy
        ("for i in range(0, n, 512):\n    chunks.append(ids[i:i + 512])", False),
        # a single append outside any loop
        ("parts.append(x[:, :10])", False),
    ],
)
def test_fires_only_on_uncopied_views(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_sleep_windows_are_found() -> None:
    script = BATCH_12 / "r2-pytorch-eeg-sleep-dataset-build-cannot-allocate-repro" / "train.py"
    assert ID in file_findings(script)
