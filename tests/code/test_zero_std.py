"""code.standardize_by_zero_std: (x - mean) / std with nothing keeping std away from 0."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

ID = "code.standardize_by_zero_std"
REPRO = (
    ROOT / "benchmarks/first_sight/batch-2/repro-pytorch-standardize-constant-column-nan/repro.py"
)


def test_fires_on_the_first_sight_repro_whose_loss_was_nan_from_step_one() -> None:
    found = file_findings(REPRO)[ID]
    assert (found.values["line"], found.values["divisor"]) == (17, "std")


@pytest.mark.parametrize(
    "divide",
    [
        "(X - mean) / std",
        "(X - X.mean(0)) / X.std(0)",
        "(X - mean) / np.std(X, axis=0)",
        "(X - mean) / torch.sqrt(X.var(dim=0))",
    ],
)
def test_fires_on_each_spelling_of_a_raw_standard_deviation(divide: str) -> None:
    source = f"""
        mean = X.mean(dim=0)
        std = X.std(dim=0)
        X = {divide}
    """
    assert fires(source, ID), divide


@pytest.mark.parametrize(
    "guard",
    [
        "X = (X - mean) / (std + 1e-8)",
        "X = (X - mean) / std.clamp_min(1e-6)",
        "X = (X - mean) / torch.clamp(std, min=1e-6)",
        "std[std == 0] = 1\nX = (X - mean) / std",
        "std += 1e-8\nX = (X - mean) / std",
        "X = X / std",  # not centred: a scale, not a standardisation
    ],
)
def test_quiet_when_the_divisor_is_guarded(guard: str) -> None:
    source = "mean = X.mean(dim=0)\nstd = X.std(dim=0)\n" + guard + "\n"
    assert not fires(source, ID), guard


def test_the_mechanism_a_constant_column_becomes_nan() -> None:
    torch = pytest.importorskip("torch")
    X = torch.cat([torch.randn(16, 1), torch.zeros(16, 1)], dim=1)
    standardised = (X - X.mean(dim=0)) / X.std(dim=0)
    assert torch.isnan(standardised[:, 1]).all()
    assert torch.isfinite(standardised[:, 0]).all()
    guarded = (X - X.mean(dim=0)) / X.std(dim=0).clamp_min(1e-6)
    assert torch.isfinite(guarded).all()
