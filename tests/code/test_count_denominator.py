"""code.division_by_unfloored_count: a loss normalised by a batch count that can be zero."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.division_by_unfloored_count"
CASE = (
    ROOT / "benchmarks/first_sight/batch-27/r27a-pytorch-fault-detector-loss-nan-second-epoch-repro"
)

FOCAL = """
def focal_loss(logits, targets, gamma=2.0):
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    loss = ce * (1 - p) ** gamma
    num_pos = targets.sum()
    return loss.sum() / num_pos
"""


@pytest.mark.parametrize(
    ("change", "fires"),
    [
        (("", ""), True),
        (("num_pos = targets.sum()", "num_pos = (targets == 1).float().sum()"), True),
        (("return loss.sum() / num_pos", "return loss.sum() / targets.sum()"), True),
        # a floor where the count is bound, or at the division
        (("num_pos = targets.sum()", "num_pos = targets.sum().clamp(min=1.0)"), False),
        (("num_pos = targets.sum()", "num_pos = max(targets.sum(), 1)"), False),
        (("return loss.sum() / num_pos", "return loss.sum() / (num_pos + 1e-6)"), False),
        (
            (
                "    return loss.sum() / num_pos",
                "    num_pos = num_pos.clamp(min=1)\n    return loss.sum() / num_pos",
            ),
            False,
        ),
        # a sum of weights is a normalisation, not a count (batch-24's weighted loss)
        (("return loss.sum() / num_pos", "return (w * loss).sum() / w.sum()"), False),
        # a fixed denominator is no count of the batch
        (("num_pos = targets.sum()", "num_pos = targets.shape[0]"), False),
        # outside a loss a ratio of sums is a metric (precision, recall)
        (("def focal_loss(", "def precision("), False),
    ],
)
def test_fires_on_a_loss_divided_by_a_count_with_no_floor(
    change: tuple[str, str], fires: bool
) -> None:
    assert (ID in findings(FOCAL.replace(*change))) is fires


@pytest.mark.parametrize(
    ("line", "fires"),
    [
        ("pooled = (h * m).sum(1) / m.sum(1)", True),
        ("pooled = torch.sum(h * attention_mask, 1) / torch.sum(attention_mask, 1)", True),
        ("pooled = (h * mask).sum(1) / mask.float().sum(-1, keepdim=True)", True),
        ("pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)", False),
        ("pooled = (h * m).sum(1) / torch.clamp(m.sum(1), min=1e-9)", False),
        # a sum that is no mask's, outside a loss: a normalisation, not a count
        ("weights = scores / scores.sum(-1, keepdim=True)", False),
    ],
)
def test_a_masked_mean_anywhere_is_read(line: str, fires: bool) -> None:
    assert (ID in findings(f"def forward(self, h, m):\n    {line}\n")) is fires


def test_the_reproduction_whose_loss_turns_nan_in_its_second_epoch_is_found() -> None:
    """batch-27: a focal loss divided by the number of fault frames in the batch; the first batch
    with no fault frame gave inf, then NaN from step ~1250 on."""
    found = file_findings(CASE / "train.py")[ID]
    assert found.values["denominator"] == "num_pos"


def test_its_page_leads_the_reproduction_it_was_judged_wrong_on() -> None:
    """First sight at e0b33e66 (batch-27) answered the generic non-finite-loss page first."""
    assert diagnose_folder(CASE).hypotheses[0].id == "masked-mean-zero-denominator"
