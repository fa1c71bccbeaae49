"""Data split across ranks by hand into shards that need not be the same size.

`x[rank::world_size]`, `np.array_split(x, world_size)[rank]` or
`x.chunk(world_size)[rank]` gives each rank its own part of the data, but when
the number of samples is not a multiple of the world size the first ranks get
one sample more: with a DataLoader that keeps its last partial batch, one rank
runs one batch more per epoch than another. Under DistributedDataParallel every
backward is a gradient all-reduce that all ranks must join, so the rank with the
extra batch waits in a collective the others never enter, until the NCCL
watchdog's timeout. DistributedSampler pads (or, with drop_last, trims) every
rank to the same count, which is why the library path does not hang; code that
trims the data to a multiple of the world size (`n - n % world_size`) or runs
the loop under DDP's `join()` stays quiet.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import RANK
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last

_WORLD = re.compile(r"(?i)world|num_replicas|num_processes|nprocs|n_gpus|num_gpus")
_SPLITS = frozenset({"array_split", "chunk", "tensor_split"})
# Collectives that pair up across ranks on every training step.
_STEP_COLLECTIVES = frozenset({"DistributedDataParallel", "DDP", "all_reduce", "all_gather"})
# DDP's uneven-input context managers: `with model.join():`, `with Join([model]):`.
_JOINS = frozenset({"join", "Join"})


def _names(node: ast.AST, pattern: re.Pattern[str]) -> bool:
    return any(
        isinstance(n, ast.Name | ast.Attribute | ast.Call) and pattern.search(dotted(n))
        for n in ast.walk(node)
    )


def _strided(node: ast.Subscript) -> bool:
    """`x[rank::world_size]`."""
    part = node.slice
    return (
        isinstance(part, ast.Slice)
        and part.lower is not None
        and part.step is not None
        and _names(part.lower, RANK)
        and _names(part.step, _WORLD)
    )


def _split_by_rank(node: ast.Subscript) -> bool:
    """`np.array_split(x, world_size)[rank]`, `x.chunk(world_size)[rank]`."""
    split = node.value
    return (
        isinstance(split, ast.Call)
        and last(split) in _SPLITS
        and any(_names(argument, _WORLD) for argument in split.args)
        and _names(node.slice, RANK)
    )


def _evened(tree: Tree) -> bool:
    """The data is trimmed to a multiple of the world size, or the loop runs under join()."""
    for node in tree.nodes:
        # only as a `with` context: `", ".join(names)` or `worker.join()` even nothing out
        if isinstance(node, ast.With | ast.AsyncWith) and any(
            isinstance(item.context_expr, ast.Call) and last(item.context_expr) in _JOINS
            for item in node.items
        ):
            return True
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and _names(node.right, _WORLD)
        ):
            return True
    return False


def _find(tree: Tree) -> list[Hit]:
    if not any(last(call) in _STEP_COLLECTIVES for call in tree.calls) or _evened(tree):
        return []
    return [
        tree.hit(node, data=ast.unparse(node.value))
        for node in tree.nodes
        if isinstance(node, ast.Subscript) and (_strided(node) or _split_by_rank(node))
    ]


DETECTOR = Detector(
    name="data_sharded_by_rank_by_hand",
    title="Data split across ranks by hand, so ranks can get different numbers of batches",
    category="hang",
    explain=(
        "{where}: `{code}` gives each rank its own slice of the data: unless the sample count "
        "is a multiple of the world size the slices differ by one, one rank runs an extra "
        "batch, and its gradient all-reduce waits for ranks that have finished the epoch"
    ),
    find=_find,
)
