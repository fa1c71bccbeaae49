"""code.normalize_across_batch: embeddings normalised across the batch beside per-row code."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

ID = "code.normalize_across_batch"
BATCH_29 = ROOT / "benchmarks/first_sight/batch-29"
CASE = BATCH_29 / "r29a-pytorch-two-tower-serving-recall-far-below-training-repro"
PER_ROW = "logits = F.normalize(q, dim=-1) @ F.normalize(d, dim=-1).T\n"


@pytest.mark.parametrize(
    ("code", "fired"),
    [
        (PER_ROW + "index = F.normalize(encoder(docs), dim=0)", True),
        (PER_ROW + "index = F.normalize(encoder(docs), 2, 0)", True),
        # the functional default (dim=1) is per row too
        ("a = F.normalize(q)\nb = F.normalize(d, dim=0)", True),
        # per row everywhere; dim=0 alone (a single vector) has nothing to disagree with
        (PER_ROW + "index = F.normalize(encoder(docs), dim=1)", False),
        ("v = F.normalize(vector, dim=0)", False),
    ],
)
def test_fires_on_batch_axis_normalisation_beside_per_row(code: str, fired: bool) -> None:
    assert fires(code, ID) is fired


def test_the_two_tower_reproduction_is_found() -> None:
    """batch-29: trained with dim=-1, indexed and searched with dim=0; recall@10 0.729."""
    assert ":46:" in file_findings(CASE / "train.py")[ID].summary
