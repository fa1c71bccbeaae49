"""Host synchronisation in the hot loop: `.item()`, `.cpu()` and friends on every step.

On a GPU, kernels run asynchronously; `.item()`, `.cpu()`, `.numpy()`,
`.tolist()` and torch.cuda.synchronize() make the host wait until the queue
drains, so the next step's kernels cannot be queued behind the current ones.
One such call per step (logging the loss) costs little; several per step, or
one per element of an inner loop, keep the GPU idle between kernels. Calls
under an `if` inside the loop (log every N steps) are not counted, and code
that never puts anything on a GPU is not checked.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import method_calls, runs_on_gpu
from trainwreck.analyzers.code.tree import Hit, Loop, Tree, dotted, last

_SYNCING = frozenset({"item", "cpu", "numpy", "tolist"})
_SYNCHRONIZE = "torch.cuda.synchronize"
# Logging the loss costs one synchronisation per step; more than this per step is a habit
# of the loop, not logging.
MAX_SYNCS_PER_STEP = 2


def _syncs(node: ast.AST) -> list[ast.Call]:
    return [
        call
        for call in ast.walk(node)
        if isinstance(call, ast.Call)
        and (
            (isinstance(call.func, ast.Attribute) and last(call) in _SYNCING and not call.args)
            or dotted(call) == _SYNCHRONIZE
        )
    ]


def _every_step(tree: Tree, call: ast.Call, loop: Loop) -> bool:
    """Not under an `if` inside the loop (a periodic log), and not in a nested loop."""
    for outer in tree.ancestors(call):
        if outer is loop:
            return True
        if isinstance(outer, ast.If | Loop):
            return False
    return False


def _inner_loop_syncs(tree: Tree, loop: Loop) -> list[ast.Call]:
    """Synchronising calls in a loop nested inside the training loop: one per element."""
    return [
        call
        for call in _syncs(loop)
        if any(isinstance(a, Loop) and a is not loop for a in _until(tree, call, loop))
    ]


def _until(tree: Tree, node: ast.AST, stop: ast.AST) -> list[ast.AST]:
    found = []
    for outer in tree.ancestors(node):
        if outer is stop:
            break
        found.append(outer)
    return found


def _find(tree: Tree) -> list[Hit]:
    if not runs_on_gpu(tree):
        return []
    hits = []
    for loop in (node for node in tree.nodes if isinstance(node, Loop)):
        if not method_calls(loop, "backward"):
            continue
        per_step = [call for call in _syncs(loop) if _every_step(tree, call, loop)]
        per_element = _inner_loop_syncs(tree, loop)
        if per_element:
            hits.append(tree.hit(per_element[0], count=len(per_element), kind="in a nested loop"))
        elif len(per_step) > MAX_SYNCS_PER_STEP:
            hits.append(tree.hit(per_step[0], count=len(per_step), kind="per step"))
    return hits


DETECTOR = Detector(
    name="host_sync_in_loop",
    title="The training loop forces CPU-GPU synchronisation on every step",
    category="slow_throughput",
    explain=(
        "{where}: `{code}` is one of {count} synchronising calls (.item(), .cpu(), ...) "
        "{kind} of the training loop: each makes the host wait for the GPU to finish"
    ),
    find=_find,
)
