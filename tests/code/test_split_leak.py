"""code.oversampled_before_split: duplicated rows before a random train/validation split."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

ID = "code.oversampled_before_split"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("X, y = oversample(X, y, 12)\ntr, va = train_test_split(X, y)", True),
        ("X, y = SMOTE().fit_resample(X, y)\ntr, va = train_test_split(X, y)", True),
        (
            "minority = resample(minority, replace=True, n_samples=900)\n"
            "split = random_split(ds, [0.8, 0.2])",
            True,
        ),
        # oversampling the training part after the split
        ("Xtr, Xva, ytr, yva = train_test_split(X, y)\nXtr, ytr = oversample(Xtr, ytr, 12)", False),
        ("x = resample(x, replace=False)\ntr, va = train_test_split(x)", False),
    ],
)
def test_fires_only_when_duplication_precedes_the_split(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_fraud_script_is_found() -> None:
    script = BATCH_12 / "r1-accelerate-claims-fraud-val-f1-not-real" / "train.py"
    assert ID in file_findings(script)
