"""Gradient accumulation under DistributedDataParallel without no_sync().

DDP all-reduces the gradients during every backward(). A loop that steps the
optimizer only every k micro-batches needs those reductions only on the k-th:
the others should run inside `model.no_sync()` (or Accelerate's `accumulate`).
Without it each micro-batch pays a full all-reduce, and throughput drops by
up to the accumulation factor on a slow interconnect.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import method_calls, optimizer_steps
from trainwreck.analyzers.code.tree import Hit, Loop, Tree

_DDP = re.compile(r"\bDistributedDataParallel\b|\bDDP\(")
# Ways code skips the all-reduce on accumulation steps.
_SYNC_CONTROL = re.compile(r"\bno_sync\b|\baccumulate\(|require_backward_grad_sync")


def _guard(tree: Tree, step: ast.Call, loop: Loop) -> ast.If | None:
    """The innermost `if` between a step and the loop, or None when the step is unconditional."""
    for outer in tree.ancestors(step):
        if outer is loop:
            return None
        if isinstance(outer, ast.If):
            return outer
    return None


def _conditional_step(tree: Tree, loop: Loop) -> ast.If | None:
    """The `if` inside the loop that guards the optimizer steps, if every step is guarded."""
    guards = [_guard(tree, step, loop) for step in optimizer_steps(loop)]
    if guards and all(guard is not None for guard in guards):
        return guards[0]
    return None


def _find(tree: Tree) -> list[Hit]:
    text = tree.source
    if not _DDP.search(text) or _SYNC_CONTROL.search(text):
        return []
    hits = []
    for loop in (node for node in tree.nodes if isinstance(node, Loop)):
        guard = _conditional_step(tree, loop)
        if guard is None:
            continue
        backward = [
            call for call in method_calls(loop, "backward") if guard not in tree.ancestors(call)
        ]
        if backward:
            hits.append(tree.hit(backward[0], condition=ast.unparse(guard.test)))
    return hits


DETECTOR = Detector(
    name="ddp_accumulation_without_no_sync",
    title="Gradient accumulation under DDP all-reduces on every micro-batch (no no_sync())",
    category="slow_throughput",
    explain=(
        "{where}: `{code}` runs on every micro-batch while the optimizer steps only when "
        "`{condition}`, and the DDP model is never put in no_sync(): each micro-batch "
        "all-reduces every gradient"
    ),
    find=_find,
)
