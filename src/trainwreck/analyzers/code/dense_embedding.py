"""A huge embedding table trained with dense gradients by an Adam-family optimizer.

`nn.Embedding` returns a dense gradient by default: a full (rows, dim) tensor of
zeros except at the rows the batch looked up. Adam then updates every entry of the
table and of its two moment buffers on every step, so a step costs the size of the
table, not of the batch: a 1.6 M x 64 item table is 102 M entries, about 2.5 GB of
weight, gradient and moment traffic per step (6 passes of 410 MB), where a batch of
4,096 clicks touches 4,096 rows. `sparse=True` with `torch.optim.SparseAdam` (or
Adagrad/SGD, which take sparse gradients) updates only the rows looked up.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, argument, is_true, keyword, last, number

# Entries (rows x dim) from which a dense step costs more than the batch it trains on:
# 10 M fp32 entries are 40 MB per tensor, and a dense Adam step reads and writes the weight,
# the gradient and both moments (about 6 x 40 MB = 240 MB, tens of milliseconds at the
# 5-10 GB/s a CPU core streams), per table, whatever the batch size.
DENSE_TABLE_ENTRIES = 10_000_000
# Rows beyond any token vocabulary (language models' run to a few hundred thousand, and their
# tables are a fraction of a model every row of which Adam updates anyway): a table of ids
# (users, items, nodes) that a batch touches only a sliver of.
ID_TABLE_ROWS = 300_000
# Optimizers that keep dense state for every entry and update it every step.
_DENSE_OPTIMIZERS = frozenset({"Adam", "AdamW", "Adamax", "NAdam", "RAdam"})


def _dense_optimizer(tree: Tree) -> str | None:
    return next((last(call) for call in tree.calls if last(call) in _DENSE_OPTIMIZERS), None)


def _size(tree: Tree, node: ast.expr | None) -> float | None:
    return number(tree.resolved(node)) if node is not None else None


def _sparse(call: ast.Call) -> bool:
    return is_true(keyword(call, "sparse"))


def _find(tree: Tree) -> list[Hit]:
    optimizer = _dense_optimizer(tree)
    if optimizer is None:
        return []
    hits = []
    for call in tree.calls:
        if last(call) != "Embedding" or _sparse(call):
            continue
        rows = _size(tree, argument(call, "num_embeddings", 0))
        dim = _size(tree, argument(call, "embedding_dim", 1))
        if (
            rows is not None
            and dim is not None
            and rows >= ID_TABLE_ROWS
            and rows * dim >= DENSE_TABLE_ENTRIES
        ):
            hits.append(
                tree.hit(
                    call, rows=int(rows), dim=int(dim), entries=int(rows * dim), optimizer=optimizer
                )
            )
    return hits


DETECTOR = Detector(
    name="dense_embedding_adam",
    title="A huge embedding table gets dense gradients and an Adam step over every row each step",
    category="slow_throughput",
    explain=(
        "{where}: an embedding of {rows} x {dim} ({entries} entries) with dense gradients, "
        "optimised by {optimizer}: every step updates the whole table and its moments, "
        "not only the rows the batch looked up"
    ),
    find=_find,
)
