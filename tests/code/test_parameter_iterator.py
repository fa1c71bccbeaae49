"""code.parameters_iterator_reused: a parameters() iterator consumed by two calls."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.parameters_iterator_reused"
CASE = ROOT / "benchmarks/first_sight/batch-25/r25E-pytorch-char-lstm-lm-loss-blows-up-repro"

LOOP = """
params = filter(lambda p: p.requires_grad, model.parameters())
optimizer = torch.optim.SGD(params, lr=20)
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 0.25)
    optimizer.step()
"""


MATERIALISED = LOOP.replace(
    "filter(lambda p: p.requires_grad, model.parameters())",
    "list(filter(lambda p: p.requires_grad, model.parameters()))",
)


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (LOOP, True),
        (
            LOOP.replace(
                "filter(lambda p: p.requires_grad, model.parameters())", "model.parameters()"
            ),
            True,
        ),
        (
            LOOP.replace(
                "filter(lambda p: p.requires_grad, model.parameters())",
                "(p for p in model.parameters())",
            ),
            True,
        ),
        (MATERIALISED, False),  # a list can be read twice
        (LOOP.replace("    torch.nn.utils.clip_grad_norm_(params, 0.25)\n", ""), False),
        (LOOP.replace("clip_grad_norm_(params,", "clip_grad_norm_(model.parameters(),"), False),
    ],
)
def test_fires_when_a_parameter_iterator_has_two_consumers(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_a_parameter_count_before_the_optimizer_is_a_consumer_too() -> None:
    source = """
params = model.parameters()
print(sum(p.numel() for p in params))
optimizer = torch.optim.Adam(params)
"""
    assert "torch.optim.Adam(params)" in findings(source)[ID].summary


def test_the_lstm_whose_clipping_reported_grad_norm_zero_is_found() -> None:
    """batch-25: the optimizer spent the filter() iterator, clip_grad_norm_ clipped nothing and
    logged grad_norm 0.000 while the loss climbed to ~1000 at lr 20."""
    found = file_findings(CASE / "train.py")[ID]
    assert "clip_grad_norm_" in found.summary


def test_its_page_leads_the_reproduction_it_was_judged_wrong_on() -> None:
    """First sight at ee315fe8 (batch-25) judged this reproduction's top answer not right."""
    assert diagnose_folder(CASE).hypotheses[0].id == "parameters-iterator-consumed-twice"
