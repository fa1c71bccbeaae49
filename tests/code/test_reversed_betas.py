"""code.adam_betas_reversed: Adam's betas written with the first above the second."""

from __future__ import annotations

from code_helpers import ROOT, file_findings, findings, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.adam_betas_reversed"
CASE = (
    ROOT
    / "benchmarks/first_sight/batch-32"
    / "r32a-pytorch-building-load-regressor-loss-explodes-repro"
)


def test_fires_on_the_reproduction_that_keeps_its_settings_in_a_dict_call() -> None:
    """batch-32: `OPTIM = dict(lr=1e-3, betas=(0.999, 0.9), ...)` unpacked into AdamW."""
    found = file_findings(CASE / "train.py")[ID]
    assert (found.values["beta1"], found.values["beta2"]) == (0.999, 0.9)


def test_fires_on_a_keyword_a_dict_literal_and_a_named_pair() -> None:
    assert fires("opt = torch.optim.Adam(model.parameters(), betas=(0.98, 0.9))", ID)
    assert fires('cfg = {"lr": 3e-4, "betas": [0.999, 0.95]}', ID)
    assert fires("BETAS = (0.99, 0.9)\nopt = AdamW(params, betas=BETAS)", ID)


def test_quiet_on_ordered_or_equal_betas_and_on_pairs_it_cannot_read() -> None:
    for betas in ("(0.9, 0.999)", "(0.9, 0.95)", "(0.0, 0.99)", "(0.9, 0.9)", "cfg.betas"):
        assert not fires(f"opt = torch.optim.AdamW(params, betas={betas})", ID), betas
    assert not findings("opt = torch.optim.AdamW(params, betas=(b1, b2))")


def test_the_reproduction_is_answered_with_the_reversed_betas_page() -> None:
    """Before the detector its top answer was a NaN page for sqrt at 0 (judged wrong)."""
    assert diagnose_folder(CASE).hypotheses[0].id == "adam-betas-reversed"
