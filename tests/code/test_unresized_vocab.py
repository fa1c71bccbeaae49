"""code.tokens_added_without_resize: tokens added, embeddings never resized."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_11, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.tokens_added_without_resize"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('tokenizer.add_special_tokens({"pad_token": "<pad>"})', True),
        ('tokenizer.add_tokens(["<user>", "<bot>"])', True),
        (
            'tokenizer.add_special_tokens({"pad_token": "<pad>"})\n'
            "model.resize_token_embeddings(len(tokenizer))",
            False,
        ),
        ("tokenizer.pad_token = tokenizer.eos_token", False),
    ],
)
def test_fires_when_no_resize_follows(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_chat_finetune_index_error_gets_its_page() -> None:
    # batch-11 reproduction, judged family at 8a38e4c (the generic out-of-range index page led)
    report = diagnose_folder(BATCH_11 / "r2-transformers-chat-finetune-indexerror-repro")
    assert report.hypotheses[0].id == "tokens-added-without-embedding-resize"
