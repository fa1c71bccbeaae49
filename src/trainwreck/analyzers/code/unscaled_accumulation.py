"""Hand-written gradient accumulation whose loss is not divided by the number of micro-batches.

Stepping the optimizer only every k micro-batches (`if (i + 1) % k == 0:
optimizer.step()`) sums k gradients in .grad. Unless each micro-batch loss is
divided by k, the update is k times the gradient of the mean loss: the same as
multiplying the learning rate (and any gradient-norm reading) by k, so a rate
tuned for the full batch diverges. Loops under `accelerator.accumulate(...)`
(which scales for you) and losses divided before backward() stay quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import method_calls, optimizer_steps
from trainwreck.analyzers.code.tree import Hit, Loop, Tree, dotted, last


def _stepped_every_k(tree: Tree, step: ast.Call, loop: Loop) -> ast.expr | None:
    """The k of an `if ... % k == 0:` that guards the step inside the loop."""
    for outer in tree.ancestors(step):
        if outer is loop:
            return None
        if isinstance(outer, ast.If):
            for node in ast.walk(outer.test):
                if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
                    return node.right
    return None


def _backward_losses(loop: Loop) -> list[ast.expr]:
    """What backward runs on: `loss` in `loss.backward()` or `accelerator.backward(loss)`."""
    found: list[ast.expr] = []
    for call in method_calls(loop, "backward"):
        if call.args:
            found.append(call.args[0])
        elif isinstance(call.func, ast.Attribute):
            found.append(call.func.value)
    return found


def _divided(tree: Tree, loss: ast.expr, loop: Loop) -> bool:
    """The loss (or what it was built from) is divided somewhere in the loop."""
    if any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) for n in ast.walk(loss)):
        return True
    name = dotted(loss)
    if isinstance(loss, ast.Call) and loss.args:  # scaler.scale(loss)
        name = dotted(loss.args[0])
    for node in tree.assignments(name, within=loop):
        value = getattr(node, "value", None)
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Div):
            return True
        if value is not None and any(
            isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) for n in ast.walk(value)
        ):
            return True
    return False


def _accumulate_context(tree: Tree, node: ast.AST) -> bool:
    return any(
        isinstance(outer, ast.With)
        and any(last(item.context_expr) == "accumulate" for item in outer.items)
        for outer in tree.ancestors(node)
    )


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for loop in (node for node in tree.nodes if isinstance(node, Loop)):
        for step in tree.directly_in(loop, optimizer_steps(loop)):
            every = _stepped_every_k(tree, step, loop)
            losses = _backward_losses(loop)
            if every is None or not losses or _accumulate_context(tree, step):
                continue
            if not any(_divided(tree, loss, loop) for loss in losses):
                hits.append(tree.hit(step, every=ast.unparse(every)))
    return hits


DETECTOR = Detector(
    name="accumulation_loss_not_divided",
    title="Gradients are accumulated over several micro-batches but the loss is not divided by "
    "their number",
    category="divergence",
    explain=(
        "{where}: `{code}` runs once every `{every}` micro-batches while each backward() adds "
        "an undivided loss's gradient: the update is that many times the mean gradient"
    ),
    find=_find,
)
