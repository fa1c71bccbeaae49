"""A process pool kept on a dataset that DataLoader workers copy.

A `multiprocessing.Pool` (or `ProcessPoolExecutor`) made in the dataset's
`__init__` and stored on `self` belongs to the main process: its worker
processes and the threads that feed them. DataLoader workers are forked copies
of the dataset; a fork copies the pool object but not its threads, so a
`pool.map` called from `__getitem__` in a worker hands tasks to a queue no
thread serves and waits forever: the first epoch never shows progress and no
error is raised. Code whose DataLoaders all use `num_workers=0` stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import dataset_classes
from trainwreck.analyzers.code.tree import Hit, Tree, keyword, last, number

_POOLS = frozenset({"Pool", "ProcessPoolExecutor"})


def _loads_with_workers(tree: Tree) -> bool:
    """A `DataLoader(...)` whose num_workers is given and is not a literal 0."""
    for call in tree.calls:
        if last(call) != "DataLoader":
            continue
        workers = keyword(call, "num_workers")
        if workers is not None and number(workers) != 0:
            return True
    return False


def _stored_pools(cls: ast.ClassDef) -> list[ast.Call]:
    """`self.<name> = Pool(...)` anywhere in the class."""
    return [
        node.value
        for node in ast.walk(cls)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and last(node.value) in _POOLS
        and any(
            isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
            for t in node.targets
        )
    ]


def _find(tree: Tree) -> list[Hit]:
    if not _loads_with_workers(tree):
        return []
    return [tree.hit(pool) for cls in dataset_classes(tree) for pool in _stored_pools(cls)]


DETECTOR = Detector(
    name="pool_in_dataset",
    title="A dataset keeps a process pool that forked DataLoader workers copy without its threads",
    category="hang",
    explain=(
        "{where}: `{code}` is stored on the dataset; DataLoader workers fork a copy of the pool "
        "without the threads that serve it, so a map() from __getitem__ waits forever"
    ),
    find=_find,
)
