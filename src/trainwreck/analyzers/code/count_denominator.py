"""A loss or a masked mean divided by a sum over the batch that can be zero, with no floor.

Losses normalised by how many positives, labelled frames or unmasked tokens the batch
holds (`loss.sum() / num_pos` with `num_pos = targets.sum()`, RetinaNet-style focal
losses, masked token means) divide by zero on a batch that has none: x/0 is inf and
0/0 is NaN, the backward carries it into every gradient, and one step makes the
weights NaN. Rare batches make it rare: the run trains for epochs before the batch
with no positives comes. Mean pooling written by hand, `(h * m).sum(1) / m.sum(1)`,
does the same for a row whose mask is all zero, in model code as well as in a loss. A
floor (`.clamp(min=1)`, `max(n, 1)`, `+ eps`) anywhere the count is bound keeps it quiet.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.losses import in_loss
from trainwreck.analyzers.code.tree import Function, Hit, Tree, last, receiver

_SUMS = frozenset({"sum", "count_nonzero", "nansum"})
_FLOORS = frozenset({"clamp", "clamp_min", "clamp_", "clip", "max", "maximum", "where"})
# What a mask is called: `mask`, `attention_mask`, `valid_mask`, or the one-letter `m`.
_MASK_NAME = re.compile(r"(?i)mask|^m$")
_MODULES = frozenset({"torch", "np", "numpy", "jnp"})
# What a count is a count of: targets, labels, positives, valid or kept positions.
_COUNTED_NAME = re.compile(r"(?i)target|label|pos|neg|valid|keep|select|gt|^y$|^t$|mask|^m$")
# How far the detector follows a name to the expression bound to it.
MAX_DEPTH = 3


def _summed(value: ast.Call) -> ast.expr | None:
    """What a sum adds up: `x` in `x.sum(1)` or `torch.sum(x)`, casts and views peeled off."""
    module_call = receiver(value) in _MODULES
    inner: ast.expr | None = value.args[0] if module_call and value.args else None
    if not module_call and isinstance(value.func, ast.Attribute):
        inner = value.func.value
    while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
        inner = inner.func.value  # mask.float(), m.unsqueeze(-1)
    return inner


def _sum_of(value: ast.expr, names: re.Pattern[str]) -> bool:
    """A sum (`x.sum()`, `torch.sum(x)`, `mask.float().sum()`) of a comparison
    (`(t == 1).sum()`) or of something named as `names` says."""
    if not (isinstance(value, ast.Call) and last(value) in _SUMS):
        return False
    inner = _summed(value)
    if isinstance(inner, ast.Compare):
        return True
    return inner is not None and bool(names.search(last(inner)))


def _floored(value: ast.expr) -> bool:
    """A floor or an added constant anywhere in the expression."""
    for node in ast.walk(value):
        if isinstance(node, ast.Call) and last(node) in _FLOORS:
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return True
    return False


def _unfloored_count(tree: Tree, value: ast.expr, scope: Function | None, depth: int = 0) -> bool:
    """Whether the denominator is a batch sum that nothing keeps above zero."""
    if depth > MAX_DEPTH or _floored(value):
        return False
    if isinstance(value, ast.Call):
        return _sum_of(value, _COUNTED_NAME)
    if isinstance(value, ast.Name):
        bound = [
            node.value
            for node in tree.assignments(value.id, within=scope)
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign)
            and node.value is not None
        ]
        return bool(bound) and all(_unfloored_count(tree, v, scope, depth + 1) for v in bound)
    return False


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for node in tree.nodes:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
            continue
        counted = in_loss(tree, node) or _sum_of(node.right, _MASK_NAME)
        if counted and _unfloored_count(tree, node.right, tree.function(node)):
            hits.append(tree.hit(node, denominator=ast.unparse(node.right)))
    return hits


DETECTOR = Detector(
    name="division_by_unfloored_count",
    title="A loss or a masked mean is divided by a count that can be zero, with no floor",
    category="nan_inf",
    explain=(
        "{where}: `{code}` divides by `{denominator}`, a sum over the batch with no clamp or "
        "epsilon: a batch with none of what it counts divides by zero (inf, or 0/0 = NaN)"
    ),
    find=_find,
)
