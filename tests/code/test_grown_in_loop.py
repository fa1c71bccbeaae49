"""code.array_grown_in_loop: an accumulator rebuilt by a copying call once per iteration."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.array_grown_in_loop"
CASE = ROOT / "benchmarks/first_sight/batch-25/r25E-tokenizers-packing-step-slows-to-crawl-repro"

PACK = """
stream = np.array([], dtype=np.int64)
for doc in docs:
    stream = np.append(stream, tokenizer(doc))
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (PACK, True),
        (PACK.replace("np.append(stream, tokenizer(doc))", "np.concatenate([stream, ids])"), True),
        ("preds = []\nfor b in loader:\n    preds = torch.cat([preds, model(b)])\n", True),
        ("df = None\nfor row in rows:\n    df = pd.concat([df, row])\n", True),
        # once after the loop: the fix
        (
            "parts = []\nfor b in loader:\n    parts.append(model(b))\nout = torch.cat(parts)\n",
            False,
        ),
        # batch-30's news-classifier data generator: each pass binds `body` afresh, then joins
        # one more piece to it once; nothing carries over to the next pass
        (
            "for _ in range(n):\n    body = base[idx]\n    body = np.concatenate([body, extra])\n",
            False,
        ),
        # bound before the loop and joined on every pass: it grows
        (
            "body = base[idx]\nfor x in xs:\n    y = f(x)\n    body = np.concatenate([body, y])\n",
            True,
        ),
        # a list of tensors joined in place of itself: no accumulation
        ("for batch in loader:\n    uids = torch.cat(uids)\n", False),
        # greedy decoding: one token per step along the sequence axis
        ("for _ in range(20):\n    ids = torch.cat([ids, nxt], dim=1)\n", False),
        # not in a loop
        ("stream = np.append(stream, ids)\n", False),
    ],
)
def test_fires_on_an_accumulator_copied_inside_a_loop(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_packing_step_that_slowed_to_a_crawl_is_found() -> None:
    """batch-25: docs/s fell from 2,162 to 212 as the packed stream grew."""
    found = file_findings(CASE / "train.py")[ID]
    assert "np.append" in found.summary


def test_its_page_leads_the_reproduction_it_was_judged_wrong_on() -> None:
    """First sight at ee315fe8 (batch-25) judged this reproduction's top answer not right."""
    assert diagnose_folder(CASE).hypotheses[0].id == "array-grown-by-copy-in-loop"
