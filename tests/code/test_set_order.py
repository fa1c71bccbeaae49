"""code.ids_from_set_order: ids handed out in a set's (hash-seeded) iteration order."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

ID = "code.ids_from_set_order"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("ids = {w: i for i, w in enumerate(set(words))}", True),
        ("labels = list(set(df.label))\ny = [labels.index(v) for v in df.label]", True),
        (
            "def vocab(texts):\n    words = set(w for t in texts for w in t)\n    v = {}\n"
            "    for w in words:\n        v[w] = len(v)\n    return v",
            True,
        ),
        ("label2id = dict(zip(set(names), range(10)))", True),
        # a fixed order
        ("ids = {w: i for i, w in enumerate(sorted(set(words)))}", False),
        ("ids = {w: i for i, w in enumerate(words)}", False),
        # keyed by the set's items but numbered by something that is not a position
        ("for c in set(labels):\n    counts[c] = labels.count(c)", False),
    ],
)
def test_fires_only_on_positions_from_a_set(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_a_name_bound_elsewhere_to_a_list_does_not_hide_the_set() -> None:
    # the review classifier binds `words` to a list in one function and to a set in another
    script = BATCH_12 / "r1-pytorch-review-classifier-predict-script-random" / "train.py"
    assert ID in file_findings(script)
