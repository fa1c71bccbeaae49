"""Asynchronous Pool results read after the `with Pool(...)` block that made them.

multiprocessing.Pool's __exit__ calls terminate(): leaving the `with` block stops
the workers at once, whatever they were doing. apply_async and map_async return
immediately, so a script that submits its jobs inside the block and collects them
with .get() after it waits on results no worker will ever send: .get() without a
timeout blocks forever, and the workers printed no error because they were killed.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last, names_in, receiver

_POOLS = frozenset({"Pool", "ThreadPool"})
# Calls that hand work to the pool and return before it is done.
_ASYNC = frozenset({"apply_async", "map_async", "starmap_async", "imap", "imap_unordered"})


def _pool_blocks(tree: Tree) -> list[tuple[ast.With, str]]:
    """Each `with Pool(...) as name:` and the name it binds."""
    return [
        (node, dotted(item.optional_vars))
        for node in tree.nodes
        if isinstance(node, ast.With)
        for item in node.items
        if isinstance(item.context_expr, ast.Call)
        and last(item.context_expr) in _POOLS
        and item.optional_vars is not None
        and dotted(item.optional_vars)
    ]


def _submitted(block: ast.With, pool: str) -> set[str]:
    """Names bound, inside the block, to what the pool's asynchronous calls returned."""
    names: set[str] = set()
    for node in ast.walk(block):
        if not isinstance(node, ast.Assign):
            continue
        asynchronous = any(
            isinstance(call, ast.Call) and last(call) in _ASYNC and receiver(call) == pool
            for call in ast.walk(node.value)
        )
        if asynchronous:
            names.update(dotted(target) for target in node.targets)
    return names - {""}


def _read_after(tree: Tree, block: ast.With, results: set[str]) -> list[ast.Call]:
    """`.get()` after the block on a result, or on an element of a list of results."""
    end = block.end_lineno or block.lineno
    elements = {
        name.id
        for node in tree.nodes
        if isinstance(node, ast.For | ast.comprehension) and names_in(node.iter) & results
        for name in ast.walk(node.target)
        if isinstance(name, ast.Name)
    }
    readers = results | elements
    return [
        call
        for call in tree.calls
        if last(call) == "get"
        and isinstance(call.func, ast.Attribute)
        and receiver(call) in readers
        and call.lineno > end
    ]


def _find(tree: Tree) -> list[Hit]:
    hits: list[Hit] = []
    for block, pool in _pool_blocks(tree):
        results = _submitted(block, pool)
        hits.extend(
            tree.hit(call, pool=pool, results=", ".join(sorted(results)))
            for call in _read_after(tree, block, results)
        )
    return hits[:1]


DETECTOR = Detector(
    name="pool_results_read_after_with_block",
    title=(
        "Asynchronous Pool results are collected after the `with Pool()` block has "
        "terminated the workers"
    ),
    category="hang",
    explain=(
        "{where}: `{code}` waits for a result of `{pool}`'s asynchronous calls ({results}), "
        "but the `with` block that created `{pool}` has already ended, and leaving it calls "
        "terminate(): the workers are gone and the result never arrives"
    ),
    find=_find,
)
