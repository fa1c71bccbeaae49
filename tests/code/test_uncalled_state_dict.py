"""code.state_dict_not_called: torch.save given the state_dict method instead of its result."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.state_dict_not_called"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('torch.save(model.state_dict, "best.pt")', True),
        ("torch.save(self.model.state_dict, path)", True),
        ('torch.save(model.state_dict(), "best.pt")', False),
        ('torch.save({"model": model.state_dict()}, "ckpt.pt")', False),
        ("accelerator.save(unwrapped.state_dict(), path)", False),
    ],
)
def test_fires_only_on_the_uncalled_method(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_checkpoint_that_cannot_be_reloaded_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd the weights-only page led (High) with allow-list advice.
    report = diagnose_folder(CASES / "repro-state-dict-saved-uncalled")
    assert report.hypotheses[0].id == "state-dict-method-saved-uncalled"
