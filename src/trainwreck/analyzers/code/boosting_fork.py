"""A gradient-boosting library runs in the parent process, then a process is forked.

XGBoost, LightGBM and CatBoost build data and trees on GCC's OpenMP thread pool
(libgomp), started by the first call that uses more than one thread. On Linux
`multiprocessing` forks by default, and a forked child inherits the pool's
bookkeeping without its threads: the child's first parallel region waits
forever, so a `fit` run in a `Process` or a `Pool` after one ran in the parent
never returns and prints nothing. Prediction runs on the same pool: xgboost#6617
(batch-36) hung in a Pool only when the parent had called `predict_proba` first,
not when it had only loaded the model. The rule fires when a module-level `train`
or `cv` of one of these libraries, or `fit`/`predict` of one of their estimators
or boosters, comes before a process or pool is created, unless the code picks
the spawn or forkserver start method.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last, receiver

_LIBRARIES = frozenset({"xgboost", "lightgbm", "catboost"})
# The estimator classes of their scikit-learn interfaces (XGBClassifier, LGBMRegressor,
# CatBoostClassifier, ...) and the native boosters (xgb.Booster, lgb.Booster).
_ESTIMATOR = re.compile(r"(?:^|\.)(?:(?:XGB|LGBM|CatBoost)\w*|Booster)$")
_TRAINS = frozenset({"train", "cv"})
# Estimator methods that run the OpenMP pool: training and every kind of prediction.
_RUNS_POOL = frozenset({"fit", "predict", "predict_proba", "inplace_predict"})
_FORKS = frozenset({"Process", "Pool", "ProcessPoolExecutor"})
# A start method that does not fork: the child starts a fresh interpreter.
_NO_FORK = re.compile(r"""(?:set_start_method|get_context)\(\s*['"](?:spawn|forkserver)['"]""")


def _aliases(tree: Tree) -> set[str]:
    """The names the code imports the boosting libraries as (`import lightgbm as lgb`)."""
    return {
        alias.asname or alias.name
        for node in tree.nodes
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name.split(".")[0] in _LIBRARIES
    }


def _estimators(tree: Tree) -> set[str]:
    """Names bound to an estimator of those libraries (`clf = XGBClassifier(...)`)."""
    return {
        dotted(target)
        for node in tree.nodes
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and _ESTIMATOR.search(dotted(node.value.func))
        for target in node.targets
    }


def _trains_in_parent(tree: Tree) -> list[ast.Call]:
    """Module-level calls that run the library's threads in the parent process."""
    aliases, estimators = _aliases(tree), _estimators(tree)
    return [
        call
        for call in tree.calls
        if tree.function(call) is None
        and (
            (last(call) in _TRAINS and receiver(call) in aliases)
            or (last(call) in _RUNS_POOL and receiver(call) in estimators)
        )
    ]


def _find(tree: Tree) -> list[Hit]:
    if _NO_FORK.search(tree.source):
        return []
    trained = _trains_in_parent(tree)
    if not trained:
        return []
    first = min(trained, key=lambda call: call.lineno)
    for call in tree.calls:
        if last(call) in _FORKS and call.lineno > first.lineno:
            return [tree.hit(call, trained=ast.unparse(first.func))]
    return []


DETECTOR = Detector(
    name="boosting_used_before_fork",
    title="A gradient-boosting library runs in the parent process before a process is forked",
    category="hang",
    explain=(
        "{where}: `{code}` forks after `{trained}` ran its OpenMP thread pool in the parent "
        "process; the forked child inherits the pool without its threads and can wait forever "
        "in its first parallel step"
    ),
    find=_find,
)
