"""A sequence classifier built with num_labels=1 and scored as a classifier.

Hugging Face *ForSequenceClassification heads treat one output as regression:
the loss is the mean squared error between the single logit and the label,
and argmax over one logit is always 0. Code that builds the head with
num_labels=1 for a two-class task and reads predictions with argmax trains a
regressor and reports the share of class-0 examples as its accuracy.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, keyword, last, number

_CLASSIFIER = "ForSequenceClassification"
_CONFIG = "Config"  # BertConfig, AutoConfig, ...


def _one_label(call: ast.Call) -> bool:
    """`...ForSequenceClassification.from_pretrained(..., num_labels=1)` or a config with it."""
    if number(keyword(call, "num_labels")) != 1.0:
        return False
    name = dotted(call.func)
    return _CLASSIFIER in name or any(part.endswith(_CONFIG) for part in name.split("."))


def _find(tree: Tree) -> list[Hit]:
    if not any(last(call) == "argmax" for call in tree.calls):
        return []  # no classification reading of the outputs: a regression may be intended
    return [tree.hit(call) for call in tree.calls if _one_label(call)]


DETECTOR = Detector(
    name="sequence_classifier_one_label",
    title="A sequence classifier is built with num_labels=1 (a regression head) and read "
    "with argmax",
    category="wrong_output",
    explain=(
        "{where}: `{code}` gives the head one output, which transformers trains as regression "
        "(MSE); argmax over one logit is always 0"
    ),
    find=_find,
)
