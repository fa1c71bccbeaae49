"""A hand-written update `w = w - lr * w.grad` that rebinds the weight to a new tensor.

The expression builds a new tensor computed from w, a non-leaf with a grad_fn
(or, under no_grad, a fresh tensor that does not require grad); the name w
now points at it, and the next backward() leaves its .grad at None. The next
update then fails with "unsupported operand type(s) ... 'NoneType'", or,
when w no longer requires grad, backward() finds nothing to differentiate.
The in-place form (`w -= lr * w.grad` under torch.no_grad(), then
`w.grad.zero_()`) keeps the same leaf tensor and stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted


def _reads_own_grad(value: ast.expr, name: str) -> bool:
    return any(
        isinstance(node, ast.Attribute) and node.attr == "grad" and dotted(node.value) == name
        for node in ast.walk(value)
    )


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for node in tree.nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        name = dotted(node.targets[0])
        if name and _reads_own_grad(node.value, name):
            hits.append(tree.hit(node, weight=name))
    return hits


DETECTOR = Detector(
    name="weight_rebound_by_update",
    title="A manual update `w = w - lr * w.grad` replaces the weight tensor, so its .grad is None "
    "on the next step",
    category="crash",
    explain=(
        "{where}: `{code}` binds `{weight}` to a new tensor built from the old one; the new tensor "
        "is not the leaf autograd fills, so `{weight}.grad` is None at the next update"
    ),
    find=_find,
)
