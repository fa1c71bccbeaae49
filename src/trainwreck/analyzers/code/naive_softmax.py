"""A softmax (or log-sum-exp) written out by hand that exponentiates unshifted logits.

exp overflows to inf once its argument passes ln of the dtype's largest value
(about 88.7 in float32, 11.1 in float16), and inf / inf is NaN: one large logit
turns its whole row into NaN. The library softmax, log_softmax and logsumexp
subtract the row's maximum first, which leaves the result unchanged and keeps
every exponent at or below 0. A hand-written `exp(x) / exp(x).sum()` (or
`log(sum(exp(x)))`) has no such shift, so it works while logits are small and
fails once training makes them large; multiplying a mask in (`exp(s) * mask / sum`) does
not prevent it. Shifted forms stay quiet: `x - x.max()`,
`x - m` with `m` bound to a max, or an argument clamped before exp.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, last

_SHIFTS = frozenset({"max", "amax", "logsumexp", "stop_gradient", "detach"})
_GUARDS = frozenset({"clamp", "clip", "clamp_max", "minimum"})
_REDUCTIONS = frozenset({"sum", "reduce_sum", "nansum"})
MAX_DEPTH = 4


def _exp_argument(node: ast.expr, tree: Tree, depth: int = 0) -> ast.expr | None:
    """`x` for `torch.exp(x)`, `x.exp()`, one multiplied by a mask, or a name bound to one;
    None otherwise."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):  # a mask keeps the overflow
        return _exp_argument(node.left, tree, depth + 1) or _exp_argument(
            node.right, tree, depth + 1
        )
    if isinstance(node, ast.Call) and last(node) == "exp":
        if node.args:
            return node.args[0]
        if isinstance(node.func, ast.Attribute):
            return node.func.value
    if isinstance(node, ast.Name):
        values = tree.values_of(node.id)
        if len(values) == 1:
            return _exp_argument(values[0], tree, depth + 1)
    return None


def _shifted(argument: ast.expr, tree: Tree, depth: int = 0) -> bool:
    """Whether the exponent is kept at or below a bound: a max subtracted, or a clamp."""
    if depth > MAX_DEPTH:
        return True  # too deep to read: assume the author shifted it
    if isinstance(argument, ast.BinOp) and isinstance(argument.op, ast.Sub):
        return _mentions_shift(argument.right, tree, depth) or _shifted(
            argument.left, tree, depth + 1
        )
    if isinstance(argument, ast.Call) and last(argument) in _GUARDS:
        return True
    if isinstance(argument, ast.Name):
        values = tree.values_of(argument.id)
        return any(_shifted(value, tree, depth + 1) for value in values)
    return False


def _mentions_shift(node: ast.expr, tree: Tree, depth: int) -> bool:
    """`x.max(...)`, `jnp.max(x)`, or a name bound to one."""
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and last(child) in _SHIFTS:
            return True
        if (
            isinstance(child, ast.Name)
            and depth < MAX_DEPTH
            and any(_mentions_shift(v, tree, depth + 1) for v in tree.values_of(child.id))
        ):
            return True
    return False


def _sums_of_exp(node: ast.expr, tree: Tree) -> list[ast.expr]:
    """The exponents summed anywhere in `node`: `exp(x).sum()`, `torch.sum(e)`."""
    found = []
    for call in ast.walk(node):
        if not isinstance(call, ast.Call) or last(call) not in _REDUCTIONS:
            continue
        # `torch.sum(e, 1)` sums its first argument, `e.sum(-1)` its receiver
        receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
        for summed in (*call.args[:1], *([receiver] if receiver is not None else [])):
            if (argument := _exp_argument(summed, tree)) is not None:
                found.append(argument)
                break
    return found


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for node in tree.nodes:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            numerator = _exp_argument(node.left, tree)
            if numerator is None or _shifted(numerator, tree):
                continue
            if any(ast.dump(s) == ast.dump(numerator) for s in _sums_of_exp(node.right, tree)):
                hits.append(tree.hit(node, form="softmax", logits=ast.unparse(numerator)))
        elif isinstance(node, ast.Call) and last(node) == "log" and node.args:
            for argument in _sums_of_exp(node.args[0], tree):
                if not _shifted(argument, tree):
                    hits.append(tree.hit(node, form="log-sum-exp", logits=ast.unparse(argument)))
    return hits


DETECTOR = Detector(
    name="softmax_without_max_shift",
    title="softmax or log-sum-exp written by hand without subtracting the maximum",
    category="nan_inf",
    explain=(
        "{where}: `{code}` computes a {form} by hand with exp(`{logits}`) unshifted: exp "
        "overflows to inf above 88.7 in float32 (11.1 in float16) and inf/inf is NaN"
    ),
    find=_find,
)
