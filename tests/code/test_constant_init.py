"""code.constant_weight_init: every layer's weights set to one constant."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.constant_weight_init"
APPLIED = (
    "def init_weights(m):\n    if isinstance(m, nn.Linear):\n{body}\nmodel.apply(init_weights)"
)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("        nn.init.zeros_(m.weight)", True),
        ("        nn.init.constant_(m.weight, 0.01)", True),
        ("        m.weight.data.fill_(0.5)", True),
        ("        nn.init.zeros_(m.bias)", False),  # zero biases are fine
        ("        nn.init.xavier_uniform_(m.weight)", False),
    ],
)
def test_fires_on_constant_weights_applied_to_every_layer(body: str, expected: bool) -> None:
    assert fires(APPLIED.format(body=body), ID) is expected


def test_a_loop_over_modules_counts_and_one_named_layer_does_not() -> None:
    loop = (
        "for m in model.modules():\n    if isinstance(m, nn.Conv2d):\n"
        "        nn.init.zeros_(m.weight)"
    )
    assert fires(loop, ID)
    assert not fires("nn.init.zeros_(model.head.weight)", ID)  # a zero-init output layer


def test_the_credit_model_stuck_at_ln2_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd "no trainable parameters" (Low) led.
    report = diagnose_folder(CASES / "repro-zero-init-all-layers")
    assert report.hypotheses[0].id == "weights-initialized-to-one-constant"
