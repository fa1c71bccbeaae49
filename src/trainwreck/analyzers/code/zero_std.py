"""Features standardised by a standard deviation nothing keeps away from zero.

`(X - mean) / std` with `std = X.std(dim=0)` divides every column by its own
spread. A constant column (a flag that is all zeros in this export, a padding
channel, a sensor that never moved) has std exactly 0, and its values become
0/0 = NaN in every row, so the loss is NaN from the first step whatever the
model or learning rate. scikit-learn's StandardScaler replaces a zero scale by
1; hand-written code must add an epsilon, clamp, or drop the column.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last

_SPREAD = frozenset({"std", "nanstd"})
_ROOTS = frozenset({"sqrt"})
_VARIANCE = frozenset({"var", "nanvar"})
# A call around the spread that keeps it positive.
_GUARDS = frozenset({"clamp", "clamp_min", "clip", "maximum", "where", "fmax", "max"})
MAX_DEPTH = 3


def _spread_call(value: ast.expr) -> bool:
    """`x.std(...)`, `torch.std(x)`, `np.std(x)`, `sqrt(x.var())`, `x.var().sqrt()`."""
    if not isinstance(value, ast.Call):
        return False
    name = last(value)
    if name in _SPREAD:
        return True
    if name in _ROOTS:
        inner = value.args[0] if value.args else getattr(value.func, "value", None)
        return isinstance(inner, ast.Call) and last(inner) in _VARIANCE
    return False


class _Spread:
    """Which expressions of one tree are a raw standard deviation (zero for a constant column)."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        # `std[std == 0] = 1` or `std += eps` repairs the name in place.
        self.repaired = {
            dotted(node.targets[0].value)
            for node in tree.nodes
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript)
        } | {dotted(node.target) for node in tree.nodes if isinstance(node, ast.AugAssign)}

    def __call__(self, value: ast.expr, depth: int = 0) -> bool:
        """A sum (`std + eps`) or a guarded call is not raw; a name is raw if all it holds is."""
        if depth > MAX_DEPTH:
            return False
        if isinstance(value, ast.Call):
            if last(value) in _GUARDS:
                return False
            return _spread_call(value)
        name = dotted(value)
        if not name or name in self.repaired or not isinstance(value, ast.Name):
            return False
        bound = self.tree.values_of(name)
        return bool(bound) and all(self(v, depth + 1) for v in bound)


def _centred(numerator: ast.expr) -> bool:
    """`X - mean`: standardisation subtracts a mean before it divides."""
    return isinstance(numerator, ast.BinOp) and isinstance(numerator.op, ast.Sub)


def _find(tree: Tree) -> list[Hit]:
    spread = _Spread(tree)
    hits = []
    for node in tree.nodes:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
            continue
        if _centred(node.left) and spread(node.right):
            hits.append(tree.hit(node, divisor=ast.unparse(node.right)))
    return hits


DETECTOR = Detector(
    name="standardize_by_zero_std",
    title="Features divided by a standard deviation with no epsilon (0/0 on a constant column)",
    category="nan_inf",
    explain=(
        "{where}: `{code}` divides by `{divisor}` with no epsilon or clamp: a constant feature "
        "column has std 0, so every value in it becomes 0/0 = NaN"
    ),
    find=_find,
)
