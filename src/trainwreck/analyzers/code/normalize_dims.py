"""Embeddings L2-normalised along the batch axis in one place and per row in another.

`F.normalize(x, dim=-1)` (or dim=1) scales each embedding to unit length; `dim=0` scales
each feature column across the batch instead, so every vector keeps its own length and its
values now depend on which other rows share the batch. Code that trains with per-row
normalisation and builds its index or scores queries with `dim=0` compares vectors of
another geometry: recall drops, and a query scored alone (a batch of one) gets yet another
result. Both sides need the same per-row normalisation.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, argument, last, number

_PER_ROW = frozenset({1.0, -1.0})


def _dims(tree: Tree) -> list[tuple[ast.Call, float | None]]:
    """Every `normalize(...)` call with its dim (the functional default is 1)."""
    found = []
    for call in tree.calls:
        if last(call) != "normalize" or not call.args:
            continue
        given = argument(call, "dim", 2)
        found.append((call, 1.0 if given is None else number(given)))
    return found


def _find(tree: Tree) -> list[Hit]:
    calls = _dims(tree)
    if not any(dim in _PER_ROW for _, dim in calls):
        return []
    return [tree.hit(call, tensor=ast.unparse(call.args[0])) for call, dim in calls if dim == 0.0]


DETECTOR = Detector(
    name="normalize_across_batch",
    title="Embeddings normalised along the batch axis (dim=0) where other code normalises each row",
    category="wrong_output",
    explain=(
        "{where}: `normalize({tensor}, dim=0)` scales each feature across the batch, while "
        "the same code normalises other embeddings per row (dim=-1/1): the two sides compare "
        "vectors of different geometry"
    ),
    find=_find,
)
