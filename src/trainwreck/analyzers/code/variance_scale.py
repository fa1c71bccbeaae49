"""Features standardised by their variance where the standard deviation belongs.

`(x - mean) / x.var(0)` is meant to give every feature unit spread, but dividing
by the variance leaves a feature whose standard deviation is s with a spread of
1/s: features measured in small units (s < 1) are blown up, large ones shrunk to
almost nothing, so the inputs the model sees span orders of magnitude more than
intended and a learning rate that suits standardised data makes the loss explode.
The divisor is followed through one assignment (`self.scale_ = X.var(0)` in a
scaler's `fit`, then `/ self.scale_` in its `transform`) and may carry an epsilon
(`/ (var + 1e-8)`); a square root of it (`var.sqrt()`, `np.sqrt(var)`), or a
variance on both sides of the division, stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last

_VARIANCES = frozenset({"var", "nanvar"})


def _bound_value(tree: Tree, node: ast.expr) -> ast.expr:
    """A name or attribute (`scale`, `self.scale_`) followed to the one value it is given."""
    if isinstance(node, ast.Name | ast.Attribute):
        values = tree.values_of(dotted(node))
        if len(values) == 1:
            return values[0]
    return node


def _is_variance(tree: Tree, divisor: ast.expr) -> bool:
    """The divisor is a variance call, directly or through one assignment, plus an epsilon."""
    divisor = _bound_value(tree, divisor)
    if isinstance(divisor, ast.BinOp) and isinstance(divisor.op, ast.Add):
        return _is_variance(tree, divisor.left) or _is_variance(tree, divisor.right)
    return isinstance(divisor, ast.Call) and last(divisor) in _VARIANCES


def _centred(numerator: ast.expr) -> bool:
    """`x - mean`: the standardisation's own numerator."""
    return isinstance(numerator, ast.BinOp) and isinstance(numerator.op, ast.Sub)


def _find(tree: Tree) -> list[Hit]:
    return [
        tree.hit(node, divisor=ast.unparse(node.right))
        for node in tree.nodes
        if isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Div)
        and _centred(node.left)
        and _is_variance(tree, node.right)
    ]


DETECTOR = Detector(
    name="standardized_by_variance",
    title="Features standardised as (x - mean) / variance instead of dividing by the standard "
    "deviation",
    category="divergence",
    explain=(
        "{where}: `{code}` divides the centred values by `{divisor}`, a variance: each "
        "feature ends with a spread of 1/std instead of 1, so small-unit features are "
        "magnified and large ones flattened"
    ),
    find=_find,
)
