"""code.boosting_used_before_fork: XGBoost/LightGBM train in the parent, then a process forks."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_33, file_findings, fires

ID = "code.boosting_used_before_fork"
SCRIPT = """
import multiprocessing
import lightgbm as lgb
from xgboost import XGBClassifier
{prelude}
{parent}
clf = XGBClassifier(n_estimators=50)
worker = multiprocessing.Process(target=clf.fit, args=(X, y))
worker.start()
worker.join()
"""


def _script(parent: str = "lgb.train({}, lgb.Dataset(X, label=y))", prelude: str = "") -> str:
    return SCRIPT.format(parent=parent, prelude=prelude)


def test_fires_on_the_batch_33_thread() -> None:
    """xgboost#7044 (batch-33): lgb.train at module level, then clf.fit in a
    multiprocessing.Process that never returns."""
    found = file_findings(BATCH_33 / "t33e-xgboost-fit-in-child-process-never-returns" / "train.py")
    assert found[ID].values["trained"] == "lgb.train"


@pytest.mark.parametrize(
    "parent",
    ["lgb.train({}, lgb.Dataset(X, label=y))", "first = XGBClassifier()\nfirst.fit(X, y)"],
)
def test_fires_on_a_fit_in_the_parent_before_the_fork(parent: str) -> None:
    assert fires(_script(parent), ID)


@pytest.mark.parametrize(
    ("parent", "prelude"),
    [
        ("pass", ""),  # the parent never trains: no thread pool to inherit
        ("XGBClassifier().fit(X, y)", ""),  # not bound to a name: not read as an estimator
        ("def warm():\n    lgb.train({}, lgb.Dataset(X, label=y))", ""),  # not run at start-up
        ("lgb.train({}, lgb.Dataset(X, label=y))", 'multiprocessing.set_start_method("spawn")'),
        (
            "lgb.train({}, lgb.Dataset(X, label=y))",
            'ctx = multiprocessing.get_context("forkserver")',
        ),
    ],
)
def test_quiet_without_a_parent_fit_or_with_a_start_method_that_does_not_fork(
    parent: str, prelude: str
) -> None:
    assert not fires(_script(parent, prelude), ID)


def test_fires_on_a_prediction_in_the_parent_before_a_pool() -> None:
    """xgboost#6617 (batch-36): the Pool hung only after the parent had predicted."""
    source = """
from multiprocessing import Pool
from xgboost import XGBClassifier
model = XGBClassifier()
model.load_model("model.json")
model.predict_proba(rows)
pool = Pool(initializer=load_in_worker)
"""
    assert fires(source, ID)
    assert not fires(source.replace("model.predict_proba(rows)\n", ""), ID)


def test_fires_on_a_native_booster_predicting_before_a_fork() -> None:
    source = """
import multiprocessing
import lightgbm as lgb
booster = lgb.Booster(model_file="model.txt")
booster.predict(rows)
worker = multiprocessing.Process(target=score)
"""
    assert fires(source, ID)


def test_quiet_when_the_fork_comes_first() -> None:
    source = """
import multiprocessing
import xgboost as xgb
pool = multiprocessing.Pool(4)
booster = xgb.train({}, xgb.DMatrix(X, label=y))
"""
    assert not fires(source, ID)
