"""An additive mask built by multiplying by infinity: `(1 - mask) * float("-inf")`.

The intent is a bias of 0 at real positions and -inf at padding, added to scores
before a max or softmax. But IEEE 754 defines 0 * inf as NaN, so every position
the mask keeps (where the factor is 0) becomes NaN instead of 0, and the NaN
spreads through the max or softmax into the loss from the first step. Filling
with `masked_fill(mask == 0, float("-inf"))`, `torch.where`, or multiplying by a
large finite value (`torch.finfo(dtype).min`) has no such product and stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, last

_INF_NAMES = frozenset({"inf", "Inf", "infty", "infinity"})
_INF_TEXTS = frozenset({"inf", "-inf", "infinity", "-infinity", "+inf"})


def _infinite(node: ast.expr) -> bool:
    """`float("-inf")`, `-float("inf")`, `math.inf`, `-np.inf`, `torch.inf`, `float('Infinity')`."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _infinite(node.operand)
    if isinstance(node, ast.Call) and last(node) == "float" and len(node.args) == 1:
        argument = node.args[0]
        return isinstance(argument, ast.Constant) and str(argument.value).lower() in _INF_TEXTS
    return isinstance(node, ast.Attribute) and node.attr in _INF_NAMES


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for node in tree.nodes:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
            continue
        for factor, other in ((node.left, node.right), (node.right, node.left)):
            if _infinite(factor) and not _infinite(other):
                hits.append(tree.hit(node, mask=ast.unparse(other)))
                break
    return hits


DETECTOR = Detector(
    name="mask_times_infinity",
    title="an additive mask built by multiplying by infinity (0 x inf is NaN)",
    category="nan_inf",
    explain=(
        "{where}: `{code}` multiplies `{mask}` by infinity: where it is 0 (the positions meant "
        "to be kept) 0 x inf is NaN, not 0, so every kept position carries NaN"
    ),
    find=_find,
)
