"""code.layer_built_in_forward: a layer with weights constructed inside forward()."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.layer_built_in_forward"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "class Net(nn.Module):\n    def forward(self, x):\n"
            "        return nn.Linear(x.shape[-1], 2)(x)",
            True,
        ),
        (
            "class Net(nn.Module):\n    def forward(self, x):\n"
            "        w = nn.Parameter(torch.randn(4, 4))\n        return x @ w",
            True,
        ),
        ("class Net(nn.Module):\n    def forward(self, x):\n        return nn.ReLU()(x)", False),
        (
            "class Net(nn.Module):\n    def forward(self, x):\n        if self.head is None:\n"
            "            self.head = nn.Linear(x.shape[-1], 2)\n        return self.head(x)",
            False,
        ),
        (
            "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.fc = nn.Linear(4, 2)",
            False,
        ),
        ("def build(x):\n    return nn.Linear(4, 2)(x)", False),
    ],
)
def test_fires_on_layers_built_per_call(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_classifier_with_a_head_built_in_forward_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd the tool had no hypothesis for it.
    report = diagnose_folder(CASES / "repro-linear-built-in-forward")
    assert report.hypotheses[0].id == "layer-created-inside-forward"
