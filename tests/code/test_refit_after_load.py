"""code.refit_after_load: a model loaded from disk is fitted again from scratch."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_36, file_findings, fires

ID = "code.refit_after_load"


def test_fires_on_the_batch_36_thread() -> None:
    """xgboost#7506 (batch-36): load_model, then fit on the same estimator, then predict."""
    found = file_findings(
        BATCH_36 / "t36f-xgboost-reloaded-model-gives-different-predictions" / "train.py"
    )
    assert found[ID].values["model"] == "model"


@pytest.mark.parametrize(
    "source",
    [
        "model = XGBRegressor()\nmodel.load_model('m.json')\nmodel.fit(X, y)\n",
        "import joblib\nclf = joblib.load('clf.pkl')\nclf.fit(X, y)\n",
    ],
)
def test_fires_on_a_fit_after_a_load(source: str) -> None:
    assert fires(source, ID)


@pytest.mark.parametrize(
    "source",
    [
        # fitted before it is loaded over: the load is what predicts
        "model = XGBRegressor()\nmodel.fit(X, y)\nmodel.load_model('m.json')\n",
        # training continues from the loaded booster
        "model.load_model('m.json')\nmodel.fit(X, y, xgb_model=model.get_booster())\n",
        "import joblib\nclf = joblib.load('c.pkl')\nclf.set_params(warm_start=True)\n"
        "clf.fit(X, y)\n",
        # Keras continues from the weights it holds
        "from tensorflow import keras\nnet = keras.Sequential()\nnet.load_model('m')\n"
        "net.fit(X, y)\n",
        # another name is fitted
        "model.load_model('m.json')\nfresh = XGBRegressor()\nfresh.fit(X, y)\n",
    ],
)
def test_quiet_when_the_loaded_model_is_not_refit_from_scratch(source: str) -> None:
    assert not fires(source, ID)
