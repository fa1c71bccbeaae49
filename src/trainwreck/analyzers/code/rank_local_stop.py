"""A distributed training loop left on a condition each rank counts for itself.

`if tokens_seen >= budget: break` inside a DDP or Accelerate loop, where
`tokens_seen` adds up this rank's own batches (`+= batch["attention_mask"].sum()`),
lets every rank leave the loop at its own step: the data differ per rank, so
one rank stops while the others still call the gradient all-reduce of their
next backward, and the collectives no longer match. The rank that left waits in
the next barrier (or at exit) and the others in backward, until the timeout.
A counter that is reduced across ranks (`all_reduce`, `gather`, `reduce`,
`broadcast` on it) or a condition on the step count stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import AMBIGUOUS_COLLECTIVES, COLLECTIVES, distributed
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last, names_in

# Calls that make a value the same on every rank: the collectives, and Lightning's vote.
_SYNCS = COLLECTIVES | AMBIGUOUS_COLLECTIVES | {"reduce_boolean_decision"}
# A count of this rank's own data: the added value calls one of these on the batch.
_DATA_COUNT = frozenset({"sum", "numel", "len", "item", "size", "int", "count_nonzero"})


def _trains(loop: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and last(n) == "backward" for n in ast.walk(loop))


def _counted_per_rank(loop: ast.For | ast.While) -> set[str]:
    """Names the loop adds data-dependent amounts to (`n += batch["mask"].sum()`)."""
    return {
        dotted(node.target)
        for node in ast.walk(loop)
        if isinstance(node, ast.AugAssign)
        and isinstance(node.op, ast.Add)
        and any(isinstance(c, ast.Call) and last(c) in _DATA_COUNT for c in ast.walk(node.value))
    }


def _synced(tree: Tree) -> set[str]:
    return {
        name
        for call in tree.calls
        if last(call) in _SYNCS
        for argument in call.args
        for name in names_in(argument)
    }


def _find(tree: Tree) -> list[Hit]:
    if not distributed(tree):
        return []
    synced = _synced(tree)
    hits = []
    for loop in tree.nodes:
        if not (isinstance(loop, ast.For | ast.While) and _trains(loop)):
            continue
        counted = _counted_per_rank(loop) - synced
        for node in ast.walk(loop):
            if not (isinstance(node, ast.If) and any(isinstance(s, ast.Break) for s in node.body)):
                continue
            if tree.loops(node)[:1] != [loop]:
                continue
            used = names_in(node.test) & counted
            if used:
                hits.append(tree.hit(node, counter=sorted(used)[0]))
    return hits


DETECTOR = Detector(
    name="rank_local_stop_condition",
    title="A distributed training loop breaks on a count each rank keeps of its own data",
    category="hang",
    explain=(
        "{where}: `{code}` leaves the loop when this rank's own `{counter}` crosses a threshold; "
        "ranks see different data, so one leaves while the others still all-reduce gradients, "
        "and the collectives no longer match"
    ),
    find=_find,
)
