"""A softmax or argmax over dimension 0 of a batch of outputs: across samples, not classes.

Model outputs are laid out (batch, classes). `logits.argmax(dim=0)` picks, for
each class, the sample that scores highest, and `F.softmax(logits, dim=0)` (or
an `nn.Softmax(dim=0)` output layer) normalises each class over the batch: each
sample's "probabilities" then depend on the other samples in the batch and do
not sum to one. An argmax given no dim at all is worse still: it flattens the
whole (batch, classes) tensor and returns one index for the batch, which a
comparison with the labels broadcasts against every sample. Predictions and
accuracy are wrong while the loss may train fine. The rule fires only on
tensors whose names say they are a model's outputs (logits, outputs, preds), or
on a model's output layer.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import is_forward, model_names
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, keyword, last, number

_REDUCTIONS = frozenset({"softmax", "log_softmax", "argmax"})
# Namespaces whose softmax/argmax take the tensor as their first argument.
_FUNCTIONAL = frozenset({"torch", "F", "nn.functional", "torch.nn.functional"})
_OUTPUT_NAME = re.compile(r"(?i)^(?:logits?|outputs?|out|preds?|predictions?|y_?hat|scores)$")


def _dim(call: ast.Call, position: int) -> float | None:
    explicit = keyword(call, "dim")
    if explicit is not None:
        return number(explicit)
    return number(call.args[position]) if len(call.args) > position else None


def _no_dim(tree: Tree, call: ast.Call, position: int) -> bool:
    """`model(x).argmax()`: no dim by keyword or position, and not read as one index
    (`scores.argmax().item()` picks the best of a 1-D ranking on purpose: batch-8's
    embedding reproduction)."""
    if keyword(call, "dim") is not None or len(call.args) > position:
        return False
    parent = tree.parents.get(call)
    return not (isinstance(parent, ast.Attribute) and parent.attr == "item")


def _operand(call: ast.Call) -> tuple[ast.expr | None, int]:
    """The tensor reduced and where its dim argument sits: `x.argmax(0)` or `torch.argmax(x, 0)`."""
    func = call.func
    if isinstance(func, ast.Attribute) and dotted(func.value) not in _FUNCTIONAL:
        return func.value, 0
    return (call.args[0] if call.args else None), 1


def _model_output(value: ast.expr | None, models: set[str]) -> bool:
    if isinstance(value, ast.Call):
        return is_forward(value, models)
    return bool(_OUTPUT_NAME.match(dotted(value).rsplit(".", 1)[-1]))


def _find(tree: Tree) -> list[Hit]:
    models = model_names(tree)
    hits = []
    for call in tree.calls:
        if last(call) == "Softmax" and number(keyword(call, "dim")) == 0:
            hits.append(tree.hit(call, what="an nn.Softmax(dim=0) layer"))
            continue
        if last(call) not in _REDUCTIONS:
            continue
        operand, position = _operand(call)
        if not _model_output(operand, models):
            continue
        if _dim(call, position) == 0:
            hits.append(tree.hit(call, what=f"{last(call)} over dim 0"))
        elif last(call) == "argmax" and _no_dim(tree, call, position):
            hits.append(tree.hit(call, what="an argmax with no dim (one index for the batch)"))
    return hits


DETECTOR = Detector(
    name="reduced_over_batch_dim",
    title="A softmax or argmax runs over dimension 0 of the model's outputs (or an argmax over "
    "no dimension at all), across the batch instead of across the classes",
    category="wrong_output",
    explain=(
        "{where}: `{code}` is {what}: for outputs laid out (batch, classes) it compares samples "
        "with each other instead of classes, so predictions and probabilities are wrong"
    ),
    find=_find,
)
