"""Class predictions of shape (N,) compared with labels kept as an (N, 1) column.

`logits.argmax(dim=1)` has shape (N,). Labels read from a dataframe column, or
made with `keepdim=True`, `unsqueeze(1)` or `view(-1, 1)`, have shape (N, 1).
`preds == labels` then broadcasts to (N, N), every prediction against every
label, and its mean is about the share of the most common class instead of the
accuracy: the metric sits near chance while the loss (which squeezed the labels)
falls. The code says a name is a column when it is built as one or when it is
squeezed elsewhere before a loss; the comparison fires when it does not squeeze.

The same shapes meet in a hand-written error term: a regression head's (N, 1)
output (the code squeezes `model(...)` before its loss) minus an (N,) target,
squared or under abs() for an MSE, RMSE or MAE, is an N x N matrix. On a whole
validation split of 120,000 rows that is 57.6 GB of float32, and on a small one
the metric silently averages every prediction against every target.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, is_true, keyword, last, number

# Calls whose result drops the class dimension: one index per row.
_ARG_REDUCTIONS = frozenset({"argmax", "argmin"})
# Calls that make (or undo) a trailing dimension of size 1.
_SQUEEZES = frozenset({"squeeze", "flatten", "ravel"})
_UNSQUEEZES = frozenset({"unsqueeze"})
_RESHAPES = frozenset({"view", "reshape"})
# Calls that take an absolute value: torch.abs, np.abs, abs, Tensor.abs().
_ABSOLUTE = frozenset({"abs", "absolute"})
# How far a name is followed back through the assignments that bind it.
MAX_DEPTH = 4


def _row_indices(value: ast.expr) -> bool:
    """`x.argmax(dim=1)` / `torch.argmax(x, 1)` / `x.max(1)[1]` with no keepdim: shape (N,)."""
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Call):
        inner = value.value
        return last(inner) == "max" and not is_true(keyword(inner, "keepdim"))
    return (
        isinstance(value, ast.Call)
        and last(value) in _ARG_REDUCTIONS
        and not is_true(keyword(value, "keepdim"))
        and bool(value.args or keyword(value, "dim") is not None)
    )


def _column_shape(call: ast.Call) -> bool:
    """`keepdim=True`, `unsqueeze(1)`/`(-1)`, `view(-1, 1)` / `reshape(-1, 1)`."""
    name = last(call)
    if is_true(keyword(call, "keepdim")):
        return True
    if name in _UNSQUEEZES:
        return bool(call.args) and number(call.args[0]) in (1.0, -1.0)
    if name in _RESHAPES and len(call.args) == 2:
        return number(call.args[1]) == 1.0
    return False


class _Shapes:
    """Which names of one tree hold (N,) predictions and which hold (N, 1) columns."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        squeezed = (
            call.func.value
            for call in tree.calls
            if last(call) in _SQUEEZES and isinstance(call.func, ast.Attribute)
        )
        self.squeezed_elsewhere = {dotted(value) for value in squeezed} - {""}

    def squeezed_forward(self, call: ast.Call) -> bool:
        """`model(x)` where the code squeezes `model(...)`'s output elsewhere: an (N, 1) head."""
        return isinstance(call.func, ast.Name) and call.func.id in self.squeezed_elsewhere

    def predictions(self, value: ast.expr, depth: int = 0) -> bool:
        if _row_indices(value):
            return True
        if isinstance(value, ast.Name) and depth < MAX_DEPTH:
            return any(self.predictions(v, depth + 1) for v in self.tree.values_of(value.id))
        return False

    def column(self, value: ast.expr, depth: int = 0) -> bool:
        if depth > MAX_DEPTH:
            return False
        if isinstance(value, ast.BinOp):  # `out * sd + mu` keeps the shape of `out`
            return self.column(value.left, depth + 1) or self.column(value.right, depth + 1)
        if isinstance(value, ast.Call):
            if last(value) in _SQUEEZES:
                return False
            if _column_shape(value) or self.squeezed_forward(value):
                return True
            inner = value.func.value if isinstance(value.func, ast.Attribute) else None
            return (
                inner is not None
                and last(value) in {"to", "long", "cuda"}
                and self.column(inner, depth + 1)
            )
        if isinstance(value, ast.Subscript):  # labels[:1600] keeps the trailing dimension
            return self.column(value.value, depth + 1)
        name = dotted(value)
        if not name:
            return False
        if depth == 0 and name in self.squeezed_elsewhere:
            return True
        return any(self.column(v, depth + 1) for v in self.tree.values_of(name))


def _find(tree: Tree) -> list[Hit]:
    shapes = _Shapes(tree)
    hits = []
    for node in tree.nodes:
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            continue
        if not isinstance(node.ops[0], ast.Eq | ast.NotEq):
            continue
        left, right = node.left, node.comparators[0]
        for preds, labels in ((left, right), (right, left)):
            if shapes.predictions(preds) and shapes.column(labels):
                hits.append(
                    tree.hit(node, predictions=ast.unparse(preds), labels=ast.unparse(labels))
                )
                break
    return hits


def _error_terms(tree: Tree) -> list[ast.BinOp]:
    """`a - b` squared or under abs(): the error term of an MSE, RMSE or MAE written out."""
    found = []
    for node in tree.nodes:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            inner = node.left
        elif isinstance(node, ast.Call) and last(node) in _ABSOLUTE and node.args:
            inner = node.args[0]
        else:
            continue
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Sub):
            found.append(inner)
    return found


def _find_error_term(tree: Tree) -> list[Hit]:
    shapes = _Shapes(tree)
    for term in _error_terms(tree):
        for column, other in ((term.left, term.right), (term.right, term.left)):
            plain = isinstance(other, ast.Name | ast.Attribute) and not shapes.column(other)
            if plain and shapes.column(column):
                return [tree.hit(term, column=ast.unparse(column), vector=ast.unparse(other))]
    return []


DETECTOR = Detector(
    name="label_column_broadcast",
    title="(N,) predictions compared with (N, 1) labels: the comparison broadcasts to (N, N)",
    category="wrong_output",
    explain=(
        "{where}: `{code}` compares `{predictions}` (shape (N,)) with `{labels}`, an (N, 1) "
        "column; broadcasting makes an (N, N) all-pairs comparison, so the metric sits near "
        "chance however good the model is"
    ),
    find=_find,
)

ERROR_TERM = Detector(
    name="column_minus_vector",
    title="An (N, 1) model output minus an (N,) target in an error term broadcasts to (N, N)",
    category="oom",
    explain=(
        "{where}: `{code}` subtracts `{vector}` from `{column}`, an (N, 1) head output the "
        "code squeezes elsewhere but not here; broadcasting makes an N x N matrix of every "
        "prediction minus every target, N² elements instead of N"
    ),
    find=_find_error_term,
)
