"""A Dataset whose __getitem__ never reads the index it is given.

The DataLoader asks a map-style dataset for sample `i` by calling
`__getitem__(i)`. A method that ignores `i` (it reads `self.x[0]`, a counter,
or a fixed row) returns the same sample, or the same few, for every index: the
model sees one example over and over, the loss either drops to near zero on it
or stalls, and predictions are the same for everything. Datasets that draw a
random sample on purpose (random, numpy or torch random calls) stay quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import RANDOM_CALL, item_methods
from trainwreck.analyzers.code.tree import Function, Hit, Tree, dotted


def _ignores_index(method: Function) -> bool:
    arguments = [arg.arg for arg in method.args.args]
    if len(arguments) < 2:
        return False
    index = arguments[1]
    used = {node.id for node in ast.walk(method) if isinstance(node, ast.Name)}
    if index in used:
        return False
    returns = any(
        isinstance(node, ast.Return) and node.value is not None for node in ast.walk(method)
    )
    draws = any(
        isinstance(node, ast.Call) and RANDOM_CALL.search(dotted(node.func))
        for node in ast.walk(method)
    )
    return returns and not draws


def _find(tree: Tree) -> list[Hit]:
    return [
        tree.hit(node, index=node.args.args[1].arg)
        for node in item_methods(tree)
        if _ignores_index(node)
    ]


DETECTOR = Detector(
    name="getitem_ignores_index",
    title="The dataset's __getitem__ never uses its index, so every sample it returns is the same",
    category="divergence",
    explain=(
        "{where}: `{code}` never reads `{index}`: the DataLoader asks for different samples and "
        "gets the same one back each time"
    ),
    find=_find,
)
