"""An evaluation DataLoader built without a batch size, beside a training one given one.

DataLoader's batch_size defaults to 1. A validation or test loader written without
it (usually by copying the training loader's line and dropping the arguments that
seemed to be about training) feeds the model one sample per forward pass: every
evaluation step pays the per-call overhead of a whole batch for one sample, so a
no-grad pass over a fraction of the data can take as long as a training epoch.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.loaders import built_loaders, trains_from
from trainwreck.analyzers.code.tree import Hit, Tree, argument, keyword, number


def _batch_size(call: ast.Call) -> ast.expr | None:
    """The batch size a DataLoader call writes, by keyword or as its second argument."""
    return argument(call, "batch_size", 1)


def _groups_samples(call: ast.Call) -> bool:
    """The call sets how samples are grouped: a batch size (other than a literal 1), a
    batch sampler, or batch_size=None (the dataset yields batches itself)."""
    size = _batch_size(call)
    return keyword(call, "batch_sampler") is not None or (size is not None and number(size) != 1.0)


def _find(tree: Tree) -> list[Hit]:
    loaders = built_loaders(tree)
    training = [call for node, call, name in loaders if trains_from(tree, name, node)]
    if not any(_groups_samples(call) for call in training):
        return []
    return [
        tree.hit(call, loader=name)
        for node, call, name in loaders
        if not trains_from(tree, name, node)
        and _batch_size(call) is None
        and keyword(call, "batch_sampler") is None
    ][:1]


DETECTOR = Detector(
    name="eval_loader_default_batch_size_one",
    title="An evaluation DataLoader is built without batch_size, so it serves one sample per batch",
    category="slow_throughput",
    explain=(
        "{where}: `{loader}` is built without batch_size, so DataLoader's default of 1 "
        "applies, while the training loader in this code is given a batch size: every "
        "evaluation forward pass sees a single sample"
    ),
    find=_find,
)
