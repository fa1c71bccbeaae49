"""code.decoder_inputs_are_labels: a seq2seq decoder fed the labels themselves, unshifted."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.decoder_inputs_are_labels"
BATCH_28 = ROOT / "benchmarks/first_sight/batch-28"
CASE = BATCH_28 / "r28a-transformers-seq2seq-near-zero-loss-empty-generations-repro"


@pytest.mark.parametrize(
    ("code", "fired"),
    [
        ("out = model(input_ids=x, decoder_input_ids=labels, labels=labels)", True),
        ("out = model(input_ids=x, decoder_input_ids=b['labels'], labels=b['labels'])", True),
        # the labels with -100 put back to padding are still the labels, unshifted
        (
            "dec = labels.masked_fill(labels == -100, pad)\n"
            "out = model(input_ids=x, decoder_input_ids=dec, labels=labels)",
            True,
        ),
        # shifted by hand or by the model's helper: the intended offset
        ("out = model(input_ids=x, decoder_input_ids=y[:, :-1], labels=y[:, 1:])", False),
        (
            "dec = shift_tokens_right(labels, pad, start)\n"
            "out = model(input_ids=x, decoder_input_ids=dec, labels=labels)",
            False,
        ),
        # labels alone: the model shifts them itself
        ("out = model(input_ids=x, labels=labels)", False),
        # decoder inputs of their own, not made from the labels
        ("out = model(input_ids=x, decoder_input_ids=prefix_ids, labels=labels)", False),
    ],
)
def test_fires_on_unshifted_labels_as_decoder_inputs(code: str, fired: bool) -> None:
    assert fires(code, ID) is fired


def test_the_reproduction_whose_generations_are_empty_is_found() -> None:
    """batch-28: BART given decoder_input_ids=labels (pads restored) beside labels=; loss 0.0003,
    generate() returned only EOS and exact match stayed 0.000."""
    assert "dec_in" in file_findings(CASE / "train.py")[ID].summary


def test_its_page_leads_the_reproduction_it_was_judged_wrong_on() -> None:
    """First sight at 8a4665ed (batch-28) led with a decoder right-padding page."""
    assert diagnose_folder(CASE).hypotheses[0].id == "seq2seq-decoder-inputs-are-labels"
