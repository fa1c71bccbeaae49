"""`next(iter(loader))` inside the training loop: a new DataLoader iterator every step.

Each iter() on a DataLoader builds a fresh iterator; with num_workers > 0 that
starts a new pool of worker processes, which re-imports and re-pickles the dataset
and prefetches batches that are thrown away after the first one. The loop then pays
the workers' start-up on every step and, unless the sampler is random, sees the same
first batch each time. The call outside any loop (a peek at one batch) stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.loaders import LOADER_NAME
from trainwreck.analyzers.code.tree import Hit, Tree, dotted


def _fresh_iterator(call: ast.Call) -> str | None:
    """The loader of a `next(iter(loader))` call, or None for any other call."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "next" and call.args):
        return None
    inner = call.args[0]
    if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)):
        return None
    if inner.func.id != "iter" or len(inner.args) != 1:
        return None
    name = dotted(inner.args[0])
    return name if name and LOADER_NAME.search(name) else None


def _find(tree: Tree) -> list[Hit]:
    return [
        tree.hit(call, loader=loader)
        for call in tree.calls
        if (loader := _fresh_iterator(call)) is not None and tree.loops(call)
    ]


DETECTOR = Detector(
    name="loader_iterated_anew_each_step",
    title="A new DataLoader iterator (and worker pool) is built at every step",
    category="slow_throughput",
    explain=(
        "{where}: `next(iter({loader}))` inside the loop builds a new iterator of `{loader}` "
        "on every pass, restarting its workers and discarding what they prefetched"
    ),
    find=_find,
)
