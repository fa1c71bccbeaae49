"""A policy-gradient loss built without its minus sign: the optimiser lowers the return.

REINFORCE and its relatives maximise the expected return, whose gradient is the
log-probability of each action taken times the return (or advantage) that followed.
Optimisers descend, so the surrogate loss is the negation of that product. Written as
`(log_probs * returns).sum()` and handed to `backward()`, the update makes the actions
that led to high returns less likely: the episode return falls while the "loss" keeps
going down. A minus anywhere in the expression, a later `loss = -loss`, a backward on
`-loss`, or an optimiser built with `maximize=True` keeps the rule quiet.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, keyword, names_in, receiver

_LOG_PROB = re.compile(r"(?i)(?:^|[._])(?:log_?probs?|logp\w*|log_pi\w*|log_prob)$")
_RETURN = re.compile(
    r"(?i)(?:^|[._])(?:returns?|rets?|advantages?|advs?|rewards?|discounted\w*|gs?|q_?values?)$"
)


def _has(node: ast.AST, pattern: re.Pattern[str]) -> bool:
    return any(pattern.search(name) for name in names_in(node))


def _policy_product(node: ast.AST) -> bool:
    """A product of a log-probability and a return somewhere in the expression."""
    return any(
        isinstance(part, ast.BinOp)
        and isinstance(part.op, ast.Mult)
        and _has(part, _LOG_PROB)
        and _has(part, _RETURN)
        for part in ast.walk(node)
    )


def _minus(node: ast.AST) -> bool:
    return any(isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.USub) for p in ast.walk(node))


def _negated(node: ast.AST) -> bool:
    """A unary minus anywhere in it, or the product subtracted (`loss - log_p * R`); an
    advantage's own subtraction (`returns - baseline`) is no negation."""
    subtracted = (
        isinstance(part, ast.BinOp) and isinstance(part.op, ast.Sub) and _policy_product(part.right)
        for part in ast.walk(node)
    )
    return _minus(node) or any(subtracted)


def _flipped_later(tree: Tree, name: str) -> bool:
    """`loss = -loss`, `loss *= -1`, `(-loss).backward()`, or `maximize=True` anywhere."""
    for node in tree.nodes:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AugAssign):
            targets, value = [node.target], node.value
        else:
            continue
        if any(dotted(target) == name for target in targets) and _minus(value):
            return True
    if any(_minus(call.func) for call in tree.methods("backward")):
        return True
    maximize = (keyword(call, "maximize") for call in tree.calls)
    return any(isinstance(flag, ast.Constant) and flag.value is True for flag in maximize)


def _find(tree: Tree) -> list[Hit]:
    backward_on = {receiver(call) for call in tree.methods("backward")}
    hits = []
    for node in tree.nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        name = dotted(node.targets[0])
        if name not in backward_on or not _policy_product(node.value) or _negated(node.value):
            continue
        if not _flipped_later(tree, name):
            hits.append(tree.hit(node, loss=name))
    return hits


DETECTOR = Detector(
    name="policy_gradient_not_negated",
    title="A policy-gradient loss is log-probability times return without a minus sign: "
    "gradient descent lowers the return",
    category="divergence",
    explain=(
        "{where}: `{code}` multiplies log-probabilities by returns and `{loss}.backward()` "
        "minimises it, which makes the actions that earned high returns less likely"
    ),
    find=_find,
)
