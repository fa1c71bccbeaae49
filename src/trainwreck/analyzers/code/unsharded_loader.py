"""A training DataLoader in DDP code that gives every rank the whole dataset.

Under DistributedDataParallel each process builds its own DataLoader; the loader does
not know about the other ranks. Only a DistributedSampler (or a dataset built for this
rank) splits the data. Without one, every rank iterates all of it in the order its own
seed gives: seeded alike (one `seed=42` for every process), the ranks draw the same
batch at every step, and the all-reduce averages N copies of one gradient, so N GPUs
train like one at N times the cost; seeded apart, each epoch still reads the data N
times. Quiet when the code names a DistributedSampler, passes a sampler or batch
sampler, hands its loaders to an Accelerator's prepare() (which shards them), or builds
the dataset from the rank.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.loaders import built_loaders, dataset_of, has_sampler, trains_from
from trainwreck.analyzers.code.names import distributed
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last, names_in

# A dataset built from the rank or the world size is this rank's shard.
_RANK = re.compile(r"(?i)rank|world_size|num_replicas|shard")


def _rank_aware(tree: Tree, dataset: ast.expr | None) -> bool:
    """Whether the dataset's expression, or what its name is bound to, names the rank."""
    if dataset is None:
        return True  # nothing to follow: stay quiet
    values = [dataset, *tree.values_of(dotted(dataset))] if dotted(dataset) else [dataset]
    return any(_RANK.search(name) for value in values for name in names_in(value)) or any(
        _RANK.search(kw.arg or "")
        for value in values
        for node in ast.walk(value)
        if isinstance(node, ast.Call)
        for kw in node.keywords
    )


def _find(tree: Tree) -> list[Hit]:
    if not distributed(tree) or any(last(call) == "prepare" for call in tree.calls):
        return []
    if "DistributedSampler" in tree.source:
        return []
    hits = []
    for node, call, loader in built_loaders(tree):
        if has_sampler(call):
            continue
        if not _rank_aware(tree, dataset_of(call)) and trains_from(tree, loader, node):
            hits.append(tree.hit(call, loader=loader))
    return hits


DETECTOR = Detector(
    name="ddp_loader_not_sharded",
    title="A training DataLoader in DDP code with no DistributedSampler",
    category="wrong_output",
    explain=(
        "{where}: `{code}` builds {loader} in code that runs as several ranks, with no "
        "DistributedSampler or rank-built dataset: every rank reads the whole dataset"
    ),
    find=_find,
)
