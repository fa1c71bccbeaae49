"""code.padding_to_max_length: every batch padded to a fixed maximum length."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_15, file_findings, fires

ID = "code.padding_to_max_length"


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ('tokenizer(texts, padding="max_length", truncation=True, max_length=512)', True),
        ('tokenizer(texts, padding="max_length", truncation=True)', True),  # the model's max
        ("tokenizer.encode_plus(text, pad_to_max_length=True, max_length=256)", True),
        ('tokenizer(texts, padding="max_length", max_length=128)', False),  # under 256
        ("tokenizer(texts, padding=True, truncation=True, max_length=512)", False),  # dynamic
        ('processor(images, padding="max_length", max_length=512)', False),  # not a tokenizer
    ],
)
def test_fires_on_fixed_padding_of_256_tokens_or_more(call: str, expected: bool) -> None:
    assert fires(f"enc = {call}", ID) is expected


def test_fires_on_the_batch_15_reproduction() -> None:
    """r15E: short reviews padded to 512 tokens in the collate function."""
    found = file_findings(BATCH_15 / "r15E-transformers-bert-training-very-slow-repro" / "train.py")
    assert found[ID].values["length"] == "512 tokens"
