"""Class weights for a loss computed the wrong way round, or by a division that can be by 0.

A weighted loss (`CrossEntropyLoss(weight=...)`, `BCEWithLogitsLoss(pos_weight=...)`)
is meant to count a rare class more. Two hand-computed forms defeat it:

- weights proportional to the class frequencies, `counts / counts.sum()`: the
  common class gets the largest weight, the rare one the smallest, the opposite
  of the intent, so the model learns to predict the common class everywhere;
- a ratio with a class count as divisor, `neg / pos`, with nothing keeping the
  count from 0: a class absent from the data gets an infinite weight, and the
  loss becomes inf or NaN at the first batch that holds it.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, calls, dotted, last

_WEIGHT_KEYWORDS = frozenset({"weight", "pos_weight"})
_TOTALS = frozenset({"sum", "len"})
# Calls that count: a divisor bound to one of these is 0 for a class the data lacks.
_COUNTS = frozenset({"sum", "count_nonzero", "bincount", "value_counts", "len"})
_GUARDS = frozenset({"clamp", "clip", "clamp_min", "maximum", "max", "where"})
MAX_DEPTH = 3


def _weight_expressions(tree: Tree) -> list[tuple[ast.Call, ast.expr]]:
    """(the loss call, its weight expression) for every `weight=`/`pos_weight=` keyword
    of a call whose name reads as a loss."""
    found = []
    for call in tree.calls:
        if "loss" not in last(call).lower() and "entropy" not in last(call).lower():
            continue
        for kw in call.keywords:
            if kw.arg in _WEIGHT_KEYWORDS:
                found.append((call, kw.value))
    return found


def _sources(node: ast.expr, tree: Tree, depth: int = 0) -> list[ast.expr]:
    """The expression and what the names in it were bound to, a few assignments deep."""
    found = [node]
    if depth >= MAX_DEPTH:
        return found
    for name in {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}:
        for value in tree.values_of(name):
            found.extend(_sources(value, tree, depth + 1))
    return found


def _total_of(node: ast.expr, numerator: str) -> bool:
    """`x.sum()`, `sum(x)`, `np.sum(x)`, `len(x)` over the numerator's name."""
    if not isinstance(node, ast.Call) or last(node) not in _TOTALS:
        return False
    over = node.args[0] if node.args else getattr(node.func, "value", None)
    return over is not None and dotted(over) == numerator


def _divisions(expression: ast.expr) -> list[ast.BinOp]:
    return [
        node
        for node in ast.walk(expression)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
    ]


def _inverted(share: ast.BinOp, tree: Tree) -> bool:
    """The share is itself a divisor: `1 / (counts / counts.sum())` is inverse frequency."""
    parent = tree.parents.get(share)
    return (
        isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Div) and parent.right is share
    )


def _frequencies(tree: Tree) -> list[Hit]:
    hits = []
    for loss, weight in _weight_expressions(tree):
        for source in _sources(weight, tree):
            share = next(
                (
                    d
                    for d in _divisions(source)
                    if _total_of(d.right, dotted(d.left)) and not _inverted(d, tree)
                ),
                None,
            )
            if share is not None and dotted(share.left):
                hits.append(tree.hit(share, loss=last(loss), counts=dotted(share.left)))
                break
    return hits


def _unguarded_ratio(division: ast.BinOp) -> bool:
    """`neg / pos` with a bare name (or attribute) as divisor: no clamp, epsilon or max."""
    divisor = division.right
    return isinstance(divisor, ast.Name | ast.Attribute) and not any(
        last(call) in _GUARDS for call in calls(division)
    )


def _zero_counts(tree: Tree) -> list[Hit]:
    hits = []
    for loss, weight in _weight_expressions(tree):
        for source in _sources(weight, tree):
            ratio = next((d for d in _divisions(source) if _unguarded_ratio(d)), None)
            if ratio is None:
                continue
            divisor = dotted(ratio.right)
            # the divisor must itself be a count: a sum over labels, not a constant
            counted = any(
                isinstance(value, ast.Call) and last(value) in _COUNTS
                for value in tree.values_of(divisor)
            )
            if counted:
                hits.append(tree.hit(ratio, loss=last(loss), counts=divisor))
                break
    return hits


DETECTOR = Detector(
    name="class_weights_by_frequency",
    title="Loss class weights are proportional to class frequency (counts / total), which "
    "weights the common class most",
    category="wrong_output",
    explain=(
        "{where}: `{code}` gives each class a weight proportional to how often it occurs, and "
        "{loss} uses it as weight: the rare class counts least, the opposite of rebalancing"
    ),
    find=_frequencies,
)
ZERO_COUNT_DETECTOR = Detector(
    name="class_weight_divides_by_count",
    title="A loss class weight divides by a class count with nothing keeping it from 0",
    category="nan_inf",
    explain=(
        "{where}: `{code}` divides by `{counts}`, a count that is 0 for a class absent from the "
        "data: its weight in {loss} is inf, and the loss inf or NaN"
    ),
    find=_zero_counts,
)
