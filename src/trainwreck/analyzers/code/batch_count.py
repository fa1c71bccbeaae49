"""A per-sample count (correct predictions) divided by the number of batches.

`correct += (pred == y).sum().item()` counts samples; `len(loader)` is the
number of batches. Their ratio is the accuracy multiplied by the batch size
(so "accuracy" reads 2900% or 29.0), and it shifts whenever the batch size
changes. The denominator that matches the count is `len(loader.dataset)`
or a running sample total.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last

_LOADER = re.compile(r"(?i)loader|batches$")


def _counts_matches(value: ast.expr) -> bool:
    """`(pred == y).sum()`, `pred.eq(y).sum().item()`, `torch.sum(p == y)`."""
    compares = any(
        (isinstance(node, ast.Compare) and any(isinstance(op, ast.Eq) for op in node.ops))
        or (isinstance(node, ast.Call) and last(node) == "eq")
        for node in ast.walk(value)
    )
    summed = any(
        isinstance(node, ast.Call) and last(node) in {"sum", "count_nonzero"}
        for node in ast.walk(value)
    )
    return compares and summed


def _counters(tree: Tree) -> set[str]:
    return {
        dotted(node.target)
        for node in tree.nodes
        if isinstance(node, ast.AugAssign)
        and isinstance(node.op, ast.Add)
        and _counts_matches(node.value)
    }


def _batch_count(node: ast.expr) -> str | None:
    """`len(train_loader)` (not `len(train_loader.dataset)`): the loader's name."""
    if (
        isinstance(node, ast.Call)
        and dotted(node.func) == "len"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
        and _LOADER.search(node.args[0].id)
    ):
        return node.args[0].id
    return None


def _find(tree: Tree) -> list[Hit]:
    counters = _counters(tree)
    hits = []
    for node in tree.nodes:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
            continue
        loader = _batch_count(node.right)
        counted = {dotted(child) for child in ast.walk(node.left)} & counters
        if loader and counted:
            hits.append(tree.hit(node, count=sorted(counted)[0], loader=loader))
    return hits


DETECTOR = Detector(
    name="count_over_batches",
    title="A count of correct samples is divided by the number of batches, not the number of "
    "samples",
    category="wrong_output",
    explain=(
        "{where}: `{code}` divides `{count}`, a count of samples, by `len({loader})`, the number "
        "of batches: the result is the accuracy times the batch size"
    ),
    find=_find,
)
