"""A dataset that keeps every item it has produced: an unbounded cache in the item path.

`@functools.lru_cache(maxsize=None)` (or `@cache`) on `__getitem__` or a loader it
calls, or `self.cache[idx] = sample` inside `__getitem__`, keeps every decoded
sample for the life of the dataset: host memory grows with each new index until
the epoch has touched them all, and with DataLoader workers every worker keeps
its own copy. What fits for a toy set is a MemoryError or an OOM kill at scale.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import dataset_classes
from trainwreck.analyzers.code.tree import Function, Hit, Tree, keyword, last


def _unbounded(decorator: ast.expr) -> bool:
    """`@cache`, `@functools.cache`, `@lru_cache(maxsize=None)`, `@lru_cache(None)`."""
    if last(decorator) == "cache":
        return True
    if isinstance(decorator, ast.Call) and last(decorator) == "lru_cache":
        size = keyword(decorator, "maxsize")
        if size is None and decorator.args:
            size = decorator.args[0]
        return isinstance(size, ast.Constant) and size.value is None
    return False


def _stores_items(function: Function) -> list[ast.Assign]:
    """`self.<name>[<key>] = ...` inside the function."""
    return [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.Assign)
        and any(
            isinstance(t, ast.Subscript)
            and isinstance(t.value, ast.Attribute)
            and isinstance(t.value.value, ast.Name)
            and t.value.value.id == "self"
            for t in node.targets
        )
    ]


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for cls in dataset_classes(tree):
        for function in (f for f in cls.body if isinstance(f, Function)):
            for decorator in function.decorator_list:
                if _unbounded(decorator):
                    hits.append(tree.hit(decorator, method=function.name))
            if function.name == "__getitem__":
                hits.extend(
                    tree.hit(node, method="__getitem__") for node in _stores_items(function)
                )
    return hits


DETECTOR = Detector(
    name="dataset_caches_every_item",
    title="The dataset caches every item it produces with no bound, so host memory grows with "
    "each new index",
    category="oom",
    explain=(
        "{where}: `{code}` keeps every result of `{method}` for the dataset's lifetime (and once "
        "per DataLoader worker): memory grows until the whole dataset is held"
    ),
    find=_find,
)
