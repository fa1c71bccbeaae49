"""code.unregistered_submodules: layers kept in a plain list or dict on an nn.Module."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.unregistered_submodules"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.hidden = [nn.Linear(8, 8) for _ in range(3)]",
            True,
        ),
        (
            "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.blocks = []\n        for _ in range(2):\n"
            "            self.blocks.append(nn.Conv2d(3, 3, 3))",
            True,
        ),
        (
            "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            '        self.heads = {"a": nn.Linear(8, 2), "b": nn.Linear(8, 3)}',
            True,
        ),
        (
            "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.hidden = nn.ModuleList([nn.Linear(8, 8) for _ in range(3)])",
            False,
        ),
        (
            "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        layers = [nn.Linear(8, 8)]\n        self.body = nn.Sequential(*layers)",
            False,
        ),
        (
            "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.acts = [nn.ReLU(), nn.Dropout(0.1)]",
            False,
        ),
        (
            "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.blocks = [nn.Linear(8, 8)]\n"
            "        self.blocks = nn.ModuleList(self.blocks)",
            False,
        ),
        ("class Config:\n    def __init__(self):\n        self.layers = [nn.Linear(8, 8)]", False),
    ],
)
def test_fires_only_on_layers_in_plain_containers(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_mlp_whose_hidden_layers_never_train_gets_its_page() -> None:
    # A CPU reproduction: at 8d0ffdd the tool had no hypothesis for it.
    report = diagnose_folder(CASES / "repro-unregistered-layer-list")
    assert report.hypotheses[0].id == "submodules-in-plain-list-not-registered"
