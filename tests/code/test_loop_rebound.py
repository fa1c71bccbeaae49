"""code.loop_variable_rebound: an update assigned to the name a loop over tensors gave."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_34, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.loop_variable_rebound"
PAIRS = "for e, p in zip(ema.parameters(), model.parameters()):"

EMA_REBOUND = """
for e, p in zip(ema.parameters(), model.parameters()):
    e = decay * e + (1 - decay) * p
"""
STATE_REBOUND = """
for name, tensor in model.state_dict().items():
    tensor = tensor.half()
"""


@pytest.mark.parametrize("source", [EMA_REBOUND, STATE_REBOUND])
def test_fires_on_an_update_given_only_to_the_loop_name(source: str) -> None:
    assert fires(source, ID)


@pytest.mark.parametrize(
    "source",
    [
        # in place: the module's tensor changes
        f"{PAIRS}\n    e.mul_(d).add_(p, alpha=1 - d)",
        f"{PAIRS}\n    e.copy_(d * e + (1 - d) * p)",
        # the rebound value is used afterwards in the same pass
        "for k, v in sd.state_dict().items():\n    v = v.float()\n    out[k] = v",
        # a loop over plain numbers, not a module's tensors
        "for x in values:\n    x = x * 2",
        # a fresh name, not the loop's
        f"{PAIRS}\n    new = d * e + (1 - d) * p",
    ],
)
def test_stays_quiet_when_the_tensor_itself_changes_or_the_value_is_kept(source: str) -> None:
    assert not fires(source, ID)


def test_the_ema_reproduction_gets_its_page() -> None:
    # batch-34's EMA reproduction: at ada73364 the top answer was a dropout-in-train-mode page.
    folder = BATCH_34 / "r34a-pytorch-ema-model-validation-accuracy-stuck-at-chance-repro"
    report = diagnose_folder(folder)
    assert report.hypotheses[0].id == "loop-variable-rebound-tensor-update-lost"
