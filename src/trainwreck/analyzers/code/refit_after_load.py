"""A model loaded from disk is fitted again through a scikit-learn style `fit`.

The scikit-learn interfaces of XGBoost, LightGBM and CatBoost, and scikit-learn's
own estimators, train a new model on every `fit` call: the trees that
`load_model` (or `joblib.load` / `pickle.load`) brought back are replaced unless
the call passes the loaded booster on (`xgb_model=`, `init_model=`) or the
estimator keeps its state (`warm_start`). xgboost#7506 (batch-36) refitted after
`load_model` and asked why predictions differed from the saved model's. Keras is
left out: its `fit` continues from the weights it holds.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, keyword, last, receiver

# Calls whose result is a model read back from disk.
_LOADERS = frozenset({"joblib.load", "pickle.load"})
# Keyword arguments through which `fit` continues from a given model.
_CONTINUES = ("xgb_model", "init_model")
# Code whose fit() keeps what it holds: a scikit-learn estimator with warm_start on, or Keras.
_KEEPS_STATE = re.compile(r"\bwarm_start\s*=\s*True|\bkeras\b")


def _loaded(tree: Tree) -> dict[str, int]:
    """Each name a model was loaded into, with the line of its first load."""
    found: dict[str, int] = {}
    for call in tree.calls:
        if last(call) == "load_model" and receiver(call):
            found.setdefault(receiver(call), call.lineno)
    for node in tree.nodes:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and dotted(node.value.func) in _LOADERS
        ):
            for target in node.targets:
                found.setdefault(dotted(target), node.lineno)
    return found


def _find(tree: Tree) -> list[Hit]:
    if _KEEPS_STATE.search(tree.source):
        return []
    loaded = _loaded(tree)
    for call in tree.calls:
        name = receiver(call)
        if (
            last(call) == "fit"
            and name in loaded
            and call.lineno > loaded[name]
            and not any(keyword(call, arg) is not None for arg in _CONTINUES)
        ):
            return [tree.hit(call, model=name)]
    return []


DETECTOR = Detector(
    name="refit_after_load",
    title="A model loaded from disk is trained again from scratch by fit()",
    category="wrong_output",
    explain=(
        "{where}: `{code}` fits `{model}` again after it was loaded; a scikit-learn style "
        "fit trains a new model and discards the loaded one unless it is passed on "
        "(xgb_model= / init_model=)"
    ),
    find=_find,
)
