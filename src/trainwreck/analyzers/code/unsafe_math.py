"""log, sqrt or a division applied to a model's probabilities with no epsilon or clamp.

A sigmoid or softmax output rounds to exactly 0.0 or 1.0 once the model grows
confident (in float32, sigmoid(x) is 1.0 for x above about 17): log(0) is
-inf, 0 * -inf is NaN, and log's backward divides by 0. sqrt's gradient at 0 is
infinite, and a ratio whose denominator is a sum of such outputs is 0/0 on an
empty mask. The library losses work in log space or clamp; a hand-written loss
must add an epsilon or clamp its argument. What counts as a probability: a
sigmoid/softmax result, `1 - p` of one, a name bound to one, or a parameter
named like one (`p`, `probs`, `y_pred`) of a function named like a loss. Model
code divides by sigmoid outputs on purpose (box sizes, normalised weights), so a
division counts only inside a loss: a function, or a target, named like one.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.losses import in_loss, is_loss_function
from trainwreck.analyzers.code.tree import Function, Hit, Tree, last, number

_SQUASHING = frozenset({"sigmoid", "softmax", "Sigmoid", "Softmax"})
_GUARDS = frozenset({"clamp", "clamp_min", "clamp_", "clip", "maximum", "where", "nan_to_num"})
_UNSAFE = frozenset({"log", "log2", "log10", "sqrt", "rsqrt", "reciprocal"})
_REDUCTIONS = frozenset({"sum", "mean"})
_PROBABILITY_NAME = re.compile(
    r"(?i)^(?:p|probs?|probas?|probabilit\w*|preds?|predictions?|y_?pred|y_?hat|outputs?|scores?)$"
)
_EPSILON_NAME = re.compile(r"(?i)eps|epsilon|smooth|tiny")
# An added constant this small is an epsilon, not part of the formula.
MAX_EPSILON = 1e-3
MAX_DEPTH = 4


def _is_epsilon(node: ast.expr) -> bool:
    value = number(node)
    if value is not None:
        return 0 < value <= MAX_EPSILON
    return bool(_EPSILON_NAME.search(ast.unparse(node)))


class _Probability:
    """Which expressions of one tree can be a probability that reaches exactly 0 or 1."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree

    def __call__(self, value: ast.expr, scope: Function | None, depth: int = 0) -> bool:
        if depth > MAX_DEPTH:
            return False
        if isinstance(value, ast.Call):
            return self._call(value, scope, depth)
        if isinstance(value, ast.BinOp):
            if isinstance(value.op, ast.Add) and (
                _is_epsilon(value.left) or _is_epsilon(value.right)
            ):
                return False
            if isinstance(value.op, ast.Sub):  # 1 - p
                return self(value.right, scope, depth + 1)
            return self(value.left, scope, depth + 1) or self(value.right, scope, depth + 1)
        if isinstance(value, ast.Subscript):
            return self(value.value, scope, depth + 1)
        if isinstance(value, ast.Name):
            return self._name(value.id, scope, depth)
        return False

    def _call(self, call: ast.Call, scope: Function | None, depth: int) -> bool:
        name = last(call)
        if name in _GUARDS:
            return False
        if name in _SQUASHING:
            return True
        if name in _REDUCTIONS and isinstance(call.func, ast.Attribute):
            return self(call.func.value, scope, depth + 1)
        return False

    def _name(self, name: str, scope: Function | None, depth: int) -> bool:
        bound = [
            node.value
            for node in self.tree.assignments(name, within=scope)
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
        ]
        if bound:
            return any(self(value, scope, depth + 1) for value in bound)
        parameters = {arg.arg for arg in scope.args.args} if scope is not None else set()
        return (
            scope is not None
            and name in parameters
            and is_loss_function(scope.name)
            and bool(_PROBABILITY_NAME.match(name))
        )


def _operands(tree: Tree) -> list[tuple[ast.AST, str, ast.expr]]:
    """(node, operation, operand) for each log/sqrt call and each division."""
    found: list[tuple[ast.AST, str, ast.expr]] = []
    for call in tree.calls:
        name = last(call)
        if name not in _UNSAFE:
            continue
        if call.args:
            found.append((call, name, call.args[0]))  # torch.log(p)
        elif isinstance(call.func, ast.Attribute):
            found.append((call, name, call.func.value))  # p.log()
    for node in tree.nodes:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and in_loss(tree, node):
            found.append((node, "division", node.right))
    return found


def _find(tree: Tree) -> list[Hit]:
    probability = _Probability(tree)
    hits = []
    for node, operation, operand in _operands(tree):
        if probability(operand, tree.function(node)):
            hits.append(tree.hit(node, operation=operation, operand=ast.unparse(operand)))
    return hits


DETECTOR = Detector(
    name="log_without_eps",
    title="log, sqrt or division on a probability with no epsilon or clamp",
    category="nan_inf",
    explain=(
        "{where}: `{code}` applies {operation} to `{operand}`, a probability that can reach "
        "exactly 0 (or 1), with no epsilon or clamp: log(0) = -inf and its gradient is infinite"
    ),
    find=_find,
)
