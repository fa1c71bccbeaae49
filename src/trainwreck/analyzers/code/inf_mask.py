"""Masks made of infinities: two ways a -inf mask turns attention scores into NaN.

An additive mask built by multiplying by infinity: `(1 - mask) * float("-inf")`.

The intent is a bias of 0 at real positions and -inf at padding, added to scores
before a max or softmax. But IEEE 754 defines 0 * inf as NaN, so every position
the mask keeps (where the factor is 0) becomes NaN instead of 0, and the NaN
spreads through the max or softmax into the loss from the first step. Filling
with `masked_fill(mask == 0, float("-inf"))`, `torch.where`, or multiplying by a
large finite value (`torch.finfo(dtype).min`) has no such product and stays quiet.

Scores filled with -inf (`masked_fill(pad, float("-inf"))`, `torch.where(m, s, -inf)`)
and then put through a softmax: a row whose keys are all masked (an all-padding
sequence, an empty segment) is a softmax over only -inf, exp(-inf - (-inf)) is NaN,
and that row's NaN reaches the loss and, through backward, every weight. A causal
mask always leaves the diagonal visible, so a fill whose mask is named causal,
triangular (tril/triu) or "future" stays quiet; so does a finite fill value.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, argument, last

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


_SOFTMAX = frozenset({"softmax", "log_softmax"})
# A mask that always leaves a key visible: causal (the diagonal), never fully masked.
_CAUSAL = ("causal", "tril", "triu", "future", "subsequent", "look_ahead")


def _infinite_fill(call: ast.Call) -> ast.expr | None:
    """The mask of `s.masked_fill(mask, -inf)` or of `torch.where(mask, s, -inf)`."""
    if last(call) in {"masked_fill", "masked_fill_"}:
        value = argument(call, "value", 1)
        mask = argument(call, "mask", 0)
        return mask if value is not None and _infinite(value) else None
    if last(call) == "where" and len(call.args) == 3:
        return call.args[0] if any(_infinite(a) for a in call.args[1:]) else None
    return None


def _find_fill_before_softmax(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        mask = _infinite_fill(call)
        if mask is None or any(word in ast.unparse(mask).lower() for word in _CAUSAL):
            continue
        function = tree.function(call) or tree.root
        if any(isinstance(n, ast.Call) and last(n) in _SOFTMAX for n in ast.walk(function)):
            hits.append(tree.hit(call, mask=ast.unparse(mask)))
    return hits


FULLY_MASKED_ROW = Detector(
    name="infinite_fill_before_softmax",
    title="attention scores filled with -inf and then softmaxed (a fully masked row is NaN)",
    category="nan_inf",
    explain=(
        "{where}: `{code}` fills the positions of `{mask}` with -inf before a softmax: any row "
        "where every key is masked (an all-padding sequence) is a softmax over only -inf, "
        "which is NaN, and the NaN reaches the loss and every weight"
    ),
    find=_find_fill_before_softmax,
)
