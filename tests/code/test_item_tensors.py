"""code.tokenizer_tensors_in_getitem: one text tokenized to (1, seq_len) tensors per item."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

ID = "code.tokenizer_tensors_in_getitem"

GETITEM = """
class Texts(Dataset):
    def __getitem__(self, i):
        enc = self.tok(self.texts[i], truncation=True, padding="max_length", {kwargs})
        {body}
        return item
"""


@pytest.mark.parametrize(
    ("kwargs", "body", "expected"),
    [
        ('return_tensors="pt"', "item = {k: v for k, v in enc.items()}", True),
        ('return_tensors="np"', "item = dict(enc)", True),
        # the leading dimension dropped
        ('return_tensors="pt"', "item = {k: v.squeeze(0) for k, v in enc.items()}", False),
        ('return_tensors="pt"', "item = {k: v[0] for k, v in enc.items()}", False),
        ('return_tensors="pt"', "item = {k: v.flatten() for k, v in enc.items()}", False),
        # plain lists, padded by the collator
        ("max_length=64", "item = dict(enc)", False),
    ],
)
def test_fires_only_on_batch_tensors_returned_whole(kwargs: str, body: str, expected: bool) -> None:
    assert fires(GETITEM.format(kwargs=kwargs, body=body), ID) is expected


def test_outside_getitem_batch_tensors_are_normal() -> None:
    assert not fires('batch = tok(texts, padding=True, return_tensors="pt")', ID)


def test_the_headline_dataset_is_found() -> None:
    script = BATCH_12 / "r3-transformers-trainer-headline-topic-bert-valueerror-unpack-repro"
    assert file_findings(script / "train.py")[ID].values["line"] == 60  # the tokenizer call


def test_a_batch_indexed_by_the_item_loses_its_leading_dimension() -> None:
    # the whole list tokenized to (N, L) tensors, then row idx taken: one dimension per field
    body = "item = {k: v[i] for k, v in enc.items()}"
    source = GETITEM.replace("self.texts[i]", "self.texts").format(
        kwargs='return_tensors="pt"', body=body
    )
    assert not fires(source, ID)
