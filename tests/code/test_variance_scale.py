"""code.standardized_by_variance: centred features divided by a variance, not a deviation."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_35, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.standardized_by_variance"

SCALER = """
class Scaler:
    def fit(self, X):
        self.mean_ = X.mean(0)
        self.scale_ = X.var(0)
    def transform(self, X):
        return (X - self.mean_) / self.scale_
"""


@pytest.mark.parametrize(
    "source",
    [
        SCALER,
        "z = (x - x.mean(0)) / x.var(0)",
        "z = (x - mu) / (np.var(x, axis=0) + 1e-8)",
        "v = torch.var(x, dim=0)\nz = (x - m) / v",
    ],
)
def test_fires_on_centred_values_divided_by_a_variance(source: str) -> None:
    assert fires(source, ID)


@pytest.mark.parametrize(
    "source",
    [
        "z = (x - x.mean(0)) / x.std(0)",
        "z = (x - m) / x.var(0).sqrt()",
        "z = (x - m) / np.sqrt(np.var(x, axis=0) + 1e-8)",
        # a ratio of variances is not a standardisation
        "r = x.var(0) / y.var(0)",
        # the variance divided, but nothing centred
        "w = counts / x.var()",
    ],
)
def test_stays_quiet_on_a_standard_deviation_or_no_centring(source: str) -> None:
    assert not fires(source, ID)


def test_the_delivery_eta_reproduction_gets_its_page() -> None:
    # batch-35's reproduction: at 44994090 the top answer was the generic non-finite-loss page.
    folder = BATCH_35 / "r35a-pytorch-delivery-eta-mlp-loss-explodes-first-epoch-repro"
    report = diagnose_folder(folder)
    assert report.hypotheses[0].id == "features-standardized-by-variance"
