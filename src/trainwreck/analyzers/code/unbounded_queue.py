"""A producer that fills a queue with no size limit inside a loop.

`queue.Queue()` and `multiprocessing.Queue()` without `maxsize` accept every `put` at once.
A prefetch thread or worker that loads batches faster than the training loop takes them
therefore keeps every batch it has made alive: host memory grows by one batch per step of
lead until the allocator fails or the kernel kills the process. A bound (`maxsize=2..8`)
makes `put` block and holds memory flat at that many batches.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, argument, dotted, number, receiver

_QUEUES = frozenset({"Queue", "SimpleQueue", "JoinableQueue"})


def _unbounded(call: ast.Call) -> bool:
    """A queue made without a positive maxsize (SimpleQueue has none)."""
    if dotted(call.func).rsplit(".", 1)[-1] not in _QUEUES:
        return False
    size = argument(call, "maxsize", 0)
    return size is None or ((value := number(size)) is not None and value <= 0)


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        if not _unbounded(call):
            continue
        parent = tree.parents.get(call)
        if not isinstance(parent, ast.Assign) or len(parent.targets) != 1:
            continue
        name = dotted(parent.targets[0])
        puts = [put for put in tree.methods("put") if receiver(put) == name]
        if any(tree.loops(put) for put in puts):
            hits.append(tree.hit(call, queue=name))
    return hits


DETECTOR = Detector(
    name="unbounded_prefetch_queue",
    title="A producer loop fills a queue without a maxsize: unconsumed batches pile up in memory",
    category="oom",
    explain=(
        "{where}: `{queue}` is created without a maxsize and filled with `put` inside a loop: "
        "whatever the consumer has not taken yet stays in memory"
    ),
    find=_find,
)
