"""`scaler.step(optimizer)` and a plain `optimizer.step()` both reached in one iteration.

GradScaler.step unscales the gradients and calls optimizer.step() itself, skipping
it when the unscaled gradients hold inf or NaN (an fp16 overflow). A second,
unconditional `optimizer.step()` on the same optimizer applies every step twice
and, on the overflow steps the scaler meant to skip, writes the inf/NaN
gradients into the weights: a mixed-precision run that trains for thousands of
steps and then turns NaN. The scaler call and the plain call in the two
branches of one `if` (AMP on, AMP off) are the correct pattern and stay quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, receiver

# What a GradScaler is usually called: `scaler`, `grad_scaler`, `amp_scaler`, `self.scaler`.
_SCALER_WORD = "scaler"


def _scaler_steps(tree: Tree) -> list[tuple[ast.Call, str]]:
    """(`scaler.step(opt)` call, the optimizer's name) for each scaler step in the code."""
    return [
        (call, dotted(call.args[0]))
        for call in tree.methods("step")
        if _SCALER_WORD in receiver(call).lower() and len(call.args) == 1 and dotted(call.args[0])
    ]


def _plain_steps(tree: Tree, optimizer: str) -> list[ast.Call]:
    return [call for call in tree.methods("step") if not call.args and receiver(call) == optimizer]


def _branch(lineage: set[ast.AST], node: ast.If) -> str | None:
    """Which branch of `node` holds the call whose lineage (itself and its ancestors) is given."""
    if any(statement in lineage for statement in node.body):
        return "body"
    if any(statement in lineage for statement in node.orelse):
        return "orelse"
    return None


def _exclusive(tree: Tree, first: ast.AST, second: ast.AST) -> bool:
    """Whether the two calls sit in different branches of one `if` (never both run)."""
    first_line = {first, *tree.ancestors(first)}
    second_line = {second, *tree.ancestors(second)}
    for node in tree.ancestors(first):
        if isinstance(node, ast.If):
            mine, theirs = _branch(first_line, node), _branch(second_line, node)
            if mine is not None and theirs is not None and mine != theirs:
                return True
    return False


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for scaled, optimizer in _scaler_steps(tree):
        for plain in _plain_steps(tree, optimizer):
            if tree.function(plain) is tree.function(scaled) and not _exclusive(
                tree, scaled, plain
            ):
                hits.append(tree.hit(plain, scaled=ast.unparse(scaled), step=ast.unparse(plain)))
    return hits


DETECTOR = Detector(
    name="optimizer_stepped_after_scaler",
    title="The optimizer is stepped by the GradScaler and again by a plain optimizer.step()",
    category="nan_inf",
    explain=(
        "{where}: `{step}` runs in the same iteration as `{scaled}`, which already steps the "
        "optimizer (and skips overflowed steps); the extra step applies them anyway"
    ),
    find=_find,
)
