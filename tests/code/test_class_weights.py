"""code.class_weights_by_frequency and code.class_weight_divides_by_count."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

FREQUENCY = "code.class_weights_by_frequency"
ZERO_COUNT = "code.class_weight_divides_by_count"


@pytest.mark.parametrize(
    ("weights", "expected"),
    [
        ("w = torch.tensor(counts / counts.sum())", True),
        ("w = counts / len(labels)\nw = counts / sum(counts)", True),
        # inverse frequency: the intended rebalancing
        ("w = torch.tensor(counts.sum() / counts)", False),
        ("w = 1.0 / (counts / counts.sum())", False),
    ],
)
def test_frequency_weights_fire(weights: str, expected: bool) -> None:
    source = f"counts = np.bincount(y)\n{weights}\nloss = F.cross_entropy(out, y, weight=w)"
    assert fires(source, FREQUENCY) is expected


@pytest.mark.parametrize(
    ("ratio", "expected"),
    [
        ("neg / pos", True),
        ("neg / pos.clamp(min=1)", False),
        ("neg / torch.clamp(pos, min=1)", False),
    ],
)
def test_a_ratio_over_a_bare_count_fires(ratio: str, expected: bool) -> None:
    source = (
        f"pos = Y.sum(0)\nneg = len(Y) - pos\npw = {ratio}\n"
        "loss_fn = nn.BCEWithLogitsLoss(pos_weight=pw)"
    )
    assert fires(source, ZERO_COUNT) is expected


def test_a_ratio_over_a_constant_is_quiet() -> None:
    assert not fires("pw = neg / scale\nloss_fn = nn.BCEWithLogitsLoss(pos_weight=pw)", ZERO_COUNT)


def test_the_batch_12_scripts_are_found() -> None:
    toxic = BATCH_12 / "r1-transformers-trainer-toxic-flagger-never-flags" / "train.py"
    tagger = BATCH_12 / "r1-transformers-ticket-tagger-trainer-loss-nan" / "train.py"
    assert FREQUENCY in file_findings(toxic)
    assert file_findings(tagger)[ZERO_COUNT].values["counts"] == "pos"
