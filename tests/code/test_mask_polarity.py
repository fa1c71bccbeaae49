"""code.attention_mask_as_key_padding_mask: a 1-means-attend mask given as a key padding mask."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

ID = "code.attention_mask_as_key_padding_mask"
BATCH_13 = ROOT / "benchmarks" / "first_sight" / "batch-13"


@pytest.mark.parametrize(
    ("mask", "expected"),
    [
        ("attention_mask.bool()", True),
        ("batch['attention_mask']", True),
        ("~attention_mask.bool()", False),
        ("attention_mask == 0", False),
        ("torch.logical_not(attention_mask)", False),
        ("padding_mask", False),
    ],
)
def test_fires_only_on_the_uninverted_mask(mask: str, expected: bool) -> None:
    assert fires(f"h = self.encoder(x, src_key_padding_mask={mask})", ID) is expected


def test_the_ticket_encoder_is_found() -> None:
    script = BATCH_13 / "r1-transformers-trainer-encoder-eval-loss-nan-repro" / "train.py"
    assert file_findings(script)[ID].values["keyword"] == "src_key_padding_mask"
