"""code.choice_without_replacement_in_loop: legacy sampling without replacement per step."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

ID = "code.choice_without_replacement_in_loop"
CASE = (
    ROOT / "benchmarks/first_sight/batch-29/r29a-pytorch-ctr-mlp-few-it-per-s-on-large-table-repro"
)


@pytest.mark.parametrize(
    ("code", "fired"),
    [
        ("for step in range(9):\n    idx = np.random.choice(n, 512, replace=False)", True),
        # a helper the loop calls: the reproduction's shape
        (
            "def sample():\n    return np.random.choice(n, 512, replace=False)\n"
            "for step in range(9):\n    xb = sample()",
            True,
        ),
        # once, outside any loop; with replacement; a Generator; weighted
        ("idx = np.random.choice(n, 512, replace=False)", False),
        ("for step in range(9):\n    idx = np.random.choice(n, 512)", False),
        ("for step in range(9):\n    idx = rng.choice(n, 512, replace=False)", False),
        ("for step in range(9):\n    idx = np.random.choice(n, 512, replace=False, p=w)", False),
    ],
)
def test_fires_on_legacy_sampling_without_replacement_in_a_loop(code: str, fired: bool) -> None:
    assert fires(code, ID) is fired


def test_the_click_through_reproduction_is_found() -> None:
    """batch-29: 512 rows drawn from 2.45 M per step, about 5 it/s on a tiny MLP."""
    assert "n_train" in file_findings(CASE / "train.py")[ID].summary
