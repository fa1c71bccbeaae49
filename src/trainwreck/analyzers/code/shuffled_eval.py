"""An evaluation DataLoader with shuffle=True whose predictions meet the labels in stored order.

`DataLoader(test_ds, shuffle=True)` draws a new permutation of the dataset every
time it is iterated. Predictions collected batch by batch therefore come out in
that random order. Compared with the dataset's labels as stored
(`test_ds.targets`, `test_ds.tensors[1]`, or the `y_test` the dataset was built
from), each prediction meets another sample's label and the accuracy lands near
chance while the model is fine. Labels taken from the same batches as the
inputs stay aligned whatever the order, so a comparison inside the loop, or
against labels gathered in it, is left alone.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.loaders import (
    built_loaders,
    dataset_of,
    loops_over,
    shuffle_argument,
)
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last, names_in

# Names that say a loader or dataset holds held-out data, as examples and tutorials spell them.
_EVAL_NAME = re.compile(
    r"(?i)(?:^|[_.])(?:test|val|valid|validation|eval|dev|holdout)(?:$|[_\d]|loader|set|ds|data)"
)
# Attributes a dataset keeps its labels under (torchvision, TensorDataset, common custom ones).
_LABEL_ATTRIBUTES = frozenset({"targets", "labels", "label", "target", "tensors", "y", "classes"})
# Metric functions that take labels and predictions (sklearn, torchmetrics, hand-written).
_METRIC = re.compile(r"(?i)accuracy|f1|precision|recall|score|confusion|auc|metric")


def _label_names(tree: Tree, dataset: str) -> set[str]:
    """Where a dataset's stored labels live: its label attributes, the arrays built into it."""
    names = {f"{dataset}.{attribute}" for attribute in _LABEL_ATTRIBUTES}
    for value in tree.values_of(dataset):
        if isinstance(value, ast.Call) and len(value.args) > 1:
            names |= {dotted(argument) for argument in value.args[1:]} - {""}
        if isinstance(value, ast.Call):
            names |= {dotted(kw.value) for kw in value.keywords if kw.arg in {"y", "labels"}}
    return names - {""}


def _uses(node: ast.AST, names: set[str]) -> bool:
    return bool(names_in(node) & names)


def _comparisons(tree: Tree, labels: set[str]) -> list[ast.AST]:
    """`preds == labels` or `accuracy_score(labels, preds)` with one side the stored labels."""
    found: list[ast.AST] = []
    for node in tree.nodes:
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            if isinstance(node.ops[0], ast.Eq | ast.NotEq):
                sides = (node.left, node.comparators[0])
                if sum(_uses(side, labels) for side in sides) == 1:
                    found.append(node)
        elif isinstance(node, ast.Call) and _METRIC.search(last(node)):
            arguments = [*node.args, *(kw.value for kw in node.keywords)]
            if sum(_uses(argument, labels) for argument in arguments) == 1:
                found.append(node)
    return found


def _evaluation(tree: Tree, loader: str, dataset: str, loops: list[ast.For]) -> bool:
    """Held-out data by name, or a loop over it with autograd off."""
    if _EVAL_NAME.search(loader) or _EVAL_NAME.search(dataset):
        return True
    return any(tree.grad_off(loop) for loop in loops)


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for node, call, loader in built_loaders(tree):
        if shuffle_argument(call) is not True:
            continue
        dataset = dotted(dataset_of(call))
        loops = loops_over(tree, loader)
        if not dataset or not loops or not _evaluation(tree, loader, dataset, loops):
            continue
        outside = [
            place
            for place in _comparisons(tree, _label_names(tree, dataset))
            if not any(loop in tree.ancestors(place) for loop in loops)
        ]
        if outside:
            compared = outside[0]
            hits.append(
                tree.hit(
                    node,
                    loader=loader,
                    dataset=dataset,
                    compared=ast.unparse(compared),
                    compared_line=tree.parsed.where(compared),
                )
            )
    return hits


DETECTOR = Detector(
    name="eval_loader_shuffled",
    title="A shuffled evaluation DataLoader, its predictions compared with the stored labels",
    category="wrong_output",
    explain=(
        "{where}: `{loader}` shuffles `{dataset}`, so the predictions collected from it come out "
        "in a random order, but `{compared}` compares them with the labels in their stored "
        "order: each prediction meets another sample's label and the metric sits near chance"
    ),
    find=_find,
)
