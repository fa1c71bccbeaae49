"""code.state_dict_loaded_leniently: a strict=False load whose unmatched keys go unread."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.state_dict_loaded_leniently"
CASE = (
    ROOT / "benchmarks/first_sight/batch-7/torch-load-state-dict-strict-false-module-prefix-repro"
)


def test_fires_on_the_first_sight_repro_whose_accuracy_was_at_chance() -> None:
    """A DataParallel checkpoint ("module." keys) loaded into the bare model with strict=False:
    judged family at ff53c5d (a classifier-head page led)."""
    found = file_findings(CASE / "repro.py")[ID]
    assert found.values["line"] == 34
    assert found.values["module"] == "serving_model"


def test_the_page_leads_on_that_case() -> None:
    top = diagnose_folder(CASE).hypotheses[0]
    assert top.id == "state-dict-strict-false-loads-nothing"


@pytest.mark.parametrize(
    "load",
    [
        "model.load_state_dict(state, strict=False)",
        "model.load_state_dict(state, False)",
        "self.backbone.load_state_dict(torch.load(path), strict=False)",
    ],
)
def test_fires_on_a_lenient_load_whose_result_is_dropped(load: str) -> None:
    assert fires(f"model = Net()\n{load}\n", ID), load


@pytest.mark.parametrize(
    "load",
    [
        "model.load_state_dict(state)",  # strict: a mismatch raises
        "model.load_state_dict(state, strict=True)",
        "info = model.load_state_dict(state, strict=False)",  # the keys are kept to check
        "missing, unexpected = model.load_state_dict(state, strict=False)",
        "print(model.load_state_dict(state, strict=False))",
    ],
)
def test_quiet_when_the_load_is_strict_or_its_result_is_used(load: str) -> None:
    assert not fires(f"model = Net()\n{load}\n", ID), load
