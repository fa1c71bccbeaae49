"""code.jacobian_over_batch: a Jacobian taken over a whole batch in one call."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.jacobian_over_batch"
CASE = ROOT / "benchmarks/first_sight/batch-28/r28a-pytorch-attribution-export-memoryerror-repro"


@pytest.mark.parametrize(
    ("code", "fired"),
    [
        ("J = torch.autograd.functional.jacobian(model, X_val)", True),
        ("J = jacrev(net)(images)", True),
        ("J = torch.func.jacfwd(self.model)(batch)", True),
        # one Jacobian per sample: mapped, looped, or on one indexed row
        ("J = vmap(jacrev(f))(X)", False),
        ("for x in X:\n    rows.append(jacobian(model, x))", False),
        ("J = jacobian(model, X[i])", False),
        # the batch's output reduced first: per-sample gradients by design
        ("J = jacobian(lambda x: model(x).sum(0), X)", False),
        ("def summed(x):\n    return model(x).sum(0)\nJ = jacobian(summed, X)", False),
    ],
)
def test_fires_on_a_jacobian_over_the_whole_batch(code: str, fired: bool) -> None:
    assert fires(code, ID) is fired


def test_the_attribution_reproduction_is_found() -> None:
    """batch-28: jacobian(model, X_val) over 6,000 validation rows ended in a MemoryError."""
    assert "X_val" in file_findings(CASE / "train.py")[ID].summary


def test_its_page_leads_the_reproduction_it_was_judged_wrong_on() -> None:
    """First sight at 8a4665ed and the dev run at ee237083 led with an embedding-size page."""
    assert diagnose_folder(CASE).hypotheses[0].id == "jacobian-over-whole-batch"
