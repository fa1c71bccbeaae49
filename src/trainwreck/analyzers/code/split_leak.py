"""Rows duplicated (oversampled) before the train/validation split: the split leaks copies.

Oversampling a rare class by repeating its rows, or synthesising near-copies
(SMOTE), and only then splitting at random puts copies of the same example on
both sides: the validation score measures memorisation, looks excellent, and
says nothing about new data. Oversampling after the split, on the training
part only, keeps validation honest.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, keyword, last

_OVERSAMPLE = re.compile(r"(?i)over_?sampl|up_?sampl|fit_resample|smote|duplicate_minority")
_SPLITS = frozenset({"random_split", "train_test_split"})


def _oversamples(call: ast.Call) -> bool:
    """A call named for oversampling, or sklearn's `resample(..., replace=True)`."""
    if _OVERSAMPLE.search(dotted(call.func)):
        return True
    replace = keyword(call, "replace")
    return last(call) == "resample" and isinstance(replace, ast.Constant) and replace.value is True


def _find(tree: Tree) -> list[Hit]:
    splits = [call for call in tree.calls if last(call) in _SPLITS]
    oversampling = [call for call in tree.calls if _oversamples(call)]
    if not splits or not oversampling:
        return []
    first_split = min(call.lineno for call in splits)
    early = [call for call in oversampling if call.lineno < first_split]
    return [tree.hit(call, split=min(splits, key=lambda c: c.lineno).lineno) for call in early[:1]]


DETECTOR = Detector(
    name="oversampled_before_split",
    title="Rows are oversampled before the random train/validation split, so validation holds "
    "copies of training rows",
    category="wrong_output",
    explain=(
        "{where}: `{code}` duplicates rows before the split at line {split}: copies of one "
        "example land in both training and validation, so the validation score measures "
        "memorisation"
    ),
    find=_find,
)
