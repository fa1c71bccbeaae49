"""code.batch_std_with_bessel_correction: a per-batch std over dim 0 with a last batch of one."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

ID = "code.batch_std_with_bessel_correction"
SCRIPT = """
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True{loader})

class Net(nn.Module):
    def forward(self, x):
        x = (x - x.mean(dim=0)) / ({statistic} + 1e-6)
        return self.head(x)
"""


def _script(statistic: str = "x.std(dim=0)", loader: str = "") -> str:
    return SCRIPT.format(statistic=statistic, loader=loader)


def test_fires_on_the_batch_6_reproduction() -> None:
    case = ROOT / "benchmarks" / "first_sight" / "batch-6"
    found = file_findings(case / "pytorch-batch-std-last-batch-size1-nan-repro" / "repro.py")[ID]
    assert found.values["line"] == 25


@pytest.mark.parametrize(
    "statistic", ["x.std(dim=0)", "x.std(0)", "torch.std(x, 0)", "x.var(dim=0).sqrt()"]
)
def test_fires_on_a_batch_statistic_with_the_default_correction(statistic: str) -> None:
    assert fires(_script(statistic), ID)


@pytest.mark.parametrize(
    "source",
    [
        _script("x.std(dim=0, correction=0)"),
        _script("x.std(dim=0, unbiased=False)"),
        _script("x.std(dim=-1)"),  # over features: a sample always has them all
        _script(loader=", drop_last=True"),  # no batch of one
    ],
)
def test_quiet_with_a_population_std_a_feature_std_or_drop_last(source: str) -> None:
    assert not fires(source, ID)


def test_quiet_for_a_statistic_computed_once_on_the_dataset() -> None:
    source = "loader = DataLoader(ds, batch_size=64)\nstd = X.std(dim=0)\n"
    assert not fires(source, ID)
