"""A dataset item read as one row of a pandas DataFrame, every sample of every epoch.

`self.df.iloc[idx]` (or `.loc[...]`, `.at`/`.iat` lookups) inside `__getitem__`
builds a pandas Series per sample: index alignment, dtype resolution over
mixed columns (an object Series when the frame holds strings or categoricals)
and a fresh NumPy conversion, tens of microseconds each. The DataLoader calls
`__getitem__` once per index, so a tabular model with a small network spends
its epoch in pandas: a few thousand rows a second where a tensor built once in
`__init__` and indexed per batch gives tens of thousands.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import item_methods
from trainwreck.analyzers.code.tree import Hit, Tree, dotted

# pandas' row and cell indexers.
_ROW_INDEXERS = frozenset({"iloc", "loc", "iat", "at"})


def _frame_rows(function: ast.AST) -> list[tuple[ast.Subscript, str]]:
    """`self.<frame>.iloc[...]` (or loc/iat/at) on the dataset's own storage, with the
    indexer used."""
    return [
        (node, node.value.attr)
        for node in ast.walk(function)
        if isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr in _ROW_INDEXERS
        and dotted(node.value.value).startswith("self.")
    ]


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for function in item_methods(tree):
        rows = _frame_rows(function)
        if rows:
            row, indexer = rows[0]
            hits.append(tree.hit(row, indexer=indexer))
    return hits


DETECTOR = Detector(
    name="dataframe_row_read_per_item",
    title="__getitem__ reads one pandas DataFrame row per sample",
    category="slow_throughput",
    explain=(
        "{where}: `{code}` builds a pandas row (`.{indexer}`) for every sample the DataLoader "
        "asks for; converting the frame to tensors once in __init__ removes that cost"
    ),
    find=_find,
)
