"""A `keywords_only` page is named only where its keyword begins a word of the description."""

from __future__ import annotations

import pytest

from trainwreck.engine.candidates import _starts_a_word
from trainwreck.kb import load
from trainwreck.pipeline import diagnose


@pytest.mark.parametrize(
    ("keyword", "said", "named"),
    [
        ("hang", "training hangs at step 3", True),
        ("hang", "nothing changed in the code", False),  # 152 such hits in the first-sight texts
        ("acos", "python 3.11 on macos sonoma", False),
        ("d_model", "it fails in load_model", False),
        # a snake_case part begins a word; the end stays open for a stem's inflections
        ("warmup", "get_schedule_with_warmup(optimizer)", True),
        ("overfit", "the model is overfitting", True),
        # a keyword that starts with a symbol is a plain substring
        ("+cpu", "torch 2.1.0+cpu", True),
    ],
)
def test_a_keyword_is_named_where_a_word_begins(keyword: str, said: str, named: bool) -> None:
    assert _starts_a_word(keyword, said) is named


def test_a_mac_user_is_not_read_as_naming_acos() -> None:
    """ "macOS" holds "acos": the unclamped-arccos NaN page led a Mac user's NaN description
    on that substring alone (three first-sight descriptions name macOS)."""
    kb = load()
    said = "Training a small CNN on macOS Sonoma (Apple M2): after a few epochs the loss is NaN."
    report = diagnose(symptoms=said, kb=kb)
    assert "acos-cosine-not-clamped" not in [h.id for h in report.hypotheses]
    named = diagnose(symptoms="loss is NaN after I added torch.acos to the angle loss", kb=kb)
    assert named.hypotheses[0].id == "acos-cosine-not-clamped"
