"""Child processes joined before the parent drains the multiprocessing.Queue they fill.

A process that put items on a multiprocessing.Queue does not exit until a feeder thread
has pushed them all into the underlying pipe, and the pipe holds only a small buffer.
A parent that join()s the workers first and get()s their results afterwards waits for
workers that wait for it: small results fit the pipe and pass, real-sized ones hang with
every worker reporting it is done. Python's multiprocessing guidelines show this exact
order as their deadlock example. A get() before the join() stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, receiver

# multiprocessing's queues, also from a context (`ctx.Queue()`); a bare `Queue()` only in code
# that imports multiprocessing (queue.Queue serves threads, which share memory: nothing to flush).
_MP_QUEUE = frozenset({"mp.Queue", "multiprocessing.Queue", "ctx.Queue", "mp.SimpleQueue"})
_BARE_QUEUE = frozenset({"Queue", "SimpleQueue"})


def _queues(tree: Tree) -> set[str]:
    """Names bound to a multiprocessing queue."""
    kinds = _MP_QUEUE | (_BARE_QUEUE if "multiprocessing" in tree.source else frozenset())
    return {
        name
        for node in tree.nodes
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and dotted(node.value.func) in kinds
        for target in node.targets
        if (name := dotted(target))
    }


def _first_get(tree: Tree, join: ast.Call, queues: set[str]) -> ast.Call | None:
    """The first `q.get()` on those queues in the function that holds the join."""
    scope = tree.function(join)
    gets = [
        call
        for call in tree.methods("get")
        if receiver(call) in queues and tree.function(call) is scope
    ]
    return min(gets, key=lambda call: call.lineno, default=None)


def _find(tree: Tree) -> list[Hit]:
    queues = _queues(tree)
    if not queues or "Process(" not in tree.source:
        return []
    hits = []
    for join in tree.methods("join"):
        if join.args or join.keywords:
            continue  # str.join(parts), os.path.join(...), a join with a timeout
        get = _first_get(tree, join, queues)
        if get is not None and get.lineno > join.lineno:
            hits.append(tree.hit(join, join=ast.unparse(join), get=ast.unparse(get)))
    return hits


DETECTOR = Detector(
    name="process_joined_before_queue_drained",
    title="Worker processes are joined before their multiprocessing.Queue is drained",
    category="hang",
    explain=(
        "{where}: `{join}` waits for workers that cannot exit until their queued results are "
        "read, and `{get}` only runs after it"
    ),
    find=_find,
)
