"""code.slice_view_retained: views of a large tensor kept in a list or saved."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, BATCH_36, file_findings, fires

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
        # one row of a batch saved per loop pass, alone or inside a dict
        ("for j in range(len(ids)):\n    torch.save(feats[j], f'{ids[j]}.pt')", True),
        ("for j in range(n):\n    torch.save({'x': feats[j], 'y': 1}, f'{j}.pt')", True),
        # a row copied, or an entry looked up by a key that is no loop variable
        ("for j in range(n):\n    torch.save(feats[j].clone(), f'{j}.pt')", False),
        ("torch.save(states[name], 'best.pt')", False),
    ],
)
def test_fires_only_on_uncopied_views(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_sleep_windows_are_found() -> None:
    script = BATCH_12 / "r2-pytorch-eeg-sleep-dataset-build-cannot-allocate-repro" / "train.py"
    assert ID in file_findings(script)


def test_the_batch_36_feature_cache_is_found() -> None:
    """Each clip saved as `feats[j]` of its batch: every file holds the whole batch."""
    script = BATCH_36 / "r36a-pytorch-feature-cache-load-cannot-allocate-repro" / "train.py"
    assert file_findings(script)[ID].values["view"] == "feats[j]"
